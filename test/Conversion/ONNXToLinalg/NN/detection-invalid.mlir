// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

func.func @nms_unranked_boxes(%b: tensor<*xf32>, %s: tensor<1x2x6xf32>) -> tensor<?x3xi64> {
  // expected-error @+1 {{onnx.NonMaxSuppression 'nms': operand #0 has an unknown rank}}
  %0 = onnx.NonMaxSuppression(%b, %s) {onnx.name = "nms"} : (tensor<*xf32>, tensor<1x2x6xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

// Boxes of 5 coordinates verify but are not lowered.
func.func @nms_five_coordinates(%b: tensor<1x6x5xf32>, %s: tensor<1x2x6xf32>) -> tensor<?x3xi64> {
  // expected-error @+2 {{onnx.NonMaxSuppression: cannot lower: boxes must have 4 coordinates}}
  // expected-error @+1 {{failed to legalize operation 'onnx.NonMaxSuppression'}}
  %0 = onnx.NonMaxSuppression(%b, %s) : (tensor<1x6x5xf32>, tensor<1x2x6xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}
