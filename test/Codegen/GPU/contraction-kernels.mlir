// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{min-blocks=0}))' | FileCheck %s
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{tile-m=64 tile-n=64 tile-k=4 thread-m=4 thread-n=4 min-blocks=0}))' \
// RUN:   | FileCheck %s --check-prefix=SMALL
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{prefetch=false min-blocks=0}))' \
// RUN:   | FileCheck %s --check-prefix=NOPF
// RUN: echo 'func.func @f() { return }' | not onnx-opt \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{tile-m=128 tile-n=128 thread-m=3}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: onnx-gpu-contraction-kernels: tiles 128x128x8 with 3x8 per thread do not divide into whole warps
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{tf32=true min-blocks=0}))' \
// RUN:   | FileCheck %s --check-prefix=TF32
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{tf32=true tile-m=32 tile-n=16 thread-m=4 thread-n=4 prefetch=false min-blocks=0},canonicalize,cse))' \
// RUN:   | FileCheck %s --check-prefix=WARP
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{pad-images=false min-blocks=0}))' \
// RUN:   | FileCheck %s --check-prefix=NOPAD
// RUN: echo 'func.func @f() { return }' | not onnx-opt \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{tf32=true tile-k=4}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BADTF32
// BADTF32: onnx-gpu-contraction-kernels: with tf32, the tile 128x64x4 must be staged in multiples of 8 deep and split into 16x8 tiles among its 4 warps

// A matrix product: one block per 128x64 output tile (grid x over n, y over
// m), 128 threads, an 8x128 and an 8x64 stage in workgroup memory, 64
// accumulators per thread carried over the k slices. The first slice is
// staged before the loop (8 elements of A and 4 of B per thread, then a
// barrier); each
// iteration loads the next slice into registers, computes 8 steps of 8x8
// products on the staged one, then (between barriers) stages the next. The
// grid (2 x 2) is static and fits: no fallback (@dynamic has one).
// CHECK-LABEL: func.func @matmul
// CHECK-NOT:   scf.if
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c2{{[_0-9]*}}, %{{.*}} = %c2{{[_0-9]*}}, %{{.*}} = %{{.*}}) threads({{.*}}) in (%{{.*}} = %c128
// CHECK-SAME:      workgroup(%[[SA:.*]] : memref<8x128xf32, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<8x64xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-8:   memref.store %{{.*}}, %[[SA]]
// CHECK-COUNT-4:   memref.store %{{.*}}, %[[SB]]
// CHECK:           gpu.barrier
// CHECK:           %[[ACC:.*]]:64 = scf.for
// CHECK-COUNT-8:     memref.load %arg0
// CHECK-COUNT-4:     memref.load %arg1
// CHECK-NOT:         gpu.barrier
// CHECK-COUNT-64:    arith.addf {{.*}} fastmath<contract>
// CHECK:             gpu.barrier
// CHECK-COUNT-8:     memref.store %{{.*}}, %[[SA]]
// CHECK-COUNT-4:     memref.store %{{.*}}, %[[SB]]
// CHECK:             gpu.barrier
// CHECK:             scf.yield
// CHECK:           scf.if
// CHECK:             scf.if
// CHECK:               %[[OLD:.*]] = memref.load %arg2
// CHECK:               %[[SUM:.*]] = arith.addf %[[OLD]], %[[ACC]]#0
// CHECK:               memref.store %[[SUM]], %arg2
// CHECK:           gpu.terminator
// CHECK-NOT:   linalg.matmul
// Without prefetching, each iteration stages its own slice first.
// NOPF-LABEL: func.func @matmul
// NOPF:         gpu.launch
// NOPF-NOT:       gpu.barrier
// NOPF:           scf.for
// NOPF-COUNT-8:     memref.load %arg0
// NOPF-COUNT-4:     memref.load %arg1
// NOPF-COUNT-12:    memref.store {{.*}}#gpu.address_space<workgroup>
// NOPF-NEXT:        gpu.barrier
// NOPF-COUNT-64:    arith.addf {{.*}} fastmath<contract>
// NOPF:             gpu.barrier
// NOPF-NEXT:        scf.yield
// SMALL-LABEL: func.func @matmul
// SMALL:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256
// SMALL-SAME:      workgroup(%{{.*}} : memref<4x64xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<4x64xf32, #gpu.address_space<workgroup>>)
// SMALL:           scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// With tf32, the same staging, each element rounded to TF32 (8 of A and
// 4 of B per thread) into slices whose rows are 8 longer (136 and 72); the
// 4 warps form a 2x2 grid of 64x32 tiles, each thread holding 16 C
// fragments of 4 and computing a k-step of 8 as 16 mma.sync.m16n8k8 from
// 16 A and 8 B registers read from workgroup memory.
// TF32-LABEL: func.func @matmul
// TF32:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128
// TF32-SAME:      workgroup(%[[SA:.*]] : memref<8x136xf32, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<8x72xf32, #gpu.address_space<workgroup>>)
// TF32-COUNT-8:   nvvm.convert.float.to.tf32 {{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// TF32-COUNT-4:   nvvm.convert.float.to.tf32
// TF32:           gpu.barrier
// TF32:           scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// TF32-COUNT-16:    memref.load %[[SA]]
// TF32-COUNT-8:     memref.load %[[SB]]
// TF32-COUNT-16:    nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// TF32-NOT:         arith.mulf
// TF32:             gpu.barrier
// TF32:           scf.yield
// One warp (32 threads) over a 32x16 tile: lane = 4 g + t; A's fragments
// at rows g, g+8, g+16, g+24 and k t, t+4; B's at columns g, g+8; C's at
// those rows and columns 2t, 2t+1, 2t+8, 2t+9. Each mma takes its C from
// the accumulators of its rows and columns, and they take its D back in
// the same places.
// WARP-LABEL: func.func @matmul
// WARP:         gpu.launch {{.*}} threads(%[[TID:[a-z0-9]+]], %{{.*}}, %{{.*}}) in
// WARP-SAME:      workgroup(%[[SA:[a-z0-9]+]] : memref<8x40xf32, #gpu.address_space<workgroup>>, %[[SB:[a-z0-9]+]] : memref<8x24xf32, #gpu.address_space<workgroup>>)
// WARP:           %[[LANE:[0-9]+]] = arith.remui %[[TID]], %c32
// WARP:           %[[G:[0-9]+]] = arith.divui %[[LANE]], %c4
// WARP:           %[[T:[0-9]+]] = arith.remui %[[LANE]], %c4
// WARP:           %[[R0:[0-9]+]] = arith.addi %{{.*}}, %[[G]]
// WARP:           %[[R1:[0-9]+]] = arith.addi %[[R0]], %c8
// WARP:           %[[R2:[0-9]+]] = arith.addi %[[R0]], %c16
// WARP:           %[[R3:[0-9]+]] = arith.addi %[[R0]], %c24
// WARP:           %[[C0:[0-9]+]] = arith.muli %[[T]], %c2
// WARP:           %[[C1:[0-9]+]] = arith.addi %[[C0]], %c1
// WARP:           %[[C2:[0-9]+]] = arith.addi %[[C0]], %c8
// WARP:           %[[C3:[0-9]+]] = arith.addi %[[C0]], %c9
// WARP:           %[[BC1:[0-9]+]] = arith.addi %[[G]], %c8
// WARP:           %[[ACC:.*]]:16 = scf.for %[[K:[a-z0-9]+]] = {{.*}} iter_args(%[[X0:[^ ]*]] = %{{[^,]*}}, %[[X1:[^ ]*]] = %{{[^,]*}}, %[[X2:[^ ]*]] = %{{[^,]*}}, %[[X3:[^ ]*]] = %{{[^,]*}}, %[[X4:[^ ]*]] = %{{[^,]*}}, %[[X5:[^ ]*]] = %{{[^,]*}}, %[[X6:[^ ]*]] = %{{[^,]*}}, %[[X7:[^ ]*]] = %{{[^,]*}}, %[[X8:[^ ]*]] = %{{[^,]*}}, %[[X9:[^ ]*]] = %{{[^,]*}}, %[[X10:[^ ]*]] = %{{[^,]*}}, %[[X11:[^ ]*]] = %{{[^,]*}}, %[[X12:[^ ]*]] = %{{[^,]*}}, %[[X13:[^ ]*]] = %{{[^,]*}}, %[[X14:[^ ]*]] = %{{[^,]*}}, %[[X15:[^ ]*]] = %{{[^,]*}})
// WARP:             gpu.barrier
// WARP:             %[[K1:[0-9]+]] = arith.addi %[[T]], %c4
// WARP:             %[[L0:[0-9]+]] = memref.load %[[SA]][%[[T]], %[[R0]]]
// WARP:             %[[A0:[0-9]+]] = arith.bitcast %[[L0]] : f32 to i32
// WARP:             %[[L1:[0-9]+]] = memref.load %[[SA]][%[[T]], %[[R1]]]
// WARP:             %[[A1:[0-9]+]] = arith.bitcast %[[L1]]
// WARP:             %[[L2:[0-9]+]] = memref.load %[[SA]][%[[K1]], %[[R0]]]
// WARP:             %[[A2:[0-9]+]] = arith.bitcast %[[L2]]
// WARP:             %[[L3:[0-9]+]] = memref.load %[[SA]][%[[K1]], %[[R1]]]
// WARP:             %[[A3:[0-9]+]] = arith.bitcast %[[L3]]
// WARP:             memref.load %[[SA]][%[[T]], %[[R2]]]
// WARP:             memref.load %[[SA]][%[[T]], %[[R3]]]
// WARP:             memref.load %[[SA]][%[[K1]], %[[R2]]]
// WARP:             memref.load %[[SA]][%[[K1]], %[[R3]]]
// WARP:             %[[L4:[0-9]+]] = memref.load %[[SB]][%[[T]], %[[G]]]
// WARP:             %[[B0:[0-9]+]] = arith.bitcast %[[L4]]
// WARP:             %[[L5:[0-9]+]] = memref.load %[[SB]][%[[K1]], %[[G]]]
// WARP:             %[[B1:[0-9]+]] = arith.bitcast %[[L5]]
// WARP:             memref.load %[[SB]][%[[T]], %[[BC1]]]
// WARP:             memref.load %[[SB]][%[[K1]], %[[BC1]]]
// WARP:             %[[D00:[0-9]+]] = nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]]  B[%[[B0]], %[[B1]]]  C[%[[X0]], %[[X1]], %[[X4]], %[[X5]]]
// WARP:             %[[E0:[0-9]+]] = llvm.extractvalue %[[D00]][0]
// WARP:             %[[E1:[0-9]+]] = llvm.extractvalue %[[D00]][1]
// WARP:             %[[E2:[0-9]+]] = llvm.extractvalue %[[D00]][2]
// WARP:             %[[E3:[0-9]+]] = llvm.extractvalue %[[D00]][3]
// WARP:             nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]]  B[{{.*}}]  C[%[[X2]], %[[X3]], %[[X6]], %[[X7]]]
// WARP:             nvvm.mma.sync A[{{.*}}]  B[%[[B0]], %[[B1]]]  C[%[[X8]], %[[X9]], %[[X12]], %[[X13]]]
// WARP:             nvvm.mma.sync A[{{.*}}]  B[{{.*}}]  C[%[[X10]], %[[X11]], %[[X14]], %[[X15]]]
// WARP:             scf.yield %[[E0]], %[[E1]], %{{[^,]*}}, %{{[^,]*}}, %[[E2]], %[[E3]],
// WARP:           %[[M0:[0-9]+]] = arith.addi %{{.*}}, %[[R0]]
// WARP:           %[[N0:[0-9]+]] = arith.addi %{{.*}}, %[[C0]]
// WARP:           %[[OLD:[0-9]+]] = memref.load %arg2[%[[M0]], %[[N0]]]
// WARP:           arith.addf %[[OLD]], %[[ACC]]#0
func.func @matmul(%a: memref<200x300xf32>, %b: memref<300x100xf32>, %c: memref<200x100xf32>) {
  linalg.matmul ins(%a, %b : memref<200x300xf32>, memref<300x100xf32>) outs(%c : memref<200x100xf32>)
  return
}

// -----

// A batched product whose second operand is broadcast over the first batch
// dim: both parallel dims other than the tile's index blocks in z (2 * 3),
// decomposed with the last fastest; the first operand is read as [b0, b1, m,
// k], the second as [b1, k, n].
// CHECK-LABEL: func.func @broadcast_batch
// CHECK:       %[[Z:.*]] = arith.constant 6 : index
// CHECK:       gpu.launch blocks(%{{.*}}, %{{.*}}, %[[BZ:.*]]) in (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %[[Z]])
// CHECK:         %[[B1:.*]] = arith.remui %[[BZ]], %c3
// CHECK:         %[[REST:.*]] = arith.divui %[[BZ]], %c3
// CHECK:         %[[B0:.*]] = arith.remui %[[REST]], %c2
// CHECK:         scf.for
// CHECK:           memref.load %arg0[%[[B0]], %[[B1]], %{{.*}}, %{{.*}}] : memref<2x3x20x30xf32>
// CHECK:           memref.load %arg1[%[[B1]], %{{.*}}, %{{.*}}] : memref<3x30x10xf32>
// CHECK-NOT:   linalg.generic
func.func @broadcast_batch(%a: memref<2x3x20x30xf32>, %b: memref<3x30x10xf32>, %c: memref<2x3x20x10xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : memref<2x3x20x30xf32>, memref<3x30x10xf32>) outs(%c : memref<2x3x20x10xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.mulf %in, %in_0 : f32
    %1 = arith.addf %out, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Dynamic sizes: the grid and the bounds come from the buffers at run time,
// and the original op runs instead where the grid does not fit (no rows,
// more than 65535 blocks in y).
// CHECK-LABEL: func.func @dynamic
// CHECK-DAG:   %[[M:.*]] = memref.dim %arg0, %c0
// CHECK-DAG:   %[[K:.*]] = memref.dim %arg0, %c1
// CHECK-DAG:   %[[GY:.*]] = arith.ceildivui %[[M]], %c128
// CHECK-DAG:   %[[Y:.*]] = arith.cmpi ule, %[[GY]], %c65535
// CHECK:       scf.if
// CHECK:         gpu.launch
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[K]] step %c8
// CHECK:       } else {
// CHECK:         linalg.matmul {{.*}}onnx.gpu_fallback
func.func @dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// Not handled: other element types, and tensors (before bufferization).
// CHECK-LABEL: func.func @not_f32
// CHECK-NOT:   gpu.launch
// CHECK:       linalg.matmul
func.func @not_f32(%a: memref<4x4xi32>, %b: memref<4x4xi32>, %c: memref<4x4xi32>) {
  linalg.matmul ins(%a, %b : memref<4x4xi32>, memref<4x4xi32>) outs(%c : memref<4x4xi32>)
  return
}

// CHECK-LABEL: func.func @tensors
// CHECK-NOT:   gpu.launch
// CHECK:       linalg.matmul
func.func @tensors(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// A convolution as an implicit product: m is the output channel (the filter
// holds it: the first operand staged), n the batch and output pixels
// (2 x 4 x 4 = 32), k the input channel and the window (3 x 3 x 3 = 27),
// each linearized; the input is read at oh + kh, ow + kw.
// CHECK-LABEL: func.func @conv
// CHECK:       gpu.launch
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8
// CHECK:           memref.load %arg1[{{.*}}] : memref<5x3x3x3xf32>
// CHECK:           memref.load %arg0[{{.*}}] : memref<2x3x6x6xf32>
// CHECK-NOT:   linalg.conv_2d_nchw_fchw
func.func @conv(%in: memref<2x3x6x6xf32>, %filter: memref<5x3x3x3xf32>, %out: memref<2x5x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %filter : memref<2x3x6x6xf32>, memref<5x3x3x3xf32>) outs(%out : memref<2x5x4x4xf32>)
  return
}

// -----

// f16 operands that the body extends to f32 (an f16 MatMul, which
// accumulates in f32): extended as they are loaded, staged as f32.
// CHECK-LABEL: func.func @f16_operands
// CHECK:       gpu.launch
// CHECK-SAME:    workgroup(%{{.*}} : memref<8x128xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x64xf32, #gpu.address_space<workgroup>>)
// CHECK:         memref.load %arg0{{.*}} : memref<64x32xf16>
// CHECK-NEXT:    arith.extf {{.*}} : f16 to f32
// CHECK:         memref.load %arg1{{.*}} : memref<32x16xbf16>
// CHECK-NEXT:    arith.extf {{.*}} : bf16 to f32
// CHECK-NOT:   linalg.matmul
func.func @f16_operands(%a: memref<64x32xf16>, %b: memref<32x16xbf16>, %c: memref<64x16xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x16xbf16>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// A product computed in f16 (its body multiplies f16 values) is not an f32
// product: it stays as it is.
// CHECK-LABEL: func.func @f16_product
// CHECK-NOT:   gpu.launch
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @f16_product(%a: memref<64x32xf16>, %b: memref<32x16xf16>, %c: memref<64x16xf32>) {
  linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<64x32xf16>, memref<32x16xf16>) outs(%c : memref<64x16xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %p = arith.mulf %x, %y : f16
    %e = arith.extf %p : f16 to f32
    %s = arith.addf %acc, %e : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Depthwise convolutions stay as they are.
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT:   gpu.launch
func.func @depthwise(%in: memref<1x6x6x3xf32>, %filter: memref<3x3x3xf32>, %out: memref<1x4x4x3xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %filter : memref<1x6x6x3xf32>, memref<3x3x3xf32>) outs(%out : memref<1x4x4x3xf32>)
  return
}

// -----

// Tiles for small products (min-blocks, 132 by default). A batch-1 BERT's
// 128x768 output would be 12 blocks of 128x64: 32x32 tiles with 4x4 a
// thread (64 threads) give 96, the most of the smaller tiles. A 1024x1024
// output would be 128 blocks: 64x64 tiles (8x8 a thread, 64 threads) give
// 256. A 4096x1024 one keeps the 128x64 tiles (512 blocks).
// CHECK-LABEL: func.func @small_products
// ADAPT-LABEL: func.func @small_products
// ADAPT:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c24{{.*}}, %{{.*}} = %c4{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c64{{.*}},
// ADAPT:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c16{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c64{{.*}},
// ADAPT:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c32{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c128{{.*}},
func.func @small_products(%a: memref<128x768xf32>, %b: memref<768x768xf32>, %c: memref<128x768xf32>,
                          %d: memref<1024x64xf32>, %e: memref<64x1024xf32>, %f: memref<1024x1024xf32>,
                          %g: memref<4096x64xf32>, %h: memref<4096x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<128x768xf32>, memref<768x768xf32>) outs(%c : memref<128x768xf32>)
  linalg.matmul ins(%d, %e : memref<1024x64xf32>, memref<64x1024xf32>) outs(%f : memref<1024x1024xf32>)
  linalg.matmul ins(%g, %e : memref<4096x64xf32>, memref<64x1024xf32>) outs(%h : memref<4096x1024xf32>)
  return
}

// -----

// A convolution whose image is a zero-padded copy made for it alone (what
// bufferization leaves of tensor.pad): the kernel reads the copied image
// at each padded position less the low padding, zero outside it (unsigned
// compares: below the padding wraps around), and the padded buffer, its
// fill and its copy go. With pad-images=false the padded copy stays.
// CHECK-LABEL: func.func @padded_image
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     linalg.map
// CHECK-NOT:     linalg.copy
// CHECK:         gpu.launch
// CHECK:           arith.cmpi ult, %[[Y:.*]], %c6{{[_0-9]*}} : index
// CHECK-NEXT:      arith.andi
// CHECK-NEXT:      %c5{{[_0-9]*}} = arith.constant 5 : index
// CHECK-NEXT:      %[[YC:.*]] = arith.minui %[[Y]], %c5
// CHECK-NEXT:      %c1{{[_0-9]*}} = arith.constant 1 : index
// CHECK-NEXT:      %[[X:.*]] = arith.subi %{{.*}}, %c1{{[_0-9]*}} : index
// CHECK-NEXT:      %c6{{[_0-9]*}} = arith.constant 6 : index
// CHECK-NEXT:      arith.cmpi ult, %[[X]], %c6
// CHECK-NEXT:      arith.andi
// CHECK-NEXT:      %c5{{[_0-9]*}} = arith.constant 5 : index
// CHECK-NEXT:      %[[XC:.*]] = arith.minui %[[X]], %c5
// CHECK-NEXT:      memref.load %arg0[%{{.*}}, %{{.*}}, %[[YC]], %[[XC]]] : memref<2x3x6x6xf32>
// CHECK-NOT:     memref.dealloc
// NOPAD-LABEL: func.func @padded_image
// NOPAD:         memref.alloc() : memref<2x3x8x8xf32>
// NOPAD:         linalg.map
// NOPAD:         linalg.copy
// NOPAD:         gpu.launch
// NOPAD:           memref.load %{{.*}} : memref<2x3x8x8xf32>
func.func @padded_image(%in: memref<2x3x6x6xf32>, %filter: memref<5x3x3x3xf32>, %out: memref<2x5x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<2x3x8x8xf32>
  linalg.map outs(%padded : memref<2x3x8x8xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %interior = memref.subview %padded[0, 0, 1, 1] [2, 3, 6, 6] [1, 1, 1, 1] : memref<2x3x8x8xf32> to memref<2x3x6x6xf32, strided<[192, 64, 8, 1], offset: 9>>
  linalg.copy ins(%in : memref<2x3x6x6xf32>) outs(%interior : memref<2x3x6x6xf32, strided<[192, 64, 8, 1], offset: 9>>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %filter : memref<2x3x8x8xf32>, memref<5x3x3x3xf32>) outs(%out : memref<2x5x6x6xf32>)
  memref.dealloc %padded : memref<2x3x8x8xf32>
  return
}

// -----

// An op after the convolution that writes over the image's source (here an
// argument, which the kernel would not write: not fused) runs after the
// kernel: the kernel reads the source itself.
// CHECK-LABEL: func.func @padded_image_overwritten
// CHECK-NOT:     memref.alloc() : memref<1x3x8x8xf32>
// CHECK:         gpu.launch
// CHECK:           memref.load %arg0[{{.*}}] : memref<1x3x6x6xf32>
// CHECK:           gpu.terminator
// CHECK:         linalg.generic {{.*}} outs(%arg0 : memref<1x3x6x6xf32>)
func.func @padded_image_overwritten(%src: memref<1x3x6x6xf32>, %filter: memref<3x3x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<1x3x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x3x8x8xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 3, 6, 6] [1, 1, 1, 1] : memref<1x3x8x8xf32> to memref<1x3x6x6xf32, strided<[192, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x3x6x6xf32>) outs(%interior : memref<1x3x6x6xf32, strided<[192, 64, 8, 1], offset: 9>>)
  %out = memref.alloc() : memref<1x3x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<1x3x6x6xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %filter : memref<1x3x8x8xf32>, memref<3x3x3x3xf32>) outs(%out : memref<1x3x6x6xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%out : memref<1x3x6x6xf32>) outs(%src : memref<1x3x6x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %out : memref<1x3x6x6xf32>
  memref.dealloc %padded : memref<1x3x8x8xf32>
  return
}

// -----

// An epilogue that writes its result over the image's source where that is
// an allocation of the function (bufferization reuses a buffer whose value
// is dead after the copy) writes a new allocation instead: the kernel reads
// the old one, deallocated right after it, and what came after the
// epilogue reads the new one.
// CHECK-LABEL: func.func @padded_image_reused
// CHECK:         %[[SRC:.*]] = memref.alloc() : memref<1x3x6x6xf32>
// CHECK:         linalg.generic {{.*}} outs(%[[SRC]] : memref<1x3x6x6xf32>)
// CHECK-NOT:     memref.alloc() : memref<1x3x8x8xf32>
// CHECK:         %[[OUT:.*]] = memref.alloc() : memref<1x3x6x6xf32>
// CHECK-NEXT:    %[[NEW:.*]] = memref.alloc() : memref<1x3x6x6xf32>
// CHECK:         gpu.launch
// CHECK:           memref.load %[[SRC]][{{.*}}] : memref<1x3x6x6xf32>
// CHECK:           arith.maximumf
// CHECK-NEXT:      memref.store %{{.*}}, %[[NEW]][{{.*}}] : memref<1x3x6x6xf32>
// CHECK:           gpu.terminator
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[SRC]]
// CHECK-NEXT:    memref.dealloc %[[OUT]]
// CHECK-NEXT:    return %[[NEW]]
func.func @padded_image_reused(%x: memref<1x3x6x6xf32>, %filter: memref<3x3x3x3xf32>) -> memref<1x3x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %src = memref.alloc() : memref<1x3x6x6xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x3x6x6xf32>) outs(%src : memref<1x3x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  %padded = memref.alloc() : memref<1x3x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x3x8x8xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 3, 6, 6] [1, 1, 1, 1] : memref<1x3x8x8xf32> to memref<1x3x6x6xf32, strided<[192, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x3x6x6xf32>) outs(%interior : memref<1x3x6x6xf32, strided<[192, 64, 8, 1], offset: 9>>)
  %out = memref.alloc() : memref<1x3x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<1x3x6x6xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %filter : memref<1x3x8x8xf32>, memref<3x3x3x3xf32>) outs(%out : memref<1x3x6x6xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%out : memref<1x3x6x6xf32>) outs(%src : memref<1x3x6x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %out : memref<1x3x6x6xf32>
  memref.dealloc %padded : memref<1x3x8x8xf32>
  return %src : memref<1x3x6x6xf32>
}

// -----

// A padding by another value than zero stays a padded copy.
// CHECK-LABEL: func.func @padded_by_one
// CHECK:         memref.alloc() : memref<1x3x8x8xf32>
// CHECK:         linalg.copy
// CHECK:         gpu.launch
// CHECK:           memref.load %{{.*}} : memref<1x3x8x8xf32>
func.func @padded_by_one(%src: memref<1x3x6x6xf32>, %filter: memref<3x3x3x3xf32>, %out: memref<1x3x6x6xf32>) {
  %one = arith.constant 1.0 : f32
  %padded = memref.alloc() : memref<1x3x8x8xf32>
  linalg.fill ins(%one : f32) outs(%padded : memref<1x3x8x8xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 3, 6, 6] [1, 1, 1, 1] : memref<1x3x8x8xf32> to memref<1x3x6x6xf32, strided<[192, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x3x6x6xf32>) outs(%interior : memref<1x3x6x6xf32, strided<[192, 64, 8, 1], offset: 9>>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %filter : memref<1x3x8x8xf32>, memref<3x3x3x3xf32>) outs(%out : memref<1x3x6x6xf32>)
  memref.dealloc %padded : memref<1x3x8x8xf32>
  return
}

// -----

// An epilogue that reads the image's source where it writes it (a residual
// sum in place) needs the old values there: it writes no new allocation,
// and the padded copy stays.
// CHECK-LABEL: func.func @padded_image_accumulated
// CHECK:         memref.alloc() : memref<1x3x8x8xf32>
// CHECK:         linalg.copy
// CHECK:         gpu.launch
// CHECK:           memref.load %{{.*}} : memref<1x3x8x8xf32>
func.func @padded_image_accumulated(%x: memref<1x3x6x6xf32>, %filter: memref<3x3x3x3xf32>) -> memref<1x3x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %src = memref.alloc() : memref<1x3x6x6xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x3x6x6xf32>) outs(%src : memref<1x3x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  %padded = memref.alloc() : memref<1x3x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x3x8x8xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 3, 6, 6] [1, 1, 1, 1] : memref<1x3x8x8xf32> to memref<1x3x6x6xf32, strided<[192, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x3x6x6xf32>) outs(%interior : memref<1x3x6x6xf32, strided<[192, 64, 8, 1], offset: 9>>)
  %out = memref.alloc() : memref<1x3x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<1x3x6x6xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %filter : memref<1x3x8x8xf32>, memref<3x3x3x3xf32>) outs(%out : memref<1x3x6x6xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%out : memref<1x3x6x6xf32>) outs(%src : memref<1x3x6x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %o : f32
    linalg.yield %r : f32
  }
  memref.dealloc %out : memref<1x3x6x6xf32>
  memref.dealloc %padded : memref<1x3x8x8xf32>
  return %src : memref<1x3x6x6xf32>
}

// -----

// The initializer (a broadcast bias) overwrites the image's source, an
// allocation of the function whose value is dead after the copy: from it
// on, the ops write a new allocation, so the kernel (which computes the
// bias itself) reads the old one, deallocated right after it.
// CHECK-LABEL: func.func @padded_image_initialized
// CHECK:         %[[SRC:.*]] = memref.alloc() : memref<1x3x6x6xf32>
// CHECK:         linalg.generic {{.*}} outs(%[[SRC]] : memref<1x3x6x6xf32>)
// CHECK-NOT:     memref.alloc() : memref<1x3x8x8xf32>
// CHECK:         %[[NEW:.*]] = memref.alloc() : memref<1x3x6x6xf32>
// CHECK-NOT:     linalg.
// CHECK:         gpu.launch
// CHECK:           memref.load %[[SRC]][{{.*}}] : memref<1x3x6x6xf32>
// CHECK:           memref.load %arg2[
// CHECK:           memref.store %{{.*}}, %[[NEW]][{{.*}}] : memref<1x3x6x6xf32>
// CHECK:           gpu.terminator
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[SRC]]
// CHECK-NEXT:    return %[[NEW]]
// NOPAD-LABEL: func.func @padded_image_initialized
// NOPAD:         linalg.copy
// NOPAD:         gpu.launch
// NOPAD:           memref.load %{{.*}} : memref<1x3x8x8xf32>
func.func @padded_image_initialized(%x: memref<1x3x6x6xf32>, %filter: memref<3x3x3x3xf32>, %bias: memref<3xf32>) -> memref<1x3x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %src = memref.alloc() : memref<1x3x6x6xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<1x3x6x6xf32>) outs(%src : memref<1x3x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  %padded = memref.alloc() : memref<1x3x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x3x8x8xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 3, 6, 6] [1, 1, 1, 1] : memref<1x3x8x8xf32> to memref<1x3x6x6xf32, strided<[192, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x3x6x6xf32>) outs(%interior : memref<1x3x6x6xf32, strided<[192, 64, 8, 1], offset: 9>>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : memref<3xf32>) outs(%src : memref<1x3x6x6xf32>) {
  ^bb0(%b: f32, %o: f32):
    linalg.yield %b : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %filter : memref<1x3x8x8xf32>, memref<3x3x3x3xf32>) outs(%src : memref<1x3x6x6xf32>)
  memref.dealloc %padded : memref<1x3x8x8xf32>
  return %src : memref<1x3x6x6xf32>
}
