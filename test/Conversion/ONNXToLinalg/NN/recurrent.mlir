// RUN: onnx-opt %s --convert-onnx-to-linalg --canonicalize --split-input-file | FileCheck %s

// RNN with Y_h only: the input projection of all steps is one matmul
// before the loop; the loop carries H alone (no Y buffer), one matmul
// H * R^T and one generic per step.
// CHECK-LABEL: func.func @rnn_yh_only
// CHECK: %[[XW:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<6x4xf32>, tensor<4x5xf32>)
// CHECK: tensor.expand_shape %[[XW]] {{.*}} into tensor<3x2x5xf32>
// CHECK: %[[H:.*]] = scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (tensor<2x5xf32>) {
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x5xf32>, tensor<5x5xf32>)
// CHECK: linalg.generic
// CHECK: math.tanh
// CHECK-NOT: tensor.insert_slice
// CHECK: scf.yield %{{.*}} : tensor<2x5xf32>
// CHECK: tensor.insert_slice %[[H]] into %{{.*}}[0, 0, 0] [1, 2, 5]
func.func @rnn_yh_only(%x: tensor<3x2x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>) -> tensor<1x2x5xf32> {
  %yh = onnx.RNN(%x, %w, %r) {hidden_size = 5 : i64} : (tensor<3x2x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>) -> (none, tensor<1x2x5xf32>)
  return %yh : tensor<1x2x5xf32>
}

// -----

// GRU (linear_before_reset = 0) with Y: the loop carries H and Y; each step
// is a matmul for the z and r gates, one generic, a matmul of (r . H) with
// Rh^T and a second generic; the step's row is inserted into Y.
// CHECK-LABEL: func.func @gru_y
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<6x4xf32>, tensor<4x15xf32>)
// CHECK: %[[LOOP:.*]]:2 = scf.for %[[T:.*]] = %c0 to %c3 step %c1 iter_args(%{{.*}} = %{{.*}}, %[[Y:.*]] = %{{.*}}) -> (tensor<2x5xf32>, tensor<3x2x5xf32>) {
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x5xf32>, tensor<5x10xf32>)
// CHECK: %[[ZR:.*]]:2 = linalg.generic
// CHECK: linalg.matmul ins(%[[ZR]]#1, %{{.*}} : tensor<2x5xf32>, tensor<5x5xf32>)
// CHECK: %[[HN:.*]]:2 = linalg.generic
// CHECK: math.tanh
// CHECK: %[[YN:.*]] = tensor.insert_slice %[[HN]]#1 into %[[Y]][%[[T]], 0, 0] [1, 2, 5] [1, 1, 1] : tensor<2x5xf32> into tensor<3x2x5xf32>
// CHECK: scf.yield %[[HN]]#0, %[[YN]]
// CHECK: tensor.insert_slice %[[LOOP]]#1 into %{{.*}}[0, 0, 0, 0] [3, 1, 2, 5]
// CHECK: tensor.insert_slice %[[LOOP]]#0 into %{{.*}}[0, 0, 0] [1, 2, 5]
func.func @gru_y(%x: tensor<3x2x4xf32>, %w: tensor<1x15x4xf32>, %r: tensor<1x15x5xf32>, %b: tensor<1x30xf32>) -> (tensor<3x1x2x5xf32>, tensor<1x2x5xf32>) {
  %y, %yh = onnx.GRU(%x, %w, %r, %b) {hidden_size = 5 : i64} : (tensor<3x2x4xf32>, tensor<1x15x4xf32>, tensor<1x15x5xf32>, tensor<1x30xf32>) -> (tensor<3x1x2x5xf32>, tensor<1x2x5xf32>)
  return %y, %yh : tensor<3x1x2x5xf32>, tensor<1x2x5xf32>
}

// -----

// Bidirectional LSTM: one loop per direction carrying H, C and Y; the
// second runs backwards in time (Y row seq - 1 - t); the directions are
// stacked on dim 1 of Y and dim 0 of Y_h / Y_c.
// CHECK-LABEL: func.func @lstm_bidirectional
// CHECK: %[[F:.*]]:3 = scf.for %[[T0:[[:alnum:]_]+]] = {{.*}} -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<3x2x5xf32>) {
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x5xf32>, tensor<5x20xf32>)
// CHECK: %[[S0:.*]]:3 = linalg.generic
// CHECK: tensor.insert_slice %[[S0]]#2 into %{{.*}}[%[[T0]], 0, 0] [1, 2, 5]
// CHECK: %[[R:.*]]:3 = scf.for %[[T1:[[:alnum:]_]+]] = {{.*}} -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<3x2x5xf32>) {
// CHECK: %[[TT:.*]] = arith.subi %c2, %[[T1]] : index
// CHECK: tensor.extract_slice %{{.*}}[%[[TT]], 0, 0] [1, 2, 20]
// CHECK: %[[S1:.*]]:3 = linalg.generic
// CHECK: tensor.insert_slice %[[S1]]#2 into %{{.*}}[%[[TT]], 0, 0] [1, 2, 5]
// CHECK: %[[Y0:.*]] = tensor.insert_slice %[[F]]#2 into %{{.*}}[0, 0, 0, 0] [3, 1, 2, 5]
// CHECK: tensor.insert_slice %[[R]]#2 into %[[Y0]][0, 1, 0, 0] [3, 1, 2, 5]
// CHECK: %[[H0:.*]] = tensor.insert_slice %[[F]]#0 into %{{.*}}[0, 0, 0] [1, 2, 5]
// CHECK: tensor.insert_slice %[[R]]#0 into %[[H0]][1, 0, 0] [1, 2, 5]
// CHECK: %[[C0:.*]] = tensor.insert_slice %[[F]]#1 into %{{.*}}[0, 0, 0] [1, 2, 5]
// CHECK: tensor.insert_slice %[[R]]#1 into %[[C0]][1, 0, 0] [1, 2, 5]
func.func @lstm_bidirectional(%x: tensor<3x2x4xf32>, %w: tensor<2x20x4xf32>, %r: tensor<2x20x5xf32>) -> (tensor<3x2x2x5xf32>, tensor<2x2x5xf32>, tensor<2x2x5xf32>) {
  %y, %yh, %yc = onnx.LSTM(%x, %w, %r) {hidden_size = 5 : i64, direction = "bidirectional"} : (tensor<3x2x4xf32>, tensor<2x20x4xf32>, tensor<2x20x5xf32>) -> (tensor<3x2x2x5xf32>, tensor<2x2x5xf32>, tensor<2x2x5xf32>)
  return %y, %yh, %yc : tensor<3x2x2x5xf32>, tensor<2x2x5xf32>, tensor<2x2x5xf32>
}

// -----

// Layout 1, reverse with sequence_lens: X is transposed to [seq, batch,
// input]; the projection is reversed within each length before the loop
// (which then runs forward and masks steps past the length) and Y back
// after it; Y is transposed back to [batch, seq, dirs, hidden].
// CHECK-LABEL: func.func @rnn_layout1_reverse_lens
// CHECK: linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<3x2x4xf32>) permutation = [1, 0, 2]
// CHECK: %[[XW:.*]] = tensor.expand_shape
// CHECK: %[[REV:.*]] = linalg.generic {{.*}} ins(%arg3 : tensor<2xi32>)
// CHECK: tensor.extract %[[XW]]
// CHECK: %[[LOOP:.*]]:2 = scf.for %[[T:.*]] = %c0 to %c3
// CHECK: tensor.extract_slice %[[REV]][%[[T]], 0, 0]
// CHECK: linalg.generic
// CHECK: arith.cmpi slt, %[[T]], %{{.*}} : index
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[%[[T]], 0, 0]
// CHECK: linalg.generic {{.*}} ins(%arg3 : tensor<2xi32>)
// CHECK: tensor.extract %[[LOOP]]#1
// CHECK: linalg.transpose ins(%{{.*}} : tensor<3x1x2x5xf32>) outs(%{{.*}} : tensor<2x3x1x5xf32>) permutation = [2, 0, 1, 3]
func.func @rnn_layout1_reverse_lens(%x: tensor<2x3x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>, %lens: tensor<2xi32>) -> tensor<2x3x1x5xf32> {
  %y = onnx.RNN(%x, %w, %r, none, %lens) {hidden_size = 5 : i64, layout = 1 : i64, direction = "reverse"} : (tensor<2x3x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, tensor<2xi32>) -> (tensor<2x3x1x5xf32>, none)
  return %y : tensor<2x3x1x5xf32>
}

// -----

// Dynamic shapes: the weights' sizes are checked at run time, the hidden
// size comes from R and the loop runs to X's dim 0.
// CHECK-LABEL: func.func @rnn_dynamic
// CHECK: %[[SEQ:.*]] = tensor.dim %arg0, %c0
// CHECK: cf.assert %{{.*}}, "onnx.RNN: W has a wrong shape"
// CHECK: cf.assert %{{.*}}, "onnx.RNN: R has a wrong shape"
// CHECK: scf.for %{{.*}} = %c0 to %[[SEQ]] step %c1 iter_args(%{{.*}} = %{{.*}}) -> (tensor<?x?xf32>)
func.func @rnn_dynamic(%x: tensor<?x?x?xf32>, %w: tensor<?x?x?xf32>, %r: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %yh = onnx.RNN(%x, %w, %r) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> (none, tensor<?x?x?xf32>)
  return %yh : tensor<?x?x?xf32>
}
