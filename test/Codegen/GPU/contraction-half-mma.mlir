// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{half-mma=true min-blocks=0}))' \
// RUN:   | FileCheck %s
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{half-mma=true tile-m=32 tile-n=16 thread-m=4 thread-n=4 prefetch=false min-blocks=0},canonicalize,cse))' \
// RUN:   | FileCheck %s --check-prefix=WARP
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{half-mma=true}))' \
// RUN:   | FileCheck %s --check-prefix=ADAPT
// RUN: echo 'func.func @f() { return }' | not onnx-opt \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{half-mma=true tile-m=8 tile-n=64 thread-m=2 thread-n=8}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: onnx-gpu-contraction-kernels: with half-mma, the tile 8x64 must split into 16x8 tiles among its 1 warps
// The tensor cores' products need sm_80 or newer (LLVM's NVPTX back end
// would fail to select them for an older chip).
// RUN: echo 'func.func @f() { return }' | not onnx-opt \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{half-mma=true chip=sm_75}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHIP
// CHIP: onnx-gpu-contraction-kernels: half-mma (the tensor cores' f16/bf16 products) needs sm_80 or newer, not sm_75
// RUN: echo 'func.func @f() { return }' | not onnx-opt \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{tf32=true chip=sm_70}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHIPTF32
// CHIPTF32: onnx-gpu-contraction-kernels: tf32 (the tensor cores' TF32 products) needs sm_80 or newer, not sm_70
// RUN: echo 'func.func @f() { return }' | onnx-opt \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-contraction-kernels{half-mma=true chip=sm_80}))'

// Products of f16 operands (or of bf16 ones) with half-mma: the tensor
// cores' mma.sync.m16n8k16 on the elements as they are, accumulated in f32.
// The default tiles (128x64, 4 warps as 2x2 warp tiles of 64x32), staged 16
// deep (tile-k 8 rounded up) as [row][k] with rows of 16 + 8: per k-step,
// 16 f16 of A and 8 of B staged by each thread, then 16 mma a warp.
// CHECK-LABEL: func.func @matmul_f16
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128
// CHECK-SAME:      workgroup(%[[SA:.*]] : memref<128x24xf16, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<64x24xf16, #gpu.address_space<workgroup>>)
// CHECK-NOT:       arith.extf
// CHECK-COUNT-16:  memref.store {{.*}}, %[[SA]]
// CHECK-COUNT-8:   memref.store {{.*}}, %[[SB]]
// CHECK:           gpu.barrier
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c300 step %c16{{.*}} iter_args
// CHECK-COUNT-32:    memref.load %[[SA]]
// CHECK-COUNT-16:    memref.load %[[SB]]
// CHECK-COUNT-16:    nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT:         arith.mulf
// CHECK:             gpu.barrier
// CHECK:           scf.yield
// CHECK-NOT:       linalg.matmul

// One warp (32 threads) over a 32x16 tile: lane = 4 g + t; A's pairs at
// rows g, g+8, g+16, g+24 and k (2t, 2t+1), (2t+8, 2t+9), each pair two
// adjacent elements of a [row][k] slice, the lower k in element 0; B's at
// columns g, g+8; C's as with TF32.
// WARP-LABEL: func.func @matmul_f16
// WARP:         gpu.launch {{.*}} threads(%[[TID:[a-z0-9]+]], %{{.*}}, %{{.*}}) in
// WARP-SAME:      workgroup(%[[SA:[a-z0-9]+]] : memref<32x24xf16, #gpu.address_space<workgroup>>, %[[SB:[a-z0-9]+]] : memref<16x24xf16, #gpu.address_space<workgroup>>)
// WARP:           %[[LANE:[0-9]+]] = arith.remui %[[TID]], %c32
// WARP:           %[[G:[0-9]+]] = arith.divui %[[LANE]], %c4
// WARP:           %[[T:[0-9]+]] = arith.remui %[[LANE]], %c4
// WARP:           %[[R0:[0-9]+]] = arith.addi %{{.*}}, %[[G]]
// WARP:           %[[R1:[0-9]+]] = arith.addi %[[R0]], %c8
// WARP:           %[[K0:[0-9]+]] = arith.muli %[[T]], %c2
// WARP:           %[[K1:[0-9]+]] = arith.addi %[[K0]], %c1
// WARP:           %[[K8:[0-9]+]] = arith.addi %[[K0]], %c8
// WARP:           %[[K9:[0-9]+]] = arith.addi %[[K0]], %c9
// WARP:           %[[ACC:.*]]:16 = scf.for %[[K:[a-z0-9]+]] = {{.*}} iter_args(%[[X0:[^ ]*]] = %{{[^,]*}}, %[[X1:[^ ]*]] = %{{[^,]*}}, %[[X2:[^ ]*]] = %{{[^,]*}}, %[[X3:[^ ]*]] = %{{[^,]*}}, %[[X4:[^ ]*]] = %{{[^,]*}}, %[[X5:[^ ]*]] = %{{[^,]*}}
// WARP:             memref.store {{.*}}, %[[SA]][%{{.*}}, %{{.*}}] : memref<32x24xf16
// WARP:             gpu.barrier
// WARP:             %[[L0:[0-9]+]] = memref.load %[[SA]][%[[R0]], %[[K0]]]
// WARP:             %[[L1:[0-9]+]] = memref.load %[[SA]][%[[R0]], %[[K1]]]
// WARP:             %[[P0:[0-9]+]] = llvm.insertelement %[[L0]], %{{.*}}[%{{.*}} : i32] : vector<2xf16>
// WARP:             %[[A0:[0-9]+]] = llvm.insertelement %[[L1]], %[[P0]][%{{.*}} : i32] : vector<2xf16>
// WARP:             memref.load %[[SA]][%[[R1]], %[[K0]]]
// WARP:             memref.load %[[SA]][%[[R1]], %[[K1]]]
// WARP:             llvm.insertelement
// WARP-NEXT:        %[[A1:[0-9]+]] = llvm.insertelement
// WARP:             memref.load %[[SA]][%[[R0]], %[[K8]]]
// WARP:             memref.load %[[SA]][%[[R0]], %[[K9]]]
// WARP:             llvm.insertelement
// WARP-NEXT:        %[[A2:[0-9]+]] = llvm.insertelement
// WARP:             memref.load %[[SA]][%[[R1]], %[[K8]]]
// WARP:             memref.load %[[SA]][%[[R1]], %[[K9]]]
// WARP:             llvm.insertelement
// WARP-NEXT:        %[[A3:[0-9]+]] = llvm.insertelement
// WARP:             memref.load %[[SB]][%[[G]], %[[K0]]]
// WARP:             memref.load %[[SB]][%[[G]], %[[K1]]]
// WARP:             llvm.insertelement
// WARP-NEXT:        %[[B0:[0-9]+]] = llvm.insertelement
// WARP:             memref.load %[[SB]][%[[G]], %[[K8]]]
// WARP:             memref.load %[[SB]][%[[G]], %[[K9]]]
// WARP:             llvm.insertelement
// WARP-NEXT:        %[[B1:[0-9]+]] = llvm.insertelement
// WARP:             %[[D00:[0-9]+]] = nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]]  B[%[[B0]], %[[B1]]]  C[%[[X0]], %[[X1]], %[[X4]], %[[X5]]] {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// WARP:             %[[E0:[0-9]+]] = llvm.extractvalue %[[D00]][0]
// WARP:             %[[E1:[0-9]+]] = llvm.extractvalue %[[D00]][1]
// WARP:             nvvm.mma.sync A[%[[A0]], %[[A1]], %[[A2]], %[[A3]]]  B[{{.*}}]  C[%[[X2]], %[[X3]], {{.*}}]
// WARP:             scf.yield %[[E0]], %[[E1]],
func.func @matmul_f16(%a: memref<200x300xf16>, %b: memref<300x100xf16>, %c: memref<200x100xf32>) {
  linalg.matmul ins(%a, %b : memref<200x300xf16>, memref<300x100xf16>) outs(%c : memref<200x100xf32>)
  return
}

// -----

// bf16 pairs go to the instruction as i32.
// CHECK-LABEL: func.func @matmul_bf16
// CHECK:         gpu.launch
// CHECK-SAME:      memref<128x24xbf16, #gpu.address_space<workgroup>>
// CHECK:           llvm.insertelement {{.*}} : vector<2xbf16>
// CHECK:           llvm.bitcast {{.*}} : vector<2xbf16> to i32
// CHECK:           nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32)
func.func @matmul_bf16(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xbf16>, memref<64x64xbf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// f16 with bf16, and f32 operands: the f32 kernel as without half-mma.
// CHECK-LABEL: func.func @mixed
// CHECK:         gpu.launch
// CHECK-SAME:      workgroup(%{{.*}} : memref<8x128xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x64xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT:       nvvm.mma.sync
// CHECK-LABEL: func.func @f32
// CHECK:         gpu.launch
// CHECK-SAME:      workgroup(%{{.*}} : memref<8x128xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x64xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT:       nvvm.mma.sync
// CHECK:           gpu.terminator
func.func @mixed(%a: memref<64x32xf16>, %b: memref<32x16xbf16>, %c: memref<64x16xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x16xbf16>) outs(%c : memref<64x16xf32>)
  return
}
func.func @f32(%a: memref<64x32xf32>, %b: memref<32x16xf32>, %c: memref<64x16xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x16xf32>) outs(%c : memref<64x16xf32>)
  return
}

// -----

// A batch-1 product too small for the default tiles takes smaller ones,
// still on the tensor cores: 128x768 as 32x32 tiles of 64 threads (96
// blocks), 2 warps of 32x16 each.
// ADAPT-LABEL: func.func @small
// ADAPT:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c64
// ADAPT-SAME:      workgroup(%{{.*}} : memref<32x24xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x24xf16, #gpu.address_space<workgroup>>)
// ADAPT-COUNT-4:   nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// ADAPT-NOT:       nvvm.mma.sync
// ADAPT:           gpu.terminator
func.func @small(%a: memref<128x768xf16>, %b: memref<768x768xf16>, %c: memref<128x768xf32>) {
  linalg.matmul ins(%a, %b : memref<128x768xf16>, memref<768x768xf16>) outs(%c : memref<128x768xf32>)
  return
}
