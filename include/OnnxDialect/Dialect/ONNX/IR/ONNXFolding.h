//===- ONNXFolding.h - Folding of onnx ops ----------------------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Folds onnx ops whose results are known: shape arithmetic over static
// shapes (Shape, Size, Gather, Slice, Concat, Squeeze/Unsqueeze, Cast, Range,
// ConstantOfShape, elementwise integer arithmetic, ...), ops on constant
// inputs up to a size limit, and ops that do nothing (Identity, Reshape to
// the same static shape, Transpose by the identity permutation, Cast to the
// same type). Used by the dialect's canonicalization patterns and by
// onnx-infer-shapes, which folds as it infers.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXFOLDING_H
#define ONNXDIALECT_IR_ONNXFOLDING_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
class SymbolTableCollection;
namespace onnx {

/// The most elements a folded constant may have.
constexpr int64_t kFoldElementLimit = 4096;

/// Computes replacements for the results of `op` (an onnx operator op):
/// existing values, or new onnx.Constant ops created with `builder` before
/// `op`. Each replacement has exactly the type of the result it replaces
/// unless `allowRefinedTypes` (then a constant may have a more precise type
/// than an unranked or dynamic result). `symbolTables` (optional) lets
/// initializers be read as constants. Fails, creating nothing, when the op
/// does not fold.
LogicalResult foldONNXOp(Operation *op, OpBuilder &builder,
                         SmallVectorImpl<Value> &replacements,
                         bool allowRefinedTypes = false,
                         SymbolTableCollection *symbolTables = nullptr);

/// Adds the pattern that folds onnx ops with foldONNXOp.
void populateONNXFoldingPatterns(RewritePatternSet &patterns);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_IR_ONNXFOLDING_H
