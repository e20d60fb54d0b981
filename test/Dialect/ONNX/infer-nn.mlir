// RUN: onnx-opt %s --onnx-infer-shapes=fold=false | FileCheck %s
// Inference of the neural network operators: static, dynamic and symbolic
// dims.

// CHECK-LABEL: func @conv
func.func @conv(%x: tensor<?x3x32x32xf32> {onnx.dim_params = ["N", "", "", ""]}, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.Conv({{.*}}) {onnx.dim_params = {{\[}}["N", "", "", ""]], pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : {{.*}} -> tensor<?x8x16x16xf32>
  %0 = onnx.Conv(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x3x32x32xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<*xf32>
  // CHECK: onnx.Conv({{.*}}) -> tensor<?x8x11x11xf32>
  %1 = onnx.Conv(%x, %w) {auto_pad = "SAME_LOWER", strides = array<i64: 3, 3>} : (tensor<?x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<*xf32>
  // CHECK: onnx.Conv({{.*}}) -> tensor<?x8x28x30xf32>
  %2 = onnx.Conv(%x, %w) {dilations = array<i64: 2, 1>} : (tensor<?x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @conv_dynamic
func.func @conv_dynamic(%x: tensor<1x4x?x10xf32>, %w: tensor<6x2x3x?xf32>) -> tensor<*xf32> {
  // The output size of a dynamic input or kernel dim is unknown.
  // CHECK: onnx.Conv({{.*}}) -> tensor<1x6x?x?xf32>
  %0 = onnx.Conv(%x, %w) {group = 2 : i64} : (tensor<1x4x?x10xf32>, tensor<6x2x3x?xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// CHECK-LABEL: func @conv_transpose
func.func @conv_transpose(%x: tensor<1x1x3x3xf32>, %w: tensor<1x2x3x3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.ConvTranspose({{.*}}) -> tensor<1x2x10x8xf32>
  %0 = onnx.ConvTranspose(%x, %w) {output_padding = array<i64: 1, 1>, strides = array<i64: 3, 2>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<*xf32>
  // CHECK: onnx.ConvTranspose({{.*}}) -> tensor<1x2x6x6xf32>
  %1 = onnx.ConvTranspose(%x, %w) {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<*xf32>
  // CHECK: onnx.ConvTranspose({{.*}}) -> tensor<1x2x10x8xf32>
  %2 = onnx.ConvTranspose(%x, %w) {output_shape = array<i64: 10, 8>, strides = array<i64: 3, 2>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @pool
func.func @pool(%x: tensor<?x3x5x5xf32> {onnx.dim_params = ["N", "", "", ""]}) -> (tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.MaxPool({{.*}}) -> (tensor<?x3x3x3xf32>, tensor<?x3x3x3xi64>)
  %0:2 = onnx.MaxPool(%x) {ceil_mode = 1 : i64, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x3x5x5xf32>) -> (tensor<*xf32>, tensor<*xi64>)
  // The last window would start in the right padding: one less.
  // CHECK: onnx.AveragePool({{.*}}) -> tensor<?x3x2x2xf32>
  %1 = onnx.AveragePool(%x) {ceil_mode = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 3, 3>} : (tensor<?x3x5x5xf32>) -> tensor<*xf32>
  // CHECK: onnx.GlobalAveragePool({{.*}}) {onnx.dim_params = {{\[}}["N", "", "", ""]]} : {{.*}} -> tensor<?x3x1x1xf32>
  %2 = onnx.GlobalAveragePool(%x) : (tensor<?x3x5x5xf32>) -> tensor<*xf32>
  return %0#0, %0#1, %1, %2 : tensor<*xf32>, tensor<*xi64>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @normalization
func.func @normalization(%x: tensor<?x4x6xf32> {onnx.dim_params = ["B", "", ""]}, %s: tensor<6xf32>, %h: tensor<f16>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.LayerNormalization({{.*}}) -> (tensor<?x4x6xf32>, tensor<?x1x1xf32>, tensor<?x1x1xf32>)
  %0:3 = onnx.LayerNormalization(%x, %s) {axis = 1 : i64} : (tensor<?x4x6xf32>, tensor<6xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  // CHECK: onnx.RMSNormalization({{.*}}) -> tensor<?x4x6xf32>
  %1 = onnx.RMSNormalization(%x, %s) : (tensor<?x4x6xf32>, tensor<6xf32>) -> tensor<*xf32>
  return %0#0, %0#1, %0#2, %1 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @batch_norm_training
func.func @batch_norm_training(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %m: tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.BatchNormalization({{.*}}) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  %0:3 = onnx.BatchNormalization(%x, %s, %s, %m, %m) {training_mode = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<*xf32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1, %0#2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @lstm
func.func @lstm(%x: tensor<?x5x2xf32> {onnx.dim_params = ["T", "", ""]}, %w: tensor<2x12x2xf32>, %r: tensor<2x12x3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.LSTM({{.*}}) -> (tensor<?x2x5x3xf32>, tensor<2x5x3xf32>, tensor<2x5x3xf32>)
  %0:3 = onnx.LSTM(%x, %w, %r) {direction = "bidirectional", hidden_size = 3 : i64} : (tensor<?x5x2xf32>, tensor<2x12x2xf32>, tensor<2x12x3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1, %0#2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @gru_batchwise
func.func @gru_batchwise(%x: tensor<4x7x2xf32>, %w: tensor<1x9x2xf32>, %r: tensor<1x9x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // The hidden size comes from R.
  // CHECK: onnx.GRU({{.*}}) -> (tensor<4x7x1x3xf32>, tensor<4x1x3xf32>)
  %0:2 = onnx.GRU(%x, %w, %r) {layout = 1 : i64} : (tensor<4x7x2xf32>, tensor<1x9x2xf32>, tensor<1x9x3xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @resize
func.func @resize(%x: tensor<1x1x4x?xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %scales = onnx.Constant() {value = dense<[0.6, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %sizes = onnx.Constant() {value = dense<[7, 8]> : tensor<2xi64>} : () -> tensor<2xi64>
  %cube = onnx.Constant() {value = dense<[3, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %three = onnx.Constant() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  // CHECK: onnx.Resize({{.*}}) -> tensor<1x1x2x?xf32>
  %0 = onnx.Resize(%x, none, %scales) {axes = array<i64: 2, 3>} : (tensor<1x1x4x?xf32>, tensor<2xf32>) -> tensor<*xf32>
  // CHECK: onnx.Resize({{.*}}) -> tensor<1x1x7x8xf32>
  %1 = onnx.Resize(%x, none, none, %sizes) {axes = array<i64: 2, 3>} : (tensor<1x1x4x?xf32>, tensor<2xi64>) -> tensor<*xf32>
  // CHECK: onnx.Resize({{.*}}) -> tensor<1x1x?x?xf32>
  %2 = onnx.Resize(%x, none, none, %cube) {axes = array<i64: 2, 3>, keep_aspect_ratio_policy = "not_larger"} : (tensor<1x1x4x?xf32>, tensor<2xi64>) -> tensor<*xf32>
  // CHECK: onnx.Resize({{.*}}) -> tensor<1x1x3x?xf32>
  %3 = onnx.Resize(%x, none, none, %three) {axes = array<i64: 2>, keep_aspect_ratio_policy = "not_smaller"} : (tensor<1x1x4x?xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @dft
func.func @dft(%x: tensor<2x10x1xf32>, %c: tensor<2x6x2xf32>, %axis_input: tensor<i64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %axis = onnx.Constant() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  // CHECK: onnx.DFT({{.*}}) -> tensor<2x6x2xf32>
  %0 = onnx.DFT(%x, none, %axis) {onesided = 1 : i64} : (tensor<2x10x1xf32>, tensor<i64>) -> tensor<*xf32>
  // CHECK: onnx.DFT({{.*}}) -> tensor<2x10x1xf32>
  %1 = onnx.DFT(%c, none, %axis) {inverse = 1 : i64, onesided = 1 : i64} : (tensor<2x6x2xf32>, tensor<i64>) -> tensor<*xf32>
  // CHECK: onnx.DFT({{.*}}) -> tensor<?x?x2xf32>
  %2 = onnx.DFT(%x, none, %axis_input) : (tensor<2x10x1xf32>, tensor<i64>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @attention
func.func @attention(%q: tensor<2x4x24xf32>, %k: tensor<2x6x12xf32>, %v: tensor<2x6x16xf32>, %pk: tensor<2x2x3x6xf32>, %pv: tensor<2x2x3x8xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // CHECK: onnx.Attention({{.*}}) -> (tensor<2x4x32xf32>, tensor<2x2x9x6xf32>, tensor<2x2x9x8xf32>, tensor<2x4x4x9xf32>)
  %0:4 = onnx.Attention(%q, %k, %v, none, %pk, %pv) {kv_num_heads = 2 : i64, q_num_heads = 4 : i64} : (tensor<2x4x24xf32>, tensor<2x6x12xf32>, tensor<2x6x16xf32>, tensor<2x2x3x6xf32>, tensor<2x2x3x8xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// CHECK-LABEL: func @windows
func.func @windows(%n: tensor<i64>) -> (tensor<*xf64>, tensor<*xf32>, tensor<*xi64>) {
  %size = onnx.Constant() {value = dense<10> : tensor<i64>} : () -> tensor<i64>
  // CHECK: onnx.HannWindow({{.*}}) -> tensor<10xf64>
  %0 = onnx.HannWindow(%size) {output_datatype = 11 : i64} : (tensor<i64>) -> tensor<*xf64>
  // CHECK: onnx.BlackmanWindow({{.*}}) -> tensor<?xf32>
  %1 = onnx.BlackmanWindow(%n) : (tensor<i64>) -> tensor<*xf32>
  // CHECK: onnx.NonMaxSuppression({{.*}}) -> tensor<?x3xi64>
  %b = onnx.Constant() {value = dense<0.0> : tensor<1x6x4xf32>} : () -> tensor<1x6x4xf32>
  %s = onnx.Constant() {value = dense<0.0> : tensor<1x1x6xf32>} : () -> tensor<1x1x6xf32>
  %2 = onnx.NonMaxSuppression(%b, %s) : (tensor<1x6x4xf32>, tensor<1x1x6xf32>) -> tensor<*xi64>
  return %0, %1, %2 : tensor<*xf64>, tensor<*xf32>, tensor<*xi64>
}
