// RUN: onnx-opt %s --onnx-shard-specialize | FileCheck %s
// onnx-shard-specialize on a 2x2 grid for rank 1 (grid coordinates (0, 1)):
// the process indices fold, a slice over grid axis 1 takes block 1 and
// one over both axes block 1, and a gather over grid axis 0 runs among the
// ranks of the same column (1 and 3: color 1, this rank first, key 0).

// CHECK-LABEL: func.func @f
// CHECK: tensor.extract_slice %arg0[0, 4] [8, 4] [1, 1] : tensor<8x8xf32> to tensor<8x4xf32>
// CHECK: tensor.extract_slice %arg0[2, 0] [2, 8] [1, 1] : tensor<8x8xf32> to tensor<2x8xf32>
// CHECK: %[[SLOT:.*]] = llvm.mlir.addressof @onnx_comm_slot_0 : !llvm.ptr
// CHECK: call @onnxd_rt_allgather_group(%{{.*}}, %{{.*}}, %c1_i64, %c0_i64, %[[SLOT]]) {onnx.comm_bytes = 256 : i64}
// CHECK: memref.view {{.*}} : memref<256xi8> to memref<8x8xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: return {{.*}}, %[[C0]], %[[C1]] :
// CHECK: llvm.mlir.global private @onnx_comm_slot_0(dense<0> : tensor<2xi64>)
// CHECK: func.func private @onnxd_rt_allgather_group(memref<?xi8>, memref<?xi8>, i64, i64, !llvm.ptr)
module attributes {onnx.shard_rank = 1 : i64} {
  shard.grid @onnx_devices(shape = 2x2)
  func.func @f(%x: tensor<8x8xf32>, %s: tensor<4x8xf32>) -> (tensor<8x4xf32>, tensor<2x8xf32>, tensor<8x8xf32>, index, index) {
    %a = shard.all_slice %x on @onnx_devices grid_axes = [1] slice_axis = 1 : tensor<8x8xf32> -> tensor<8x4xf32>
    %b = shard.all_slice %x on @onnx_devices grid_axes = [0, 1] slice_axis = 0 : tensor<8x8xf32> -> tensor<2x8xf32>
    %g = shard.all_gather %s on @onnx_devices grid_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
    %i:2 = shard.process_multi_index on @onnx_devices : index, index
    return %a, %b, %g, %i#0, %i#1 : tensor<8x4xf32>, tensor<2x8xf32>, tensor<8x8xf32>, index, index
  }
}
