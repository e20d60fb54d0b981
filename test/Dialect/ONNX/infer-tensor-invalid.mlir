// RUN: onnx-opt %s -split-input-file -verify-diagnostics

// Ops that break the shape rules of the data movement operators.

func.func @reshape_two_inferred(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %s = onnx.Constant() {value = dense<[-1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{input 'shape' may hold at most one -1}}
  %0 = onnx.Reshape(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %s = onnx.Constant() {value = dense<[4, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{input 'data' with 6 elements cannot be reshaped}}
  %0 = onnx.Reshape(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @transpose_perm(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{attribute 'perm' must have 2 values}}
  %0 = onnx.Transpose(%x) {perm = array<i64: 0, 1, 2>} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{all inputs must have the same rank, got 2 and 1}}
  %0 = onnx.Concat(%a, %b) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @concat_dims(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{inputs differ in dim 1}}
  %0 = onnx.Concat(%a, %b) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @split_sum(%x: tensor<7xf32>) -> tensor<*xf32> {
  %s = onnx.Constant() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'split' sums to 5 but the split axis has size 7}}
  %0:2 = onnx.Split(%x, %s) : (tensor<7xf32>, tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @gather_axis(%x: tensor<2x3xf32>, %i: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{attribute 'axis' 2 is out of range for rank 2}}
  %0 = onnx.Gather(%x, %i) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @squeeze_not_one(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %a = onnx.Constant() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'axes' selects axis 0 of size 2, which is not 1}}
  %0 = onnx.Squeeze(%x, %a) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @unsqueeze_repeat(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %a = onnx.Constant() {value = dense<[0, -4]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'axes' repeats axis -4}}
  %0 = onnx.Unsqueeze(%x, %a) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @slice_step(%x: tensor<4xf32>) -> tensor<*xf32> {
  %z = onnx.Constant() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'steps' must not hold 0}}
  %0 = onnx.Slice(%x, %z, %z, %z, %z) : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @pad_length(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %p = onnx.Constant() {value = dense<[1, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'pads' must have 4 values, got 2}}
  %0 = onnx.Pad(%x, %p) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @depth_to_space(%x: tensor<1x6x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{the channel dim of input 'input' (6) must be a multiple of 4}}
  %0 = onnx.DepthToSpace(%x) {blocksize = 2 : i64} : (tensor<1x6x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// blocksize is bounded (its square must not overflow), and so is the output.
func.func @depth_to_space_blocksize(%x: tensor<?x?x?x?xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{attribute 'blocksize' must be in [1, 2147483647], got 4611686018427387904}}
  %0 = onnx.DepthToSpace(%x) {blocksize = 4611686018427387904 : i64} : (tensor<?x?x?x?xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @space_to_depth_blocksize(%x: tensor<1x1x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{attribute 'blocksize' must be in [1, 2147483647], got 4611686018427387904}}
  %0 = onnx.SpaceToDepth(%x) {blocksize = 4611686018427387904 : i64} : (tensor<1x1x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @space_to_depth_overflow(%x: tensor<1x4611686018427387904x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{the channel dim of the output overflows}}
  %0 = onnx.SpaceToDepth(%x) {blocksize = 2 : i64} : (tensor<1x4611686018427387904x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @expand(%x: tensor<3xf32>) -> tensor<*xf32> {
  %s = onnx.Constant() {value = dense<[2, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{input 'input' cannot be broadcast to input 'shape'}}
  %0 = onnx.Expand(%x, %s) : (tensor<3xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A declared type that contradicts the inferred one.
func.func @declared(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{}}
  %0 = onnx.Transpose(%x) : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// An output whose rank is the length of a shape input: a declared length
// above kMaxRank (1024) is an error, not a shape of that rank allocated.
func.func @reshape_rank_from_length(%x: tensor<5xf32>, %s: tensor<1000000000xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'shape' has 1000000000 values: the output's rank would be above 1024}}
  %0 = onnx.Reshape(%x, %s) : (tensor<5xf32>, tensor<1000000000xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @constant_of_shape_rank_from_length(%s: tensor<1025xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'input' has 1025 values: the output's rank would be above 1024}}
  %0 = onnx.ConstantOfShape(%s) : (tensor<1025xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @unsqueeze_rank_from_length(%x: tensor<2x3xf32>, %a: tensor<1023xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'axes' has 1023 values: the output's rank would be above 1024}}
  %0 = onnx.Unsqueeze(%x, %a) : (tensor<2x3xf32>, tensor<1023xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @trilu_rank(%x: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'input' must have rank 2 or more, got 1}}
  %0 = onnx.Trilu(%x) : (tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @eyelike_rank(%x: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'input' must have rank 2, got 1}}
  %0 = onnx.EyeLike(%x) : (tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @range_scalar(%s: tensor<2xf32>, %l: tensor<f32>, %d: tensor<f32>) -> tensor<*xf32> {
  // expected-error @+1 {{input 'start' must be a scalar, got shape [2]}}
  %0 = onnx.Range(%s, %l, %d) : (tensor<2xf32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @range_delta(%s: tensor<i64>, %l: tensor<i64>) -> tensor<*xi64> {
  %d = onnx.Constant() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{input 'delta' must not be zero}}
  %0 = onnx.Range(%s, %l, %d) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<*xi64>
  return %0 : tensor<*xi64>
}

// -----

func.func @col2im_block(%x: tensor<1x10x4xf32>) -> tensor<*xf32> {
  %image = onnx.Constant() {value = dense<[5, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %block = onnx.Constant() {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'onnx.Col2Im' op dim 1 of input 'input' (10) must be a multiple of the block size (4)}}
  %0 = onnx.Col2Im(%x, %image, %block) : (tensor<1x10x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @col2im_strides(%x: tensor<1x8x4xf32>) -> tensor<*xf32> {
  %image = onnx.Constant() {value = dense<[3, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %block = onnx.Constant() {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{'onnx.Col2Im' op attribute 'strides' must be in [1, 2147483647], got 0}}
  %0 = onnx.Col2Im(%x, %image, %block) {strides = array<i64: 0, 1>} : (tensor<1x8x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
