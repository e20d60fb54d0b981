// RUN: onnx-opt %s --onnx-outline-kernels="min-ops=4" | FileCheck %s
// The kernels stay functions in LLVM IR: internal and noinline (a
// func.func's own `no_inline` would not survive func-to-llvm, and LLVM's
// inliner would put a kernel called once back into its caller).
// RUN: onnx-opt %s --onnx-outline-kernels="min-ops=4" --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts \
// RUN:   | onnx-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM
// LLVM: define internal void @model_k0_add_1({{.*}}) #[[ATTRS:[0-9]+]]
// LLVM: attributes #[[ATTRS]] = { noinline }

// A loop nest on buffers becomes a function of its own, called in its
// place: the buffers it uses from above are its arguments; the constants
// and the weight (memref.get_global) are cloned into it. The node of its
// location names it.
// CHECK-LABEL: func.func @model(
// CHECK-SAME: %[[X:.*]]: memref<4x8xf32>, %[[Y:.*]]: memref<4x8xf32>
// CHECK: %[[T:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT: call @model_k0_add_1(%[[X]], %[[T]]) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
// A loop that yields a value, and a loop too small, stay.
// CHECK-NEXT: %[[S:.*]] = scf.for
// CHECK: scf.for
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: call @model_k1(%[[T]], %[[S]], %[[Y]])
// CHECK-NEXT: memref.dealloc %[[T]]
// CHECK-NEXT: return

// CHECK: func.func private @model_k0_add_1(%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<4x8xf32>)
// CHECK-SAME: llvm.linkage = #llvm.linkage<internal>
// CHECK-SAME: passthrough = ["noinline"]
// CHECK-DAG: %[[W:.*]] = memref.get_global @weight : memref<4x8xf32>
// CHECK-DAG: arith.constant 0 : index
// CHECK-DAG: arith.constant 4 : index
// CHECK: scf.for
// CHECK: memref.load %[[A]]
// CHECK: memref.load %[[W]]
// CHECK: memref.store %{{.*}}, %[[B]]
// CHECK: return

// CHECK: func.func private @model_k1(%{{.*}}: memref<4x8xf32>, %{{.*}}: f32, %{{.*}}: memref<4x8xf32>)
memref.global "private" constant @weight : memref<4x8xf32> = dense<1.0>

func.func @model(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @weight : memref<4x8xf32>
  %t = memref.alloc() : memref<4x8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %x[%i, %j] : memref<4x8xf32>
      %b = memref.load %w[%i, %j] : memref<4x8xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %t[%i, %j] : memref<4x8xf32>
    }
  } loc("add_1")
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f32 {
    %a = memref.load %x[%i, %c0] : memref<4x8xf32>
    %s = arith.addf %acc, %a : f32
    scf.yield %s : f32
  }
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %zero, %y[%i, %c0] : memref<4x8xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %t[%i, %j] : memref<4x8xf32>
      %s = arith.mulf %a, %sum : f32
      memref.store %s, %y[%i, %j] : memref<4x8xf32>
    }
  }
  memref.dealloc %t : memref<4x8xf32>
  return
}
