// RUN: onnx-opt %s --onnx-infer-shapes -verify-diagnostics

// The nodes after an If of different ranks are copied into both branches;
// when neither branch's rank suits them (here Transpose's perm needs rank 2,
// the branches give ranks 3 and 1), the error names the If and the branches,
// after the error of the else branch's copy. (When one branch suits them,
// the other becomes a failure at run time: infer-if-branch-ranks.mlir.)
func.func @no_rank_suits(%c: tensor<i1>, %x: tensor<2xf32>, %w: tensor<2x2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{If 'choose': its branches yield different ranks, so the nodes after it were copied into both; in else_branch they do not accept what it yields (the error above), nor in then_branch}}
  %z = onnx.If(%c) {onnx.name = "choose"} : (tensor<i1>) -> tensor<*xf32> else_branch {
    onnx.yield %w : tensor<2x2x3xf32>
  } then_branch {
    onnx.yield %x : tensor<2xf32>
  }
  // expected-error @+1 {{'onnx.Transpose' op attribute 'perm' must have 3 values}}
  %t = onnx.Transpose(%z) {perm = array<i64: 1, 0>, onnx.outputs = ["t"]} : (tensor<*xf32>) -> tensor<*xf32>
  return %t : tensor<*xf32>
}
