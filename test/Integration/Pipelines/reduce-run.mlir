// Values of the reductions after onnx-lower-to-llvm, run with mlir-runner:
// constant and run-time axes (keepdims 0 and 1, noop_with_empty_axes),
// empty reductions, NaN in ReduceMax, ArgMax ties, TopK, CumSum, Hardmax.
// The results of run-time axes have open dims (one graph serves both axes).
// RUN: onnx-opt %s --onnx-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

func.func @graph(%x: tensor<2x3xf32>, %axes: tensor<?xi64>, %empty: tensor<2x0xf32>)
    -> (tensor<2x1xf32>, tensor<?xf32>, tensor<f32>, tensor<2x3xf32>, tensor<?x?xf32>, tensor<2xf32>, tensor<?x?xf32>, tensor<2x3xf32>) {
  %c1 = onnx.Constant() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %none = onnx.Constant() {value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
  %0 = onnx.ReduceSum(%x, %c1) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %1 = onnx.ReduceMax(%x, %axes) {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<?xi64>) -> tensor<?xf32>
  %2 = onnx.ReduceMean(%x) {keepdims = 0 : i64} : (tensor<2x3xf32>) -> tensor<f32>
  %3 = onnx.ReduceMin(%x, %none) {noop_with_empty_axes = 1 : i64} : (tensor<2x3xf32>, tensor<0xi64>) -> tensor<2x3xf32>
  %4 = onnx.ReduceProd(%x, %axes) : (tensor<2x3xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  %5 = onnx.ReduceMax(%empty, %c1) {keepdims = 0 : i64} : (tensor<2x0xf32>, tensor<1xi64>) -> tensor<2xf32>
  %6 = onnx.ReduceSum(%x, %axes) : (tensor<2x3xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  %7 = onnx.Hardmax(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x1xf32>, tensor<?xf32>, tensor<f32>, tensor<2x3xf32>, tensor<?x?xf32>, tensor<2xf32>, tensor<?x?xf32>, tensor<2x3xf32>
}

func.func @graph2(%x: tensor<2x4xf32>, %k: tensor<1xi64>, %axis: tensor<i32>)
    -> (tensor<2x1xi64>, tensor<2xi64>, tensor<2x?xf32>, tensor<2x?xi64>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %0 = onnx.ArgMax(%x) {axis = 1 : i64} : (tensor<2x4xf32>) -> tensor<2x1xi64>
  %1 = onnx.ArgMin(%x) {axis = -1 : i64, keepdims = 0 : i64, select_last_index = 1 : i64} : (tensor<2x4xf32>) -> tensor<2xi64>
  %2:2 = onnx.TopK(%x, %k) : (tensor<2x4xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  %3 = onnx.CumSum(%x, %axis) : (tensor<2x4xf32>, tensor<i32>) -> tensor<2x4xf32>
  %4 = onnx.CumSum(%x, %axis) {exclusive = 1 : i64, reverse = 1 : i64} : (tensor<2x4xf32>, tensor<i32>) -> tensor<2x4xf32>
  return %0, %1, %2#0, %2#1, %3, %4 : tensor<2x1xi64>, tensor<2xi64>, tensor<2x?xf32>, tensor<2x?xi64>, tensor<2x4xf32>, tensor<2x4xf32>
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}

func.func @pf(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @pi(%t: tensor<*xi64>) {
  %m = bufferization.to_buffer %t : tensor<*xi64> to memref<*xi64>
  call @printMemrefI64(%m) : (memref<*xi64>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[[1.0, 5.0, 3.0], [-2.0, 0x7FC00000, 4.0]]> : tensor<2x3xf32>
  %axes = arith.constant dense<[-1]> : tensor<1xi64>
  %axesd = tensor.cast %axes : tensor<1xi64> to tensor<?xi64>
  %empty = tensor.empty() : tensor<2x0xf32>
  %r:8 = call @graph(%x, %axesd, %empty) : (tensor<2x3xf32>, tensor<?xi64>, tensor<2x0xf32>) -> (tensor<2x1xf32>, tensor<?xf32>, tensor<f32>, tensor<2x3xf32>, tensor<?x?xf32>, tensor<2xf32>, tensor<?x?xf32>, tensor<2x3xf32>)
  // CHECK: sizes = [2, 1]
  // CHECK-NEXT: [9],
  // CHECK-NEXT: [nan]
  %u0 = tensor.cast %r#0 : tensor<2x1xf32> to tensor<*xf32>
  call @pf(%u0) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2]
  // CHECK-NEXT: [5,  nan]
  %u1 = tensor.cast %r#1 : tensor<?xf32> to tensor<*xf32>
  call @pf(%u1) : (tensor<*xf32>) -> ()
  // CHECK: rank = 0
  // CHECK-NEXT: [nan]
  %u2 = tensor.cast %r#2 : tensor<f32> to tensor<*xf32>
  call @pf(%u2) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [1,   5,   3],
  // CHECK-NEXT: [-2,   nan,   4]
  %u3 = tensor.cast %r#3 : tensor<2x3xf32> to tensor<*xf32>
  call @pf(%u3) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2, 1]
  // CHECK-NEXT: [15],
  // CHECK-NEXT: [nan]
  %u4 = tensor.cast %r#4 : tensor<?x?xf32> to tensor<*xf32>
  call @pf(%u4) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2]
  // CHECK-NEXT: [-inf,  -inf]
  %u5 = tensor.cast %r#5 : tensor<2xf32> to tensor<*xf32>
  call @pf(%u5) : (tensor<*xf32>) -> ()

  // Run-time axes [0] this time: the sum over rows.
  %a0 = arith.constant dense<[0]> : tensor<1xi64>
  %a0d = tensor.cast %a0 : tensor<1xi64> to tensor<?xi64>
  %s:8 = call @graph(%x, %a0d, %empty) : (tensor<2x3xf32>, tensor<?xi64>, tensor<2x0xf32>) -> (tensor<2x1xf32>, tensor<?xf32>, tensor<f32>, tensor<2x3xf32>, tensor<?x?xf32>, tensor<2xf32>, tensor<?x?xf32>, tensor<2x3xf32>)
  // CHECK: sizes = [1, 3]
  // CHECK-NEXT: [-1,   nan,   7]
  %u6 = tensor.cast %s#6 : tensor<?x?xf32> to tensor<*xf32>
  call @pf(%u6) : (tensor<*xf32>) -> ()
  // Hardmax: the first largest of each row (a NaN is the largest).
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [0,   1,   0],
  // CHECK-NEXT: [0,   1,   0]
  %u7 = tensor.cast %s#7 : tensor<2x3xf32> to tensor<*xf32>
  call @pf(%u7) : (tensor<*xf32>) -> ()

  %y = arith.constant dense<[[3.0, 1.0, 3.0, 2.0], [0.0, -1.0, 5.0, -1.0]]> : tensor<2x4xf32>
  %k = arith.constant dense<[3]> : tensor<1xi64>
  %ax = arith.constant dense<1> : tensor<i32>
  %t:6 = call @graph2(%y, %k, %ax) : (tensor<2x4xf32>, tensor<1xi64>, tensor<i32>) -> (tensor<2x1xi64>, tensor<2xi64>, tensor<2x?xf32>, tensor<2x?xi64>, tensor<2x4xf32>, tensor<2x4xf32>)
  // ArgMax, first of ties.
  // CHECK: sizes = [2, 1]
  // CHECK-NEXT: [0],
  // CHECK-NEXT: [2]
  %v0 = tensor.cast %t#0 : tensor<2x1xi64> to tensor<*xi64>
  call @pi(%v0) : (tensor<*xi64>) -> ()
  // ArgMin, last of ties.
  // CHECK: sizes = [2]
  // CHECK-NEXT: [1,  3]
  %v1 = tensor.cast %t#1 : tensor<2xi64> to tensor<*xi64>
  call @pi(%v1) : (tensor<*xi64>) -> ()
  // TopK 3, ties by index.
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [3,   3,   2],
  // CHECK-NEXT: [5,   0,   -1]
  %v2 = tensor.cast %t#2 : tensor<2x?xf32> to tensor<*xf32>
  call @pf(%v2) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [0,   2,   3],
  // CHECK-NEXT: [2,   0,   1]
  %v3 = tensor.cast %t#3 : tensor<2x?xi64> to tensor<*xi64>
  call @pi(%v3) : (tensor<*xi64>) -> ()
  // CumSum along the run-time axis 1.
  // CHECK: sizes = [2, 4]
  // CHECK-NEXT: [3,   4,   7,   9],
  // CHECK-NEXT: [0,   -1,   4,   3]
  %v4 = tensor.cast %t#4 : tensor<2x4xf32> to tensor<*xf32>
  call @pf(%v4) : (tensor<*xf32>) -> ()
  // Exclusive and reversed.
  // CHECK: sizes = [2, 4]
  // CHECK-NEXT: [6,   5,   2,   0],
  // CHECK-NEXT: [3,   4,   -1,   0]
  %v5 = tensor.cast %t#5 : tensor<2x4xf32> to tensor<*xf32>
  call @pf(%v5) : (tensor<*xf32>) -> ()
  return
}
