// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @matmul_2d
// CHECK: %[[F:.*]] = linalg.fill {{.*}} -> tensor<2x4xf32>
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[F]] : tensor<2x4xf32>)
func.func @matmul_2d(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = onnx.MatMul(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Without batch dims on B, the batch dims of A are more rows of one matmul.
// CHECK-LABEL: func.func @matmul_rows
// CHECK: %[[C:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<?x5x3xf32> into tensor<?x3xf32>
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[C]], %arg1 : tensor<?x3xf32>, tensor<3x4xf32>)
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c0
// CHECK: tensor.expand_shape %[[M]] {{\[\[}}0, 1], [2]] output_shape [%[[D]], 5, 4] : tensor<?x4xf32> into tensor<?x5x4xf32>
func.func @matmul_rows(%a: tensor<?x5x3xf32>, %b: tensor<3x4xf32>) -> tensor<?x5x4xf32> {
  %0 = onnx.MatMul(%a, %b) : (tensor<?x5x3xf32>, tensor<3x4xf32>) -> tensor<?x5x4xf32>
  return %0 : tensor<?x5x4xf32>
}

// -----

// Batch dims broadcast (a constant index for A's dim of 1, B gains a dim),
// collapse into one batch dim of linalg.batch_matmul; f16 accumulates in f32.
// CHECK-DAG: #[[BA:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
// CHECK-DAG: #[[BB:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
// CHECK-LABEL: func.func @matmul_batch
// CHECK: linalg.generic {indexing_maps = [#[[BA]], {{.*}}} ins(%arg0 : tensor<2x1x5x3xf16>) outs({{.*}} : tensor<2x4x5x3xf16>)
// CHECK: linalg.generic {indexing_maps = [#[[BB]], {{.*}}} ins(%arg1 : tensor<4x3x6xf16>) outs({{.*}} : tensor<2x4x3x6xf16>)
// CHECK: tensor.collapse_shape {{.*}} into tensor<8x5x3xf16>
// CHECK: tensor.collapse_shape {{.*}} into tensor<8x3x6xf16>
// CHECK: linalg.batch_matmul ins({{.*}} : tensor<8x5x3xf16>, tensor<8x3x6xf16>) outs({{.*}} : tensor<8x5x6xf32>)
// CHECK: tensor.expand_shape {{.*}} output_shape [2, 4, 5, 6] : tensor<8x5x6xf32> into tensor<2x4x5x6xf32>
// CHECK: arith.truncf {{.*}} : f32 to f16
func.func @matmul_batch(%a: tensor<2x1x5x3xf16>, %b: tensor<4x3x6xf16>) -> tensor<2x4x5x6xf16> {
  %0 = onnx.MatMul(%a, %b) : (tensor<2x1x5x3xf16>, tensor<4x3x6xf16>) -> tensor<2x4x5x6xf16>
  return %0 : tensor<2x4x5x6xf16>
}

// -----

// Batch dims that are both dynamic: the result dim is the one that is not 1
// (checked at run time); each operand is read at a clamped index.
// CHECK-LABEL: func.func @matmul_dynamic_batch
// CHECK: %[[DA:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[DB:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[DA]], %c1
// CHECK: %[[N:.*]] = arith.select %[[ONE]], %[[DB]], %[[DA]]
// CHECK: cf.assert {{.*}}, "onnx.MatMul 'mm': batch dims do not broadcast (dim 0 of the result)"
// CHECK: tensor.extract %arg0
// CHECK: tensor.extract %arg1
// CHECK: linalg.batch_matmul
func.func @matmul_dynamic_batch(%a: tensor<?x2x3xf32>, %b: tensor<?x3x2xf32>) -> tensor<?x2x2xf32> {
  %0 = onnx.MatMul(%a, %b) {onnx.name = "mm"} : (tensor<?x2x3xf32>, tensor<?x3x2xf32>) -> tensor<?x2x2xf32>
  return %0 : tensor<?x2x2xf32>
}

// -----

// Dynamic batch dims that shape inference named the same (a graph input's
// dim_param, here through an op's onnx.dim_params) are one size: checked
// equal at run time, neither read broadcast.
// CHECK-LABEL: func.func @matmul_named_batch
// CHECK: %[[DA:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[DB:.*]] = tensor.dim %[[B:.*]], %c0
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[DA]], %[[DB]]
// CHECK: cf.assert %[[SAME]], "onnx.MatMul 'mm': batch dims named 'N' differ (dim 0 of the result)"
// CHECK-NOT: tensor.extract
// CHECK: linalg.batch_matmul ins(%arg0, %[[B]] : tensor<?x2x3xf32>, tensor<?x3x2xf32>)
func.func @matmul_named_batch(%a: tensor<?x2x3xf32> {onnx.dim_params = ["N", "", ""]}, %c: tensor<?x2x3xf32> {onnx.dim_params = ["N", "", ""]}) -> tensor<?x2x2xf32> {
  %b = onnx.Transpose(%c) {perm = array<i64: 0, 2, 1>, onnx.dim_params = [["N", "", ""]]} : (tensor<?x2x3xf32>) -> tensor<?x3x2xf32>
  %0 = onnx.MatMul(%a, %b) {onnx.name = "mm"} : (tensor<?x2x3xf32>, tensor<?x3x2xf32>) -> tensor<?x2x2xf32>
  return %0 : tensor<?x2x2xf32>
}

// -----

// 1-D operands gain a unit dim and lose it in the result; unsigned integers
// are signless.
// CHECK-LABEL: func.func @matmul_vectors
// CHECK-SAME: -> tensor<i32>
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0, 1]] output_shape [1, 3] : tensor<3xi32> into tensor<1x3xi32>
// CHECK: tensor.expand_shape %arg1 {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xi32> into tensor<3x1xi32>
// CHECK: linalg.matmul {{.*}} -> tensor<1x1xi32>
// CHECK: tensor.collapse_shape {{.*}} [] : tensor<1x1xi32> into tensor<i32>
func.func @matmul_vectors(%a: tensor<3xui32>, %b: tensor<3xui32>) -> tensor<ui32> {
  %0 = onnx.MatMul(%a, %b) : (tensor<3xui32>, tensor<3xui32>) -> tensor<ui32>
  return %0 : tensor<ui32>
}

// -----

// Dynamic inner dims are checked at run time.
// CHECK-LABEL: func.func @matmul_vector_matrix
// CHECK: cf.assert {{.*}}, "onnx.MatMul: the inner dims of the operands differ"
// CHECK: linalg.batch_matmul
// CHECK: tensor.collapse_shape {{.*}} {{\[\[}}0], [1, 2]] : tensor<2x1x4xf32> into tensor<2x4xf32>
func.func @matmul_vector_matrix(%a: tensor<?xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  %0 = onnx.MatMul(%a, %b) : (tensor<?xf32>, tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @gemm
// CHECK: %[[TA:.*]] = linalg.transpose ins(%arg0 : tensor<3x2xf32>) outs({{.*}} : tensor<2x3xf32>) permutation = [1, 0]
// CHECK: %[[TB:.*]] = linalg.transpose ins(%arg1 : tensor<4x3xf32>) outs({{.*}} : tensor<3x4xf32>) permutation = [1, 0]
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[TA]], %[[TB]] : tensor<2x3xf32>, tensor<3x4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], {{.*}}} ins(%[[P]], %arg2 : tensor<2x4xf32>, tensor<4xf32>)
// CHECK: %[[X:.*]] = arith.mulf %[[ALPHA:.*]], %in
// CHECK: %[[Y:.*]] = arith.mulf %[[BETA:.*]], %in_
// CHECK: arith.addf %[[X]], %[[Y]]
func.func @gemm(%a: tensor<3x2xf32>, %b: tensor<4x3xf32>, %c: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = onnx.Gemm(%a, %b, %c) {transA = 1 : i64, transB = 1 : i64, alpha = 0.5 : f32, beta = 2.0 : f32} : (tensor<3x2xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Without C and with alpha 1, Gemm is the matmul.
// CHECK-LABEL: func.func @gemm_plain
// CHECK: %[[P:.*]] = linalg.matmul
// CHECK-NOT: linalg.generic
// CHECK: return %[[P]]
func.func @gemm_plain(%a: tensor<2x3xi64>, %b: tensor<3x4xi64>) -> tensor<2x4xi64> {
  %0 = onnx.Gemm(%a, %b) : (tensor<2x3xi64>, tensor<3x4xi64>) -> tensor<2x4xi64>
  return %0 : tensor<2x4xi64>
}

// -----

// A repeated label reads a diagonal; labels not in the output are reduction
// loops.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d2)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[O:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @einsum_diagonal
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[O]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @einsum_diagonal(%a: tensor<2x3x3xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  %0 = onnx.Einsum(%a, %b) {equation = "bii, bij -> bj"} : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Implicit output: the ellipsis dims, then the labels seen once, sorted.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-DAG: #[[O:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @einsum_implicit
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[O]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: arith.muli
// CHECK: arith.addi
func.func @einsum_implicit(%a: tensor<5x2x3xi64>, %b: tensor<3x4xi64>) -> tensor<5x2x4xi64> {
  %0 = onnx.Einsum(%a, %b) {equation = "...ij,jk"} : (tensor<5x2x3xi64>, tensor<3x4xi64>) -> tensor<5x2x4xi64>
  return %0 : tensor<5x2x4xi64>
}

// -----

// Ellipsis dims broadcast; a dynamic dim of one label is checked against
// the static one.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (0, d1, d2)>
// CHECK-LABEL: func.func @einsum_broadcast
// CHECK: cf.assert {{.*}}, "onnx.Einsum: dims of one label differ"
// CHECK: linalg.generic {indexing_maps = [#[[A]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel"]}
func.func @einsum_broadcast(%a: tensor<1x3x?xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = onnx.Einsum(%a, %b) {equation = "...j,...j->...j"} : (tensor<1x3x?xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
