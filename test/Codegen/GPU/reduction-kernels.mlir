// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-reduction-kernels))' | FileCheck %s
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-reduction-kernels,canonicalize,cse))' \
// RUN:   | FileCheck %s --check-prefix=FUSE
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-reduction-kernels{fuse=false}))' \
// RUN:   | FileCheck %s --check-prefix=NOFUSE
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-reduction-kernels{pad-images=false}))' \
// RUN:   | FileCheck %s --check-prefix=NOPAD
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-reduction-kernels{test-on-cpu=true}))' \
// RUN:   | FileCheck %s --check-prefix=HOST

// A row sum: blocks of 8 warps (256 threads), a warp per row (64 rows: 8
// blocks); lane l adds elements l, l + 32, ... of its row, the warp adds
// its lanes' sums by 5 xor shuffles, lane 0 adds the result to the output.
// The grid is static and fits: no fallback (@dynamic has one).
// CHECK-LABEL: func.func @row_sum
// CHECK-NOT:   scf.if
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %[[BLOCKS:[^,]*]], {{.*}} threads(%[[TID:[^,]*]], {{.*}} in (%{{.*}} = %c256
// CHECK:           %[[LANE:.*]] = arith.remui %[[TID]], %c32
// CHECK:           %[[WARP:.*]] = arith.divui %[[TID]], %c32
// CHECK:           %[[ROW:.*]] = arith.addi %{{.*}}, %[[WARP]]
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[ROW]]
// CHECK:           scf.if %[[IN]] {
// CHECK:             %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:             %[[SUM:.*]] = scf.for %[[K:.*]] = %[[LANE]] to %{{.*}} step %c32{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK:               %[[X:.*]] = memref.load %arg0[%{{.*}}, %{{.*}}] : memref<64x768xf32>
// CHECK:               %[[NEXT:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK:               scf.yield %[[NEXT]]
// CHECK:             gpu.shuffle  xor %[[SUM]], %c16_i32
// CHECK-COUNT-4:     gpu.shuffle  xor
// CHECK:             %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK:             scf.if %[[FIRST]] {
// CHECK:               %[[OLD:.*]] = memref.load %arg1
// CHECK:               %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f32
// CHECK:               memref.store %[[NEW]], %arg1
// CHECK:           gpu.terminator
// CHECK-NOT:   linalg.generic
func.func @row_sum(%x: memref<64x768xf32>, %y: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x768xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A bf16 row maximum (exact in its own type, so computed in it): the lanes
// start from bf16's -inf, fold in bf16, and the shuffles carry each value
// as f32 (exactly) and back.
// CHECK-LABEL: func.func @row_max_bf16
// CHECK:         gpu.launch
// CHECK:           arith.constant 0xFF80 : bf16
// CHECK:           scf.for {{.*}} -> (bf16) {
// CHECK:             arith.maximumf {{.*}} : bf16
// CHECK:           %[[WIDE:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:           %[[SH:.*]], %{{.*}} = gpu.shuffle  xor %[[WIDE]], %c16_i32, %c32_i32 : f32
// CHECK:           %[[BACK:.*]] = arith.truncf %[[SH]] : f32 to bf16
// CHECK:           arith.maximumf %{{.*}}, %[[BACK]] : bf16
// CHECK-COUNT-4:   gpu.shuffle  xor
// CHECK:           memref.store {{.*}} : memref<64xbf16>
func.func @row_max_bf16(%x: memref<64x768xbf16>, %y: memref<64xbf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x768xbf16>) outs(%y : memref<64xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %m = arith.maximumf %out, %in : bf16
    linalg.yield %m : bf16
  }
  return
}

// -----

// An f16 row sum accumulates in f32: each element's value is extended and
// added in f32, the lanes' sums are shuffled and added in f32, and the sum
// is rounded to f16 once, before lane 0 adds it to the output. With
// test-on-cpu, the host loops add in f32 as the kernel does.
// HOST-LABEL: func.func @row_sum_f16
// HOST:         scf.for
// HOST:           %[[SUM:.*]] = scf.for {{.*}} -> (f32) {
// HOST:             %[[E:.*]] = arith.extf %{{.*}} : f16 to f32
// HOST:             arith.addf %{{.*}}, %[[E]] : f32
// HOST:           %[[OLD:.*]] = memref.load %arg1
// HOST:           %[[H:.*]] = arith.truncf %[[SUM]] : f32 to f16
// HOST:           %[[NEW:.*]] = arith.addf %[[OLD]], %[[H]] : f16
// HOST:           memref.store %[[NEW]], %arg1
// CHECK-LABEL: func.func @row_sum_f16
// CHECK:         gpu.launch
// CHECK:           scf.for {{.*}} -> (f32) {
// CHECK:             %[[E:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:             arith.addf %{{.*}}, %[[E]] : f32
// CHECK-COUNT-5:   gpu.shuffle  xor {{.*}} : f32
// CHECK:           %[[SUM:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK:           scf.if
// CHECK:             %[[OLD:.*]] = memref.load %arg1
// CHECK:             %[[NEW:.*]] = arith.addf %[[OLD]], %[[SUM]] : f16
// CHECK:             memref.store %[[NEW]], %arg1
func.func @row_sum_f16(%x: memref<64x768xf16>, %y: memref<64xf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x768xf16>) outs(%y : memref<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %s = arith.addf %out, %in : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// The variance of LayerNormalization: the body's other ops are computed per
// element (the row's mean read at the row), the lanes start from the
// identity of maximumf for a maximum.
// CHECK-LABEL: func.func @squares
// CHECK:         scf.for
// CHECK:           memref.load %arg0
// CHECK:           memref.load %arg1
// CHECK:           arith.subf
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK-COUNT-5: gpu.shuffle
// CHECK-LABEL: func.func @row_max
// CHECK:         arith.constant 0xFF800000 : f32
// CHECK:         scf.for
// CHECK:           arith.maximumf
// CHECK-COUNT-5: gpu.shuffle
// CHECK:         arith.maximumf
func.func @squares(%x: memref<64x768xf32>, %mean: memref<64xf32>, %y: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %mean : memref<64x768xf32>, memref<64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %sq = arith.mulf %d, %d : f32
    %s = arith.addf %out, %sq : f32
    linalg.yield %s : f32
  }
  return
}
func.func @row_max(%x: memref<8x100xf32>, %y: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x100xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.maximumf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A thread per row (one scf.parallel, mapped later as the other loop
// nests): a column sum (the reduced dim is not the innermost: a warp would
// read 32 rows apart), rows shorter than a warp. Left as they are: an
// arg-max-like body (it reads the index), an integer sum.
// CHECK-LABEL: func.func @left
// CHECK-NOT:   gpu.launch
// CHECK:       scf.parallel (%[[ROW:.*]]) = (%c0) to (%c64) step (%c1) {
// CHECK:         %[[SUM:.*]] = scf.for %[[K:.*]] = %c0 to %c768 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:           memref.load %arg0[%[[K]], %[[ROW]]] : memref<768x64xf32>
// CHECK:         %[[OLD:.*]] = memref.load %arg1[%[[ROW]]]
// CHECK:         %[[NEW:.*]] = arith.addf %[[OLD]], %[[SUM]]
// CHECK:         memref.store %[[NEW]], %arg1[%[[ROW]]]
// CHECK:       scf.parallel
// CHECK-NOT:   gpu.launch
// CHECK-COUNT-2: linalg.generic
func.func @left(%x: memref<768x64xf32>, %y: memref<64xf32>, %s: memref<64x8xf32>, %z: memref<64xf32>, %i: memref<64x768xi32>, %j: memref<64xi32>, %w: memref<64x768xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<768x64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%s : memref<64x8xf32>) outs(%z : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %out, %in : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%w : memref<64x768xf32>) outs(%z : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %k = linalg.index 1 : index
    %kf = arith.index_cast %k : index to i32
    %f = arith.sitofp %kf : i32 to f32
    %p = arith.mulf %in, %f : f32
    %r = arith.addf %out, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%i : memref<64x768xi32>) outs(%j : memref<64xi32>) {
  ^bb0(%in: i32, %out: i32):
    %r = arith.addi %out, %in : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// The op a product or reduction kernel keeps for grids it cannot launch
// stays as it is.
// CHECK-LABEL: func.func @fallback
// CHECK-NOT:   gpu.launch
// CHECK:       linalg.generic
func.func @fallback(%x: memref<64x768xf32>, %y: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x768xf32>) outs(%y : memref<64xf32>) attrs = {onnx.gpu_fallback} {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Dynamic sizes: the grid and the row length at run time; where the grid
// does not fit (no row, more than 2^31 - 1 blocks), the op runs as
// before, marked for the passes after.
// CHECK-LABEL: func.func @dynamic
// CHECK:         memref.dim %arg0, %c0
// CHECK:         memref.dim %arg0, %c1
// CHECK:         %[[FITS:.*]] = arith.andi
// CHECK:         scf.if %[[FITS]] {
// CHECK:           gpu.launch
// CHECK-COUNT-5:     gpu.shuffle
// CHECK:         } else {
// CHECK:           linalg.generic {{.*}} attrs = {onnx.gpu_fallback}
func.func @dynamic(%x: memref<?x?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<?x?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A mean: the zero fill before and the division after are computed by the
// lane that stores (fuse); the sum's buffer is not stored (canonicalize
// then removes it). With fuse=false, both stay ops of their own.
// FUSE-LABEL: func.func @mean
// FUSE:         %[[MEAN:.*]] = memref.alloc() : memref<64xf32>
// FUSE-NOT:     memref.alloc
// FUSE-NOT:     linalg.
// FUSE:         gpu.shuffle
// FUSE:         scf.if
// FUSE-NEXT:      %[[SUM:.*]] = arith.addf %{{.*}}, %cst
// FUSE-NEXT:      %[[DIV:.*]] = arith.divf %[[SUM]], %cst
// FUSE-NEXT:      memref.store %[[DIV]], %[[MEAN]][%{{.*}}] : memref<64xf32>
// FUSE-NEXT:    }
// FUSE:         gpu.terminator
// FUSE-NOT:     linalg.
// FUSE:         return %[[MEAN]]
// NOFUSE-LABEL: func.func @mean
// NOFUSE:       linalg.fill
// NOFUSE:       gpu.launch
// NOFUSE:       linalg.generic
func.func @mean(%x: memref<64x768xf32>) -> memref<64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 768.0 : f32
  %sum = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x768xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  %mean = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sum : memref<64xf32>) outs(%mean : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %n : f32
    linalg.yield %m : f32
  }
  memref.dealloc %sum : memref<64xf32>
  return %mean : memref<64xf32>
}

// -----

// A window: a max pool's thread per output, with the fill before it and
// the Relu after it computed by that thread.
// FUSE-LABEL: func.func @pool_relu
// FUSE:         %[[Y:.*]] = memref.alloc() : memref<1x4x3x3xf32>
// FUSE-NOT:     memref.alloc
// FUSE-NOT:     linalg.
// FUSE:         scf.parallel (%[[C:[^,]*]], %[[H:[^,]*]], %[[W:[^)]*]]) =
// FUSE:           %[[M:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %cst) -> (f32) {
// FUSE:             scf.for {{.*}} iter_args
// FUSE:               memref.load %arg0
// FUSE:               arith.maximumf
// FUSE:           %[[RELU:.*]] = arith.maximumf %[[M]], %cst_0
// FUSE-NEXT:      memref.store %[[RELU]], %[[Y]][%c0, %[[C]], %[[H]], %[[W]]]
// FUSE-NOT:     linalg.
// FUSE:         return %[[Y]]
func.func @pool_relu(%x: memref<1x4x6x6xf32>) -> memref<1x4x3x3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x4x3x3xf32>
  linalg.fill ins(%ninf : f32) outs(%p : memref<1x4x3x3xf32>)
  %window = memref.alloc() : memref<2x2xf32>
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %window : memref<1x4x6x6xf32>, memref<2x2xf32>) outs(%p : memref<1x4x3x3xf32>)
  %y = memref.alloc() : memref<1x4x3x3xf32>
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : memref<1x4x3x3xf32>) outs(%y : memref<1x4x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %p : memref<1x4x3x3xf32>
  memref.dealloc %window : memref<2x2xf32>
  return %y : memref<1x4x3x3xf32>
}

// -----

// A depthwise convolution of a zero-padded image, as MobileNetV2's
// bufferizes: the image (%x, the layer before's output) copied into the
// interior of a zeroed buffer, %x then reused for the bias and the
// convolution's output. The loops read %x itself, zero outside it (one
// unsigned compare a padded dim), in the output's order (channels outside
// the positions, as NCHW stores them), and write a new buffer, %x freed
// after them; the padded buffer, its fill and its copy go. With
// pad-images=false, the copy stays.
// FUSE-LABEL: func.func @depthwise_padded
// FUSE:         %[[X:.*]] = memref.alloc() : memref<1x16x10x10xf32>
// FUSE:         linalg.copy
// FUSE:         %[[NEW:.*]] = memref.alloc() : memref<1x16x10x10xf32>
// FUSE-NOT:     linalg.
// FUSE:         scf.parallel (%[[C:[^,]*]], %[[H:[^,]*]], %[[W:[^)]*]]) =
// FUSE:           scf.for %[[KH:[^ ]*]] =
// FUSE:             scf.for %[[KW:[^ ]*]] =
// FUSE:               %[[IH:.*]] = arith.addi %[[H]], %[[KH]]
// FUSE:               %[[IW:.*]] = arith.addi %[[W]], %[[KW]]
// FUSE:               %[[SH:.*]] = arith.subi %[[IH]], %c1
// FUSE:               %[[INH:.*]] = arith.cmpi ult, %[[SH]], %c10
// FUSE:               %[[CH:.*]] = arith.minui %[[SH]], %c9
// FUSE:               %[[SW:.*]] = arith.subi %[[IW]], %c1
// FUSE:               %[[INW:.*]] = arith.cmpi ult, %[[SW]], %c10
// FUSE:               %[[IN:.*]] = arith.andi %[[INH]], %[[INW]]
// FUSE:               %[[CW:.*]] = arith.minui %[[SW]], %c9
// FUSE:               %[[V:.*]] = memref.load %[[X]][%c0, %[[C]], %[[CH]], %[[CW]]]
// FUSE:               arith.select %[[IN]], %[[V]], %cst
// FUSE:           memref.load %arg2[%[[C]]]
// FUSE:           memref.store %{{.*}}, %[[NEW]][%c0, %[[C]], %[[H]], %[[W]]]
// FUSE:         memref.dealloc %[[X]]
// FUSE-NOT:     linalg.
// FUSE:         return %[[NEW]]
// NOPAD-LABEL:  func.func @depthwise_padded
// NOPAD:          linalg.copy
// NOPAD:          scf.parallel
func.func @depthwise_padded(%in: memref<1x16x10x10xf32>, %filter: memref<16x3x3xf32>, %bias: memref<16xf32>) -> memref<1x16x10x10xf32> {
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<1x16x10x10xf32>
  linalg.copy ins(%in : memref<1x16x10x10xf32>) outs(%x : memref<1x16x10x10xf32>)
  %padded = memref.alloc() : memref<1x16x12x12xf32>
  linalg.map outs(%padded : memref<1x16x12x12xf32>)
    (%init: f32) {
      linalg.yield %zero : f32
    }
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 16, 10, 10] [1, 1, 1, 1] : memref<1x16x12x12xf32> to memref<1x16x10x10xf32, strided<[2304, 144, 12, 1], offset: 13>>
  linalg.copy ins(%x : memref<1x16x10x10xf32>) outs(%interior : memref<1x16x10x10xf32, strided<[2304, 144, 12, 1], offset: 13>>)
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : memref<16xf32>) outs(%x : memref<1x16x10x10xf32>) {
  ^bb0(%b: f32, %out: f32):
    linalg.yield %b : f32
  }
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %filter : memref<1x16x12x12xf32>, memref<16x3x3xf32>) outs(%x : memref<1x16x10x10xf32>)
  memref.dealloc %padded : memref<1x16x12x12xf32>
  return %x : memref<1x16x10x10xf32>
}

// -----

// A max pool of an image padded with the lowest value: outside the image
// the loops take -inf. With pad-images=false, the padded copy stays.
// FUSE-LABEL: func.func @maxpool_padded
// FUSE-NOT:     linalg.
// FUSE:         scf.parallel
// FUSE:               %[[V:.*]] = memref.load %arg0
// FUSE:               %[[E:.*]] = arith.select %{{.*}}, %[[V]], %cst
// FUSE:               arith.maximumf %{{.*}}, %[[E]]
// FUSE-NOT:     linalg.
// FUSE:         return
// NOPAD-LABEL:  func.func @maxpool_padded
// NOPAD:          linalg.fill
// NOPAD:          linalg.copy
// NOPAD:          scf.parallel
// NOPAD:            memref.load %alloc
func.func @maxpool_padded(%x: memref<1x4x6x6xf32>) -> memref<1x4x6x6xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %padded = memref.alloc() : memref<1x4x8x8xf32>
  linalg.fill ins(%ninf : f32) outs(%padded : memref<1x4x8x8xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1] : memref<1x4x8x8xf32> to memref<1x4x6x6xf32, strided<[256, 64, 8, 1], offset: 9>>
  linalg.copy ins(%x : memref<1x4x6x6xf32>) outs(%interior : memref<1x4x6x6xf32, strided<[256, 64, 8, 1], offset: 9>>)
  %y = memref.alloc() : memref<1x4x6x6xf32>
  linalg.fill ins(%ninf : f32) outs(%y : memref<1x4x6x6xf32>)
  %window = memref.alloc() : memref<3x3xf32>
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %window : memref<1x4x8x8xf32>, memref<3x3xf32>) outs(%y : memref<1x4x6x6xf32>)
  memref.dealloc %padded : memref<1x4x8x8xf32>
  memref.dealloc %window : memref<3x3xf32>
  return %y : memref<1x4x6x6xf32>
}

// -----

// Padded copies the loops keep reading: the convolution accumulates onto
// the copied buffer (no initializer overwrites it first: its old elements
// are the sums' start); the padded buffer is read twice.
// FUSE-LABEL: func.func @padded_kept
// FUSE:         %[[P1:.*]] = memref.alloc() : memref<1x4x8x8xf32>
// FUSE:         linalg.copy
// FUSE:         scf.parallel
// FUSE:           memref.load %[[P1]][
// FUSE:         %[[P2:.*]] = memref.alloc() : memref<1x4x8x8xf32>
// FUSE:         linalg.copy
// FUSE:         scf.parallel
// FUSE:           memref.load %[[P2]][
// FUSE:         scf.parallel
// FUSE:           memref.load %[[P2]][
func.func @padded_kept(%in: memref<1x4x6x6xf32>, %filter: memref<4x3x3xf32>, %y: memref<1x4x6x6xf32>, %z: memref<1x4x6x6xf32>) -> memref<1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<1x4x6x6xf32>
  linalg.copy ins(%in : memref<1x4x6x6xf32>) outs(%x : memref<1x4x6x6xf32>)
  %padded = memref.alloc() : memref<1x4x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x4x8x8xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1] : memref<1x4x8x8xf32> to memref<1x4x6x6xf32, strided<[256, 64, 8, 1], offset: 9>>
  linalg.copy ins(%x : memref<1x4x6x6xf32>) outs(%interior : memref<1x4x6x6xf32, strided<[256, 64, 8, 1], offset: 9>>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %filter : memref<1x4x8x8xf32>, memref<4x3x3xf32>) outs(%x : memref<1x4x6x6xf32>)
  memref.dealloc %padded : memref<1x4x8x8xf32>
  %twice = memref.alloc() : memref<1x4x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%twice : memref<1x4x8x8xf32>)
  %inner = memref.subview %twice[0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1] : memref<1x4x8x8xf32> to memref<1x4x6x6xf32, strided<[256, 64, 8, 1], offset: 9>>
  linalg.copy ins(%in : memref<1x4x6x6xf32>) outs(%inner : memref<1x4x6x6xf32, strided<[256, 64, 8, 1], offset: 9>>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%twice, %filter : memref<1x4x8x8xf32>, memref<4x3x3xf32>) outs(%y : memref<1x4x6x6xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%twice, %filter : memref<1x4x8x8xf32>, memref<4x3x3xf32>) outs(%z : memref<1x4x6x6xf32>)
  memref.dealloc %twice : memref<1x4x8x8xf32>
  return %x : memref<1x4x6x6xf32>
}
