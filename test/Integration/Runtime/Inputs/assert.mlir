// A run-time check: the dynamic dims of a and b must agree.
#map = affine_map<(d0) -> (d0)>
module {
  func.func @check(%a: tensor<?xf32> {onnx.name = "a"}, %b: tensor<?xf32> {onnx.name = "b"})
      -> (tensor<?xf32> {onnx.name = "y"}) {
    %c0 = arith.constant 0 : index
    %n = tensor.dim %a, %c0 : tensor<?xf32>
    %m = tensor.dim %b, %c0 : tensor<?xf32>
    %ok = arith.cmpi eq, %n, %m : index
    cf.assert %ok, "Add node 'y': dim 0 of 'a' and 'b' do not broadcast"
    %e = tensor.empty(%n) : tensor<?xf32>
    %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
        ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.mulf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<?xf32>
    return %r : tensor<?xf32>
  }
}
