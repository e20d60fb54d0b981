// RUN: onnx-opt %s --onnx-fix-openmpi-symbols | FileCheck %s
// onnx-fix-openmpi-symbols on what MLIR 22's `mpi` lowering writes for Open
// MPI: the reduction op named as libmpi names it, the communicator asked of
// the runtime, and a communicator split made once per call site (its slot)
// and read back as the pointer Open MPI's handle is.

// CHECK-NOT: @ompi_mpi_sum
// CHECK-NOT: @ompi_mpi_comm_world
// CHECK-NOT: @MPI_Comm_split
// CHECK-DAG: llvm.mlir.global external @ompi_mpi_op_sum() {{.*}} : !llvm.struct<"ompi_op_t", opaque>
// CHECK-DAG: llvm.func @onnxd_mpi_comm() -> !llvm.ptr
// CHECK-DAG: llvm.func @onnxd_rt_comm_split(!llvm.ptr, i32, i32, !llvm.ptr, !llvm.ptr) -> i32
// CHECK-LABEL: llvm.func @reduce
// CHECK: %[[WORLD:.*]] = llvm.call @onnxd_mpi_comm() : () -> !llvm.ptr
// CHECK: %[[OUT:.*]] = llvm.alloca
// CHECK: %[[SLOT:.*]] = llvm.mlir.addressof @onnx_comm_slot_0 : !llvm.ptr
// CHECK: llvm.call @onnxd_rt_comm_split(%[[WORLD]], %{{.*}}, %{{.*}}, %[[OUT]], %[[SLOT]])
// CHECK: %[[NEW:.*]] = llvm.load %[[OUT]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[HANDLE:.*]] = llvm.ptrtoint %[[NEW]] : !llvm.ptr to i64
// CHECK: %[[COMM:.*]] = llvm.inttoptr %[[HANDLE]] : i64 to !llvm.ptr
// CHECK: %[[SUM:.*]] = llvm.mlir.addressof @ompi_mpi_op_sum : !llvm.ptr
// CHECK: llvm.call @MPI_Allreduce(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SUM]], %[[COMM]])
// CHECK: llvm.mlir.global private @onnx_comm_slot_0(dense<0> : tensor<2xi64>) {{.*}} : !llvm.array<2 x i64>
module {
  llvm.mlir.global external @ompi_mpi_comm_world() {addr_space = 0 : i32} : !llvm.struct<"ompi_communicator_t", opaque>
  llvm.mlir.global external @ompi_mpi_sum() {addr_space = 0 : i32} : !llvm.struct<"ompi_op_t", opaque>
  llvm.mlir.global external @ompi_mpi_float() {addr_space = 0 : i32} : !llvm.struct<"ompi_predefined_datatype_t", opaque>
  llvm.func @MPI_Comm_split(!llvm.ptr, i32, i32, !llvm.ptr) -> i32
  llvm.func @MPI_Allreduce(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
  llvm.func @reduce(%buf: !llvm.ptr, %color: i32, %key: i32) {
    %world = llvm.mlir.addressof @ompi_mpi_comm_world : !llvm.ptr
    %one = llvm.mlir.constant(1 : i32) : i32
    %out = llvm.alloca %one x !llvm.ptr : (i32) -> !llvm.ptr
    %rc = llvm.call @MPI_Comm_split(%world, %color, %key, %out) : (!llvm.ptr, i32, i32, !llvm.ptr) -> i32
    %small = llvm.load %out : !llvm.ptr -> i32
    %wide = llvm.sext %small : i32 to i64
    %comm = llvm.inttoptr %wide : i64 to !llvm.ptr
    %count = llvm.mlir.constant(64 : i32) : i32
    %float = llvm.mlir.addressof @ompi_mpi_float : !llvm.ptr
    %sum = llvm.mlir.addressof @ompi_mpi_sum : !llvm.ptr
    %rc2 = llvm.call @MPI_Allreduce(%buf, %buf, %count, %float, %sum, %comm) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
    llvm.return
  }
}
