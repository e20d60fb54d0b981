// RUN: onnx-opt %s --convert-onnx-to-linalg --canonicalize --split-input-file | FileCheck %s

// Size is the product of the dims.
// CHECK-LABEL: func.func @size
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[N:.*]] = arith.muli %[[D]], %c3
// CHECK: %[[I:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: tensor.from_elements %[[I]] : tensor<i64>
func.func @size(%a: tensor<?x3xf32>) -> tensor<i64> {
  %0 = onnx.Size(%a) : (tensor<?x3xf32>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// A constant shape with -1 groups the dims statically.
// CHECK-LABEL: func.func @reshape_const
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
func.func @reshape_const(%a: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %s = arith.constant dense<[-1, 4]> : tensor<2xi64>
  %0 = onnx.Reshape(%a, %s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// A shape known at run time: 0 copies the input dim, -1 is inferred, the
// element count and the statically inferred dim are checked.
// CHECK-LABEL: func.func @reshape_runtime
// CHECK: tensor.extract %arg1[%c0] : tensor<3xi64>
// CHECK: cf.assert {{.*}}, "onnx.Reshape: a value of the shape is below -1"
// CHECK: cf.assert {{.*}}, "onnx.Reshape: a 0 in the shape copies a dim the input does not have"
// CHECK: cf.assert {{.*}}, "onnx.Reshape: more than one -1 in the shape"
// CHECK: arith.divui
// CHECK: cf.assert {{.*}}, "onnx.Reshape: dim 2 of the new shape is not 2 (the inferred size)"
// CHECK: cf.assert {{.*}}, "onnx.Reshape: the new shape does not have as many elements as the input"
// CHECK: %[[S:.*]] = tensor.from_elements {{.*}} : tensor<3xindex>
// CHECK: tensor.reshape %arg0(%[[S]]) : (tensor<?x4xf32>, tensor<3xindex>) -> tensor<?x?x2xf32>
func.func @reshape_runtime(%a: tensor<?x4xf32>, %s: tensor<3xi64>) -> tensor<?x?x2xf32> {
  %0 = onnx.Reshape(%a, %s) : (tensor<?x4xf32>, tensor<3xi64>) -> tensor<?x?x2xf32>
  return %0 : tensor<?x?x2xf32>
}

// -----

// CHECK-LABEL: func.func @flatten
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0], [1, 2]] : tensor<2x3x?xf32> into tensor<2x?xf32>
func.func @flatten(%a: tensor<2x3x?xf32>) -> tensor<2x?xf32> {
  %0 = onnx.Flatten(%a) : (tensor<2x3x?xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// CHECK-LABEL: func.func @squeeze
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : tensor<1x?x1xf32> into tensor<?xf32>
func.func @squeeze(%a: tensor<1x?x1xf32>) -> tensor<?xf32> {
  %ax = arith.constant dense<[0, -1]> : tensor<2xi64>
  %0 = onnx.Squeeze(%a, %ax) : (tensor<1x?x1xf32>, tensor<2xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A dynamic dim to squeeze is checked to be 1.
// CHECK-LABEL: func.func @squeeze_dynamic
// CHECK: cf.assert {{.*}}, "onnx.Squeeze: dim 0 to squeeze is not 1"
// CHECK: tensor.cast %arg0 : tensor<?x3xf32> to tensor<1x3xf32>
// CHECK: tensor.collapse_shape
func.func @squeeze_dynamic(%a: tensor<?x3xf32>) -> tensor<3xf32> {
  %ax = arith.constant dense<[0]> : tensor<1xi64>
  %0 = onnx.Squeeze(%a, %ax) : (tensor<?x3xf32>, tensor<1xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @unsqueeze
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c0
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0, 1], [2, 3]] output_shape [1, %[[D]], 3, 1] : tensor<?x3xf32> into tensor<1x?x3x1xf32>
func.func @unsqueeze(%a: tensor<?x3xf32>) -> tensor<1x?x3x1xf32> {
  %ax = arith.constant dense<[0, 3]> : tensor<2xi64>
  %0 = onnx.Unsqueeze(%a, %ax) : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<1x?x3x1xf32>
  return %0 : tensor<1x?x3x1xf32>
}

// -----

// Axes known at run time: the result dims are picked by position.
// CHECK-LABEL: func.func @unsqueeze_runtime
// CHECK: cf.assert {{.*}}, "onnx.Unsqueeze: an axis is out of range"
// CHECK: cf.assert {{.*}}, "onnx.Unsqueeze: the number of axes does not match the result rank"
// CHECK: tensor.reshape %arg0
func.func @unsqueeze_runtime(%a: tensor<?xf32>, %ax: tensor<1xi64>) -> tensor<?x?xf32> {
  %0 = onnx.Unsqueeze(%a, %ax) : (tensor<?xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Expand broadcasts against the shape's sizes (read at run time).
// CHECK-DAG: #[[BC:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @expand
// CHECK: arith.index_cast {{.*}} : i64 to index
// CHECK: %[[S1:.*]] = arith.index_cast {{.*}} : i64 to index
// CHECK: cf.assert {{.*}}, "onnx.Expand: a negative value in the shape"
// CHECK: cf.assert {{.*}}, "onnx.Expand: input dims do not broadcast (dim 0 of the result)"
// CHECK: %[[E:.*]] = tensor.empty(%[[S1]]) : tensor<3x?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[BC]], {{.*}}]{{.*}} ins(%arg0 : tensor<3x1xf32>) outs(%[[E]] : tensor<3x?xf32>)
func.func @expand(%a: tensor<3x1xf32>, %s: tensor<2xi64>) -> tensor<3x?xf32> {
  %0 = onnx.Expand(%a, %s) : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// -----

// CHECK-LABEL: func.func @constant_of_shape
// CHECK-SAME: -> tensor<?x?xi8>
// CHECK: %[[V:.*]] = arith.constant 7 : i8
// CHECK: cf.assert {{.*}}, "onnx.ConstantOfShape: a negative value in the shape"
// CHECK: %[[E:.*]] = tensor.empty({{.*}}) : tensor<?x?xi8>
// CHECK: linalg.fill ins(%[[V]] : i8) outs(%[[E]] : tensor<?x?xi8>)
func.func @constant_of_shape(%s: tensor<2xi64>) -> tensor<?x?xui8> {
  %0 = onnx.ConstantOfShape(%s) {value = dense<7> : tensor<1xui8>} : (tensor<2xi64>) -> tensor<?x?xui8>
  return %0 : tensor<?x?xui8>
}

// -----

// The count is ceil((limit - start) / delta) (at least 0), in i64.
// CHECK-LABEL: func.func @range
// CHECK: cf.assert {{.*}}, "onnx.Range: delta is 0"
// CHECK: arith.ceildivsi {{.*}} : i64
// CHECK: %[[N:.*]] = arith.index_cast {{.*}} : i64 to index
// CHECK: tensor.empty(%[[N]]) : tensor<?xi32>
// CHECK: linalg.generic
// CHECK: linalg.index 0
// CHECK: arith.muli
// CHECK: arith.addi
func.func @range(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>) -> tensor<?xi32> {
  %0 = onnx.Range(%a, %b, %c) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

// A dynamic input reshaped to a static shape: the count is checked at run
// time, and the flat tensor is cast to its static size before the expand.
// CHECK-LABEL: func.func @reshape_dynamic_to_static
// CHECK: cf.assert {{.*}}"onnx.Reshape: the new shape does not have as many elements as the input"
// CHECK: %[[F:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<?x48xf32> into tensor<?xf32>
// CHECK: %[[C:.*]] = tensor.cast %[[F]] : tensor<?xf32> to tensor<288xf32>
// CHECK: tensor.expand_shape %[[C]] {{\[\[}}0, 1, 2, 3]] output_shape [2, 3, 6, 8] : tensor<288xf32> into tensor<2x3x6x8xf32>
func.func @reshape_dynamic_to_static(%x: tensor<?x48xf32>) -> tensor<2x3x6x8xf32> {
  %s = onnx.Constant() {value = dense<[2, 3, 6, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = onnx.Reshape(%x, %s) : (tensor<?x48xf32>, tensor<4xi64>) -> tensor<2x3x6x8xf32>
  return %0 : tensor<2x3x6x8xf32>
}
