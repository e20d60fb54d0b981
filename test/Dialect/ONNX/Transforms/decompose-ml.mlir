// RUN: onnx-opt %s --onnx-decompose | FileCheck %s

// ai.onnx.ml operators that are ai.onnx primitives in disguise.
// CHECK: module attributes {onnx.opset_import = {ai.onnx = {{[0-9]+}} : i64, ai.onnx.ml = 5 : i64}}
module attributes {onnx.opset_import = {ai.onnx.ml = 5 : i64}} {
  // Binarizer: X > threshold, cast back to X's type.
  // CHECK-LABEL: func.func @binarizer
  // CHECK: %[[T:.*]] = onnx.Constant() {value = dense<1.500000e+00> : tensor<f32>}
  // CHECK: %[[G:.*]] = onnx.Greater(%arg0, %[[T]]) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  // CHECK: onnx.Cast(%[[G]]) {to = 1 : i64} : (tensor<2x3xi1>) -> tensor<2x3xf32>
  func.func @binarizer(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = onnx.ml.Binarizer(%x) {threshold = 1.500000e+00 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }

  // ArrayFeatureExtractor: Gather along the last axis of the flattened
  // indices.
  // CHECK-LABEL: func.func @afe
  // CHECK: %[[F:.*]] = onnx.Reshape(%arg1, %{{.*}}) : (tensor<2x1xi64>, tensor<1xi64>) -> tensor<2xi64>
  // CHECK: onnx.Gather(%arg0, %[[F]]) {axis = 1 : i64} : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  func.func @afe(%x: tensor<3x4xf32>, %y: tensor<2x1xi64>) -> tensor<3x2xf32> {
    %0 = onnx.ml.ArrayFeatureExtractor(%x, %y) : (tensor<3x4xf32>, tensor<2x1xi64>) -> tensor<3x2xf32>
    return %0 : tensor<3x2xf32>
  }

  // A 1-D X gives a [1, n] result.
  // CHECK-LABEL: func.func @afe_1d
  // CHECK: %[[G:.*]] = onnx.Gather(%arg0, %{{.*}}) {axis = 0 : i64} : (tensor<5xi64>, tensor<3xi64>) -> tensor<3xi64>
  // CHECK: onnx.Unsqueeze(%[[G]], %{{.*}}) : (tensor<3xi64>, tensor<1xi64>) -> tensor<1x3xi64>
  func.func @afe_1d(%x: tensor<5xi64>, %y: tensor<3xi64>) -> tensor<1x3xi64> {
    %0 = onnx.ml.ArrayFeatureExtractor(%x, %y) : (tensor<5xi64>, tensor<3xi64>) -> tensor<1x3xi64>
    return %0 : tensor<1x3xi64>
  }
}
