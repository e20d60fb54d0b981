//===- Passes.h - The CPU code-generation stage -----------------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Declarations and registration of the passes of Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_CODEGEN_CPU_PASSES_H
#define ONNXDIALECT_CODEGEN_CPU_PASSES_H

#include "OnnxDialect/Codegen/CPU/CPUTarget.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

#include <optional>

namespace mlir {
namespace onnx {

/// The upstream canonicalization pattern the pipelines disable wherever they
/// canonicalize: it folds a tensor.cast of an scf.for init into the loop's
/// iter_arg type, assuming the carried value keeps the init's shape, but a
/// Scan output buffer starts as a placeholder (0 along the dims its first
/// value decides) and is replaced in the first iteration.
inline constexpr const char *kDisabledCanonicalization =
    "(anonymous namespace)::ForOpTensorCastFolder";

/// The unit attribute onnx-cpu-pack-matmul puts on the linalg.generic of a
/// direct convolution (a packed filter times shifted rows of the image,
/// accumulated in mmt4d's layout), which onnx-cpu-tile-and-vectorize
/// schedules as one.
inline constexpr const char *kDirectConvAttr = "onnx.cpu.direct_conv";

/// The unit attribute onnx-cpu-blocked-layout puts on the linalg.generic of
/// a convolution, depthwise convolution or pooling on activations in the
/// blocked layout [N, C/c0, H, W, c0] (c0 channels in the lanes of a
/// vector), which onnx-cpu-tile-and-vectorize schedules as one.
inline constexpr const char *kBlockedConvAttr = "onnx.cpu.blocked_conv";

/// The unit attribute onnx-cpu-pack-matmul puts on the linalg.generic of a
/// product of 8-bit quads with AVX-512 VNNI: mmt4d's loops and maps, [M/m0,
/// K/4, m0, 4] signed bytes times [N/n0, K/4, n0, 4] unsigned bytes into
/// [M/m0, N/n0, m0, n0] x i32, which onnx-cpu-tile-and-vectorize schedules
/// as an mmt4d and computes with one `vpdpbusd` per row and quad of k.
inline constexpr const char *kQuadProductAttr = "onnx.cpu.quad_product";

/// The output positions of a register tile of an op marked kBlockedConvAttr:
/// a whole output row of 4 to kMaxTileRows positions, else the largest
/// divisor of the row from 4 to kMaxTileRows (112: 16, 56 and 28: 14); 0
/// when there is none, and the op keeps the plain layout. (Rows of fewer
/// than 4 positions, a squeeze-and-excitation block's 1x1 map, would be
/// tiles of fewer than 4 accumulators, whose FMAs wait on each other.)
inline int64_t blockedRowSegment(int64_t ow) {
  if (ow < 4)
    return 0;
  return ow <= kMaxTileRows ? ow : largestDivisor(ow, kMaxTileRows, 4);
}

/// The unit attribute onnx-cpu-pack-matmul puts on a tensor.insert_slice
/// whose source should be computed in place, in the destination's slice:
/// onnx-cpu-tile-and-vectorize makes the op that writes the source (into a
/// tensor.empty, through loops, reshapes and destination-style ops) write
/// into that slice instead (the image of a depthwise convolution in the
/// zero-bordered buffer its windows read).
inline constexpr const char *kWriteInPlaceAttr = "onnx.cpu.write_in_place";

/// The attribute (the op's location) onnx-cpu-pack-matmul puts on the
/// tensor.empty of such a destination, so that CSE keeps the buffers of
/// different ops apart.
inline constexpr const char *kBufferOfAttr = "onnx.cpu.buffer_of";

/// The operand in whose buffer the result `value` is computed: an scf.for's
/// init or a destination-style op's tied init; null for other values.
inline OpOperand *tiedInit(Value value) {
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return nullptr;
  Operation *def = result.getOwner();
  if (auto loop = dyn_cast<scf::ForOp>(def))
    return &loop.getInitArgsMutable()[result.getResultNumber()];
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(def))
    return dps.getTiedOpOperand(result);
  return nullptr;
}

/// The last operand of the chain of tiedInit from `value`: where the buffer
/// `value` is computed in comes from, through loops and destination-style
/// ops. Null when `value` is not computed so.
inline OpOperand *computedIn(Value value) {
  OpOperand *last = nullptr;
  while (OpOperand *next = tiedInit(value)) {
    last = next;
    value = next->get();
  }
  return last;
}

/// Applies `patterns` greedily to `root`, with every loaded dialect's and
/// registered op's canonicalization patterns but kDisabledCanonicalization
/// when `canonicalize` is set.
LogicalResult applyCodegenPatterns(Operation *root,
                                   RewritePatternSet &&patterns,
                                   bool canonicalize);

/// Fails, with an error on `op` naming the CPU, when `target` is not a CPU
/// LLVM knows.
LogicalResult checkTarget(const CPUTarget &target, Operation *op);

/// product + init, elementwise, into a new tensor of init's type: the init
/// (a bias broadcast over the output) is an input that elementwise fusion
/// folds into the product's epilogue with the activation after it, rather
/// than an accumulator materialized and packed before the product.
Value addInit(OpBuilder &b, Location loc, Value product, Value init);

/// Whether `type` is f32, or, with `words`, any type of 32-bit elements
/// (i32: the products of MatMulInteger), whose elements a pack moves as
/// they are.
bool isPackedElementType(Type type, bool words);

/// The f32 elements of the constant `value` (with `words`, also those of an
/// i32 constant, as their bits); empty for a splat, whose value is put in
/// `splat`; nothing when `value` is not a constant or its elements are not
/// in memory (an elided or missing resource blob).
std::optional<ArrayRef<float>> constantData(Value value, float &splat,
                                            bool words = false);

#define GEN_PASS_DECL
#include "OnnxDialect/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "OnnxDialect/Codegen/CPU/Passes.h.inc"

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_CODEGEN_CPU_PASSES_H
