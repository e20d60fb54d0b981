//===- InitAllDialects.h - Every dialect the tools load ---------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one place that says which dialects onnx-opt and onnx-translate know: the
// onnx dialect, and every upstream dialect with its interface extensions
// (bufferization models, inliner interfaces, ...) for the lowerings.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_INITALLDIALECTS_H
#define ONNXDIALECT_INITALLDIALECTS_H

#include "OnnxDialect/IR/ONNXDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"

namespace mlir {
namespace onnx {

inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<ONNXDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
}

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_INITALLDIALECTS_H
