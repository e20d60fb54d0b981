// RUN: onnx-opt %s --onnx-infer-shapes --split-input-file | FileCheck %s

// An If whose branches yield different ranks: the ops after it, up to the
// block's terminator, are copied into both branches (their outputs renamed
// with .then/.else), and the If yields what the terminator returned; here
// that is of rank 2 in both branches. An op that does not use the If moves
// too (%b); a terminator operand from before the If (%x) stays.
// CHECK-LABEL: func.func @sink
// CHECK-SAME: -> (tensor<1x?xf32>, tensor<f32>, tensor<?xf32>)
// CHECK: %[[IF:.*]]:2 = onnx.If(%{{.*}}) {onnx.outputs = ["y", "b"]} : (tensor<i1>) -> (tensor<1x?xf32>, tensor<f32>) else_branch {
// CHECK:   onnx.Reshape
// CHECK:   onnx.Relu{{.*}}onnx.outputs = ["r.else"]{{.*}} -> tensor<?x2xf32>
// CHECK:   onnx.Flatten{{.*}}onnx.outputs = ["y.else"]{{.*}} -> tensor<1x?xf32>
// CHECK:   onnx.Neg{{.*}}onnx.outputs = ["b.else"]
// CHECK:   onnx.yield
// CHECK: } then_branch {
// CHECK:   onnx.Relu{{.*}}onnx.outputs = ["r.then"]{{.*}} -> tensor<?xf32>
// CHECK:   onnx.Flatten{{.*}}onnx.outputs = ["y.then"]{{.*}} -> tensor<1x?xf32>
// CHECK:   onnx.Neg{{.*}}onnx.outputs = ["b.then"]
// CHECK:   onnx.yield
// CHECK: }
// CHECK: return %[[IF]]#0, %[[IF]]#1, %{{.*}} : tensor<1x?xf32>, tensor<f32>, tensor<?xf32>
func.func @sink(%c: tensor<i1>, %x: tensor<?xf32>, %a: tensor<f32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<?xf32>) {
  %z = onnx.If(%c) {onnx.outputs = ["z"]} : (tensor<i1>) -> tensor<*xf32> else_branch {
    %s = onnx.Constant() {value = dense<[-1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
    %e = onnx.Reshape(%x, %s) : (tensor<?xf32>, tensor<2xi64>) -> tensor<*xf32>
    onnx.yield %e : tensor<*xf32>
  } then_branch {
    %t = onnx.Relu(%x) : (tensor<?xf32>) -> tensor<*xf32>
    onnx.yield %t : tensor<*xf32>
  }
  %r = onnx.Relu(%z) {onnx.outputs = ["r"]} : (tensor<*xf32>) -> tensor<*xf32>
  %y = onnx.Flatten(%r) {axis = 0 : i64, onnx.outputs = ["y"]} : (tensor<*xf32>) -> tensor<*xf32>
  %b = onnx.Neg(%a) {onnx.outputs = ["b"]} : (tensor<f32>) -> tensor<*xf32>
  return %y, %b, %x : tensor<*xf32>, tensor<*xf32>, tensor<?xf32>
}

// -----

// Branches of the same rank: nothing moves (the result merges the shapes).
// CHECK-LABEL: func.func @same_rank
// CHECK: onnx.If{{.*}} -> tensor<?xf32> else_branch
// CHECK: onnx.Relu{{.*}} : (tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT: return
func.func @same_rank(%c: tensor<i1>, %x: tensor<2xf32>, %w: tensor<3xf32>) -> tensor<*xf32> {
  %z = onnx.If(%c) : (tensor<i1>) -> tensor<*xf32> else_branch {
    onnx.yield %w : tensor<3xf32>
  } then_branch {
    onnx.yield %x : tensor<2xf32>
  }
  %r = onnx.Relu(%z) : (tensor<*xf32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// Two such Ifs in a row: the copies of the second in the first's branches
// take the nodes after them into their own branches.
// CHECK-LABEL: func.func @two_ifs
// CHECK-SAME: -> tensor<1x?xf32>
// CHECK: onnx.If{{.*}} -> tensor<1x?xf32> else_branch
// CHECK: onnx.If{{.*}} -> tensor<1x6xf32> else_branch
// CHECK-COUNT-2: onnx.Flatten
// CHECK: onnx.If{{.*}} -> tensor<1x?xf32> else_branch
// CHECK-COUNT-2: onnx.Flatten
// CHECK-NOT: onnx.Flatten
func.func @two_ifs(%c: tensor<i1>, %d: tensor<i1>, %x: tensor<3xf32>, %w: tensor<2x3xf32>) -> tensor<*xf32> {
  %z = onnx.If(%c) {onnx.outputs = ["z"]} : (tensor<i1>) -> tensor<*xf32> else_branch {
    onnx.yield %w : tensor<2x3xf32>
  } then_branch {
    onnx.yield %x : tensor<3xf32>
  }
  %u = onnx.If(%d) {onnx.outputs = ["u"]} : (tensor<i1>) -> tensor<*xf32> else_branch {
    onnx.yield %w : tensor<2x3xf32>
  } then_branch {
    onnx.yield %x : tensor<3xf32>
  }
  %s = onnx.Add(%z, %u) {onnx.outputs = ["s"]} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %y = onnx.Flatten(%s) {axis = 0 : i64, onnx.outputs = ["y"]} : (tensor<*xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// The nodes after the If hold for one branch only (Transpose's perm needs
// rank 2; the then branch gives rank 1, through %x of a dynamic size): the
// then branch yields a placeholder of the else branch's type (zeros, a
// dynamic dim as 0) and onnx.branch_errors records why, with the node's name;
// the lowering fails the run when it takes that branch.
// CHECK-LABEL: func.func @one_rank_suits
// CHECK-SAME: -> tensor<?x2xf32>
// CHECK: onnx.If(%{{.*}}) {onnx.branch_errors = {then_branch = "node 'swap': 'onnx.Transpose' op attribute 'perm' must have 1 values (the rank of input 'data'), got 2"}, onnx.name = "choose", onnx.outputs = ["t"]} : (tensor<i1>) -> tensor<?x2xf32> else_branch {
// CHECK:   onnx.Transpose{{.*}}onnx.outputs = ["t.else"]{{.*}} -> tensor<?x2xf32>
// CHECK: } then_branch {
// CHECK-NEXT: %[[P:.*]] = onnx.Constant() {value = dense<0.000000e+00> : tensor<0x2xf32>}
// CHECK-NEXT: onnx.yield %[[P]] : tensor<0x2xf32>
func.func @one_rank_suits(%c: tensor<i1>, %x: tensor<?xf32>, %w: tensor<2x?xf32>) -> tensor<*xf32> {
  %z = onnx.If(%c) {onnx.name = "choose"} : (tensor<i1>) -> tensor<*xf32> else_branch {
    onnx.yield %w : tensor<2x?xf32>
  } then_branch {
    onnx.yield %x : tensor<?xf32>
  }
  %t = onnx.Transpose(%z) {perm = array<i64: 1, 0>, onnx.outputs = ["t"]} : (tensor<*xf32>) -> tensor<*xf32> loc("swap")
  return %t : tensor<*xf32>
}
