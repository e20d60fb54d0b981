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

// -----

// Every math function onnx-gpu-map-to-kernels lets into a kernel lowers
// (MapToKernels.cpp's isNativeMath and isApproximatedMath), in f32.
// CHECK-LABEL: gpu.module @all_math
// CHECK-NOT:   math.
// CHECK-NOT:   __nv_
gpu.module @all_math {
  gpu.func @k(%a: memref<?xf32>, %n: memref<?xi32>) kernel {
    %i = gpu.thread_id x
    %x = memref.load %a[%i] : memref<?xf32>
    %j = memref.load %n[%i] : memref<?xi32>
    %0 = math.exp %x : f32
    %1 = math.exp2 %0 : f32
    %2 = math.expm1 %1 : f32
    %3 = math.log %2 : f32
    %4 = math.log2 %3 : f32
    %5 = math.log1p %4 : f32
    %6 = math.log10 %5 : f32
    %7 = math.tanh %6 : f32
    %8 = math.erf %7 : f32
    %9 = math.erfc %8 : f32
    %10 = math.sin %9 : f32
    %11 = math.cos %10 : f32
    %12 = math.tan %11 : f32
    %13 = math.atan %12 : f32
    %14 = math.atan2 %13, %x : f32
    %15 = math.asin %14 : f32
    %16 = math.acos %15 : f32
    %17 = math.sinh %16 : f32
    %18 = math.cosh %17 : f32
    %19 = math.asinh %18 : f32
    %20 = math.acosh %19 : f32
    %21 = math.atanh %20 : f32
    %22 = math.powf %21, %x : f32
    %23 = math.fpowi %22, %j : f32, i32
    %24 = math.rsqrt %23 : f32
    %25 = math.cbrt %24 : f32
    %26 = math.absf %25 : f32
    %27 = math.ceil %26 : f32
    %28 = math.floor %27 : f32
    %29 = math.trunc %28 : f32
    %30 = math.sqrt %29 : f32
    %31 = math.fma %30, %x, %x : f32
    %32 = math.copysign %31, %x : f32
    %33 = math.roundeven %32 : f32
    %34 = math.round %33 : f32
    memref.store %34, %a[%i] : memref<?xf32>
    %b6 = math.isnan %34 : f32
    %k0 = math.absi %j : i32
    %k1 = math.ctlz %k0 : i32
    %k2 = math.cttz %k1 : i32
    %k3 = math.ctpop %k2 : i32
    %k4 = arith.select %b6, %k3, %j : i32
    memref.store %k4, %n[%i] : memref<?xi32>
    gpu.return
  }
}
