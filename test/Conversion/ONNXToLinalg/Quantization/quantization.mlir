// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// Per tensor: x / scale rounded half to even, plus the zero point, clamped
// to uint8's range.
// CHECK-LABEL: func.func @quantize_per_tensor
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK: arith.divf
// CHECK: math.roundeven
// CHECK: arith.addf
// CHECK: arith.maxnumf
// CHECK: arith.minnumf
// CHECK: return %{{.*}} : tensor<2x?xi8>
func.func @quantize_per_tensor(%x: tensor<2x?xf32>, %s: tensor<f32>, %z: tensor<ui8>) -> tensor<2x?xui8> {
  %0 = onnx.QuantizeLinear(%x, %s, %z) : (tensor<2x?xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x?xui8>
  return %0 : tensor<2x?xui8>
}

// -----

// Per axis: the 1-D scale follows dim 1; its size is checked at run time
// when x's dim is dynamic.
// CHECK-DAG: #[[AXIS:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @quantize_per_axis
// CHECK: cf.assert {{.*}}does not have x's size on axis
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[AXIS]], #[[AXIS]], #{{.*}}]
func.func @quantize_per_axis(%x: tensor<2x?xf32>, %s: tensor<?xf32>, %z: tensor<?xi8>) -> tensor<2x?xi8> {
  %0 = onnx.QuantizeLinear(%x, %s, %z) {axis = 1 : i64} : (tensor<2x?xf32>, tensor<?xf32>, tensor<?xi8>) -> tensor<2x?xi8>
  return %0 : tensor<2x?xi8>
}

// -----

// Blocked: the axis dim of the scale is indexed by d floordiv block_size.
// CHECK-DAG: #[[BLOCK:.*]] = affine_map<(d0, d1) -> (d0, d1 floordiv 2)>
// CHECK-LABEL: func.func @dequantize_blocked
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[BLOCK]], #[[BLOCK]], #{{.*}}]
// CHECK: arith.subf
// CHECK: arith.mulf
func.func @dequantize_blocked(%x: tensor<3x4xi8>, %s: tensor<3x2xf32>, %z: tensor<3x2xi8>) -> tensor<3x4xf32> {
  %0 = onnx.DequantizeLinear(%x, %s, %z) {axis = 1 : i64, block_size = 2 : i64} : (tensor<3x4xi8>, tensor<3x2xf32>, tensor<3x2xi8>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// MatMulInteger: inputs widened to i32 minus their zero points (per row of
// A, per column of B), then an i32 matmul.
// CHECK-LABEL: func.func @matmul_integer
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: arith.subi
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.subi
// CHECK: linalg.matmul
// CHECK-SAME: outs(%{{.*}} : tensor<4x3xi32>)
func.func @matmul_integer(%a: tensor<4x5xui8>, %b: tensor<5x3xi8>, %az: tensor<4xui8>, %bz: tensor<3xi8>) -> tensor<4x3xi32> {
  %0 = onnx.MatMulInteger(%a, %b, %az, %bz) : (tensor<4x5xui8>, tensor<5x3xi8>, tensor<4xui8>, tensor<3xi8>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}

// -----

// ConvInteger: an i32 convolution of the inputs minus their zero points.
// CHECK-LABEL: func.func @conv_integer
// CHECK: arith.subi
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-SAME: outs(%{{.*}} : tensor<1x1x2x2xi32>)
func.func @conv_integer(%x: tensor<1x1x3x3xui8>, %w: tensor<1x1x2x2xui8>, %xz: tensor<ui8>, %wz: tensor<1xui8>) -> tensor<1x1x2x2xi32> {
  %0 = onnx.ConvInteger(%x, %w, %xz, %wz) : (tensor<1x1x3x3xui8>, tensor<1x1x2x2xui8>, tensor<ui8>, tensor<1xui8>) -> tensor<1x1x2x2xi32>
  return %0 : tensor<1x1x2x2xi32>
}

// -----

// QLinearMatMul: i32 matmul, then requantized with a_scale * b_scale /
// y_scale.
// CHECK-LABEL: func.func @qlinear_matmul
// CHECK: linalg.matmul
// CHECK: linalg.generic
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.divf
// CHECK: math.roundeven
func.func @qlinear_matmul(%a: tensor<2x4xui8>, %as: tensor<f32>, %az: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bz: tensor<ui8>, %ys: tensor<f32>, %yz: tensor<ui8>) -> tensor<2x3xui8> {
  %0 = onnx.QLinearMatMul(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<4x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}
