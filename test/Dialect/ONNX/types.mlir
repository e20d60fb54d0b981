// RUN: onnx-opt %s | onnx-opt | FileCheck %s
// Every ONNX data type as a tensor element type, and the dialect types.

// CHECK-LABEL: func private @element_types
// CHECK-SAME: tensor<f32>, tensor<f64>, tensor<f16>, tensor<bf16>
// CHECK-SAME: tensor<i8>, tensor<i16>, tensor<i32>, tensor<i64>
// CHECK-SAME: tensor<ui8>, tensor<ui16>, tensor<ui32>, tensor<ui64>
// CHECK-SAME: tensor<i1>, tensor<!onnx.string>, tensor<complex<f32>>, tensor<complex<f64>>
// CHECK-SAME: tensor<f8E4M3FN>, tensor<f8E4M3FNUZ>, tensor<f8E5M2>, tensor<f8E5M2FNUZ>, tensor<f8E8M0FNU>
// CHECK-SAME: tensor<i4>, tensor<ui4>, tensor<i2>, tensor<ui2>, tensor<f4E2M1FN>
func.func private @element_types(
  tensor<f32>, tensor<f64>, tensor<f16>, tensor<bf16>,
  tensor<i8>, tensor<i16>, tensor<i32>, tensor<i64>,
  tensor<ui8>, tensor<ui16>, tensor<ui32>, tensor<ui64>,
  tensor<i1>, tensor<!onnx.string>, tensor<complex<f32>>, tensor<complex<f64>>,
  tensor<f8E4M3FN>, tensor<f8E4M3FNUZ>, tensor<f8E5M2>, tensor<f8E5M2FNUZ>, tensor<f8E8M0FNU>,
  tensor<i4>, tensor<ui4>, tensor<i2>, tensor<ui2>, tensor<f4E2M1FN>)

// CHECK-LABEL: func private @dialect_types
// CHECK-SAME: !onnx.seq<tensor<?x3xf32>>
// CHECK-SAME: !onnx.seq<!onnx.seq<tensor<*xi64>>>
// CHECK-SAME: !onnx.map<i64, tensor<f32>>
// CHECK-SAME: !onnx.map<!onnx.string, !onnx.seq<tensor<2xf64>>>
// CHECK-SAME: !onnx.opt<tensor<3xf32>>
// CHECK-SAME: !onnx.opt<!onnx.seq<tensor<*xi1>>>
// CHECK-SAME: !onnx.sparse_tensor<tensor<100x100xf32>>
// CHECK-SAME: !onnx.opaque<"com.example", "handle">
func.func private @dialect_types(
  !onnx.seq<tensor<?x3xf32>>,
  !onnx.seq<!onnx.seq<tensor<*xi64>>>,
  !onnx.map<i64, tensor<f32>>,
  !onnx.map<!onnx.string, !onnx.seq<tensor<2xf64>>>,
  !onnx.opt<tensor<3xf32>>,
  !onnx.opt<!onnx.seq<tensor<*xi1>>>,
  !onnx.sparse_tensor<tensor<100x100xf32>>,
  !onnx.opaque<"com.example", "handle">)
