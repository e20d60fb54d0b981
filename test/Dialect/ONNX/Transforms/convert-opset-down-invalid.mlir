// RUN: onnx-opt %s --onnx-convert-opset=target=6 -verify-diagnostics

// Clip-6 takes its bounds as attributes: a bound given as an input (which
// may be computed) has no place there.
module attributes {onnx.opset_import = {ai.onnx = 11 : i64}} {
  func.func @clip_bounds(%x: tensor<2xf32>, %m: tensor<f32>) -> tensor<2xf32> {
    // expected-error @+1 {{'onnx.Clip_v11' op cannot be converted from Clip-11 to Clip-6: input 'min' has no counterpart in the target version}}
    %0 = onnx.Clip_v11(%x, %m) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
