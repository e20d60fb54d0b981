//===- DataMovementUtils.h - Helpers of data movement lowerings -*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Index arithmetic, shape inputs read at run time, reshapes, and generics
// over a result index space, shared by Shape.cpp, DataMovement.cpp,
// Gather.cpp, Scatter.cpp, Unique.cpp, Resize.cpp and Misc.cpp (private to
// those).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_CONVERSION_ONNXTOLINALG_DATAMOVEMENTUTILS_H
#define ONNXDIALECT_LIB_CONVERSION_ONNXTOLINALG_DATAMOVEMENTUTILS_H

#include "OnnxDialect/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace onnx {
namespace dm {

/// An `index` constant.
Value idx(OpBuilder &b, Location loc, int64_t v);

/// `v` as a Value (a constant index for an attribute).
Value toValue(OpBuilder &b, Location loc, OpFoldResult v);

/// The static value of an OpFoldResult, if it has one (an attribute or a
/// constant).
std::optional<int64_t> staticValue(OpFoldResult v);

/// Index arithmetic that folds constants.
Value addI(OpBuilder &b, Location loc, Value x, Value y);
Value subI(OpBuilder &b, Location loc, Value x, Value y);
Value mulI(OpBuilder &b, Location loc, Value x, Value y);
Value minI(OpBuilder &b, Location loc, Value x, Value y);
Value maxI(OpBuilder &b, Location loc, Value x, Value y);
Value cmpI(OpBuilder &b, Location loc, arith::CmpIPredicate p, Value x,
           Value y);
Value select(OpBuilder &b, Location loc, Value c, Value x, Value y);
Value andI(OpBuilder &b, Location loc, Value x, Value y);
Value orI(OpBuilder &b, Location loc, Value x, Value y);

/// x clamped to [lo, hi].
Value clampI(OpBuilder &b, Location loc, Value x, Value lo, Value hi);

/// The product of `dims` as an OpFoldResult (static when all are).
OpFoldResult product(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> dims);

/// The element `i` of a 1-D integer tensor (or of a 0-D one for i = 0) as an
/// index value (sign extended; zero extended when `isUnsigned`).
Value extractIndex(OpBuilder &b, Location loc, Value tensor, int64_t i,
                   bool isUnsigned = false);

/// The single element of a scalar-like tensor (rank 0, or every dim 1).
Value extractScalar(OpBuilder &b, Location loc, Value tensor);

/// The values of a 1-D integer tensor of static length: constants when the
/// tensor is a constant, else tensor.extract + index_cast. Nullopt when the
/// length is not static.
std::optional<SmallVector<OpFoldResult>>
getIndexValues(OpBuilder &b, Location loc, Value tensor);

/// A tensor.cast of `value` to `type` when the types differ.
Value castTo(OpBuilder &b, Location loc, Value value, Type type);

/// Reshapes `input` (row-major) to `resultType` whose sizes are `dims`:
/// tensor.collapse_shape / expand_shape when the grouping of dims is clear
/// from the static sizes, else through a 1-D tensor. The element counts
/// must agree (the callers check them).
Value reshapeTo(OpBuilder &b, Location loc, Value input,
                RankedTensorType resultType, ArrayRef<OpFoldResult> dims);

/// Builds a linalg.generic that writes a fresh tensor of `type` and sizes
/// `dims`; `inputs` are read with `maps` (over the result's loops), and
/// `body` gets the loop indices (linalg.index) and the input scalars and
/// returns the element.
Value buildIndexGeneric(
    OpBuilder &b, Location loc, RankedTensorType type,
    ArrayRef<OpFoldResult> dims, ValueRange inputs, ArrayRef<AffineMap> maps,
    function_ref<Value(OpBuilder &, Location, ValueRange, ValueRange)> body);

/// `index` in [0, size): negative values get `size` added when `wrap`;
/// checks at run time that the result is in range (message `what`), and
/// clamps it so that a read never leaves the tensor.
Value checkedIndex(OpBuilder &b, Location loc, Value index, Value size,
                   bool wrap, Operation *node, const Twine &what);

/// A zero (false for i1) of an int or float element type; null otherwise.
Value zeroOf(OpBuilder &b, Location loc, Type elementType);

/// Emits a run-time check of `cond` unless it folds to true.
void check(OpBuilder &b, Location loc, Value cond, Operation *node,
           const Twine &message);

/// Converts a scalar between int/float types (signedness given).
Value convertScalar(OpBuilder &b, Location loc, Value v, Type to,
                    bool fromUnsigned);

/// The loop nest of scf.for over `dims` carrying `inits`; `body` gets the
/// indices and the carried values and returns the next ones.
SmallVector<Value>
buildLoopNest(OpBuilder &b, Location loc, ArrayRef<Value> dims,
              ValueRange inits,
              function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange,
                                              ValueRange)>
                  body);

/// The static sizes of `type` where it has them, else `computed`; a computed
/// size that is not a constant is checked against the static one at run
/// time (the message names `node`).
SmallVector<OpFoldResult> preferStatic(OpBuilder &b, Location loc,
                                       Operation *node, RankedTensorType type,
                                       ArrayRef<OpFoldResult> computed);

/// The sizes of a ranked tensor as index values.
SmallVector<Value> dimValues(OpBuilder &b, Location loc, Value tensor);

/// Result `i` of `op` converted by the pattern's type converter, if ranked.
template <typename Op>
RankedTensorType getResultType(const OpConversionPattern<Op> &p, Operation *op,
                               unsigned i = 0) {
  return dyn_cast_or_null<RankedTensorType>(
      p.getTypeConverter()->convertType(op->getResult(i).getType()));
}

/// ScatterElements, ScatterND (Scatter.cpp).
void populateScatterPatterns(const TypeConverter &converter,
                             RewritePatternSet &patterns);

/// Unique (Unique.cpp).
void populateUniquePatterns(const TypeConverter &converter,
                            RewritePatternSet &patterns);

/// Float arithmetic on one builder, location and float type (the sampling
/// lowerings: GridSample, RoiAlign, DeformConv).
struct FloatMath {
  OpBuilder &b;
  Location loc;
  Type type;
  Value c(double v);
  Value add(Value x, Value y);
  Value sub(Value x, Value y);
  Value mul(Value x, Value y);
  Value div(Value x, Value y);
  Value max(Value x, Value y);
  Value cmp(arith::CmpFPredicate p, Value x, Value y);
  Value sel(Value c, Value x, Value y);
  Value floor(Value x);
  /// An index as a float of `type`.
  Value fromIndex(Value i);
  /// Truncation toward zero to an index.
  Value toIndex(Value x);
  /// `x` clamped into [lo, hi].
  Value clamp(Value x, Value lo, Value hi);
};

} // namespace dm
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_CONVERSION_ONNXTOLINALG_DATAMOVEMENTUTILS_H
