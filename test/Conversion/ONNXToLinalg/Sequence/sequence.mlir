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
