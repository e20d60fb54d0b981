// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// Constant axes: a linalg.reduce from the identity, the kept unit dim put
// back by tensor.expand_shape.
// CHECK-LABEL: func.func @sum_keepdims
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<?xf32>)
// CHECK: %[[R:.*]] = linalg.reduce { arith.addf } ins(%arg0 : tensor<?x3xf32>) outs(%[[FILL]] : tensor<?xf32>) dimensions = [1]
// CHECK: tensor.expand_shape %[[R]] {{\[\[}}0, 1]] output_shape [%{{.*}}, 1] : tensor<?xf32> into tensor<?x1xf32>
func.func @sum_keepdims(%x: tensor<?x3xf32>) -> tensor<?x1xf32> {
  %a = onnx.Constant() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.ReduceSum(%x, %a) : (tensor<?x3xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// -----

// No axes: every dim; ReduceMax of floats starts at -inf and propagates NaN.
// CHECK-LABEL: func.func @max_all
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: linalg.reduce { arith.maximumf } ins(%arg0 : tensor<2x3xf32>) outs(%{{.*}} : tensor<f32>) dimensions = [0, 1]
func.func @max_all(%x: tensor<2x3xf32>) -> tensor<f32> {
  %0 = onnx.ReduceMax(%x) {keepdims = 0 : i64} : (tensor<2x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Unsigned min starts at the largest unsigned value.
// CHECK-LABEL: func.func @min_unsigned
// CHECK: arith.constant -1 : i32
// CHECK: linalg.reduce { arith.minui }
func.func @min_unsigned(%x: tensor<4x5xui32>) -> tensor<5xui32> {
  %a = onnx.Constant() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.ReduceMin(%x, %a) {keepdims = 0 : i64} : (tensor<4x5xui32>, tensor<1xi64>) -> tensor<5xui32>
  return %0 : tensor<5xui32>
}

// -----

// noop_with_empty_axes: the input itself.
// CHECK-LABEL: func.func @noop
// CHECK-NOT: linalg
// CHECK: return %arg0
func.func @noop(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.ReduceProd(%x) {noop_with_empty_axes = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Mean of integers divides with truncation by the number of elements.
// CHECK-LABEL: func.func @mean_int
// CHECK: linalg.reduce { arith.addi
// CHECK: linalg.generic
// CHECK: arith.divsi
func.func @mean_int(%x: tensor<?x4xi32>) -> tensor<1x4xi32> {
  %a = onnx.Constant() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.ReduceMean(%x, %a) : (tensor<?x4xi32>, tensor<1xi64>) -> tensor<1x4xi32>
  return %0 : tensor<1x4xi32>
}

// -----

// A float16 mean accumulates in float32: each element extended, the sum
// divided in float32, the result rounded to float16 once.
// CHECK-LABEL: func.func @mean_f16
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: %[[R:.*]] = linalg.reduce ins(%arg0 : tensor<?x4xf16>) outs(%[[FILL]] : tensor<4xf32>) dimensions = [0]
// CHECK-NEXT: (%[[IN:.*]]: f16, %[[ACC:.*]]: f32) {
// CHECK-NEXT: %[[EXT:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[EXT]] : f32
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[R]] : tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: %[[H:.*]] = linalg.generic {{.*}} ins(%[[MEAN]] : tensor<4xf32>) outs(%{{.*}} : tensor<4xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: tensor.expand_shape %[[H]]
func.func @mean_f16(%x: tensor<?x4xf16>) -> tensor<1x4xf16> {
  %a = onnx.Constant() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.ReduceMean(%x, %a) : (tensor<?x4xf16>, tensor<1xi64>) -> tensor<1x4xf16>
  return %0 : tensor<1x4xf16>
}

// -----

// A bfloat16 product with run-time axes accumulates in float32 too; a
// maximum stays in its type (it is exact).
// CHECK-LABEL: func.func @prod_bf16_runtime_axes
// CHECK: linalg.reduce ins(%{{.*}} : tensor<?x?x?x?xbf16>) outs(%{{.*}} : tensor<?x?xf32>) dimensions = [1, 3]
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK-LABEL: func.func @max_f16
// CHECK-NOT: arith.extf
// CHECK: linalg.reduce { arith.maximumf } ins(%arg0 : tensor<2x3xf16>) outs(%{{.*}} : tensor<2xf16>)
func.func @prod_bf16_runtime_axes(%x: tensor<2x3xbf16>, %a: tensor<1xi64>) -> tensor<?x?xbf16> {
  %0 = onnx.ReduceProd(%x, %a) : (tensor<2x3xbf16>, tensor<1xi64>) -> tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}
func.func @max_f16(%x: tensor<2x3xf16>) -> tensor<2xf16> {
  %a = onnx.Constant() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.ReduceMax(%x, %a) {keepdims = 0 : i64} : (tensor<2x3xf16>, tensor<1xi64>) -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

// -----

// Run-time axes: a mask of reduced dims, the input viewed as (out, red)
// pairs, a reduction over the odd dims, and a reshape to the kept dims.
// CHECK-LABEL: func.func @sum_runtime_axes
// CHECK: scf.for
// CHECK: cf.assert %{{.*}}, "onnx.ReduceSum 'r': an axis is out of range"
// CHECK: %[[V:.*]] = tensor.reshape %arg0(%{{.*}}) : (tensor<2x?x4xf32>, tensor<6xindex>) -> tensor<?x?x?x?x?x?xf32>
// CHECK: linalg.reduce {{.*}}ins(%[[V]] : tensor<?x?x?x?x?x?xf32>) outs(%{{.*}} : tensor<?x?x?xf32>) dimensions = [1, 3, 5]
// CHECK: cf.assert %{{.*}}, "onnx.ReduceSum 'r': the number of reduced axes does not match the result rank 2"
// CHECK: tensor.reshape %{{.*}}(%{{.*}}) : (tensor<?x?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
func.func @sum_runtime_axes(%x: tensor<2x?x4xf32>, %a: tensor<1xi64>) -> tensor<?x?xf32> {
  %0 = onnx.ReduceSum(%x, %a) {keepdims = 0 : i64, onnx.name = "r"} : (tensor<2x?x4xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// ArgMax: a generic with a value and an index output, reduction over the
// axis; the first index wins ties (a strict comparison).
// CHECK-LABEL: func.func @argmax
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.cmpf ogt
// CHECK: linalg.index 1
// CHECK: tensor.expand_shape
func.func @argmax(%x: tensor<3x4xf32>) -> tensor<3x1xi64> {
  %0 = onnx.ArgMax(%x) {axis = 1 : i64} : (tensor<3x4xf32>) -> tensor<3x1xi64>
  return %0 : tensor<3x1xi64>
}

// -----

// select_last_index: a non-strict comparison; unsigned compares unsigned.
// CHECK-LABEL: func.func @argmin_last
// CHECK: arith.cmpi ule
func.func @argmin_last(%x: tensor<3x4xui8>) -> tensor<4xi64> {
  %0 = onnx.ArgMin(%x) {keepdims = 0 : i64, select_last_index = 1 : i64} : (tensor<3x4xui8>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// CumSum with a constant axis: loops over the other dims, and innermost
// one along the axis carrying the sum.
// CHECK-LABEL: func.func @cumsum
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}}
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[SUM:.*]] = %{{.*}}) -> (tensor<3x?xi64>, i64)
// CHECK: %[[X:.*]] = tensor.extract %arg0[%[[I]], %[[K]]]
// CHECK: %[[NEW:.*]] = arith.addi %[[SUM]], %[[X]]
// CHECK: tensor.insert %[[NEW]]
func.func @cumsum(%x: tensor<3x?xi64>) -> tensor<3x?xi64> {
  %a = onnx.Constant() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = onnx.CumSum(%x, %a) : (tensor<3x?xi64>, tensor<i32>) -> tensor<3x?xi64>
  return %0 : tensor<3x?xi64>
}

// -----

// A run-time axis: one case per dim.
// CHECK-LABEL: func.func @cumsum_runtime
// CHECK: cf.assert %{{.*}}, "onnx.CumSum: the axis is out of range"
// CHECK: scf.index_switch
// CHECK: case 0
// CHECK: case 1
func.func @cumsum_runtime(%x: tensor<3x4xf32>, %a: tensor<i64>) -> tensor<3x4xf32> {
  %0 = onnx.CumSum(%x, %a) {exclusive = 1 : i64} : (tensor<3x4xf32>, tensor<i64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// CumProd: the same loops, carrying a product from 1.
// CHECK-LABEL: func.func @cumprod
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[P:.*]] = %{{.*}}) -> (tensor<?xf32>, f32)
// CHECK: %[[X:.*]] = tensor.extract %arg0[%{{.*}}]
// CHECK: %[[NEW:.*]] = arith.mulf %[[P]], %[[X]]
// CHECK: tensor.insert %[[P]]
func.func @cumprod(%x: tensor<?xf32>) -> tensor<?xf32> {
  %a = onnx.Constant() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = onnx.CumProd(%x, %a) {exclusive = 1 : i64, reverse = 1 : i64} : (tensor<?xf32>, tensor<i32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// TopK with a run-time k: checked, then ranks and a gather.
// CHECK-LABEL: func.func @topk
// CHECK: cf.assert %{{.*}}, "onnx.TopK: k must be in [0, the size of the axis]"
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: outs(%{{.*}}, %{{.*}} : tensor<2x?xf32>, tensor<2x?xi64>)
func.func @topk(%x: tensor<2x5xf32>, %k: tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>) {
  %0:2 = onnx.TopK(%x, %k) : (tensor<2x5xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return %0#0, %0#1 : tensor<2x?xf32>, tensor<2x?xi64>
}

// -----

// CHECK-LABEL: func.func @hardmax
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: arith.cmpi eq
// CHECK: arith.select
func.func @hardmax(%x: tensor<2x5xf16>) -> tensor<2x5xf16> {
  %0 = onnx.Hardmax(%x) : (tensor<2x5xf16>) -> tensor<2x5xf16>
  return %0 : tensor<2x5xf16>
}
