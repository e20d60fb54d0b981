// RUN: onnx-opt %s --onnx-shard-annotate="device-config=c rank=0" -split-input-file -verify-diagnostics
// onnx-shard-annotate: sharding specs that upstream `shard` cannot express
// are errors that name the node and the tensor (docs/multi-device.md).

// Four shards in an order no view of 4 devices as a grid has.
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 21 : i64}, onnx.configuration = [{name = "c", num_devices = 4 : i32, device = []}]} {
  func.func @g(%x: tensor<12x16xf32> {onnx.name = "x"}) -> (tensor<12x16xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'n' (onnx.Neg), sharding of 'x': its shards are not laid out on the 4 devices as a grid (device d holds the shard of its coordinates, row-major)}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "c", sharding_spec = [{tensor_name = "x", device = array<i64: 0, 3, 1, 2>, sharded_dim = [{axis = 0 : i64, simple_sharding = [{num_shards = 4 : i64}]}]}]}]} : (tensor<12x16xf32>) -> tensor<12x16xf32>
    return %y : tensor<12x16xf32>
  }
}

// -----

// Two specs that need different grids of 6 devices: groups of 3 (2x3)
// and groups of 2 (3x2).
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 21 : i64}, onnx.configuration = [{name = "c", num_devices = 6 : i32, device = []}]} {
  func.func @g(%x: tensor<12x16xf32> {onnx.name = "x"}) -> (tensor<12x16xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'n' (onnx.Neg), sharding of 'y': its devices are laid out as a grid that the earlier specs of 'c' contradict}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "c", sharding_spec = [{tensor_name = "x", device = array<i64: -1, -2>, index_to_device_group_map = [[-1, array<i64: 0, 1, 2>], [-2, array<i64: 3, 4, 5>]], sharded_dim = [{axis = 0 : i64, simple_sharding = [{num_shards = 2 : i64}]}]}, {tensor_name = "y", device = array<i64: -1, -2, -3>, index_to_device_group_map = [[-1, array<i64: 0, 1>], [-2, array<i64: 2, 3>], [-3, array<i64: 4, 5>]], sharded_dim = [{axis = 0 : i64, simple_sharding = [{num_shards = 3 : i64}]}]}]}]} : (tensor<12x16xf32>) -> tensor<12x16xf32>
    return %y : tensor<12x16xf32>
  }
}

// -----

// A device in two groups.
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 21 : i64}, onnx.configuration = [{name = "c", num_devices = 4 : i32, device = []}]} {
  func.func @g(%x: tensor<12x16xf32> {onnx.name = "x"}) -> (tensor<12x16xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'n' (onnx.Neg), sharding of 'x': device 1 holds two shards}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "c", sharding_spec = [{tensor_name = "x", device = array<i64: -1, -2>, index_to_device_group_map = [[-1, array<i64: 0, 1>], [-2, array<i64: 1, 2, 3>]], sharded_dim = [{axis = 0 : i64, simple_sharding = [{num_shards = 2 : i64}]}]}]}]} : (tensor<12x16xf32>) -> tensor<12x16xf32>
    return %y : tensor<12x16xf32>
  }
}

// -----

// A device that holds no shard.
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 21 : i64}, onnx.configuration = [{name = "c", num_devices = 4 : i32, device = []}]} {
  func.func @g(%x: tensor<12x16xf32> {onnx.name = "x"}) -> (tensor<12x16xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'n' (onnx.Neg), sharding of 'x': device 3 of 'c' holds no shard (every device must hold one)}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "c", sharding_spec = [{tensor_name = "x", device = array<i64: -1, -2>, index_to_device_group_map = [[-1, array<i64: 0, 1>], [-2, array<i64: 2>]], sharded_dim = [{axis = 0 : i64, simple_sharding = [{num_shards = 2 : i64}]}]}]}]} : (tensor<12x16xf32>) -> tensor<12x16xf32>
    return %y : tensor<12x16xf32>
  }
}

// -----

// A device list of the wrong length.
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 21 : i64}, onnx.configuration = [{name = "c", num_devices = 4 : i32, device = []}]} {
  func.func @g(%x: tensor<12x16xf32> {onnx.name = "x"}) -> (tensor<12x16xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'n' (onnx.Neg), sharding of 'x': 2 shards but 4 entries in its device list}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "c", sharding_spec = [{tensor_name = "x", device = array<i64: 0, 1, 2, 3>, sharded_dim = [{axis = 0 : i64, simple_sharding = [{num_shards = 2 : i64}]}]}]}]} : (tensor<12x16xf32>) -> tensor<12x16xf32>
    return %y : tensor<12x16xf32>
  }
}

// -----

// A split of an inner one of fused axes.
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 21 : i64}, onnx.configuration = [{name = "c", num_devices = 2 : i32, device = []}]} {
  func.func @g(%x: tensor<12x16xf32> {onnx.name = "x"}) -> (tensor<12x16xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'n' (onnx.Neg), sharding of 'x': axis 1 splits an inner one of its fused axes; only the outermost may be split}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "c", sharding_spec = [{tensor_name = "x", device = array<i64: 0, 1>, sharded_dim = [{axis = 1 : i64, simple_sharding = [{num_shards = 1 : i64}, {num_shards = 2 : i64}]}]}]}]} : (tensor<12x16xf32>) -> tensor<12x16xf32>
    return %y : tensor<12x16xf32>
  }
}

// -----

// A dim that the shards do not divide.
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 21 : i64}, onnx.configuration = [{name = "c", num_devices = 4 : i32, device = []}]} {
  func.func @g(%x: tensor<12x16xf32> {onnx.name = "x"}) -> (tensor<12x16xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'n' (onnx.Neg), sharding of 'x': dim 0 (12) does not split evenly into 8 shards}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "c", sharding_spec = [{tensor_name = "x", sharded_dim = [{axis = 0 : i64, simple_sharding = [{num_shards = 8 : i64}]}]}]}]} : (tensor<12x16xf32>) -> tensor<12x16xf32>
    return %y : tensor<12x16xf32>
  }
}

// -----

// More shards than devices.
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 21 : i64}, onnx.configuration = [{name = "c", num_devices = 4 : i32, device = []}]} {
  func.func @g(%x: tensor<12x16xf32> {onnx.name = "x"}) -> (tensor<12x16xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'n' (onnx.Neg), sharding of 'x': more shards than the 4 devices of 'c'}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "c", sharding_spec = [{tensor_name = "x", sharded_dim = [{axis = 0 : i64, simple_sharding = [{num_shards = 4 : i64}]}, {axis = 1 : i64, simple_sharding = [{num_shards = 2 : i64}]}]}]}]} : (tensor<12x16xf32>) -> tensor<12x16xf32>
    return %y : tensor<12x16xf32>
  }
}

// -----

// An axis listed twice.
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 21 : i64}, onnx.configuration = [{name = "c", num_devices = 4 : i32, device = []}]} {
  func.func @g(%x: tensor<12x16xf32> {onnx.name = "x"}) -> (tensor<12x16xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'n' (onnx.Neg), sharding of 'x': axis 0 is listed twice}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "c", sharding_spec = [{tensor_name = "x", sharded_dim = [{axis = 0 : i64, simple_sharding = [{num_shards = 2 : i64}]}, {axis = -2 : i64, simple_sharding = [{num_shards = 2 : i64}]}]}]}]} : (tensor<12x16xf32>) -> tensor<12x16xf32>
    return %y : tensor<12x16xf32>
  }
}

// -----

// A configuration too large to lay shards out on (the pass walks every
// device).
// expected-error@+1 {{device configuration 'c' has 1000000 devices; sharded tensors are laid out on at most 65536}}
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 21 : i64}, onnx.configuration = [{name = "c", num_devices = 1000000 : i32, device = []}]} {
  func.func @g(%x: tensor<12x16xf32> {onnx.name = "x"}) -> (tensor<12x16xf32> {onnx.name = "y"}) {
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "c", sharding_spec = [{tensor_name = "x", sharded_dim = [{axis = 0 : i64, simple_sharding = [{num_shards = 2 : i64}]}]}]}]} : (tensor<12x16xf32>) -> tensor<12x16xf32>
    return %y : tensor<12x16xf32>
  }
}
