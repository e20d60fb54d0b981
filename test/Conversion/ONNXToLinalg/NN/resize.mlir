// RUN: onnx-opt %s --convert-onnx-to-linalg --canonicalize --split-input-file | FileCheck %s

// Nearest (floor, asymmetric): one read per output element; axes of scale 1
// are copied.
// CHECK-LABEL: func.func @resize_nearest
// CHECK: linalg.generic
// CHECK: linalg.index 2
// CHECK: linalg.index 3
// CHECK: math.floor
// CHECK-COUNT-1: tensor.extract %arg0[%c0, %c0, %{{.*}}, %{{.*}}] : tensor<1x1x2x2xf32>
// CHECK-NOT: tensor.extract
// CHECK: linalg.yield
func.func @resize_nearest(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  %s = arith.constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  %0 = onnx.Resize(%x, none, %s) {mode = "nearest", nearest_mode = "floor", coordinate_transformation_mode = "asymmetric"} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// Linear on one axis (axes): two taps with weights in f64, reads clamped.
// CHECK-LABEL: func.func @resize_linear
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c0
// CHECK: tensor.empty(%[[D]]) : tensor<?x8xf32>
// CHECK: linalg.generic
// CHECK: arith.maximumf {{.*}} : f64
// CHECK: arith.minsi {{.*}}, %c3
// CHECK: arith.maximumf {{.*}} : f64
// CHECK: tensor.extract %arg0
// CHECK: arith.extf {{.*}} : f32 to f64
// CHECK: tensor.extract %arg0
// CHECK: arith.addf {{.*}} : f64
// CHECK: arith.truncf {{.*}} : f64 to f32
func.func @resize_linear(%x: tensor<?x4xf32>) -> tensor<?x8xf32> {
  %s = arith.constant dense<[2.0]> : tensor<1xf32>
  %0 = onnx.Resize(%x, none, %s) {mode = "linear", axes = array<i64: 1>} : (tensor<?x4xf32>, tensor<1xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// Cubic: four taps per resized axis (16 reads for two axes).
// CHECK-LABEL: func.func @resize_cubic
// CHECK: linalg.generic
// CHECK-COUNT-16: tensor.extract %arg0
// CHECK-NOT: tensor.extract
// CHECK: linalg.yield
func.func @resize_cubic(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x8x8xf32> {
  %s = arith.constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  %0 = onnx.Resize(%x, none, %s) {mode = "cubic"} : (tensor<1x1x4x4xf32>, tensor<4xf32>) -> tensor<1x1x8x8xf32>
  return %0 : tensor<1x1x8x8xf32>
}

// -----

// Sizes known at run time give the output sizes and the scales.
// CHECK-LABEL: func.func @resize_sizes_runtime
// CHECK: tensor.extract %arg1[%c0] : tensor<2xi64>
// CHECK: arith.divf
// CHECK: cf.assert {{.*}}, "onnx.Resize: a scale is not positive"
// CHECK: tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?xf32>
func.func @resize_sizes_runtime(%x: tensor<?x?xf32>, %sz: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = onnx.Resize(%x, none, none, %sz) {mode = "linear"} : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
