//===- FuseElementwise.cpp - Elementwise fusion without recomputation -----===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream's linalg-fuse-elementwise-ops fuses every elementwise producer
// with one use into its consumer. When the consumer has loops that do not
// index the fused operand, the producer's body then runs once per iteration
// of those loops instead of once per element: a softmax's normalization fused
// into the matmul with V computed its division 64 times per element (a
// transformer's attention ran 20x slower than its matmul alone), and the
// fused generic no longer had the shape the code generator vectorizes.
//
// This pass runs upstream's pattern sets (elementwise fusion, reshapes folded
// by expansion, canonicalization, constant folding) with a control function
// that fuses such a producer only when its body just moves data (a broadcast, a
// transpose, a copy), which costs nothing to recompute.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "OnnxDialect/Pipelines/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;

/// Fuses `fused`'s producer into its consumer when the producer has no other
/// use and fusing computes each of its elements once (or it computes
/// nothing).
static bool fusesWithoutRecomputation(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto producerOp = dyn_cast<linalg::LinalgOp>(producer);
  auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  if (!producerOp || !consumer)
    return true; // reshapes: as upstream
  AffineMap map = consumer.getMatchingIndexingMap(fused);
  bool everyLoop = true;
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    everyLoop &= map.isFunctionOfDim(d);
  if (everyLoop)
    return true;
  Region &body = producer->getRegion(0);
  return body.hasOneBlock() && body.front().without_terminator().begin() ==
                                   body.front().without_terminator().end();
}

namespace {
struct FuseElementwisePass
    : public mlir::onnx::impl::FuseElementwisePassBase<FuseElementwisePass> {

  void runOnOperation() override {
    Operation *op = getOperation();
    MLIRContext *context = op->getContext();
    RewritePatternSet patterns(context);
    linalg::ControlFusionFn control = fusesWithoutRecomputation;
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, control);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, control);
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    if (failed(applyPatternsGreedily(op, std::move(patterns), config)))
      return signalPassFailure();
  }
};
} // namespace
