// RUN: onnx-opt %s --onnx-gpu-device-memory | FileCheck %s

// Outlining makes a module per loop nest: identical kernels (the same body
// under different names, as a model's repeated layers give) are merged, so
// the driver compiles each once, and every kernel is named after its module.
// A kernel that differs (here in one constant) keeps its own module.
// CHECK:     gpu.module @f_kernel {
// CHECK-NEXT:  gpu.func @f_kernel(
// CHECK-NOT: gpu.module @f_kernel_0
// CHECK:     gpu.module @f_kernel_1 {
// CHECK-NEXT:  gpu.func @f_kernel_1(
// CHECK:     func.func private @f
// CHECK:       gpu.launch_func @f_kernel::@f_kernel
// CHECK:       gpu.launch_func @f_kernel::@f_kernel
// CHECK:       gpu.launch_func @f_kernel_1::@f_kernel_1
module attributes {gpu.container_module} {
  gpu.module @f_kernel {
    gpu.func @f_kernel(%a: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %c = arith.constant 2.0 : f32
      memref.store %c, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_0 {
    gpu.func @f_kernel(%a: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %c = arith.constant 2.0 : f32
      memref.store %c, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @f_kernel_1 {
    gpu.func @f_kernel(%a: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %c = arith.constant 3.0 : f32
      memref.store %c, %a[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func private @f(%a: memref<4xf32>, %b: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%b : memref<4xf32>)
    gpu.launch_func @f_kernel_1::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%b : memref<4xf32>)
    return
  }
}
