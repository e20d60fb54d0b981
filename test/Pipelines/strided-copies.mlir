// RUN: onnx-opt %s --onnx-strided-copies-to-linalg | FileCheck %s

// A copy into a strided subview becomes linalg.copy (loops later, no call of
// the runner library's memrefCopy); identity-layout copies stay memref.copy.
// CHECK-LABEL: func.func @copies
// CHECK: %[[V:.*]] = memref.subview
// CHECK: linalg.copy ins(%arg0 : memref<2x2xf32>) outs(%[[V]] : memref<2x2xf32, strided<[4, 1], offset: 1>>)
// CHECK: memref.copy %arg0, %arg2 : memref<2x2xf32> to memref<2x2xf32>
func.func @copies(%a: memref<2x2xf32>, %b: memref<4x4xf32>, %c: memref<2x2xf32>) {
  %v = memref.subview %b[0, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 1>>
  memref.copy %a, %v : memref<2x2xf32> to memref<2x2xf32, strided<[4, 1], offset: 1>>
  memref.copy %a, %c : memref<2x2xf32> to memref<2x2xf32>
  return
}
