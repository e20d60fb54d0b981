// RUN: onnx-opt %s --convert-onnx-to-linalg --canonicalize --split-input-file | FileCheck %s

// NonMaxSuppression with a constant max_output_boxes_per_class of 2: a
// buffer of 2 batches * 2 classes * min(6, 2) rows; loops over batches and
// classes, then up to 6 picks per class, each a search for the best
// remaining box above score_threshold and a scan of the boxes already kept
// for the class (IoU against iou_threshold); the result is the slice of
// the rows written.
// CHECK-LABEL: func.func @nms
// CHECK-DAG: %[[IOU:.*]] = tensor.extract %arg2[%c0] : tensor<1xf32>
// CHECK-DAG: %[[ST:.*]] = tensor.extract %arg3[%c0] : tensor<1xf32>
// CHECK-DAG: %[[BUF:.*]] = tensor.empty() : tensor<8x3xi64>
// CHECK-DAG: %[[FLAGS:.*]] = tensor.empty() : tensor<6xi1>
// CHECK: %[[ALL:.*]]:2 = scf.for %[[N:.*]] = %c0 to %c2 step %c1 iter_args(%{{.*}} = %[[BUF]], %{{.*}} = %c0) -> (tensor<8x3xi64>, index) {
// CHECK: scf.for %[[C:.*]] = %c0 to %c2 step %c1
// CHECK: linalg.fill ins(%false : i1) outs(%[[FLAGS]] : tensor<6xi1>)
// CHECK: scf.for {{.*}} -> (tensor<8x3xi64>, index, tensor<6xi1>, i1) {
// CHECK: scf.if
// CHECK: scf.for {{.*}} -> (index, f32) {
// CHECK: %[[S:.*]] = tensor.extract %arg1[%[[N]], %[[C]], %{{.*}}] : tensor<2x2x6xf32>
// CHECK: arith.cmpf ogt, %[[S]], %[[ST]] : f32
// CHECK: tensor.insert %true into
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %false) -> (i1) {
// CHECK: arith.divf
// CHECK: arith.cmpf ogt, %{{.*}}, %[[IOU]] : f32
// CHECK: tensor.insert %{{.*}} into %{{.*}}[%{{.*}}, %c2] : tensor<8x3xi64>
// CHECK: tensor.extract_slice %[[ALL]]#0[0, 0] [%[[ALL]]#1, 3] [1, 1] : tensor<8x3xi64> to tensor<?x3xi64>
func.func @nms(%b: tensor<2x6x4xf32>, %s: tensor<2x2x6xf32>, %iou: tensor<1xf32>, %st: tensor<1xf32>) -> tensor<?x3xi64> {
  %m = onnx.Constant() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.NonMaxSuppression(%b, %s, %m, %iou, %st) : (tensor<2x6x4xf32>, tensor<2x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

// Dynamic shapes, center boxes, a max known at run time: the shapes are
// checked, the buffer has batches * classes * boxes rows and the corners
// are center -/+ size / 2.
// CHECK-LABEL: func.func @nms_dynamic_center
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: cf.assert %{{.*}}, "onnx.NonMaxSuppression: boxes and scores have different batches or boxes"
// CHECK: cf.assert %{{.*}}, "onnx.NonMaxSuppression: boxes must have 4 coordinates"
// CHECK: %[[M:.*]] = tensor.extract %arg2[] : tensor<i64>
// CHECK: %[[R0:.*]] = arith.muli
// CHECK: %[[ROWS:.*]] = arith.muli %[[R0]]
// CHECK: tensor.empty(%[[ROWS]]) : tensor<?x3xi64>
// CHECK: scf.for
// CHECK: %[[HW:.*]] = arith.divf %{{.*}}, %[[TWO]] : f32
// CHECK: %[[HH:.*]] = arith.divf %{{.*}}, %[[TWO]] : f32
// CHECK: arith.subf %{{.*}}, %[[HW]] : f32
// CHECK: arith.subf %{{.*}}, %[[HH]] : f32
// CHECK: arith.addf %{{.*}}, %[[HW]] : f32
// CHECK: arith.addf %{{.*}}, %[[HH]] : f32
func.func @nms_dynamic_center(%b: tensor<?x?x?xf32>, %s: tensor<?x?x?xf32>, %m: tensor<i64>) -> tensor<?x3xi64> {
  %0 = onnx.NonMaxSuppression(%b, %s, %m) {center_point_box = 1 : i64} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<i64>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

// A static result: the number of rows written is checked against it and
// the buffer is returned whole.
// CHECK-LABEL: func.func @nms_static_result
// CHECK: %[[R:.*]]:4 = scf.for {{.*}} -> (tensor<2x3xi64>, index, tensor<6xi1>, i1)
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[R]]#1, %c2 : index
// CHECK: cf.assert %[[OK]], "onnx.NonMaxSuppression: the number of selected boxes is not the inferred 2"
// CHECK: return %[[R]]#0 : tensor<2x3xi64>
func.func @nms_static_result(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>) -> tensor<2x3xi64> {
  %m = onnx.Constant() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %0 = onnx.NonMaxSuppression(%b, %s, %m) : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<i64>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// Without max_output_boxes_per_class no box is selected: the result is an
// empty tensor (no slice of a buffer without rows).
// CHECK-LABEL: func.func @nms_no_max
// CHECK: %[[E:.*]] = tensor.empty() : tensor<0x3xi64>
// CHECK-NOT: tensor.extract_slice
func.func @nms_no_max(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>) -> tensor<?x3xi64> {
  %0 = onnx.NonMaxSuppression(%b, %s) : (tensor<1x6x4xf32>, tensor<1x1x6xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}
