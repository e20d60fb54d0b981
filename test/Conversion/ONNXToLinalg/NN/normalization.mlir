// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// Inference: the statistics become a multiplier a = scale / sqrt(var + eps)
// and a shift B - mean * a per channel (one generic over the channels),
// then one elementwise generic reads them per channel: a multiply and an
// add per element, no division.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @batchnorm
// CHECK: %[[AC:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%arg1, %arg2, %arg3, %arg4 : {{.*}}) outs({{.*}} : tensor<3xf32>, tensor<3xf32>)
// CHECK: math.sqrt
// CHECK: %[[A:.*]] = arith.divf
// CHECK: arith.mulf {{.*}}, %[[A]]
// CHECK: arith.subf
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[CH]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %[[AC]]#0, %[[AC]]#1 :
// CHECK-NOT: arith.divf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.yield
func.func @batchnorm(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4xf32> {
  %0 = onnx.BatchNormalization(%x, %s, %b, %m, %v) {epsilon = 1.0e-03 : f32} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Constant statistics (initializers): a and the shift are constants computed
// at compile time (a = 2 / sqrt(3 + 1) = 1, shift = 1 - 5 * 1 = -4; a =
// 1 / sqrt(3 + 1) = 0.5, shift = 0 - 1 * 0.5 = -0.5), no op computes them.
// CHECK-LABEL: func.func @batchnorm_constant
// CHECK-DAG: %[[A:.*]] = arith.constant dense<[1.000000e+00, 5.000000e-01]> : tensor<2xf32>
// CHECK-DAG: %[[C:.*]] = arith.constant dense<[-4.000000e+00, -5.000000e-01]> : tensor<2xf32>
// CHECK-NOT: math.sqrt
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[A]], %[[C]] :
// CHECK-NOT: math.sqrt
// CHECK: return
func.func @batchnorm_constant(%x: tensor<1x2x4xf32>) -> tensor<1x2x4xf32> {
  %s = onnx.Constant() {value = dense<[2.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = onnx.Constant() {value = dense<[1.0, 0.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %m = onnx.Constant() {value = dense<[5.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %v = onnx.Constant() {value = dense<[3.0, 3.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = onnx.BatchNormalization(%x, %s, %b, %m, %v) {epsilon = 1.0 : f32} : (tensor<1x2x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// -----

// Training mode: the batch's mean and population variance (reductions over
// all dims but the channel, in f32 for f16), and the running statistics.
// CHECK-LABEL: func.func @batchnorm_training
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<3xf32>)
// CHECK: arith.extf
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: math.sqrt
// CHECK: arith.truncf {{.*}} : f32 to f16
// CHECK: arith.constant 0.899999976 : f32
// CHECK: arith.truncf {{.*}} : f32 to f16
func.func @batchnorm_training(%x: tensor<2x3x4xf16>, %s: tensor<3xf16>, %b: tensor<3xf16>, %m: tensor<3xf16>, %v: tensor<3xf16>) -> (tensor<2x3x4xf16>, tensor<3xf16>, tensor<3xf16>) {
  %0, %1, %2 = onnx.BatchNormalization(%x, %s, %b, %m, %v) {training_mode = 1 : i64} : (tensor<2x3x4xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>) -> (tensor<2x3x4xf16>, tensor<3xf16>, tensor<3xf16>)
  return %0, %1, %2 : tensor<2x3x4xf16>, tensor<3xf16>, tensor<3xf16>
}

// -----

// Per-channel parameters of a dynamic channel count are checked at run time.
// CHECK-DAG: #[[NC:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @instancenorm
// CHECK: cf.assert {{.*}}, "onnx.InstanceNormalization 'in': scale does not have one element per channel"
// CHECK: linalg.generic {indexing_maps = [{{.*}}, #[[NC]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: linalg.generic {indexing_maps = [{{.*}}, #[[NC]], #[[NC]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: linalg.generic {indexing_maps = [{{.*}}, {{.*}}, {{.*}}, #[[NC]], #[[NC]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel"]}
func.func @instancenorm(%x: tensor<?x?x?xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<?x?x?xf32> {
  %0 = onnx.InstanceNormalization(%x, %s, %b) {onnx.name = "in"} : (tensor<?x?x?xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// CHECK-DAG: #[[KEPT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @lpnorm
// CHECK: linalg.generic {indexing_maps = [{{.*}}, #[[KEPT]]], iterator_types = ["reduction", "parallel", "parallel"]}
// CHECK: math.absf
// CHECK: linalg.generic {indexing_maps = [{{.*}}, #[[KEPT]], {{.*}}]
// CHECK: %[[Q:.*]] = arith.divf
// CHECK: %[[Z:.*]] = arith.cmpf oeq
// CHECK: arith.select %[[Z]], %{{.*}}, %[[Q]]
func.func @lpnorm(%x: tensor<2x3x4xf64>) -> tensor<2x3x4xf64> {
  %0 = onnx.LpNormalization(%x) {axis = -3 : i64, p = 1 : i64} : (tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  return %0 : tensor<2x3x4xf64>
}

// -----

// LRN: squares summed over a window of channels of the zero-padded input.
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d4, d2, d3)>
// CHECK-LABEL: func.func @lrn
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 1, 0, 0] high[0, 2, 0, 0]
// CHECK: linalg.generic {indexing_maps = [#[[WIN]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[P]], %{{.*}} : tensor<1x8x2x2xf32>, tensor<4xf32>)
// CHECK: math.powf
func.func @lrn(%x: tensor<1x5x2x2xf32>) -> tensor<1x5x2x2xf32> {
  %0 = onnx.LRN(%x) {size = 4 : i64} : (tensor<1x5x2x2xf32>) -> tensor<1x5x2x2xf32>
  return %0 : tensor<1x5x2x2xf32>
}

// -----

// A window wider than the channels is cut to them: at most C - 1 channels
// of padding on either side, whatever the size (here 2^31 - 1); alpha is
// still divided by the size.
// CHECK-LABEL: func.func @lrn_wide
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 2, 0, 0] high[0, 2, 0, 0]
// CHECK: linalg.generic {{.*}} ins(%[[P]], %{{.*}} : tensor<1x7x2x2xf32>, tensor<5xf32>)
// CHECK: arith.constant 4.65661276E-14 : f32
func.func @lrn_wide(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
  %0 = onnx.LRN(%x) {size = 2147483647 : i64} : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %0 : tensor<1x3x2x2xf32>
}
