// A model at the linalg level: y = a + b with a dynamic dim named N, and the
// first input returned as is (the runtime must hand out a copy).
#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {onnx.entry = @add} {
  func.func @add(%a: tensor<?x4xf32> {onnx.name = "a", onnx.dim_params = ["N", ""]},
                 %b: tensor<?x4xf32> {onnx.name = "b", onnx.dim_params = ["N", ""]})
      -> (tensor<?x4xf32> {onnx.name = "y"}, tensor<?x4xf32> {onnx.name = "a_copy"},
          tensor<2xi64> {onnx.name = "c"}) {
    %c0 = arith.constant 0 : index
    %n = tensor.dim %a, %c0 : tensor<?x4xf32>
    %e = tensor.empty(%n) : tensor<?x4xf32>
    %r = linalg.generic {indexing_maps = [#map, #map, #map],
                         iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<?x4xf32>, tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<?x4xf32>
    %c = arith.constant dense<[7, -7]> : tensor<2xi64>
    return %r, %a, %c : tensor<?x4xf32>, tensor<?x4xf32>, tensor<2xi64>
  }
}
