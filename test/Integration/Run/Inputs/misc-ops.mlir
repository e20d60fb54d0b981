// Det, TensorScatter and MaxUnpool with dims known at run time only.
func.func @misc(%d: tensor<?x?x?xf32> {onnx.name = "d"}, %past: tensor<?x?x?xf32> {onnx.name = "past"},
                %upd: tensor<?x?x?xf32> {onnx.name = "upd"}, %wc: tensor<?xi64> {onnx.name = "wc"},
                %wl: tensor<?xi64> {onnx.name = "wl"}, %x: tensor<?x?x?xf32> {onnx.name = "x"},
                %i: tensor<?x?x?xi64> {onnx.name = "i"}, %shape: tensor<3xi64> {onnx.name = "shape"})
    -> (tensor<?xf32> {onnx.name = "det"}, tensor<?x?x?xf32> {onnx.name = "circular"},
        tensor<?x?x?xf32> {onnx.name = "linear"}, tensor<?x?x?xf32> {onnx.name = "unpooled"},
        tensor<?x?x?xf32> {onnx.name = "unpooled_shape"}) {
  %0 = onnx.Det(%d) : (tensor<?x?x?xf32>) -> tensor<?xf32>
  %1 = onnx.TensorScatter(%past, %upd, %wc) {axis = 1 : i64, mode = "circular"} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?xi64>) -> tensor<?x?x?xf32>
  %2 = onnx.TensorScatter(%past, %upd, %wl) {axis = 1 : i64, onnx.name = "ts"} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?xi64>) -> tensor<?x?x?xf32>
  %3 = onnx.MaxUnpool(%x, %i) {kernel_shape = array<i64: 2>, strides = array<i64: 2>, onnx.name = "mu"} : (tensor<?x?x?xf32>, tensor<?x?x?xi64>) -> tensor<?x?x?xf32>
  %4 = onnx.MaxUnpool(%x, %i, %shape) {kernel_shape = array<i64: 2>, strides = array<i64: 2>} : (tensor<?x?x?xf32>, tensor<?x?x?xi64>, tensor<3xi64>) -> tensor<?x?x?xf32>
  return %0, %1, %2, %3, %4 : tensor<?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>
}
