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

// -----

func.func @tensor_scatter_batch_axis(%p: tensor<2x4xf32>, %u: tensor<2x1xf32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{onnx.TensorScatter: cannot lower: axis must name a dim of past_cache other than the batch dim 0}}
  // expected-error @+1 {{failed to legalize operation 'onnx.TensorScatter'}}
  %0 = onnx.TensorScatter(%p, %u, none) {axis = -2 : i64} : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @tensor_scatter_mode(%p: tensor<2x4xf32>, %u: tensor<2x1xf32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{onnx.TensorScatter: cannot lower: unknown mode 'ring'}}
  // expected-error @+1 {{failed to legalize operation 'onnx.TensorScatter'}}
  %0 = onnx.TensorScatter(%p, %u, none) {axis = 1 : i64, mode = "ring"} : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @tensor_scatter_long_update(%p: tensor<2x4xf32>, %u: tensor<2x5xf32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{onnx.TensorScatter: cannot lower: update is longer than past_cache along axis}}
  // expected-error @+1 {{failed to legalize operation 'onnx.TensorScatter'}}
  %0 = onnx.TensorScatter(%p, %u, none) {axis = 1 : i64} : (tensor<2x4xf32>, tensor<2x5xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @tensor_scatter_dims(%p: tensor<2x4x3xf32>, %u: tensor<2x1x2xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+2 {{onnx.TensorScatter: cannot lower: update and past_cache differ in dim 2}}
  // expected-error @+1 {{failed to legalize operation 'onnx.TensorScatter'}}
  %0 = onnx.TensorScatter(%p, %u, none) {axis = 1 : i64} : (tensor<2x4x3xf32>, tensor<2x1x2xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @tensor_scatter_indices_rank(%p: tensor<2x4xf32>, %u: tensor<2x1xf32>, %w: tensor<2x1xi64>) -> tensor<2x4xf32> {
  // expected-error @+2 {{onnx.TensorScatter: cannot lower: write_indices must be a 1-D tensor}}
  // expected-error @+1 {{failed to legalize operation 'onnx.TensorScatter'}}
  %0 = onnx.TensorScatter(%p, %u, %w) {axis = 1 : i64} : (tensor<2x4xf32>, tensor<2x1xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @max_unpool_shape_length(%x: tensor<1x1x2xf32>, %i: tensor<1x1x2xi64>, %s: tensor<?xi64>) -> tensor<?x?x?xf32> {
  // expected-error @+2 {{onnx.MaxUnpool: cannot lower: output_shape must be a 1-D tensor of static length rank(X)}}
  // expected-error @+1 {{failed to legalize operation 'onnx.MaxUnpool'}}
  %0 = onnx.MaxUnpool(%x, %i, %s) {kernel_shape = array<i64: 2>, strides = array<i64: 2>} : (tensor<1x1x2xf32>, tensor<1x1x2xi64>, tensor<?xi64>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

func.func @max_unpool_small_shape(%x: tensor<1x1x2xf32>, %i: tensor<1x1x2xi64>) -> tensor<1x1x3xf32> {
  %s = onnx.Constant() {value = dense<[1, 1, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  // expected-error @+2 {{onnx.MaxUnpool: cannot lower: output_shape is smaller than the unpooled shape in dim 2}}
  // expected-error @+1 {{failed to legalize operation 'onnx.MaxUnpool'}}
  %0 = onnx.MaxUnpool(%x, %i, %s) {kernel_shape = array<i64: 2>, strides = array<i64: 2>} : (tensor<1x1x2xf32>, tensor<1x1x2xi64>, tensor<3xi64>) -> tensor<1x1x3xf32>
  return %0 : tensor<1x1x3xf32>
}

// -----

func.func @max_unpool_indices_shape(%x: tensor<1x1x2xf32>, %i: tensor<1x1x3xi64>) -> tensor<1x1x4xf32> {
  // expected-error @+2 {{onnx.MaxUnpool: cannot lower: X and I differ in dim 2}}
  // expected-error @+1 {{failed to legalize operation 'onnx.MaxUnpool'}}
  %0 = onnx.MaxUnpool(%x, %i) {kernel_shape = array<i64: 2>, strides = array<i64: 2>} : (tensor<1x1x2xf32>, tensor<1x1x3xi64>) -> tensor<1x1x4xf32>
  return %0 : tensor<1x1x4xf32>
}
