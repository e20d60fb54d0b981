//===- onnx-translate.cpp - Translations to and from the onnx dialect -----===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mlir-translate with the ONNX import and export. One addition:
// `onnx-translate --import model.onnx --emit-bytecode -o model.mlirbc` writes
// MLIR bytecode directly (no text in between, resources stay binary).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/InitAllDialects.h"
#include "OnnxDialect/InitAllTranslations.h"
#include "OnnxDialect/Target/ONNX/ImportONNX.h"
#include "OnnxDialect/Target/ONNX/TensorData.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstring>

using namespace mlir;

namespace {
/// Forwards to another stream, then lets mapped external data that was just
/// written leave memory.
class ReleasingStream : public llvm::raw_ostream {
public:
  explicit ReleasingStream(llvm::raw_ostream &os) : os(os) { SetUnbuffered(); }

private:
  void write_impl(const char *ptr, size_t size) override {
    os.write(ptr, size);
    if (size >= (64 << 10))
      onnx::releaseExternalDataPages(ptr, size);
  }
  uint64_t current_pos() const override { return os.tell(); }
  llvm::raw_ostream &os;
};
} // namespace

static int importToBytecode(int argc, char **argv) {
  static llvm::cl::opt<std::string> input(
      llvm::cl::Positional, llvm::cl::desc("<model>"), llvm::cl::Required);
  static llvm::cl::opt<std::string> output("o", llvm::cl::desc("Output file"),
                                           llvm::cl::init("-"));
  static llvm::cl::opt<bool> import("import", llvm::cl::desc("Import ONNX"),
                                    llvm::cl::Required);
  static llvm::cl::opt<bool> emitBytecode("emit-bytecode",
                                          llvm::cl::desc("Write bytecode"));
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "OnnxDialect ONNX to MLIR bytecode\n");
  MLIRContext context;
  context.loadDialect<onnx::ONNXDialect, func::FuncDialect,
                      ml_program::MLProgramDialect>();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = onnx::importONNXModelFromFile(
      input, &context, onnx::getImportOptionsFromCommandLine());
  if (!module)
    return 1;
  std::string error;
  auto out = openOutputFile(output, &error);
  if (!out) {
    llvm::errs() << error << "\n";
    return 1;
  }
  ReleasingStream stream(out->os());
  if (failed(writeBytecodeToFile(*module, stream)))
    return 1;
  stream.flush();
  out->keep();
  return 0;
}

/// mlir-translate reads its whole input before translating it: an input
/// that is a device or a pipe named on the command line (/dev/zero) may never
/// end, so such inputs are refused ('-' still reads standard input). The
/// input is the argument that is neither an option nor the output after -o.
static bool checkInputIsRegularFile(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "-o") {
      ++i;
      continue;
    }
    if (arg.starts_with("-"))
      continue;
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(arg, status))
      continue; // a missing file: mlir-translate says so
    llvm::sys::fs::file_type type = status.type();
    if (type != llvm::sys::fs::file_type::regular_file &&
        type != llvm::sys::fs::file_type::directory_file) {
      llvm::errs() << arg
                   << ": error: not a regular file: models are read from "
                      "files (or '-' for standard input)\n";
      return false;
    }
  }
  return true;
}

int main(int argc, char **argv) {
  onnx::registerAllTranslations();
  if (!checkInputIsRegularFile(argc, argv))
    return 1;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--emit-bytecode") == 0)
      return importToBytecode(argc, argv);
  return failed(
      mlirTranslateMain(argc, argv, "OnnxDialect translation driver"));
}
