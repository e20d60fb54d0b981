// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

func.func @dft_unranked(%x: tensor<*xf32>) -> tensor<?x?x2xf32> {
  // expected-error @+1 {{onnx.DFT 'dft': operand #0 has an unknown rank}}
  %0 = onnx.DFT(%x) {onnx.name = "dft"} : (tensor<*xf32>) -> tensor<?x?x2xf32>
  return %0 : tensor<?x?x2xf32>
}

// -----

// Whether the input is real or complex must be known statically.
func.func @dft_dynamic_components(%x: tensor<4x?xf32>) -> tensor<4x2xf32> {
  // expected-error @+2 {{onnx.DFT: cannot lower: the last dim of the input must be 1 (real) or 2 (complex), statically}}
  // expected-error @+1 {{failed to legalize operation 'onnx.DFT'}}
  %0 = onnx.DFT(%x) : (tensor<4x?xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @dft_axis_not_scalar(%x: tensor<3x4x1xf32>) -> tensor<?x?x2xf32> {
  %a = onnx.Constant() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+2 {{onnx.DFT: cannot lower: axis must be a scalar}}
  // expected-error @+1 {{failed to legalize operation 'onnx.DFT'}}
  %0 = onnx.DFT(%x, none, %a) : (tensor<3x4x1xf32>, tensor<2xi64>) -> tensor<?x?x2xf32>
  return %0 : tensor<?x?x2xf32>
}

// -----

func.func @stft_unranked_signal(%x: tensor<*xf32>, %s: tensor<i64>) -> tensor<?x?x?x2xf32> {
  // expected-error @+1 {{onnx.STFT: operand #0 has an unknown rank}}
  %0 = onnx.STFT(%x, %s) : (tensor<*xf32>, tensor<i64>) -> tensor<?x?x?x2xf32>
  return %0 : tensor<?x?x?x2xf32>
}

// -----

func.func @stft_dynamic_components(%x: tensor<1x16x?xf32>, %s: tensor<i64>, %w: tensor<4xf32>) -> tensor<?x?x?x2xf32> {
  // expected-error @+2 {{onnx.STFT: cannot lower: the last dim of the signal must be 1 (real) or 2 (complex), statically}}
  // expected-error @+1 {{failed to legalize operation 'onnx.STFT'}}
  %0 = onnx.STFT(%x, %s, %w) : (tensor<1x16x?xf32>, tensor<i64>, tensor<4xf32>) -> tensor<?x?x?x2xf32>
  return %0 : tensor<?x?x?x2xf32>
}

// -----

func.func @mel_weight_matrix_any(%a: tensor<i64>, %b: tensor<i64>, %c: tensor<i64>, %d: tensor<f32>, %e: tensor<f32>) -> !onnx.any {
  // expected-error @+2 {{onnx.MelWeightMatrix: cannot lower: expected a result of rank 2}}
  // expected-error @+1 {{failed to legalize operation 'onnx.MelWeightMatrix'}}
  %0 = onnx.MelWeightMatrix(%a, %b, %c, %d, %e) : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> !onnx.any
  return %0 : !onnx.any
}
