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

// Det: a loop over the batch; each matrix is factored in scf.for loops
// (partial pivoting: the row of the largest |a[i, k]|, then a row swap);
// the determinant is the product of the pivots, negated per swap, and a
// zero pivot skips the division. f16 is computed in f32.
// CHECK-LABEL: func.func @det_f16
// CHECK: cf.assert %{{.*}}, "onnx.Det 'd': the matrices are not square"
// CHECK: linalg.generic
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: scf.for %[[B:.*]] = %{{.*}} iter_args(%[[RES:.*]] = %{{.*}}) -> (tensor<?xf16>)
// CHECK: %[[M:.*]] = tensor.extract_slice %{{.*}}[%[[B]], 0, 0] [1, %{{.*}}, %{{.*}}] [1, 1, 1] : tensor<?x?x?xf32> to tensor<?x?xf32>
// CHECK: %[[LU:.*]]:2 = scf.for %[[K:.*]] = {{.*}} iter_args(%{{.*}} = %[[M]], %{{.*}} = %{{.*}}) -> (tensor<?x?xf32>, f32)
// CHECK: math.absf
// CHECK: scf.for {{.*}} -> (index, f32)
// CHECK: arith.cmpf ogt
// CHECK: scf.for {{.*}} -> (tensor<?x?xf32>)
// CHECK: tensor.insert
// CHECK: tensor.insert
// CHECK: arith.negf
// CHECK: arith.mulf
// CHECK: %[[ZERO:.*]] = arith.cmpf oeq
// CHECK: %[[DIV:.*]] = arith.select %[[ZERO]]
// CHECK: scf.for
// CHECK: arith.divf %{{.*}}, %[[DIV]] : f32
// CHECK: scf.for
// CHECK: arith.subf
// CHECK: %[[T:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: tensor.insert %[[T]] into %[[RES]][%[[B]]] : tensor<?xf16>
func.func @det_f16(%x: tensor<?x?x?xf16>) -> tensor<?xf16> {
  %0 = onnx.Det(%x) {onnx.name = "d"} : (tensor<?x?x?xf16>) -> tensor<?xf16>
  return %0 : tensor<?xf16>
}

// -----

// A single matrix gives a 0-d result; f64 stays f64.
// CHECK-LABEL: func.func @det_2d
// CHECK-NOT: cf.assert
// CHECK: %[[E:.*]] = tensor.empty() : tensor<f64>
// CHECK: tensor.extract_slice %arg0[0, 0] [3, 3] [1, 1] : tensor<3x3xf64> to tensor<3x3xf64>
// CHECK: scf.for {{.*}} -> (tensor<3x3xf64>, f64)
// CHECK: tensor.insert %{{.*}} into %[[E]][] : tensor<f64>
func.func @det_2d(%x: tensor<3x3xf64>) -> tensor<f64> {
  %0 = onnx.Det(%x) : (tensor<3x3xf64>) -> tensor<f64>
  return %0 : tensor<f64>
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
