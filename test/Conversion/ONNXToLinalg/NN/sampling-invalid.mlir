// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

func.func @roi_align_unranked(%x: tensor<*xf32>, %r: tensor<3x4xf32>, %bi: tensor<3xi64>) -> tensor<3x2x1x1xf32> {
  // expected-error @+1 {{onnx.RoiAlign 'roi': operand #0 has an unknown rank}}
  %0 = onnx.RoiAlign(%x, %r, %bi) {onnx.name = "roi"} : (tensor<*xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return %0 : tensor<3x2x1x1xf32>
}

// -----

func.func @roi_align_unknown_mode(%x: tensor<1x2x8x8xf32>, %r: tensor<3x4xf32>, %bi: tensor<3xi64>) -> tensor<3x2x1x1xf32> {
  // expected-error @+2 {{onnx.RoiAlign: cannot lower: unknown mode 'min'}}
  // expected-error @+1 {{failed to legalize operation 'onnx.RoiAlign'}}
  %0 = onnx.RoiAlign(%x, %r, %bi) {mode = "min"} : (tensor<1x2x8x8xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return %0 : tensor<3x2x1x1xf32>
}

// -----

func.func @roi_align_unknown_transformation(%x: tensor<1x2x8x8xf32>, %r: tensor<3x4xf32>, %bi: tensor<3xi64>) -> tensor<3x2x1x1xf32> {
  // expected-error @+2 {{onnx.RoiAlign: cannot lower: unknown coordinate_transformation_mode 'asymmetric'}}
  // expected-error @+1 {{failed to legalize operation 'onnx.RoiAlign'}}
  %0 = onnx.RoiAlign(%x, %r, %bi) {coordinate_transformation_mode = "asymmetric"} : (tensor<1x2x8x8xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return %0 : tensor<3x2x1x1xf32>
}

// -----

// The verifier refuses a negative sampling_ratio before the lowering sees it.
func.func @roi_align_negative_ratio(%x: tensor<1x2x8x8xf32>, %r: tensor<3x4xf32>, %bi: tensor<3xi64>) -> tensor<3x2x1x1xf32> {
  // expected-error @+1 {{'onnx.RoiAlign' op attribute 'sampling_ratio' must be in [0, 2147483647], got -1}}
  %0 = onnx.RoiAlign(%x, %r, %bi) {sampling_ratio = -1 : i64} : (tensor<1x2x8x8xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return %0 : tensor<3x2x1x1xf32>
}

// -----

func.func @roi_align_five_coordinates(%x: tensor<1x2x8x8xf32>, %r: tensor<3x5xf32>, %bi: tensor<3xi64>) -> tensor<3x2x1x1xf32> {
  // expected-error @+2 {{onnx.RoiAlign: cannot lower: rois must have 4 coordinates}}
  // expected-error @+1 {{failed to legalize operation 'onnx.RoiAlign'}}
  %0 = onnx.RoiAlign(%x, %r, %bi) : (tensor<1x2x8x8xf32>, tensor<3x5xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  return %0 : tensor<3x2x1x1xf32>
}

// -----

func.func @deform_conv_unranked(%x: tensor<*xf32>, %w: tensor<2x1x3x3xf32>, %o: tensor<1x18x2x2xf32>) -> tensor<1x2x2x2xf32> {
  // expected-error @+1 {{onnx.DeformConv 'dc': operand #0 has an unknown rank}}
  %0 = onnx.DeformConv(%x, %w, %o) {onnx.name = "dc"} : (tensor<*xf32>, tensor<2x1x3x3xf32>, tensor<1x18x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

func.func @deform_conv_any_offset(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x3x3xf32>, %o: !onnx.any) -> tensor<?x?x?x?xf32> {
  // expected-error @+2 {{onnx.DeformConv: cannot lower: expected ranked tensors}}
  // expected-error @+1 {{failed to legalize operation 'onnx.DeformConv'}}
  %0 = onnx.DeformConv(%x, %w, %o) : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>, !onnx.any) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @deform_conv_offset_group_zero(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x3x3xf32>, %o: tensor<1x18x2x2xf32>) -> tensor<1x2x2x2xf32> {
  // expected-error @+2 {{onnx.DeformConv: cannot lower: group and offset_group must be positive}}
  // expected-error @+1 {{failed to legalize operation 'onnx.DeformConv'}}
  %0 = onnx.DeformConv(%x, %w, %o) {offset_group = 0 : i64} : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>, tensor<1x18x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

func.func @deform_conv_mask_rank(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x3x3xf32>, %o: tensor<1x18x2x2xf32>, %m: tensor<1x9xf32>) -> tensor<1x2x2x2xf32> {
  // expected-error @+2 {{onnx.DeformConv: cannot lower: mask must have the rank of X}}
  // expected-error @+1 {{failed to legalize operation 'onnx.DeformConv'}}
  %0 = onnx.DeformConv(%x, %w, %o, none, %m) : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>, tensor<1x18x2x2xf32>, tensor<1x9xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}
