// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

func.func @cycle(%x: tensor<2x1xf32>) -> tensor<2x1xf32> {
  // expected-error @+2 {{onnx.ml.TreeEnsemble: cannot lower: the nodes form a cycle (node 0)}}
  // expected-error @+1 {{failed to legalize operation 'onnx.ml.TreeEnsemble'}}
  %0 = onnx.ml.TreeEnsemble(%x) {leaf_targetids = array<i64: 0>, leaf_weights = dense<1.0> : tensor<1xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1, 0>, nodes_falsenodeids = array<i64: 0, 0>, nodes_featureids = array<i64: 0, 0>, nodes_modes = dense<0> : tensor<2xui8>, nodes_splits = dense<0.0> : tensor<2xf32>, nodes_trueleafs = array<i64: 0, 1>, nodes_truenodeids = array<i64: 1, 0>, tree_roots = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @leaf_out_of_range(%x: tensor<2x1xf32>) -> tensor<2x1xf32> {
  // expected-error @+2 {{onnx.ml.TreeEnsemble: cannot lower: node 0: false branch 5 is not a leaf (there are 1)}}
  // expected-error @+1 {{failed to legalize operation 'onnx.ml.TreeEnsemble'}}
  %0 = onnx.ml.TreeEnsemble(%x) {leaf_targetids = array<i64: 0>, leaf_weights = dense<1.0> : tensor<1xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 5>, nodes_featureids = array<i64: 0>, nodes_modes = dense<0> : tensor<1xui8>, nodes_splits = dense<0.0> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @missing_members(%x: tensor<2x1xf32>) -> tensor<2x1xf32> {
  // expected-error @+2 {{onnx.ml.TreeEnsemble: cannot lower: membership_values has fewer sets than there are BRANCH_MEMBER nodes}}
  // expected-error @+1 {{failed to legalize operation 'onnx.ml.TreeEnsemble'}}
  %0 = onnx.ml.TreeEnsemble(%x) {leaf_targetids = array<i64: 0>, leaf_weights = dense<1.0> : tensor<1xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 0>, nodes_featureids = array<i64: 0>, nodes_modes = dense<6> : tensor<1xui8>, nodes_splits = dense<0.0> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @bad_mode(%x: tensor<2x1xf32>) -> tensor<2x1xf32> {
  // expected-error @+2 {{onnx.ml.TreeEnsemble: cannot lower: nodes_modes must be in [0, 6]}}
  // expected-error @+1 {{failed to legalize operation 'onnx.ml.TreeEnsemble'}}
  %0 = onnx.ml.TreeEnsemble(%x) {leaf_targetids = array<i64: 0>, leaf_weights = dense<1.0> : tensor<1xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 0>, nodes_featureids = array<i64: 0>, nodes_modes = dense<7> : tensor<1xui8>, nodes_splits = dense<0.0> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @feature_out_of_range(%x: tensor<2x1xf32>) -> tensor<2x1xf32> {
  // expected-error @+2 {{onnx.ml.TreeEnsemble: cannot lower: nodes_featureids must be in [0, 1)}}
  // expected-error @+1 {{failed to legalize operation 'onnx.ml.TreeEnsemble'}}
  %0 = onnx.ml.TreeEnsemble(%x) {leaf_targetids = array<i64: 0>, leaf_weights = dense<1.0> : tensor<1xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 0>, nodes_featureids = array<i64: 2>, nodes_modes = dense<0> : tensor<1xui8>, nodes_splits = dense<0.0> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @bad_target(%x: tensor<2x1xf32>) -> tensor<2x1xf32> {
  // expected-error @+2 {{onnx.ml.TreeEnsemble: cannot lower: leaf_targetids must be in [0, 1)}}
  // expected-error @+1 {{failed to legalize operation 'onnx.ml.TreeEnsemble'}}
  %0 = onnx.ml.TreeEnsemble(%x) {leaf_targetids = array<i64: 1>, leaf_weights = dense<1.0> : tensor<1xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 0>, nodes_featureids = array<i64: 0>, nodes_modes = dense<0> : tensor<1xui8>, nodes_splits = dense<0.0> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @bad_post_transform(%x: tensor<2x1xf32>) -> tensor<2x1xf32> {
  // expected-error @+2 {{onnx.ml.TreeEnsemble: cannot lower: post_transform 5 is not one of 0-4}}
  // expected-error @+1 {{failed to legalize operation 'onnx.ml.TreeEnsemble'}}
  %0 = onnx.ml.TreeEnsemble(%x) {leaf_targetids = array<i64: 0>, leaf_weights = dense<1.0> : tensor<1xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 0>, nodes_featureids = array<i64: 0>, nodes_modes = dense<0> : tensor<1xui8>, nodes_splits = dense<0.0> : tensor<1xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, post_transform = 5 : i64, tree_roots = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @length_mismatch(%x: tensor<2x1xf32>) -> tensor<2x1xf32> {
  // expected-error @+2 {{onnx.ml.TreeEnsemble: cannot lower: the nodes_* attributes must all have 1 entries}}
  // expected-error @+1 {{failed to legalize operation 'onnx.ml.TreeEnsemble'}}
  %0 = onnx.ml.TreeEnsemble(%x) {leaf_targetids = array<i64: 0>, leaf_weights = dense<1.0> : tensor<1xf32>, n_targets = 1 : i64, nodes_falseleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 0>, nodes_featureids = array<i64: 0>, nodes_modes = dense<0> : tensor<1xui8>, nodes_splits = dense<0.0> : tensor<2xf32>, nodes_trueleafs = array<i64: 1>, nodes_truenodeids = array<i64: 0>, tree_roots = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}
