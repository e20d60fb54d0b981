// RUN: onnx-opt %s --onnx-infer-shapes=fold=false | FileCheck %s

// CHECK-LABEL: func @string_split
func.func @string_split(%s: tensor<4x!onnx.string>) -> tensor<*x!onnx.string> {
  // CHECK: onnx.StringSplit(%{{.*}}) : (tensor<4x!onnx.string>) -> (tensor<4x?x!onnx.string>, tensor<4xi64>)
  %0:2 = onnx.StringSplit(%s) : (tensor<4x!onnx.string>) -> (tensor<*x!onnx.string>, tensor<*xi64>)
  return %0#0 : tensor<*x!onnx.string>
}
