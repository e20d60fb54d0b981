//===- KernelUtils.cpp - Index arithmetic of the kernel builders ----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"
#include "OnnxDialect/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

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

SmallVector<Value> mlir::onnx::loopsAtIndices(linalg::LinalgOp op,
                                              OpOperand &operand,
                                              ArrayRef<Value> indices) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  assert(map.isPermutation() && "a permutation map");
  SmallVector<Value> loops(op.getNumLoops());
  for (auto [i, index] : llvm::enumerate(indices))
    loops[map.getDimPosition(i)] = index;
  return loops;
}

Value mlir::onnx::bufferRoot(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>()) {
    if (view.getViewDest() != buffer)
      break;
    buffer = view.getViewSource();
  }
  return buffer;
}

llvm::SmallPtrSet<Value, 8> mlir::onnx::bufferAliases(Value root) {
  llvm::SmallPtrSet<Value, 8> aliases;
  SmallVector<Value> work{root};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!aliases.insert(v).second)
      continue;
    for (Operation *user : v.getUsers())
      if (auto view = dyn_cast<ViewLikeOpInterface>(user))
        if (view.getViewSource() == v)
          work.push_back(view.getViewDest());
  }
  return aliases;
}

bool mlir::onnx::touchesBuffer(Operation *op,
                               const llvm::SmallPtrSetImpl<Value> &aliases) {
  if (isMemoryEffectFree(op))
    return false;
  WalkResult result = op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (aliases.contains(operand))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

bool mlir::onnx::isElementwiseKernelOp(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return false;
  if (!llvm::all_of(op->getOperandTypes(), isKernelType))
    return false;
  for (Operation &inner : op.getBlock()->without_terminator())
    if (!isa<linalg::IndexOp>(inner) &&
        (!isMemoryEffectFree(&inner) || !canRunInKernel(&inner)))
      return false;
  return true;
}

SmallVector<Value>
mlir::onnx::emitBodyAt(OpBuilder &b, Location loc, linalg::LinalgOp op,
                       ArrayRef<Value> loops,
                       const llvm::SmallDenseMap<OpOperand *, Value> &given) {
  IRMapping mapping;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (arg.use_empty())
      continue;
    if (auto it = given.find(&operand); it != given.end()) {
      mapping.map(arg, it->second);
      continue;
    }
    Value value = operand.get();
    if (isa<MemRefType>(value.getType()))
      value = memref::LoadOp::create(
          b, loc, value, operandIndicesAt(b, loc, op, operand, loops));
    mapping.map(arg, value);
  }
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner))
      mapping.map(index.getResult(), loops[index.getDim()]);
    else
      b.clone(inner, mapping);
  }
  SmallVector<Value> results;
  for (Value yielded : body->getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(yielded));
  return results;
}
