// RUN: onnx-opt %s --onnx-infer-shapes=fold=false | FileCheck %s
// Inference of the quantizing operators.

// CHECK-LABEL: func @quantize
func.func @quantize(%x: tensor<?x4xf32> {onnx.dim_params = ["N", ""]}, %s: tensor<f32>, %z: tensor<i8>, %sa: tensor<4xf32>, %sb: tensor<?x2xf32>) -> (tensor<*xi8>, tensor<*xui8>, tensor<*xf8E4M3FN>, tensor<*xui8>, tensor<*xui8>) {
  // CHECK: onnx.QuantizeLinear(%{{.*}}, %{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}"N", ""]]} : (tensor<?x4xf32>, tensor<f32>, tensor<i8>) -> tensor<?x4xi8>
  %0 = onnx.QuantizeLinear(%x, %s, %z) : (tensor<?x4xf32>, tensor<f32>, tensor<i8>) -> tensor<*xi8>
  // Without a zero point: uint8, or output_dtype.
  // CHECK: onnx.QuantizeLinear(%{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}"N", ""]]} : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xui8>
  %1 = onnx.QuantizeLinear(%x, %s) : (tensor<?x4xf32>, tensor<f32>) -> tensor<*xui8>
  // CHECK: onnx.QuantizeLinear(%{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}"N", ""]], output_dtype = 17 : i64} : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf8E4M3FN>
  %2 = onnx.QuantizeLinear(%x, %s) {output_dtype = 17 : i64} : (tensor<?x4xf32>, tensor<f32>) -> tensor<*xf8E4M3FN>
  // Per axis and blocked.
  // CHECK: onnx.QuantizeLinear(%{{.*}}, %{{.*}}) {onnx.dim_params = {{\[\[}}"N", ""]]} : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xui8>
  %3 = onnx.QuantizeLinear(%x, %sa) : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<*xui8>
  // CHECK: onnx.QuantizeLinear(%{{.*}}, %{{.*}}) {block_size = 2 : i64, onnx.dim_params = {{\[\[}}"N", ""]]} : (tensor<?x4xf32>, tensor<?x2xf32>) -> tensor<?x4xui8>
  %4 = onnx.QuantizeLinear(%x, %sb) {block_size = 2 : i64} : (tensor<?x4xf32>, tensor<?x2xf32>) -> tensor<*xui8>
  return %0, %1, %2, %3, %4 : tensor<*xi8>, tensor<*xui8>, tensor<*xf8E4M3FN>, tensor<*xui8>, tensor<*xui8>
}

// CHECK-LABEL: func @dequantize
func.func @dequantize(%x: tensor<2x?xi8>, %s: tensor<f16>, %z: tensor<i8>) -> (tensor<*xf16>, tensor<*xf32>) {
  // CHECK: onnx.DequantizeLinear(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x?xi8>, tensor<f16>, tensor<i8>) -> tensor<2x?xf16>
  %0 = onnx.DequantizeLinear(%x, %s, %z) : (tensor<2x?xi8>, tensor<f16>, tensor<i8>) -> tensor<*xf16>
  // CHECK: onnx.DequantizeLinear(%{{.*}}, %{{.*}}, %{{.*}}) {output_dtype = 1 : i64} : (tensor<2x?xi8>, tensor<f16>, tensor<i8>) -> tensor<2x?xf32>
  %1 = onnx.DequantizeLinear(%x, %s, %z) {output_dtype = 1 : i64} : (tensor<2x?xi8>, tensor<f16>, tensor<i8>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf16>, tensor<*xf32>
}

// CHECK-LABEL: func @dynamic
func.func @dynamic(%x: tensor<3x4xf32>) -> (tensor<*xui8>, tensor<*xf32>, tensor<*xui8>) {
  // CHECK: onnx.DynamicQuantizeLinear(%{{.*}}) : (tensor<3x4xf32>) -> (tensor<3x4xui8>, tensor<f32>, tensor<ui8>)
  %0:3 = onnx.DynamicQuantizeLinear(%x) : (tensor<3x4xf32>) -> (tensor<*xui8>, tensor<*xf32>, tensor<*xui8>)
  return %0#0, %0#1, %0#2 : tensor<*xui8>, tensor<*xf32>, tensor<*xui8>
}
