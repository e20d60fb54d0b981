// A value whose declared type (4 elements) disagrees with its run-time size.
func.func @declared(%x: tensor<?xf32> {onnx.name = "x"}) -> (tensor<?xf32> {onnx.name = "y"}) {
  %i = onnx.Identity(%x) {onnx.name = "id"} : (tensor<?xf32>) -> tensor<4xf32>
  %n = onnx.Neg(%i) {onnx.name = "neg"} : (tensor<4xf32>) -> tensor<4xf32>
  %y = onnx.Abs(%n) {onnx.name = "abs"} : (tensor<4xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
