//===- ImportONNX.h - ONNX protobuf to the onnx dialect ---------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The importer as a library function (other compilers call it directly) and
// its registration as onnx-translate's --import.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_TARGET_ONNX_IMPORTONNX_H
#define ONNXDIALECT_TARGET_ONNX_IMPORTONNX_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <string>

namespace mlir {
class MLIRContext;
namespace onnx {

struct ImportOptions {
  /// Binary ModelProto, protobuf text format, or the ONNX textual syntax
  /// (Syntax.md).
  enum class Format { Auto, Binary, Text, Syntax };
  /// The encoding of the input; Auto looks at the content.
  Format format = Format::Auto;
  /// The directory that external data files are resolved against (and
  /// confined to); the model file's directory when empty.
  std::string modelDirectory;
  /// Tensors of more bytes than this become dense_resource blobs; smaller
  /// ones are printed inline as dense<...>.
  int64_t inlineTensorLimit = 64;
  /// Names that are not C90 identifiers are errors rather than warnings
  /// (and so are the other SHOULDs that onnx-validate checks).
  bool strict = false;
  /// Run onnx-validate on the imported module (its diagnostics are the
  /// import's).
  bool validate = true;
  /// Subgraphs nested deeper than this are refused.
  unsigned maxGraphDepth = 64;
  /// Sparse tensors whose dense form (which lowerings materialize) has more
  /// bytes than this are refused before anything is allocated for them.
  uint64_t maxTensorBytes = uint64_t(16) << 30;
};

/// Imports an ONNX model (ModelProto, binary or protobuf text format) into a
/// new module. Diagnostics go to the context's handler; null on failure.
OwningOpRef<ModuleOp> importONNXModel(llvm::MemoryBufferRef buffer,
                                      MLIRContext *context,
                                      const ImportOptions &options = {});

/// Imports a model file, streaming a binary model from the file rather than
/// holding all of it in memory beside the tensors it holds.
OwningOpRef<ModuleOp>
importONNXModelFromFile(llvm::StringRef path, MLIRContext *context,
                        const ImportOptions &options = {});

/// The options given on the command line (--onnx-model-dir, --onnx-strict,
/// ...); registered by registerImportONNXTranslation.
ImportOptions getImportOptionsFromCommandLine();

/// Registers `--import` with mlir-translate's registry.
void registerImportONNXTranslation();

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_TARGET_ONNX_IMPORTONNX_H
