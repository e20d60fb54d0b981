// RUN: onnx-opt %s --onnx-convert-opset --split-input-file | FileCheck %s
// RUN: onnx-opt %s --onnx-convert-opset=target=13 --split-input-file | FileCheck %s --check-prefix=V13

// Attributes that became inputs turn into constants; the opset import follows.
// CHECK: module attributes {onnx.opset_import = {ai.onnx = 27 : i64, ai.onnx.ml = 3 : i64}}
// CHECK-LABEL: func.func @attrs_to_inputs
// CHECK-DAG: %[[MIN:.*]] = onnx.Constant() {value = dense<-1.000000e+00> : tensor<f32>}
// CHECK-DAG: %[[MAX:.*]] = onnx.Constant() {value = dense<6.000000e+00> : tensor<f32>}
// CHECK: %[[CLIP:.*]] = onnx.Clip(%arg0, %[[MIN]], %[[MAX]]) {onnx.name = "clip"}
// CHECK: %[[AXES:.*]] = onnx.Constant() {value = dense<0> : tensor<1xi64>}
// CHECK: onnx.Squeeze(%arg1, %[[AXES]])
// CHECK: %[[K:.*]] = onnx.Constant() {value = dense<2> : tensor<1xi64>}
// CHECK: onnx.TopK(%arg0, %[[K]]) {axis = 1 : i64}
// CHECK: onnx.ReduceSum(%arg0) {keepdims = 0 : i64}
// V13: module attributes {onnx.opset_import = {ai.onnx = 13 : i64, ai.onnx.ml = 3 : i64}}
// V13: onnx.Clip(
// V13: onnx.Squeeze_v13(
// V13: onnx.TopK_v11(
// V13: onnx.ReduceSum(%arg0) {keepdims = 0 : i64}
module attributes {onnx.opset_import = {ai.onnx = 9 : i64, ai.onnx.ml = 3 : i64}} {
  func.func @attrs_to_inputs(%x: tensor<2x3xf32>, %y: tensor<1x4xf32>) -> (tensor<2x3xf32>, tensor<4xf32>, tensor<2x2xf32>, tensor<2x2xi64>, tensor<f32>) {
    %0 = onnx.Clip_v6(%x) {min = -1.0 : f32, max = 6.0 : f32, onnx.name = "clip"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = onnx.Squeeze_v1(%y) {axes = array<i64: 0>} : (tensor<1x4xf32>) -> tensor<4xf32>
    %2:2 = onnx.TopK_v1(%x) {k = 2 : i64, axis = 1 : i64} : (tensor<2x3xf32>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
    %3 = onnx.ReduceSum_v1(%x) {keepdims = 0 : i64} : (tensor<2x3xf32>) -> tensor<f32>
    return %0, %1, %2#0, %2#1, %3 : tensor<2x3xf32>, tensor<4xf32>, tensor<2x2xf32>, tensor<2x2xi64>, tensor<f32>
  }
}

// -----

// Legacy broadcasting along an axis: B gets trailing unit dims.
// CHECK-LABEL: func.func @legacy_broadcast
// CHECK: %[[AX:.*]] = onnx.Constant() {value = dense<1> : tensor<1xi64>}
// CHECK: %[[B:.*]] = onnx.Unsqueeze(%arg1, %[[AX]])
// CHECK: onnx.Add(%arg0, %[[B]])
// Without an axis the two rules agree.
// CHECK: onnx.Mul(%arg0, %arg0)
module attributes {onnx.opset_import = {ai.onnx = 6 : i64}} {
  func.func @legacy_broadcast(%a: tensor<2x3x4xf32>, %b: tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
    %0 = onnx.Add_v6(%a, %b) {broadcast = 1 : i64, axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
    %1 = onnx.Mul_v1(%a, %a) {consumed_inputs = array<i64: 0>} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    return %0, %1 : tensor<2x3x4xf32>, tensor<2x3x4xf32>
  }
}

// -----

// Gemm-6's broadcast flag is gone at 7, where C always broadcasts.
// CHECK-LABEL: func.func @gemm_broadcast
// CHECK: onnx.Gemm(%arg0, %arg1, %arg2) {transB = 1 : i64}
// CHECK-NOT: broadcast
// PRelu before 7 applied a 1-D slope along axis 1.
// CHECK-LABEL: func.func @prelu_channel
// CHECK: %[[AX:.*]] = onnx.Constant() {value = dense<[1, 2]> : tensor<2xi64>}
// CHECK: %[[S:.*]] = onnx.Unsqueeze(%arg1, %[[AX]])
// CHECK: onnx.PRelu(%arg0, %[[S]])
module attributes {onnx.opset_import = {ai.onnx = 6 : i64}} {
  func.func @gemm_broadcast(%a: tensor<4x10xf32>, %b: tensor<8x10xf32>, %c: tensor<8xf32>) -> tensor<4x8xf32> {
    %0 = onnx.Gemm_v6(%a, %b, %c) {broadcast = 1 : i64, transB = 1 : i64} : (tensor<4x10xf32>, tensor<8x10xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
  func.func @prelu_channel(%x: tensor<2x3x4x5xf32>, %s: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
    %0 = onnx.PRelu_v6(%x, %s) : (tensor<2x3x4x5xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
    return %0 : tensor<2x3x4x5xf32>
  }
}

// -----

// Dropout's mask became bool at 10; users of the old float mask get a Cast.
// CHECK-LABEL: func.func @dropout_mask
// CHECK: %[[R:.*]] = onnx.Constant() {value = dense<5.000000e-01> : tensor<f32>}
// CHECK: %[[Y:.*]], %[[M:.*]] = onnx.Dropout(%arg0, %[[R]]) : (tensor<3xf32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xi1>)
// CHECK: %[[C:.*]] = onnx.Cast(%[[M]]) {to = 1 : i64} : (tensor<3xi1>) -> tensor<3xf32>
// CHECK: return %[[Y]], %[[C]]
module attributes {onnx.opset_import = {ai.onnx = 7 : i64}} {
  func.func @dropout_mask(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
    %y, %m = onnx.Dropout_v7(%x) {ratio = 5.000000e-01 : f32} : (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
    return %y, %m : tensor<3xf32>, tensor<3xf32>
  }
}

// -----

// Softmax before 13 normalizes over the flattened trailing axes.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[F:.*]] = onnx.Flatten(%arg0) {axis = 1 : i64}
// CHECK: %[[S:.*]] = onnx.Softmax(%[[F]]) {axis = -1 : i64}
// CHECK: %[[SH:.*]] = onnx.Shape(%arg0)
// CHECK: onnx.Reshape(%[[S]], %[[SH]]) {onnx.name = "sm"}
// On the last axis it is a rename.
// CHECK: onnx.LogSoftmax(%arg0) {axis = -1 : i64}
module attributes {onnx.opset_import = {ai.onnx = 11 : i64}} {
  func.func @softmax(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
    %0 = onnx.Softmax_v11(%x) {onnx.name = "sm"} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %1 = onnx.LogSoftmax_v11(%x) {axis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    return %0, %1 : tensor<2x3x4xf32>, tensor<2x3x4xf32>
  }
}

// -----

// Upsample becomes Resize; Scatter becomes ScatterElements.
// CHECK-LABEL: func.func @replaced
// CHECK: %[[ROI:.*]] = onnx.Constant() {value = dense<> : tensor<0xf32>}
// CHECK: onnx.Resize(%arg0, %[[ROI]], %arg1) {coordinate_transformation_mode = "asymmetric", mode = "nearest", nearest_mode = "floor"}
// CHECK: onnx.ScatterElements(%arg2, %arg3, %arg4) {axis = 1 : i64}
module attributes {onnx.opset_import = {ai.onnx = 9 : i64}} {
  func.func @replaced(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>, %d: tensor<1x5xf32>, %i: tensor<1x2xi64>, %u: tensor<1x2xf32>) -> (tensor<1x1x4x6xf32>, tensor<1x5xf32>) {
    %0 = onnx.Upsample_v9(%x, %s) {mode = "nearest"} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<1x1x4x6xf32>
    %1 = onnx.Scatter_v9(%d, %i, %u) {axis = 1 : i64} : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<1x5xf32>
    return %0, %1 : tensor<1x1x4x6xf32>, tensor<1x5xf32>
  }
}

// -----

// Scan-8: a Scan over the batch axis of every operand (no carried state)
// whose body runs the original body as a Scan over the sequence.
// CHECK-LABEL: func.func @scan8
// CHECK: %[[R:.*]]:2 = onnx.Scan(%arg0, %arg1) {num_scan_inputs = 2 : i64, onnx.outputs = ["y", "z"]} : (tensor<1x2xf32>, tensor<1x3x2xf32>) -> (tensor<1x2xf32>, tensor<1x3x2xf32>) body {
// CHECK-NEXT: ^bb0(%[[S:.*]]: tensor<2xf32>, %[[X:.*]]: tensor<3x2xf32>):
// CHECK-NEXT: %[[I:.*]]:2 = onnx.Scan(%[[S]], %[[X]]) {num_scan_inputs = 1 : i64, scan_input_directions = array<i64: 1>} : (tensor<2xf32>, tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) body {
// CHECK: onnx.Add(
// CHECK: onnx.yield %{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xf32>
// CHECK: onnx.yield {onnx.name = "scan8_batch_body"} %[[I]]#0, %[[I]]#1 : tensor<2xf32>, tensor<3x2xf32>
// CHECK: return %[[R]]#0, %[[R]]#1
module attributes {onnx.opset_import = {ai.onnx = 8 : i64}} {
  func.func @scan8(%s: tensor<1x2xf32>, %x: tensor<1x3x2xf32>) -> (tensor<1x2xf32>, tensor<1x3x2xf32>) {
    %0:2 = onnx.Scan_v8(none, %s, %x) {num_scan_inputs = 1 : i64, directions = array<i64: 1>, onnx.outputs = ["y", "z"]} : (tensor<1x2xf32>, tensor<1x3x2xf32>) -> (tensor<1x2xf32>, tensor<1x3x2xf32>) body {
    ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
      %t = onnx.Add_v7(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      onnx.yield %t, %t : tensor<2xf32>, tensor<2xf32>
    }
    return %0#0, %0#1 : tensor<1x2xf32>, tensor<1x3x2xf32>
  }
}

// -----

// Downgrade where the signature allows it; nested graphs are converted too.
// V13-LABEL: func.func @down
// V13: onnx.Relu_v13(%arg0)
// V13: onnx.If_v13(%arg1)
// V13: onnx.Neg(%arg0)
module attributes {onnx.opset_import = {ai.onnx = 21 : i64}} {
  func.func @down(%x: tensor<2xf32>, %c: tensor<i1>) -> (tensor<2xf32>, tensor<2xf32>) {
    %0 = onnx.Relu(%x) : (tensor<2xf32>) -> tensor<2xf32>
    %1 = onnx.If_v21(%c) : (tensor<i1>) -> tensor<2xf32> else_branch {
      onnx.yield %x : tensor<2xf32>
    } then_branch {
      %n = onnx.Neg(%x) : (tensor<2xf32>) -> tensor<2xf32>
      onnx.yield %n : tensor<2xf32>
    }
    return %0, %1 : tensor<2xf32>, tensor<2xf32>
  }
}
