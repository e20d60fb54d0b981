// RUN: onnx-opt %s --onnx-plan-memory --split-input-file | FileCheck %s
// What the plan adds lowers to the LLVM dialect; the flag is swapped atomically.
// RUN: onnx-opt %s --onnx-plan-memory --split-input-file --convert-scf-to-cf \
// RUN:   --convert-linalg-to-loops --convert-scf-to-cf --finalize-memref-to-llvm \
// RUN:   --convert-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM
// LLVM: llvm.mlir.global private @model_arena() {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<192 x i8>
// LLVM: llvm.atomicrmw xchg

// Three buffers: %b (128 bytes) is live while %a (64) and then %c (64)
// are; %a dies (its last use is the op that reads it) before %c is
// allocated, so %c reuses %a's place. The returned buffer keeps its alloc.
// The arena is a global taken through a busy flag on entry (a concurrent
// run allocates its own) and given back before the return.
// CHECK: memref.global "private" @model_arena : memref<192xi8> = uninitialized {alignment = 64 : i64}
// CHECK: memref.global "private" @model_arena_busy : memref<1xi32> = dense<0>
// CHECK-LABEL: func.func @model(
// CHECK: %[[BUSY:.*]] = memref.get_global @model_arena_busy
// CHECK: %[[WAS:.*]] = memref.atomic_rmw assign %{{.*}}, %[[BUSY]]
// CHECK: %[[FREE:.*]] = arith.cmpi eq, %[[WAS]]
// CHECK: %[[ARENA:.*]] = scf.if %[[FREE]] -> (memref<192xi8>) {
// CHECK:   memref.get_global @model_arena
// CHECK: } else {
// CHECK:   memref.alloc() {alignment = 64 : i64} : memref<192xi8>
// CHECK: }
// CHECK: %[[A:.*]] = memref.view %[[ARENA]][%c128{{.*}}][] : memref<192xi8> to memref<16xf32>
// CHECK: %[[B:.*]] = memref.view %[[ARENA]][%c0{{.*}}][] : memref<192xi8> to memref<32xf32>
// CHECK: %[[C:.*]] = memref.view %[[ARENA]][%c128{{.*}}][] : memref<192xi8> to memref<16xf32>
// CHECK: %[[R:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NOT: memref.dealloc
// CHECK: scf.if %[[FREE]] {
// CHECK:   memref.atomic_rmw assign %{{.*}}, %[[BUSY]]
// CHECK: } else {
// CHECK:   memref.dealloc %[[ARENA]] : memref<192xi8>
// CHECK: }
// CHECK-NEXT: return %[[R]]
func.func @model(%x: memref<16xf32>) -> memref<16xf32> {
  %a = memref.alloc() : memref<16xf32>
  linalg.copy ins(%x : memref<16xf32>) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<32xf32>
  %lo = memref.subview %b[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
  %hi = memref.subview %b[16] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1], offset: 16>>
  linalg.copy ins(%a : memref<16xf32>) outs(%lo : memref<16xf32, strided<[1]>>)
  linalg.copy ins(%x : memref<16xf32>) outs(%hi : memref<16xf32, strided<[1], offset: 16>>)
  %c = memref.alloc() : memref<16xf32>
  // %b is read through its view: it lives up to here.
  linalg.add ins(%lo, %hi : memref<16xf32, strided<[1]>>, memref<16xf32, strided<[1], offset: 16>>)
             outs(%c : memref<16xf32>)
  %r = memref.alloc() : memref<16xf32>
  linalg.copy ins(%c : memref<16xf32>) outs(%r : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<32xf32>
  memref.dealloc %c : memref<16xf32>
  return %r : memref<16xf32>
}

// -----

// A use inside a loop counts at the loop, and a buffer a loop yields lives
// as long as the loop's result: %t (used only in the first loop) and %u
// (allocated after it) share a place; %v, carried through the second
// loop's iteration and read after it, overlaps %u.
// CHECK-LABEL: memref.global "private" @loops_arena : memref<128xi8>
// CHECK-LABEL: func.func @loops(
// CHECK: %[[T:.*]] = memref.view %{{.*}}[%c0{{.*}}][] : memref<128xi8> to memref<8xf32>
// CHECK: scf.for
// CHECK: %[[U:.*]] = memref.view %{{.*}}[%c0{{.*}}][] : memref<128xi8> to memref<8xf32>
// CHECK: %[[V:.*]] = memref.view %{{.*}}[%c64{{.*}}][] : memref<128xi8> to memref<8xf32>
func.func @loops(%x: memref<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %e = memref.load %x[%i] : memref<8xf32>
    memref.store %e, %t[%i] : memref<8xf32>
  }
  %u = memref.alloc() : memref<8xf32>
  %v = memref.alloc() : memref<8xf32>
  %w = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %v) -> memref<8xf32> {
    %e = memref.load %x[%i] : memref<8xf32>
    memref.store %e, %u[%i] : memref<8xf32>
    memref.store %e, %acc[%i] : memref<8xf32>
    scf.yield %acc : memref<8xf32>
  }
  linalg.copy ins(%w : memref<8xf32>) outs(%out : memref<8xf32>)
  memref.dealloc %t : memref<8xf32>
  memref.dealloc %u : memref<8xf32>
  memref.dealloc %v : memref<8xf32>
  return
}

// -----

// Left to the allocator: a dynamic shape, a buffer a call may keep, one
// whose pointer is taken, one freed only on one path. Nothing is planned,
// so no arena.
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @kept(
// CHECK-NOT: memref.view
// CHECK-COUNT-4: memref.alloc
// CHECK-NOT: memref.view
func.func private @keep(memref<4xf32>)
func.func @kept(%n: index, %flag: i1) -> index {
  %d = memref.alloc(%n) : memref<?xf32>
  %c = memref.alloc() : memref<4xf32>
  func.call @keep(%c) : (memref<4xf32>) -> ()
  %p = memref.alloc() : memref<4xf32>
  %ptr = memref.extract_aligned_pointer_as_index %p : memref<4xf32> -> index
  %q = memref.alloc() : memref<4xf32>
  scf.if %flag {
    memref.dealloc %q : memref<4xf32>
  }
  memref.dealloc %d : memref<?xf32>
  memref.dealloc %c : memref<4xf32>
  memref.dealloc %p : memref<4xf32>
  return %ptr : index
}

// -----

// An element takes its size rounded up to its alignment, as LLVM lays
// memrefs out: ten i48 are 80 bytes (not 60), so %b goes at 128.
// CHECK-LABEL: memref.global "private" @odd_elements_arena : memref<192xi8>
// CHECK: memref.view %{{.*}}[%c0{{.*}}][] : memref<192xi8> to memref<10xi48>
// CHECK: memref.view %{{.*}}[%c128{{.*}}][] : memref<192xi8> to memref<4xf32>
func.func @odd_elements(%x: memref<10xi48>, %y: memref<4xf32>) {
  %a = memref.alloc() : memref<10xi48>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<10xi48> to memref<10xi48>
  memref.copy %y, %b : memref<4xf32> to memref<4xf32>
  memref.copy %a, %x : memref<10xi48> to memref<10xi48>
  memref.copy %b, %y : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<10xi48>
  memref.dealloc %b : memref<4xf32>
  return
}
