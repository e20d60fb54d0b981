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
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

#include <limits>

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
bool vectorizeTile(RewriterBase &rewriter, linalg::LinalgOp op,
                   int64_t maskedLanes = 0) {
  if (op.hasDynamicShape())
    return false;
  rewriter.setInsertionPoint(op);
  SmallVector<int64_t> vectorSizes;
  SmallVector<bool> scalable;
  if (maskedLanes > 0) {
    vectorSizes = op.getStaticLoopRanges();
    vectorSizes.back() = llvm::alignTo(vectorSizes.back(), maskedLanes);
    scalable.assign(vectorSizes.size(), false);
  }
  FailureOr<linalg::VectorizationResult> result =
      linalg::vectorize(rewriter, op, vectorSizes, scalable,
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

linalg::LinalgOp restartAccumulator(RewriterBase &rewriter,
                                    linalg::LinalgOp op);

/// Whether `op` is a packed product: linalg.mmt4d, or the product of 8-bit
/// quads that onnx-cpu-pack-matmul marks kQuadProductAttr (mmt4d's loops
/// and maps).
bool isPackedProduct(Operation *op) {
  return isa<linalg::Mmt4DOp>(op) ||
         (isa<linalg::GenericOp>(op) && op->hasAttr(kQuadProductAttr));
}

bool vectorizeQuadStep(RewriterBase &rewriter, linalg::GenericOp op);

/// One step of a packed product's register tile (every loop of extent one
/// but m0, n0 and k0) vectorized.
void vectorizeProductStep(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (op->hasAttr(kQuadProductAttr))
    (void)vectorizeQuadStep(rewriter, cast<linalg::GenericOp>(op));
  else
    (void)vectorizeTile(rewriter, op);
}

/// [M1, N1, K1, m0, n0, k0]: threads over M1, then blocks of N1 and K1 whose
/// right-hand tiles fit half of the L2 cache, then one m0 x n0 register tile
/// per step, its k loop innermost. With several k blocks, each register tile
/// sums its block from zero and adds it to the accumulator after
/// (restartAccumulator): no float32 sum runs over more than 256 steps.
void scheduleMmt4d(RewriterBase &rewriter, linalg::LinalgOp mmt4d,
                   const CPUTarget &target, unsigned numThreads) {
  linalg::LinalgOp op = mmt4d;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ShapedType::isDynamicShape(ranges))
    return;
  int64_t m1 = ranges[0], k1 = ranges[2], n0 = ranges[4], k0 = ranges[5];
  int64_t work =
      ranges[0] * ranges[1] * ranges[2] * ranges[3] * ranges[4] * ranges[5];
  int64_t n1 = ranges[1];
  // Threads over the rows, or over the columns when there are more column
  // tiles (BERT's [128, 768] x [768, 3072]): each thread then reads its own
  // half of B, the weights, from memory, where split rows read all of it
  // (BERT-base at 2 threads: 142 -> 127 ms; no change on products whose B
  // stays in the caches).
  unsigned split = n1 > m1 ? 1 : 0;
  if (numThreads > 1 && ranges[split] > 1 && work >= kMinParallelWork) {
    op = distribute(rewriter, op, split,
                    std::min<int64_t>(numThreads, ranges[split]));
    if (!op)
      return;
  }
  int64_t bytesPerColumnTile =
      n0 * k0 *
      getElementTypeOrSelf(op.getDpsInputs()[1].getType())
          .getIntOrFloatBitWidth() /
      8;
  int64_t kBlock = std::min<int64_t>(k1, 256);
  int64_t nBlock =
      std::max<int64_t>(1, (128 * 1024) / (bytesPerColumnTile * kBlock));
  op = tileWithLoops(rewriter, op, {0, nBlock, kBlock, 0, 0, 0});
  if (!op)
    return;
  op = tileWithLoops(rewriter, op, {1, 1, 0, 0, 0, 0});
  if (!op)
    return;
  if (kBlock < k1)
    op = restartAccumulator(rewriter, op);
  op = tileWithLoops(rewriter, op, {0, 0, 1, 0, 0, 0});
  if (!op)
    return;
  vectorizeProductStep(rewriter, op);
}

//===----------------------------------------------------------------------===//
// Direct convolution (onnx-cpu-pack-matmul's directConv)
//===----------------------------------------------------------------------===//

/// A vector of `shape` read from the origin of the tensor `from` (its
/// innermost dims), in bounds, at the rewriter's insertion point.
Value readAtOrigin(RewriterBase &rewriter, Location loc, Value from,
                   ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(from.getType());
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  SmallVector<Value> indices(type.getRank(), zero);
  SmallVector<bool> inBounds(shape.size(), true);
  Value pad = arith::ConstantOp::create(
      rewriter, loc, rewriter.getZeroAttr(type.getElementType()));
  return vector::TransferReadOp::create(
      rewriter, loc, VectorType::get(shape, type.getElementType()), from,
      indices, pad, inBounds);
}

/// Replaces the register tile's op `op` by the write of `tile` at the origin
/// of its accumulator `acc`.
void replaceByTileWrite(RewriterBase &rewriter, Operation *op, Value tile,
                        Value acc) {
  Location loc = op->getLoc();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  SmallVector<Value> indices(cast<RankedTensorType>(acc.getType()).getRank(),
                             zero);
  SmallVector<bool> inBounds(cast<VectorType>(tile.getType()).getRank(), true);
  rewriter.replaceOp(op, vector::TransferWriteOp::create(rewriter, loc, tile,
                                                         acc, indices, inBounds)
                             ->getResults());
}

/// `op` tiled as `sizes` say, with loops of `loopType`, and the producers
/// `control` takes fused into its tiles; its uses replaced by the tiled
/// result. A slice of a slice that the fusion makes (a part of a split
/// epilogue reads a slice of the unpacked product) becomes one slice.
std::optional<scf::SCFTileAndFuseResult>
tileAndFuseInto(RewriterBase &rewriter, TilingInterface op,
                ArrayRef<int64_t> sizes,
                scf::SCFTilingOptions::LoopType loopType,
                const scf::SCFTileAndFuseOptions::ControlFnTy &control) {
  scf::SCFTileAndFuseOptions options;
  options.tilingOptions.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  options.tilingOptions.setLoopType(loopType);
  options.setFusionControlFn(control);
  RewritePatternSet cleanup(rewriter.getContext());
  tensor::populateMergeConsecutiveInsertExtractSlicePatterns(cleanup);
  options.cleanupPatterns = FrozenRewritePatternSet(std::move(cleanup));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, op, options);
  if (failed(result))
    return std::nullopt;
  for (OpResult value : op->getResults())
    if (Value replacement = result->replacements.lookup(value))
      rewriter.replaceAllUsesWith(value, replacement);
  return *result;
}

/// One step of a direct convolution's register tile (every loop of extent
/// one but the tile's rows and lanes): the rows' values (the filters'
/// weights, or one output row's positions when the convolution goes by
/// rows) times the lanes' (n0 consecutive image values, or the filters'
/// weights), added to the accumulators as one vector.outerproduct (FMAs of
/// a broadcast row value).
bool vectorizeDirectConvStep(RewriterBase &rewriter, linalg::GenericOp op) {
  if (op.hasDynamicShape() || op.getNumDpsInputs() != 2)
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.size() != 7 || !llvm::all_of(ArrayRef(ranges).take_front(5),
                                          [](int64_t r) { return r == 1; }))
    return false;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto read = [&](Value from, ArrayRef<int64_t> shape) {
    return readAtOrigin(rewriter, loc, from, shape);
  };
  // The tile's rows come from the operand indexed by loop 5 (the filters,
  // or the positions of a convolution by rows), its lanes from the other.
  Value acc = op.getDpsInits()[0];
  bool filtersAreRows =
      op.getMatchingIndexingMap(op.getDpsInputOperand(0)).isFunctionOfDim(5);
  Value rows = op.getDpsInputs()[filtersAreRows ? 0 : 1];
  Value lanes = op.getDpsInputs()[filtersAreRows ? 1 : 0];
  Value rowValues = read(rows, {ranges[5]});
  Value laneValues = read(lanes, {ranges[6]});
  Value tile = read(acc, {ranges[5], ranges[6]});
  Value sum = vector::OuterProductOp::create(rewriter, loc, tile.getType(),
                                             rowValues, laneValues, tile);
  replaceByTileWrite(rewriter, op, sum, acc);
  return true;
}

/// The register tile's op `op` (one block of channels) made to start from
/// zero, its sum then added to the tile's accumulator: each block summed
/// on its own, rather than one accumulator through the whole reduction,
/// whose float32 error grows with its length (a 3x3 convolution of 64
/// channels: 6.3e-7 of the output's magnitude with one accumulator, 3.2e-7
/// in blocks of 28 channels, 1.7e-7 in blocks of 8, ONNX Runtime's 1.8e-7).
/// Returns the op of the block, or `op` when it is not a tile of static
/// shape.
linalg::LinalgOp restartAccumulator(RewriterBase &rewriter,
                                    linalg::LinalgOp op) {
  if (op->getNumResults() != 1 || op.getNumDpsInits() != 1)
    return op;
  Value init = op.getDpsInits()[0];
  auto type = dyn_cast<RankedTensorType>(init.getType());
  if (!type || !type.hasStaticShape())
    return op;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                        type.getElementType());
  Value zero = arith::ConstantOp::create(
      rewriter, loc, rewriter.getZeroAttr(type.getElementType()));
  auto fill = linalg::FillOp::create(rewriter, loc, zero, empty);
  Operation *block = rewriter.clone(*op.getOperation());
  block->setOperand(op.getDpsInitOperand(0)->getOperandNumber(),
                    fill.getResult(0));
  AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
  auto add = linalg::GenericOp::create(
      rewriter, loc, TypeRange{type}, ValueRange{block->getResult(0)},
      ValueRange{init}, ArrayRef<AffineMap>{identity, identity},
      SmallVector<utils::IteratorType>(type.getRank(),
                                       utils::IteratorType::parallel),
      [](OpBuilder &b, Location l, ValueRange args) {
        // (An i32 product's blocks are summed with addi.)
        Value sum =
            isa<FloatType>(args[0].getType())
                ? arith::AddFOp::create(b, l, args[1], args[0]).getResult()
                : arith::AddIOp::create(b, l, args[1], args[0]).getResult();
        linalg::YieldOp::create(b, l, sum);
      });
  rewriter.replaceOp(op, add.getResults());
  (void)vectorizeTile(rewriter, cast<linalg::LinalgOp>(fill.getOperation()));
  (void)vectorizeTile(rewriter, cast<linalg::LinalgOp>(add.getOperation()));
  return cast<linalg::LinalgOp>(block);
}

/// [M1, N1, C, KH, KW, m0, n0] (by rows: [OH, F1, C, KH, KW, OW, lanes]):
/// threads over loop 0 or 1, whichever indexes the larger input (the
/// filter's taps or the image), so that each thread reads its part of that
/// one (ResNet-50's 3x3 convolutions over 14x14: 2.4 MB of taps and a
/// 0.3 MB image, split by filters: 1.75-1.89 ms against 2.19-2.40 at 2
/// threads, in the model), then blocks of 8 of loop 1's tiles and of at most 8
/// channels (the filters' block and the image rows it reads stay in the
/// caches), then one register tile per step, which sums its block of channels
/// from zero and adds it to its accumulator after (restartAccumulator), with
/// the (c, ky, kx) loops innermost, its sum carried in registers across them
/// (hoistAccumulators).
void scheduleDirectConv(RewriterBase &rewriter, linalg::GenericOp conv,
                        unsigned numThreads) {
  linalg::LinalgOp op = conv;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.size() != 7 || ShapedType::isDynamicShape(ranges))
    return;
  int64_t work = 1;
  for (int64_t r : ranges)
    work *= r;
  // The loop that indexes the larger input.
  int64_t split = 1, largest = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = cast<ShapedType>(input->get().getType());
    AffineMap map = op.getMatchingIndexingMap(input);
    for (int64_t loop : {0, 1})
      if (map.isFunctionOfDim(loop) && ranges[loop] > 1 &&
          type.getNumElements() > largest) {
        split = loop;
        largest = type.getNumElements();
      }
  }
  if (numThreads > 1 && ranges[split] > 1 && work >= kMinParallelWork) {
    op = distribute(rewriter, op, split,
                    std::min<int64_t>(numThreads, ranges[split]));
    if (!op)
      return;
  }
  int64_t window = ranges[3] * ranges[4];
  int64_t channelBlock =
      std::min<int64_t>(ranges[2], std::clamp<int64_t>(256 / window, 1, 8));
  op = tileWithLoops(rewriter, op, {0, 8, channelBlock, 0, 0, 0, 0});
  if (!op)
    return;
  // By rows over a wide map, a row of positions (loop 5) in segments of at
  // most kMaxTileRows (PackMatmul's rowSegment), one register tile each.
  int64_t segment =
      ranges[5] > kMaxTileRows ? largestDivisor(ranges[5], kMaxTileRows, 1) : 0;
  op = tileWithLoops(rewriter, op, {1, 1, 0, 0, 0, segment, 0});
  if (!op)
    return;
  if (channelBlock < ranges[2])
    op = restartAccumulator(rewriter, op);
  op = tileWithLoops(rewriter, op, {0, 0, 1, 1, 1, 0, 0});
  if (auto step = dyn_cast_or_null<linalg::GenericOp>(op.getOperation()))
    (void)vectorizeDirectConvStep(rewriter, step);
}

//===----------------------------------------------------------------------===//
// Convolutions, depthwise convolutions and pools on blocked activations
// (onnx-cpu-blocked-layout)
//===----------------------------------------------------------------------===//

/// One step of a quad product's register tile (kQuadProductAttr): [1, 1,
/// m0, 4] signed bytes times [1, 1, n0, 4] unsigned ones (n0 a multiple of
/// 16) into [1, 1, m0, n0] x i32, as a vector.contract of the bytes
/// extended (signed, unsigned) to i32, which onnx-cpu-lower-vectors
/// computes with one `vpdpbusd` per row and 16 columns.
bool vectorizeQuadStep(RewriterBase &rewriter, linalg::GenericOp op) {
  Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
  Value acc = op.getDpsInits()[0];
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  if (!lhsType.hasStaticShape() || !rhsType.hasStaticShape() ||
      lhsType.getShape().take_front(2) != ArrayRef<int64_t>{1, 1} ||
      lhsType.getDimSize(3) != 4 || rhsType.getRank() != 4 ||
      rhsType.getShape().take_front(2) != ArrayRef<int64_t>{1, 1} ||
      rhsType.getDimSize(2) % 16 != 0 || rhsType.getDimSize(3) != 4)
    return false;
  int64_t rows = lhsType.getDimSize(2), cols = rhsType.getDimSize(2);
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  rewriter.setInsertionPoint(op);
  Type i32 = rewriter.getI32Type();
  Value quads =
      arith::ExtSIOp::create(rewriter, loc, VectorType::get({rows, 4}, i32),
                             readAtOrigin(rewriter, loc, lhs, {rows, 4}));
  // The columns' bytes read as one vector (a vector<16x4xi8> read became
  // 16 loads of 4 bytes and shuffles).
  Value flat = tensor::CollapseShapeOp::create(
      rewriter, loc, rhs, ArrayRef<ReassociationIndices>{{0, 1, 2, 3}});
  Value columns = arith::ExtUIOp::create(
      rewriter, loc, VectorType::get({cols, 4}, i32),
      vector::ShapeCastOp::create(
          rewriter, loc, VectorType::get({cols, 4}, rewriter.getIntegerType(8)),
          readAtOrigin(rewriter, loc, flat, {cols * 4})));
  Value tile = readAtOrigin(rewriter, loc, acc, {rows, cols});
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  using vector::IteratorType;
  Value sum = vector::ContractionOp::create(
      rewriter, loc, quads, columns, tile,
      rewriter.getAffineMapArrayAttr({AffineMap::get(3, 0, {m, k}, ctx),
                                      AffineMap::get(3, 0, {n, k}, ctx),
                                      AffineMap::get(3, 0, {m, n}, ctx)}),
      rewriter.getArrayAttr(
          {vector::IteratorTypeAttr::get(ctx, IteratorType::parallel),
           vector::IteratorTypeAttr::get(ctx, IteratorType::parallel),
           vector::IteratorTypeAttr::get(ctx, IteratorType::reduction)}));
  replaceByTileWrite(rewriter, op, sum, acc);
  return true;
}

/// The step of a blocked convolution's register tile (loops (n, fb, oh, ow,
/// f0, cb, ky, kx, ci), each of extent one but ow, a segment of an output
/// row, and f0, the c0 filters of a block): the segment's image values, one
/// channel at each position, times the block's filter vector, added to the
/// accumulators as one vector.outerproduct (a broadcast of each position's
/// value and an FMA). The image values are read one by one: positions are
/// c0 (times the stride) elements apart in the blocked layout.
bool vectorizeBlockedConvStep(RewriterBase &rewriter, linalg::GenericOp op) {
  if (op.hasDynamicShape() || op.getNumDpsInputs() != 2)
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.size() != 9 ||
      llvm::any_of(llvm::seq<int64_t>(0, 9), [&](int64_t d) {
        return d != 3 && d != 4 && ranges[d] != 1;
      }))
    return false;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Type f32 = rewriter.getF32Type();
  Value image = op.getDpsInputs()[0], filter = op.getDpsInputs()[1];
  Value acc = op.getDpsInits()[0];
  // Position i of the segment is at the image index the map gives for it
  // (i times the stride along the columns of the tile's window).
  AffineMap imageMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  SmallVector<Value> positions;
  for (int64_t i = 0; i < ranges[3]; ++i) {
    SmallVector<int64_t> loops(9, 0);
    loops[3] = i;
    SmallVector<Value> indices;
    for (int64_t at : imageMap.compose(loops))
      indices.push_back(arith::ConstantIndexOp::create(rewriter, loc, at));
    positions.push_back(
        tensor::ExtractOp::create(rewriter, loc, image, indices));
  }
  Value rows = vector::FromElementsOp::create(
      rewriter, loc, VectorType::get({ranges[3]}, f32), positions);
  Value lanes = readAtOrigin(rewriter, loc, filter, {ranges[4]});
  Value tile = readAtOrigin(rewriter, loc, acc, {ranges[3], ranges[4]});
  Value sum = vector::OuterProductOp::create(rewriter, loc, tile.getType(),
                                             rows, lanes, tile);
  replaceByTileWrite(rewriter, op, sum, acc);
  return true;
}

/// The step of a blocked depthwise convolution or pool (loops (n, cb, oh,
/// ow, c0, ky, kx), each of extent one but ow and c0): the body computed on
/// vectors [OW segment, c0], the image's rows of c0 channels (contiguous),
/// the filter's c0 weights broadcast over the segment.
bool vectorizeBlockedWindowStep(RewriterBase &rewriter, linalg::GenericOp op) {
  if (op.hasDynamicShape() || op.getNumDpsInputs() != 2 ||
      op->getNumResults() != 1)
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.size() != 7 ||
      llvm::any_of(llvm::seq<int64_t>(0, 7), [&](int64_t d) {
        return d != 3 && d != 4 && ranges[d] != 1;
      }))
    return false;
  Block &body = op.getRegion().front();
  for (Operation &inner : body.without_terminator())
    if (!OpTrait::hasElementwiseMappableTraits(&inner) ||
        inner.getNumResults() != 1 || inner.getNumRegions() != 0)
      return false;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto tileType = VectorType::get({ranges[3], ranges[4]},
                                  getElementTypeOrSelf(op->getResult(0)));
  auto read = [&](Value from, int64_t rank) {
    return readAtOrigin(rewriter, loc, from,
                        tileType.getShape().take_back(rank));
  };
  IRMapping mapping;
  Value image = op.getDpsInputs()[0], window = op.getDpsInputs()[1];
  Value acc = op.getDpsInits()[0];
  // The segment's positions in the tile's window of the image: a stride
  // apart along its columns.
  AffineMap imageMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  SmallVector<int64_t> next(7, 0);
  next[3] = 1;
  SmallVector<int64_t> step = imageMap.compose(next);
  if (step.size() != 5 || step[0] || step[1] || step[2] || step[4])
    return false;
  SmallVector<OpFoldResult> offsets(5, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = {
      rewriter.getIndexAttr(1), rewriter.getIndexAttr(1),
      rewriter.getIndexAttr(1), rewriter.getIndexAttr(ranges[3]),
      rewriter.getIndexAttr(ranges[4])};
  SmallVector<OpFoldResult> strides(5, rewriter.getIndexAttr(1));
  strides[3] = rewriter.getIndexAttr(step[3]);
  Value positions = tensor::ExtractSliceOp::create(
      rewriter, loc,
      RankedTensorType::get({1, 1, 1, ranges[3], ranges[4]},
                            getElementTypeOrSelf(image)),
      image, offsets, sizes, strides);
  mapping.map(body.getArgument(0), read(positions, 2));
  if (!body.getArgument(1).use_empty()) {
    Value weights = read(window, 1);
    mapping.map(
        body.getArgument(1),
        vector::BroadcastOp::create(
            rewriter, loc,
            VectorType::get(tileType.getShape(), getElementTypeOrSelf(weights)),
            weights));
  }
  mapping.map(body.getArgument(2), read(acc, 2));
  for (Operation &inner : body.without_terminator()) {
    // A product added to the accumulator (a depthwise convolution's body):
    // one FMA (LLVM does not contract the two).
    if (auto add = dyn_cast<arith::AddFOp>(inner)) {
      Value product = add.getRhs(), other = add.getLhs();
      if (!product.getDefiningOp<arith::MulFOp>())
        std::swap(product, other);
      auto mul = product.getDefiningOp<arith::MulFOp>();
      if (mul && mul->getBlock() == &body && product.hasOneUse() &&
          mapping.contains(other) && mapping.contains(mul.getLhs()) &&
          mapping.contains(mul.getRhs())) {
        mapping.map(add.getResult(),
                    vector::FMAOp::create(
                        rewriter, loc, mapping.lookup(mul.getLhs()),
                        mapping.lookup(mul.getRhs()), mapping.lookup(other)));
        continue;
      }
    }
    for (Value operand : inner.getOperands()) {
      if (mapping.contains(operand))
        continue;
      // A scalar from outside the body (a constant): broadcast.
      mapping.map(operand,
                  vector::BroadcastOp::create(
                      rewriter, loc,
                      VectorType::get(tileType.getShape(), operand.getType()),
                      operand));
    }
    Operation *clone = rewriter.clone(inner, mapping);
    Value result = clone->getResult(0);
    result.setType(VectorType::get(tileType.getShape(), result.getType()));
  }
  replaceByTileWrite(rewriter, op,
                     mapping.lookup(body.getTerminator()->getOperand(0)), acc);
  return true;
}

/// The reduction of one register tile of an op marked kBlockedConvAttr
/// (every parallel loop tiled to the tile: a segment of an output row times
/// c0 lanes): for a convolution, blocks of about 64 reduction steps, each
/// summed from zero (restartAccumulator), then one step at a time, its
/// accumulators carried in registers across the steps of a block
/// (hoistAccumulators); for a depthwise convolution or pool, the window's
/// taps one at a time.
void scheduleBlockedTile(RewriterBase &rewriter, linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (ranges.size() == 7) {
    op = tileWithLoops(rewriter, op, {0, 0, 0, 0, 0, 1, 1});
    if (auto step = dyn_cast_or_null<linalg::GenericOp>(op.getOperation()))
      (void)vectorizeBlockedWindowStep(rewriter, step);
    return;
  }
  int64_t stepsPerBlock = ranges[6] * ranges[7] * ranges[8];
  int64_t channelBlock = std::clamp<int64_t>(64 / stepsPerBlock, 1, ranges[5]);
  op = tileWithLoops(rewriter, op, {0, 0, 0, 0, 0, channelBlock, 0, 0, 0});
  if (!op)
    return;
  if (channelBlock < ranges[5])
    op = restartAccumulator(rewriter, op);
  op = tileWithLoops(rewriter, op, {0, 0, 0, 0, 0, 1, 1, 1, 1});
  if (auto step = dyn_cast_or_null<linalg::GenericOp>(op.getOperation()))
    (void)vectorizeBlockedConvStep(rewriter, step);
}

/// An op marked kBlockedConvAttr: a convolution (n, fb, oh, ow, f0, cb, ky,
/// kx, ci), or a depthwise convolution or pool (n, cb, oh, ow, c0, ky, kx).
/// Threads take equal chunks of the filter (channel) blocks when the filter
/// is the larger input of a convolution, or the op is depthwise, else of the
/// output rows; then one register tile per step, a segment of an output row
/// (blockedRowSegment) times the c0 lanes of a block (scheduleBlockedTile).
/// The elementwise op that alone reads the result (its bias, activation,
/// residual addition) is computed in the same tile loop, on each register
/// tile as it is finished, and the accumulator's start (a fill, a broadcast
/// bias) too; without one (the products of a Winograd convolution, read by
/// its output transform), the op is tiled on its own.
void scheduleBlocked(RewriterBase &rewriter, linalg::GenericOp blocked,
                     unsigned numThreads) {
  SmallVector<int64_t> ranges =
      cast<linalg::LinalgOp>(blocked.getOperation()).getStaticLoopRanges();
  if ((ranges.size() != 9 && ranges.size() != 7) ||
      ShapedType::isDynamicShape(ranges))
    return;
  bool conv = ranges.size() == 9;
  int64_t work = 1;
  for (int64_t r : ranges)
    work *= r;
  int64_t segment = blockedRowSegment(ranges[3]);
  if (segment == 0 || ranges[3] % segment != 0)
    return;
  int64_t split = 2;
  if (!conv) {
    split = 1;
  } else {
    auto elements = [&](unsigned i) {
      return cast<ShapedType>(blocked.getDpsInputs()[i].getType())
          .getNumElements();
    };
    if (elements(1) > elements(0))
      split = 1;
  }
  auto threads = static_cast<int64_t>(numThreads);
  SmallVector<int64_t> chunk(5, 0);
  if (numThreads > 1 && work >= kMinParallelWork) {
    for (int64_t d : {split, 3 - split})
      if (ranges[d] % threads == 0) {
        chunk[d] = ranges[d] / threads;
        break;
      }
  }

  // The consumer whose tiles the op's tiles are fused into: the epilogue,
  // else a copy of the result.
  Value result = blocked.getResult(0);
  linalg::LinalgOp epilogue;
  if (result.hasOneUse()) {
    auto user = dyn_cast<linalg::GenericOp>(*result.getUsers().begin());
    if (user && user.getNumLoops() == 5 && user.getNumParallelLoops() == 5 &&
        user->getNumResults() == 1 && !user.hasDynamicShape() &&
        hasArithmeticBody(user) && hasBroadcastOrPermutationMaps(user) &&
        llvm::all_of(user.getDpsInputOperands(),
                     [&](OpOperand *operand) {
                       return operand->get() != result ||
                              user.getMatchingIndexingMap(operand).isIdentity();
                     }) &&
        user.getMatchingIndexingMap(user.getDpsInitOperand(0)).isIdentity())
      epilogue = user;
  }
  // Without one, the op's own tiles (its reduction loops whole).
  linalg::LinalgOp consumer = epilogue ? epilogue : blocked;
  auto padded = [&](ArrayRef<int64_t> sizes) {
    SmallVector<int64_t> all(sizes);
    all.resize(consumer.getNumLoops(), 0);
    return all;
  };
  // The op, and its accumulator's start (also once fused into the threads'
  // chunks, then a tile of it starts the op's tile).
  auto startsBlocked = [](OpResult producer) {
    return llvm::any_of(producer.getUses(), [](OpOperand &use) {
      auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
      return user && user->hasAttr(kBlockedConvAttr) && user.isDpsInit(&use);
    });
  };
  auto fuseControl =
      [&](tensor::ExtractSliceOp, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
    Operation *op = producer.getOwner();
    if (op->hasAttr(kBlockedConvAttr) ||
        (isa<linalg::LinalgOp>(op) && startsBlocked(producer)))
      return scf::SCFTileAndFuseOptions::ControlFnResult{};
    return std::nullopt;
  };
  auto tileAndFuse = [&](TilingInterface op, ArrayRef<int64_t> sizes,
                         scf::SCFTilingOptions::LoopType loopType) {
    return tileAndFuseInto(rewriter, op, sizes, loopType, fuseControl);
  };
  auto part = cast<TilingInterface>(consumer.getOperation());
  if (llvm::any_of(chunk, [](int64_t c) { return c != 0; })) {
    std::optional<scf::SCFTileAndFuseResult> split = tileAndFuse(
        part, padded(chunk), scf::SCFTilingOptions::LoopType::ForallOp);
    if (!split)
      return;
    part = cast<TilingInterface>(split->tiledAndFusedOps.front());
  }
  std::optional<scf::SCFTileAndFuseResult> tiles =
      tileAndFuse(part, padded({1, 1, 1, segment, 0}),
                  scf::SCFTilingOptions::LoopType::ForOp);
  if (!tiles)
    return;
  // Start, op, epilogue: each op's operands are final before it is
  // rewritten.
  for (Operation *op : llvm::reverse(tiles->tiledAndFusedOps)) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp)
      continue;
    if (op->hasAttr(kBlockedConvAttr))
      scheduleBlockedTile(rewriter, linalgOp);
    else
      (void)vectorizeTile(rewriter, linalgOp);
  }
}

/// Up to this many rows of register tiles, a product computed in its
/// epilogue's tiles reads its right operand's columns in place (see
/// packedInTiles) instead of packing the operand in a pass first. Each row
/// of tiles reads the columns again, strided. With AVX2's 6-row tiles, more
/// rows made MobileNetV2 and ResNet-50 no faster (the packing kernels
/// vanished, the products slowed by as much); with AVX-512's 16-row tiles
/// (a third as many reads of the columns) any number of rows is faster: at
/// 1 thread, ResNet-50 86.7 -> 85.6 ms and MobileNetV2 (batch norm folded)
/// 8.73 -> 8.55 ms, 6 alternated rounds (2026-11-29, Zen 4); ResNet-50's
/// 1x1 convolutions over 56x56 to 256 filters 0.08-0.11 ms less each, its
/// 256 -> 128 one 0.33 ms less; the transformers the same.
int64_t maxRowTilesPackedInTiles(const CPUTarget &target) {
  return target.matmulTileM() >= kMaxTileRows
             ? std::numeric_limits<int64_t>::max()
             : 4;
}

/// Whether `pack` is the right operand of a product that
/// scheduleProductEpilogue computes in its epilogue's tiles (a short
/// reduction, the mmt4d unpacked) with at most maxRowTilesPackedInTiles
/// rows of tiles, packed [K, N] -> [N/n0, K, n0, 1] with N a multiple of n0:
/// each column tile's slice of it is then the operand's [K, n0] columns
/// reshaped, which the tile reads in place (a 1x1 convolution to 16 or 24
/// channels, where packing the whole operand first was as much memory
/// traffic as the product).
bool packedInTiles(linalg::PackOp pack, const CPUTarget &target) {
  if (!pack->hasOneUse())
    return false;
  auto mmt4d = dyn_cast<linalg::Mmt4DOp>(*pack->getUsers().begin());
  if (!mmt4d || mmt4d.getDpsInputs()[1] != pack.getResult() ||
      !mmt4d->hasOneUse() || !isa<linalg::UnPackOp>(*mmt4d->getUsers().begin()))
    return false;
  auto source = cast<RankedTensorType>(pack.getSource().getType());
  auto acc = cast<RankedTensorType>(mmt4d.getResult(0).getType());
  SmallVector<int64_t> tiles = pack.getStaticTiles();
  return source.hasStaticShape() && acc.hasStaticShape() &&
         source.getRank() == 2 && tiles.size() == 2 && tiles[1] == 1 &&
         !ShapedType::isDynamic(tiles[0]) &&
         source.getDimSize(1) % tiles[0] == 0 &&
         source.getDimSize(0) <= target.maxFusedReduction() &&
         acc.getDimSize(0) <= maxRowTilesPackedInTiles(target) &&
         pack.getInnerDimsPos() == ArrayRef<int64_t>{1, 0} &&
         pack.getOuterDimsPerm() == ArrayRef<int64_t>{1, 0};
}

/// One column tile of such a pack, [K, n0] -> [1, K, n0, 1], as the reshape
/// it is (the same elements in the same order): the product reads the
/// operand where it is.
void packTileAsReshape(RewriterBase &rewriter, linalg::PackOp pack) {
  auto source = cast<RankedTensorType>(pack.getSource().getType());
  auto dest = cast<RankedTensorType>(pack.getResult().getType());
  if (!source.hasStaticShape() || source.getRank() != 2 ||
      dest.getShape() !=
          ArrayRef<int64_t>{1, source.getDimSize(0), source.getDimSize(1), 1} ||
      pack.getInnerDimsPos() != ArrayRef<int64_t>{1, 0} ||
      pack.getOuterDimsPerm() != ArrayRef<int64_t>{1, 0})
    return;
  rewriter.setInsertionPoint(pack);
  rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
      pack, dest, pack.getSource(),
      ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
}

bool isElementwiseCandidate(linalg::LinalgOp op, bool allowDynamic = false);
linalg::LinalgOp normalizeLoops(RewriterBase &rewriter, linalg::LinalgOp op);

/// Whether `value` is `source` through a chain of collapse_shape and
/// expand_shape ops (what collapsing a consumer's loops leaves): reshapes
/// keep the elements' order, so a value of the same type is the same tensor.
bool isReshapeOf(Value value, Value source) {
  if (value.getType() != source.getType())
    return false;
  while (value != source) {
    if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>())
      value = collapse.getSrc();
    else if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>())
      value = expand.getSrc();
    else
      return false;
  }
  return true;
}

/// The elementwise op that alone reads the unpacked product `result` (through
/// reshapes), its loops collapsed to the product's [M, N] and the product
/// read with the identity: the epilogue (bias, normalization, activation,
/// residual add) that is computed on each register tile before it is
/// stored. Null when there is none.
linalg::LinalgOp findEpilogue(RewriterBase &rewriter, Value result) {
  Value user = result;
  while (user.hasOneUse()) {
    Operation *next = *user.getUsers().begin();
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(next)) {
      user = expand.getResult();
      continue;
    }
    auto op = dyn_cast<linalg::LinalgOp>(next);
    if (!op || !isElementwiseCandidate(op) || op.getNumDpsInits() != 1 ||
        !op.isDpsInput(&*user.getUses().begin()))
      return {};
    op = normalizeLoops(rewriter, op);
    if (op.getNumLoops() != 2 ||
        op.getStaticLoopRanges() !=
            cast<RankedTensorType>(result.getType()).getShape())
      return {};
    for (OpOperand *input : op.getDpsInputOperands())
      if (isReshapeOf(input->get(), result)) {
        if (!op.getMatchingIndexingMap(input).isIdentity())
          return {};
        rewriter.modifyOpInPlace(op, [&] { input->set(result); });
        return op;
      }
    return {};
  }
  return {};
}

/// Moves the ops of `point`'s block that `value` depends on and that come
/// after `point` (constants, an empty tensor, fills of its border as loops)
/// to just before `point`, in their order. Fails, moving nothing, when one
/// of them touches memory or `point` is one of them.
LogicalResult moveDefinitionBefore(RewriterBase &rewriter, Value value,
                                   Operation *point) {
  Block *block = point->getBlock();
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist = {value};
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    Operation *op = def ? block->findAncestorOpInBlock(*def) : nullptr;
    if (!op || op->isBeforeInBlock(point) || !slice.insert(op))
      continue;
    if (op == point || !isMemoryEffectFree(op))
      return failure();
    op->walk([&](Operation *nested) {
      llvm::append_range(worklist, nested->getOperands());
    });
  }
  SmallVector<Operation *> ops = slice.takeVector();
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *op : ops)
    rewriter.moveOpBefore(op, point);
  return success();
}

/// Whether `insert`'s slice of its destination, reshaped back as `reshapes`
/// (the source's, from the source on) were applied to what was computed,
/// stays a view of the destination's buffer: a collapse of dims that are not
/// contiguous there (the rows of a slice narrower than the destination: a
/// convolution's input in its padded buffer) would be bufferized as a copy.
bool reshapesAreViews(tensor::InsertSliceOp insert,
                      ArrayRef<Operation *> reshapes) {
  auto dest = cast<RankedTensorType>(insert.getDest().getType());
  MemRefType view = memref::SubViewOp::inferRankReducedResultType(
      insert.getSourceType().getShape(),
      MemRefType::get(dest.getShape(), dest.getElementType()),
      insert.getMixedOffsets(), insert.getMixedSizes(),
      insert.getMixedStrides());
  for (Operation *reshape : reshapes) {
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(reshape)) {
      SmallVector<ReassociationIndices> groups =
          expand.getReassociationIndices();
      if (!memref::CollapseShapeOp::isGuaranteedCollapsible(view, groups))
        return false;
      view = memref::CollapseShapeOp::computeCollapsedType(view, groups);
    } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(reshape)) {
      FailureOr<MemRefType> expanded =
          memref::ExpandShapeOp::computeExpandedType(
              view, collapse.getSrcType().getShape(),
              collapse.getReassociationIndices());
      if (failed(expanded))
        return false;
      view = *expanded;
    }
  }
  return true;
}

/// Each tensor.insert_slice marked kWriteInPlaceAttr whose source was
/// computed into a tensor.empty (through reshapes, loops' iter_args and
/// destination-style ops: a product's tiles and epilogue) gets that
/// computation written into the slice of its destination instead: the use
/// of the empty becomes the slice, reshaped back as the source was, so that
/// bufferization writes the source in place and the insert copies a buffer
/// onto itself (folded away). The empty's contents are undefined, so any
/// value may replace them. Skipped when the destination's definition cannot
/// be moved before the computation, or a shape is dynamic.
void writeInsertedInPlace(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<tensor::InsertSliceOp> inserts;
  func.walk([&](tensor::InsertSliceOp op) {
    if (op->hasAttr(kWriteInPlaceAttr))
      inserts.push_back(op);
  });
  DominanceInfo dominance(func);
  for (tensor::InsertSliceOp insert : inserts) {
    rewriter.modifyOpInPlace(insert,
                             [&] { insert->removeAttr(kWriteInPlaceAttr); });
    // From the source back to the empty; the reshapes on the way, the
    // source's first.
    SmallVector<Operation *> reshapes;
    OpOperand *first = nullptr;
    // The reshapes between the source and `first` (others may follow, on
    // the way from `first` to the empty).
    size_t firstReshapes = 0;
    Value value = insert.getSource();
    while (Operation *def = value.getDefiningOp()) {
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def)) {
        reshapes.push_back(def);
        value = def->getOperand(0);
        continue;
      }
      OpOperand *tied = tiedInit(value);
      if (!tied)
        break;
      first = tied;
      firstReshapes = reshapes.size();
      value = tied->get();
    }
    if (!first || !value.getDefiningOp<tensor::EmptyOp>() ||
        !insert.getSourceType().hasStaticShape() ||
        !cast<RankedTensorType>(value.getType()).hasStaticShape() ||
        !cast<RankedTensorType>(insert.getDest().getType()).hasStaticShape() ||
        !reshapesAreViews(insert, ArrayRef(reshapes).take_front(firstReshapes)))
      continue;
    // A source computed in parts (a product's whole row or column tiles,
    // then those left), each in a slice of the empty and inserted back into
    // it: a part starts from a slice of the value it is inserted into, which
    // becomes the same slice of the destination; parts of parts likewise.
    // Each gets a slice of its own (after CSE, the one of the empty may
    // start other ops' parts too).
    SmallVector<std::pair<OpOperand *, tensor::ExtractSliceOp>> parts;
    for (OpOperand *whole = first;;) {
      auto part = dyn_cast<tensor::InsertSliceOp>(whole->getOwner());
      if (!part || whole != &part.getDestMutable())
        break;
      OpOperand *init = computedIn(part.getSource());
      auto slice =
          init ? init->get().getDefiningOp<tensor::ExtractSliceOp>() : nullptr;
      if (!slice || slice.getSource() != whole->get() ||
          init->getOwner()->getBlock() != part->getBlock() ||
          slice.getMixedOffsets() != part.getMixedOffsets() ||
          slice.getMixedSizes() != part.getMixedSizes() ||
          slice.getMixedStrides() != part.getMixedStrides())
        break;
      parts.push_back({init, slice});
      whole = init;
    }
    Operation *user = first->getOwner();
    for (auto [init, slice] : parts)
      if (init->getOwner()->isBeforeInBlock(user))
        user = init->getOwner();
    // The destination (an empty tensor and fills of its border) is built
    // just before the computation: at the start of the function, it would
    // hold its memory from there, and the computation would write to memory
    // freed long before (MobileNetV2's 1x1 convolutions writing the
    // depthwise ones' buffers so were 30% slower).
    if (!dominance.properlyDominates(insert.getDest(), user) &&
        (user->getBlock() != insert->getBlock() ||
         failed(moveDefinitionBefore(rewriter, insert.getDest(), user))))
      continue;
    Location loc = insert.getLoc();
    rewriter.setInsertionPoint(user);
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, loc, insert.getSourceType(), insert.getDest(),
        insert.getMixedOffsets(), insert.getMixedSizes(),
        insert.getMixedStrides());
    for (Operation *reshape : ArrayRef(reshapes).take_front(firstReshapes)) {
      if (auto expand = dyn_cast<tensor::ExpandShapeOp>(reshape))
        slice = tensor::CollapseShapeOp::create(
            rewriter, loc, expand.getSrcType(), slice,
            expand.getReassociationIndices());
      else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(reshape))
        slice = tensor::ExpandShapeOp::create(
            rewriter, loc, collapse.getSrcType(), slice,
            collapse.getReassociationIndices());
    }
    if (slice.getType() != first->get().getType())
      continue;
    rewriter.modifyOpInPlace(first->getOwner(), [&] { first->set(slice); });
    for (auto [init, part] : parts) {
      slice = tensor::ExtractSliceOp::create(
          rewriter, loc, part.getType(), slice, part.getMixedOffsets(),
          part.getMixedSizes(), part.getMixedStrides());
      rewriter.modifyOpInPlace(init->getOwner(), [&] { init->set(slice); });
    }
  }
}

/// The reads of a slice at the origin of a tensor written whole by one
/// vector (a register tile of a product, [1, 1, m0, n0], viewed as [m0, n0],
/// or as [r, c] at the edge of the output) replaced by that vector's
/// elements: the epilogue takes the product's registers, not a buffer they
/// were stored to.
void forwardWrittenTiles(RewriterBase &rewriter, func::FuncOp func) {
  auto isWhole = [](auto transfer, ShapedType shaped) {
    return !transfer.getMask() &&
           transfer.getPermutationMap().isMinorIdentity() &&
           transfer.getVectorType().getNumElements() ==
               shaped.getNumElements() &&
           llvm::all_of(transfer.getIndices(),
                        [](Value v) { return isZeroInteger(v); }) &&
           llvm::all_of(transfer.getInBoundsValues(), [](bool b) { return b; });
  };
  SmallVector<tensor::ExtractSliceOp> slices;
  func.walk([&](tensor::ExtractSliceOp slice) {
    if (slice.getSource().getDefiningOp<vector::TransferWriteOp>() &&
        slice.getSourceType().hasStaticShape() &&
        slice.getResultType().hasStaticShape() &&
        llvm::all_of(slice.getMixedOffsets(), isZeroInteger) &&
        llvm::all_of(slice.getMixedStrides(),
                     [](OpFoldResult s) { return isOneInteger(s); }))
      slices.push_back(slice);
  });
  for (tensor::ExtractSliceOp slice : slices) {
    auto write = slice.getSource().getDefiningOp<vector::TransferWriteOp>();
    RankedTensorType source = slice.getSourceType();
    if (!isWhole(write, source))
      continue;
    std::optional<SmallVector<int64_t>> sizes =
        getConstantIntValues(slice.getMixedSizes());
    if (!sizes)
      continue;
    // The slice's elements as a vector of its own shape.
    auto sliceVector = [&](Location loc) {
      Value value = vector::ShapeCastOp::create(
          rewriter, loc,
          VectorType::get(source.getShape(), source.getElementType()),
          write.getVector());
      if (*sizes != source.getShape())
        value = vector::ExtractStridedSliceOp::create(
            rewriter, loc, value, SmallVector<int64_t>(sizes->size(), 0),
            *sizes, SmallVector<int64_t>(sizes->size(), 1));
      return vector::ShapeCastOp::create(
          rewriter, loc,
          VectorType::get(slice.getResultType().getShape(),
                          source.getElementType()),
          value);
    };
    for (Operation *user : llvm::make_early_inc_range(slice->getUsers())) {
      if (auto read = dyn_cast<vector::TransferReadOp>(user)) {
        if (!isWhole(read, slice.getResultType()) ||
            read.getVectorType().getElementType() !=
                write.getVectorType().getElementType())
          continue;
        rewriter.setInsertionPoint(read);
        rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(
            read, read.getVectorType(), sliceVector(read.getLoc()));
        continue;
      }
      // A tile copied into the output as it is (a product without an
      // epilogue): stored from the registers.
      auto insert = dyn_cast<tensor::InsertSliceOp>(user);
      if (!insert || insert.getSource() != slice.getResult() ||
          !llvm::all_of(insert.getMixedStrides(),
                        [](OpFoldResult s) { return isOneInteger(s); }) ||
          insert.getSourceType().getRank() != insert.getDestType().getRank())
        continue;
      rewriter.setInsertionPoint(insert);
      Location loc = insert.getLoc();
      SmallVector<Value> indices = getValueOrCreateConstantIndexOp(
          rewriter, loc, insert.getMixedOffsets());
      rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
          insert, sliceVector(loc), insert.getDest(), indices,
          SmallVector<bool>(insert.getSourceType().getRank(), true));
    }
  }
}

/// `value` with its dynamic dims made 1, through a tensor.cast: in a tile
/// loop of scheduleProductEpilogue every tile covers one tile of the packed
/// layout, but the slices of the tiles past the last whole one have sizes
/// that only fold later.
Value castToUnitTile(RewriterBase &rewriter, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.hasStaticShape())
    return value;
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t &d : shape)
    if (ShapedType::isDynamic(d))
      d = 1;
  return tensor::CastOp::create(rewriter, loc, type.clone(shape), value);
}

/// The fill, product or epilogue of one register tile, vectorized (the
/// product with its k loop); a tile whose slices are not yet static gets
/// static operands first.
void vectorizeRegisterTile(RewriterBase &rewriter, linalg::LinalgOp op) {
  if ((isa<linalg::FillOp>(op.getOperation()) || isPackedProduct(op)) &&
      op.hasDynamicShape()) {
    rewriter.setInsertionPoint(op);
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(isa<RankedTensorType>(operand.getType())
                             ? castToUnitTile(rewriter, op.getLoc(), operand)
                             : operand);
    Operation *copy =
        clone(rewriter, op, {operands.back().getType()}, operands);
    Value result = tensor::CastOp::create(
        rewriter, op.getLoc(), op->getResult(0).getType(), copy->getResult(0));
    rewriter.replaceOp(op, result);
    op = cast<linalg::LinalgOp>(copy);
  }
  if (isPackedProduct(op)) {
    op = tileWithLoops(rewriter, op, {0, 0, 1, 0, 0, 0});
    if (!op)
      return;
    vectorizeProductStep(rewriter, op);
    return;
  }
  (void)vectorizeTile(rewriter, op);
}

/// The unpacking of one register tile, [1, 1, m0, n0] into [m0, n0], as a
/// view of it (and of its rows and columns in the output, [r, c], at the
/// edge of a partial tile), which forwardWrittenTiles then reads from the
/// registers; a tile of any other shape is left to linalg::lowerUnPack.
void unpackRegisterTile(RewriterBase &rewriter, linalg::UnPackOp op) {
  Value source = op.getSource();
  if (auto cast = source.getDefiningOp<tensor::CastOp>())
    source = cast.getSource();
  auto sourceType = cast<RankedTensorType>(source.getType());
  if (!sourceType.hasStaticShape() || sourceType.getRank() != 4 ||
      sourceType.getDimSize(0) != 1 || sourceType.getDimSize(1) != 1)
    return;
  // The part of the tile that is used: the tile, or a slice of it (at its
  // origin: every tile of the loop nest starts at a multiple of m0 and n0,
  // the offsets of the slice only fold to 0 later).
  Operation *replaced = op;
  SmallVector<int64_t> sizes(sourceType.getShape().drop_front(2));
  if (op.getResult().hasOneUse())
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(
            *op.getResult().getUsers().begin())) {
      std::optional<SmallVector<int64_t>> used =
          getConstantIntValues(slice.getMixedSizes());
      if (used && used->size() == 2 &&
          llvm::all_of(slice.getMixedStrides(),
                       [](OpFoldResult s) { return isOneInteger(s); }) &&
          (*used)[0] <= sizes[0] && (*used)[1] <= sizes[1]) {
        replaced = slice;
        sizes = *used;
      }
    }
  auto resultType = cast<RankedTensorType>(replaced->getResult(0).getType());
  if (!resultType.hasStaticShape() || resultType.getShape() != ArrayRef(sizes))
    return;
  rewriter.setInsertionPoint(replaced);
  SmallVector<int64_t> full = {1, 1, sizes[0], sizes[1]};
  Value view = tensor::ExtractSliceOp::create(
      rewriter, op.getLoc(), resultType, source,
      SmallVector<OpFoldResult>(4, rewriter.getIndexAttr(0)),
      getAsIndexOpFoldResult(rewriter.getContext(), full),
      SmallVector<OpFoldResult>(4, rewriter.getIndexAttr(1)));
  rewriter.replaceOp(replaced, view);
  // (Replacing the slice of a partial tile leaves the unpacking unused.)
  if (replaced != op.getOperation() && op->use_empty())
    rewriter.eraseOp(op);
}

/// A packed product C = unpack(mmt4d(A, B, fill)) with its epilogue E (or
/// C alone): one loop nest over the m0 x n0 tiles of E, each unpacking its
/// tile of the product and computing E on it in registers, in place of an
/// unpacking pass, a copy and an elementwise pass over the whole product.
/// When the reduction is short, the product of each tile (with its fill) is
/// computed there too, so that the accumulators go from registers to the
/// output once; otherwise the mmt4d keeps its own schedule. The rows and
/// columns past the last whole tile (a 7x7 image's 49 columns) are a loop
/// nest of their own whose tiles are as wide as what is left. False when the
/// shapes do not fit (the caller schedules the ops one by one).
bool scheduleProductEpilogue(RewriterBase &rewriter, linalg::LinalgOp mmt4d,
                             linalg::UnPackOp unpack, const CPUTarget &target,
                             unsigned numThreads) {
  if (!mmt4d->hasOneUse() || !unpack.getOuterDimsPerm().empty() ||
      unpack.getInnerDimsPos() != ArrayRef<int64_t>{0, 1})
    return false;
  auto resultType = cast<RankedTensorType>(unpack.getResult().getType());
  auto accType = cast<RankedTensorType>(mmt4d->getResult(0).getType());
  if (!resultType.hasStaticShape() || !accType.hasStaticShape())
    return false;
  int64_t m0 = accType.getDimSize(2), n0 = accType.getDimSize(3);
  int64_t k1 =
      cast<RankedTensorType>(mmt4d.getDpsInputs()[0].getType()).getDimSize(1);
  bool fuseProduct = k1 <= target.maxFusedReduction();
  // The work of a tile of this loop nest per output: the product's
  // reduction when it is computed here, else the epilogue's few operations
  // (the tail of a K-blocked product, 64 filters x 4 positions, had been
  // split over the threads as if it computed its 384-long reduction).
  int64_t workPerOutput = fuseProduct ? k1 : 1;

  // With few rows of tiles (a 1x1 convolution to 16 or 24 channels), the
  // packing of the right operand is fused into the register tiles, where
  // each tile's part of it is the operand's columns reshaped
  // (packTileAsReshape): the tiles read the operand in place, with no packing
  // pass before the product, which was as much memory traffic as the product
  // itself.
  Value rhs = mmt4d.getDpsInputs()[1];
  auto rhsPack = rhs.getDefiningOp<linalg::PackOp>();
  bool packInTiles = fuseProduct && rhsPack && packedInTiles(rhsPack, target);
  // (Into the register tiles only: fused into blocks of columns, the
  // packing of a block would be copied, once for each part of the rows.)
  bool tileLevel = false;

  // Without an elementwise consumer the epilogue is a copy of the unpacked
  // product (into registers, on whole tiles): linalg.splitOp cannot split an
  // unpacking into the whole and the partial tiles, but splits a copy.
  linalg::LinalgOp epilogue = findEpilogue(rewriter, unpack.getResult());
  if (!epilogue) {
    rewriter.setInsertionPointAfter(unpack);
    Value empty = tensor::EmptyOp::create(rewriter, unpack.getLoc(),
                                          resultType.getShape(),
                                          resultType.getElementType());
    auto copy = linalg::CopyOp::create(rewriter, unpack.getLoc(),
                                       unpack.getResult(), empty);
    rewriter.replaceAllUsesExcept(unpack.getResult(), copy.getResult(0), copy);
    epilogue = copy;
  }
  auto consumer = cast<TilingInterface>(epilogue.getOperation());
  if (!fuseProduct)
    scheduleMmt4d(rewriter, mmt4d, target, numThreads);

  auto fuseControl =
      [&](tensor::ExtractSliceOp, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
    Operation *op = producer.getOwner();
    if (isa<linalg::UnPackOp>(op) ||
        (fuseProduct && (isPackedProduct(op) || isa<linalg::FillOp>(op))) ||
        (packInTiles && tileLevel && producer == rhs))
      return scf::SCFTileAndFuseOptions::ControlFnResult{};
    return std::nullopt;
  };
  auto tileAndFuse = [&](TilingInterface op, ArrayRef<int64_t> sizes,
                         scf::SCFTilingOptions::LoopType loopType) {
    return tileAndFuseInto(rewriter, op, sizes, loopType, fuseControl);
  };

  // The whole tiles, then the rows and columns past them.
  SmallVector<TilingInterface> parts = {consumer};
  const int64_t tileSizes[] = {m0, n0};
  for (auto [dim, tile] : llvm::enumerate(tileSizes)) {
    int64_t extent = resultType.getDimSize(dim);
    if (extent % tile == 0)
      continue;
    SmallVector<TilingInterface> split;
    for (TilingInterface part : parts) {
      if (extent < tile) {
        split.push_back(part);
        continue;
      }
      rewriter.setInsertionPoint(part);
      auto [head, tail] = linalg::splitOp(
          rewriter, part, dim, rewriter.getIndexAttr(extent / tile * tile));
      if (!head || !tail)
        return true;
      split.push_back(head);
      split.push_back(tail);
    }
    parts = split;
  }

  // Threads take equal chunks of whole tiles (a dynamic chunk would leave
  // the register tiles of dynamic shape). A part whose row tiles and column
  // tiles both do not divide by the thread count (512 filters, 85 row tiles
  // of 6, over 28x28 positions, 49 column tiles of 16) is split into the row
  // tiles that do and the rest, and the rest likewise by columns; what is
  // left (fewer row and column tiles than threads) runs on one thread.
  if (numThreads > 1) {
    auto threads = static_cast<int64_t>(numThreads);
    SmallVector<TilingInterface> balanced;
    for (TilingInterface part : parts) {
      SmallVector<TilingInterface> pending = {part};
      for (int64_t dim = 0; dim < 2; ++dim) {
        SmallVector<int64_t> ranges =
            cast<linalg::LinalgOp>(pending.back().getOperation())
                .getStaticLoopRanges();
        int64_t tiles[] = {ranges[0] / std::min(m0, ranges[0]),
                           ranges[1] / std::min(n0, ranges[1])};
        int64_t tile = std::min(tileSizes[dim], ranges[dim]);
        if (ranges[0] * ranges[1] * workPerOutput < kMinParallelWork ||
            tiles[0] % threads == 0 || tiles[1] % threads == 0 ||
            tiles[dim] < threads)
          continue;
        rewriter.setInsertionPoint(pending.back());
        auto [head, rest] = linalg::splitOp(
            rewriter, pending.back(), dim,
            rewriter.getIndexAttr(tiles[dim] / threads * threads * tile));
        if (!head || !rest)
          return true;
        pending.back() = head;
        pending.push_back(rest);
      }
      balanced.append(pending);
    }
    parts = balanced;
  }

  for (TilingInterface part : parts) {
    SmallVector<int64_t> ranges =
        cast<linalg::LinalgOp>(part.getOperation()).getStaticLoopRanges();
    int64_t m = ranges[0], n = ranges[1];
    int64_t tileM = std::min(m0, m), tileN = std::min(n0, n);
    // Threads over whole column tiles in equal chunks when there are more
    // columns than rows (each thread reads its part of the right operand,
    // [K, N], the larger one: a 1x1 convolution's image, where split rows
    // read all of it), else over whole row tiles; either when the other
    // does not divide (a convolution's few filters, 32 = 5 tiles of 6 and 2
    // rows, over 112x112 positions). MobileNetV2's 1x1 projections to 16,
    // 24 and 32 filters at 2 threads: 0.36 -> 0.19, 0.36 -> 0.24 and 0.25 ->
    // 0.17 ms; ResNet-50's stem 1.95 -> 1.72 ms (per-kernel medians of 8
    // rounds, the builds alternated in both orders).
    int64_t rowTiles = m / tileM, columnTiles = n / tileN;
    bool byColumns =
        (n > m && columnTiles % numThreads == 0) || rowTiles % numThreads != 0;
    if (numThreads > 1 && m * n * workPerOutput >= kMinParallelWork &&
        (rowTiles % numThreads == 0 || columnTiles % numThreads == 0)) {
      SmallVector<int64_t> chunk = {rowTiles / numThreads * tileM, 0};
      if (byColumns) {
        chunk = {0, columnTiles / numThreads * tileN};
        n = chunk[1];
      }
      std::optional<scf::SCFTileAndFuseResult> split =
          tileAndFuse(part, chunk, scf::SCFTilingOptions::LoopType::ForallOp);
      if (!split)
        continue;
      part = cast<TilingInterface>(split->tiledAndFusedOps.front());
    }
    // Rows of register tiles outermost, so that a row of the output is
    // written in order, in blocks of columns whose tiles of B fit half of
    // the L2 cache when the product is computed here.
    if (fuseProduct) {
      int64_t columnTiles = n / tileN, bytesColumnTile = n0 * k1 * 4;
      int64_t block = 1;
      for (int64_t d = 1; d <= columnTiles; ++d)
        if (columnTiles % d == 0 && d * bytesColumnTile <= target.l2Bytes / 2)
          block = d;
      if (block < columnTiles) {
        std::optional<scf::SCFTileAndFuseResult> blocks = tileAndFuse(
            part, {0, block * tileN}, scf::SCFTilingOptions::LoopType::ForOp);
        if (!blocks)
          continue;
        part = cast<TilingInterface>(blocks->tiledAndFusedOps.front());
      }
    }
    tileLevel = true;
    std::optional<scf::SCFTileAndFuseResult> tiles = tileAndFuse(
        part, {tileM, tileN}, scf::SCFTilingOptions::LoopType::ForOp);
    tileLevel = false;
    if (!tiles)
      continue;
    // Fill, product, unpacking, epilogue: each op's operands are final
    // before it is rewritten.
    // (The unpacking of a partial tile is reported as the slice of it that
    // is used.)
    for (Operation *op : llvm::reverse(tiles->tiledAndFusedOps)) {
      if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
        op = slice.getSource().getDefiningOp();
      if (auto tiled = dyn_cast_or_null<linalg::UnPackOp>(op))
        unpackRegisterTile(rewriter, tiled);
      else if (auto tiledPack = dyn_cast_or_null<linalg::PackOp>(op))
        packTileAsReshape(rewriter, tiledPack);
      else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
        vectorizeRegisterTile(rewriter, linalgOp);
    }
  }
  return true;
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

/// A copy whose input and output both walk the innermost loop contiguously
/// but whose outer loops they permute (the packing of a matmul operand,
/// [K, N1, n0] into [N1, K, n0]), with its loops in the input's order: the
/// input is read in order and the output's rows are written apart, where
/// the output's order reads a new cache line of a distant row per step and
/// waits for it (the packing of a 3x3 convolution's im2col rows took 30% of
/// the convolution that way).
linalg::LinalgOp readInInputOrder(RewriterBase &rewriter, linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1)
    return op;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  if (generic.getBody()->getOperations().size() != 1 ||
      yield.getValues().size() != 1 ||
      yield.getValues()[0] != generic.getBody()->getArgument(0))
    return op;
  AffineMap in = generic.getMatchingIndexingMap(generic.getDpsInputOperand(0));
  AffineMap out = generic.getMatchingIndexingMap(generic.getDpsInitOperand(0));
  unsigned rank = generic.getNumLoops();
  if (!in.isPermutation() || !out.isPermutation() || in.isIdentity() ||
      in.getDimPosition(rank - 1) != rank - 1 ||
      out.getDimPosition(rank - 1) != rank - 1)
    return op;
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < rank; ++i)
    order.push_back(in.getDimPosition(i));
  rewriter.setInsertionPoint(generic);
  FailureOr<linalg::GenericOp> interchanged =
      linalg::interchangeGenericOp(rewriter, generic, order);
  if (failed(interchanged))
    return op;
  return *interchanged;
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
    op = readInInputOrder(rewriter, normalizeLoops(rewriter, op));
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
  // With AVX-512, a row whose last vector is not a power of two long (14
  // or 28 columns, not 56 = 3 x 16 + 8) in whole vectors with masked loads
  // and stores, one instruction each: LLVM splits a vector<14xf32> load
  // into loads of 8, 4 and 2 and inserts them (MobileNetV2's depthwise
  // convolutions onto 14x14 and 28x28 maps; 7.80 -> 7.52 ms at 1 thread).
  // Only when every operand that the row walks walks it along its last dim
  // (no transposed input or output: a masked transposition gave wrong
  // results) and none is a strided view (a stride-2 window), which masked
  // reads would gather element by element.
  auto maskable = [&](linalg::LinalgOp tileOp) {
    for (OpOperand &operand : tileOp->getOpOperands()) {
      AffineMap map = tileOp.getMatchingIndexingMap(&operand);
      if (map.getNumResults() > 0 && map.isFunctionOfDim(rank - 1) &&
          map.getResults().back() !=
              getAffineDimExpr(rank - 1, op.getContext()))
        return false;
      for (auto slice = operand.get().getDefiningOp<tensor::ExtractSliceOp>();
           slice;
           slice = slice.getSource().getDefiningOp<tensor::ExtractSliceOp>())
        if (!slice.getStaticStrides().empty() &&
            slice.getStaticStrides().back() != 1)
          return false;
    }
    return true;
  };
  int64_t masked = target.vectorBits >= 512 && !transposed &&
                           !llvm::isPowerOf2_64(sizes[rank - 1] % lanes) &&
                           sizes[rank - 1] % lanes != 0 &&
                           ranges[rank - 1] == sizes[rank - 1] && op &&
                           maskable(op)
                       ? lanes
                       : 0;
  if (op && !(masked && vectorizeTile(rewriter, op, masked)))
    (void)vectorizeTile(rewriter, op);
}

/// Whether the elementwise schedule applies: static loops (or, with
/// `allowDynamic`, loops that tileDynamicLoops makes static), all parallel,
/// plain arithmetic on vectorizable element types.
bool isElementwiseCandidate(linalg::LinalgOp op, bool allowDynamic) {
  if (!op.hasPureTensorSemantics() || (op.hasDynamicShape() && !allowDynamic))
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
  return op.hasDynamicShape() || succeeded(linalg::vectorizeOpPrecondition(op));
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
  // An input walks the columns contiguously (B's rows); without one, the
  // op is a reduction of rows (the output's last dim is the rows).
  if (llvm::none_of(op.getDpsInputOperands(), [&](OpOperand *input) {
        AffineMap map = op.getMatchingIndexingMap(input);
        if (map.getNumResults() == 0)
          return false;
        auto inLast = dyn_cast<AffineDimExpr>(map.getResults().back());
        return inLast && static_cast<int64_t>(inLast.getPosition()) == rank - 2;
      }))
    return std::nullopt;
  return rank - 2;
}

/// Whether the reduction schedule applies: a generic on static shapes (or,
/// with `allowDynamic`, dynamic loops that tileDynamicLoops makes static)
/// whose only reduction is its innermost loop, at most kMaxVectorReduction
/// long, which every input that uses it walks contiguously (the statistics
/// of a softmax or a normalization, a Reduce* over the last axis), with
/// plain arithmetic on vectorizable element types.
bool isInnerReductionCandidate(linalg::LinalgOp op, bool allowDynamic = false) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || !op.hasPureTensorSemantics() ||
      (op.hasDynamicShape() && !allowDynamic))
    return false;
  int64_t inner = op.getNumLoops() - 1;
  if (inner < 0 || op.getNumReductionLoops() != 1 ||
      !linalg::isReductionIterator(op.getIteratorTypesArray()[inner]))
    return false;
  int64_t extent = op.getStaticLoopRanges()[inner];
  if (ShapedType::isDynamic(extent) || extent < 2 ||
      extent > kMaxVectorReduction)
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
  return op.hasDynamicShape() || succeeded(linalg::vectorizeOpPrecondition(op));
}

/// The part of a long row that one step of its reduction loop takes: four
/// vectors (four independent accumulators), else one; 0 when the row is
/// short or does not divide into vectors (it is vectorized whole).
int64_t rowChunk(int64_t extent, int64_t lanes) {
  if (extent % (4 * lanes) == 0 && extent >= 8 * lanes)
    return 4 * lanes;
  if (extent % lanes == 0 && extent >= 4 * lanes)
    return lanes;
  return 0;
}

/// A row `op` (one output element) reduced in an scf.for over chunks of
/// `chunk` elements into `chunk` partial results, reduced across once after
/// the loop: upstream's partial-reduction tiling, then each op vectorized.
/// Vectorized whole, a row of 768 was one vector<768xf32> whose reduction
/// LLVM keeps in order, a dependent add per element in a basic block of
/// thousands of instructions (Swin-T's LayerNorms took most of its compile
/// in LLVM's scheduler). This reassociates the sum, as any vectorized sum
/// does. False, with `op` left as it is, when upstream declines.
bool tileRowReduction(RewriterBase &rewriter, linalg::LinalgOp op,
                      int64_t chunk) {
  auto partial = dyn_cast<PartialReductionOpInterface>(op.getOperation());
  if (!partial)
    return false;
  SmallVector<OpFoldResult> sizes(op.getNumLoops(), rewriter.getIndexAttr(0));
  sizes.back() = rewriter.getIndexAttr(chunk);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileReductionUsingScf(rewriter, partial, sizes);
  if (failed(tiled))
    return false;
  rewriter.replaceOp(op, tiled->replacements);
  SmallVector<linalg::LinalgOp> ops;
  for (Value init : tiled->initialValues)
    if (auto fill = init.getDefiningOp<linalg::LinalgOp>())
      ops.push_back(fill);
  for (Operation *tiledOp : tiled->tiledOps)
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(tiledOp))
      ops.push_back(linalgOp);
  for (Operation *merge : tiled->mergeOps)
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(merge))
      ops.push_back(linalgOp);
  for (linalg::LinalgOp tileOp : ops)
    (void)vectorizeTile(rewriter, tileOp);
  return true;
}

/// One row per step: the parallel loops tiled to one (the outermost split
/// over threads when the op is large), the reduction vectorized whole into a
/// vector.multi_reduction, or, for a long row of one output element, in
/// chunks (tileRowReduction).
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
  if (!op)
    return;
  int64_t lanes =
      std::max<int64_t>(1, target.vectorBits / widestElementBits(op));
  SmallVector<int64_t> tileRanges = op.getStaticLoopRanges();
  bool oneOutput = llvm::all_of(ArrayRef<int64_t>(tileRanges).drop_back(),
                                [](int64_t r) { return r == 1; });
  if (int64_t chunk = rowChunk(tileRanges.back(), lanes);
      chunk && oneOutput && tileRowReduction(rewriter, op, chunk))
    return;
  (void)vectorizeTile(rewriter, op);
}

//===----------------------------------------------------------------------===//
// Dynamic shapes
//===----------------------------------------------------------------------===//

/// For an op whose dynamic loops are parallel and outside its innermost
/// loop (a dynamic batch): those loops tiled to one iteration each, so that
/// the op in the loop nest has static shapes, which the schedules above
/// then tile and vectorize as usual. With threads, the loops are an
/// scf.forall (the batch split between the threads, each iteration serial).
/// Null when the op has another kind of dynamic loop (it stays a scalar
/// loop nest).
linalg::LinalgOp tileDynamicLoops(RewriterBase &rewriter, linalg::LinalgOp op,
                                  unsigned numThreads) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t rank = ranges.size();
  SmallVector<int64_t> sizes(rank, 0);
  for (int64_t d = 0; d < rank; ++d) {
    if (!ShapedType::isDynamic(ranges[d]))
      continue;
    if (d == rank - 1 || !linalg::isParallelIterator(iterators[d]))
      return {};
    sizes[d] = 1;
  }
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  options.setLoopType(numThreads > 1 ? scf::SCFTilingOptions::LoopType::ForallOp
                                     : scf::SCFTilingOptions::LoopType::ForOp);
  linalg::LinalgOp tiled = tile(rewriter, op, options);
  if (!tiled || tiled.hasDynamicShape())
    return {};
  return tiled;
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
    // A loop that carries a tensor of dynamic shape is a tile loop over
    // dynamic dims; its slices move with the induction variable, and
    // proving so through ValueBounds over the dynamic shape arithmetic took
    // seconds a loop (minutes for a 2-layer transformer decoder). The
    // accumulators worth hoisting are in the static loops within.
    if (llvm::any_of(loop.getRegionIterArgs(), [](Value v) {
          auto type = dyn_cast<ShapedType>(v.getType());
          return type && !type.hasStaticShape();
        }))
      continue;
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

/// Each read of a whole constant tensor of at most 64 elements into a vector
/// of its shape (a depthwise convolution's masks of a row's valid columns)
/// as a vector constant. Read from a buffer after bufferization, a vector
/// of an odd length (MobileNetV2's 56 columns) was loaded element by
/// element in every iteration, in its whole length at once being wider
/// than the global; as a constant, LLVM splits it into registers like any
/// other.
void foldConstantReads(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<vector::TransferReadOp> reads;
  func.walk([&](vector::TransferReadOp read) {
    auto constant = read.getBase().getDefiningOp<arith::ConstantOp>();
    auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                          : DenseElementsAttr();
    VectorType vectorType = read.getVectorType();
    if (dense && dense.getNumElements() <= 64 && !read.getMask() &&
        vectorType.getShape() == dense.getType().getShape() &&
        read.getPermutationMap().isMinorIdentity() &&
        llvm::all_of(read.getIndices(),
                     [](Value v) { return isZeroInteger(v); }))
      reads.push_back(read);
  });
  for (vector::TransferReadOp read : reads) {
    auto dense = cast<DenseElementsAttr>(
        read.getBase().getDefiningOp<arith::ConstantOp>().getValue());
    rewriter.setInsertionPoint(read);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        read, dense.reshape(read.getVectorType()));
  }
}

/// A pad of static sizes by a constant as an empty tensor whose border is
/// filled, slab by slab, and whose interior is the source. Slab d covers
/// the padding along dim d over the interior of the dims before it and
/// all of the dims after it, so the slabs do not overlap and no element is
/// written twice (a fill of the whole tensor before the copy of the source
/// wrote MobileNetV2's depthwise inputs twice, 17 MB of zeros per run).
LogicalResult padToBorderFills(RewriterBase &rewriter, tensor::PadOp pad) {
  Value value = pad.getConstantPaddingValue();
  RankedTensorType type = pad.getResultType();
  RankedTensorType sourceType = pad.getSourceType();
  if (!value || !type.hasStaticShape() || !sourceType.hasStaticShape() ||
      ShapedType::isDynamicShape(pad.getStaticLow()) ||
      ShapedType::isDynamicShape(pad.getStaticHigh()))
    return failure();
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  int64_t rank = type.getRank();
  Location loc = pad.getLoc();
  Type element = type.getElementType();
  rewriter.setInsertionPoint(pad);
  Value result =
      tensor::EmptyOp::create(rewriter, loc, type.getShape(), element);
  // Named after the pad, so that CSE does not make one tensor of two pads'
  // borders of a shape (each pad's source inserted into it, bufferization
  // would copy the whole of it for all but the last).
  result.getDefiningOp()->setAttr(kBufferOfAttr, loc);
  SmallVector<OpFoldResult> ones(rank, rewriter.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d)
    for (bool before : {true, false}) {
      int64_t width = before ? low[d] : high[d];
      if (width == 0)
        continue;
      SmallVector<int64_t> sizes;
      SmallVector<OpFoldResult> offsets;
      for (int64_t e = 0; e < rank; ++e) {
        int64_t offset = 0, size = type.getDimSize(e);
        if (e < d) {
          offset = low[e];
          size = sourceType.getDimSize(e);
        } else if (e == d) {
          offset = before ? 0 : low[e] + sourceType.getDimSize(e);
          size = width;
        }
        offsets.push_back(rewriter.getIndexAttr(offset));
        sizes.push_back(size);
      }
      // A slice of the result, filled and inserted back (an empty tensor
      // of the slab's shape would be one value for two slabs of a shape
      // after CSE, then a copy into each).
      SmallVector<OpFoldResult> slabSizes =
          getAsIndexOpFoldResult(rewriter.getContext(), sizes);
      Value slab = tensor::ExtractSliceOp::create(
          rewriter, loc, RankedTensorType::get(sizes, element), result, offsets,
          slabSizes, ones);
      Value filled =
          linalg::FillOp::create(rewriter, loc, value, slab).getResult(0);
      result = tensor::InsertSliceOp::create(rewriter, loc, filled, result,
                                             offsets, slabSizes, ones);
    }
  SmallVector<OpFoldResult> interior;
  for (int64_t l : low)
    interior.push_back(rewriter.getIndexAttr(l));
  auto insert = tensor::InsertSliceOp::create(
      rewriter, loc, pad.getSource(), result, interior,
      getAsIndexOpFoldResult(rewriter.getContext(), sourceType.getShape()),
      ones);
  // The source's producer writes it in the interior (writeInsertedInPlace)
  // rather than into a buffer of its own that is then copied.
  insert->setAttr(kWriteInPlaceAttr, rewriter.getUnitAttr());
  rewriter.replaceOp(pad, insert.getResult());
  return success();
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
    // (Those that a product packs in its tiles stay, for now.)
    SmallVector<linalg::PackOp> packs;
    func.walk([&](linalg::PackOp op) {
      if (!packedInTiles(op, target))
        packs.push_back(op);
    });
    for (linalg::PackOp op : packs) {
      rewriter.setInsertionPoint(op);
      (void)linalg::lowerPack(rewriter, op);
    }
    // Pads (of convolution inputs, of packed operands) become fills and an
    // insert_slice: the fills are vectorized below, where bufferization
    // would make them a scalar loop (which LLVM turns into a memset on one
    // thread, but not in a parallel loop). A pad by a constant fills only
    // its border (padToBorderFills); others fill the whole tensor and then
    // write the source over it.
    SmallVector<tensor::PadOp> staticPads;
    func.walk([&](tensor::PadOp op) {
      if (op.getResultType().hasStaticShape())
        staticPads.push_back(op);
    });
    SmallVector<Operation *> pads;
    for (tensor::PadOp op : staticPads)
      if (failed(padToBorderFills(rewriter, op)))
        pads.push_back(op);
    if (!pads.empty()) {
      RewritePatternSet patterns(&getContext());
      patterns.add<linalg::DecomposePadOpPattern>(&getContext());
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingOps);
      (void)applyOpPatternsGreedily(pads, std::move(patterns), config);
    }

    // Ops already in a parallel loop (the matrices of a batched matmul)
    // are not split again.
    auto threadsFor = [&](Operation *op) -> unsigned {
      return op->getParentOfType<scf::ForallOp>() ? 1 : numThreads;
    };
    SmallVector<linalg::LinalgOp> mmt4ds;
    func.walk([&](linalg::LinalgOp op) {
      if (isPackedProduct(op))
        mmt4ds.push_back(op);
    });
    for (linalg::LinalgOp op : mmt4ds) {
      unsigned threads = threadsFor(op);
      auto unpack = op->hasOneUse()
                        ? dyn_cast<linalg::UnPackOp>(*op->getUsers().begin())
                        : linalg::UnPackOp();
      if (!unpack ||
          !scheduleProductEpilogue(rewriter, op, unpack, target, threads))
        scheduleMmt4d(rewriter, op, target, threads);
    }
    SmallVector<linalg::GenericOp> convs;
    func.walk([&](linalg::GenericOp op) {
      if (op->hasAttr(kDirectConvAttr))
        convs.push_back(op);
    });
    for (linalg::GenericOp op : convs)
      scheduleDirectConv(rewriter, op, threadsFor(op));
    SmallVector<linalg::GenericOp> blocked;
    func.walk([&](linalg::GenericOp op) {
      if (op->hasAttr(kBlockedConvAttr))
        blocked.push_back(op);
    });
    for (linalg::GenericOp op : blocked)
      scheduleBlocked(rewriter, op, threadsFor(op));
    SmallVector<linalg::UnPackOp> unpacks;
    func.walk([&](linalg::UnPackOp op) { unpacks.push_back(op); });
    for (linalg::UnPackOp op : unpacks) {
      rewriter.setInsertionPoint(op);
      (void)linalg::lowerUnPack(rewriter, op);
    }
    // Packs left for the products' tiles that stayed whole (their product
    // took another schedule), and tiles of them that are not a reshape.
    SmallVector<linalg::PackOp> leftPacks;
    func.walk([&](linalg::PackOp op) { leftPacks.push_back(op); });
    for (linalg::PackOp op : leftPacks) {
      rewriter.setInsertionPoint(op);
      (void)linalg::lowerPack(rewriter, op);
    }

    // Dynamic loops first become loops around static ops.
    SmallVector<linalg::LinalgOp> dynamic;
    func.walk([&](linalg::LinalgOp op) {
      if (op.hasDynamicShape() &&
          (isElementwiseCandidate(op, /*allowDynamic=*/true) ||
           isInnerReductionCandidate(op, /*allowDynamic=*/true)))
        dynamic.push_back(op);
    });
    for (linalg::LinalgOp op : dynamic)
      (void)tileDynamicLoops(rewriter, op, threadsFor(op));

    // A reduction over adjacent loops that its operands walk contiguously
    // (a GlobalAveragePool's H and W, with the activation of the convolution
    // before it fused in) as one loop, which the reduction schedule takes;
    // left with two reduction loops, it stayed a scalar loop nest.
    SmallVector<linalg::GenericOp> multiReductions;
    func.walk([&](linalg::GenericOp op) {
      if (op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
          op.getNumReductionLoops() > 1 && hasArithmeticBody(op))
        multiReductions.push_back(op);
    });
    for (linalg::GenericOp op : multiReductions)
      (void)normalizeLoops(rewriter, op);

    SmallVector<linalg::LinalgOp> elementwise, reductions;
    func.walk([&](linalg::LinalgOp op) {
      if (isElementwiseCandidate(op))
        elementwise.push_back(op);
      else if (isInnerReductionCandidate(op))
        reductions.push_back(op);
    });
    for (linalg::LinalgOp op : elementwise)
      scheduleElementwise(rewriter, op, target, threadsFor(op));
    for (linalg::LinalgOp op : reductions)
      scheduleInnerReduction(rewriter, op, target, threadsFor(op));

    hoistAccumulators(rewriter, func);
    forwardWrittenTiles(rewriter, func);
    writeInsertedInPlace(rewriter, func);
    approximateVectorMath(func);
    foldConstantReads(rewriter, func);
  }
};

} // namespace
