// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

func.func @conv_dynamic_kernel(%x: tensor<1x1x5x5xf32>, %w: tensor<1x1x?x?xf32>) -> tensor<1x1x?x?xf32> {
  // expected-error @+2 {{onnx.Conv 'c': cannot lower: a kernel of dynamic size (W's spatial dims must be static)}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Conv'}}
  %0 = onnx.Conv(%x, %w) {onnx.name = "c"} : (tensor<1x1x5x5xf32>, tensor<1x1x?x?xf32>) -> tensor<1x1x?x?xf32>
  return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @lpnorm_p3(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{onnx.LpNormalization: cannot lower: p must be 1 or 2}}
  // expected-error @+1 {{failed to legalize operation 'onnx.LpNormalization'}}
  %0 = onnx.LpNormalization(%x) {p = 3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----

func.func @conv_transpose_dynamic_output_shape(%x: tensor<1x1x?xf32>, %w: tensor<1x1x3xf32>) -> tensor<1x1x8xf32> {
  // expected-error @+2 {{onnx.ConvTranspose 't': cannot lower: output_shape with a dynamic spatial input dim}}
  // expected-error @+1 {{failed to legalize operation 'onnx.ConvTranspose'}}
  %0 = onnx.ConvTranspose(%x, %w) {onnx.name = "t", output_shape = array<i64: 8>} : (tensor<1x1x?xf32>, tensor<1x1x3xf32>) -> tensor<1x1x8xf32>
  return %0 : tensor<1x1x8xf32>
}
// -----

func.func @batchnorm_running_inference(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>) {
  // expected-error @+2 {{onnx.BatchNormalization: cannot lower: running_mean / running_var outputs need training_mode=1}}
  // expected-error @+1 {{failed to legalize operation 'onnx.BatchNormalization'}}
  %0, %1 = onnx.BatchNormalization(%x, %s, %s, %s, %s) : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)
  return %0, %1 : tensor<2x3xf32>, tensor<3xf32>
}
