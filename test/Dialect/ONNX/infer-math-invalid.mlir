// RUN: onnx-opt %s -split-input-file -verify-diagnostics
// Linear algebra operators that break the rules of their operator.

func.func @matmul_k(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{inputs 'A' [2, 3] and 'B' [4, 5] have different reduction dims}}
  %0 = onnx.MatMul(%a, %b) : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @matmul_batch(%a: tensor<2x2x3xf32>, %b: tensor<3x3x5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{the batch dims of inputs 'A' [2, 2, 3] and 'B' [3, 3, 5] do not broadcast}}
  %0 = onnx.MatMul(%a, %b) : (tensor<2x2x3xf32>, tensor<3x3x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @matmul_scalar(%a: tensor<f32>, %b: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'A' must have rank 1 or more}}
  %0 = onnx.MatMul(%a, %b) : (tensor<f32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gemm_rank(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'A' must have rank 2, got 3}}
  %0 = onnx.Gemm(%a, %b) : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gemm_k(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{inputs 'A' [2, 3] and 'B' [4, 5] have different reduction dims (transA=1, transB=0)}}
  %0 = onnx.Gemm(%a, %b) {transA = 1 : i64} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gemm_c(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>, %c: tensor<3x5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'C' [3, 5] does not broadcast to the result [2, 5]}}
  %0 = onnx.Gemm(%a, %b, %c) : (tensor<2x3xf32>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @einsum_terms(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{attribute 'equation' "ij,jk->ik" has 2 input terms for 1 inputs}}
  %0 = onnx.Einsum(%a) {equation = "ij,jk->ik"} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @einsum_rank(%a: tensor<2x3x4xf32>, %b: tensor<3x4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'Inputs' #0 [2, 3, 4] has rank 3, but its term "ij" has 2 labels}}
  %0 = onnx.Einsum(%a, %b) {equation = "ij,jk"} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @einsum_label(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{label 'j' of attribute 'equation' has sizes 3 and 4}}
  %0 = onnx.Einsum(%a, %b) {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @einsum_output(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{label 'k' of the output of attribute 'equation' is not in an input term}}
  %0 = onnx.Einsum(%a) {equation = "ij->k"} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @det_square(%a: tensor<2x3x4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'X' [2, 3, 4] must hold square matrices}}
  %0 = onnx.Det(%a) : (tensor<2x3x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @cumsum_axis(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %axis = onnx.Constant() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{input 'axis' 2 is out of range for input 'x' of rank 2}}
  %0 = onnx.CumSum(%x, %axis) : (tensor<2x3xf32>, tensor<i64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @topk_k(%x: tensor<2x3xf32>) -> (tensor<*xf32>, tensor<*xi64>) {
  %k = onnx.Constant() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{k 4 is greater than the size 3 of axis 1 of input 'X'}}
  %0:2 = onnx.TopK(%x, %k) : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi64>)
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xi64>
}

// -----

func.func @topk_axis(%x: tensor<2x3xf32>, %k: tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi64>) {
  // expected-error @+1 {{attribute 'axis' 2 is out of range for input 'X' of rank 2}}
  %0:2 = onnx.TopK(%x, %k) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<*xf32>, tensor<*xi64>)
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xi64>
}

// -----

func.func @trilu_rank(%x: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'input' must have rank 2 or more, got 1}}
  %0 = onnx.Trilu(%x) : (tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @eyelike_rank(%x: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'input' must have rank 2, got 1}}
  %0 = onnx.EyeLike(%x) : (tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @range_scalar(%s: tensor<2xf32>, %l: tensor<f32>, %d: tensor<f32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'start' must be a scalar, got shape [2]}}
  %0 = onnx.Range(%s, %l, %d) : (tensor<2xf32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @range_delta(%s: tensor<i64>, %l: tensor<i64>) -> tensor<*xi64> {
  %d = onnx.Constant() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{input 'delta' must not be zero}}
  %0 = onnx.Range(%s, %l, %d) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<*xi64>
  return %0 : tensor<*xi64>
}
