// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// The tables become constants; one generic over [N, n_targets] walks each
// tree (scf.for over the roots, scf.while until a leaf) in f64, with the
// set members in an inner scf.for.
// CHECK-LABEL: func.func @set_membership
// CHECK-DAG: arith.constant dense<{{\[\[}}0, 0, 1, -3, 0, 0, 0], [0, 6, -1, 2, 0, 0, 4], [0, 6, -2, -4, 0, 4, 6]]> : tensor<3x7xi64>
// The members (NaN delimiters dropped) exact in f64.
// CHECK-DAG: arith.constant dense<[1.2000000476837158, 3.7000000476837158, 8.000000e+00, 9.000000e+00, 1.200000e+01, 7.000000e+00]> : tensor<6xf64>
// CHECK-DAG: arith.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
// CHECK: tensor.empty() : tensor<6x4xf32>
// CHECK: linalg.generic
// CHECK: scf.for
// CHECK: scf.while
// CHECK: arith.cmpi sge
// CHECK: scf.condition
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: scf.for
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf une
// CHECK: arith.cmpf uno
// CHECK: arith.addf
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: linalg.yield
func.func @set_membership(%x: tensor<6x1xf32>) -> tensor<6x4xf32> {
  %0 = onnx.ml.TreeEnsemble(%x) {aggregate_function = 1 : i64, leaf_targetids = array<i64: 0, 1, 2, 3>, leaf_weights = dense<[1.000000e+00, 1.000000e+01, 1.000000e+03, 1.000000e+02]> : tensor<4xf32>, membership_values = dense<[1.200000e+00, 3.700000e+00, 8.000000e+00, 9.000000e+00, 0x7FC00000, 1.200000e+01, 7.000000e+00, 0x7FC00000]> : tensor<8xf32>, n_targets = 4 : i64, nodes_falseleafs = array<i64: 1, 0, 1>, nodes_falsenodeids = array<i64: 2, 2, 3>, nodes_featureids = array<i64: 0, 0, 0>, nodes_modes = dense<[0, 6, 6]> : tensor<3xui8>, nodes_splits = dense<[1.100000e+01, 2.323440e+05, 0x7FC00000]> : tensor<3xf32>, nodes_trueleafs = array<i64: 0, 1, 1>, nodes_truenodeids = array<i64: 1, 0, 1>, post_transform = 0 : i64, tree_roots = array<i64: 0>} : (tensor<6x1xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// Dynamic N and F, f16: the feature bound is checked at run time; MIN
// starts from f16's largest value, AVERAGE divides by the number of trees.
// CHECK-LABEL: func.func @dynamic_f16_min
// CHECK: tensor.dim %arg0, %{{.*}} : tensor<?x?xf16>
// CHECK: cf.assert %{{.*}}, "onnx.ml.TreeEnsemble: nodes_featureids beyond X's features"
// CHECK: tensor.empty(%{{.*}}) : tensor<?x2xf16>
// CHECK: linalg.generic
// CHECK: arith.constant 6.550400e+04 : f64
// CHECK: arith.extf %{{.*}} : f16 to f64
// CHECK: arith.minimumf
// CHECK: arith.truncf %{{.*}} : f64 to f16
func.func @dynamic_f16_min(%x: tensor<?x?xf16>) -> tensor<?x2xf16> {
  %0 = onnx.ml.TreeEnsemble(%x) {aggregate_function = 2 : i64, leaf_targetids = array<i64: 0, 1>, leaf_weights = dense<[1.0, 2.0]> : tensor<2xf16>, n_targets = 2 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 1>, nodes_featureids = array<i64: 3>, nodes_modes = dense<2> : tensor<1xui8>, nodes_splits = dense<0.5> : tensor<1xf16>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<?x?xf16>) -> tensor<?x2xf16>
  return %0 : tensor<?x2xf16>
}

// -----

// SOFTMAX: the scores in f64, then a second generic over the rows.
// CHECK-LABEL: func.func @softmax_f64
// CHECK: linalg.generic
// CHECK: arith.divf
// CHECK: linalg.yield %{{.*}} : f64
// CHECK: linalg.generic
// CHECK: scf.for
// CHECK: arith.maximumf
// CHECK: scf.for
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: linalg.yield %{{.*}} : f64
func.func @softmax_f64(%x: tensor<3x2xf64>) -> tensor<3x2xf64> {
  %0 = onnx.ml.TreeEnsemble(%x) {aggregate_function = 0 : i64, leaf_targetids = array<i64: 0, 1, 0, 1>, leaf_weights = dense<[5.23, 12.12, -12.23, 7.21]> : tensor<4xf64>, n_targets = 2 : i64, nodes_falseleafs = array<i64: 0, 1, 1>, nodes_falsenodeids = array<i64: 2, 2, 3>, nodes_featureids = array<i64: 0, 0, 0>, nodes_modes = dense<0> : tensor<3xui8>, nodes_splits = dense<[3.14, 1.2, 4.2]> : tensor<3xf64>, nodes_trueleafs = array<i64: 0, 1, 1>, nodes_truenodeids = array<i64: 1, 0, 1>, post_transform = 1 : i64, tree_roots = array<i64: 0, 1>} : (tensor<3x2xf64>) -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// -----

// PROBIT: log and two square roots per element.
// CHECK-LABEL: func.func @probit
// CHECK: linalg.generic
// CHECK: math.log
// CHECK: math.sqrt
// CHECK: math.sqrt
// CHECK: arith.truncf
func.func @probit(%x: tensor<2x1xf32>) -> tensor<2x2xf32> {
  %0 = onnx.ml.TreeEnsemble(%x) {leaf_targetids = array<i64: 0, 1>, leaf_weights = dense<[0.25, 0.75]> : tensor<2xf32>, n_targets = 2 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 1>, nodes_featureids = array<i64: 0>, nodes_modes = dense<0> : tensor<1xui8>, nodes_splits = dense<0.0> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, post_transform = 4 : i64, tree_roots = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
