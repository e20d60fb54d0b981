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
