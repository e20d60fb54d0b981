// RUN: onnx-opt %s --onnx-validate -split-input-file -verify-diagnostics
// Operator set imports and the op version each one selects.

// expected-error@+1 {{the module has no onnx.ir_version (ModelProto.ir_version) [ver-ir-version-present]}}
module attributes {onnx.opset_import = {ai.onnx = 17 : i64}} {
}

// -----

// expected-error@+1 {{onnx.ir_version is not an integer [ir-repr-attr]}}
module attributes {onnx.ir_version = "8", onnx.opset_import = {ai.onnx = 17 : i64}} {
}

// -----

// expected-error@+1 {{the model imports no operator set (opset_import is required from IR version 3) [ir-opset-import-required]}}
module attributes {onnx.ir_version = 8 : i64} {
}

// -----

// IR 1 and 2 models have no opset_import: ai.onnx opset 1.
module attributes {onnx.ir_version = 2 : i64, onnx.opset_import = {}} {
  func.func @g(%x: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}) {
    %y = onnx.Neg_v1(%x) {onnx.outputs = ["y"]} : (tensor<2xf32>) -> tensor<2xf32>
    return %y : tensor<2xf32>
  }
}

// -----

// expected-error@+1 {{opset_import: 'ai.onnx' has no version 28 (versions 1 to 27 exist) [ver-opset-version-exists]}}
module attributes {onnx.ir_version = 13 : i64, onnx.opset_import = {ai.onnx = 28 : i64}} {
}

// -----

// expected-error@+1 {{opset_import: 'ai.onnx.ml' has no version 6 (versions 1 to 5 exist) [ver-opset-version-exists]}}
module attributes {onnx.ir_version = 13 : i64, onnx.opset_import = {ai.onnx = 21 : i64, ai.onnx.ml = 6 : i64}} {
}

// -----

// expected-error@+1 {{opset_import: 'com.example' has no version 0 [ver-opset-version-exists]}}
module attributes {onnx.ir_version = 13 : i64, onnx.opset_import = {ai.onnx = 21 : i64, com.example = 0 : i64}} {
}

// -----

// expected-warning@+1 {{opset_import: ai.onnx opset 17 needs IR version 8, the model has 7 [ver-opset-ir-version]}}
module attributes {onnx.ir_version = 7 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
}

// -----

// expected-error@+1 {{onnx.opset_import: the version of 'ai.onnx' is not an integer [ir-repr-attr]}}
module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = "17"}} {
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @g(%x: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'add' (Add): opset 17 of 'ai.onnx' selects onnx.Add, not onnx.Add_v7 [ver-op-compatible]}}
    %y = onnx.Add_v7(%x, %x) {onnx.name = "add", onnx.outputs = ["y"]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    return %y : tensor<2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @g(%x: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'gelu' (Gelu): the operator's first version 20 is newer than opset 17 of 'ai.onnx' [ver-op-compatible]}}
    %y = onnx.Gelu(%x) {onnx.name = "gelu", onnx.outputs = ["y"]} : (tensor<2xf32>) -> tensor<2xf32>
    return %y : tensor<2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @g(%x: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'c' (com.example.Op): domain 'com.example' is not imported by the model [ver-opset-import-domain]}}
    %y = onnx.custom "com.example" "Op"(%x) {onnx.name = "c", onnx.outputs = ["y"]} : (tensor<2xf32>) -> (tensor<2xf32>)
    return %y : tensor<2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @g(%x: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'z' (ai.onnx.ml.Normalizer): domain 'ai.onnx.ml' is not imported by the model [ver-opset-import-domain]}}
    %y = onnx.ml.Normalizer(%x) {onnx.name = "z", onnx.outputs = ["y"]} : (tensor<2xf32>) -> tensor<2xf32>
    return %y : tensor<2xf32>
  }
}

// -----

// A function's body uses the function's opset imports.
module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64, custom = 1 : i64}} {
  func.func private @"custom::F"(%x: !onnx.any) -> !onnx.any attributes {onnx.function = {domain = "custom", name = "F", inputs = ["x"], outputs = ["y"], attributes = [], opset_import = {custom = 1 : i64}}} {
    // expected-error@+1 {{domain 'ai.onnx' is not imported by the function [ver-opset-import-domain]}}
    %y = onnx.Neg(%x) {onnx.outputs = ["y"]} : (!onnx.any) -> !onnx.any
    return %y : !onnx.any
  }
}
