//===- ExpandShapes.cpp - Expand shapes with dynamic groups as casts ------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-expand-shapes-to-reinterpret-casts (Passes.td): a memref.expand_shape
// with two or more dynamic sizes in one reassociation group becomes a
// memref.reinterpret_cast with the same result type, so that
// expand-strided-metadata never sees it.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_EXPANDSHAPESTOREINTERPRETCASTSPASS
#include "OnnxDialect/Pipelines/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;

/// Whether a group of `op` has more than one dynamic size.
static bool hasDynamicGroup(memref::ExpandShapeOp op) {
  MemRefType type = op.getResultType();
  for (const ReassociationIndices &group : op.getReassociationIndices())
    if (llvm::count_if(group, [&](int64_t d) { return type.isDynamicDim(d); }) >
        1)
      return true;
  return false;
}

static LogicalResult rewrite(memref::ExpandShapeOp op) {
  MemRefType type = op.getResultType();
  SmallVector<int64_t> typeStrides;
  int64_t typeOffset;
  if (failed(type.getStridesAndOffset(typeStrides, typeOffset)))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, op.getSrc());
  SmallVector<OpFoldResult> sizes = op.getMixedOutputShape();
  SmallVector<OpFoldResult> strides(type.getRank());
  for (auto [srcDim, group] : llvm::enumerate(op.getReassociationIndices())) {
    Value stride = meta.getStrides()[srcDim];
    for (int64_t i = group.size() - 1; i >= 0; --i) {
      int64_t d = group[i];
      strides[d] = stride;
      if (i > 0)
        stride = arith::MulIOp::create(
            b, loc, stride, getValueOrCreateConstantIndexOp(b, loc, sizes[d]));
    }
  }
  // What the result type knows statically is given as such (the verifier
  // compares the two).
  for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
    if (!ShapedType::isDynamic(typeStrides[d]))
      strides[d] = b.getIndexAttr(typeStrides[d]);
    if (!type.isDynamicDim(d))
      sizes[d] = b.getIndexAttr(type.getDimSize(d));
  }
  OpFoldResult offset = ShapedType::isDynamic(typeOffset)
                            ? OpFoldResult(meta.getOffset())
                            : OpFoldResult(b.getIndexAttr(typeOffset));
  auto cast = memref::ReinterpretCastOp::create(
      b, loc, type, meta.getBaseBuffer(), offset, sizes, strides);
  op.getResult().replaceAllUsesWith(cast.getResult());
  op.erase();
  return success();
}

namespace {
struct ExpandShapesPass
    : public mlir::onnx::impl::ExpandShapesToReinterpretCastsPassBase<
          ExpandShapesPass> {
  void runOnOperation() override {
    SmallVector<memref::ExpandShapeOp> ops;
    getOperation().walk([&](memref::ExpandShapeOp op) {
      if (hasDynamicGroup(op))
        ops.push_back(op);
    });
    for (memref::ExpandShapeOp op : ops)
      if (failed(rewrite(op))) {
        op.emitError("a memref.expand_shape with several dynamic sizes in "
                     "one group and a result layout without strides");
        return signalPassFailure();
      }
  }
};
} // namespace
