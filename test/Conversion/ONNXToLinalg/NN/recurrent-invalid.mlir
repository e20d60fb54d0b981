// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

// An unranked W verifies, but the lowering needs X, W and R of rank 3.
func.func @rnn_unranked_w(%x: tensor<3x2x4xf32>, %w: tensor<*xf32>, %r: tensor<1x5x5xf32>) -> tensor<?x?x?xf32> {
  // expected-error @+1 {{onnx.RNN 'rnn': operand #1 has an unknown rank}}
  %yh = onnx.RNN(%x, %w, %r) {onnx.name = "rnn", hidden_size = 5 : i64} : (tensor<3x2x4xf32>, tensor<*xf32>, tensor<1x5x5xf32>) -> (none, tensor<?x?x?xf32>)
  return %yh : tensor<?x?x?xf32>
}

// -----

func.func @rnn_any_x(%x: !onnx.any, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>) -> tensor<?x?x?xf32> {
  // expected-error @+2 {{onnx.RNN: cannot lower: X, W and R must be ranked tensors of rank 3}}
  // expected-error @+1 {{failed to legalize operation 'onnx.RNN'}}
  %yh = onnx.RNN(%x, %w, %r) {hidden_size = 5 : i64} : (!onnx.any, tensor<1x5x4xf32>, tensor<1x5x5xf32>) -> (none, tensor<?x?x?xf32>)
  return %yh : tensor<?x?x?xf32>
}

// -----

func.func @rnn_too_many_activations(%x: tensor<3x2x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>) -> tensor<1x2x5xf32> {
  // expected-error @+2 {{onnx.RNN: cannot lower: expected 1 activations, got 3}}
  // expected-error @+1 {{failed to legalize operation 'onnx.RNN'}}
  %yh = onnx.RNN(%x, %w, %r) {hidden_size = 5 : i64, activations = ["Tanh", "Relu", "Relu"]} : (tensor<3x2x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>) -> (none, tensor<1x2x5xf32>)
  return %yh : tensor<1x2x5xf32>
}

// -----

func.func @rnn_unknown_activation(%x: tensor<3x2x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>) -> tensor<1x2x5xf32> {
  // expected-error @+2 {{onnx.RNN: cannot lower: unknown activation function 'swish'}}
  // expected-error @+1 {{failed to legalize operation 'onnx.RNN'}}
  %yh = onnx.RNN(%x, %w, %r) {hidden_size = 5 : i64, activations = ["Swish"]} : (tensor<3x2x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>) -> (none, tensor<1x2x5xf32>)
  return %yh : tensor<1x2x5xf32>
}

// -----

func.func @gru_one_activation(%x: tensor<3x2x4xf32>, %w: tensor<1x15x4xf32>, %r: tensor<1x15x5xf32>) -> tensor<1x2x5xf32> {
  // expected-error @+2 {{onnx.GRU: cannot lower: expected 2 activations, got 1}}
  // expected-error @+1 {{failed to legalize operation 'onnx.GRU'}}
  %yh = onnx.GRU(%x, %w, %r) {hidden_size = 5 : i64, activations = ["Sigmoid"]} : (tensor<3x2x4xf32>, tensor<1x15x4xf32>, tensor<1x15x5xf32>) -> (none, tensor<1x2x5xf32>)
  return %yh : tensor<1x2x5xf32>
}

// -----

// Bidirectional takes 3 or 6 activations (3 are used for both directions).
func.func @lstm_bidirectional_four_activations(%x: tensor<3x2x4xf32>, %w: tensor<2x20x4xf32>, %r: tensor<2x20x5xf32>) -> tensor<2x2x5xf32> {
  // expected-error @+2 {{onnx.LSTM: cannot lower: expected 6 activations, got 4}}
  // expected-error @+1 {{failed to legalize operation 'onnx.LSTM'}}
  %yh = onnx.LSTM(%x, %w, %r) {hidden_size = 5 : i64, direction = "bidirectional", activations = ["Sigmoid", "Tanh", "Tanh", "Sigmoid"]} : (tensor<3x2x4xf32>, tensor<2x20x4xf32>, tensor<2x20x5xf32>) -> (none, tensor<2x2x5xf32>, none)
  return %yh : tensor<2x2x5xf32>
}
