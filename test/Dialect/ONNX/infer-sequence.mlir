// RUN: onnx-opt %s --onnx-infer-shapes=fold=false | FileCheck %s
// Inference of the sequence and optional operators: a sequence's element
// type keeps the dims that all of its elements share.

// CHECK-LABEL: func @sequences
func.func @sequences(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>, %p: tensor<i64>) -> (!onnx.seq<tensor<*xf32>>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>) {
  // CHECK: onnx.SequenceConstruct(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<2x4xf32>) -> !onnx.seq<tensor<2x?xf32>>
  %0 = onnx.SequenceConstruct(%a, %b) : (tensor<2x3xf32>, tensor<2x4xf32>) -> !onnx.seq<tensor<*xf32>>
  // CHECK: onnx.SequenceAt(%{{.*}}, %{{.*}}) : (!onnx.seq<tensor<2x?xf32>>, tensor<i64>) -> tensor<2x?xf32>
  %1 = onnx.SequenceAt(%0, %p) : (!onnx.seq<tensor<*xf32>>, tensor<i64>) -> tensor<*xf32>
  // CHECK: onnx.SequenceLength(%{{.*}}) : (!onnx.seq<tensor<2x?xf32>>) -> tensor<i64>
  %2 = onnx.SequenceLength(%0) : (!onnx.seq<tensor<*xf32>>) -> tensor<*xi64>
  // CHECK: onnx.ConcatFromSequence(%{{.*}}) {axis = 0 : i64, new_axis = 1 : i64} : (!onnx.seq<tensor<2x?xf32>>) -> tensor<?x2x?xf32>
  %3 = onnx.ConcatFromSequence(%0) {axis = 0 : i64, new_axis = 1 : i64} : (!onnx.seq<tensor<*xf32>>) -> tensor<*xf32>
  return %0, %1, %2, %3 : !onnx.seq<tensor<*xf32>>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>
}

// CHECK-LABEL: func @empty_insert_split
func.func @empty_insert_split(%a: tensor<3x6xf32>) -> (!onnx.seq<tensor<*xf32>>, !onnx.seq<tensor<*xf32>>, !onnx.seq<tensor<*xf32>>) {
  // CHECK: onnx.SequenceEmpty() {dtype = 1 : i64} : () -> !onnx.seq<tensor<*xf32>>
  %0 = onnx.SequenceEmpty() {dtype = 1 : i64} : () -> !onnx.seq<tensor<*xf32>>
  // Inserting into an empty sequence: the new element is all it holds.
  // CHECK: onnx.SequenceInsert(%{{.*}}, %{{.*}}) : (!onnx.seq<tensor<*xf32>>, tensor<3x6xf32>) -> !onnx.seq<tensor<3x6xf32>>
  %1 = onnx.SequenceInsert(%0, %a) : (!onnx.seq<tensor<*xf32>>, tensor<3x6xf32>) -> !onnx.seq<tensor<*xf32>>
  %s = onnx.Constant() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  // CHECK: onnx.SplitToSequence(%{{.*}}, %{{.*}}) {axis = 1 : i64} : (tensor<3x6xf32>, tensor<i64>) -> !onnx.seq<tensor<3x2xf32>>
  %2 = onnx.SplitToSequence(%a, %s) {axis = 1 : i64} : (tensor<3x6xf32>, tensor<i64>) -> !onnx.seq<tensor<*xf32>>
  return %0, %1, %2 : !onnx.seq<tensor<*xf32>>, !onnx.seq<tensor<*xf32>>, !onnx.seq<tensor<*xf32>>
}

// CHECK-LABEL: func @optionals
func.func @optionals(%a: tensor<2x?xf32>) -> (!onnx.opt<tensor<*xf32>>, tensor<*xi1>, tensor<*xf32>) {
  // CHECK: onnx.Optional(%{{.*}}) : (tensor<2x?xf32>) -> !onnx.opt<tensor<2x?xf32>>
  %0 = onnx.Optional(%a) : (tensor<2x?xf32>) -> !onnx.opt<tensor<*xf32>>
  // CHECK: onnx.OptionalHasElement(%{{.*}}) : (!onnx.opt<tensor<2x?xf32>>) -> tensor<i1>
  %1 = onnx.OptionalHasElement(%0) : (!onnx.opt<tensor<*xf32>>) -> tensor<*xi1>
  // CHECK: onnx.OptionalGetElement(%{{.*}}) : (!onnx.opt<tensor<2x?xf32>>) -> tensor<2x?xf32>
  %2 = onnx.OptionalGetElement(%0) : (!onnx.opt<tensor<*xf32>>) -> tensor<*xf32>
  return %0, %1, %2 : !onnx.opt<tensor<*xf32>>, tensor<*xi1>, tensor<*xf32>
}

// CHECK-LABEL: func @sequence_map
func.func @sequence_map(%s: !onnx.seq<tensor<?x?xf32>>) -> !onnx.seq<tensor<*xi64>> {
  // CHECK: onnx.SequenceMap(%{{.*}}) : (!onnx.seq<tensor<?x?xf32>>) -> !onnx.seq<tensor<2xi64>>
  %0 = onnx.SequenceMap(%s) : (!onnx.seq<tensor<?x?xf32>>) -> !onnx.seq<tensor<*xi64>> body {
  ^bb0(%x: tensor<?x?xf32>):
    %1 = onnx.Shape(%x) : (tensor<?x?xf32>) -> tensor<*xi64>
    onnx.yield %1 : tensor<*xi64>
  }
  return %0 : !onnx.seq<tensor<*xi64>>
}

// A sequence of unknown contents keeps only the dims its elements share.
// CHECK-LABEL: func @insert
func.func @insert(%s: !onnx.seq<tensor<2x?xf32>>, %a: tensor<2x6xf32>, %b: tensor<3x6xf32>) -> (!onnx.seq<tensor<*xf32>>, !onnx.seq<tensor<*xf32>>) {
  // CHECK: onnx.SequenceInsert(%{{.*}}, %{{.*}}) : (!onnx.seq<tensor<2x?xf32>>, tensor<2x6xf32>) -> !onnx.seq<tensor<2x?xf32>>
  %0 = onnx.SequenceInsert(%s, %a) : (!onnx.seq<tensor<2x?xf32>>, tensor<2x6xf32>) -> !onnx.seq<tensor<*xf32>>
  // CHECK: onnx.SequenceInsert(%{{.*}}, %{{.*}}) : (!onnx.seq<tensor<2x?xf32>>, tensor<3x6xf32>) -> !onnx.seq<tensor<?x?xf32>>
  %1 = onnx.SequenceInsert(%0, %b) : (!onnx.seq<tensor<*xf32>>, tensor<3x6xf32>) -> !onnx.seq<tensor<*xf32>>
  return %0, %1 : !onnx.seq<tensor<*xf32>>, !onnx.seq<tensor<*xf32>>
}
