// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels))' | FileCheck %s
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{tile-m=64 tile-n=64 tile-k=4 thread-m=4 thread-n=4}))' \
// RUN:   | FileCheck %s --check-prefix=SMALL
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{prefetch=false}))' \
// RUN:   | FileCheck %s --check-prefix=NOPF
// RUN: echo 'func.func @f() { return }' | not onnx-opt \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{tile-m=128 tile-n=128 thread-m=3}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: onnx-gpu-contraction-kernels: tiles 128x128x8 with 3x8 per thread do not divide into whole warps

// A matrix product: one block per 128x64 output tile (grid x over n, y over
// m), 128 threads, an 8x128 and an 8x64 stage in workgroup memory, 64
// accumulators per thread carried over the k slices. The first slice is
// staged before the loop (8 elements of A and 4 of B per thread, then a
// barrier); each
// iteration loads the next slice into registers, computes 8 steps of 8x8
// products on the staged one, then (between barriers) stages the next. The
// original op runs instead where the grid does not fit.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG:   %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG:   %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:   %[[N:.*]] = arith.constant 100 : index
// CHECK-DAG:   %[[M:.*]] = arith.constant 200 : index
// CHECK-DAG:   %[[GX:.*]] = arith.ceildivui %[[N]], %[[C64]]
// CHECK-DAG:   %[[GY:.*]] = arith.ceildivui %[[M]], %[[C128]]
// CHECK:       scf.if
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[GX]], %{{.*}} = %[[GY]], %{{.*}} = %{{.*}}) threads({{.*}}) in (%{{.*}} = %c128
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
// CHECK:       } else {
// CHECK:         linalg.matmul
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
// CHECK:       %[[Z:.*]] = arith.muli %{{.*}}, %c3
// CHECK:       gpu.launch blocks(%{{.*}}, %{{.*}}, %[[BZ:.*]]) in (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %[[Z]])
// CHECK:         %[[B1:.*]] = arith.remui %[[BZ]], %c3
// CHECK:         %[[REST:.*]] = arith.divui %[[BZ]], %c3
// CHECK:         %[[B0:.*]] = arith.remui %[[REST]], %c2
// CHECK:         scf.for
// CHECK:           memref.load %arg0[%[[B0]], %[[B1]], %{{.*}}, %{{.*}}] : memref<2x3x20x30xf32>
// CHECK:           memref.load %arg1[%[[B1]], %{{.*}}, %{{.*}}] : memref<3x30x10xf32>
// CHECK:       } else {
// CHECK:         linalg.generic
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

// Dynamic sizes: the grid and the bounds come from the buffers at run time.
// CHECK-LABEL: func.func @dynamic
// CHECK-DAG:   %[[M:.*]] = memref.dim %arg0, %c0
// CHECK-DAG:   %[[K:.*]] = memref.dim %arg0, %c1
// CHECK:       gpu.launch
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[K]] step %c8
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
// CHECK:       } else {
// CHECK:         linalg.conv_2d_nchw_fchw
func.func @conv(%in: memref<2x3x6x6xf32>, %filter: memref<5x3x3x3xf32>, %out: memref<2x5x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %filter : memref<2x3x6x6xf32>, memref<5x3x3x3xf32>) outs(%out : memref<2x5x4x4xf32>)
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
