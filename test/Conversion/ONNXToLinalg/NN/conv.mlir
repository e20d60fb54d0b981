// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// Explicit pads are a tensor.pad with zeros; the bias is broadcast into the
// accumulator of linalg.conv_2d_nchw_fchw.
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @conv2d
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 0, 0]
// CHECK: tensor<1x3x8x8xf32> to tensor<1x3x9x9xf32>
// CHECK: %[[B:.*]] = linalg.generic {indexing_maps = [#[[CH]], {{.*}}]{{.*}} ins(%arg2 : tensor<4xf32>) outs({{.*}} : tensor<1x4x4x4xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %arg1 : tensor<1x3x9x9xf32>, tensor<4x3x3x3xf32>) outs(%[[B]] : tensor<1x4x4x4xf32>)
func.func @conv2d(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = onnx.Conv(%x, %w, %b) {pads = array<i64: 1, 1, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// One channel per group is a depthwise convolution; auto_pad SAME_LOWER on
// dynamic dims computes the pads at run time; f16 accumulates in f32.
// CHECK-LABEL: func.func @depthwise
// CHECK: tensor.pad %arg0 low[0, 0, %{{.*}}, %{{.*}}] high[0, 0, %{{.*}}, %{{.*}}]
// CHECK: %[[F:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1], [2], [3]] : tensor<4x1x3x3xf16> into tensor<4x3x3xf16>
// CHECK: linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.*}}, %[[F]] : tensor<?x4x?x?xf16>, tensor<4x3x3xf16>) outs(%{{.*}} : tensor<?x4x?x?xf32>)
// CHECK: arith.truncf
func.func @depthwise(%x: tensor<?x4x?x?xf16>, %w: tensor<4x1x3x3xf16>) -> tensor<?x4x?x?xf16> {
  %0 = onnx.Conv(%x, %w) {group = 4 : i64, auto_pad = "SAME_LOWER", strides = array<i64: 2, 2>} : (tensor<?x4x?x?xf16>, tensor<4x1x3x3xf16>) -> tensor<?x4x?x?xf16>
  return %0 : tensor<?x4x?x?xf16>
}

// -----

// Groups of 2-D images: linalg.conv_2d_ngchw_gfchw on grouped views.
// CHECK-LABEL: func.func @grouped
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 5, 5] : tensor<1x4x5x5xf32> into tensor<1x2x2x5x5xf32>
// CHECK: tensor.expand_shape %arg1 {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3] : tensor<6x2x3x3xf32> into tensor<2x3x2x3x3xf32>
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} -> tensor<1x2x3x3x3xf32>
// CHECK: tensor.collapse_shape {{.*}} {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x3x3x3xf32> into tensor<1x6x3x3xf32>
func.func @grouped(%x: tensor<1x4x5x5xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32> {
  %0 = onnx.Conv(%x, %w) {group = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32>
  return %0 : tensor<1x6x3x3xf32>
}

// -----

// Groups of 3-D images: a linalg.generic over the grouped views.
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9) -> (d0, d1, d6, d3 + d7 * 2, d4 + d8 * 2, d5 + d9 * 2)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9) -> (d1, d2, d6, d7, d8, d9)>
// CHECK-DAG: #[[O:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-LABEL: func.func @conv3d_grouped
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[O]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
// CHECK: arith.mulf {{.*}} : f64
func.func @conv3d_grouped(%x: tensor<1x4x5x5x5xf64>, %w: tensor<4x2x2x2x2xf64>) -> tensor<1x4x3x3x3xf64> {
  %0 = onnx.Conv(%x, %w) {group = 2 : i64, dilations = array<i64: 2, 2, 2>} : (tensor<1x4x5x5x5xf64>, tensor<4x2x2x2x2xf64>) -> tensor<1x4x3x3x3xf64>
  return %0 : tensor<1x4x3x3x3xf64>
}

// -----

// A channel count that can only be known at run time is checked.
// CHECK-LABEL: func.func @conv1d_dynamic_channels
// CHECK: cf.assert {{.*}}, "onnx.Conv 'c': X's channels are not group * W's dim 1"
// CHECK: linalg.conv_1d_ncw_fcw
func.func @conv1d_dynamic_channels(%x: tensor<2x?x9xf32>, %w: tensor<3x2x3xf32>) -> tensor<2x3x7xf32> {
  %0 = onnx.Conv(%x, %w) {onnx.name = "c"} : (tensor<2x?x9xf32>, tensor<3x2x3xf32>) -> tensor<2x3x7xf32>
  return %0 : tensor<2x3x7xf32>
}

// -----

// ConvTranspose: the input spread by the strides into a zero tensor with
// borders of kernel extent - 1 - pads, the kernel flipped with its channel
// dims swapped, then a convolution with stride 1.
// CHECK-DAG: #[[FLIP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, -d3 + 2, -d4 + 2)>
// CHECK-LABEL: func.func @conv_transpose
// CHECK: %[[Z:.*]] = linalg.fill {{.*}} -> tensor<1x2x7x7xf32>
// CHECK: %[[S:.*]] = tensor.insert_slice %arg0 into %[[Z]][0, 0, 1, 1] [1, 2, 3, 3] [1, 1, 2, 2] : tensor<1x2x3x3xf32> into tensor<1x2x7x7xf32>
// CHECK: %[[WG:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1], [2], [3], [4]] output_shape [1, 2, 3, 3, 3]
// CHECK: %[[V:.*]] = linalg.generic {indexing_maps = [#[[FLIP]], {{.*}}]{{.*}} ins(%[[WG]] : tensor<1x2x3x3x3xf32>) outs({{.*}} : tensor<1x3x2x3x3xf32>)
// CHECK: %[[K:.*]] = tensor.collapse_shape %[[V]] {{\[\[}}0, 1], [2], [3], [4]] : tensor<1x3x2x3x3xf32> into tensor<3x2x3x3xf32>
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[S]], %[[K]] : tensor<1x2x7x7xf32>, tensor<3x2x3x3xf32>) outs({{.*}} : tensor<1x3x5x5xf32>)
func.func @conv_transpose(%x: tensor<1x2x3x3xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x5x5xf32> {
  %0 = onnx.ConvTranspose(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x3x3xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x5x5xf32>
  return %0 : tensor<1x3x5x5xf32>
}

// -----

// Pads larger than the kernel extent crop the result.
// CHECK-LABEL: func.func @conv_transpose_crop
// CHECK: linalg.conv_1d_ncw_fcw {{.*}} -> tensor<1x1x4xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 1] [1, 1, 3] [1, 1, 1] : tensor<1x1x4xf32> to tensor<1x1x3xf32>
func.func @conv_transpose_crop(%x: tensor<1x1x4xf32>, %w: tensor<1x1x2xf32>) -> tensor<1x1x3xf32> {
  %0 = onnx.ConvTranspose(%x, %w) {pads = array<i64: 2, 0>} : (tensor<1x1x4xf32>, tensor<1x1x2xf32>) -> tensor<1x1x3xf32>
  return %0 : tensor<1x1x3xf32>
}

// -----

// output_shape sets the pads (the odd one at the beginning without
// SAME_UPPER); groups split the kernel's channel dims.
// CHECK-LABEL: func.func @conv_transpose_output_shape
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1] [1, 4, 4] [1, 1, 2] : tensor<1x4x4xf32> into tensor<1x4x9xf32>
// CHECK: tensor.expand_shape %arg1 {{\[\[}}0, 1], [2], [3]] output_shape [2, 2, 3, 3] : tensor<4x3x3xf32> into tensor<2x2x3x3xf32>
// CHECK: linalg.generic {{.*}} outs({{.*}} : tensor<2x3x2x3xf32>)
// CHECK: tensor.collapse_shape {{.*}} : tensor<2x3x2x3xf32> into tensor<6x2x3xf32>
// CHECK: -> tensor<1x6x7xf32>
func.func @conv_transpose_output_shape(%x: tensor<1x4x4xf32>, %w: tensor<4x3x3xf32>) -> tensor<1x6x7xf32> {
  %0 = onnx.ConvTranspose(%x, %w) {group = 2 : i64, strides = array<i64: 2>, output_shape = array<i64: 7>} : (tensor<1x4x4xf32>, tensor<4x3x3xf32>) -> tensor<1x6x7xf32>
  return %0 : tensor<1x6x7xf32>
}
