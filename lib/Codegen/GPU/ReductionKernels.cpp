//===- ReductionKernels.cpp - A warp per reduced row ----------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-gpu-reduction-kernels (Passes.td): row reductions (the sums and
// maxima of Softmax, LayerNormalization, ReduceSum/Mean/Max, global pools)
// as kernels in which a warp reduces a row: its lanes read the row's
// consecutive elements together, then combine their values by shuffles.
// The other reductions (windows, short or strided rows) become a thread per
// output element, one scf.parallel mapped later as the other loop nests.
// With `fuse`, the op that initializes the output (the fill with the
// identity) and the elementwise ops right after that read it (a mean's
// division) are computed by the lane or thread that stores (matchFusion).
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"
#include "OnnxDialect/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <limits>

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_GPUREDUCTIONKERNELS
#include "OnnxDialect/Codegen/GPU/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

namespace {

constexpr int64_t kWarpsPerBlock = 8;

/// A reduction this pass takes: the op of its body that combines the
/// output's element with `partial` (computed from the inputs), the value
/// that leaves an element unchanged, and the dims.
struct Reduction {
  Operation *combine;
  Value partial;
  float identity;
  SmallVector<unsigned> parallel, reduced;
  /// A warp per row; otherwise (rows not contiguous, or shorter than a
  /// warp) a thread per row, as the other loop nests, with its fusion.
  bool warp = true;
};

/// The identity of a combining op of f32 values, if it is one.
std::optional<float> identityOf(Operation *op) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  if (isa<arith::AddFOp>(op))
    return 0.0f;
  if (isa<arith::MulFOp>(op))
    return 1.0f;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return -inf;
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(op))
    return inf;
  return std::nullopt;
}

std::optional<Reduction> matchReduction(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumDpsInputs() == 0 || op->getNumRegions() != 1)
    return std::nullopt;
  Reduction r;
  for (auto [d, type] : llvm::enumerate(op.getIteratorTypesArray()))
    (type == utils::IteratorType::reduction ? r.reduced : r.parallel)
        .push_back(d);
  if (r.reduced.empty())
    return std::nullopt;
  // Windows (pools, depthwise convolutions) index their inputs by sums of
  // dims; the output is indexed by dims.
  bool permutations = llvm::all_of(op.getIndexingMapsArray(), [](AffineMap m) {
    return m.isProjectedPermutation();
  });
  OpOperand *init = op.getDpsInitOperand(0);
  if (!op.getMatchingIndexingMap(init).isProjectedPermutation())
    return std::nullopt;
  auto outType = dyn_cast<MemRefType>(init->get().getType());
  if (!outType || !outType.getElementType().isF32() || outType.getMemorySpace())
    return std::nullopt;
  // The output is indexed by every parallel dim and no reduced one (each
  // element is one row).
  AffineMap outMap = op.getMatchingIndexingMap(init);
  for (unsigned d : r.parallel)
    if (!outMap.isFunctionOfDim(d))
      return std::nullopt;
  for (unsigned d : r.reduced)
    if (outMap.isFunctionOfDim(d))
      return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!isKernelType(input->get().getType()))
      return std::nullopt;

  // The body: yield(combine(out, partial)), partial from the inputs alone.
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  BlockArgument out = op.getMatchingBlockArgument(init);
  if (!yield || yield.getNumOperands() != 1 || !out.hasOneUse())
    return std::nullopt;
  r.combine = yield.getOperand(0).getDefiningOp();
  if (!r.combine || *out.getUsers().begin() != r.combine ||
      r.combine->getNumOperands() != 2 || r.combine->getNumResults() != 1 ||
      !r.combine->getResult(0).hasOneUse() || r.combine->getBlock() != body)
    return std::nullopt;
  r.partial = r.combine->getOperand(0) == out ? r.combine->getOperand(1)
                                              : r.combine->getOperand(0);
  std::optional<float> identity = identityOf(r.combine);
  if (r.partial == out || !identity)
    return std::nullopt;
  r.identity = *identity;
  for (Operation &bodyOp : body->without_terminator())
    if (&bodyOp != r.combine &&
        (isa<linalg::IndexOp>(bodyOp) || !canRunInKernel(&bodyOp)))
      return std::nullopt;

  // An input whose innermost dims are the reduced ones, in order, and
  // whose layout is row-major: lanes that take consecutive elements read
  // consecutive addresses.
  bool coalesced = llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
    auto type = dyn_cast<MemRefType>(in->get().getType());
    AffineMap map = op.getMatchingIndexingMap(in);
    if (!type || !type.getLayout().isIdentity() ||
        map.getNumResults() < r.reduced.size())
      return false;
    ArrayRef<AffineExpr> last = map.getResults().take_back(r.reduced.size());
    for (auto [expr, d] : llvm::zip(last, r.reduced))
      if (expr != getAffineDimExpr(d, op.getContext()))
        return false;
    return true;
  });
  // Rows shorter than a warp are better left to a thread each.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t length = 1;
  for (unsigned d : r.reduced)
    length = ShapedType::isDynamic(ranges[d]) || ShapedType::isDynamic(length)
                 ? ShapedType::kDynamic
                 : length * ranges[d];
  r.warp = permutations && coalesced &&
           (ShapedType::isDynamic(length) || length >= 32);
  // A thread per row needs rows to spread over threads (a whole reduction
  // to one value stays as it was).
  if (!r.warp && r.parallel.empty())
    return std::nullopt;
  return r;
}

class ReductionBuilder {
public:
  ReductionBuilder(OpBuilder &b, Location loc, linalg::LinalgOp op,
                   const Reduction &r, const Fusion &fusion)
      : b(b), loc(loc), op(op), r(r), fusion(fusion) {}

  void build();

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value product(ArrayRef<unsigned> dims) {
    return loopProduct(b, loc, dims, sizes);
  }
  void delinearize(Value linear, ArrayRef<unsigned> dims) {
    delinearizeLoops(b, loc, linear, dims, sizes, loops);
  }
  SmallVector<Value> indices(OpOperand &operand) {
    return operandIndicesAt(b, loc, op, operand, loops);
  }
  /// combine(out := a, partial := c), as the body's op.
  Value combine(Value a, Value c) {
    IRMapping map;
    BlockArgument out = op.getMatchingBlockArgument(op.getDpsInitOperand(0));
    map.map(out, a);
    map.map(r.partial, c);
    return b.clone(*r.combine, map)->getResult(0);
  }

  OpBuilder &b;
  Location loc;
  linalg::LinalgOp op;
  const Reduction &r;
  const Fusion &fusion;
  SmallVector<Value> sizes, loops;
};

void ReductionBuilder::build() {
  for (Range range : op.createLoopRanges(b, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
  loops.assign(sizes.size(), Value());
  Value rows = product(r.parallel), length = product(r.reduced);
  Value blocks =
      arith::CeilDivUIOp::create(b, loc, rows, index(kWarpsPerBlock));
  Value fits = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, rows, index(0)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, blocks,
                            index(std::numeric_limits<int32_t>::max())));
  auto ifOp = scf::IfOp::create(b, loc, fits, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    cloneFallback(b, fusion, op);
  }
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  Value one = index(1);
  auto launch = gpu::LaunchOp::create(b, loc, blocks, one, one,
                                      index(kWarpsPerBlock * 32), one, one);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value tid = launch.getThreadIds().x;
  Value lane = arith::RemUIOp::create(b, loc, tid, index(32));
  Value row = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            index(kWarpsPerBlock)),
      arith::DivUIOp::create(b, loc, tid, index(32)));
  // A warp whose row is past the end skips it whole (the shuffles need
  // every lane of the warp).
  auto inRows = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows),
      /*withElseRegion=*/false);
  b.setInsertionPointToStart(&inRows.getThenRegion().front());
  delinearize(row, r.parallel);
  Value identity =
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(r.identity));
  // The lane's share: elements lane, lane + 32, ... of the row.
  auto loop =
      scf::ForOp::create(b, loc, lane, length, index(32), ValueRange{identity});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    delinearize(loop.getInductionVar(), r.reduced);
    // The body at this element, its output the lane's value so far.
    std::pair<OpOperand *, Value> acc = {op.getDpsInitOperand(0),
                                         loop.getRegionIterArgs().front()};
    scf::YieldOp::create(b, loc, emitBodyAt(b, loc, op, loops, acc));
  }
  // The warp's lanes combined by a butterfly: every lane ends with the
  // whole row's value.
  Value acc = loop.getResult(0);
  for (int32_t offset = 16; offset >= 1; offset /= 2) {
    auto shuffle = gpu::ShuffleOp::create(b, loc, acc, offset, /*width=*/32,
                                          gpu::ShuffleMode::XOR);
    acc = combine(acc, shuffle.getShuffleResult());
  }
  auto first = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, index(0)),
      /*withElseRegion=*/false);
  b.setInsertionPointToStart(&first.getThenRegion().front());
  OpOperand &out = *op.getDpsInitOperand(0);
  SmallVector<Value> at = indices(out);
  Value old = emitOutputElement(b, loc, fusion, out, at);
  emitStoreOutputElement(b, loc, fusion, out, at, combine(old, acc));
  b.setInsertionPointAfter(inRows);
  gpu::TerminatorOp::create(b, loc);
}

struct GPUReductionKernels
    : public onnx::impl::GPUReductionKernelsBase<GPUReductionKernels> {
  using Base::Base;

  void runOnOperation() override {
    for (auto &match : matchKernelOps<Reduction>(
             getOperation(), fuse,
             [](linalg::LinalgOp op) { return matchReduction(op); })) {
      OpBuilder b(match.anchor());
      // A thread per row (mapped with the other loop nests), or on the
      // CPU for testing, as loops.
      if (testOnCPU || !match.info.warp) {
        linalg::LinalgOp op = match.op;
        const Reduction &r = match.info;
        buildFusedLoops(
            b, op.getLoc(), op, match.fusion, b.getF32FloatAttr(r.identity),
            [&](OpBuilder &b, Location loc, Value init, Value folded) -> Value {
              IRMapping map;
              map.map(op.getMatchingBlockArgument(op.getDpsInitOperand(0)),
                      init);
              map.map(r.partial, folded);
              return b.clone(*r.combine, map)->getResult(0);
            },
            /*parallel=*/!testOnCPU);
        eraseFused(match.fusion, op);
        continue;
      }
      ReductionBuilder(b, match.op.getLoc(), match.op, match.info, match.fusion)
          .build();
      eraseFused(match.fusion, match.op);
    }
  }
};

} // namespace
