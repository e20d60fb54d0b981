// RUN: onnx-opt %s --onnx-validate -split-input-file -verify-diagnostics
// Rules of the IR that the op verifiers enforce, before onnx-validate runs
// (their messages come from ODS and carry no rule ID; docs/ir-rules.md).

// [ir-optional-explicit]: an optional value reaches a tensor input only
// through OptionalGetElement.
module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @g(%o: !onnx.opt<tensor<2xf32>> {onnx.name = "o"}) -> (tensor<2xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{'onnx.Neg' op operand #0 must be tensor of}}
    %y = onnx.Neg(%o) {onnx.outputs = ["y"]} : (!onnx.opt<tensor<2xf32>>) -> tensor<2xf32>
    return %y : tensor<2xf32>
  }
}

// -----

// [ir-tensor-elem-primitive]: tensor elements are ONNX's primitive types.
module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @g(%x: tensor<2xindex> {onnx.name = "x"}) -> (tensor<2xindex> {onnx.name = "y"}) {
    // expected-error@+1 {{'onnx.Identity' op operand #0 must be}}
    %y = onnx.Identity(%x) {onnx.outputs = ["y"]} : (tensor<2xindex>) -> tensor<2xindex>
    return %y : tensor<2xindex>
  }
}

// -----

// [ir-node-signature]: the attributes a node has fit its operator.
module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @g(%x: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}) {
    // expected-error@+1 {{'onnx.Softmax' op attribute 'axis' failed to satisfy constraint}}
    %y = onnx.Softmax(%x) {axis = 1.0 : f32, onnx.outputs = ["y"]} : (tensor<2xf32>) -> tensor<2xf32>
    return %y : tensor<2xf32>
  }
}
