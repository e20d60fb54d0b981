// RUN: onnx-opt %s | onnx-opt | FileCheck %s
// RUN: onnx-opt %s --mlir-print-op-generic | onnx-opt | FileCheck %s
// Round trip of operator ops of every shape, pretty and generic.

// CHECK-LABEL: func @binary
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: onnx.Add(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = onnx.Add(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// An older schema version keeps its own op and attributes.
// CHECK-LABEL: func @versioned
func.func @versioned(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: onnx.Add_v6(%{{.*}}, %{{.*}}) {axis = 1 : i64, broadcast = 1 : i64}
  %0 = onnx.Add_v6(%a, %b) {axis = 1 : i64, broadcast = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Optional inputs: trailing ones omitted, one in the middle written `none`.
// CHECK-LABEL: func @optional_inputs
func.func @optional_inputs(%x: tensor<4xf32>, %max: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK: onnx.Clip(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = onnx.Clip(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: onnx.Clip(%{{.*}}, none, %{{.*}}) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = onnx.Clip(%x, none, %max) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: onnx.Clip(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  %2 = onnx.Clip(%x, %max, %max) : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Variadic inputs and outputs.
// CHECK-LABEL: func @variadic
func.func @variadic(%a: tensor<2xf32>, %b: tensor<3xf32>, %c: tensor<?xf32>) -> (tensor<?xf32>, tensor<2xf32>, tensor<3xf32>) {
  // CHECK: onnx.Concat(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 0 : i64} : (tensor<2xf32>, tensor<3xf32>, tensor<?xf32>) -> tensor<?xf32>
  %0 = onnx.Concat(%a, %b, %c) {axis = 0 : i64} : (tensor<2xf32>, tensor<3xf32>, tensor<?xf32>) -> tensor<?xf32>
  // CHECK: onnx.Split(%{{.*}}) {axis = 0 : i64, num_outputs = 2 : i64} : (tensor<5xf32>) -> (tensor<3xf32>, tensor<2xf32>)
  %cat = onnx.Concat(%a, %b) {axis = 0 : i64} : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
  %1:2 = onnx.Split(%cat) {axis = 0 : i64, num_outputs = 2 : i64} : (tensor<5xf32>) -> (tensor<3xf32>, tensor<2xf32>)
  return %0, %1#1, %1#0 : tensor<?xf32>, tensor<2xf32>, tensor<3xf32>
}

// Optional outputs: an omitted one in the middle is `none` in the result types.
// CHECK-LABEL: func @optional_outputs
func.func @optional_outputs(%x: tensor<5x1x4xf32>, %w: tensor<1x12x4xf32>, %r: tensor<1x12x3xf32>) -> tensor<1x1x3xf32> {
  // CHECK: onnx.GRU(%{{.*}}, %{{.*}}, %{{.*}}) {hidden_size = 3 : i64} : (tensor<5x1x4xf32>, tensor<1x12x4xf32>, tensor<1x12x3xf32>) -> (none, tensor<1x1x3xf32>)
  %h = onnx.GRU(%x, %w, %r) {hidden_size = 3 : i64} : (tensor<5x1x4xf32>, tensor<1x12x4xf32>, tensor<1x12x3xf32>) -> (none, tensor<1x1x3xf32>)
  // CHECK: onnx.Dropout(%{{.*}}) : (tensor<5x1x4xf32>) -> tensor<5x1x4xf32>
  %d = onnx.Dropout(%x) : (tensor<5x1x4xf32>) -> tensor<5x1x4xf32>
  // CHECK: onnx.Dropout(%{{.*}}) : (tensor<5x1x4xf32>) -> (tensor<5x1x4xf32>, tensor<5x1x4xi1>)
  %e:2 = onnx.Dropout(%x) : (tensor<5x1x4xf32>) -> (tensor<5x1x4xf32>, tensor<5x1x4xi1>)
  return %h : tensor<1x1x3xf32>
}

// Regions (graph attributes) that use values of the enclosing graph.
// CHECK-LABEL: func @regions
func.func @regions(%c: tensor<i1>, %x: tensor<2xf32>, %m: tensor<i64>) -> (tensor<2xf32>, tensor<2xf32>) {
  // Graphs may be written in any order; they print in the schema's order.
  // CHECK: onnx.If(%{{.*}}) : (tensor<i1>) -> tensor<2xf32> else_branch {
  // CHECK:   onnx.Neg
  // CHECK: } then_branch {
  // CHECK-NEXT: onnx.yield %{{.*}} : tensor<2xf32>
  %0 = onnx.If(%c) : (tensor<i1>) -> tensor<2xf32> then_branch {
    onnx.yield %x : tensor<2xf32>
  } else_branch {
    %n = onnx.Neg(%x) : (tensor<2xf32>) -> tensor<2xf32>
    onnx.yield %n : tensor<2xf32>
  }
  // CHECK: onnx.Loop(%{{.*}}, none, %{{.*}}) : (tensor<i64>, tensor<2xf32>) -> tensor<2xf32> body {
  // CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: tensor<2xf32>):
  %1 = onnx.Loop(%m, none, %x) : (tensor<i64>, tensor<2xf32>) -> tensor<2xf32> body {
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<2xf32>):
    %s = onnx.Add(%v, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    onnx.yield %cond, %s : tensor<i1>, tensor<2xf32>
  }
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// Attributes of every kind.
// CHECK-LABEL: func @attributes
func.func @attributes(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // int, ints, string
  // CHECK: onnx.Conv(%{{.*}}, %{{.*}}) {auto_pad = "VALID", group = 1 : i64, kernel_shape = array<i64: 3, 3>}
  %0 = onnx.Conv(%x, %w) {auto_pad = "VALID", group = 1 : i64, kernel_shape = array<i64: 3, 3>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  // float
  // CHECK: onnx.LeakyRelu(%{{.*}}) {alpha = 2.000000e-01 : f32}
  %1 = onnx.LeakyRelu(%0) {alpha = 0.2 : f32} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %1 : tensor<1x4x6x6xf32>
}

// CHECK-LABEL: func @tensor_attributes
func.func @tensor_attributes() -> (tensor<2xf32>, tensor<2x!onnx.string>, tensor<3xi4>, tensor<2xf8E4M3FN>, tensor<1xcomplex<f32>>, tensor<4xf32>, tensor<2xi64>) {
  // tensor
  // CHECK: onnx.Constant() {value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}
  %0 = onnx.Constant() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  // CHECK: onnx.Constant() {value = dense<["a", "bc"]> : tensor<2x!onnx.string>}
  %1 = onnx.Constant() {value = dense<["a", "bc"]> : tensor<2x!onnx.string>} : () -> tensor<2x!onnx.string>
  // CHECK: onnx.Constant() {value = dense<[1, -2, 7]> : tensor<3xi4>}
  %2 = onnx.Constant() {value = dense<[1, -2, 7]> : tensor<3xi4>} : () -> tensor<3xi4>
  // CHECK: onnx.Constant() {value = dense<[1.000000e+00, 4.480000e+02]> : tensor<2xf8E4M3FN>}
  %3 = onnx.Constant() {value = dense<[1.0, 448.0]> : tensor<2xf8E4M3FN>} : () -> tensor<2xf8E4M3FN>
  // CHECK: onnx.Constant() {value = dense<(1.000000e+00,2.000000e+00)> : tensor<1xcomplex<f32>>}
  %4 = onnx.Constant() {value = dense<(1.0, 2.0)> : tensor<1xcomplex<f32>>} : () -> tensor<1xcomplex<f32>>
  // sparse tensor
  // CHECK: onnx.Constant() {sparse_value = sparse<{{\[}}[1], [3]], [5.000000e+00, 6.000000e+00]> : tensor<4xf32>}
  %5 = onnx.Constant() {sparse_value = sparse<[[1], [3]], [5.0, 6.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  // floats, ints as attributes of Constant
  // CHECK: onnx.Constant() {value_ints = array<i64: 4, 5>}
  %6 = onnx.Constant() {value_ints = array<i64: 4, 5>} : () -> tensor<2xi64>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2xf32>, tensor<2x!onnx.string>, tensor<3xi4>, tensor<2xf8E4M3FN>, tensor<1xcomplex<f32>>, tensor<4xf32>, tensor<2xi64>
}

// strings, floats, type_proto; ai.onnx.ml ops.
// CHECK-LABEL: func @ml
func.func @ml(%x: tensor<3x!onnx.string>, %y: tensor<2x2xf32>) -> (tensor<3xi64>, tensor<2x2xf32>) {
  // CHECK: onnx.ml.LabelEncoder(%{{.*}}) {default_int64 = -1 : i64, keys_strings = ["a", "b"], values_int64s = array<i64: 1, 2>}
  %0 = onnx.ml.LabelEncoder(%x) {default_int64 = -1 : i64, keys_strings = ["a", "b"], values_int64s = array<i64: 1, 2>} : (tensor<3x!onnx.string>) -> tensor<3xi64>
  // CHECK: onnx.ml.Scaler(%{{.*}}) {offset = array<f32: 1.000000e+00, 2.000000e+00>
  %1 = onnx.ml.Scaler(%y) {offset = array<f32: 1.0, 2.0>, scale = array<f32: 0.5, 0.5>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0, %1 : tensor<3xi64>, tensor<2x2xf32>
}

// CHECK-LABEL: func @type_attribute
func.func @type_attribute(%x: tensor<2xf32>) -> !onnx.opt<tensor<2xf32>> {
  // CHECK: onnx.Optional() {type_ = tensor<2xf32>} : () -> !onnx.opt<tensor<2xf32>>
  %0 = onnx.Optional() {type_ = tensor<2xf32>} : () -> !onnx.opt<tensor<2xf32>>
  // CHECK: onnx.Optional(%{{.*}}) : (tensor<2xf32>) -> !onnx.opt<tensor<2xf32>>
  %1 = onnx.Optional(%x) : (tensor<2xf32>) -> !onnx.opt<tensor<2xf32>>
  return %1 : !onnx.opt<tensor<2xf32>>
}

// Sequences and maps.
// CHECK-LABEL: func @sequences
func.func @sequences(%a: tensor<2xf32>, %b: tensor<3xf32>, %m: !onnx.map<i64, tensor<f32>>) -> (!onnx.seq<tensor<?xf32>>, tensor<?xf32>, !onnx.seq<!onnx.map<!onnx.string, tensor<f32>>>) {
  // CHECK: onnx.SequenceConstruct(%{{.*}}, %{{.*}}) : (tensor<2xf32>, tensor<3xf32>) -> !onnx.seq<tensor<?xf32>>
  %0 = onnx.SequenceConstruct(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> !onnx.seq<tensor<?xf32>>
  // CHECK: onnx.SequenceAt(%{{.*}}, %{{.*}}) : (!onnx.seq<tensor<?xf32>>, tensor<i64>) -> tensor<?xf32>
  %i = onnx.Constant() {value_int = 0 : i64} : () -> tensor<i64>
  %1 = onnx.SequenceAt(%0, %i) : (!onnx.seq<tensor<?xf32>>, tensor<i64>) -> tensor<?xf32>
  // CHECK: onnx.ml.ZipMap(%{{.*}}) {classlabels_strings = ["x", "y", "z"]} : (tensor<1x3xf32>) -> !onnx.seq<!onnx.map<!onnx.string, tensor<f32>>>
  %p = onnx.Constant() {value = dense<[[0.1, 0.2, 0.7]]> : tensor<1x3xf32>} : () -> tensor<1x3xf32>
  %2 = onnx.ml.ZipMap(%p) {classlabels_strings = ["x", "y", "z"]} : (tensor<1x3xf32>) -> !onnx.seq<!onnx.map<!onnx.string, tensor<f32>>>
  return %0, %1, %2 : !onnx.seq<tensor<?xf32>>, tensor<?xf32>, !onnx.seq<!onnx.map<!onnx.string, tensor<f32>>>
}

// Unranked and dynamic shapes, preview and training domains.
// CHECK-LABEL: func @shapes_and_domains
func.func @shapes_and_domains(%x: tensor<*xf32>, %r: tensor<f32>, %t: tensor<i64>, %g: tensor<?xf32>) -> (tensor<*xf32>, tensor<?xf32>) {
  // CHECK: onnx.Relu(%{{.*}}) : (tensor<*xf32>) -> tensor<*xf32>
  %0 = onnx.Relu(%x) : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: onnx.preview.training.Adagrad(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<f32>, tensor<i64>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  %1:2 = onnx.preview.training.Adagrad(%r, %t, %g, %g, %g) : (tensor<f32>, tensor<i64>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  return %0, %1#0 : tensor<*xf32>, tensor<?xf32>
}
