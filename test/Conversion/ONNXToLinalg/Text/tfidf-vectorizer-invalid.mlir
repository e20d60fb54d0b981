// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

func.func @tfidf_strings(%x: tensor<4x!onnx.string>) -> tensor<2xf32> {
  // expected-error @+2 {{onnx.TfIdfVectorizer: cannot lower: string pools and inputs are not lowered (integer pools only)}}
  // expected-error @+1 {{failed to legalize operation 'onnx.TfIdfVectorizer'}}
  %0 = onnx.TfIdfVectorizer(%x) {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_strings = ["a", "b"]} : (tensor<4x!onnx.string>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @tfidf_split(%x: tensor<4xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{onnx.TfIdfVectorizer: cannot lower: ngram_counts does not split the pool into whole n-grams}}
  // expected-error @+1 {{failed to legalize operation 'onnx.TfIdfVectorizer'}}
  %0 = onnx.TfIdfVectorizer(%x) {max_gram_length = 2 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0, 1>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2, 3, 4>} : (tensor<4xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
