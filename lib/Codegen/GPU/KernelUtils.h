//===- KernelUtils.h - What the GPU kernel builders share -------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What onnx-gpu-contraction-kernels and onnx-gpu-reduction-kernels both do:
// turn a linalg op's loop dims into a kernel's indices, and compute in their
// kernels the elementwise ops that initialize and consume their outputs.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_CODEGEN_GPU_KERNELUTILS_H
#define ONNXDIALECT_LIB_CODEGEN_GPU_KERNELUTILS_H

#include "OnnxDialect/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

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

/// The buffer `buffer` is a reshape of (through expand_shape and
/// collapse_shape, all of identity layout: its elements in the same
/// order), or null.
Value reshapeRoot(Value buffer);

/// The indices in `to` of the element at `indices` of `from`, two reshapes
/// of one buffer (reshapeRoot): the row-major offset in one, delinearized
/// over the other's sizes.
SmallVector<Value> reshapeIndices(OpBuilder &b, Location loc, Value from,
                                  Value to, ArrayRef<Value> indices);

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
SmallVector<Value> emitBodyAt(OpBuilder &b, Location loc, linalg::LinalgOp op,
                              ArrayRef<Value> loops,
                              ArrayRef<std::pair<OpOperand *, Value>> given);

/// The most epilogues chained after one kernel's op.
inline constexpr size_t kMaxEpilogues = 4;

/// The elementwise ops that a kernel computing one output element at a
/// time (a product's, a reduction's) computes too (matchFusion).
struct Fusion {
  /// The op that initializes the output, or null: its body is evaluated
  /// where the kernel would load the output's element.
  linalg::LinalgOp prologue;
  /// An op that consumes the output (the first), or the one output of the
  /// stage before, right after: its body is evaluated on the value the
  /// stage before computed.
  struct Stage {
    linalg::LinalgOp op;
    /// Its operands that are the value it consumes.
    SmallVector<OpOperand *> fused;
    /// Whether the kernel stores its results (the last stage's always).
    bool storeResults = true;
    /// Whether it writes a buffer the kernel reads: then it is fused only
    /// where its results need no store (see matchFusion).
    bool writesRead = false;
  };
  SmallVector<Stage> epilogues;
  /// Whether the kernel stores its results into the output.
  bool storeOutput = true;
  /// The last op of the chain (where the kernel goes), or null.
  linalg::LinalgOp last() const {
    return epilogues.empty() ? linalg::LinalgOp() : epilogues.back().op;
  }
};

/// The elementwise ops that the kernel of `op` (one output, whose elements
/// it computes each in one thread, from `op`'s inputs alone) can compute
/// too, where the output is a buffer of its own (a memref.alloc):
/// - the prologue: the op before `op` that writes the whole output without
///   reading it (a fill, a broadcast bias; isElementwiseKernelOp, its output
///   at a permutation), where no op between them touches the output or
///   may write the prologue's inputs;
/// - the epilogues: the op right after `op` (past allocations and ops free
///   of memory effects) that reads the output (and no other view of it) at
///   one permutation, and writes, at permutations, the output itself at
///   that permutation or buffers of their own, and that it reads itself
///   only at the element it writes; then, while each has one output, up
///   to kMaxEpilogues in all, the op right after it that reads that output
///   likewise (and writes nothing the stages before write). A stage that
///   writes a buffer `op`, the prologue or a stage before reads stays in
///   the chain only where its results need no store: the next stage is in
///   the chain, does not write them in place, and no op after the two
///   reads that buffer before an op overwrites all of it (the chain is cut
///   before the first stage for which that fails).
/// The kernel stores the results of each stage but the last (its own into
/// the output) unless the next stage writes them in place or no op but the
/// two stages (and deallocations, views and dims) uses them. `claimed`
/// holds the ops other kernels compute already, which are not fused again;
/// those fused here are added.
Fusion matchFusion(linalg::LinalgOp op,
                   llvm::SmallPtrSetImpl<Operation *> &claimed);

/// An op a kernel pass takes, what its matcher says of it, and the ops
/// its kernel fuses.
template <typename Info> struct KernelMatch {
  linalg::LinalgOp op;
  Info info;
  Fusion fusion;
  /// Where the kernel goes: before the last epilogue (whose operands may
  /// be defined after `op`), or `op`.
  Operation *anchor() const {
    linalg::LinalgOp last = fusion.last() ? fusion.last() : op;
    return last.getOperation();
  }
};

/// The linalg ops in `root` (outside kernels and fallbacks) for which
/// `match` returns something, in order, each with the ops its kernel fuses
/// (matchFusion, with `fuse`); an op fused into an earlier one's kernel is
/// not taken.
template <typename Info>
std::vector<KernelMatch<Info>> matchKernelOps(
    Operation *root, bool fuse,
    llvm::function_ref<std::optional<Info>(linalg::LinalgOp)> match) {
  std::vector<KernelMatch<Info>> matches;
  llvm::SmallPtrSet<Operation *, 16> claimed;
  root->walk([&](linalg::LinalgOp op) {
    if (op->getParentOfType<gpu::LaunchOp>() || op->hasAttr(kGPUFallbackAttr) ||
        claimed.contains(op))
      return;
    std::optional<Info> info = match(op);
    if (!info)
      return;
    claimed.insert(op);
    matches.push_back(
        {op, std::move(*info), fuse ? matchFusion(op, claimed) : Fusion()});
  });
  return matches;
}

/// The output's element at `indices` before `op` runs: the prologue's value
/// there, or a load.
Value emitOutputElement(OpBuilder &b, Location loc, const Fusion &fusion,
                        OpOperand &out, ArrayRef<Value> indices);

/// Stores `value`, the output's element at `indices`, where the fusion
/// needs it: into the output (storeOutput), then each epilogue's results
/// at that element into its outputs (storeResults).
void emitStoreOutputElement(OpBuilder &b, Location loc, const Fusion &fusion,
                            OpOperand &out, ArrayRef<Value> indices,
                            Value value);

/// Clones the prologue, `op` (marked kGPUFallbackAttr) and the epilogues at
/// `b`'s insertion point, for where the kernel cannot run.
void cloneFallback(OpBuilder &b, const Fusion &fusion, linalg::LinalgOp op);

/// Where a kernel's launch sizes fit (`fits`, an i1) the kernel, else its
/// fallback: an scf.if whose else branch `fallback` builds, `b` left at
/// the start of its then branch. Where `fits` is the constant true
/// (static sizes that fit, folded as the condition was built), neither
/// the if nor the fallback: `b` stays where it is.
void guardKernel(OpBuilder &b, Location loc, Value fits,
                 function_ref<void()> fallback);

//===----------------------------------------------------------------------===//
// Images padded for one op
//===----------------------------------------------------------------------===//

/// An operand's buffer made for its op alone by padding (what
/// bufferization leaves of tensor.pad): `padded`, an allocation that `fill`
/// fills with the constant `value`, `source` copied into its interior at
/// `low` by `copy` through the subview `interior`. `image` is the operand.
struct PaddedImage {
  OpOperand *image;
  Value padded, source;
  SmallVector<int64_t> low;
  TypedAttr value;
  Operation *fill, *copy, *interior;
};

/// What the operand `image` of `op`, whose kernel fuses `fusion`, was
/// padded from: where its buffer is a static allocation that only its fill
/// with a constant, the copy of a static buffer of the same element type
/// into its interior, `op` and its deallocation use, in this order in one
/// block, and nothing between the copy and `op` but the prologue touches
/// the copied buffer.
std::optional<PaddedImage>
matchPaddedImage(linalg::LinalgOp op, OpOperand &image, const Fusion &fusion);

/// Whether the kernel of `op` (fusing `fusion`, placed before `last`) may
/// read `padded`'s source while it runs. Not where it writes the source
/// itself: other threads would read what it wrote. But an op that writes
/// the source's buffer whole (its allocation itself, at a permutation)
/// without reading it (bufferization reused the buffer: its value is dead
/// after the copy), the prologue or else an epilogue, may write a new
/// allocation instead, from it to `last`, the source deallocated after
/// `last`: then the ops are changed so, and it returns true.
bool redirectSourceWrites(linalg::LinalgOp op, const Fusion &fusion,
                          Operation *last, const PaddedImage &padded);

/// The indices in `padded`'s source of the padded buffer's element at
/// `indices`, clamped into its bounds (every load in bounds), `in` and-ed
/// with whether the element is the source's (unsigned compares: below the
/// padding wraps around) rather than the fill's.
SmallVector<Value> sourceIndices(OpBuilder &b, Location loc,
                                 const PaddedImage &padded,
                                 ArrayRef<Value> indices, Value &in);

/// Erases the padded buffer, its fill and its copy, once nothing reads it.
void erasePaddedImage(const PaddedImage &padded);

/// `op` (one output, whose body folds the output's element with a value
/// from the inputs) as loops, its prologue and epilogues fused as in a
/// kernel: each element of the output folds the reduction loops' values
/// into `identity`, then is `combine(init, folded)`, init the output's
/// element before (emitOutputElement), and is stored as a kernel stores it
/// (emitStoreOutputElement). The parallel dims are one scf.parallel with
/// `parallel` (a thread per element once mapped), nested scf.for without
/// (test-on-cpu: what a kernel computes, run on the CPU). With `padded`
/// (one of `op`'s operands, see PaddedImage), its elements are read from
/// the source, the fill's value outside it. With `fold`, each element is
/// folded as `fold(acc, atElement)` returns, `atElement(out)` being the
/// body's value there with `out` for the output's element (by default the
/// body itself folds: atElement(acc)); the folded value is of
/// `identity`'s type.
using FoldElement = llvm::function_ref<Value(OpBuilder &, Location, Value,
                                             llvm::function_ref<Value(Value)>)>;
void buildFusedLoops(
    OpBuilder &b, Location loc, linalg::LinalgOp op, const Fusion &fusion,
    TypedAttr identity,
    llvm::function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
    bool parallel, const PaddedImage *padded = nullptr,
    FoldElement fold = nullptr);

/// Erases `op` and the ops fused into its kernel.
void eraseFused(const Fusion &fusion, linalg::LinalgOp op);

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_CODEGEN_GPU_KERNELUTILS_H
