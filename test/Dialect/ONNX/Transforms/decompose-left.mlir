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

// Where came with opset 9. Before multidirectional broadcasting (Mul-7,
// Max-8) a constant operand is widened to the other's shape, which must be
// static.
module attributes {onnx.opset_import = {ai.onnx = 6 : i64}} {
  func.func @elu_v6(%x: tensor<3xf32>) -> tensor<3xf32> {
    // expected-remark @+1 {{not decomposed: Elu at opset 6: operator Where has no version at opset 6}}
    %0 = onnx.Elu_v6(%x) : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }
  func.func @hard_sigmoid_v6_dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
    // expected-remark @+1 {{not decomposed: HardSigmoid at opset 6: Mul-6 does not take these types}}
    %0 = onnx.HardSigmoid_v6(%x) : (tensor<?xf32>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}

// -----

// What the function bodies of these operators need is unknown.
module attributes {onnx.opset_import = {ai.onnx = 27 : i64}} {
  func.func @attention_unranked(%q: tensor<*xf32>) -> tensor<*xf32> {
    // expected-remark @+1 {{not decomposed: Attention at opset 27: Q, K and V are not all 3-D or all 4-D}}
    %0 = onnx.Attention(%q, %q, %q) : (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    return %0 : tensor<*xf32>
  }
  func.func @affine_grid_unknown_size(%t: tensor<2x2x3xf32>, %s: tensor<?xi64>) -> tensor<*xf32> {
    // expected-remark @+1 {{not decomposed: AffineGrid at opset 27: the length of size is unknown or not 4 or 5}}
    %0 = onnx.AffineGrid(%t, %s) : (tensor<2x2x3xf32>, tensor<?xi64>) -> tensor<*xf32>
    return %0 : tensor<*xf32>
  }
  func.func @causal_conv_unknown_channels(%x: tensor<2x?x8xf32>, %w: tensor<?x1x3xf32>) -> tensor<*xf32> {
    // expected-remark @+1 {{not decomposed: CausalConvWithState at opset 27: the number of channels is unknown}}
    %0:2 = onnx.CausalConvWithState(%x, %w) : (tensor<2x?x8xf32>, tensor<?x1x3xf32>) -> (tensor<*xf32>, tensor<*xf32>)
    return %0#0 : tensor<*xf32>
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
