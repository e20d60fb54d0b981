// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// RandomUniform: a counter-based hash (splitmix64) of the element's linear
// index, scaled to [low, high) in f64 and rounded to the output type.
// CHECK-LABEL: func.func @uniform
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK: linalg.index 0
// CHECK: linalg.index 1
// CHECK: arith.xori
// CHECK: arith.uitofp %{{.*}} : i64 to f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @uniform() -> tensor<2x3xf32> {
  %0 = onnx.RandomUniform() {shape = array<i64: 2, 3>, low = -1.0 : f32, high = 1.0 : f32, seed = 3.0 : f32} : () -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// RandomNormalLike: Box-Muller on two hashes; the input's dynamic dims.
// CHECK-LABEL: func.func @normal_like
// CHECK: tensor.dim
// CHECK: linalg.generic
// CHECK: math.log
// CHECK: math.sqrt
// CHECK: math.cos
// CHECK: return %{{.*}} : tensor<?x4xf64>
func.func @normal_like(%x: tensor<?x4xf32>) -> tensor<?x4xf64> {
  %0 = onnx.RandomNormalLike(%x) {dtype = 11 : i64} : (tensor<?x4xf32>) -> tensor<?x4xf64>
  return %0 : tensor<?x4xf64>
}
