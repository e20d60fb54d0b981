// RUN: onnx-opt %s --onnx-strided-copies-to-linalg | FileCheck %s
// RUN: onnx-opt %s --onnx-strided-copies-to-linalg --finalize-memref-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// A copy into a strided view becomes linalg.copy (loops later, no call of
// memrefCopy); a copy between contiguous buffers stays a memref.copy.
// CHECK-LABEL: func.func @copies
// CHECK: %[[V:.*]] = memref.subview
// CHECK: linalg.copy ins(%arg0 : memref<2x3xf32>) outs(%[[V]] : memref<2x3xf32, strided<[5, 1], offset: 6>>)
// CHECK: memref.copy %arg0, %arg2 : memref<2x3xf32> to memref<2x3xf32>
func.func @copies(%a: memref<2x3xf32>, %b: memref<4x5xf32>, %c: memref<2x3xf32>) {
  %v = memref.subview %b[1, 1] [2, 3] [1, 1] : memref<4x5xf32> to memref<2x3xf32, strided<[5, 1], offset: 6>>
  memref.copy %a, %v : memref<2x3xf32> to memref<2x3xf32, strided<[5, 1], offset: 6>>
  memref.copy %a, %c : memref<2x3xf32> to memref<2x3xf32>
  return
}

// A row of a larger buffer, contiguous at a static or dynamic offset, stays
// a memref.copy: finalize-memref-to-llvm makes it an llvm.memcpy as it
// does for identity layouts (no memrefCopy call, no loop).
// CHECK-LABEL: func.func @row_copies
// CHECK-NOT: linalg.copy
// CHECK-COUNT-2: memref.copy
// CHECK-NOT: linalg.copy
// LLVM-LABEL: llvm.func @row_copies
// LLVM-NOT: memrefCopy
// LLVM-COUNT-2: "llvm.intr.memcpy"
// LLVM-NOT: memrefCopy
func.func @row_copies(%a: memref<1x300xf32>, %b: memref<4x300xf32>, %i: index) {
  %r = memref.subview %b[1, 0] [1, 300] [1, 1] : memref<4x300xf32> to memref<1x300xf32, strided<[300, 1], offset: 300>>
  memref.copy %a, %r : memref<1x300xf32> to memref<1x300xf32, strided<[300, 1], offset: 300>>
  %d = memref.subview %b[%i, 0] [1, 300] [1, 1] : memref<4x300xf32> to memref<1x300xf32, strided<[300, 1], offset: ?>>
  memref.copy %a, %d : memref<1x300xf32> to memref<1x300xf32, strided<[300, 1], offset: ?>>
  return
}
