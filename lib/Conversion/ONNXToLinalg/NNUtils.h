//===- NNUtils.h - Helpers of the NN family lowerings -----------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What MatMul.cpp, Conv.cpp, Pooling.cpp and Normalization.cpp share:
// index arithmetic that folds what is static, the spatial padding of
// convolutions and pools (pads / auto_pad), accumulation types, and small
// tensor builders (filled tensors, padding, element type conversion).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_CONVERSION_ONNXTOLINALG_NNUTILS_H
#define ONNXDIALECT_LIB_CONVERSION_ONNXTOLINALG_NNUTILS_H

#include "OnnxDialect/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "mlir/IR/OpDefinition.h"

#include <optional>

namespace mlir {
namespace onnx {

/// Index arithmetic on OpFoldResults: static operands give an attribute,
/// dynamic ones arith ops (folded where possible).
struct IndexMath {
  OpBuilder &b;
  Location loc;

  Value value(OpFoldResult v) const;
  OpFoldResult fold(Value v) const;
  OpFoldResult add(OpFoldResult x, OpFoldResult y) const;
  OpFoldResult sub(OpFoldResult x, OpFoldResult y) const;
  OpFoldResult mul(OpFoldResult x, OpFoldResult y) const;
  /// Floor division of a value that may be negative by a positive divisor.
  OpFoldResult floorDiv(OpFoldResult x, OpFoldResult y) const;
  OpFoldResult ceilDiv(OpFoldResult x, OpFoldResult y) const;
  OpFoldResult max(OpFoldResult x, OpFoldResult y) const;
  OpFoldResult min(OpFoldResult x, OpFoldResult y) const;
  OpFoldResult cst(int64_t v) const;
};

/// The window attributes of a convolution or pool over `spatialRank` dims,
/// with the spec's defaults (strides and dilations 1).
struct WindowAttrs {
  SmallVector<int64_t> kernel, strides, dilations;
  std::string autoPad;
  /// Explicit pads (begin..., end...), zeros by default.
  SmallVector<int64_t> pads;
};

/// Reads strides, dilations, pads and auto_pad of `op` (attribute names as in
/// the spec); `kernel` is given. Fails with a lowering error on attributes of
/// the wrong length or values out of range.
LogicalResult readWindowAttrs(Operation *op, ArrayRef<int64_t> kernel,
                              WindowAttrs &attrs);

/// The (begin, end) padding of each spatial dim for inputs of spatial sizes
/// `inDims`: explicit pads for NOTSET, zeros for VALID, and for SAME_UPPER /
/// SAME_LOWER the padding that makes the output ceil(in / stride) (the
/// extra element at the end for SAME_UPPER, at the beginning for
/// SAME_LOWER).
void computeSpatialPads(IndexMath &m, const WindowAttrs &attrs,
                        ArrayRef<OpFoldResult> inDims,
                        SmallVector<OpFoldResult> &begin,
                        SmallVector<OpFoldResult> &end);

/// f32 for f16 and bf16 (sums of those are computed in f32), else `type`.
Type getAccumulatorType(Type type);

/// Converts a float scalar to another float type (extf / truncf).
Value convertFloat(OpBuilder &b, Location loc, Value v, Type to);

/// A tensor of `dims` filled with `value` (linalg.fill on tensor.empty).
Value createFilled(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> dims,
                   Type elementType, Value value);

/// tensor.pad of `source` with `low` / `high` and a constant `padValue`;
/// `source` itself when all paddings are static zeros.
Value padWith(OpBuilder &b, Location loc, Value source,
              ArrayRef<OpFoldResult> low, ArrayRef<OpFoldResult> high,
              Value padValue);

/// Converts the element type of a float tensor (elementwise extf/truncf).
Value convertTensorElements(OpBuilder &b, Location loc, Value tensor,
                            Type elementType);

/// tensor.cast of `value` to `type` when their shapes differ in what is
/// static.
Value castToType(OpBuilder &b, Location loc, Value value, Type type);

/// The most negative value of an element type (-inf for floats, the
/// smallest integer for ints, 0 for unsigned ones).
Value createLowest(OpBuilder &b, Location loc, Type elementType,
                   bool isUnsigned);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_CONVERSION_ONNXTOLINALG_NNUTILS_H
