// RUN: onnx-opt %s --onnx-expand-shapes-to-reinterpret-casts | FileCheck %s

// Two dynamic sizes in one group (rows of a matmul over [B, T, K] expanded
// back to [B, T]): a reinterpret_cast of the source's base buffer, strides
// from the source's; a group with one dynamic size stays an expand_shape.
// CHECK-LABEL: func.func @two_dynamic
// CHECK-SAME: (%[[SRC:.*]]: memref<?x30xf32>, %[[B:.*]]: index, %[[T:.*]]: index)
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[SRC]]
// CHECK: %[[S0:.*]] = arith.muli %[[STRIDES]]#0, %[[T]]
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%[[B]], %[[T]], 30], strides: [%[[S0]], 30, 1] : memref<f32> to memref<?x?x30xf32>
// CHECK-NOT: memref.expand_shape
func.func @two_dynamic(%src: memref<?x30xf32>, %b: index, %t: index) -> memref<?x?x30xf32> {
  %0 = memref.expand_shape %src [[0, 1], [2]] output_shape [%b, %t, 30] : memref<?x30xf32> into memref<?x?x30xf32>
  return %0 : memref<?x?x30xf32>
}

// CHECK-LABEL: func.func @one_dynamic
// CHECK: memref.expand_shape
// CHECK-NOT: memref.reinterpret_cast
func.func @one_dynamic(%src: memref<?x30xf32>, %b: index) -> memref<?x5x30xf32> {
  %0 = memref.expand_shape %src [[0, 1], [2]] output_shape [%b, 5, 30] : memref<?x30xf32> into memref<?x5x30xf32>
  return %0 : memref<?x5x30xf32>
}
