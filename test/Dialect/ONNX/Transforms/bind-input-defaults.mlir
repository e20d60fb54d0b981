// RUN: onnx-opt %s --onnx-bind-input-defaults --split-input-file --verify-diagnostics | FileCheck %s

// An input with an initializer default becomes a load of the initializer and
// leaves the signature; the others stay.
// CHECK-LABEL: func.func @graph
// CHECK-SAME: (%arg0: tensor<4x10xf32> {onnx.name = "x"}) -> tensor<4x8xf32>
// CHECK: %[[W:.*]] = ml_program.global_load_const @w : tensor<8x10xf32>
// CHECK: onnx.Gemm(%arg0, %[[W]])
module {
  ml_program.global private @w(dense<1.0> : tensor<8x10xf32>) : tensor<8x10xf32> {onnx.name = "w"}
  func.func @graph(%x: tensor<4x10xf32> {onnx.name = "x"}, %w: tensor<8x10xf32> {onnx.default = @w, onnx.name = "w"}) -> tensor<4x8xf32> {
    %0 = onnx.Gemm(%x, %w) {transB = 1 : i64} : (tensor<4x10xf32>, tensor<8x10xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}

// -----

module {
  ml_program.global private @w(dense<1.0> : tensor<8xf32>) : tensor<8xf32> {onnx.name = "w"}
  // expected-error @+1 {{input 0 has type 'tensor<8xi64>' but its default @w has type 'tensor<8xf32>'}}
  func.func @wrong_type(%w: tensor<8xi64> {onnx.default = @w, onnx.name = "w"}) -> tensor<8xi64> {
    return %w : tensor<8xi64>
  }
}

// -----

module {
  ml_program.global private mutable @w(dense<1.0> : tensor<8xf32>) : tensor<8xf32> {onnx.name = "w"}
  // expected-error @+1 {{input 0 names the default @w, which is not an immutable initializer}}
  func.func @mutable(%w: tensor<8xf32> {onnx.default = @w, onnx.name = "w"}) -> tensor<8xf32> {
    return %w : tensor<8xf32>
  }
}
