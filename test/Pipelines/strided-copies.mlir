// RUN: onnx-opt %s --onnx-strided-copies-to-linalg | FileCheck %s

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
