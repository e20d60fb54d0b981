// RUN: onnx-opt %s --convert-onnx-to-linalg --canonicalize --split-input-file | FileCheck %s

// Linear, zeros padding: one generic over (N, C, H_out, W_out) reading the
// grid and four taps of X, each masked by its bounds check.
// CHECK-LABEL: func.func @grid_sample_linear
// CHECK: linalg.generic
// CHECK: tensor.extract %arg1
// CHECK: math.floor
// CHECK-COUNT-4: tensor.extract %arg0
// CHECK: linalg.yield
func.func @grid_sample_linear(%x: tensor<1x1x4x4xf32>, %g: tensor<1x6x6x2xf32>) -> tensor<1x1x6x6xf32> {
  %0 = onnx.GridSample(%x, %g) : (tensor<1x1x4x4xf32>, tensor<1x6x6x2xf32>) -> tensor<1x1x6x6xf32>
  return %0 : tensor<1x1x6x6xf32>
}

// -----

// Nearest: a single read, rounding half to even.
// CHECK-LABEL: func.func @grid_sample_nearest
// CHECK: linalg.generic
// CHECK: math.roundeven
// CHECK-COUNT-1: tensor.extract %arg0
// CHECK-NOT: tensor.extract %arg0
// CHECK: linalg.yield
func.func @grid_sample_nearest(%x: tensor<?x?x?x?xi32>, %g: tensor<?x?x?x2xf32>) -> tensor<?x?x?x?xi32> {
  %0 = onnx.GridSample(%x, %g) {mode = "nearest", padding_mode = "border", align_corners = 1 : i64} : (tensor<?x?x?x?xi32>, tensor<?x?x?x2xf32>) -> tensor<?x?x?x?xi32>
  return %0 : tensor<?x?x?x?xi32>
}

// -----

// Cubic, 3-D input: 4 taps per spatial dim, 64 reads.
// CHECK-LABEL: func.func @grid_sample_cubic_5d
// CHECK: linalg.generic
// CHECK-COUNT-64: tensor.extract %arg0
// CHECK: linalg.yield
func.func @grid_sample_cubic_5d(%x: tensor<1x2x3x4x5xf64>, %g: tensor<1x2x2x2x3xf64>) -> tensor<1x2x2x2x2xf64> {
  %0 = onnx.GridSample(%x, %g) {mode = "cubic", padding_mode = "reflection"} : (tensor<1x2x3x4x5xf64>, tensor<1x2x2x2x3xf64>) -> tensor<1x2x2x2x2xf64>
  return %0 : tensor<1x2x2x2x2xf64>
}
