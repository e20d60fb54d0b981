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

// -----

// TfIdfVectorizer: constant tables of the pool, one generic over the output
// with loops over skips, starts and the n-gram's tokens.
// CHECK-LABEL: func.func @tfidf
// CHECK: arith.constant dense<[1, 2, 0]> : tensor<3xi64>
// CHECK: linalg.generic
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tensor.extract %arg0
func.func @tfidf(%x: tensor<?x5xi32>) -> tensor<?x3xf32> {
  %0 = onnx.TfIdfVectorizer(%x) {max_gram_length = 2 : i64, max_skip_count = 0 : i64, min_gram_length = 2 : i64, mode = "TF", ngram_counts = array<i64: 0, 0>, ngram_indexes = array<i64: 2, 0, 1>, pool_int64s = array<i64: 1, 2, 3, 4, 5, 6>} : (tensor<?x5xi32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
