// RUN: onnx-opt %s --convert-onnx-to-linalg --canonicalize --split-input-file | FileCheck %s

// RoiAlign, avg, half_pixel, sampling_ratio 2: one generic over (rois, C,
// out_h, out_w); the batch index is checked; a 2 x 2 scf.for grid of
// samples, each a bilinear read of 4 pixels of X in f64; the sum is
// divided by the count and truncated to f32.
// CHECK-LABEL: func.func @roi_align_avg
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<3x2x2x2xf32>)
// CHECK: %[[R:.*]] = linalg.index 0
// CHECK: %[[C:.*]] = linalg.index 1
// CHECK: tensor.extract %arg2[%[[R]]] : tensor<3xi64>
// CHECK: cf.assert %{{.*}}, "onnx.RoiAlign: batch_indices out of range"
// CHECK-COUNT-4: tensor.extract %arg1[%[[R]], %c{{[0-3]}}] : tensor<3x4xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (f64) {
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (f64) {
// CHECK-COUNT-4: tensor.extract %arg0[%{{.*}}, %[[C]], %{{.*}}, %{{.*}}] : tensor<1x2x8x8xf32>
// CHECK: arith.addf
// CHECK: scf.yield
// CHECK: arith.divf
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @roi_align_avg(%x: tensor<1x2x8x8xf32>, %r: tensor<3x4xf32>, %bi: tensor<3xi64>) -> tensor<3x2x2x2xf32> {
  %0 = onnx.RoiAlign(%x, %r, %bi) {output_height = 2 : i64, output_width = 2 : i64, sampling_ratio = 2 : i64, spatial_scale = 0.5 : f32} : (tensor<1x2x8x8xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x2x2xf32>
  return %0 : tensor<3x2x2x2xf32>
}

// -----

// RoiAlign, max, output_half_pixel, adaptive sampling (ratio 0), dynamic
// shapes: the rois' width is checked at run time, the roi size is at least
// 1, the grid is ceil(bin size) and the samples are combined with max from
// -inf.
// CHECK-LABEL: func.func @roi_align_max_adaptive
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFFF0000000000000 : f64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: cf.assert %{{.*}}, "onnx.RoiAlign: rois must have 4 coordinates"
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x?x3x3xf64>)
// CHECK: arith.maximumf %{{.*}}, %[[ONE]] : f64
// CHECK: arith.maximumf %{{.*}}, %[[ONE]] : f64
// CHECK: math.ceil
// CHECK: math.ceil
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%{{.*}} = %[[NINF]]) -> (f64) {
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%[[IA:[[:alnum:]_]+]] = %{{.*}}) -> (f64) {
// CHECK-COUNT-4: tensor.extract %arg0
// CHECK: %[[M:.*]] = arith.maximumf %[[IA]], %{{.*}} : f64
// CHECK: scf.yield %[[M]] : f64
func.func @roi_align_max_adaptive(%x: tensor<?x?x?x?xf64>, %r: tensor<?x?xf64>, %bi: tensor<?xi64>) -> tensor<?x?x3x3xf64> {
  %0 = onnx.RoiAlign(%x, %r, %bi) {mode = "max", coordinate_transformation_mode = "output_half_pixel", output_height = 3 : i64, output_width = 3 : i64} : (tensor<?x?x?x?xf64>, tensor<?x?xf64>, tensor<?xi64>) -> tensor<?x?x3x3xf64>
  return %0 : tensor<?x?x3x3xf64>
}

// -----

// DeformConv 2-D, group 2, offset_group 2, bias and mask: the result
// starts as the broadcast bias; one generic over (n, oc, oh, ow) with
// (c in group, kh, kw) reduced reads W through its map, the (dy, dx)
// offsets, 4 bilinear taps of X and the mask, in f64.
// CHECK: #[[WMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-LABEL: func.func @deform_conv_2d
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%arg3 : tensor<6xf32>) outs(%{{.*}} : tensor<1x6x3x3xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[WMAP]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%arg1 : tensor<6x2x3x3xf32>) outs(%[[B]] : tensor<1x6x3x3xf32>)
// CHECK: ^bb0(%[[W:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-COUNT-2: tensor.extract %arg2[%c0, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x36x3x3xf32>
// CHECK-COUNT-4: tensor.extract %arg0[%c0, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x4x5x5xf32>
// CHECK: tensor.extract %arg4[%c0, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x18x3x3xf32>
// CHECK: %[[V:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: %[[T:.*]] = arith.mulf %[[V]], %[[W]] : f32
// CHECK: %[[S:.*]] = arith.addf %[[ACC]], %[[T]] : f32
// CHECK: linalg.yield %[[S]] : f32
func.func @deform_conv_2d(%x: tensor<1x4x5x5xf32>, %w: tensor<6x2x3x3xf32>, %o: tensor<1x36x3x3xf32>, %b: tensor<6xf32>, %m: tensor<1x18x3x3xf32>) -> tensor<1x6x3x3xf32> {
  %0 = onnx.DeformConv(%x, %w, %o, %b, %m) {group = 2 : i64, offset_group = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>, tensor<1x36x3x3xf32>, tensor<6xf32>, tensor<1x18x3x3xf32>) -> tensor<1x6x3x3xf32>
  return %0 : tensor<1x6x3x3xf32>
}

// -----

// DeformConv 1-D with dynamic shapes, strides, dilations and pads, no bias:
// the shapes are checked at run time, the result starts at zero, the
// position is o * 2 + k * 2 - 1 + offset and 2 taps are read.
// CHECK-LABEL: func.func @deform_conv_1d_dynamic
// CHECK: cf.assert %{{.*}}, "onnx.DeformConv: W's dim 1 is not C / group"
// CHECK: cf.assert %{{.*}}, "onnx.DeformConv: offset must have shape (N, offset_group * kernel size * 1, output sizes...)"
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%{{.*}} : tensor<?x?x?xf64>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%arg1 : tensor<?x?x?xf64>) outs(%[[Z]] : tensor<?x?x?xf64>)
// CHECK: %[[O:.*]] = linalg.index 2
// CHECK: %[[K:.*]] = linalg.index 4
// CHECK: %[[OFF:.*]] = tensor.extract %arg2
// CHECK: %[[KD:.*]] = arith.muli %[[K]], %c2
// CHECK: %[[OS:.*]] = arith.muli %[[O]], %c2
// CHECK: %[[P:.*]] = arith.addi %[[OS]], %[[KD]]
// CHECK: arith.subi %[[P]], %c1
// CHECK: arith.addf %{{.*}}, %[[OFF]] : f64
// CHECK: math.floor
// CHECK-COUNT-2: tensor.extract %arg0
// CHECK-NOT: tensor.extract %arg0
// CHECK: linalg.yield
func.func @deform_conv_1d_dynamic(%x: tensor<?x?x?xf64>, %w: tensor<?x?x?xf64>, %o: tensor<?x?x?xf64>) -> tensor<?x?x?xf64> {
  %0 = onnx.DeformConv(%x, %w, %o) {strides = array<i64: 2>, dilations = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<?x?x?xf64>, tensor<?x?x?xf64>, tensor<?x?x?xf64>) -> tensor<?x?x?xf64>
  return %0 : tensor<?x?x?xf64>
}

// -----

// RoiAlign with rois and batch_indices of open lengths: they must agree
// (checked at run time), and the declared 3 rois too.
// CHECK-LABEL: func.func @roi_align_open_lengths
// CHECK: cf.assert %{{.*}}, "onnx.RoiAlign: rois and batch_indices differ in length"
// CHECK: cf.assert %{{.*}}, "onnx.RoiAlign: the result's dim 0 is not 3 at run time, the size its inferred or declared type gives"
func.func @roi_align_open_lengths(%x: tensor<1x2x8x8xf32>, %r: tensor<?x4xf32>, %bi: tensor<?xi64>) -> tensor<3x2x2x2xf32> {
  %0 = onnx.RoiAlign(%x, %r, %bi) {output_height = 2 : i64, output_width = 2 : i64} : (tensor<1x2x8x8xf32>, tensor<?x4xf32>, tensor<?xi64>) -> tensor<3x2x2x2xf32>
  return %0 : tensor<3x2x2x2xf32>
}
