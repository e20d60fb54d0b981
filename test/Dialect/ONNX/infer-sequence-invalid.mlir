// RUN: onnx-opt %s -split-input-file -verify-diagnostics
// Ops that break the rules of the sequence and optional operators.

func.func @insert_type(%s: !onnx.seq<tensor<*xf32>>, %t: tensor<2xi64>) -> !onnx.seq<tensor<*xf32>> {
  // expected-error @+1 {{input 'tensor' must have the element type of the elements of input 'input_sequence'}}
  %0 = onnx.SequenceInsert(%s, %t) : (!onnx.seq<tensor<*xf32>>, tensor<2xi64>) -> !onnx.seq<tensor<*xf32>>
  return %0 : !onnx.seq<tensor<*xf32>>
}

// -----

func.func @at_position(%s: !onnx.seq<tensor<*xf32>>, %p: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'position' must be a scalar, got rank 1}}
  %0 = onnx.SequenceAt(%s, %p) : (!onnx.seq<tensor<*xf32>>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @concat_axis(%s: !onnx.seq<tensor<2x3xf32>>) -> tensor<*xf32> {
  // expected-error @+1 {{attribute 'axis' 2 is out of range for rank 2}}
  %0 = onnx.ConcatFromSequence(%s) {axis = 2 : i64} : (!onnx.seq<tensor<2x3xf32>>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @split_axis(%x: tensor<2x3xf32>) -> !onnx.seq<tensor<*xf32>> {
  // expected-error @+1 {{attribute 'axis' -3 is out of range for rank 2}}
  %0 = onnx.SplitToSequence(%x) {axis = -3 : i64} : (tensor<2x3xf32>) -> !onnx.seq<tensor<*xf32>>
  return %0 : !onnx.seq<tensor<*xf32>>
}
