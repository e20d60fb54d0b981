// RUN: onnx-opt %s --onnx-cpu-tile-and-vectorize=target-cpu=skylake-avx512 --canonicalize --cse | FileCheck %s
// RUN: onnx-opt %s --onnx-cpu-tile-and-vectorize="target-cpu=skylake-avx512 num-threads=2" --canonicalize --cse | FileCheck %s --check-prefix=THREADS
// RUN: onnx-opt %s --onnx-cpu-tile-and-vectorize=target-cpu=haswell --canonicalize --cse | FileCheck %s --check-prefix=AVX2

// The packed matmul: blocks of columns, one 16x16 register tile per step,
// the k loop innermost with its accumulator carried in registers (read
// before the loop, written after it), the product a vector.contract. (One
// k block: see @mmt4d_long for more.)
// CHECK-LABEL: func.func @mmt4d
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[ACC:.*]] = vector.transfer_read {{.*}} vector<16x16xf32>
// CHECK: %[[LOOP:.*]] = scf.for {{.*}} iter_args({{.*}}) -> (vector<1x1x16x16xf32>)
// CHECK: vector.transfer_read {{.*}} vector<16x1xf32>
// CHECK: vector.transfer_read {{.*}} vector<16x1xf32>
// CHECK: vector.contract {{.*}} vector<16x1xf32>, vector<16x1xf32> into vector<16x16xf32>
// CHECK: scf.yield
// CHECK: vector.transfer_write {{.*}} vector<16x16xf32>
// THREADS-LABEL: func.func @mmt4d
// THREADS: scf.forall (%{{.*}}) in (2)
// THREADS: vector.contract
func.func @mmt4d(%a: tensor<8x64x16x1xf32>, %b: tensor<8x64x16x1xf32>, %c: tensor<8x8x16x16xf32>) -> tensor<8x8x16x16xf32> {
  %r = linalg.mmt4d ins(%a, %b : tensor<8x64x16x1xf32>, tensor<8x64x16x1xf32>) outs(%c : tensor<8x8x16x16xf32>) -> tensor<8x8x16x16xf32>
  return %r : tensor<8x8x16x16xf32>
}

// A reduction longer than one k block (512 = 2 x 256): each block's
// register tile is summed from zero and then added to its accumulator, not
// carried through the whole reduction (float32 error grows with the length
// of one sum).
// CHECK-LABEL: func.func @mmt4d_long
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<1x1x16x16xf32>
// CHECK: scf.for {{.*}} step %c256
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (vector<1x1x16x16xf32>)
// CHECK: vector.contract
// CHECK: %[[ACC:.*]] = vector.transfer_read {{.*}} vector<16x16xf32>
// CHECK: %[[BLOCK:.*]] = vector.extract %[[SUM]][0, 0]
// CHECK: %[[NEW:.*]] = arith.addf %[[ACC]], %[[BLOCK]] : vector<16x16xf32>
// CHECK: vector.transfer_write %[[NEW]]
func.func @mmt4d_long(%a: tensor<2x512x16x1xf32>, %b: tensor<2x512x16x1xf32>, %c: tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32> {
  %r = linalg.mmt4d ins(%a, %b : tensor<2x512x16x1xf32>, tensor<2x512x16x1xf32>) outs(%c : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  return %r : tensor<2x2x16x16xf32>
}

// An elementwise op on 1000 elements: 15 tiles of 64 lanes and a tail of
// 40 of its own (no masks); exp through a polynomial, no libm call.
// CHECK-LABEL: func.func @exp
// CHECK-NOT: math.exp
// CHECK: scf.for {{.*}} = %c0 to %c960 step %c64
// CHECK: vector.transfer_read {{.*}} vector<64xf32>
// CHECK: math.fma
// CHECK: vector.transfer_read {{.*}} vector<40xf32>
// CHECK-NOT: math.exp
// THREADS-LABEL: func.func @exp
func.func @exp(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %e = tensor.empty() : tensor<1000xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<1000xf32>) outs(%e : tensor<1000xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<1000xf32>
  return %r : tensor<1000xf32>
}

// A per-channel bias on [1, 64, 56, 56]: the unit dim dropped and the two
// spatial dims merged, so that the vector loop runs over 3136 elements. With
// threads, the 64 channels are split between them.
// CHECK-LABEL: func.func @bias
// CHECK: tensor.collapse_shape %arg0 {{\[}}[0, 1], [2, 3]] : tensor<1x64x56x56xf32> into tensor<64x3136xf32>
// CHECK: vector.transfer_read {{.*}} vector<64xf32>
// CHECK: vector.broadcast
// CHECK: arith.addf {{.*}} : vector<64xf32>
// THREADS-LABEL: func.func @bias
// THREADS: scf.forall
// THREADS: arith.addf {{.*}} : vector<64xf32>
func.func @bias(%x: tensor<1x64x56x56xf32>, %b: tensor<64xf32>) -> tensor<1x64x56x56xf32> {
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %b : tensor<1x64x56x56xf32>, tensor<64xf32>) outs(%e : tensor<1x64x56x56xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %0 = arith.addf %in, %bias : f32
    linalg.yield %0 : f32
  } -> tensor<1x64x56x56xf32>
  return %r : tensor<1x64x56x56xf32>
}

// A transpose is vectorized in 16x16 tiles: the transposition happens in
// registers.
// CHECK-LABEL: func.func @transpose
// CHECK: vector.transfer_read {{.*}} : tensor<{{.*}}>, vector<16x16xf32>
// CHECK: vector.transpose
func.func @transpose(%x: tensor<32x48xf32>) -> tensor<48x32xf32> {
  %e = tensor.empty() : tensor<48x32xf32>
  %r = linalg.transpose ins(%x : tensor<32x48xf32>) outs(%e : tensor<48x32xf32>) permutation = [1, 0]
  return %r : tensor<48x32xf32>
}

// Left as they are: gathers (tensor.extract), bool tensors (bit-packed as
// vectors, byte-per-element in memory), a dynamic innermost dim.
// CHECK-LABEL: func.func @left_alone
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NOT: vector.
func.func @left_alone(%x: tensor<8xf32>, %i: tensor<8xi1>, %d: tensor<?xf32>) -> (tensor<8xf32>, tensor<8xi1>, tensor<?xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<8xf32>) {
  ^bb0(%out: f32):
    %i0 = linalg.index 0 : index
    %c7 = arith.constant 7 : index
    %j = arith.subi %c7, %i0 : index
    %v = tensor.extract %x[%j] : tensor<8xf32>
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %eb = tensor.empty() : tensor<8xi1>
  %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%i : tensor<8xi1>) outs(%eb : tensor<8xi1>) {
  ^bb0(%in: i1, %out: i1):
    %t = arith.constant true
    %0 = arith.xori %in, %t : i1
    linalg.yield %0 : i1
  } -> tensor<8xi1>
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %d, %c0 : tensor<?xf32>
  %ed = tensor.empty(%dim) : tensor<?xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%d : tensor<?xf32>) outs(%ed : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %in : f32
    linalg.yield %0 : f32
  } -> tensor<?xf32>
  return %g, %n, %a : tensor<8xf32>, tensor<8xi1>, tensor<?xf32>
}

// A dynamic batch: one loop iteration per batch element (an scf.forall with
// threads), around the static schedule: an elementwise op and a reduction
// along the innermost dim, both vectorized (the reduction a row at a time,
// in chunks of a vector).
// CHECK-LABEL: func.func @dynamic_batch
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK-NOT: math.exp {{.*}} : f32
// CHECK: scf.for %{{.*}} = %c0 to %[[N]] step %c1
// CHECK: vector.transfer_write {{.*}} : vector<64xf32>, tensor<1x64xf32>
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c16 iter_args(%{{.*}} = %{{.*}}) -> (vector<1x1x16xf32>)
// CHECK: vector.multi_reduction <add>, {{.*}} [2] : vector<1x1x16xf32> to vector<1x1xf32>
// THREADS-LABEL: func.func @dynamic_batch
// THREADS: scf.forall (%{{.*}}) in (%{{.*}})
// THREADS: vector.transfer_write {{.*}} : vector<64xf32>, tensor<1x64xf32>
// THREADS: scf.forall (%{{.*}}) in (%{{.*}})
// THREADS: vector.multi_reduction <add>
func.func @dynamic_batch(%x: tensor<?x4x64xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4x64xf32>
  %e = tensor.empty(%n) : tensor<?x4x64xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<?x4x64xf32>) outs(%e : tensor<?x4x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<?x4x64xf32>
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty(%n) : tensor<?x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%er : tensor<?x4xf32>) -> tensor<?x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%exp : tensor<?x4x64xf32>) outs(%acc : tensor<?x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<?x4xf32>
  return %sum : tensor<?x4xf32>
}

// A packed product with its epilogue (a per-row bias and Relu over the
// product viewed as [1, 32, 8, 8], as a convolution's): with a short
// reduction (K = 64), one loop nest over the 16x16 tiles of the output,
// each computing its product from a zero accumulator in registers, then the
// epilogue on the registers, then one store into the output. No unpacking
// pass and no accumulator buffer are left.
// CHECK-LABEL: func.func @product_epilogue
// CHECK-NOT: linalg.unpack
// CHECK: scf.for {{.*}} to %c32 step %c16
// CHECK: scf.for {{.*}} to %c64 step %c16
// CHECK: %[[K:.*]] = scf.for {{.*}} to %c64 step %c1 iter_args(%{{.*}} = %cst{{.*}}) -> (vector<1x1x16x16xf32>)
// CHECK: vector.contract
// CHECK: %[[ACC:.*]] = vector.extract %[[K]][0, 0]
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], {{.*}} : vector<16x16xf32>
// CHECK: %[[RELU:.*]] = arith.maximumf %[[SUM]], {{.*}} : vector<16x16xf32>
// CHECK: vector.transfer_write %[[RELU]], {{.*}} : vector<16x16xf32>, tensor<16x16xf32>
// CHECK-NOT: linalg.unpack
// With threads, the 64 columns (more than the 32 rows) are split, so that
// each thread reads half of the right operand.
// THREADS-LABEL: func.func @product_epilogue
// THREADS: scf.forall ({{.*}}) = (0) to (64) step (32)
// THREADS: vector.contract
// THREADS: arith.maximumf {{.*}} : vector<16x16xf32>
func.func @product_epilogue(%a: tensor<2x64x16x1xf32>, %b: tensor<4x64x16x1xf32>, %bias: tensor<32xf32>) -> tensor<1x32x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x16x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %p = linalg.mmt4d ins(%a, %b : tensor<2x64x16x1xf32>, tensor<4x64x16x1xf32>) outs(%fill : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %u0 = tensor.empty() : tensor<32x64xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %u0 : tensor<2x4x16x16xf32> -> tensor<32x64xf32>
  %x = tensor.expand_shape %u [[0, 1], [2, 3]] output_shape [1, 32, 8, 8] : tensor<32x64xf32> into tensor<1x32x8x8xf32>
  %y0 = tensor.empty() : tensor<1x32x8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %bias : tensor<1x32x8x8xf32>, tensor<32xf32>) outs(%y0 : tensor<1x32x8x8xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %s = arith.addf %in, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x32x8x8xf32>
  return %y : tensor<1x32x8x8xf32>
}

// One row of register tiles over four columns of them: with threads, the
// columns are split (two each), as the rows cannot be.
// THREADS-LABEL: func.func @product_epilogue_column_threads
// THREADS: scf.forall (%[[J:.*]]) = (0) to (64) step (32)
// THREADS: scf.for {{.*}} = %c0 to %c32 step %c16
// THREADS: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[0, %[[J]]] [16, 32] [1, 1]
func.func @product_epilogue_column_threads(%a: tensor<1x64x16x1xf32>, %b: tensor<4x64x16x1xf32>, %bias: tensor<16xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x16x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %p = linalg.mmt4d ins(%a, %b : tensor<1x64x16x1xf32>, tensor<4x64x16x1xf32>) outs(%fill : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %u0 = tensor.empty() : tensor<16x64xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %u0 : tensor<1x4x16x16xf32> -> tensor<16x64xf32>
  %y0 = tensor.empty() : tensor<16x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%u, %bias : tensor<16x64xf32>, tensor<16xf32>) outs(%y0 : tensor<16x64xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %s = arith.addf %in, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// Three rows and three columns of register tiles: neither divides by two
// threads, so the first two rows go over the threads, then the last row's
// first two columns, and its last tile runs on one thread.
// THREADS-LABEL: func.func @product_epilogue_uneven_threads
// THREADS: %[[ROWS:.*]] = scf.forall (%[[I:.*]]) = (0) to (32) step (16)
// THREADS: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[I]], 0] [16, 48] [1, 1]
// THREADS: tensor.insert_slice %[[ROWS]] into %{{.*}}[0, 0] [32, 48] [1, 1]
// THREADS: %[[COLS:.*]] = scf.forall (%[[J:.*]]) = (0) to (32) step (16)
// THREADS: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[0, %[[J]]] [16, 16] [1, 1]
// THREADS: tensor.insert_slice %[[COLS]] into %{{.*}}[0, 0] [16, 32] [1, 1]
// THREADS-NOT: scf.forall
// THREADS: vector.contract
// THREADS: tensor.insert_slice %{{.*}} into %{{.*}}[0, 32] [16, 16] [1, 1]
// THREADS: tensor.insert_slice %{{.*}} into %{{.*}}[32, 0] [16, 48] [1, 1]
func.func @product_epilogue_uneven_threads(%a: tensor<3x64x16x1xf32>, %b: tensor<3x64x16x1xf32>, %bias: tensor<48xf32>) -> tensor<48x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x3x16x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<3x3x16x16xf32>) -> tensor<3x3x16x16xf32>
  %p = linalg.mmt4d ins(%a, %b : tensor<3x64x16x1xf32>, tensor<3x64x16x1xf32>) outs(%fill : tensor<3x3x16x16xf32>) -> tensor<3x3x16x16xf32>
  %u0 = tensor.empty() : tensor<48x48xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %u0 : tensor<3x3x16x16xf32> -> tensor<48x48xf32>
  %y0 = tensor.empty() : tensor<48x48xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%u, %bias : tensor<48x48xf32>, tensor<48xf32>) outs(%y0 : tensor<48x48xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %s = arith.addf %in, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<48x48xf32>
  return %y : tensor<48x48xf32>
}

// The same product whose right operand is packed at run time ([K, N] =
// [64, 64] -> [4, 64, 16, 1], a 1x1 convolution's image) with few rows of
// tiles: no packing pass; each tile's slice of the packed operand is its
// 16 columns of the image reshaped, which the product reads in place.
// CHECK-LABEL: func.func @product_epilogue_packed_rhs
// CHECK-NOT: linalg.pack
// CHECK-NOT: linalg.transpose
// CHECK: scf.for {{.*}} to %c64 step %c16
// CHECK: %[[COLS:.*]] = tensor.extract_slice %arg1[0, %{{.*}}] [64, 16] [1, 1] : tensor<64x64xf32> to tensor<64x16xf32>
// CHECK: tensor.expand_shape %[[COLS]] {{\[\[}}0, 1], [2, 3]] output_shape [1, 64, 16, 1]
// CHECK: vector.contract
// CHECK: arith.maximumf {{.*}} : vector<16x16xf32>
// CHECK-NOT: linalg.pack
func.func @product_epilogue_packed_rhs(%a: tensor<2x64x16x1xf32>, %x: tensor<64x64xf32>, %bias: tensor<32xf32>) -> tensor<1x32x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<4x64x16x1xf32>
  %b = linalg.pack %x outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] into %pe : tensor<64x64xf32> -> tensor<4x64x16x1xf32>
  %e = tensor.empty() : tensor<2x4x16x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %p = linalg.mmt4d ins(%a, %b : tensor<2x64x16x1xf32>, tensor<4x64x16x1xf32>) outs(%fill : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %u0 = tensor.empty() : tensor<32x64xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %u0 : tensor<2x4x16x16xf32> -> tensor<32x64xf32>
  %xo = tensor.expand_shape %u [[0, 1], [2, 3]] output_shape [1, 32, 8, 8] : tensor<32x64xf32> into tensor<1x32x8x8xf32>
  %y0 = tensor.empty() : tensor<1x32x8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%xo, %bias : tensor<1x32x8x8xf32>, tensor<32xf32>) outs(%y0 : tensor<1x32x8x8xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %s = arith.addf %in, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x32x8x8xf32>
  return %y : tensor<1x32x8x8xf32>
}

// Five rows of tiles: with AVX-512's 16-row tiles the product still reads
// the image's columns in place; with AVX2 (whose products have 6-row tiles,
// so that each column is read three times as often) more than four rows
// pack the operand in a pass first.
// CHECK-LABEL: func.func @product_packed_rhs_many_rows
// CHECK-NOT: output_shape [64, 4, 16]
// CHECK: scf.for {{.*}} to %c80 step %c16
// CHECK: scf.for {{.*}} to %c64 step %c16
// CHECK: %[[COLS:.*]] = tensor.extract_slice %arg1[0, %{{.*}}] [64, 16] [1, 1] : tensor<64x64xf32> to tensor<64x16xf32>
// CHECK: tensor.expand_shape %[[COLS]] {{\[\[}}0, 1], [2, 3]] output_shape [1, 64, 16, 1]
// CHECK: vector.contract
// AVX2-LABEL: func.func @product_packed_rhs_many_rows
// AVX2: tensor.expand_shape %arg1 {{\[\[}}0], [1, 2]] output_shape [64, 4, 16]
// AVX2: tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] output_shape [4, 64, 16, 1]
// AVX2: vector.contract
func.func @product_packed_rhs_many_rows(%a: tensor<5x64x16x1xf32>, %x: tensor<64x64xf32>) -> tensor<80x64xf32> {
  %zero = arith.constant 0.0 : f32
  %pe = tensor.empty() : tensor<4x64x16x1xf32>
  %b = linalg.pack %x outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] into %pe : tensor<64x64xf32> -> tensor<4x64x16x1xf32>
  %e = tensor.empty() : tensor<5x4x16x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<5x4x16x16xf32>) -> tensor<5x4x16x16xf32>
  %p = linalg.mmt4d ins(%a, %b : tensor<5x64x16x1xf32>, tensor<4x64x16x1xf32>) outs(%fill : tensor<5x4x16x16xf32>) -> tensor<5x4x16x16xf32>
  %u0 = tensor.empty() : tensor<80x64xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %u0 : tensor<5x4x16x16xf32> -> tensor<80x64xf32>
  %y0 = tensor.empty() : tensor<80x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%u : tensor<80x64xf32>) outs(%y0 : tensor<80x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<80x64xf32>
  return %y : tensor<80x64xf32>
}

// A long reduction (K = 2048; with AVX-512 up to 1024 steps are computed
// in the epilogue's tiles) keeps the blocked schedule of the mmt4d (its k
// blocks of 256); the unpacking and a product without an elementwise
// consumer are one loop over the 16x16 tiles that copies each, and the 49
// columns are 3 whole tiles and a tail of one column.
// CHECK-LABEL: func.func @product_long_tail
// CHECK: %[[P:.*]] = scf.for {{.*}} to %c2048 step %c256
// CHECK: vector.contract
// CHECK-NOT: linalg.unpack
// CHECK: scf.for {{.*}} to %c48 step %c16
// CHECK: tensor.extract_slice %[[P]]{{.*}} [1, 1, 16, 16]
// CHECK: tensor.insert_slice {{.*}} [16, 16] [1, 1] : tensor<16x16xf32> into tensor<32x48xf32>
// CHECK: scf.for {{.*}} to %c32 step %c16
// CHECK: tensor.extract_slice %[[P]][{{.*}}, 3, 0, 0] [1, 1, 16, 16]
// CHECK: tensor.insert_slice {{.*}} [16, 1] [1, 1] : tensor<16x1xf32> into tensor<32x1xf32>
// With threads only the mmt4d's blocks are split: the unpacking copies
// (32 x 49 elements, a few operations each) stay on one thread.
// THREADS-LABEL: func.func @product_long_tail
// THREADS: scf.forall (
// THREADS: vector.contract
// THREADS-NOT: scf.forall (
// THREADS: return
func.func @product_long_tail(%a: tensor<2x2048x16x1xf32>, %b: tensor<4x2048x16x1xf32>) -> tensor<32x49xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x16x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %p = linalg.mmt4d ins(%a, %b : tensor<2x2048x16x1xf32>, tensor<4x2048x16x1xf32>) outs(%fill : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %u0 = tensor.empty() : tensor<32x49xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %u0 : tensor<2x4x16x16xf32> -> tensor<32x49xf32>
  return %u : tensor<32x49xf32>
}

// K = 512 with AVX-512's 16x16 tiles: the product is computed in the
// epilogue's tiles, its 512 steps in one loop carried in registers; with
// AVX2 it keeps the blocked schedule (k blocks of 256, then the unpacking).
// CHECK-LABEL: func.func @product_fused_512
// CHECK-NOT: step %c256
// CHECK: scf.for {{.*}} to %c32 step %c16
// CHECK: scf.for {{.*}} to %c48 step %c16
// CHECK: scf.for {{.*}} to %c512 step %c1 iter_args
// CHECK: vector.contract
// CHECK: arith.maximumf {{.*}} : vector<16x16xf32>
// AVX2-LABEL: func.func @product_fused_512
// AVX2: scf.for {{.*}} to %c512 step %c256
func.func @product_fused_512(%a: tensor<2x512x16x1xf32>, %b: tensor<4x512x16x1xf32>, %bias: tensor<32xf32>) -> tensor<32x49xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x16x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %p = linalg.mmt4d ins(%a, %b : tensor<2x512x16x1xf32>, tensor<4x512x16x1xf32>) outs(%fill : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %u0 = tensor.empty() : tensor<32x49xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %u0 : tensor<2x4x16x16xf32> -> tensor<32x49xf32>
  %y0 = tensor.empty() : tensor<32x49xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%u, %bias : tensor<32x49xf32>, tensor<32xf32>) outs(%y0 : tensor<32x49xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %s = arith.addf %in, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<32x49xf32>
  return %y : tensor<32x49xf32>
}

// A direct convolution (onnx-cpu-pack-matmul's): blocks of 8 position tiles
// and of 8 channels, then one 16x16 register tile per (filter tile, position
// tile) that sums its block of channels from zero in registers through the
// channel and kernel loops (one vector.outerproduct of 16 weights and 16
// consecutive image values per step), then is added to the accumulator, read
// and written once a block (a float32 sum in short blocks, as ONNX Runtime's).
// CHECK-LABEL: func.func @direct_conv
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c8
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK: %[[SUM:.*]] = scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(%{{.*}} = %cst) -> (vector<16x16xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK: vector.transfer_read {{.*}} : tensor<1x1x1x1x16xf32>, vector<16xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<1x16xf32>, vector<16xf32>
// CHECK: vector.outerproduct {{.*}} : vector<16xf32>, vector<16xf32>
// CHECK: %[[TILE:.*]] = vector.transfer_read {{.*}} : tensor<1x1x16x16xf32>, vector<16x16xf32>
// CHECK: %[[ADD:.*]] = arith.addf %[[TILE]], %[[SUM]] : vector<16x16xf32>
// CHECK: vector.transfer_write %[[ADD]], {{.*}} : vector<16x16xf32>, tensor<1x1x16x16xf32>
// With threads, the position tiles are split (the image is larger than
// the taps).
// THREADS-LABEL: func.func @direct_conv
// THREADS: scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}}) -> (tensor<2x64x16x16xf32>)
// THREADS: tensor.extract_slice %arg1[0, %{{.*}}] [16, 582]
// THREADS: vector.outerproduct
func.func @direct_conv(%a: tensor<2x16x3x3x16xf32>, %x: tensor<16x1100xf32>) -> tensor<2x64x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x64x16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64x16x16xf32>) -> tensor<2x64x16x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d2, d1 * 16 + d6 + d3 * 34 + d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d5, d6)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]} ins(%a, %x : tensor<2x16x3x3x16xf32>, tensor<16x1100xf32>) outs(%acc : tensor<2x64x16x16xf32>) attrs = {onnx.cpu.direct_conv} {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %0 = arith.mulf %in, %in_1 : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x64x16x16xf32>
  return %r : tensor<2x64x16x16xf32>
}

// With threads, a direct convolution whose filter taps are larger than its
// image (ResNet-50's 3x3 convolutions over 14x14: 2.4 MB of taps, a 0.3 MB
// image) is split by its filter tiles, so that each thread reads half of
// the taps; above, the image is the larger and the position tiles are
// split.
// THREADS-LABEL: func.func @direct_conv_split_filters
// THREADS: scf.forall (%[[T:.*]]) in (2) shared_outs(%[[ACC:.*]] = %{{.*}}) -> (tensor<8x4x16x16xf32>)
// THREADS: tensor.extract_slice %arg0[%{{.*}}, 0, 0, 0, 0] [4, 64, 3, 3, 16]
// THREADS: vector.outerproduct
// THREADS: tensor.parallel_insert_slice %{{.*}} into %[[ACC]][%{{.*}}, 0, 0, 0] [4, 4, 16, 16]
func.func @direct_conv_split_filters(%a: tensor<8x64x3x3x16xf32>, %x: tensor<64x120xf32>) -> tensor<8x4x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4x16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4x16x16xf32>) -> tensor<8x4x16x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d2, d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d2, d1 * 16 + d6 + d3 * 10 + d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d5, d6)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]} ins(%a, %x : tensor<8x64x3x3x16xf32>, tensor<64x120xf32>) outs(%acc : tensor<8x4x16x16xf32>) attrs = {onnx.cpu.direct_conv} {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %0 = arith.mulf %in, %in_1 : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<8x4x16x16xf32>
  return %r : tensor<8x4x16x16xf32>
}

// A direct convolution by rows: the register tile's 7 rows are positions of
// the image (read as a vector and broadcast), its 32 lanes filters.
// CHECK-LABEL: func.func @direct_conv_by_rows
// CHECK: vector.transfer_read {{.*}} : tensor<1x7xf32>, vector<7xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<1x1x1x1x32xf32>, vector<32xf32>
// CHECK: vector.outerproduct {{.*}} : vector<7xf32>, vector<32xf32>
func.func @direct_conv_by_rows(%a: tensor<1x8x3x3x32xf32>, %x: tensor<8x81xf32>) -> tensor<7x1x7x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x1x7x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<7x1x7x32xf32>) -> tensor<7x1x7x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d2, d3, d4, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d2, d0 * 9 + d5 + d3 * 9 + d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d5, d6)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]} ins(%a, %x : tensor<1x8x3x3x32xf32>, tensor<8x81xf32>) outs(%acc : tensor<7x1x7x32xf32>) attrs = {onnx.cpu.direct_conv} {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %0 = arith.mulf %in, %in_1 : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<7x1x7x32xf32>
  return %r : tensor<7x1x7x32xf32>
}

// A long row of one output element (a LayerNorm's sum of squares over 768):
// an scf.for over chunks of four vectors (64 lanes on AVX-512) that carries
// the partial sums in registers, reduced across the lanes once after it; not
// one vector<768xf32>, whose in-order reduction was an add per element.
// CHECK-LABEL: func.func @long_row
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c768 step %c64 iter_args(%{{.*}} = %{{.*}}) -> (vector<1x64xf32>)
// CHECK: vector.transfer_read {{.*}} : tensor<1x64xf32>, vector<64xf32>
// CHECK: arith.mulf {{.*}} : vector<64xf32>
// CHECK: arith.addf {{.*}} : vector<64xf32>
// CHECK: vector.multi_reduction <add>, {{.*}} [1] : vector<1x64xf32> to vector<1xf32>
// CHECK-NOT: vector<768xf32>
func.func @long_row(%x: tensor<8x768xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x768xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// A sum over two adjacent reduction loops (a GlobalAveragePool's H and W,
// with an activation fused in) as one loop of 49, vectorized a row at a
// time like any inner reduction.
// CHECK-LABEL: func.func @pool_sum
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2, 3]] : tensor<1x64x7x7xf32> into tensor<64x49xf32>
// CHECK: scf.for {{.*}} to %c64 step %c1
// CHECK: arith.maximumf {{.*}} : vector<49xf32>
// CHECK: vector.multi_reduction <add>, {{.*}} [1] : vector<1x49xf32> to vector<1xf32>
// CHECK-NOT: linalg.generic
func.func @pool_sum(%x: tensor<1x64x7x7xf32>) -> tensor<1x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x64x7x7xf32>) outs(%acc : tensor<1x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    %a = arith.addf %out, %r : f32
    linalg.yield %a : f32
  } -> tensor<1x64xf32>
  return %s : tensor<1x64xf32>
}

// By rows over a 28-column map (30 wide padded): each row in two segments of
// 14 positions, one 14 x 16 register tile each.
// CHECK-LABEL: func.func @direct_conv_rows_in_segments
// CHECK: scf.for {{.*}} to %c28 step %c14
// CHECK: vector.transfer_read {{.*}} : tensor<1x14xf32>, vector<14xf32>
// CHECK: vector.outerproduct {{.*}} : vector<14xf32>, vector<16xf32>
func.func @direct_conv_rows_in_segments(%a: tensor<2x8x3x3x16xf32>, %x: tensor<8x900xf32>) -> tensor<28x2x28x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<28x2x28x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<28x2x28x16xf32>) -> tensor<28x2x28x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d2, d3, d4, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d2, d0 * 30 + d5 + d3 * 30 + d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d5, d6)>], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]} ins(%a, %x : tensor<2x8x3x3x16xf32>, tensor<8x900xf32>) outs(%acc : tensor<28x2x28x16xf32>) attrs = {onnx.cpu.direct_conv} {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %0 = arith.mulf %in, %in_1 : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<28x2x28x16xf32>
  return %r : tensor<28x2x28x16xf32>
}

// A small constant read whole (a depthwise convolution's mask of a row's
// valid columns) is a vector constant, not a read of a buffer.
// CHECK-LABEL: func.func @constant_mask
// CHECK: %[[MASK:.*]] = arith.constant dense<[0, -1, {{.*}}, -1, 0]> : vector<56xi32>
// CHECK-NOT: vector.transfer_read %cst
// CHECK: scf.for
// CHECK: %[[ROW:.*]] = vector.transfer_read
// CHECK: arith.andi %[[ROW]], %[[MASK]] : vector<56xi32>
func.func @constant_mask(%x: tensor<64x56xi32>) -> tensor<64x56xi32> {
  %m = arith.constant dense<[0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0]> : tensor<56xi32>
  %e = tensor.empty() : tensor<64x56xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<64x56xi32>, tensor<56xi32>) outs(%e : tensor<64x56xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %r = arith.andi %a, %b : i32
    linalg.yield %r : i32
  } -> tensor<64x56xi32>
  return %y : tensor<64x56xi32>
}

// A pad by a constant: its border is filled slab by slab (the rows above
// and below over the whole width, then the columns beside the source's
// rows), each a slice of the result, and the source is inserted into the
// interior; no element is written twice. The empty tensor is named after
// the pad (CSE keeps two pads' apart); the insert of a source that is an
// argument stays as it is.
// CHECK-LABEL: func.func @pad_border
// CHECK: %[[E:.*]] = tensor.empty() {onnx.cpu.buffer_of = {{.*}}} : tensor<1x4x8x9xf32>
// CHECK: tensor.extract_slice %[[E]][0, 0, 0, 0] [1, 4, 1, 9]
// CHECK: vector.transfer_write
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 7, 0] [1, 4, 1, 9]
// CHECK: vector.transfer_write
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 1, 0] [1, 4, 6, 1]
// CHECK: vector.transfer_write
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 1, 7] [1, 4, 6, 2]
// CHECK: vector.transfer_write
// CHECK: %[[R:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 1] [1, 4, 6, 6]
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: tensor.pad
func.func @pad_border(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x8x9xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 2] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x9xf32>
  return %p : tensor<1x4x8x9xf32>
}

// An insert marked onnx.cpu.write_in_place: the op that computes the source
// (into an empty tensor, through a reshape) computes it into the slice of
// the destination instead, and the destination's definition (its empty
// tensor and the fill of its border rows) moves before that op.
// CHECK-LABEL: func.func @write_in_place
// CHECK: %[[BUF:.*]] = tensor.empty() {onnx.cpu.buffer_of = "dw"} : tensor<1x6x10x8xf32>
// CHECK: %[[FILLED:.*]] = tensor.insert_slice %{{.*}} into %[[BUF]][0, 0, 0, 0] [1, 6, 2, 8]
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[FILLED]][0, 0, 2, 0] [1, 6, 8, 8] [1, 1, 1, 1]
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[SLICE]] {{\[\[}}0, 1], [2, 3]] : tensor<1x6x8x8xf32> into tensor<6x64xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ROWS]])
// CHECK: vector.transfer_write
// CHECK: tensor.insert_slice %{{.*}} into %[[FILLED]][0, 0, 2, 0] [1, 6, 8, 8]
// CHECK-NOT: onnx.cpu.write_in_place
func.func @write_in_place(%x: tensor<6x64xf32>, %b: tensor<6xf32>) -> tensor<1x6x10x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<6x64xf32>, tensor<6xf32>) outs(%e : tensor<6x64xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<6x64xf32>
  %image = tensor.expand_shape %y [[0, 1], [2, 3]] output_shape [1, 6, 8, 8] : tensor<6x64xf32> into tensor<1x6x8x8xf32>
  %buf = tensor.empty() {onnx.cpu.buffer_of = "dw"} : tensor<1x6x10x8xf32>
  %top = tensor.extract_slice %buf[0, 0, 0, 0] [1, 6, 2, 8] [1, 1, 1, 1] : tensor<1x6x10x8xf32> to tensor<1x6x2x8xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%top : tensor<1x6x2x8xf32>) -> tensor<1x6x2x8xf32>
  %filled = tensor.insert_slice %zeros into %buf[0, 0, 0, 0] [1, 6, 2, 8] [1, 1, 1, 1] : tensor<1x6x2x8xf32> into tensor<1x6x10x8xf32>
  %in = tensor.insert_slice %image into %filled[0, 0, 2, 0] [1, 6, 8, 8] [1, 1, 1, 1] {onnx.cpu.write_in_place} : tensor<1x6x8x8xf32> into tensor<1x6x10x8xf32>
  return %in : tensor<1x6x10x8xf32>
}

// A product with its epilogue computed in parts (whole 16x16 tiles, then
// the columns and the rows left): each part starts from its slice of the
// destination's slice, none from an empty tensor of its own.
// CHECK-LABEL: func.func @write_in_place_parts
// CHECK-NOT: tensor.empty() : tensor<20x20xf32>
// CHECK: tensor.empty() {onnx.cpu.buffer_of = "dw"} : tensor<1x20x6x5xf32>
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %{{.*}}[0, 0, 1, 0] [1, 20, 4, 5]
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[SLICE]] {{\[\[}}0, 1], [2, 3]] : tensor<1x20x4x5xf32> into tensor<20x20xf32>
// CHECK: %[[TOP:.*]] = tensor.extract_slice %[[ROWS]][0, 0] [16, 20]
// CHECK: %[[MAIN:.*]] = tensor.extract_slice %[[TOP]][0, 0] [16, 16]
// CHECK: vector.transfer_write %{{.*}}, %[[MAIN]]
// CHECK-NOT: tensor.empty() : tensor<20x20xf32>
func.func @write_in_place_parts(%a: tensor<2x64x16x1xf32>, %b: tensor<2x64x16x1xf32>, %bias: tensor<20xf32>) -> tensor<1x20x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x16x16xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %p = linalg.mmt4d ins(%a, %b : tensor<2x64x16x1xf32>, tensor<2x64x16x1xf32>) outs(%fill : tensor<2x2x16x16xf32>) -> tensor<2x2x16x16xf32>
  %u0 = tensor.empty() : tensor<20x20xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %u0 : tensor<2x2x16x16xf32> -> tensor<20x20xf32>
  %y0 = tensor.empty() : tensor<20x20xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%u, %bias : tensor<20x20xf32>, tensor<20xf32>) outs(%y0 : tensor<20x20xf32>) {
  ^bb0(%in: f32, %c: f32, %out: f32):
    %s = arith.addf %in, %c : f32
    linalg.yield %s : f32
  } -> tensor<20x20xf32>
  %image = tensor.expand_shape %y [[0, 1], [2, 3]] output_shape [1, 20, 4, 5] : tensor<20x20xf32> into tensor<1x20x4x5xf32>
  %buf = tensor.empty() {onnx.cpu.buffer_of = "dw"} : tensor<1x20x6x5xf32>
  %top = tensor.extract_slice %buf[0, 0, 0, 0] [1, 20, 1, 5] [1, 1, 1, 1] : tensor<1x20x6x5xf32> to tensor<1x20x1x5xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%top : tensor<1x20x1x5xf32>) -> tensor<1x20x1x5xf32>
  %filled = tensor.insert_slice %zeros into %buf[0, 0, 0, 0] [1, 20, 1, 5] [1, 1, 1, 1] : tensor<1x20x1x5xf32> into tensor<1x20x6x5xf32>
  %in = tensor.insert_slice %image into %filled[0, 0, 1, 0] [1, 20, 4, 5] [1, 1, 1, 1] {onnx.cpu.write_in_place} : tensor<1x20x4x5xf32> into tensor<1x20x6x5xf32>
  return %in : tensor<1x20x6x5xf32>
}

// The same with an elementwise producer computed as one flat loop: the
// flat view of the slice (8 of the buffer's 10 rows per channel) is not
// one of the buffer's memory, so bufferization would copy it; the producer
// keeps its own tensor and the insert stays a copy.
// CHECK-LABEL: func.func @write_in_place_not_a_view
// CHECK: %[[E:.*]] = tensor.empty() : tensor<6x64xf32>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[E]] {{\[\[}}0, 1]] : tensor<6x64xf32> into tensor<384xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[FLAT]])
// CHECK-NOT: onnx.cpu.write_in_place
func.func @write_in_place_not_a_view(%x: tensor<6x64xf32>) -> tensor<1x6x10x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x64xf32>) outs(%e : tensor<6x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<6x64xf32>
  %image = tensor.expand_shape %y [[0, 1], [2, 3]] output_shape [1, 6, 8, 8] : tensor<6x64xf32> into tensor<1x6x8x8xf32>
  %buf = tensor.empty() {onnx.cpu.buffer_of = "dw"} : tensor<1x6x10x8xf32>
  %top = tensor.extract_slice %buf[0, 0, 0, 0] [1, 6, 2, 8] [1, 1, 1, 1] : tensor<1x6x10x8xf32> to tensor<1x6x2x8xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%top : tensor<1x6x2x8xf32>) -> tensor<1x6x2x8xf32>
  %filled = tensor.insert_slice %zeros into %buf[0, 0, 0, 0] [1, 6, 2, 8] [1, 1, 1, 1] : tensor<1x6x2x8xf32> into tensor<1x6x10x8xf32>
  %in = tensor.insert_slice %image into %filled[0, 0, 2, 0] [1, 6, 8, 8] [1, 1, 1, 1] {onnx.cpu.write_in_place} : tensor<1x6x8x8xf32> into tensor<1x6x10x8xf32>
  return %in : tensor<1x6x10x8xf32>
}

// Rows of 14 columns (a 14x14 map, a per-row value: the rows stay apart):
// with AVX-512 one vector of 16 lanes with a mask of the first 14 (a masked
// load and store, one instruction each), not a vector<14xf32> that LLVM
// splits into 8 + 4 + 2; AVX2 keeps vector<14xf32>.
// CHECK-LABEL: func.func @masked_row
// CHECK: %[[ROW:.*]] = vector.constant_mask [14] : vector<16xi1>
// CHECK: %[[MASK:.*]] = vector.broadcast %[[ROW]] : vector<16xi1> to vector<1x16xi1>
// CHECK: vector.mask %[[MASK]] { vector.transfer_read {{.*}} : tensor<1x14xf32>, vector<1x16xf32> }
// CHECK: arith.addf {{.*}} : vector<16xf32>
// CHECK: vector.mask %[[MASK]] { vector.transfer_write {{.*}} : vector<1x16xf32>, tensor<1x14xf32> }
// AVX2-LABEL: func.func @masked_row
// AVX2-NOT: vector.mask
// AVX2: arith.addf {{.*}} : vector<14xf32>
func.func @masked_row(%x: tensor<64x14xf32>, %b: tensor<64xf32>) -> tensor<64x14xf32> {
  %e = tensor.empty() : tensor<64x14xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<64x14xf32>, tensor<64xf32>) outs(%e : tensor<64x14xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<64x14xf32>
  return %y : tensor<64x14xf32>
}

// A product of 8-bit quads (onnx.cpu.quad_product) takes an mmt4d's
// schedule: one 16x16 register tile per step, its k loop carrying the
// accumulators, each step a vector.contract of the rows' signed quads and
// the columns' unsigned ones (read as one vector of 64 bytes), which
// onnx-cpu-lower-vectors turns into vpdpbusd.
// CHECK-LABEL: func.func @quad_product
// CHECK: scf.for {{.*}} step %c16
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<16x16xi32>)
// CHECK: vector.transfer_read {{.*}} : tensor<1x1x16x4xi8>, vector<16x4xi8>
// CHECK: arith.extsi {{.*}} : vector<16x4xi8> to vector<16x4xi32>
// CHECK: vector.transfer_read {{.*}} : tensor<64xi8>, vector<64xi8>
// CHECK: arith.extui {{.*}} : vector<16x4xi8> to vector<16x4xi32>
// CHECK: vector.contract {{.*}} : vector<16x4xi32>, vector<16x4xi32> into vector<16x16xi32>
// CHECK: vector.transfer_write {{.*}} : vector<16x16xi32>, tensor<32x16xi32>
func.func @quad_product(%a: tensor<2x3x16x4xi8>, %b: tensor<1x3x16x4xi8>) -> tensor<32x16xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x1x16x16xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<2x1x16x16xi32>) -> tensor<2x1x16x16xi32>
  %p = linalg.generic {indexing_maps = [affine_map<(m1, n1, k1, m0, n0, k0) -> (m1, k1, m0, k0)>, affine_map<(m1, n1, k1, m0, n0, k0) -> (n1, k1, n0, k0)>, affine_map<(m1, n1, k1, m0, n0, k0) -> (m1, n1, m0, n0)>], iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x3x16x4xi8>, tensor<1x3x16x4xi8>) outs(%f : tensor<2x1x16x16xi32>) attrs = {onnx.cpu.quad_product} {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %1 = arith.extsi %x : i8 to i32
    %2 = arith.extui %y : i8 to i32
    %3 = arith.muli %1, %2 : i32
    %4 = arith.addi %acc, %3 : i32
    linalg.yield %4 : i32
  } -> tensor<2x1x16x16xi32>
  %d = tensor.empty() : tensor<32x16xi32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [16, 16] into %d : tensor<2x1x16x16xi32> -> tensor<32x16xi32>
  return %u : tensor<32x16xi32>
}
