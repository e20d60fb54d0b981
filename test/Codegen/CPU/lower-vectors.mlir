// RUN: onnx-opt %s --onnx-cpu-lower-vectors=target-cpu=skylake-avx512 | FileCheck %s
// RUN: onnx-opt %s --onnx-cpu-lower-vectors="target-cpu=skylake-avx512 num-threads=2" | FileCheck %s --check-prefix=THREADS
// RUN: onnx-opt %s --onnx-cpu-lower-vectors=target-cpu=znver4 | FileCheck %s --check-prefix=VNNI

// A 16x16 register tile on buffers: the contraction becomes one broadcast
// and one FMA per row of the accumulator, the 2-D transfers become 1-D
// transfers (never a stack temporary).
// CHECK-LABEL: func.func @tile
// CHECK-NOT: vector.contract
// CHECK-NOT: memref.alloca
// CHECK-COUNT-16: vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT: vector.fma
// CHECK-COUNT-16: vector.transfer_write {{.*}} : vector<16xf32>, memref<16x16xf32>
func.func @tile(%a: memref<16x1xf32>, %b: memref<16x1xf32>, %c: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %f0 = arith.constant 0.0 : f32
  %va = vector.transfer_read %a[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<16x1xf32>, vector<16x1xf32>
  %vb = vector.transfer_read %b[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<16x1xf32>, vector<16x1xf32>
  %vc = vector.transfer_read %c[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %vc : vector<16x1xf32>, vector<16x1xf32> into vector<16x16xf32>
  vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
  return
}

// A copy of a small static tile (left by bufferization) becomes vector code.
// CHECK-LABEL: func.func @copy
// CHECK-NOT: memref.copy
// CHECK-COUNT-4: vector.transfer_read {{.*}} vector<16xf32>
// CHECK-COUNT-4: vector.transfer_write {{.*}} : vector<16xf32>
func.func @copy(%a: memref<4x16xf32, strided<[64, 1], offset: ?>>, %b: memref<4x16xf32, strided<[32, 1], offset: ?>>) {
  memref.copy %a, %b : memref<4x16xf32, strided<[64, 1], offset: ?>> to memref<4x16xf32, strided<[32, 1], offset: ?>>
  return
}

// A copy of bytes (a quantized image into its padded buffer) is vector code
// too, one row vector each.
// CHECK-LABEL: func.func @byte_rows
// CHECK-NOT: memref.copy
// CHECK-COUNT-56: vector.transfer_read {{.*}} vector<56xi8>
// CHECK-NOT: memref.copy
// CHECK: return
func.func @byte_rows(%a: memref<1x1x56x56xi8, strided<[200704, 3136, 56, 1], offset: ?>>, %b: memref<1x1x56x56xi8, strided<[215296, 3364, 58, 1], offset: ?>>) {
  memref.copy %a, %b : memref<1x1x56x56xi8, strided<[200704, 3136, 56, 1], offset: ?>> to memref<1x1x56x56xi8, strided<[215296, 3364, 58, 1], offset: ?>>
  return
}

// A read along a stride-2 dim (a depthwise convolution's or a pool's
// window) is one masked load of the 31 elements it spans (32 lanes, the last
// masked off) and a shuffle keeping the even ones; a larger stride is one
// gather from the flat buffer. Never a loop inserting lane by lane.
// CHECK-LABEL: func.func @strided_read
// CHECK: %[[M:.*]] = memref.extract_strided_metadata %arg0
// CHECK: %[[F:.*]] = memref.reinterpret_cast
// CHECK-SAME: to offset: [0], sizes: [%{{.*}}], strides: [1]
// CHECK: %[[MASK:.*]] = vector.constant_mask [31] : vector<32xi1>
// CHECK: %[[L:.*]] = vector.maskedload %[[F]][%{{.*}}], %[[MASK]], %{{.*}} : memref<?xf32>, vector<32xi1>, vector<32xf32> into vector<32xf32>
// CHECK: vector.shuffle %[[L]], %[[L]] [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30] : vector<32xf32>, vector<32xf32>
// CHECK-NOT: scf.for
// CHECK-LABEL: func.func @strided_read_5
// CHECK: vector.gather %{{.*}}[%{{.*}}] [%{{.*}}], %{{.*}}, %{{.*}} : memref<?xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK-NOT: scf.for
func.func @strided_read(%a: memref<4x16xf32, strided<[230, 2], offset: ?>>, %i: index, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %f0 = arith.constant 0.0 : f32
  %v = vector.transfer_read %a[%i, %c0], %f0 {in_bounds = [true]} : memref<4x16xf32, strided<[230, 2], offset: ?>>, vector<16xf32>
  vector.transfer_write %v, %out[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  return
}
func.func @strided_read_5(%a: memref<4x16xf32, strided<[230, 5], offset: ?>>, %i: index, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %f0 = arith.constant 0.0 : f32
  %v = vector.transfer_read %a[%i, %c0], %f0 {in_bounds = [true]} : memref<4x16xf32, strided<[230, 5], offset: ?>>, vector<16xf32>
  vector.transfer_write %v, %out[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
  return
}

// A copy of strided rows (im2col's stride-2 window) is a sequential scalar
// loop (its vector would be assembled element by element; as a linalg.copy
// it would become an OpenMP region per row).
// CHECK-LABEL: func.func @strided_rows
// CHECK-NOT: vector.
// CHECK-NOT: memref.copy
// CHECK: scf.for
// CHECK: memref.load
// CHECK: memref.store
func.func @strided_rows(%a: memref<112xf32, strided<[2], offset: ?>>, %b: memref<112xf32, strided<[1], offset: ?>>) {
  memref.copy %a, %b : memref<112xf32, strided<[2], offset: ?>> to memref<112xf32, strided<[1], offset: ?>>
  return
}

// A copy of many rows (a source into its padded buffer) is a loop over its
// rows, each row vector code; a large contiguous copy stays memref.copy.
// CHECK-LABEL: func.func @rows
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: memref.subview
// CHECK: memref.subview
// CHECK: vector.load {{.*}} vector<4xf32>
// CHECK: vector.store {{.*}} : memref<4xf32, {{.*}}>, vector<4xf32>
// CHECK-NEXT: }
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<1024x8xf32> to memref<1024x8xf32>
func.func @rows(%a: memref<1024x4xf32, strided<[196, 1], offset: ?>>, %b: memref<1024x4xf32, strided<[208, 1], offset: ?>>, %c: memref<1024x8xf32>, %d: memref<1024x8xf32>) {
  memref.copy %a, %b : memref<1024x4xf32, strided<[196, 1], offset: ?>> to memref<1024x4xf32, strided<[208, 1], offset: ?>>
  memref.copy %c, %d : memref<1024x8xf32> to memref<1024x8xf32>
  return
}

// A 16x16 transpose in registers: shuffles, no scalar extracts.
// CHECK-LABEL: func.func @transpose
// CHECK-NOT: vector.transpose
// CHECK: vector.shuffle
func.func @transpose(%a: memref<16x16xf32>, %b: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %f0 = arith.constant 0.0 : f32
  %v = vector.transfer_read %a[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<16x16xf32>, vector<16x16xf32>
  %t = vector.transpose %v, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
  vector.transfer_write %t, %b[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf32>, memref<16x16xf32>
  return
}

// A loop-carried register tile (an n-D vector, here started from zeros) is
// carried as its 1-D rows, one iter_arg each: LLVM keeps a phi of an array
// of vectors whole when it starts from a constant, and its register
// allocator then spills accumulators of the hot loop.
// CHECK-LABEL: func.func @carried_tile
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK: %[[ROWS:.*]]:2 = scf.for {{.*}} iter_args(%[[R0:.*]] = %[[ZERO]], %[[R1:.*]] = %[[ZERO]]) -> (vector<16xf32>, vector<16xf32>)
// CHECK-DAG: vector.fma %{{.*}}, %{{.*}}, %[[R0]] : vector<16xf32>
// CHECK-DAG: vector.fma %{{.*}}, %{{.*}}, %[[R1]] : vector<16xf32>
// CHECK: scf.yield %{{.*}}, %{{.*}} : vector<16xf32>, vector<16xf32>
// CHECK: vector.transfer_write %[[ROWS]]#0
// CHECK: vector.transfer_write %[[ROWS]]#1
func.func @carried_tile(%a: memref<64x2x1xf32>, %b: memref<64x16x1xf32>, %c: memref<2x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %f0 = arith.constant 0.0 : f32
  %zero = arith.constant dense<0.0> : vector<1x2x16xf32>
  %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (vector<1x2x16xf32>) {
    %va = vector.transfer_read %a[%k, %c0, %c0], %f0 {in_bounds = [true, true]} : memref<64x2x1xf32>, vector<2x1xf32>
    %vb = vector.transfer_read %b[%k, %c0, %c0], %f0 {in_bounds = [true, true]} : memref<64x16x1xf32>, vector<16x1xf32>
    %tile = vector.extract %acc[0] : vector<2x16xf32> from vector<1x2x16xf32>
    %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %tile : vector<2x1xf32>, vector<16x1xf32> into vector<2x16xf32>
    %next = vector.broadcast %r : vector<2x16xf32> to vector<1x2x16xf32>
    scf.yield %next : vector<1x2x16xf32>
  }
  %out = vector.extract %sum[0] : vector<2x16xf32> from vector<1x2x16xf32>
  vector.transfer_write %out, %c[%c0, %c0] {in_bounds = [true, true]} : vector<2x16xf32>, memref<2x16xf32>
  return
}

// A direct convolution's step: the 6 weights of a 6x16 register tile, read
// as one vector, become one scalar load each, broadcast into its row's FMA
// (a broadcast from memory), not lanes extracted from a loaded vector.
// CHECK-LABEL: func.func @outerproduct_rows
// CHECK-NOT: vector.transfer_read %arg0
// CHECK-NOT: vector.extract
// CHECK: %[[W0:.*]] = memref.load %arg0
// CHECK-NEXT: %[[B0:.*]] = vector.broadcast %[[W0]] : f32 to vector<16xf32>
// CHECK-NEXT: vector.fma %[[B0]], {{.*}} : vector<16xf32>
// CHECK: %[[W1:.*]] = memref.load %arg0
// CHECK-NEXT: %[[B1:.*]] = vector.broadcast %[[W1]] : f32 to vector<16xf32>
// CHECK-NEXT: vector.fma %[[B1]], {{.*}} : vector<16xf32>
// CHECK: %[[W2:.*]] = memref.load %arg0
// CHECK-NEXT: %[[B2:.*]] = vector.broadcast %[[W2]] : f32 to vector<16xf32>
// CHECK-NEXT: vector.fma %[[B2]], {{.*}} : vector<16xf32>
// CHECK: %[[W3:.*]] = memref.load %arg0
// CHECK-NEXT: %[[B3:.*]] = vector.broadcast %[[W3]] : f32 to vector<16xf32>
// CHECK-NEXT: vector.fma %[[B3]], {{.*}} : vector<16xf32>
// CHECK: %[[W4:.*]] = memref.load %arg0
// CHECK-NEXT: %[[B4:.*]] = vector.broadcast %[[W4]] : f32 to vector<16xf32>
// CHECK-NEXT: vector.fma %[[B4]], {{.*}} : vector<16xf32>
// CHECK: %[[W5:.*]] = memref.load %arg0
// CHECK-NEXT: %[[B5:.*]] = vector.broadcast %[[W5]] : f32 to vector<16xf32>
// CHECK-NEXT: vector.fma %[[B5]], {{.*}} : vector<16xf32>
// CHECK-NOT: vector.extract
func.func @outerproduct_rows(%w: memref<6xf32, strided<[1], offset: ?>>, %x: memref<16xf32, strided<[1], offset: ?>>, %c: memref<6x16xf32>) {
  %c0 = arith.constant 0 : index
  %f0 = arith.constant 0.0 : f32
  %vw = vector.transfer_read %w[%c0], %f0 {in_bounds = [true]} : memref<6xf32, strided<[1], offset: ?>>, vector<6xf32>
  %vx = vector.transfer_read %x[%c0], %f0 {in_bounds = [true]} : memref<16xf32, strided<[1], offset: ?>>, vector<16xf32>
  %vc = vector.transfer_read %c[%c0, %c0], %f0 {in_bounds = [true, true]} : memref<6x16xf32>, vector<6x16xf32>
  %r = vector.outerproduct %vw, %vx, %vc {kind = #vector.kind<add>} : vector<6xf32>, vector<16xf32>
  vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<6x16xf32>, memref<6x16xf32>
  return
}

// With two threads, a large copy outside parallel loops (an image into its
// zero-padded buffer: 64 x 56 x 56) is an scf.forall over its leading dims
// up to the first of at least two (1 x 64, the unit dim folded away), each
// step copying one 56x56 plane as vectors; inside a parallel loop it stays
// a loop over rows.
// THREADS-LABEL: func.func @parallel_copy
// THREADS: scf.forall (%[[C:.*]]) in (64)
// THREADS: memref.subview %arg0[0, %[[C]], 0, 0] [1, 1, 56, 56]
// THREADS: vector.transfer_write
// THREADS-NOT: memref.copy
// THREADS-LABEL: func.func @copy_in_forall
// THREADS: scf.forall (%{{.*}}) in (2)
// THREADS-NOT: scf.forall
// THREADS: scf.for
// With one thread, the copy stays a loop over rows.
// CHECK-LABEL: func.func @parallel_copy
// CHECK-NOT: scf.forall
// CHECK: scf.for
// CHECK-LABEL: func.func @copy_in_forall
func.func @parallel_copy(%a: memref<1x64x56x56xf32>, %b: memref<1x64x58x58xf32>) {
  %v = memref.subview %b[0, 0, 1, 1] [1, 64, 56, 56] [1, 1, 1, 1] : memref<1x64x58x58xf32> to memref<1x64x56x56xf32, strided<[215296, 3364, 58, 1], offset: 59>>
  memref.copy %a, %v : memref<1x64x56x56xf32> to memref<1x64x56x56xf32, strided<[215296, 3364, 58, 1], offset: 59>>
  return
}
func.func @copy_in_forall(%a: memref<2x64x56x56xf32>, %b: memref<2x64x58x58xf32>) {
  scf.forall (%i) in (2) {
    %s = memref.subview %a[%i, 0, 0, 0] [1, 64, 56, 56] [1, 1, 1, 1] : memref<2x64x56x56xf32> to memref<1x64x56x56xf32, strided<[200704, 3136, 56, 1], offset: ?>>
    %v = memref.subview %b[%i, 0, 1, 1] [1, 64, 56, 56] [1, 1, 1, 1] : memref<2x64x58x58xf32> to memref<1x64x56x56xf32, strided<[215296, 3364, 58, 1], offset: ?>>
    memref.copy %s, %v : memref<1x64x56x56xf32, strided<[200704, 3136, 56, 1], offset: ?>> to memref<1x64x56x56xf32, strided<[215296, 3364, 58, 1], offset: ?>>
  }
  return
}

// A register tile of 8-bit quads (onnx-cpu-pack-matmul's quadProduct):
// signed rows times unsigned columns, each extended to i32; with AVX-512
// VNNI one vpdpbusd per row of the accumulator, the row's quad loaded as
// one 32-bit word and broadcast (the instruction's signed operand, the
// columns its unsigned one); without VNNI the contraction is lowered as any
// other.
// VNNI-LABEL: func.func @quads_tile
// VNNI-NOT: vector.contract
// VNNI-COUNT-16: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"({{.*}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// VNNI-NOT: llvm.call_intrinsic
// CHECK-LABEL: func.func @quads_tile
// CHECK-NOT: llvm.call_intrinsic
func.func @quads_tile(%a: memref<16x4xi8>, %b: memref<64xi8>, %c: memref<16x16xi32>) {
  %c0 = arith.constant 0 : index
  %z8 = arith.constant 0 : i8
  %z32 = arith.constant 0 : i32
  %va = vector.transfer_read %a[%c0, %c0], %z8 {in_bounds = [true, true]} : memref<16x4xi8>, vector<16x4xi8>
  %vb = vector.transfer_read %b[%c0], %z8 {in_bounds = [true]} : memref<64xi8>, vector<64xi8>
  %sb = vector.shape_cast %vb : vector<64xi8> to vector<16x4xi8>
  %vc = vector.transfer_read %c[%c0, %c0], %z32 {in_bounds = [true, true]} : memref<16x16xi32>, vector<16x16xi32>
  %ea = arith.extsi %va : vector<16x4xi8> to vector<16x4xi32>
  %eb = arith.extui %sb : vector<16x4xi8> to vector<16x4xi32>
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %ea, %eb, %vc : vector<16x4xi32>, vector<16x4xi32> into vector<16x16xi32>
  vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xi32>, memref<16x16xi32>
  return
}

// A quad tile of one row, four registers of columns wide: the unit row
// dim is gone ([4] x [64, 4] into [64]); one vpdpbusd per register, the
// row's quad broadcast.
// VNNI-LABEL: func.func @quads_one_row
// VNNI-NOT: vector.contract
// VNNI-COUNT-4: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"({{.*}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// VNNI-NOT: llvm.call_intrinsic
// CHECK-LABEL: func.func @quads_one_row
// CHECK-NOT: llvm.call_intrinsic
func.func @quads_one_row(%a: vector<4xi8>, %b: vector<64x4xi8>, %c: vector<64xi32>) -> vector<64xi32> {
  %ea = arith.extsi %a : vector<4xi8> to vector<4xi32>
  %eb = arith.extui %b : vector<64x4xi8> to vector<64x4xi32>
  %r = vector.contract {indexing_maps = [affine_map<(n, k) -> (k)>, affine_map<(n, k) -> (n, k)>, affine_map<(n, k) -> (n)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %ea, %eb, %c : vector<4xi32>, vector<64x4xi32> into vector<64xi32>
  return %r : vector<64xi32>
}

// A register tile of 16-bit pairs (onnx-cpu-pack-matmul's product of 8-bit
// values less their zero points): with AVX-512 VNNI one vpdpwssd per row of
// the accumulator, the row's pair loaded as one 32-bit word and broadcast;
// without VNNI the contraction is lowered as any other.
// VNNI-LABEL: func.func @pairs_tile
// VNNI-NOT: vector.contract
// VNNI-COUNT-16: llvm.call_intrinsic "llvm.x86.avx512.vpdpwssd.512"({{.*}}) : (vector<16xi32>, vector<32xi16>, vector<32xi16>) -> vector<16xi32>
// VNNI-NOT: llvm.call_intrinsic
// CHECK-LABEL: func.func @pairs_tile
// CHECK-NOT: llvm.call_intrinsic
func.func @pairs_tile(%a: memref<16x2xi16>, %b: memref<16x2xi16>, %c: memref<16x16xi32>) {
  %c0 = arith.constant 0 : index
  %z16 = arith.constant 0 : i16
  %z32 = arith.constant 0 : i32
  %va = vector.transfer_read %a[%c0, %c0], %z16 {in_bounds = [true, true]} : memref<16x2xi16>, vector<16x2xi16>
  %vb = vector.transfer_read %b[%c0, %c0], %z16 {in_bounds = [true, true]} : memref<16x2xi16>, vector<16x2xi16>
  %vc = vector.transfer_read %c[%c0, %c0], %z32 {in_bounds = [true, true]} : memref<16x16xi32>, vector<16x16xi32>
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %vc : vector<16x2xi16>, vector<16x2xi16> into vector<16x16xi32>
  vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xi32>, memref<16x16xi32>
  return
}
