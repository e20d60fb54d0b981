// RUN: onnx-opt %s --onnx-decompose --split-input-file | FileCheck %s

// The optimizers of ai.onnx.preview.training become ai.onnx arithmetic (the
// spec's pseudo code); a model that imported only the training domain now
// imports ai.onnx too.

// CHECK: module attributes {onnx.opset_import = {ai.onnx = {{[0-9]+}} : i64, ai.onnx.preview.training = 1 : i64}}
// CHECK-LABEL: func.func @adagrad
// r = R / (1 + T * decay_factor)
// CHECK: %[[T:.*]] = onnx.Cast(%arg1) {to = 1 : i64}
// CHECK: %[[TD:.*]] = onnx.Mul(%[[T]], %{{.*}})
// CHECK: %[[DEN:.*]] = onnx.Add(%{{.*}}, %[[TD]])
// CHECK: %[[R:.*]] = onnx.Div(%arg0, %[[DEN]])
// G' = norm * X + G; H_new = H + G'^2
// CHECK: %[[NX:.*]] = onnx.Mul(%{{.*}}, %arg2)
// CHECK: %[[G:.*]] = onnx.Add(%[[NX]], %arg3)
// CHECK: %[[G2:.*]] = onnx.Mul(%[[G]], %[[G]])
// CHECK: %[[H:.*]] = onnx.Add(%arg4, %[[G2]])
// X_new = X - r * G' / (sqrt(H_new) + epsilon)
// CHECK: %[[S:.*]] = onnx.Sqrt(%[[H]])
// CHECK: %[[SE:.*]] = onnx.Add(%[[S]], %{{.*}})
// CHECK: %[[RG:.*]] = onnx.Mul(%[[R]], %[[G]])
// CHECK: %[[Q:.*]] = onnx.Div(%[[RG]], %[[SE]])
// CHECK: %[[X:.*]] = onnx.Sub(%arg2, %[[Q]])
// CHECK: return %[[X]], %[[H]]
// CHECK-NOT: onnx.preview.training.Adagrad
module attributes {onnx.opset_import = {ai.onnx.preview.training = 1 : i64}} {
  func.func @adagrad(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<3xf32>, %g: tensor<3xf32>, %h: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
    %0:2 = onnx.preview.training.Adagrad(%r, %t, %x, %g, %h) {decay_factor = 1.000000e-01 : f32, epsilon = 1.000000e-05 : f32, norm_coefficient = 1.000000e-03 : f32} : (tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
    return %0#0, %0#1 : tensor<3xf32>, tensor<3xf32>
  }
}

// -----

// Adam with two tensors: outputs X1, X2, V1, V2, H1, H2; the learning rate
// is bias-corrected where T > 0.
// CHECK-LABEL: func.func @adam
// CHECK-COUNT-2: onnx.Pow
// CHECK: onnx.Greater(%arg1, %{{.*}}) : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK: onnx.Where
// CHECK-COUNT-2: onnx.Pow
// CHECK: onnx.Where
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>
module attributes {onnx.opset_import = {ai.onnx = 23 : i64, ai.onnx.preview.training = 1 : i64}} {
  func.func @adam(%r: tensor<f32>, %t: tensor<i64>, %x1: tensor<1xf32>, %x2: tensor<2xf32>, %g1: tensor<1xf32>, %g2: tensor<2xf32>, %v1: tensor<1xf32>, %v2: tensor<2xf32>, %h1: tensor<1xf32>, %h2: tensor<2xf32>) -> (tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>) {
    %0:6 = onnx.preview.training.Adam(%r, %t, %x1, %x2, %g1, %g2, %v1, %v2, %h1, %h2) {alpha = 0.949999988 : f32, beta = 8.500000e-01 : f32, norm_coefficient = 1.000000e-03 : f32} : (tensor<f32>, tensor<i64>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>) -> (tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>)
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5 : tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<2xf32>
  }
}

// -----

// Nesterov momentum: X - R * (G' + alpha * V_new).
// CHECK-LABEL: func.func @nesterov
// CHECK: %[[B:.*]] = onnx.Where
// CHECK: %[[BG:.*]] = onnx.Mul(%[[B]], %[[G:[0-9]+]])
// CHECK: %[[V:.*]] = onnx.Add(%{{.*}}, %[[BG]])
// CHECK: %[[AV:.*]] = onnx.Mul(%{{.*}}, %[[V]])
// CHECK: %[[D:.*]] = onnx.Add(%[[G]], %[[AV]])
// CHECK: %[[RD:.*]] = onnx.Mul(%arg0, %[[D]])
// CHECK: %[[X:.*]] = onnx.Sub(%arg2, %[[RD]])
// CHECK: return %[[X]], %[[V]]
module attributes {onnx.opset_import = {ai.onnx.preview.training = 1 : i64}} {
  func.func @nesterov(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<3xf32>, %g: tensor<3xf32>, %v: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
    %0:2 = onnx.preview.training.Momentum(%r, %t, %x, %g, %v) {alpha = 0.949999988 : f32, beta = 1.000000e-01 : f32, mode = "nesterov", norm_coefficient = 1.000000e-02 : f32} : (tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
    return %0#0, %0#1 : tensor<3xf32>, tensor<3xf32>
  }
}

// -----

// An unknown mode is left alone, with a remark saying why.
// CHECK-LABEL: func.func @bad_mode
// CHECK: onnx.preview.training.Momentum
module attributes {onnx.opset_import = {ai.onnx.preview.training = 1 : i64}} {
  func.func @bad_mode(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<3xf32>, %g: tensor<3xf32>, %v: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
    %0:2 = onnx.preview.training.Momentum(%r, %t, %x, %g, %v) {alpha = 0.949999988 : f32, beta = 1.000000e-01 : f32, mode = "heavy", norm_coefficient = 1.000000e-02 : f32} : (tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
    return %0#0, %0#1 : tensor<3xf32>, tensor<3xf32>
  }
}
