// Conv whose bias length is known at run time only.
func.func @conv(%x: tensor<1x1x3x3xf32> {onnx.name = "x"}, %w: tensor<2x1x2x2xf32> {onnx.name = "w"},
                %b: tensor<?xf32> {onnx.name = "b"}) -> (tensor<1x2x2x2xf32> {onnx.name = "y"}) {
  %y = onnx.Conv(%x, %w, %b) {onnx.name = "conv"} : (tensor<1x1x3x3xf32>, tensor<2x1x2x2xf32>, tensor<?xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}
