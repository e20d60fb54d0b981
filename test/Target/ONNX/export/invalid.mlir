// RUN: not onnx-translate --export %s -split-input-file 2>&1 | FileCheck %s
// What the exporter refuses, with the place named.

// CHECK: error: the module has no 'onnx.opset_import'
module {
}

// -----

// CHECK: error: the module has no 'onnx.entry' function to export
module attributes {onnx.opset_import = {ai.onnx = 21 : i64}} {
}

// -----

// CHECK: error: op 'func.call' has no ONNX counterpart to export
module attributes {onnx.entry = @main, onnx.opset_import = {ai.onnx = 21 : i64}} {
  func.func private @other(tensor<2xf32>) -> tensor<2xf32>
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = func.call @other(%x) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

// -----

// CHECK: error: no ONNX type for 'index'
module attributes {onnx.entry = @main, onnx.opset_import = {ai.onnx = 21 : i64}} {
  func.func @main(%x: index) -> index {
    return %x : index
  }
}

// -----

// CHECK: error: Clip-13 is not the version that opset 11 of 'ai.onnx' selects (onnx.Clip_v11); convert the ops or change onnx.opset_import
module attributes {onnx.entry = @main, onnx.opset_import = {ai.onnx = 11 : i64}} {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = onnx.Clip(%x) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

// -----

// CHECK: error: the model imports no opset of domain 'ai.onnx.ml'
module attributes {onnx.entry = @main, onnx.opset_import = {ai.onnx = 21 : i64}} {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = onnx.ml.Normalizer(%x) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

// -----

// An If whose branch onnx-infer-shapes replaced by a failure at run time
// (the branch yields placeholders): exporting it would drop the failure.
// CHECK: error: a branch of this If was replaced by a failure at run time (onnx.branch_errors, set by onnx-infer-shapes); export the model before that pass
module attributes {onnx.entry = @main, onnx.opset_import = {ai.onnx = 25 : i64}} {
  func.func @main(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = onnx.If(%c) {onnx.branch_errors = {then_branch = "why"}} : (tensor<i1>) -> tensor<2xf32> else_branch {
      onnx.yield %x : tensor<2xf32>
    } then_branch {
      %p = onnx.Constant() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
      onnx.yield %p : tensor<2xf32>
    }
    return %0 : tensor<2xf32>
  }
}
