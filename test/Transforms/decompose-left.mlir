// RUN: onnx-opt %s --onnx-decompose --split-input-file -verify-diagnostics

// What an expansion needs is unknown, or a primitive does not exist at the
// module's opset: the op stays, with a remark.

module attributes {onnx.opset_import = {ai.onnx = 23 : i64}} {
  func.func @layer_norm_unranked(%x: tensor<*xf32>, %w: tensor<4xf32>) -> tensor<*xf32> {
    // expected-remark @+1 {{not decomposed: LayerNormalization at opset 23: the rank of the input is unknown}}
    %0 = onnx.LayerNormalization(%x, %w) : (tensor<*xf32>, tensor<4xf32>) -> tensor<*xf32>
    return %0 : tensor<*xf32>
  }
  func.func @softmax_v11(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    // expected-remark @+1 {{Softmax before 13 coerces to 2-D}}
    %0 = onnx.Softmax_v11(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
  func.func @range_int16(%a: tensor<i16>) -> tensor<?xi16> {
    // expected-remark @+1 {{not decomposed: Range at opset 23: CumSum-14 does not take these types}}
    %0 = onnx.Range(%a, %a, %a) : (tensor<i16>, tensor<i16>, tensor<i16>) -> tensor<?xi16>
    return %0 : tensor<?xi16>
  }
}

// -----

// Sub-6 needs broadcast=1 for a scalar operand (and Where came with opset 9).
module attributes {onnx.opset_import = {ai.onnx = 6 : i64}} {
  func.func @elu_v6(%x: tensor<3xf32>) -> tensor<3xf32> {
    // expected-remark @+1 {{not decomposed: Elu at opset 6: Sub-6 does not take these types}}
    %0 = onnx.Elu_v6(%x) : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }
}

// -----

// An attribute that refers to a parameter of a model-local function has no
// value to expand with.
module attributes {onnx.opset_import = {ai.onnx = 23 : i64}} {
  func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
    // expected-remark @+1 {{an attribute refers to a function parameter}}
    %0 = onnx.LeakyRelu(%x) {onnx.attr_refs = {alpha = #onnx.ref<"a">}} : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }
}
