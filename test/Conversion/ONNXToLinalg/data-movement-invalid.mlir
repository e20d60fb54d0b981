// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

func.func @squeeze_unknown(%a: tensor<?x3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{onnx.Squeeze: cannot lower: the squeezed dims are not known (dynamic dims and no axes)}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Squeeze'}}
  %0 = onnx.Squeeze(%a) : (tensor<?x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @reshape_dynamic_length(%a: tensor<6xf32>, %s: tensor<?xi64>) -> tensor<2x3xf32> {
  // expected-error @+2 {{onnx.Reshape: cannot lower: the shape input needs a static length}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Reshape'}}
  %0 = onnx.Reshape(%a, %s) : (tensor<6xf32>, tensor<?xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gather_nd_dynamic_k(%a: tensor<3x4xf32>, %i: tensor<2x?xi64>) -> tensor<2x?xf32> {
  // expected-error @+2 {{onnx.GatherND: cannot lower: the last dim of indices must be static}}
  // expected-error @+1 {{failed to legalize operation 'onnx.GatherND'}}
  %0 = onnx.GatherND(%a, %i) : (tensor<3x4xf32>, tensor<2x?xi64>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

func.func @pad_mode(%a: tensor<4xf32>) -> tensor<6xf32> {
  %p = arith.constant dense<[1, 1]> : tensor<2xi64>
  // expected-error @+2 {{onnx.Pad: cannot lower: unknown mode 'mirror'}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Pad'}}
  %0 = onnx.Pad(%a, %p) {mode = "mirror"} : (tensor<4xf32>, tensor<2xi64>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @resize_antialias_dynamic(%x: tensor<?xf32>, %s: tensor<1xf32>) -> tensor<?xf32> {
  // expected-error @+2 {{onnx.Resize: cannot lower: antialias needs static scales or static sizes}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Resize'}}
  %0 = onnx.Resize(%x, none, %s) {mode = "linear", antialias = 1 : i64} : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @scatter_reduction(%a: tensor<3xf32>, %i: tensor<1xi64>, %u: tensor<1xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{onnx.ScatterElements: cannot lower: unknown reduction 'avg'}}
  // expected-error @+1 {{failed to legalize operation 'onnx.ScatterElements'}}
  %0 = onnx.ScatterElements(%a, %i, %u) {reduction = "avg"} : (tensor<3xf32>, tensor<1xi64>, tensor<1xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
