// RUN: onnx-opt %s --convert-onnx-to-linalg --canonicalize --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @transpose
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<4x2x?xf32>
// CHECK: linalg.transpose ins(%arg0 : tensor<2x?x4xf32>) outs(%[[E]] : tensor<4x2x?xf32>) permutation = [2, 0, 1]
func.func @transpose(%a: tensor<2x?x4xf32>) -> tensor<4x2x?xf32> {
  %0 = onnx.Transpose(%a) {perm = array<i64: 2, 0, 1>} : (tensor<2x?x4xf32>) -> tensor<4x2x?xf32>
  return %0 : tensor<4x2x?xf32>
}

// -----

// The default perm reverses the dims.
// CHECK-LABEL: func.func @transpose_default
// CHECK: linalg.transpose {{.*}} permutation = [2, 1, 0]
func.func @transpose_default(%a: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %0 = onnx.Transpose(%a) : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  return %0 : tensor<4x3x2xf32>
}

// -----

// Dynamic dims off the axis must agree at run time.
// CHECK-LABEL: func.func @concat
// CHECK: cf.assert {{.*}}, "onnx.Concat: inputs differ in dim 1"
// CHECK: tensor.concat dim(0) %arg0, %arg1 : (tensor<2x?xf32>, tensor<3x?xf32>) -> tensor<5x?xf32>
func.func @concat(%a: tensor<2x?xf32>, %b: tensor<3x?xf32>) -> tensor<5x?xf32> {
  %0 = onnx.Concat(%a, %b) {axis = 0 : i64} : (tensor<2x?xf32>, tensor<3x?xf32>) -> tensor<5x?xf32>
  return %0 : tensor<5x?xf32>
}

// -----

// CHECK-LABEL: func.func @split
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c0
// CHECK: tensor.extract_slice %arg0[0, 0] [%[[D]], 4] [1, 1] : tensor<?x6xf32> to tensor<?x4xf32>
// CHECK: tensor.extract_slice %arg0[0, 4] [%[[D]], 2] [1, 1] : tensor<?x6xf32> to tensor<?x2xf32>
func.func @split(%a: tensor<?x6xf32>) -> (tensor<?x4xf32>, tensor<?x2xf32>) {
  %s = arith.constant dense<[4, 2]> : tensor<2xi64>
  %0:2 = onnx.Split(%a, %s) {axis = 1 : i64} : (tensor<?x6xf32>, tensor<2xi64>) -> (tensor<?x4xf32>, tensor<?x2xf32>)
  return %0#0, %0#1 : tensor<?x4xf32>, tensor<?x2xf32>
}

// -----

// num_outputs: ceil(7 / 3) each, the last smaller.
// CHECK-LABEL: func.func @split_num_outputs
// CHECK: tensor.extract_slice %arg0[0] [3] [1]
// CHECK: tensor.extract_slice %arg0[3] [3] [1]
// CHECK: tensor.extract_slice %arg0[6] [1] [1]
func.func @split_num_outputs(%a: tensor<7xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<1xf32>) {
  %0:3 = onnx.Split(%a) {num_outputs = 3 : i64} : (tensor<7xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<1xf32>)
  return %0#0, %0#1, %0#2 : tensor<3xf32>, tensor<3xf32>, tensor<1xf32>
}

// -----

// Ends past the dim are clamped; a positive step is a strided slice.
// CHECK-LABEL: func.func @slice_static
// CHECK: tensor.extract_slice %arg0[1, 0] [3, 8] [3, 1] : tensor<10x8xf32> to tensor<3x8xf32>
func.func @slice_static(%a: tensor<10x8xf32>) -> tensor<3x8xf32> {
  %st = arith.constant dense<[1]> : tensor<1xi64>
  %en = arith.constant dense<[100]> : tensor<1xi64>
  %ax = arith.constant dense<[0]> : tensor<1xi64>
  %sp = arith.constant dense<[3]> : tensor<1xi64>
  %0 = onnx.Slice(%a, %st, %en, %ax, %sp) : (tensor<10x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

// A negative step reads data[start + i * step] (start -1 is 9).
// CHECK-LABEL: func.func @slice_negative_step
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[M:.*]] = arith.muli %[[I]], %c-2
// CHECK: %[[A:.*]] = arith.addi %[[M]], %c9
// CHECK: tensor.extract %arg0[%[[A]]] : tensor<10xf32>
func.func @slice_negative_step(%a: tensor<10xf32>) -> tensor<5xf32> {
  %st = arith.constant dense<[-1]> : tensor<1xi64>
  %en = arith.constant dense<[-100]> : tensor<1xi64>
  %sp = arith.constant dense<[-2]> : tensor<1xi64>
  %0 = onnx.Slice(%a, %st, %en, none, %sp) : (tensor<10xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Starts and ends known at run time: negative values count from the end and
// are clamped into the dim.
// CHECK-LABEL: func.func @slice_runtime
// CHECK: tensor.extract %arg1
// CHECK: tensor.extract %arg2
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: tensor.extract_slice %arg0[%{{.*}}] [%{{.*}}] [1] : tensor<?xf32> to tensor<?xf32>
func.func @slice_runtime(%a: tensor<?xf32>, %st: tensor<1xi64>, %en: tensor<1xi64>) -> tensor<?xf32> {
  %0 = onnx.Slice(%a, %st, %en) : (tensor<?xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @pad_constant
// CHECK: %[[V:.*]] = tensor.extract %arg1[] : tensor<f32>
// CHECK: tensor.pad %arg0 low[1, 0] high[2, 3]
// CHECK: tensor.yield %[[V]] : f32
// CHECK: } : tensor<2x?xf32> to tensor<5x?xf32>
func.func @pad_constant(%a: tensor<2x?xf32>, %v: tensor<f32>) -> tensor<5x?xf32> {
  %p = arith.constant dense<[1, 0, 2, 3]> : tensor<4xi64>
  %0 = onnx.Pad(%a, %p, %v) : (tensor<2x?xf32>, tensor<4xi64>, tensor<f32>) -> tensor<5x?xf32>
  return %0 : tensor<5x?xf32>
}

// -----

// Negative pads crop before padding; axes select the padded dims.
// CHECK-LABEL: func.func @pad_crop
// CHECK: %[[S:.*]] = tensor.extract_slice %arg0[0, 1] [4, 5] [1, 1] : tensor<4x6xf32> to tensor<4x5xf32>
// CHECK: tensor.pad %[[S]] low[0, 0] high[0, 1]
func.func @pad_crop(%a: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %p = arith.constant dense<[-1, 1]> : tensor<2xi64>
  %ax = arith.constant dense<[1]> : tensor<1xi64>
  %0 = onnx.Pad(%a, %p, none, %ax) : (tensor<4x6xf32>, tensor<2xi64>, tensor<1xi64>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// Reflect maps the index into the period 2 (n - 1).
// CHECK-LABEL: func.func @pad_reflect
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[J:.*]] = arith.subi %[[I]], %c2
// CHECK: arith.remsi %[[J]], %c6
// CHECK: tensor.extract %arg0
func.func @pad_reflect(%a: tensor<4xf32>) -> tensor<7xf32> {
  %p = arith.constant dense<[2, 1]> : tensor<2xi64>
  %0 = onnx.Pad(%a, %p) {mode = "reflect"} : (tensor<4xf32>, tensor<2xi64>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

// Tile: broadcast to [r0, n0, r1, n1], collapse the pairs.
// CHECK-LABEL: func.func @tile
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x2x3x3xf32>
// CHECK: %[[B:.*]] = linalg.broadcast ins(%arg0 : tensor<2x3xf32>) outs(%[[E]] : tensor<2x2x3x3xf32>) dimensions = [0, 2]
// CHECK: tensor.collapse_shape %[[B]] {{\[\[}}0, 1], [2, 3]] : tensor<2x2x3x3xf32> into tensor<4x9xf32>
func.func @tile(%a: tensor<2x3xf32>) -> tensor<4x9xf32> {
  %r = arith.constant dense<[2, 3]> : tensor<2xi64>
  %0 = onnx.Tile(%a, %r) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}

// -----

// CHECK-LABEL: func.func @depth_to_space_crd
// CHECK: %[[X:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2, 3], [4], [5]] output_shape [1, 2, 2, 2, 2, 3]
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[X]] : tensor<1x2x2x2x2x3xf32>) {{.*}} permutation = [0, 1, 4, 2, 5, 3]
// CHECK: tensor.collapse_shape %[[T]] {{\[\[}}0], [1], [2, 3], [4, 5]] : tensor<1x2x2x2x3x2xf32> into tensor<1x2x4x6xf32>
func.func @depth_to_space_crd(%a: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %0 = onnx.DepthToSpace(%a) {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x4x6xf32>
}

// -----

// DCR (the default) splits the channels block-first.
// CHECK-LABEL: func.func @depth_to_space_dcr
// CHECK: linalg.transpose {{.*}} permutation = [0, 3, 4, 1, 5, 2]
func.func @depth_to_space_dcr(%a: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %0 = onnx.DepthToSpace(%a) {blocksize = 2 : i64} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x4x6xf32>
}

// -----

// CHECK-LABEL: func.func @space_to_depth
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0], [1], [2, 3], [4, 5]]
// CHECK: linalg.transpose {{.*}} permutation = [0, 3, 5, 1, 2, 4]
// CHECK: tensor.collapse_shape {{.*}} {{\[\[}}0], [1, 2, 3], [4], [5]]
func.func @space_to_depth(%a: tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32> {
  %0 = onnx.SpaceToDepth(%a) {blocksize = 2 : i64} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
  return %0 : tensor<1x8x2x3xf32>
}

// -----

// A dynamic height must divide by the blocksize.
// CHECK-LABEL: func.func @space_to_depth_dynamic
// CHECK: cf.assert {{.*}}, "onnx.SpaceToDepth: the height does not divide by blocksize"
func.func @space_to_depth_dynamic(%a: tensor<1x2x?x6xf32>) -> tensor<1x8x?x3xf32> {
  %0 = onnx.SpaceToDepth(%a) {blocksize = 2 : i64} : (tensor<1x2x?x6xf32>) -> tensor<1x8x?x3xf32>
  return %0 : tensor<1x8x?x3xf32>
}

// -----

// Trilu with k known at run time keeps j - i <= k (lower).
// CHECK-LABEL: func.func @trilu
// CHECK: %[[K:.*]] = arith.index_cast {{.*}} : i64 to index
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: %[[D:.*]] = arith.subi %[[J]], %[[I]]
// CHECK: arith.cmpi sle, %[[D]], %[[K]]
func.func @trilu(%a: tensor<3x4xi32>, %k: tensor<i64>) -> tensor<3x4xi32> {
  %0 = onnx.Trilu(%a, %k) {upper = 0 : i64} : (tensor<3x4xi32>, tensor<i64>) -> tensor<3x4xi32>
  return %0 : tensor<3x4xi32>
}

// -----

// CHECK-LABEL: func.func @eye_like
// CHECK: linalg.generic
// CHECK: arith.cmpi eq, %{{.*}}, %c1
// CHECK: arith.extui {{.*}} : i1 to i32
func.func @eye_like(%a: tensor<3x4xf32>) -> tensor<3x4xi32> {
  %0 = onnx.EyeLike(%a) {k = 1 : i64, dtype = 6 : i64} : (tensor<3x4xf32>) -> tensor<3x4xi32>
  return %0 : tensor<3x4xi32>
}

// -----

// Compress counts the selected slices, lists their positions, then gathers.
// CHECK-LABEL: func.func @compress
// CHECK: %[[N:.*]] = scf.for {{.*}} -> (index)
// CHECK: %[[P:.*]] = tensor.empty(%[[N]]) : tensor<?xindex>
// CHECK: %[[L:.*]]:2 = scf.for
// CHECK: tensor.insert
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<3x?xf32>
// CHECK: linalg.generic {{.*}} ins(%[[L]]#1 : tensor<?xindex>) outs(%[[E]] : tensor<3x?xf32>)
// CHECK: tensor.extract %arg0
func.func @compress(%a: tensor<3x?xf32>, %c: tensor<?xi1>) -> tensor<3x?xf32> {
  %0 = onnx.Compress(%a, %c) {axis = 1 : i64} : (tensor<3x?xf32>, tensor<?xi1>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// -----

// CHECK-LABEL: func.func @reverse_sequence
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<2xi64>)
// CHECK: cf.assert {{.*}}, "onnx.ReverseSequence: a sequence length is out of range"
// CHECK: tensor.extract %arg0
func.func @reverse_sequence(%a: tensor<4x2xf32>, %l: tensor<2xi64>) -> tensor<4x2xf32> {
  %0 = onnx.ReverseSequence(%a, %l) {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<4x2xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// Col2Im gathers: the kernel positions are reduction loops (bounds from an
// unused tensor of the block shape), a column element is added where the
// block it belongs to lands on the output position.
// CHECK-LABEL: func.func @col2im
// CHECK: %[[Z:.*]] = linalg.fill {{.*}} -> tensor<1x1x5x5xf32>
// CHECK: %[[K:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[K]] : tensor<2x2xf32>) outs(%[[Z]] : tensor<1x1x5x5xf32>)
// CHECK: tensor.extract %arg0
// CHECK: arith.select
// CHECK: arith.addf
func.func @col2im(%a: tensor<1x4x16xf32>) -> tensor<1x1x5x5xf32> {
  %img = arith.constant dense<[5, 5]> : tensor<2xi64>
  %blk = arith.constant dense<[2, 2]> : tensor<2xi64>
  %0 = onnx.Col2Im(%a, %img, %blk) : (tensor<1x4x16xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x5x5xf32>
  return %0 : tensor<1x1x5x5xf32>
}

// -----

// An empty slice at the end of a dim starts at 0 (extract_slice rejects an
// offset equal to the dim's size).
// CHECK-LABEL: func.func @slice_empty_at_end
// CHECK: tensor.extract_slice %arg0[0, 0] [2, 0] [1, 1] : tensor<2x8xf32> to tensor<2x0xf32>
func.func @slice_empty_at_end(%a: tensor<2x8xf32>) -> tensor<2x0xf32> {
  %st = onnx.Constant() {value = dense<8> : tensor<1xi64>} : () -> tensor<1xi64>
  %en = onnx.Constant() {value = dense<8> : tensor<1xi64>} : () -> tensor<1xi64>
  %ax = onnx.Constant() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.Slice(%a, %st, %en, %ax) : (tensor<2x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x0xf32>
  return %0 : tensor<2x0xf32>
}
