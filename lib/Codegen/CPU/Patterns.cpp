//===- Patterns.cpp - What the CPU code-generation passes share -----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One place that applies a sweep with the canonicalization patterns the
// pipelines use (kDisabledCanonicalization excepted), and the passes' check
// of their target.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Codegen/CPU/Passes.h"

#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

LogicalResult mlir::onnx::applyCodegenPatterns(Operation *root,
                                               RewritePatternSet &&patterns,
                                               bool canonicalize) {
  MLIRContext *context = root->getContext();
  if (canonicalize) {
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, context);
  }
  FrozenRewritePatternSet frozen(std::move(patterns),
                                 /*disabledPatternLabels=*/
                                 {kDisabledCanonicalization});
  return applyPatternsGreedily(root, frozen);
}

LogicalResult mlir::onnx::checkTarget(const CPUTarget &target, Operation *op) {
  if (target.valid)
    return success();
  return op->emitError() << "unknown target CPU '" << target.cpu << "'";
}
