// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-reduction-kernels))' | FileCheck %s
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-reduction-kernels{chains=false}))' \
// RUN:   | FileCheck %s --check-prefix=NOCHAIN
// RUN: onnx-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-reduction-kernels{test-on-cpu=true}))' \
// RUN:   | FileCheck %s --check-prefix=CPU

// Softmax over rows of 128 (64 rows): the maximum, exp(x - max), the sum
// and the division are one kernel, a warp per row (8 blocks of 8 warps).
// The fill of the maximum stands layers away (canonicalization merged it
// with another): it moves down to the maximum first. Each lane takes
// elements lane, lane + 32, ... in every step, so it reads back only the
// exponentials it wrote itself; the row's maximum and sum stay in
// registers, lane 0 stores them.
// CHECK-LABEL: func.func @softmax
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c8{{.*}} threads(%[[TID:[^,]*]], {{.*}} in (%{{.*}} = %c256
// CHECK:           %[[LANE:.*]] = arith.remui %[[TID]], %c32
// CHECK:           scf.if
// CHECK:             scf.if
// CHECK:               memref.store %[[NEGINF:.*]], %[[ROWS:.*]][
// CHECK:             %[[MAXL:.*]] = scf.for %{{.*}} = %[[LANE]] to %c128{{.*}} step %c32{{.*}} iter_args
// CHECK:               memref.load %arg0
// CHECK:               arith.maximumf
// CHECK-COUNT-5:     gpu.shuffle  xor
// CHECK:             %[[MAX:.*]] = arith.maximumf %[[NEGINF]],
// CHECK:             scf.if
// CHECK:               memref.store %[[MAX]], %[[ROWS]][
// CHECK:             scf.for %{{.*}} = %[[LANE]] to %c128{{.*}} step %c32
// CHECK:               %[[X:.*]] = memref.load %arg0
// CHECK:               arith.subf %[[X]], %[[MAX]]
// CHECK:               math.exp
// CHECK:               memref.store {{.*}}, %arg1[
// CHECK:             scf.for {{.*}} iter_args
// CHECK:               memref.load %expand_shape
// CHECK:               arith.addf
// CHECK-COUNT-5:     gpu.shuffle  xor
// CHECK:             %[[SUM:.*]] = arith.addf %cst{{[_0-9]*}}, %{{.*}} : f32
// CHECK:             scf.for
// CHECK:               %[[E:.*]] = memref.load %arg1
// CHECK:               %[[Y:.*]] = arith.divf %[[E]], %[[SUM]]
// CHECK:               memref.store %[[Y]], %arg1
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.
// CHECK:         return
// The passes as before: a kernel per reduction, the rest for later.
// NOCHAIN-LABEL: func.func @softmax
// NOCHAIN-COUNT-2: gpu.launch
// NOCHAIN:       linalg.generic
// CPU-LABEL: func.func @softmax
// CPU-NOT:       gpu.launch
// CPU:           scf.for %[[ROW:.*]] = %c0 to %c64{{.*}} step %c1{{.*}} {
// CPU:             scf.for %{{.*}} = %c0{{.*}} to %c128{{.*}} step %c1{{.*}} iter_args
// CPU-NOT:         gpu.shuffle
// CPU:             math.exp
// CPU-NOT:       linalg.
// CPU:           return
func.func @softmax(%x: memref<64x128xf32>, %y: memref<64x128xf32>, %other: memref<64x128xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %rows = memref.alloc() : memref<64xf32>
  %rows2 = memref.expand_shape %rows [[0, 1]] output_shape [64, 1] : memref<64xf32> into memref<64x1xf32>
  linalg.fill ins(%ninf : f32) outs(%rows2 : memref<64x1xf32>)
  // Another layer's op in between.
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%other : memref<64x128xf32>) {
  ^bb0(%out: f32):
    %n = arith.negf %out : f32
    linalg.yield %n : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : memref<64x128xf32>) outs(%rows2 : memref<64x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %rows2 : memref<64x128xf32>, memref<64x1xf32>) outs(%y : memref<64x128xf32>) {
  ^bb0(%in: f32, %max: f32, %out: f32):
    %d = arith.subf %in, %max : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%rows2 : memref<64x1xf32>)
  %y3 = memref.expand_shape %y [[0], [1, 2]] output_shape [64, 1, 128] : memref<64x128xf32> into memref<64x1x128xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%y3 : memref<64x1x128xf32>) outs(%rows2 : memref<64x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %rows2 : memref<64x128xf32>, memref<64x1xf32>) outs(%y : memref<64x128xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %q = arith.divf %in, %sum : f32
    linalg.yield %q : f32
  }
  memref.dealloc %rows : memref<64xf32>
  return
}

// -----

// LayerNormalization's steps: the mean (a sum, then a row step), the
// variance from the mean of squares, the normalization with the scale and
// bias (read at the element, from buffers the chain does not write), then
// the inverse of the deviation in place. Row steps are computed by every
// lane from registers; lane 0 stores them.
// CHECK-LABEL: func.func @layer_norm
// CHECK:         gpu.launch
// CHECK-COUNT-5:   gpu.shuffle  xor
// CHECK:           %[[MEAN:.*]] = arith.divf %{{.*}}, %cst
// CHECK:           scf.if
// CHECK:             memref.store %[[MEAN]], %arg2[
// CHECK-COUNT-5:   gpu.shuffle  xor
// CHECK:           arith.mulf %[[MEAN]], %[[MEAN]]
// CHECK:           %[[DEV:.*]] = math.sqrt
// CHECK:           scf.for
// CHECK:             memref.load %arg0
// CHECK:             memref.load %arg4
// CHECK:             arith.subf %{{.*}}, %[[MEAN]]
// CHECK:             arith.divf %{{.*}}, %[[DEV]]
// CHECK:             memref.store {{.*}}, %arg1[
// CHECK:           %[[INV:.*]] = arith.divf %cst{{.*}}, %[[DEV]]
// CHECK:           scf.if
// CHECK:             memref.store %[[INV]], %arg3[
// CHECK-NOT:     linalg.
// CHECK:         return
func.func @layer_norm(%x: memref<8x768xf32>, %y: memref<8x768xf32>, %mean: memref<8xf32>, %dev: memref<8xf32>, %scale: memref<768xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 768.0 : f32
  %one = arith.constant 1.0 : f32
  %sum = memref.alloc() : memref<8xf32>
  %sq = memref.alloc() : memref<8xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<8xf32>)
  linalg.fill ins(%zero : f32) outs(%sq : memref<8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x768xf32>) outs(%sum : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sum : memref<8xf32>) outs(%mean : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %n : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x768xf32>) outs(%sq : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sq, %mean : memref<8xf32>, memref<8xf32>) outs(%dev : memref<8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %m2 = arith.mulf %m, %m : f32
    %e = arith.divf %in, %n : f32
    %v = arith.subf %e, %m2 : f32
    %d = math.sqrt %v : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %mean, %dev, %scale : memref<8x768xf32>, memref<8xf32>, memref<8xf32>, memref<768xf32>) outs(%y : memref<8x768xf32>) {
  ^bb0(%in: f32, %m: f32, %d: f32, %s: f32, %out: f32):
    %c = arith.subf %in, %m : f32
    %q = arith.divf %c, %d : f32
    %r = arith.mulf %q, %s : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%dev : memref<8xf32>) outs(%dev : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = arith.divf %one, %in : f32
    linalg.yield %i : f32
  }
  memref.dealloc %sum : memref<8xf32>
  memref.dealloc %sq : memref<8xf32>
  return
}

// -----

// A row buffer the chain writes but read before from memory (the
// reduction accumulates into an argument): lane 0 loads it, a shuffle
// gives it to the other lanes, lane 0 stores the result.
// CHECK-LABEL: func.func @accumulate
// CHECK:         gpu.launch
// CHECK:           %[[OLD:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK:             %[[L:.*]] = memref.load %arg1
// CHECK:             scf.yield %[[L]]
// CHECK:           %[[ALL:[^,]*]], %{{.*}} = gpu.shuffle  idx %[[OLD]], %c0_i32
// CHECK-COUNT-5:   gpu.shuffle  xor
// CHECK:           %[[S:.*]] = arith.addf %[[ALL]],
// CHECK:           scf.for
// CHECK:             arith.mulf %{{.*}}, %[[S]]
func.func @accumulate(%x: memref<64x128xf32>, %acc: memref<64xf32>, %y: memref<64x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x128xf32>) outs(%acc : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %acc : memref<64x128xf32>, memref<64xf32>) outs(%y : memref<64x128xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %p = arith.mulf %in, %s : f32
    linalg.yield %p : f32
  }
  return
}

// -----

// An f16 Softmax (its steps in f16, as the ONNX f16 Softmax computes) is
// one kernel too; a row buffer read before it is written is loaded by lane
// 0 and shuffled as f32. The sum accumulates in f32 and is rounded to f16
// once (the maximum in f16: exact either way).
// CHECK-LABEL: func.func @softmax_f16
// CHECK:         gpu.launch
// CHECK:           %[[OLD:.*]] = scf.if %{{.*}} -> (f16) {
// CHECK:             memref.load %arg1
// CHECK:           %[[W:.*]] = arith.extf %[[OLD]] : f16 to f32
// CHECK:           %[[SH:.*]], %{{.*}} = gpu.shuffle  idx %[[W]], %c0_i32
// CHECK:           arith.truncf %[[SH]] : f32 to f16
// CHECK:           scf.for {{.*}} -> (f16)
// CHECK:             arith.maximumf {{.*}} : f16
// CHECK-COUNT-5:   gpu.shuffle  xor {{.*}} : f32
// CHECK:           scf.for
// CHECK:             math.exp {{.*}} : f16
// CHECK:           scf.for {{.*}} -> (f32)
// CHECK:             %[[E:.*]] = arith.extf {{.*}} : f16 to f32
// CHECK:             arith.addf %{{.*}}, %[[E]] : f32
// CHECK-COUNT-5:   gpu.shuffle  xor {{.*}} : f32
// CHECK:           arith.truncf {{.*}} : f32 to f16
// CHECK:           scf.for
// CHECK:             arith.divf {{.*}} : f16
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.
// CHECK:         return
func.func @softmax_f16(%x: memref<64x128xf16>, %max: memref<64xf16>, %y: memref<64x128xf16>) {
  %zero = arith.constant 0.0 : f16
  %sum = memref.alloc() : memref<64xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x128xf16>) outs(%max : memref<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %m = arith.maximumf %out, %in : f16
    linalg.yield %m : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %max : memref<64x128xf16>, memref<64xf16>) outs(%y : memref<64x128xf16>) {
  ^bb0(%in: f16, %m: f16, %out: f16):
    %d = arith.subf %in, %m : f16
    %e = math.exp %d : f16
    linalg.yield %e : f16
  }
  linalg.fill ins(%zero : f16) outs(%sum : memref<64xf16>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%y : memref<64x128xf16>) outs(%sum : memref<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %s = arith.addf %out, %in : f16
    linalg.yield %s : f16
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %sum : memref<64x128xf16>, memref<64xf16>) outs(%y : memref<64x128xf16>) {
  ^bb0(%in: f16, %s: f16, %out: f16):
    %q = arith.divf %in, %s : f16
    linalg.yield %q : f16
  }
  memref.dealloc %sum : memref<64xf16>
  return
}

// -----

// The sum reads the differences at another element than the lane wrote
// (transposed): the chain stops before it, and the sum, whose rows are
// strided, becomes a thread per row.
// CHECK-LABEL: func.func @transposed_read
// CHECK:         gpu.launch
// CHECK:           arith.maximumf
// CHECK:           arith.subf
// CHECK:           gpu.terminator
// CHECK:         scf.parallel
// CHECK:           arith.addf
// CHECK:         return
func.func @transposed_read(%x: memref<64x64xf32>, %e: memref<64x64xf32>, %s: memref<64xf32>, %t: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x64xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<64x64xf32>, memref<64xf32>) outs(%e : memref<64x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : memref<64x64xf32>) outs(%t : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  }
  return
}

// -----

// A step reads a row buffer at other rows (reversed) that a later op
// writes: the chain stops before the writer, which stays as it was.
// CHECK-LABEL: func.func @reversed_rows
// CHECK:         gpu.launch
// CHECK:           arith.maximumf
// CHECK:           arith.subf
// CHECK:           gpu.terminator
// CHECK:         linalg.generic
// CHECK:           arith.negf
// CHECK:         return
func.func @reversed_rows(%x: memref<64x64xf32>, %s: memref<64xf32>, %r: memref<64xf32>, %y: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x64xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (63 - d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %r : memref<64x64xf32>, memref<64xf32>) outs(%y : memref<64x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%r : memref<64xf32>) {
  ^bb0(%out: f32):
    %z = arith.negf %out : f32
    linalg.yield %z : f32
  }
  return
}

// -----

// A step reads a buffer the chain wrote through a view that is not a
// reshape (column 0 of each row, which lane 0 wrote): the chain stops
// before it.
// CHECK-LABEL: func.func @strided_view
// CHECK:         gpu.launch
// CHECK:           arith.maximumf
// CHECK:           arith.subf
// CHECK:           gpu.terminator
// CHECK:         linalg.generic
// CHECK:           arith.mulf
// CHECK:         return
func.func @strided_view(%x: memref<64x64xf32>, %s: memref<64xf32>, %y: memref<64x64xf32>, %z: memref<64x64xf32>) {
  %col = memref.subview %y[0, 0] [64, 1] [1, 1] : memref<64x64xf32> to memref<64x1xf32, strided<[64, 1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x64xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : memref<64x64xf32>, memref<64xf32>) outs(%y : memref<64x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %col : memref<64x64xf32>, memref<64x1xf32, strided<[64, 1]>>) outs(%z : memref<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  }
  return
}

// -----

// One reduction with its row steps (a mean) is no chain: the warp kernel
// takes it with its fusion (its grid static and fitting: no fallback).
// CHECK-LABEL: func.func @mean_alone
// CHECK-NOT:     scf.if
// CHECK:           gpu.launch
// CHECK-NOT:         gpu.shuffle  idx
// CHECK:             arith.divf
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.generic
func.func @mean_alone(%x: memref<64x128xf32>) -> memref<64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 128.0 : f32
  %sum = memref.alloc() : memref<64xf32>
  %m = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x128xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sum : memref<64xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  }
  memref.dealloc %sum : memref<64xf32>
  return %m : memref<64xf32>
}

// -----

// Rows of a dynamic count (a batch): the steps' sizes match the
// reduction's up to the dynamic dim, and each step shares a buffer read or
// written at the row or element with it, so they have as many rows. The
// grid is computed at run time; where it would not fit (no row), the
// original ops run, the reductions marked for the passes after.
// CHECK-LABEL: func.func @softmax_dynamic
// CHECK:         %[[N:.*]] = memref.dim %arg0, %c0
// CHECK:         %[[BLOCKS:.*]] = arith.ceildivui %{{.*}}, %c8
// CHECK:         %[[FITS:.*]] = arith.andi
// CHECK:         scf.if %[[FITS]] {
// CHECK:           gpu.launch blocks({{.*}}) in (%{{.*}} = %[[BLOCKS]],
// CHECK:             math.exp
// CHECK:             arith.divf
// CHECK:           gpu.terminator
// CHECK:         } else {
// CHECK:           linalg.fill
// CHECK:           linalg.generic {{.*}} attrs = {onnx.gpu_fallback}
// CHECK:           math.exp
// CHECK:           linalg.fill
// CHECK:           linalg.generic {{.*}} attrs = {onnx.gpu_fallback}
// CHECK:           arith.divf
// CHECK:         }
// CHECK:         memref.dealloc
// CPU-LABEL: func.func @softmax_dynamic
// CPU:           %[[N:.*]] = memref.dim %arg0, %c0
// CPU:           scf.for %{{.*}} = %c0{{.*}} to %[[N]] step
func.func @softmax_dynamic(%x: memref<?x128xf32>, %y: memref<?x128xf32>) {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?x128xf32>
  %rows = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%ninf : f32) outs(%rows : memref<?xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<?x128xf32>) outs(%rows : memref<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %rows : memref<?x128xf32>, memref<?xf32>) outs(%y : memref<?x128xf32>) {
  ^bb0(%in: f32, %max: f32, %out: f32):
    %d = arith.subf %in, %max : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%rows : memref<?xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%y : memref<?x128xf32>) outs(%rows : memref<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %rows : memref<?x128xf32>, memref<?xf32>) outs(%y : memref<?x128xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %q = arith.divf %in, %sum : f32
    linalg.yield %q : f32
  }
  memref.dealloc %rows : memref<?xf32>
  return
}

// -----

// A dynamic step that shares no such buffer with the reduction (a fill of
// another buffer of as many elements, up to the dynamic dim, but maybe not
// as many): the chain stops before it, and the fill stays as it was.
// CHECK-LABEL: func.func @unrelated_dynamic
// CHECK:         scf.if
// CHECK:           gpu.launch
// CHECK:             arith.maximumf
// CHECK:             arith.subf
// CHECK:           gpu.terminator
// CHECK:         } else {
// CHECK:           arith.subf
// CHECK-NEXT:      linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  linalg.fill
func.func @unrelated_dynamic(%x: memref<?x64xf32>, %r: memref<?xf32>, %y: memref<?x64xf32>, %z: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<?x64xf32>) outs(%r : memref<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %r : memref<?x64xf32>, memref<?xf32>) outs(%y : memref<?x64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  }
  linalg.fill ins(%zero : f32) outs(%z : memref<?xf32>)
  return
}

// -----

// Rows of a dynamic length (a sequence): the steps' element sizes match
// the reduction's up to the dynamic dim, and each step with elements
// shares a buffer read or written at the element with it (here %x and
// %y), so its rows are as long. Each lane's loop runs to the step's own
// length, from the buffers at run time; the rows are static (64: 8 blocks,
// no fallback).
// CHECK-LABEL: func.func @softmax_dynamic_length
// CHECK:         memref.dim %arg0, %c1
// CHECK-NOT:     scf.if
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c8{{[_0-9]*}},
// CHECK:           scf.for %{{.*}} = %{{.*}} to %dim{{[_0-9]*}} step %c32
// CHECK:             arith.maximumf
// CHECK:           scf.for %{{.*}} = %{{.*}} to %dim{{[_0-9]*}} step %c32
// CHECK:             math.exp
// CHECK:           scf.for %{{.*}} = %{{.*}} to %dim{{[_0-9]*}} step %c32
// CHECK:             arith.addf
// CHECK:           scf.for %{{.*}} = %{{.*}} to %dim{{[_0-9]*}} step %c32
// CHECK:             arith.divf
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.generic
// CPU-LABEL: func.func @softmax_dynamic_length
// CPU:           scf.for %{{.*}} = %c0{{.*}} to %c64
// CPU-COUNT-4:     scf.for %{{.*}} = %c0{{.*}} to %dim{{[_0-9]*}} step %c1
func.func @softmax_dynamic_length(%x: memref<64x?xf32>, %y: memref<64x?xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %rows = memref.alloc() : memref<64xf32>
  linalg.fill ins(%ninf : f32) outs(%rows : memref<64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x?xf32>) outs(%rows : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %rows : memref<64x?xf32>, memref<64xf32>) outs(%y : memref<64x?xf32>) {
  ^bb0(%in: f32, %max: f32, %out: f32):
    %d = arith.subf %in, %max : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.fill ins(%zero : f32) outs(%rows : memref<64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%y : memref<64x?xf32>) outs(%rows : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %rows : memref<64x?xf32>, memref<64xf32>) outs(%y : memref<64x?xf32>) {
  ^bb0(%in: f32, %sum: f32, %out: f32):
    %q = arith.divf %in, %sum : f32
    linalg.yield %q : f32
  }
  memref.dealloc %rows : memref<64xf32>
  return
}

// -----

// A step with elements whose rows share only a row buffer with the
// reduction (%r; %z and %w are other buffers of a dynamic length, maybe
// not %x's): the chain stops before it and it stays as it was, so the
// reduction with the step before is a chain of its own.
// CHECK-LABEL: func.func @unrelated_dynamic_length
// CHECK:         gpu.launch
// CHECK:           arith.maximumf
// CHECK:           arith.subf
// CHECK-NOT:       arith.mulf
// CHECK:           gpu.terminator
// CHECK:         linalg.generic
// CHECK:           arith.mulf
func.func @unrelated_dynamic_length(%x: memref<64x?xf32>, %r: memref<64xf32>, %y: memref<64x?xf32>, %z: memref<64x?xf32>, %w: memref<64x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x?xf32>) outs(%r : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %r : memref<64x?xf32>, memref<64xf32>) outs(%y : memref<64x?xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%z, %r : memref<64x?xf32>, memref<64xf32>) outs(%w : memref<64x?xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %p = arith.mulf %in, %m : f32
    linalg.yield %p : f32
  }
  return
}

// -----

// Elementwise ops right before the first reduction start the chain where
// they fit (an f16 input extended to f32, as an f16 LayerNormalization
// does), from the first that fits: the product of %a over [32, 256] has
// other rows and stays as it was, before the kernel.
// CHECK-LABEL: func.func @step_before
// CHECK:         linalg.generic
// CHECK:           arith.mulf
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK:             arith.extf
// CHECK:             memref.store
// CHECK:           scf.for
// CHECK:             arith.addf
// CHECK:           gpu.shuffle  xor
// CHECK:           scf.for
// CHECK:             arith.subf
// CHECK:           gpu.terminator
// CHECK-NOT:     linalg.generic
func.func @step_before(%a: memref<32x256xf32>, %b: memref<32x256xf32>, %x: memref<64x128xf16>, %y: memref<64x128xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<32x256xf32>) outs(%b : memref<32x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  }
  %xf = memref.alloc() : memref<64x128xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<64x128xf16>) outs(%xf : memref<64x128xf32>) {
  ^bb0(%in: f16, %out: f32):
    %e = arith.extf %in : f16 to f32
    linalg.yield %e : f32
  }
  %sum = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%xf : memref<64x128xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xf, %sum : memref<64x128xf32>, memref<64xf32>) outs(%y : memref<64x128xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %d = arith.subf %in, %s : f32
    linalg.yield %d : f32
  }
  memref.dealloc %sum : memref<64xf32>
  memref.dealloc %xf : memref<64x128xf32>
  return
}

// -----

// A fill whose buffer nothing reads before its deallocation is erased.
// CHECK-LABEL: func.func @dead_fill
// CHECK-NOT:     linalg.fill
// CHECK:         memref.dealloc
func.func @dead_fill(%x: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<64xf32>)
  memref.dealloc %a : memref<64xf32>
  return
}
