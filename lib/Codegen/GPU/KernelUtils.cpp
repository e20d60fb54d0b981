//===- KernelUtils.cpp - Index arithmetic of the kernel builders ----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

Value mlir::onnx::loopProduct(OpBuilder &b, Location loc,
                              ArrayRef<unsigned> dims, ArrayRef<Value> sizes) {
  if (dims.empty())
    return arith::ConstantIndexOp::create(b, loc, 1);
  Value product = sizes[dims.front()];
  for (unsigned d : dims.drop_front())
    product = arith::MulIOp::create(b, loc, product, sizes[d]);
  return product;
}

void mlir::onnx::delinearizeLoops(OpBuilder &b, Location loc, Value linear,
                                  ArrayRef<unsigned> dims,
                                  ArrayRef<Value> sizes,
                                  MutableArrayRef<Value> loops) {
  if (dims.empty())
    return;
  for (unsigned d : llvm::reverse(dims.drop_front())) {
    loops[d] = arith::RemUIOp::create(b, loc, linear, sizes[d]);
    linear = arith::DivUIOp::create(b, loc, linear, sizes[d]);
  }
  loops[dims.front()] = linear;
}

SmallVector<Value> mlir::onnx::operandIndicesAt(OpBuilder &b, Location loc,
                                                linalg::LinalgOp op,
                                                OpOperand &operand,
                                                ArrayRef<Value> loops) {
  SmallVector<Value> indices;
  for (AffineExpr expr : op.getMatchingIndexingMap(&operand).getResults())
    indices.push_back(
        affine::expandAffineExpr(b, loc, expr, loops, ValueRange()));
  return indices;
}
