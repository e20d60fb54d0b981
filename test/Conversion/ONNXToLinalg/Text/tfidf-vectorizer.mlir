// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

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
