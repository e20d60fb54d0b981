// Values of the NN family's lowerings with dynamic dims, run with
// mlir-runner: MatMul whose batch dims broadcast at run time, a grouped
// Conv with bias and auto_pad SAME_UPPER, ConvTranspose with strides, pads
// and output_padding, MaxPool with Indices and AveragePool in ceil_mode,
// and an Einsum with a diagonal. Expected values come from numpy.
// RUN: onnx-opt %s --onnx-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

func.func @matmul(%a: tensor<?x2x3xf32>, %b: tensor<?x3x2xf32>) -> tensor<?x2x2xf32> {
  %0 = onnx.MatMul(%a, %b) : (tensor<?x2x3xf32>, tensor<?x3x2xf32>) -> tensor<?x2x2xf32>
  return %0 : tensor<?x2x2xf32>
}

func.func @conv(%x: tensor<?x2x?x?xf32>, %w: tensor<2x1x3x3xf32>, %b: tensor<2xf32>) -> tensor<?x2x?x?xf32> {
  %0 = onnx.Conv(%x, %w, %b) {group = 2 : i64, auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<?x2x?x?xf32>, tensor<2x1x3x3xf32>, tensor<2xf32>) -> tensor<?x2x?x?xf32>
  return %0 : tensor<?x2x?x?xf32>
}

func.func @conv_transpose(%x: tensor<?x1x?xf32>, %w: tensor<1x2x3xf32>) -> tensor<?x2x?xf32> {
  %0 = onnx.ConvTranspose(%x, %w) {strides = array<i64: 2>, pads = array<i64: 1, 0>, output_padding = array<i64: 1>} : (tensor<?x1x?xf32>, tensor<1x2x3xf32>) -> tensor<?x2x?xf32>
  return %0 : tensor<?x2x?xf32>
}

func.func @pools(%x: tensor<?x?x?x?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xi64>, tensor<?x?x?x?xf32>) {
  %y, %i = onnx.MaxPool(%x) {kernel_shape = array<i64: 3, 3>, ceil_mode = 1 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x?x?x?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xi64>)
  %a = onnx.AveragePool(%x) {kernel_shape = array<i64: 3, 3>, ceil_mode = 1 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %y, %i, %a : tensor<?x?x?x?xf32>, tensor<?x?x?x?xi64>, tensor<?x?x?x?xf32>
}

func.func @einsum(%a: tensor<?x3x3xf32>, %b: tensor<?x3xf32>) -> tensor<?xf32> {
  %0 = onnx.Einsum(%a, %b) {equation = "bii,bi->b"} : (tensor<?x3x3xf32>, tensor<?x3xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  // [1, 2, 3] x [2, 3, 2]: the batch dim 1 broadcasts at run time.
  %a = arith.constant dense<[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]]> : tensor<1x2x3xf32>
  %b = arith.constant dense<[[[-5.0, -4.0], [-3.0, -2.0], [-1.0, 0.0]], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]> : tensor<2x3x2xf32>
  %ad = tensor.cast %a : tensor<1x2x3xf32> to tensor<?x2x3xf32>
  %bd = tensor.cast %b : tensor<2x3x2xf32> to tensor<?x3x2xf32>
  %mm = call @matmul(%ad, %bd) : (tensor<?x2x3xf32>, tensor<?x3x2xf32>) -> tensor<?x2x2xf32>
  // CHECK: sizes = [2, 2, 2]
  // CHECK-NEXT: {{\[\[\[}}-5,   -2],
  // CHECK-NEXT: [-32,   -20]],
  // CHECK-NEXT: {{\[\[}}13,   16],
  // CHECK-NEXT: [40,   52]]]
  %mmu = tensor.cast %mm : tensor<?x2x2xf32> to tensor<*xf32>
  call @print(%mmu) : (tensor<*xf32>) -> ()

  // x = arange(50) / 10 - 2 as [1, 2, 5, 5]; w = (arange(18) - 8) / 4.
  %x0 = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0]> : tensor<50xf32>
  %x1 = tensor.expand_shape %x0 [[0, 1, 2, 3]] output_shape [1, 2, 5, 5] : tensor<50xf32> into tensor<1x2x5x5xf32>
  %w0 = arith.constant dense<[-2.0, -1.75, -1.5, -1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25]> : tensor<18xf32>
  %w = tensor.expand_shape %w0 [[0, 1, 2, 3]] output_shape [2, 1, 3, 3] : tensor<18xf32> into tensor<2x1x3x3xf32>
  %bias = arith.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %xs = call @scale(%x1) : (tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %xd = tensor.cast %xs : tensor<1x2x5x5xf32> to tensor<?x2x?x?xf32>
  %c = call @conv(%xd, %w, %bias) : (tensor<?x2x?x?xf32>, tensor<2x1x3x3xf32>, tensor<2xf32>) -> tensor<?x2x?x?xf32>
  // CHECK: sizes = [1, 2, 3, 3]
  // CHECK-NEXT: {{\[\[\[\[}}4.3,   6.975,   5.1],
  // CHECK-NEXT: [7.025,   10.1,   6.425],
  // CHECK-NEXT: [1.9,   1.575,   0.3]],
  // CHECK-NEXT: {{\[\[}}5,   8.925,   6],
  // CHECK-NEXT: [13.325,   20.525,   13.025],
  // CHECK-NEXT: [8.6,   12.525,   7.2]]]]
  %cu = tensor.cast %c : tensor<?x2x?x?xf32> to tensor<*xf32>
  call @print(%cu) : (tensor<*xf32>) -> ()

  %tx = arith.constant dense<[[[1.0, 2.0, -1.0]]]> : tensor<1x1x3xf32>
  %tw = arith.constant dense<[[[1.0, 0.5, -1.0], [2.0, 1.0, 0.0]]]> : tensor<1x2x3xf32>
  %txd = tensor.cast %tx : tensor<1x1x3xf32> to tensor<?x1x?xf32>
  %t = call @conv_transpose(%txd, %tw) : (tensor<?x1x?xf32>, tensor<1x2x3xf32>) -> tensor<?x2x?xf32>
  // CHECK: sizes = [1, 2, 7]
  // CHECK-NEXT: {{\[\[\[}}0.5,   1,   1,   -3,   -0.5,   1,   0],
  // CHECK-NEXT: [1,   4,   2,   -2,   -1,   0,   0]]]
  %tu = tensor.cast %t : tensor<?x2x?xf32> to tensor<*xf32>
  call @print(%tu) : (tensor<*xf32>) -> ()

  // ceil_mode: 3 windows per dim, the last one runs past the end pad.
  %p = arith.constant dense<[[[[3.0, 1.0, 4.0, 1.0], [5.0, 9.0, 2.0, 6.0], [5.0, 3.0, 5.0, 8.0], [9.0, 7.0, 9.0, 3.0]]]]> : tensor<1x1x4x4xf32>
  %pd = tensor.cast %p : tensor<1x1x4x4xf32> to tensor<?x?x?x?xf32>
  %y, %i, %avg = call @pools(%pd) : (tensor<?x?x?x?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xi64>, tensor<?x?x?x?xf32>)
  // CHECK: sizes = [1, 1, 3, 3]
  // CHECK-NEXT: {{\[\[\[\[}}9,   9,   6],
  // CHECK-NEXT: [9,   9,   8],
  // CHECK-NEXT: [9,   9,   3]]]]
  %yu = tensor.cast %y : tensor<?x?x?x?xf32> to tensor<*xf32>
  call @print(%yu) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [1, 1, 3, 3]
  // CHECK-NEXT: {{\[\[\[\[}}5,   5,   7],
  // CHECK-NEXT: [5,   5,   11],
  // CHECK-NEXT: [12,   14,   15]]]]
  %im = bufferization.to_buffer %i : tensor<?x?x?x?xi64> to memref<?x?x?x?xi64>
  %iu = memref.cast %im : memref<?x?x?x?xi64> to memref<*xi64>
  call @printMemrefI64(%iu) : (memref<*xi64>) -> ()
  // CHECK: sizes = [1, 1, 3, 3]
  // CHECK-NEXT: {{\[\[\[\[}}4.5,   3.83333,   3.5],
  // CHECK-NEXT: [6.33333,   5.77778,   5.66667],
  // CHECK-NEXT: [8,   6.33333,   3]]]]
  %au = tensor.cast %avg : tensor<?x?x?x?xf32> to tensor<*xf32>
  call @print(%au) : (tensor<*xf32>) -> ()

  %e0 = arith.constant dense<[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]], [[9.0, 10.0, 11.0], [12.0, 13.0, 14.0], [15.0, 16.0, 17.0]]]> : tensor<2x3x3xf32>
  %e1 = arith.constant dense<[[-2.0, -1.0, 0.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %e0d = tensor.cast %e0 : tensor<2x3x3xf32> to tensor<?x3x3xf32>
  %e1d = tensor.cast %e1 : tensor<2x3xf32> to tensor<?x3xf32>
  %e = call @einsum(%e0d, %e1d) : (tensor<?x3x3xf32>, tensor<?x3xf32>) -> tensor<?xf32>
  // CHECK: sizes = [2]
  // CHECK-NEXT: [-4,  86]
  %eu = tensor.cast %e : tensor<?xf32> to tensor<*xf32>
  call @print(%eu) : (tensor<*xf32>) -> ()
  return
}

// x / 10 - 2.
func.func @scale(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32> {
  %ten = arith.constant dense<10.0> : tensor<1x2x5x5xf32>
  %two = arith.constant dense<2.0> : tensor<1x2x5x5xf32>
  %e = tensor.empty() : tensor<1x2x5x5xf32>
  %d = linalg.div ins(%x, %ten : tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>) outs(%e : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %e2 = tensor.empty() : tensor<1x2x5x5xf32>
  %s = linalg.sub ins(%d, %two : tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>) outs(%e2 : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  return %s : tensor<1x2x5x5xf32>
}
