// RUN: onnx-opt %s -split-input-file -verify-diagnostics
// Each kind of constraint an op's schema puts on it, broken once.

// Missing required attribute.
func.func @missing_required_attribute(%x: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @+1 {{'onnx.Cast' op requires attribute 'to'}}
  %0 = onnx.Cast(%x) : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Wrong attribute type.
func.func @wrong_attribute_type(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Softmax' op attribute 'axis' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = onnx.Softmax(%x) {axis = "last"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @wrong_list_attribute_type(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{'onnx.MaxPool' op attribute 'kernel_shape' failed to satisfy constraint: i64 dense array attribute}}
  %0 = onnx.MaxPool(%x) {kernel_shape = [2.0, 2.0]} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// Element type outside the version's constraint: Relu-14 takes no integers
// narrower than 8 bits, and Relu-6 no integers at all.
func.func @element_type_outside_constraint(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'onnx.Relu_v6' op operand #0 must be tensor of 16-bit float or 32-bit float or 64-bit float values or !onnx.any, but got 'tensor<4xi32>'}}
  %0 = onnx.Relu_v6(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @result_type_outside_constraint(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Shape' op result #0 must be tensor of 64-bit signless integer values or !onnx.any, but got 'tensor<4xf32>'}}
  %0 = onnx.Shape(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A non-tensor where a tensor is expected.
func.func @sequence_for_tensor(%s: !onnx.seq<tensor<4xf32>>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Relu' op operand #0 must be tensor of}}
  %0 = onnx.Relu(%s) : (!onnx.seq<tensor<4xf32>>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Wrong arity: too few inputs.
func.func @too_few_inputs(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{input 'B' is required and cannot be omitted}}
  %0 = onnx.Add(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Wrong arity: too many inputs.
func.func @too_many_inputs(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected at most 2 inputs, got 3}}
  %0 = onnx.Add(%x, %x, %x) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Wrong arity: a required input written as omitted.
func.func @omitted_required_input(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{input 'B' is required and cannot be omitted}}
  %0 = onnx.Add(%x, none) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Wrong arity: too few values for a variadic (Concat takes at least one).
func.func @variadic_min_arity() -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Concat' op variadic input 'inputs' needs at least 1 value(s), got 0}}
  %0 = onnx.Concat() {axis = 0 : i64} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Wrong arity: too many outputs.
func.func @too_many_outputs(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected at most 1 outputs, got 2}}
  %0:2 = onnx.Relu(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}

// -----

// Mismatched type variables: T bound to f32 by A and to i32 by B.
func.func @type_variable_mismatch(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Add' op input 'B' has type 'tensor<4xi32>' but type variable 'T' is bound to 'tensor<4xf32>' by input 'A'}}
  %0 = onnx.Add(%a, %b) : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ... and between an input and an output.
func.func @type_variable_mismatch_result(%a: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'onnx.Neg' op output 'Y' has type 'tensor<4xf16>' but type variable 'T' is bound to 'tensor<4xf32>' by input 'X'}}
  %0 = onnx.Neg(%a) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// ... and within a homogeneous variadic.
func.func @type_variable_mismatch_variadic(%a: tensor<2xf32>, %b: tensor<2xf64>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Concat' op input 'inputs' #1 has type 'tensor<2xf64>' but type variable 'T' is bound to 'tensor<2xf32>' by input 'inputs' #0}}
  %0 = onnx.Concat(%a, %b) {axis = 0 : i64} : (tensor<2xf32>, tensor<2xf64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A required graph attribute is missing.
func.func @missing_graph(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.If' op region #1 ('then_branch') failed to verify constraint: region with 1 blocks}}
  %0 = onnx.If(%c) : (tensor<i1>) -> tensor<2xf32> else_branch {
    onnx.yield %x : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @graph_twice(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = onnx.If(%c) : (tensor<i1>) -> tensor<2xf32> else_branch {
    onnx.yield %x : tensor<2xf32>
  // expected-error @+1 {{graph 'else_branch' given twice}}
  } else_branch {
    onnx.yield %x : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

// A deprecated schema version (Upsample's newest version is its deprecation).
func.func @deprecated(%x: tensor<4xf32>, %s: tensor<1xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'onnx.Upsample' op is operator 'Upsample' of ai.onnx as deprecated in opset 10}}
  %0 = onnx.Upsample(%x, %s) : (tensor<4xf32>, tensor<1xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Function attribute references: to an attribute the op does not have.
func.func @unknown_attr_ref(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Relu' op references a function attribute for 'alpha', which the operator does not have}}
  %0 = onnx.Relu(%x) {onnx.attr_refs = {alpha = #onnx.ref<"a">}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @attr_ref_and_value(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.LeakyRelu' op attribute 'alpha' has both a value and a function attribute reference}}
  %0 = onnx.LeakyRelu(%x) {alpha = 0.5 : f32, onnx.attr_refs = {alpha = #onnx.ref<"a">}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @attr_ref_not_a_ref(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.LeakyRelu' op reference for attribute 'alpha' must be an #onnx.ref, got "a"}}
  %0 = onnx.LeakyRelu(%x) {onnx.attr_refs = {alpha = "a"}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Structural ops.
func.func @custom_default_domain(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.custom' op operator 'Relu' of the default domain must use its generated op}}
  %0 = onnx.custom "" "Relu"(%x) : (tensor<4xf32>) -> (tensor<4xf32>)
  return %0 : tensor<4xf32>
}

// -----

func.func @call_undefined(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.call' op calls 'nowhere', which is not defined}}
  %0 = onnx.call @nowhere(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @f(tensor<4xf32>) -> tensor<4xf32>
func.func @call_arity(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.call' op has 2 inputs and 1 outputs, but 'f' takes 1 and gives 1}}
  %0 = onnx.call @f(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
