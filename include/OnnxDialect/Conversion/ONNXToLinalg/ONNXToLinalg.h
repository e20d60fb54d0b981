//===- ONNXToLinalg.h - onnx to linalg patterns and helpers -----*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pieces of convert-onnx-to-linalg: a populate function per op family
// (one source file each in lib/Conversion/ONNXToLinalg) and the helpers the
// families share (type conversion, broadcasting, run-time checks, reading
// constant operands).
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
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H
#define ONNXDIALECT_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"

#include <optional>

namespace mlir {
namespace onnx {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// Converts onnx value types to the types the lowering works on: tensors of
/// unsigned integers become tensors of signless integers of the same width;
/// sequences, optionals and maps become runtime handles (!llvm.ptr, see
/// Sequence.cpp); every other type is kept.
class ONNXToLinalgTypeConverter : public TypeConverter {
public:
  ONNXToLinalgTypeConverter();
};

/// True for the onnx types whose values are runtime handles after
/// conversion: !onnx.seq, !onnx.opt, !onnx.map.
bool isRuntimeHandleType(Type type);

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
SmallVector<OpFoldResult> computeBroadcastDims(OpBuilder &b, Location loc,
                                               ValueRange inputs,
                                               RankedTensorType resultType,
                                               Operation *node);

/// Builds `linalg.generic` computing `body` elementwise over `inputs`
/// broadcast (numpy rules) to `resultType`. `body` gets one scalar per
/// input and returns the result scalar. Inputs whose dims are statically
/// known to broadcast use indexing maps; a dynamic dim that may be 1 at run
/// time is read with tensor.extract at a clamped index.
Value buildElementwise(
    OpBuilder &b, Location loc, ValueRange inputs, RankedTensorType resultType,
    Operation *node,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body);

//===----------------------------------------------------------------------===//
// Patterns, one function per op family
//===----------------------------------------------------------------------===//

/// Constants, initializers (ml_program globals), Identity.
void populateConstantToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);

/// Unary and n-ary elementwise math, comparison, logic, bitwise ops, Where,
/// Max/Min/Sum/Mean.
void populateElementwiseToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns);

/// ReduceSum/Mean/Max/Min/Prod, ArgMax/ArgMin, Hardmax, CumSum, TopK.
void populateReductionToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);

/// Cast between numeric types (float8, 4- and 2-bit types included).
void populateCastToLinalgPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns);

/// MatMul, Gemm, Einsum.
void populateMatMulToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);

/// Conv, ConvTranspose.
void populateConvToLinalgPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns);

/// MaxPool, AveragePool, LpPool and their Global forms.
void populatePoolingToLinalgPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);

/// BatchNormalization, InstanceNormalization, LpNormalization, LRN.
void populateNormalizationToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);

/// Shape-level ops: Shape, Size, Reshape, Flatten, Squeeze, Unsqueeze,
/// Expand, ConstantOfShape, Range.
void populateShapeToLinalgPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);

/// Data movement: Transpose, Concat, Split, Slice, Pad, Tile,
/// DepthToSpace, SpaceToDepth, EyeLike, Trilu, ReverseSequence, Compress,
/// Col2Im.
void populateDataMovementToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns);

/// Indexed reads and writes: Gather, GatherElements, GatherND, OneHot,
/// NonZero, ScatterElements, ScatterND, TensorScatter, MaxUnpool, Unique.
void populateGatherScatterToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);

/// Resize.
void populateResizeToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);

/// QuantizeLinear, DequantizeLinear, MatMulInteger, ConvInteger,
/// QLinearMatMul, QLinearConv.
void populateQuantizationToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns);

/// RandomUniform, RandomNormal and their Like forms (a counter-based
/// generator: a hash of (seed, element index)).
void populateRandomToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);

/// GridSample.
void populateGridSampleToLinalgPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns);

/// Sequences and optionals as runtime values: SequenceEmpty/Construct/
/// Insert/Erase/At/Length, ConcatFromSequence, SplitToSequence, Optional,
/// OptionalHasElement, OptionalGetElement.
void populateSequenceToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);
/// BitCast, Det, TfIdfVectorizer.
void populateMiscToLinalgPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns);

/// ai.onnx.ml TreeEnsemble (constant tree tables, a walk per tree with
/// scf.while).
void populateTreeEnsembleToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns);

/// If, Loop, Scan (to scf.if / scf.while / scf.for) and the onnx.yield of
/// their regions.
void populateControlFlowToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns);

/// LinearAttention (an scf.for over tokens carrying the recurrent state).
void populateLinearAttentionToLinalgPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns);

/// RNN, GRU, LSTM (an scf.for over time with linalg.matmul gates).
void populateRecurrentToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H
