// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

// A zero point of rank 2 (per row as [M, 1]) is not lowered.
func.func @matmul_integer_2d_zero_point(%a: tensor<4x5xui8>, %b: tensor<5x3xui8>, %az: tensor<4x1xui8>) -> tensor<4x3xi32> {
  // expected-error @+2 {{cannot lower: a zero point must be a scalar or 1-D}}
  // expected-error @+1 {{failed to legalize operation 'onnx.MatMulInteger'}}
  %0 = onnx.MatMulInteger(%a, %b, %az) : (tensor<4x5xui8>, tensor<5x3xui8>, tensor<4x1xui8>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}
