//===- StridedCopies.cpp - memref.copy of strided memrefs to linalg.copy --===//
//
// Bufferization copies slices (tensor.extract_slice / insert_slice, concat,
// pad) with memref.copy between memrefs with strided layouts. The LLVM
// lowering turns such a copy into a call of `memrefCopy` from MLIR's runner
// support library, which compiled models do not link. As linalg.copy they
// become loops like every other linalg op (and, later, vector code).
// Copies between identity layouts stay memref.copy (a memcpy).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace {
struct StridedCopiesPass
    : public PassWrapper<StridedCopiesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StridedCopiesPass)

  StringRef getArgument() const override {
    return "onnx-strided-copies-to-linalg";
  }
  StringRef getDescription() const override {
    return "memref.copy between memrefs that are not identity-layout becomes "
           "linalg.copy";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect>();
  }

  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp op) {
      auto source = dyn_cast<MemRefType>(op.getSource().getType());
      auto target = dyn_cast<MemRefType>(op.getTarget().getType());
      if (source && target &&
          (!source.getLayout().isIdentity() ||
           !target.getLayout().isIdentity()))
        copies.push_back(op);
    });
    for (memref::CopyOp op : copies) {
      OpBuilder b(op);
      linalg::CopyOp::create(b, op.getLoc(), op.getSource(), op.getTarget());
      op.erase();
    }
  }
};
} // namespace

std::unique_ptr<Pass> mlir::onnx::createStridedCopiesToLinalgPass() {
  return std::make_unique<StridedCopiesPass>();
}
