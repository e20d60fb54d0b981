// RUN: onnx-opt %s --onnx-validate -split-input-file -verify-diagnostics
// Names (SSA, no shadowing, unique node names, C90) and dim_params.

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @g(%x: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}) {
    %a = onnx.Neg(%x) {onnx.outputs = ["a"]} : (tensor<2xf32>) -> tensor<2xf32>
    // expected-error@+1 {{'a' is defined twice in one graph: output of node with output 'a' (Neg) and output of node with output 'a' (Abs) [ir-names-ssa]}}
    %y = onnx.Abs(%a) {onnx.outputs = ["a"]} : (tensor<2xf32>) -> tensor<2xf32>
    return %y : tensor<2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  ml_program.global private @x(dense<1.0> : tensor<2xf32>) : tensor<2xf32> {onnx.name = "w"}
  func.func @g(%x: tensor<2xf32> {onnx.name = "w"}) -> (tensor<2xf32> {onnx.name = "w"}) {
    return %x : tensor<2xf32>
  }
  // expected-error@-4 {{'w' is defined twice in one graph: input of graph 'g' and initializer [ir-names-ssa]}}
}

// -----

module attributes {onnx.ir_version = 13 : i64, onnx.opset_import = {ai.onnx = 27 : i64}} {
  func.func @g(%x: tensor<2xf32> {onnx.name = "x"}, %c: tensor<i1> {onnx.name = "c"}) -> (tensor<2xf32> {onnx.name = "y"}) {
    %y = onnx.If(%c) {onnx.outputs = ["y"]} : (tensor<i1>) -> tensor<2xf32> else_branch {
      // expected-error@+1 {{'x' (output of node with output 'x' (Neg)) shadows 'x' (input of graph 'g') of an enclosing graph [ir-names-no-shadow]}}
      %n = onnx.Neg(%x) {onnx.outputs = ["x"]} : (tensor<2xf32>) -> tensor<2xf32>
      onnx.yield %n : tensor<2xf32>
    } then_branch {
      // Sibling graphs may reuse names.
      %n = onnx.Abs(%x) {onnx.outputs = ["t"]} : (tensor<2xf32>) -> tensor<2xf32>
      onnx.yield %n : tensor<2xf32>
    }
    return %y : tensor<2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @g(%x: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "y"}) {
    %a = onnx.Neg(%x) {onnx.name = "n", onnx.outputs = ["a"]} : (tensor<2xf32>) -> tensor<2xf32>
    // expected-error@+1 {{two nodes of one graph are named 'n' [ir-names-unique]}}
    %y = onnx.Abs(%a) {onnx.name = "n", onnx.outputs = ["y"]} : (tensor<2xf32>) -> tensor<2xf32>
    return %y : tensor<2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 13 : i64, onnx.opset_import = {ai.onnx = 27 : i64}} {
  func.func @g(%c: tensor<i1> {onnx.name = "c"}) -> (tensor<f32> {onnx.name = "y"}) {
    %y = onnx.If(%c) {onnx.outputs = ["y"]} : (tensor<i1>) -> tensor<f32> else_branch {
      %k = onnx.Constant() {value = dense<1.0> : tensor<f32>, onnx.outputs = ["k"]} : () -> tensor<f32>
      // expected-error@+1 {{a subgraph input has no name [ir-graph-io-names]}}
      onnx.yield {onnx.inputs = [""]} %k : tensor<f32>
    } then_branch {
      %k = onnx.Constant() {value = dense<2.0> : tensor<f32>, onnx.outputs = ["k"]} : () -> tensor<f32>
      onnx.yield %k : tensor<f32>
    }
    return %y : tensor<f32>
  }
}

// -----

// expected-warning@+1 {{2 names are not C90 identifiers, the first is 'x.1' [ir-names-c90]}}
module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @g(%x: tensor<2xf32> {onnx.name = "x.1"}) -> (tensor<2xf32> {onnx.name = "0"}) {
    %y = onnx.Neg(%x) {onnx.outputs = ["0"]} : (tensor<2xf32>) -> tensor<2xf32>
    return %y : tensor<2xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  // expected-error@+1 {{dim_param 'N' is 4 in output 'y' of 'g' but 3 in input 'x' of 'g' [ir-dim-param-consistent]}}
  func.func @g(%x: tensor<3xf32> {onnx.name = "x", onnx.dim_params = ["N"]}, %z: tensor<1xf32> {onnx.name = "z"}) -> (tensor<4xf32> {onnx.name = "y", onnx.dim_params = ["N"]}) {
    %y = onnx.Concat(%x, %z) {axis = 0 : i64, onnx.outputs = ["y"]} : (tensor<3xf32>, tensor<1xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

// A dim_param that one value binds to 3 and another leaves unknown is fine.
module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @g(%x: tensor<3xf32> {onnx.name = "x", onnx.dim_params = ["N"]}, %s: !onnx.seq<tensor<?xf32>> {onnx.name = "s", onnx.dim_params = ["N"]}) -> (tensor<3xf32> {onnx.name = "x"}) {
    return %x : tensor<3xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  // expected-error@+1 {{input 'x' of 'g': '*' as a dim_param (any number of dimensions) is not supported; a shape has one entry per dimension [ir-shape-rank]}}
  func.func @g(%x: tensor<?xf32> {onnx.name = "x", onnx.dim_params = ["*"]}) -> (tensor<?xf32> {onnx.name = "x"}) {
    return %x : tensor<?xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  // expected-warning@+1 {{input 'x' of 'g': dim_param 'batch size' is not a C90 identifier [ir-dim-param-c90]}}
  func.func @g(%x: tensor<?xf32> {onnx.name = "x", onnx.dim_params = ["batch size"]}) -> (tensor<?xf32> {onnx.name = "x"}) {
    return %x : tensor<?xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  // expected-error@+1 {{input 'x' of 'g': onnx.dim_params has 2 entries for 1 dimensions [ir-repr-attr]}}
  func.func @g(%x: tensor<?xf32> {onnx.name = "x", onnx.dim_params = ["N", "M"]}) -> (tensor<?xf32> {onnx.name = "x"}) {
    return %x : tensor<?xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  // expected-error@+1 {{input 'x' of 'g': onnx.dim_params holds a non-string [ir-repr-attr]}}
  func.func @g(%x: tensor<?xf32> {onnx.name = "x", onnx.dim_params = [3]}) -> (tensor<?xf32> {onnx.name = "x"}) {
    return %x : tensor<?xf32>
  }
}

// -----

module attributes {onnx.ir_version = 8 : i64, onnx.opset_import = {ai.onnx = 17 : i64}} {
  func.func @g(%x: tensor<2xf32> {onnx.name = "x"}) -> (tensor<2xf32> {onnx.name = "x"}) {
    // expected-error@+1 {{onnx.outputs is not an array [ir-repr-attr]}}
    %y = onnx.Neg(%x) {onnx.outputs = "y"} : (tensor<2xf32>) -> tensor<2xf32>
    return %x : tensor<2xf32>
  }
}
