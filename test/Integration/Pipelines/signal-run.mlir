// Values of the signal lowerings (Signal.cpp), run with mlir-runner, on
// x = [1, 2, 3, 4] (real) whose DFT is [10, -2 + 2i, -2, -2 - 2i]:
//  #0: DFT of x;
//  #1: one-sided DFT of x (4/2 + 1 = 3 bins);
//  #2: inverse DFT of #0 (complex in, complex out): x again, imaginary 0;
//  #3: inverse one-sided DFT (IRFFT) of #1: x from the half spectrum;
//  #4: STFT of [1..8], frame_step 2, a window of 4 ones: 3 frames
//      [1..4], [3..6], [5..8], one-sided: [4 m + 10, -2 + 2i, -2].
// The results are rounded to integers (the twiddle factors leave ~1e-15
// in place of exact zeros); adding 0 turns -0 into 0.
// RUN: onnx-opt %s --onnx-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

func.func @graph(%x: tensor<1x4x1xf32>, %sig: tensor<1x8x1xf32>) -> (tensor<1x4x2xf32>, tensor<1x3x2xf32>, tensor<1x4x2xf32>, tensor<1x4x1xf32>, tensor<1x3x3x2xf32>) {
  %z = onnx.Constant() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %d = onnx.DFT(%x) : (tensor<1x4x1xf32>) -> tensor<1x4x2xf32>
  %r = onnx.DFT(%x) {onesided = 1 : i64} : (tensor<1x4x1xf32>) -> tensor<1x3x2xf32>
  %i = onnx.DFT(%d) {inverse = 1 : i64} : (tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %ir = onnx.DFT(%r) {inverse = 1 : i64, onesided = 1 : i64} : (tensor<1x3x2xf32>) -> tensor<1x4x1xf32>
  %step = onnx.Constant() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %w = onnx.Constant() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %s = onnx.STFT(%sig, %step, %w) : (tensor<1x8x1xf32>, tensor<i64>, tensor<4xf32>) -> tensor<1x3x3x2xf32>
  %d0 = onnx.Round(%d) : (tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %d1 = onnx.Add(%d0, %z) : (tensor<1x4x2xf32>, tensor<f32>) -> tensor<1x4x2xf32>
  %r0 = onnx.Round(%r) : (tensor<1x3x2xf32>) -> tensor<1x3x2xf32>
  %r1 = onnx.Add(%r0, %z) : (tensor<1x3x2xf32>, tensor<f32>) -> tensor<1x3x2xf32>
  %i0 = onnx.Round(%i) : (tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %i1 = onnx.Add(%i0, %z) : (tensor<1x4x2xf32>, tensor<f32>) -> tensor<1x4x2xf32>
  %ir0 = onnx.Round(%ir) : (tensor<1x4x1xf32>) -> tensor<1x4x1xf32>
  %ir1 = onnx.Add(%ir0, %z) : (tensor<1x4x1xf32>, tensor<f32>) -> tensor<1x4x1xf32>
  %s0 = onnx.Round(%s) : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %s1 = onnx.Add(%s0, %z) : (tensor<1x3x3x2xf32>, tensor<f32>) -> tensor<1x3x3x2xf32>
  return %d1, %r1, %i1, %ir1, %s1 : tensor<1x4x2xf32>, tensor<1x3x2xf32>, tensor<1x4x2xf32>, tensor<1x4x1xf32>, tensor<1x3x3x2xf32>
}

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[[[1.0], [2.0], [3.0], [4.0]]]> : tensor<1x4x1xf32>
  %sig = arith.constant dense<[[[1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0]]]> : tensor<1x8x1xf32>
  %r:5 = call @graph(%x, %sig) : (tensor<1x4x1xf32>, tensor<1x8x1xf32>) -> (tensor<1x4x2xf32>, tensor<1x3x2xf32>, tensor<1x4x2xf32>, tensor<1x4x1xf32>, tensor<1x3x3x2xf32>)
  // CHECK: sizes = [1, 4, 2]
  // CHECK-NEXT: {{\[\[\[}}10, {{ *}}0],
  // CHECK-NEXT: [-2, {{ *}}2],
  // CHECK-NEXT: [-2, {{ *}}0],
  // CHECK-NEXT: [-2, {{ *}}-2]]]
  %u0 = tensor.cast %r#0 : tensor<1x4x2xf32> to tensor<*xf32>
  call @print(%u0) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [1, 3, 2]
  // CHECK-NEXT: {{\[\[\[}}10, {{ *}}0],
  // CHECK-NEXT: [-2, {{ *}}2],
  // CHECK-NEXT: [-2, {{ *}}0]]]
  %u1 = tensor.cast %r#1 : tensor<1x3x2xf32> to tensor<*xf32>
  call @print(%u1) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [1, 4, 2]
  // CHECK-NEXT: {{\[\[\[}}1, {{ *}}0],
  // CHECK-NEXT: [2, {{ *}}0],
  // CHECK-NEXT: [3, {{ *}}0],
  // CHECK-NEXT: [4, {{ *}}0]]]
  %u2 = tensor.cast %r#2 : tensor<1x4x2xf32> to tensor<*xf32>
  call @print(%u2) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [1, 4, 1]
  // CHECK-NEXT: {{\[\[\[}}1],
  // CHECK-NEXT: [2],
  // CHECK-NEXT: [3],
  // CHECK-NEXT: [4]]]
  %u3 = tensor.cast %r#3 : tensor<1x4x1xf32> to tensor<*xf32>
  call @print(%u3) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [1, 3, 3, 2]
  // CHECK-NEXT: {{\[\[\[\[}}10, {{ *}}0],
  // CHECK-NEXT: [-2, {{ *}}2],
  // CHECK-NEXT: [-2, {{ *}}0]],
  // CHECK-NEXT: {{\[\[}}18, {{ *}}0],
  // CHECK-NEXT: [-2, {{ *}}2],
  // CHECK-NEXT: [-2, {{ *}}0]],
  // CHECK-NEXT: {{\[\[}}26, {{ *}}0],
  // CHECK-NEXT: [-2, {{ *}}2],
  // CHECK-NEXT: [-2, {{ *}}0]]]]
  %u4 = tensor.cast %r#4 : tensor<1x3x3x2xf32> to tensor<*xf32>
  call @print(%u4) : (tensor<*xf32>) -> ()
  return
}
