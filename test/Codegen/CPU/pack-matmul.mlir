// The pass runs on the functions in parallel, and a packed blob's name
// (onnx_packed_weights, _1, _2, ...) is uniqued in the order the threads
// create them: one thread, so that the names below are the functions' order.
// RUN: onnx-opt %s --mlir-disable-threading --onnx-cpu-pack-matmul=target-cpu=skylake-avx512 | FileCheck %s
// RUN: onnx-opt %s --mlir-disable-threading --onnx-cpu-pack-matmul=target-cpu=haswell | FileCheck %s --check-prefix=AVX2
// RUN: not onnx-opt %s --onnx-cpu-pack-matmul=target-cpu=no-such-cpu 2>&1 | FileCheck %s --check-prefix=BADCPU
// RUN: onnx-opt %s --mlir-disable-threading --onnx-cpu-pack-matmul="target-cpu=skylake-avx512 num-threads=2" | FileCheck %s --check-prefix=THREADS
// RUN: onnx-opt %s --mlir-disable-threading --onnx-cpu-pack-matmul=target-cpu=znver4 | FileCheck %s --check-prefix=VNNI

// The image maps of @conv3x3 and @conv3x3_by_rows below.
// CHECK-DAG: #[[IMG:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d2, d1 * 16 + d6 + d3 * 10 + d4)>
// CHECK-DAG: #[[ROWS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d2, d0 * 9 + d5 + d3 * 9 + d4)>

// BADCPU: error: unknown target CPU 'no-such-cpu'

// Three rows pack into one tile of 4 (not 16); the constant right operand is
// packed at compile time into a new blob, [N/16, K, 16, 1], zero-padded.
// CHECK-LABEL: func.func @matmul_const
// CHECK: %[[A:.*]] = linalg.pack %arg0 padding_value({{.*}}) inner_dims_pos = [0, 1] inner_tiles = [4, 1] into {{.*}} -> tensor<1x2x4x1xf32>
// CHECK-NOT: linalg.pack
// CHECK: %[[B:.*]] = arith.constant dense_resource<onnx_packed_weights> : tensor<1x2x16x1xf32>
// CHECK: %[[C:.*]] = linalg.fill {{.*}} -> tensor<1x1x4x16xf32>
// CHECK: %[[P:.*]] = linalg.mmt4d ins(%[[A]], %[[B]] : {{.*}}) outs(%[[C]] : {{.*}})
// CHECK: linalg.unpack %[[P]] inner_dims_pos = [0, 1] inner_tiles = [4, 16] into {{.*}} -> tensor<3x3xf32>
// AVX2-LABEL: func.func @matmul_const
// AVX2: inner_tiles = [4, 1]
// AVX2: arith.constant dense_resource<onnx_packed_weights> : tensor<1x2x8x1xf32>
// AVX2: linalg.unpack {{.*}} inner_tiles = [4, 8]
func.func @matmul_const(%a: tensor<3x2xf32>) -> tensor<3x3xf32> {
  %b = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x3xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x3xf32>) -> tensor<3x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3x2xf32>, tensor<2x3xf32>) outs(%c : tensor<3x3xf32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// A transposed constant (Gemm's transB) is packed through the transpose:
// the same blob as above from the transposed values (the transpose is left
// dead, for the canonicalizer).
// CHECK-LABEL: func.func @matmul_transposed_const
// CHECK: %[[B:.*]] = arith.constant dense_resource<onnx_packed_weights_1> : tensor<1x2x16x1xf32>
// CHECK: linalg.mmt4d ins(%{{.*}}, %[[B]] :
func.func @matmul_transposed_const(%a: tensor<3x2xf32>) -> tensor<3x3xf32> {
  %w = arith.constant dense<[[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]> : tensor<3x2xf32>
  %t0 = tensor.empty() : tensor<2x3xf32>
  %b = linalg.transpose ins(%w : tensor<3x2xf32>) outs(%t0 : tensor<2x3xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x3xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x3xf32>) -> tensor<3x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3x2xf32>, tensor<2x3xf32>) outs(%c : tensor<3x3xf32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// One row (a matrix-vector product, as an LSTM step's): 1 x 128 register
// tiles (8 accumulators with AVX-512, 1 x 64 with AVX2).
// CHECK-LABEL: func.func @matvec
// CHECK: linalg.pack %arg0 {{.*}} inner_tiles = [1, 1] {{.*}} -> tensor<1x4x1x1xf32>
// CHECK: %[[B:.*]] = arith.constant dense<1.000000e+00> : tensor<2x4x128x1xf32>
// CHECK: linalg.mmt4d ins(%{{.*}}, %[[B]] :
// CHECK: linalg.unpack {{.*}} inner_tiles = [1, 128] {{.*}} -> tensor<1x256xf32>
// AVX2-LABEL: func.func @matvec
// AVX2: tensor<4x4x64x1xf32>
func.func @matvec(%a: tensor<1x4xf32>) -> tensor<1x256xf32> {
  %b = arith.constant dense<1.0> : tensor<4x256xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x256xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x256xf32>) -> tensor<1x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x4xf32>, tensor<4x256xf32>) outs(%c : tensor<1x256xf32>) -> tensor<1x256xf32>
  return %r : tensor<1x256xf32>
}

// The transpose of one direction's slice of a [directions, 4H, I] constant
// (an LSTM's W or R) is packed at compile time, not in the time loop.
// CHECK-LABEL: func.func @sliced_const
// CHECK: %[[B:.*]] = arith.constant dense_resource<onnx_packed_weights_2> : tensor<1x2x16x1xf32>
// CHECK: linalg.mmt4d ins(%{{.*}}, %[[B]] :
func.func @sliced_const(%a: tensor<1x2xf32>) -> tensor<1x3xf32> {
  %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]]> : tensor<2x3x2xf32>
  %s = tensor.extract_slice %w[1, 0, 0] [1, 3, 2] [1, 1, 1] : tensor<2x3x2xf32> to tensor<3x2xf32>
  %t0 = tensor.empty() : tensor<2x3xf32>
  %b = linalg.transpose ins(%s : tensor<3x2xf32>) outs(%t0 : tensor<2x3xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3xf32>) -> tensor<1x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x2xf32>, tensor<2x3xf32>) outs(%c : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}

// A batched matmul: a loop over its matrices, each a packed matmul; with
// threads an scf.forall over them.
// CHECK-LABEL: func.func @batch_matmul
// CHECK: scf.for {{.*}} to %c4
// CHECK: linalg.mmt4d
// CHECK: tensor.insert_slice {{.*}} [1, 32, 32]
// THREADS-LABEL: func.func @batch_matmul
// THREADS: scf.forall ({{.*}}) in (4)
// THREADS: linalg.mmt4d
// THREADS: tensor.parallel_insert_slice {{.*}} [1, 32, 32]
func.func @batch_matmul(%a: tensor<4x32x16xf32>, %b: tensor<4x16x32xf32>) -> tensor<4x32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x32x16xf32>, tensor<4x16x32xf32>) outs(%c : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  return %r : tensor<4x32x32xf32>
}

// Dynamic rows: a loop over whole chunks of 8 tiles of 16 rows, each a
// static packed matmul, then the remaining rows in tiles of 16, each padded
// with rows of zeros to a static packed matmul whose first rows are stored.
// With threads both loops are scf.forall: the threads take whole chunks.
// CHECK-LABEL: func.func @matmul_dynamic_rows
// CHECK: scf.for %{{.*}} step %c128
// CHECK: linalg.mmt4d {{.*}} -> tensor<8x2x16x16xf32>
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} step %c128
// CHECK: scf.for %{{.*}} step %c16
// CHECK: tensor.pad
// CHECK: } : tensor<?x8xf32> to tensor<16x8xf32>
// CHECK: linalg.mmt4d {{.*}} -> tensor<1x2x16x16xf32>
// CHECK: linalg.unpack
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [%{{.*}}, 32] [1, 1] : tensor<16x32xf32> to tensor<?x32xf32>
// CHECK-NOT: linalg.matmul
// THREADS-LABEL: func.func @matmul_dynamic_rows
// THREADS: scf.forall (%{{.*}}) = (0) to (%{{.*}}) step (128) shared_outs
// THREADS: linalg.mmt4d {{.*}} -> tensor<8x2x16x16xf32>
// THREADS: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%{{.*}}, 0] [128, 32] [1, 1] : tensor<128x32xf32> into tensor<?x32xf32>
// THREADS: scf.for %{{.*}} step %c128
// THREADS: scf.forall (%{{.*}}) = (0) to (%{{.*}}) step (16)
// THREADS: tensor.pad
// THREADS: } : tensor<?x8xf32> to tensor<16x8xf32>
// THREADS: linalg.mmt4d {{.*}} -> tensor<1x2x16x16xf32>
func.func @matmul_dynamic_rows(%a: tensor<?x8xf32>, %b: tensor<8x32xf32>) -> tensor<?x32xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %d = tensor.dim %a, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%d) : tensor<?x32xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x32xf32>) outs(%c : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %r : tensor<?x32xf32>
}

// A dynamic number of matrices: a loop (with threads, an scf.forall) of
// static packed matmuls.
// CHECK-LABEL: func.func @batch_matmul_dynamic
// CHECK: %[[N:.*]] = tensor.dim %arg2, %c0
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step %c1
// CHECK: linalg.mmt4d {{.*}} -> tensor<2x2x16x16xf32>
// CHECK: tensor.insert_slice {{.*}} [1, 32, 32] [1, 1, 1] : tensor<32x32xf32> into tensor<?x32x32xf32>
// THREADS-LABEL: func.func @batch_matmul_dynamic
// THREADS: scf.forall (%{{.*}}) in (%{{.*}})
// THREADS: linalg.mmt4d
func.func @batch_matmul_dynamic(%a: tensor<?x32x16xf32>, %b: tensor<?x16x32xf32>, %c: tensor<?x32x32xf32>) -> tensor<?x32x32xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<?x32x16xf32>, tensor<?x16x32xf32>) outs(%c : tensor<?x32x32xf32>) -> tensor<?x32x32xf32>
  return %r : tensor<?x32x32xf32>
}

// A narrow N that the vector width does not divide, against an M that it
// does (a 1x1 convolution's 7x7 positions against its filters): the
// transposed product, B packed as the left operand in tiles of 7 of its
// columns (no padding), A as the right one in tiles of 32 of its rows (14
// accumulator registers), unpacked into C through the transposition.
// CHECK-LABEL: func.func @matmul_narrow_n
// CHECK: %[[L:.*]] = linalg.pack %arg1 {{.*}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [7, 1] {{.*}} -> tensor<7x40x7x1xf32>
// CHECK: %[[R:.*]] = linalg.pack %arg0 {{.*}} inner_dims_pos = [0, 1] inner_tiles = [32, 1] {{.*}} -> tensor<1x40x32x1xf32>
// CHECK: %[[ACC:.*]] = linalg.fill {{.*}} -> tensor<7x1x7x32xf32>
// CHECK: %[[P:.*]] = linalg.mmt4d ins(%[[L]], %[[R]] : {{.*}}) outs(%[[ACC]] : tensor<7x1x7x32xf32>)
// CHECK: linalg.unpack %[[P]] outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [7, 32] {{.*}} -> tensor<32x49xf32>
// With AVX2's 16 registers a tile of 7 rows fits one register of columns,
// 7 accumulators, too few: the usual 6 x 16 tiles, N padded to 64.
// AVX2-LABEL: func.func @matmul_narrow_n
// AVX2: linalg.pack %arg0 {{.*}} inner_dims_pos = [0, 1] inner_tiles = [6, 1] {{.*}} -> tensor<6x40x6x1xf32>
// AVX2: linalg.pack %arg1 {{.*}} inner_tiles = [16, 1] {{.*}} -> tensor<4x40x16x1xf32>
// AVX2: linalg.mmt4d {{.*}} -> tensor<6x4x6x16xf32>
func.func @matmul_narrow_n(%a: tensor<32x40xf32>, %b: tensor<40x49xf32>) -> tensor<32x49xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x49xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<32x49xf32>) -> tensor<32x49xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x40xf32>, tensor<40x49xf32>) outs(%c : tensor<32x49xf32>) -> tensor<32x49xf32>
  return %r : tensor<32x49xf32>
}

// With a reduction too long to be computed in the epilogue's tiles, AVX2
// takes the transposed product in its usual tiles, the last one padded: 49
// rows of C^T in 9 tiles of 6 (54) rather than 49 columns in 4 of 16 (64).
// AVX2-LABEL: func.func @matmul_narrow_n_long
// AVX2: %[[L:.*]] = linalg.pack %arg1 {{.*}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [6, 1] {{.*}} -> tensor<9x320x6x1xf32>
// AVX2: %[[R:.*]] = linalg.pack %arg0 {{.*}} inner_dims_pos = [0, 1] inner_tiles = [16, 1] {{.*}} -> tensor<2x320x16x1xf32>
// AVX2: %[[P:.*]] = linalg.mmt4d ins(%[[L]], %[[R]] : {{.*}}) outs(%{{.*}} : tensor<9x2x6x16xf32>)
// AVX2: linalg.unpack %[[P]] outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [6, 16] {{.*}} -> tensor<32x49xf32>
func.func @matmul_narrow_n_long(%a: tensor<32x320xf32>, %b: tensor<320x49xf32>) -> tensor<32x49xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x49xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<32x49xf32>) -> tensor<32x49xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x320xf32>, tensor<320x49xf32>) outs(%c : tensor<32x49xf32>) -> tensor<32x49xf32>
  return %r : tensor<32x49xf32>
}

// Both operands at run time, the accumulator not a fill: all three packed.
// The 40 rows are 5 tiles of 8 (16-row tiles would pad them to 48).
// CHECK-LABEL: func.func @matmul_runtime
// CHECK: linalg.pack %arg0 {{.*}} inner_tiles = [8, 1] {{.*}} -> tensor<5x40x8x1xf32>
// CHECK: linalg.pack %arg1 {{.*}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 1] {{.*}} -> tensor<2x40x16x1xf32>
// CHECK: linalg.pack %arg2 {{.*}} inner_tiles = [8, 16] {{.*}} -> tensor<5x2x8x16xf32>
// CHECK: linalg.mmt4d
// CHECK: linalg.unpack {{.*}} -> tensor<40x20xf32>
func.func @matmul_runtime(%a: tensor<40x40xf32>, %b: tensor<40x20xf32>, %c: tensor<40x20xf32>) -> tensor<40x20xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<40x40xf32>, tensor<40x20xf32>) outs(%c : tensor<40x20xf32>) -> tensor<40x20xf32>
  return %r : tensor<40x20xf32>
}

// A dynamic reduction or column dim, and other element types, are left as
// they are.
// CHECK-LABEL: func.func @matmul_dynamic
// CHECK: linalg.matmul
// CHECK-LABEL: func.func @matmul_f64
// CHECK: linalg.matmul
func.func @matmul_dynamic(%a: tensor<4x?xf32>, %b: tensor<?x20xf32>, %c: tensor<4x20xf32>) -> tensor<4x20xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x?xf32>, tensor<?x20xf32>) outs(%c : tensor<4x20xf32>) -> tensor<4x20xf32>
  return %r : tensor<4x20xf32>
}
func.func @matmul_f64(%a: tensor<4x5xf64>, %b: tensor<5x20xf64>, %c: tensor<4x20xf64>) -> tensor<4x20xf64> {
  %r = linalg.matmul ins(%a, %b : tensor<4x5xf64>, tensor<5x20xf64>) outs(%c : tensor<4x20xf64>) -> tensor<4x20xf64>
  return %r : tensor<4x20xf64>
}

// A 3x3 convolution of one image with unit strides: direct. The filter
// reshaped (the same data) and packed at compile time (a splat stays one)
// as [F/m0, C, KH, KW, m0]; the image padded below with the rows that the
// last tile reads (8 rows of 10 positions are 5 tiles of 16, read from up
// to 2 * 10 + 2 further: 102 of 110) and flattened to [C, 11*10]; the
// product in mmt4d's layout from a generic whose image map shifts the
// position by ky * W + kx; then unpacked, its first 8 of every 10 columns
// taken, and the init added (into a new tensor).
// CHECK-LABEL: func.func @conv3x3
// CHECK: tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 1, 0]
// CHECK: } : tensor<1x4x10x10xf32> to tensor<1x4x11x10xf32>
// CHECK: linalg.fill {{.*}} -> tensor<1x5x8x16xf32>
// CHECK: tensor.collapse_shape %{{.*}} into tensor<4x110xf32>
// CHECK: arith.constant dense<5.000000e-01> : tensor<1x4x3x3x8xf32>
// CHECK: linalg.generic {{.*}} #[[IMG]]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]
// CHECK-SAME: onnx.cpu.direct_conv
// CHECK: linalg.unpack {{.*}} into %{{.*}} : tensor<1x5x8x16xf32> -> tensor<8x80xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0] [8, 8, 8] [1, 1, 1] : tensor<8x8x10xf32> to tensor<8x8x8xf32>
// CHECK: arith.addf
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @conv3x3(%x: tensor<1x4x10x10xf32>, %init: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %w = arith.constant dense<0.5> : tensor<8x4x3x3xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}

// The convolution's own zero border (a tensor.pad of its input) grows by
// the rows below the image that the last tile reads: one padded copy of
// the image, not a second one of the flattened image.
// CHECK-LABEL: func.func @conv3x3_padded
// CHECK: tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 2, 1]
// CHECK: } : tensor<1x4x8x8xf32> to tensor<1x4x11x10xf32>
// CHECK-NOT: tensor.pad
// CHECK: tensor.collapse_shape %{{.*}} into tensor<4x110xf32>
// CHECK-NOT: tensor.pad
// CHECK: onnx.cpu.direct_conv
func.func @conv3x3_padded(%x: tensor<1x4x8x8xf32>, %init: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<8x4x3x3xf32>
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%init : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}

// A 3x3 convolution with strides of 2 onto a narrow map (7x7) goes by rows:
// the sum of the direct convolutions of the image's 4 phases
// x[:, :, a::2, b::2] (8x8 each, the 15x15 image padded to 16x16) with the
// filter's taps (a + 2i, b + 2j): 2x2, 2x1, 1x2 and 1x1, accumulated in turn.
// CHECK-LABEL: func.func @conv3x3_stride2_by_rows
// CHECK: %[[X:.*]] = tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK: %[[FILL:.*]] = linalg.fill {{.*}} -> tensor<7x1x7x32xf32>
// CHECK: tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 8, 8, 8] [1, 1, 2, 2]
// CHECK: %[[A0:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x2x2x32xf32>, tensor<8x64xf32>) outs(%[[FILL]] : tensor<7x1x7x32xf32>)
// CHECK: tensor.extract_slice %[[X]][0, 0, 0, 1] [1, 8, 8, 8] [1, 1, 2, 2]
// CHECK: %[[A1:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x2x1x32xf32>, tensor<8x64xf32>) outs(%[[A0]] : tensor<7x1x7x32xf32>)
// CHECK: tensor.extract_slice %[[X]][0, 0, 1, 0] [1, 8, 8, 8] [1, 1, 2, 2]
// CHECK: %[[A2:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x1x2x32xf32>, tensor<8x64xf32>) outs(%[[A1]] : tensor<7x1x7x32xf32>)
// CHECK: tensor.extract_slice %[[X]][0, 0, 1, 1] [1, 8, 8, 8] [1, 1, 2, 2]
// CHECK: %[[A3:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x1x1x32xf32>, tensor<8x64xf32>) outs(%[[A2]] : tensor<7x1x7x32xf32>)
// CHECK: linalg.unpack %[[A3]] {{.*}} -> tensor<32x49xf32>
func.func @conv3x3_stride2_by_rows(%x: tensor<1x8x15x15xf32>) -> tensor<1x32x7x7xf32> {
  %w = arith.constant dense<0.5> : tensor<32x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x7x7xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x8x15x15xf32>, tensor<32x8x3x3xf32>) outs(%init : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  return %r : tensor<1x32x7x7xf32>
}

// With strides onto a map that does not go by rows (4x4 here, ResNet-50's
// 28x28 and 14x14), im2col: its row copies and packing run on the threads,
// where the phases were copied out of the image serially and summed in
// passes over the accumulators (see ConvToMatmul).
// CHECK-LABEL: func.func @conv3x3_stride2
// CHECK-NOT: onnx.cpu.direct_conv
// CHECK: tensor.extract_slice %arg0[0, %{{.*}}, %{{.*}}, %{{.*}}] [1, 1, 1, 4] [1, 1, 1, 2]
// CHECK: linalg.pack {{.*}} -> tensor<1x72x16x1xf32>
// CHECK: linalg.mmt4d
func.func @conv3x3_stride2(%x: tensor<1x8x10x10xf32>, %init: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<8x8x3x3xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// A 3x3 convolution onto a narrow map (7x7) goes by rows: a register tile
// is the 7 positions of one output row (consecutive in the image) times 32
// filters, so that no position past the row's end is computed (49, not 7
// rows of 9 padded to 64); the filter packed in 32-filter tiles, the product
// unpacked into [F, OH*OW] through the transposition.
// CHECK-LABEL: func.func @conv3x3_by_rows
// CHECK: linalg.fill {{.*}} -> tensor<7x1x7x32xf32>
// CHECK: tensor.collapse_shape %arg0 {{.*}} into tensor<8x81xf32>
// CHECK: arith.constant dense<5.000000e-01> : tensor<1x8x3x3x32xf32>
// CHECK: linalg.generic {{.*}} #[[ROWS]]
// CHECK-SAME: onnx.cpu.direct_conv
// CHECK: linalg.unpack %{{.*}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [7, 32] {{.*}} -> tensor<32x49xf32>
// CHECK: tensor.expand_shape {{.*}} into tensor<1x32x7x7xf32>
// With AVX2 the tile is 7 positions by 8 filters (7 x 16 would need 17 of
// its 16 registers).
// AVX2-LABEL: func.func @conv3x3_by_rows
// AVX2: linalg.fill {{.*}} -> tensor<7x4x7x8xf32>
// AVX2: linalg.unpack {{.*}} inner_tiles = [7, 8] {{.*}} -> tensor<32x49xf32>
func.func @conv3x3_by_rows(%x: tensor<1x8x9x9xf32>) -> tensor<1x32x7x7xf32> {
  %w = arith.constant dense<0.5> : tensor<32x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x7x7xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x8x9x9xf32>, tensor<32x8x3x3xf32>) outs(%init : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  return %r : tensor<1x32x7x7xf32>
}

// Onto a wider map (28x28) with AVX-512, by rows in segments: a register
// tile is 14 positions of an output row times 16 filters, 784 positions
// computed where tiles of positions over the 30-wide padded rows compute
// 848. With AVX2 (6-row tiles) it stays by positions.
// CHECK-LABEL: func.func @conv3x3_rows_in_segments
// CHECK: linalg.fill {{.*}} -> tensor<28x2x28x16xf32>
// CHECK: linalg.generic
// CHECK-SAME: onnx.cpu.direct_conv
// CHECK: linalg.unpack %{{.*}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [28, 16] {{.*}} -> tensor<32x784xf32>
// AVX2-LABEL: func.func @conv3x3_rows_in_segments
// AVX2: linalg.fill {{.*}} -> tensor<6x53x6x16xf32>
func.func @conv3x3_rows_in_segments(%x: tensor<1x8x30x30xf32>) -> tensor<1x32x28x28xf32> {
  %w = arith.constant dense<0.5> : tensor<32x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x28x28xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x28x28xf32>) -> tensor<1x32x28x28xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x8x30x30xf32>, tensor<32x8x3x3xf32>) outs(%init : tensor<1x32x28x28xf32>) -> tensor<1x32x28x28xf32>
  return %r : tensor<1x32x28x28xf32>
}

// The same with strides of 2 (57x57 -> 28x28, ResNet-50's first stride-2
// 3x3): by rows in segments over the image's 4 phases, where AVX2 takes
// im2col.
// CHECK-LABEL: func.func @conv3x3_stride2_rows_in_segments
// CHECK: %[[FILL:.*]] = linalg.fill {{.*}} -> tensor<28x2x28x16xf32>
// CHECK: %[[A0:.*]] = linalg.generic {{.*}} outs(%[[FILL]] : tensor<28x2x28x16xf32>)
// CHECK: %[[A1:.*]] = linalg.generic {{.*}} outs(%[[A0]] : tensor<28x2x28x16xf32>)
// CHECK: %[[A2:.*]] = linalg.generic {{.*}} outs(%[[A1]] : tensor<28x2x28x16xf32>)
// CHECK: %[[A3:.*]] = linalg.generic {{.*}} outs(%[[A2]] : tensor<28x2x28x16xf32>)
// CHECK: linalg.unpack %[[A3]] {{.*}} -> tensor<32x784xf32>
// AVX2-LABEL: func.func @conv3x3_stride2_rows_in_segments
// AVX2-NOT: onnx.cpu.direct_conv
// AVX2: linalg.mmt4d
func.func @conv3x3_stride2_rows_in_segments(%x: tensor<1x8x57x57xf32>) -> tensor<1x32x28x28xf32> {
  %w = arith.constant dense<0.5> : tensor<32x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x28x28xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x28x28xf32>) -> tensor<1x32x28x28xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x8x57x57xf32>, tensor<32x8x3x3xf32>) outs(%init : tensor<1x32x28x28xf32>) -> tensor<1x32x28x28xf32>
  return %r : tensor<1x32x28x28xf32>
}

// A dilated 3x3 convolution (and one over few channels): the image through
// im2col [C*KH*KW, OH*OW], one row copy per (channel, kernel row, kernel
// column, output row), then the packed matmul.
// CHECK-LABEL: func.func @conv3x3_dilation2
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tensor.extract_slice %arg0{{.*}} to tensor<6xf32>
// CHECK: tensor.insert_slice
// CHECK: arith.constant dense<5.000000e-01> : tensor<1x27x8x1xf32>
// CHECK: linalg.pack {{.*}} -> tensor<3x27x16x1xf32>
// CHECK: linalg.mmt4d
// CHECK: tensor.expand_shape {{.*}} into tensor<1x8x6x6xf32>
// With threads, the 27 rows of im2col are split between them, each writing
// its slab of OH x OW in place.
// THREADS-LABEL: func.func @conv3x3_dilation2
// THREADS: scf.forall (%[[R:.*]]) in (27) shared_outs(%[[COL:.*]] = %{{.*}}) -> (tensor<27x6x6xf32>)
// THREADS: tensor.extract_slice %[[COL]][%[[R]], 0, 0] [1, 6, 6]
// THREADS: scf.for
// THREADS: tensor.parallel_insert_slice {{.*}} into %[[COL]][%[[R]], 0, 0] [1, 6, 6]
// THREADS: linalg.mmt4d
func.func @conv3x3_dilation2(%x: tensor<1x3x10x10xf32>, %init: tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> {
  %w = arith.constant dense<0.5> : tensor<8x3x3x3xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x3x10x10xf32>, tensor<8x3x3x3xf32>) outs(%init : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %r : tensor<1x8x6x6xf32>
}

// A 1x1 convolution with unit strides multiplies the image itself.
// CHECK-LABEL: func.func @conv1x1
// CHECK-NOT: tensor.extract
// CHECK: tensor.collapse_shape %arg0 {{\[}}[0, 1], [2, 3]] : tensor<1x4x5x5xf32> into tensor<4x25xf32>
// CHECK: linalg.mmt4d
func.func @conv1x1(%x: tensor<1x4x5x5xf32>, %w: tensor<6x4x1x1xf32>, %init: tensor<1x6x5x5xf32>) -> tensor<1x6x5x5xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x4x5x5xf32>, tensor<6x4x1x1xf32>) outs(%init : tensor<1x6x5x5xf32>) -> tensor<1x6x5x5xf32>
  return %r : tensor<1x6x5x5xf32>
}

// A batch of 32 images (ResNet-50 at batch 32, issue 13): a loop over the
// images, each one's convolution direct as at batch 1 (the filter packed at
// compile time), not left to the scalar loops. A fill of the output becomes
// a fill of each image's accumulator; the loop starts from the fill's empty
// tensor.
// CHECK-LABEL: func.func @conv3x3_batch32
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<32x16x4x4xf32>
// CHECK: %[[OUT:.*]] = scf.for %[[N:.*]] = %{{.*}} to %c32 step %{{.*}} iter_args(%[[ACC:.*]] = %[[EMPTY]]) -> (tensor<32x16x4x4xf32>)
// CHECK: %[[X:.*]] = tensor.extract_slice %arg0[%[[N]], 0, 0, 0] [1, 8, 6, 6] [1, 1, 1, 1] : tensor<32x8x6x6xf32> to tensor<1x8x6x6xf32>
// CHECK: tensor.pad %[[X]] low[0, 0, 0, 0] high[0, 0, 2, 0]
// CHECK: linalg.fill {{.*}} -> tensor<1x2x16x16xf32>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<1x8x3x3x16xf32>, tensor<8x48xf32>)
// CHECK-SAME: onnx.cpu.direct_conv
// CHECK: linalg.unpack
// CHECK: tensor.insert_slice %{{.*}} into %[[ACC]][%[[N]], 0, 0, 0] [1, 16, 4, 4] [1, 1, 1, 1] : tensor<1x16x4x4xf32> into tensor<32x16x4x4xf32>
// CHECK: return %[[OUT]]
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @conv3x3_batch32(%x: tensor<32x8x6x6xf32>) -> tensor<32x16x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<32x16x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<32x16x4x4xf32>) -> tensor<32x16x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<32x8x6x6xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<32x16x4x4xf32>) -> tensor<32x16x4x4xf32>
  return %r : tensor<32x16x4x4xf32>
}

// A batched 1x1 convolution whose output has an init (a bias): each image's
// product starts from zeros and its slice of the init is added after it
// (an input of an elementwise op that fusion folds into the product's
// epilogue, not an accumulator packed before the product).
// CHECK-LABEL: func.func @conv1x1_batch32
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// CHECK: scf.for %[[N:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %arg2)
// CHECK: %[[X:.*]] = tensor.extract_slice %arg0[%[[N]], 0, 0, 0] [1, 4, 5, 5] [1, 1, 1, 1]
// CHECK: %[[INIT:.*]] = tensor.extract_slice %[[ACC]][%[[N]], 0, 0, 0] [1, 6, 5, 5] [1, 1, 1, 1]
// CHECK: tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2, 3]] : tensor<1x4x5x5xf32> into tensor<4x25xf32>
// CHECK: %[[ZERO:.*]] = linalg.fill {{.*}} -> tensor<1x6x5x5xf32>
// CHECK: tensor.collapse_shape %[[ZERO]] {{\[}}[0, 1], [2, 3]] : tensor<1x6x5x5xf32> into tensor<6x25xf32>
// CHECK: linalg.mmt4d
// CHECK: %[[PRODUCT:.*]] = tensor.expand_shape
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[PRODUCT]], %[[INIT]] : tensor<1x6x5x5xf32>, tensor<1x6x5x5xf32>)
// CHECK: arith.addf
// CHECK: tensor.insert_slice %[[SUM]] into %[[ACC]][%[[N]], 0, 0, 0] [1, 6, 5, 5]
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @conv1x1_batch32(%x: tensor<32x4x5x5xf32>, %w: tensor<6x4x1x1xf32>, %init: tensor<32x6x5x5xf32>) -> tensor<32x6x5x5xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<32x4x5x5xf32>, tensor<6x4x1x1xf32>) outs(%init : tensor<32x6x5x5xf32>) -> tensor<32x6x5x5xf32>
  return %r : tensor<32x6x5x5xf32>
}

// A convolution of an image of dynamic size (static channels, filters and
// window): a loop nest over the images and over tiles of 8x16 output
// positions, each the static convolution of the image's slice under it
// (17x33 for strides of 2), padded with zeros at its end to the tile's size;
// that static convolution is rewritten like any other (here direct); its
// valid positions are inserted into the output. The init (a bias) is read
// per tile, padded the same way.
// CHECK-LABEL: func.func @conv3x3_dynamic
// CHECK: %[[OH:.*]] = tensor.dim %arg1, %{{.*}} : tensor<1x16x?x?xf32>
// CHECK: %[[OW:.*]] = tensor.dim %arg1, %{{.*}} : tensor<1x16x?x?xf32>
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %c1{{.*}} step
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[OH]] step %c8
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[OW]] step %c16{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK: tensor.extract_slice %arg0[%[[N]], 0, %{{.*}}, %{{.*}}] [1, 8, %{{.*}}, %{{.*}}] [1, 1, 1, 1] : tensor<1x8x?x?xf32> to tensor<1x8x?x?xf32>
// CHECK: tensor.pad
// CHECK: } : tensor<1x8x?x?xf32> to tensor<1x8x17x33xf32>
// CHECK: tensor.extract_slice %[[ACC]][%[[N]], 0, %[[I]], %[[J]]] [1, 16, %[[H:.*]], %[[W:.*]]] [1, 1, 1, 1]
// CHECK: } : tensor<1x16x?x?xf32> to tensor<1x16x8x16xf32>
// CHECK: onnx.cpu.direct_conv
// CHECK: %[[VALID:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 16, %[[H]], %[[W]]] [1, 1, 1, 1] : tensor<1x16x8x16xf32> to tensor<1x16x?x?xf32>
// CHECK: tensor.insert_slice %[[VALID]] into %[[ACC]][%[[N]], 0, %[[I]], %[[J]]] [1, 16, %[[H]], %[[W]]] [1, 1, 1, 1]
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @conv3x3_dynamic(%x: tensor<1x8x?x?xf32>, %init: tensor<1x16x?x?xf32>) -> tensor<1x16x?x?xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x3x3xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x8x?x?xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x?x?xf32>) -> tensor<1x16x?x?xf32>
  return %r : tensor<1x16x?x?xf32>
}

// A 1x1 convolution over a dynamic batch of 7x7 images, without bias (a
// fill): the static dims are one tile (7x7, no padding of the output), each
// tile's init a fill of its own; the tile is a packed matmul.
// CHECK-LABEL: func.func @conv1x1_dynamic_batch
// CHECK: %[[B:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x6x7x7xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[B]] step
// CHECK: scf.for %{{.*}} = %{{.*}} to %c7{{.*}} step %c7
// CHECK: scf.for %{{.*}} = %{{.*}} to %c7{{.*}} step %c7
// CHECK: linalg.fill {{.*}} -> tensor<1x6x7x7xf32>
// CHECK: linalg.mmt4d
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @conv1x1_dynamic_batch(%x: tensor<?x4x7x7xf32>, %w: tensor<6x4x1x1xf32>) -> tensor<?x6x7x7xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4x7x7xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x6x7x7xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?x6x7x7xf32>) -> tensor<?x6x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<?x4x7x7xf32>, tensor<6x4x1x1xf32>) outs(%init : tensor<?x6x7x7xf32>) -> tensor<?x6x7x7xf32>
  return %r : tensor<?x6x7x7xf32>
}

// A depthwise convolution: one elementwise op over the 9 strided windows of
// the image and the 9 columns of the filter.
// CHECK-LABEL: func.func @depthwise
// CHECK-DAG: tensor.extract_slice %arg0[0, 0, 0, 0] [1, 4, 4, 4] [1, 1, 2, 2]
// CHECK-DAG: tensor.extract_slice %arg0[0, 0, 2, 2] [1, 4, 4, 4] [1, 1, 2, 2]
// CHECK-DAG: tensor.extract_slice %arg1[0, 0, 0] [4, 1, 1] [1, 1, 1] : tensor<4x3x3xf32> to tensor<4xf32>
// CHECK-DAG: tensor.extract_slice %arg1[0, 2, 2] [4, 1, 1] [1, 1, 1] : tensor<4x3x3xf32> to tensor<4xf32>
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-SAME: ins({{.*}} : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-COUNT-9: arith.mulf
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
func.func @depthwise(%x: tensor<1x4x9x9xf32>, %w: tensor<4x3x3xf32>, %init: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x4x9x9xf32>, tensor<4x3x3xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

// A depthwise convolution whose output starts from a bias broadcast (a Conv
// with a B input): the bias is an input read along the channels, and the
// output is an empty tensor that the op only writes.
// CHECK-LABEL: func.func @depthwise_bias
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<1x4x4x4xf32>
// CHECK: linalg.generic {{.*}} ins({{.*}}, %arg2 : {{.*}}tensor<4xf32>, tensor<4xf32>) outs(%[[EMPTY]] : tensor<1x4x4x4xf32>)
// CHECK-NEXT: ^bb0({{.*}}%[[BIAS:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf
// CHECK-NEXT: arith.addf %[[BIAS]], %[[P]]
// CHECK-COUNT-8: arith.mulf
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
func.func @depthwise_bias(%x: tensor<1x4x9x9xf32>, %w: tensor<4x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x4x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x4x9x9xf32>, tensor<4x3x3xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

// A depthwise convolution over a zero-padded image reads the image from a
// buffer with rows of zeros above and below it (2 above: the padding's and
// the row whose end the first taps of a row read), inserted for its
// producer to write in place; each window views the buffer flat from its
// tap's offset ((2 + ky - 1) * 6 + kx - 1). The first and last taps of a
// row read the neighbouring row: their bits are and-ed with a mask of the
// columns inside the image.
// CHECK-LABEL: func.func @depthwise_padded
// CHECK: %[[BUF:.*]] = tensor.empty() {onnx.cpu.buffer_of = {{.*}}} : tensor<1x4x10x6xf32>
// CHECK: tensor.extract_slice %[[BUF]][0, 0, 0, 0] [1, 4, 2, 6]
// CHECK: linalg.fill
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 8, 0] [1, 4, 2, 6]
// CHECK: linalg.fill
// CHECK: %[[IN:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 0, 2, 0] [1, 4, 6, 6] [1, 1, 1, 1] {onnx.cpu.write_in_place}
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[IN]] {{\[\[}}0], [1], [2, 3]] : tensor<1x4x10x6xf32> into tensor<1x4x60xf32>
// CHECK: tensor.extract_slice %[[FLAT]][0, 0, 5] [1, 4, 36] [1, 1, 1]
// CHECK: tensor.extract_slice %[[FLAT]][0, 0, 19] [1, 4, 36] [1, 1, 1]
// CHECK-DAG: %[[LEFT:.*]] = arith.constant dense<[0, -1, -1, -1, -1, -1]> : tensor<6xi32>
// CHECK-DAG: %[[RIGHT:.*]] = arith.constant dense<[-1, -1, -1, -1, -1, 0]> : tensor<6xi32>
// CHECK: linalg.generic
// CHECK-SAME: ins({{.*}}, %[[LEFT]], %[[RIGHT]] : {{.*}}, tensor<6xi32>, tensor<6xi32>)
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK-NEXT: arith.andi
// CHECK-NEXT: arith.bitcast %{{.*}} : i32 to f32
// CHECK-COUNT-9: arith.mulf
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
func.func @depthwise_padded(%x: tensor<1x4x6x6xf32>, %w: tensor<4x3x3xf32>, %init: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x4x8x8xf32>, tensor<4x3x3xf32>) outs(%init : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %r : tensor<1x4x6x6xf32>
}

// With strides of 2 (6x6 -> 3x3), the windows view rows of 2 * 6 elements
// and take every second column; no column reads past the right edge, so
// only the left taps are masked.
// CHECK-LABEL: func.func @depthwise_padded_stride2
// CHECK: tensor.empty() {onnx.cpu.buffer_of = {{.*}}} : tensor<1x4x10x6xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 5] [1, 4, 36] [1, 1, 1]
// CHECK-NEXT: tensor.expand_shape {{.*}} : tensor<1x4x36xf32> into tensor<1x4x3x12xf32>
// CHECK-NEXT: tensor.extract_slice {{.*}}[0, 0, 0, 0] [1, 4, 3, 3] [1, 1, 1, 2] : tensor<1x4x3x12xf32> to tensor<1x4x3x3xf32>
// CHECK: %[[LEFT:.*]] = arith.constant dense<[0, -1, -1]> : tensor<3xi32>
// CHECK: linalg.generic
// CHECK-SAME: ins({{.*}}, %[[LEFT]] : {{.*}}, tensor<3xi32>)
// CHECK-COUNT-3: arith.andi
// CHECK-NOT: arith.andi
func.func @depthwise_padded_stride2(%x: tensor<1x4x6x6xf32>, %w: tensor<4x3x3xf32>, %init: tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x7x7xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%p, %w : tensor<1x4x7x7xf32>, tensor<4x3x3xf32>) outs(%init : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %r : tensor<1x4x3x3xf32>
}

// Max and sum pooling: one elementwise op over the 9 strided windows of the
// (padded) image, combined in the named op's order; the window operand is
// only a shape.
// CHECK-LABEL: func.func @pools
// CHECK-DAG: tensor.extract_slice %arg0[0, 0, 0, 0] [1, 4, 4, 4] [1, 1, 2, 2]
// CHECK-DAG: tensor.extract_slice %arg0[0, 0, 2, 2] [1, 4, 4, 4] [1, 1, 2, 2]
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-COUNT-9: arith.maximumf
// CHECK: linalg.generic
// CHECK-COUNT-9: arith.addf
// CHECK-NOT: linalg.pooling_nchw
func.func @pools(%x: tensor<1x4x9x9xf32>, %init: tensor<1x4x4x4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %window = tensor.empty() : tensor<3x3xf32>
  %m = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %window : tensor<1x4x9x9xf32>, tensor<3x3xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %s = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %window : tensor<1x4x9x9xf32>, tensor<3x3xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %m, %s : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}

// ResNet-50's MaxPool: 3x3, stride 2, over the image padded by a row and a
// column of -inf. No padded copy: the windows read the image itself, in
// blocks of outputs that read the same taps: output row 0 and column 0
// lack tap 0 (rows and columns -1), the rest reads all 9. A pad of zeros
// (not max's identity) stays. (The pad left unused goes at the next
// canonicalization.)
// CHECK-LABEL: func.func @max_pool_padded
// The corner: taps (1..2, 1..2), from image row and column 0.
// CHECK: tensor.extract_slice %arg0[0, 0, 0, 0] [1, 4, 1, 1] [1, 1, 2, 2]
// CHECK: linalg.generic
// CHECK-COUNT-4: arith.maximumf
// CHECK-NOT: arith.maximumf
// CHECK: tensor.insert_slice {{.*}}[0, 0, 0, 0] [1, 4, 1, 1] [1, 1, 1, 1]
// Row 0 from column 1: taps (1..2, 0..2).
// CHECK: linalg.generic
// CHECK-COUNT-6: arith.maximumf
// CHECK-NOT: arith.maximumf
// CHECK: tensor.insert_slice {{.*}}[0, 0, 0, 1] [1, 4, 1, 3] [1, 1, 1, 1]
// Column 0 from row 1: taps (0..2, 1..2).
// CHECK: linalg.generic
// CHECK-COUNT-6: arith.maximumf
// CHECK-NOT: arith.maximumf
// CHECK: tensor.insert_slice {{.*}}[0, 0, 1, 0] [1, 4, 3, 1] [1, 1, 1, 1]
// The interior: all 9 taps, the first from image row and column 1.
// CHECK: tensor.extract_slice %arg0[0, 0, 1, 1] [1, 4, 3, 3] [1, 1, 2, 2]
// CHECK: linalg.generic
// CHECK-COUNT-9: arith.maximumf
// CHECK: tensor.insert_slice {{.*}}[0, 0, 1, 1] [1, 4, 3, 3] [1, 1, 1, 1]
// CHECK-LABEL: func.func @max_pool_zero_padded
// CHECK: %[[P:.*]] = tensor.pad
// CHECK: tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 4, 4, 4] [1, 1, 2, 2]
// CHECK: linalg.generic
// CHECK-COUNT-9: arith.maximumf
func.func @max_pool_padded(%x: tensor<1x4x8x8xf32>, %init: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %lowest : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x9x9xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %m = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%p, %window : tensor<1x4x9x9xf32>, tensor<3x3xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %m : tensor<1x4x4x4xf32>
}
func.func @max_pool_zero_padded(%x: tensor<1x4x8x8xf32>, %init: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x9x9xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %m = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%p, %window : tensor<1x4x9x9xf32>, tensor<3x3xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %m : tensor<1x4x4x4xf32>
}

// An i32 product (MatMulInteger's, of its operands less their zero points)
// is packed like an f32 one, its constant operand at compile time (its blob
// checked at the end), and computed as an i32 mmt4d; a product that casts
// its operands (i8 into an i32 result) is left alone.
// CHECK-LABEL: func.func @matmul_i32
// CHECK: linalg.pack %arg0 padding_value(%{{.*}} : i32) {{.*}} -> tensor<1x2x4x1xi32>
// CHECK: %[[B:.*]] = arith.constant dense_resource<onnx_packed_weights_{{[0-9]+}}> : tensor<1x2x16x1xi32>
// CHECK: linalg.mmt4d ins(%{{.*}}, %[[B]] : {{.*}}) {{.*}} -> tensor<1x1x4x16xi32>
// CHECK: linalg.unpack {{.*}} -> tensor<3x3xi32>
// CHECK-LABEL: func.func @matmul_i8_to_i32
// CHECK-NOT: linalg.mmt4d
// CHECK: linalg.matmul
func.func @matmul_i32(%a: tensor<3x2xi32>) -> tensor<3x3xi32> {
  %b = arith.constant dense<[[1, -2, 3], [4, 5, -6]]> : tensor<2x3xi32>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x3xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<3x3xi32>) -> tensor<3x3xi32>
  %p = linalg.matmul ins(%a, %b : tensor<3x2xi32>, tensor<2x3xi32>) outs(%f : tensor<3x3xi32>) -> tensor<3x3xi32>
  return %p : tensor<3x3xi32>
}
func.func @matmul_i8_to_i32(%a: tensor<3x2xi8>, %b: tensor<2x3xi8>) -> tensor<3x3xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x3xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<3x3xi32>) -> tensor<3x3xi32>
  %p = linalg.matmul ins(%a, %b : tensor<3x2xi8>, tensor<2x3xi8>) outs(%f : tensor<3x3xi32>) -> tensor<3x3xi32>
  return %p : tensor<3x3xi32>
}

// An i32 convolution (ConvInteger's) goes through im2col and the i32
// product, never the direct (f32) kernels.
// CHECK-LABEL: func.func @conv_i32
// CHECK-NOT: onnx.cpu.direct_conv
// CHECK: tensor.collapse_shape {{.*}} into tensor<144x64xi32>
// CHECK: linalg.mmt4d {{.*}} -> tensor<1x4x8x16xi32>
func.func @conv_i32(%x: tensor<1x16x10x10xi32>, %w: tensor<8x16x3x3xi32>) -> tensor<1x8x8x8xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x8x8x8xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<1x8x8x8xi32>) -> tensor<1x8x8x8xi32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x16x10x10xi32>, tensor<8x16x3x3xi32>) outs(%f : tensor<1x8x8x8xi32>) -> tensor<1x8x8x8xi32>
  return %y : tensor<1x8x8x8xi32>
}

// An i32 product of 8-bit values widened (less a zero point): with AVX-512
// VNNI a product of quads of bytes, signed by unsigned (vpdpbusd's): the
// unsigned A and the signed B are xor-ed with 0x80 and packed in quads of k
// (K = 5 padded to 8 with zeros); B's column sums and A's row sums, and the
// elementwise op that subtracts the zero points' terms from the unpacked
// product; without VNNI the i32 product.
// VNNI-LABEL: func.func @matmul_widened_8bit
// VNNI: arith.xori %{{.*}}, %{{.*}} : i8
// VNNI: linalg.pack {{.*}} padding_value(%{{.*}} : i8) inner_dims_pos = [0, 1] inner_tiles = [16, 4] {{.*}} -> tensor<2x2x16x4xi8>
// VNNI: arith.xori %{{.*}}, %{{.*}} : i8
// VNNI: linalg.pack {{.*}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 4] {{.*}} -> tensor<1x2x16x4xi8>
// VNNI: iterator_types = ["reduction", "parallel"]} ins(%{{.*}} : tensor<5x16xi8>) outs(%{{.*}} : tensor<16xi32>)
// VNNI: iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<32x5xi8>) outs(%{{.*}} : tensor<32xi32>)
// VNNI: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x2x16x4xi8>, tensor<1x2x16x4xi8>) outs(%{{.*}} : tensor<2x1x16x16xi32>) attrs = {onnx.cpu.quad_product}
// VNNI-NEXT: ^bb0
// VNNI-NEXT: arith.extsi
// VNNI-NEXT: arith.extui
// VNNI: linalg.unpack {{.*}} -> tensor<32x16xi32>
// VNNI: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x16xi32>, tensor<32xi32>, tensor<16xi32>, tensor<i8>)
// VNNI-NOT: xi16
// CHECK-LABEL: func.func @matmul_widened_8bit
// CHECK-NOT: xi16
// CHECK: linalg.mmt4d {{.*}} -> tensor<2x1x16x16xi32>
func.func @matmul_widened_8bit(%a: tensor<32x5xi8>, %b: tensor<5x16xi8>, %bz: tensor<i8>) -> tensor<32x16xi32> {
  %ea = tensor.empty() : tensor<32x5xi32>
  %wa = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<32x5xi8>) outs(%ea : tensor<32x5xi32>) {
  ^bb0(%x: i8, %o: i32):
    %e = arith.extui %x : i8 to i32
    linalg.yield %e : i32
  } -> tensor<32x5xi32>
  %eb = tensor.empty() : tensor<5x16xi32>
  %wb = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%b, %bz : tensor<5x16xi8>, tensor<i8>) outs(%eb : tensor<5x16xi32>) {
  ^bb0(%x: i8, %z: i8, %o: i32):
    %e = arith.extsi %x : i8 to i32
    %f = arith.extsi %z : i8 to i32
    %d = arith.subi %e, %f : i32
    linalg.yield %d : i32
  } -> tensor<5x16xi32>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<32x16xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<32x16xi32>) -> tensor<32x16xi32>
  %p = linalg.matmul ins(%wa, %wb : tensor<32x5xi32>, tensor<5x16xi32>) outs(%f : tensor<32x16xi32>) -> tensor<32x16xi32>
  return %p : tensor<32x16xi32>
}

// A constant signed B times an unsigned A with a zero point: B is xor-ed
// with 0x80, packed in quads here (K = 5: a second quad of one row, then
// zeros) and its column sums, (1 + 4 + 7 + 10 + 13) + 5 * 128 = 675, 680,
// 685, are a constant; A's row sums at run time. The packed bytes are
// checked at the end.
// VNNI-LABEL: func.func @matmul_8bit_constant_b
// VNNI-DAG: arith.constant dense<[675, 680, 685]> : tensor<3xi32>
// VNNI-DAG: arith.constant dense_resource<[[QUADS:onnx_packed_weights[_0-9]*]]> : tensor<1x2x16x4xi8>
// VNNI: attrs = {onnx.cpu.quad_product}
// CHECK-LABEL: func.func @matmul_8bit_constant_b
// CHECK-NOT: onnx.cpu.quad_product
func.func @matmul_8bit_constant_b(%a: tensor<20x5xi8>, %az: tensor<i8>) -> tensor<20x3xi32> {
  %b = arith.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14, 15]]> : tensor<5x3xi8>
  %ea = tensor.empty() : tensor<20x5xi32>
  %wa = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %az : tensor<20x5xi8>, tensor<i8>) outs(%ea : tensor<20x5xi32>) {
  ^bb0(%x: i8, %z: i8, %o: i32):
    %e = arith.extui %x : i8 to i32
    %f = arith.extui %z : i8 to i32
    %d = arith.subi %e, %f : i32
    linalg.yield %d : i32
  } -> tensor<20x5xi32>
  %eb = tensor.empty() : tensor<5x3xi32>
  %wb = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<5x3xi8>) outs(%eb : tensor<5x3xi32>) {
  ^bb0(%x: i8, %o: i32):
    %e = arith.extsi %x : i8 to i32
    linalg.yield %e : i32
  } -> tensor<5x3xi32>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<20x3xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<20x3xi32>) -> tensor<20x3xi32>
  %p = linalg.matmul ins(%wa, %wb : tensor<20x5xi32>, tensor<5x3xi32>) outs(%f : tensor<20x3xi32>) -> tensor<20x3xi32>
  return %p : tensor<20x3xi32>
}

// An i32 convolution of 8-bit values less their zero points (QLinearConv,
// ConvInteger), its widened image padded with zeros: with AVX-512 VNNI
// im2col copies the bytes of the image padded with its zero point (read
// from the rank-0 tensor), [144, 64] x i8, and the product of the filter's
// and the columns' quads follows, the zero point's term (filter row sums
// times it) after; without VNNI the i32 im2col.
// VNNI-LABEL: func.func @conv_widened_8bit
// VNNI: %[[ZP:.*]] = tensor.extract %{{.*}}[] : tensor<i8>
// VNNI: tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// VNNI: tensor.yield %[[ZP]] : i8
// VNNI: tensor.collapse_shape {{.*}} into tensor<8x144xi8>
// VNNI: tensor.collapse_shape {{.*}} into tensor<144x64xi8>
// VNNI: linalg.pack {{.*}} -> tensor<1x36x8x4xi8>
// VNNI: linalg.pack {{.*}} -> tensor<4x36x16x4xi8>
// VNNI: attrs = {onnx.cpu.quad_product}
// VNNI: linalg.unpack {{.*}} -> tensor<8x64xi32>
// VNNI: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<8x64xi32>, tensor<8xi32>, tensor<i8>)
// CHECK-LABEL: func.func @conv_widened_8bit
// CHECK: tensor.collapse_shape {{.*}} into tensor<144x64xi32>
// CHECK: linalg.mmt4d
func.func @conv_widened_8bit(%x: tensor<1x16x8x8xi8>, %w: tensor<8x16x3x3xi8>, %xz: tensor<i8>) -> tensor<1x8x8x8xi32> {
  %ex = tensor.empty() : tensor<1x16x8x8xi32>
  %wx = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> ()>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %xz : tensor<1x16x8x8xi8>, tensor<i8>) outs(%ex : tensor<1x16x8x8xi32>) {
  ^bb0(%a: i8, %z: i8, %o: i32):
    %e = arith.extui %a : i8 to i32
    %f = arith.extui %z : i8 to i32
    %d = arith.subi %e, %f : i32
    linalg.yield %d : i32
  } -> tensor<1x16x8x8xi32>
  %ew = tensor.empty() : tensor<8x16x3x3xi32>
  %ww = linalg.generic {indexing_maps = [affine_map<(f, c, h, w) -> (f, c, h, w)>, affine_map<(f, c, h, w) -> (f, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%w : tensor<8x16x3x3xi8>) outs(%ew : tensor<8x16x3x3xi32>) {
  ^bb0(%a: i8, %o: i32):
    %e = arith.extsi %a : i8 to i32
    linalg.yield %e : i32
  } -> tensor<8x16x3x3xi32>
  %c0 = arith.constant 0 : i32
  %p = tensor.pad %wx low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %c0 : i32
  } : tensor<1x16x8x8xi32> to tensor<1x16x10x10xi32>
  %e = tensor.empty() : tensor<1x8x8x8xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x8x8x8xi32>) -> tensor<1x8x8x8xi32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %ww : tensor<1x16x10x10xi32>, tensor<8x16x3x3xi32>) outs(%f : tensor<1x8x8x8xi32>) -> tensor<1x8x8x8xi32>
  return %y : tensor<1x8x8x8xi32>
}

// A constant signed A (a quantized convolution's filter) times an unsigned
// B with a zero point: A is packed in quads here (3 rows in a tile of 4,
// K = 5) and its row sums, 15, -15, 0, are a constant.
// VNNI-LABEL: func.func @matmul_8bit_constant_a
// VNNI-DAG: arith.constant dense<[15, -15, 0]> : tensor<3xi32>
// VNNI-DAG: arith.constant dense_resource<[[ROWQUADS:onnx_packed_weights[_0-9]*]]> : tensor<1x2x4x4xi8>
// VNNI: attrs = {onnx.cpu.quad_product}
func.func @matmul_8bit_constant_a(%b: tensor<5x16xi8>, %bz: tensor<i8>) -> tensor<3x16xi32> {
  %a = arith.constant dense<[[1, 2, 3, 4, 5], [-1, -2, -3, -4, -5], [10, 0, 0, 0, -10]]> : tensor<3x5xi8>
  %ea = tensor.empty() : tensor<3x5xi32>
  %wa = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<3x5xi8>) outs(%ea : tensor<3x5xi32>) {
  ^bb0(%x: i8, %o: i32):
    %e = arith.extsi %x : i8 to i32
    linalg.yield %e : i32
  } -> tensor<3x5xi32>
  %eb = tensor.empty() : tensor<5x16xi32>
  %wb = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%b, %bz : tensor<5x16xi8>, tensor<i8>) outs(%eb : tensor<5x16xi32>) {
  ^bb0(%x: i8, %z: i8, %o: i32):
    %e = arith.extui %x : i8 to i32
    %f = arith.extui %z : i8 to i32
    %d = arith.subi %e, %f : i32
    linalg.yield %d : i32
  } -> tensor<5x16xi32>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x16xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<3x16xi32>) -> tensor<3x16xi32>
  %p = linalg.matmul ins(%wa, %wb : tensor<3x5xi32>, tensor<5x16xi32>) outs(%f : tensor<3x16xi32>) -> tensor<3x16xi32>
  return %p : tensor<3x16xi32>
}

// A quad product of one row (signed A, unsigned B, no zero points): a tile
// of 1 x 64 (four registers of columns, vpdpbusd for each), and no sums.
// VNNI-LABEL: func.func @matmul_8bit_one_row
// VNNI: linalg.pack {{.*}} inner_tiles = [1, 4] {{.*}} -> tensor<1x2x1x4xi8>
// VNNI: linalg.pack {{.*}} inner_tiles = [64, 4] {{.*}} -> tensor<1x2x64x4xi8>
// VNNI: attrs = {onnx.cpu.quad_product}
// VNNI: linalg.unpack {{.*}} -> tensor<1x64xi32>
// VNNI-NOT: iterator_types = ["parallel", "reduction"]
// VNNI: return
func.func @matmul_8bit_one_row(%a: tensor<1x8xi8>, %b: tensor<8x64xi8>) -> tensor<1x64xi32> {
  %ea = tensor.empty() : tensor<1x8xi32>
  %wa = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x8xi8>) outs(%ea : tensor<1x8xi32>) {
  ^bb0(%x: i8, %o: i32):
    %e = arith.extsi %x : i8 to i32
    linalg.yield %e : i32
  } -> tensor<1x8xi32>
  %eb = tensor.empty() : tensor<8x64xi32>
  %wb = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<8x64xi8>) outs(%eb : tensor<8x64xi32>) {
  ^bb0(%x: i8, %o: i32):
    %e = arith.extui %x : i8 to i32
    linalg.yield %e : i32
  } -> tensor<8x64xi32>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x64xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<1x64xi32>) -> tensor<1x64xi32>
  %p = linalg.matmul ins(%wa, %wb : tensor<1x8xi32>, tensor<8x64xi32>) outs(%f : tensor<1x64xi32>) -> tensor<1x64xi32>
  return %p : tensor<1x64xi32>
}

// The packed blob of @matmul_const after its alignment (0x40000000: 64):
// row k = 0 is 1, 2, 3 then 13 zeros, row k = 1 is 4, 5, 6 then 13 zeros
// (f32, little endian).
// CHECK: onnx_packed_weights: "0x400000000000803F000000400000404000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000080400000A0400000C040
// CHECK-NEXT: onnx_packed_weights_1: "0x400000000000803F000000400000404000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000080400000A0400000C040
// @matmul_i32's, the last one made: row k = 0 is 1, -2, 3, row k = 1 is 4,
// 5, -6, each then 13 zeros (i32, little endian).
// CHECK: onnx_packed_weights_{{[0-9]+}}: "0x4000000001000000FEFFFFFF03000000{{0+}}0400000005000000FAFFFFFF{{0+}}"
// @matmul_8bit_constant_b's quads: column 0's rows 0-3 are 1, 4, 7, 10 plus
// 128 (0x81 0x84 0x87 0x8A), columns 1 and 2 likewise, the other 13 columns
// zeros; the second quad holds row 4 (13 + 128 = 0x8D) and three zeros.
// VNNI: [[QUADS]]: "0x400000008184878A8285888B8386898C{{0+}}8D0000008E0000008F000000{{0+}}"
// @matmul_8bit_constant_a's quads: rows 0-2's first quads (1 2 3 4, -1 -2
// -3 -4, 10 0 0 0), row 3 of zeros, then their second quads (5, -5, -10,
// each and three zeros).
// VNNI: [[ROWQUADS]]: "0x4000000001020304FFFEFDFC0A0000000000000005000000FB000000F600000000000000"
