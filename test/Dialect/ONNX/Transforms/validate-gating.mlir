// RUN: onnx-opt %s --onnx-validate -split-input-file -verify-diagnostics
// Features and data types that the model's ir_version does not have
// (docs/ir-rules.md, "IR version gating").

// A valid model: no diagnostics.
module attributes {onnx.entry = @g, onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @g(%x: tensor<?x2xf32> {onnx.name = "x", onnx.dim_params = ["N", ""]}) -> (tensor<?x2xf32> {onnx.name = "y"}) {
    %y = onnx.Neg(%x) {onnx.name = "neg", onnx.outputs = ["y"]} : (tensor<?x2xf32>) -> tensor<?x2xf32>
    return %y : tensor<?x2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  // expected-error@+1 {{graph 'g', input 'x': data type f8E4M3FN needs IR version 9, the model has 8 [ir-gate-data-type]}}
  func.func @g(%x: tensor<2xf8E4M3FN> {onnx.name = "x"}) {
    return
  }
}

// -----

module attributes {onnx.ir_version = 9 : i64, onnx.opset_import = {ai.onnx = 19 : i64}} {
  // expected-error@+1 {{initializer 'w': data type i4 needs IR version 10, the model has 9 [ir-gate-data-type]}}
  ml_program.global private @w(dense<[1, 2]> : tensor<2xi4>) : tensor<2xi4> {onnx.name = "w"}
}

// -----

module attributes {onnx.ir_version = 3 : i64, onnx.opset_import = {ai.onnx = 8 : i64}} {
  // expected-error@+1 {{input 's': a sequence type needs IR version 4, the model has 3 [ir-gate-type]}}
  func.func @g(%s: !onnx.seq<tensor<f32>> {onnx.name = "s"}) {
    return
  }
}

// -----

module attributes {onnx.ir_version = 3 : i64, onnx.opset_import = {ai.onnx = 8 : i64}} {
  // expected-error@+1 {{a map type needs IR version 4, the model has 3 [ir-gate-type]}}
  func.func @g(%m: !onnx.map<i64, tensor<f32>> {onnx.name = "m"}) {
    return
  }
}

// -----

module attributes {onnx.ir_version = 7 : i64, onnx.opset_import = {ai.onnx = 12 : i64}} {
  // expected-error@+1 {{input 'o': an optional type needs IR version 8, the model has 7 [ir-gate-type]}}
  func.func @g(%o: !onnx.opt<tensor<f32>> {onnx.name = "o"}) {
    return
  }
}

// -----

module attributes {onnx.ir_version = 5 : i64, onnx.opset_import = {ai.onnx = 10 : i64}} {
  // expected-error@+1 {{a sparse tensor type needs IR version 6, the model has 5 [ir-gate-type]}}
  func.func @g(%s: !onnx.sparse_tensor<tensor<4xf32>> {onnx.name = "s"}) {
    return
  }
}

// -----

module attributes {onnx.ir_version = 7 : i64, onnx.opset_import = {ai.onnx = 12 : i64}} {
  // expected-error@+1 {{model-local functions needs IR version 8, the model has 7 [ir-gate-functions]}}
  func.func private @"custom::F"(%x: !onnx.any) -> !onnx.any attributes {onnx.function = {domain = "custom", name = "F", inputs = ["x"], outputs = ["x"], attributes = [], opset_import = {ai.onnx = 12 : i64}}} {
    return %x : !onnx.any
  }
}

// -----

module attributes {onnx.ir_version = 9 : i64, onnx.opset_import = {ai.onnx = 19 : i64}} {
  // expected-error@+1 {{overload needs IR version 10, the model has 9 [ir-gate-functions]}}
  func.func private @"custom::F::o"(%x: !onnx.any) -> !onnx.any attributes {onnx.function = {domain = "custom", name = "F", overload = "o", inputs = ["x"], outputs = ["x"], attributes = [], opset_import = {ai.onnx = 19 : i64}}} {
    return %x : !onnx.any
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  // expected-error@+1 {{attributes with default values needs IR version 9, the model has 8 [ir-gate-functions]}}
  func.func private @"custom::F"(%x: !onnx.any) -> !onnx.any attributes {onnx.function = {domain = "custom", name = "F", inputs = ["x"], outputs = ["x"], attributes = [], attribute_defaults = {alpha = 1.0 : f32}, opset_import = {ai.onnx = 17 : i64}}} {
    return %x : !onnx.any
  }
}

// -----

module attributes {onnx.ir_version = 6 : i64, onnx.opset_import = {ai.onnx = 11 : i64}} {
  // expected-error@+1 {{training_info needs IR version 7, the model has 6 [ir-gate-training]}}
  func.func private @"training_info.0.algorithm"() attributes {onnx.training = {index = 0 : i64, role = "algorithm", graph_name = "t", binding = {}}} {
    return
  }
}

// -----

module attributes {onnx.ir_version = 9 : i64, onnx.opset_import = {ai.onnx = 19 : i64}} {
  func.func @g(%x: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{metadata_props on a node needs IR version 10, the model has 9 [ir-gate-metadata]}}
    %y = onnx.Neg(%x) {onnx.outputs = ["y"], onnx.metadata_props = {k = "v"}} : (tensor<2xf32>) -> tensor<2xf32>
    return %y : tensor<2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 9 : i64, onnx.opset_import = {ai.onnx = 19 : i64}} {
  // expected-error@+1 {{metadata_props on an input needs IR version 10, the model has 9 [ir-gate-metadata]}}
  func.func @g(%x: tensor<2xf32> {onnx.name = "x", onnx.metadata_props = {k = "v"}}) -> (tensor<2xf32> {onnx.name = "x"}) {
    return %x : tensor<2xf32>
  }
}

// -----

// expected-error@+1 {{device configurations needs IR version 11, the model has 10 [ir-gate-device]}}
module attributes {onnx.ir_version = 10 : i64, onnx.opset_import = {ai.onnx = 21 : i64}, onnx.configuration = [{name = "c", num_devices = 2 : i32, device = []}]} {
}

// -----

module attributes {onnx.ir_version = 4 : i64, onnx.opset_import = {ai.onnx = 9 : i64}} {
  // expected-error@+1 {{quantization_annotation needs IR version 5, the model has 4 [ir-gate-quantization]}}
  func.func @g(%x: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "x"}) attributes {onnx.quantization_annotation = {x = {}}} {
    return %x : tensor<2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64, com.example = 1 : i64}} {
  func.func @g() -> (tensor<2xf32> {onnx.name = "c"}) {
    // expected-error@+1 {{attribute 'value': data type f8E5M2 needs IR version 9, the model has 8 [ir-gate-data-type]}}
    %c = onnx.custom "com.example" "Make"() {value = dense<1.0> : tensor<2xf8E5M2>, onnx.outputs = ["c"]} : () -> (tensor<2xf32>)
    return %c : tensor<2xf32>
  }
}
