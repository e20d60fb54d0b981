//===- OpsetConversion.h - Converting ops between opsets --------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The op-level entry of onnx-convert-opset, for passes that bring ops of
// other opsets into a graph (function inlining).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_TRANSFORMS_OPSETCONVERSION_H
#define ONNXDIALECT_TRANSFORMS_OPSETCONVERSION_H

#include "OnnxDialect/Dialect/ONNX/IR/ONNXBuilder.h"
#include "mlir/IR/Operation.h"

namespace mlir {
namespace onnx {

/// Rewrites `op` (an ai.onnx operator op; others are left alone) to the
/// version of its operator that ai.onnx opset `target` selects. On failure
/// an error naming the op and versions has been emitted.
LogicalResult convertOpToOpset(Operation *op, int64_t target);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_TRANSFORMS_OPSETCONVERSION_H
