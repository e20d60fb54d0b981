// RUN: onnx-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpu.module(math-extend-to-supported-types,onnx-gpu-to-nvvm))' \
// RUN:   | FileCheck %s

// Math functions become polynomials and native intrinsics, never libdevice
// calls; f16 math runs in f32; additions and multiplications may contract
// into FMAs; ids become NVVM special registers.
// CHECK-LABEL: gpu.module @kernels
// CHECK:       llvm.func @k({{.*}}) attributes {gpu.kernel, nvvm.kernel}
// CHECK:         nvvm.read.ptx.sreg.tid.x
// CHECK-DAG:     llvm.intr.sqrt
// CHECK-DAG:     llvm.intr.floor
// CHECK-DAG:     llvm.intr.fma
// CHECK-DAG:     llvm.fmul {{.*}} {fastmathFlags = #llvm.fastmath<contract>}
// CHECK-DAG:     llvm.fpext {{.*}} : f16 to f32
// CHECK-NOT:     __nv_
// CHECK-NOT:     math.
// CHECK-NOT:     llvm.intr.exp(
// CHECK-NOT:     llvm.intr.log(
gpu.module @kernels {
  gpu.func @k(%a: memref<?xf32>, %h: memref<?xf16>) kernel {
    %i = gpu.thread_id x
    %x = memref.load %a[%i] : memref<?xf32>
    %e = math.exp %x : f32
    %t = math.tanh %e : f32
    %s = math.sqrt %t : f32
    %f = math.floor %s : f32
    %p = math.powf %f, %x : f32
    %l = math.log %p : f32
    %r = math.erf %l : f32
    %c = math.cos %r : f32
    %m = arith.mulf %c, %x : f32
    %y = arith.addf %m, %x : f32
    memref.store %y, %a[%i] : memref<?xf32>
    %hx = memref.load %h[%i] : memref<?xf16>
    %he = math.exp %hx : f16
    memref.store %he, %h[%i] : memref<?xf16>
    gpu.return
  }
}

// -----

// A math function with no kernel code (f64 exp would need libdevice) is an
// error naming it; onnx-gpu-map-to-kernels keeps such nests on the host.
gpu.module @kernels {
  gpu.func @k(%a: memref<?xf64>) kernel {
    %i = gpu.thread_id x
    %x = memref.load %a[%i] : memref<?xf64>
    // expected-error @below {{onnx-gpu-to-nvvm: 'math.exp' has no lowering for kernels (no libdevice)}}
    %e = math.exp %x : f64
    memref.store %e, %a[%i] : memref<?xf64>
    gpu.return
  }
}
