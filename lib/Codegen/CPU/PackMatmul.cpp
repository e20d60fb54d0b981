//===- PackMatmul.cpp - Matmuls to mmt4d on register-sized tiles ----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// linalg.matmul C[M,N] += A[M,K] * B[K,N] with static f32 operands becomes
//   Ap = pack A  -> [M1, K, m0, 1]     (rows of A in tiles of m0)
//   Bp = pack B  -> [N1, K, n0, 1]     (columns of B in tiles of n0)
//   Cp = mmt4d(Ap, Bp, pack C or fill) -> [M1, N1, m0, n0]
//   C  = unpack Cp
// so that the tile loop of onnx-cpu-tile-and-vectorize reads one register of
// Bp and m0 scalars of Ap per step of k, and keeps m0 accumulators of n0
// lanes in registers. An operand that is a constant is packed here, once,
// into a new dense_resource blob.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Codegen/CPU/CPUTarget.h"
#include "OnnxDialect/Codegen/CPU/Passes.h"
#include "Winograd.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_CPUPACKMATMUL
#include "OnnxDialect/Codegen/CPU/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// How one 2-D operand is packed: `tile` rows of the dim `tiled` together,
/// outer dims [ceil(size(tiled) / tile), size(other)].
struct PackSpec {
  int64_t tiled; // 0 or 1: the dim cut into tiles of `tile`
  int64_t tile;
};

RankedTensorType packedType(RankedTensorType type, PackSpec spec) {
  int64_t tiledSize = type.getDimSize(spec.tiled);
  int64_t otherSize = type.getDimSize(1 - spec.tiled);
  return RankedTensorType::get(
      {llvm::divideCeilSigned(tiledSize, spec.tile), otherSize, spec.tile, 1},
      type.getElementType());
}

/// The packed constants made by one run of the pass, by source constant,
/// transposition and packing: a weight that several matmuls read (the
/// micro-batches of a pipeline stage, a weight shared by layers) is packed
/// once and its blob shared.
using PackedConstants =
    llvm::DenseMap<std::tuple<Attribute, int64_t, int64_t, int64_t>, Attribute>;

/// The packed form of a constant, computed here: element [t][o][i][0] is
/// source[t * tile + i] along the tiled dim and o along the other, zero past
/// the end. A transposed constant (Gemm's transB, MatMul of a transposed
/// initializer) is read through the transpose.
Value packConstant(OpBuilder &b, Location loc, Value source, PackSpec spec,
                   PackedConstants *cache) {
  float splat = 0;
  bool transposed = false;
  Value stored = source;
  if (auto transpose = source.getDefiningOp<linalg::TransposeOp>())
    if (transpose.getPermutation() == ArrayRef<int64_t>{1, 0}) {
      stored = transpose.getInput();
      transposed = true;
    }
  // A static slice of a constant with unit strides whose other dims are 1
  // (one direction's weights of an LSTM's [directions, 4H, I] W and R):
  // the 2-D matrix at a row offset of the constant.
  int64_t sliceOffset = 0;
  auto slice = stored.getDefiningOp<tensor::ExtractSliceOp>();
  bool sliced = static_cast<bool>(slice);
  if (slice) {
    RankedTensorType from = slice.getSourceType();
    if (!from.hasStaticShape() || !slice.getResultType().hasStaticShape() ||
        !llvm::all_of(slice.getStaticStrides(),
                      [](int64_t s) { return s == 1; }) ||
        ShapedType::isDynamicShape(slice.getStaticOffsets()) ||
        ShapedType::isDynamicShape(slice.getStaticSizes()))
      return {};
    // Every dim but the last two kept whole or cut to one element, the last
    // two whole: the slice is one contiguous block.
    ArrayRef<int64_t> sizes = slice.getStaticSizes(),
                      offsets = slice.getStaticOffsets();
    int64_t rank = from.getRank();
    if (rank < 2 || sizes[rank - 1] != from.getDimSize(rank - 1) ||
        sizes[rank - 2] != from.getDimSize(rank - 2) ||
        slice.getResultType().getRank() != 2)
      return {};
    int64_t stride = from.getDimSize(rank - 1) * from.getDimSize(rank - 2);
    for (int64_t d = rank - 3; d >= 0; --d) {
      if (sizes[d] != 1)
        return {};
      sliceOffset += offsets[d] * stride;
      stride *= from.getDimSize(d);
    }
    stored = slice.getSource();
  }
  std::optional<ArrayRef<float>> data =
      constantData(stored, splat, /*words=*/true);
  if (!data)
    return {};
  if (!data->empty())
    data = data->drop_front(sliceOffset);
  auto type = cast<RankedTensorType>(source.getType());
  RankedTensorType packed = packedType(type, spec);
  auto key =
      std::make_tuple(stored.getDefiningOp<arith::ConstantOp>().getValue(),
                      int64_t(transposed), spec.tiled, spec.tile);
  // A slice is packed anew (the key would need its offset).
  if (sliced)
    cache = nullptr;
  if (cache)
    if (Attribute done = cache->lookup(key))
      return arith::ConstantOp::create(b, loc, packed, cast<TypedAttr>(done));
  if (data->empty()) {
    Attribute value =
        packed.getElementType().isF32()
            ? Attribute(b.getF32FloatAttr(splat))
            : Attribute(b.getI32IntegerAttr(llvm::bit_cast<int32_t>(splat)));
    return arith::ConstantOp::create(b, loc, packed,
                                     SplatElementsAttr::get(packed, value));
  }
  int64_t cols = type.getDimSize(1);
  int64_t tiles = packed.getDimSize(0), other = packed.getDimSize(1);
  AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
      packed.getNumElements() * sizeof(float), alignof(float) * 16);
  MutableArrayRef<float> out(
      reinterpret_cast<float *>(blob.getMutableData().data()),
      packed.getNumElements());
  for (int64_t t = 0; t < tiles; ++t)
    for (int64_t o = 0; o < other; ++o)
      for (int64_t i = 0; i < spec.tile; ++i) {
        int64_t along = t * spec.tile + i;
        int64_t row = spec.tiled == 0 ? along : o;
        int64_t col = spec.tiled == 0 ? o : along;
        int64_t index =
            transposed ? col * type.getDimSize(0) + row : row * cols + col;
        float value = along < type.getDimSize(spec.tiled) ? (*data)[index] : 0;
        out[(t * other + o) * spec.tile + i] = value;
      }
  auto attr = DenseResourceElementsAttr::get(packed, "onnx_packed_weights",
                                             std::move(blob));
  if (cache)
    (*cache)[key] = attr;
  return arith::ConstantOp::create(b, loc, packed, attr);
}

/// linalg.pack of a 2-D operand as `spec` says, zero-padded.
Value packOperand(OpBuilder &b, Location loc, Value source, PackSpec spec,
                  PackedConstants *cache = nullptr) {
  if (Value constant = packConstant(b, loc, source, spec, cache))
    return constant;
  auto type = cast<RankedTensorType>(source.getType());
  RankedTensorType packed = packedType(type, spec);
  Value dest = tensor::EmptyOp::create(b, loc, packed.getShape(),
                                       packed.getElementType());
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  SmallVector<int64_t> innerDims = {spec.tiled, 1 - spec.tiled};
  SmallVector<int64_t> outerPerm;
  if (spec.tiled == 1)
    outerPerm = {1, 0};
  SmallVector<OpFoldResult> tiles = {b.getIndexAttr(spec.tile),
                                     b.getIndexAttr(1)};
  return linalg::PackOp::create(b, loc, source, dest, innerDims, tiles, zero,
                                outerPerm)
      .getResult();
}

/// Succeeds for a linalg op on tensors whose operands all have static shapes
/// (but for their leading `dynamicLeading` dims) and f32 elements (with
/// `words`, i32 elements also, the same for every operand): what the
/// rewrites below handle.
LogicalResult matchStaticF32(PatternRewriter &rewriter, linalg::LinalgOp op,
                             int64_t dynamicLeading = 0, bool words = false) {
  if (!op.hasPureTensorSemantics())
    return rewriter.notifyMatchFailure(op, "on buffers");
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || ShapedType::isDynamicShape(type.getShape().drop_front(
                     std::min<int64_t>(dynamicLeading, type.getRank()))))
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    Type element = type.getElementType();
    if (!isPackedElementType(element, words) ||
        element != getElementTypeOrSelf(op->getOperand(0).getType()))
      return rewriter.notifyMatchFailure(op, "element type");
  }
  return success();
}

/// The operands of a (batched) matmul with the default operand maps and
/// static f32 operands (but for `dynamicLeading` dims), and their types;
/// failure for any other.
struct PlainProduct {
  Value lhs, rhs, init;
  RankedTensorType lhsType, rhsType, initType;
};
template <typename ProductOp>
FailureOr<PlainProduct> matchPlainProduct(PatternRewriter &rewriter,
                                          ProductOp op,
                                          int64_t dynamicLeading = 0) {
  if (op.hasUserDefinedMaps())
    return rewriter.notifyMatchFailure(op, "transposed operands");
  // (Also i32 products, MatMulInteger's of its operands less their zero
  // points: every operand of the same type, so the op casts nothing.)
  if (failed(matchStaticF32(rewriter, op, dynamicLeading, /*words=*/true)))
    return failure();
  PlainProduct p{op.getDpsInputs()[0], op.getDpsInputs()[1],
                 op.getDpsInits()[0]};
  p.lhsType = cast<RankedTensorType>(p.lhs.getType());
  p.rhsType = cast<RankedTensorType>(p.rhs.getType());
  p.initType = cast<RankedTensorType>(p.init.getType());
  return p;
}

/// The rows of a register tile for a product of `m` rows: a short M gets a
/// short tile (no rows of zeros multiplied), and so does an M that half
/// tiles divide and whole ones do not (24 or 40 channels: 8-row tiles, not a
/// last tile half of zeros).
int64_t rowTile(const CPUTarget &target, int64_t m) {
  int64_t m0 = std::min<int64_t>(target.matmulTileM(),
                                 llvm::PowerOf2Ceil(static_cast<uint64_t>(m)));
  if (m % m0 != 0 && m0 % 2 == 0 && m % (m0 / 2) == 0)
    m0 /= 2;
  return m0;
}

/// The columns of a register tile with `m0` rows: one vector register, or
/// with fewer than 8 rows (1 x 128 with AVX-512: a matrix-vector product, an
/// LSTM step, a classifier) enough registers for at least 8 accumulators, so
/// that the latency of one FMA chain does not set the pace, up to the width
/// of N. With more than one row, the tile's m0 x v accumulators, its v
/// vectors of the right operand and a broadcast must fit the register file
/// (7 x 16 with AVX2 needed 17 of 16 registers, and LLVM spilled
/// accumulators in the k loop: a 1x1 convolution, 320 -> 1280 channels on
/// 7x7, took 1.04-1.09 ms so and 0.73-0.77 ms in 7 x 8 tiles; a 3x3 one by
/// rows, 512 channels on 7x7, 13.8-14.1 ms and 8.1-8.4 ms).
int64_t columnTile(const CPUTarget &target, int64_t m0, int64_t n) {
  int64_t n0 = target.matmulTileN();
  if (m0 < 8) {
    int64_t vectors = llvm::divideCeilSigned(8, m0);
    if (m0 > 1)
      vectors = std::max<int64_t>(
          1,
          std::min<int64_t>(vectors, (target.vectorRegisters - 1) / (m0 + 1)));
    n0 = std::min<int64_t>(
        n0 * vectors,
        std::max<int64_t>(n0, static_cast<int64_t>(
                                  llvm::bit_floor(static_cast<uint64_t>(n)))));
  }
  return n0;
}

/// The most rows of a register tile sized to a narrow dim (a map's 7 or 14
/// columns, the positions of a 7x7 map): the rows of the usual tile, and
/// at least 8 (AVX2's usual 6 would leave 7x7 maps without a divisor).
int64_t narrowTileLimit(const CPUTarget &target) {
  return std::max<int64_t>(target.matmulTileM(), 8);
}

/// Whether an m0 x n0 register tile has the 8 accumulators that keep two
/// FMA units busy through their latency. A transposed product whose narrow
/// tile has fewer (7 x 8 with AVX2's 16 registers, the most of 7 rows that
/// fit) is slower than the usual tiles over padded columns: a 1x1
/// convolution, 320 -> 1280 channels on 7x7, took 0.71-0.73 ms in 7 x 8
/// tiles and 0.62-0.66 ms in 6 x 16 ones over 64 columns for 49. (A direct
/// convolution by rows keeps its 7 x 8 tiles: a 3x3 one, 512 channels on
/// 7x7, took 3.9-4.0 ms so and 4.7 ms or more over padded positions.)
bool enoughAccumulators(const CPUTarget &target, int64_t m0, int64_t n0) {
  return m0 * (n0 / target.matmulTileN()) >= 8;
}

/// Padded multiply-adds per reduction step of an M x N product in m0 x n0
/// tiles.
int64_t paddedWork(int64_t m, int64_t m0, int64_t n, int64_t n0) {
  return llvm::divideCeilSigned(m, m0) * m0 * llvm::divideCeilSigned(n, n0) *
         n0;
}

/// The product of packed operands into an accumulator laid out as `init`
/// packed with `innerDimsPos` and `outerDimsPerm` into `accType`: a fill of
/// `init`'s fill value, else `init` packed; then linalg.mmt4d and the
/// unpacking into a tensor of `init`'s type.
Value quadProductOp(OpBuilder &b, Location loc, Value lhsPacked,
                    Value rhsPacked, Value acc);

Value packedProduct(OpBuilder &b, Location loc, Value lhsPacked,
                    Value rhsPacked, Value init, RankedTensorType accType,
                    ArrayRef<int64_t> innerDimsPos,
                    ArrayRef<int64_t> outerDimsPerm, bool quads = false) {
  SmallVector<OpFoldResult> tiles = {b.getIndexAttr(accType.getDimSize(2)),
                                     b.getIndexAttr(accType.getDimSize(3))};
  Value empty = tensor::EmptyOp::create(b, loc, accType.getShape(),
                                        accType.getElementType());
  Value acc;
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    acc =
        linalg::FillOp::create(b, loc, fill.getInputs()[0], empty).getResult(0);
  } else {
    Value zero = arith::ConstantOp::create(
        b, loc, b.getZeroAttr(accType.getElementType()));
    acc = linalg::PackOp::create(b, loc, init, empty, innerDimsPos, tiles, zero,
                                 outerDimsPerm)
              .getResult();
  }
  Value product = quads ? quadProductOp(b, loc, lhsPacked, rhsPacked, acc)
                        : linalg::Mmt4DOp::create(
                              b, loc, TypeRange{accType},
                              ValueRange{lhsPacked, rhsPacked}, ValueRange{acc})
                              .getResult(0);
  auto initType = cast<RankedTensorType>(init.getType());
  Value dest = tensor::EmptyOp::create(b, loc, initType.getShape(),
                                       initType.getElementType());
  return linalg::UnPackOp::create(b, loc, product, dest, innerDimsPos, tiles,
                                  outerDimsPerm)
      .getResult();
}

/// An operand of a quantized product as its lowering computes it (an
/// elementwise linalg.generic yielding ext(a) or ext(a) - ext(z) of 8-bit
/// inputs): the 8-bit `source` read through `sourceMap`, extended signed or
/// unsigned, less the 8-bit `zeroPoint` read through `zeroPointMap` (over
/// the operand's dims) and extended as `zeroPointSigned` says, when there is
/// one.
struct Widened8Bit {
  Value source;
  AffineMap sourceMap;
  bool isSigned = false;
  Value zeroPoint;
  AffineMap zeroPointMap;
  bool zeroPointSigned = false;
};

std::optional<Widened8Bit> widened8Bit(Value value) {
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic->getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return std::nullopt;
  // The input that `v` extends, and whether signed.
  auto widened = [&](Value v) -> std::optional<std::pair<OpOperand *, bool>> {
    Operation *ext = v.getDefiningOp();
    if (!isa_and_nonnull<arith::ExtSIOp, arith::ExtUIOp>(ext))
      return std::nullopt;
    auto arg = dyn_cast<BlockArgument>(ext->getOperand(0));
    if (!arg || arg.getOwner() != generic.getBody() ||
        !arg.getType().isInteger(8))
      return std::nullopt;
    OpOperand *operand = generic.getMatchingOpOperand(arg);
    if (!generic.isDpsInput(operand))
      return std::nullopt;
    return std::make_pair(operand, isa<arith::ExtSIOp>(ext));
  };
  Value yielded = generic.getBody()->getTerminator()->getOperand(0);
  auto sub = yielded.getDefiningOp<arith::SubIOp>();
  auto x = widened(sub ? sub.getLhs() : yielded);
  if (!x)
    return std::nullopt;
  Widened8Bit w;
  w.source = x->first->get();
  w.sourceMap = generic.getMatchingIndexingMap(x->first);
  w.isSigned = x->second;
  if (sub) {
    auto z = widened(sub.getRhs());
    if (!z)
      return std::nullopt;
    w.zeroPoint = z->first->get();
    w.zeroPointMap = generic.getMatchingIndexingMap(z->first);
    w.zeroPointSigned = z->second;
  }
  return w;
}

/// Whether `value` holds 8-bit integers widened, or the difference of two
/// (an operand of a quantized operator less its zero point), whose values
/// fit 16 bits.
bool isWidened8Bit(Value value) { return widened8Bit(value).has_value(); }

/// `source` [R, C] packed into [R/tile, C/groups, tile, groups] (the
/// `innerDims` and `outerPerm` of linalg.pack), zero-padded.
Value packGroups(OpBuilder &b, Location loc, Value source,
                 ArrayRef<int64_t> innerDims, int64_t tile, int64_t groups,
                 ArrayRef<int64_t> outerPerm) {
  auto type = cast<RankedTensorType>(source.getType());
  int64_t tiled = innerDims[0];
  SmallVector<int64_t> shape = {
      llvm::divideCeilSigned(type.getDimSize(tiled), tile),
      llvm::divideCeilSigned(type.getDimSize(1 - tiled), groups), tile, groups};
  Value dest = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  return linalg::PackOp::create(b, loc, source, dest, innerDims,
                                ArrayRef<OpFoldResult>{b.getIndexAttr(tile),
                                                       b.getIndexAttr(groups)},
                                zero, outerPerm)
      .getResult();
}

/// The bytes of an 8-bit constant (one byte, `splat`, for a splat), or
/// nothing when they are not in memory.
std::optional<ArrayRef<char>> constantBytes(Value value, int8_t &splat) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return std::nullopt;
  if (auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue())) {
    if (!dense.getElementType().isInteger(8))
      return std::nullopt;
    if (dense.isSplat()) {
      splat = static_cast<int8_t>(dense.getSplatValue<APInt>().getSExtValue());
      return ArrayRef<char>();
    }
    return dense.getRawData();
  }
  if (auto resource =
          dyn_cast<DenseResourceElementsAttr>(constant.getValue())) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    auto type = cast<ShapedType>(resource.getType());
    if (!blob || !type.getElementType().isInteger(8) ||
        blob->getData().size() != static_cast<size_t>(type.getNumElements()))
      return std::nullopt;
    return blob->getData();
  }
  return std::nullopt;
}

/// Whether `value` is a constant whose elements are all zero.
bool isZeroConstant(Value value) {
  DenseIntElementsAttr attr;
  return matchPattern(value, m_Constant(&attr)) && attr.isSplat() &&
         attr.getSplatValue<APInt>().isZero();
}

/// An operand of a quad product that is an 8-bit constant (through a
/// reshape), its bytes xor-ed with `flip`, packed here: the left one, [M,
/// K], into [M/tile, K/4, tile, 4] with the sums of its rows as signed
/// bytes, or the right one, [K, N], into [N/tile, K/4, tile, 4] with the
/// sums of its columns as unsigned bytes ([M] or [N] x i32; zeros past K
/// and past the tiled dim); nothing when its bytes are not in memory.
std::optional<std::pair<Value, Value>>
packQuadConstant(OpBuilder &b, Location loc, Value source, uint8_t flip,
                 int64_t tile, bool isLeft) {
  int8_t splat = 0;
  Value stored = source;
  if (auto collapse = stored.getDefiningOp<tensor::CollapseShapeOp>())
    stored = collapse.getSrc();
  std::optional<ArrayRef<char>> bytes = constantBytes(stored, splat);
  if (!bytes)
    return std::nullopt;
  auto type = cast<RankedTensorType>(source.getType());
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  int64_t k = isLeft ? cols : rows, tiled = isLeft ? rows : cols;
  int64_t k1 = llvm::divideCeilSigned(k, 4);
  int64_t t1 = llvm::divideCeilSigned(tiled, tile);
  // Element (along the tiled dim, along k), flipped.
  auto at = [&](int64_t along, int64_t kk) {
    int64_t index = isLeft ? along * cols + kk : kk * cols + along;
    char byte = bytes->empty() ? splat : (*bytes)[index];
    return static_cast<uint8_t>(static_cast<uint8_t>(byte) ^ flip);
  };
  auto packed = RankedTensorType::get({t1, k1, tile, 4}, b.getIntegerType(8));
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocate(packed.getNumElements(), 64);
  MutableArrayRef<char> out = blob.getMutableData();
  SmallVector<int32_t> sums(tiled, 0);
  for (int64_t t = 0; t < t1; ++t)
    for (int64_t q = 0; q < k1; ++q)
      for (int64_t i = 0; i < tile; ++i)
        for (int64_t g = 0; g < 4; ++g) {
          int64_t along = t * tile + i, kk = q * 4 + g;
          bool inside = along < tiled && kk < k;
          uint8_t value = inside ? at(along, kk) : 0;
          out[((t * k1 + q) * tile + i) * 4 + g] = static_cast<char>(value);
          if (inside)
            sums[along] += isLeft ? static_cast<int8_t>(value) : value;
        }
  auto sumsType = RankedTensorType::get({tiled}, b.getI32Type());
  Value packedValue = arith::ConstantOp::create(
      b, loc, packed,
      DenseResourceElementsAttr::get(packed, "onnx_packed_weights",
                                     std::move(blob)));
  Value sumsValue = arith::ConstantOp::create(
      b, loc, sumsType,
      DenseIntElementsAttr::get(sumsType, ArrayRef<int32_t>(sums)));
  return std::make_pair(packedValue, sumsValue);
}

/// `x` with `fn` applied to each element, into elements of `element`: an
/// elementwise linalg.generic.
Value mapElements(OpBuilder &b, Location loc, Value x, Type element,
                  function_ref<Value(OpBuilder &, Location, Value)> fn) {
  auto type = cast<RankedTensorType>(x.getType());
  auto resultType = type.clone(element);
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), element);
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{x}, ValueRange{empty},
             ArrayRef<AffineMap>{id, id},
             SmallVector<utils::IteratorType>(type.getRank(),
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               linalg::YieldOp::create(nb, nl, fn(nb, nl, args[0]));
             })
      .getResult(0);
}

/// `x` [R, C] x i8 with each byte xor-ed with 0x80: a signed byte's value
/// plus 128 as an unsigned one, or an unsigned byte's less 128 as a signed
/// one.
Value flipBytes(OpBuilder &b, Location loc, Value x) {
  return mapElements(b, loc, x, b.getIntegerType(8),
                     [](OpBuilder &nb, Location nl, Value byte) -> Value {
                       Value mask = arith::ConstantOp::create(
                           nb, nl,
                           nb.getIntegerAttr(nb.getIntegerType(8), -128));
                       return arith::XOrIOp::create(nb, nl, byte, mask);
                     });
}

/// The sums of `x` [R, C] x i8 (bytes extended as `isSigned` says) along
/// its dim `reduced`, [C] or [R] x i32.
Value byteSums(OpBuilder &b, Location loc, Value x, int64_t reduced,
               bool isSigned) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t kept = 1 - reduced;
  Type i32 = b.getI32Type();
  Value empty = tensor::EmptyOp::create(b, loc, {type.getDimSize(kept)}, i32);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(i32));
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  SmallVector<utils::IteratorType> iterators(2, utils::IteratorType::parallel);
  iterators[reduced] = utils::IteratorType::reduction;
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{x}, ValueRange{init},
             ArrayRef<AffineMap>{
                 b.getMultiDimIdentityMap(2),
                 AffineMap::get(2, 0, b.getAffineDimExpr(kept))},
             iterators,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value wide = isSigned
                                ? arith::ExtSIOp::create(nb, nl, i32, args[0])
                                      .getResult()
                                : arith::ExtUIOp::create(nb, nl, i32, args[0])
                                      .getResult();
               linalg::YieldOp::create(
                   nb, nl,
                   arith::AddIOp::create(nb, nl, args[1], wide).getResult());
             })
      .getResult(0);
}

/// The product of quads of signed bytes [M/m0, K/4, m0, 4] and unsigned ones
/// [N/n0, K/4, n0, 4] into `acc` [M/m0, N/n0, m0, n0] x i32: mmt4d's loops
/// and maps, marked kQuadProductAttr.
Value quadProductOp(OpBuilder &b, Location loc, Value lhsPacked,
                    Value rhsPacked, Value acc) {
  MLIRContext *ctx = b.getContext();
  AffineExpr m1, n1, k1, m0, n0, k0;
  bindDims(ctx, m1, n1, k1, m0, n0, k0);
  auto map = [&](ArrayRef<AffineExpr> results) {
    return AffineMap::get(6, 0, results, ctx);
  };
  using utils::IteratorType;
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{acc.getType()}, ValueRange{lhsPacked, rhsPacked},
      ValueRange{acc},
      ArrayRef<AffineMap>{map({m1, k1, m0, k0}), map({n1, k1, n0, k0}),
                          map({m1, n1, m0, n0})},
      ArrayRef<IteratorType>{IteratorType::parallel, IteratorType::parallel,
                             IteratorType::reduction, IteratorType::parallel,
                             IteratorType::parallel, IteratorType::reduction},
      [](OpBuilder &nb, Location nl, ValueRange args) {
        Type i32 = nb.getI32Type();
        Value lhs = arith::ExtSIOp::create(nb, nl, i32, args[0]);
        Value rhs = arith::ExtUIOp::create(nb, nl, i32, args[1]);
        Value product = arith::MulIOp::create(nb, nl, lhs, rhs);
        linalg::YieldOp::create(
            nb, nl,
            arith::AddIOp::create(nb, nl, args[2], product).getResult());
      });
  generic->setAttr(kQuadProductAttr, UnitAttr::get(ctx));
  return generic.getResult(0);
}

/// `value` (i32 holding 16-bit values) truncated to i16.
Value truncateToI16(OpBuilder &b, Location loc, Value value) {
  Type i16 = b.getIntegerType(16);
  return mapElements(b, loc, value, i16,
                     [&](OpBuilder &nb, Location nl, Value v) -> Value {
                       return arith::TruncIOp::create(nb, nl, i16, v);
                     });
}

struct MatmulToMmt4d : OpRewritePattern<linalg::MatmulOp> {
  MatmulToMmt4d(MLIRContext *context, const CPUTarget &target,
                PackedConstants &packed)
      : OpRewritePattern(context), target(target), packed(&packed) {}

  LogicalResult matchAndRewrite(linalg::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<PlainProduct> p = matchPlainProduct(rewriter, op);
    if (failed(p))
      return failure();
    auto [lhs, rhs, init, lhsType, rhsType, initType] = *p;
    int64_t m = lhsType.getDimSize(0), k = lhsType.getDimSize(1),
            n = rhsType.getDimSize(1);
    if (m == 0 || n == 0 || k == 0)
      return rewriter.notifyMatchFailure(op, "empty");

    // A narrow N keeps a full register, its tail padded.
    int64_t m0 = rowTile(target, m);
    int64_t n0 = columnTile(target, m0, n);
    Location loc = op.getLoc();
    if (succeeded(quadProduct(rewriter, op, *p, m0, n0)))
      return success();
    if (succeeded(pairedProduct(rewriter, op, *p, m0, n0)))
      return success();
    if (succeeded(transposed(rewriter, op, *p, m0, n0)))
      return success();
    Value lhsPacked = packOperand(rewriter, loc, lhs, {0, m0}, packed);
    Value rhsPacked = packOperand(rewriter, loc, rhs, {1, n0}, packed);

    auto accType = RankedTensorType::get(
        {llvm::divideCeilSigned(m, m0), llvm::divideCeilSigned(n, n0), m0, n0},
        lhsType.getElementType());
    Value result = packedProduct(rewriter, loc, lhsPacked, rhsPacked, init,
                                 accType, {0, 1}, {});
    rewriter.replaceOp(op, result);
    return success();
  }

  /// An i32 product of 8-bit values less their zero points, (A - za)(B -
  /// zb), with AVX-512 VNNI on the bytes themselves: `vpdpbusd` multiplies
  /// quads of signed bytes by quads of unsigned ones and sums each quad's
  /// four products into a 32-bit lane, 64 multiply-adds an instruction (the
  /// 16-bit pairs of pairedProduct below take 32). A as signed bytes As (an
  /// unsigned A's bytes xor-ed with 0x80: A - 128, its zero point less 128
  /// too) and B as unsigned ones Bu (a signed B's plus 128 likewise) leave
  /// (A - za)(B - zb) = (As - zas)(Bu - zbu), so that
  ///   C = sum_k As Bu - zbu rowsum(As) - zas colsum(Bu) + K zas zbu
  /// with the product of packed quads, [M/m0, K/4, m0, 4] x [N/n0, K/4, n0,
  /// 4] (K padded with zeros, which add nothing), and the corrections an
  /// elementwise op on its unpacked result: exact, the accumulators wrapping
  /// as the i32 product's. A constant operand (B, or a convolution's
  /// filter A) is packed here, with its sums; zero points are per row of A
  /// and per column of B, or scalars.
  LogicalResult quadProduct(PatternRewriter &rewriter, linalg::MatmulOp op,
                            const PlainProduct &p, int64_t m0,
                            int64_t n0) const {
    // (Tiles of fewer than 8 rows are several registers of columns wide: a
    // vpdpbusd per row and register.)
    if (!target.hasVNNI || !p.lhsType.getElementType().isInteger(32) ||
        target.lanes(32) != 16 || n0 % 16 != 0)
      return failure();
    std::optional<Widened8Bit> a = widened8Bit(p.lhs), b = widened8Bit(p.rhs);
    if (!a || !b || !a->sourceMap.isIdentity() || !b->sourceMap.isIdentity() ||
        (a->zeroPoint && (a->zeroPointMap.isFunctionOfDim(1) ||
                          a->zeroPointSigned != a->isSigned)) ||
        (b->zeroPoint && (b->zeroPointMap.isFunctionOfDim(0) ||
                          b->zeroPointSigned != b->isSigned)))
      return failure();
    Location loc = op.getLoc();
    int64_t m = p.lhsType.getDimSize(0), k = p.lhsType.getDimSize(1),
            n = p.rhsType.getDimSize(1);
    Type i32 = rewriter.getI32Type();
    Value lhsPacked, rowSums;
    // (Computed when needed below.)
    Value lhs;
    if (auto constant = packQuadConstant(rewriter, loc, a->source,
                                         a->isSigned ? 0 : 0x80, m0,
                                         /*isLeft=*/true)) {
      std::tie(lhsPacked, rowSums) = *constant;
    } else {
      lhs = a->isSigned ? a->source : flipBytes(rewriter, loc, a->source);
      lhsPacked = packGroups(rewriter, loc, lhs, {0, 1}, m0, 4, {});
    }
    Value rhsPacked, columnSums;
    uint8_t flip = b->isSigned ? 0x80 : 0;
    if (auto constant = packQuadConstant(rewriter, loc, b->source, flip, n0,
                                         /*isLeft=*/false)) {
      std::tie(rhsPacked, columnSums) = *constant;
    } else {
      Value rhs = b->isSigned ? flipBytes(rewriter, loc, b->source) : b->source;
      rhsPacked = packGroups(rewriter, loc, rhs, {1, 0}, n0, 4, {1, 0});
      columnSums = byteSums(rewriter, loc, rhs, 0, /*isSigned=*/false);
    }
    // The zero points as the packed operands see them (zas, zbu): known zero
    // when A is signed and B unsigned with no (or zero) zero points, whose
    // corrections are left out.
    bool zasZero =
        a->isSigned && (!a->zeroPoint || isZeroConstant(a->zeroPoint));
    bool zbuZero =
        !b->isSigned && (!b->zeroPoint || isZeroConstant(b->zeroPoint));
    if (zbuZero)
      rowSums = Value();
    else if (!rowSums)
      rowSums = byteSums(rewriter, loc, lhs, 1, /*isSigned=*/true);

    auto accType = RankedTensorType::get(
        {llvm::divideCeilSigned(m, m0), llvm::divideCeilSigned(n, n0), m0, n0},
        i32);
    Value empty = tensor::EmptyOp::create(rewriter, loc, {m, n}, i32);
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(i32));
    Value zeroInit =
        linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    Value product = packedProduct(rewriter, loc, lhsPacked, rhsPacked, zeroInit,
                                  accType, {0, 1}, {}, /*quads=*/true);

    // C = product - zbu rowsum - zas colsum + K zas zbu (+ the init, unless
    // a fill of zero).
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr dm, dn;
    bindDims(ctx, dm, dn);
    AffineMap id = AffineMap::getMultiDimIdentityMap(2, ctx);
    SmallVector<Value> inputs = {product};
    SmallVector<AffineMap> maps = {id};
    auto add = [&](Value value, AffineMap map) {
      inputs.push_back(value);
      maps.push_back(map);
      return static_cast<int64_t>(inputs.size()) - 1;
    };
    int64_t rowSumsAt = rowSums ? add(rowSums, AffineMap::get(2, 0, dm)) : -1;
    int64_t columnSumsAt =
        zasZero ? -1 : add(columnSums, AffineMap::get(2, 0, dn));
    int64_t zaAt = a->zeroPoint ? add(a->zeroPoint, a->zeroPointMap) : -1;
    int64_t zbAt = b->zeroPoint ? add(b->zeroPoint, b->zeroPointMap) : -1;
    // (A convolution's init is its output's fill, reshaped.)
    Value start = p.init;
    while (Operation *reshape = start.getDefiningOp()) {
      if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(reshape))
        break;
      start = reshape->getOperand(0);
    }
    bool zeroFill = false;
    if (auto fill = start.getDefiningOp<linalg::FillOp>())
      zeroFill = matchPattern(fill.getInputs()[0], m_Zero());
    int64_t initAt = zeroFill ? -1 : add(p.init, id);
    maps.push_back(id);
    bool aSigned = a->isSigned, bSigned = b->isSigned;
    auto body = [&](OpBuilder &nb, Location nl, ValueRange args) {
      auto constant = [&](int64_t value) -> Value {
        return arith::ConstantOp::create(nb, nl, nb.getI32IntegerAttr(value));
      };
      auto extend = [&](Value v, bool isSigned) -> Value {
        return isSigned ? arith::ExtSIOp::create(nb, nl, i32, v).getResult()
                        : arith::ExtUIOp::create(nb, nl, i32, v).getResult();
      };
      Value zas = zaAt >= 0 ? extend(args[zaAt], aSigned) : constant(0);
      if (!aSigned)
        zas = arith::SubIOp::create(nb, nl, zas, constant(128));
      Value zbu = zbAt >= 0 ? extend(args[zbAt], bSigned) : constant(0);
      if (bSigned)
        zbu = arith::AddIOp::create(nb, nl, zbu, constant(128));
      Value result = args[0];
      if (rowSumsAt >= 0)
        result = arith::SubIOp::create(
            nb, nl, result,
            arith::MulIOp::create(nb, nl, zbu, args[rowSumsAt]));
      if (columnSumsAt >= 0)
        result = arith::SubIOp::create(
            nb, nl, result,
            arith::MulIOp::create(nb, nl, zas, args[columnSumsAt]));
      if (rowSumsAt >= 0 && columnSumsAt >= 0)
        result = arith::AddIOp::create(
            nb, nl, result,
            arith::MulIOp::create(nb, nl, constant(k),
                                  arith::MulIOp::create(nb, nl, zas, zbu)));
      if (initAt >= 0)
        result = arith::AddIOp::create(nb, nl, result, args[initAt]);
      linalg::YieldOp::create(nb, nl, result);
    };
    Value corrected =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{p.initType}, inputs,
            ValueRange{tensor::EmptyOp::create(rewriter, loc, {m, n}, i32)},
            maps,
            SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
            body)
            .getResult(0);
    rewriter.replaceOp(op, corrected);
    return success();
  }

  /// An i32 product of 8-bit values (less their zero points, which fit 16
  /// bits) with AVX-512 VNNI: both operands truncated to i16 and packed in
  /// pairs of k, [M/m0, K/2, m0, 2] and [N/n0, K/2, n0, 2] (K padded with a
  /// zero), an i16 x i16 -> i32 mmt4d whose register tile
  /// onnx-cpu-lower-vectors computes with one `vpdpwssd` (32 multiply-adds
  /// of 16-bit pairs summed into 32-bit lanes) per row and pair of k, where
  /// 32-bit products take `vpmulld`s of 16. Exact: the pairs' products and
  /// sums fit 32 bits, and the accumulators wrap as the i32 product's.
  LogicalResult pairedProduct(PatternRewriter &rewriter, linalg::MatmulOp op,
                              const PlainProduct &p, int64_t m0,
                              int64_t n0) const {
    if (!target.hasVNNI || !p.lhsType.getElementType().isInteger(32) ||
        n0 != target.lanes(32) || !isWidened8Bit(p.lhs) ||
        !isWidened8Bit(p.rhs))
      return failure();
    Location loc = op.getLoc();
    int64_t m = p.lhsType.getDimSize(0), k = p.lhsType.getDimSize(1),
            n = p.rhsType.getDimSize(1);
    Value lhs = truncateToI16(rewriter, loc, p.lhs);
    Value rhs = truncateToI16(rewriter, loc, p.rhs);
    Type i16 = rewriter.getIntegerType(16);
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(i16));
    int64_t k1 = llvm::divideCeilSigned(k, 2);
    auto pack = [&](Value source, ArrayRef<int64_t> shape,
                    ArrayRef<int64_t> innerDims, int64_t tile,
                    ArrayRef<int64_t> outerPerm) {
      Value dest = tensor::EmptyOp::create(rewriter, loc, shape, i16);
      return linalg::PackOp::create(
                 rewriter, loc, source, dest, innerDims,
                 ArrayRef<OpFoldResult>{rewriter.getIndexAttr(tile),
                                        rewriter.getIndexAttr(2)},
                 zero, outerPerm)
          .getResult();
    };
    Value lhsPacked =
        pack(lhs, {llvm::divideCeilSigned(m, m0), k1, m0, 2}, {0, 1}, m0, {});
    Value rhsPacked = pack(rhs, {llvm::divideCeilSigned(n, n0), k1, n0, 2},
                           {1, 0}, n0, {1, 0});
    auto accType = RankedTensorType::get(
        {llvm::divideCeilSigned(m, m0), llvm::divideCeilSigned(n, n0), m0, n0},
        p.lhsType.getElementType());
    rewriter.replaceOp(op, packedProduct(rewriter, loc, lhsPacked, rhsPacked,
                                         p.init, accType, {0, 1}, {}));
    return success();
  }

  /// C^T = B^T A^T when its tiles pad much less: a narrow N that the vector
  /// width does not divide against an M that it does (a 1x1 convolution's
  /// 7x7 = 49 positions against 2048 filters: 49 rows in tiles of 7 rather
  /// than 49 columns padded to 64). Packing B as a right operand with tiles
  /// of m0 rows lays out B^T as a left operand, and packing A as a left
  /// operand lays out A^T as a right one; the product is unpacked into C
  /// through the transposition.
  LogicalResult transposed(PatternRewriter &rewriter, linalg::MatmulOp op,
                           const PlainProduct &p, int64_t m0,
                           int64_t n0) const {
    int64_t m = p.lhsType.getDimSize(0), n = p.rhsType.getDimSize(1);
    int64_t lanes = target.matmulTileN();
    if (n % lanes == 0 || m % lanes != 0 || n > 256)
      return failure();
    // The rows of C^T in tiles of a divisor of N (no padding), 5 or more,
    // when such tiles have enough accumulators. Else, for a long reduction,
    // the usual tiles, the last one padded: 49 positions in 9 tiles of 6
    // rows (54) rather than 49 columns in 4 of 16 (64). With AVX2, per
    // kernel (`onnx-run --profile`, 3 alternated runs, 2026-11-29): ResNet-50's
    // 1024 -> 2048 channels with strides of 2 to 7x7, 3.7-3.9 ms, took
    // 0.33-0.68 ms less, its 512 -> 2048 ones (1.8-1.9 ms) 0.12-0.30 ms less;
    // MobileNetV2's 960 -> 320 on 7x7 (0.51-0.54 ms) 0.03-0.07 ms less. A
    // reduction short enough to be computed in its epilogue's tiles
    // (CPUTarget::maxFusedReduction) stores those tiles through the
    // transposition, which made MobileNetV2's 160 -> 960 on 7x7 0.06-0.09 ms
    // slower (0.25 ms).
    int64_t columns = 0;
    int64_t rows = largestDivisor(n, std::min(n, narrowTileLimit(target)), 5);
    if (rows != 0) {
      columns = columnTile(target, rows, m);
      if (!enoughAccumulators(target, rows, columns))
        rows = 0;
    }
    if (rows == 0 && p.lhsType.getDimSize(1) > target.maxFusedReduction()) {
      rows = rowTile(target, n);
      columns = columnTile(target, rows, m);
    }
    if (rows == 0 || !enoughAccumulators(target, rows, columns))
      return failure();
    // At least a tenth less work.
    if (10 * paddedWork(n, rows, m, columns) > 9 * paddedWork(m, m0, n, n0))
      return failure();
    Location loc = op.getLoc();
    Value lhsPacked = packOperand(rewriter, loc, p.rhs, {1, rows}, packed);
    Value rhsPacked = packOperand(rewriter, loc, p.lhs, {0, columns}, packed);
    auto accType = RankedTensorType::get({llvm::divideCeilSigned(n, rows),
                                          llvm::divideCeilSigned(m, columns),
                                          rows, columns},
                                         p.lhsType.getElementType());
    rewriter.replaceOp(op, packedProduct(rewriter, loc, lhsPacked, rhsPacked,
                                         p.init, accType, {1, 0}, {1, 0}));
    return success();
  }

  CPUTarget target;
  PackedConstants *packed;
};

/// The same constant viewed with `type` (same elements in the same order):
/// a dense_resource shares its blob.
Value reshapeConstant(OpBuilder &b, Location loc, Value value,
                      RankedTensorType type) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return {};
  TypedAttr attr;
  if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
    attr = dense.reshape(type);
  else if (auto resource =
               dyn_cast<DenseResourceElementsAttr>(constant.getValue()))
    attr = DenseResourceElementsAttr::get(type, resource.getRawHandle());
  if (!attr)
    return {};
  return arith::ConstantOp::create(b, loc, type, attr);
}

/// The accumulator of one element (image, matrix) of a batched op inside
/// the loop over the batch: a fill of its own, of type `type`, when the
/// batch's output `fill` is a fill (so that the packed accumulator is a
/// fill, not a pack of the filled output), else `slice()`, its part of the
/// loop's accumulator.
Value elementAccumulator(OpBuilder &b, Location loc, linalg::FillOp fill,
                         RankedTensorType type, function_ref<Value()> slice) {
  if (!fill)
    return slice();
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::FillOp::create(b, loc, fill.getInputs()[0], empty)
      .getResult(0);
}

/// The 8-bit operands of an i32 convolution of 8-bit values less their zero
/// points: the image padded with its zero point where the i32 one was
/// padded with zeros (or not padded), with how to widen its im2col columns,
/// and the filter's widening.
struct NarrowConv {
  Value image;
  Widened8Bit imageWidening;
  Widened8Bit filter;
};

/// `x` x i8 widened as `w` says (extended, less its zero point): a
/// per-filter zero point of a filter [F, ...] is read along dim 0, a scalar
/// one everywhere.
Value rewiden(OpBuilder &b, Location loc, Value x, const Widened8Bit &w) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  Type i32 = b.getI32Type();
  MLIRContext *ctx = b.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  SmallVector<Value> inputs = {x};
  SmallVector<AffineMap> maps = {id};
  if (w.zeroPoint) {
    inputs.push_back(w.zeroPoint);
    maps.push_back(w.zeroPointMap.getNumResults() == 0
                       ? AffineMap::get(rank, 0, ctx)
                       : AffineMap::get(rank, 0, b.getAffineDimExpr(0)));
  }
  maps.push_back(id);
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), i32);
  bool isSigned = w.isSigned;
  return linalg::GenericOp::create(
             b, loc, TypeRange{empty.getType()}, inputs, ValueRange{empty},
             maps,
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               auto extend = [&](Value v) -> Value {
                 return isSigned
                            ? arith::ExtSIOp::create(nb, nl, i32, v).getResult()
                            : arith::ExtUIOp::create(nb, nl, i32, v)
                                  .getResult();
               };
               Value result = extend(args[0]);
               if (args.size() > 2)
                 result =
                     arith::SubIOp::create(nb, nl, result, extend(args[1]));
               linalg::YieldOp::create(nb, nl, result);
             })
      .getResult(0);
}

/// The 8-bit operands of the i32 convolution of `x` by `w` when each is a
/// widened 8-bit tensor read whole (the image possibly padded with zeros
/// after its widening), the image's zero point a scalar and the filter's a
/// scalar or one per filter; nothing otherwise.
std::optional<NarrowConv> narrowConv(OpBuilder &b, Location loc, Value x,
                                     Value w) {
  auto pad = x.getDefiningOp<tensor::PadOp>();
  Value widenedImage = pad ? pad.getSource() : x;
  std::optional<Widened8Bit> image = widened8Bit(widenedImage);
  std::optional<Widened8Bit> filter = widened8Bit(w);
  AffineMap perFilter =
      AffineMap::get(4, 0, b.getAffineDimExpr(0), b.getContext());
  if (!image || !filter || !image->sourceMap.isIdentity() ||
      !filter->sourceMap.isIdentity() ||
      (image->zeroPoint && (image->zeroPointMap.getNumResults() != 0 ||
                            image->zeroPointSigned != image->isSigned)) ||
      (filter->zeroPoint && (filter->zeroPointSigned != filter->isSigned ||
                             (filter->zeroPointMap.getNumResults() != 0 &&
                              filter->zeroPointMap != perFilter))))
    return std::nullopt;
  Value image8 = image->source;
  if (pad) {
    Value padValue = pad.getConstantPaddingValue();
    if (!padValue || !matchPattern(padValue, m_Zero()))
      return std::nullopt;
    Type i8 = b.getIntegerType(8);
    // The zero point (a constant, or a rank-0 tensor read), or zero.
    Value border;
    DenseIntElementsAttr zeroPoint;
    if (!image->zeroPoint)
      border = arith::ConstantOp::create(b, loc, b.getZeroAttr(i8));
    else if (matchPattern(image->zeroPoint, m_Constant(&zeroPoint)) &&
             zeroPoint.isSplat())
      border = arith::ConstantOp::create(
          b, loc, b.getIntegerAttr(i8, zeroPoint.getSplatValue<APInt>()));
    else if (cast<RankedTensorType>(image->zeroPoint.getType()).getRank() == 0)
      border =
          tensor::ExtractOp::create(b, loc, image->zeroPoint, ValueRange{});
    else
      return std::nullopt;
    auto padded = pad.getResultType().clone(i8);
    image8 = tensor::PadOp::create(b, loc, padded, image8, pad.getMixedLowPad(),
                                   pad.getMixedHighPad(), border);
  }
  return NarrowConv{image8, *image, *filter};
}

/// A 2-D convolution of a batch of N > 1 images as a loop over the images
/// whose body is the convolution of one image (which ConvToMatmul below
/// then rewrites): all images share the packed filter, and each image's
/// product is the one of batch 1. A fill of the output (a convolution without
/// bias) becomes a fill of each image's output, so that the packed
/// accumulator is a fill, not a pack of the filled output.
///
/// Each image's output is copied into the batch's. Unpacking each product
/// into a slice of the output viewed as [N, F, OH*OW] instead saves the copy
/// but was no faster on ResNet-50 at batch 32, and its peak memory grew from
/// 2.0 to 2.5 GB: the reshaped output shares the tensor.empty of other ops
/// and bufferizes to more allocations.
///
/// A quantized convolution (8-bit values less their zero points, with
/// `narrow` for AVX-512 VNNI) has its 8-bit images padded once, with their
/// zero point, and each image's convolution reads its 8-bit image widened,
/// which ConvToMatmul then takes as an unpadded 8-bit image (im2col of its
/// bytes and a product of quads).
LogicalResult convBatchToLoop(PatternRewriter &rewriter,
                              linalg::Conv2DNchwFchwOp op, bool narrow) {
  Value x = op.getDpsInputs()[0], w = op.getDpsInputs()[1];
  Value init = op.getDpsInits()[0];
  auto xType = cast<RankedTensorType>(x.getType());
  auto yType = cast<RankedTensorType>(init.getType());
  Location loc = op.getLoc();
  std::optional<NarrowConv> bytes;
  if (narrow && xType.getElementType().isInteger(32))
    bytes = narrowConv(rewriter, loc, x, w);
  auto fill = init.getDefiningOp<linalg::FillOp>();
  Value start = fill ? fill.getOutputs()[0] : init;
  auto imageType = [](RankedTensorType type) {
    SmallVector<int64_t> shape(type.getShape());
    shape[0] = 1;
    return RankedTensorType::get(shape, type.getElementType());
  };
  RankedTensorType xImage = imageType(xType), yImage = imageType(yType);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value count =
      arith::ConstantIndexOp::create(rewriter, loc, xType.getDimSize(0));
  // The body is built in place, after the loop is in the function, so that
  // the rewrite driver sees its ops (the convolution of one image) as new.
  auto loop =
      scf::ForOp::create(rewriter, loc, zero, count, one, ValueRange{start});
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    Value acc = loop.getRegionIterArgs()[0];
    // Image n of a 4-D tensor: the slice [n, 0, 0, 0] of size `type`.
    SmallVector<OpFoldResult> offsets(4, rewriter.getIndexAttr(0));
    offsets[0] = loop.getInductionVar();
    SmallVector<OpFoldResult> strides(4, rewriter.getIndexAttr(1));
    auto sizes = [&](RankedTensorType type) {
      return getAsIndexOpFoldResult(rewriter.getContext(), type.getShape());
    };
    Value image;
    if (bytes) {
      auto bytesImage = xImage.clone(rewriter.getIntegerType(8));
      image = rewiden(rewriter, loc,
                      tensor::ExtractSliceOp::create(
                          rewriter, loc, bytesImage, bytes->image, offsets,
                          sizes(bytesImage), strides),
                      bytes->imageWidening);
    } else {
      image = tensor::ExtractSliceOp::create(rewriter, loc, xImage, x, offsets,
                                             sizes(xImage), strides);
    }
    Value imageInit = elementAccumulator(rewriter, loc, fill, yImage, [&] {
      return tensor::ExtractSliceOp::create(rewriter, loc, yImage, acc, offsets,
                                            sizes(yImage), strides);
    });
    Value conv = linalg::Conv2DNchwFchwOp::create(
                     rewriter, loc, TypeRange{yImage}, ValueRange{image, w},
                     ValueRange{imageInit}, op.getStrides(), op.getDilations())
                     .getResult(0);
    Value inserted = tensor::InsertSliceOp::create(
        rewriter, loc, conv, acc, offsets, sizes(yImage), strides);
    scf::YieldOp::create(rewriter, loc, inserted);
  }
  rewriter.replaceOp(op, loop.getResult(0));
  return success();
}

/// A batched matmul C[b] += A[b] * B[b] (an attention's products per head)
/// as a loop over the batch whose body is one matmul, which MatmulToMmt4d
/// then packs (both operands at run time): the packed product runs near
/// the FMA peak where the batched op was a vectorized reduction at a third
/// of it. A fill of the output becomes a fill of each matrix's. With
/// threads, the loop is an scf.forall: each thread packs and multiplies
/// whole matrices (splitting each small product's rows between threads
/// made it slower than one thread: the packed operands moved between the
/// cores' caches).
struct BatchMatmulToLoop : OpRewritePattern<linalg::BatchMatmulOp> {
  BatchMatmulToLoop(MLIRContext *context, unsigned numThreads)
      : OpRewritePattern(context), numThreads(numThreads) {}

  LogicalResult matchAndRewrite(linalg::BatchMatmulOp op,
                                PatternRewriter &rewriter) const override {
    // The number of matrices may be dynamic (a dynamic batch).
    FailureOr<PlainProduct> p =
        matchPlainProduct(rewriter, op, /*dynamicLeading=*/1);
    if (failed(p))
      return failure();
    auto [a, b, init, aType, bType, cType] = *p;
    if (llvm::is_contained(cType.getShape(), 0) || aType.getDimSize(2) == 0)
      return rewriter.notifyMatchFailure(op, "empty");
    Location loc = op.getLoc();
    auto fill = init.getDefiningOp<linalg::FillOp>();
    Value start = fill ? fill.getOutputs()[0] : init;
    auto matrix = [](RankedTensorType type) {
      return RankedTensorType::get(type.getShape().drop_front(),
                                   type.getElementType());
    };
    OpFoldResult count = tensor::getMixedSize(rewriter, loc, start, 0);
    bool parallel = numThreads > 1 && !isConstantIntValue(count, 1);

    // The body, at the builder's insertion point: matrix `index` of each
    // operand (rank-reduced slices), its product, and where it goes.
    auto body = [&](Value index, Value acc) {
      auto offsets = [&]() {
        SmallVector<OpFoldResult> result(3, rewriter.getIndexAttr(0));
        result[0] = index;
        return result;
      };
      auto sizes = [&](RankedTensorType type) {
        SmallVector<OpFoldResult> result =
            getAsIndexOpFoldResult(rewriter.getContext(), type.getShape());
        result[0] = rewriter.getIndexAttr(1);
        return result;
      };
      SmallVector<OpFoldResult> ones(3, rewriter.getIndexAttr(1));
      auto extract = [&](Value from, RankedTensorType type) -> Value {
        return tensor::ExtractSliceOp::create(rewriter, loc, matrix(type), from,
                                              offsets(), sizes(type), ones);
      };
      Value cInit = elementAccumulator(rewriter, loc, fill, matrix(cType),
                                       [&] { return extract(acc, cType); });
      Value product = linalg::MatmulOp::create(
                          rewriter, loc, TypeRange{matrix(cType)},
                          ValueRange{extract(a, aType), extract(b, bType)},
                          ValueRange{cInit})
                          .getResult(0);
      return std::make_tuple(product, offsets(), sizes(cType), ones);
    };

    // The body is built in place, after the loop is in the function, so that
    // the rewrite driver sees its ops (the matmul of one matrix) as new.
    if (parallel) {
      auto loop =
          scf::ForallOp::create(rewriter, loc, ArrayRef<OpFoldResult>{count},
                                ValueRange{start}, std::nullopt);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(loop.getTerminator());
        Value acc = loop.getRegionIterArgs()[0];
        auto [product, offsets, sizes, strides] =
            body(loop.getInductionVar(0), acc);
        rewriter.setInsertionPointToStart(loop.getTerminator().getBody());
        tensor::ParallelInsertSliceOp::create(rewriter, loc, product, acc,
                                              offsets, sizes, strides);
      }
      rewriter.replaceOp(op, loop.getResult(0));
      return success();
    }
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value end = getValueOrCreateConstantIndexOp(rewriter, loc, count);
    auto loop =
        scf::ForOp::create(rewriter, loc, zero, end, one, ValueRange{start});
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(loop.getBody());
      Value acc = loop.getRegionIterArgs()[0];
      auto [product, offsets, sizes, strides] =
          body(loop.getInductionVar(), acc);
      Value inserted = tensor::InsertSliceOp::create(
          rewriter, loc, product, acc, offsets, sizes, strides);
      scf::YieldOp::create(rewriter, loc, inserted);
    }
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }

  unsigned numThreads;
};

/// The taps (a + i * sy, b + j * sx) of the filter w[F, C, KH, KW] packed
/// for a direct convolution: [F/m0, C, KHp, KWp, m0] (zeros past F), KHp
/// and KWp the taps' counts along each axis. A constant filter is packed here
/// at compile time; another is sliced and packed at run time.
Value packConvFilter(OpBuilder &b, Location loc, Value w, int64_t a, int64_t bx,
                     int64_t sy, int64_t sx, int64_t m0) {
  auto wType = cast<RankedTensorType>(w.getType());
  int64_t f = wType.getDimSize(0), c = wType.getDimSize(1),
          kh = wType.getDimSize(2), kw = wType.getDimSize(3);
  int64_t khp = llvm::divideCeilSigned(kh - a, sy);
  int64_t kwp = llvm::divideCeilSigned(kw - bx, sx);
  int64_t m1 = llvm::divideCeilSigned(f, m0);
  Type f32 = b.getF32Type();
  auto packedType = RankedTensorType::get({m1, c, khp, kwp, m0}, f32);
  float splat = 0;
  if (std::optional<ArrayRef<float>> data = constantData(w, splat)) {
    if (data->empty())
      return arith::ConstantOp::create(
          b, loc, packedType,
          SplatElementsAttr::get(packedType, b.getF32FloatAttr(splat)));
    AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
        packedType.getNumElements() * sizeof(float), alignof(float) * 16);
    MutableArrayRef<float> out(
        reinterpret_cast<float *>(blob.getMutableData().data()),
        packedType.getNumElements());
    int64_t at = 0;
    for (int64_t t = 0; t < m1; ++t)
      for (int64_t ch = 0; ch < c; ++ch)
        for (int64_t i = 0; i < khp; ++i)
          for (int64_t j = 0; j < kwp; ++j)
            for (int64_t r = 0; r < m0; ++r) {
              int64_t filter = t * m0 + r;
              out[at++] =
                  filter < f
                      ? (*data)[((filter * c + ch) * kh + a + i * sy) * kw +
                                bx + j * sx]
                      : 0.0f;
            }
    return arith::ConstantOp::create(
        b, loc, packedType,
        DenseResourceElementsAttr::get(packedType, "onnx_packed_weights",
                                       std::move(blob)));
  }
  SmallVector<OpFoldResult> offsets = {b.getIndexAttr(0), b.getIndexAttr(0),
                                       b.getIndexAttr(a), b.getIndexAttr(bx)};
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(f), b.getIndexAttr(c),
                                     b.getIndexAttr(khp), b.getIndexAttr(kwp)};
  SmallVector<OpFoldResult> steps = {b.getIndexAttr(1), b.getIndexAttr(1),
                                     b.getIndexAttr(sy), b.getIndexAttr(sx)};
  Value taps = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({f, c, khp, kwp}, f32), w, offsets, sizes,
      steps);
  Value matrix = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({f, c * khp * kwp}, f32), taps,
      ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
  Value packed = packOperand(b, loc, matrix, {0, m0});
  packed = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({m1, c * khp * kwp, m0}, f32), packed,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
  return tensor::ExpandShapeOp::create(
      b, loc, packedType, packed,
      ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}, {4}});
}

/// `x` [1, C, H, W] with `rows` rows of zeros below it. When `x` is itself
/// a static zero padding of a tensor used only there (a convolution's
/// border), that padding grows instead of a second one wrapping it.
Value padImageBottom(OpBuilder &b, Location loc, Value x, int64_t rows,
                     Value zero) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[2] += rows;
  auto paddedType = RankedTensorType::get(shape, type.getElementType());
  auto pad = x.getDefiningOp<tensor::PadOp>();
  Value padValue = pad ? pad.getConstantPaddingValue() : Value();
  if (pad && pad->hasOneUse() && padValue &&
      matchPattern(padValue, m_AnyZeroFloat()) &&
      !ShapedType::isDynamicShape(pad.getStaticLow()) &&
      !ShapedType::isDynamicShape(pad.getStaticHigh())) {
    SmallVector<OpFoldResult> low = pad.getMixedLowPad();
    SmallVector<OpFoldResult> high = pad.getMixedHighPad();
    high[2] = b.getIndexAttr(pad.getStaticHigh()[2] + rows);
    return tensor::PadOp::create(b, loc, paddedType, pad.getSource(), low, high,
                                 zero);
  }
  return tensor::createPadHighOp(paddedType, x, zero, /*nofold=*/false, loc, b);
}

/// The positions of a register tile of a direct convolution by rows: the
/// whole output row when it is narrow (7 or 14 columns), else, with
/// AVX-512's 16-row tiles, the longest segment of 8 to kMaxTileRows
/// positions that divides the row (28 or 56 columns: 14); 0 when there is
/// none. (AVX2's tiles have 6 rows; segments of 8 there would be 8 x 8
/// tiles, which spend 9 loads on 8 FMAs.)
int64_t rowSegment(const CPUTarget &target, int64_t ow) {
  if (ow <= narrowTileLimit(target))
    return ow;
  if (target.matmulTileM() < kMaxTileRows)
    return 0;
  return largestDivisor(ow, kMaxTileRows, 8);
}

/// Whether directConv computes an F-filter convolution to OH x OW outputs
/// by rows (see there): a register tile is a segment of an output row
/// (rowSegment) times `lanes` filters, when that is less work than tiles of
/// positions over phase images `wq` wide: at least a tenth less for a whole
/// row (7x7: 49 positions, not 63 padded to 64), 3% less for a row in
/// segments (56x56: 56 positions a row, not 58). With AVX-512 at 1 thread
/// (2026-11-29, Zen 4, 5 alternated rounds), a 3x3 convolution of 64
/// channels on 56x56 took 2.11 ms so and 2.20 over padded positions, one of
/// 128 on 28x28 2.12 against 2.29, and with strides of 2 from 56x56 2.38
/// against 2.67 through im2col; ResNet-50 85.5 against 87.6 ms. Its 7x7/2
/// stem (rows of 112 in 16-position segments, 2.6% less work than 115
/// positions over its phases) was slower so than through im2col.
bool directConvByRows(const CPUTarget &target, int64_t f, int64_t oh,
                      int64_t ow, int64_t wq) {
  int64_t segment = rowSegment(target, ow);
  if (segment < 5 || f % target.matmulTileN() != 0)
    return false;
  int64_t m0 = rowTile(target, f), n0 = columnTile(target, m0, oh * ow);
  int64_t lanes = columnTile(target, segment, f);
  int64_t byRows = paddedWork(oh * ow, segment, f, lanes);
  int64_t byPositions = paddedWork(f, m0, oh * wq, n0);
  return segment == ow ? 10 * byRows <= 9 * byPositions
                       : 100 * byRows <= 97 * byPositions;
}

/// One phase of a direct convolution (see directConv): its packed filter
/// taps times its image [C, length], added to the accumulator `acc`, by
/// positions [F/m0, P/n0, m0, n0] or by rows [OH, F/lanes, OW, lanes] of
/// positions `wq` apart. A linalg.generic marked kDirectConvAttr. By rows
/// with `rowsPerFilter`, the taps are [OH / rowsPerFilter, F/lanes, C, KH,
/// KW, lanes]: a filter for each block of that many output rows (the
/// products of a Winograd convolution, in one kernel).
Value directConvStep(OpBuilder &b, Location loc, Value taps, Value image,
                     Value acc, bool byRows, int64_t wq, int64_t n0,
                     int64_t rowsPerFilter = 0) {
  MLIRContext *ctx = b.getContext();
  AffineExpr d0, d1, d2, d3, d4, d5, d6;
  bindDims(ctx, d0, d1, d2, d3, d4, d5, d6);
  using utils::IteratorType;
  SmallVector<IteratorType> iterators = {
      IteratorType::parallel,  IteratorType::parallel,  IteratorType::reduction,
      IteratorType::reduction, IteratorType::reduction, IteratorType::parallel,
      IteratorType::parallel};
  // By positions: [F/m0, P/n0, C, KH, KW, m0, n0]; by rows: [OH, F/lanes,
  // C, KH, KW, OW, lanes].
  SmallVector<AffineMap> maps = {
      !byRows ? AffineMap::get(7, 0, {d0, d2, d3, d4, d5}, ctx)
      : rowsPerFilter
          ? AffineMap::get(
                7, 0, {d0.floorDiv(rowsPerFilter), d1, d2, d3, d4, d6}, ctx)
          : AffineMap::get(7, 0, {d1, d2, d3, d4, d6}, ctx),
      byRows ? AffineMap::get(7, 0, {d2, d0 * wq + d5 + d3 * wq + d4}, ctx)
             : AffineMap::get(7, 0, {d2, d1 * n0 + d6 + d3 * wq + d4}, ctx),
      AffineMap::get(7, 0, {d0, d1, d5, d6}, ctx)};
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{acc.getType()}, ValueRange{taps, image},
      ValueRange{acc}, maps, iterators,
      [](OpBuilder &nb, Location nl, ValueRange args) {
        Value product = arith::MulFOp::create(nb, nl, args[0], args[1]);
        linalg::YieldOp::create(
            nb, nl,
            arith::AddFOp::create(nb, nl, args[2], product).getResult());
      });
  generic->setAttr(kDirectConvAttr, UnitAttr::get(ctx));
  return generic.getResult(0);
}

/// The accumulator [OH, F/lanes, OW, lanes] of a direct convolution by rows
/// unpacked into [F, OH * OW] through the transposition (the filters past F
/// dropped).
Value unpackRows(OpBuilder &b, Location loc, Value acc, int64_t f) {
  auto type = cast<RankedTensorType>(acc.getType());
  int64_t oh = type.getDimSize(0), ow = type.getDimSize(2),
          lanes = type.getDimSize(3);
  return linalg::UnPackOp::create(
             b, loc, acc,
             tensor::EmptyOp::create(b, loc, {f, oh * ow}, b.getF32Type()),
             ArrayRef<int64_t>{1, 0},
             ArrayRef<OpFoldResult>{b.getIndexAttr(ow), b.getIndexAttr(lanes)},
             ArrayRef<int64_t>{1, 0})
      .getResult();
}

/// A 2-D convolution of one image (unit dilations), y[1, F, OH, OW] =
/// x[1, C, H, W] (padded) * w[F, C, KH, KW] with strides (sy, sx), computed
/// directly from the image. With unit strides, output position
/// p = oh * W + ow of the padded width W (the columns ow >= OW are computed
/// and dropped) reads x[c, p + ky * W + kx] of the image flattened to
/// [C, H * W], so for each (c, ky, kx) a register tile's n0 positions are n0
/// consecutive elements of the image: no im2col matrix is written and no
/// operand is packed at run time. With strides, the image is split into its
/// sy * sx phases x[c, a :: sy, b :: sx] (of width W / sx), and the
/// convolution is the sum over the phases of the unit-stride convolution of
/// phase (a, b) with the taps (a + i sy, b + j sx) of the filter.
///
/// Each phase's filter taps are packed (at compile time when constant) as
/// MatmulToMmt4d packs a left operand, [F/m0, C, KHp, KWp, m0], and its
/// product accumulates in mmt4d's layout [F/m0, P/n0, m0, n0] through a
/// linalg.generic marked kDirectConvAttr that onnx-cpu-tile-and-vectorize
/// schedules; the sum is unpacked and its valid columns taken. The images
/// are padded at their end so that the last tile's reads stay inside them.
Value directConv(OpBuilder &b, Location loc, Value x, Value w, Value init,
                 int64_t sy, int64_t sx, const CPUTarget &target) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  auto yType = cast<RankedTensorType>(init.getType());
  Type f32 = b.getF32Type();
  int64_t c = xType.getDimSize(1), h = xType.getDimSize(2),
          wd = xType.getDimSize(3);
  int64_t f = wType.getDimSize(0), kh = wType.getDimSize(2),
          kw = wType.getDimSize(3);
  int64_t oh = yType.getDimSize(2), ow = yType.getDimSize(3);
  int64_t m0 = rowTile(target, f), n0 = columnTile(target, m0, oh * ow);
  int64_t m1 = llvm::divideCeilSigned(f, m0);
  // The phases' size: the image padded to whole phases.
  int64_t hq = llvm::divideCeilSigned(h, sy),
          wq = llvm::divideCeilSigned(wd, sx);
  int64_t positions = oh * wq;
  int64_t n1 = llvm::divideCeilSigned(positions, n0);
  // The last tile of phase (0, 0), whose window is the largest, reads up to
  // here in the last channel.
  int64_t khp = llvm::divideCeilSigned(kh, sy),
          kwp = llvm::divideCeilSigned(kw, sx);
  int64_t length = (khp - 1) * wq + (kwp - 1) + n1 * n0;
  // A narrow output goes by rows: a register tile is the OW positions of
  // one output row, or a segment of them (consecutive in the phase image,
  // read one at a time and broadcast) times `lanes` filters (vectors), so
  // that no position past OW is computed.
  bool byRows = directConvByRows(target, f, oh, ow, wq);
  int64_t lanes = byRows ? columnTile(target, rowSegment(target, ow), f) : 0;
  if (byRows) {
    m0 = lanes;
    m1 = llvm::divideCeilSigned(f, lanes);
    // The last row's window ends inside the phase.
    length = (oh + khp - 2) * wq + ow + kwp - 1;
  }
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(f32));
  if (sy == 1 && sx == 1 && length > h * wd) {
    // Rows of zeros under the image instead of a padded copy of the
    // flattened image: merged into the convolution's own zero padding when
    // there is one, so that the image is copied once.
    int64_t extraRows = llvm::divideCeilSigned(length - h * wd, wd);
    x = padImageBottom(b, loc, x, extraRows, zero);
    h += extraRows;
    hq = h;
  } else if (hq * sy != h || wq * sx != wd) {
    x = tensor::createPadHighOp(
        RankedTensorType::get({1, c, hq * sy, wq * sx}, f32), x, zero,
        /*nofold=*/false, loc, b);
  }

  // The accumulator: the init's fill value, else zeros (the init is added
  // to the result after).
  auto fill = init.getDefiningOp<linalg::FillOp>();
  auto accType = byRows ? RankedTensorType::get({oh, m1, ow, lanes}, f32)
                        : RankedTensorType::get({m1, n1, m0, n0}, f32);
  Value acc =
      linalg::FillOp::create(
          b, loc, fill ? fill.getInputs()[0] : zero,
          tensor::EmptyOp::create(b, loc, accType.getShape(), f32).getResult())
          .getResult(0);

  for (int64_t a = 0; a < std::min(sy, kh); ++a) {
    for (int64_t bx = 0; bx < std::min(sx, kw); ++bx) {
      // The phase image [C, Hq * Wq], zeros after its end up to `length`.
      Value phase = x;
      if (sy != 1 || sx != 1) {
        SmallVector<OpFoldResult> offsets = {
            b.getIndexAttr(0), b.getIndexAttr(0), b.getIndexAttr(a),
            b.getIndexAttr(bx)};
        SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1), b.getIndexAttr(c),
                                           b.getIndexAttr(hq),
                                           b.getIndexAttr(wq)};
        SmallVector<OpFoldResult> steps = {b.getIndexAttr(1), b.getIndexAttr(1),
                                           b.getIndexAttr(sy),
                                           b.getIndexAttr(sx)};
        phase = tensor::ExtractSliceOp::create(
            b, loc, RankedTensorType::get({1, c, hq, wq}, f32), x, offsets,
            sizes, steps);
      }
      Value image = tensor::CollapseShapeOp::create(
          b, loc, RankedTensorType::get({c, hq * wq}, f32), phase,
          ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
      if (length > hq * wq)
        image = tensor::createPadHighOp(RankedTensorType::get({c, length}, f32),
                                        image, zero, /*nofold=*/false, loc, b);
      Value taps = packConvFilter(b, loc, w, a, bx, sy, sx, m0);
      acc = directConvStep(b, loc, taps, image, acc, byRows, wq, n0);
    }
  }

  Value result;
  if (byRows) {
    result = tensor::ExpandShapeOp::create(
        b, loc, yType, unpackRows(b, loc, acc, f),
        ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
    return fill ? result : addInit(b, loc, result, init);
  }
  // [F, OH*Wq] unpacked, viewed as [F, OH, Wq], its first OW columns.
  Value flat =
      linalg::UnPackOp::create(
          b, loc, acc, tensor::EmptyOp::create(b, loc, {f, positions}, f32),
          ArrayRef<int64_t>{0, 1},
          ArrayRef<OpFoldResult>{b.getIndexAttr(m0), b.getIndexAttr(n0)})
          .getResult();
  Value rows = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({f, oh, wq}, f32), flat,
      ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  SmallVector<OpFoldResult> offsets(3, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(f), b.getIndexAttr(oh),
                                     b.getIndexAttr(ow)};
  SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
  Value valid = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({f, oh, ow}, f32), rows, offsets, sizes,
      strides);
  result = tensor::ExpandShapeOp::create(
      b, loc, yType, valid, ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}});
  return fill ? result : addInit(b, loc, result, init);
}

/// The filter transform G w[F, C, 3, 3] (over its rows), each of its alpha
/// rows packed for a direct convolution by rows as packConvFilter packs a
/// 1x3 filter: [alpha, F/lanes, C, 1, 3, lanes], zeros past F. At compile
/// time.
Value packWinogradTaps(OpBuilder &b, Location loc, ArrayRef<float> data,
                       float splat, int64_t f, int64_t c,
                       const WinogradRows &wino, int64_t lanes) {
  int64_t blocks = llvm::divideCeilSigned(f, lanes);
  auto type = RankedTensorType::get({wino.alpha, blocks, c, 1, 3, lanes},
                                    b.getF32Type());
  AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
      type.getNumElements() * sizeof(float), alignof(float) * 16);
  MutableArrayRef<float> out(
      reinterpret_cast<float *>(blob.getMutableData().data()),
      type.getNumElements());
  int64_t at = 0;
  for (int64_t xi = 0; xi < wino.alpha; ++xi)
    for (int64_t t = 0; t < blocks; ++t)
      for (int64_t ch = 0; ch < c; ++ch)
        for (int64_t kx = 0; kx < 3; ++kx)
          for (int64_t r = 0; r < lanes; ++r) {
            int64_t filter = t * lanes + r;
            double sum = 0;
            if (filter < f)
              for (int64_t ky = 0; ky < 3; ++ky)
                sum += wino.g[xi * 3 + ky] *
                       (data.empty()
                            ? splat
                            : data[((filter * c + ch) * 3 + ky) * 3 + kx]);
            out[at++] = static_cast<float>(sum);
          }
  return arith::ConstantOp::create(
      b, loc, type,
      DenseResourceElementsAttr::get(type, "onnx_packed_weights",
                                     std::move(blob)));
}

/// A 3x3 convolution of one image with unit strides and dilations and a
/// constant filter, y[1, F, OH, OW] = x[1, C, OH + 2, OW + 2] (padded) *
/// w[F, C, 3, 3], with Winograd's F(m, 3) along its rows and directly along
/// its columns: the image's rows in tiles of m outputs (TH = OH / m tiles,
/// rounded up; zero rows below the image for the last) become
/// alpha = m + 2 images R_xi[C, TH, W] = sum_i B^T[xi][i] x[:, m th + i, :]
/// (rows m apart, each row read whole; one kernel); each is convolved with
/// the 1x3 filter row xi of G w, computed and packed at compile time, by
/// rows (directConv's step, all alpha in one kernel: [alpha TH, F/lanes,
/// OW, lanes]); output row m th + a is sum_xi A^T[a][xi] of those (one
/// kernel), written in that layout and unpacked as a direct convolution's.
/// 3 alpha / m multiplications per output instead of 9: 4.5 with F(4, 3).
/// On ResNet-50 at 1 thread (Zen 4, 2026-11-29) its 3x3 convolutions of 64
/// channels on 56x56 took 1.26 ms against 2.12 direct, 256 on 14x14 1.25
/// against 2.05, and the model 73.2 against 82.9 ms.
Value winogradConv(OpBuilder &b, Location loc, Value x, ArrayRef<float> data,
                   float splat, int64_t f, Value init, const CPUTarget &target,
                   const WinogradRows &wino) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto yType = cast<RankedTensorType>(init.getType());
  Type f32 = b.getF32Type();
  int64_t c = xType.getDimSize(1), h = xType.getDimSize(2),
          wd = xType.getDimSize(3);
  int64_t oh = yType.getDimSize(2), ow = yType.getDimSize(3);
  int64_t m = wino.m, alpha = wino.alpha;
  int64_t th = llvm::divideCeilSigned(oh, m);
  int64_t lanes = columnTile(target, rowSegment(target, ow), f);
  int64_t blocks = llvm::divideCeilSigned(f, lanes);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(f32));
  if (th * m + 2 > h)
    x = padImageBottom(b, loc, x, th * m + 2 - h, zero);

  // The row views x[:, m th + i, :] and the images R_xi.
  SmallVector<Value> rowViews;
  auto imageType = RankedTensorType::get({1, c, th, wd}, f32);
  for (int64_t i = 0; i < alpha; ++i) {
    SmallVector<OpFoldResult> offsets = {b.getIndexAttr(0), b.getIndexAttr(0),
                                         b.getIndexAttr(i), b.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1), b.getIndexAttr(c),
                                       b.getIndexAttr(th), b.getIndexAttr(wd)};
    SmallVector<OpFoldResult> steps = {b.getIndexAttr(1), b.getIndexAttr(1),
                                       b.getIndexAttr(m), b.getIndexAttr(1)};
    rowViews.push_back(tensor::ExtractSliceOp::create(b, loc, imageType, x,
                                                      offsets, sizes, steps));
  }
  // The images stacked along the rows of each channel, [1, C, alpha, TH, W]
  // viewed as [C, alpha * TH * W] (image xi in rows xi TH ...), in one
  // kernel, and their products with the filter rows in another:
  // [alpha * TH, F/lanes, OW, lanes].
  Value images =
      combineRows(b, loc, rowViews, wino.bt, alpha,
                  RankedTensorType::get({1, c, alpha, th, wd}, f32), /*at=*/2);
  images = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({c, alpha * th * wd}, f32), images,
      ArrayRef<ReassociationIndices>{{0, 1}, {2, 3, 4}});
  Value taps = packWinogradTaps(b, loc, data, splat, f, c, wino, lanes);
  Value acc =
      linalg::FillOp::create(
          b, loc, zero,
          tensor::EmptyOp::create(b, loc, {alpha * th, blocks, ow, lanes}, f32)
              .getResult())
          .getResult(0);
  Value stacked = directConvStep(b, loc, taps, images, acc, /*byRows=*/true, wd,
                                 0, /*rowsPerFilter=*/th);
  auto accType = RankedTensorType::get({th, blocks, ow, lanes}, f32);
  SmallVector<Value> products;
  SmallVector<OpFoldResult> unit4(4, b.getIndexAttr(1));
  SmallVector<OpFoldResult> productSizes = {
      b.getIndexAttr(th), b.getIndexAttr(blocks), b.getIndexAttr(ow),
      b.getIndexAttr(lanes)};
  for (int64_t xi = 0; xi < alpha; ++xi) {
    SmallVector<OpFoldResult> offsets = {b.getIndexAttr(xi * th),
                                         b.getIndexAttr(0), b.getIndexAttr(0),
                                         b.getIndexAttr(0)};
    products.push_back(tensor::ExtractSliceOp::create(
        b, loc, accType, stacked, offsets, productSizes, unit4));
  }

  // Output row m th + a, in one kernel writing [TH, m, F/lanes, OW,
  // lanes]; the init's fill value added there.
  auto fill = init.getDefiningOp<linalg::FillOp>();
  float bias = 0;
  if (auto constant =
          fill ? fill.getInputs()[0].getDefiningOp<arith::ConstantFloatOp>()
               : nullptr)
    bias = constant.value().convertToFloat();
  else
    fill = nullptr; // another init: added after
  Value rows = combineRows(
      b, loc, products, wino.at, m,
      RankedTensorType::get({th, m, blocks, ow, lanes}, f32), /*at=*/1, bias);
  rows = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({th * m, blocks, ow, lanes}, f32), rows,
      ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
  Value flat = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({f, th * m, ow}, f32),
      unpackRows(b, loc, rows, f), ArrayRef<ReassociationIndices>{{0}, {1, 2}});
  SmallVector<OpFoldResult> validOffsets(3, b.getIndexAttr(0));
  SmallVector<OpFoldResult> validSizes = {b.getIndexAttr(f), b.getIndexAttr(oh),
                                          b.getIndexAttr(ow)};
  SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
  Value valid = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({f, oh, ow}, f32), flat, validOffsets,
      validSizes, strides);
  Value result = tensor::ExpandShapeOp::create(
      b, loc, yType, valid, ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}});
  return fill ? result : addInit(b, loc, result, init);
}

/// The shortest reduction (channels x taps of a phase) computed directly.
constexpr int64_t kMinDirectConvSteps = 32;

/// A 2-D convolution of one image, y[1, F, OH, OW] = x[1, C, H, W] (padded)
/// * w[F, C, KH, KW]: with a KH x KW window, a direct convolution
/// (directConv); else the matmul w[F, C*KH*KW] x
/// col[C*KH*KW, OH*OW] (im2col), which MatmulToMmt4d then packs; a 1x1
/// convolution with unit strides needs no im2col: col is x itself. A batch
/// of several images is a loop over its images first (convBatchToLoop).
struct ConvToMatmul : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  ConvToMatmul(MLIRContext *context, const CPUTarget &target,
               unsigned numThreads, unsigned winograd)
      : OpRewritePattern(context), target(target), numThreads(numThreads),
        winograd(winogradRows(winograd)) {}

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp op,
                                PatternRewriter &rewriter) const override {
    // i32 (ConvInteger's and QLinearConv's, of the image and filter less
    // their zero points): through im2col (or the 1x1 view of the image) and
    // the packed product only.
    if (failed(matchStaticF32(rewriter, op, 0, /*words=*/true)))
      return failure();
    Value x = op.getDpsInputs()[0], w = op.getDpsInputs()[1];
    Value init = op.getDpsInits()[0];
    auto xType = cast<RankedTensorType>(x.getType());
    auto wType = cast<RankedTensorType>(w.getType());
    auto yType = cast<RankedTensorType>(init.getType());
    if (xType.getDimSize(0) == 0)
      return rewriter.notifyMatchFailure(op, "empty");
    if (xType.getDimSize(0) != 1)
      return convBatchToLoop(rewriter, op, target.hasVNNI);
    SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());
    int64_t c = xType.getDimSize(1), h = xType.getDimSize(2),
            wd = xType.getDimSize(3);
    int64_t f = wType.getDimSize(0), kh = wType.getDimSize(2),
            kw = wType.getDimSize(3);
    int64_t oh = yType.getDimSize(2), ow = yType.getDimSize(3);
    int64_t k = c * kh * kw, p = oh * ow;
    if (f == 0 || k == 0 || p == 0)
      return rewriter.notifyMatchFailure(op, "empty");
    Location loc = op.getLoc();
    Type element = xType.getElementType();
    bool isF32 = element.isF32();

    // Direct for a window of several taps with unit dilations, when a
    // register tile's reduction over one phase is long enough to pay for
    // reading and writing its accumulators: MobileNetV2's 3x3/2 stem over 3
    // channels (3 x 2 x 2 steps) took 1.03 ms direct, 0.64 ms through
    // im2col. A 1x1 window stays a matmul, whose epilogue is fused into its
    // tiles (256 -> 512 channels with strides of 2 on 28x28: 0.41 ms, 0.51
    // ms direct).
    //
    // With strides, only by rows: tiles of positions over the phase images
    // copied each phase out of the image serially and summed the phases in
    // passes over the accumulators; im2col (whose copies and packing run on
    // the threads) was faster. A 3x3/2 convolution, 128 channels, 56x56 ->
    // 28x28: 4.1-4.7 ms direct, 3.7-4.2 through im2col at 1 thread; 4.4-6.2
    // and 2.2-2.5 at 2. 256 channels, 28x28 -> 14x14: 4.0-4.8 and 3.3-3.7 at
    // 1 thread. By rows, 512 channels, 14x14 -> 7x7: 3.3-4.4 ms direct,
    // 4.1-4.8 through im2col. (With AVX-512 the first of those goes by rows
    // in segments of 14 positions: 2.40 ms, 2.67-2.84 through im2col.)
    bool unitDilations = dilations[0] == 1 && dilations[1] == 1;
    float splat = 0;
    std::optional<ArrayRef<float>> data;
    if (isF32 && kh == 3 && kw == 3 && strides[0] == 1 && strides[1] == 1 &&
        unitDilations && useWinograd(c, f, oh, ow) &&
        (data = constantData(w, splat))) {
      rewriter.replaceOp(op, winogradConv(rewriter, loc, x, *data, splat, f,
                                          init, target, *winograd));
      return success();
    }

    int64_t phaseSteps = c * llvm::divideCeilSigned(kh, strides[0]) *
                         llvm::divideCeilSigned(kw, strides[1]);
    bool unitStrides = strides[0] == 1 && strides[1] == 1;
    if (isF32 && dilations[0] == 1 && dilations[1] == 1 && kh * kw > 1 &&
        phaseSteps >= kMinDirectConvSteps &&
        (unitStrides ||
         directConvByRows(target, f, oh, ow,
                          llvm::divideCeilSigned(wd, strides[1])))) {
      rewriter.replaceOp(op, directConv(rewriter, loc, x, w, init, strides[0],
                                        strides[1], target));
      return success();
    }

    // An i32 convolution of 8-bit values less their zero points (ConvInteger,
    // QLinearConv) with AVX-512 VNNI: im2col of the 8-bit image, a quarter of
    // the i32 one's bytes, its border the image's zero point (zero once less
    // it), and the columns and the filter widened again for the matmul,
    // which MatmulToMmt4d computes on their bytes (quadProduct).
    std::optional<NarrowConv> narrow;
    if (target.hasVNNI && element.isInteger(32))
      narrow = narrowConv(rewriter, loc, x, w);
    Value image = narrow ? narrow->image : x;
    Type imageElement = narrow ? rewriter.getIntegerType(8) : element;

    auto filterType = RankedTensorType::get({f, k}, element);
    Value filter;
    if (narrow) {
      filter =
          rewiden(rewriter, loc,
                  tensor::CollapseShapeOp::create(
                      rewriter, loc,
                      RankedTensorType::get({f, k}, rewriter.getIntegerType(8)),
                      narrow->filter.source,
                      ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}}),
                  narrow->filter);
    } else {
      filter = reshapeConstant(rewriter, loc, w, filterType);
      if (!filter)
        filter = tensor::CollapseShapeOp::create(
            rewriter, loc, filterType, w,
            ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
    }

    Value col;
    if (kh == 1 && kw == 1 && strides[0] == 1 && strides[1] == 1 && oh == h &&
        ow == wd) {
      col = tensor::CollapseShapeOp::create(
          rewriter, loc, RankedTensorType::get({c, h * wd}, imageElement),
          image, ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
    } else {
      // Row (r, oh) of col, r = (c, ky, kx), is the strided slice
      // x[0, c, oh s0 + ky d0, kx d1 :: s1] of OW elements: a copy that
      // bufferizes to a memref.copy of a row, which onnx-cpu-lower-vectors
      // turns into vector loads and stores.
      auto colType = RankedTensorType::get({k, oh, ow}, imageElement);
      Value empty = tensor::EmptyOp::create(rewriter, loc, colType.getShape(),
                                            imageElement);
      auto index = [&](int64_t v) -> Value {
        return arith::ConstantIndexOp::create(rewriter, loc, v);
      };
      Value zero = index(0), one = index(1);
      // The OH rows of col row r, written into `target` at its row `at`.
      auto writeRows = [&](OpBuilder &b, Location l, Value r, Value target,
                           OpFoldResult at) -> Value {
        auto cst = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(b, l, v);
        };
        Value channel = arith::DivUIOp::create(b, l, r, cst(kh * kw));
        Value ky = arith::RemUIOp::create(
            b, l, arith::DivUIOp::create(b, l, r, cst(kw)), cst(kh));
        Value kx = arith::RemUIOp::create(b, l, r, cst(kw));
        Value rowOffset = arith::MulIOp::create(b, l, ky, cst(dilations[0]));
        Value colOffset = arith::MulIOp::create(b, l, kx, cst(dilations[1]));
        auto inner = scf::ForOp::create(
            b, l, cst(0), cst(oh), cst(1), ValueRange{target},
            [&](OpBuilder &ib, Location il, Value y, ValueRange colAcc) {
              Value row = arith::AddIOp::create(
                  ib, il,
                  arith::MulIOp::create(
                      ib, il, y,
                      arith::ConstantIndexOp::create(ib, il, strides[0])),
                  rowOffset);
              SmallVector<OpFoldResult> offsets = {ib.getIndexAttr(0), channel,
                                                   row, colOffset};
              SmallVector<OpFoldResult> sizes = {
                  ib.getIndexAttr(1), ib.getIndexAttr(1), ib.getIndexAttr(1),
                  ib.getIndexAttr(ow)};
              SmallVector<OpFoldResult> steps = {
                  ib.getIndexAttr(1), ib.getIndexAttr(1), ib.getIndexAttr(1),
                  ib.getIndexAttr(strides[1])};
              Value slice = tensor::ExtractSliceOp::create(
                  ib, il, RankedTensorType::get({ow}, imageElement), image,
                  offsets, sizes, steps);
              SmallVector<OpFoldResult> place = {at, y, ib.getIndexAttr(0)};
              SmallVector<OpFoldResult> one3(3, ib.getIndexAttr(1));
              SmallVector<OpFoldResult> rowSizes = {
                  ib.getIndexAttr(1), ib.getIndexAttr(1), ib.getIndexAttr(ow)};
              Value inserted = tensor::InsertSliceOp::create(
                  ib, il, slice, colAcc[0], place, rowSizes, one3);
              scf::YieldOp::create(ib, il, inserted);
            });
        return inner.getResult(0);
      };
      Value rows;
      if (numThreads > 1) {
        // With threads, the rows of col split between them: each writes
        // the slab [1, OH, OW] of its rows r in place.
        auto loop = scf::ForallOp::create(
            rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(k)},
            ValueRange{empty}, std::nullopt);
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(loop.getTerminator());
        Value r = loop.getInductionVar(0);
        Value shared = loop.getRegionIterArgs()[0];
        SmallVector<OpFoldResult> at = {r, rewriter.getIndexAttr(0),
                                        rewriter.getIndexAttr(0)};
        SmallVector<OpFoldResult> slabSizes = {rewriter.getIndexAttr(1),
                                               rewriter.getIndexAttr(oh),
                                               rewriter.getIndexAttr(ow)};
        SmallVector<OpFoldResult> ones(3, rewriter.getIndexAttr(1));
        Value slab = tensor::ExtractSliceOp::create(
            rewriter, loc, RankedTensorType::get({1, oh, ow}, imageElement),
            shared, at, slabSizes, ones);
        slab = writeRows(rewriter, loc, r, slab, rewriter.getIndexAttr(0));
        rewriter.setInsertionPointToStart(loop.getTerminator().getBody());
        tensor::ParallelInsertSliceOp::create(rewriter, loc, slab, shared, at,
                                              slabSizes, ones);
        rows = loop.getResult(0);
      } else {
        rows = scf::ForOp::create(
                   rewriter, loc, zero, index(k), one, ValueRange{empty},
                   [&](OpBuilder &b, Location l, Value r, ValueRange acc) {
                     scf::YieldOp::create(b, l, writeRows(b, l, r, acc[0], r));
                   })
                   .getResult(0);
      }
      col = tensor::CollapseShapeOp::create(
          rewriter, loc, RankedTensorType::get({k, p}, imageElement), rows,
          ArrayRef<ReassociationIndices>{{0}, {1, 2}});
    }
    if (narrow)
      col = rewiden(rewriter, loc, col, narrow->imageWidening);
    // The product starts from the init's fill value, else from zeros with
    // the init (a bias) added after it, in the epilogue.
    bool filled = init.getDefiningOp<linalg::FillOp>() != nullptr;
    Value start = init;
    if (!filled) {
      Value zero = arith::ConstantOp::create(rewriter, loc,
                                             rewriter.getZeroAttr(element));
      start =
          linalg::FillOp::create(
              rewriter, loc, zero,
              tensor::EmptyOp::create(rewriter, loc, yType.getShape(), element)
                  .getResult())
              .getResult(0);
    }
    auto outType = RankedTensorType::get({f, p}, element);
    Value acc = tensor::CollapseShapeOp::create(
        rewriter, loc, outType, start,
        ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
    Value product =
        linalg::MatmulOp::create(rewriter, loc, TypeRange{outType},
                                 ValueRange{filter, col}, ValueRange{acc})
            .getResult(0);
    Value result = tensor::ExpandShapeOp::create(
        rewriter, loc, yType, product,
        ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
    rewriter.replaceOp(op,
                       filled ? result : addInit(rewriter, loc, result, init));
    return success();
  }

  /// Whether Winograd's F(m, 3) along the rows (winogradConv) computes a 3x3
  /// convolution with unit strides and dilations and a constant filter: when
  /// its products go by rows (whole filter blocks, a row segment) and its
  /// multiplications, with the rows of the last tile past OH, are at most
  /// 0.8 of the direct convolution's.
  bool useWinograd(int64_t c, int64_t f, int64_t oh, int64_t ow) const {
    if (!winograd || c * 3 < kMinDirectConvSteps ||
        rowSegment(target, ow) < 5 || f % target.matmulTileN() != 0)
      return false;
    int64_t tiles = llvm::divideCeilSigned(oh, winograd->m);
    return 10 * 3 * winograd->alpha * tiles <= 8 * 9 * oh;
  }

  CPUTarget target;
  unsigned numThreads;
  std::optional<WinogradRows> winograd;
};

/// The output tile of a convolution of dynamic size (DynamicConvToTiles):
/// this many rows by this many columns of output positions.
constexpr int64_t kDynamicConvTileRows = 8;
constexpr int64_t kDynamicConvTileCols = 16;

/// A 2-D convolution whose batch or image size is dynamic, with static
/// channels, filters and window (an R-CNN's backbone on an image whose size
/// the model computes): a loop nest over its images and over tiles of
/// kDynamicConvTileRows x kDynamicConvTileCols output positions (a static
/// output dim is one tile). Each tile is the static convolution of the
/// image's slice under it, padded with zeros at its end to the tile's
/// static size (the padding only reaches positions past the output's end),
/// which ConvToMatmul then rewrites like any static convolution (direct, or
/// a packed matmul); its valid positions are inserted into the output. The
/// dynamic op would stay a scalar loop nest that sums each output in one
/// accumulator through all of C x KH x KW (ten times slower than ONNX
/// Runtime on Faster R-CNN, and four times further from float64).
struct DynamicConvToTiles : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "on buffers");
    Value x = op.getDpsInputs()[0], w = op.getDpsInputs()[1];
    Value init = op.getDpsInits()[0];
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    auto wType = dyn_cast<RankedTensorType>(w.getType());
    auto yType = dyn_cast<RankedTensorType>(init.getType());
    if (!xType || !wType || !yType)
      return rewriter.notifyMatchFailure(op, "unranked");
    if (!xType.getElementType().isF32() || !wType.getElementType().isF32() ||
        !yType.getElementType().isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    if (xType.hasStaticShape() && yType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "static");
    if (!wType.hasStaticShape() || xType.isDynamicDim(1) ||
        yType.isDynamicDim(1))
      return rewriter.notifyMatchFailure(op, "dynamic channels or filters");
    SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());
    int64_t c = wType.getDimSize(1), f = wType.getDimSize(0),
            kh = wType.getDimSize(2), kw = wType.getDimSize(3);
    auto tileSize = [&](int64_t dim, int64_t size) {
      return yType.isDynamicDim(dim) ? size : yType.getDimSize(dim);
    };
    int64_t rows = tileSize(2, kDynamicConvTileRows),
            cols = tileSize(3, kDynamicConvTileCols);
    if (rows == 0 || cols == 0 || f == 0 || c == 0 || kh == 0 || kw == 0)
      return rewriter.notifyMatchFailure(op, "empty");
    int64_t tileH = (rows - 1) * strides[0] + (kh - 1) * dilations[0] + 1;
    int64_t tileW = (cols - 1) * strides[1] + (kw - 1) * dilations[1] + 1;
    Type f32 = rewriter.getF32Type();
    auto xTileType = RankedTensorType::get({1, c, tileH, tileW}, f32);
    auto yTileType = RankedTensorType::get({1, f, rows, cols}, f32);

    Location loc = op.getLoc();
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    auto dim = [&](Value v, int64_t d) -> Value {
      return tensor::DimOp::create(rewriter, loc, v, d);
    };
    Value zero = index(0), one = index(1);
    Value images = dim(init, 0), outH = dim(init, 2), outW = dim(init, 3);
    Value inH = dim(x, 2), inW = dim(x, 3);
    Value padValue =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32));
    auto fill = init.getDefiningOp<linalg::FillOp>();
    Value start = fill ? fill.getOutputs()[0] : init;

    // The loops are built first and their bodies in place after, so that
    // the rewrite driver sees the tile's convolution as a new op.
    auto imageLoop =
        scf::ForOp::create(rewriter, loc, zero, images, one, ValueRange{start});
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(imageLoop.getBody());
    auto rowLoop =
        scf::ForOp::create(rewriter, loc, zero, outH, index(rows),
                           ValueRange{imageLoop.getRegionIterArgs()[0]});
    scf::YieldOp::create(rewriter, loc, rowLoop.getResult(0));
    rewriter.setInsertionPointToStart(rowLoop.getBody());
    auto colLoop =
        scf::ForOp::create(rewriter, loc, zero, outW, index(cols),
                           ValueRange{rowLoop.getRegionIterArgs()[0]});
    scf::YieldOp::create(rewriter, loc, colLoop.getResult(0));
    rewriter.setInsertionPointToStart(colLoop.getBody());

    Value n = imageLoop.getInductionVar();
    Value oy = rowLoop.getInductionVar(), ox = colLoop.getInductionVar();
    Value acc = colLoop.getRegionIterArgs()[0];
    auto minus = [&](Value a, Value b) -> Value {
      return arith::SubIOp::create(rewriter, loc, a, b);
    };
    auto atMost = [&](int64_t bound, Value v) -> Value {
      return arith::MinSIOp::create(rewriter, loc, index(bound), v);
    };
    // The tile's valid output positions, and the image it reads.
    Value validH = atMost(rows, minus(outH, oy));
    Value validW = atMost(cols, minus(outW, ox));
    Value y0 = arith::MulIOp::create(rewriter, loc, oy, index(strides[0]));
    Value x0 = arith::MulIOp::create(rewriter, loc, ox, index(strides[1]));
    Value readH = atMost(tileH, minus(inH, y0));
    Value readW = atMost(tileW, minus(inW, x0));

    auto attr = [&](int64_t v) -> OpFoldResult {
      return rewriter.getIndexAttr(v);
    };
    SmallVector<OpFoldResult> unit(4, attr(1));
    // The [1, channels, h, w] slice at (n, 0, r, col) of `v`, padded with
    // zeros at its end to the static `padded`.
    auto tileOf = [&](Value v, int64_t channels, Value r, Value col, Value h,
                      Value wd, RankedTensorType padded) -> Value {
      SmallVector<OpFoldResult> offsets = {n, attr(0), r, col};
      SmallVector<OpFoldResult> sizes = {attr(1), attr(channels), h, wd};
      Value slice = tensor::ExtractSliceOp::create(rewriter, loc, v, offsets,
                                                   sizes, unit);
      SmallVector<OpFoldResult> low(4, attr(0));
      SmallVector<OpFoldResult> high = {attr(0), attr(0),
                                        minus(index(padded.getDimSize(2)), h),
                                        minus(index(padded.getDimSize(3)), wd)};
      return tensor::PadOp::create(rewriter, loc, padded, slice, low, high,
                                   padValue);
    };
    Value xTile = tileOf(x, c, y0, x0, readH, readW, xTileType);
    Value yInit = elementAccumulator(rewriter, loc, fill, yTileType, [&] {
      return tileOf(acc, f, oy, ox, validH, validW, yTileType);
    });
    Value conv = linalg::Conv2DNchwFchwOp::create(
                     rewriter, loc, TypeRange{yTileType}, ValueRange{xTile, w},
                     ValueRange{yInit}, op.getStrides(), op.getDilations())
                     .getResult(0);
    SmallVector<OpFoldResult> validSizes = {attr(1), attr(f), validH, validW};
    Value valid = tensor::ExtractSliceOp::create(
        rewriter, loc, conv, SmallVector<OpFoldResult>(4, attr(0)), validSizes,
        unit);
    SmallVector<OpFoldResult> at = {n, attr(0), oy, ox};
    Value inserted = tensor::InsertSliceOp::create(rewriter, loc, valid, acc,
                                                   at, validSizes, unit);
    scf::YieldOp::create(rewriter, loc, inserted);
    rewriter.replaceOp(op, imageLoop.getResult(0));
    return success();
  }
};

/// The KH * KW windows of the NCHW image `x` that a 2-D window op with
/// output shape `shape` reads: tap (ky, kx) is the strided view
/// x[:, :, ky d0 + oh s0, kx d1 + ow s1] of that shape (no copies).
static SmallVector<Value> stridedWindows(PatternRewriter &rewriter,
                                         Location loc, Value x,
                                         ArrayRef<int64_t> shape, int64_t kh,
                                         int64_t kw, ArrayRef<int64_t> strides,
                                         ArrayRef<int64_t> dilations) {
  Type element = cast<RankedTensorType>(x.getType()).getElementType();
  SmallVector<OpFoldResult> sizes, steps;
  for (int64_t d : shape)
    sizes.push_back(rewriter.getIndexAttr(d));
  steps = {rewriter.getIndexAttr(1), rewriter.getIndexAttr(1),
           rewriter.getIndexAttr(strides[0]),
           rewriter.getIndexAttr(strides[1])};
  SmallVector<Value> windows;
  for (int64_t ky = 0; ky < kh; ++ky)
    for (int64_t kx = 0; kx < kw; ++kx) {
      SmallVector<OpFoldResult> offsets = {
          rewriter.getIndexAttr(0), rewriter.getIndexAttr(0),
          rewriter.getIndexAttr(ky * dilations[0]),
          rewriter.getIndexAttr(kx * dilations[1])};
      windows.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, RankedTensorType::get(shape, element), x, offsets,
          sizes, steps));
    }
  return windows;
}

/// The windows of a 2-D window op over an image zero-padded along H and W
/// (`pad`), read from the image without its padded copy: the image sits in
/// a buffer [N, C, R, W] of rows of zeros above and below it, filled once;
/// viewed flat per channel, the tap (ky, kx) of output (oh, ow) is element
/// (B + oh sy + ky dy - pt) W + ow sx + kx dx - pl, B the rows above. A
/// row's first or last taps then read the last or first element of the
/// next or previous row, not the padding: each window comes with the output
/// columns [lo, hi) whose reads are inside the image, and the op replaces
/// the others by zeros. The image is inserted into the buffer with
/// kWriteInPlaceAttr, so that its producer writes it there: a 1x1
/// convolution before a depthwise one (MobileNetV2's blocks) writes the
/// buffer the depthwise one reads, where the padded copy was a pass over the
/// whole image (2.5 of 16 ms of a MobileNetV2 run). Nothing when the pad is
/// not a static zero pad of H and W or the windows do not fit the layout.
struct BufferedWindows {
  SmallVector<Value> windows;
  SmallVector<std::pair<int64_t, int64_t>> validColumns;
};
static std::optional<BufferedWindows>
bufferedWindows(PatternRewriter &rewriter, Location loc, Operation *op,
                tensor::PadOp pad, ArrayRef<int64_t> shape, int64_t kh,
                int64_t kw, ArrayRef<int64_t> strides,
                ArrayRef<int64_t> dilations) {
  Value padValue = pad.getConstantPaddingValue();
  RankedTensorType sourceType = pad.getSourceType();
  if (!padValue || !matchPattern(padValue, m_PosZeroFloat()) ||
      !sourceType.hasStaticShape() || !sourceType.getElementType().isF32() ||
      sourceType.getRank() != 4 ||
      ShapedType::isDynamicShape(pad.getStaticLow()) ||
      ShapedType::isDynamicShape(pad.getStaticHigh()))
    return std::nullopt;
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  if (low[0] || low[1] || high[0] || high[1])
    return std::nullopt;
  int64_t n = sourceType.getDimSize(0), c = sourceType.getDimSize(1),
          h = sourceType.getDimSize(2), w = sourceType.getDimSize(3);
  int64_t pt = low[2], pl = low[3];
  int64_t oh = shape[2], ow = shape[3];
  int64_t sy = strides[0], sx = strides[1], dy = dilations[0],
          dx = dilations[1];
  if (n == 0 || c == 0 || h == 0 || w == 0 || oh == 0 || ow == 0 || pl > w ||
      (ow - 1) * sx + 1 > sy * w)
    return std::nullopt;
  // Rows of zeros above the image: the padding's, and one more whose end
  // the first taps of a row read when there is padding on the left.
  int64_t above = pt + (pl > 0 ? 1 : 0);
  SmallVector<int64_t> offsets;
  int64_t end = above + h;
  for (int64_t ky = 0; ky < kh; ++ky)
    for (int64_t kx = 0; kx < kw; ++kx) {
      int64_t offset = (above + ky * dy - pt) * w + kx * dx - pl;
      if (offset < 0)
        return std::nullopt;
      offsets.push_back(offset);
      // Each window views OH rows of sy * W elements from its offset.
      end = std::max(end, llvm::divideCeilSigned(offset + oh * sy * w, w));
    }
  int64_t rows = end;

  Type f32 = rewriter.getF32Type();
  auto bufferType = RankedTensorType::get({n, c, rows, w}, f32);
  SmallVector<OpFoldResult> ones(4, rewriter.getIndexAttr(1));
  auto index = [&](int64_t v) -> OpFoldResult {
    return rewriter.getIndexAttr(v);
  };
  // The buffer and its rows of zeros (onnx-cpu-tile-and-vectorize moves
  // them before the image's producer, which then writes into the buffer).
  Value buffer;
  {
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32));
    buffer = tensor::EmptyOp::create(rewriter, loc, bufferType.getShape(), f32);
    // Named after the op, so that CSE does not make one buffer of two
    // layers' of the same shape (written in place by both producers, it
    // would be copied).
    buffer.getDefiningOp()->setAttr(kBufferOfAttr, op->getLoc());
    for (auto [first, count] : {std::pair<int64_t, int64_t>{0, above},
                                {above + h, rows - above - h}}) {
      if (count == 0)
        continue;
      SmallVector<OpFoldResult> at = {index(0), index(0), index(first),
                                      index(0)};
      SmallVector<OpFoldResult> sizes = {index(n), index(c), index(count),
                                         index(w)};
      Value slab = tensor::ExtractSliceOp::create(
          rewriter, loc, RankedTensorType::get({n, c, count, w}, f32), buffer,
          at, sizes, ones);
      Value filled =
          linalg::FillOp::create(rewriter, loc, zero, slab).getResult(0);
      buffer = tensor::InsertSliceOp::create(rewriter, loc, filled, buffer, at,
                                             sizes, ones);
    }
  }
  auto insert = tensor::InsertSliceOp::create(
      rewriter, loc, pad.getSource(), buffer,
      ArrayRef<OpFoldResult>{index(0), index(0), index(above), index(0)},
      ArrayRef<OpFoldResult>{index(n), index(c), index(h), index(w)}, ones);
  insert->setAttr(kWriteInPlaceAttr, rewriter.getUnitAttr());
  Value flat = tensor::CollapseShapeOp::create(
      rewriter, loc, RankedTensorType::get({n, c, rows * w}, f32), insert,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});

  BufferedWindows result;
  int64_t t = 0;
  for (int64_t ky = 0; ky < kh; ++ky)
    for (int64_t kx = 0; kx < kw; ++kx, ++t) {
      Value span = tensor::ExtractSliceOp::create(
          rewriter, loc, RankedTensorType::get({n, c, oh * sy * w}, f32), flat,
          ArrayRef<OpFoldResult>{index(0), index(0), index(offsets[t])},
          ArrayRef<OpFoldResult>{index(n), index(c), index(oh * sy * w)},
          ArrayRef<OpFoldResult>{index(1), index(1), index(1)});
      Value byRows = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({n, c, oh, sy * w}, f32), span,
          ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}});
      result.windows.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, RankedTensorType::get(shape, f32), byRows,
          ArrayRef<OpFoldResult>{index(0), index(0), index(0), index(0)},
          ArrayRef<OpFoldResult>{index(n), index(c), index(oh), index(ow)},
          ArrayRef<OpFoldResult>{index(1), index(1), index(1), index(sx)}));
      // Column ow * sx + kx * dx - pl is in [0, W) for ow in [lo, hi).
      int64_t shift = pl - kx * dx;
      int64_t lo = shift > 0 ? llvm::divideCeilSigned(shift, sx) : 0;
      int64_t last = w - 1 + shift;
      int64_t hi = last < 0 ? 0 : std::min(ow, last / sx + 1);
      result.validColumns.push_back({std::min(lo, ow), std::max(hi, lo)});
    }
  return result;
}

/// The output of an elementwise op that replaces a named op accumulating
/// into `init`, and the value its body starts from: a fill's scalar and an
/// empty output when `init` is a fill (so that the op does not read its
/// output: an scf.forall over it then writes each thread's slice in place,
/// where reading it made bufferization copy the slice), else `init` and the
/// body's output element (null).
std::pair<Value, Value> accumulatorStart(PatternRewriter &rewriter,
                                         Location loc, Value init) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return {init, Value()};
  auto type = cast<RankedTensorType>(init.getType());
  Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                        type.getElementType());
  return {empty, fill.getInputs()[0]};
}

/// When `init` is a broadcast into an empty tensor (a Conv's bias, as
/// [C] -> [N, C, H, W]), the broadcast's source, its indexing map and the
/// empty tensor: an elementwise op that reads the source as an input starts
/// its sums from it without the broadcast being written and read back (the
/// output then is only written, and elementwise fusion can drop it when
/// only the activation after it is used).
std::optional<std::tuple<Value, AffineMap, Value>> broadcastStart(Value init) {
  auto generic = init.getDefiningOp<linalg::GenericOp>();
  if (!generic || !linalg::isaBroadcastOpInterface(generic) ||
      !generic.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())
    return std::nullopt;
  return std::make_tuple(
      generic.getDpsInputs()[0],
      generic.getMatchingIndexingMap(generic.getDpsInputOperand(0)),
      generic.getDpsInits()[0]);
}

/// A depthwise 2-D convolution, y[n, c, oh, ow] = init + sum over (ky, kx)
/// of w[c, ky, kx] * x[n, c, oh s0 + ky d0, ow s1 + kx d1], as one
/// elementwise op over y whose inputs are the KH * KW strided windows of x
/// (views, no copies) and the matching columns of w: a loop over ow that
/// onnx-cpu-tile-and-vectorize vectorizes, where the named op would stay a
/// scalar loop nest.
struct DepthwiseConvToElementwise
    : OpRewritePattern<linalg::DepthwiseConv2DNchwChwOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::DepthwiseConv2DNchwChwOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(matchStaticF32(rewriter, op)))
      return failure();
    Value x = op.getDpsInputs()[0], w = op.getDpsInputs()[1];
    Value init = op.getDpsInits()[0];
    auto wType = cast<RankedTensorType>(w.getType());
    auto yType = cast<RankedTensorType>(init.getType());
    Type f32 = rewriter.getF32Type();
    int64_t kh = wType.getDimSize(1), kw = wType.getDimSize(2);
    if (kh * kw > 49)
      return rewriter.notifyMatchFailure(op, "kernel larger than 7x7");
    SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());
    Location loc = op.getLoc();
    int64_t channels = wType.getDimSize(0);

    SmallVector<Value> windows;
    SmallVector<std::pair<int64_t, int64_t>> validColumns;
    std::optional<BufferedWindows> buffered;
    if (auto pad = x.getDefiningOp<tensor::PadOp>())
      buffered = bufferedWindows(rewriter, loc, op, pad, yType.getShape(), kh,
                                 kw, strides, dilations);
    if (buffered) {
      windows = std::move(buffered->windows);
      validColumns = std::move(buffered->validColumns);
    } else {
      windows = stridedWindows(rewriter, loc, x, yType.getShape(), kh, kw,
                               strides, dilations);
    }
    SmallVector<Value> columns;
    for (int64_t ky = 0; ky < kh; ++ky)
      for (int64_t kx = 0; kx < kw; ++kx)
        columns.push_back(tensor::ExtractSliceOp::create(
            rewriter, loc, RankedTensorType::get({channels}, f32), w,
            ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0),
                                   rewriter.getIndexAttr(ky),
                                   rewriter.getIndexAttr(kx)},
            ArrayRef<OpFoldResult>{rewriter.getIndexAttr(channels),
                                   rewriter.getIndexAttr(1),
                                   rewriter.getIndexAttr(1)},
            ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                                   rewriter.getIndexAttr(1),
                                   rewriter.getIndexAttr(1)}));
    MLIRContext *ctx = rewriter.getContext();
    AffineMap identity = rewriter.getMultiDimIdentityMap(4);
    AffineMap channel = AffineMap::get(4, 0, {getAffineDimExpr(1, ctx)}, ctx);
    SmallVector<AffineMap> maps(windows.size(), identity);
    maps.append(columns.size(), channel);
    maps.push_back(identity);
    SmallVector<Value> inputs = windows;
    inputs.append(columns.begin(), columns.end());
    int64_t taps = windows.size();
    auto [output, start] = accumulatorStart(rewriter, loc, init);
    // A bias broadcast is read as an input, not as the output.
    bool biasInput = false;
    if (!start)
      if (auto bias = broadcastStart(init)) {
        auto [source, map, empty] = *bias;
        inputs.push_back(source);
        maps.insert(maps.end() - 1, map);
        output = empty;
        biasInput = true;
      }
    // A read outside the image's columns (the neighbouring row's element)
    // is a zero of the padding: its bits are and-ed with a mask of the
    // output columns, all ones where the read is inside the image (one
    // vandps a tap, where a select on the column index was compares and
    // blends of 64-bit lanes, and doubled the op's time).
    SmallVector<int64_t> maskArg(taps, -1);
    {
      int64_t ow = yType.getDimSize(3);
      llvm::SmallDenseMap<std::pair<int64_t, int64_t>, int64_t> masks;
      AffineMap column = AffineMap::get(4, 0, {getAffineDimExpr(3, ctx)}, ctx);
      for (auto [t, valid] : llvm::enumerate(validColumns)) {
        auto [lo, hi] = valid;
        if (lo == 0 && hi == ow)
          continue;
        auto [it, inserted] = masks.try_emplace(valid, inputs.size());
        if (inserted) {
          SmallVector<int32_t> bits(ow, 0);
          for (int64_t i = lo; i < hi; ++i)
            bits[i] = -1;
          auto type = RankedTensorType::get({ow}, rewriter.getI32Type());
          inputs.push_back(arith::ConstantOp::create(
              rewriter, loc, DenseElementsAttr::get(type, ArrayRef(bits))));
          maps.insert(maps.end() - 1, column);
        }
        maskArg[t] = it->second;
      }
    }
    rewriter.replaceOpWithNewOp<linalg::GenericOp>(
        op, TypeRange{yType}, inputs, ValueRange{output}, maps,
        SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value acc = start ? start : biasInput ? args[2 * taps] : args.back();
          for (int64_t t = 0; t < taps; ++t) {
            Value tap = args[t];
            if (maskArg[t] >= 0) {
              Value bits = arith::BitcastOp::create(b, l, b.getI32Type(), tap);
              bits = arith::AndIOp::create(b, l, bits, args[maskArg[t]]);
              tap = arith::BitcastOp::create(b, l, f32, bits);
            }
            acc = arith::AddFOp::create(
                b, l, acc, arith::MulFOp::create(b, l, tap, args[taps + t]));
          }
          linalg::YieldOp::create(b, l, acc);
        });
    return success();
  }
};

/// A range [begin, end) of output rows (or columns) whose windows read the
/// same taps, `taps` (bit k: tap k), inside the unpadded image.
struct TapRange {
  int64_t begin, end;
  uint64_t taps;
};

/// The output rows (or columns) of a window op grouped into ranges that read
/// the same taps of an image of `size` padded by `before`: tap k of output
/// i reads element stride * i + dilation * k - before. Empty when some
/// output reads no element of the image.
SmallVector<TapRange> tapRanges(int64_t outputs, int64_t kernel, int64_t stride,
                                int64_t dilation, int64_t before,
                                int64_t size) {
  SmallVector<TapRange> ranges;
  for (int64_t i = 0; i < outputs; ++i) {
    uint64_t taps = 0;
    for (int64_t k = 0; k < kernel; ++k) {
      int64_t at = stride * i + dilation * k - before;
      if (at >= 0 && at < size)
        taps |= uint64_t(1) << k;
    }
    if (taps == 0)
      return {};
    if (!ranges.empty() && ranges.back().taps == taps)
      ranges.back().end = i + 1;
    else
      ranges.push_back({i, i + 1, taps});
  }
  return ranges;
}

/// Max and sum pooling over NCHW, y = combine(init, x[window tap 0], ...,
/// x[window tap KH*KW-1]) in the named op's order (ky, then kx), as one
/// elementwise op over y whose inputs are the strided windows of x, which
/// onnx-cpu-tile-and-vectorize vectorizes (MaxPool and AveragePool's sum;
/// the named ops stay scalar loop nests).
///
/// When x is the image padded along H and W with the combine's identity
/// (-inf for max, zero for sums) and every window reads some of the image,
/// the padded copy is not made: y is computed in blocks of rows and columns
/// whose windows read the same taps inside the image (a border row or
/// column, the interior), each an elementwise op over the image's windows
/// without the taps that fall in the padding. ResNet-50's MaxPool (3x3,
/// stride 2, padded by one row and column of -inf) copied 3.2 MB into its
/// padded buffer per run.
template <typename PoolOp, typename CombineOp>
struct PoolingToElementwise : OpRewritePattern<PoolOp> {
  using OpRewritePattern<PoolOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(PoolOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(matchStaticF32(rewriter, op)))
      return failure();
    Value x = op.getDpsInputs()[0], window = op.getDpsInputs()[1];
    Value init = op.getDpsInits()[0];
    auto windowType = cast<RankedTensorType>(window.getType());
    auto yType = cast<RankedTensorType>(init.getType());
    int64_t kh = windowType.getDimSize(0), kw = windowType.getDimSize(1);
    if (kh * kw > 49)
      return rewriter.notifyMatchFailure(op, "window larger than 7x7");
    SmallVector<int64_t> strides(op.getStrides().template getValues<int64_t>());
    SmallVector<int64_t> dilations(
        op.getDilations().template getValues<int64_t>());
    Location loc = op.getLoc();
    auto [output, start] = accumulatorStart(rewriter, loc, init);
    if (succeeded(withoutPadding(rewriter, op, x, output, start, kh, kw,
                                 strides, dilations)))
      return success();
    SmallVector<Value> windows = stridedWindows(
        rewriter, loc, x, yType.getShape(), kh, kw, strides, dilations);
    rewriter.replaceOp(op, combine(rewriter, loc, windows, output, start));
    return success();
  }

  /// An elementwise op combining `windows` into `output` (from `start`, else
  /// from the output's element).
  static Value combine(OpBuilder &rewriter, Location loc,
                       ArrayRef<Value> windows, Value output, Value start) {
    AffineMap identity = rewriter.getMultiDimIdentityMap(4);
    SmallVector<AffineMap> maps(windows.size() + 1, identity);
    return linalg::GenericOp::create(
               rewriter, loc, TypeRange{output.getType()}, windows,
               ValueRange{output}, maps,
               SmallVector<utils::IteratorType>(4,
                                                utils::IteratorType::parallel),
               [&](OpBuilder &b, Location l, ValueRange args) {
                 Value acc = start ? start : args.back();
                 for (Value tap : args.drop_back())
                   acc = CombineOp::create(b, l, acc, tap);
                 linalg::YieldOp::create(b, l, acc);
               })
        .getResult(0);
  }

  /// The pool over the unpadded image, in blocks (see the struct's comment),
  /// when `x` is such a padded image.
  LogicalResult withoutPadding(PatternRewriter &rewriter, PoolOp op, Value x,
                               Value output, Value start, int64_t kh,
                               int64_t kw, ArrayRef<int64_t> strides,
                               ArrayRef<int64_t> dilations) const {
    auto pad = x.getDefiningOp<tensor::PadOp>();
    if (!pad)
      return failure();
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    if (low.size() != 4 || low[0] || low[1] || high[0] || high[1] ||
        llvm::any_of(llvm::concat<const int64_t>(low, high),
                     ShapedType::isDynamic))
      return failure();
    // The padding must be the combine's identity.
    Value padValue = pad.getConstantPaddingValue();
    FloatAttr value;
    if (!padValue || !matchPattern(padValue, m_Constant(&value)))
      return failure();
    bool isMax = std::is_same_v<CombineOp, arith::MaximumFOp>;
    if (isMax
            ? !(value.getValue().isInfinity() && value.getValue().isNegative())
            : !value.getValue().isZero())
      return failure();
    Value image = pad.getSource();
    auto imageType = dyn_cast<RankedTensorType>(image.getType());
    auto yType = cast<RankedTensorType>(output.getType());
    if (!imageType || !imageType.hasStaticShape())
      return failure();
    SmallVector<TapRange> rows =
        tapRanges(yType.getDimSize(2), kh, strides[0], dilations[0], low[2],
                  imageType.getDimSize(2));
    SmallVector<TapRange> cols =
        tapRanges(yType.getDimSize(3), kw, strides[1], dilations[1], low[3],
                  imageType.getDimSize(3));
    if (rows.empty() || cols.empty() || rows.size() * cols.size() > 9)
      return failure();
    Location loc = op.getLoc();
    Type element = imageType.getElementType();
    auto index = [&](int64_t v) -> OpFoldResult {
      return rewriter.getIndexAttr(v);
    };
    Value result = output;
    for (const TapRange &r : rows)
      for (const TapRange &c : cols) {
        SmallVector<int64_t> shape = {yType.getDimSize(0), yType.getDimSize(1),
                                      r.end - r.begin, c.end - c.begin};
        SmallVector<OpFoldResult> sizes = llvm::map_to_vector(shape, index);
        SmallVector<OpFoldResult> steps = {
            index(1), index(1), index(strides[0]), index(strides[1])};
        SmallVector<Value> windows;
        for (int64_t ky = 0; ky < kh; ++ky)
          for (int64_t kx = 0; kx < kw; ++kx) {
            if (!(r.taps >> ky & 1) || !(c.taps >> kx & 1))
              continue;
            SmallVector<OpFoldResult> offsets = {
                index(0), index(0),
                index(strides[0] * r.begin + dilations[0] * ky - low[2]),
                index(strides[1] * c.begin + dilations[1] * kx - low[3])};
            windows.push_back(tensor::ExtractSliceOp::create(
                rewriter, loc, RankedTensorType::get(shape, element), image,
                offsets, sizes, steps));
          }
        SmallVector<OpFoldResult> at = {index(0), index(0), index(r.begin),
                                        index(c.begin)};
        SmallVector<OpFoldResult> unit(4, index(1));
        Value block = tensor::ExtractSliceOp::create(
            rewriter, loc, RankedTensorType::get(shape, element), result, at,
            sizes, unit);
        Value combined = combine(rewriter, loc, windows, block, start);
        result = tensor::InsertSliceOp::create(rewriter, loc, combined, result,
                                               at, sizes, unit);
      }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A dynamic number of rows is multiplied in chunks of this many register
/// tiles of rows (CPUPackMatmulPass::tileDynamicRows).
constexpr int64_t kDynamicRowTiles = 8;

struct CPUPackMatmulPass
    : public onnx::impl::CPUPackMatmulBase<CPUPackMatmulPass> {
  using Base::Base;

  /// The target, resolved once before the pass runs on functions in
  /// parallel.
  LogicalResult initialize(MLIRContext *) override {
    target = CPUTarget::get(targetCPU, targetFeatures);
    return success();
  }
  CPUTarget target;
  /// A matmul whose rows are dynamic (a dynamic batch) and whose other dims
  /// are static: a loop over chunks of kDynamicRowTiles x matmulTileM()
  /// rows, peeled, so that each whole chunk is a static matmul that the
  /// pattern packs (the packed right-hand side is reused over the chunk's
  /// rows; 16-row chunks read it from memory once per 16 rows: 1.7x slower
  /// at 2 threads on transformer_dyn's FFN). With threads the loop over
  /// whole chunks is an scf.forall: transformer_dyn at 2 threads 22.3 ->
  /// 19.3 ms (medians of 8 alternated rounds), where each chunk's columns
  /// were split between the threads and its rows packed between two
  /// parallel regions. The rows after the last whole chunk go in tiles
  /// of matmulTileM() rows (an scf.forall with threads), each padded with
  /// rows of zeros to a static matmul whose padding rows are dropped.
  void tileDynamicRows() {
    SmallVector<linalg::MatmulOp> dynamic;
    getOperation().walk([&](linalg::MatmulOp op) {
      auto lhs = dyn_cast<RankedTensorType>(op.getDpsInputs()[0].getType());
      auto rhs = dyn_cast<RankedTensorType>(op.getDpsInputs()[1].getType());
      if (!op.hasUserDefinedMaps() && op.hasPureTensorSemantics() && lhs &&
          rhs && lhs.getElementType().isF32() &&
          ShapedType::isDynamic(lhs.getDimSize(0)) &&
          !ShapedType::isDynamic(lhs.getDimSize(1)) && rhs.hasStaticShape())
        dynamic.push_back(op);
    });
    if (dynamic.empty())
      return;
    IRRewriter rewriter(&getContext());
    int64_t rows = target.matmulTileM();
    auto tileRows = [&](linalg::MatmulOp op, int64_t size,
                        scf::SCFTilingOptions::LoopType type)
        -> FailureOr<scf::SCFTilingResult> {
      scf::SCFTilingOptions options;
      options.setTileSizes(getAsIndexOpFoldResult(&getContext(), {size, 0, 0}));
      options.setLoopType(type);
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled) || tiled->tiledOps.empty() || tiled->loops.empty())
        return failure();
      rewriter.replaceOp(op, tiled->replacements);
      return tiled;
    };
    for (linalg::MatmulOp op : dynamic) {
      FailureOr<scf::SCFTilingResult> chunks = tileRows(
          op, kDynamicRowTiles * rows, scf::SCFTilingOptions::LoopType::ForOp);
      if (failed(chunks))
        continue;
      auto loop = cast<scf::ForOp>(chunks->loops.front().getOperation());
      scf::ForOp partial;
      // The last chunk, when it may be partial, is peeled into `partial`;
      // else the loop's own matmul is the remainder (there is no whole chunk).
      linalg::MatmulOp remainder;
      if (succeeded(scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial)))
        partial.walk([&](linalg::MatmulOp m) { remainder = m; });
      // With threads, the whole chunks are shared out (each thread packs
      // its own chunks' rows) rather than each chunk's columns: the packing
      // of a chunk's rows and the load of its accumulators ran on one
      // thread between two parallel regions, one pair per chunk.
      if (numThreads > 1)
        (void)chunksToForall(rewriter, loop);
      if (!remainder)
        continue;
      FailureOr<scf::SCFTilingResult> tiles =
          tileRows(remainder, rows,
                   numThreads > 1 ? scf::SCFTilingOptions::LoopType::ForallOp
                                  : scf::SCFTilingOptions::LoopType::ForOp);
      if (failed(tiles))
        continue;
      if (auto tile = dyn_cast<linalg::MatmulOp>(tiles->tiledOps.front()))
        padRows(rewriter, tile, rows);
    }
    // The whole chunks' slices get static types (the function is
    // canonicalized, as the pipeline does after this pass anyway).
    (void)applyCodegenPatterns(getOperation(), RewritePatternSet(&getContext()),
                               /*canonicalize=*/true);
  }

  /// `loop`, an scf.for whose one iter_arg is only sliced at the loop's
  /// induction variable (rows [iv, iv + step)) and whose yield inserts the
  /// body's result there, as the scf.forall that inserts it in parallel.
  static LogicalResult chunksToForall(RewriterBase &rewriter, scf::ForOp loop) {
    if (loop.getNumRegionIterArgs() != 1)
      return failure();
    Value iv = loop.getInductionVar();
    BlockArgument shared = loop.getRegionIterArgs()[0];
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    auto insert = yield.getOperand(0).getDefiningOp<tensor::InsertSliceOp>();
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    // A size is a constant, or (before canonicalization) an affine.apply
    // of a constant map.
    auto constant = [](OpFoldResult size) -> std::optional<int64_t> {
      if (std::optional<int64_t> value = getConstantIntValue(size))
        return value;
      auto value = dyn_cast_if_present<Value>(size);
      auto apply = value ? value.getDefiningOp<affine::AffineApplyOp>()
                         : affine::AffineApplyOp();
      if (apply && apply.getAffineMap().isSingleConstant())
        return apply.getAffineMap().getSingleConstantResult();
      return std::nullopt;
    };
    auto atChunk = [&](OffsetSizeAndStrideOpInterface slice) {
      SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
      SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
      return llvm::dyn_cast_if_present<Value>(offsets[0]) == iv &&
             constant(sizes[0]) == step &&
             llvm::all_of(llvm::drop_begin(offsets), isZeroInteger) &&
             slice.hasUnitStride();
    };
    if (!insert || !step || insert.getDest() != shared ||
        !insert->hasOneUse() || !atChunk(insert))
      return failure();
    for (OpOperand &use : shared.getUses()) {
      if (use.getOwner() == insert)
        continue;
      auto slice = dyn_cast<tensor::ExtractSliceOp>(use.getOwner());
      if (!slice || !atChunk(slice))
        return failure();
    }
    rewriter.setInsertionPoint(loop);
    SmallVector<OpFoldResult> lbs = {loop.getLowerBound()},
                              ubs = {loop.getUpperBound()},
                              steps = {loop.getStep()};
    auto forall =
        scf::ForallOp::create(rewriter, loop.getLoc(), lbs, ubs, steps,
                              loop.getInitArgs(), /*mapping=*/std::nullopt);
    IRMapping mapping;
    mapping.map(iv, forall.getInductionVars()[0]);
    mapping.map(shared, forall.getRegionIterArgs()[0]);
    rewriter.setInsertionPoint(forall.getTerminator());
    for (Operation &op : loop.getBody()->without_terminator())
      if (&op != insert.getOperation())
        rewriter.clone(op, mapping);
    auto mapped = [&](SmallVector<OpFoldResult> values) {
      for (OpFoldResult &value : values)
        if (auto v = dyn_cast<Value>(value))
          value = mapping.lookupOrDefault(v);
      return values;
    };
    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(
        rewriter, insert.getLoc(), mapping.lookup(insert.getSource()),
        forall.getRegionIterArgs()[0], mapped(insert.getMixedOffsets()),
        mapped(insert.getMixedSizes()), insert.getMixedStrides());
    rewriter.replaceOp(loop, forall.getResults());
    return success();
  }

  /// The fill value of `init` when it is a slice of a filled tensor (through
  /// the arguments of the loops around it).
  static Value filledWith(Value init) {
    while (true) {
      if (auto slice = init.getDefiningOp<tensor::ExtractSliceOp>()) {
        init = slice.getSource();
        continue;
      }
      if (auto arg = dyn_cast<BlockArgument>(init)) {
        Operation *owner = arg.getOwner()->getParentOp();
        if (auto loop = dyn_cast<scf::ForOp>(owner)) {
          if (OpOperand *tied = loop.getTiedLoopInit(arg)) {
            init = tied->get();
            continue;
          }
        } else if (auto loop = dyn_cast<scf::ForallOp>(owner)) {
          if (OpOperand *tied = loop.getTiedOpOperand(arg)) {
            init = tied->get();
            continue;
          }
        }
        return {};
      }
      auto fill = init.getDefiningOp<linalg::FillOp>();
      return fill ? fill.getInputs()[0] : Value();
    }
  }

  /// `tile`, a matmul of up to `rows` dynamic rows, as the static matmul of
  /// its rows padded with zeros to `rows`, whose first rows are its result.
  static void padRows(RewriterBase &rewriter, linalg::MatmulOp tile,
                      int64_t rows) {
    Value lhs = tile.getDpsInputs()[0], rhs = tile.getDpsInputs()[1],
          init = tile.getDpsInits()[0];
    auto lhsType = cast<RankedTensorType>(lhs.getType());
    auto initType = cast<RankedTensorType>(init.getType());
    if (!lhsType.isDynamicDim(0) || !initType.isDynamicDim(0))
      return;
    Location loc = tile.getLoc();
    rewriter.setInsertionPoint(tile);
    Type f32 = rewriter.getF32Type();
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f32));
    Value paddedLhs = tensor::createPadHighOp(
        RankedTensorType::get({rows, lhsType.getDimSize(1)}, f32), lhs, zero,
        /*nofold=*/false, loc, rewriter);
    auto accType = RankedTensorType::get({rows, initType.getDimSize(1)}, f32);
    Value acc;
    if (Value value = filledWith(init)) {
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, accType.getShape(), f32);
      acc = linalg::FillOp::create(rewriter, loc, value, empty).getResult(0);
    } else {
      acc = tensor::createPadHighOp(accType, init, zero, /*nofold=*/false, loc,
                                    rewriter);
    }
    Value product =
        linalg::MatmulOp::create(rewriter, loc, TypeRange{accType},
                                 ValueRange{paddedLhs, rhs}, ValueRange{acc})
            .getResult(0);
    SmallVector<OpFoldResult> offsets(2, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = {
        tensor::getMixedSize(rewriter, loc, lhs, 0),
        rewriter.getIndexAttr(initType.getDimSize(1))};
    SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        tile, initType, product, offsets, sizes, strides);
  }

  void runOnOperation() override {
    if (failed(checkTarget(target, getOperation())))
      return signalPassFailure();
    if (winograd != 0 && !winogradRows(winograd)) {
      getOperation().emitError()
          << "onnx-cpu-pack-matmul: winograd=" << winograd.getValue()
          << " is not one of 0 (off), 2 or 4";
      return signalPassFailure();
    }
    tileDynamicRows();
    RewritePatternSet patterns(&getContext());
    PackedConstants packed;
    patterns.add<MatmulToMmt4d>(&getContext(), target, packed);
    patterns.add<BatchMatmulToLoop>(&getContext(), numThreads);
    patterns.add<ConvToMatmul>(&getContext(), target, numThreads, winograd);
    patterns.add<DynamicConvToTiles>(&getContext());
    patterns
        .add<DepthwiseConvToElementwise,
             PoolingToElementwise<linalg::PoolingNchwMaxOp, arith::MaximumFOp>,
             PoolingToElementwise<linalg::PoolingNchwSumOp, arith::AddFOp>>(
            &getContext());
    // Only the matmuls and convolutions (and the matmuls these become): the
    // rest is left as it is (but for the canonicalization above, when a
    // matmul had dynamic rows).
    SmallVector<Operation *> matmuls;
    getOperation().walk([&](Operation *op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::Conv2DNchwFchwOp,
              linalg::DepthwiseConv2DNchwChwOp, linalg::PoolingNchwMaxOp,
              linalg::PoolingNchwSumOp>(op))
        matmuls.push_back(op);
    });
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(matmuls, std::move(patterns), config)))
      return signalPassFailure();
  }
};

} // namespace
