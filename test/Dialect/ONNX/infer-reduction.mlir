// RUN: onnx-opt %s --onnx-infer-shapes=fold=false | FileCheck %s
// Inference of the reducing operators.

// CHECK-LABEL: func @reduce
func.func @reduce(%x: tensor<?x3x4xf32> {onnx.dim_params = ["N", "", ""]}, %axes: tensor<2xi64>, %none: tensor<0xi64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %c = onnx.Constant() {value = dense<[-1, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: onnx.ReduceSum(%{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}"N", "", ""]]} : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x1x1xf32>
  %0 = onnx.ReduceSum(%x, %c) : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  // CHECK: onnx.ReduceMax(%{{.*}}, %{{.*}}) {keepdims = 0 : i64, onnx.dim_params = {{\[\[}}"N"]]} : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?xf32>
  %1 = onnx.ReduceMax(%x, %c) {keepdims = 0 : i64} : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  // No axes: all dims.
  // CHECK: onnx.ReduceMean(%{{.*}}) : (tensor<?x3x4xf32>) -> tensor<1x1x1xf32>
  %2 = onnx.ReduceMean(%x) : (tensor<?x3x4xf32>) -> tensor<*xf32>
  // Axes that are not constant: the rank is known.
  // CHECK: onnx.ReduceL2(%{{.*}}, %{{.*}}) {keepdims = 0 : i64} : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?xf32>
  %3 = onnx.ReduceL2(%x, %axes) {keepdims = 0 : i64} : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  // An empty axes input with noop_with_empty_axes: the data's shape.
  // CHECK: onnx.ReduceSum(%{{.*}}, %{{.*}}) {noop_with_empty_axes = 1 : i64, onnx.dim_params = {{\[\[}}"N", "", ""]]} : (tensor<?x3x4xf32>, tensor<0xi64>) -> tensor<?x3x4xf32>
  %4 = onnx.ReduceSum(%x, %none) {noop_with_empty_axes = 1 : i64} : (tensor<?x3x4xf32>, tensor<0xi64>) -> tensor<*xf32>
  // Opset 13: axes as an attribute.
  // CHECK: onnx.ReduceProd_v13(%{{.*}}) {axes = array<i64: 0>, keepdims = 0 : i64} : (tensor<?x3x4xf32>) -> tensor<3x4xf32>
  %5 = onnx.ReduceProd_v13(%x) {axes = array<i64: 0>, keepdims = 0 : i64} : (tensor<?x3x4xf32>) -> tensor<*xf32>
  // CHECK: onnx.ReduceLogSumExp(%{{.*}}, %{{.*}}) : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x?x?xf32>
  %6 = onnx.ReduceLogSumExp(%x, %axes) : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @argmax
func.func @argmax(%x: tensor<?x3x4xf32> {onnx.dim_params = ["N", "", ""]}) -> (tensor<*xi64>, tensor<*xi64>) {
  // CHECK: onnx.ArgMax(%{{.*}}) {axis = -1 : i64, onnx.dim_params = {{\[\[}}"N", "", ""]]} : (tensor<?x3x4xf32>) -> tensor<?x3x1xi64>
  %0 = onnx.ArgMax(%x) {axis = -1 : i64} : (tensor<?x3x4xf32>) -> tensor<*xi64>
  // CHECK: onnx.ArgMin(%{{.*}}) {keepdims = 0 : i64} : (tensor<?x3x4xf32>) -> tensor<3x4xi64>
  %1 = onnx.ArgMin(%x) {keepdims = 0 : i64} : (tensor<?x3x4xf32>) -> tensor<*xi64>
  return %0, %1 : tensor<*xi64>, tensor<*xi64>
}

// CHECK-LABEL: func @loss
func.func @loss(%s: tensor<?x5x7xf32> {onnx.dim_params = ["N", "", ""]}, %l: tensor<?x7xi64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.SoftmaxCrossEntropyLoss(%{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}], ["N", "", ""]]} : (tensor<?x5x7xf32>, tensor<?x7xi64>) -> (tensor<f32>, tensor<?x5x7xf32>)
  %0:2 = onnx.SoftmaxCrossEntropyLoss(%s, %l) : (tensor<?x5x7xf32>, tensor<?x7xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  // CHECK: onnx.NegativeLogLikelihoodLoss(%{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}"N", ""]], reduction = "none"} : (tensor<?x5x7xf32>, tensor<?x7xi64>) -> tensor<?x7xf32>
  %1 = onnx.NegativeLogLikelihoodLoss(%s, %l) {reduction = "none"} : (tensor<?x5x7xf32>, tensor<?x7xi64>) -> tensor<*xf32>
  return %0#0, %0#1, %1 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @topk
func.func @topk(%x: tensor<?x6xf32> {onnx.dim_params = ["N", ""]}, %k: tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xi64>) {
  %c = onnx.Constant() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  // CHECK: onnx.TopK(%{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}"N", ""], ["N", ""]]} : (tensor<?x6xf32>, tensor<1xi64>) -> (tensor<?x2xf32>, tensor<?x2xi64>)
  %0:2 = onnx.TopK(%x, %c) : (tensor<?x6xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi64>)
  // A k that is not constant: an unknown dim.
  // CHECK: onnx.TopK(%{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}"N", ""], ["N", ""]]} : (tensor<?x6xf32>, tensor<1xi64>) -> (tensor<?x?xf32>, tensor<?x?xi64>)
  %1:2 = onnx.TopK(%x, %k) : (tensor<?x6xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi64>)
  return %0#0, %0#1, %1#0, %1#1 : tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xi64>
}

// CHECK-LABEL: func @cumsum
func.func @cumsum(%x: tensor<2x3x3xf32>) -> tensor<*xf32> {
  %axis = onnx.Constant() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  // CHECK: onnx.CumSum(%{{.*}}, %{{.*}}) : (tensor<2x3x3xf32>, tensor<i64>) -> tensor<2x3x3xf32>
  %0 = onnx.CumSum(%x, %axis) : (tensor<2x3x3xf32>, tensor<i64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
