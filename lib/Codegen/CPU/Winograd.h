//===- Winograd.h - Winograd's minimal filtering along rows -----*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the Winograd convolutions of onnx-cpu-pack-matmul (plain layout) and
// onnx-cpu-blocked-layout share: the F(m, 3) matrices and the kernel that
// combines rows of tensors by one of them.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_CODEGEN_CPU_WINOGRAD_H
#define ONNXDIALECT_LIB_CODEGEN_CPU_WINOGRAD_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace mlir {
namespace onnx {

/// Winograd's minimal filtering F(m, 3) (Lavin and Gray, "Fast Algorithms
/// for Convolutional Neural Networks", 2016): m outputs of a 3-tap
/// filter g over alpha = m + 2 inputs d as A^T [(G g) . (B^T d)], alpha
/// multiplications instead of 3 m.
struct WinogradRows {
  int64_t m, alpha;
  ArrayRef<double> bt; // alpha x alpha
  ArrayRef<double> g;  // alpha x 3
  ArrayRef<double> at; // m x alpha
};

/// F(m, 3) for m = 2 or 4 (else nothing).
std::optional<WinogradRows> winogradRows(int64_t m);

/// For each row o of the `rows` x inputs.size() `matrix`,
/// out[..., o, ...] = sum_j matrix[o][j] * inputs[j][...] (+ bias): one
/// linalg.generic over `type`, whose dim `at` is o. Each input is indexed by
/// the other dims, and column j of the matrix is a constant vector indexed
/// by o (a zero coefficient multiplies too: 0 * Inf is NaN, as for every
/// row that a Winograd transform mixes).
Value combineRows(OpBuilder &b, Location loc, ArrayRef<Value> inputs,
                  ArrayRef<double> matrix, int64_t rows, RankedTensorType type,
                  int64_t at, float bias = 0);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_CODEGEN_CPU_WINOGRAD_H
