// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file -verify-diagnostics

func.func @at_unknown_rank(%s: !onnx.seq<tensor<*xf32>>, %p: tensor<i64>) -> tensor<*xf32> {
  // expected-error @+1 {{onnx.SequenceAt: result #0 has an unknown rank (run onnx-infer-shapes)}}
  %0 = onnx.SequenceAt(%s, %p) : (!onnx.seq<tensor<*xf32>>, tensor<i64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @map_unranked(%s: !onnx.seq<tensor<*xf32>>) -> !onnx.seq<tensor<*xf32>> {
  // expected-error @+2 {{onnx.SequenceMap: cannot lower: the body's arguments need known ranks}}
  // expected-error @+1 {{failed to legalize operation 'onnx.SequenceMap'}}
  %0 = onnx.SequenceMap(%s) : (!onnx.seq<tensor<*xf32>>) -> !onnx.seq<tensor<*xf32>> body {
  ^bb0(%a: tensor<*xf32>):
    onnx.yield %a : tensor<*xf32>
  }
  return %0 : !onnx.seq<tensor<*xf32>>
}
