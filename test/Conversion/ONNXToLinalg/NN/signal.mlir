// RUN: onnx-opt %s --convert-onnx-to-linalg --canonicalize --split-input-file | FileCheck %s

// DFT of a real signal on the default axis (rank - 2): one generic over
// (result..., n) with n reduced, accumulating in f64; the twiddle angle is
// -2 pi ((k n) mod 8) / 8; the f64 sums are truncated to f32 afterwards.
// CHECK-LABEL: func.func @dft_real
// CHECK: %[[PI:.*]] = arith.constant -6.28318{{[0-9]*}} : f64
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%{{.*}} : tensor<2x8x2xf64>)
// CHECK: %[[EXT:.*]] = tensor.empty() : tensor<8xi8>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[EXT]] : tensor<8xi8>) outs(%[[ACC]] : tensor<2x8x2xf64>)
// CHECK: %[[B:.*]] = linalg.index 0
// CHECK: %[[K:.*]] = linalg.index 1
// CHECK: %[[N:.*]] = linalg.index 3
// CHECK: tensor.extract %arg0[%[[B]], %[[N]], %c0] : tensor<2x8x1xf32>
// CHECK: %[[KN:.*]] = arith.muli %[[K]], %[[N]]
// CHECK: arith.remui %[[KN]], %c8
// CHECK: %[[ANGLE:.*]] = arith.mulf %{{.*}}, %[[PI]] : f64
// CHECK: math.cos %[[ANGLE]]
// CHECK: math.sin
// CHECK: linalg.yield
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @dft_real(%x: tensor<2x8x1xf32>) -> tensor<2x8x2xf32> {
  %0 = onnx.DFT(%x) : (tensor<2x8x1xf32>) -> tensor<2x8x2xf32>
  return %0 : tensor<2x8x2xf32>
}

// -----

// One-sided DFT of a complex signal with dft_length 10 > 8 samples: 10/2+1
// bins, the sum runs over the 8 samples present (the rest are zero), both
// components are read.
// CHECK-LABEL: func.func @rfft_padded
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%{{.*}} : tensor<2x6x2xf64>)
// CHECK: tensor.empty() : tensor<8xi8>
// CHECK: linalg.generic
// CHECK: tensor.extract %arg0[%{{.*}}, %{{.*}}, %c0] : tensor<2x8x2xf32>
// CHECK: tensor.extract %arg0[%{{.*}}, %{{.*}}, %c1] : tensor<2x8x2xf32>
// CHECK: arith.remui %{{.*}}, %c10
// CHECK: -> tensor<2x6x2xf64>
func.func @rfft_padded(%x: tensor<2x8x2xf32>) -> tensor<2x6x2xf32> {
  %l = onnx.Constant() {value = dense<10> : tensor<i64>} : () -> tensor<i64>
  %0 = onnx.DFT(%x, %l) {onesided = 1 : i64} : (tensor<2x8x2xf32>, tensor<i64>) -> tensor<2x6x2xf32>
  return %0 : tensor<2x6x2xf32>
}

// -----

// Inverse one-sided (IRFFT), f64: 2 (5 - 1) = 8 real samples from the half
// spectrum; bins past the middle read the conjugate of bin L - k; scaled by
// 1/L; no final conversion.
// CHECK-LABEL: func.func @irfft
// CHECK-DAG: %[[L:.*]] = arith.constant 8.000000e+00 : f64
// CHECK-DAG: %[[PI:.*]] = arith.constant 6.28318{{[0-9]*}} : f64
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<8xi8>) outs(%{{.*}} : tensor<8x1xf64>)
// CHECK: %[[K:.*]] = linalg.index 2
// CHECK: %[[K2:.*]] = arith.muli %[[K]], %c2
// CHECK: %[[UP:.*]] = arith.cmpi sgt, %[[K2]], %c8
// CHECK: %[[IM:.*]] = tensor.extract %arg0[%{{.*}}, %c1] : tensor<5x2xf64>
// CHECK: %[[NEG:.*]] = arith.negf %[[IM]]
// CHECK: arith.select %[[UP]], %[[NEG]], %[[IM]]
// CHECK: arith.mulf %{{.*}}, %[[PI]] : f64
// CHECK: arith.divf %{{.*}}, %[[L]] : f64
// CHECK-NOT: arith.truncf
// CHECK: return %{{.*}} : tensor<8x1xf64>
func.func @irfft(%x: tensor<5x2xf64>) -> tensor<8x1xf64> {
  %0 = onnx.DFT(%x) {onesided = 1 : i64, inverse = 1 : i64} : (tensor<5x2xf64>) -> tensor<8x1xf64>
  return %0 : tensor<8x1xf64>
}

// -----

// An axis known at run time: normalized and checked, the result sizes and
// the reads select on it.
// CHECK-LABEL: func.func @dft_runtime_axis
// CHECK: tensor.extract %arg1[] : tensor<i64>
// CHECK: cf.assert %{{.*}}, "onnx.DFT: axis out of range"
// CHECK: cf.assert %{{.*}}, "onnx.DFT: dft_length is not positive"
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}, %{{.*}}, %{{.*}}) : tensor<?x?x?x2xf64>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK: arith.extf %{{.*}} : f16 to f64
// CHECK: arith.truncf %{{.*}} : f64 to f16
func.func @dft_runtime_axis(%x: tensor<2x3x4x2xf16>, %a: tensor<i64>) -> tensor<?x?x?x2xf16> {
  %0 = onnx.DFT(%x, none, %a) {inverse = 1 : i64} : (tensor<2x3x4x2xf16>, tensor<i64>) -> tensor<?x?x?x2xf16>
  return %0 : tensor<?x?x?x2xf16>
}

// -----

// STFT, frame_step 2, a window of 4: (16 - 4) / 2 + 1 = 7 frames of 4/2+1
// one-sided bins; sample t * 2 + n weighted by window[n].
// CHECK-LABEL: func.func @stft
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<4xi8>) outs(%{{.*}} : tensor<1x7x3x2xf64>)
// CHECK: %[[T:.*]] = linalg.index 1
// CHECK: %[[N:.*]] = linalg.index 4
// CHECK: %[[S:.*]] = arith.muli %[[T]], %c2
// CHECK: arith.addi %[[S]], %[[N]]
// CHECK: tensor.extract %arg0
// CHECK: tensor.extract %arg1[%[[N]]] : tensor<4xf32>
// CHECK: arith.remui %{{.*}}, %c4
// CHECK: -> tensor<1x7x3x2xf64>
// CHECK: arith.truncf
func.func @stft(%x: tensor<1x16x1xf32>, %w: tensor<4xf32>) -> tensor<1x7x3x2xf32> {
  %s = onnx.Constant() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %0 = onnx.STFT(%x, %s, %w) : (tensor<1x16x1xf32>, tensor<i64>, tensor<4xf32>) -> tensor<1x7x3x2xf32>
  return %0 : tensor<1x7x3x2xf32>
}

// -----

// MelWeightMatrix into uint8 (signless i8 after conversion): the inputs
// are checked, the static result sizes too; the mel edges use log10 and
// the triangles are built per element, converted with fptoui.
// CHECK-LABEL: func.func @mel_weight_matrix_u8
// CHECK: cf.assert %{{.*}}, "onnx.MelWeightMatrix: num_mel_bins and dft_length must be positive"
// CHECK: math.log10 %{{.*}} : f64
// CHECK: cf.assert %{{.*}}, "onnx.MelWeightMatrix: the output size of dim 0 is not the inferred 5"
// CHECK: cf.assert %{{.*}}, "onnx.MelWeightMatrix: the output size of dim 1 is not the inferred 3"
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<5x3xi8>)
// CHECK-COUNT-3: math.floor
// CHECK: arith.fptoui %{{.*}} : f64 to i8
func.func @mel_weight_matrix_u8(%a: tensor<i64>, %b: tensor<i64>, %c: tensor<i64>, %d: tensor<f64>, %e: tensor<f64>) -> tensor<5x3xui8> {
  %0 = onnx.MelWeightMatrix(%a, %b, %c, %d, %e) {output_datatype = 2 : i64} : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f64>, tensor<f64>) -> tensor<5x3xui8>
  return %0 : tensor<5x3xui8>
}
