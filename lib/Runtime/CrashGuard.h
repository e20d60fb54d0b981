//===- CrashGuard.h - A compiler crash as an error --------------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The last line of defence of the compiler library: a step of a compilation
// (import, a pass pipeline, LLVM's code generation) runs under LLVM's
// CrashRecoveryContext, so that a crash inside it (a signal such as SIGSEGV
// or SIGFPE, an abort from an assertion, a fatal LLVM error) becomes an
// error naming the step, the pass, the pattern and the ONNX node it was
// working on, instead of ending the process. The bug itself is still a bug:
// the message says so. A compilation that crashed is never used again: its
// state is leaked, not destroyed (it may be corrupt).
//
// The compilation's MLIR context must run single-threaded (the compiler's
// does): crash recovery covers the thread that runs the step only.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_RUNTIME_CRASHGUARD_H
#define ONNXDIALECT_LIB_RUNTIME_CRASHGUARD_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir {
class MLIRContext;
namespace onnx {
namespace runtime {

/// "the compiler crashed (SIGNAL) in <stage>", for the return code of a
/// step that llvm::CrashRecoveryContext stopped.
std::string crashedIn(int retCode, llvm::StringRef stage);

/// What a crash message ends with.
constexpr const char *kCrashIsABug =
    ": this is a bug of OnnxDialect (or of MLIR/LLVM); please report it with "
    "the model";

/// Tracks the pass and the rewrite that `context` is in (through MLIR's
/// action handler) while it is alive, and runs steps under crash recovery.
class CrashGuard {
public:
  explicit CrashGuard(MLIRContext &context);
  ~CrashGuard();
  CrashGuard(const CrashGuard &) = delete;
  CrashGuard &operator=(const CrashGuard &) = delete;

  /// Runs `step`. If it crashes, returns what was running: "the compiler
  /// crashed (SIGNAL) in <stage>, pass 'P' applying pattern 'Q' to 'op'
  /// of node 'N'"; else nothing. After a crash, `crashed()` is true and
  /// every later run() refuses to run.
  std::optional<std::string> run(llvm::StringRef stage,
                                 llvm::function_ref<void()> step);

  bool crashed() const;

  struct State;

private:
  MLIRContext &context;
  std::unique_ptr<State> state;
};

} // namespace runtime
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_RUNTIME_CRASHGUARD_H
