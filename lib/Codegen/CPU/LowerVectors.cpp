//===- LowerVectors.cpp - Vector ops on buffers to 1-D vector code --------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The sweeps run one pattern set at a time, in this order; merged into one
// greedy sweep, the contraction, broadcast and canonicalization patterns
// rewrite each other's results without end. n-D transfers are unrolled into
// 1-D ones before anything converts them, so that none of them becomes a
// stack temporary inside a loop.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Codegen/CPU/CPUTarget.h"
#include "OnnxDialect/Codegen/CPU/Passes.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_CPULOWERVECTORS
#include "OnnxDialect/Codegen/CPU/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// The most rows a copy is unrolled over, and the most elements.
constexpr int64_t kMaxUnrolledRows = 64;
constexpr int64_t kMaxUnrolledElements = 4096;
/// The longest row copied as one vector: a longer contiguous row is an
/// llvm.memcpy (as fast, and a vector<1024xf32> costs LLVM's instruction
/// selection hundreds of MB and seconds).
constexpr int64_t kMaxVectorRow = 256;

bool isContiguous(MemRefType type) { return type.getLayout().isIdentity(); }

/// Rows of unit stride: a vector of a row is one load or store. (A strided
/// row, im2col's stride-2 window, would be assembled element by element in
/// a vector that LLVM keeps on the stack; scalar loops copy it faster.)
bool hasUnitInnerStride(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         !strides.empty() && strides.back() == 1;
}

/// An scf.for nest over the static `sizes`, `body` called with the ivs.
void buildStaticLoopNest(
    RewriterBase &rewriter, Location loc, ArrayRef<int64_t> sizes,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value> lbs(sizes.size(), zero), steps(sizes.size(), one), ubs;
  for (int64_t size : sizes)
    ubs.push_back(arith::ConstantIndexOp::create(rewriter, loc, size));
  scf::buildLoopNest(rewriter, loc, lbs, ubs, steps, body);
}

/// Copies of at least this many elements outside any parallel loop are
/// split over the threads.
constexpr int64_t kMinParallelCopy = 1 << 16;

/// A large static copy outside any parallel loop (a tile's image copied
/// into its padded buffer) as an scf.forall over its leading dims, up to
/// the first one of at least `numThreads` elements (OpenMP splits the
/// steps over the threads), each step copying its slice of the rest.
/// Returns the copy of a step, or `copy` when it stays whole.
memref::CopyOp distributeCopy(RewriterBase &rewriter, memref::CopyOp copy,
                              unsigned numThreads) {
  auto source = dyn_cast<MemRefType>(copy.getSource().getType());
  auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
  if (numThreads < 2 || !source || !target || !source.hasStaticShape() ||
      source.getRank() < 2 || source.getNumElements() < kMinParallelCopy ||
      copy->getParentOfType<scf::ForallOp>() ||
      copy->getParentOfType<scf::ParallelOp>())
    return copy;
  ArrayRef<int64_t> shape = source.getShape();
  // The last dim stays whole: its rows are copied as vectors.
  int64_t rank = source.getRank(), split = 0;
  while (split < rank - 1 && shape[split] < static_cast<int64_t>(numThreads))
    ++split;
  if (split == rank - 1)
    return copy;
  Location loc = copy.getLoc();
  rewriter.setInsertionPoint(copy);
  SmallVector<OpFoldResult> bounds;
  for (int64_t d = 0; d <= split; ++d)
    bounds.push_back(rewriter.getIndexAttr(shape[d]));
  auto forall = scf::ForallOp::create(rewriter, loc, bounds, ValueRange(),
                                      /*mapping=*/std::nullopt);
  rewriter.setInsertionPoint(forall.getBody()->getTerminator());
  SmallVector<OpFoldResult> offsets, sizes;
  for (int64_t d = 0; d < rank; ++d) {
    bool stepped = d <= split;
    offsets.push_back(stepped ? OpFoldResult(forall.getInductionVar(d))
                              : rewriter.getIndexAttr(0));
    sizes.push_back(rewriter.getIndexAttr(stepped ? 1 : shape[d]));
  }
  SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
  Value from = memref::SubViewOp::create(rewriter, loc, copy.getSource(),
                                         offsets, sizes, strides);
  Value to = memref::SubViewOp::create(rewriter, loc, copy.getTarget(), offsets,
                                       sizes, strides);
  auto step = memref::CopyOp::create(rewriter, loc, from, to);
  rewriter.eraseOp(copy);
  return step;
}

/// A static copy of 32- or 64-bit elements as vector code (see above);
/// others, and contiguous copies too large to unroll (an llvm.memcpy), stay.
void vectorizeStaticCopy(RewriterBase &rewriter, memref::CopyOp copy) {
  auto source = dyn_cast<MemRefType>(copy.getSource().getType());
  auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
  if (!source || !target || !source.hasStaticShape() || source.getRank() == 0)
    return;
  if (!hasUnitInnerStride(source) || !hasUnitInnerStride(target)) {
    // Scalar loops, sequential: as a linalg.copy it would become a parallel
    // loop, an OpenMP region per copy (im2col copies one row at a time).
    rewriter.setInsertionPoint(copy);
    buildStaticLoopNest(
        rewriter, copy.getLoc(), source.getShape(),
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          Value v = memref::LoadOp::create(b, loc, copy.getSource(), ivs);
          memref::StoreOp::create(b, loc, v, copy.getTarget(), ivs);
        });
    rewriter.eraseOp(copy);
    return;
  }
  // (Bytes too: a quantized image copied into its padded buffer was a
  // byte-by-byte loop of index arithmetic, 0.13 ms of a 0.56 ms QLinearConv
  // at 2 threads.)
  Type element = source.getElementType();
  if (!element.isIntOrFloat() ||
      !llvm::is_contained({8u, 16u, 32u, 64u}, element.getIntOrFloatBitWidth()))
    return;
  int64_t elements = source.getNumElements();
  int64_t inner = source.getShape().back();
  int64_t rows = inner ? elements / inner : 0;
  rewriter.setInsertionPoint(copy);
  if (elements <= kMaxUnrolledElements && rows <= kMaxUnrolledRows &&
      inner <= kMaxVectorRow) {
    (void)linalg::vectorizeCopy(rewriter, copy);
    return;
  }
  if ((isContiguous(source) && isContiguous(target)) ||
      inner > kMaxUnrolledElements || rows == 0)
    return;
  // A loop nest over the rows, one row copied per step.
  int64_t rank = source.getRank();
  SmallVector<memref::CopyOp> rowCopies;
  buildStaticLoopNest(
      rewriter, copy.getLoc(), source.getShape().drop_back(),
      [&](OpBuilder &b, Location loc, ValueRange ivs) {
        SmallVector<OpFoldResult> offsets(ivs.begin(), ivs.end());
        offsets.push_back(b.getIndexAttr(0));
        SmallVector<OpFoldResult> sizes(rank - 1, b.getIndexAttr(1));
        sizes.push_back(b.getIndexAttr(inner));
        SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
        Value from = memref::SubViewOp::create(b, loc, copy.getSource(),
                                               offsets, sizes, strides);
        Value to = memref::SubViewOp::create(b, loc, copy.getTarget(), offsets,
                                             sizes, strides);
        rowCopies.push_back(memref::CopyOp::create(b, loc, from, to));
      });
  rewriter.eraseOp(copy);
  if (inner > kMaxVectorRow)
    return; // one memcpy a row
  for (memref::CopyOp row : rowCopies) {
    rewriter.setInsertionPoint(row);
    (void)linalg::vectorizeCopy(rewriter, row);
  }
}

/// Strides up to this one are read as one masked load and a shuffle.
constexpr int64_t kMaxShuffledStride = 4;

/// A vector read along a memref's last dim whose stride is not 1 (a stride-2
/// convolution or pooling window) from the flat buffer: for a small stride
/// one masked load of the span and a shuffle, else a vector.gather. Lowered
/// to scf, it was a loop inserting one lane per step into a vector LLVM
/// keeps on the stack.
struct StridedReadToGather : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto memref = dyn_cast<MemRefType>(read.getBase().getType());
    VectorType vectorType = read.getVectorType();
    if (!memref || vectorType.getRank() != 1 || vectorType.isScalable() ||
        read.getMask() || !read.getPermutationMap().isMinorIdentity() ||
        !read.getInBoundsValues().front())
      return rewriter.notifyMatchFailure(read, "not an in-bounds 1-D read");
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(memref.getStridesAndOffset(strides, offset)) ||
        strides.empty() || strides.back() == 1 ||
        ShapedType::isDynamic(strides.back()) || strides.back() <= 0)
      return rewriter.notifyMatchFailure(read, "not a static inner stride");
    int64_t lanes = vectorType.getNumElements(), stride = strides.back();
    if ((lanes - 1) > std::numeric_limits<int32_t>::max() / stride)
      return rewriter.notifyMatchFailure(read, "lane offsets beyond i32");
    Location loc = read.getLoc();
    auto meta =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, read.getBase());
    // The first element's position in the buffer.
    Value linear = meta.getOffset();
    for (auto [index, dimStride] :
         llvm::zip(read.getIndices(), meta.getStrides())) {
      Value step = arith::MulIOp::create(rewriter, loc, index, dimStride);
      linear = arith::AddIOp::create(rewriter, loc, linear, step);
    }
    Value extent =
        arith::AddIOp::create(rewriter, loc, linear,
                              arith::ConstantIndexOp::create(
                                  rewriter, loc, (lanes - 1) * stride + 1));
    auto flatType =
        MemRefType::get({ShapedType::kDynamic}, memref.getElementType());
    Value flat = memref::ReinterpretCastOp::create(
        rewriter, loc, flatType, meta.getBaseBuffer(), rewriter.getIndexAttr(0),
        ArrayRef<OpFoldResult>{extent},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
    // A small stride: one masked load of the span, then a shuffle that
    // keeps every stride-th element (a permute; a gather costs a load per
    // lane). The lanes past the last element read are masked off, so
    // nothing beyond the span is touched.
    if (stride <= kMaxShuffledStride) {
      int64_t span = (lanes - 1) * stride + 1;
      auto spanType =
          VectorType::get({lanes * stride}, memref.getElementType());
      Value spanMask = vector::CreateMaskOp::create(
          rewriter, loc,
          VectorType::get({lanes * stride}, rewriter.getI1Type()),
          ValueRange{arith::ConstantIndexOp::create(rewriter, loc, span)});
      Value padding = vector::BroadcastOp::create(rewriter, loc, spanType,
                                                  read.getPadding());
      Value loaded = vector::MaskedLoadOp::create(
          rewriter, loc, spanType, flat, ValueRange{linear}, spanMask, padding);
      SmallVector<int64_t> picks;
      for (int64_t lane = 0; lane < lanes; ++lane)
        picks.push_back(lane * stride);
      rewriter.replaceOpWithNewOp<vector::ShuffleOp>(read, loaded, loaded,
                                                     picks);
      return success();
    }
    SmallVector<int32_t> positions;
    for (int64_t lane = 0; lane < lanes; ++lane)
      positions.push_back(static_cast<int32_t>(lane * stride));
    Value indexVector = arith::ConstantOp::create(
        rewriter, loc,
        DenseIntElementsAttr::get(
            VectorType::get({lanes}, rewriter.getI32Type()), positions));
    Value mask = arith::ConstantOp::create(
        rewriter, loc,
        DenseIntElementsAttr::get(
            VectorType::get({lanes}, rewriter.getI1Type()), true));
    Value passThrough = vector::BroadcastOp::create(rewriter, loc, vectorType,
                                                    read.getPadding());
    rewriter.replaceOpWithNewOp<vector::GatherOp>(
        read, vectorType, flat, ValueRange{linear}, indexVector, mask,
        passThrough);
    return success();
  }
};

/// The loop-carried n-D vectors of `loop` (a register tile's accumulators,
/// vector<1x1x8x8xf32>) carried as their 1-D rows instead, each its own
/// iter_arg. Lowered whole, such a value is an LLVM phi of an array of
/// vectors, which LLVM splits into one phi a vector only when its start is
/// built from the vectors (a tile loaded from memory); started from a
/// constant (a tile summed from zero) the array stays whole, and the
/// register allocator spilled an accumulator of the hot loop (a 1x1
/// convolution over 1024 channels ran 1.45x slower).
void splitVectorIterArgs(RewriterBase &rewriter, scf::ForOp loop) {
  auto rowsOf = [](Type type) -> int64_t {
    auto vectorType = dyn_cast<VectorType>(type);
    if (!vectorType || vectorType.getRank() < 2 || vectorType.isScalable())
      return 0;
    int64_t rows =
        ShapedType::getNumElements(vectorType.getShape().drop_back());
    return rows <= kMaxUnrolledRows ? rows : 0;
  };
  if (llvm::none_of(loop.getInitArgs().getTypes(),
                    [&](Type type) { return rowsOf(type) > 0; }))
    return;
  Location loc = loop.getLoc();
  // The rows of an n-D vector, and the vector of its rows.
  auto positions = [](VectorType type) {
    SmallVector<SmallVector<int64_t>> all;
    ArrayRef<int64_t> outer = type.getShape().drop_back();
    SmallVector<int64_t> strides = computeStrides(outer);
    for (int64_t r = 0, e = ShapedType::getNumElements(outer); r < e; ++r)
      all.push_back(delinearize(r, strides));
    return all;
  };
  // The values `values` (of the old loop's types) with each split one
  // replaced by its rows.
  auto splitAll = [&](ValueRange values) {
    SmallVector<Value> rows;
    for (Value value : values) {
      if (!rowsOf(value.getType())) {
        rows.push_back(value);
        continue;
      }
      for (ArrayRef<int64_t> at : positions(cast<VectorType>(value.getType())))
        rows.push_back(vector::ExtractOp::create(rewriter, loc, value, at));
    }
    return rows;
  };
  // The values of the old loop's `types` from `rows`, each split one joined
  // from its rows.
  auto joinAll = [&](TypeRange types, ValueRange rows) {
    SmallVector<Value> values;
    for (Type type : types) {
      int64_t count = rowsOf(type);
      if (!count) {
        values.push_back(rows.front());
        rows = rows.drop_front();
        continue;
      }
      auto vectorType = cast<VectorType>(type);
      Value whole = arith::ConstantOp::create(rewriter, loc, vectorType,
                                              rewriter.getZeroAttr(vectorType));
      for (auto [row, at] :
           llvm::zip_equal(rows.take_front(count), positions(vectorType)))
        whole = vector::InsertOp::create(rewriter, loc, row, whole, at);
      values.push_back(whole);
      rows = rows.drop_front(count);
    }
    return values;
  };

  rewriter.setInsertionPoint(loop);
  auto newLoop = scf::ForOp::create(rewriter, loc, loop.getLowerBound(),
                                    loop.getUpperBound(), loop.getStep(),
                                    splitAll(loop.getInitArgs()));
  Block *body = newLoop.getBody();
  if (!body->empty())
    rewriter.eraseOp(&body->back()); // a yield of nothing
  // The old body's arguments: the induction variable, then each carried
  // value, joined from its rows where it was split.
  rewriter.setInsertionPointToStart(body);
  SmallVector<Value> args = {newLoop.getInductionVar()};
  llvm::append_range(args, joinAll(loop.getInitArgs().getTypes(),
                                   newLoop.getRegionIterArgs()));
  rewriter.mergeBlocks(loop.getBody(), body, args);
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<scf::YieldOp>(yield,
                                            splitAll(yield.getOperands()));
  rewriter.setInsertionPointAfter(newLoop);
  rewriter.replaceOp(loop,
                     joinAll(loop.getResultTypes(), newLoop.getResults()));
}

/// A register tile's step of a product of 16-bit pairs (onnx-cpu-pack-
/// matmul's pairedProduct): vector.contract of [M, 2] x i16 and [16, 2] x
/// i16 into [M, 16] x i32 as one AVX-512 VNNI `vpdpwssd` per row: the row's
/// pair of values broadcast to the 16 lanes as one 32-bit word, each lane
/// summing the products of its pair with the column's pair into its
/// accumulator. Likewise a step of a product of 8-bit quads (its
/// quadProduct): vector.contract of [M, 4] signed bytes and [16 r, 4]
/// unsigned ones, each extended to i32 (arith.extsi, arith.extui), as one
/// `vpdpbusd` per row and register of 16 columns (each lane summing the four
/// products of its quads).
struct ContractToVNNI : OpRewritePattern<vector::ContractionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::ContractionOp op,
                                PatternRewriter &rewriter) const override {
    // (A tile of one row has lost its unit dim: [K] x [N, K] into [N].)
    auto accType = dyn_cast<VectorType>(op.getAccType());
    if (!accType || op.getKind() != vector::CombiningKind::ADD ||
        !accType.getElementType().isInteger(32) ||
        (accType.getRank() != 2 && accType.getRank() != 1) ||
        accType.getShape().back() % 16 != 0 || accType.isScalable())
      return failure();
    bool oneRow = accType.getRank() == 1;
    // Registers of 16 columns (several for a product of quads of few rows).
    int64_t registers = accType.getShape().back() / 16;
    // The rows' and the columns' values, before any extension, and the
    // number of them each lane sums.
    Value lhs = op.getLhs(), rhs = op.getRhs();
    int64_t groups = 2;
    Type element = IntegerType::get(op.getContext(), 16);
    StringRef intrinsic = "llvm.x86.avx512.vpdpwssd.512";
    auto signedBytes = lhs.getDefiningOp<arith::ExtSIOp>();
    auto unsignedBytes = rhs.getDefiningOp<arith::ExtUIOp>();
    if (signedBytes && unsignedBytes) {
      lhs = signedBytes.getIn();
      rhs = unsignedBytes.getIn();
      groups = 4;
      element = IntegerType::get(op.getContext(), 8);
      intrinsic = "llvm.x86.avx512.vpdpbusd.512";
    }
    if (groups == 2 && registers != 1)
      return failure();
    auto lhsType = dyn_cast<VectorType>(lhs.getType());
    auto rhsType = dyn_cast<VectorType>(rhs.getType());
    if (!lhsType || !rhsType || lhsType.getRank() != accType.getRank() ||
        lhsType.getElementType() != element ||
        rhsType.getElementType() != element ||
        rhsType.getShape() != ArrayRef<int64_t>{16 * registers, groups} ||
        lhsType.getShape().back() != groups ||
        (!oneRow && accType.getDimSize(0) != lhsType.getDimSize(0)) ||
        lhsType.isScalable())
      return failure();
    MLIRContext *ctx = op.getContext();
    if (oneRow) {
      AffineExpr n, k;
      bindDims(ctx, n, k);
      if (op.getIndexingMapsArray() !=
          ArrayRef<AffineMap>{AffineMap::get(2, 0, {k}, ctx),
                              AffineMap::get(2, 0, {n, k}, ctx),
                              AffineMap::get(2, 0, {n}, ctx)})
        return failure();
    } else {
      AffineExpr m, n, k;
      bindDims(ctx, m, n, k);
      if (op.getIndexingMapsArray() !=
          ArrayRef<AffineMap>{AffineMap::get(3, 0, {m, k}, ctx),
                              AffineMap::get(3, 0, {n, k}, ctx),
                              AffineMap::get(3, 0, {m, n}, ctx)})
        return failure();
    }
    Location loc = op.getLoc();
    int64_t rows = oneRow ? 1 : lhsType.getDimSize(0);
    Type i32 = rewriter.getI32Type();
    auto words = VectorType::get({16}, i32);
    auto parts = VectorType::get({16 * groups}, element);
    Value allColumns = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({16 * groups * registers}, element),
        rhs);
    SmallVector<Value> columns;
    for (int64_t g = 0; g < registers; ++g)
      columns.push_back(registers == 1 ? allColumns
                                       : vector::ExtractStridedSliceOp::create(
                                             rewriter, loc, allColumns,
                                             ArrayRef<int64_t>{g * 16 * groups},
                                             ArrayRef<int64_t>{16 * groups},
                                             ArrayRef<int64_t>{1})
                                             .getResult());
    // Each row's group, loaded as one 32-bit word and broadcast (one
    // vpbroadcastd from memory, or the instruction's broadcast operand) when
    // the rows are read from a buffer; else extracted from the rows' vector
    // (a shuffle and a broadcast).
    auto read = lhs.getDefiningOp<vector::TransferReadOp>();
    auto memref =
        read ? dyn_cast<MemRefType>(read.getBase().getType()) : MemRefType();
    SmallVector<int64_t> strides;
    int64_t offset;
    bool fromMemory =
        !oneRow && memref && !read.getMask() && read.getIndices().size() >= 2 &&
        read.getPermutationMap().isMinorIdentity() &&
        llvm::all_of(read.getInBoundsValues(), [](bool b) { return b; }) &&
        succeeded(memref.getStridesAndOffset(strides, offset)) &&
        strides.back() == 1;
    Value groupWords;
    if (!fromMemory)
      groupWords = vector::BitCastOp::create(
          rewriter, loc, VectorType::get({rows}, i32),
          vector::ShapeCastOp::create(
              rewriter, loc, VectorType::get({rows * groups}, element), lhs));
    StringAttr dot = rewriter.getStringAttr(intrinsic);
    Value result = op.getAcc();
    for (int64_t r = 0; r < rows; ++r) {
      Value word;
      if (fromMemory) {
        SmallVector<Value> indices(read.getIndices());
        Value &row = indices[indices.size() - 2];
        row = arith::AddIOp::create(
            rewriter, loc, row,
            arith::ConstantIndexOp::create(rewriter, loc, r));
        Value group = vector::LoadOp::create(rewriter, loc,
                                             VectorType::get({groups}, element),
                                             read.getBase(), indices);
        word = vector::ExtractOp::create(
            rewriter, loc,
            vector::BitCastOp::create(rewriter, loc, VectorType::get({1}, i32),
                                      group),
            0);
      } else {
        word = vector::ExtractOp::create(rewriter, loc, groupWords, r);
      }
      Value broadcast = vector::BitCastOp::create(
          rewriter, loc, parts,
          vector::BroadcastOp::create(rewriter, loc, words, word));
      Value accRow =
          oneRow ? op.getAcc()
                 : vector::ExtractOp::create(rewriter, loc, op.getAcc(), r)
                       .getResult();
      Value sumRow = accRow;
      for (int64_t g = 0; g < registers; ++g) {
        Value acc = registers == 1
                        ? accRow
                        : vector::ExtractStridedSliceOp::create(
                              rewriter, loc, accRow, ArrayRef<int64_t>{g * 16},
                              ArrayRef<int64_t>{16}, ArrayRef<int64_t>{1})
                              .getResult();
        // vpdpwssd's operands are both signed; vpdpbusd's second is the
        // unsigned one and its third (the broadcast) the signed one.
        Value sum = LLVM::CallIntrinsicOp::create(
                        rewriter, loc, words, dot,
                        groups == 4 ? ValueRange{acc, columns[g], broadcast}
                                    : ValueRange{acc, broadcast, columns[g]})
                        ->getResult(0);
        sumRow = registers == 1
                     ? sum
                     : vector::InsertStridedSliceOp::create(
                           rewriter, loc, sum, sumRow,
                           ArrayRef<int64_t>{g * 16}, ArrayRef<int64_t>{1})
                           .getResult();
      }
      result = oneRow
                   ? sumRow
                   : vector::InsertOp::create(rewriter, loc, sumRow, result, r)
                         .getResult();
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct CPULowerVectorsPass
    : public onnx::impl::CPULowerVectorsBase<CPULowerVectorsPass> {
  using Base::Base;

  /// The target, resolved once before the pass runs on functions in
  /// parallel.
  LogicalResult initialize(MLIRContext *) override {
    target = CPUTarget::get(targetCPU, targetFeatures);
    return success();
  }
  CPUTarget target;

  void sweep(llvm::function_ref<void(RewritePatternSet &)> populate,
             bool canonicalize = false) {
    RewritePatternSet patterns(&getContext());
    populate(patterns);
    (void)applyCodegenPatterns(getOperation(), std::move(patterns),
                               canonicalize);
  }

  void runOnOperation() override {
    // Static copies left by bufferization (a tile inserted into a packed
    // operand or a thread's part of the result, a source copied into its
    // padded buffer) become vector loads and stores, not scalar loops (or
    // nested parallel regions). A small one is unrolled whole; one of many
    // rows is a loop over its rows, each row unrolled (unrolled whole, a
    // 1024x4 tail made basic blocks of thousands of instructions, on which
    // LLVM's DAG combiner and scheduler spent most of a compile).
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies)
      vectorizeStaticCopy(rewriter, distributeCopy(rewriter, copy, numThreads));
    bool hasVectors = false;
    getOperation().walk([&](Operation *op) {
      if (isa<vector::VectorDialect>(op->getDialect()))
        hasVectors = true;
    });
    if (!hasVectors)
      return;
    if (failed(checkTarget(target, getOperation())))
      return signalPassFailure();

    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      splitVectorIterArgs(rewriter, loop);
    sweep(
        [](RewritePatternSet &patterns) {
          vector::populateDropInnerMostUnitDimsXferOpPatterns(patterns);
          vector::populateVectorTransferDropUnitDimsPatterns(patterns);
        },
        /*canonicalize=*/true);
    sweep([](RewritePatternSet &patterns) {
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    });
    sweep([&](RewritePatternSet &patterns) {
      if (target.hasVNNI)
        patterns.add<ContractToVNNI>(patterns.getContext(), /*benefit=*/2);
      vector::populateVectorContractLoweringPatterns(
          patterns, vector::VectorContractLowering::OuterProduct);
    });
    sweep([](RewritePatternSet &patterns) {
      vector::populateVectorOuterProductLoweringPatterns(patterns);
    });
    // A register tile's row values, read as one vector and each lane
    // broadcast, become one scalar load per lane (a vbroadcastss from
    // memory): LLVM loaded the 6 weights of a 6x16 tile as 4 broadcasts and
    // a pair, split with shuffles on the FMA ports.
    sweep([](RewritePatternSet &patterns) {
      vector::populateScalarVectorTransferLoweringPatterns(
          patterns, /*benefit=*/1, /*allowMultipleUses=*/true);
    });
    sweep([](RewritePatternSet &patterns) {
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorTransferLoweringPatterns(patterns,
                                                     /*maxTransferRank=*/1);
      patterns.add<StridedReadToGather>(patterns.getContext());
      vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
    });
    sweep([](RewritePatternSet &patterns) {
      VectorTransferToSCFOptions options;
      options.enableFullUnroll();
      options.setTargetRank(1);
      populateVectorToSCFConversionPatterns(patterns, options);
      // Before the 1-D lowering of a strided read (a loop over lanes).
      patterns.add<StridedReadToGather>(patterns.getContext(),
                                        /*benefit=*/2);
    });
    sweep([&](RewritePatternSet &patterns) {
      vector::populateVectorTransposeLoweringPatterns(
          patterns, target.vectorBits >= 512
                        ? vector::VectorTransposeLowering::Shuffle16x16
                        : vector::VectorTransposeLowering::Shuffle1D);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      vector::populateVectorBroadcastLoweringPatterns(patterns);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerReduction);
    });
    sweep([](RewritePatternSet &) {}, /*canonicalize=*/true);
  }
};

} // namespace
