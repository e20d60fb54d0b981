//===- Translation.cpp - ONNX models to and from MLIR (C API) -------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// include/OnnxDialect-c/Translation.h over the importer and exporter of
// lib/Target/ONNX.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect-c/Translation.h"

#include "OnnxDialect/Target/ONNX/ExportONNX.h"
#include "OnnxDialect/Target/ONNX/ImportONNX.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"

using namespace mlir;

MlirModule onnxImportModel(MlirContext context, MlirStringRef bytes,
                           MlirStringRef modelDirectory) {
  llvm::MemoryBufferRef buffer(unwrap(bytes), "<memory>");
  onnx::ImportOptions options;
  options.modelDirectory = unwrap(modelDirectory).str();
  OwningOpRef<ModuleOp> module =
      onnx::importONNXModel(buffer, unwrap(context), options);
  return MlirModule{module.release().getOperation()};
}

MlirModule onnxImportModelFile(MlirContext context, MlirStringRef path) {
  OwningOpRef<ModuleOp> module =
      onnx::importONNXModelFromFile(unwrap(path), unwrap(context));
  return MlirModule{module.release().getOperation()};
}

MlirLogicalResult onnxExportModel(MlirModule module, bool textFormat,
                                  MlirStringCallback callback, void *userData) {
  detail::CallbackOstream stream(callback, userData);
  onnx::ExportOptions options;
  options.textFormat = textFormat;
  LogicalResult result = onnx::exportONNXModel(unwrap(module), stream, options);
  stream.flush();
  return wrap(result);
}
