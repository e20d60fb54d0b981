// RUN: onnx-opt %s --convert-onnx-to-linalg --split-input-file | FileCheck %s

// Sequences are runtime handles; a tensor goes in by copy (boxing), a
// negative position wraps and is checked.
// CHECK-LABEL: func.func @insert
// CHECK-SAME: (%[[S:.*]]: !llvm.ptr, %[[X:.*]]: tensor<?xf32>, %[[P:.*]]: tensor<i32>) -> !llvm.ptr
// CHECK: %[[B:.*]] = bufferization.to_buffer %[[X]] read_only : tensor<?xf32> to memref<?xf32, strided<[?], offset: ?>>
// CHECK: %[[U:.*]] = memref.cast %[[B]] : {{.*}} to memref<*xf32>
// CHECK: %[[E:.*]] = call @onnxd_box_f32(%{{.*}}, %[[U]]) : (i32, memref<*xf32>) -> !llvm.ptr
// CHECK: %[[N:.*]] = call @onnxd_seq_length(%[[S]])
// CHECK: %[[PV:.*]] = tensor.extract %[[P]][]
// CHECK: arith.extsi %[[PV]] : i32 to i64
// CHECK: cf.assert %{{.*}}, "onnx.SequenceInsert: position out of range of the sequence"
// CHECK: %[[R:.*]] = call @onnxd_seq_insert(%[[S]], %{{.*}}, %[[E]])
// CHECK: return %[[R]] : !llvm.ptr
func.func @insert(%s: !onnx.seq<tensor<?xf32>>, %x: tensor<?xf32>, %p: tensor<i32>) -> !onnx.seq<tensor<?xf32>> {
  %0 = onnx.SequenceInsert(%s, %x, %p) : (!onnx.seq<tensor<?xf32>>, tensor<?xf32>, tensor<i32>) -> !onnx.seq<tensor<?xf32>>
  return %0 : !onnx.seq<tensor<?xf32>>
}

// -----

// A tensor comes out by copy into a new buffer (unboxing): rank, element
// type and static dims are checked, dynamic dims asked for.
// CHECK-LABEL: func.func @at
// CHECK: %[[E:.*]] = call @onnxd_seq_get(%arg0, %{{.*}}) : (!llvm.ptr, i64) -> !llvm.ptr
// CHECK: %[[RANK:.*]] = call @onnxd_value_rank(%[[E]])
// CHECK: cf.assert %{{.*}}, "onnx.SequenceAt: the value is missing or is not a tensor of rank 2"
// CHECK: call @onnxd_value_dtype(%[[E]])
// CHECK: cf.assert %{{.*}}, "onnx.SequenceAt: the tensor's element type is not the expected one"
// CHECK: %[[D0:.*]] = call @onnxd_value_dim(%[[E]], %c0_i64{{.*}})
// CHECK: %[[I0:.*]] = arith.index_cast %[[D0]] : i64 to index
// CHECK: %[[D1:.*]] = call @onnxd_value_dim(%[[E]], %c1_i64{{.*}})
// CHECK: cf.assert %{{.*}}, "onnx.SequenceAt: dim 1 of the tensor is not 3"
// CHECK: %[[M:.*]] = memref.alloc(%[[I0]]) : memref<?x3xi32>
// CHECK: %[[U:.*]] = memref.cast %[[M]] : memref<?x3xi32> to memref<*xi32>
// CHECK: call @onnxd_unbox_i32(%[[E]], %[[U]])
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[M]] restrict writable : memref<?x3xi32> to tensor<?x3xi32>
// CHECK: return %[[T]]
func.func @at(%s: !onnx.seq<tensor<?x3xui32>>) -> tensor<?x3xui32> {
  %p = onnx.Constant() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %0 = onnx.SequenceAt(%s, %p) : (!onnx.seq<tensor<?x3xui32>>, tensor<i64>) -> tensor<?x3xui32>
  return %0 : tensor<?x3xui32>
}

// -----

// SequenceConstruct appends; SequenceLength is a scalar tensor.
// CHECK-LABEL: func.func @construct_length
// CHECK: %[[E:.*]] = call @onnxd_seq_empty()
// CHECK: %[[A:.*]] = call @onnxd_box_i64(%c7_i32
// CHECK: %[[S1:.*]] = call @onnxd_seq_insert(%[[E]], %c0_i64, %[[A]])
// CHECK: %[[B:.*]] = call @onnxd_box_i64(%c7_i32
// CHECK: %[[S2:.*]] = call @onnxd_seq_insert(%[[S1]], %c1_i64, %[[B]])
// CHECK: %[[N:.*]] = call @onnxd_seq_length(%[[S2]])
// CHECK: tensor.from_elements %[[N]] : tensor<i64>
func.func @construct_length(%a: tensor<2xi64>, %b: tensor<3xi64>) -> tensor<i64> {
  %0 = onnx.SequenceConstruct(%a, %b) : (tensor<2xi64>, tensor<3xi64>) -> !onnx.seq<tensor<?xi64>>
  %1 = onnx.SequenceLength(%0) : (!onnx.seq<tensor<?xi64>>) -> tensor<i64>
  return %1 : tensor<i64>
}

// -----

// ConcatFromSequence and SplitToSequence run in the runtime, which names the
// node in its errors.
// CHECK-LABEL: llvm.mlir.global internal constant @onnxd_str_{{[0-9]+}}("onnx.SplitToSequence 'sp'\00")
// CHECK-LABEL: llvm.mlir.global internal constant @onnxd_str_{{[0-9]+}}("onnx.ConcatFromSequence 'cat'\00")
// CHECK-LABEL: func.func @concat_split
// CHECK: %[[NAME:.*]] = llvm.mlir.addressof @onnxd_str_{{[0-9]+}} : !llvm.ptr
// CHECK: %[[C:.*]] = call @onnxd_seq_concat(%arg0, %c1_i64, %c0_i64, %[[NAME]])
// CHECK: call @onnxd_unbox_f32(%[[C]]
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: call @onnxd_seq_split(%{{.*}}, %[[NULL]], %c0_i64{{.*}}, %c0_i64{{.*}}, %{{.*}})
func.func @concat_split(%s: !onnx.seq<tensor<2x?xf32>>, %x: tensor<4x2xf32>) -> (tensor<2x?xf32>, !onnx.seq<tensor<2xf32>>) {
  %0 = onnx.ConcatFromSequence(%s) {axis = 1 : i64, onnx.name = "cat"} : (!onnx.seq<tensor<2x?xf32>>) -> tensor<2x?xf32>
  %1 = onnx.SplitToSequence(%x) {keepdims = 0 : i64, onnx.name = "sp"} : (tensor<4x2xf32>) -> !onnx.seq<tensor<2xf32>>
  return %0, %1 : tensor<2x?xf32>, !onnx.seq<tensor<2xf32>>
}

// -----

// An optional is its value's handle or null.
// CHECK-LABEL: func.func @optional
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[HAS:.*]] = llvm.icmp "ne" %arg0, %[[NULL]] : !llvm.ptr
// CHECK: tensor.from_elements %[[HAS]] : tensor<i1>
// CHECK: cf.assert %{{.*}}, "onnx.OptionalGetElement: the optional has no value"
// CHECK: call @onnxd_unbox_f32(%arg0
// CHECK: %[[NONE:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: return %{{.*}}, %{{.*}}, %[[NONE]]
func.func @optional(%o: !onnx.opt<tensor<4xf32>>) -> (tensor<i1>, tensor<4xf32>, !onnx.opt<!onnx.seq<tensor<f32>>>) {
  %0 = onnx.OptionalHasElement(%o) : (!onnx.opt<tensor<4xf32>>) -> tensor<i1>
  %1 = onnx.OptionalGetElement(%o) : (!onnx.opt<tensor<4xf32>>) -> tensor<4xf32>
  %2 = onnx.Optional() {type_ = !onnx.seq<tensor<f32>>} : () -> !onnx.opt<!onnx.seq<tensor<f32>>>
  return %0, %1, %2 : tensor<i1>, tensor<4xf32>, !onnx.opt<!onnx.seq<tensor<f32>>>
}

// -----

// SequenceMap: an scf.for over the positions; the body is converted in it.
// CHECK-LABEL: func.func @map
// CHECK: %[[N:.*]] = call @onnxd_seq_length(%arg0)
// CHECK: %[[OUT:.*]] = call @onnxd_seq_empty()
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %c0 to %{{.*}} step %c1 iter_args(%[[ACC:.*]] = %[[OUT]]) -> (!llvm.ptr) {
// CHECK: call @onnxd_seq_get(%arg0
// CHECK: call @onnxd_unbox_f32
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: call @onnxd_box_f32
// CHECK: call @onnxd_seq_insert(%[[ACC]]
// CHECK: scf.yield
// CHECK: return %[[R]]
func.func @map(%s: !onnx.seq<tensor<?xf32>>, %x: tensor<?xf32>) -> !onnx.seq<tensor<?xf32>> {
  %0 = onnx.SequenceMap(%s, %x) : (!onnx.seq<tensor<?xf32>>, tensor<?xf32>) -> !onnx.seq<tensor<?xf32>> body {
  ^bb0(%a: tensor<?xf32>, %b: tensor<?xf32>):
    %1 = onnx.Add(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    onnx.yield %1 : tensor<?xf32>
  }
  return %0 : !onnx.seq<tensor<?xf32>>
}

// -----

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
