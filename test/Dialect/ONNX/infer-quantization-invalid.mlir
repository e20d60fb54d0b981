// RUN: onnx-opt %s -split-input-file -verify-diagnostics
// Quantizing operators that break the rules of their operator.

func.func @per_axis_length(%x: tensor<2x3xf32>, %s: tensor<4xf32>) -> tensor<*xui8> {
  // expected-error @+1 {{input 'y_scale' [4] must have the size of axis 1 of input 'x' [2, 3]}}
  %0 = onnx.QuantizeLinear(%x, %s) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}

// -----

func.func @zero_point_shape(%x: tensor<2x3xi8>, %s: tensor<3xf32>, %z: tensor<i8>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'x_zero_point' [] must have the shape of input 'x_scale' [3]}}
  %0 = onnx.DequantizeLinear(%x, %s, %z) : (tensor<2x3xi8>, tensor<3xf32>, tensor<i8>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @blocked(%x: tensor<2x8xf32>, %s: tensor<2x3xf32>) -> tensor<*xui8> {
  // expected-error @+1 {{input 'y_scale' [2, 3] does not fit input 'x' [2, 8] in blocks of 4 along axis 1}}
  %0 = onnx.QuantizeLinear(%x, %s) {block_size = 4 : i64} : (tensor<2x8xf32>, tensor<2x3xf32>) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}

// -----

func.func @output_dtype(%x: tensor<2xf32>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<*xi8> {
  // expected-error @+1 {{attribute 'output_dtype' names 'ui8', but input 'y_zero_point' has 'i8'}}
  %0 = onnx.QuantizeLinear(%x, %s, %z) {output_dtype = 2 : i64} : (tensor<2xf32>, tensor<f32>, tensor<i8>) -> tensor<*xi8>
  return %0 : tensor<*xi8>
}

// -----

func.func @axis(%x: tensor<2x3xi8>, %s: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{attribute 'axis' 2 is out of range for input 'x' of rank 2}}
  %0 = onnx.DequantizeLinear(%x, %s) {axis = 2 : i64} : (tensor<2x3xi8>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
