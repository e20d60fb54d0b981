// Sequences, optionals and strings across the C API (values.test).
module {
  func.func @main(%s: !onnx.seq<tensor<?xf32>> {onnx.name = "s"},
                  %x: tensor<?xf32> {onnx.name = "x"},
                  %o: !onnx.opt<tensor<2xi64>> {onnx.name = "o"},
                  %w: tensor<2x!onnx.string> {onnx.name = "w"},
                  %p: tensor<i64> {onnx.name = "p"})
      -> (!onnx.seq<tensor<?xf32>> {onnx.name = "s2"},
          tensor<?xf32> {onnx.name = "at"},
          tensor<i1> {onnx.name = "has"},
          !onnx.opt<tensor<2xi64>> {onnx.name = "o2"},
          tensor<2x!onnx.string> {onnx.name = "w2"}) {
    %0 = onnx.SequenceInsert(%s, %x) : (!onnx.seq<tensor<?xf32>>, tensor<?xf32>) -> !onnx.seq<tensor<?xf32>>
    %1 = onnx.SequenceAt(%0, %p) : (!onnx.seq<tensor<?xf32>>, tensor<i64>) -> tensor<?xf32>
    %2 = onnx.OptionalHasElement(%o) : (!onnx.opt<tensor<2xi64>>) -> tensor<i1>
    %3 = onnx.Identity(%o) : (!onnx.opt<tensor<2xi64>>) -> !onnx.opt<tensor<2xi64>>
    %4 = onnx.StringConcat(%w, %w) : (tensor<2x!onnx.string>, tensor<2x!onnx.string>) -> tensor<2x!onnx.string>
    return %0, %1, %2, %3, %4 : !onnx.seq<tensor<?xf32>>, tensor<?xf32>, tensor<i1>, !onnx.opt<tensor<2xi64>>, tensor<2x!onnx.string>
  }
}
