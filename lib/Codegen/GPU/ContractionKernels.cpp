//===- ContractionKernels.cpp - Tiled kernels for matrix products ---------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-gpu-contraction-kernels (Passes.td): each linalg contraction into an
// f32 buffer (of f32 operands, or f16/bf16 ones extended to f32 as they are
// loaded) (MatMul, Gemm, batched and transposed products: any op whose body
// multiplies and adds and whose dims are batch, m, n and k) becomes one
// gpu.launch of a shared-memory kernel, the shape shared/notes/gpu-path.md
// section 7 measured in PTX: a block computes a tileM x tileN tile of the
// output, staging tileK-deep slices of both operands in workgroup memory;
// each thread accumulates a threadM x threadN sub-tile in registers. The
// thread's rows and columns are two runs of half its tile, tileM/2 apart, so
// that a warp's reads of workgroup memory are contiguous. With tf32, the
// warps instead compute 16x8 tiles with mma.sync.m16n8k8 on TF32 operands
// (rounded to nearest as they are staged), each thread holding its lanes'
// fragments of the accumulators; with half-mma, products of f16 (or bf16)
// operands do the same with mma.sync.m16n8k16 on the elements as they are,
// staged as [row][k]. Partial tiles read zeros and store nothing
// (clamped indices, selects and guarded stores).
// With `fuse`, the elementwise op that initializes the output (a fill, or a
// broadcast bias) and the one that consumes it right after the product (a
// bias, BatchNormalization, an activation) are computed in the kernel too:
// each thread evaluates their bodies on its own output elements, so the
// output is neither filled nor read back, and is stored only where another
// op still reads it (see matchFusion).
// Where the grid would not fit (a dim of 0, more than 65535 blocks in y or
// z) the ops run as before: the launch is inside an scf.if whose else holds
// the original ops, which the pipeline maps like any other.
// A convolution whose image is a zero-padded copy made for it alone (a
// buffer filled with zeros, the image copied into its interior: what
// bufferization leaves of tensor.pad) reads the image itself: the kernel
// maps each padded position to the image's, zero outside it, and the
// padded buffer, its fill and its copy go (where the grid is static).
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"
#include "OnnxDialect/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <array>

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_GPUCONTRACTIONKERNELS
#include "OnnxDialect/Codegen/GPU/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// The tile sizes of one kernel.
struct Tiles {
  int64_t m, n, k;          // a block's output tile, and the depth staged
  int64_t threadM, threadN; // a thread's output tile (its element count)
  bool prefetch;            // load the next slice while computing
  bool tf32;                // warp products on the tensor cores
  bool half = false;        // f16/bf16 ones, mma.sync.m16n8k16
  int64_t threads() const { return (m / threadM) * (n / threadN); }
  int64_t warps() const { return threads() / 32; }
  /// Whether the warps compute on the tensor cores, and the depth of one
  /// of their products.
  bool mma() const { return tf32 || half; }
  int64_t mmaK() const { return half ? 16 : 8; }
  /// With tensor cores: the warps' grid over the block's tile, warpsM x warpsN,
  /// each warp computing whole 16x8 tiles of mma.sync; of the grids
  /// that divide the tile, the one whose threads read the fewest fragment
  /// registers from workgroup memory per k-step (4 per 16 rows of A, 2 per
  /// 8 columns of B). {0, 0} where none divides it.
  /// Whether a block's threads are whole warps (up to 1024) that stage
  /// whole elements, and, with tensor cores, its warps divide the tile into
  /// 16x8 tiles staged in multiples of their products' depth.
  bool valid() const {
    if (m <= 0 || n <= 0 || k <= 0 || threadM <= 0 || threadN <= 0 ||
        m % threadM || n % threadN || threadM % 2 || threadN % 2 ||
        threads() > 1024 || threads() % 32 || (m * k) % threads() ||
        (n * k) % threads())
      return false;
    return !mma() || (k % mmaK() == 0 && warpGrid().first);
  }
  std::pair<int64_t, int64_t> warpGrid() const {
    std::pair<int64_t, int64_t> best{0, 0};
    int64_t bestLoads = 0;
    for (int64_t wm = 1; wm <= warps(); ++wm) {
      if (warps() % wm || m % (16 * wm) || n % (8 * (warps() / wm)))
        continue;
      int64_t loads = m / wm / 16 * 4 + n / (warps() / wm) / 8 * 2;
      if (!best.first || loads < bestLoads)
        best = {wm, warps() / wm}, bestLoads = loads;
    }
    return best;
  }
};

/// The dims of a product as this pass tiles it: the tile's m, n and k,
/// each a group of loop dims linearized (the last fastest), the other
/// (parallel) dims, which index blocks, and which operand holds the m dims
/// (the other holds the n dims; both hold k).
struct Dims {
  SmallVector<unsigned> batch, m, n, k;
  unsigned lhs = 0, rhs = 1;
};

/// Two buffers in, one f32 buffer out (the callers check that the body
/// multiplies and adds). The inputs are f32, or f16 or bf16 that the body
/// only extends to f32 (an f16 MatMul accumulates in f32: the product is
/// f32's too), which the kernel does as it loads them.
static bool isF32BufferProduct(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || type.getMemorySpace())
      return false;
    Type element = type.getElementType();
    if (element.isF32())
      continue;
    if (!op.isDpsInput(&operand) || !isa<Float16Type, BFloat16Type>(element))
      return false;
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (arg.use_empty() || !llvm::all_of(arg.getUsers(), [](Operation *user) {
          auto ext = dyn_cast<arith::ExtFOp>(user);
          return ext && ext.getType().isF32();
        }))
      return false;
  }
  return true;
}

/// Whether both operands of a product are f16, or both bf16 (which the
/// tensor cores multiply as they are, accumulating in f32).
static bool hasHalfOperands(linalg::LinalgOp op) {
  Type lhs = getElementTypeOrSelf(op.getDpsInputs()[0]);
  Type rhs = getElementTypeOrSelf(op.getDpsInputs()[1]);
  return lhs == rhs && isa<Float16Type, BFloat16Type>(lhs);
}

std::optional<Dims> matchContraction(linalg::LinalgOp op) {
  if (!isF32BufferProduct(op) || !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty() ||
      dims->batch.size() + dims->m.size() + dims->n.size() + dims->k.size() !=
          op.getNumLoops())
    return std::nullopt;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation())
      return std::nullopt;
  // The innermost m and n dims are the tile's; the other parallel dims (a
  // batch of the product, or an m or n dim more, as in a product with a
  // broadcast batch dim) index blocks like batch dims.
  Dims result;
  result.m = {dims->m.back()};
  result.n = {dims->n.back()};
  result.k.assign(dims->k.begin(), dims->k.end());
  for (unsigned d = 0; d < op.getNumLoops(); ++d)
    if (d != result.m.front() && d != result.n.front() &&
        !llvm::is_contained(result.k, d))
      result.batch.push_back(d);
  return result;
}

/// A convolution as an implicit product: m the output channels, n the
/// batch and output pixels, k the input channels and the filter's window
/// (the input buffer is already padded). No depthwise or grouped dims.
std::optional<Dims> matchConvolution(linalg::LinalgOp op) {
  if (!isF32BufferProduct(op) || !linalg::isaConvolutionOpInterface(op))
    return std::nullopt;
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims) || !dims->depth.empty() || dims->outputChannel.size() != 1 ||
      dims->outputImage.empty() || dims->filterLoop.empty() ||
      dims->inputChannel.empty())
    return std::nullopt;
  Dims result;
  result.m.assign(dims->outputChannel.begin(), dims->outputChannel.end());
  result.n.assign(dims->batch.begin(), dims->batch.end());
  result.n.append(dims->outputImage.begin(), dims->outputImage.end());
  result.k.assign(dims->inputChannel.begin(), dims->inputChannel.end());
  result.k.append(dims->filterLoop.begin(), dims->filterLoop.end());
  llvm::sort(result.n);
  llvm::sort(result.k);
  if (result.m.size() + result.n.size() + result.k.size() != op.getNumLoops())
    return std::nullopt;
  // The operand that holds the output channel is the filter.
  unsigned channel = result.m.front();
  auto holds = [&](unsigned operand) {
    return op.getMatchingIndexingMap(&op->getOpOperand(operand))
        .isFunctionOfDim(channel);
  };
  if (holds(0) == holds(1))
    return std::nullopt;
  result.lhs = holds(0) ? 0 : 1;
  result.rhs = 1 - result.lhs;
  return result;
}

class KernelBuilder {
public:
  KernelBuilder(OpBuilder &b, Location loc, linalg::LinalgOp op,
                const Dims &dims, const Tiles &tiles, const Fusion &fusion,
                std::optional<PaddedImage> padded = std::nullopt)
      : b(b), loc(loc), op(op), dims(dims), tiles(tiles), fusion(fusion),
        padded(std::move(padded)),
        stageType(tiles.half ? getElementTypeOrSelf(op.getDpsInputs()[0])
                             : b.getF32Type()) {}

  /// Builds the kernel; true when it reads a padded image's source (the
  /// grid was static: no fallback reads the padded buffer).
  bool build(ArrayRef<Value> sizes);

private:
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value ceilDiv(Value a, int64_t d) {
    return b.createOrFold<arith::CeilDivUIOp>(loc, a, index(d));
  }
  /// The indices of `operand` for the loop dims' values `loops`.
  SmallVector<Value> operandIndices(OpOperand &operand, ArrayRef<Value> loops) {
    return operandIndicesAt(b, loc, op, operand, loops);
  }
  /// True when the innermost index of `operand` depends on k dims only.
  bool innermostIsK(OpOperand &operand) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (map.getNumResults() == 0)
      return false;
    AffineExpr last = map.getResults().back();
    for (unsigned d = 0; d < map.getNumDims(); ++d)
      if (last.isFunctionOfDim(d) && !llvm::is_contained(dims.k, d))
        return false;
    return true;
  }
  /// The product of the sizes of `group`.
  Value groupSize(ArrayRef<unsigned> group, ArrayRef<Value> sizes) {
    return loopProduct(b, loc, group, sizes);
  }
  /// Sets the loop values of `group` from their linear index (the last
  /// dim fastest).
  void delinearize(Value linear, ArrayRef<unsigned> group,
                   SmallVectorImpl<Value> &loops) {
    delinearizeLoops(b, loc, linear, group, sizes, loops);
  }
  /// How one operand's k-slice is staged: the elements each thread copies,
  /// as (k, row) positions in the slice, where consecutive threads read
  /// consecutive elements of the buffer's innermost dim.
  struct Stage {
    OpOperand *operand;
    ArrayRef<unsigned> group; // the tile's m or n dims
    Value origin, size;       // the block's first row, the rows in all
    SmallVector<Value> kk, row;
  };
  Stage planStage(OpOperand &operand, ArrayRef<unsigned> group, Value origin,
                  Value size, int64_t extent, Value tid);
  /// The thread's elements of the k-slice at `k0`: zeros outside the
  /// operand (clamped indices, so every load is in bounds).
  SmallVector<Value> loadStage(const Stage &stage, Value k0,
                               ArrayRef<Value> batch);
  void storeStage(const Stage &stage, ArrayRef<Value> values, Value buffer);
  /// A thread's place in its warp's tiles (with tf32): its lane's group g
  /// and index t in the group, the rows of the block's tile its C
  /// fragments hold (g and g+8 of each 16-row tile, which are also its A
  /// fragments' rows), their columns (2t and 2t+1 of each 8-column tile)
  /// and its B fragments' columns (g of each).
  struct WarpTiles {
    Value g, t;
    SmallVector<Value> rows, columns, bColumns;
  };
  WarpTiles planWarp(Value tid);
  /// One k-step of 8 on the tensor cores: every 16x8 tile of the warp's
  /// output accumulates A(16x8) * B(8x8) from the staged slices at depth
  /// `kk`. `acc` holds the thread's C fragments, `accColumns` per row of
  /// `rows`.
  void mmaStep(Value sA, Value sB, Value kk, const WarpTiles &warp,
               MutableArrayRef<Value> acc, int64_t accColumns);
  /// The same with f16 or bf16 operands: a k-step of 16 (mma.m16n8k16).
  void mmaStepHalf(Value sA, Value sB, Value kk, const WarpTiles &warp,
                   MutableArrayRef<Value> acc, int64_t accColumns);
  /// A k-step's products of the warp's 16x8 tiles: every A register pair
  /// of rows with every B register column; `fragment(buffer, row, upper)`
  /// reads the register of the slice `buffer` at `row` for the lower or
  /// upper half of the k-step.
  void mmaTiles(Value sA, Value sB, const WarpTiles &warp,
                llvm::function_ref<Value(Value, Value, bool)> fragment,
                NVVM::MMATypes type, int64_t depth, MutableArrayRef<Value> acc,
                int64_t accColumns);
  /// One mma.sync m16n8k`depth` on `type` operands: the four accumulators
  /// of the 16x8 tile at (i, j) of the warp's tiles plus A(16 x depth) *
  /// B(depth x 8) from the fragment registers `aRegs` and `bRegs`.
  void mmaTile(ValueRange aRegs, ValueRange bRegs, NVVM::MMATypes type,
               int64_t depth, MutableArrayRef<Value> acc, size_t i, size_t j,
               int64_t accColumns);

  OpBuilder &b;
  Location loc;
  linalg::LinalgOp op;
  const Dims &dims;
  const Tiles &tiles;
  Fusion fusion;
  // The image (operand rhs) read through its padding's source instead.
  std::optional<PaddedImage> padded;
  // The staged elements' type: f32, or the f16/bf16 operands' with half.
  Type stageType;
  // Loop sizes, and those of the m, n and k groups, set by build.
  SmallVector<Value> sizes;
  Value sizeM, sizeN, sizeK;
};

KernelBuilder::Stage KernelBuilder::planStage(OpOperand &operand,
                                              ArrayRef<unsigned> group,
                                              Value origin, Value size,
                                              int64_t extent, Value tid) {
  Stage stage{&operand, group, origin, size, {}, {}};
  int64_t count = extent * tiles.k / tiles.threads();
  bool kFastest = innermostIsK(operand);
  for (int64_t r = 0; r < count; ++r) {
    Value e = arith::AddIOp::create(b, loc, tid, index(r * tiles.threads()));
    if (kFastest) {
      stage.kk.push_back(arith::RemUIOp::create(b, loc, e, index(tiles.k)));
      stage.row.push_back(arith::DivUIOp::create(b, loc, e, index(tiles.k)));
    } else {
      stage.row.push_back(arith::RemUIOp::create(b, loc, e, index(extent)));
      stage.kk.push_back(arith::DivUIOp::create(b, loc, e, index(extent)));
    }
  }
  return stage;
}

SmallVector<Value> KernelBuilder::loadStage(const Stage &stage, Value k0,
                                            ArrayRef<Value> batch) {
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(stageType, 0));
  Value one = index(1);
  Value lastRow = arith::SubIOp::create(b, loc, stage.size, one);
  Value lastK = arith::SubIOp::create(b, loc, sizeK, one);
  SmallVector<Value> values;
  for (auto [kk, row] : llvm::zip(stage.kk, stage.row)) {
    Value g = arith::AddIOp::create(b, loc, stage.origin, row);
    Value gk = arith::AddIOp::create(b, loc, k0, kk);
    Value inRow =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, g, stage.size);
    Value inK =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, gk, sizeK);
    Value in = arith::AndIOp::create(b, loc, inRow, inK);
    SmallVector<Value> loops(op.getNumLoops(), index(0));
    for (auto [d, value] : llvm::zip(dims.batch, batch))
      loops[d] = value;
    delinearize(arith::MinUIOp::create(b, loc, g, lastRow), stage.group, loops);
    delinearize(arith::MinUIOp::create(b, loc, gk, lastK), dims.k, loops);
    Value buffer = stage.operand->get();
    SmallVector<Value> indices = operandIndices(*stage.operand, loops);
    if (padded && stage.operand == padded->image) {
      // The padded position's element of the source, zero outside it.
      buffer = padded->source;
      indices = sourceIndices(b, loc, *padded, indices, in);
    }
    Value v = memref::LoadOp::create(b, loc, buffer, indices);
    if (v.getType() != stageType) // f16 or bf16, which the body extends
      v = arith::ExtFOp::create(b, loc, stageType, v);
    values.push_back(arith::SelectOp::create(b, loc, in, v, zero));
  }
  return values;
}

void KernelBuilder::storeStage(const Stage &stage, ArrayRef<Value> values,
                               Value buffer) {
  for (auto [value, kk, row] : llvm::zip(values, stage.kk, stage.row)) {
    Value v = value;
    // The tensor cores read the top 19 bits of each f32 (TF32): round to
    // the nearest TF32 value here, once per element staged, as cuBLAS does,
    // rather than let them truncate.
    if (tiles.tf32)
      v = arith::BitcastOp::create(
          b, loc, b.getF32Type(),
          NVVM::ConvertFloatToTF32Op::create(b, loc, b.getI32Type(), v,
                                             NVVM::FPRoundingMode::RNA));
    // f16/bf16 slices are staged as rows of k, so that the pairs of
    // consecutive k a fragment register holds are adjacent.
    memref::StoreOp::create(b, loc, v, buffer,
                            tiles.half ? ValueRange{row, kk}
                                       : ValueRange{kk, row});
  }
}

void KernelBuilder::mmaStep(Value sA, Value sB, Value kk, const WarpTiles &warp,
                            MutableArrayRef<Value> acc, int64_t accColumns) {
  // mma.m16n8k8 with TF32 operands (PTX ISA, "Matrix Fragments for
  // mma.m16n8k8"): lane = 4 * g + t holds A at rows g, g+8 and columns
  // t, t+4 of the 16x8 tile (a0 (g,t), a1 (g+8,t), a2 (g,t+4),
  // a3 (g+8,t+4)), B at rows t, t+4 and column g, and C at row g (c0, c1)
  // and g+8 (c2, c3), columns 2t and 2t+1.
  Type i32 = b.getI32Type();
  Value k0 = arith::AddIOp::create(b, loc, kk, warp.t);
  Value k1 = arith::AddIOp::create(b, loc, k0, index(4));
  mmaTiles(
      sA, sB, warp,
      [&](Value buffer, Value row, bool upper) -> Value {
        Value v = memref::LoadOp::create(b, loc, buffer,
                                         ValueRange{upper ? k1 : k0, row});
        return arith::BitcastOp::create(b, loc, i32, v);
      },
      NVVM::MMATypes::tf32, 8, acc, accColumns);
}

void KernelBuilder::mmaTiles(
    Value sA, Value sB, const WarpTiles &warp,
    llvm::function_ref<Value(Value, Value, bool)> fragment, NVVM::MMATypes type,
    int64_t depth, MutableArrayRef<Value> acc, int64_t accColumns) {
  // A's registers for each 16-row tile: rows g and g+8, the lower half of
  // the k-step then the upper; B's for each 8-column tile: column g.
  SmallVector<std::array<Value, 4>> a;
  for (size_t i = 0; i < warp.rows.size(); i += 2) {
    std::array<Value, 4> regs;
    regs[0] = fragment(sA, warp.rows[i], false);
    regs[1] = fragment(sA, warp.rows[i + 1], false);
    regs[2] = fragment(sA, warp.rows[i], true);
    regs[3] = fragment(sA, warp.rows[i + 1], true);
    a.push_back(regs);
  }
  SmallVector<std::array<Value, 2>> c;
  for (Value column : warp.bColumns) {
    std::array<Value, 2> regs;
    regs[0] = fragment(sB, column, false);
    regs[1] = fragment(sB, column, true);
    c.push_back(regs);
  }
  for (auto [i, aRegs] : llvm::enumerate(a))
    for (auto [j, bRegs] : llvm::enumerate(c))
      mmaTile(aRegs, bRegs, type, depth, acc, i, j, accColumns);
}

void KernelBuilder::mmaTile(ValueRange aRegs, ValueRange bRegs,
                            NVVM::MMATypes type, int64_t depth,
                            MutableArrayRef<Value> acc, size_t i, size_t j,
                            int64_t accColumns) {
  // C's registers: c0, c1 at the tile's row g, c2, c3 at g+8.
  std::array<Value *, 4> d;
  for (int64_t r = 0; r < 4; ++r)
    d[r] = &acc[(2 * i + r / 2) * accColumns + 2 * j + r % 2];
  Type f32 = b.getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  auto mma = NVVM::MmaOp::create(
      b, loc, resultType, aRegs, bRegs, ValueRange{*d[0], *d[1], *d[2], *d[3]},
      {16, 8, depth},
      /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
      std::array<NVVM::MMATypes, 2>{type, type},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  for (int64_t r = 0; r < 4; ++r)
    *d[r] = LLVM::ExtractValueOp::create(b, loc, mma.getRes(), r);
}

void KernelBuilder::mmaStepHalf(Value sA, Value sB, Value kk,
                                const WarpTiles &warp,
                                MutableArrayRef<Value> acc,
                                int64_t accColumns) {
  // mma.m16n8k16 with f16 or bf16 operands (PTX ISA, "Matrix Fragments for
  // mma.m16n8k16 with floating point type"): lane = 4 * g + t holds A's
  // pairs of columns (2t, 2t+1) and (2t+8, 2t+9) at rows g and g+8 of the
  // 16x16 tile, in registers a0 (g, 2t), a1 (g+8, 2t), a2 (g, 2t+8),
  // a3 (g+8, 2t+8), the lower column in the lower half; B's pairs of rows
  // (2t, 2t+1) and (2t+8, 2t+9) at column g; C as with m16n8k8. The slices
  // are staged as [row][k], so each pair is two adjacent elements.
  bool isF16 = stageType.isF16();
  auto pairType = VectorType::get({2}, stageType);
  Type i32 = b.getI32Type();
  Value k0 = arith::AddIOp::create(
      b, loc, kk, arith::MulIOp::create(b, loc, warp.t, index(2)));
  Value k1 = arith::AddIOp::create(b, loc, k0, index(8));
  Value k1Next = arith::AddIOp::create(b, loc, k0, index(1));
  Value k9 = arith::AddIOp::create(b, loc, k0, index(9));
  auto pair = [&](Value buffer, Value row, bool upper) -> Value {
    Value lo = memref::LoadOp::create(b, loc, buffer,
                                      ValueRange{row, upper ? k1 : k0});
    Value hi = memref::LoadOp::create(b, loc, buffer,
                                      ValueRange{row, upper ? k9 : k1Next});
    Value v = LLVM::PoisonOp::create(b, loc, pairType);
    for (auto [position, element] : llvm::enumerate(std::array{lo, hi}))
      v = LLVM::InsertElementOp::create(
          b, loc, v, element,
          LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(position)));
    // bf16 pairs go to the instruction as i32 (NVVM's mma.sync operands).
    return isF16 ? v : LLVM::BitcastOp::create(b, loc, i32, v);
  };
  mmaTiles(sA, sB, warp, pair,
           isF16 ? NVVM::MMATypes::f16 : NVVM::MMATypes::bf16, 16, acc,
           accColumns);
}

KernelBuilder::WarpTiles KernelBuilder::planWarp(Value tid) {
  auto [warpsM, warpsN] = tiles.warpGrid();
  int64_t wm = tiles.m / warpsM, wn = tiles.n / warpsN;
  auto add = [&](Value a, Value c) -> Value {
    return arith::AddIOp::create(b, loc, a, c);
  };
  auto mul = [&](Value a, int64_t c) -> Value {
    return arith::MulIOp::create(b, loc, a, index(c));
  };
  Value warp = arith::DivUIOp::create(b, loc, tid, index(32));
  Value lane = arith::RemUIOp::create(b, loc, tid, index(32));
  WarpTiles w;
  w.g = arith::DivUIOp::create(b, loc, lane, index(4));
  w.t = arith::RemUIOp::create(b, loc, lane, index(4));
  Value rowBase =
      add(mul(arith::DivUIOp::create(b, loc, warp, index(warpsN)), wm), w.g);
  Value colBase = mul(arith::RemUIOp::create(b, loc, warp, index(warpsN)), wn);
  for (int64_t i = 0; i < wm; i += 16) {
    w.rows.push_back(add(rowBase, index(i)));
    w.rows.push_back(add(rowBase, index(i + 8)));
  }
  Value twoT = add(colBase, mul(w.t, 2));
  for (int64_t j = 0; j < wn; j += 8) {
    w.columns.push_back(add(twoT, index(j)));
    w.columns.push_back(add(twoT, index(j + 1)));
    w.bColumns.push_back(add(add(colBase, w.g), index(j)));
  }
  return w;
}

bool KernelBuilder::build(ArrayRef<Value> loopSizes) {
  sizes.assign(loopSizes.begin(), loopSizes.end());
  sizeM = groupSize(dims.m, sizes);
  sizeN = groupSize(dims.n, sizes);
  sizeK = groupSize(dims.k, sizes);
  OpOperand &lhs = op->getOpOperand(dims.lhs);
  OpOperand &rhs = op->getOpOperand(dims.rhs);
  OpOperand &out = *op.getDpsInitOperand(0);

  Value batchCount = index(1);
  for (unsigned d : dims.batch)
    batchCount = b.createOrFold<arith::MulIOp>(loc, batchCount, sizes[d]);
  Value gridX = ceilDiv(sizeN, tiles.n), gridY = ceilDiv(sizeM, tiles.m);

  // The grid must be nonempty and within the driver's limits in y and z
  // (folded where the sizes are static: guardKernel then needs no if).
  Value zero = index(0), limit = index(65535);
  auto cmp = [&](arith::CmpIPredicate p, Value a, Value c) -> Value {
    return b.createOrFold<arith::CmpIOp>(loc, p, a, c);
  };
  Value fits = cmp(arith::CmpIPredicate::ugt, sizeM, zero);
  for (Value v : {cmp(arith::CmpIPredicate::ugt, sizeN, zero),
                  cmp(arith::CmpIPredicate::ugt, batchCount, zero),
                  cmp(arith::CmpIPredicate::ule, gridY, limit),
                  cmp(arith::CmpIPredicate::ule, batchCount, limit)})
    fits = b.createOrFold<arith::AndIOp>(loc, fits, v);
  // A fallback would read the padded buffer: the kernel reads it too.
  if (!matchPattern(fits, m_One()))
    padded.reset();
  guardKernel(b, loc, fits, [&] { cloneFallback(b, fusion, op); });

  auto workgroup = gpu::AddressSpaceAttr::get(
      b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  // With tf32, rows of the slices 8 longer: a warp's fragment loads (4
  // rows of k by 8 of m or n) then fall in 32 different banks. With half,
  // the slices are [row][k] and their rows 8 longer: with k = 16, a warp's
  // loads of pairs (8 rows by 4 pairs of k) then fall in 32 different
  // banks too.
  int64_t pad = tiles.mma() ? 8 : 0;
  auto slice = [&](int64_t rows) {
    SmallVector<int64_t, 2> shape = {tiles.k, rows + pad};
    if (tiles.half)
      shape = {rows, tiles.k + pad};
    return MemRefType::get(shape, stageType, MemRefLayoutAttrInterface(),
                           workgroup);
  };
  MemRefType stageA = slice(tiles.m), stageB = slice(tiles.n);
  Value one = index(1);
  auto launch = gpu::LaunchOp::create(
      b, loc, gridX, gridY, batchCount, index(tiles.threads()), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, TypeRange{stageA, stageB});
  Block &body = launch.getBody().front();
  b.setInsertionPointToStart(&body);
  Value sA = launch.getWorkgroupAttributions()[0];
  Value sB = launch.getWorkgroupAttributions()[1];
  Value tid = launch.getThreadIds().x;
  Value m0 =
      arith::MulIOp::create(b, loc, launch.getBlockIds().y, index(tiles.m));
  Value n0 =
      arith::MulIOp::create(b, loc, launch.getBlockIds().x, index(tiles.n));
  // The batch dims' values, the last fastest.
  SmallVector<Value> batch(dims.batch.size());
  Value rest = launch.getBlockIds().z;
  for (int64_t i = dims.batch.size() - 1; i >= 0; --i) {
    Value size = sizes[dims.batch[i]];
    batch[i] = arith::RemUIOp::create(b, loc, rest, size);
    rest = arith::DivUIOp::create(b, loc, rest, size);
  }
  // The rows and columns of the block's tile that the thread accumulates:
  // acc[i * accN + j] is the output at rows[i], cols[j].
  SmallVector<Value> rows, cols;
  WarpTiles warp;
  if (tiles.mma()) {
    warp = planWarp(tid);
    rows = warp.rows;
    cols = warp.columns;
  } else {
    int64_t columns = tiles.n / tiles.threadN;
    Value tRow = arith::DivUIOp::create(b, loc, tid, index(columns));
    Value tCol = arith::RemUIOp::create(b, loc, tid, index(columns));
    // A thread's rows: two runs of threadM/2, tile.m/2 apart (likewise its
    // columns).
    auto offsets = [&](Value t, int64_t count, int64_t tile) {
      SmallVector<Value> result;
      Value base = arith::MulIOp::create(b, loc, t, index(count / 2));
      for (int64_t i = 0; i < count; ++i)
        result.push_back(arith::AddIOp::create(
            b, loc, base,
            index(i % (count / 2) + (i / (count / 2)) * tile / 2)));
      return result;
    };
    rows = offsets(tRow, tiles.threadM, tiles.m);
    cols = offsets(tCol, tiles.threadN, tiles.n);
  }
  int64_t accM = rows.size(), accN = cols.size();

  Value fzero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  SmallVector<Value> init(accM * accN, fzero);
  Stage planA = planStage(lhs, dims.m, m0, sizeM, tiles.m, tid);
  Stage planB = planStage(rhs, dims.n, n0, sizeN, tiles.n, tid);
  auto stageBoth = [&](ArrayRef<Value> a, ArrayRef<Value> c) {
    storeStage(planA, a, sA);
    storeStage(planB, c, sB);
    gpu::BarrierOp::create(b, loc);
  };
  // With prefetching, the first slice is staged before the loop, and each
  // iteration loads the next slice into registers before it computes on
  // the staged one, so that the loads' latency overlaps the products.
  // (One statement per load: the order of the loads in the kernel must not
  // depend on the C++ compiler's order of evaluating arguments.)
  auto stageAt = [&](Value k) {
    SmallVector<Value> a = loadStage(planA, k, batch);
    SmallVector<Value> c = loadStage(planB, k, batch);
    stageBoth(a, c);
  };
  if (tiles.prefetch)
    stageAt(index(0));
  auto kLoop =
      scf::ForOp::create(b, loc, index(0), sizeK, index(tiles.k), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value k0 = kLoop.getInductionVar();
    SmallVector<Value> nextA, nextB;
    if (tiles.prefetch) {
      Value k1 = arith::AddIOp::create(b, loc, k0, index(tiles.k));
      nextA = loadStage(planA, k1, batch);
      nextB = loadStage(planB, k1, batch);
    } else {
      stageAt(k0);
    }
    SmallVector<Value> acc(kLoop.getRegionIterArgs());

    for (int64_t kk = 0; tiles.mma() && kk < tiles.k; kk += tiles.mmaK())
      if (tiles.half)
        mmaStepHalf(sA, sB, index(kk), warp, acc, accN);
      else
        mmaStep(sA, sB, index(kk), warp, acc, accN);
    for (int64_t kk = 0; !tiles.mma() && kk < tiles.k; ++kk) {
      Value kIndex = index(kk);
      SmallVector<Value> a, c;
      for (Value r : rows)
        a.push_back(memref::LoadOp::create(b, loc, sA, ValueRange{kIndex, r}));
      for (Value col : cols)
        c.push_back(
            memref::LoadOp::create(b, loc, sB, ValueRange{kIndex, col}));
      auto contract = arith::FastMathFlagsAttr::get(
          b.getContext(), arith::FastMathFlags::contract);
      for (int64_t i = 0; i < tiles.threadM; ++i)
        for (int64_t j = 0; j < tiles.threadN; ++j) {
          Value &v = acc[i * tiles.threadN + j];
          Value p = arith::MulFOp::create(b, loc, a[i], c[j], contract);
          v = arith::AddFOp::create(b, loc, v, p, contract);
        }
    }
    gpu::BarrierOp::create(b, loc);
    if (tiles.prefetch)
      stageBoth(nextA, nextB);
    scf::YieldOp::create(b, loc, acc);
  }
  // out = init + acc inside the output (init: out's element, or the
  // prologue's), then the epilogue on it.
  SmallVector<Value> loops(op.getNumLoops(), index(0));
  for (auto [d, value] : llvm::zip(dims.batch, batch))
    loops[d] = value;
  for (int64_t i = 0; i < accM; ++i) {
    Value m = arith::AddIOp::create(b, loc, m0, rows[i]);
    Value inM =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, m, sizeM);
    auto ifM = scf::IfOp::create(b, loc, inM, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifM.getThenRegion().front());
    delinearize(m, dims.m, loops);
    for (int64_t j = 0; j < accN; ++j) {
      Value n = arith::AddIOp::create(b, loc, n0, cols[j]);
      Value inN =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, n, sizeN);
      auto ifN = scf::IfOp::create(b, loc, inN, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(&ifN.getThenRegion().front());
      delinearize(n, dims.n, loops);
      SmallVector<Value> indices = operandIndices(out, loops);
      Value init = emitOutputElement(b, loc, fusion, out, indices);
      Value sum =
          arith::AddFOp::create(b, loc, init, kLoop.getResult(i * accN + j));
      emitStoreOutputElement(b, loc, fusion, out, indices, sum);
    }
  }
  gpu::TerminatorOp::create(b, loc);
  return padded.has_value();
}

/// The tiles for a product of static sizes `m` x `n` in `batch` blocks
/// deep: `base` where its grid has at least `minBlocks` blocks (0: always),
/// otherwise the first of smaller tiles (64x64 with 8x8 a thread, then
/// 64x32 and 32x32 with 4x4) whose grid does, or the one of them with the
/// most blocks. A product too small to fill the GPU with base's tiles (a
/// batch-1 BERT's 128 rows, ResNet's last 7x7 convolutions) spreads over
/// more of its multiprocessors.
static Tiles tilesFor(const Tiles &base, int64_t minBlocks, int64_t m,
                      int64_t n, int64_t batch) {
  auto blocks = [&](const Tiles &t) {
    return (m + t.m - 1) / t.m * ((n + t.n - 1) / t.n) * batch;
  };
  if (minBlocks <= 0 || blocks(base) >= minBlocks)
    return base;
  Tiles best = base;
  for (auto [tm, tn, thm, thn] : {std::array<int64_t, 4>{64, 64, 8, 8},
                                  std::array<int64_t, 4>{64, 32, 4, 4},
                                  std::array<int64_t, 4>{32, 32, 4, 4}}) {
    Tiles t{tm, tn, base.k, thm, thn, base.prefetch, base.tf32, base.half};
    if (tm * tn >= base.m * base.n || !t.valid() || blocks(t) <= blocks(best))
      continue;
    best = t;
    if (blocks(t) >= minBlocks)
      break;
  }
  return best;
}

struct GPUContractionKernels
    : public onnx::impl::GPUContractionKernelsBase<GPUContractionKernels> {
  using Base::Base;

  /// A convolution's image that is a zero-padded copy made for it alone
  /// (matchPaddedImage) which its kernel may read the source of instead
  /// (redirectSourceWrites), with `pad-images`.
  std::optional<PaddedImage>
  readThroughZeroPadding(const KernelMatch<Dims> &match) {
    linalg::LinalgOp op = match.op;
    if (!padImages || !linalg::isaConvolutionOpInterface(op))
      return std::nullopt;
    std::optional<PaddedImage> padded =
        matchPaddedImage(op, op->getOpOperand(match.info.rhs), match.fusion);
    auto zero = padded ? dyn_cast<FloatAttr>(padded->value) : FloatAttr();
    if (!zero || !zero.getValue().isPosZero() ||
        !redirectSourceWrites(op, match.fusion, match.anchor(), *padded))
      return std::nullopt;
    return padded;
  }

  void runOnOperation() override {
    Tiles tiles{tileM, tileN, tileK, threadM, threadN, prefetch, tf32};
    if (!Tiles{tileM, tileN, tileK, threadM, threadN, prefetch, false}
             .valid()) {
      getOperation().emitError()
          << "onnx-gpu-contraction-kernels: tiles " << tiles.m << "x" << tiles.n
          << "x" << tiles.k << " with " << tiles.threadM << "x" << tiles.threadN
          << " per thread do not divide into whole warps (threads per block "
             "a multiple of 32 up to 1024, each staging whole elements)";
      return signalPassFailure();
    }
    if (!tiles.valid()) {
      getOperation().emitError()
          << "onnx-gpu-contraction-kernels: with tf32, the tile " << tiles.m
          << "x" << tiles.n << "x" << tiles.k << " must be staged in multiples "
          << "of 8 deep and split into 16x8 tiles among its " << tiles.warps()
          << " warps";
      return signalPassFailure();
    }
    // The tensor cores' TF32, f16 and bf16 products (LLVM's NVPTX back end
    // would fail to select them for an older chip).
    unsigned version = 0;
    llvm::StringRef chipName = chip;
    if ((tf32 || half) &&
        (!chipName.consume_front("sm_") ||
         chipName.consumeInteger(10, version) || version < 80)) {
      // (At the function's location: the function itself would be printed
      // after the message.)
      mlir::emitError(getOperation().getLoc())
          << "onnx-gpu-contraction-kernels: " << (tf32 ? "tf32" : "half-mma")
          << " (the tensor cores' " << (tf32 ? "TF32" : "f16/bf16")
          << " products) needs sm_80 or newer, not " << chip;
      return signalPassFailure();
    }
    // With half, the products of f16 or bf16 operands: the same tiles
    // staged at least 16 deep, in multiples of 16.
    Tiles halfTiles = tiles;
    halfTiles.tf32 = false;
    halfTiles.half = true;
    halfTiles.k = llvm::alignTo(tiles.k, 16);
    if (half && !halfTiles.valid()) {
      getOperation().emitError()
          << "onnx-gpu-contraction-kernels: with half-mma, the tile " << tiles.m
          << "x" << tiles.n << " must split into 16x8 tiles among "
          << "its " << tiles.warps() << " warps";
      return signalPassFailure();
    }
    for (auto &match : matchKernelOps<Dims>(
             getOperation(), fuse,
             [](linalg::LinalgOp op) -> std::optional<Dims> {
               if (std::optional<Dims> dims = matchContraction(op))
                 return dims;
               return matchConvolution(op);
             })) {
      linalg::LinalgOp op = match.op;
      OpBuilder b(match.anchor());
      if (testOnCPU) {
        std::optional<PaddedImage> padded = readThroughZeroPadding(match);
        buildFusedLoops(
            b, op.getLoc(), op, match.fusion, b.getF32FloatAttr(0),
            [](OpBuilder &b, Location loc, Value init, Value sum) -> Value {
              return arith::AddFOp::create(b, loc, init, sum);
            },
            /*parallel=*/false, padded ? &*padded : nullptr);
        eraseFused(match.fusion, op);
        if (padded)
          erasePaddedImage(*padded);
        continue;
      }
      Location loc = op.getLoc();
      SmallVector<Value> sizes;
      for (Range range : op.createLoopRanges(b, loc))
        sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
      // With static sizes, tiles that give the grid enough blocks.
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      auto extent = [&](ArrayRef<unsigned> dims) -> int64_t {
        int64_t product = 1;
        for (unsigned d : dims)
          product =
              ShapedType::isDynamic(ranges[d]) || ShapedType::isDynamic(product)
                  ? ShapedType::kDynamic
                  : product * ranges[d];
        return product;
      };
      const Dims &dims = match.info;
      int64_t m = extent(dims.m), n = extent(dims.n),
              batch = extent(dims.batch);
      Tiles chosen = half && hasHalfOperands(op) ? halfTiles : tiles;
      if (!ShapedType::isDynamic(m) && !ShapedType::isDynamic(n) &&
          !ShapedType::isDynamic(batch))
        chosen = tilesFor(chosen, minBlocks, m, n, batch);
      std::optional<PaddedImage> padded = readThroughZeroPadding(match);
      bool readsSource =
          KernelBuilder(b, loc, op, match.info, chosen, match.fusion, padded)
              .build(sizes);
      eraseFused(match.fusion, op);
      // The padded buffer is no longer read: it, its fill and its copy go.
      if (readsSource)
        erasePaddedImage(*padded);
    }
  }
};

} // namespace
