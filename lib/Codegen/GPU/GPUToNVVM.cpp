//===- GPUToNVVM.cpp - Kernels to NVVM without libdevice ------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-gpu-to-nvvm (Passes.td): upstream's GPU→NVVM patterns with the math
// functions computed by polynomials and native intrinsics instead of
// libdevice calls (shared/notes/gpu-path.md, traps 3 and 7.3).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Codegen/GPU/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_GPUTONVVM
#include "OnnxDialect/Codegen/GPU/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// log10(x) = log(x) / ln(10): upstream has no expansion of it.
struct ExpandLog10 : OpRewritePattern<math::Log10Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::Log10Op op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!isa<FloatType>(getElementTypeOrSelf(type)))
      return failure();
    Value log = math::LogOp::create(rewriter, op.getLoc(), op.getOperand(),
                                    op.getFastmathAttr());
    Value scale = arith::ConstantOp::create(
        rewriter, op.getLoc(),
        rewriter.getFloatAttr(getElementTypeOrSelf(type),
                              0.434294481903251827651));
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, log, scale);
    return success();
  }
};

struct GPUToNVVM : public onnx::impl::GPUToNVVMBase<GPUToNVVM> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();

    // 1. Math functions into polynomials, expansions and native ops; views
    // into base buffers with explicit offsets and strides; affine maps into
    // arithmetic.
    {
      RewritePatternSet patterns(ctx);
      math::populateExpansionPatterns(patterns, {"tan", "sinh", "cosh", "asinh",
                                                 "acosh", "atanh", "powf",
                                                 "fpowi", "rsqrt", "exp2"});
      patterns.add<ExpandLog10>(ctx);
      populateMathPolynomialApproximationPatterns(
          patterns, [](StringRef name) { return true; });
      memref::populateExpandStridedMetadataPatterns(patterns);
      populateAffineToStdConversionPatterns(patterns);
      if (failed(applyPatternsGreedily(module, std::move(patterns))))
        return signalPassFailure();
    }
    // 2. NVPTX fuses a multiply and an add into fma.rn only when both may be
    // contracted.
    module.walk([](arith::ArithFastMathInterface op) {
      if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp>(op))
        op->setAttr(op.getFastMathAttrName(),
                    arith::FastMathFlagsAttr::get(
                        op->getContext(), op.getFastMathFlagsAttr().getValue() |
                                              arith::FastMathFlags::contract));
    });
    // 3. Everything to LLVM and NVVM.
    LowerToLLVMOptions options(ctx);
    LLVMTypeConverter converter(ctx, options);
    configureGpuToNVVMTypeConverter(converter);
    RewritePatternSet patterns(ctx);
    populateSCFToControlFlowConversionPatterns(patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    arith::populateExpandBFloat16Patterns(patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    // Upstream's GPU patterns without the ones it adds for math and arith
    // ops, which call libdevice (__nv_fmaf, __nv_floorf, __nv_fmodf, ...).
    RewritePatternSet gpuPatterns(ctx);
    populateGpuToNVVMConversionPatterns(converter, gpuPatterns);
    llvm::erase_if(gpuPatterns.getNativePatterns(),
                   [](const std::unique_ptr<RewritePattern> &pattern) {
                     std::optional<OperationName> root = pattern->getRootKind();
                     return root && (root->getDialectNamespace() == "math" ||
                                     root->getDialectNamespace() == "arith");
                   });
    for (std::unique_ptr<RewritePattern> &pattern :
         gpuPatterns.getNativePatterns())
      patterns.add(std::move(pattern));
    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addIllegalDialect<gpu::GPUDialect>();
    target.addLegalOp<gpu::GPUModuleOp>();
    // The functions NVPTX has no instruction for, which only libdevice
    // would provide.
    target.addIllegalOp<LLVM::ExpOp, LLVM::LogOp, LLVM::Log10Op, LLVM::PowOp,
                        LLVM::SinOp, LLVM::CosOp, LLVM::TanOp>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // What is left unconverted has no code here: name it.
    WalkResult left = module.walk([&](Operation *op) {
      if (op == module ||
          isa<LLVM::LLVMDialect, NVVM::NVVMDialect>(op->getDialect()))
        return WalkResult::advance();
      op->emitError() << "onnx-gpu-to-nvvm: '" << op->getName()
                      << "' has no lowering for kernels (no libdevice)";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
