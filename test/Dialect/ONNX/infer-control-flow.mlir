// RUN: onnx-opt %s --onnx-infer-shapes=fold=false | FileCheck %s
// Inference of If, Loop and Scan from what their graphs yield.

// The branches agree on dim 0 only.
// CHECK-LABEL: func @if
func.func @if(%c: tensor<i1>, %a: tensor<2x3xf32>, %b: tensor<2x4xf32>, %v: tensor<5xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.If(%{{.*}}) : (tensor<i1>) -> (tensor<2x?xf32>, tensor<*xf32>)
  %0:2 = onnx.If(%c) : (tensor<i1>) -> (tensor<*xf32>, tensor<*xf32>) else_branch {
    onnx.yield %b, %v : tensor<2x4xf32>, tensor<5xf32>
  } then_branch {
    onnx.yield %a, %a : tensor<2x3xf32>, tensor<2x3xf32>
  }
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xf32>
}

// Without 'cond' the loop runs M times: the scan output has M rows.
// CHECK-LABEL: func @loop
func.func @loop(%y: tensor<1xf32>, %cond: tensor<i1>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %m = onnx.Constant() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  // CHECK: onnx.Loop(%{{.*}}, none, %{{.*}}) : (tensor<i64>, tensor<1xf32>) -> (tensor<1xf32>, tensor<5x1xf32>)
  %0:2 = onnx.Loop(%m, none, %y) : (tensor<i64>, tensor<1xf32>) -> (tensor<*xf32>, tensor<*xf32>) body {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<1xf32>):
    %1 = onnx.Add(%v, %v) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    onnx.yield %c, %1, %1 : tensor<i1>, tensor<1xf32>, tensor<1xf32>
  }
  // With 'cond' it may stop early.
  // CHECK: onnx.Loop(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<i64>, tensor<i1>, tensor<1xf32>) -> (tensor<1xf32>, tensor<?x1xf32>)
  %2:2 = onnx.Loop(%m, %cond, %y) : (tensor<i64>, tensor<i1>, tensor<1xf32>) -> (tensor<*xf32>, tensor<*xf32>) body {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<1xf32>):
    onnx.yield %c, %v, %v : tensor<i1>, tensor<1xf32>, tensor<1xf32>
  }
  return %0#0, %0#1, %2#1 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// The scan output gets the scan length on its scan_output_axes axis.
// CHECK-LABEL: func @scan
func.func @scan(%init: tensor<2xf32>, %x: tensor<2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.Scan(%{{.*}}, %{{.*}}) {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 1>, scan_output_axes = array<i64: -1>} : (tensor<2xf32>, tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2x3xf32>)
  %0:2 = onnx.Scan(%init, %x) {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 1>, scan_output_axes = array<i64: -1>} : (tensor<2xf32>, tensor<2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) body {
  ^bb0(%s: tensor<2xf32>, %e: tensor<2xf32>):
    %1 = onnx.Add(%s, %e) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    onnx.yield %1, %1 : tensor<2xf32>, tensor<2xf32>
  }
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xf32>
}
