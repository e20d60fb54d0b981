// RUN: onnx-opt %s --onnx-profile-gpu-launches | FileCheck %s

// Each launch of the entry function, also inside control flow, gets an id
// passed to onnxd_gpu_prof_kernel right before it, and is named after the
// nodes of its own location and of the ops its kernel holds (a convolution
// and the Relu fused into its kernel), constants left out (they may carry
// the locations of every op that used them).
// CHECK-LABEL: module attributes
// CHECK-SAME: onnx.profile_kernels = {{\[\[}}"conv,relu", "Conv+Relu"], ["softmax", "Softmax"], ["conv,relu", "Conv+Relu"]]
// CHECK: func.func private @onnxd_gpu_prof_kernel(i64)
// CHECK-LABEL: func.func @f
// CHECK:       %[[K0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:  call @onnxd_gpu_prof_kernel(%[[K0]])
// CHECK-NEXT:  gpu.launch_func @kernels::@conv
// CHECK:       scf.if
// CHECK:         %[[K1:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    call @onnxd_gpu_prof_kernel(%[[K1]])
// CHECK-NEXT:    gpu.launch_func @kernels::@softmax
// CHECK:       %[[K2:.*]] = arith.constant 2 : i64
// CHECK-NEXT:  call @onnxd_gpu_prof_kernel(%[[K2]])
// CHECK-NEXT:  gpu.launch_func @kernels::@conv
module attributes {gpu.container_module, onnx.entry = @f,
    onnx.node_types = {conv = "Conv", relu = "Relu", softmax = "Softmax", other = "Add"}} {
  gpu.module @kernels {
    gpu.func @conv(%x: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index loc(fused["other", "softmax"])
      %v = memref.load %x[%c0] : memref<4xf32> loc("conv")
      %zero = arith.constant 0.0 : f32
      %r = arith.maximumf %v, %zero : f32 loc("relu")
      memref.store %r, %x[%c0] : memref<4xf32> loc("relu")
      gpu.return
    }
    gpu.func @softmax(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @f(%x: memref<4xf32>, %b: i1) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@conv blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>) loc("conv")
    scf.if %b {
      gpu.launch_func @kernels::@softmax blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>) loc("softmax")
    }
    gpu.launch_func @kernels::@conv blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
}
