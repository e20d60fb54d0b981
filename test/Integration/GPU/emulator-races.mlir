// The GPU emulator's checks on kernels at the NVVM level (the form
// onnx-gpu-emulate-kernels takes), run with mlir-runner over the runtime
// library: threads that store to shared memory and then read a
// neighbour's element race without a barrier between (the error names the
// kernel, the block and both threads; outside a run, onnxd_rt_fail
// aborts), and compute the neighbour's value with one. (Not in the checked
// build: mlir-runner does not link the sanitizers' runtimes its library needs.)
// UNSUPPORTED: sanitized
// RUN: onnx-opt %s --pass-pipeline='builtin.module(onnx-gpu-emulate-kernels)' \
// RUN: | not --crash mlir-runner -e racy -entry-point-result=void -shared-libs=%onnxd_runtime 2>&1 \
// RUN: | FileCheck %s --check-prefix=RACE
// RACE: onnxd: run-time check failed: GPU emulator: kernel neighbour: block (0,0,0): thread 1 writes shared memory that thread 0 read since the last barrier (a missing barrier)
// RUN: onnx-opt %s --pass-pipeline='builtin.module(onnx-gpu-emulate-kernels)' \
// RUN: | mlir-runner -e synchronized -entry-point-result=i32 -shared-libs=%onnxd_runtime \
// RUN: | FileCheck %s --check-prefix=SYNC
// The sum over 64 threads of their neighbours' indices, 0 + 1 + ... + 63.
// SYNC: 2016

module attributes {gpu.container_module} {
  llvm.func @racy() {
    %c1 = llvm.mlir.constant(1 : index) : i64
    %c64 = llvm.mlir.constant(64 : index) : i64
    %out = llvm.alloca %c64 x i32 : (i64) -> !llvm.ptr
    %no = llvm.mlir.constant(0 : i1) : i1
    gpu.launch_func @neighbour::@neighbour blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) : i64 args(%out : !llvm.ptr, %no : i1)
    llvm.return
  }
  llvm.func @synchronized() -> i32 {
    %c1 = llvm.mlir.constant(1 : index) : i64
    %c64 = llvm.mlir.constant(64 : index) : i64
    %out = llvm.alloca %c64 x i32 : (i64) -> !llvm.ptr
    %yes = llvm.mlir.constant(1 : i1) : i1
    gpu.launch_func @neighbour::@neighbour blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) : i64 args(%out : !llvm.ptr, %yes : i1)
    %zero = llvm.mlir.constant(0 : i32) : i32
    %sum = llvm.mlir.constant(0 : i32) : i32
    llvm.br ^loop(%zero, %sum : i32, i32)
  ^loop(%i: i32, %acc: i32):
    %n = llvm.mlir.constant(64 : i32) : i32
    %more = llvm.icmp "slt" %i, %n : i32
    llvm.cond_br %more, ^body, ^done
  ^body:
    %p = llvm.getelementptr %out[%i] : (!llvm.ptr, i32) -> !llvm.ptr, i32
    %v = llvm.load %p : !llvm.ptr -> i32
    %acc2 = llvm.add %acc, %v : i32
    %one = llvm.mlir.constant(1 : i32) : i32
    %i2 = llvm.add %i, %one : i32
    llvm.br ^loop(%i2, %acc2 : i32, i32)
  ^done:
    llvm.return %acc : i32
  }
  // Thread t stores t to the tile, waits at a barrier if `sync`, then
  // stores the tile's element (t + 1) % 64 to out[t].
  gpu.module @neighbour [#nvvm.target<chip = "sm_90">] {
    llvm.mlir.global internal @tile() {addr_space = 3 : i32} : !llvm.array<64 x i32>
    llvm.func @neighbour(%out: !llvm.ptr, %sync: i1) attributes {gpu.kernel, nvvm.kernel} {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %tile = llvm.mlir.addressof @tile : !llvm.ptr<3>
      %mine = llvm.getelementptr %tile[%t] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
      llvm.store %t, %mine : i32, !llvm.ptr<3>
      llvm.cond_br %sync, ^wait, ^read
    ^wait:
      nvvm.barrier0
      llvm.br ^read
    ^read:
      %one = llvm.mlir.constant(1 : i32) : i32
      %n = llvm.mlir.constant(64 : i32) : i32
      %next = llvm.add %t, %one : i32
      %j = llvm.urem %next, %n : i32
      %theirs = llvm.getelementptr %tile[%j] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
      %v = llvm.load %theirs : !llvm.ptr<3> -> i32
      %dst = llvm.getelementptr %out[%t] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %v, %dst : i32, !llvm.ptr
      llvm.return
    }
  }
}
