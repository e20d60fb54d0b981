// RUN: onnx-opt %s --onnx-inline-alloca-scopes | FileCheck %s

// A scope without allocas is inlined; one with allocas keeps its stack
// bounded with a save/restore around the inlined body.
// CHECK-LABEL: func.func @scopes
// CHECK-NOT: memref.alloca_scope
// CHECK: memref.store
// CHECK: %[[S:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK: %[[A:.*]] = memref.alloca() : memref<4xf32>
// CHECK: %[[V:.*]] = memref.load %[[A]]
// CHECK: llvm.intr.stackrestore %[[S]] : !llvm.ptr
// CHECK: return %[[V]] : f32
func.func @scopes(%m: memref<4xf32>, %v: f32, %i: index) -> f32 {
  memref.alloca_scope {
    memref.store %v, %m[%i] : memref<4xf32>
  }
  %r = memref.alloca_scope -> f32 {
    %a = memref.alloca() : memref<4xf32>
    memref.store %v, %a[%i] : memref<4xf32>
    %x = memref.load %a[%i] : memref<4xf32>
    memref.alloca_scope.return %x : f32
  }
  return %r : f32
}
