// TreeEnsemble (ai.onnx.ml) by value. Two trees, two targets, X = [f0, f1]:
//  tree 0: n0 f0 <= 1 ? n1 : n2
//          n1 f1 in {2, 5} (NaN goes true) ? leaf0 (t0, 1) : leaf1 (t1, 2)
//          n2 f1 > 3 ? leaf2 (t0, 4) : n3
//          n3 f0 == 7 ? leaf3 (t1, 8) : n4
//          n4 f0 != 9 ? leaf4 (t0, 16) : leaf5 (t1, 32)
//  tree 1: n5 f1 < 0 ? leaf6 (t1, 100) : n6
//          n6 f0 >= 5 ? leaf7 (t0, 200) : leaf8 (t1, 400)
// NaN compares false except for != (true), and n1 sends it to the true
// branch (missing_value_tracks_true).
// A stump (f0 <= 0 ? (t0, 0.25) : (t1, 0.75), three targets) for SOFTMAX,
// SOFTMAX_ZERO and PROBIT.
// RUN: onnx-opt %s --onnx-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

func.func @graph(%x: tensor<8x2xf32>) -> (tensor<8x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>) {
  %sum = onnx.ml.TreeEnsemble(%x) {aggregate_function = 1 : i64, leaf_targetids = array<i64: 0, 1, 0, 1, 0, 1, 1, 0, 1>, leaf_weights = dense<[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 100.0, 200.0, 400.0]> : tensor<9xf32>, membership_values = dense<[2.0, 5.0, 0x7FC00000]> : tensor<3xf32>, n_targets = 2 : i64, nodes_falseleafs = array<i64: 0, 1, 0, 0, 1, 0, 1>, nodes_falsenodeids = array<i64: 2, 1, 3, 4, 5, 6, 8>, nodes_featureids = array<i64: 0, 1, 1, 0, 0, 1, 0>, nodes_missing_value_tracks_true = array<i64: 0, 1, 0, 0, 0, 0, 0>, nodes_modes = dense<[0, 6, 3, 4, 5, 1, 2]> : tensor<7xui8>, nodes_splits = dense<[1.0, 0.0, 3.0, 7.0, 9.0, 0.0, 5.0]> : tensor<7xf32>, nodes_trueleafs = array<i64: 0, 1, 1, 1, 1, 1, 1>, nodes_truenodeids = array<i64: 1, 0, 2, 3, 4, 6, 7>, post_transform = 0 : i64, tree_roots = array<i64: 0, 5>} : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %avg = onnx.ml.TreeEnsemble(%x) {aggregate_function = 0 : i64, leaf_targetids = array<i64: 0, 1, 0, 1, 0, 1, 1, 0, 1>, leaf_weights = dense<[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 100.0, 200.0, 400.0]> : tensor<9xf32>, membership_values = dense<[2.0, 5.0, 0x7FC00000]> : tensor<3xf32>, n_targets = 2 : i64, nodes_falseleafs = array<i64: 0, 1, 0, 0, 1, 0, 1>, nodes_falsenodeids = array<i64: 2, 1, 3, 4, 5, 6, 8>, nodes_featureids = array<i64: 0, 1, 1, 0, 0, 1, 0>, nodes_missing_value_tracks_true = array<i64: 0, 1, 0, 0, 0, 0, 0>, nodes_modes = dense<[0, 6, 3, 4, 5, 1, 2]> : tensor<7xui8>, nodes_splits = dense<[1.0, 0.0, 3.0, 7.0, 9.0, 0.0, 5.0]> : tensor<7xf32>, nodes_trueleafs = array<i64: 0, 1, 1, 1, 1, 1, 1>, nodes_truenodeids = array<i64: 1, 0, 2, 3, 4, 6, 7>, post_transform = 0 : i64, tree_roots = array<i64: 0, 5>} : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %max = onnx.ml.TreeEnsemble(%x) {aggregate_function = 3 : i64, leaf_targetids = array<i64: 0, 1, 0, 1, 0, 1, 1, 0, 1>, leaf_weights = dense<[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 100.0, 200.0, 400.0]> : tensor<9xf32>, membership_values = dense<[2.0, 5.0, 0x7FC00000]> : tensor<3xf32>, n_targets = 2 : i64, nodes_falseleafs = array<i64: 0, 1, 0, 0, 1, 0, 1>, nodes_falsenodeids = array<i64: 2, 1, 3, 4, 5, 6, 8>, nodes_featureids = array<i64: 0, 1, 1, 0, 0, 1, 0>, nodes_missing_value_tracks_true = array<i64: 0, 1, 0, 0, 0, 0, 0>, nodes_modes = dense<[0, 6, 3, 4, 5, 1, 2]> : tensor<7xui8>, nodes_splits = dense<[1.0, 0.0, 3.0, 7.0, 9.0, 0.0, 5.0]> : tensor<7xf32>, nodes_trueleafs = array<i64: 0, 1, 1, 1, 1, 1, 1>, nodes_truenodeids = array<i64: 1, 0, 2, 3, 4, 6, 7>, post_transform = 0 : i64, tree_roots = array<i64: 0, 5>} : (tensor<8x2xf32>) -> tensor<8x2xf32>
  %logistic = onnx.ml.TreeEnsemble(%x) {aggregate_function = 1 : i64, leaf_targetids = array<i64: 0, 1, 0, 1, 0, 1, 1, 0, 1>, leaf_weights = dense<[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 100.0, 200.0, 400.0]> : tensor<9xf32>, membership_values = dense<[2.0, 5.0, 0x7FC00000]> : tensor<3xf32>, n_targets = 2 : i64, nodes_falseleafs = array<i64: 0, 1, 0, 0, 1, 0, 1>, nodes_falsenodeids = array<i64: 2, 1, 3, 4, 5, 6, 8>, nodes_featureids = array<i64: 0, 1, 1, 0, 0, 1, 0>, nodes_missing_value_tracks_true = array<i64: 0, 1, 0, 0, 0, 0, 0>, nodes_modes = dense<[0, 6, 3, 4, 5, 1, 2]> : tensor<7xui8>, nodes_splits = dense<[1.0, 0.0, 3.0, 7.0, 9.0, 0.0, 5.0]> : tensor<7xf32>, nodes_trueleafs = array<i64: 0, 1, 1, 1, 1, 1, 1>, nodes_truenodeids = array<i64: 1, 0, 2, 3, 4, 6, 7>, post_transform = 2 : i64, tree_roots = array<i64: 0, 5>} : (tensor<8x2xf32>) -> tensor<8x2xf32>
  return %sum, %avg, %max, %logistic : tensor<8x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>
}

func.func @stump(%x: tensor<2x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %softmax = onnx.ml.TreeEnsemble(%x) {leaf_targetids = array<i64: 0, 1>, leaf_weights = dense<[0.25, 0.75]> : tensor<2xf32>, n_targets = 3 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 1>, nodes_featureids = array<i64: 0>, nodes_modes = dense<0> : tensor<1xui8>, nodes_splits = dense<0.0> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, post_transform = 1 : i64, tree_roots = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<2x3xf32>
  %zero = onnx.ml.TreeEnsemble(%x) {leaf_targetids = array<i64: 0, 1>, leaf_weights = dense<[0.25, 0.75]> : tensor<2xf32>, n_targets = 3 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 1>, nodes_featureids = array<i64: 0>, nodes_modes = dense<0> : tensor<1xui8>, nodes_splits = dense<0.0> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, post_transform = 3 : i64, tree_roots = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<2x3xf32>
  %probit = onnx.ml.TreeEnsemble(%x) {leaf_targetids = array<i64: 0, 1>, leaf_weights = dense<[0.25, 0.75]> : tensor<2xf32>, n_targets = 3 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 1>, nodes_featureids = array<i64: 0>, nodes_modes = dense<0> : tensor<1xui8>, nodes_splits = dense<0.0> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, post_transform = 4 : i64, tree_roots = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<2x3xf32>
  return %softmax, %zero, %probit : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @print(%t: tensor<8x2xf32>) {
  %m = bufferization.to_buffer %t : tensor<8x2xf32> to memref<8x2xf32>
  %u = memref.cast %m : memref<8x2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @print3(%t: tensor<2x3xf32>) {
  %m = bufferization.to_buffer %t : tensor<2x3xf32> to memref<2x3xf32>
  %u = memref.cast %m : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[[0.5, 5.0], [0.5, 3.0], [0.5, 0x7FC00000], [2.0, 4.0], [7.0, 1.0], [9.0, -1.0], [3.0, 0x7FC00000], [0x7FC00000, -2.0]]> : tensor<8x2xf32>
  %r:4 = call @graph(%x) : (tensor<8x2xf32>) -> (tensor<8x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>, tensor<8x2xf32>)
  // SUM. Row 1: 3 is not a member; row 2: the NaN goes true at n1 (missing
  // tracks true), false at n6; rows 6, 7: NaN != 9 is true.
  // CHECK: {{\[\[}}1, {{ *}}400],
  // CHECK-NEXT: [0, {{ *}}402],
  // CHECK-NEXT: [1, {{ *}}400],
  // CHECK-NEXT: [4, {{ *}}400],
  // CHECK-NEXT: [200, {{ *}}8],
  // CHECK-NEXT: [0, {{ *}}132],
  // CHECK-NEXT: [16, {{ *}}400],
  // CHECK-NEXT: [16, {{ *}}100]]
  call @print(%r#0) : (tensor<8x2xf32>) -> ()
  // AVERAGE: the sum over the number of trees (2).
  // CHECK: {{\[\[}}0.5, {{ *}}200],
  // CHECK-NEXT: [0, {{ *}}201],
  // CHECK-NEXT: [0.5, {{ *}}200],
  // CHECK-NEXT: [2, {{ *}}200],
  // CHECK-NEXT: [100, {{ *}}4],
  // CHECK-NEXT: [0, {{ *}}66],
  // CHECK-NEXT: [8, {{ *}}200],
  // CHECK-NEXT: [8, {{ *}}50]]
  call @print(%r#1) : (tensor<8x2xf32>) -> ()
  // MAX: a target no leaf reaches keeps the lowest f32.
  // CHECK: {{\[\[}}1, {{ *}}400],
  // CHECK-NEXT: [-3.40282e+38, {{ *}}400],
  // CHECK-NEXT: [1, {{ *}}400],
  // CHECK-NEXT: [4, {{ *}}400],
  // CHECK-NEXT: [200, {{ *}}8],
  // CHECK-NEXT: [-3.40282e+38, {{ *}}100],
  // CHECK-NEXT: [16, {{ *}}400],
  // CHECK-NEXT: [16, {{ *}}100]]
  call @print(%r#2) : (tensor<8x2xf32>) -> ()
  // LOGISTIC of the sums.
  // CHECK: {{\[\[}}0.731059, {{ *}}1],
  // CHECK-NEXT: [0.5, {{ *}}1],
  // CHECK-NEXT: [0.731059, {{ *}}1],
  // CHECK-NEXT: [0.982014, {{ *}}1],
  // CHECK-NEXT: [1, {{ *}}0.999665],
  // CHECK-NEXT: [0.5, {{ *}}1],
  // CHECK-NEXT: [1, {{ *}}1],
  // CHECK-NEXT: [1, {{ *}}1]]
  call @print(%r#3) : (tensor<8x2xf32>) -> ()
  %s = arith.constant dense<[[-1.0], [1.0]]> : tensor<2x1xf32>
  %q:3 = call @stump(%s) : (tensor<2x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
  // SOFTMAX of [0.25, 0, 0] and [0, 0.75, 0].
  // CHECK: {{\[\[}}0.390991, {{ *}}0.304504, {{ *}}0.304504],
  // CHECK-NEXT: [0.242895, {{ *}}0.514209, {{ *}}0.242895]]
  call @print3(%q#0) : (tensor<2x3xf32>) -> ()
  // SOFTMAX_ZERO: the zeros stay zero.
  // CHECK: {{\[\[}}1, {{ *}}0, {{ *}}0],
  // CHECK-NEXT: [0, {{ *}}1, {{ *}}0]]
  call @print3(%q#1) : (tensor<2x3xf32>) -> ()
  // PROBIT: sqrt(2) erfinv(2p - 1) (+-0.6745 for 0.25, 0.75; -inf for 0).
  // CHECK: {{\[\[}}-0.674574, {{ *}}-inf, {{ *}}-inf],
  // CHECK-NEXT: [-inf, {{ *}}0.674574, {{ *}}-inf]]
  call @print3(%q#2) : (tensor<2x3xf32>) -> ()
  return
}
