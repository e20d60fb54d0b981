// RUN: onnx-opt %s --onnx-convert-opset --split-input-file -verify-diagnostics

module attributes {onnx.opset_import = {ai.onnx = 9 : i64}} {
  func.func @legacy_broadcast_unranked(%a: tensor<*xf32>, %b: tensor<3xf32>) -> tensor<*xf32> {
    // expected-error @+1 {{'onnx.Add_v6' op cannot be converted from Add-6 to Add-7: legacy broadcasting along axis 1 needs the ranks of both inputs}}
    %0 = onnx.Add_v6(%a, %b) {broadcast = 1 : i64, axis = 1 : i64} : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xf32>
    return %0 : tensor<*xf32>
  }
}

// -----

module attributes {onnx.opset_import = {ai.onnx = 8 : i64}} {
  func.func @scan8_lens_unranked(%l: tensor<1xi64>, %s: tensor<1x2xf32>, %x: tensor<1x3x2xf32>) -> tensor<*xf32> {
    // expected-error @+1 {{'onnx.Scan_v8' op cannot be converted from Scan-8 to Scan-25: with sequence_lens, scan output 0 needs a known rank (to pad it to the longest sequence)}}
    %0:2 = onnx.Scan_v8(%l, %s, %x) {num_scan_inputs = 1 : i64} : (tensor<1xi64>, tensor<1x2xf32>, tensor<1x3x2xf32>) -> (tensor<1x2xf32>, tensor<*xf32>) body {
    ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
      %t = onnx.Add(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      onnx.yield %t, %t : tensor<2xf32>, tensor<2xf32>
    }
    return %0#1 : tensor<*xf32>
  }
}

// -----

module attributes {onnx.opset_import = {ai.onnx = 8 : i64}} {
  func.func @scan8_directions(%s: tensor<1x2xf32>, %x: tensor<1x3x2xf32>) -> tensor<1x2xf32> {
    // expected-error @+1 {{'onnx.Scan_v8' op cannot be converted from Scan-8 to Scan-25: directions has 2 entries for 1 scan inputs}}
    %0:2 = onnx.Scan_v8(none, %s, %x) {num_scan_inputs = 1 : i64, directions = array<i64: 0, 1>} : (tensor<1x2xf32>, tensor<1x3x2xf32>) -> (tensor<1x2xf32>, tensor<1x3x2xf32>) body {
    ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
      %t = onnx.Add(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      onnx.yield %t, %t : tensor<2xf32>, tensor<2xf32>
    }
    return %0#0 : tensor<1x2xf32>
  }
}

// -----

module attributes {onnx.opset_import = {ai.onnx = 9 : i64}} {
  func.func @bn_training_outputs(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<3xf32> {
    // expected-error @+1 {{cannot be converted from BatchNormalization-9 to BatchNormalization-14: the training outputs}}
    %0:3 = onnx.BatchNormalization_v9(%x, %s, %s, %s, %s) : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
    return %0#1 : tensor<3xf32>
  }
}
