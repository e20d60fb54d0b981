// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// Det: a loop over the batch; each matrix is factored in scf.for loops
// (partial pivoting: the row of the largest |a[i, k]|, then a row swap);
// the determinant is the product of the pivots, negated per swap, and a
// zero pivot skips the division. f16 is computed in f32.
// CHECK-LABEL: func.func @det_f16
// CHECK: cf.assert %{{.*}}, "onnx.Det 'd': the matrices are not square"
// CHECK: linalg.generic
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: scf.for %[[B:.*]] = %{{.*}} iter_args(%[[RES:.*]] = %{{.*}}) -> (tensor<?xf16>)
// CHECK: %[[M:.*]] = tensor.extract_slice %{{.*}}[%[[B]], 0, 0] [1, %{{.*}}, %{{.*}}] [1, 1, 1] : tensor<?x?x?xf32> to tensor<?x?xf32>
// CHECK: %[[LU:.*]]:2 = scf.for %[[K:.*]] = {{.*}} iter_args(%{{.*}} = %[[M]], %{{.*}} = %{{.*}}) -> (tensor<?x?xf32>, f32)
// CHECK: math.absf
// CHECK: scf.for {{.*}} -> (index, f32)
// CHECK: arith.cmpf ogt
// CHECK: scf.for {{.*}} -> (tensor<?x?xf32>)
// CHECK: tensor.insert
// CHECK: tensor.insert
// CHECK: arith.negf
// CHECK: arith.mulf
// CHECK: %[[ZERO:.*]] = arith.cmpf oeq
// CHECK: %[[DIV:.*]] = arith.select %[[ZERO]]
// CHECK: scf.for
// CHECK: arith.divf %{{.*}}, %[[DIV]] : f32
// CHECK: scf.for
// CHECK: arith.subf
// CHECK: %[[T:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK: tensor.insert %[[T]] into %[[RES]][%[[B]]] : tensor<?xf16>
func.func @det_f16(%x: tensor<?x?x?xf16>) -> tensor<?xf16> {
  %0 = onnx.Det(%x) {onnx.name = "d"} : (tensor<?x?x?xf16>) -> tensor<?xf16>
  return %0 : tensor<?xf16>
}

// -----

// A single matrix gives a 0-d result; f64 stays f64.
// CHECK-LABEL: func.func @det_2d
// CHECK-NOT: cf.assert
// CHECK: %[[E:.*]] = tensor.empty() : tensor<f64>
// CHECK: tensor.extract_slice %arg0[0, 0] [3, 3] [1, 1] : tensor<3x3xf64> to tensor<3x3xf64>
// CHECK: scf.for {{.*}} -> (tensor<3x3xf64>, f64)
// CHECK: tensor.insert %{{.*}} into %[[E]][] : tensor<f64>
func.func @det_2d(%x: tensor<3x3xf64>) -> tensor<f64> {
  %0 = onnx.Det(%x) : (tensor<3x3xf64>) -> tensor<f64>
  return %0 : tensor<f64>
}
