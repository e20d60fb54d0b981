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

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_CODEGEN_GPU_KERNELUTILS_H
