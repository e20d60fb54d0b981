// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// Float to a narrow integer: NaN is 0, the value is clamped to i64 before
// fptosi (never poison), then truncated.
// CHECK-LABEL: func.func @f32_to_i8
// CHECK: linalg.generic
// CHECK: arith.cmpf uno
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: arith.fptosi %{{.*}} : f32 to i64
// CHECK: arith.trunci %{{.*}} : i64 to i8
func.func @f32_to_i8(%x: tensor<?xf32>) -> tensor<?xi8> {
  %0 = onnx.Cast(%x) {to = 3 : i64} : (tensor<?xf32>) -> tensor<?xi8>
  return %0 : tensor<?xi8>
}

// -----

// Unsigned sources extend with zeros; the result is signless.
// CHECK-LABEL: func.func @u8_to_i32
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: return %{{.*}} : tensor<4xi32>
func.func @u8_to_i32(%x: tensor<4xui8>) -> tensor<4xi32> {
  %0 = onnx.Cast(%x) {to = 6 : i64} : (tensor<4xui8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// To bool: non-zero (NaN included) is true.
// CHECK-LABEL: func.func @f16_to_bool
// CHECK: arith.cmpf une
func.func @f16_to_bool(%x: tensor<4xf16>) -> tensor<4xi1> {
  %0 = onnx.Cast(%x) {to = 9 : i64} : (tensor<4xf16>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// f16 <-> bf16 goes through f32.
// CHECK-LABEL: func.func @f16_to_bf16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @f16_to_bf16(%x: tensor<4xf16>) -> tensor<4xbf16> {
  %0 = onnx.Cast(%x) {to = 16 : i64} : (tensor<4xf16>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// float8 is encoded on integers: round to nearest even of the scaled
// magnitude, saturation, then a bitcast of the 8 bits.
// CHECK-LABEL: func.func @f32_to_f8
// CHECK: math.roundeven
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: arith.bitcast %{{.*}} : i8 to f8E4M3FN
func.func @f32_to_f8(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
  %0 = onnx.Cast(%x) {to = 17 : i64} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

// and decoded from its fields to f32, then to the target.
// CHECK-LABEL: func.func @f8_to_f16
// CHECK: arith.bitcast %{{.*}} : f8E5M2FNUZ to i8
// CHECK: arith.uitofp
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @f8_to_f16(%x: tensor<4xf8E5M2FNUZ>) -> tensor<4xf16> {
  %0 = onnx.Cast(%x) {to = 10 : i64} : (tensor<4xf8E5M2FNUZ>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// 4-bit integers: sign extension from i4.
// CHECK-LABEL: func.func @i4_to_i8
// CHECK: arith.extsi %{{.*}} : i4 to i8
func.func @i4_to_i8(%x: tensor<4xi4>) -> tensor<4xi8> {
  %0 = onnx.Cast(%x) {to = 3 : i64} : (tensor<4xi4>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// A cast to the same type is the input.
// CHECK-LABEL: func.func @same
// CHECK-NOT: linalg.generic
// CHECK: return %arg0
func.func @same(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = onnx.Cast(%x) {to = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
