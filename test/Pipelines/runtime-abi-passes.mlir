// The passes that shape lowered code for the runtime (lib/Pipelines/RuntimeABI.cpp).
// RUN: onnx-opt %s --onnx-mark-entry-c-interface --onnx-lower-asserts-to-runtime | FileCheck %s
// RUN: onnx-opt %s --onnx-lower-asserts-to-runtime --onnx-sequentialize-failing-loops | FileCheck %s --check-prefix=SEQ

// CHECK: llvm.mlir.global internal constant @onnxd_assert_msg_1("n must be positive\00")
// CHECK: func.func private @onnxd_rt_fail(!llvm.ptr)
// CHECK-LABEL: func.func @entry
// CHECK-SAME: llvm.emit_c_interface
// CHECK: %[[BAD:.*]] = arith.xori %{{.*}}, %true
// CHECK: scf.if %[[BAD]] {
// CHECK-NEXT: %[[MSG:.*]] = llvm.mlir.addressof @onnxd_assert_msg_1
// CHECK-NEXT: func.call @onnxd_rt_fail(%[[MSG]])
// CHECK-NOT: cf.assert

// The loop that may fail becomes scf.for; the other stays parallel.
// SEQ-LABEL: func.func @entry
// SEQ: scf.for
// SEQ: func.call @onnxd_rt_fail
// SEQ: scf.parallel
// SEQ-NOT: func.call @onnxd_rt_fail
module attributes {onnx.entry = @entry} {
  func.func @entry(%m: memref<?xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ok = arith.cmpi sgt, %n, %c0 : index
    cf.assert %ok, "n must be positive"
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      %in = arith.cmpi ult, %i, %n : index
      cf.assert %in, "index out of range"
      scf.reduce
    }
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      scf.reduce
    }
    return
  }
  func.func @other(%x: index) {
    return
  }
}
