//===- ONNXToLinalg.h - onnx to linalg patterns -----------------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pieces of convert-onnx-to-linalg: the type converter and the populate
// functions, grouped by op family (a folder of lib/Conversion/ONNXToLinalg
// each, one function per source file). Every populate function is declared
// here.
// The helpers the families share, and the conventions of their patterns,
// are in lib/Conversion/ONNXToLinalg/Utils.h.
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
/// RuntimeValues.cpp); every other type is kept.
class ONNXToLinalgTypeConverter : public TypeConverter {
public:
  ONNXToLinalgTypeConverter();
};

//===----------------------------------------------------------------------===//
// Patterns, by op family: one folder of lib/Conversion/ONNXToLinalg each,
// named as in lib/Dialect/ONNX/IR/Inference and
// lib/Dialect/ONNX/Transforms/Decompose; one function per source file
//===----------------------------------------------------------------------===//

// Elementwise (Elementwise/)

/// Unary and n-ary elementwise math, comparison, logic, bitwise ops, Where,
/// Max/Min/Sum/Mean.
void populateElementwiseToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns);

/// Cast between numeric types (float8, 4- and 2-bit types included).
void populateCastToLinalgPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns);

/// BitCast.
void populateBitCastToLinalgPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);

// Math (Math/)

/// MatMul, Gemm, Einsum.
void populateMatMulToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);

/// Det.
void populateDetToLinalgPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns);

// NN (NN/)

/// Conv, ConvTranspose.
void populateConvToLinalgPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns);

/// MaxPool, AveragePool, LpPool and their Global forms.
void populatePoolingToLinalgPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);

/// BatchNormalization, InstanceNormalization, LpNormalization, LRN.
void populateNormalizationToLinalgPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns);

/// Resize.
void populateResizeToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);

/// GridSample.
void populateGridSampleToLinalgPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns);

/// RoiAlign, DeformConv.
void populateSamplingToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);

/// NonMaxSuppression.
void populateDetectionToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);

/// DFT, STFT, MelWeightMatrix.
void populateSignalToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);

/// RNN, GRU, LSTM (an scf.for over time with linalg.matmul gates).
void populateRecurrentToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);

/// LinearAttention (an scf.for over tokens carrying the recurrent state).
void populateLinearAttentionToLinalgPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns);

// Reduction (Reduction/)

/// ReduceSum/Mean/Max/Min/Prod, ArgMax/ArgMin, Hardmax, CumSum, CumProd,
/// TopK.
void populateReductionToLinalgPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns);

// Tensor (Tensor/)

/// Constants, initializers (ml_program globals), Identity, Dropout.
void populateConstantToLinalgPatterns(const TypeConverter &converter,
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

/// ScatterElements, ScatterND, TensorScatter, MaxUnpool (called by
/// populateGatherScatterToLinalgPatterns).
void populateScatterToLinalgPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);

/// Unique (called by populateGatherScatterToLinalgPatterns).
void populateUniqueToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);

/// RandomUniform, RandomNormal and their Like forms (a counter-based
/// generator: a hash of (seed, element index)).
void populateRandomToLinalgPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);

// Quantization (Quantization/)

/// QuantizeLinear, DequantizeLinear, MatMulInteger, ConvInteger,
/// QLinearMatMul, QLinearConv.
void populateQuantizationToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns);

// Sequence (Sequence/)

/// Sequences and optionals as runtime values: SequenceEmpty/Construct/
/// Insert/Erase/At/Length, ConcatFromSequence, SplitToSequence, Optional,
/// OptionalHasElement, OptionalGetElement, SequenceMap.
void populateSequenceToLinalgPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);

// Text (Text/)

/// Tensors of strings: StringConcat, RegexFullMatch, StringNormalizer,
/// StringSplit, and the string forms of Equal, Cast and Constant.
void populateStringsToLinalgPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);

/// TfIdfVectorizer.
void populateTfIdfVectorizerToLinalgPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns);

// ControlFlow (ControlFlow/)

/// If, Loop, Scan (to scf.if / scf.while / scf.for) and the onnx.yield of
/// their regions.
void populateControlFlowToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns);

// ML (ML/)

/// ai.onnx.ml TreeEnsemble (constant tree tables, a walk per tree with
/// scf.while).
void populateTreeEnsembleToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns);

/// ai.onnx.ml LabelEncoder.
void populateLabelEncoderToLinalgPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_CONVERSION_ONNXTOLINALG_ONNXTOLINALG_H
