// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// Strings are pointers (i64); elementwise string ops call the runtime per
// element inside linalg.generic.
// CHECK-LABEL: func.func @strings
// CHECK-SAME: (%arg0: tensor<3xi64>, %arg1: tensor<3xi64>) -> (tensor<3xi1>, tensor<3xi64>, tensor<3xi1>)
// CHECK: linalg.generic
// CHECK: call @onnxd_str_equal(%{{.*}}, %{{.*}}) : (i64, i64) -> i1
// CHECK: linalg.generic
// CHECK: call @onnxd_str_concat(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK: linalg.generic
// CHECK: call @onnxd_str_regex_full_match(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, !llvm.ptr) -> i1
func.func @strings(%a: tensor<3x!onnx.string>, %b: tensor<3x!onnx.string>) -> (tensor<3xi1>, tensor<3x!onnx.string>, tensor<3xi1>) {
  %0 = onnx.Equal(%a, %b) : (tensor<3x!onnx.string>, tensor<3x!onnx.string>) -> tensor<3xi1>
  %1 = onnx.StringConcat(%a, %b) : (tensor<3x!onnx.string>, tensor<3x!onnx.string>) -> tensor<3x!onnx.string>
  %2 = onnx.RegexFullMatch(%a) {pattern = "a.*"} : (tensor<3x!onnx.string>) -> tensor<3xi1>
  return %0, %1, %2 : tensor<3xi1>, tensor<3x!onnx.string>, tensor<3xi1>
}

// -----

// Whole-tensor string ops: constants (stopwords, keys) are tensors of
// pointers to global strings.
// CHECK-LABEL: func.func @normalize_encode
// CHECK: %[[W:.*]] = llvm.mlir.addressof @onnxd_str_{{[0-9]+}}
// CHECK: %[[WI:.*]] = llvm.ptrtoint %[[W]] : !llvm.ptr to i64
// CHECK: tensor.from_elements %[[WI]] : tensor<1xi64>
// CHECK: call @onnxd_str_normalize(%{{.*}}, %{{.*}}, %c2_i64, %c0_i64
// CHECK: tensor.cast %{{.*}} : tensor<?xi64> to tensor<2xi64>
// CHECK: call @onnxd_label_encode
// CHECK: call @onnxd_unbox_i64
func.func @normalize_encode(%x: tensor<3x!onnx.string>) -> (tensor<2x!onnx.string>, tensor<3xi64>) {
  %0 = onnx.StringNormalizer(%x) {case_change_action = "UPPER", stopwords = ["a"]} : (tensor<3x!onnx.string>) -> tensor<2x!onnx.string>
  %1 = onnx.ml.LabelEncoder(%x) {keys_strings = ["a", "b"], values_int64s = array<i64: 1, 2>} : (tensor<3x!onnx.string>) -> tensor<3xi64>
  return %0, %1 : tensor<2x!onnx.string>, tensor<3xi64>
}

// -----

// Cast from and to strings: parse and format per element in the runtime.
// CHECK-LABEL: func.func @cast_strings
// CHECK: linalg.generic
// CHECK: %[[D:.*]] = func.call @onnxd_str_to_f64(%{{.*}}) : (i64) -> f64
// CHECK: arith.truncf %[[D]] : f64 to f32
// CHECK: linalg.generic
// CHECK: %[[E:.*]] = arith.extui %{{.*}} : i8 to i64
// CHECK: func.call @onnxd_str_from_u64(%[[E]]) : (i64) -> i64
func.func @cast_strings(%a: tensor<3x!onnx.string>, %b: tensor<3xui8>) -> (tensor<3xf32>, tensor<3x!onnx.string>) {
  %0 = onnx.Cast(%a) {to = 1 : i64} : (tensor<3x!onnx.string>) -> tensor<3xf32>
  %1 = onnx.Cast(%b) {to = 8 : i64} : (tensor<3xui8>) -> tensor<3x!onnx.string>
  return %0, %1 : tensor<3xf32>, tensor<3x!onnx.string>
}

// -----

// String constants: pointers to global strings.
// CHECK: llvm.mlir.global internal constant @[[G0:onnxd_str_[0-9]+]]("x\00")
// CHECK: llvm.mlir.global internal constant @[[G1:onnxd_str_[0-9]+]]("yz\00")
// CHECK-LABEL: func.func @string_constant
// CHECK: %[[A:.*]] = llvm.mlir.addressof @[[G1]]
// CHECK: %[[AI:.*]] = llvm.ptrtoint %[[A]] : !llvm.ptr to i64
// CHECK: %[[B:.*]] = llvm.mlir.addressof @[[G0]]
// CHECK: %[[BI:.*]] = llvm.ptrtoint %[[B]] : !llvm.ptr to i64
// CHECK: tensor.from_elements %[[AI]], %[[BI]] : tensor<2xi64>
func.func @string_constant() -> tensor<2x!onnx.string> {
  %0 = onnx.Constant() {value_strings = ["yz", "x"]} : () -> tensor<2x!onnx.string>
  return %0 : tensor<2x!onnx.string>
}
