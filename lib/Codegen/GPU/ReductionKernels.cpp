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
// consecutive elements together, then combine their values by shuffles
// (f32, f16 or bf16 values; the 16-bit ones shuffled as f32).
// The other reductions (windows, short or strided rows) become a thread per
// output element, one scf.parallel mapped later as the other loop nests.
// With `fuse`, the op that initializes the output (the fill with the
// identity) and the elementwise ops right after that read it (a mean's
// division) are computed by the lane or thread that stores (matchFusion).
// With `chains`, first, a run of reductions and elementwise ops over the
// same rows (Softmax's four ops, LayerNormalization's eight) becomes one
// kernel with a warp per row (RowChainMatcher, RowChainBuilder).
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
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

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
/// that leaves an element unchanged, its type (f32, f16 or bf16: the
/// output's), and the dims.
struct Reduction {
  Operation *combine;
  Value partial;
  float identity;
  Type type;
  /// The identity as a constant of the type.
  TypedAttr identityAttr() const {
    return FloatAttr::get(type, static_cast<double>(identity));
  }
  /// Whether the lanes accumulate in f32 (a sum or product of f16 or bf16
  /// elements, rounded to the type once, at the end, as GPU libraries do:
  /// a maximum or minimum is exact in any type).
  bool wide() const {
    return !type.isF32() && isa<arith::AddFOp, arith::MulFOp>(combine);
  }
  /// The type the lanes accumulate in.
  Type accType() const {
    return wide() ? Float32Type::get(type.getContext()) : type;
  }
  TypedAttr accIdentityAttr() const {
    return FloatAttr::get(accType(), static_cast<double>(identity));
  }
  SmallVector<unsigned> parallel, reduced;
  /// Whether the maps are permutations and an input has each row's
  /// elements contiguous.
  bool contiguous = true;
  /// A warp per row; otherwise (rows not contiguous, or shorter than a
  /// warp) a thread per row, as the other loop nests, with its fusion.
  bool warp = true;
};

/// Whether a row's value (a reduction's output, a row buffer a chain
/// writes) may be of `type`: f32, f16 or bf16 (shuffled as f32).
bool isRowValueType(Type type) {
  return isa<Float32Type, Float16Type, BFloat16Type>(type);
}

/// The identity of a combining op of float values, if it is one.
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
  if (!outType || !isRowValueType(outType.getElementType()) ||
      outType.getMemorySpace())
    return std::nullopt;
  r.type = outType.getElementType();
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
  r.contiguous = permutations && coalesced;
  r.warp = r.contiguous && (ShapedType::isDynamic(length) || length >= 32);
  // A thread per row needs rows to spread over threads (a whole reduction
  // to one value stays as it was).
  if (!r.warp && r.parallel.empty())
    return std::nullopt;
  return r;
}

/// `value` of the lane `lane` (IDX) or of the lane at this one's xor
/// `lane` (XOR), in a warp of 32. An f16 or bf16 value goes as f32 (exactly).
Value shuffle(OpBuilder &b, Location loc, Value value, int32_t lane,
              gpu::ShuffleMode mode) {
  Type type = value.getType();
  if (!type.isF32())
    value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
  value = gpu::ShuffleOp::create(b, loc, value, lane, /*width=*/32, mode)
              .getShuffleResult();
  if (!type.isF32())
    value = arith::TruncFOp::create(b, loc, type, value);
  return value;
}

/// combine(out := a, partial := c), as the body of `op` (whose reduction
/// `r` is) combines.
Value combineValues(OpBuilder &b, linalg::LinalgOp op, const Reduction &r,
                    Value a, Value c) {
  IRMapping map;
  map.map(op.getMatchingBlockArgument(op.getDpsInitOperand(0)), a);
  map.map(r.partial, c);
  return b.clone(*r.combine, map)->getResult(0);
}

/// An accumulator as a value of the reduction's type.
Value toRowType(OpBuilder &b, Location loc, const Reduction &r, Value acc) {
  if (acc.getType() == r.type)
    return acc;
  return arith::TruncFOp::create(b, loc, r.type, acc);
}

/// combine(a, c) on accumulators (Reduction::accType): as the body
/// combines, in f32 for a wide reduction.
Value combineAcc(OpBuilder &b, linalg::LinalgOp op, const Reduction &r, Value a,
                 Value c) {
  if (!r.wide())
    return combineValues(b, op, r, a, c);
  // A sum or a product: the operands' order does not matter.
  Operation *wide = b.clone(*r.combine);
  wide->setOperands({a, c});
  wide->getResult(0).setType(a.getType());
  return wide->getResult(0);
}

/// The accumulator `acc` combined with the body's value at an element
/// (`atElement(out)`: the body emitted with its output's value `out`).
Value accumulate(OpBuilder &b, Location loc, linalg::LinalgOp op,
                 const Reduction &r, Value acc,
                 llvm::function_ref<Value(Value)> atElement) {
  if (!r.wide())
    return atElement(acc);
  // The body from the identity is the element's partial value, exactly.
  Value partial =
      atElement(arith::ConstantOp::create(b, loc, r.identityAttr()));
  partial = arith::ExtFOp::create(b, loc, r.accType(), partial);
  return combineAcc(b, op, r, acc, partial);
}

/// The lanes' values `acc` combined by a butterfly of xor shuffles: every
/// lane ends with the whole warp's value, of the reduction's type.
Value combineLanes(OpBuilder &b, Location loc, linalg::LinalgOp op,
                   const Reduction &r, Value acc) {
  for (int32_t offset = 16; offset >= 1; offset /= 2)
    acc = combineAcc(b, op, r, acc,
                     shuffle(b, loc, acc, offset, gpu::ShuffleMode::XOR));
  return toRowType(b, loc, r, acc);
}

/// The blocks of a warp per row for `rows` rows, and whether that grid can
/// be launched (a row at least, at most 2^31 - 1 blocks).
std::pair<Value, Value> warpGrid(OpBuilder &b, Location loc, Value rows) {
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // (Folded where the rows are static: guardKernel then needs no if.)
  Value blocks =
      b.createOrFold<arith::CeilDivUIOp>(loc, rows, index(kWarpsPerBlock));
  Value fits = b.createOrFold<arith::AndIOp>(
      loc,
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ugt, rows,
                                    index(0)),
      b.createOrFold<arith::CmpIOp>(
          loc, arith::CmpIPredicate::ule, blocks,
          index(std::numeric_limits<int32_t>::max())));
  return {blocks, fits};
}

/// A lane and its warp's row in a kernel of a warp per row.
struct WarpRow {
  Value lane, row;
};

/// Launches `blocks` blocks of kWarpsPerBlock warps, a warp per row of
/// `rows`, and leaves `b` where a warp whose row is one of them runs (a
/// warp past the end skips it whole: the shuffles need every lane).
WarpRow launchWarpPerRow(OpBuilder &b, Location loc, Value blocks, Value rows) {
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value one = index(1);
  auto launch = gpu::LaunchOp::create(b, loc, blocks, one, one,
                                      index(kWarpsPerBlock * 32), one, one);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value tid = launch.getThreadIds().x;
  WarpRow at;
  at.lane = arith::RemUIOp::create(b, loc, tid, index(32));
  at.row = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            index(kWarpsPerBlock)),
      arith::DivUIOp::create(b, loc, tid, index(32)));
  auto inRows = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, at.row, rows),
      /*withElseRegion=*/false);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&inRows.getThenRegion().front());
  return at;
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
  auto [blocks, fits] = warpGrid(b, loc, rows);
  guardKernel(b, loc, fits, [&] { cloneFallback(b, fusion, op); });
  auto [lane, row] = launchWarpPerRow(b, loc, blocks, rows);
  delinearize(row, r.parallel);
  Value identity = arith::ConstantOp::create(b, loc, r.accIdentityAttr());
  // The lane's share: elements lane, lane + 32, ... of the row.
  auto loop =
      scf::ForOp::create(b, loc, lane, length, index(32), ValueRange{identity});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    delinearize(loop.getInductionVar(), r.reduced);
    // The body at this element, its output the lane's value so far.
    Value next = accumulate(
        b, loc, op, r, loop.getRegionIterArgs().front(), [&](Value out) {
          std::pair<OpOperand *, Value> acc = {op.getDpsInitOperand(0), out};
          return emitBodyAt(b, loc, op, loops, acc).front();
        });
    scf::YieldOp::create(b, loc, next);
  }
  Value acc = combineLanes(b, loc, op, r, loop.getResult(0));
  auto first = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, index(0)),
      /*withElseRegion=*/false);
  b.setInsertionPointToStart(&first.getThenRegion().front());
  OpOperand &out = *op.getDpsInitOperand(0);
  SmallVector<Value> at = indices(out);
  Value old = emitOutputElement(b, loc, fusion, out, at);
  emitStoreOutputElement(b, loc, fusion, out, at,
                         combineValues(b, op, r, old, acc));
}

//===----------------------------------------------------------------------===//
// Fills moved to the first op that uses their buffer
//===----------------------------------------------------------------------===//

/// Moves each fill of a buffer of its own (a memref.alloc, through views)
/// down to the first op after it in its block that uses the buffer (past
/// the ops that do not, and views), or erases it where that op is the
/// buffer's deallocation. Canonicalization merges the fills of equal
/// tensors, so bufferization leaves the fills that initialize reductions
/// where the first of them was, often layers before their reduction.
void sinkFills(Operation *root) {
  SmallVector<linalg::FillOp> fills;
  root->walk([&](linalg::FillOp fill) {
    if (fill.hasPureBufferSemantics() &&
        !fill->getParentOfType<gpu::LaunchOp>())
      fills.push_back(fill);
  });
  for (linalg::FillOp fill : fills) {
    Value bufRoot = bufferRoot(fill.getDpsInitOperand(0)->get());
    if (!bufRoot.getDefiningOp<memref::AllocOp>())
      continue;
    llvm::SmallPtrSet<Value, 8> aliases = bufferAliases(bufRoot);
    Operation *user = nullptr;
    for (Operation *op = fill->getNextNode(); op && !user;
         op = op->getNextNode()) {
      if (isa<ViewLikeOpInterface>(op) && isMemoryEffectFree(op))
        continue;
      op->walk([&](Operation *inner) {
        if (llvm::any_of(inner->getOperands(),
                         [&](Value v) { return aliases.contains(v); }))
          user = op;
      });
    }
    if (!user)
      continue;
    if (isa<memref::DeallocOp>(user))
      fill->erase();
    else if (user != fill->getNextNode())
      fill->moveBefore(user);
  }
}

//===----------------------------------------------------------------------===//
// Chains of reductions and elementwise ops over the same rows
//===----------------------------------------------------------------------===//

/// A step of a row chain: an op whose loops are the row's (`parallel`) and,
/// but for a Row step, the element's within the row (`element`).
struct ChainStep {
  enum Kind {
    /// All loops over rows: a value per row (a fill, a mean's division).
    Row,
    /// All loops parallel, over the rows' elements (Softmax's exp).
    Full,
    /// A reduction of each row into a value per row (matchReduction).
    Reduce
  } kind;
  linalg::LinalgOp op;
  SmallVector<unsigned> parallel, element;
  std::optional<Reduction> reduction;
  /// Whether its rows are as many as the chain's only at run time: it must
  /// share a buffer with the chain's reduction (RowChainMatcher::match).
  bool dynamic = false;
  /// Whether its rows' elements are as many as the chain's only at run time
  /// (a dynamic row length): it must share a buffer read or written at the
  /// element with the chain's reduction.
  bool dynamicLength = false;
  /// The buffers it reads or writes at the row or the element, and those
  /// at the element.
  SmallVector<Value> aligned, elementAligned;
  /// Its loop sizes, where the kernel is built.
  SmallVector<Value> sizes;
};

/// Ops in a row (past allocations and ops free of memory effects) that
/// each computes, for every row of `rows`, either one value (a Row or
/// Reduce step) or its `length` elements (a Full step), and that read
/// each buffer one of them writes only at the row they compute: a row
/// buffer (`rows` elements) at the row, an element buffer (rows x length)
/// at the element. One warp then runs the whole chain for a row.
struct RowChain {
  /// The rows and their length (ShapedType::kDynamic when not static).
  int64_t rows = 0, length = 0;
  /// The sizes of the reduction's parallel and reduced dims but those of
  /// one element: a dynamic row count or length is matched by these.
  SmallVector<int64_t> rowSizes, lengthSizes;
  std::vector<ChainStep> steps;
  /// The buffers the steps write: true for the row buffers.
  llvm::DenseMap<Value, bool> written;
};

/// The most steps in one chain (LayerNormalization has 8).
constexpr size_t kMaxChainSteps = 16;

/// The product of the ranges of `dims` of `op` (ShapedType::kDynamic where
/// one is dynamic).
int64_t rangeProduct(linalg::LinalgOp op, ArrayRef<unsigned> dims) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t product = 1;
  for (unsigned d : dims) {
    if (ShapedType::isDynamic(ranges[d]))
      return ShapedType::kDynamic;
    product *= ranges[d];
  }
  return product;
}

/// The ranges of `dims` of `op` but those of one element, in order.
SmallVector<int64_t> nonUnitRanges(linalg::LinalgOp op,
                                   ArrayRef<unsigned> dims) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges(), result;
  for (unsigned d : dims)
    if (ranges[d] != 1)
      result.push_back(ranges[d]);
  return result;
}

/// The loop dims of `op` that index `operand`'s dims of more than one
/// element, in order, or nullopt where one of those is not a single dim.
std::optional<SmallVector<unsigned>> indexDims(linalg::LinalgOp op,
                                               OpOperand &operand) {
  auto type = cast<MemRefType>(operand.get().getType());
  SmallVector<unsigned> dims;
  for (auto [i, expr] :
       llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults())) {
    if (type.getDimSize(i) == 1)
      continue;
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return std::nullopt;
    dims.push_back(dim.getPosition());
  }
  return dims;
}

class RowChainMatcher {
public:
  /// `taken`: the ops of the chains matched before (earlier in the block).
  RowChainMatcher(linalg::LinalgOp reduction,
                  const llvm::SmallPtrSetImpl<Operation *> &taken)
      : reduction(reduction), taken(taken) {}

  /// The chain around the reduction: the fills and elementwise ops right
  /// before it (an f16 input extended to f32, a residual sum) from the
  /// first that fits, then it and the ops after it while they fit. Empty where
  /// it is not worth a kernel of its own (one reduction and Row steps: the warp
  /// kernel with its fusion does as much).
  std::optional<RowChain> match();

private:
  bool add(linalg::LinalgOp op);
  /// Whether `operand` of a step with dims `parallel`, `element` is a row
  /// buffer read at the row or an element buffer read at the element
  /// (`row` says which).
  bool aligned(linalg::LinalgOp op, OpOperand &operand,
               ArrayRef<unsigned> parallel, ArrayRef<unsigned> element,
               bool row);

  linalg::LinalgOp reduction;
  const llvm::SmallPtrSetImpl<Operation *> &taken;
  RowChain chain;
  /// The buffers a step read with another map than the one a write would
  /// need; none may be written after.
  llvm::SmallPtrSet<Value, 8> readOtherwise;
  /// The buffers read at the row or element, and whether at the row.
  llvm::DenseMap<Value, bool> readAligned;
};

bool RowChainMatcher::aligned(linalg::LinalgOp op, OpOperand &operand,
                              ArrayRef<unsigned> parallel,
                              ArrayRef<unsigned> element, bool row) {
  Value root = reshapeRoot(operand.get());
  if (!root)
    return false;
  // (With a dynamic row count, the steps that share the buffer have as
  // many rows, which RowChainMatcher::match checks.)
  auto rootType = cast<MemRefType>(root.getType());
  if (rootType.hasStaticShape() && !ShapedType::isDynamic(chain.rows) &&
      (row || !ShapedType::isDynamic(chain.length)) &&
      rootType.getNumElements() !=
          (row ? chain.rows : chain.rows * chain.length))
    return false;
  std::optional<SmallVector<unsigned>> dims = indexDims(op, operand);
  if (!dims)
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<unsigned> expected;
  for (unsigned d : parallel)
    if (ranges[d] != 1)
      expected.push_back(d);
  if (!row)
    for (unsigned d : element)
      if (ranges[d] != 1)
        expected.push_back(d);
  return *dims == expected;
}

bool RowChainMatcher::add(linalg::LinalgOp op) {
  if (chain.steps.size() == kMaxChainSteps || !op.hasPureBufferSemantics() ||
      op->getNumRegions() != 1 ||
      !llvm::all_of(op->getOperandTypes(), isKernelType) ||
      op.getNumDpsInits() == 0)
    return false;
  ChainStep step;
  step.op = op;
  if (op.getNumReductionLoops() > 0) {
    step.kind = ChainStep::Reduce;
    step.reduction = matchReduction(op);
    if (!step.reduction || !step.reduction->contiguous)
      return false;
    step.parallel = step.reduction->parallel;
    step.element = step.reduction->reduced;
    step.dynamicLength = ShapedType::isDynamic(chain.length);
    if (step.dynamicLength
            ? nonUnitRanges(op, step.element) != chain.lengthSizes
            : rangeProduct(op, step.element) != chain.length)
      return false;
    int64_t rows = rangeProduct(op, step.parallel);
    step.dynamic =
        ShapedType::isDynamic(rows) || ShapedType::isDynamic(chain.rows);
    if (step.dynamic ? nonUnitRanges(op, step.parallel) != chain.rowSizes
                     : rows != chain.rows)
      return false;
  } else {
    for (Operation &inner : op.getBlock()->without_terminator())
      if (!isa<linalg::IndexOp>(inner) &&
          (!isMemoryEffectFree(&inner) || !canRunInKernel(&inner)))
        return false;
    unsigned loops = op.getNumLoops();
    SmallVector<unsigned> all = llvm::to_vector(llvm::seq(0u, loops));
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    int64_t total = rangeProduct(op, all);
    step.dynamic = ShapedType::isDynamic(total) ||
                   ShapedType::isDynamic(chain.rows) ||
                   ShapedType::isDynamic(chain.length);
    // The rows are the outer loops, the elements the inner ones: by their
    // product, or with a dynamic row count by their sizes.
    unsigned split = 0;
    if (!step.dynamic) {
      for (int64_t outer = 1; split < loops && outer != chain.rows;)
        outer *= ranges[split++];
    } else {
      for (size_t seen = 0; split < loops && seen < chain.rowSizes.size();)
        seen += ranges[split++] != 1;
    }
    SmallVector<int64_t> fullSizes(chain.rowSizes);
    llvm::append_range(fullSizes, chain.lengthSizes);
    if (step.dynamic ? nonUnitRanges(op, all) == chain.rowSizes
                     : total == chain.rows) {
      step.kind = ChainStep::Row;
      step.parallel = all;
      // (Its rows' sizes equal the chain's where neither has a dynamic one.)
      step.dynamic =
          ShapedType::isDynamic(total) || ShapedType::isDynamic(chain.rows);
    } else if (step.dynamic
                   ? nonUnitRanges(op, all) == fullSizes
                   : total == chain.rows * chain.length &&
                         rangeProduct(op, ArrayRef(all).take_front(split)) ==
                             chain.rows) {
      step.kind = ChainStep::Full;
      step.parallel = llvm::to_vector(llvm::seq(0u, split));
      step.element = llvm::to_vector(llvm::seq(split, loops));
      step.dynamic = ShapedType::isDynamic(rangeProduct(op, step.parallel)) ||
                     ShapedType::isDynamic(chain.rows);
      step.dynamicLength = ShapedType::isDynamic(chain.length);
    } else {
      return false;
    }
  }
  bool rowStep = step.kind != ChainStep::Full;
  // What it writes: at the row (Row, Reduce) or element (Full), f32, f16
  // or bf16 at the row; nothing read otherwise before, nor a row buffer some
  // step read at the row before another wrote it (that read loaded it).
  llvm::DenseMap<Value, bool> writes;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (!aligned(op, init, step.parallel, step.element, rowStep))
      return false;
    Value root = reshapeRoot(init.get());
    if (rowStep &&
        !isRowValueType(cast<MemRefType>(root.getType()).getElementType()))
      return false;
    if (readOtherwise.contains(root) ||
        (chain.written.count(root) && chain.written.lookup(root) != rowStep))
      return false;
    writes[root] = rowStep;
    step.aligned.push_back(root);
    if (!rowStep)
      step.elementAligned.push_back(root);
  }
  // What it reads: a buffer the chain writes (before, or here) at the row
  // or element; any other one anyhow, but then no later step may write it.
  llvm::DenseMap<Value, bool> alignedReads;
  SmallVector<Value> otherReads;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    Value root = reshapeRoot(operand.get());
    bool asRow = aligned(op, operand, step.parallel, step.element, true);
    bool asElement = step.kind != ChainStep::Row &&
                     aligned(op, operand, step.parallel, step.element, false);
    auto known = chain.written.find(root);
    auto here = writes.find(root);
    if (known != chain.written.end() || here != writes.end()) {
      bool row = known != chain.written.end() ? known->second : here->second;
      if (!(row ? asRow : asElement))
        return false;
      step.aligned.push_back(root);
      if (!row)
        step.elementAligned.push_back(root);
      continue;
    }
    if (asRow || asElement) {
      alignedReads[root] = asRow;
      step.aligned.push_back(root);
      if (!asRow)
        step.elementAligned.push_back(root);
    } else
      otherReads.push_back(bufferRoot(operand.get()));
  }
  for (auto [root, row] : writes)
    if (auto read = readAligned.find(root);
        read != readAligned.end() && read->second != row)
      return false;
  // (Read any other way, through a view that is not a reshape say, a
  // buffer the chain writes is read where other lanes or warps write.)
  for (Value root : otherReads)
    if (writes.count(root) || chain.written.count(root))
      return false;
  chain.steps.push_back(std::move(step));
  for (auto [root, row] : writes)
    chain.written[root] = row;
  for (auto [root, row] : alignedReads)
    readAligned.try_emplace(root, row);
  readOtherwise.insert(otherReads.begin(), otherReads.end());
  return true;
}

std::optional<RowChain> RowChainMatcher::match() {
  std::optional<Reduction> r = matchReduction(reduction);
  if (!r || !r->contiguous)
    return std::nullopt;
  // The rows and their length may be dynamic (a batch, a sequence).
  chain.rows = rangeProduct(reduction, r->parallel);
  chain.length = rangeProduct(reduction, r->reduced);
  if ((!ShapedType::isDynamic(chain.length) && chain.length < 2) ||
      chain.rows == 0 ||
      (!ShapedType::isDynamic(chain.rows) &&
       llvm::divideCeil(chain.rows, kWarpsPerBlock) >
           std::numeric_limits<int32_t>::max()))
    return std::nullopt;
  chain.rowSizes = nonUnitRanges(reduction, r->parallel);
  chain.lengthSizes = nonUnitRanges(reduction, r->reduced);
  // Between steps: allocations and ops free of memory effects.
  auto skippable = [](Operation *op) {
    return isa<memref::AllocOp>(op) || isMemoryEffectFree(op);
  };
  Operation *start = reduction;
  for (Operation *prev = reduction->getPrevNode();
       prev && !taken.contains(prev); prev = prev->getPrevNode()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(prev);
    if (linalgOp && linalgOp.getNumReductionLoops() == 0)
      start = prev;
    else if (!skippable(prev))
      break;
  }
  for (Operation *op = start; op; op = op->getNextNode()) {
    if (skippable(op))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || linalgOp->getParentOfType<gpu::LaunchOp>() ||
        linalgOp->hasAttr(kGPUFallbackAttr) || !add(linalgOp)) {
      if (op->isBeforeInBlock(reduction)) {
        // A step before it that does not fit: start after it.
        chain.steps.clear();
        chain.written.clear();
        readOtherwise.clear();
        readAligned.clear();
        continue;
      }
      break;
    }
  }
  // A step whose rows the sizes matched only up to dynamic ones must reach
  // the reduction through buffers that steps read or write at the row or
  // element (a buffer has as many rows in every step that reads or writes
  // it that way); one whose row length is dynamic, through buffers read or
  // written at the element (which have as many elements per row too). The
  // steps before the last one that does not, and those from the first
  // after it that does not, are left where they are.
  while (true) {
    auto first = llvm::find_if(chain.steps, [&](const ChainStep &step) {
      return step.op == reduction;
    });
    if (first == chain.steps.end())
      return std::nullopt;
    size_t at = first - chain.steps.begin();
    // The steps that reach the reduction through the buffers `roots` gives.
    auto reach = [&](function_ref<ArrayRef<Value>(const ChainStep &)> roots) {
      std::vector<bool> reached(chain.steps.size(), false);
      reached[at] = true;
      llvm::SmallPtrSet<Value, 8> shared(roots(*first).begin(),
                                         roots(*first).end());
      for (bool grew = true; grew;) {
        grew = false;
        for (auto [i, step] : llvm::enumerate(chain.steps)) {
          if (reached[i] || llvm::none_of(roots(step), [&](Value root) {
                return shared.contains(root);
              }))
            continue;
          reached[i] = grew = true;
          shared.insert(roots(step).begin(), roots(step).end());
        }
      }
      return reached;
    };
    std::vector<bool> reached =
        reach([](const ChainStep &step) { return ArrayRef(step.aligned); });
    std::vector<bool> reachedAtElement = reach(
        [](const ChainStep &step) { return ArrayRef(step.elementAligned); });
    size_t begin = 0, end = chain.steps.size();
    for (auto [i, step] : llvm::enumerate(chain.steps)) {
      if ((!step.dynamic || reached[i]) &&
          (!step.dynamicLength || reachedAtElement[i]))
        continue;
      if (i < at)
        begin = i + 1;
      else
        end = std::min(end, i);
    }
    if (begin == 0 && end == chain.steps.size())
      break;
    chain.steps.erase(chain.steps.begin() + end, chain.steps.end());
    chain.steps.erase(chain.steps.begin(), chain.steps.begin() + begin);
    chain.written.clear();
    for (ChainStep &step : chain.steps)
      for (Value init : step.op.getDpsInits())
        chain.written[reshapeRoot(init)] = step.kind != ChainStep::Full;
  }
  size_t heavy = llvm::count_if(chain.steps, [](const ChainStep &step) {
    return step.kind != ChainStep::Row;
  });
  if (heavy < 2)
    return std::nullopt;
  return std::move(chain);
}

/// Builds a row chain's kernel: blocks of 8 warps, a warp per row, each
/// step in turn. A Row step is computed by every lane (its value kept in
/// a register for the steps after; lane 0 stores it); a Full step's lane l
/// computes the row's elements l, l + 32, ...; a Reduce step's lanes fold
/// those, then combine their values by shuffles as the warp kernel does.
/// A lane reads an element buffer the chain writes only at the elements it
/// wrote itself, and a row buffer the chain writes from its register (the
/// first read of one the chain writes later loaded by lane 0 and shuffled
/// to the others), so the steps need no barrier. With `testOnCPU`, the
/// same steps as host loops: a row at a time, a lane that takes every
/// element.
class RowChainBuilder {
public:
  RowChainBuilder(OpBuilder &b, Location loc, const RowChain &chain,
                  bool testOnCPU)
      : b(b), loc(loc), chain(chain), testOnCPU(testOnCPU) {}

  void build();

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  /// Runs `body` where lane 0 runs alone (everywhere on the CPU).
  void onFirstLane(llvm::function_ref<void()> body);
  /// The row's value of `operand` (a row buffer) read by `op` at `loops`:
  /// its register, or loaded by lane 0 and shuffled to the others.
  Value rowValue(linalg::LinalgOp op, OpOperand &operand,
                 ArrayRef<Value> loops);
  /// The given values of `step`'s operands that are row buffers the chain
  /// writes.
  SmallVector<std::pair<OpOperand *, Value>> rowOperands(const ChainStep &step,
                                                         ArrayRef<Value> loops);
  /// A loop over the lane's elements of the row with `init` as its
  /// iteration values; `body` is given the loops (the row's and the
  /// element's dims set) and the iteration values, and returns the next.
  scf::ForOp elementLoop(
      const ChainStep &step, ArrayRef<Value> sizes, ArrayRef<Value> rowLoops,
      ValueRange init,
      llvm::function_ref<SmallVector<Value>(ArrayRef<Value>, ValueRange)> body);
  void buildStep(const ChainStep &step, ArrayRef<Value> sizes);

  OpBuilder &b;
  Location loc;
  const RowChain &chain;
  bool testOnCPU;
  Value row, lane;
  /// The row's values of the row buffers, once written or loaded.
  llvm::DenseMap<Value, Value> registers;
};

void RowChainBuilder::onFirstLane(llvm::function_ref<void()> body) {
  if (testOnCPU)
    return body();
  auto first = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, index(0)),
      /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&first.getThenRegion().front());
  body();
}

Value RowChainBuilder::rowValue(linalg::LinalgOp op, OpOperand &operand,
                                ArrayRef<Value> loops) {
  Value root = reshapeRoot(operand.get());
  if (Value value = registers.lookup(root))
    return value;
  SmallVector<Value> at = operandIndicesAt(b, loc, op, operand, loops);
  Value value;
  if (testOnCPU) {
    value = memref::LoadOp::create(b, loc, operand.get(), at);
  } else {
    Type type = getElementTypeOrSelf(operand.get());
    auto first = scf::IfOp::create(
        b, loc, type,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, index(0)),
        /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&first.getThenRegion().front());
      scf::YieldOp::create(
          b, loc,
          ValueRange{memref::LoadOp::create(b, loc, operand.get(), at)});
      b.setInsertionPointToStart(&first.getElseRegion().front());
      scf::YieldOp::create(b, loc,
                           ValueRange{arith::ConstantOp::create(
                               b, loc, b.getFloatAttr(type, 0))});
    }
    value =
        shuffle(b, loc, first.getResult(0), /*lane=*/0, gpu::ShuffleMode::IDX);
  }
  registers[root] = value;
  return value;
}

SmallVector<std::pair<OpOperand *, Value>>
RowChainBuilder::rowOperands(const ChainStep &step, ArrayRef<Value> loops) {
  SmallVector<std::pair<OpOperand *, Value>> given;
  linalg::LinalgOp op = step.op;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()) ||
        op.getMatchingBlockArgument(&operand).use_empty())
      continue;
    auto written = chain.written.find(reshapeRoot(operand.get()));
    if (written != chain.written.end() && written->second)
      given.push_back({&operand, rowValue(op, operand, loops)});
  }
  return given;
}

scf::ForOp RowChainBuilder::elementLoop(
    const ChainStep &step, ArrayRef<Value> sizes, ArrayRef<Value> rowLoops,
    ValueRange init,
    llvm::function_ref<SmallVector<Value>(ArrayRef<Value>, ValueRange)> body) {
  // (A dynamic length from the step's sizes: its elements are the
  // reduction's, RowChainMatcher::match.)
  Value length = ShapedType::isDynamic(chain.length)
                     ? loopProduct(b, loc, step.element, sizes)
                     : index(chain.length);
  auto loop = scf::ForOp::create(b, loc, testOnCPU ? index(0) : lane, length,
                                 index(testOnCPU ? 1 : 32), init);
  OpBuilder::InsertionGuard guard(b);
  // Without iteration values the loop has its yield already.
  if (init.empty())
    b.setInsertionPoint(loop.getBody()->getTerminator());
  else
    b.setInsertionPointToStart(loop.getBody());
  SmallVector<Value> loops(rowLoops);
  delinearizeLoops(b, loc, loop.getInductionVar(), step.element, sizes, loops);
  SmallVector<Value> next = body(loops, loop.getRegionIterArgs());
  if (!init.empty())
    scf::YieldOp::create(b, loc, next);
  return loop;
}

void RowChainBuilder::buildStep(const ChainStep &step, ArrayRef<Value> sizes) {
  linalg::LinalgOp op = step.op;
  SmallVector<Value> loops(sizes.size(), index(0));
  delinearizeLoops(b, loc, row, step.parallel, sizes, loops);
  SmallVector<std::pair<OpOperand *, Value>> given = rowOperands(step, loops);
  auto store = [&](OpOperand &out, Value value, ArrayRef<Value> at) {
    memref::StoreOp::create(b, loc, value, out.get(),
                            operandIndicesAt(b, loc, op, out, at));
  };
  switch (step.kind) {
  case ChainStep::Row: {
    SmallVector<Value> results = emitBodyAt(b, loc, op, loops, given);
    for (auto [out, value] : llvm::zip(op.getDpsInitsMutable(), results)) {
      registers[reshapeRoot(out.get())] = value;
      onFirstLane([&, &out = out, value = value] { store(out, value, loops); });
    }
    return;
  }
  case ChainStep::Full:
    elementLoop(
        step, sizes, loops, ValueRange(),
        [&](ArrayRef<Value> at, ValueRange) -> SmallVector<Value> {
          SmallVector<Value> results = emitBodyAt(b, loc, op, at, given);
          for (auto [out, value] : llvm::zip(op.getDpsInitsMutable(), results))
            store(out, value, at);
          return {};
        });
    return;
  case ChainStep::Reduce: {
    const Reduction &r = *step.reduction;
    OpOperand &out = *op.getDpsInitOperand(0);
    // The output's value before (its register, or lane 0's load).
    Value old = rowValue(op, out, loops);
    // The row's elements folded from the identity; on the GPU, each
    // lane's share, then the lanes' values combined.
    auto loop = elementLoop(
        step, sizes, loops,
        ValueRange{arith::ConstantOp::create(b, loc, r.accIdentityAttr())},
        [&](ArrayRef<Value> at, ValueRange acc) -> SmallVector<Value> {
          return {accumulate(b, loc, op, r, acc.front(), [&](Value value) {
            SmallVector<std::pair<OpOperand *, Value>> withAcc(given);
            llvm::erase_if(withAcc,
                           [&](auto &pair) { return pair.first == &out; });
            withAcc.push_back({&out, value});
            return emitBodyAt(b, loc, op, at, withAcc).front();
          })};
        });
    Value acc = loop.getResult(0);
    acc = testOnCPU ? toRowType(b, loc, r, acc)
                    : combineLanes(b, loc, op, r, acc);
    Value value = combineValues(b, op, r, old, acc);
    registers[reshapeRoot(out.get())] = value;
    onFirstLane([&] { store(out, value, loops); });
    return;
  }
  }
}

void RowChainBuilder::build() {
  // The steps' loop sizes and the rows (the first reduction's), where the
  // kernel goes.
  std::vector<SmallVector<Value>> sizes;
  for (const ChainStep &step : chain.steps) {
    linalg::LinalgOp op = step.op;
    SmallVector<Value> &stepSizes = sizes.emplace_back();
    for (Range range : op.createLoopRanges(b, loc))
      stepSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
  }
  size_t first = llvm::find_if(chain.steps,
                               [](const ChainStep &step) {
                                 return step.kind == ChainStep::Reduce;
                               }) -
                 chain.steps.begin();
  Value rows =
      ShapedType::isDynamic(chain.rows)
          ? loopProduct(b, loc, chain.steps[first].parallel, sizes[first])
          : index(chain.rows);
  auto buildSteps = [&] {
    for (auto [step, stepSizes] : llvm::zip(chain.steps, sizes))
      buildStep(step, stepSizes);
  };
  if (testOnCPU) {
    auto loop = scf::ForOp::create(b, loc, index(0), rows, index(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    row = loop.getInductionVar();
    return buildSteps();
  }
  OpBuilder::InsertionGuard guard(b);
  // A static grid fits (match() checked it); where a dynamic one would
  // not (no row, more than 2^31 - 1 blocks), the original ops run (mapped
  // later as the other loop nests).
  Value blocks;
  if (!ShapedType::isDynamic(chain.rows)) {
    blocks = index(llvm::divideCeil(chain.rows, kWarpsPerBlock));
  } else {
    Value fits;
    std::tie(blocks, fits) = warpGrid(b, loc, rows);
    guardKernel(b, loc, fits, [&] {
      for (const ChainStep &step : chain.steps) {
        linalg::LinalgOp op = step.op;
        Operation *clone = b.clone(*op.getOperation());
        if (step.kind == ChainStep::Reduce)
          clone->setAttr(kGPUFallbackAttr, b.getUnitAttr());
      }
    });
  }
  WarpRow at = launchWarpPerRow(b, loc, blocks, rows);
  lane = at.lane;
  row = at.row;
  buildSteps();
}

struct GPUReductionKernels
    : public onnx::impl::GPUReductionKernelsBase<GPUReductionKernels> {
  using Base::Base;

  void runOnOperation() override {
    if (fuse)
      sinkFills(getOperation());
    if (chains)
      buildChains();
    for (auto &match : matchKernelOps<Reduction>(
             getOperation(), fuse,
             [](linalg::LinalgOp op) { return matchReduction(op); })) {
      OpBuilder b(match.anchor());
      // A thread per row (mapped with the other loop nests), or on the
      // CPU for testing, as loops.
      if (testOnCPU || !match.info.warp) {
        linalg::LinalgOp op = match.op;
        const Reduction &r = match.info;
        std::optional<PaddedImage> padded = readThroughPadding(match);
        // On the CPU, a warp's reduction folds in f32 where its kernel
        // would (Reduction::wide).
        bool wide = testOnCPU && r.warp && r.wide();
        buildFusedLoops(
            b, op.getLoc(), op, match.fusion,
            wide ? r.accIdentityAttr() : r.identityAttr(),
            [&](OpBuilder &b, Location loc, Value init, Value folded) {
              return combineValues(b, op, r, init,
                                   toRowType(b, loc, r, folded));
            },
            /*parallel=*/!testOnCPU, padded ? &*padded : nullptr,
            wide ? FoldElement([&](OpBuilder &b, Location loc, Value acc,
                                   llvm::function_ref<Value(Value)> atElement) {
              return accumulate(b, loc, op, r, acc, atElement);
            })
                 : FoldElement());
        eraseFused(match.fusion, op);
        if (padded)
          erasePaddedImage(*padded);
        continue;
      }
      ReductionBuilder(b, match.op.getLoc(), match.op, match.info, match.fusion)
          .build();
      eraseFused(match.fusion, match.op);
    }
  }

  /// An input of a reduction computed a thread per output element that is
  /// a padded copy made for it alone (matchPaddedImage: a depthwise
  /// convolution's or a pool's image) which its loops may read the source
  /// of instead (redirectSourceWrites), with `pad-images`.
  std::optional<PaddedImage>
  readThroughPadding(const KernelMatch<Reduction> &match) {
    if (!padImages)
      return std::nullopt;
    linalg::LinalgOp op = match.op;
    for (OpOperand *input : op.getDpsInputOperands())
      if (std::optional<PaddedImage> padded =
              matchPaddedImage(op, *input, match.fusion))
        return redirectSourceWrites(op, match.fusion, match.anchor(), *padded)
                   ? padded
                   : std::nullopt;
    return std::nullopt;
  }

  /// Each row chain as one kernel, in place of its last step.
  void buildChains() {
    std::vector<RowChain> chains;
    llvm::SmallPtrSet<Operation *, 16> taken;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.getNumReductionLoops() == 0 || taken.contains(op) ||
          op->getParentOfType<gpu::LaunchOp>() || op->hasAttr(kGPUFallbackAttr))
        return;
      std::optional<RowChain> chain = RowChainMatcher(op, taken).match();
      if (!chain || llvm::any_of(chain->steps, [&](const ChainStep &step) {
            return taken.contains(step.op);
          }))
        return;
      for (const ChainStep &step : chain->steps)
        taken.insert(step.op);
      chains.push_back(std::move(*chain));
    });
    for (const RowChain &chain : chains) {
      Operation *last = chain.steps.back().op;
      OpBuilder b(last->getContext());
      b.setInsertionPointAfter(last);
      RowChainBuilder(b, last->getLoc(), chain, testOnCPU).build();
      for (const ChainStep &step : chain.steps)
        step.op->erase();
    }
  }
};

} // namespace
