// RUN: onnx-opt %s --onnx-infer-shapes=fold=false | FileCheck %s
// Inference of the ai.onnx.ml operators.

// CHECK-LABEL: func @ml
func.func @ml(%x: tensor<3x4xf32>, %i: tensor<2xi64>, %s: tensor<5x!onnx.string>) -> (tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>) {
  // CHECK: onnx.ml.ArrayFeatureExtractor(%{{.*}}, %{{.*}}) : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %0 = onnx.ml.ArrayFeatureExtractor(%x, %i) : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  // CHECK: onnx.ml.LabelEncoder(%{{.*}}) {{.*}} : (tensor<5x!onnx.string>) -> tensor<5xi64>
  %1 = onnx.ml.LabelEncoder(%s) {keys_strings = ["a", "b"], values_int64s = array<i64: 0, 1>} : (tensor<5x!onnx.string>) -> tensor<*xi64>
  // CHECK: onnx.ml.Scaler(%{{.*}}) {{.*}} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %2 = onnx.ml.Scaler(%x) {offset = array<f32: 0.0>, scale = array<f32: 2.0>} : (tensor<3x4xf32>) -> tensor<*xf32>
  // CHECK: onnx.ml.OneHotEncoder(%{{.*}}) {{.*}} : (tensor<2xi64>) -> tensor<2x3xf32>
  %3 = onnx.ml.OneHotEncoder(%i) {cats_int64s = array<i64: 1, 2, 3>} : (tensor<2xi64>) -> tensor<*xf32>
  // CHECK: onnx.ml.LinearClassifier(%{{.*}}) {{.*}} : (tensor<3x4xf32>) -> (tensor<3xi64>, tensor<3x?xf32>)
  %4:2 = onnx.ml.LinearClassifier(%x) {classlabels_ints = array<i64: 0, 1>, coefficients = array<f32: 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0>} : (tensor<3x4xf32>) -> (tensor<*xi64>, tensor<*xf32>)
  return %0, %1, %2, %3, %4#0 : tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>
}
