// RUN: onnx-opt %s -split-input-file -verify-diagnostics

// Elementwise operators that break the rules of their operator.

func.func @add_no_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{the shapes of inputs 'A' [2, 3], 'B' [4] do not broadcast}}
  %0 = onnx.Add(%a, %b) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @sum_no_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<2x1xf32>, %d: tensor<5x1x1xf32>, %e: tensor<2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{the shapes of inputs 'data_0' #0 [2, 3], 'data_0' #1 [3], 'data_0' #2 [2, 1], 'data_0' #3 [5, 1, 1], 'data_0' #4 [2] do not broadcast}}
  %0 = onnx.Sum(%a, %b, %c, %d, %e) : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x1xf32>, tensor<5x1x1xf32>, tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @sum_v6_same_shape(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'data_0' #1 has shape [3], expected the shape [2, 3] of the other inputs}}
  %0 = onnx.Sum_v6(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @add_v6_rank(%a: tensor<3xf32>, %b: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'B' [2, 3] has a greater rank than input 'A' [3] it is broadcast to}}
  %0 = onnx.Add_v6(%a, %b) {broadcast = 1 : i64} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @where(%c: tensor<2xi1>, %x: tensor<3xf32>, %y: tensor<f32>) -> tensor<*xf32> {
  // expected-error @+1 {{the shapes of inputs 'condition' [2], 'X' [3], 'Y' [] do not broadcast}}
  %0 = onnx.Where(%c, %x, %y) : (tensor<2xi1>, tensor<3xf32>, tensor<f32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @prelu(%x: tensor<2x3xf32>, %s: tensor<2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'slope' [2] does not broadcast to input 'X' [2, 3]}}
  %0 = onnx.PRelu(%x, %s) : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{attribute 'axis' 2 is out of range for input 'input' of rank 2}}
  %0 = onnx.Softmax(%x) {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @bitshift_direction(%x: tensor<2xui8>, %y: tensor<2xui8>) -> tensor<*xui8> {
  // expected-error @+1 {{attribute 'direction' must be "LEFT" or "RIGHT", got "UP"}}
  %0 = onnx.BitShift(%x, %y) {direction = "UP"} : (tensor<2xui8>, tensor<2xui8>) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}

// -----

func.func @mod_float(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{attribute 'fmod' must be 1 for floating point input 'A' of type 'f32'}}
  %0 = onnx.Mod(%x, %y) : (tensor<2xf32>, tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gelu(%x: tensor<2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{attribute 'approximate' must be "none" or "tanh", got "erf"}}
  %0 = onnx.Gelu(%x) {approximate = "erf"} : (tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @bitcast_width(%x: tensor<2xf32>) -> tensor<*xi64> {
  // expected-error @+1 {{attribute 'to' names 'i64' of 64 bits, but input 'input' has 'f32' of 32 bits}}
  %0 = onnx.BitCast(%x) {to = 7 : i64} : (tensor<2xf32>) -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// -----

// A declared result type that contradicts the inferred one.
func.func @add_result(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{output 0 has type 'tensor<2x4xf32>', but its inputs and attributes give it type 'tensor<2x3xf32>'}}
  %0 = onnx.Add(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
