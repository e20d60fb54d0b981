// RUN: onnx-opt %s --convert-onnx-to-linalg --canonicalize --split-input-file | FileCheck %s

// Indices go through an indexing map; a negative index wraps, one outside
// [-s, s-1] fails the run, and the read is clamped into the tensor.
// CHECK-DAG: #[[IND:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @gather
// CHECK: linalg.generic {indexing_maps = [#[[IND]], {{.*}}]{{.*}} ins(%arg1 : tensor<2x3xi64>)
// CHECK: %[[J:.*]] = linalg.index 2
// CHECK: %[[I:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[I]], %c0
// CHECK: %[[W:.*]] = arith.addi %[[I]], %c5
// CHECK: %[[R:.*]] = arith.select %[[NEG]], %[[W]], %[[I]]
// CHECK: cf.assert {{.*}}, "onnx.Gather 'g': index out of range"
// CHECK: %[[LO:.*]] = arith.maxsi %[[R]], %c0
// CHECK: %[[C:.*]] = arith.minsi %[[LO]], %c4
// CHECK: tensor.extract %arg0[%[[C]], %[[J]]] : tensor<5x?xf32>
func.func @gather(%a: tensor<5x?xf32>, %i: tensor<2x3xi64>) -> tensor<2x3x?xf32> {
  %0 = onnx.Gather(%a, %i) {onnx.name = "g"} : (tensor<5x?xf32>, tensor<2x3xi64>) -> tensor<2x3x?xf32>
  return %0 : tensor<2x3x?xf32>
}

// -----

// CHECK-LABEL: func.func @gather_elements
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<2x2xi32>)
// CHECK: cf.assert {{.*}}, "onnx.GatherElements: index out of range"
// CHECK: tensor.extract %arg0[%{{.*}}, %{{.*}}] : tensor<3x3xf32>
func.func @gather_elements(%a: tensor<3x3xf32>, %i: tensor<2x2xi32>) -> tensor<2x2xf32> {
  %0 = onnx.GatherElements(%a, %i) {axis = 1 : i64} : (tensor<3x3xf32>, tensor<2x2xi32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// batch_dims = 1: the batch index is the output's, the rest comes from the
// indices' last dim.
// CHECK-LABEL: func.func @gather_nd
// CHECK: %[[B:.*]] = linalg.index 0
// CHECK: %[[K:.*]] = linalg.index 1
// CHECK: tensor.extract %arg1[%[[B]], %c0] : tensor<2x1xi64>
// CHECK: cf.assert {{.*}}, "onnx.GatherND: index out of range"
// CHECK: tensor.extract %arg0[%[[B]], %{{.*}}, %[[K]]] : tensor<2x3x4xf32>
func.func @gather_nd(%a: tensor<2x3x4xf32>, %i: tensor<2x1xi64>) -> tensor<2x4xf32> {
  %0 = onnx.GatherND(%a, %i) {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Updates are applied in order by a loop carrying the tensor; max on an
// unsigned type compares unsigned.
// CHECK-LABEL: func.func @scatter_elements
// CHECK: scf.for {{.*}} iter_args(%[[T:.*]] = %arg0) -> (tensor<3x3xi8>)
// CHECK: cf.assert {{.*}}, "onnx.ScatterElements: index out of range"
// CHECK: %[[U:.*]] = tensor.extract %arg2
// CHECK: %[[OLD:.*]] = tensor.extract %[[T]]
// CHECK: %[[NEW:.*]] = arith.maxui %[[OLD]], %[[U]] : i8
// CHECK: tensor.insert %[[NEW]] into %[[T]]
func.func @scatter_elements(%a: tensor<3x3xui8>, %i: tensor<1x2xi32>, %u: tensor<1x2xui8>) -> tensor<3x3xui8> {
  %0 = onnx.ScatterElements(%a, %i, %u) {axis = 1 : i64, reduction = "max"} : (tensor<3x3xui8>, tensor<1x2xi32>, tensor<1x2xui8>) -> tensor<3x3xui8>
  return %0 : tensor<3x3xui8>
}

// -----

// ScatterND: the slice index is read once per update slice.
// CHECK-LABEL: func.func @scatter_nd
// CHECK: scf.for {{.*}} -> (tensor<4x3xf32>)
// CHECK: tensor.extract %arg1
// CHECK: cf.assert {{.*}}, "onnx.ScatterND: index out of range"
// CHECK: scf.for {{.*}} -> (tensor<4x3xf32>)
// CHECK: arith.addf
// CHECK: tensor.insert
func.func @scatter_nd(%a: tensor<4x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %0 = onnx.ScatterND(%a, %i, %u) {reduction = "add"} : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Float indices are truncated; negative ones count from depth; depth is read
// at run time.
// CHECK-LABEL: func.func @one_hot
// CHECK: %[[D:.*]] = tensor.extract %arg1[%c0] : tensor<1xi64>
// CHECK: cf.assert {{.*}}, "onnx.OneHot: depth is not positive"
// CHECK: %[[N:.*]] = arith.index_cast %[[D]] : i64 to index
// CHECK: %[[OFF:.*]] = tensor.extract %arg2[%c0]
// CHECK: %[[ON:.*]] = tensor.extract %arg2[%c1]
// CHECK: tensor.empty(%[[N]]) : tensor<3x?xi32>
// CHECK: linalg.generic
// CHECK: arith.fptosi {{.*}} : f32 to i64
// CHECK: arith.select {{.*}}, %[[ON]], %[[OFF]] : i32
func.func @one_hot(%i: tensor<3xf32>, %d: tensor<1xi64>, %v: tensor<2xi32>) -> tensor<3x?xi32> {
  %0 = onnx.OneHot(%i, %d, %v) : (tensor<3xf32>, tensor<1xi64>, tensor<2xi32>) -> tensor<3x?xi32>
  return %0 : tensor<3x?xi32>
}

// -----

// NonZero counts first, then fills the [rank, count] result.
// CHECK-LABEL: func.func @non_zero
// CHECK: %[[N:.*]] = scf.for {{.*}} -> (index)
// CHECK: arith.cmpi ne
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<2x?xi64>
// CHECK: scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %[[E]]) -> (index, tensor<2x?xi64>)
// CHECK: scf.if
// CHECK: tensor.insert
func.func @non_zero(%a: tensor<2x?xi32>) -> tensor<2x?xi64> {
  %0 = onnx.NonZero(%a) : (tensor<2x?xi32>) -> tensor<2x?xi64>
  return %0 : tensor<2x?xi64>
}

// -----

// Unique: first occurrences, the unique items, their sorted order, then the
// outputs.
// CHECK-LABEL: func.func @unique
// CHECK-COUNT-4: scf.for
// CHECK: linalg.generic
// CHECK: return {{.*}} : tensor<?xi32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
func.func @unique(%a: tensor<6xi32>) -> (tensor<?xi32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) {
  %0:4 = onnx.Unique(%a) : (tensor<6xi32>) -> (tensor<?xi32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  return %0#0, %0#1, %0#2, %0#3 : tensor<?xi32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
}

// -----

// TensorScatter, linear mode: each write index is checked first (the update
// must fit in the cache); then one generic over the cache reads the update
// (under scf.if) where s - write_indices[b] is inside it.
// CHECK-LABEL: func.func @tensor_scatter
// CHECK: scf.for %[[B:.*]] = %c0 to %c2
// CHECK: tensor.extract %arg2[%[[B]]] : tensor<2xi64>
// CHECK: cf.assert {{.*}}, "onnx.TensorScatter 'ts': write index out of range
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<2x1x4x5xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[I0:.*]] = linalg.index 0
// CHECK: %[[I2:.*]] = linalg.index 2
// CHECK: %[[I3:.*]] = linalg.index 3
// CHECK: %[[W:.*]] = tensor.extract %arg2[%[[I0]]] : tensor<2xi64>
// CHECK: %[[WI:.*]] = arith.index_cast %[[W]]
// CHECK: %[[J:.*]] = arith.subi %[[I2]], %[[WI]]
// CHECK: %[[IF:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK: %[[U:.*]] = tensor.extract %arg1[%[[I0]], %c0, %[[J]], %[[I3]]] : tensor<2x1x1x5xf32>
// CHECK: scf.yield %[[U]]
// CHECK: } else {
// CHECK: scf.yield %[[IN]]
// CHECK: linalg.yield %[[IF]]
func.func @tensor_scatter(%p: tensor<2x1x4x5xf32>, %u: tensor<2x1x1x5xf32>, %w: tensor<2xi64>) -> tensor<2x1x4x5xf32> {
  %0 = onnx.TensorScatter(%p, %u, %w) {onnx.name = "ts", mode = "linear"} : (tensor<2x1x4x5xf32>, tensor<2x1x1x5xf32>, tensor<2xi64>) -> tensor<2x1x4x5xf32>
  return %0 : tensor<2x1x4x5xf32>
}

// -----

// Circular mode, no write_indices (0), dynamic dims: the position modulo
// the cache length; the update's dims are checked at run time.
// CHECK-LABEL: func.func @tensor_scatter_circular
// CHECK: %[[LEN:.*]] = tensor.dim %arg1, %c1 : tensor<?x?x3xi8>
// CHECK: cf.assert {{.*}}, "onnx.TensorScatter: update and past_cache differ in dim 0"
// CHECK: cf.assert {{.*}}, "onnx.TensorScatter: update is longer than past_cache along axis"
// CHECK: linalg.generic
// CHECK: %[[I1:.*]] = linalg.index 1
// CHECK: %[[R:.*]] = arith.remsi %[[I1]], %c4
// CHECK: %[[J:.*]] = arith.select %{{.*}}, %{{.*}}, %[[R]]
// CHECK: arith.cmpi slt, %[[J]], %[[LEN]]
// CHECK: scf.if
// CHECK: tensor.extract %arg1[%{{.*}}, %[[J]], %{{.*}}] : tensor<?x?x3xi8>
func.func @tensor_scatter_circular(%p: tensor<?x4x3xui8>, %u: tensor<?x?x3xui8>) -> tensor<?x4x3xui8> {
  %0 = onnx.TensorScatter(%p, %u, none) {axis = 1 : i64, mode = "circular"} : (tensor<?x4x3xui8>, tensor<?x?x3xui8>) -> tensor<?x4x3xui8>
  return %0 : tensor<?x4x3xui8>
}

// -----

// MaxUnpool: zeros of the unpooled size ((2 - 1) * 2 + 2 = 4 per spatial
// dim), X written at I's flat indices (checked), reshaped.
// CHECK-LABEL: func.func @max_unpool
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16xf32>)
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2, 3]] : tensor<1x1x2x2xf32> into tensor<4xf32>
// CHECK: %[[I:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1, 2, 3]] : tensor<1x1x2x2xi64> into tensor<4xi64>
// CHECK: %[[R:.*]] = scf.for %[[K:.*]] = %c0 to %c4 step %c1 iter_args(%[[ACC:.*]] = %[[Z]]) -> (tensor<16xf32>)
// CHECK: %[[IK:.*]] = tensor.extract %[[I]][%[[K]]]
// CHECK: cf.assert {{.*}}, "onnx.MaxUnpool 'mu': index out of range"
// CHECK: %[[XK:.*]] = tensor.extract %[[X]][%[[K]]]
// CHECK: tensor.insert %[[XK]] into %[[ACC]]
// CHECK: tensor.expand_shape %[[R]] {{\[\[}}0, 1, 2, 3]] output_shape [1, 1, 4, 4]
func.func @max_unpool(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32> {
  %0 = onnx.MaxUnpool(%x, %i) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, onnx.name = "mu"} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// With an output_shape known at run time: checked to hold the unpooled
// shape, which is inserted at its beginning.
// CHECK-LABEL: func.func @max_unpool_output_shape
// CHECK: %[[S2:.*]] = tensor.extract %arg2[%c2] : tensor<3xi64>
// CHECK: %[[D2:.*]] = arith.index_cast %[[S2]] : i64 to index
// CHECK: cf.assert {{.*}}, "onnx.MaxUnpool: output_shape is smaller than the unpooled shape in dim 0"
// CHECK: cf.assert {{.*}}, "onnx.MaxUnpool: output_shape is smaller than the unpooled shape in dim 2"
// CHECK: %[[R:.*]] = scf.for {{.*}} -> (tensor<4xf16>)
// CHECK: %[[U:.*]] = tensor.expand_shape %[[R]] {{\[\[}}0, 1, 2]] output_shape [1, 1, 4]
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}, %{{.*}}, %[[D2]]) : tensor<?x?x?xf16>
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%[[E]]
// CHECK: tensor.insert_slice %[[U]] into %[[Z]][0, 0, 0] [1, 1, 4] [1, 1, 1]
func.func @max_unpool_output_shape(%x: tensor<1x1x2xf16>, %i: tensor<1x1x2xi64>, %s: tensor<3xi64>) -> tensor<?x?x?xf16> {
  %0 = onnx.MaxUnpool(%x, %i, %s) {kernel_shape = array<i64: 2>, strides = array<i64: 2>} : (tensor<1x1x2xf16>, tensor<1x1x2xi64>, tensor<3xi64>) -> tensor<?x?x?xf16>
  return %0 : tensor<?x?x?xf16>
}
