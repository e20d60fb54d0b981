//===- ExportONNX.h - The onnx dialect to ONNX protobuf ---------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The exporter as a library function and its registration as
// onnx-translate's --export.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_TARGET_ONNX_EXPORTONNX_H
#define ONNXDIALECT_TARGET_ONNX_EXPORTONNX_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir {
namespace onnx {

struct ExportOptions {
  /// Write protobuf text format instead of binary.
  bool textFormat = false;
  /// Tensors of at least this many bytes go to `externalDataFile` (when
  /// that is set); smaller ones stay in the model.
  int64_t externalDataThreshold = 1024;
  /// The external data file (written here; the model names it by its file
  /// name, so it must end up beside the model).
  std::string externalDataFile;
};

/// Writes the module (as the importer makes it: an entry function, globals
/// for initializers, onnx ops) as an ONNX ModelProto.
LogicalResult exportONNXModel(ModuleOp module, llvm::raw_ostream &os,
                              const ExportOptions &options = {});

/// Registers `--export` with mlir-translate's registry.
void registerExportONNXTranslation();

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_TARGET_ONNX_EXPORTONNX_H
