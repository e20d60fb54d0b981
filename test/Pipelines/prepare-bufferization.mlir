// RUN: onnx-opt %s --onnx-prepare-bufferization --split-input-file | FileCheck %s
// RUN: onnx-opt %s --onnx-prepare-bufferization --eliminate-empty-tensors --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --canonicalize --cse --canonicalize --split-input-file | FileCheck %s --check-prefix=BUF

// Two products of a shape, each computed in a slice of one empty tensor
// (what CSE left of two): each slice and the empty get a clone per use, and
// each insert goes with the clone of the slice its source was computed in.
// Bufferized, each product writes its own buffer: no copy.
// CHECK-LABEL: func.func @shared_empty
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<8x10xf32>
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<8x10xf32>
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[E1]][0, 0] [6, 10]
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[E0]][0, 0] [6, 10]
// CHECK: %[[A:.*]] = linalg.fill ins(%arg0 : f32) outs(%[[S1]] :
// CHECK: tensor.insert_slice %[[A]] into %[[E1]][0, 0] [6, 10]
// CHECK: %[[B:.*]] = linalg.fill ins(%arg1 : f32) outs(%[[S0]] :
// CHECK: tensor.insert_slice %[[B]] into %[[E0]][0, 0] [6, 10]
// BUF-LABEL: func.func @shared_empty
// BUF-COUNT-2: memref.alloc()
// BUF-NOT: memref.copy
func.func @shared_empty(%x: f32, %y: f32) -> (tensor<8x10xf32>, tensor<8x10xf32>) {
  %e = tensor.empty() : tensor<8x10xf32>
  %s = tensor.extract_slice %e[0, 0] [6, 10] [1, 1] : tensor<8x10xf32> to tensor<6x10xf32>
  %a = linalg.fill ins(%x : f32) outs(%s : tensor<6x10xf32>) -> tensor<6x10xf32>
  %ia = tensor.insert_slice %a into %e[0, 0] [6, 10] [1, 1] : tensor<6x10xf32> into tensor<8x10xf32>
  %b = linalg.fill ins(%y : f32) outs(%s : tensor<6x10xf32>) -> tensor<6x10xf32>
  %ib = tensor.insert_slice %b into %e[0, 0] [6, 10] [1, 1] : tensor<6x10xf32> into tensor<8x10xf32>
  return %ia, %ib : tensor<8x10xf32>, tensor<8x10xf32>
}

// -----

// A value computed in a slice of a buffer and inserted back into it, then
// read again (a 1x1 convolution's input in its zero-padded buffer, read
// later by a residual add): the later read reads the buffer's slice.
// Bufferized, the value is computed in the buffer: no copy.
// CHECK-LABEL: func.func @read_after_insert
// CHECK: %[[V:.*]] = linalg.fill ins(%arg0
// CHECK: %[[IN:.*]] = tensor.insert_slice %[[V]] into %{{.*}}[0, 0] [4, 6]
// CHECK: %[[EQ:.*]] = tensor.extract_slice %[[IN]][0, 0] [4, 6]
// CHECK: linalg.generic {{.*}} ins(%[[EQ]] :
// BUF-LABEL: func.func @read_after_insert
// BUF-NOT: memref.copy
func.func @read_after_insert(%x: f32) -> (tensor<4x8xf32>, tensor<4x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %buf = tensor.empty() : tensor<4x8xf32>
  %border = tensor.extract_slice %buf[0, 6] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%border : tensor<4x2xf32>) -> tensor<4x2xf32>
  %padded = tensor.insert_slice %zeros into %buf[0, 6] [4, 2] [1, 1] : tensor<4x2xf32> into tensor<4x8xf32>
  %slice = tensor.extract_slice %padded[0, 0] [4, 6] [1, 1] : tensor<4x8xf32> to tensor<4x6xf32>
  %v = linalg.fill ins(%x : f32) outs(%slice : tensor<4x6xf32>) -> tensor<4x6xf32>
  %in = tensor.insert_slice %v into %padded[0, 0] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<4x8xf32>
  %out = tensor.empty() : tensor<4x6xf32>
  %twice = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<4x6xf32>) outs(%out : tensor<4x6xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  return %in, %twice : tensor<4x8xf32>, tensor<4x6xf32>
}

// -----

// Whole linalg ops writing one empty tensor keep sharing it: the second
// may write the buffer of the first's value, dead after it reads it.
// CHECK-LABEL: func.func @whole_ops
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x6xf32>
// CHECK-NOT: tensor.empty
// CHECK: %[[A:.*]] = linalg.fill {{.*}} outs(%[[E]] :
// CHECK: linalg.generic {{.*}} ins(%[[A]] : tensor<4x6xf32>) outs(%[[E]] :
// BUF-LABEL: func.func @whole_ops
// BUF-COUNT-1: memref.alloc()
// BUF-NOT: memref.alloc()
func.func @whole_ops(%x: f32) -> tensor<4x6xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %a = linalg.fill ins(%x : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  return %b : tensor<4x6xf32>
}

// -----

// One zero-filled accumulator (a loop that fills an empty tensor in
// vectors, what CSE left of two layers' fills) that two products then
// accumulate into: the fill, its empty tensor and the reshapes get a clone
// per use. Bufferized, each product accumulates into a buffer filled for
// it: no copy of the filled buffer.
// CHECK-LABEL: func.func @shared_fill
// The clones' order depends on the host compiler (GCC and Clang builds
// differ): any order of the empties and their reshapes.
// CHECK-DAG: %[[E0:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-DAG: %[[E1:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-DAG: tensor.collapse_shape %[[E0]]
// CHECK-DAG: tensor.collapse_shape %[[E1]]
// CHECK: scf.for
// CHECK: tensor.expand_shape
// CHECK: scf.for
// CHECK: tensor.expand_shape
// CHECK: linalg.generic {{.*}} outs(%[[X0:[a-z_0-9]+]] :
// CHECK: linalg.generic {{.*}} outs(%[[X1:[a-z_0-9]+]] :
// CHECK-NOT: scf.for
// BUF-LABEL: func.func @shared_fill
// BUF-COUNT-2: memref.alloc()
// BUF-NOT: memref.alloc()
// BUF-NOT: memref.copy
#id = affine_map<(i, j) -> (i, j)>
func.func @shared_fill(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %zeros = arith.constant dense<0.0> : vector<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %flat = tensor.collapse_shape %e [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %filled = scf.for %i = %c0 to %c32 step %c8 iter_args(%t = %flat) -> (tensor<32xf32>) {
    %s = tensor.extract_slice %t[%i] [8] [1] : tensor<32xf32> to tensor<8xf32>
    %w = vector.transfer_write %zeros, %s[%c0] {in_bounds = [true]} : vector<8xf32>, tensor<8xf32>
    %u = tensor.insert_slice %w into %t[%i] [8] [1] : tensor<8xf32> into tensor<32xf32>
    scf.yield %u : tensor<32xf32>
  }
  %acc = tensor.expand_shape %filled [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%acc : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x8xf32>) outs(%acc : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r0, %r1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// The same through a cast to a dynamic dim (how direct convolutions take
// their accumulator): the cast is cloned with the fill for each use.
// CHECK-LABEL: func.func @shared_fill_cast
// CHECK-COUNT-2: tensor.empty() : tensor<4x8xf32>
// CHECK: scf.for
// CHECK: tensor.cast
// CHECK: scf.for
// CHECK: tensor.cast
// BUF-LABEL: func.func @shared_fill_cast
// BUF-COUNT-2: memref.alloc()
// BUF-NOT: memref.alloc()
// BUF-NOT: memref.copy
#id = affine_map<(i, j) -> (i, j)>
func.func @shared_fill_cast(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %zeros = arith.constant dense<0.0> : vector<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %flat = tensor.collapse_shape %e [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %filled = scf.for %i = %c0 to %c32 step %c8 iter_args(%t = %flat) -> (tensor<32xf32>) {
    %s = tensor.extract_slice %t[%i] [8] [1] : tensor<32xf32> to tensor<8xf32>
    %w = vector.transfer_write %zeros, %s[%c0] {in_bounds = [true]} : vector<8xf32>, tensor<8xf32>
    %u = tensor.insert_slice %w into %t[%i] [8] [1] : tensor<8xf32> into tensor<32xf32>
    scf.yield %u : tensor<32xf32>
  }
  %acc = tensor.expand_shape %filled [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  %dyn = tensor.cast %acc : tensor<4x8xf32> to tensor<?x8xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%dyn : tensor<?x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<?x8xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x8xf32>) outs(%dyn : tensor<?x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<?x8xf32>
  return %r0, %r1 : tensor<?x8xf32>, tensor<?x8xf32>
}
