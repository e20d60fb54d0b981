// RUN: onnx-opt %s --onnx-validate=strict=true -split-input-file -verify-diagnostics
// Under strict, the SHOULDs are errors.

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  // expected-error@+1 {{name 'x.1' of input of graph 'g' is not a C90 identifier [ir-names-c90]}}
  func.func @g(%x: tensor<2xf32> {onnx.name = "x.1"}) -> (tensor<2xf32> {onnx.name = "x.1"}) {
    return %x : tensor<2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  // expected-error@+1 {{dim_param 'batch size' is not a C90 identifier [ir-dim-param-c90]}}
  func.func @g(%x: tensor<?xf32> {onnx.name = "x", onnx.dim_params = ["batch size"]}) -> (tensor<?xf32> {onnx.name = "x"}) {
    return %x : tensor<?xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64, custom = 1 : i64}} {
  // expected-error@+1 {{model-local function 'custom::F': attribute 'x' has the name of an input or output [ir-func-attr-names]}}
  func.func private @"custom::F"(%x: !onnx.any) -> !onnx.any attributes {onnx.function = {domain = "custom", name = "F", inputs = ["x"], outputs = ["x"], attributes = ["x"], opset_import = {ai.onnx = 17 : i64}}} {
    return %x : !onnx.any
  }
}
