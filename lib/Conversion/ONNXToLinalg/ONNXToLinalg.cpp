//===- ONNXToLinalg.cpp - The convert-onnx-to-linalg pass -----------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Collects the patterns of every op family, converts the function
// signatures (unsigned integers become signless) and runs a partial
// conversion in which the onnx dialect is illegal. Ops without a lowering
// and results of unknown rank are reported first, each naming the node; a
// pattern that cannot handle what it matched (an attribute value, a type)
// says why with emitLoweringError.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Conversion/Passes.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_CONVERTONNXTOLINALG
#include "OnnxDialect/Conversion/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

/// A run-time check before every tensor.cast that makes a dynamic dim static:
/// a lowering casts to the type inference gave (or a model declared), and a
/// run-time size that disagrees must fail the run, naming the node, instead
/// of reading or writing past a buffer.
static void checkNarrowingCasts(ModuleOp module) {
  module.walk([](tensor::CastOp cast) {
    auto from = dyn_cast<RankedTensorType>(cast.getSource().getType());
    auto to = dyn_cast<RankedTensorType>(cast.getType());
    if (!from || !to || from.getRank() != to.getRank())
      return;
    OpBuilder b(cast);
    Location loc = cast.getLoc();
    std::string where;
    if (auto name = dyn_cast<NameLoc>(loc))
      where = "node '" + name.getName().str() + "'";
    else if (auto file = dyn_cast<FileLineColLoc>(loc))
      where = (file.getFilename().str() + ":" + Twine(file.getLine()) + ":" +
               Twine(file.getColumn()))
                  .str();
    else
      where = "a node";
    for (int64_t d = 0; d < to.getRank(); ++d) {
      if (!from.isDynamicDim(d) || to.isDynamicDim(d))
        continue;
      Value size = tensor::DimOp::create(b, loc, cast.getSource(), d);
      Value ok = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, size,
          arith::ConstantIndexOp::create(b, loc, to.getDimSize(d)));
      cf::AssertOp::create(
          b, loc, ok,
          (where + ": a value's dim " + Twine(d) + " is not " +
           Twine(to.getDimSize(d)) +
           " at run time, the size its inferred or declared type gives")
              .str());
    }
  });
}

namespace {

struct ConvertONNXToLinalgPass
    : public onnx::impl::ConvertONNXToLinalgBase<ConvertONNXToLinalgPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    ONNXToLinalgTypeConverter converter;

    RewritePatternSet patterns(ctx);
    populateConstantToLinalgPatterns(converter, patterns);
    populateElementwiseToLinalgPatterns(converter, patterns);
    populateReductionToLinalgPatterns(converter, patterns);
    populateCastToLinalgPatterns(converter, patterns);
    populateMatMulToLinalgPatterns(converter, patterns);
    populateConvToLinalgPatterns(converter, patterns);
    populatePoolingToLinalgPatterns(converter, patterns);
    populateNormalizationToLinalgPatterns(converter, patterns);
    populateShapeToLinalgPatterns(converter, patterns);
    populateDataMovementToLinalgPatterns(converter, patterns);
    populateGatherScatterToLinalgPatterns(converter, patterns);
    populateResizeToLinalgPatterns(converter, patterns);
    populateQuantizationToLinalgPatterns(converter, patterns);
    populateRandomToLinalgPatterns(converter, patterns);
    populateGridSampleToLinalgPatterns(converter, patterns);
    populateSequenceToLinalgPatterns(converter, patterns);
    populateStringsToLinalgPatterns(converter, patterns);
    populateLabelEncoderToLinalgPatterns(converter, patterns);
    populateBitCastToLinalgPatterns(converter, patterns);
    populateDetToLinalgPatterns(converter, patterns);
    populateTfIdfVectorizerToLinalgPatterns(converter, patterns);
    populateControlFlowToLinalgPatterns(converter, patterns);
    populateRecurrentToLinalgPatterns(converter, patterns);
    populateLinearAttentionToLinalgPatterns(converter, patterns);
    populateSignalToLinalgPatterns(converter, patterns);
    populateDetectionToLinalgPatterns(converter, patterns);
    populateSamplingToLinalgPatterns(converter, patterns);
    populateTreeEnsembleToLinalgPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);

    // Ops that no pattern handles are reported all at once, by name.
    llvm::StringSet<> lowered;
    for (const std::unique_ptr<RewritePattern> &p :
         patterns.getNativePatterns())
      if (std::optional<OperationName> root = p->getRootKind())
        lowered.insert(root->getStringRef());
    bool missing = false;
    llvm::StringSet<> reported;
    module.walk([&](Operation *op) {
      if (!isa<ONNXDialect>(op->getDialect()))
        return;
      for (OpResult result : op->getResults())
        if (isa<UnrankedTensorType>(result.getType())) {
          InFlightDiagnostic diag = op->emitError()
                                    << describeNode(op) << ": result #"
                                    << result.getResultNumber();
          // An If whose branches disagree on the rank: onnx-infer-shapes
          // copies the ops after such an If into both branches, so this is
          // a value that leaves its graph with either rank.
          SmallVector<int64_t, 2> ranks;
          if (op->getNumRegions() == 2)
            for (Region &region : op->getRegions())
              if (region.hasOneBlock() &&
                  region.front().getTerminator()->getNumOperands() ==
                      op->getNumResults())
                if (auto t = dyn_cast<RankedTensorType>(
                        region.front()
                            .getTerminator()
                            ->getOperand(result.getResultNumber())
                            .getType()))
                  ranks.push_back(t.getRank());
          if (ranks.size() == 2 && ranks[0] != ranks[1])
            diag << " has rank " << ranks[1] << " in then_branch and "
                 << ranks[0]
                 << " in else_branch: the (sub)graph outputs that come "
                    "from it have no known rank, which is not supported";
          else
            diag << " has an unknown rank (run onnx-infer-shapes)";
          missing = true;
          return;
        }
      // The lowerings read ranks off their tensor operands (a region's
      // terminator is checked by its parent's lowering).
      for (OpOperand &operand : op->getOpOperands())
        if (!isa<YieldOp>(op) &&
            isa<UnrankedTensorType>(operand.get().getType())) {
          op->emitError() << describeNode(op) << ": operand #"
                          << operand.getOperandNumber()
                          << " has an unknown rank (give the graph input a "
                             "shape, or run onnx-infer-shapes)";
          missing = true;
          return;
        }
      if (lowered.contains(op->getName().getStringRef()))
        return;
      // A region's terminator goes with its parent op (reported if that has
      // no lowering).
      if (isa<YieldOp>(op))
        return;
      if (!reported.insert(op->getName().getStringRef()).second)
        return;
      op->emitError() << describeNode(op)
                      << ": no lowering to linalg for this op"
                      << (op->getName().getStringRef().contains("_v")
                              ? " (an old version: run onnx-convert-opset)"
                              : "");
      missing = true;
    });
    if (missing)
      return signalPassFailure();

    ConversionTarget target(*ctx);
    target.addLegalDialect<
        arith::ArithDialect, bufferization::BufferizationDialect,
        cf::ControlFlowDialect, complex::ComplexDialect, linalg::LinalgDialect,
        math::MathDialect, scf::SCFDialect, tensor::TensorDialect,
        LLVM::LLVMDialect, memref::MemRefDialect>();
    target.addIllegalDialect<ONNXDialect>();
    target.addLegalOp<ml_program::GlobalOp>();
    target.addIllegalOp<ml_program::GlobalLoadConstOp>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp>(
        [&](Operation *op) { return converter.isLegal(op); });

    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    checkNarrowingCasts(module);

    // Initializers are constants now; drop the globals nothing refers to.
    SymbolTableCollection symbols;
    SymbolUserMap users(symbols, module);
    for (auto global :
         llvm::make_early_inc_range(module.getOps<ml_program::GlobalOp>()))
      if (users.useEmpty(global))
        global.erase();
  }
};

} // namespace
