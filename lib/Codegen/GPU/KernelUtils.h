//===- KernelUtils.h - Index arithmetic of the kernel builders --*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What onnx-gpu-contraction-kernels and onnx-gpu-reduction-kernels both do
// when they turn a linalg op's loop dims into a kernel's indices.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_CODEGEN_GPU_KERNELUTILS_H
#define ONNXDIALECT_LIB_CODEGEN_GPU_KERNELUTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir {
namespace onnx {

/// The product of the loop sizes `sizes[d]` of `dims` (1 for none).
Value loopProduct(OpBuilder &b, Location loc, ArrayRef<unsigned> dims,
                  ArrayRef<Value> sizes);

/// Sets `loops[d]` for the dims `dims` from their linear index `linear`
/// over `sizes`, the last dim fastest (the first takes what is left).
void delinearizeLoops(OpBuilder &b, Location loc, Value linear,
                      ArrayRef<unsigned> dims, ArrayRef<Value> sizes,
                      MutableArrayRef<Value> loops);

/// The indices of `operand` of `op` at the loop values `loops`.
SmallVector<Value> operandIndicesAt(OpBuilder &b, Location loc,
                                    linalg::LinalgOp op, OpOperand &operand,
                                    ArrayRef<Value> loops);

/// The loop values of `op` at which `operand`, whose indexing map is a
/// permutation, is at `indices`.
SmallVector<Value> loopsAtIndices(linalg::LinalgOp op, OpOperand &operand,
                                  ArrayRef<Value> indices);

//===----------------------------------------------------------------------===//
// Elementwise ops computed inside another op's kernel
//===----------------------------------------------------------------------===//

/// The buffer `buffer` is a view of (through view-like ops), or `buffer`.
Value bufferRoot(Value buffer);

/// `root` and every view of it (through view-like ops).
llvm::SmallPtrSet<Value, 8> bufferAliases(Value root);

/// Whether `op`, or an op it holds, may read or write memory and has one of
/// `aliases` as an operand.
bool touchesBuffer(Operation *op, const llvm::SmallPtrSetImpl<Value> &aliases);

/// Whether `op` is a linalg op on buffers whose loops are all parallel and
/// whose body a kernel's thread can compute for one point of its loops: its
/// maps projected permutations, its operands of kernel types, the ops of its
/// body free of memory effects and able to run in a kernel.
bool isElementwiseKernelOp(linalg::LinalgOp op);

/// Emits the body of `op` (isElementwiseKernelOp) at the loop values
/// `loops` and returns the values it yields. The block arguments of the
/// operands in `given` are the given values; the other used ones are their
/// buffer's element at the operand's indices (a load), or their scalar.
SmallVector<Value>
emitBodyAt(OpBuilder &b, Location loc, linalg::LinalgOp op,
           ArrayRef<Value> loops,
           const llvm::SmallDenseMap<OpOperand *, Value> &given);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_CODEGEN_GPU_KERNELUTILS_H
