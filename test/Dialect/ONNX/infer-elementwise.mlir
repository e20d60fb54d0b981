// RUN: onnx-opt %s --onnx-infer-shapes=fold=false | FileCheck %s
// Inference of the elementwise operators.

// CHECK-LABEL: func @unary
func.func @unary(%x: tensor<?x3xf32> {onnx.dim_params = ["N", ""]}) -> (tensor<*xf32>, tensor<*xi1>, tensor<*xf32>) {
  // CHECK: onnx.Relu(%{{.*}}) {onnx.dim_params = {{\[\[}}"N", ""]]} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %0 = onnx.Relu(%x) : (tensor<?x3xf32>) -> tensor<*xf32>
  // CHECK: onnx.IsNaN(%{{.*}}) {onnx.dim_params = {{\[\[}}"N", ""]]} : (tensor<?x3xf32>) -> tensor<?x3xi1>
  %1 = onnx.IsNaN(%x) : (tensor<?x3xf32>) -> tensor<*xi1>
  // CHECK: onnx.Softmax(%{{.*}}) {axis = 0 : i64, onnx.dim_params = {{\[\[}}"N", ""]]} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %2 = onnx.Softmax(%x) {axis = 0 : i64} : (tensor<?x3xf32>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xi1>, tensor<*xf32>
}

// CHECK-LABEL: func @broadcast
func.func @broadcast(%a: tensor<?x1x5xf32> {onnx.dim_params = ["N", "", ""]}, %b: tensor<4x1xf32>, %c: tensor<?x4x5xf32>, %u: tensor<*xf32>) -> (tensor<*xf32>, tensor<*xi1>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.Add(%{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}"N", "", ""]]} : (tensor<?x1x5xf32>, tensor<4x1xf32>) -> tensor<?x4x5xf32>
  %0 = onnx.Add(%a, %b) : (tensor<?x1x5xf32>, tensor<4x1xf32>) -> tensor<*xf32>
  // Comparisons give bool.
  // CHECK: onnx.Less(%{{.*}}, %{{.*}}) : (tensor<?x1x5xf32>, tensor<?x4x5xf32>) -> tensor<?x4x5xi1>
  %1 = onnx.Less(%a, %c) : (tensor<?x1x5xf32>, tensor<?x4x5xf32>) -> tensor<*xi1>
  // An unranked operand: an unranked result.
  // CHECK: onnx.Mul(%{{.*}}, %{{.*}}) : (tensor<?x1x5xf32>, tensor<*xf32>) -> tensor<*xf32>
  %2 = onnx.Mul(%a, %u) : (tensor<?x1x5xf32>, tensor<*xf32>) -> tensor<*xf32>
  // CHECK: onnx.Max(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<?x1x5xf32>, tensor<4x1xf32>, tensor<?x4x5xf32>) -> tensor<?x4x5xf32>
  %3 = onnx.Max(%a, %b, %c) : (tensor<?x1x5xf32>, tensor<4x1xf32>, tensor<?x4x5xf32>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xi1>, tensor<*xf32>, tensor<*xf32>
}

// The limited broadcast of opset 6: the result has A's shape.
// CHECK-LABEL: func @legacy
func.func @legacy(%a: tensor<2x3x4xf32>, %b: tensor<3xf32>) -> tensor<*xf32> {
  // CHECK: onnx.Add_v6(%{{.*}}, %{{.*}}) {axis = 1 : i64, broadcast = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  %0 = onnx.Add_v6(%a, %b) {axis = 1 : i64, broadcast = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// CHECK-LABEL: func @where
func.func @where(%c: tensor<2x1xi1>, %x: tensor<3xi64>, %y: tensor<i64>) -> tensor<*xi64> {
  // CHECK: onnx.Where(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x1xi1>, tensor<3xi64>, tensor<i64>) -> tensor<2x3xi64>
  %0 = onnx.Where(%c, %x, %y) : (tensor<2x1xi1>, tensor<3xi64>, tensor<i64>) -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// CHECK-LABEL: func @casts
func.func @casts(%x: tensor<2x?xf32>, %like: tensor<f16>) -> (tensor<*xi64>, tensor<*xf16>, tensor<*xi32>) {
  // CHECK: onnx.Cast(%{{.*}}) {to = 7 : i64} : (tensor<2x?xf32>) -> tensor<2x?xi64>
  %0 = onnx.Cast(%x) {to = 7 : i64} : (tensor<2x?xf32>) -> tensor<*xi64>
  // CHECK: onnx.CastLike(%{{.*}}, %{{.*}}) : (tensor<2x?xf32>, tensor<f16>) -> tensor<2x?xf16>
  %1 = onnx.CastLike(%x, %like) : (tensor<2x?xf32>, tensor<f16>) -> tensor<*xf16>
  // CHECK: onnx.BitCast(%{{.*}}) {to = 6 : i64} : (tensor<2x?xf32>) -> tensor<2x?xi32>
  %2 = onnx.BitCast(%x) {to = 6 : i64} : (tensor<2x?xf32>) -> tensor<*xi32>
  return %0, %1, %2 : tensor<*xi64>, tensor<*xf16>, tensor<*xi32>
}

// CHECK-LABEL: func @prelu
func.func @prelu(%x: tensor<2x3x4xf32>, %s: tensor<3x1xf32>) -> tensor<*xf32> {
  // CHECK: onnx.PRelu(%{{.*}}, %{{.*}}) : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %0 = onnx.PRelu(%x, %s) : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
