// RUN: onnx-opt %s --onnx-decompose | FileCheck %s
// RUN: onnx-opt %s --onnx-decompose=ops=Softsign,Mish | FileCheck %s --check-prefix=ONLY

// One case per operator: the sequence of the ops its function body computes
// (constants not shown), at the versions that opset 23 selects. Where an
// expansion builds ops in the arguments of one call (where(less(...),
// mul(...), ...)), their order follows the C++ compiler's evaluation of
// arguments (GCC and clang differ): those ops are CHECK-DAG, and the last op
// before the return is checked in place.

// ONLY-LABEL: func.func @layer_norm
// ONLY: onnx.LayerNormalization
// ONLY-LABEL: func.func @softsign
// ONLY-NOT: onnx.Softsign
// ONLY-LABEL: func.func @softplus
// ONLY: onnx.Softplus
// ONLY-LABEL: func.func @mish
// ONLY: onnx.Tanh
// ONLY-NOT: onnx.Mish

module attributes {onnx.opset_import = {ai.onnx = 23 : i64}} {

  // LayerNormalization computes in stash_type (f32) and casts back for Y;
  // Mean and InvStdDev stay in f32.
  // CHECK-LABEL: func.func @layer_norm
  // CHECK: onnx.Cast_v23(%arg0) {to = 1 : i64} : (tensor<2x3x4xf16>) -> tensor<2x3x4xf32>
  // CHECK: onnx.ReduceMean(
  // CHECK: onnx.Mul(
  // CHECK: onnx.ReduceMean(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Add(
  // CHECK: onnx.Sqrt(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Div(
  // CHECK: onnx.Cast_v23(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Add(
  // CHECK: %[[INV:.*]] = onnx.Reciprocal(
  // CHECK-NEXT: return %{{.*}}, %{{.*}}, %[[INV]] : tensor<2x3x4xf16>, tensor<2x3x1xf32>, tensor<2x3x1xf32>
  func.func @layer_norm(%x: tensor<2x3x4xf16>, %w: tensor<4xf16>, %b: tensor<4xf16>) -> (tensor<2x3x4xf16>, tensor<2x3x1xf32>, tensor<2x3x1xf32>) {
    %0:3 = onnx.LayerNormalization(%x, %w, %b) {axis = -1 : i64, epsilon = 1.0e-3 : f32} : (tensor<2x3x4xf16>, tensor<4xf16>, tensor<4xf16>) -> (tensor<2x3x4xf16>, tensor<2x3x1xf32>, tensor<2x3x1xf32>)
    return %0#0, %0#1, %0#2 : tensor<2x3x4xf16>, tensor<2x3x1xf32>, tensor<2x3x1xf32>
  }

  // CHECK-LABEL: func.func @rms_norm
  // CHECK: onnx.Mul(
  // CHECK: onnx.ReduceMean(
  // CHECK: onnx.Add(
  // CHECK: onnx.Sqrt(
  // CHECK: onnx.Div(
  // CHECK: onnx.Mul(
  // CHECK-NEXT: return
  func.func @rms_norm(%x: tensor<2x3x4xf32>, %w: tensor<3x4xf32>) -> tensor<2x3x4xf32> {
    %0 = onnx.RMSNormalization(%x, %w) {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
    return %0 : tensor<2x3x4xf32>
  }

  // CHECK-LABEL: func.func @group_norm
  // CHECK-DAG: onnx.Shape_v23(
  // CHECK-DAG: onnx.Reshape_v23(
  // CHECK-DAG: onnx.ReduceMean(
  // CHECK-DAG: onnx.Mul(
  // CHECK-DAG: onnx.ReduceMean(
  // CHECK-DAG: onnx.Mul(
  // CHECK-DAG: onnx.Sub(
  // CHECK-DAG: onnx.Add(
  // CHECK-DAG: onnx.Sqrt(
  // CHECK-DAG: onnx.Sub(
  // CHECK-DAG: onnx.Div(
  // CHECK-DAG: onnx.Reshape_v23(
  // CHECK-DAG: onnx.Reshape_v23(
  // CHECK-DAG: onnx.Reshape_v23(
  // CHECK-DAG: onnx.Mul(
  // CHECK: onnx.Add(
  // CHECK-NEXT: return
  func.func @group_norm(%x: tensor<2x4x3x3xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4x3x3xf32> {
    %0 = onnx.GroupNormalization(%x, %s, %b) {num_groups = 2 : i64} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
    return %0 : tensor<2x4x3x3xf32>
  }

  // CHECK-LABEL: func.func @mvn
  // CHECK-DAG: onnx.ReduceMean(
  // CHECK-DAG: onnx.Pow(
  // CHECK-DAG: onnx.Pow(
  // CHECK-DAG: onnx.ReduceMean(
  // CHECK-DAG: onnx.Sub(
  // CHECK-DAG: onnx.Sqrt(
  // CHECK-DAG: onnx.Add(
  // CHECK-DAG: onnx.Sub(
  // CHECK: onnx.Div(
  // CHECK-NEXT: return
  func.func @mvn(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
    %0 = onnx.MeanVarianceNormalization(%x) : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
    return %0 : tensor<2x3x4x5xf32>
  }

  // CHECK-LABEL: func.func @gelu
  // CHECK: onnx.Sqrt(
  // CHECK: onnx.Div(
  // CHECK: onnx.Erf(
  // CHECK: onnx.Add(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Mul(
  // CHECK-NEXT: return
  func.func @gelu(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %0 = onnx.Gelu(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return %0 : tensor<?x4xf32>
  }

  // CHECK-LABEL: func.func @gelu_tanh
  // CHECK: onnx.Pow(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Add(
  // CHECK: onnx.Sqrt(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Tanh(
  // CHECK: onnx.Add(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Mul(
  // CHECK-NEXT: return
  func.func @gelu_tanh(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
    %0 = onnx.Gelu(%x) {approximate = "tanh"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return %0 : tensor<?x4xf32>
  }

  // CHECK-LABEL: func.func @softsign
  // CHECK: onnx.Abs(
  // CHECK: onnx.Add(
  // CHECK: onnx.Div(
  // CHECK-NEXT: return
  func.func @softsign(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = onnx.Softsign(%x) : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }

  // CHECK-LABEL: func.func @softplus
  // CHECK: onnx.Exp(
  // CHECK: onnx.Add(
  // CHECK: onnx.Log(
  // CHECK-NEXT: return
  func.func @softplus(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = onnx.Softplus(%x) : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }

  // CHECK-LABEL: func.func @hard_sigmoid
  // CHECK: onnx.Mul(
  // CHECK: onnx.Add(
  // CHECK: onnx.Min(
  // CHECK: onnx.Max(
  // CHECK-NEXT: return
  func.func @hard_sigmoid(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = onnx.HardSigmoid(%x) {alpha = 0.5 : f32} : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }

  // CHECK-LABEL: func.func @hard_swish
  // CHECK: onnx.Mul(
  // CHECK: onnx.Add(
  // CHECK: onnx.Min(
  // CHECK: onnx.Max(
  // CHECK: onnx.Mul(
  // CHECK-NEXT: return
  func.func @hard_swish(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = onnx.HardSwish(%x) : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }

  // CHECK-LABEL: func.func @mish
  // CHECK: onnx.Exp(
  // CHECK: onnx.Add(
  // CHECK: onnx.Log(
  // CHECK: onnx.Tanh(
  // CHECK: onnx.Mul(
  // CHECK-NEXT: return
  func.func @mish(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = onnx.Mish(%x) : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }

  // CHECK-LABEL: func.func @celu
  // CHECK: onnx.Div(
  // CHECK: onnx.Exp(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Less(
  // CHECK: onnx.Where(
  // CHECK: onnx.Mul(
  // CHECK-NEXT: return
  func.func @celu(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = onnx.Celu(%x) {alpha = 2.0 : f32} : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }

  // CHECK-LABEL: func.func @selu
  // CHECK: onnx.Exp(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Greater(
  // CHECK: onnx.Where(
  // CHECK: onnx.Mul(
  // CHECK-NEXT: return
  func.func @selu(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = onnx.Selu(%x) : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }

  // CHECK-LABEL: func.func @elu
  // CHECK: onnx.Exp(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Less(
  // CHECK: onnx.Where(
  // CHECK-NEXT: return
  func.func @elu(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = onnx.Elu(%x) : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }

  // CHECK-LABEL: func.func @leaky_relu
  // CHECK-DAG: onnx.Mul(
  // CHECK-DAG: onnx.Less(
  // CHECK: onnx.Where(
  // CHECK-NEXT: return
  func.func @leaky_relu(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = onnx.LeakyRelu(%x) : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }

  // CHECK-LABEL: func.func @thresholded_relu
  // CHECK: onnx.Greater(
  // CHECK: onnx.Where(
  // CHECK-NEXT: return
  func.func @thresholded_relu(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = onnx.ThresholdedRelu(%x) : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }

  // CHECK-LABEL: func.func @shrink
  // CHECK: onnx.Less(
  // CHECK: onnx.Greater(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Where(
  // CHECK: onnx.Add(
  // CHECK: onnx.Where(
  // CHECK-NEXT: return
  func.func @shrink(%x: tensor<3xi32>) -> tensor<3xi32> {
    %0 = onnx.Shrink(%x) {lambd = 1.5 : f32, bias = 1.5 : f32} : (tensor<3xi32>) -> tensor<3xi32>
    return %0 : tensor<3xi32>
  }

  // CHECK-LABEL: func.func @swish
  // CHECK: onnx.Mul(
  // CHECK: onnx.Sigmoid(
  // CHECK: onnx.Mul(
  // CHECK-NEXT: return
  func.func @swish(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = onnx.Swish(%x) : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }

  // CHECK-LABEL: func.func @prelu
  // CHECK-DAG: onnx.Mul(
  // CHECK-DAG: onnx.Less(
  // CHECK: onnx.Where(
  // CHECK-NEXT: return
  func.func @prelu(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
    %0 = onnx.PRelu(%x, %s) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }

  // CHECK-LABEL: func.func @softmax
  // CHECK: onnx.ReduceMax(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Exp(
  // CHECK: onnx.ReduceSum(
  // CHECK: onnx.Div(
  // CHECK-NEXT: return
  func.func @softmax(%x: tensor<*xf32>) -> tensor<*xf32> {
    %0 = onnx.Softmax(%x) : (tensor<*xf32>) -> tensor<*xf32>
    return %0 : tensor<*xf32>
  }

  // CHECK-LABEL: func.func @log_softmax
  // CHECK: onnx.ReduceMax(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Exp(
  // CHECK: onnx.ReduceSum(
  // CHECK: onnx.Log(
  // CHECK: onnx.Sub(
  // CHECK-NEXT: return
  func.func @log_softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = onnx.LogSoftmax(%x) {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }

  // CHECK-LABEL: func.func @reduce_log_sum
  // CHECK: onnx.ReduceSum(
  // CHECK: onnx.Log(
  // CHECK-NEXT: return
  func.func @reduce_log_sum(%x: tensor<3x4xf32>, %a: tensor<1xi64>) -> tensor<*xf32> {
    %0 = onnx.ReduceLogSum(%x, %a) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<*xf32>
    return %0 : tensor<*xf32>
  }

  // CHECK-LABEL: func.func @reduce_log_sum_exp
  // CHECK: onnx.Cast_v23(
  // CHECK: onnx.Exp(
  // CHECK: onnx.ReduceSum(
  // CHECK: onnx.Log(
  // CHECK: onnx.Cast_v23(
  // CHECK-NEXT: return
  func.func @reduce_log_sum_exp(%x: tensor<3x4xf32>) -> tensor<3xf32> {
    %a = onnx.Constant() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
    %0 = onnx.ReduceLogSumExp(%x, %a) {keepdims = 0 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }

  // CHECK-LABEL: func.func @reduce_l1
  // CHECK: onnx.Abs(
  // CHECK: onnx.ReduceSum(
  // CHECK-NEXT: return
  func.func @reduce_l1(%x: tensor<3x4xf32>) -> tensor<1x1xf32> {
    %0 = onnx.ReduceL1(%x) : (tensor<3x4xf32>) -> tensor<1x1xf32>
    return %0 : tensor<1x1xf32>
  }

  // CHECK-LABEL: func.func @reduce_l2_v13
  // CHECK: onnx.Mul(
  // CHECK: onnx.ReduceSum(
  // CHECK: onnx.Cast_v23(
  // CHECK: onnx.Sqrt(
  // CHECK: onnx.Cast_v23(
  // CHECK-NEXT: return
  func.func @reduce_l2_v13(%x: tensor<3x4xi32>) -> tensor<3x1xi32> {
    %0 = onnx.ReduceL2_v13(%x) {axes = array<i64: -1>} : (tensor<3x4xi32>) -> tensor<3x1xi32>
    return %0 : tensor<3x1xi32>
  }

  // CHECK-LABEL: func.func @reduce_sum_square
  // CHECK: onnx.Mul(
  // CHECK: onnx.ReduceSum(
  // CHECK-NEXT: return
  func.func @reduce_sum_square(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
    %0 = onnx.ReduceSumSquare(%x) {noop_with_empty_axes = 1 : i64} : (tensor<3x4xf32>) -> tensor<3x4xf32>
    return %0 : tensor<3x4xf32>
  }

  // CHECK-LABEL: func.func @clip_max_only
  // CHECK: onnx.Min(
  // CHECK-NEXT: return
  func.func @clip_max_only(%x: tensor<3xi8>, %m: tensor<i8>) -> tensor<3xi8> {
    %0 = onnx.Clip(%x, none, %m) : (tensor<3xi8>, tensor<i8>) -> tensor<3xi8>
    return %0 : tensor<3xi8>
  }

  // CHECK-LABEL: func.func @clip_none
  // CHECK: onnx.Identity_v23(
  // CHECK-NEXT: return
  func.func @clip_none(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = onnx.Clip(%x) : (tensor<3xf32>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }

  // CHECK-LABEL: func.func @cast_like
  // CHECK: onnx.Cast_v23(
  // CHECK-NEXT: return
  func.func @cast_like(%x: tensor<3xf32>, %t: tensor<1xf16>) -> tensor<3xf16> {
    %0 = onnx.CastLike(%x, %t) : (tensor<3xf32>, tensor<1xf16>) -> tensor<3xf16>
    return %0 : tensor<3xf16>
  }

  // CHECK-LABEL: func.func @range
  // CHECK-DAG: onnx.Cast_v23(
  // CHECK-DAG: onnx.Sub(
  // CHECK-DAG: onnx.Cast_v23(
  // CHECK-DAG: onnx.Div(
  // CHECK-DAG: onnx.Ceil(
  // CHECK-DAG: onnx.Relu(
  // CHECK-DAG: onnx.Cast_v23(
  // CHECK-DAG: onnx.Reshape_v23(
  // CHECK-DAG: onnx.CumSum(
  // CHECK-DAG: onnx.Sub(
  // CHECK-DAG: onnx.Mul(
  // CHECK: onnx.Add(
  // CHECK-NEXT: return
  func.func @range(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>) -> tensor<?xi32> {
    %0 = onnx.Range(%a, %b, %c) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
    return %0 : tensor<?xi32>
  }

  // CHECK-LABEL: func.func @dynamic_quantize_linear
  // CHECK: onnx.ReduceMin(
  // CHECK: onnx.Min(
  // CHECK: onnx.ReduceMax(
  // CHECK: onnx.Max(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Div(
  // CHECK: onnx.Div(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Max(
  // CHECK: onnx.Min(
  // CHECK: onnx.Round(
  // CHECK: onnx.Cast_v23(
  // CHECK: onnx.QuantizeLinear_v23(
  // CHECK-NEXT: return
  func.func @dynamic_quantize_linear(%x: tensor<3x4xf32>) -> (tensor<3x4xui8>, tensor<f32>, tensor<ui8>) {
    %0:3 = onnx.DynamicQuantizeLinear(%x) : (tensor<3x4xf32>) -> (tensor<3x4xui8>, tensor<f32>, tensor<ui8>)
    return %0#0, %0#1, %0#2 : tensor<3x4xui8>, tensor<f32>, tensor<ui8>
  }

  // CHECK-LABEL: func.func @hann_window
  // CHECK: onnx.Cast_v23(
  // CHECK: onnx.Div(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Div(
  // CHECK: onnx.Ceil(
  // CHECK: onnx.Relu(
  // CHECK: onnx.Cast_v23(
  // CHECK: onnx.Reshape_v23(
  // CHECK: onnx.CumSum(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Add(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Cos(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Sub(
  // CHECK-NEXT: return
  func.func @hann_window(%n: tensor<i64>) -> tensor<?xf32> {
    %0 = onnx.HannWindow(%n) : (tensor<i64>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }

  // CHECK-LABEL: func.func @blackman_window
  // CHECK: onnx.Cast_v23(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Div(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Div(
  // CHECK: onnx.Ceil(
  // CHECK: onnx.Relu(
  // CHECK: onnx.Cast_v23(
  // CHECK: onnx.Reshape_v23(
  // CHECK: onnx.CumSum(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Add(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Cos(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Cos(
  // CHECK: onnx.Mul(
  // CHECK: onnx.Add(
  // CHECK: onnx.Cast_v23(
  // CHECK-NEXT: return
  func.func @blackman_window(%n: tensor<i32>) -> tensor<?xf64> {
    %0 = onnx.BlackmanWindow(%n) {periodic = 0 : i64, output_datatype = 11 : i64} : (tensor<i32>) -> tensor<?xf64>
    return %0 : tensor<?xf64>
  }

  // CHECK-LABEL: func.func @bernoulli
  // CHECK: onnx.RandomUniformLike(
  // CHECK: onnx.Less(
  // CHECK-NEXT: return
  func.func @bernoulli(%p: tensor<3xf32>) -> tensor<3xi1> {
    %0 = onnx.Bernoulli(%p) {dtype = 9 : i64, seed = 1.0 : f32} : (tensor<3xf32>) -> tensor<3xi1>
    return %0 : tensor<3xi1>
  }

  // CHECK-LABEL: func.func @center_crop_pad
  // CHECK: onnx.Shape_v23(
  // CHECK: onnx.Gather(
  // CHECK: onnx.Max(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Div(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Concat(
  // CHECK: onnx.Pad_v23(
  // CHECK: onnx.Shape_v23(
  // CHECK: onnx.Gather(
  // CHECK: onnx.Sub(
  // CHECK: onnx.Div(
  // CHECK: onnx.Add(
  // CHECK: onnx.Slice(
  // CHECK-NEXT: return
  func.func @center_crop_pad(%x: tensor<5x3x4xf32>, %s: tensor<2xi64>) -> tensor<?x?x4xf32> {
    %0 = onnx.CenterCropPad(%x, %s) {axes = array<i64: 0, 1>} : (tensor<5x3x4xf32>, tensor<2xi64>) -> tensor<?x?x4xf32>
    return %0 : tensor<?x?x4xf32>
  }
}
