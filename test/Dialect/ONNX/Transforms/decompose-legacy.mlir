// RUN: onnx-opt %s --split-input-file --onnx-decompose | FileCheck %s

// Before multidirectional broadcasting (Add-7, Max-8) both operands of a
// binary op have one shape: the constants of a function body are splats of
// the other operand's (static) shape.

module attributes {onnx.opset_import = {ai.onnx = 6 : i64}} {
  // CHECK-LABEL: func.func @hard_sigmoid_v6
  // CHECK: %[[A:.*]] = onnx.Constant_v1() {value = dense<2.000000e-01> : tensor<3x4xf32>}
  // CHECK: onnx.Mul_v6(%arg0, %[[A]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  // CHECK: onnx.Add_v6(
  // CHECK: onnx.Min_v6(
  // CHECK: onnx.Max_v6(
  // CHECK-NEXT: return
  func.func @hard_sigmoid_v6(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
    %0 = onnx.HardSigmoid_v6(%x) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    return %0 : tensor<3x4xf32>
  }
}

// -----

module attributes {onnx.opset_import = {ai.onnx = 1 : i64}} {
  // CHECK-LABEL: func.func @softsign_v1
  // CHECK: %[[ABS:.*]] = onnx.Abs_v1(%arg0)
  // CHECK: %[[ONE:.*]] = onnx.Constant_v1() {value = dense<1.000000e+00> : tensor<2xf32>}
  // CHECK: %[[D:.*]] = onnx.Add_v1(%[[ONE]], %[[ABS]])
  // CHECK: onnx.Div_v1(%arg0, %[[D]])
  // CHECK-NEXT: return
  func.func @softsign_v1(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = onnx.Softsign_v1(%x) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
