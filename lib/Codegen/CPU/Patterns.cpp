//===- Patterns.cpp - What the CPU code-generation passes share -----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One place that applies a sweep with the canonicalization patterns the
// pipelines use (kDisabledCanonicalization excepted), the passes' check of
// their target, the reading of the constants they pack at compile time, and
// the addition of an accumulator's init after its product.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Codegen/CPU/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/bit.h"

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

/// Whether `type` is f32, or, with `words`, any type of 32-bit elements
/// (i32: the products of MatMulInteger), whose elements a pack moves as
/// they are.
bool mlir::onnx::isPackedElementType(Type type, bool words) {
  return type.isF32() || (words && type.isInteger(32));
}

/// The f32 elements of a constant, or nothing when they are not in memory
/// (an elided or missing resource blob). With `words`, also the elements of
/// an i32 constant, as their bits.
std::optional<ArrayRef<float>>
mlir::onnx::constantData(Value value, float &splat, bool words) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue())) {
    if (!isPackedElementType(dense.getElementType(), words))
      return std::nullopt;
    if (dense.isSplat()) {
      splat = dense.getElementType().isF32()
                  ? dense.getSplatValue<float>()
                  : llvm::bit_cast<float>(dense.getSplatValue<int32_t>());
      return ArrayRef<float>();
    }
    ArrayRef<char> raw = dense.getRawData();
    return ArrayRef<float>(reinterpret_cast<const float *>(raw.data()),
                           raw.size() / sizeof(float));
  }
  if (auto resource =
          dyn_cast<DenseResourceElementsAttr>(constant.getValue())) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || !isPackedElementType(resource.getElementType(), words))
      return std::nullopt;
    ArrayRef<char> raw = blob->getData();
    auto type = cast<ShapedType>(resource.getType());
    if (raw.size() != static_cast<size_t>(type.getNumElements()) * 4)
      return std::nullopt;
    return ArrayRef<float>(reinterpret_cast<const float *>(raw.data()),
                           raw.size() / sizeof(float));
  }
  return std::nullopt;
}

Value mlir::onnx::addInit(OpBuilder &b, Location loc, Value product,
                          Value init) {
  auto type = cast<RankedTensorType>(init.getType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{product, init},
             ValueRange{empty}, {id, id, id},
             SmallVector<utils::IteratorType>(type.getRank(),
                                              utils::IteratorType::parallel),
             [](OpBuilder &nb, Location nl, ValueRange args) {
               Value sum = isa<FloatType>(args[0].getType())
                               ? arith::AddFOp::create(nb, nl, args[1], args[0])
                                     .getResult()
                               : arith::AddIOp::create(nb, nl, args[1], args[0])
                                     .getResult();
               linalg::YieldOp::create(nb, nl, sum);
             })
      .getResult(0);
}
