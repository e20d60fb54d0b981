// RUN: onnx-opt %s --onnx-infer-shapes --split-input-file | FileCheck %s

// A Scan whose body declares its arguments without shapes: the state takes
// the initial value's type (the body gives the same type back), the scan
// input slice drops the scan axis.
// CHECK-LABEL: func.func @scan_state
// CHECK: ^bb0(%{{.*}}: tensor<2x3xf32>, %{{.*}}: tensor<3xf32>):
// CHECK: onnx.Add{{.*}} -> tensor<2x3xf32>
// CHECK: return %{{.*}} : tensor<2x3xf32>, tensor<4x2x3xf32>
func.func @scan_state(%init: tensor<2x3xf32>, %xs: tensor<4x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0:2 = onnx.Scan(%init, %xs) {num_scan_inputs = 1 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) body {
  ^bb0(%s: tensor<*xf32>, %x: tensor<*xf32>):
    %1 = onnx.Add(%s, %x) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    onnx.yield %1, %1 : tensor<*xf32>, tensor<*xf32>
  }
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// A carried value that grows each iteration: seeding it with the initial
// type would be wrong; the join of the initial and the next type is.
// CHECK-LABEL: func.func @loop_grows
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: tensor<?xf32>):
// CHECK: onnx.Concat{{.*}} -> tensor<?xf32>
// CHECK: return %{{.*}} : tensor<?xf32>
func.func @loop_grows(%m: tensor<i64>, %c: tensor<i1>, %v: tensor<1xf32>) -> tensor<*xf32> {
  %0 = onnx.Loop(%m, %c, %v) : (tensor<i64>, tensor<i1>, tensor<1xf32>) -> tensor<*xf32> body {
  ^bb0(%i: tensor<*xi64>, %cond: tensor<*xi1>, %acc: tensor<*xf32>):
    %1 = onnx.Concat(%acc, %acc) {axis = 0 : i64} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    onnx.yield %cond, %1 : tensor<*xi1>, tensor<*xf32>
  }
  return %0 : tensor<*xf32>
}

// -----

// A carried value whose declared type the body contradicts: the export's
// trace saw an empty list and declared dim 0 as 0, and the body appends to
// it (Mask R-CNN's masks). The declared type is a hint, as in ONNX Runtime:
// the argument takes the join of it and what the body yields.
// CHECK-LABEL: func.func @loop_declared_empty
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: tensor<?x3xf32>):
// CHECK: onnx.Concat{{.*}} -> tensor<?x3xf32>
// CHECK: return %{{.*}} : tensor<?x3xf32>
func.func @loop_declared_empty(%m: tensor<i64>, %c: tensor<i1>, %v: tensor<0x3xf32>, %row: tensor<1x3xf32>) -> tensor<*xf32> {
  %0 = onnx.Loop(%m, %c, %v) : (tensor<i64>, tensor<i1>, tensor<0x3xf32>) -> tensor<*xf32> body {
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %acc: tensor<0x3xf32>):
    %1 = onnx.Concat(%acc, %row) {axis = 0 : i64} : (tensor<0x3xf32>, tensor<1x3xf32>) -> tensor<*xf32>
    onnx.yield %cond, %1 : tensor<i1>, tensor<*xf32>
  }
  return %0 : tensor<*xf32>
}
