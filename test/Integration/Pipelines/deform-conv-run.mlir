// DeformConv (Sampling.cpp) against Conv, run with mlir-runner; each
// printed difference must be exactly 0 (small integer data, exact in f32).
//  #0: zero offsets, bias, group 2, offset_group 2, strides 2, pads 1 ==
//      Conv with the same attributes;
//  #1: offset group 0 shifted by +1 along H (kernel rows read one row
//      lower), offset group 1 not shifted, a mask of ones: the output
//      channels of group 0 (input channels 0, 1: offset group 0) equal a
//      Conv with pads [0, 1, 2, 1], those of group 1 equal #0's Conv;
//  #2: offset_group 1, every W offset 0.5 (halfway between two columns)
//      and a mask of 2: the sum of the Convs with pads [1, 1, 1, 1] and
//      [1, 0, 1, 2] (bilinear weights 1/2, zero outside the input).
//  #3: #0's Conv itself, so that the differences are not trivially 0.
// RUN: onnx-opt %s --onnx-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

func.func @graph(%x: tensor<1x4x5x5xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>)
    -> (tensor<1x6x3x3xf32>, tensor<1x6x3x3xf32>, tensor<1x6x3x3xf32>, tensor<1x6x3x3xf32>) {
  // #0
  %off0 = onnx.Constant() {value = dense<0.0> : tensor<1x36x3x3xf32>} : () -> tensor<1x36x3x3xf32>
  %dc0 = onnx.DeformConv(%x, %w, %off0, %b) {group = 2 : i64, offset_group = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>, tensor<1x36x3x3xf32>, tensor<6xf32>) -> tensor<1x6x3x3xf32>
  %c0 = onnx.Conv(%x, %w, %b) {group = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x3x3xf32>
  %d0 = onnx.Sub(%dc0, %c0) : (tensor<1x6x3x3xf32>, tensor<1x6x3x3xf32>) -> tensor<1x6x3x3xf32>
  // #1
  %shape = onnx.Constant() {value = dense<[1, 36, 3, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
  %o1 = onnx.Constant() {value = dense<[[[[1.0]], [[0.0]], [[1.0]], [[0.0]], [[1.0]], [[0.0]], [[1.0]], [[0.0]], [[1.0]], [[0.0]], [[1.0]], [[0.0]], [[1.0]], [[0.0]], [[1.0]], [[0.0]], [[1.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]], [[0.0]]]]> : tensor<1x36x1x1xf32>} : () -> tensor<1x36x1x1xf32>
  %off1 = onnx.Expand(%o1, %shape) : (tensor<1x36x1x1xf32>, tensor<4xi64>) -> tensor<1x36x3x3xf32>
  %ones = onnx.Constant() {value = dense<1.0> : tensor<1x18x3x3xf32>} : () -> tensor<1x18x3x3xf32>
  %dc1 = onnx.DeformConv(%x, %w, %off1, %b, %ones) {group = 2 : i64, offset_group = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>, tensor<1x36x3x3xf32>, tensor<6xf32>, tensor<1x18x3x3xf32>) -> tensor<1x6x3x3xf32>
  %cs = onnx.Conv(%x, %w, %b) {group = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 0, 1, 2, 1>} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x3x3xf32>
  %i0 = onnx.Constant() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %i1 = onnx.Constant() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %i3 = onnx.Constant() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %i6 = onnx.Constant() {value = dense<6> : tensor<1xi64>} : () -> tensor<1xi64>
  %e0 = onnx.Slice(%cs, %i0, %i3, %i1) : (tensor<1x6x3x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x3x3x3xf32>
  %e1 = onnx.Slice(%c0, %i3, %i6, %i1) : (tensor<1x6x3x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x3x3x3xf32>
  %e = onnx.Concat(%e0, %e1) {axis = 1 : i64} : (tensor<1x3x3x3xf32>, tensor<1x3x3x3xf32>) -> tensor<1x6x3x3xf32>
  %d1 = onnx.Sub(%dc1, %e) : (tensor<1x6x3x3xf32>, tensor<1x6x3x3xf32>) -> tensor<1x6x3x3xf32>
  // #2
  %shape2 = onnx.Constant() {value = dense<[1, 18, 3, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
  %o2 = onnx.Constant() {value = dense<[[[[0.0]], [[0.5]], [[0.0]], [[0.5]], [[0.0]], [[0.5]], [[0.0]], [[0.5]], [[0.0]], [[0.5]], [[0.0]], [[0.5]], [[0.0]], [[0.5]], [[0.0]], [[0.5]], [[0.0]], [[0.5]]]]> : tensor<1x18x1x1xf32>} : () -> tensor<1x18x1x1xf32>
  %off2 = onnx.Expand(%o2, %shape2) : (tensor<1x18x1x1xf32>, tensor<4xi64>) -> tensor<1x18x3x3xf32>
  %twos = onnx.Constant() {value = dense<2.0> : tensor<1x9x3x3xf32>} : () -> tensor<1x9x3x3xf32>
  %dc2 = onnx.DeformConv(%x, %w, %off2, none, %twos) {group = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>, tensor<1x18x3x3xf32>, tensor<1x9x3x3xf32>) -> tensor<1x6x3x3xf32>
  %ca = onnx.Conv(%x, %w) {group = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32>
  %cb = onnx.Conv(%x, %w) {group = 2 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 1, 2>} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32>
  %cab = onnx.Add(%ca, %cb) : (tensor<1x6x3x3xf32>, tensor<1x6x3x3xf32>) -> tensor<1x6x3x3xf32>
  %d2 = onnx.Sub(%dc2, %cab) : (tensor<1x6x3x3xf32>, tensor<1x6x3x3xf32>) -> tensor<1x6x3x3xf32>
  return %d0, %d1, %d2, %c0 : tensor<1x6x3x3xf32>, tensor<1x6x3x3xf32>, tensor<1x6x3x3xf32>, tensor<1x6x3x3xf32>
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @print(%t: tensor<1x6x3x3xf32>) {
  %m = bufferization.to_buffer %t : tensor<1x6x3x3xf32> to memref<1x6x3x3xf32>
  %u = memref.cast %m : memref<1x6x3x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  // x = arange(100) % 7 - 3, w = arange(108) % 5 - 2.
  %x = arith.constant dense<[[[[-3.0, -2.0, -1.0, 0.0, 1.0], [2.0, 3.0, -3.0, -2.0, -1.0], [0.0, 1.0, 2.0, 3.0, -3.0], [-2.0, -1.0, 0.0, 1.0, 2.0], [3.0, -3.0, -2.0, -1.0, 0.0]], [[1.0, 2.0, 3.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0, 3.0], [-3.0, -2.0, -1.0, 0.0, 1.0], [2.0, 3.0, -3.0, -2.0, -1.0], [0.0, 1.0, 2.0, 3.0, -3.0]], [[-2.0, -1.0, 0.0, 1.0, 2.0], [3.0, -3.0, -2.0, -1.0, 0.0], [1.0, 2.0, 3.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0, 3.0], [-3.0, -2.0, -1.0, 0.0, 1.0]], [[2.0, 3.0, -3.0, -2.0, -1.0], [0.0, 1.0, 2.0, 3.0, -3.0], [-2.0, -1.0, 0.0, 1.0, 2.0], [3.0, -3.0, -2.0, -1.0, 0.0], [1.0, 2.0, 3.0, -3.0, -2.0]]]]> : tensor<1x4x5x5xf32>
  %w = arith.constant dense<[[[[-2.0, -1.0, 0.0], [1.0, 2.0, -2.0], [-1.0, 0.0, 1.0]], [[2.0, -2.0, -1.0], [0.0, 1.0, 2.0], [-2.0, -1.0, 0.0]]], [[[1.0, 2.0, -2.0], [-1.0, 0.0, 1.0], [2.0, -2.0, -1.0]], [[0.0, 1.0, 2.0], [-2.0, -1.0, 0.0], [1.0, 2.0, -2.0]]], [[[-1.0, 0.0, 1.0], [2.0, -2.0, -1.0], [0.0, 1.0, 2.0]], [[-2.0, -1.0, 0.0], [1.0, 2.0, -2.0], [-1.0, 0.0, 1.0]]], [[[2.0, -2.0, -1.0], [0.0, 1.0, 2.0], [-2.0, -1.0, 0.0]], [[1.0, 2.0, -2.0], [-1.0, 0.0, 1.0], [2.0, -2.0, -1.0]]], [[[0.0, 1.0, 2.0], [-2.0, -1.0, 0.0], [1.0, 2.0, -2.0]], [[-1.0, 0.0, 1.0], [2.0, -2.0, -1.0], [0.0, 1.0, 2.0]]], [[[-2.0, -1.0, 0.0], [1.0, 2.0, -2.0], [-1.0, 0.0, 1.0]], [[2.0, -2.0, -1.0], [0.0, 1.0, 2.0], [-2.0, -1.0, 0.0]]]]> : tensor<6x2x3x3xf32>
  %b = arith.constant dense<[1.0, -1.0, 2.0, -2.0, 0.0, 3.0]> : tensor<6xf32>
  %r:4 = call @graph(%x, %w, %b) : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> (tensor<1x6x3x3xf32>, tensor<1x6x3x3xf32>, tensor<1x6x3x3xf32>, tensor<1x6x3x3xf32>)
  // CHECK: sizes = [1, 6, 3, 3]
  // CHECK-COUNT-18: [0, {{ *}}0, {{ *}}0]
  call @print(%r#0) : (tensor<1x6x3x3xf32>) -> ()
  // CHECK: sizes = [1, 6, 3, 3]
  // CHECK-COUNT-18: [0, {{ *}}0, {{ *}}0]
  call @print(%r#1) : (tensor<1x6x3x3xf32>) -> ()
  // CHECK: sizes = [1, 6, 3, 3]
  // CHECK-COUNT-18: [0, {{ *}}0, {{ *}}0]
  call @print(%r#2) : (tensor<1x6x3x3xf32>) -> ()
  // CHECK: sizes = [1, 6, 3, 3]
  // CHECK-NEXT: {{\[\[\[\[}}8, {{ *}}-12, {{ *}}-4],
  // CHECK-NEXT: [-11, {{ *}}-9, {{ *}}6],
  // CHECK-NEXT: [10, {{ *}}20, {{ *}}-9]],
  // CHECK-NEXT: {{\[\[}}-13, {{ *}}6, {{ *}}13],
  call @print(%r#3) : (tensor<1x6x3x3xf32>) -> ()
  return
}
