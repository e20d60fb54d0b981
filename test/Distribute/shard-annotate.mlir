// RUN: onnx-opt %s --onnx-shard-annotate="device-config=dt4 rank=1" -split-input-file | FileCheck %s
// onnx-shard-annotate: the sharding specs of one device configuration as
// `shard` annotations over a grid of its devices, chosen so that every spec
// lays its shards out on it (docs/multi-device.md).

// Device groups and two split axes: 4 devices as a 2x2 grid. X's shards
// are held by the groups {0,1} and {2,3} (grid rows: axis 0), W's by {0,2}
// and {1,3} (grid columns: axis 1), and Y's four shards one a device, row
// by row.
// CHECK-LABEL: module
// CHECK-SAME: onnx.shard_config = "dt4"
// CHECK-SAME: onnx.shard_rank = 1
// CHECK: shard.grid @onnx_devices(shape = 2x2)
// CHECK: %[[ROWS:.*]] = shard.sharding @onnx_devices split_axes = {{\[\[}}0]] :
// CHECK: shard.shard %{{.*}} to %[[ROWS]] annotate_for_users : tensor<8x16xf32>
// CHECK: %[[COLS:.*]] = shard.sharding @onnx_devices split_axes = {{\[\[}}], [1]] :
// CHECK: shard.shard %{{.*}} to %[[COLS]] annotate_for_users : tensor<16x32xf32>
// CHECK: %[[Y:.*]] = onnx.MatMul
// CHECK: %[[BOTH:.*]] = shard.sharding @onnx_devices split_axes = {{\[\[}}0], [1]] :
// CHECK: shard.shard %[[Y]] to %[[BOTH]] : tensor<8x32xf32>
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 21 : i64}, onnx.configuration = [{name = "dt4", num_devices = 4 : i32, device = []}]} {
  func.func @g(%x: tensor<8x16xf32> {onnx.name = "x"}, %w: tensor<16x32xf32> {onnx.name = "w"}) -> (tensor<8x32xf32> {onnx.name = "y"}) {
    %y = onnx.MatMul(%x, %w) {onnx.name = "fc", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "dt4", sharding_spec = [
      {tensor_name = "x", device = array<i64: -1, -2>, index_to_device_group_map = [[-1, array<i64: 0, 1>], [-2, array<i64: 2, 3>]], sharded_dim = [{axis = 0 : i64, simple_sharding = [{dim_value = 8 : i64, num_shards = 2 : i64}]}]},
      {tensor_name = "w", device = array<i64: -1, -2>, index_to_device_group_map = [[-1, array<i64: 0, 2>], [-2, array<i64: 1, 3>]], sharded_dim = [{axis = 1 : i64, simple_sharding = [{dim_value = 32 : i64, num_shards = 2 : i64}]}]},
      {tensor_name = "y", device = array<i64: 0, 1, 2, 3>, sharded_dim = [{axis = 0 : i64, simple_sharding = [{dim_value = 8 : i64, num_shards = 2 : i64}]}, {axis = 1 : i64, simple_sharding = [{dim_value = 32 : i64, num_shards = 2 : i64}]}]}]}]} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    return %y : tensor<8x32xf32>
  }
}

// -----

// Four shards over the devices in the order 0, 2, 1, 3: shard k is on the
// device whose 2x2 coordinates (column, row) linearize to k.
// CHECK: shard.grid @onnx_devices(shape = 2x2)
// CHECK: shard.sharding @onnx_devices split_axes = {{\[\[}}], [1, 0]] :
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 21 : i64}, onnx.configuration = [{name = "dt4", num_devices = 4 : i32, device = []}]} {
  func.func @g(%x: tensor<8x16xf32> {onnx.name = "x"}, %w: tensor<16x32xf32> {onnx.name = "w"}) -> (tensor<8x32xf32> {onnx.name = "y"}) {
    %y = onnx.MatMul(%x, %w) {onnx.name = "fc", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "dt4", sharding_spec = [
      {tensor_name = "w", device = array<i64: 0, 2, 1, 3>, sharded_dim = [{axis = 1 : i64, simple_sharding = [{dim_value = 32 : i64, num_shards = 4 : i64}]}]}]}]} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    return %y : tensor<8x32xf32>
  }
}

// -----

// Shards in device order (no device list) keep the 1-D grid; a sharded_dim
// of one shard, or a spec without one, is replicated.
// CHECK: shard.grid @onnx_devices(shape = 4)
// CHECK: shard.sharding @onnx_devices split_axes = {{\[\[}}]] :
// CHECK: shard.sharding @onnx_devices split_axes = {{\[\[}}], [0]] :
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 21 : i64}, onnx.configuration = [{name = "dt4", num_devices = 4 : i32, device = []}]} {
  func.func @g(%x: tensor<8x16xf32> {onnx.name = "x"}, %w: tensor<16x32xf32> {onnx.name = "w"}) -> (tensor<8x32xf32> {onnx.name = "y"}) {
    %y = onnx.MatMul(%x, %w) {onnx.name = "fc", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "dt4", sharding_spec = [
      {tensor_name = "x", sharded_dim = [{axis = 0 : i64, simple_sharding = [{dim_value = 8 : i64, num_shards = 1 : i64}]}]},
      {tensor_name = "w", sharded_dim = [{axis = -1 : i64, simple_sharding = [{dim_value = 32 : i64, num_shards = 4 : i64}]}]}]}]} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    return %y : tensor<8x32xf32>
  }
}
