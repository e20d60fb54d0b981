// TfIdfVectorizer's three modes and min_gram_length, by value. Pool: the
// 1-grams [1], [4] and the 2-grams [2 1], [1 3], in output columns 3, 0, 1,
// 2, weights 0.5, 2, 1.5, 3; up to one skip.
// Row 0 = [1 2 1 3 2 1]: [1] 3 times, [2 1] twice (no skip), [1 3] once.
// Row 1 = [4 4 4 4 4 4]: [4] 6 times (1-grams count once, whatever the skips).
// RUN: onnx-opt %s --onnx-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

func.func @graph(%x: tensor<2x6xi64>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %tf = onnx.TfIdfVectorizer(%x) {max_gram_length = 2 : i64, max_skip_count = 1 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0, 2>, ngram_indexes = array<i64: 3, 0, 1, 2>, pool_int64s = array<i64: 1, 4, 2, 1, 1, 3>, weights = array<f32: 0.5, 2.0, 1.5, 3.0>} : (tensor<2x6xi64>) -> tensor<2x4xf32>
  %idf = onnx.TfIdfVectorizer(%x) {max_gram_length = 2 : i64, max_skip_count = 1 : i64, min_gram_length = 1 : i64, mode = "IDF", ngram_counts = array<i64: 0, 2>, ngram_indexes = array<i64: 3, 0, 1, 2>, pool_int64s = array<i64: 1, 4, 2, 1, 1, 3>, weights = array<f32: 0.5, 2.0, 1.5, 3.0>} : (tensor<2x6xi64>) -> tensor<2x4xf32>
  %tfidf = onnx.TfIdfVectorizer(%x) {max_gram_length = 2 : i64, max_skip_count = 1 : i64, min_gram_length = 1 : i64, mode = "TFIDF", ngram_counts = array<i64: 0, 2>, ngram_indexes = array<i64: 3, 0, 1, 2>, pool_int64s = array<i64: 1, 4, 2, 1, 1, 3>, weights = array<f32: 0.5, 2.0, 1.5, 3.0>} : (tensor<2x6xi64>) -> tensor<2x4xf32>
  %bi = onnx.TfIdfVectorizer(%x) {max_gram_length = 2 : i64, max_skip_count = 1 : i64, min_gram_length = 2 : i64, mode = "TF", ngram_counts = array<i64: 0, 2>, ngram_indexes = array<i64: 3, 0, 1, 2>, pool_int64s = array<i64: 1, 4, 2, 1, 1, 3>} : (tensor<2x6xi64>) -> tensor<2x4xf32>
  return %tf, %idf, %tfidf, %bi : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @print(%t: tensor<2x4xf32>) {
  %m = bufferization.to_buffer %t : tensor<2x4xf32> to memref<2x4xf32>
  %u = memref.cast %m : memref<2x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[[1, 2, 1, 3, 2, 1], [4, 4, 4, 4, 4, 4]]> : tensor<2x6xi64>
  %r:4 = call @graph(%x) : (tensor<2x6xi64>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
  // TF
  // CHECK: {{\[\[}}0, {{ *}}2, {{ *}}1, {{ *}}3],
  // CHECK-NEXT: [6, {{ *}}0, {{ *}}0, {{ *}}0]]
  call @print(%r#0) : (tensor<2x4xf32>) -> ()
  // IDF: the weight where found
  // CHECK: {{\[\[}}0, {{ *}}1.5, {{ *}}3, {{ *}}0.5],
  // CHECK-NEXT: [2, {{ *}}0, {{ *}}0, {{ *}}0]]
  call @print(%r#1) : (tensor<2x4xf32>) -> ()
  // TFIDF: count * weight
  // CHECK: {{\[\[}}0, {{ *}}3, {{ *}}3, {{ *}}1.5],
  // CHECK-NEXT: [12, {{ *}}0, {{ *}}0, {{ *}}0]]
  call @print(%r#2) : (tensor<2x4xf32>) -> ()
  // min_gram_length 2: the 1-grams' columns stay 0
  // CHECK: {{\[\[}}0, {{ *}}2, {{ *}}1, {{ *}}0],
  // CHECK-NEXT: [0, {{ *}}0, {{ *}}0, {{ *}}0]]
  call @print(%r#3) : (tensor<2x4xf32>) -> ()
  return
}
