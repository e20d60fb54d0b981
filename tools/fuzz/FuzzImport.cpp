//===- FuzzImport.cpp - libFuzzer target for the model importer -----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One source, three targets (tools/fuzz/CMakeLists.txt): ONNXD_FUZZ_FORMAT
// picks the input encoding the importer is told to expect, so that each
// parser gets inputs of its own: onnx-import-fuzzer (binary ModelProto),
// onnx-text-fuzzer (protobuf text format), onnx-syntax-fuzzer (the ONNX
// textual syntax). Each input is imported as onnx-translate --import does
// it, onnx-validate included, then verified; an input is good when that
// ends in a module or in diagnostics, and bad when it crashes, hangs or runs
// out of memory.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Target/ONNX/ImportONNX.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>

using namespace mlir;

#ifndef ONNXD_FUZZ_FORMAT
#error "ONNXD_FUZZ_FORMAT must name an ImportOptions::Format"
#endif

namespace {
/// A context is reused across inputs (making one loads the onnx dialect's
/// thousands of ops) and replaced now and then, so that what its uniquers
/// keep from earlier inputs stays bounded.
struct FuzzState {
  std::unique_ptr<MLIRContext> context;
  unsigned uses = 0;
  /// An empty directory: external data is resolved against it (and
  /// confined to it), so no input reads files of the machine.
  std::string modelDirectory;

  MLIRContext &get() {
    if (!context || ++uses > 256) {
      context = std::make_unique<MLIRContext>(MLIRContext::Threading::DISABLED);
      context->loadDialect<onnx::ONNXDialect, func::FuncDialect,
                           ml_program::MLProgramDialect>();
      // Diagnostics are expected results here; printing them would only
      // slow the fuzzer down.
      context->getDiagEngine().registerHandler([](Diagnostic &) {});
      uses = 1;
    }
    return *context;
  }
};
} // namespace

static FuzzState &state() {
  static FuzzState s;
  return s;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::SmallString<128> dir;
  if (!llvm::sys::fs::createUniqueDirectory("onnxd-fuzz", dir))
    state().modelDirectory = dir.str().str();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &context = state().get();
  onnx::ImportOptions options;
  options.format = onnx::ImportOptions::Format::ONNXD_FUZZ_FORMAT;
  options.modelDirectory = state().modelDirectory;
  // The tensor size limit is the user's to configure; a low one here keeps
  // the fuzzer's inputs within its 4 GiB memory limit.
  options.maxTensorBytes = uint64_t(256) << 20;
  llvm::MemoryBufferRef buffer(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "input");
  OwningOpRef<ModuleOp> module =
      onnx::importONNXModel(buffer, &context, options);
  if (module)
    (void)verify(*module);
  return 0;
}
