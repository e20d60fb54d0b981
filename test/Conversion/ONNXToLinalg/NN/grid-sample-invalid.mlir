// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

func.func @grid_sample_string(%x: tensor<1x1x2x2x!onnx.string>, %g: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2x!onnx.string> {
  // expected-error @+2 {{onnx.GridSample 'gs': cannot lower: GridSample of this element type}}
  // expected-error @+1 {{failed to legalize operation 'onnx.GridSample'}}
  %0 = onnx.GridSample(%x, %g) {onnx.name = "gs", mode = "nearest"} : (tensor<1x1x2x2x!onnx.string>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2x!onnx.string>
  return %0 : tensor<1x1x2x2x!onnx.string>
}

// -----

func.func @grid_sample_bad_mode(%x: tensor<1x1x2x2xf32>, %g: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+2 {{onnx.GridSample: cannot lower: unknown mode 'area'}}
  // expected-error @+1 {{failed to legalize operation 'onnx.GridSample'}}
  %0 = onnx.GridSample(%x, %g) {mode = "area"} : (tensor<1x1x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}
