// RUN: onnx-opt %s -split-input-file -verify-diagnostics

func.func @tfidf_rank(%x: tensor<2x3x4xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op input 'X' must have rank 1 or 2, got 3}}
  %0 = onnx.TfIdfVectorizer(%x) {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 5, 6>} : (tensor<2x3x4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @tfidf_max_skip_count(%x: tensor<2x3xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op attribute 'max_skip_count' must be in [0, 2147483647], got 4611686018427387904}}
  %0 = onnx.TfIdfVectorizer(%x) {max_gram_length = 1 : i64, max_skip_count = 4611686018427387904 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 5, 6>} : (tensor<2x3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
