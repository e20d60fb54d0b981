//===- CrashGuard.cpp - A compiler crash as an error ----------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CrashGuard.h"

#include "mlir/IR/Action.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Rewrite/PatternApplicator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace mlir;
using namespace mlir::onnx::runtime;

namespace {
/// One action in progress: a pass on an op, or a pattern tried on an op.
struct Frame {
  const Pass *pass = nullptr;
  /// A copy: the action itself lives on the stack of the code that runs it.
  std::optional<ApplyPatternAction> apply;
  Operation *op = nullptr;
};
} // namespace

struct CrashGuard::State {
  /// The actions in progress, outermost first. A crash skips their pops, so
  /// after one the stack shows where it happened.
  llvm::SmallVector<Frame, 8> frames;
  bool crashed = false;
  /// ONNXD_DEBUG_CRASH_IN_PASS=PASS[:PATTERN]: the compiler crashes on
  /// purpose when the pass with that argument starts or, with PATTERN, when
  /// it tries a pattern whose name contains PATTERN (how the tests reach
  /// this code).
  std::string crashInPass, crashInPattern;

  bool shouldCrash(const Frame &frame) const {
    if (crashInPass.empty())
      return false;
    const Frame *pass = frame.pass ? &frame : nullptr;
    for (const Frame &f : llvm::reverse(frames))
      if (!pass && f.pass)
        pass = &f;
    if (!pass || pass->pass->getArgument() != crashInPass)
      return false;
    if (crashInPattern.empty())
      return frame.pass != nullptr;
    if (!frame.apply)
      return false;
    std::string name;
    llvm::raw_string_ostream os(name);
    frame.apply->print(os);
    return llvm::StringRef(name).contains(crashInPattern);
  }
};

CrashGuard::CrashGuard(MLIRContext &context)
    : context(context), state(std::make_unique<State>()) {
  if (const char *crash = std::getenv("ONNXD_DEBUG_CRASH_IN_PASS")) {
    auto [pass, pattern] = llvm::StringRef(crash).split(':');
    state->crashInPass = pass.str();
    state->crashInPattern = pattern.str();
  }
  State *s = state.get();
  context.registerActionHandler(
      [s](llvm::function_ref<void()> transform, const tracing::Action &action) {
        Frame frame;
        for (IRUnit unit : action.getContextIRUnits())
          if (auto *op = llvm::dyn_cast_if_present<Operation *>(unit)) {
            frame.op = op;
            break;
          }
        if (auto *pass = llvm::dyn_cast<PassExecutionAction>(&action))
          frame.pass = &pass->getPass();
        else if (auto *apply = llvm::dyn_cast<ApplyPatternAction>(&action))
          frame.apply.emplace(*apply);
        else
          return transform();
        bool crashHere = s->shouldCrash(frame);
        s->frames.push_back(std::move(frame));
        if (crashHere)
          std::raise(SIGSEGV);
        transform();
        s->frames.pop_back();
      });
}

CrashGuard::~CrashGuard() {
  // After a crash the handler stays (the context is never used again) and
  // so does the state it points to.
  if (state->crashed) {
    (void)state.release();
    return;
  }
  context.registerActionHandler(nullptr);
}

bool CrashGuard::crashed() const { return state->crashed; }

/// The name of the first NameLoc in `loc` (the importer gives each op the
/// name of its ONNX node), or "".
static std::string nodeName(Location loc) {
  auto named = loc->findInstanceOf<NameLoc>();
  return named ? named.getName().str() : "";
}

/// "'op.name' of node 'N'" for `op`.
static void describeOp(llvm::raw_ostream &os, Operation *op) {
  os << "'" << op->getName() << "'";
  std::string node = nodeName(op->getLoc());
  if (!node.empty())
    os << " of node '" << node << "'";
}

std::string mlir::onnx::runtime::crashedIn(int retCode, llvm::StringRef stage) {
  std::string text = "the compiler crashed";
  if (retCode > 128 && retCode < 128 + NSIG)
    text += std::string(" (") + strsignal(retCode - 128) + ")";
  return text + " in " + stage.str();
}

std::optional<std::string> CrashGuard::run(llvm::StringRef stage,
                                           llvm::function_ref<void()> step) {
  if (state->crashed)
    return "the compiler crashed earlier in this compilation";
  static std::once_flag once;
  std::call_once(once, [] { llvm::CrashRecoveryContext::Enable(); });
  size_t depth = state->frames.size();
  llvm::CrashRecoveryContext recovery;
  if (recovery.RunSafely(step))
    return std::nullopt;

  state->crashed = true;
  std::string text = crashedIn(recovery.RetCode, stage);
  llvm::raw_string_ostream os(text);
  // The innermost pass and pattern application of the steps that crashed.
  const Frame *pass = nullptr, *apply = nullptr;
  for (const Frame &frame :
       llvm::make_range(state->frames.begin() + depth, state->frames.end())) {
    if (frame.pass)
      pass = &frame;
    else if (frame.apply)
      apply = &frame;
  }
  if (pass) {
    llvm::StringRef name = pass->pass->getArgument();
    os << ", pass '" << (name.empty() ? pass->pass->getName() : name) << "'";
  }
  if (apply) {
    std::string pattern;
    llvm::raw_string_ostream ps(pattern);
    apply->apply->print(ps);
    llvm::StringRef p = llvm::StringRef(pattern).rsplit("pattern: ").second;
    if (!p.empty())
      os << " applying pattern '" << p << "'";
    if (apply->op) {
      os << " to ";
      describeOp(os, apply->op);
    }
  } else if (pass && pass->op) {
    os << " on ";
    describeOp(os, pass->op);
  }
  os << kCrashIsABug;
  state->frames.truncate(depth);
  return text;
}
