// RUN: onnx-opt %s --onnx-decompose | FileCheck %s

// FlexAttention: Q K^T * scale in f32, the score_mod subgraph inlined on the
// scores, Softmax over the last axis, the prob_mod subgraph on the
// probabilities, times V, cast back to f16; K and V heads repeated for the
// grouped queries (Expand of an unsqueezed head axis).
// CHECK-LABEL: func.func @flex
// CHECK: onnx.Cast(%arg0) {to = 1 : i64} : (tensor<1x4x3x8xf16>) -> tensor<1x4x3x8xf32>
// CHECK: onnx.Expand
// CHECK: %[[QK:.*]] = onnx.MatMul
// CHECK: %[[S:.*]] = onnx.Mul(%[[QK]], %{{.*}})
// CHECK: %[[B:.*]] = onnx.Constant() {{.*}}dense<5.000000e-01> : tensor<f32>
// CHECK: %[[M:.*]] = onnx.Add(%[[S]], %[[B]])
// CHECK: onnx.ReduceMax(%[[M]]
// CHECK: %[[P:.*]] = onnx.Div
// CHECK: %[[PM:.*]] = onnx.Mul(%[[P]], %{{.*}})
// CHECK: %[[Y:.*]] = onnx.MatMul(%[[PM]], %{{.*}})
// CHECK: onnx.Cast(%[[Y]]) {to = 10 : i64} : (tensor<{{.*}}xf32>) -> tensor<1x4x3x8xf16>
// CHECK-NOT: FlexAttention
module attributes {onnx.opset_import = {ai.onnx = 26 : i64, ai.onnx.preview = 1 : i64}} {
  func.func @flex(%q: tensor<1x4x3x8xf16>, %k: tensor<1x2x3x8xf16>, %v: tensor<1x2x3x8xf16>) -> tensor<1x4x3x8xf16> {
    %0 = onnx.preview.FlexAttention(%q, %k, %v) : (tensor<1x4x3x8xf16>, tensor<1x2x3x8xf16>, tensor<1x2x3x8xf16>) -> tensor<1x4x3x8xf16> score_mod {
    ^bb0(%s: tensor<?x?x?x?xf32>):
      %b = onnx.Constant() {value = dense<5.000000e-01> : tensor<f32>} : () -> tensor<f32>
      %r = onnx.Add(%s, %b) : (tensor<?x?x?x?xf32>, tensor<f32>) -> tensor<?x?x?x?xf32>
      onnx.yield %r : tensor<?x?x?x?xf32>
    } prob_mod {
    ^bb0(%p: tensor<?x?x?x?xf32>):
      %two = onnx.Constant() {value = dense<2.000000e+00> : tensor<f32>} : () -> tensor<f32>
      %r = onnx.Mul(%p, %two) : (tensor<?x?x?x?xf32>, tensor<f32>) -> tensor<?x?x?x?xf32>
      onnx.yield %r : tensor<?x?x?x?xf32>
    }
    return %0 : tensor<1x4x3x8xf16>
  }
}
