//===- ExpandBF16.cpp - bf16 conversions as integer arithmetic ------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// f32 <-> bf16 conversions rewritten into integer arithmetic before the
// conversion to LLVM, so that no host needs a libcall for them (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_EXPANDBF16CASTSPASS
#include "OnnxDialect/Pipelines/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;

namespace {
struct ExpandBF16CastsPass
    : public mlir::onnx::impl::ExpandBF16CastsPassBase<ExpandBF16CastsPass> {
  void runOnOperation() override {
    // Most models have no bf16: the pattern driver (which also folds every
    // op of the module) is not started for them.
    auto isBF16 = [](Type type) { return getElementTypeOrSelf(type).isBF16(); };
    WalkResult found = getOperation()->walk([&](Operation *op) {
      if (isa<arith::ExtFOp, arith::TruncFOp>(op) &&
          (isBF16(op->getOperand(0).getType()) ||
           isBF16(op->getResult(0).getType())))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (!found.wasInterrupted())
      return;
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
