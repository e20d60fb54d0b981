// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

func.func @bitcast_complex(%x: tensor<2xcomplex<f32>>) -> tensor<2xi64> {
  // expected-error @+2 {{onnx.BitCast: cannot lower: only integer, bool and float element types are lowered (not complex)}}
  // expected-error @+1 {{failed to legalize operation 'onnx.BitCast'}}
  %0 = onnx.BitCast(%x) {to = 7 : i64} : (tensor<2xcomplex<f32>>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
