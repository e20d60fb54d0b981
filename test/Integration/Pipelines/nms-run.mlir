// Values of NonMaxSuppression (Detection.cpp), run with mlir-runner.
//  #0: corner boxes [y1, x1, y2, x2], 2 classes, max 3 per class, IoU 0.5,
//      score threshold 0.15. Class 0 is ONNX's suppress_by_IOU example
//      (box 3, then 0; 1 and 2 overlap 0; then 5). Class 1: box 2, box 4;
//      box 1 overlaps box 2 (IoU 2/3) and 0, 3, 5 score under 0.15.
//  #1: center boxes [x, y, w, h] (center_point_box = 1), 2 batches, the
//      max of 2 known at run time only. Batch 0 takes box 3 then 0 (the
//      limit); batch 1 takes box 1 (it ties box 2's score: the lower index
//      goes first), suppresses box 2 (IoU 2/3), then takes box 5 (the
//      limit).
// RUN: onnx-opt %s --onnx-lower-to-llvm \
// RUN: | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils \
// RUN: | FileCheck %s

func.func @nms_corners(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>) -> tensor<?x3xi64> {
  %m = onnx.Constant() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %iou = onnx.Constant() {value = dense<0.5> : tensor<1xf32>} : () -> tensor<1xf32>
  %st = onnx.Constant() {value = dense<0.15> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = onnx.NonMaxSuppression(%b, %s, %m, %iou, %st) : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

func.func @nms_centers(%b: tensor<2x6x4xf32>, %s: tensor<2x1x6xf32>, %m: tensor<1xi64>) -> tensor<?x3xi64> {
  %iou = onnx.Constant() {value = dense<0.5> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = onnx.NonMaxSuppression(%b, %s, %m, %iou) {center_point_box = 1 : i64} : (tensor<2x6x4xf32>, tensor<2x1x6xf32>, tensor<1xi64>, tensor<1xf32>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}

func.func @print(%t: tensor<?x3xi64>) {
  %m = bufferization.to_buffer %t : tensor<?x3xi64> to memref<?x3xi64>
  %u = memref.cast %m : memref<?x3xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  return
}

func.func @main() {
  %b = arith.constant dense<[[[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, -0.1, 1.0, 0.9], [0.0, 10.0, 1.0, 11.0], [0.0, 10.1, 1.0, 11.1], [0.0, 100.0, 1.0, 101.0]]]> : tensor<1x6x4xf32>
  %s = arith.constant dense<[[[0.9, 0.75, 0.6, 0.95, 0.5, 0.3], [0.1, 0.2, 0.8, 0.05, 0.7, 0.12]]]> : tensor<1x2x6xf32>
  %r0 = call @nms_corners(%b, %s) : (tensor<1x6x4xf32>, tensor<1x2x6xf32>) -> tensor<?x3xi64>
  // CHECK: sizes = [5, 3]
  // CHECK-NEXT: {{\[\[}}0, {{ *}}0, {{ *}}3],
  // CHECK-NEXT: [0, {{ *}}0, {{ *}}0],
  // CHECK-NEXT: [0, {{ *}}0, {{ *}}5],
  // CHECK-NEXT: [0, {{ *}}1, {{ *}}2],
  // CHECK-NEXT: [0, {{ *}}1, {{ *}}4]]
  call @print(%r0) : (tensor<?x3xi64>) -> ()

  %c = arith.constant dense<[[[0.5, 0.5, 1.0, 1.0], [0.5, 0.6, 1.0, 1.0], [0.5, 0.4, 1.0, 1.0], [0.5, 10.5, 1.0, 1.0], [0.5, 10.6, 1.0, 1.0], [0.5, 100.5, 1.0, 1.0]], [[0.5, 0.5, 1.0, 1.0], [0.5, 0.6, 1.0, 1.0], [0.5, 0.4, 1.0, 1.0], [0.5, 10.5, 1.0, 1.0], [0.5, 10.6, 1.0, 1.0], [0.5, 100.5, 1.0, 1.0]]]> : tensor<2x6x4xf32>
  %cs = arith.constant dense<[[[0.9, 0.75, 0.6, 0.95, 0.5, 0.3]], [[0.3, 0.95, 0.95, 0.1, 0.2, 0.9]]]> : tensor<2x1x6xf32>
  %m = arith.constant dense<2> : tensor<1xi64>
  %r1 = call @nms_centers(%c, %cs, %m) : (tensor<2x6x4xf32>, tensor<2x1x6xf32>, tensor<1xi64>) -> tensor<?x3xi64>
  // CHECK: sizes = [4, 3]
  // CHECK-NEXT: {{\[\[}}0, {{ *}}0, {{ *}}3],
  // CHECK-NEXT: [0, {{ *}}0, {{ *}}0],
  // CHECK-NEXT: [1, {{ *}}0, {{ *}}1],
  // CHECK-NEXT: [1, {{ *}}0, {{ *}}5]]
  call @print(%r1) : (tensor<?x3xi64>) -> ()
  return
}
