// RUN: onnx-opt %s --onnx-infer-shapes -verify-diagnostics

// The nodes after an If of different ranks are copied into both branches;
// when one branch's rank does not suit them (here Transpose's perm needs
// rank 2, the then branch gives rank 1), the error names the If and the
// branch (ONNX Runtime would fail only when that branch runs).
func.func @one_rank_suits(%c: tensor<i1>, %x: tensor<2xf32>, %w: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{If 'choose': its branches yield different ranks, so the nodes after it were copied into both; in then_branch they do not accept what it yields (the error above); an If whose branches only one rank suits is not supported}}
  %z = onnx.If(%c) {onnx.name = "choose"} : (tensor<i1>) -> tensor<*xf32> else_branch {
    onnx.yield %w : tensor<2x3xf32>
  } then_branch {
    onnx.yield %x : tensor<2xf32>
  }
  // expected-error @+1 {{perm}}
  %t = onnx.Transpose(%z) {perm = array<i64: 1, 0>, onnx.outputs = ["t"]} : (tensor<*xf32>) -> tensor<*xf32>
  return %t : tensor<*xf32>
}
