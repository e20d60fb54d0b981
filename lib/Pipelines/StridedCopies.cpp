//===- StridedCopies.cpp - memref.copy of strided views to linalg.copy ----===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Bufferization copies into and out of views (tensor.pad writes its source
// into a subview of the padded buffer, a strided tensor.insert_slice into a
// strided subview). finalize-memref-to-llvm lowers a memref.copy whose
// operands are not both contiguous to a call of `memrefCopy` from MLIR's
// runner utils, which compiled models do not link. This pass turns those
// copies into linalg.copy, which becomes loops with the other linalg ops;
// contiguous copies stay memref.copy (an llvm.memcpy).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_STRIDEDCOPIESTOLINALGPASS
#include "OnnxDialect/Pipelines/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;

namespace {
struct StridedCopiesPass
    : public mlir::onnx::impl::StridedCopiesToLinalgPassBase<
          StridedCopiesPass> {
  using Base::Base;

  /// As finalize-memref-to-llvm decides between an llvm.memcpy and a call
  /// of `memrefCopy`: an identity layout, or a static shape contiguous in
  /// row-major order at any offset (a row of a larger buffer).
  static bool isContiguous(Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return memref && (memref.getLayout().isIdentity() ||
                      (memref.hasStaticShape() && memref.getNumElements() > 0 &&
                       memref::isStaticShapeAndContiguousRowMajor(memref)));
  }

  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp op) {
      if (all || !isContiguous(op.getSource().getType()) ||
          !isContiguous(op.getTarget().getType()))
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
