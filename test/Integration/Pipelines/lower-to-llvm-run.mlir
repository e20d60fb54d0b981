// onnx-lower-to-llvm takes an onnx function to the LLVM dialect; running it
// with mlir-runner (printMemrefF32 from its support library) checks the
// values: numpy broadcasting of Add, then Tanh, then Pow with a broadcast
// exponent, and Where on a comparison.
// RUN: onnx-opt %s --onnx-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

func.func @graph(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = onnx.Add(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = onnx.Tanh(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = onnx.Pow(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = onnx.Less(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %4 = onnx.Where(%3, %a, %2) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1, %4 : tensor<2x3xf32>, tensor<2x3xf32>
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @print(%t: tensor<2x3xf32>) {
  %m = bufferization.to_buffer %t : tensor<2x3xf32> to memref<2x3xf32>
  %u = memref.cast %m : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %a = arith.constant dense<[[0.0, 1.0, -1.0], [2.0, 0.5, 3.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<[0.0, -1.0, 2.0]> : tensor<3xf32>
  %r:2 = call @graph(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [0,   0,   0.76159{{[0-9]*}}],
  // CHECK-NEXT: [0.96402{{[0-9]*}},   -0.46211{{[0-9]*}},   0.99990{{[0-9]*}}]
  call @print(%r#0) : (tensor<2x3xf32>) -> ()
  // a < b only at [0][2] (-1 < 2): a there, else a ** b.
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [1,   1,   -1],
  // CHECK-NEXT: [1,   2,   9]
  call @print(%r#1) : (tensor<2x3xf32>) -> ()
  return
}
