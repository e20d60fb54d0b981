// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// MaxPool pads with -inf (only as much as the windows need) and reduces
// with linalg.pooling_nchw_max.
// CHECK-LABEL: func.func @maxpool
// CHECK: %[[LOW:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 0, 0]
// CHECK: tensor.yield %[[LOW]]
// CHECK: linalg.fill ins(%[[LOW]] : f32)
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %{{.*}} : tensor<1x3x9x9xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x3x4x4xf32>)
func.func @maxpool(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %0 = onnx.MaxPool(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

// Unsigned integers: a generic with arith.maxui from 0.
// CHECK-LABEL: func.func @maxpool_u8
// CHECK: linalg.fill ins(%c0_i8 : i8)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.maxui
func.func @maxpool_u8(%x: tensor<1x1x5x5xui8>) -> tensor<1x1x4x4xui8> {
  %0 = onnx.MaxPool(%x) {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x5x5xui8>) -> tensor<1x1x4x4xui8>
  return %0 : tensor<1x1x4x4xui8>
}

// -----

// Indices: one generic with two results, the flat index of the first
// maximum (column-major for storage_order = 1).
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2 * 2 + d5, d3 * 2 + d6, d4 * 2 + d7)>
// CHECK-LABEL: func.func @maxpool_indices
// CHECK: %{{.*}}:2 = linalg.generic {indexing_maps = [#[[IN]], {{.*}}} ins(%arg0, %{{.*}} : tensor<1x1x4x4x4xf32>, tensor<2x2x2xf32>) outs(%{{.*}}, %{{.*}} : tensor<1x1x2x2x2xf32>, tensor<1x1x2x2x2xi64>)
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK: arith.select
// CHECK: linalg.yield {{.*}} : f32, i64
func.func @maxpool_indices(%x: tensor<1x1x4x4x4xf32>) -> (tensor<1x1x2x2x2xf32>, tensor<1x1x2x2x2xi64>) {
  %0, %1 = onnx.MaxPool(%x) {kernel_shape = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>, storage_order = 1 : i64} : (tensor<1x1x4x4x4xf32>) -> (tensor<1x1x2x2x2xf32>, tensor<1x1x2x2x2xi64>)
  return %0, %1 : tensor<1x1x2x2x2xf32>, tensor<1x1x2x2x2xi64>
}

// -----

// Windows that never leave the input divide by the window size.
// CHECK-LABEL: func.func @avgpool
// CHECK: %[[S:.*]] = linalg.pooling_nchw_sum {{.*}} -> tensor<1x3x4x4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<1x3x4x4xf32>)
// CHECK: %[[N:.*]] = arith.constant 4.000000e+00 : f32
// CHECK: arith.divf %{{.*}}, %[[N]]
func.func @avgpool(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %0 = onnx.AveragePool(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

// With pads, the divisor counts the window elements inside the input; f16
// sums in f32.
// CHECK-LABEL: func.func @avgpool_pads
// CHECK: tensor.pad %arg0 low[0, 0, 1] high[0, 0, 1]
// CHECK: linalg.generic
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: linalg.generic
// CHECK: linalg.index 2
// CHECK: arith.ceildivsi
// CHECK: arith.floordivsi
// CHECK: arith.sitofp
// CHECK: arith.divf
// CHECK: arith.truncf
func.func @avgpool_pads(%x: tensor<1x3x8xf16>) -> tensor<1x3x8xf16> {
  %0 = onnx.AveragePool(%x) {kernel_shape = array<i64: 3>, pads = array<i64: 1, 1>} : (tensor<1x3x8xf16>) -> tensor<1x3x8xf16>
  return %0 : tensor<1x3x8xf16>
}

// -----

// ceil_mode on dynamic dims: the output size is computed at run time, a
// last window that starts in the end padding is dropped.
// CHECK-LABEL: func.func @avgpool_ceil_dynamic
// CHECK: arith.ceildivsi
// CHECK: arith.cmpi sge
// CHECK: arith.select
// CHECK: tensor.pad
// CHECK: linalg.pooling_nchw_sum
func.func @avgpool_ceil_dynamic(%x: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = onnx.AveragePool(%x) {kernel_shape = array<i64: 3, 3>, ceil_mode = 1 : i64, strides = array<i64: 2, 2>, count_include_pad = 1 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// CHECK-LABEL: func.func @lppool
// CHECK: linalg.generic
// CHECK: math.absf
// CHECK: math.powf
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: math.powf
func.func @lppool(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32> {
  %0 = onnx.LpPool(%x) {kernel_shape = array<i64: 2, 2>, p = 3 : i64} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return %0 : tensor<1x3x7x7xf32>
}

// -----

// Global pools reduce the spatial dims into [N, C], then gain unit dims.
// CHECK-DAG: #[[NC:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-LABEL: func.func @global
// CHECK: linalg.generic {indexing_maps = [{{.*}}, #[[NC]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%arg0 : tensor<?x3x?x?xf32>) outs(%{{.*}} : tensor<?x3xf32>)
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: tensor.expand_shape {{.*}} {{\[\[}}0], [1, 2, 3]] output_shape [%{{.*}}, 3, 1, 1] : tensor<?x3xf32> into tensor<?x3x1x1xf32>
// CHECK: arith.maximumf
// CHECK: math.sqrt
func.func @global(%x: tensor<?x3x?x?xf32>) -> (tensor<?x3x1x1xf32>, tensor<?x3x1x1xf32>, tensor<?x3x1x1xf32>) {
  %0 = onnx.GlobalAveragePool(%x) : (tensor<?x3x?x?xf32>) -> tensor<?x3x1x1xf32>
  %1 = onnx.GlobalMaxPool(%x) : (tensor<?x3x?x?xf32>) -> tensor<?x3x1x1xf32>
  %2 = onnx.GlobalLpPool(%x) : (tensor<?x3x?x?xf32>) -> tensor<?x3x1x1xf32>
  return %0, %1, %2 : tensor<?x3x1x1xf32>, tensor<?x3x1x1xf32>, tensor<?x3x1x1xf32>
}

// -----

// Spatial dims known at run time only under a static result type: the
// computed output size is checked against it.
// CHECK-LABEL: func.func @max_pool_declared
// CHECK: cf.assert %{{.*}}, "onnx.MaxPool: the output's spatial dim 0 is not 3 at run time, the size its inferred or declared type gives"
func.func @max_pool_declared(%x: tensor<1x1x?x4xf32>) -> tensor<1x1x3x3xf32> {
  %0 = onnx.MaxPool(%x) {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x?x4xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}
