// RUN: onnx-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(onnx-gpu-emulate-kernels)' | FileCheck %s

// A kernel module, lowered to NVVM, moves into the host module under a
// prefixed name; its shared memory becomes a host global whose address is
// cast to the shared address space; the special registers, the barrier,
// the shuffle, the tensor-core product and the TF32 conversion become
// calls of the runtime's emulator (the codes of
// include/OnnxDialect/Runtime/GPUEmulator.h); the launch passes an entry
// that unpacks the driver's parameter array.
// CHECK-NOT:   gpu.container_module
// CHECK-NOT:   gpu.module
// CHECK-LABEL: llvm.func @host
// CHECK-SAME:    (%[[STREAM:.*]]: !llvm.ptr, %[[BUF:.*]]: !llvm.ptr, %[[N:.*]]: i64)
// CHECK:         llvm.store %[[BUF]], %[[SLOT0:.*]] : !llvm.ptr, !llvm.ptr
// CHECK:         %[[P0:.*]] = llvm.getelementptr %[[PARAMS:.*]][0]
// CHECK:         llvm.store %[[SLOT0]], %[[P0]]
// CHECK:         llvm.store %[[N]], %[[SLOT1:.*]] : i64, !llvm.ptr
// CHECK:         %[[P1:.*]] = llvm.getelementptr %[[PARAMS]][1]
// CHECK:         llvm.store %[[SLOT1]], %[[P1]]
// CHECK:         %[[ENTRY:.*]] = llvm.mlir.addressof @__onnxd_emu_k_k__entry
// CHECK:         %[[NAME:.*]] = llvm.mlir.addressof @__onnxd_emu_name_k
// CHECK:         llvm.call @onnxd_gpu_emu_launch(%[[ENTRY]], %[[NAME]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[STREAM]], %[[PARAMS]], %{{.*}})
// CHECK-NOT:     gpu.launch_func
// CHECK:       llvm.mlir.global internal @__onnxd_emu_k_tile() {addr_space = 0 : i32} : !llvm.array<256 x f32>
// CHECK-LABEL: llvm.func @__onnxd_emu_k_k(
// CHECK-NOT:     nvvm.
// CHECK:         llvm.call @onnxd_gpu_emu_sreg(%{{.*}}) : (i32) -> i32
// CHECK:         %[[TILE:.*]] = llvm.mlir.addressof @__onnxd_emu_k_tile : !llvm.ptr
// CHECK:         llvm.addrspacecast %[[TILE]] : !llvm.ptr to !llvm.ptr<3>
// CHECK:         llvm.call @onnxd_gpu_emu_barrier()
// CHECK:         %[[BITS:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK:         %[[SHFL:.*]] = llvm.call @onnxd_gpu_emu_shfl(%{{.*}}, %{{.*}}, %[[BITS]], %{{.*}}, %{{.*}}) : (i32, i32, i32, i32, i32) -> i64
// CHECK:         llvm.trunc %[[SHFL]] : i64 to i32
// CHECK:         llvm.call @onnxd_gpu_emu_tf32(%{{.*}}) : (f32) -> i32
// CHECK:         llvm.call @onnxd_gpu_emu_mma(%{{.*}}, %{{.*}}) : (i32, !llvm.ptr) -> ()
// CHECK-NOT:     nvvm.
// CHECK:       llvm.func @__onnxd_emu_k_k__entry(%[[ARGS:.*]]: !llvm.ptr)
// CHECK:         %[[A0:.*]] = llvm.getelementptr %[[ARGS]][0]
// CHECK:         %[[V0:.*]] = llvm.load %[[A0]] : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.load %[[V0]] : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.call @__onnxd_emu_k_k(

module attributes {gpu.container_module} {
  llvm.func @host(%stream: !llvm.ptr, %buf: !llvm.ptr, %n: i64) {
    %c1 = llvm.mlir.constant(1 : index) : i64
    %c32 = llvm.mlir.constant(32 : index) : i64
    gpu.launch_func <%stream : !llvm.ptr> @k::@k blocks in (%c1, %c1, %c1)
        threads in (%c32, %c1, %c1) : i64 args(%buf : !llvm.ptr, %n : i64)
    llvm.return
  }
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    llvm.mlir.global internal @tile() {addr_space = 3 : i32} : !llvm.array<256 x f32>
    llvm.func @k(%buf: !llvm.ptr, %n: i64) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %tile = llvm.mlir.addressof @tile : !llvm.ptr<3>
      %v = llvm.load %buf : !llvm.ptr -> f32
      llvm.store %v, %tile : f32, !llvm.ptr<3>
      nvvm.barrier0
      %mask = llvm.mlir.constant(-1 : i32) : i32
      %one = llvm.mlir.constant(1 : i32) : i32
      %clamp = llvm.mlir.constant(31 : i32) : i32
      %s = nvvm.shfl.sync bfly %mask, %v, %one, %clamp : f32 -> f32
      %t = nvvm.convert.float.to.tf32 %s {rnd = #nvvm.fp_rnd_mode<rna>}
      %c = llvm.mlir.constant(0.0 : f32) : f32
      %d = nvvm.mma.sync A[%t, %t, %t, %t] B[%t, %t] C[%c, %c, %c, %c]
          {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>,
           multiplicandAPtxType = #nvvm.mma_type<tf32>,
           multiplicandBPtxType = #nvvm.mma_type<tf32>,
           shape = #nvvm.shape<m = 16, n = 8, k = 8>}
          : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
      %d0 = llvm.extractvalue %d[0] : !llvm.struct<(f32, f32, f32, f32)>
      llvm.store %d0, %buf : f32, !llvm.ptr
      llvm.return
    }
  }
}

// -----

// An NVVM operation the emulator does not have is an error that names it.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    llvm.func @k(%buf: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      // expected-error @below {{onnx-gpu-emulate-kernels: nvvm.read.ptx.sreg.clock is not emulated}}
      %t = nvvm.read.ptx.sreg.clock : i32
      llvm.store %t, %buf : i32, !llvm.ptr
      llvm.return
    }
  }
}
