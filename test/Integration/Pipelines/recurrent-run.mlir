// Value checks of the recurrent lowerings by identities (the node tests
// cover the forward direction, layout 1, peepholes, biases): each output
// below is a difference that must be exactly 0.
//  #0: GRU reverse on X == GRU forward on X reversed in time (Y_h);
//  #1: bidirectional RNN, direction 1 == RNN reverse (Y_h);
//  #2: LSTM reverse with sequence_lens [3, 1]: batch 0 == LSTM reverse
//      without lengths; batch 1 == one forward step on X[0] (Y_h);
//  #3: the Y of that LSTM at steps 1, 2 of batch 1 (past its length) is 0.
// RUN: onnx-opt %s --onnx-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

func.func @graph(%x: tensor<3x2x2xf32>, %xrev: tensor<3x2x2xf32>,
                 %gw: tensor<1x9x2xf32>, %gr: tensor<1x9x3xf32>, %gb: tensor<1x18xf32>,
                 %rw: tensor<2x3x2xf32>, %rr: tensor<2x3x3xf32>,
                 %lw: tensor<1x12x2xf32>, %lr: tensor<1x12x3xf32>, %lb: tensor<1x24xf32>,
                 %lens: tensor<2xi32>)
    -> (tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<2x1x2x3xf32>) {
  // #0
  %gh0 = onnx.GRU(%x, %gw, %gr, %gb) {hidden_size = 3 : i64, direction = "reverse", linear_before_reset = 1 : i64} : (tensor<3x2x2xf32>, tensor<1x9x2xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>) -> (none, tensor<1x2x3xf32>)
  %gh1 = onnx.GRU(%xrev, %gw, %gr, %gb) {hidden_size = 3 : i64, linear_before_reset = 1 : i64} : (tensor<3x2x2xf32>, tensor<1x9x2xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>) -> (none, tensor<1x2x3xf32>)
  %d0 = onnx.Sub(%gh0, %gh1) : (tensor<1x2x3xf32>, tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
  // #1
  %rh0 = onnx.RNN(%x, %rw, %rr) {hidden_size = 3 : i64, direction = "bidirectional", activations = ["Tanh", "LeakyRelu"], activation_alpha = array<f32: 0.5>} : (tensor<3x2x2xf32>, tensor<2x3x2xf32>, tensor<2x3x3xf32>) -> (none, tensor<2x2x3xf32>)
  %s1 = onnx.Constant() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %s2 = onnx.Constant() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %s0 = onnx.Constant() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %rwb = onnx.Slice(%rw, %s1, %s2, %s0) : (tensor<2x3x2xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x3x2xf32>
  %rrb = onnx.Slice(%rr, %s1, %s2, %s0) : (tensor<2x3x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x3x3xf32>
  %rh1 = onnx.RNN(%x, %rwb, %rrb) {hidden_size = 3 : i64, direction = "reverse", activations = ["LeakyRelu"], activation_alpha = array<f32: 0.5>} : (tensor<3x2x2xf32>, tensor<1x3x2xf32>, tensor<1x3x3xf32>) -> (none, tensor<1x2x3xf32>)
  %rh0b = onnx.Slice(%rh0, %s1, %s2, %s0) : (tensor<2x2x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2x3xf32>
  %d1 = onnx.Sub(%rh0b, %rh1) : (tensor<1x2x3xf32>, tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
  // #2, #3
  %l0, %lh0 = onnx.LSTM(%x, %lw, %lr, %lb, %lens) {hidden_size = 3 : i64, direction = "reverse"} : (tensor<3x2x2xf32>, tensor<1x12x2xf32>, tensor<1x12x3xf32>, tensor<1x24xf32>, tensor<2xi32>) -> (tensor<3x1x2x3xf32>, tensor<1x2x3xf32>)
  %lh1 = onnx.LSTM(%x, %lw, %lr, %lb) {hidden_size = 3 : i64, direction = "reverse"} : (tensor<3x2x2xf32>, tensor<1x12x2xf32>, tensor<1x12x3xf32>, tensor<1x24xf32>) -> (none, tensor<1x2x3xf32>)
  %x0 = onnx.Slice(%x, %s0, %s1, %s0) : (tensor<3x2x2xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x2x2xf32>
  %lh2 = onnx.LSTM(%x0, %lw, %lr, %lb) {hidden_size = 3 : i64} : (tensor<1x2x2xf32>, tensor<1x12x2xf32>, tensor<1x12x3xf32>, tensor<1x24xf32>) -> (none, tensor<1x2x3xf32>)
  %a0 = onnx.Slice(%lh0, %s0, %s1, %s1) : (tensor<1x2x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x1x3xf32>
  %b0 = onnx.Slice(%lh1, %s0, %s1, %s1) : (tensor<1x2x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x1x3xf32>
  %a1 = onnx.Slice(%lh0, %s1, %s2, %s1) : (tensor<1x2x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x1x3xf32>
  %b1 = onnx.Slice(%lh2, %s1, %s2, %s1) : (tensor<1x2x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x1x3xf32>
  %e0 = onnx.Sub(%a0, %b0) : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
  %e1 = onnx.Sub(%a1, %b1) : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
  %d2 = onnx.Concat(%e0, %e1) {axis = 1 : i64} : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x2x3xf32>
  %s3 = onnx.Constant() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %d3 = onnx.Slice(%l0, %s1, %s3, %s0) : (tensor<3x1x2x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x1x2x3xf32>
  return %d0, %d1, %d2, %d3 : tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<2x1x2x3xf32>
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @print(%t: tensor<1x2x3xf32>) {
  %m = bufferization.to_buffer %t : tensor<1x2x3xf32> to memref<1x2x3xf32>
  %u = memref.cast %m : memref<1x2x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[[[0.5, -1.0], [1.5, 0.25]], [[-0.75, 2.0], [0.1, -0.3]], [[1.2, 0.4], [-2.0, 0.6]]]> : tensor<3x2x2xf32>
  %xrev = arith.constant dense<[[[1.2, 0.4], [-2.0, 0.6]], [[-0.75, 2.0], [0.1, -0.3]], [[0.5, -1.0], [1.5, 0.25]]]> : tensor<3x2x2xf32>
  %gw = arith.constant dense<[[[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6], [0.7, -0.1], [0.2, 0.2], [-0.3, 0.5], [0.4, -0.6], [0.1, 0.9], [-0.8, 0.3]]]> : tensor<1x9x2xf32>
  %gr = arith.constant dense<[[[0.2, -0.1, 0.3], [0.1, 0.5, -0.2], [-0.4, 0.2, 0.1], [0.3, 0.3, -0.3], [0.0, -0.2, 0.6], [0.5, 0.1, 0.1], [-0.1, 0.4, 0.2], [0.2, -0.5, 0.3], [0.6, 0.1, -0.4]]]> : tensor<1x9x3xf32>
  %gb = arith.constant dense<[[0.1, 0.2, -0.1, 0.0, 0.3, -0.2, 0.1, 0.1, 0.2, -0.3, 0.2, 0.1, 0.0, -0.1, 0.4, 0.2, -0.2, 0.1]]> : tensor<1x18xf32>
  %rw = arith.constant dense<[[[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], [[0.7, -0.1], [0.2, 0.2], [-0.3, 0.5]]]> : tensor<2x3x2xf32>
  %rr = arith.constant dense<[[[0.2, -0.1, 0.3], [0.1, 0.5, -0.2], [-0.4, 0.2, 0.1]], [[0.3, 0.3, -0.3], [0.0, -0.2, 0.6], [0.5, 0.1, 0.1]]]> : tensor<2x3x3xf32>
  %lw = arith.constant dense<0.15> : tensor<1x12x2xf32>
  %lr0 = arith.constant dense<[[[0.2, -0.1, 0.3], [0.1, 0.5, -0.2], [-0.4, 0.2, 0.1], [0.3, 0.3, -0.3], [0.0, -0.2, 0.6], [0.5, 0.1, 0.1], [-0.1, 0.4, 0.2], [0.2, -0.5, 0.3], [0.6, 0.1, -0.4], [0.1, 0.1, 0.1], [-0.2, 0.3, 0.0], [0.4, -0.1, 0.2]]]> : tensor<1x12x3xf32>
  %lb = arith.constant dense<0.05> : tensor<1x24xf32>
  %lens = arith.constant dense<[3, 1]> : tensor<2xi32>
  %r:4 = call @graph(%x, %xrev, %gw, %gr, %gb, %rw, %rr, %lw, %lr0, %lb, %lens) : (tensor<3x2x2xf32>, tensor<3x2x2xf32>, tensor<1x9x2xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>, tensor<2x3x2xf32>, tensor<2x3x3xf32>, tensor<1x12x2xf32>, tensor<1x12x3xf32>, tensor<1x24xf32>, tensor<2xi32>) -> (tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<2x1x2x3xf32>)
  // CHECK: sizes = [1, 2, 3]
  // CHECK-NEXT: {{\[\[\[}}0, {{ *}}0, {{ *}}0],
  // CHECK-NEXT: [0, {{ *}}0, {{ *}}0]]]
  call @print(%r#0) : (tensor<1x2x3xf32>) -> ()
  // CHECK: sizes = [1, 2, 3]
  // CHECK-NEXT: {{\[\[\[}}0, {{ *}}0, {{ *}}0],
  // CHECK-NEXT: [0, {{ *}}0, {{ *}}0]]]
  call @print(%r#1) : (tensor<1x2x3xf32>) -> ()
  // CHECK: sizes = [1, 2, 3]
  // CHECK-NEXT: {{\[\[\[}}0, {{ *}}0, {{ *}}0],
  // CHECK-NEXT: [0, {{ *}}0, {{ *}}0]]]
  call @print(%r#2) : (tensor<1x2x3xf32>) -> ()
  // Batch 1 of Y at steps 1 and 2 (batch 0 holds values).
  // CHECK: sizes = [1, 2, 3]
  // CHECK-NEXT: {{\[\[\[}}{{.*}}],
  // CHECK-NEXT: [0, {{ *}}0, {{ *}}0]]]
  // CHECK: sizes = [1, 2, 3]
  // CHECK-NEXT: {{\[\[\[}}{{.*}}],
  // CHECK-NEXT: [0, {{ *}}0, {{ *}}0]]]
  %y1 = tensor.extract_slice %r#3[0, 0, 0, 0] [1, 1, 2, 3] [1, 1, 1, 1] : tensor<2x1x2x3xf32> to tensor<1x2x3xf32>
  call @print(%y1) : (tensor<1x2x3xf32>) -> ()
  %y2 = tensor.extract_slice %r#3[1, 0, 0, 0] [1, 1, 2, 3] [1, 1, 1, 1] : tensor<2x1x2x3xf32> to tensor<1x2x3xf32>
  call @print(%y2) : (tensor<1x2x3xf32>) -> ()
  return
}
