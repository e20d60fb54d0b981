// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// BitCast: arith.bitcast per element, dynamic dims kept.
// CHECK-LABEL: func.func @bitcast_f32_i32
// CHECK: tensor.dim %arg0, %{{.*}} : tensor<?x3xf32>
// CHECK: linalg.generic
// CHECK: arith.bitcast %{{.*}} : f32 to i32
func.func @bitcast_f32_i32(%x: tensor<?x3xf32>) -> tensor<?x3xi32> {
  %0 = onnx.BitCast(%x) {to = 6 : i64} : (tensor<?x3xf32>) -> tensor<?x3xi32>
  return %0 : tensor<?x3xi32>
}

// -----

// bool is a byte: widened to i8 as the source.
// CHECK-LABEL: func.func @bitcast_bool_u8
// CHECK: linalg.generic
// CHECK: arith.extui %{{.*}} : i1 to i8
func.func @bitcast_bool_u8(%x: tensor<4xi1>) -> tensor<4xui8> {
  %0 = onnx.BitCast(%x) {to = 2 : i64} : (tensor<4xi1>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// ... and compared with 0 as the target.
// CHECK-LABEL: func.func @bitcast_f8_bool
// CHECK: linalg.generic
// CHECK: %[[B:.*]] = arith.bitcast %{{.*}} : f8E4M3FN to i8
// CHECK: arith.cmpi ne, %[[B]], %{{.*}} : i8
func.func @bitcast_f8_bool(%x: tensor<4xf8E4M3FN>) -> tensor<4xi1> {
  %0 = onnx.BitCast(%x) {to = 9 : i64} : (tensor<4xf8E4M3FN>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @bitcast_i4_f4
// CHECK: arith.bitcast %{{.*}} : i4 to f4E2M1FN
func.func @bitcast_i4_f4(%x: tensor<4xi4>) -> tensor<4xf4E2M1FN> {
  %0 = onnx.BitCast(%x) {to = 23 : i64} : (tensor<4xi4>) -> tensor<4xf4E2M1FN>
  return %0 : tensor<4xf4E2M1FN>
}
