//===- Compiler.h - The compiler behind the runtime's C API -----*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Runtime, the compiler library (OnnxDialectCompiler): the
// steps from a model file to native code (import, lowering, LLVM IR for the
// host CPU, the JIT and the shared library). Runtime.h has what the runtime
// library shares with it.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_RUNTIME_COMPILER_H
#define ONNXDIALECT_LIB_RUNTIME_COMPILER_H

#include "Runtime.h"

#include "llvm/ADT/StringRef.h"

#include <memory>

namespace mlir {
class ExecutionEngine;
namespace onnx {
namespace runtime {

/// A model compiled in process: its engine keeps the code alive.
struct JITModel : CodeOwner {
  Signature signature;
  std::unique_ptr<ExecutionEngine> engine;
  PackedEntry entry = nullptr;
  JITModel();
  ~JITModel() override;
};

/// Compiles `path` to native code in process.
Error compileJIT(llvm::StringRef path, const onnxd_options &options,
                 JITModel &model);

/// Compiles `path` and writes what `kind` says to `outPath`.
Error emit(llvm::StringRef path, const onnxd_options &options,
           onnxd_emit_kind kind, llvm::StringRef outPath);

} // namespace runtime
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_RUNTIME_COMPILER_H
