// RUN: onnx-opt %s -split-input-file | onnx-opt -split-input-file | FileCheck %s
// RUN: onnx-opt %s -split-input-file --mlir-print-op-generic | onnx-opt -split-input-file | FileCheck %s
// The ops that are not ONNX operators: custom, call, yield.

// CHECK-LABEL: func @custom
func.func @custom(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // CHECK: onnx.custom "com.example" "FusedConv"(%{{.*}}, none, %{{.*}}) {alpha = 1.000000e+00 : f32, names = ["a"]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> (tensor<1x4x6x6xf32>, none)
  %0 = onnx.custom "com.example" "FusedConv"(%x, none, %w) {alpha = 1.0 : f32, names = ["a"]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> (tensor<1x4x6x6xf32>, none)
  // CHECK: onnx.custom "com.example" "WithBody"(%{{.*}}) : (tensor<1x4x6x6xf32>) -> (tensor<1x4x6x6xf32>) "body" {
  // CHECK-NEXT: onnx.yield %{{.*}} : tensor<1x4x6x6xf32>
  %1 = onnx.custom "com.example" "WithBody"(%0) : (tensor<1x4x6x6xf32>) -> (tensor<1x4x6x6xf32>) "body" {
    onnx.yield %0 : tensor<1x4x6x6xf32>
  }
  return %1 : tensor<1x4x6x6xf32>
}

// -----

func.func private @"local::MyRelu"(tensor<*xf32>) -> tensor<*xf32>

// CHECK-LABEL: func @call
func.func @call(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: onnx.call @"local::MyRelu"(%{{.*}}) {alpha = 1.000000e-01 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  %0 = onnx.call @"local::MyRelu"(%x) {alpha = 0.1 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A function body refers to the function's attribute parameters.
// CHECK-LABEL: func @attr_refs
func.func @attr_refs(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: onnx.LeakyRelu(%{{.*}}) {onnx.attr_refs = {alpha = #onnx.ref<"slope">}}
  %0 = onnx.LeakyRelu(%x) {onnx.attr_refs = {alpha = #onnx.ref<"slope">}} : (tensor<4xf32>) -> tensor<4xf32>
  // A required attribute given by reference.
  // CHECK: onnx.Cast(%{{.*}}) {onnx.attr_refs = {to = #onnx.ref<"dtype">}}
  %1 = onnx.Cast(%0) {onnx.attr_refs = {to = #onnx.ref<"dtype">}} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
