// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

func.func @dynamic_packed_dim(%q: tensor<1x3x?xf32>, %k: tensor<1x3x4xf32>, %v: tensor<1x3x4xf32>) -> tensor<1x3x?xf32> {
  // expected-error @+2 {{onnx.LinearAttention: cannot lower: query, key and value must be 3-D with a static last dim}}
  // expected-error @+1 {{failed to legalize operation 'onnx.LinearAttention'}}
  %0:2 = onnx.LinearAttention(%q, %k, %v) {q_num_heads = 2 : i64, kv_num_heads = 2 : i64, update_rule = "linear"} : (tensor<1x3x?xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> (tensor<1x3x?xf32>, tensor<1x2x2x2xf32>)
  return %0#0 : tensor<1x3x?xf32>
}

// -----

func.func @gated_without_decay(%q: tensor<1x3x4xf32>, %k: tensor<1x3x4xf32>, %v: tensor<1x3x4xf32>) -> tensor<1x3x4xf32> {
  // expected-error @+2 {{onnx.LinearAttention: cannot lower: the gated rule needs decay}}
  // expected-error @+1 {{failed to legalize operation 'onnx.LinearAttention'}}
  %0:2 = onnx.LinearAttention(%q, %k, %v) {q_num_heads = 2 : i64, kv_num_heads = 2 : i64, update_rule = "gated"} : (tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> (tensor<1x3x4xf32>, tensor<1x2x2x2xf32>)
  return %0#0 : tensor<1x3x4xf32>
}

// -----

func.func @bad_rule(%q: tensor<1x3x4xf32>, %k: tensor<1x3x4xf32>, %v: tensor<1x3x4xf32>) -> tensor<1x3x4xf32> {
  // expected-error @+2 {{onnx.LinearAttention: cannot lower: unknown update_rule 'mamba'}}
  // expected-error @+1 {{failed to legalize operation 'onnx.LinearAttention'}}
  %0:2 = onnx.LinearAttention(%q, %k, %v) {q_num_heads = 2 : i64, kv_num_heads = 2 : i64, update_rule = "mamba"} : (tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> (tensor<1x3x4xf32>, tensor<1x2x2x2xf32>)
  return %0#0 : tensor<1x3x4xf32>
}
