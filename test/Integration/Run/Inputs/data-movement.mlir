// Data movement ops with dims and shape-like inputs known at run time only.
func.func @dm(%x: tensor<?x?xf32> {onnx.name = "x"}, %shape: tensor<2xi64> {onnx.name = "shape"},
              %starts: tensor<2xi64> {onnx.name = "starts"}, %ends: tensor<2xi64> {onnx.name = "ends"},
              %steps: tensor<2xi64> {onnx.name = "steps"}, %pads: tensor<4xi64> {onnx.name = "pads"},
              %idx: tensor<?xi64> {onnx.name = "idx"}, %reps: tensor<2xi64> {onnx.name = "reps"})
    -> (tensor<?x?xf32> {onnx.name = "reshaped"}, tensor<?x?xf32> {onnx.name = "sliced"},
        tensor<?x?xf32> {onnx.name = "reflect"}, tensor<?x?xf32> {onnx.name = "constant"},
        tensor<?x?xf32> {onnx.name = "gathered"}, tensor<?x?xf32> {onnx.name = "tiled"},
        tensor<?x?xf32> {onnx.name = "wrap"}, tensor<?x?xf32> {onnx.name = "edge"}) {
  %0 = onnx.Reshape(%x, %shape) : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %1 = onnx.Slice(%x, %starts, %ends, none, %steps) : (tensor<?x?xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  %2 = onnx.Pad(%x, %pads) {mode = "reflect"} : (tensor<?x?xf32>, tensor<4xi64>) -> tensor<?x?xf32>
  %3 = onnx.Pad(%x, %pads) : (tensor<?x?xf32>, tensor<4xi64>) -> tensor<?x?xf32>
  %4 = onnx.Gather(%x, %idx) {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  %5 = onnx.Tile(%x, %reps) : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %6 = onnx.Pad(%x, %pads) {mode = "wrap"} : (tensor<?x?xf32>, tensor<4xi64>) -> tensor<?x?xf32>
  %7 = onnx.Pad(%x, %pads) {mode = "edge"} : (tensor<?x?xf32>, tensor<4xi64>) -> tensor<?x?xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}
