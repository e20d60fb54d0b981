// RUN: onnx-opt %s --onnx-validate -split-input-file -verify-diagnostics
// Model-local functions and training bindings.

module attributes {onnx.ir_version = 10 : i64, onnx.opset_import = {ai.onnx = 21 : i64, custom = 1 : i64}} {
  func.func private @"custom::F"(%x: !onnx.any) -> !onnx.any attributes {onnx.function = {domain = "custom", name = "F", inputs = ["x"], outputs = ["x"], attributes = [], opset_import = {ai.onnx = 21 : i64}}} {
    return %x : !onnx.any
  }
  // expected-error@+1 {{model-local functions 'custom::F' and 'custom::F2' have the same domain, name and overload [ir-func-unique]}}
  func.func private @"custom::F2"(%x: !onnx.any) -> !onnx.any attributes {onnx.function = {domain = "custom", name = "F", inputs = ["x"], outputs = ["x"], attributes = [], opset_import = {ai.onnx = 21 : i64}}} {
    return %x : !onnx.any
  }
}

// -----

module attributes {onnx.ir_version = 10 : i64, onnx.opset_import = {ai.onnx = 21 : i64, custom = 1 : i64}} {
  // expected-error@+1 {{model-local function 'custom::F' calls itself: 'custom::F' -> 'custom::G' -> 'custom::F' [ir-func-no-recursion]}}
  func.func private @"custom::F"(%x: !onnx.any) -> !onnx.any attributes {onnx.function = {domain = "custom", name = "F", inputs = ["x"], outputs = ["y"], attributes = [], opset_import = {custom = 1 : i64}}} {
    %y = onnx.call @"custom::G"(%x) {onnx.outputs = ["y"]} : (!onnx.any) -> !onnx.any
    return %y : !onnx.any
  }
  func.func private @"custom::G"(%x: !onnx.any) -> !onnx.any attributes {onnx.function = {domain = "custom", name = "G", inputs = ["x"], outputs = ["y"], attributes = [], opset_import = {custom = 1 : i64}}} {
    %y = onnx.call @"custom::F"(%x) {onnx.outputs = ["y"]} : (!onnx.any) -> !onnx.any
    return %y : !onnx.any
  }
}

// -----

module attributes {onnx.ir_version = 10 : i64, onnx.opset_import = {ai.onnx = 21 : i64, custom = 1 : i64}} {
  // expected-error@+1 {{model-local function 'custom::F': attribute 'alpha' is given both without and with a default value [ir-func-attr-distinct]}}
  func.func private @"custom::F"(%x: !onnx.any) -> !onnx.any attributes {onnx.function = {domain = "custom", name = "F", inputs = ["x"], outputs = ["x"], attributes = ["alpha"], attribute_defaults = {alpha = 1.0 : f32}, opset_import = {ai.onnx = 21 : i64}}} {
    return %x : !onnx.any
  }
}

// -----

module attributes {onnx.ir_version = 10 : i64, onnx.opset_import = {ai.onnx = 21 : i64, custom = 1 : i64}} {
  // expected-warning@+1 {{model-local function 'custom::F': attribute 'x' has the name of an input or output [ir-func-attr-names]}}
  func.func private @"custom::F"(%x: !onnx.any) -> !onnx.any attributes {onnx.function = {domain = "custom", name = "F", inputs = ["x"], outputs = ["x"], attributes = ["x"], opset_import = {ai.onnx = 21 : i64}}} {
    return %x : !onnx.any
  }
}

// -----

module attributes {onnx.ir_version = 10 : i64, onnx.opset_import = {ai.onnx = 21 : i64, custom = 1 : i64}} {
  func.func private @"custom::F"(%x: !onnx.any) -> !onnx.any attributes {onnx.function = {domain = "custom", name = "F", inputs = ["x"], outputs = ["y"], attributes = ["slope"], opset_import = {ai.onnx = 21 : i64}}} {
    // expected-error@+1 {{attribute 'alpha' refers to 'a', which is no attribute of the function [ir-func-attr-ref]}}
    %y = onnx.LeakyRelu(%x) {onnx.outputs = ["y"], onnx.attr_refs = {alpha = #onnx.ref<"a">}} : (!onnx.any) -> !onnx.any
    return %y : !onnx.any
  }
}

// -----

module attributes {onnx.ir_version = 10 : i64, onnx.opset_import = {ai.onnx = 21 : i64}} {
  func.func @g(%x: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'n' (LeakyRelu): attribute 'alpha' refers to a function attribute outside a function [ir-func-attr-ref]}}
    %y = onnx.LeakyRelu(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.attr_refs = {alpha = #onnx.ref<"a">}} : (tensor<2xf32>) -> tensor<2xf32>
    return %y : tensor<2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 10 : i64, onnx.opset_import = {ai.onnx = 21 : i64}} {
  // expected-error@+1 {{'custom::F': onnx.function is not a dictionary [ir-repr-attr]}}
  func.func private @"custom::F"(%x: !onnx.any) -> !onnx.any attributes {onnx.function = 1 : i64} {
    return %x : !onnx.any
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  ml_program.global private @W(dense<1.0> : tensor<2xf32>) : tensor<2xf32> {onnx.name = "W"}
  // expected-error@+2 {{training_info 0, algorithm binding: 'V' names no initializer of the model [ir-training-binding-key]}}
  // expected-error@+1 {{training_info 0, algorithm binding: 'Z' (bound to 'W') is not an output of the graph [ir-training-binding-value]}}
  func.func private @"training_info.0.algorithm"() -> (tensor<2xf32> {onnx.name = "W_new"}) attributes {onnx.training = {index = 0 : i64, role = "algorithm", graph_name = "t", binding = {V = "W_new", W = "Z"}}} {
    %w = ml_program.global_load_const @W : tensor<2xf32>
    %n = onnx.Neg(%w) {onnx.outputs = ["W_new"]} : (tensor<2xf32>) -> tensor<2xf32>
    return %n : tensor<2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  // expected-error@+1 {{'training_info.0.algorithm': onnx.training needs an integer index and a string role [ir-repr-attr]}}
  func.func private @"training_info.0.algorithm"() attributes {onnx.training = {index = "0", role = "algorithm"}} {
    return
  }
}
