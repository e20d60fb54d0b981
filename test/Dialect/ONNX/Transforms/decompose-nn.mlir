// RUN: onnx-opt %s --split-input-file --onnx-decompose | FileCheck %s
// RUN: onnx-opt %s --split-input-file --onnx-decompose --onnx-infer-shapes | FileCheck %s --check-prefix=INFER

// Losses, AffineGrid, Attention, RotaryEmbedding and CausalConvWithState: the
// ops their function bodies compute (constants not shown), at the versions
// that opset 24 (27 for CausalConvWithState) selects.

module attributes {onnx.opset_import = {ai.onnx = 24 : i64}} {

  // Weighted, with ignore_index, mean: sum(loss) / sum(weights).
  // CHECK-LABEL: func.func @nll_weight_ii
  // CHECK: %[[T:.*]] = onnx.Unsqueeze_v24(%arg1
  // CHECK: %[[Z:.*]] = onnx.Sub(%[[T]], %[[T]])
  // CHECK: %[[M:.*]] = onnx.Equal(%[[T]],
  // CHECK: %[[I:.*]] = onnx.Where(%[[M]], %[[Z]], %[[T]])
  // CHECK: onnx.GatherElements(%arg0, %[[I]]) {axis = 1 : i64}
  // CHECK: onnx.Where(%[[M]],
  // CHECK: onnx.Neg(
  // CHECK: onnx.Slice(
  // CHECK: onnx.Gather(%arg2, %[[I]])
  // CHECK: onnx.Where(%[[M]],
  // CHECK: %[[W:.*]] = onnx.Squeeze_v24(
  // CHECK: onnx.Squeeze_v24(
  // CHECK: %[[L:.*]] = onnx.Mul(
  // CHECK: %[[LS:.*]] = onnx.ReduceSum(%[[L]]) {keepdims = 0 : i64}
  // CHECK: %[[WS:.*]] = onnx.ReduceSum(%[[W]]) {keepdims = 0 : i64}
  // CHECK: onnx.Div(%[[LS]], %[[WS]])
  // CHECK-NEXT: return
  func.func @nll_weight_ii(%x: tensor<3x5x2xf32>, %t: tensor<3x2xi64>, %w: tensor<5xf32>) -> tensor<f32> {
    %0 = onnx.NegativeLogLikelihoodLoss(%x, %t, %w) {ignore_index = 1 : i64} : (tensor<3x5x2xf32>, tensor<3x2xi64>, tensor<5xf32>) -> tensor<f32>
    return %0 : tensor<f32>
  }

  // No weight, no reduction: the loss in the input's type.
  // CHECK-LABEL: func.func @nll_none
  // CHECK: onnx.Unsqueeze_v24(%arg1
  // CHECK: onnx.GatherElements(%arg0, %{{.*}}) {axis = 1 : i64} : (tensor<3x5xf16>, tensor<3x1xi32>) -> tensor<3x1xf16>
  // CHECK: onnx.Neg(
  // CHECK: onnx.Slice(
  // CHECK: onnx.Squeeze_v24(
  // CHECK-NEXT: return
  func.func @nll_none(%x: tensor<3x5xf16>, %t: tensor<3xi32>) -> tensor<3xf16> {
    %0 = onnx.NegativeLogLikelihoodLoss(%x, %t) {reduction = "none"} : (tensor<3x5xf16>, tensor<3xi32>) -> tensor<3xf16>
    return %0 : tensor<3xf16>
  }

  // LogSoftmax over the classes of [N, C, D] transposed to [N, D, C]; the
  // log probabilities are the second result.
  // CHECK-LABEL: func.func @sce
  // CHECK: onnx.Reshape_v24(%arg0
  // CHECK: onnx.Transpose_v24({{.*}}) {perm = array<i64: 0, 2, 1>}
  // CHECK: onnx.ReduceMax(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Exp(
  // CHECK: onnx.ReduceSum(
  // CHECK: onnx.Log(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Transpose_v24({{.*}}) {perm = array<i64: 0, 2, 1>}
  // CHECK: onnx.Shape_v24(%arg0)
  // CHECK: %[[LP:.*]] = onnx.Reshape_v24(
  // CHECK: onnx.GatherElements(%[[LP]],
  // CHECK: onnx.Neg(
  // CHECK: onnx.Slice(
  // CHECK: onnx.Squeeze_v24(
  // CHECK: %[[R:.*]] = onnx.ReduceSum(
  // CHECK-NEXT: return %[[R]], %[[LP]]
  func.func @sce(%x: tensor<3x5x2xf32>, %t: tensor<3x2xi64>) -> (tensor<f32>, tensor<3x5x2xf32>) {
    %0:2 = onnx.SoftmaxCrossEntropyLoss(%x, %t) {reduction = "sum"} : (tensor<3x5x2xf32>, tensor<3x2xi64>) -> (tensor<f32>, tensor<3x5x2xf32>)
    return %0#0, %0#1 : tensor<f32>, tensor<3x5x2xf32>
  }

  // 3-D, align_corners: W, H and D coordinates (D's step 0 when D is 1),
  // each broadcast over [D, H, W], with ones: theta times the grid.
  // CHECK-LABEL: func.func @affine_grid_3d
  // CHECK: %[[S:.*]] = onnx.Slice(%arg1,
  // CHECK: %[[Z:.*]] = onnx.ConstantOfShape_v24(%[[S]]) {value = dense<0.000000e+00> : tensor<1xf64>}
  // CHECK: onnx.Gather(%arg1,
  // CHECK: onnx.CumSum(
  // CHECK: onnx.Add(
  // CHECK: onnx.Unsqueeze_v24(
  // CHECK: onnx.Transpose_v24(%[[Z]]) {perm = array<i64: 0, 2, 1>}
  // CHECK: onnx.CumSum(
  // CHECK: onnx.Transpose_v24({{.*}}) {perm = array<i64: 0, 2, 1>}
  // CHECK: onnx.Transpose_v24(%[[Z]]) {perm = array<i64: 1, 2, 0>}
  // CHECK: %[[D:.*]] = onnx.Gather(%arg1,
  // CHECK: onnx.Equal(%[[D]],
  // CHECK: onnx.Where(
  // CHECK: onnx.CumSum(
  // CHECK: onnx.Transpose_v24({{.*}}) {perm = array<i64: 2, 0, 1>}
  // CHECK: onnx.Concat({{.*}}) {axis = -1 : i64} : (tensor<?x?x?x1xf64>, tensor<?x?x?x1xf64>, tensor<?x?x?x1xf64>, tensor<?x?x?x1xf64>) -> tensor<?x?x?x4xf64>
  // CHECK: onnx.Reshape_v24(
  // CHECK: onnx.Transpose_v24({{.*}}) {perm = array<i64: 1, 0>}
  // CHECK: onnx.MatMul(%arg0,
  // CHECK: onnx.Transpose_v24({{.*}}) {perm = array<i64: 0, 2, 1>}
  // CHECK: onnx.Concat(
  // CHECK: onnx.Reshape_v24(
  // CHECK-NEXT: return
  func.func @affine_grid_3d(%theta: tensor<2x3x4xf64>, %size: tensor<5xi64>) -> tensor<*xf64> {
    %0 = onnx.AffineGrid(%theta, %size) {align_corners = 1 : i64} : (tensor<2x3x4xf64>, tensor<5xi64>) -> tensor<*xf64>
    return %0 : tensor<*xf64>
  }

  // With a constant size, inference gives the grid its shape.
  // INFER-LABEL: func.func @affine_grid_2d
  // INFER: onnx.MatMul(%arg0, %{{.*}}) : (tensor<2x2x3xf32>, tensor<3x20xf32>) -> tensor<2x2x20xf32>
  // INFER: return %{{.*}} : tensor<2x4x5x2xf32>
  func.func @affine_grid_2d(%theta: tensor<2x2x3xf32>) -> tensor<2x?x?x2xf32> {
    %size = onnx.Constant() {value = dense<[2, 3, 4, 5]> : tensor<4xi64>} : () -> tensor<4xi64>
    %0 = onnx.AffineGrid(%theta, %size) : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x?x?x2xf32>
    return %0 : tensor<2x?x?x2xf32>
  }

  // GQA (6 query heads, 3 KV heads), a bool mask, causal, a KV cache,
  // softcap; qk_matmul_output_mode 1 returns the softcapped scores.
  // CHECK-LABEL: func.func @attention_4d
  // CHECK: onnx.Cast_v24(%{{.*}}) {to = 1 : i64} : (tensor<1xi64>) -> tensor<1xf32>
  // CHECK: onnx.Sqrt(
  // CHECK: onnx.Div(
  // CHECK: %[[SC:.*]] = onnx.Sqrt(
  // CHECK: %[[PK:.*]] = onnx.Concat(%arg4, %arg1) {axis = 2 : i64}
  // CHECK: %[[PV:.*]] = onnx.Concat(%arg5, %arg2) {axis = 2 : i64}
  // CHECK: onnx.Where(%arg3,
  // CHECK: onnx.Pad_v24(
  // CHECK: onnx.CumSum(
  // CHECK: onnx.CumSum(
  // CHECK: onnx.Less(
  // CHECK: onnx.Where(
  // CHECK: %[[BIAS:.*]] = onnx.Add(
  // CHECK: onnx.Not(
  // CHECK: onnx.Mod(
  // CHECK: onnx.And(
  // CHECK: onnx.Where(
  // CHECK: onnx.Unsqueeze_v24(%[[PK]],
  // CHECK: onnx.Expand(
  // CHECK: %[[K:.*]] = onnx.Reshape_v24(
  // CHECK: onnx.Unsqueeze_v24(%[[PV]],
  // CHECK: onnx.Expand(
  // CHECK: %[[V:.*]] = onnx.Reshape_v24(
  // CHECK: %[[QS:.*]] = onnx.Mul(%arg0, %[[SC]])
  // CHECK: %[[KT:.*]] = onnx.Transpose_v24(%[[K]]) {perm = array<i64: 0, 1, 3, 2>}
  // CHECK: %[[KS:.*]] = onnx.Mul(%[[KT]], %[[SC]])
  // CHECK: onnx.MatMul(%[[QS]], %[[KS]])
  // CHECK: onnx.Div(
  // CHECK: onnx.Tanh(
  // CHECK: %[[CAPPED:.*]] = onnx.Mul(
  // CHECK: onnx.Add(%[[CAPPED]], %[[BIAS]])
  // CHECK: onnx.ReduceMax(
  // CHECK: onnx.Exp(
  // CHECK: onnx.ReduceSum(
  // CHECK: onnx.Div(
  // CHECK: %[[Y:.*]] = onnx.MatMul(%{{.*}}, %[[V]])
  // CHECK-NEXT: return %[[Y]], %[[PK]], %[[PV]], %[[CAPPED]]
  func.func @attention_4d(%q: tensor<2x6x4x8xf32>, %k: tensor<2x3x5x8xf32>, %v: tensor<2x3x5x8xf32>, %m: tensor<4x7xi1>, %pk: tensor<2x3x2x8xf32>, %pv: tensor<2x3x2x8xf32>) -> (tensor<2x6x4x8xf32>, tensor<2x3x7x8xf32>, tensor<2x3x7x8xf32>, tensor<2x6x4x7xf32>) {
    %0:4 = onnx.Attention(%q, %k, %v, %m, %pk, %pv) {is_causal = 1 : i64, softcap = 2.0 : f32, qk_matmul_output_mode = 1 : i64} : (tensor<2x6x4x8xf32>, tensor<2x3x5x8xf32>, tensor<2x3x5x8xf32>, tensor<4x7xi1>, tensor<2x3x2x8xf32>, tensor<2x3x2x8xf32>) -> (tensor<2x6x4x8xf32>, tensor<2x3x7x8xf32>, tensor<2x3x7x8xf32>, tensor<2x6x4x7xf32>)
    return %0#0, %0#1, %0#2, %0#3 : tensor<2x6x4x8xf32>, tensor<2x3x7x8xf32>, tensor<2x3x7x8xf32>, tensor<2x6x4x7xf32>
  }

  // 3-D inputs split into heads and merged back; an explicit scale; the
  // softmax in f32 (softmax_precision) between casts of f16 scores.
  // CHECK-LABEL: func.func @attention_3d
  // CHECK: onnx.Reshape_v24(%arg0,
  // CHECK: onnx.Transpose_v24({{.*}}) {perm = array<i64: 0, 2, 1, 3>}
  // CHECK: onnx.Reshape_v24(%arg1,
  // CHECK: onnx.Transpose_v24({{.*}}) {perm = array<i64: 0, 2, 1, 3>}
  // CHECK: onnx.Reshape_v24(%arg2,
  // CHECK: onnx.Transpose_v24({{.*}}) {perm = array<i64: 0, 2, 1, 3>}
  // CHECK: onnx.Sqrt(
  // CHECK: onnx.Cast_v24(%{{.*}}) {to = 10 : i64} : (tensor<f32>) -> tensor<f16>
  // CHECK: onnx.ConstantOfShape_v24(
  // CHECK: onnx.MatMul(
  // CHECK: onnx.Add(
  // CHECK: onnx.Cast_v24(%{{.*}}) {to = 1 : i64} : (tensor<?x?x?x?xf16>) -> tensor<?x?x?x?xf32>
  // CHECK: onnx.ReduceMax(
  // CHECK: onnx.Cast_v24(%{{.*}}) {to = 10 : i64} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf16>
  // CHECK: onnx.MatMul(
  // CHECK: onnx.Transpose_v24({{.*}}) {perm = array<i64: 0, 2, 1, 3>}
  // CHECK: onnx.Reshape_v24(
  // CHECK-NEXT: return
  // INFER-LABEL: func.func @attention_3d
  // INFER: return %{{.*}} : tensor<2x4x24xf16>
  func.func @attention_3d(%q: tensor<2x4x24xf16>, %k: tensor<2x6x24xf16>, %v: tensor<2x6x24xf16>) -> tensor<2x4x24xf16> {
    %0 = onnx.Attention(%q, %k, %v) {q_num_heads = 3 : i64, kv_num_heads = 3 : i64, scale = 0.1 : f32, softmax_precision = 1 : i64} : (tensor<2x4x24xf16>, tensor<2x6x24xf16>, tensor<2x6x24xf16>) -> tensor<2x4x24xf16>
    return %0 : tensor<2x4x24xf16>
  }

  // Interleaved, rotary_embedding_dim 4 of 8, caches gathered at the
  // positions: even and odd elements rotated, re-interleaved, the rest
  // passed through.
  // CHECK-LABEL: func.func @rotary
  // CHECK: %[[X:.*]] = onnx.Transpose_v24(%arg0) {perm = array<i64: 0, 2, 1, 3>}
  // CHECK: onnx.Shape_v24(%[[X]]) {end = 4 : i64, start = 3 : i64}
  // CHECK: %[[P:.*]]:2 = onnx.Split(%[[X]], %{{.*}}) {axis = -1 : i64}
  // CHECK: onnx.Gather(%arg1, %arg3)
  // CHECK: onnx.Slice(
  // CHECK: %[[COS:.*]] = onnx.Unsqueeze_v24(
  // CHECK: onnx.Gather(%arg2, %arg3)
  // CHECK: onnx.Slice(
  // CHECK: %[[SIN:.*]] = onnx.Unsqueeze_v24(
  // CHECK: %[[X1:.*]] = onnx.Slice(%[[P]]#0,
  // CHECK: %[[X2:.*]] = onnx.Slice(%[[P]]#0,
  // CHECK: %[[A:.*]] = onnx.Mul(%[[COS]], %[[X1]])
  // CHECK: %[[B:.*]] = onnx.Mul(%[[SIN]], %[[X2]])
  // CHECK: onnx.Sub(%[[A]], %[[B]])
  // CHECK: %[[C:.*]] = onnx.Mul(%[[SIN]], %[[X1]])
  // CHECK: %[[D:.*]] = onnx.Mul(%[[COS]], %[[X2]])
  // CHECK: onnx.Add(%[[C]], %[[D]])
  // CHECK: onnx.Concat({{.*}}) {axis = -1 : i64}
  // CHECK: onnx.Reshape_v24(
  // CHECK: onnx.Concat(%{{.*}}, %[[P]]#1) {axis = -1 : i64}
  // CHECK: onnx.Transpose_v24({{.*}}) {perm = array<i64: 0, 2, 1, 3>}
  // CHECK: onnx.Shape_v24(%arg0)
  // CHECK: onnx.Reshape_v24(
  // CHECK-NEXT: return
  func.func @rotary(%x: tensor<2x4x3x8xf32>, %c: tensor<50x2xf32>, %s: tensor<50x2xf32>, %p: tensor<2x3xi64>) -> tensor<2x4x3x8xf32> {
    %0 = onnx.RotaryEmbedding(%x, %c, %s, %p) {interleaved = 1 : i64, rotary_embedding_dim = 4 : i64} : (tensor<2x4x3x8xf32>, tensor<50x2xf32>, tensor<50x2xf32>, tensor<2x3xi64>) -> tensor<2x4x3x8xf32>
    return %0 : tensor<2x4x3x8xf32>
  }

  // 3-D input split into num_heads, no positions: halves rotated.
  // CHECK-LABEL: func.func @rotary_3d
  // CHECK: onnx.Reshape_v24(%arg0,
  // CHECK: onnx.Split(
  // CHECK-NOT: onnx.Gather
  // CHECK: onnx.Split(%{{.*}}) {axis = -1 : i64, num_outputs = 2 : i64}
  // CHECK: onnx.Sub(
  // CHECK: onnx.Add(
  // CHECK: onnx.Concat(
  // CHECK: onnx.Concat(
  // CHECK-NOT: onnx.Transpose
  // CHECK: onnx.Reshape_v24(
  // CHECK-NEXT: return
  func.func @rotary_3d(%x: tensor<2x3x32xf32>, %c: tensor<2x3x4xf32>, %s: tensor<2x3x4xf32>) -> tensor<2x3x32xf32> {
    %0 = onnx.RotaryEmbedding(%x, %c, %s) {num_heads = 4 : i64} : (tensor<2x3x32xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x32xf32>
    return %0 : tensor<2x3x32xf32>
  }
}

// -----

module attributes {onnx.opset_import = {ai.onnx = 27 : i64}} {
  // No past state: k - 1 zeros before the input; a depthwise Conv; SiLU in
  // f32; the last k - 1 positions as the present state.
  // CHECK-LABEL: func.func @causal_conv
  // CHECK: onnx.Shape{{.*}}(%arg1) {end = 3 : i64, start = 2 : i64}
  // CHECK: onnx.Sub(
  // CHECK: onnx.ConstantOfShape{{.*}} : (tensor<3xi64>) -> tensor<?x?x?xf16>
  // CHECK: %[[PAD:.*]] = onnx.Concat(%{{.*}}, %arg0) {axis = 2 : i64}
  // CHECK: onnx.Conv(%[[PAD]], %arg1, %arg2) {group = 4 : i64}
  // CHECK: onnx.Cast{{.*}} {to = 1 : i64}
  // CHECK: onnx.Sigmoid(
  // CHECK: onnx.Mul(
  // CHECK: %[[Y:.*]] = onnx.Cast{{.*}} {to = 10 : i64}
  // CHECK: onnx.Shape{{.*}}(%[[PAD]]) {end = 3 : i64, start = 2 : i64}
  // CHECK: onnx.Sub(
  // CHECK: %[[S:.*]] = onnx.Slice(%[[PAD]],
  // CHECK-NEXT: return %[[Y]], %[[S]]
  func.func @causal_conv(%x: tensor<2x4x8xf16>, %w: tensor<4x1x3xf16>, %b: tensor<4xf16>) -> (tensor<2x4x8xf16>, tensor<2x4x2xf16>) {
    %0:2 = onnx.CausalConvWithState(%x, %w, %b) {activation = "silu"} : (tensor<2x4x8xf16>, tensor<4x1x3xf16>, tensor<4xf16>) -> (tensor<2x4x8xf16>, tensor<2x4x2xf16>)
    return %0#0, %0#1 : tensor<2x4x8xf16>, tensor<2x4x2xf16>
  }
}
