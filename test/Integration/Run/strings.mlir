// Strings end to end without string inputs: constants, Equal, StringConcat,
// Cast both ways, a sequence of strings, Reshape moving the pointers.
// RUN: onnx-run %s | FileCheck %s
// Runtime calls keep their loops on the calling thread (its run arena):
// RUN: onnx-run --threads 2 %s | FileCheck %s
// CHECK: eq: bool[3]
// CHECK-NEXT: [True False True]
// CHECK: cat: string[3]
// CHECK-NEXT: ['ab!' 'cd!' 'ab!']
// CHECK: num: float32[3]
// CHECK-NEXT: [1.5 -2. inf]
// CHECK: txt: string[2]
// CHECK-NEXT: ['0.1' '-3']
// CHECK: back: string[1,3]
// CHECK-NEXT: {{\[\[}}'ab' 'cd' 'ab']]
func.func @main() -> (tensor<3xi1> {onnx.name = "eq"}, tensor<3x!onnx.string> {onnx.name = "cat"}, tensor<3xf32> {onnx.name = "num"}, tensor<2x!onnx.string> {onnx.name = "txt"}, tensor<1x3x!onnx.string> {onnx.name = "back"}) {
  %a = onnx.Constant() {value_strings = ["ab", "cd", "ab"]} : () -> tensor<3x!onnx.string>
  %b = onnx.Constant() {value_string = "ab"} : () -> tensor<!onnx.string>
  %bang = onnx.Constant() {value_string = "!"} : () -> tensor<!onnx.string>
  %eq = onnx.Equal(%a, %b) : (tensor<3x!onnx.string>, tensor<!onnx.string>) -> tensor<3xi1>
  %cat = onnx.StringConcat(%a, %bang) : (tensor<3x!onnx.string>, tensor<!onnx.string>) -> tensor<3x!onnx.string>
  %s = onnx.Constant() {value_strings = ["1.5", "-2", "INF"]} : () -> tensor<3x!onnx.string>
  %num = onnx.Cast(%s) {to = 1 : i64} : (tensor<3x!onnx.string>) -> tensor<3xf32>
  %f = onnx.Constant() {value = dense<[0.1, -3.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %txt = onnx.Cast(%f) {to = 8 : i64} : (tensor<2xf32>) -> tensor<2x!onnx.string>
  %seq = onnx.SequenceConstruct(%a, %cat) : (tensor<3x!onnx.string>, tensor<3x!onnx.string>) -> !onnx.seq<tensor<3x!onnx.string>>
  %p = onnx.Constant() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %at = onnx.SequenceAt(%seq, %p) : (!onnx.seq<tensor<3x!onnx.string>>, tensor<i64>) -> tensor<3x!onnx.string>
  %shape = onnx.Constant() {value = dense<[1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %back = onnx.Reshape(%at, %shape) : (tensor<3x!onnx.string>, tensor<2xi64>) -> tensor<1x3x!onnx.string>
  return %eq, %cat, %num, %txt, %back : tensor<3xi1>, tensor<3x!onnx.string>, tensor<3xf32>, tensor<2x!onnx.string>, tensor<1x3x!onnx.string>
}
