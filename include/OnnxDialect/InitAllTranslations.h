//===- InitAllTranslations.h - Translations of onnx-translate ---*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one place that registers translations for onnx-translate: the upstream
// ones (MLIR to LLVM IR, ...) and the project's ONNX import and export.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_INITALLTRANSLATIONS_H
#define ONNXDIALECT_INITALLTRANSLATIONS_H

#include "OnnxDialect/Target/ONNX/ExportONNX.h"
#include "OnnxDialect/Target/ONNX/ImportONNX.h"

namespace mlir {
void registerToLLVMIRTranslation();
} // namespace mlir

namespace mlir {
namespace onnx {

inline void registerAllTranslations() {
  mlir::registerToLLVMIRTranslation();
  registerImportONNXTranslation();
  registerExportONNXTranslation();
}

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_INITALLTRANSLATIONS_H
