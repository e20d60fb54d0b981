// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// If: scf.if on the extracted condition; branches of different static shapes
// are cast to the joined result type.
// CHECK-LABEL: func.func @if
// CHECK: %[[C:.*]] = tensor.extract %arg0[] : tensor<i1>
// CHECK: scf.if %[[C]] -> (tensor<?xf32>)
// CHECK: tensor.cast %{{.*}} : tensor<2xf32> to tensor<?xf32>
// CHECK: scf.yield
// CHECK: } else {
// CHECK: tensor.cast %{{.*}} : tensor<3xf32> to tensor<?xf32>
// CHECK: scf.yield
func.func @if(%c: tensor<i1>, %a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<?xf32> {
  %0 = onnx.If(%c) : (tensor<i1>) -> tensor<?xf32> else_branch {
    %1 = onnx.Neg(%b) : (tensor<3xf32>) -> tensor<3xf32>
    onnx.yield %1 : tensor<3xf32>
  } then_branch {
    %1 = onnx.Neg(%a) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.yield %1 : tensor<2xf32>
  }
  return %0 : tensor<?xf32>
}

// -----

// A branch that onnx-infer-shapes replaced by a failure at run time
// (onnx.branch_errors): it starts with a failing check, then yields its
// placeholder; the other branch is lowered as usual.
// CHECK-LABEL: func.func @if_branch_error
// CHECK: scf.if %{{.*}} -> (tensor<2xf32>)
// CHECK-NEXT: %[[F:.*]] = arith.constant false
// CHECK-NEXT: cf.assert %[[F]], "onnx.If 'pick': the run took then_branch, whose ranks the nodes after the If do not accept: node 'swap': why"
// CHECK: } else {
// CHECK-NOT: cf.assert
// CHECK: scf.yield
func.func @if_branch_error(%c: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = onnx.If(%c) {onnx.name = "pick", onnx.branch_errors = {then_branch = "node 'swap': why"}} : (tensor<i1>) -> tensor<2xf32> else_branch {
    %1 = onnx.Neg(%a) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.yield %1 : tensor<2xf32>
  } then_branch {
    %1 = onnx.Constant() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
    onnx.yield %1 : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

// A condition of one element and any rank is read at all-zero indices; each
// dynamic dim is checked to be 1 at run time.
// CHECK-LABEL: func.func @if_cond_rank2
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x1xi1>
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[D]]
// CHECK: cf.assert %[[ONE]], "onnx.If 'pick': input 'cond' must hold one element"
// CHECK: %[[C:.*]] = tensor.extract %arg0[%[[Z]], %[[Z]]] : tensor<?x1xi1>
// CHECK: scf.if %[[C]] -> (tensor<2xf32>)
func.func @if_cond_rank2(%c: tensor<?x1xi1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = onnx.If(%c) {onnx.name = "pick"} : (tensor<?x1xi1>) -> tensor<2xf32> else_branch {
    onnx.yield %a : tensor<2xf32>
  } then_branch {
    %1 = onnx.Neg(%a) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.yield %1 : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

// Loop: scf.while carrying the iteration number, the condition, the values
// and one growing buffer per scan output.
// CHECK-LABEL: func.func @loop
// CHECK: scf.while
// CHECK: arith.cmpi slt
// CHECK: arith.andi
// CHECK: scf.condition
// CHECK: } do {
// CHECK: tensor.from_elements %{{.*}} : tensor<i64>
// CHECK: linalg.generic
// CHECK: scf.if
// CHECK: tensor.insert_slice
// CHECK: scf.yield
// CHECK: tensor.extract_slice
func.func @loop(%m: tensor<i64>, %c: tensor<i1>, %y: tensor<1xf32>) -> (tensor<1xf32>, tensor<?x1xf32>) {
  %0:2 = onnx.Loop(%m, %c, %y) : (tensor<i64>, tensor<i1>, tensor<1xf32>) -> (tensor<1xf32>, tensor<?x1xf32>) body {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %yi: tensor<1xf32>):
    %1 = onnx.Add(%yi, %yi) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    onnx.yield %ci, %1, %1 : tensor<i1>, tensor<1xf32>, tensor<1xf32>
  }
  return %0#0, %0#1 : tensor<1xf32>, tensor<?x1xf32>
}

// -----

// Sequences are runtime handles: an If yields them and a Loop carries them
// as !llvm.ptr values.
// CHECK-LABEL: func.func @if_seq
// CHECK: scf.if %{{.*}} -> (!llvm.ptr)
// CHECK: scf.yield %{{.*}} : !llvm.ptr
// CHECK: } else {
// CHECK: scf.yield %{{.*}} : !llvm.ptr
func.func @if_seq(%c: tensor<i1>, %a: tensor<2xf32>) -> !onnx.seq<tensor<2xf32>> {
  %0 = onnx.If(%c) : (tensor<i1>) -> !onnx.seq<tensor<2xf32>> else_branch {
    %1 = onnx.SequenceEmpty() : () -> !onnx.seq<tensor<2xf32>>
    onnx.yield %1 : !onnx.seq<tensor<2xf32>>
  } then_branch {
    %1 = onnx.SequenceConstruct(%a) : (tensor<2xf32>) -> !onnx.seq<tensor<2xf32>>
    onnx.yield %1 : !onnx.seq<tensor<2xf32>>
  }
  return %0 : !onnx.seq<tensor<2xf32>>
}

// -----

// CHECK-LABEL: func.func @loop_seq
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (i64, i1, !llvm.ptr) -> (i64, i1, !llvm.ptr)
func.func @loop_seq(%m: tensor<i64>, %c: tensor<i1>, %s: !onnx.seq<tensor<2xf32>>, %a: tensor<2xf32>) -> !onnx.seq<tensor<2xf32>> {
  %0 = onnx.Loop(%m, %c, %s) : (tensor<i64>, tensor<i1>, !onnx.seq<tensor<2xf32>>) -> !onnx.seq<tensor<2xf32>> body {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %si: !onnx.seq<tensor<2xf32>>):
    %1 = onnx.SequenceInsert(%si, %a) : (!onnx.seq<tensor<2xf32>>, tensor<2xf32>) -> !onnx.seq<tensor<2xf32>>
    onnx.yield %ci, %1 : tensor<i1>, !onnx.seq<tensor<2xf32>>
  }
  return %0 : !onnx.seq<tensor<2xf32>>
}

// -----

// Scan: scf.for over the scan length, slices of the scan input, the output
// inserted row by row (reversed for direction 1).
// CHECK-LABEL: func.func @scan
// CHECK: scf.for
// CHECK: tensor.extract_slice %arg1{{.*}} : tensor<3x2xf32> to tensor<2xf32>
// CHECK: linalg.generic
// CHECK: arith.subi
// CHECK: tensor.insert_slice
// CHECK: scf.yield
func.func @scan(%init: tensor<2xf32>, %x: tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  %0:2 = onnx.Scan(%init, %x) {num_scan_inputs = 1 : i64, scan_output_directions = array<i64: 1>} : (tensor<2xf32>, tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) body {
  ^bb0(%s: tensor<2xf32>, %e: tensor<2xf32>):
    %1 = onnx.Add(%s, %e) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    onnx.yield %1, %1 : tensor<2xf32>, tensor<2xf32>
  }
  return %0#0, %0#1 : tensor<2xf32>, tensor<3x2xf32>
}
