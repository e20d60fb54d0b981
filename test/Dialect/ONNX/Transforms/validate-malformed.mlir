// RUN: not onnx-opt %s --onnx-validate -o /dev/null 2>&1 | FileCheck %s
// Attributes of the wrong kind everywhere: errors, never a crash. Every
// diagnostic names its rule.
// CHECK-NOT: PLEASE submit
// CHECK: error: onnx.entry is not a symbol reference [ir-repr-attr]
// CHECK: error: onnx.configuration #0 is not a dictionary [ir-repr-attr]
// CHECK: error: device configuration #1 has no name [ir-dev-config-name]
// CHECK: error: initializer 'w': onnx.name is not a string [ir-repr-attr]
// CHECK: error: model-local function 'custom::F': onnx.function.inputs is not an array [ir-repr-attr]
// CHECK: error: training_info 0, r: the binding is not a dictionary [ir-repr-attr]
// CHECK: error: node (Neg): sharding_spec is not an array [ir-repr-attr]
// CHECK: error: input '#0' of 'g': onnx.dim_params is not an array [ir-repr-attr]
// CHECK: error: node (call custom::F): onnx.outputs is not an array [ir-repr-attr]
// CHECK-NOT: PLEASE submit
module attributes {onnx.entry = 1 : i64, onnx.ir_version = 10 : i64, onnx.opset_import = {ai.onnx = 21 : i64, custom = 1 : i64}, onnx.configuration = [1, {name = 3}, {name = "c", num_devices = "x", device = 1}]} {
  ml_program.global private @w(dense<1.0> : tensor<2xf32>) : tensor<2xf32> {onnx.name = 1 : i64, onnx.metadata_props = 1}
  func.func private @"custom::F"(%x: !onnx.any) -> !onnx.any attributes {onnx.function = {domain = 1, name = 2, overload = 3, inputs = 3, outputs = [1], attributes = "a", attribute_defaults = 1, opset_import = 5}} {
    return %x : !onnx.any
  }
  func.func private @t() attributes {onnx.training = {index = 0 : i64, role = "r", binding = 1}} {
    return
  }
  func.func private @t2() attributes {onnx.training = {index = 0 : i64, role = "r", binding = {a = 1}}} {
    return
  }
  func.func @g(%x: tensor<2xf32> {onnx.name = 1, onnx.dim_params = "N", onnx.default = 1}) -> (tensor<2xf32> {onnx.name = 2, onnx.dim_params = [1, 2]}) attributes {onnx.quantization_annotation = 1} {
    %y = onnx.Neg(%x) {onnx.name = 1, onnx.outputs = [1], onnx.device_configurations = [1, {configuration_id = 1, sharding_spec = 1}, {configuration_id = "c", sharding_spec = [1, {tensor_name = 1}, {tensor_name = "x", device = [1], sharded_dim = [1, {axis = "a"}, {axis = 0, simple_sharding = [1, {num_shards = "z"}]}]}]}]} : (tensor<2xf32>) -> tensor<2xf32>
    %z = onnx.call @"custom::F"(%y) {onnx.outputs = 5} : (tensor<2xf32>) -> !onnx.any
    return %y : tensor<2xf32>
  }
}
