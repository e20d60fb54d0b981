// RUN: onnx-opt %s --canonicalize --split-input-file | FileCheck %s
// RUN: onnx-opt %s --onnx-infer-shapes --split-input-file | FileCheck %s --check-prefix=INFER

// Shape arithmetic over a static shape folds to constants.
// CHECK-LABEL: func.func @shape_chain
// CHECK: %[[S:.*]] = onnx.Constant() {value = dense<[2, 12]> : tensor<2xi64>}
// CHECK: %[[R:.*]] = onnx.Reshape(%arg0, %[[S]])
// CHECK: return %[[R]]
func.func @shape_chain(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %s = onnx.Shape(%x) : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %i0 = onnx.Constant() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %d0 = onnx.Gather(%s, %i0) : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %st = onnx.Constant() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %en = onnx.Constant() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %rest = onnx.Slice(%s, %st, %en) : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %ax = onnx.Constant() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = onnx.Constant() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %p = onnx.Mul(%rest, %one) : (tensor<2xi64>, tensor<1xi64>) -> tensor<2xi64>
  %p0 = onnx.Gather(%p, %ax) : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
  %p1 = onnx.Gather(%p, %one) : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
  %prod = onnx.Mul(%p0, %p1) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %shape = onnx.Concat(%d0, %prod) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = onnx.Reshape(%x, %shape) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  return %r : tensor<2x12xf32>
}

// -----

// Ops that do nothing go away.
// CHECK-LABEL: func.func @noops
// CHECK-NEXT: return %arg0
func.func @noops(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.Identity(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.Cast(%0) {to = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = onnx.Transpose(%1) {perm = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = onnx.Constant() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %3 = onnx.Reshape(%2, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %3 : tensor<2x3xf32>
}

// -----

// Constants: casts, ranges, ConstantOfShape, comparisons and Where.
// CHECK-LABEL: func.func @constants
// CHECK-DAG: onnx.Constant() {value = dense<[0, 2, 4]> : tensor<3xi64>}
// CHECK-DAG: onnx.Constant() {value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}
// CHECK-DAG: onnx.Constant() {value = dense<7> : tensor<2x2xi32>}
// CHECK-DAG: onnx.Constant() {value = dense<[5, 1]> : tensor<2xi64>}
// CHECK-NOT: onnx.Range
// CHECK-NOT: onnx.Where
func.func @constants() -> (tensor<3xi64>, tensor<2xf32>, tensor<2x2xi32>, tensor<2xi64>) {
  %a = onnx.Constant() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %b = onnx.Constant() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  %c = onnx.Constant() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %r = onnx.Range(%a, %b, %c) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3xi64>
  %i = onnx.Constant() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %f = onnx.Cast(%i) {to = 1 : i64} : (tensor<2xi64>) -> tensor<2xf32>
  %s = onnx.Constant() {value = dense<2> : tensor<2xi64>} : () -> tensor<2xi64>
  %k = onnx.ConstantOfShape(%s) {value = dense<7> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<2x2xi32>
  %m = onnx.Constant() {value = dense<[-1, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %z = onnx.Constant() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %lt = onnx.Less(%m, %z) : (tensor<2xi64>, tensor<i64>) -> tensor<2xi1>
  %w = onnx.Where(%lt, %b, %m) : (tensor<2xi1>, tensor<i64>, tensor<2xi64>) -> tensor<2xi64>
  return %r, %f, %k, %w : tensor<3xi64>, tensor<2xf32>, tensor<2x2xi32>, tensor<2xi64>
}

// -----

// What the spec leaves to run time is not folded: integer division of
// negative numbers, float to int of non-integral values.
// CHECK-LABEL: func.func @not_folded
// CHECK: onnx.Div
// CHECK: onnx.Cast
func.func @not_folded() -> (tensor<1xi64>, tensor<1xi32>) {
  %a = onnx.Constant() {value = dense<-7> : tensor<1xi64>} : () -> tensor<1xi64>
  %b = onnx.Constant() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %d = onnx.Div(%a, %b) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %f = onnx.Constant() {value = dense<2.5> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = onnx.Cast(%f) {to = 6 : i64} : (tensor<1xf32>) -> tensor<1xi32>
  return %d, %c : tensor<1xi64>, tensor<1xi32>
}

// -----

// Mod: integers take the divisor's sign (fmod = 0) or the dividend's
// (fmod = 1, and floats); a zero divisor is left to run time. Swin's window
// pad, (win - h % win) % win, is this shape arithmetic.
// CHECK-LABEL: func.func @mod
// CHECK-DAG: onnx.Constant() {value = dense<[1, -1, 1, -1, 0]> : tensor<5xi64>}
// CHECK-DAG: onnx.Constant() {value = dense<[1, 1, -1, -1, 0]> : tensor<5xi64>}
// CHECK-DAG: onnx.Constant() {value = dense<[1.500000e+00, -1.500000e+00]> : tensor<2xf32>}
// CHECK: onnx.Mod
// CHECK-NOT: onnx.Mod
func.func @mod() -> (tensor<5xi64>, tensor<5xi64>, tensor<2xf32>, tensor<1xi64>) {
  %a = onnx.Constant() {value = dense<[7, 7, -7, -7, 6]> : tensor<5xi64>} : () -> tensor<5xi64>
  %b = onnx.Constant() {value = dense<[3, -2, 2, -3, 3]> : tensor<5xi64>} : () -> tensor<5xi64>
  %m = onnx.Mod(%a, %b) : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi64>
  %b2 = onnx.Constant() {value = dense<[3, -2, 2, -3, -1]> : tensor<5xi64>} : () -> tensor<5xi64>
  %f = onnx.Mod(%a, %b2) {fmod = 1 : i64} : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi64>
  %x = onnx.Constant() {value = dense<[5.5, -5.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %y = onnx.Constant() {value = dense<2.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %g = onnx.Mod(%x, %y) {fmod = 1 : i64} : (tensor<2xf32>, tensor<1xf32>) -> tensor<2xf32>
  %z = onnx.Constant() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %s = onnx.Constant() {value = dense<5> : tensor<1xi64>} : () -> tensor<1xi64>
  %n = onnx.Mod(%s, %z) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  return %m, %f, %g, %n : tensor<5xi64>, tensor<5xi64>, tensor<2xf32>, tensor<1xi64>
}

// -----

// The inference pass folds as it goes: the Reshape gets a static type.
// INFER-LABEL: func.func @dynamic_result
// INFER: onnx.Reshape(%arg0, %{{.*}}) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
// INFER: return %{{.*}} : tensor<6x4xf32>
func.func @dynamic_result(%x: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %s = onnx.Shape(%x) {start = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<*xi64>
  %m = onnx.Constant() {value = dense<[3, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %p = onnx.Mul(%s, %m) : (tensor<*xi64>, tensor<2xi64>) -> tensor<*xi64>
  %sh = onnx.Constant() {value = dense<[2, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %q = onnx.Mul(%p, %sh) : (tensor<*xi64>, tensor<2xi64>) -> tensor<*xi64>
  %half = onnx.Constant() {value = dense<[3, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %t = onnx.Div(%q, %half) : (tensor<*xi64>, tensor<2xi64>) -> tensor<*xi64>
  %r = onnx.Reshape(%x, %t) : (tensor<2x3x4xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// An If whose condition is known is the branch it takes (the other branch is
// not inferred: it may not fit the inputs); Split of a constant folds into
// pieces.
// INFER-LABEL: func.func @known_branch
// INFER-NOT: onnx.If
// INFER-DAG: onnx.Constant() {value = dense<2> : tensor<1xi64>}
// INFER-DAG: onnx.Constant() {value = dense<12> : tensor<1xi64>}
// INFER: onnx.Reshape(%arg0, %{{.*}}) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
// INFER: return %{{.*}} : tensor<2x12xf32>
func.func @known_branch(%x: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %s = onnx.Shape(%x) : (tensor<2x3x4xf32>) -> tensor<*xi64>
  %n = onnx.Size(%s) : (tensor<*xi64>) -> tensor<*xi64>
  %three = onnx.Constant() {value = dense<3> : tensor<i64>} : () -> tensor<i64>
  %c = onnx.Equal(%n, %three) : (tensor<*xi64>, tensor<i64>) -> tensor<*xi1>
  %r = onnx.If(%c) : (tensor<*xi1>) -> tensor<*xf32> else_branch {
    %q = onnx.Identity(%x) : (tensor<2x3x4xf32>) -> tensor<*xf32>
    onnx.yield %q : tensor<*xf32>
  } then_branch {
    %p:3 = onnx.Split(%s) {num_outputs = 3 : i64} : (tensor<*xi64>) -> (tensor<*xi64>, tensor<*xi64>, tensor<*xi64>)
    %m = onnx.Mul(%p#1, %p#2) : (tensor<*xi64>, tensor<*xi64>) -> tensor<*xi64>
    %shape = onnx.Concat(%p#0, %m) {axis = 0 : i64} : (tensor<*xi64>, tensor<*xi64>) -> tensor<*xi64>
    %y = onnx.Reshape(%x, %shape) : (tensor<2x3x4xf32>, tensor<*xi64>) -> tensor<*xf32>
    onnx.yield %y : tensor<*xf32>
  }
  return %r : tensor<*xf32>
}

// -----

// Gather of a Shape picks static dims even where other dims are dynamic
// (torch.onnx.export writes x.squeeze(1) as If(Shape(x)[1] == 1)): the If
// becomes its then branch.
// INFER-LABEL: func.func @gather_of_shape
// INFER-NOT: onnx.If
// INFER: %[[S:.*]] = onnx.Squeeze
// INFER: return %[[S]] : tensor<?x?xf32>
func.func @gather_of_shape(%x: tensor<?x1x?xf32>) -> tensor<*xf32> {
  %s = onnx.Shape(%x) : (tensor<?x1x?xf32>) -> tensor<*xi64>
  %one = onnx.Constant() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %d = onnx.Gather(%s, %one) {axis = 0 : i64} : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %c = onnx.Equal(%d, %one) : (tensor<*xi64>, tensor<i64>) -> tensor<*xi1>
  %r = onnx.If(%c) : (tensor<*xi1>) -> tensor<*xf32> else_branch {
    onnx.yield %x : tensor<?x1x?xf32>
  } then_branch {
    %axes = onnx.Constant() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
    %q = onnx.Squeeze(%x, %axes) : (tensor<?x1x?xf32>, tensor<1xi64>) -> tensor<*xf32>
    onnx.yield %q : tensor<*xf32>
  }
  return %r : tensor<*xf32>
}
