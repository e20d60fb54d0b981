// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

func.func @bad_case_action(%x: tensor<2x!onnx.string>) -> tensor<2x!onnx.string> {
  // expected-error @+2 {{onnx.StringNormalizer: cannot lower: case_change_action must be NONE, LOWER or UPPER}}
  // expected-error @+1 {{failed to legalize operation 'onnx.StringNormalizer'}}
  %0 = onnx.StringNormalizer(%x) {case_change_action = "TITLE"} : (tensor<2x!onnx.string>) -> tensor<2x!onnx.string>
  return %0 : tensor<2x!onnx.string>
}
