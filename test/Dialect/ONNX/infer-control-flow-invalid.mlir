// RUN: onnx-opt %s -split-input-file -verify-diagnostics
// Control flow ops whose graphs do not fit the op.

func.func @if_types(%c: tensor<i1>, %a: tensor<2xf32>, %b: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{output 0 has element type 'f32' in 'then_branch' but 'i64' in 'else_branch'}}
  %0 = onnx.If(%c) : (tensor<i1>) -> tensor<*xf32> else_branch {
    onnx.yield %b : tensor<2xi64>
  } then_branch {
    onnx.yield %a : tensor<2xf32>
  }
  return %0 : tensor<*xf32>
}

// -----

func.func @scan_axes(%init: tensor<2xf32>, %x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{attribute 'scan_input_axes' must have 1 values, got 2}}
  %0:2 = onnx.Scan(%init, %x) {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 0, 0>} : (tensor<2xf32>, tensor<2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) body {
  ^bb0(%s: tensor<2xf32>, %e: tensor<3xf32>):
    onnx.yield %s, %e : tensor<2xf32>, tensor<3xf32>
  }
  return %0#1 : tensor<*xf32>
}

// -----

// The condition may have any rank, but one element.
func.func @if_cond_elements(%c: tensor<1x2xi1>, %a: tensor<2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'cond' must hold one element, but has a dimension of 2}}
  %0 = onnx.If(%c) : (tensor<1x2xi1>) -> tensor<*xf32> else_branch {
    onnx.yield %a : tensor<2xf32>
  } then_branch {
    onnx.yield %a : tensor<2xf32>
  }
  return %0 : tensor<*xf32>
}

// -----

func.func @loop_trip_count_elements(%m: tensor<3xi64>, %c: tensor<i1>, %y: tensor<1xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'M' must hold one element, but has a dimension of 3}}
  %0 = onnx.Loop(%m, %c, %y) : (tensor<3xi64>, tensor<i1>, tensor<1xf32>) -> tensor<*xf32> body {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %yi: tensor<1xf32>):
    onnx.yield %ci, %yi : tensor<i1>, tensor<1xf32>
  }
  return %0 : tensor<*xf32>
}
