// RUN: onnx-opt %s -split-input-file -verify-diagnostics
// Reducing operators that break the rules of their operator.

func.func @reduce_axis(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %axes = onnx.Constant() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{axis 2 of 'axes' is out of range for input 'data' of rank 2}}
  %0 = onnx.ReduceMax(%x, %axes) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @reduce_repeated(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{axis -1 of 'axes' is repeated}}
  %0 = onnx.ReduceMean_v13(%x) {axes = array<i64: 1, -1>} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @argmax_axis(%x: tensor<2x3xf32>) -> tensor<*xi64> {
  // expected-error @+1 {{attribute 'axis' -3 is out of range for input 'data' of rank 2}}
  %0 = onnx.ArgMax(%x) {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// -----

func.func @sce_labels(%s: tensor<2x3x4xf32>, %l: tensor<2x5xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'labels' [2, 5] does not fit input 'scores' [2, 3, 4]}}
  %0 = onnx.SoftmaxCrossEntropyLoss(%s, %l) : (tensor<2x3x4xf32>, tensor<2x5xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @nll_rank(%s: tensor<2xf32>, %l: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'input' must have rank 2 or more, got 1}}
  %0 = onnx.NegativeLogLikelihoodLoss(%s, %l) : (tensor<2xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @nll_reduction(%s: tensor<2x3xf32>, %l: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{attribute 'reduction' must be "none", "sum" or "mean", got "max"}}
  %0 = onnx.NegativeLogLikelihoodLoss(%s, %l) {reduction = "max"} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @nll_weight(%s: tensor<2x3xf32>, %l: tensor<2xi64>, %w: tensor<4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'weight' [4] must have one weight per class of input 'input' [2, 3]}}
  %0 = onnx.NegativeLogLikelihoodLoss(%s, %l, %w) : (tensor<2x3xf32>, tensor<2xi64>, tensor<4xf32>) -> tensor<*xf32>
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
