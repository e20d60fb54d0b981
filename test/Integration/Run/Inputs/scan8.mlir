// Scan-8 over a batch of two with sequence_lens [3, 2]: one scan input read
// forward, the same one read in reverse; the state sums the forward steps.
module attributes {onnx.ir_version = 3 : i64, onnx.opset_import = {ai.onnx = 8 : i64}} {
  func.func @scan8(%lens: tensor<?xi64> {onnx.name = "lens"}, %init: tensor<?x2xf32> {onnx.name = "init"},
                   %x: tensor<?x?x2xf32> {onnx.name = "x"})
      -> (tensor<?x2xf32> {onnx.name = "final"}, tensor<?x?x2xf32> {onnx.name = "sums"},
          tensor<?x?x2xf32> {onnx.name = "reversed"}) {
    %0:3 = onnx.Scan_v8(%lens, %init, %x, %x) {num_scan_inputs = 2 : i64, directions = array<i64: 0, 1>, onnx.outputs = ["final", "sums", "reversed"]}
        : (tensor<?xi64>, tensor<?x2xf32>, tensor<?x?x2xf32>, tensor<?x?x2xf32>) -> (tensor<?x2xf32>, tensor<?x?x2xf32>, tensor<?x?x2xf32>) body {
    ^bb0(%s: tensor<2xf32>, %a: tensor<2xf32>, %r: tensor<2xf32>):
      %t = onnx.Add_v7(%s, %a) {onnx.outputs = ["t"]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      %u = onnx.Identity_v1(%t) {onnx.outputs = ["u"]} : (tensor<2xf32>) -> tensor<2xf32>
      %v = onnx.Identity_v1(%r) {onnx.outputs = ["v"]} : (tensor<2xf32>) -> tensor<2xf32>
      onnx.yield {onnx.inputs = ["s", "a", "r"]} %t, %u, %v : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
    }
    return %0#0, %0#1, %0#2 : tensor<?x2xf32>, tensor<?x?x2xf32>, tensor<?x?x2xf32>
  }
}
