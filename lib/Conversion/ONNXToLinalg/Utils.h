//===- Utils.h - The toolkit of the onnx to linalg patterns -----*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the op families of convert-onnx-to-linalg share (private to
// lib/Conversion/ONNXToLinalg; every file of it includes this header and
// nothing else of the folder): element types, messages and run-time checks,
// constants and shape operands read at compile or run time, broadcasting,
// index arithmetic, loops and generics over an index space, the spatial
// windows of convolutions and pools, and the base of the patterns. Common.cpp
// and Utils.cpp define them.
//
// Conventions for a pattern:
//  - it is an OpConversionPattern on the newest version of an op; operands
//    come from the adaptor (already converted: unsigned integers are
//    signless), signedness and original element types from the op itself;
//  - result types are `convertType(op result type)`; the pass has checked
//    that they are ranked (`onnx-infer-shapes` runs before);
//  - what the pattern cannot handle is reported with emitLoweringError;
//  - dynamic dims are read with tensor.dim; checks that can only be made at
//    run time use `emitRuntimeCheck`, whose message names the node;
//  - a pattern never reads or writes outside a tensor: indices are checked
//    or clamped as the spec says.
//
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_CONVERSION_ONNXTOLINALG_UTILS_H
#define ONNXDIALECT_LIB_CONVERSION_ONNXTOLINALG_UTILS_H

#include "OnnxDialect/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXWindow.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Transforms/DialectConversion.h"

#include <optional>

namespace mlir {
namespace onnx {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// True for the onnx types whose values are runtime handles after
/// conversion: !onnx.seq, !onnx.opt, !onnx.map.
bool isRuntimeHandleType(Type type);

/// True for a tensor of !onnx.string (its elements are runtime strings:
/// Text/Strings.cpp lowers the ops on them).
bool isStringTensor(Type type);

/// The element type of a (tensor) type, or the type itself.
Type getElementTypeOf(Type type);

/// True if `type` (a tensor or scalar type of the onnx level) has an
/// unsigned integer element type.
bool isUnsignedElement(Type type);

/// Signless integer or float element type of the lowered level for the
/// element type `onnxElementType`.
Type convertElementType(Type onnxElementType);

//===----------------------------------------------------------------------===//
// Messages and run-time checks
//===----------------------------------------------------------------------===//

/// "onnx.Add 'node_name'" (or "onnx.Add" for an unnamed node): how messages
/// name the node a lowered op comes from.
std::string describeNode(Operation *op);

/// Reports that `op` cannot be lowered and why ("<node>: cannot lower:
/// <message>") and returns failure. For the last pattern that could match an
/// op (the conversion then fails on it); others use notifyMatchFailure.
LogicalResult emitLoweringError(Operation *op, const Twine &message);

/// Normalizes `axis` (negative values count from the end) to [0, rank);
/// fails with the lowering error "axis out of range" on `op` otherwise.
LogicalResult resolveAxis(Operation *op, int64_t &axis, int64_t rank);

/// Emits `cf.assert %cond, "<node>: <message>"`: the compiled model stops
/// with an error carrying the message when `cond` is false at run time.
void emitRuntimeCheck(OpBuilder &b, Location loc, Value cond, Operation *node,
                      const Twine &message);

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// A scalar constant of `type` (an integer, index or float type) with the
/// value `value`.
Value createScalarConstant(OpBuilder &b, Location loc, Type type, double value);

/// createScalarConstant, short, for the scalar bodies of generics.
inline Value cst(OpBuilder &b, Location loc, Type type, double value) {
  return createScalarConstant(b, loc, type, value);
}

/// The values of an integer tensor that is a constant (after conversion an
/// arith.constant), or nullopt.
std::optional<SmallVector<int64_t>> getConstantIntValues(Value value);

/// The values of a float tensor that is a constant, or nullopt.
std::optional<SmallVector<double>> getConstantFloatValues(Value value);

/// The values of a constant attribute (dense or a resource blob, of ints or
/// floats) as doubles, or nullopt for element types it cannot read.
std::optional<SmallVector<double>> getElementValues(Attribute attr);

/// The sizes of a ranked tensor: static sizes as attributes, dynamic ones
/// as tensor.dim.
SmallVector<OpFoldResult> getDims(OpBuilder &b, Location loc, Value tensor);

/// `index` cast of a scalar integer value (sign extension for signed).
Value castToIndex(OpBuilder &b, Location loc, Value value,
                  bool isUnsigned = false);

/// The scalar `v` of onnx element type `from` converted as Cast does to the
/// onnx element type `to` (float8/4-bit types encoded on their bits;
/// `saturate` and `roundMode` as Cast's attributes). Defined in Cast.cpp.
Value castScalarElement(OpBuilder &b, Location loc, Value v, Type from, Type to,
                        bool saturate = true, StringRef roundMode = "up");

//===----------------------------------------------------------------------===//
// Broadcasting and elementwise generics
//===----------------------------------------------------------------------===//

/// The multidirectional (numpy) broadcast of the shapes of `inputs` (ranked
/// tensors) to a result of type `resultType`: each dim is a static size
/// when the result type has one, else computed at run time, with a run-time
/// check that the inputs' dims are equal or 1.
///
/// `originals` (optional, parallel to `inputs`) are the ONNX values the
/// inputs were converted from: where every input with a dynamic dim at one
/// position has the same symbolic name there (`dimSymbol`), those dims are
/// the same size, which the run-time check then requires strictly.
SmallVector<OpFoldResult> computeBroadcastDims(OpBuilder &b, Location loc,
                                               ValueRange inputs,
                                               RankedTensorType resultType,
                                               Operation *node,
                                               ValueRange originals = {});

/// The symbolic name (an ONNX dim_param) that shape inference recorded for
/// dim `dim` of `value`, an onnx op's result (the op's `onnx.dim_params`) or
/// a function argument (its `onnx.dim_params` argument attribute); null
/// when there is none. Two dims with the same name have the same size.
StringAttr dimSymbol(Value value, int64_t dim);

/// In the body of a linalg.generic with `rank` loops: the element of `input`
/// (its dims aligned to the last loops) that numpy broadcasting reads there
/// (index 0 in a dim of size 1, also in a dynamic dim that is 1 at run time).
Value extractBroadcastElement(OpBuilder &b, Location loc, Value input,
                              int64_t rank);

/// Builds `linalg.generic` computing `body` elementwise over `inputs`
/// broadcast (numpy rules) to `resultType`. `body` gets one scalar per
/// input and returns the result scalar. Inputs whose dims are statically
/// known to broadcast use indexing maps; a dynamic dim that may be 1 at run
/// time is read with tensor.extract at a clamped index, unless `originals`
/// (as for computeBroadcastDims) name it the same as the others.
Value buildElementwise(
    OpBuilder &b, Location loc, ValueRange inputs, RankedTensorType resultType,
    Operation *node,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body,
    ValueRange originals = {});

//===----------------------------------------------------------------------===//
// Index arithmetic, shape operands, generics over an index space
//===----------------------------------------------------------------------===//

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

/// The ranked tensor type of element type `elem` and sizes `dims` (static
/// where they are attributes).
RankedTensorType typeOfDims(ArrayRef<OpFoldResult> dims, Type elem);

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

/// The position in data that element `ivs` of GatherElements' or
/// ScatterElements' indices names: `index` (wrapped, checked) along `axis`,
/// `ivs` elsewhere (checked to fit in data where the sizes are not static).
SmallVector<Value>
elementsIndexPosition(OpBuilder &b, Location loc, Value index, ValueRange ivs,
                      int64_t axis, RankedTensorType indicesType,
                      RankedTensorType dataType, ArrayRef<Value> dataDims,
                      Operation *node);

/// The `k` indices of the tuple `indices[where..., :]` of GatherND or
/// ScatterND, each wrapped and checked against its dim in `dataDims`.
SmallVector<Value> readIndexTuple(OpBuilder &b, Location loc, Value indices,
                                  ValueRange where, int64_t k,
                                  ArrayRef<Value> dataDims, Operation *node);

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

/// Checks at run time that `size`, computed for dim `d` of a result of type
/// `type`, is the static size of that dim where it has one ("the output size
/// of dim d is not the inferred N").
void checkInferredSize(OpBuilder &b, Location loc, Operation *node,
                       RankedTensorType type, int64_t d, OpFoldResult size);

/// The sizes of a ranked tensor as index values.
SmallVector<Value> dimValues(OpBuilder &b, Location loc, Value tensor);

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

//===----------------------------------------------------------------------===//
// Spatial windows, accumulators, tensor builders
//===----------------------------------------------------------------------===//

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
  /// `a >= b ? x : y` (ONNXWindow.h's formulas use it).
  OpFoldResult selectGE(OpFoldResult a, OpFoldResult b, OpFoldResult x,
                        OpFoldResult y) const;
};

/// The window attributes of a convolution or pool over `spatialRank` dims,
/// with the spec's defaults (strides and dilations 1).
struct WindowAttrs {
  SmallVector<int64_t> kernel, strides, dilations;
  window::AutoPad autoPad = window::AutoPad::NotSet;
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
/// Checks at run time that a window of `kernel` taps `dilation` apart fits
/// in an input of size `in` padded with `begin` and `end` along spatial axis
/// `axis` (type inference checks static sizes; without the check a dynamic
/// one gives a negative output size).
void checkWindowFits(IndexMath &m, Operation *node, OpFoldResult in,
                     OpFoldResult begin, OpFoldResult end, int64_t kernel,
                     int64_t dilation, int64_t axis);

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

/// A linalg.generic applying `fn` to each element of the ranked tensor `t`,
/// into a fresh tensor of element type `elem`.
Value mapTensor(OpBuilder &b, Location loc, Value t, Type elem,
                function_ref<Value(OpBuilder &, Location, Value)> fn);

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

//===----------------------------------------------------------------------===//
// The base of the patterns
//===----------------------------------------------------------------------===//

/// An OpConversionPattern on the onnx op `OpT` with the steps the patterns
/// of convert-onnx-to-linalg open with. Derive from it
/// (`struct XLowering : ONNXToLinalgPattern<XOp>`); report what a pattern
/// cannot lower with emitLoweringError when it is the last pattern for the
/// op, else with notifyMatchFailure.
template <typename OpT>
class ONNXToLinalgPattern : public OpConversionPattern<OpT> {
public:
  using OpConversionPattern<OpT>::OpConversionPattern;

  /// The converted type of `value` (of the onnx level: a result of the op)
  /// as a ranked tensor type; null when it is not one.
  RankedTensorType getConvertedType(Value value) const {
    return dyn_cast_or_null<RankedTensorType>(
        this->getTypeConverter()->convertType(value.getType()));
  }

  /// The converted type of result `i` of `op` (the pass has checked that
  /// the results of onnx ops are ranked before it applies the patterns).
  RankedTensorType getResultType(Operation *op, unsigned i = 0) const {
    return getConvertedType(op->getResult(i));
  }

  /// The opening check of a pattern on one tensor operand: `result` the
  /// converted type of the op's first result and `type` the type of
  /// `operand`, both ranked; else a lowering error.
  LogicalResult getRankedTypes(Operation *op, Value operand,
                               RankedTensorType &result,
                               RankedTensorType &type) const {
    result = getResultType(op);
    type = dyn_cast<RankedTensorType>(operand.getType());
    if (!result || !type)
      return emitLoweringError(op, "expected ranked tensors");
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Optional operands
//===----------------------------------------------------------------------===//

/// True if `v` is absent or a tensor with no elements (an "empty" input).
bool isAbsent(Value v);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_CONVERSION_ONNXTOLINALG_UTILS_H
