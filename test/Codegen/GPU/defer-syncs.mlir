// RUN: onnx-opt %s --onnx-gpu-defer-syncs | FileCheck %s

// Launches are queued on the stream made once at the entry, without a wait
// between them; the host waits before it loads a buffer, and at a merge
// reached by a path with a pending launch before it stores; not before the
// return where nothing is pending. Allocating through the runtime needs no
// wait. A copy's wait goes, and one is put back before the call of a host
// function (which may read the copy).
// CHECK-LABEL: llvm.func @entry
// CHECK:         %[[S:.*]] = llvm.call @mgpuStreamCreate()
// CHECK-NEXT:    llvm.mlir.constant
// CHECK-NEXT:    %[[B:.*]] = llvm.call @onnxd_gpu_alloc
// CHECK-NEXT:    gpu.launch_func <%[[S]] : !llvm.ptr> @k::@f
// CHECK-NEXT:    gpu.launch_func <%[[S]] : !llvm.ptr> @k::@f
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize(%[[S]])
// CHECK-NEXT:    llvm.load %[[B]]
// CHECK-NEXT:    llvm.cond_br
// CHECK:       ^bb1:
// CHECK-NEXT:    gpu.launch_func <%[[S]] : !llvm.ptr> @k::@f
// CHECK-NEXT:    llvm.br ^bb3
// CHECK:       ^bb2:
// CHECK-NEXT:    llvm.br ^bb3
// CHECK:       ^bb3:
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize(%[[S]])
// CHECK-NEXT:    llvm.store
// CHECK-NEXT:    llvm.call @onnxd_gpu_free
// CHECK-NEXT:    llvm.return
//
// CHECK-LABEL: llvm.func @copy
// CHECK:         %[[S:.*]] = llvm.call @mgpuStreamCreate()
// CHECK:         %[[T:.*]] = llvm.call @mgpuStreamCreate()
// CHECK-NEXT:    llvm.call @mgpuMemcpy
// CHECK-NEXT:    llvm.call @mgpuStreamDestroy(%[[T]])
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize(%[[S]])
// CHECK-NEXT:    llvm.call @host
// CHECK-NEXT:    llvm.return
//
// A loop: the launch at the end of its body leaves work pending at the head
// (a back edge), so the load at the head waits every time.
// CHECK-LABEL: llvm.func @loop
// CHECK:       ^bb1(%{{.*}}: i64):
// CHECK-NEXT:    llvm.call @mgpuStreamSynchronize
// CHECK-NEXT:    llvm.load
// CHECK:         gpu.launch_func
// CHECK-NEXT:    llvm.br ^bb1
// CHECK:       {{\^bb[0-9]+}}:
// CHECK-NEXT:    llvm.return
//
// Without a launch or a copy, nothing changes.
// CHECK-LABEL: llvm.func @no_launch
// CHECK-NOT:     mgpu
// CHECK:         llvm.return
module attributes {gpu.container_module} {
  gpu.module @k {
    llvm.func @f(%arg0: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  llvm.func @onnxd_gpu_alloc(i64) -> !llvm.ptr
  llvm.func @onnxd_gpu_free(!llvm.ptr)
  llvm.func @mgpuStreamCreate() -> !llvm.ptr
  llvm.func @mgpuStreamSynchronize(!llvm.ptr)
  llvm.func @mgpuStreamDestroy(!llvm.ptr)
  llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
  llvm.func @host(!llvm.ptr)

  llvm.func @entry(%c: i1, %x: f32) {
    %one = llvm.mlir.constant(1 : i64) : i64
    %b = llvm.call @onnxd_gpu_alloc(%one) : (i64) -> !llvm.ptr
    gpu.launch_func @k::@f blocks in (%one, %one, %one) threads in (%one, %one, %one) : i64 args(%b : !llvm.ptr)
    gpu.launch_func @k::@f blocks in (%one, %one, %one) threads in (%one, %one, %one) : i64 args(%b : !llvm.ptr)
    %v = llvm.load %b : !llvm.ptr -> f32
    llvm.cond_br %c, ^bb1, ^bb2
  ^bb1:
    gpu.launch_func @k::@f blocks in (%one, %one, %one) threads in (%one, %one, %one) : i64 args(%b : !llvm.ptr)
    llvm.br ^bb3
  ^bb2:
    llvm.br ^bb3
  ^bb3:
    llvm.store %x, %b : f32, !llvm.ptr
    llvm.call @onnxd_gpu_free(%b) : (!llvm.ptr) -> ()
    llvm.return
  }

  llvm.func @copy(%dst: !llvm.ptr, %src: !llvm.ptr, %n: i64) {
    %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    llvm.call @mgpuMemcpy(%dst, %src, %n, %s) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    llvm.call @mgpuStreamSynchronize(%s) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%s) : (!llvm.ptr) -> ()
    llvm.call @host(%dst) : (!llvm.ptr) -> ()
    llvm.return
  }

  llvm.func @loop(%b: !llvm.ptr, %n: i64) {
    %zero = llvm.mlir.constant(0 : i64) : i64
    %one = llvm.mlir.constant(1 : i64) : i64
    llvm.br ^bb1(%zero : i64)
  ^bb1(%i: i64):
    %v = llvm.load %b : !llvm.ptr -> f32
    %done = llvm.icmp "uge" %i, %n : i64
    llvm.cond_br %done, ^bb2, ^bb3
  ^bb3:
    %next = llvm.add %i, %one : i64
    gpu.launch_func @k::@f blocks in (%one, %one, %one) threads in (%one, %one, %one) : i64 args(%b : !llvm.ptr)
    llvm.br ^bb1(%next : i64)
  ^bb2:
    llvm.return
  }

  llvm.func @no_launch(%b: !llvm.ptr) -> f32 {
    %v = llvm.load %b : !llvm.ptr -> f32
    llvm.return %v : f32
  }
}
