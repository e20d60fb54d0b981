// RUN: onnx-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-map-to-kernels{remarks=true}))' | FileCheck %s
// RUN: echo 'func.func @f() { return }' | not onnx-opt \
// RUN:   --pass-pipeline='builtin.module(func.func(onnx-gpu-map-to-kernels{block-size=100}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: onnx-gpu-map-to-kernels: block-size must be a multiple of 32 from 32 to 1024, not 100

// A 2-D nest is collapsed into one dim, tiled by the block size and mapped:
// the tile loop onto blocks, the loop in a tile onto threads, with a bounds
// check for the last tile (1000 * 3 = 3000 iterations, 12 blocks of 256).
// CHECK-LABEL: func.func @elementwise
// CHECK:       scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%{{.*}}) step (%[[C256:.*]])
// CHECK:         scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[C256]])
// CHECK:           scf.if
// CHECK:             math.exp
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
func.func @elementwise(%a: memref<1000x3xf32>, %b: memref<1000x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c1000 = arith.constant 1000 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1000, %c3) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<1000x3xf32>
    %y = math.exp %x : f32
    memref.store %y, %b[%i, %j] : memref<1000x3xf32>
    scf.reduce
  }
  return
}

// -----

// A short loop gets one block of just enough warps; a reduction loop inside
// stays a loop of each thread, a parallel loop inside is sequential.
// CHECK-LABEL: func.func @short_with_inner_loops
// CHECK:       scf.parallel
// CHECK:         scf.parallel
// CHECK:           scf.for
// CHECK:           scf.parallel
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = sequential
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK-NOT:   arith.constant 256
func.func @short_with_inner_loops(%a: memref<40x8xf32>, %b: memref<40xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c40 = arith.constant 40 : index
  scf.parallel (%i) = (%c0) to (%c40) step (%c1) {
    scf.for %k = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i, %k] : memref<40x8xf32>
      %s = memref.load %b[%i] : memref<40xf32>
      %t = arith.addf %s, %x : f32
      memref.store %t, %b[%i] : memref<40xf32>
    }
    scf.parallel (%k) = (%c0) to (%c8) step (%c1) {
      %x = memref.load %a[%i, %k] : memref<40x8xf32>
      %y = math.absf %x : f32
      memref.store %y, %a[%i, %k] : memref<40x8xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// What the device cannot run stays on the host, with a remark saying why.
// CHECK-LABEL: func.func @host_nests
// CHECK-NOT:   mapping
func.func private @onnxd_rt_string(memref<4xi64>)
func.func @host_nests(%a: memref<4xf64>, %b: memref<4xi64>, %s: memref<4xcomplex<f32>>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f0 = arith.constant 0.0 : f32
  // expected-remark @below {{this loop nest runs on the host: it holds 'math.exp' on f64, which has no kernel code without libdevice}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %x = memref.load %a[%i] : memref<4xf64>
    %y = math.exp %x : f64
    memref.store %y, %a[%i] : memref<4xf64>
    scf.reduce
  }
  // expected-remark @below {{this loop nest runs on the host: it holds 'func.call'}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    func.call @onnxd_rt_string(%b) : (memref<4xi64>) -> ()
    scf.reduce
  }
  // expected-remark @below {{this loop nest runs on the host: 'memref.load' uses memref<4xcomplex<f32>>, which kernels do not handle}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %p = memref.load %s[%i] : memref<4xcomplex<f32>>
    memref.store %p, %s[%c0] : memref<4xcomplex<f32>>
    scf.reduce
  }
  // expected-remark @below {{this loop nest runs on the host: it reduces into loop results}}
  %sum = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%f0) -> f32 {
    %one = arith.constant 1.0 : f32
    scf.reduce(%one : f32) {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      scf.reduce.return %t : f32
    }
  }
  // expected-remark @below {{this loop nest runs on the host: it holds 'memref.alloc'}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %t = memref.alloc() : memref<2xf32>
    memref.dealloc %t : memref<2xf32>
    scf.reduce
  }
  return %sum : f32
}
