// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

// Strings <-> numbers are Sequence.cpp's (runtime calls); not float8.
func.func @cast_to_string(%x: tensor<2xf8E4M3FN>) -> tensor<2x!onnx.string> {
  // expected-error @+2 {{onnx.Cast 'c': cannot lower: casts from or to strings are not supported yet}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Cast'}}
  %0 = onnx.Cast(%x) {to = 8 : i64, onnx.name = "c"} : (tensor<2xf8E4M3FN>) -> tensor<2x!onnx.string>
  return %0 : tensor<2x!onnx.string>
}
