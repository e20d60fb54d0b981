//===- MapToKernels.cpp - Parallel loop nests onto blocks and threads -----===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-gpu-map-to-kernels (Passes.td) and canRunOnDevice, the test of what a
// kernel may hold, which onnx-gpu-to-nvvm's lowering must agree with.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_GPUMAPTOKERNELS
#include "OnnxDialect/Codegen/GPU/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

//===----------------------------------------------------------------------===//
// What a kernel may hold
//===----------------------------------------------------------------------===//

/// Scalars a kernel computes with: integers up to 64 bits, index, and the
/// floats NVPTX has registers for.
static bool isDeviceScalar(Type type) {
  if (isa<IndexType, Float16Type, BFloat16Type, Float32Type, Float64Type>(type))
    return true;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth() <= 64;
  return false;
}

bool mlir::onnx::isKernelType(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return !memref.getMemorySpace() && isDeviceScalar(memref.getElementType());
  return isDeviceScalar(type);
}

/// Math functions of any float type that become LLVM intrinsics NVPTX
/// selects natively (onnx-gpu-to-nvvm's MathToLLVM step), and the integer
/// ones.
static bool isNativeMath(StringRef name) {
  static const llvm::StringSet<> names = {
      "math.absf", "math.ceil",     "math.floor",     "math.trunc", "math.sqrt",
      "math.fma",  "math.copysign", "math.roundeven", "math.round", "math.absi",
      "math.ctlz", "math.cttz",     "math.ctpop",     "math.isnan"};
  return names.contains(name);
}

/// Math functions that onnx-gpu-to-nvvm approximates by polynomials or
/// expands into those, in f32 (f16/bf16 are computed in f32).
static bool isApproximatedMath(StringRef name) {
  static const llvm::StringSet<> names = {
      "math.exp",   "math.exp2",  "math.expm1", "math.log",   "math.log2",
      "math.log1p", "math.log10", "math.tanh",  "math.erf",   "math.erfc",
      "math.sin",   "math.cos",   "math.tan",   "math.atan",  "math.atan2",
      "math.asin",  "math.acos",  "math.sinh",  "math.cosh",  "math.asinh",
      "math.acosh", "math.atanh", "math.powf",  "math.fpowi", "math.rsqrt",
      "math.cbrt"};
  return names.contains(name);
}

static bool isDeviceMath(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (isNativeMath(name))
    return true;
  if (!isApproximatedMath(name))
    return false;
  // The approximations are f32 only; f64 has none without libdevice.
  return llvm::all_of(op->getOperandTypes(), [](Type t) {
    return isa<Float16Type, BFloat16Type, Float32Type, IntegerType>(
        getElementTypeOrSelf(t));
  });
}

/// Ops other than math that a kernel may hold.
static bool isDeviceOp(Operation *op) {
  if (isa<arith::ArithDialect, index::IndexDialect, ub::UBDialect>(
          op->getDialect()))
    return true;
  if (isa<math::MathDialect>(op->getDialect()))
    return isDeviceMath(op);
  if (auto reduce = dyn_cast<scf::ReduceOp>(op))
    return reduce.getNumOperands() == 0;
  return isa<scf::ForOp, scf::IfOp, scf::YieldOp, scf::ParallelOp, scf::WhileOp,
             scf::ConditionOp, scf::IndexSwitchOp, affine::AffineApplyOp,
             affine::AffineMinOp, affine::AffineMaxOp, memref::LoadOp,
             memref::StoreOp, memref::SubViewOp, memref::ReinterpretCastOp,
             memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp,
             memref::DimOp, memref::AssumeAlignmentOp>(op);
}

bool mlir::onnx::canRunOnDevice(Operation *root, std::string &why) {
  WalkResult result = root->walk([&](Operation *op) {
    if (op != root && !isDeviceOp(op)) {
      why = "it holds '" + op->getName().getStringRef().str() + "'";
      if (isa<math::MathDialect>(op->getDialect()))
        why += " on " + [&] {
          std::string s;
          llvm::raw_string_ostream os(s);
          os << getElementTypeOrSelf(op->getOperandTypes().front());
          return s;
        }() + ", which has no kernel code without libdevice";
      return WalkResult::interrupt();
    }
    for (TypeRange types :
         {TypeRange(op->getOperandTypes()), TypeRange(op->getResultTypes())})
      for (Type type : types)
        if (!isKernelType(type)) {
          llvm::raw_string_ostream os(why);
          os << "'" << op->getName() << "' uses " << type
             << ", which kernels do not handle";
          return WalkResult::interrupt();
        }
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

bool mlir::onnx::canRunInKernel(Operation *op) {
  std::string why;
  return isDeviceOp(op) && canRunOnDevice(op, why);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

/// The trip count of a 1-D loop when it is static.
static std::optional<int64_t> staticTripCount(scf::ParallelOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[0]);
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound()[0]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[0]);
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return *ub <= *lb ? 0 : (*ub - *lb + *step - 1) / *step;
}

struct GPUMapToKernels
    : public onnx::impl::GPUMapToKernelsBase<GPUMapToKernels> {
  using Base::Base;

  void runOnOperation() override {
    if (blockSize < 32 || blockSize > 1024 || blockSize % 32 != 0) {
      getOperation().emitError()
          << "onnx-gpu-map-to-kernels: block-size must be a multiple of 32 "
             "from 32 to 1024, not "
          << static_cast<int64_t>(blockSize);
      return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> outermost;
    getOperation().walk<WalkOrder::PreOrder>([&](scf::ParallelOp loop) {
      outermost.push_back(loop);
      return WalkResult::skip();
    });
    for (scf::ParallelOp loop : outermost)
      if (failed(mapLoop(loop)))
        return signalPassFailure();
  }

  LogicalResult mapLoop(scf::ParallelOp loop) {
    std::string why;
    if (loop.getNumResults() != 0)
      why = "it reduces into loop results";
    else
      (void)canRunOnDevice(loop, why);
    if (!why.empty()) {
      if (remarks)
        loop.emitRemark() << "this loop nest runs on the host: " << why;
      return success();
    }
    MLIRContext *ctx = loop.getContext();
    IRRewriter rewriter(ctx);
    // One dimension: any number of dims and any sizes map onto a 1-D grid.
    if (loop.getNumLoops() > 1) {
      Operation *before = loop->getPrevNode();
      Block *block = loop->getBlock();
      std::vector<unsigned> all(loop.getNumLoops());
      std::iota(all.begin(), all.end(), 0u);
      rewriter.setInsertionPoint(loop);
      collapseParallelLoops(rewriter, loop, {all});
      Operation *next = before ? before->getNextNode() : &block->front();
      while (next && !isa<scf::ParallelOp>(next))
        next = next->getNextNode();
      if (!next)
        return emitError(block->getParentOp()->getLoc(),
                         "onnx-gpu-map-to-kernels: the collapsed loop is "
                         "missing");
      loop = cast<scf::ParallelOp>(next);
    }
    // A short static loop gets one block of just enough warps.
    int64_t threads = blockSize;
    if (std::optional<int64_t> trips = staticTripCount(loop))
      threads = std::clamp<int64_t>((*trips + 31) / 32 * 32, 32, blockSize);
    auto [blocks, inner] =
        scf::tileParallelLoop(loop, {threads}, /*noMinMaxBounds=*/true);
    AffineMap identity = rewriter.getDimIdentityMap();
    auto mapTo = [&](scf::ParallelOp op, gpu::Processor processor) {
      SmallVector<gpu::ParallelLoopDimMappingAttr> mapping(
          op.getNumLoops(), gpu::ParallelLoopDimMappingAttr::get(
                                ctx, processor, identity, identity));
      return gpu::setMappingAttr(op, mapping);
    };
    if (failed(mapTo(blocks, gpu::Processor::BlockX)) ||
        failed(mapTo(inner, gpu::Processor::ThreadX)))
      return failure();
    // Parallel loops inside a thread run sequentially.
    LogicalResult nested = success();
    inner.getBody()->walk([&](scf::ParallelOp op) {
      if (failed(mapTo(op, gpu::Processor::Sequential)))
        nested = failure();
    });
    return nested;
  }
};

} // namespace
