// RUN: onnx-translate --export %s -o %t.onnx
// RUN: onnx-translate --import %t.onnx | FileCheck %s
// RUN: onnx-translate --export --onnx-text %s | FileCheck %s --check-prefix=TEXT
// MLIR written by hand exports to a model that imports back to the same ops;
// values without ONNX names get fresh ones.

// CHECK: module attributes {onnx.entry = @main, onnx.ir_version = 10 : i64, onnx.opset_import = {ai.onnx = 27 : i64, com.example = 1 : i64}, onnx.producer_name = "test"}
// CHECK: ml_program.global private @w(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) : tensor<2xf32> {onnx.name = "w"}
// CHECK: func.func @main(%arg0: tensor<?x2xf32> {onnx.dim_params = ["N", ""], onnx.name = "x"}, %arg1: tensor<i1> {onnx.name = "c"})
// CHECK: %[[W:.*]] = ml_program.global_load_const @w
// CHECK: %[[A:.*]] = onnx.Add(%arg0, %[[W]]) {onnx.name = "add", onnx.outputs = ["sum"]} : (tensor<?x2xf32>, tensor<2xf32>) -> tensor<?x2xf32>
// CHECK: %[[C:.*]] = onnx.Clip(%[[A]], none, %{{.*}}) {onnx.outputs = ["_v{{[0-9]+}}"]}
// CHECK: onnx.custom "com.example" "Op"(%[[C]]) {k = 3 : i64, onnx.outputs = ["_v{{[0-9]+}}"]}
// CHECK: onnx.If(%arg1) {onnx.outputs = ["y"]} : (tensor<i1>) -> tensor<?x2xf32> else_branch {
// CHECK: onnx.yield {onnx.name = "else_branch"} %[[A]] : tensor<?x2xf32>
// CHECK: } then_branch {
// CHECK: onnx.Neg
// TEXT: ir_version: 10
// TEXT: input: "sum"
// TEXT-NEXT: input: ""
// TEXT-NEXT: input: "{{.+}}"
// TEXT-NEXT: output: "{{.+}}"
// TEXT-NEXT: op_type: "Clip"
module attributes {onnx.entry = @main, onnx.ir_version = 10 : i64, onnx.opset_import = {ai.onnx = 27 : i64, com.example = 1 : i64}, onnx.producer_name = "test"} {
  ml_program.global private @w(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32> {onnx.name = "w"}
  func.func @main(%x: tensor<?x2xf32> {onnx.name = "x", onnx.dim_params = ["N", ""]}, %c: tensor<i1> {onnx.name = "c"}) -> (tensor<?x2xf32> {onnx.name = "y"}) {
    %w = ml_program.global_load_const @w : tensor<2xf32>
    %sum = onnx.Add(%x, %w) {onnx.name = "add", onnx.outputs = ["sum"]} : (tensor<?x2xf32>, tensor<2xf32>) -> tensor<?x2xf32>
    %hi = onnx.Constant() {value = dense<4.0> : tensor<f32>} : () -> tensor<f32>
    %clip = onnx.Clip(%sum, none, %hi) : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
    %op = onnx.custom "com.example" "Op"(%clip) {k = 3 : i64} : (tensor<?x2xf32>) -> (tensor<?x2xf32>)
    %y = onnx.If(%c) {onnx.outputs = ["y"]} : (tensor<i1>) -> tensor<?x2xf32> else_branch {
      onnx.yield %sum : tensor<?x2xf32>
    } then_branch {
      %n = onnx.Neg(%op) : (tensor<?x2xf32>) -> tensor<?x2xf32>
      onnx.yield %n : tensor<?x2xf32>
    }
    return %y : tensor<?x2xf32>
  }
}
