//===- TileAndVectorize.cpp - Tiles for caches, threads and registers -----===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The schedule of each kind of linalg op on tensors (Passes.td says which),
// on the upstream tiling (scf::tileUsingSCF), vectorization
// (linalg::vectorize) and hoisting utilities. Every step is optional for an
// op: what cannot be tiled or vectorized is left for the scalar loops.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Codegen/CPU/CPUTarget.h"
#include "OnnxDialect/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_CPUTILEANDVECTORIZE
#include "OnnxDialect/Codegen/CPU/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// Below this many elements (or multiply-adds) an op runs on one thread: a
/// fork and join costs about a microsecond, and the second core's share of a
/// smaller op is less.
constexpr int64_t kMinParallelWork = 1 << 15;

/// Element types whose vectors have the memory layout of their scalars and
/// whose arithmetic LLVM's x86 backend compiles natively (i1 vectors are
/// bit-packed in LLVM but byte-per-element in memrefs; sub-byte and 8-bit
/// float types are emulated).
bool isVectorElementType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.isSignless() && integer.getWidth() >= 8 &&
           integer.getWidth() <= 64;
  return type.isF32() || type.isF64() || type.isF16() || type.isBF16();
}

/// The widest element type of the op's operands, in bits; 0 when one of them
/// is not a tensor of a vectorizable element type.
unsigned widestElementBits(linalg::LinalgOp op) {
  unsigned bits = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    Type type = operand.get().getType();
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor) {
      if (!type.isIntOrIndexOrFloat() || !isVectorElementType(type))
        return 0;
      bits = std::max(bits, type.getIntOrFloatBitWidth());
      continue;
    }
    if (!isVectorElementType(tensor.getElementType()))
      return 0;
    bits = std::max(bits, tensor.getElementTypeBitWidth());
  }
  return bits;
}

/// A body of plain arithmetic: no tensor.extract (a gather), no calls, no
/// nested regions.
bool hasArithmeticBody(linalg::LinalgOp op) {
  for (Operation &inner : op->getRegion(0).front()) {
    if (isa<linalg::YieldOp, linalg::IndexOp>(inner))
      continue;
    Dialect *dialect = inner.getDialect();
    if (!dialect || !isa<arith::ArithDialect, math::MathDialect>(dialect))
      return false;
    if (inner.getNumRegions() != 0)
      return false;
    for (Type type : inner.getResultTypes())
      if (!isVectorElementType(type) && !type.isInteger(1) && !type.isIndex())
        return false;
  }
  return true;
}

/// Every operand indexed by a projected permutation of the loops, constant
/// zeros allowed (a kept unit dim, as in `x - max(x, keepdims)`).
bool hasBroadcastOrPermutationMaps(linalg::LinalgOp op) {
  return llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
    return map.isProjectedPermutation(/*allowZeroInResults=*/true);
  });
}

/// Tiles `op` as `options` say and replaces it; the tiled op, or null.
linalg::LinalgOp tile(RewriterBase &rewriter, linalg::LinalgOp op,
                      const scf::SCFTilingOptions &options) {
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled) || tiled->tiledOps.empty())
    return {};
  rewriter.replaceOp(op, tiled->replacements);
  return dyn_cast<linalg::LinalgOp>(tiled->tiledOps.back());
}

linalg::LinalgOp tileWithLoops(RewriterBase &rewriter, linalg::LinalgOp op,
                               ArrayRef<int64_t> sizes) {
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return op;
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForOp);
  return tile(rewriter, op, options);
}

/// Splits loop `dim` over `threads` with an scf.forall (OpenMP later).
linalg::LinalgOp distribute(RewriterBase &rewriter, linalg::LinalgOp op,
                            unsigned dim, int64_t threads) {
  SmallVector<int64_t> counts(op.getNumLoops(), 0);
  counts[dim] = threads;
  scf::SCFTilingOptions options;
  options.setNumThreads(getAsIndexOpFoldResult(rewriter.getContext(), counts));
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  return tile(rewriter, op, options);
}

/// Vectorizes a tile of static shape (the schedules split tails off rather
/// than mask them); false, with the op left as it is, otherwise.
bool vectorizeTile(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (op.hasDynamicShape())
    return false;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::VectorizationResult> result =
      linalg::vectorize(rewriter, op, /*inputVectorSizes=*/{},
                        /*inputScalableVecDims=*/{},
                        /*vectorizeNDExtract=*/false,
                        /*flatten1DDepthwiseConv=*/false,
                        /*assumeDynamicDimsMatchVecSizes=*/false,
                        /*createNamedContraction=*/true);
  if (failed(result))
    return false;
  if (!result->replacements.empty())
    rewriter.replaceOp(op, result->replacements);
  else
    rewriter.eraseOp(op);
  return true;
}

//===----------------------------------------------------------------------===//
// Packed matmul: linalg.mmt4d
//===----------------------------------------------------------------------===//

/// [M1, N1, K1, m0, n0, k0]: threads over M1, then blocks of N1 and K1 whose
/// right-hand tiles fit half of the L2 cache, then one m0 x n0 register tile
/// per step, its k loop innermost.
void scheduleMmt4d(RewriterBase &rewriter, linalg::Mmt4DOp mmt4d,
                   const CPUTarget &target, unsigned numThreads) {
  linalg::LinalgOp op = mmt4d;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ShapedType::isDynamicShape(ranges))
    return;
  int64_t m1 = ranges[0], k1 = ranges[2], n0 = ranges[4], k0 = ranges[5];
  int64_t work =
      ranges[0] * ranges[1] * ranges[2] * ranges[3] * ranges[4] * ranges[5];
  if (numThreads > 1 && m1 > 1 && work >= kMinParallelWork) {
    op = distribute(rewriter, op, 0, std::min<int64_t>(numThreads, m1));
    if (!op)
      return;
  }
  int64_t bytesPerColumnTile = n0 * k0 * 4;
  int64_t kBlock = std::min<int64_t>(k1, 256);
  int64_t nBlock =
      std::max<int64_t>(1, (128 * 1024) / (bytesPerColumnTile * kBlock));
  op = tileWithLoops(rewriter, op, {0, nBlock, kBlock, 0, 0, 0});
  if (!op)
    return;
  op = tileWithLoops(rewriter, op, {1, 1, 0, 0, 0, 0});
  if (!op)
    return;
  op = tileWithLoops(rewriter, op, {0, 0, 1, 0, 0, 0});
  if (!op)
    return;
  (void)vectorizeTile(rewriter, op);
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

/// The op as a linalg.generic without unit loops, its adjacent loops that
/// every operand walks contiguously merged (a [1,64,56,56] add with a
/// per-channel bias becomes [64, 3136]), so that the vectorized loop is long.
linalg::LinalgOp normalizeLoops(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp>(op.getOperation())) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic))
      return op;
    op = *generic;
  }
  auto generic = cast<linalg::GenericOp>(op.getOperation());
  // Maps with constant results (a kept unit dim, `x - max(x, keepdims)`)
  // are left as they are: the reshapes below do not handle them.
  if (!op.hasOnlyProjectedPermutations())
    return op;
  if (llvm::is_contained(op.getStaticLoopRanges(), 1) && op.getNumLoops() > 1) {
    rewriter.setInsertionPoint(op);
    linalg::ControlDropUnitDims control;
    // Strided windows keep their layout as rank-reducing slices.
    if (llvm::any_of(op->getOperands(), [](Value v) {
          return v.getDefiningOp<tensor::ExtractSliceOp>();
        }))
      control.rankReductionStrategy = linalg::ControlDropUnitDims::
          RankReductionStrategy::ExtractInsertSlice;
    FailureOr<linalg::DropUnitDimsResult> dropped =
        linalg::dropUnitDims(rewriter, generic, control);
    if (succeeded(dropped)) {
      rewriter.replaceOp(generic, dropped->replacements);
      generic = cast<linalg::GenericOp>(dropped->resultOp.getOperation());
      op = generic;
    }
  }
  // A strided window of a tensor (a depthwise convolution's input) cannot
  // be viewed with merged dims: merging would copy it.
  if (op.getNumLoops() < 2 || llvm::any_of(op->getOperands(), [](Value v) {
        return v.getDefiningOp<tensor::ExtractSliceOp>();
      }))
    return op;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<ReassociationIndices> groups = {{0}};
  for (int64_t d = 1, e = op.getNumLoops(); d < e; ++d) {
    ReassociationIndices extended = groups.back();
    extended.push_back(d);
    if (llvm::all_of(maps, [&](AffineMap map) {
          return linalg::isDimSequencePreserved(map, extended);
        }))
      groups.back() = extended;
    else
      groups.push_back({d});
  }
  if (groups.size() == op.getNumLoops())
    return op;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(op, groups, rewriter);
  if (failed(collapsed))
    return op;
  rewriter.replaceOp(op, collapsed->results);
  return collapsed->collapsedOp;
}

/// The size of a vectorized tile dim: whole when short, else a multiple of the
/// vector length that divides the loop when one does (no masks), else
/// `vectors` vectors with a masked tail.
int64_t vectorTileSize(int64_t extent, int64_t lanes, int64_t vectors) {
  if (extent <= vectors * lanes)
    return extent;
  for (int64_t v = vectors; v >= 1; v /= 2)
    if (extent % (v * lanes) == 0)
      return v * lanes;
  return vectors * lanes;
}

/// The loop an input walks contiguously (its map's last result) when that is
/// not the innermost loop: a transpose, vectorized as square tiles so that
/// the transposition happens in registers.
std::optional<int64_t> transposedLoop(linalg::LinalgOp op) {
  int64_t inner = op.getNumLoops() - 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    // A broadcast along the innermost loop reads one element per row: no
    // transposition.
    if (map.getNumResults() == 0 || !map.isFunctionOfDim(inner))
      continue;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (last && static_cast<int64_t>(last.getPosition()) != inner)
      return last.getPosition();
  }
  return std::nullopt;
}

void scheduleElementwise(RewriterBase &rewriter, linalg::LinalgOp op,
                         const CPUTarget &target, unsigned numThreads,
                         bool normalized = false);

/// Splits `op` along a vectorized loop whose tile does not divide it: full
/// tiles, then a static tail (no masks: the tail is its own, shorter
/// vector). False when there is nothing to split.
bool splitTail(RewriterBase &rewriter, linalg::LinalgOp op,
               ArrayRef<int64_t> ranges, ArrayRef<int64_t> sizes,
               const CPUTarget &target, unsigned numThreads) {
  for (int64_t d = 0, e = ranges.size(); d < e; ++d) {
    if (sizes[d] <= 1 || ranges[d] <= sizes[d] || ranges[d] % sizes[d] == 0)
      continue;
    int64_t point = ranges[d] / sizes[d] * sizes[d];
    rewriter.setInsertionPoint(op);
    auto [head, tail] =
        linalg::splitOp(rewriter, cast<TilingInterface>(op.getOperation()), d,
                        rewriter.getIndexAttr(point));
    if (!head || !tail)
      return false;
    scheduleElementwise(rewriter, cast<linalg::LinalgOp>(head.getOperation()),
                        target, numThreads, /*normalized=*/true);
    scheduleElementwise(rewriter, cast<linalg::LinalgOp>(tail.getOperation()),
                        target, numThreads, /*normalized=*/true);
    return true;
  }
  return false;
}

void scheduleElementwise(RewriterBase &rewriter, linalg::LinalgOp op,
                         const CPUTarget &target, unsigned numThreads,
                         bool normalized) {
  unsigned bits = widestElementBits(op);
  if (bits == 0)
    return;
  if (!normalized)
    op = normalizeLoops(rewriter, op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rank = ranges.size();
  if (rank == 0 || llvm::is_contained(ranges, 0) ||
      ShapedType::isDynamicShape(ranges))
    return;
  int64_t lanes = std::max<int64_t>(1, target.vectorBits / bits);
  int64_t elements = 1;
  for (int64_t r : ranges)
    elements *= r;

  // The tile: a vector-sized piece of the innermost loop (and of the loop a
  // transposed input walks), one iteration of every other loop.
  SmallVector<int64_t> sizes(rank, 1);
  std::optional<int64_t> transposed = transposedLoop(op);
  if (transposed) {
    sizes[rank - 1] = vectorTileSize(ranges[rank - 1], lanes, 1);
    sizes[*transposed] = vectorTileSize(ranges[*transposed], lanes, 1);
  } else {
    sizes[rank - 1] = vectorTileSize(ranges[rank - 1], lanes, 4);
  }
  if (splitTail(rewriter, op, ranges, sizes, target, numThreads))
    return;

  if (numThreads > 1 && elements >= kMinParallelWork) {
    // Threads over the outermost loop, in chunks of whole tiles that divide
    // it (every tile static).
    int64_t tiles = ranges[0] / sizes[0];
    if (tiles >= numThreads && tiles % numThreads == 0) {
      SmallVector<int64_t> chunks(rank, 0);
      chunks[0] = tiles / numThreads * sizes[0];
      scf::SCFTilingOptions options;
      options.setTileSizes(
          getAsIndexOpFoldResult(rewriter.getContext(), chunks));
      options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
      op = tile(rewriter, op, options);
      if (!op)
        return;
    } else if (rank > 1 && sizes[0] == 1 && ranges[0] >= numThreads) {
      op = distribute(rewriter, op, 0, numThreads);
      if (!op)
        return;
    }
  }
  SmallVector<int64_t> current = op.getStaticLoopRanges();
  SmallVector<int64_t> tileSizes(rank, 0);
  for (int64_t d = 0; d < rank; ++d)
    if (current[d] != sizes[d])
      tileSizes[d] = sizes[d];
  op = tileWithLoops(rewriter, op, tileSizes);
  if (op)
    (void)vectorizeTile(rewriter, op);
}

/// Whether the elementwise schedule applies: static loops, all parallel,
/// plain arithmetic on vectorizable element types.
bool isElementwiseCandidate(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape())
    return false;
  if (op.getNumReductionLoops() != 0)
    return false;
  if (!isa<linalg::GenericOp, linalg::FillOp, linalg::TransposeOp,
           linalg::CopyOp, linalg::BroadcastOp, linalg::MapOp>(
          op.getOperation()))
    return false;
  if (!hasBroadcastOrPermutationMaps(op))
    return false;
  if (widestElementBits(op) == 0 || !hasArithmeticBody(op))
    return false;
  return succeeded(linalg::vectorizeOpPrecondition(op));
}

//===----------------------------------------------------------------------===//
// Reductions along the innermost loop
//===----------------------------------------------------------------------===//

/// The longest reduction vectorized whole; longer ones stay scalar loops.
constexpr int64_t kMaxVectorReduction = 1024;

/// For a generic whose innermost reduction runs over the rows of an input
/// whose rows are the output's columns (a batched matmul after fusion,
/// [.., m, k] x [.., k, n]): the loop of those columns, vectorized beside
/// the reduction.
std::optional<int64_t> contractionColumns(linalg::LinalgOp op) {
  int64_t rank = op.getNumLoops();
  if (rank < 2 || op.getNumDpsInits() != 1)
    return std::nullopt;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() == 0)
    return std::nullopt;
  auto last = dyn_cast<AffineDimExpr>(out.getResults().back());
  if (!last || static_cast<int64_t>(last.getPosition()) != rank - 2)
    return std::nullopt;
  return rank - 2;
}

/// Whether the reduction schedule applies: a generic on static shapes whose
/// only reduction is its innermost loop, at most kMaxVectorReduction long,
/// which every input that uses it walks contiguously (the statistics of a
/// softmax or a normalization, a Reduce* over the last axis), with plain
/// arithmetic on vectorizable element types.
bool isInnerReductionCandidate(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || !op.hasPureTensorSemantics() || op.hasDynamicShape())
    return false;
  int64_t inner = op.getNumLoops() - 1;
  if (inner < 0 || op.getNumReductionLoops() != 1 ||
      !linalg::isReductionIterator(op.getIteratorTypesArray()[inner]))
    return false;
  int64_t extent = op.getStaticLoopRanges()[inner];
  if (extent < 2 || extent > kMaxVectorReduction)
    return false;
  if (!hasBroadcastOrPermutationMaps(op))
    return false;
  std::optional<int64_t> columns = contractionColumns(op);
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isFunctionOfDim(inner))
      continue;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last)
      return false;
    int64_t dim = last.getPosition();
    if (dim != inner && (!columns || dim != *columns))
      return false;
  }
  if (widestElementBits(op) == 0 || !hasArithmeticBody(op))
    return false;
  return succeeded(linalg::vectorizeOpPrecondition(op));
}

/// One row per step: the parallel loops tiled to one (the outermost split
/// over threads when the op is large), the reduction vectorized whole into a
/// vector.multi_reduction.
void scheduleInnerReduction(RewriterBase &rewriter, linalg::LinalgOp op,
                            const CPUTarget &target, unsigned numThreads) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t rank = ranges.size();
  int64_t elements = 1;
  for (int64_t r : ranges)
    elements *= r;
  if (numThreads > 1 && rank > 1 && elements >= kMinParallelWork &&
      ranges[0] >= numThreads) {
    op = distribute(rewriter, op, 0, numThreads);
    if (!op)
      return;
  }
  SmallVector<int64_t> sizes(rank, 1);
  sizes[rank - 1] = 0;
  // A contraction takes a vector of its output's columns per step when they
  // divide into vectors (else one column: no masks).
  if (std::optional<int64_t> columns = contractionColumns(op)) {
    int64_t lanes =
        std::max<int64_t>(1, target.vectorBits / widestElementBits(op));
    int64_t extent = ranges[*columns];
    if (extent <= lanes)
      sizes[*columns] = 0;
    else if (extent % lanes == 0)
      sizes[*columns] = lanes;
  }
  op = tileWithLoops(rewriter, op, sizes);
  if (op)
    (void)vectorizeTile(rewriter, op);
}

//===----------------------------------------------------------------------===//
// Clean-up on tensors: accumulators out of the reduction loop, vector math
//===----------------------------------------------------------------------===//

void hoistAccumulators(RewriterBase &rewriter, func::FuncOp func) {
  MLIRContext *context = func.getContext();
  {
    RewritePatternSet patterns(context);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    (void)applyCodegenPatterns(func, std::move(patterns),
                               /*canonicalize=*/false);
  }
  DominanceInfo dominance;
  eliminateCommonSubExpressions(rewriter, dominance, func);
  // Innermost loops first, so that an accumulator hoisted out of the k loop
  // can be hoisted again out of an enclosing loop that keeps it.
  SmallVector<LoopLikeOpInterface> loops;
  func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (LoopLikeOpInterface loop : loops) {
    moveLoopInvariantCode(loop);
    (void)hoistLoopInvariantSubsets(rewriter, loop);
  }
  RewritePatternSet patterns(context);
  vector::populateVectorReductionToContractPatterns(patterns);
  vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
  (void)applyCodegenPatterns(func, std::move(patterns),
                             /*canonicalize=*/true);
}

/// Vector math through polynomials (f32): exp, log, tanh, erf, sin, cos, ...
/// Scalar math keeps the libm calls, which are exact to the last bit.
void approximateVectorMath(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (isa<math::MathDialect>(op->getDialect()) && op->getNumResults() == 1 &&
        isa<VectorType>(op->getResult(0).getType()))
      ops.push_back(op);
  });
  if (ops.empty())
    return;
  RewritePatternSet patterns(func.getContext());
  populateMathPolynomialApproximationPatterns(patterns);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  (void)applyOpPatternsGreedily(ops, std::move(patterns), config);
}

struct CPUTileAndVectorizePass
    : public onnx::impl::CPUTileAndVectorizeBase<CPUTileAndVectorizePass> {
  using Base::Base;

  /// The target, resolved once before the pass runs on functions in
  /// parallel.
  LogicalResult initialize(MLIRContext *) override {
    target = CPUTarget::get(targetCPU, targetFeatures);
    return success();
  }
  CPUTarget target;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (failed(checkTarget(target, getOperation())))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());

    // Packs and unpacks become a pad, a reshape and a transpose, which the
    // elementwise schedule below vectorizes.
    SmallVector<linalg::PackOp> packs;
    SmallVector<linalg::UnPackOp> unpacks;
    func.walk([&](linalg::PackOp op) { packs.push_back(op); });
    func.walk([&](linalg::UnPackOp op) { unpacks.push_back(op); });
    for (linalg::PackOp op : packs) {
      rewriter.setInsertionPoint(op);
      (void)linalg::lowerPack(rewriter, op);
    }
    for (linalg::UnPackOp op : unpacks) {
      rewriter.setInsertionPoint(op);
      (void)linalg::lowerUnPack(rewriter, op);
    }

    SmallVector<linalg::Mmt4DOp> mmt4ds;
    func.walk([&](linalg::Mmt4DOp op) { mmt4ds.push_back(op); });
    for (linalg::Mmt4DOp op : mmt4ds)
      scheduleMmt4d(rewriter, op, target, numThreads);

    SmallVector<linalg::LinalgOp> elementwise, reductions;
    func.walk([&](linalg::LinalgOp op) {
      if (isElementwiseCandidate(op))
        elementwise.push_back(op);
      else if (isInnerReductionCandidate(op))
        reductions.push_back(op);
    });
    for (linalg::LinalgOp op : elementwise)
      scheduleElementwise(rewriter, op, target, numThreads);
    for (linalg::LinalgOp op : reductions)
      scheduleInnerReduction(rewriter, op, target, numThreads);

    hoistAccumulators(rewriter, func);
    approximateVectorMath(func);
  }
};

} // namespace
