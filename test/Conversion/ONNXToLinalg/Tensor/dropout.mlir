// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// Out of training mode Dropout forwards its input; the mask is all true.
// CHECK-LABEL: func.func @inference
// CHECK: %[[T:.*]] = arith.constant true
// CHECK: %[[M:.*]] = linalg.fill ins(%[[T]] : i1) outs(%{{.*}} : tensor<2x3xi1>)
// CHECK: return %arg0, %[[M]]
func.func @inference(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %r = onnx.Constant() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %y, %m = onnx.Dropout(%x, %r) : (tensor<2x3xf32>, tensor<f32>) -> (tensor<2x3xf32>, tensor<2x3xi1>)
  return %y, %m : tensor<2x3xf32>, tensor<2x3xi1>
}

// -----

// Training mode and ratio known only at run time: checked there.
// CHECK-LABEL: func.func @run_time_mode
// CHECK: %[[T:.*]] = tensor.extract %arg2[] : tensor<i1>
// CHECK: %[[NT:.*]] = arith.xori %[[T]], %true
// CHECK: %[[R:.*]] = tensor.extract %arg1[] : tensor<f32>
// CHECK: %[[Z:.*]] = arith.cmpf oeq, %[[R]]
// CHECK: %[[OK:.*]] = arith.ori %[[NT]], %[[Z]]
// CHECK: cf.assert %[[OK]], "onnx.Dropout: training mode with a nonzero ratio (random masks) is not supported"
// CHECK: return %arg0
func.func @run_time_mode(%x: tensor<4xf32>, %r: tensor<f32>, %t: tensor<i1>) -> tensor<4xf32> {
  %y = onnx.Dropout(%x, %r, %t) : (tensor<4xf32>, tensor<f32>, tensor<i1>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
