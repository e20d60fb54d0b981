// RUN: onnx-opt %s --onnx-validate -split-input-file -verify-diagnostics
// Device configurations (IR 11) and the sharding of node inputs and outputs.

// A valid one: 2 shards of axis 0 over devices 0 and 1.
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 23 : i64}, onnx.configuration = [{name = "two", num_devices = 2 : i32, device = ["a", "b"]}]} {
  func.func @g(%x: tensor<4x2xf32> {onnx.name = "x"}) -> (tensor<4x2xf32> {onnx.name = "y"}) {
    %y = onnx.Neg(%x) {onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "two", sharding_spec = [{tensor_name = "x", device = array<i64: 0, 1>, index_to_device_group_map = [], sharded_dim = [{axis = 0 : i64, simple_sharding = [{dim_value = 4 : i64, num_shards = 2 : i64}]}]}]}]} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    return %y : tensor<4x2xf32>
  }
}

// -----

// expected-error@+1 {{device configuration #0 has no name [ir-dev-config-name]}}
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 23 : i64}, onnx.configuration = [{name = "", num_devices = 2 : i32, device = []}]} {
}

// -----

// expected-error@+1 {{device configuration 'c' needs a positive num_devices [ir-dev-config-num-devices]}}
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 23 : i64}, onnx.configuration = [{name = "c", num_devices = 0 : i32, device = []}]} {
}

// -----

// expected-error@+1 {{device configuration 'c' names 1 devices but has num_devices 2 [ir-dev-config-device-names]}}
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 23 : i64}, onnx.configuration = [{name = "c", num_devices = 2 : i32, device = ["a"]}]} {
}

// -----

// expected-error@+1 {{onnx.configuration is not an array [ir-repr-attr]}}
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 23 : i64}, onnx.configuration = "c"} {
}

// -----

module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 23 : i64}, onnx.configuration = [{name = "two", num_devices = 2 : i32, device = []}]} {
  func.func @g(%x: tensor<4x2xf32> {onnx.name = "x"}) -> (tensor<4x2xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'n' (Neg): configuration_id 'three' names no device configuration of the model [ir-dev-node-config-id]}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "three", sharding_spec = []}]} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    return %y : tensor<4x2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 23 : i64}, onnx.configuration = [{name = "two", num_devices = 2 : i32, device = []}]} {
  func.func @g(%x: tensor<4x2xf32> {onnx.name = "x"}) -> (tensor<4x2xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'n' (Neg), sharding of 'z': 'z' is not an input or output of the node [ir-dev-shard-tensor]}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "two", sharding_spec = [{tensor_name = "z", device = array<i64: 0, 1>}]}]} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    return %y : tensor<4x2xf32>
  }
}

// -----

// Device groups: the entries of `device` that are keys of the
// index_to_device_group_map name groups (2 shards, each on 2 of 4 devices);
// the groups' members are the ids checked.
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 23 : i64}, onnx.configuration = [{name = "four", num_devices = 4 : i32, device = []}]} {
  func.func @g(%x: tensor<4x2xf32> {onnx.name = "x"}) -> (tensor<4x2xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'n' (Neg), sharding of 'y': device 4 (in device group -2) is not one of the 4 devices of its configuration [ir-dev-shard-devices]}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "four", sharding_spec = [{tensor_name = "x", device = array<i64: -1, -2>, index_to_device_group_map = [[-1, array<i64: 0, 1>], [-2, array<i64: 2, 3>]], sharded_dim = [{axis = 0 : i64, simple_sharding = [{dim_value = 4 : i64, num_shards = 2 : i64}]}]}, {tensor_name = "y", device = array<i64: -1, -2>, index_to_device_group_map = [[-1, array<i64: 0, 1>], [-2, array<i64: 3, 4>]], sharded_dim = [{axis = 0 : i64, simple_sharding = [{dim_value = 4 : i64, num_shards = 2 : i64}]}]}]}]} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    return %y : tensor<4x2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 23 : i64}, onnx.configuration = [{name = "two", num_devices = 2 : i32, device = []}]} {
  func.func @g(%x: tensor<4x2xf32> {onnx.name = "x"}) -> (tensor<4x2xf32> {onnx.name = "y"}) {
    // expected-error@+2 {{node 'n' (Neg), sharding of 'y': axis 2 is out of range for rank 2 [ir-dev-shard-axis]}}
    // expected-error@+1 {{node 'n' (Neg), sharding of 'y': device 2 is not one of the 2 devices of its configuration [ir-dev-shard-devices]}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "two", sharding_spec = [{tensor_name = "y", device = array<i64: 1, 2>, sharded_dim = [{axis = 2 : i64, simple_sharding = [{num_shards = 2 : i64}]}]}]}]} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    return %y : tensor<4x2xf32>
  }
}

// -----

// A sharded axis's dim_value (the product of them, for fused axes) or
// dim_param must be the tensor's dim.
module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 23 : i64}, onnx.configuration = [{name = "two", num_devices = 2 : i32, device = []}]} {
  func.func @g(%x: tensor<4x6xf32> {onnx.name = "x"}) -> (tensor<4x6xf32> {onnx.name = "y"}) {
    // expected-error@+2 {{node 'n' (Neg), sharding of 'x': axis 0 is sharded as dim_value 8 but the tensor's dim is 4 [ir-dev-shard-dim]}}
    // expected-error@+1 {{node 'n' (Neg), sharding of 'y': axis 1 is sharded as dim_param 'N' but the tensor's dim is 6 [ir-dev-shard-dim]}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "two", sharding_spec = [{tensor_name = "x", device = array<i64: 0, 1>, sharded_dim = [{axis = 0 : i64, simple_sharding = [{dim_value = 8 : i64, num_shards = 2 : i64}]}]}, {tensor_name = "y", device = array<i64: 0, 1>, sharded_dim = [{axis = 1 : i64, simple_sharding = [{dim_param = "N", num_shards = 2 : i64}]}]}]}]} : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %z = onnx.Neg(%y) {onnx.name = "m", onnx.outputs = ["z"], onnx.device_configurations = [{configuration_id = "two", sharding_spec = [{tensor_name = "z", device = array<i64: 0, 1>, sharded_dim = [{axis = 1 : i64, simple_sharding = [{dim_value = 3 : i64, num_shards = 1 : i64}, {dim_value = 2 : i64, num_shards = 2 : i64}]}]}]}]} : (tensor<4x6xf32>) -> tensor<4x6xf32>
    return %z : tensor<4x6xf32>
  }
}

// -----

module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 23 : i64}, onnx.configuration = [{name = "four", num_devices = 4 : i32, device = []}]} {
  func.func @g(%x: tensor<4x2xf32> {onnx.name = "x"}) -> (tensor<4x2xf32> {onnx.name = "y"}) {
    // expected-error@+2 {{node 'n' (Neg), sharding of 'x': axis -1 needs a positive num_shards [ir-dev-shard-num-shards]}}
    // expected-error@+1 {{node 'n' (Neg), sharding of 'y': 3 shards do not divide evenly over its 4 devices [ir-dev-shard-devices]}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = [{configuration_id = "four", sharding_spec = [{tensor_name = "x", device = array<i64: 0, 1>, sharded_dim = [{axis = -1 : i64, simple_sharding = [{num_shards = 0 : i64}]}]}, {tensor_name = "y", device = array<i64: 0, 1, 2, 3>, sharded_dim = [{axis = 0 : i64, simple_sharding = [{num_shards = 3 : i64}]}]}]}]} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    return %y : tensor<4x2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 11 : i64, onnx.opset_import = {ai.onnx = 23 : i64}} {
  func.func @g(%x: tensor<4x2xf32> {onnx.name = "x"}) -> (tensor<4x2xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{node 'n' (Neg): onnx.device_configurations is not an array [ir-repr-attr]}}
    %y = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["y"], onnx.device_configurations = 1 : i64} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    return %y : tensor<4x2xf32>
  }
}
