// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// Static broadcasting is done by indexing maps; the scalar body is the op's.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_broadcast
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<3xf32>) outs(%[[E]] : tensor<2x3xf32>)
// CHECK: arith.addf
func.func @add_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.Add(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Unsigned tensors become signless; the body uses unsigned arithmetic and
// stops the model on a zero divisor. A dim of 1 broadcasts with a constant
// index.
// CHECK-DAG: #[[BC:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @div_unsigned
// CHECK-SAME: (%[[A:.*]]: tensor<?x3xi8>, %[[B:.*]]: tensor<1x3xi8>) -> tensor<?x3xi8>
// CHECK: %[[D:.*]] = tensor.dim %[[A]], %c0
// CHECK: tensor.empty(%[[D]]) : tensor<?x3xi8>
// CHECK: linalg.generic {{.*}}#[[BC]]
// CHECK: cf.assert {{.*}}, "onnx.Div 'div': integer division by zero"
// CHECK: arith.divui
func.func @div_unsigned(%a: tensor<?x3xui8>, %b: tensor<1x3xui8>) -> tensor<?x3xui8> {
  %0 = onnx.Div(%a, %b) {onnx.name = "div"} : (tensor<?x3xui8>, tensor<1x3xui8>) -> tensor<?x3xui8>
  return %0 : tensor<?x3xui8>
}

// -----

// Two dynamic dims that must agree: the result dim is the one that is not 1,
// checked at run time; an input that may broadcast is read in the body at a
// clamped index.
// CHECK-LABEL: func.func @dynamic_broadcast
// CHECK: %[[DA:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[DB:.*]] = tensor.dim %arg1, %c0
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[DA]], %c1
// CHECK: %[[SIZE:.*]] = arith.select %[[ONE]], %[[DB]], %[[DA]]
// CHECK: cf.assert {{.*}} "onnx.Mul: input dims do not broadcast (dim 0 of the result)"
// CHECK: cf.assert {{.*}} "onnx.Mul: input dims do not broadcast (dim 0 of the result)"
// CHECK: tensor.empty(%[[SIZE]])
// CHECK: linalg.generic
// CHECK-SAME: outs(
// CHECK: linalg.index 0
// CHECK: tensor.extract %arg0
// CHECK: tensor.extract %arg1
// CHECK: arith.mulf
func.func @dynamic_broadcast(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = onnx.Mul(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Dynamic dims with the same symbolic name (graph inputs' dim_params, the
// onnx.dim_params of an op's result) are one size: checked equal at run
// time, both read with indexing maps. Other names, or none, may broadcast.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @named_dims
// CHECK: %[[DA:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[DB:.*]] = tensor.dim %[[B:.*]], %c0
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[DB]], %[[DA]]
// CHECK: cf.assert %[[SAME]], "onnx.Sub: input dims named 'N' differ (dim 0 of the result)"
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[ID]]]
// CHECK-SAME: ins(%arg0, %[[B]] : tensor<?x4xf32>, tensor<?x1xf32>)
// CHECK: arith.subf
// CHECK: "onnx.Add: input dims do not broadcast (dim 0 of the result)"
// CHECK: tensor.extract
func.func @named_dims(%a: tensor<?x4xf32> {onnx.dim_params = ["N", ""]}, %c: tensor<?x1xf32> {onnx.dim_params = ["N", ""]}, %m: tensor<?x1xf32> {onnx.dim_params = ["M", ""]}) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %b = onnx.Neg(%c) {onnx.dim_params = [["N", ""]]} : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %0 = onnx.Sub(%a, %b) : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  %1 = onnx.Add(%a, %m) : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  return %0, %1 : tensor<?x4xf32>, tensor<?x4xf32>
}

// -----

// Comparisons produce i1; integer ones pick the signedness of the inputs.
// CHECK-LABEL: func.func @compare
// CHECK: arith.cmpf olt
// CHECK: arith.cmpi ult
// CHECK: arith.cmpi sge
func.func @compare(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xui32>, %d: tensor<4xi64>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = onnx.Less(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = onnx.Less(%c, %c) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %2 = onnx.GreaterOrEqual(%d, %d) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// Where selects; variadic ops fold their inputs; Mean divides by the count.
// CHECK-LABEL: func.func @where_variadic
// CHECK: arith.select
// CHECK: arith.maximumf
// CHECK: arith.maximumf
// CHECK: arith.addf
// CHECK: arith.constant 2.000000e+00 : f32
// CHECK: arith.divf
func.func @where_variadic(%c: tensor<3xi1>, %a: tensor<3xf32>, %b: tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0 = onnx.Where(%c, %a, %b) : (tensor<3xi1>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %1 = onnx.Max(%a, %b, %0) : (tensor<3xf32>, tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = onnx.Mean(%a, %b) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Initializers and constants become arith.constant (unsigned data is
// reinterpreted, not copied); Identity forwards its input.
// CHECK-LABEL: func.func @constants
// CHECK-NOT: ml_program
// CHECK-DAG: arith.constant dense<[1, 2]> : tensor<2xi8>
// CHECK-DAG: arith.constant dense<1.500000e+00> : tensor<f32>
// CHECK: return %arg0
ml_program.global private @w(dense<[1, 2]> : tensor<2xui8>) : tensor<2xui8>
func.func @constants(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xui8>, tensor<f32>) {
  %w = ml_program.global_load_const @w : tensor<2xui8>
  %c = onnx.Constant() {value_float = 1.5 : f32} : () -> tensor<f32>
  %i = onnx.Identity(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %i, %w, %c : tensor<2xf32>, tensor<2xui8>, tensor<f32>
}

// -----

// An input dim known at run time only, under a result dim a declared type
// makes static: a run-time 1 broadcasts (it is read in the body, at 0),
// never read as 4 elements.
// CHECK-LABEL: func.func @declared_broadcast
// CHECK: cf.assert %{{.*}}, "onnx.Add: input dims do not broadcast (dim 0 of the result)"
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<1xf32>)
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %{{.*}}, %c1
// CHECK: %[[I:.*]] = arith.select %[[ONE]], %c0{{.*}}, %{{.*}} : index
// CHECK: tensor.extract %arg0[%[[I]]] : tensor<?xf32>
func.func @declared_broadcast(%x: tensor<?xf32>, %y: tensor<1xf32>) -> tensor<4xf32> {
  %0 = onnx.Add(%x, %y) : (tensor<?xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
