//===- LowerVectors.cpp - Vector ops on buffers to 1-D vector code --------===//
//
// The sweeps run one pattern set at a time, in this order; merged into one
// greedy sweep, the contraction, broadcast and canonicalization patterns
// rewrite each other's results without end. n-D transfers are unrolled into
// 1-D ones before anything converts them, so that none of them becomes a
// stack temporary inside a loop.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Codegen/CPU/CPUTarget.h"
#include "OnnxDialect/Codegen/CPU/Passes.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_CPULOWERVECTORS
#include "OnnxDialect/Codegen/CPU/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

namespace {

struct CPULowerVectorsPass
    : public onnx::impl::CPULowerVectorsBase<CPULowerVectorsPass> {
  using Base::Base;

  /// The target, resolved once before the pass runs on functions in
  /// parallel.
  LogicalResult initialize(MLIRContext *) override {
    target = CPUTarget::get(targetCPU, targetFeatures);
    return success();
  }
  CPUTarget target;

  void sweep(llvm::function_ref<void(RewritePatternSet &)> populate,
             bool canonicalize = false) {
    RewritePatternSet patterns(&getContext());
    populate(patterns);
    (void)applyCodegenPatterns(getOperation(), std::move(patterns),
                               canonicalize);
  }

  void runOnOperation() override {
    // Copies of small static tiles left by bufferization (a tile inserted
    // into a packed operand, or into a thread's part of the result) become
    // vector loads and stores, not loops (or nested parallel regions).
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      auto type = dyn_cast<MemRefType>(copy.getSource().getType());
      if (type && type.hasStaticShape() && type.getNumElements() <= 4096 &&
          (type.getElementType().isF32() || type.getElementType().isF64() ||
           type.getElementType().isInteger(32) ||
           type.getElementType().isInteger(64)))
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      (void)linalg::vectorizeCopy(rewriter, copy);
    }
    bool hasVectors = false;
    getOperation().walk([&](Operation *op) {
      if (isa<vector::VectorDialect>(op->getDialect()))
        hasVectors = true;
    });
    if (!hasVectors)
      return;
    if (failed(checkTarget(target, getOperation())))
      return signalPassFailure();

    sweep(
        [](RewritePatternSet &patterns) {
          vector::populateDropInnerMostUnitDimsXferOpPatterns(patterns);
          vector::populateVectorTransferDropUnitDimsPatterns(patterns);
        },
        /*canonicalize=*/true);
    sweep([](RewritePatternSet &patterns) {
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    });
    sweep([](RewritePatternSet &patterns) {
      vector::populateVectorContractLoweringPatterns(
          patterns, vector::VectorContractLowering::OuterProduct);
    });
    sweep([](RewritePatternSet &patterns) {
      vector::populateVectorOuterProductLoweringPatterns(patterns);
    });
    sweep([](RewritePatternSet &patterns) {
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorTransferLoweringPatterns(patterns,
                                                     /*maxTransferRank=*/1);
      vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
    });
    sweep([](RewritePatternSet &patterns) {
      VectorTransferToSCFOptions options;
      options.enableFullUnroll();
      options.setTargetRank(1);
      populateVectorToSCFConversionPatterns(patterns, options);
    });
    sweep([&](RewritePatternSet &patterns) {
      vector::populateVectorTransposeLoweringPatterns(
          patterns, target.vectorBits >= 512
                        ? vector::VectorTransposeLowering::Shuffle16x16
                        : vector::VectorTransposeLowering::Shuffle1D);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      vector::populateVectorBroadcastLoweringPatterns(patterns);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerReduction);
    });
    sweep([](RewritePatternSet &) {}, /*canonicalize=*/true);
  }
};

} // namespace
