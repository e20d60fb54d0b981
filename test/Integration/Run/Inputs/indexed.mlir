// Indexed reads and writes, data-dependent sizes, and shape inputs known at
// run time only.
func.func @ix(%x: tensor<?x?xf32> {onnx.name = "x"}, %cond: tensor<?xi1> {onnx.name = "cond"},
              %ind: tensor<?x?xi64> {onnx.name = "ind"}, %upd: tensor<?x?xf32> {onnx.name = "upd"},
              %u: tensor<?xf32> {onnx.name = "u"}, %depth: tensor<i64> {onnx.name = "depth"},
              %oh: tensor<?xi64> {onnx.name = "oh"}, %sizes: tensor<2xi64> {onnx.name = "sizes"},
              %eshape: tensor<3xi64> {onnx.name = "eshape"}, %split: tensor<2xi64> {onnx.name = "split"},
              %axes: tensor<1xi64> {onnx.name = "axes"}, %nd: tensor<?x1xi64> {onnx.name = "nd"})
    -> (tensor<2x?xi64> {onnx.name = "nonzero"}, tensor<?x?xf32> {onnx.name = "compress"},
        tensor<?x?xf32> {onnx.name = "scatter_add"}, tensor<?xf32> {onnx.name = "unique"},
        tensor<?xi64> {onnx.name = "indices"}, tensor<?xi64> {onnx.name = "inverse"},
        tensor<?xi64> {onnx.name = "counts"}, tensor<?x?xf32> {onnx.name = "onehot"},
        tensor<?x?xf32> {onnx.name = "resized"}, tensor<?x?x?xf32> {onnx.name = "expanded"},
        tensor<?x?xf32> {onnx.name = "split0"}, tensor<?x?xf32> {onnx.name = "split1"},
        tensor<?x1x?xf32> {onnx.name = "unsqueezed"}, tensor<?x?xf32> {onnx.name = "gather_nd"},
        tensor<?x?xf32> {onnx.name = "scatter_nd"}, tensor<?x?xf32> {onnx.name = "gather_elements"}) {
  %0 = onnx.NonZero(%x) : (tensor<?x?xf32>) -> tensor<2x?xi64>
  %1 = onnx.Compress(%x, %cond) {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?xi1>) -> tensor<?x?xf32>
  %2 = onnx.ScatterElements(%x, %ind, %upd) {axis = 1 : i64, reduction = "add"} : (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %3:4 = onnx.Unique(%u) : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  %vals = onnx.Constant() {value = dense<[0.0, 5.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %4 = onnx.OneHot(%oh, %depth, %vals) : (tensor<?xi64>, tensor<i64>, tensor<2xf32>) -> tensor<?x?xf32>
  %5 = onnx.Resize(%x, none, none, %sizes) {mode = "linear", coordinate_transformation_mode = "align_corners"} : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %6 = onnx.Expand(%x, %eshape) : (tensor<?x?xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  %7:2 = onnx.Split(%x, %split) {axis = 1 : i64} : (tensor<?x?xf32>, tensor<2xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>)
  %8 = onnx.Unsqueeze(%x, %axes) : (tensor<?x?xf32>, tensor<1xi64>) -> tensor<?x1x?xf32>
  %9 = onnx.GatherND(%x, %nd) : (tensor<?x?xf32>, tensor<?x1xi64>) -> tensor<?x?xf32>
  %10 = onnx.ScatterND(%x, %nd, %x) {reduction = "mul"} : (tensor<?x?xf32>, tensor<?x1xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %11 = onnx.GatherElements(%x, %ind) {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %0, %1, %2, %3#0, %3#1, %3#2, %3#3, %4, %5, %6, %7#0, %7#1, %8, %9, %10, %11 : tensor<2x?xi64>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x1x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}
