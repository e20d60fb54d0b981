// RUN: onnx-opt %s -split-input-file -verify-diagnostics

// Neural network operators that break their operator's rules.

func.func @conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.Conv' op input 'X' has 3 channels, but input 'W' expects 2 x 1 (group)}}
  %0 = onnx.Conv(%x, %w) : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_weight_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.Conv' op input 'W' must have rank 4, got 3}}
  %0 = onnx.Conv(%x, %w) : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_strides(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.Conv' op attribute 'strides' must have 2 values, got 3}}
  %0 = onnx.Conv(%x, %w) {strides = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_declared(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{'onnx.Conv' op output 0 has type 'tensor<1x4x8x8xf32>', but its inputs and attributes give it type 'tensor<1x4x6x6xf32>'}}
  %0 = onnx.Conv(%x, %w) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

func.func @pool_kernel_too_large(%x: tensor<1x3x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.MaxPool' op the window (3) is larger than the padded input (2) along spatial axis 0}}
  %0 = onnx.MaxPool(%x) {kernel_shape = array<i64: 3, 3>} : (tensor<1x3x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @pool_rank(%x: tensor<1x3x8xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.AveragePool' op input 'X' must have rank 4 (2 + the length of 'kernel_shape'), got 3}}
  %0 = onnx.AveragePool(%x) {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @pool_auto_pad(%x: tensor<1x3x8x8xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.MaxPool' op attribute 'auto_pad' must be NOTSET, SAME_UPPER, SAME_LOWER or VALID, got 'SAME'}}
  %0 = onnx.MaxPool(%x) {auto_pad = "SAME", kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @batch_norm_scale(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>, %m: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.BatchNormalization' op input 'scale' must have 3 elements (the channels of 'X'), got 4}}
  %0 = onnx.BatchNormalization(%x, %s, %m, %m, %m) : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @layer_norm_axis(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.LayerNormalization' op attribute 'axis' (2) is out of range for input 'X' of rank 2}}
  %0 = onnx.LayerNormalization(%x, %s) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @group_norm_groups(%x: tensor<2x6x4xf32>, %s: tensor<6xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.GroupNormalization' op attribute 'num_groups' (4) must divide the channels of input 'X' (6)}}
  %0 = onnx.GroupNormalization(%x, %s, %s) {num_groups = 4 : i64} : (tensor<2x6x4xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @lstm_direction(%x: tensor<3x2x4xf32>, %w: tensor<1x12x4xf32>, %r: tensor<1x12x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.LSTM' op input 'W' must have 2 directions (attribute 'direction'), got 1}}
  %0 = onnx.LSTM(%x, %w, %r) {direction = "bidirectional"} : (tensor<3x2x4xf32>, tensor<1x12x4xf32>, tensor<1x12x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @rnn_input_rank(%x: tensor<3x4xf32>, %w: tensor<1x3x4xf32>, %r: tensor<1x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.RNN' op input 'X' must have rank 3, got 2}}
  %0 = onnx.RNN(%x, %w, %r) : (tensor<3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @resize_scales_length(%x: tensor<1x1x4x4xf32>) -> tensor<*xf32> {
  %scales = onnx.Constant() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  // expected-error @+1 {{'onnx.Resize' op input 'scales' must have 4 values, got 2}}
  %0 = onnx.Resize(%x, none, %scales) : (tensor<1x1x4x4xf32>, tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @resize_axes(%x: tensor<1x1x4x4xf32>) -> tensor<*xf32> {
  %sizes = onnx.Constant() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+1 {{'onnx.Resize' op attribute 'axes' has 4, out of range for input 'X' of rank 4}}
  %0 = onnx.Resize(%x, none, none, %sizes) {axes = array<i64: 4>} : (tensor<1x1x4x4xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @dft_axis(%x: tensor<2x10x1xf32>) -> tensor<*xf32> {
  %axis = onnx.Constant() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+1 {{'onnx.DFT' op axis 2 is out of range for input 'input' of rank 3}}
  %0 = onnx.DFT(%x, none, %axis) : (tensor<2x10x1xf32>, tensor<i64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @dft_complex_dim(%x: tensor<2x10x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.DFT' op the last dim of input 'input' must be 1 (real) or 2 (complex), got 3}}
  %0 = onnx.DFT(%x) : (tensor<2x10x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @attention_heads(%q: tensor<2x4x10xf32>, %k: tensor<2x6x12xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.Attention' op dim 2 of input 'Q' (10) must be a multiple of attribute 'q_num_heads' (4)}}
  %0 = onnx.Attention(%q, %k, %k) {kv_num_heads = 2 : i64, q_num_heads = 4 : i64} : (tensor<2x4x10xf32>, tensor<2x6x12xf32>, tensor<2x6x12xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @attention_3d_no_heads(%q: tensor<2x4x8xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.Attention' op attribute 'q_num_heads' is required with a 3D input 'Q'}}
  %0 = onnx.Attention(%q, %q, %q) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @grid_sample_grid(%x: tensor<1x3x8x8xf32>, %g: tensor<1x4x4x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.GridSample' op the last dim of input 'grid' must be 2 (the number of spatial dims), got 3}}
  %0 = onnx.GridSample(%x, %g) : (tensor<1x3x8x8xf32>, tensor<1x4x4x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_transpose_output_shape(%x: tensor<1x1x3x3xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op attribute 'output_shape' must have 2 values, got 3}}
  %0 = onnx.ConvTranspose(%x, %w) {output_shape = array<i64: 1, 10, 8>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @rms_norm_axis(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.RMSNormalization' op attribute 'axis' (-3) is out of range for input 'X' of rank 2}}
  %0 = onnx.RMSNormalization(%x, %s) {axis = -3 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Size attributes are bounded (below 2^31), so that shape inference and the
// lowerings cannot overflow or loop for ages on them.
func.func @pool_kernel_bound(%x: tensor<1x3x8x8xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.MaxPool' op attribute 'kernel_shape' must be in [1, 2147483647], got 2147483648}}
  %0 = onnx.MaxPool(%x) {auto_pad = "SAME_UPPER", kernel_shape = array<i64: 2147483648, 1>} : (tensor<1x3x8x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @average_pool_kernel_bound(%x: tensor<1x3x8x8xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.AveragePool' op attribute 'kernel_shape' must be in [1, 2147483647], got 2147483648}}
  %0 = onnx.AveragePool(%x) {auto_pad = "SAME_UPPER", kernel_shape = array<i64: 1, 2147483648>} : (tensor<1x3x8x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_transpose_strides_bound(%x: tensor<1x3x8x8xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op attribute 'strides' must be in [1, 2147483647], got 2147483648}}
  %0 = onnx.ConvTranspose(%x, %w) {strides = array<i64: 2147483648, 1>} : (tensor<1x3x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_transpose_output_padding_bound(%x: tensor<1x3x8x8xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op attribute 'output_padding' must be in [0, 2147483647], got 2147483648}}
  %0 = onnx.ConvTranspose(%x, %w) {output_padding = array<i64: 0, 2147483648>} : (tensor<1x3x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Within the bounds, an output size that overflows int64 is an error.
func.func @conv_transpose_output_overflow(%x: tensor<1x3x4611686018427387904x8xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.ConvTranspose' op the output size along spatial axis 0 overflows}}
  %0 = onnx.ConvTranspose(%x, %w) {strides = array<i64: 4, 1>} : (tensor<1x3x4611686018427387904x8xf32>, tensor<3x2x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @lrn_size_bound(%x: tensor<1x5x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.LRN' op attribute 'size' must be in [1, 2147483647], got 2147483648}}
  %0 = onnx.LRN(%x) {size = 2147483648 : i64} : (tensor<1x5x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @roi_align_sampling_ratio(%x: tensor<1x2x8x8xf32>, %r: tensor<3x4xf32>, %bi: tensor<3xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{'onnx.RoiAlign' op attribute 'sampling_ratio' must be in [0, 2147483647], got 2147483648}}
  %0 = onnx.RoiAlign(%x, %r, %bi) {sampling_ratio = 2147483648 : i64} : (tensor<1x2x8x8xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
