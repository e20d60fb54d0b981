// onnx-check-buffer-sizes: an alloc whose size may pass 2^62 bytes is
// preceded by a cf.assert (lib/Pipelines/CheckBufferSizes.cpp).
// RUN: onnx-opt %s --onnx-check-buffer-sizes | FileCheck %s

// A static shape that needs 2^64 bytes: an assert that always fails, with the
// node's name from the location.
// CHECK-LABEL: func.func @static_overflow
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: cf.assert %[[FALSE]], "node 'e': cannot allocate a buffer of shape [2147483648, 2147483648] and f32 elements: it needs more than 2^62 bytes"
// CHECK-NEXT: memref.alloc()
func.func @static_overflow() -> memref<2147483648x2147483648xf32> {
  %a = memref.alloc() : memref<2147483648x2147483648xf32> loc("e")
  return %a : memref<2147483648x2147483648xf32>
}

// Past the limit without wrapping (2^63 - 8 bytes): the same.
// CHECK-LABEL: func.func @static_too_large
// CHECK: cf.assert %{{.*}}, "cannot allocate a buffer of shape [1152921504606846975] and f64 elements: it needs more than 2^62 bytes"
func.func @static_too_large() -> memref<1152921504606846975xf64> {
  %a = memref.alloc() : memref<1152921504606846975xf64>
  return %a : memref<1152921504606846975xf64>
}

// A static shape under the limit: nothing.
// CHECK-LABEL: func.func @static_small
// CHECK-NOT: cf.assert
// CHECK: memref.alloc
func.func @static_small() -> memref<4x1024xi64> {
  %a = memref.alloc() : memref<4x1024xi64>
  return %a : memref<4x1024xi64>
}

// A static dim of 0 after dims whose product alone would overflow: an
// empty buffer, nothing.
// CHECK-LABEL: func.func @static_empty
// CHECK-NOT: cf.assert
// CHECK: memref.alloc
func.func @static_empty() -> memref<1099511627776x1099511627776x0xf32> {
  %a = memref.alloc() : memref<1099511627776x1099511627776x0xf32>
  return %a : memref<1099511627776x1099511627776x0xf32>
}

// Dynamic dims: each multiplication tested, a dim of 0 passing.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: %[[D0:[^:]*]]: index, %[[D1:[^:]*]]: index
// CHECK-DAG: %[[LIMIT:.*]] = arith.constant 4611686018427387904 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C12:.*]] = arith.constant 12 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[S0:.*]] = arith.maxui %[[C12]], %[[C1]]
// CHECK: %[[R0:.*]] = arith.divui %[[LIMIT]], %[[S0]]
// CHECK: %[[OK0:.*]] = arith.cmpi ule, %[[D0]], %[[R0]]
// CHECK: %[[Z0:.*]] = arith.cmpi eq, %[[D0]], %[[C0]]
// CHECK: %[[B0:.*]] = arith.muli %[[C12]], %[[D0]]
// CHECK: %[[S1:.*]] = arith.maxui %[[B0]], %[[C1]]
// CHECK: %[[R1:.*]] = arith.divui %[[LIMIT]], %[[S1]]
// CHECK: %[[OK1:.*]] = arith.cmpi ule, %[[D1]], %[[R1]]
// CHECK: %[[BOTH:.*]] = arith.andi %[[OK0]], %[[OK1]]
// CHECK: %[[Z1:.*]] = arith.cmpi eq, %[[D1]], %[[C0]]
// CHECK: %[[ZERO:.*]] = arith.ori %[[Z0]], %[[Z1]]
// CHECK: %[[OK:.*]] = arith.ori %[[BOTH]], %[[ZERO]]
// CHECK: cf.assert %[[OK]], "node 'g': cannot allocate a buffer of shape [?, 3, ?] and f32 elements: it would need more than 2^62 bytes"
// CHECK-NEXT: memref.alloc(%[[D0]], %[[D1]])
func.func @dynamic(%d0: index, %d1: index) -> memref<?x3x?xf32> {
  %a = memref.alloc(%d0, %d1) : memref<?x3x?xf32> loc("g")
  return %a : memref<?x3x?xf32>
}

// In a parallel loop: left alone.
// CHECK-LABEL: func.func @in_parallel_loop
// CHECK-NOT: cf.assert
func.func @in_parallel_loop(%n: index) {
  scf.forall (%i) in (%n) {
    %a = memref.alloc(%i) : memref<?xf32>
    memref.dealloc %a : memref<?xf32>
  }
  return
}
