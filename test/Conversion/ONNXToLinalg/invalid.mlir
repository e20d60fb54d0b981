// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{onnx.Relu: result #0 has an unknown rank (run onnx-infer-shapes)}}
  %0 = onnx.Relu(%a) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @old_version(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{onnx.Relu_v6 'r': no lowering to linalg for this op (an old version: run onnx-convert-opset)}}
  %0 = onnx.Relu_v6(%a) {onnx.name = "r"} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unranked_input(%a: tensor<*xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{onnx.Relu: operand #0 has an unknown rank}}
  %0 = onnx.Relu(%a) : (tensor<*xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dropout_training(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = onnx.Constant() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %t = onnx.Constant() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  // expected-error @+2 {{onnx.Dropout: cannot lower: training mode (random masks) is not lowered; only inference and ratio 0}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Dropout'}}
  %y = onnx.Dropout(%x, %r, %t) : (tensor<4xf32>, tensor<f32>, tensor<i1>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
