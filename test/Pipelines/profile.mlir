// RUN: onnx-opt %s --split-input-file --onnx-profile-kernels | FileCheck %s
// RUN: onnx-opt %s --split-input-file --onnx-profile-record-nodes | FileCheck %s --check-prefix=NODES

// Consecutive ops of one node are one kernel, with the ops that name no
// node (compiler glue) joining the kernel before them, or the first one;
// allocation and deallocation are not timed; each kernel lists its nodes and
// their op types.
// CHECK-LABEL: module attributes
// CHECK-SAME: onnx.profile_kernels = {{\[\[}}"conv", "Conv"], ["relu", "Relu"], ["a,b", "Add+Mul"]]
// CHECK: func.func private @onnxd_prof_begin() -> i64
// CHECK: func.func private @onnxd_prof_end(i64, i64)
// CHECK-LABEL: func.func @f
// CHECK-NEXT: arith.constant 0.0
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: %[[T0:.*]] = call @onnxd_prof_begin()
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: memref.copy
// CHECK-NEXT: %[[K0:.*]] = arith.constant 0 : i64
// CHECK-NEXT: call @onnxd_prof_end(%[[K0]], %[[T0]])
// CHECK-NEXT: %[[T1:.*]] = call @onnxd_prof_begin()
// CHECK-NEXT: memref.copy
// CHECK-NEXT: %[[K1:.*]] = arith.constant 1 : i64
// CHECK-NEXT: call @onnxd_prof_end(%[[K1]], %[[T1]])
// CHECK-NEXT: %[[T2:.*]] = call @onnxd_prof_begin()
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: memref.copy
// CHECK-NEXT: %[[K2:.*]] = arith.constant 2 : i64
// CHECK-NEXT: call @onnxd_prof_end(%[[K2]], %[[T2]])
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: return
module attributes {onnx.entry = @f,
    onnx.node_types = {conv = "Conv", relu = "Relu", a = "Add", b = "Mul"}} {
  func.func @f(%x: memref<4xf32>, %y: memref<4xf32>) {
    %cst = arith.constant 0.0 : f32
    %m = memref.alloc() : memref<4xf32> loc("conv")
    linalg.fill ins(%cst : f32) outs(%m : memref<4xf32>)
    linalg.fill ins(%cst : f32) outs(%m : memref<4xf32>) loc("conv")
    memref.copy %x, %m : memref<4xf32> to memref<4xf32> loc("conv")
    memref.copy %m, %y : memref<4xf32> to memref<4xf32> loc("relu")
    linalg.fill ins(%cst : f32) outs(%m : memref<4xf32>) loc(fused["a", "b"])
    memref.copy %m, %y : memref<4xf32> to memref<4xf32>
    memref.dealloc %m : memref<4xf32>
    return
  }
}

// -----

// Code that names no node at all is one kernel of its own.
// CHECK: onnx.profile_kernels = {{\[\[}}"(unnamed)", "(compiler)"]]
// CHECK-LABEL: func.func @h
// CHECK-NEXT: call @onnxd_prof_begin()
// CHECK-NEXT: memref.copy
// CHECK-NEXT: arith.constant 0 : i64
// CHECK-NEXT: call @onnxd_prof_end
func.func @h(%x: memref<4xf32>, %y: memref<4xf32>) {
  memref.copy %x, %y : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Nodes by name, or by their first output when they have none.
// NODES: onnx.node_types = {n1 = "Relu", t = "Add"}
func.func @g(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = onnx.Add(%x, %x) {onnx.outputs = ["t"]} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = onnx.Relu(%0) {onnx.name = "n1", onnx.outputs = ["y"]} : (tensor<3xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

// -----

// Nothing to time: the module still says it was compiled with probes (an
// empty list), so that a profile of it is empty rather than refused.
// CHECK: onnx.profile_kernels = []
// CHECK-LABEL: func.func @nothing
// CHECK-NOT: onnxd_prof
func.func @nothing(%x: memref<4xf32>) -> memref<4xf32> {
  return %x : memref<4xf32>
}
