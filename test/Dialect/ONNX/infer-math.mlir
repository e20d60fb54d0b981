// RUN: onnx-opt %s --onnx-infer-shapes=fold=false | FileCheck %s
// Inference of the linear algebra operators.

// CHECK-LABEL: func @matmul
func.func @matmul(%a: tensor<?x2x3xf32> {onnx.dim_params = ["B", "", ""]}, %b: tensor<3x5xf32>, %v: tensor<3xf32>, %w: tensor<5x3x?xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.MatMul(%{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}"B", "", ""]]} : (tensor<?x2x3xf32>, tensor<3x5xf32>) -> tensor<?x2x5xf32>
  %0 = onnx.MatMul(%a, %b) : (tensor<?x2x3xf32>, tensor<3x5xf32>) -> tensor<*xf32>
  // 1-D operands lose their added dim.
  // CHECK: onnx.MatMul(%{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}"B", ""]]} : (tensor<?x2x3xf32>, tensor<3xf32>) -> tensor<?x2xf32>
  %1 = onnx.MatMul(%a, %v) : (tensor<?x2x3xf32>, tensor<3xf32>) -> tensor<*xf32>
  // CHECK: onnx.MatMul(%{{.*}}, %{{.*}}) : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  %2 = onnx.MatMul(%v, %v) : (tensor<3xf32>, tensor<3xf32>) -> tensor<*xf32>
  // CHECK: onnx.MatMul(%{{.*}}, %{{.*}}) : (tensor<3xf32>, tensor<5x3x?xf32>) -> tensor<5x?xf32>
  %3 = onnx.MatMul(%v, %w) : (tensor<3xf32>, tensor<5x3x?xf32>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @gemm
func.func @gemm(%a: tensor<4x?xf32> {onnx.dim_params = ["", "M"]}, %b: tensor<5x4xf32>, %c: tensor<5xf32>) -> tensor<*xf32> {
  // CHECK: onnx.Gemm(%{{.*}}, %{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}"M", ""]], transA = 1 : i64, transB = 1 : i64} : (tensor<4x?xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<?x5xf32>
  %0 = onnx.Gemm(%a, %b, %c) {transA = 1 : i64, transB = 1 : i64} : (tensor<4x?xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// CHECK-LABEL: func @einsum
func.func @einsum(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<3x3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.Einsum(%{{.*}}, %{{.*}}) {equation = "...j,jk->...k"} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  %0 = onnx.Einsum(%a, %b) {equation = "...j,jk->...k"} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  // Implicit output: the labels seen once, in alphabetical order.
  // CHECK: onnx.Einsum(%{{.*}}, %{{.*}}) {equation = "bij, jk"} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  %1 = onnx.Einsum(%a, %b) {equation = "bij, jk"} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  // CHECK: onnx.Einsum(%{{.*}}) {equation = "ii"} : (tensor<3x3xf32>) -> tensor<f32>
  %2 = onnx.Einsum(%c) {equation = "ii"} : (tensor<3x3xf32>) -> tensor<*xf32>
  // CHECK: onnx.Einsum(%{{.*}}) {equation = "ijk->kj"} : (tensor<2x3x4xf32>) -> tensor<4x3xf32>
  %3 = onnx.Einsum(%a) {equation = "ijk->kj"} : (tensor<2x3x4xf32>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @det
func.func @det(%x: tensor<2x3x3xf32>) -> tensor<*xf32> {
  // CHECK: onnx.Det(%{{.*}}) : (tensor<2x3x3xf32>) -> tensor<2xf32>
  %0 = onnx.Det(%x) : (tensor<2x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
