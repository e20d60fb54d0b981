//===- BlockedLayout.cpp - Convolutions on blocked activations ------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-cpu-blocked-layout: convolutions, depthwise convolutions and pools on
// activations in the blocked layout [N, C/c0, H, W, c0], c0 channels in the
// lanes of a vector, and the layout carried through the elementwise ops
// between them, so that it is converted once where activations enter and
// leave a chain of such ops rather than around each convolution.
//
//   y = conv(x, w)   becomes   y = unpack(blocked_conv(pack(x), w'))
//
// with w' packed here, at compile time; then an unpack feeding an
// elementwise generic moves after it (the generic computes on the blocked
// layout), pads and packs move through each other, and pack(unpack) of the
// same layout cancels.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Codegen/CPU/CPUTarget.h"
#include "OnnxDialect/Codegen/CPU/Passes.h"
#include "Winograd.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_CPUBLOCKEDLAYOUT
#include "OnnxDialect/Codegen/CPU/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// Whether `op` is a pack or unpack between [N, C, H, W] and the blocked
/// layout [N, C/c0, H, W, c0] (no padding, no transposition).
template <typename OpTy> bool isBlockedLayoutOp(OpTy op, int64_t c0) {
  if (!op || op.getInnerDimsPos() != ArrayRef<int64_t>{1} ||
      !op.getOuterDimsPerm().empty())
    return false;
  SmallVector<int64_t> tiles = op.getStaticTiles();
  if (tiles.size() != 1 || tiles[0] != c0)
    return false;
  auto unpacked = cast<RankedTensorType>(std::is_same_v<OpTy, linalg::PackOp>
                                             ? op->getOperand(0).getType()
                                             : op->getResult(0).getType());
  return unpacked.getRank() == 4 && unpacked.hasStaticShape() &&
         unpacked.getDimSize(1) % c0 == 0;
}

/// The blocked type of an [N, C, H, W] type.
RankedTensorType blockedType(RankedTensorType type, int64_t c0) {
  return RankedTensorType::get({type.getDimSize(0), type.getDimSize(1) / c0,
                                type.getDimSize(2), type.getDimSize(3), c0},
                               type.getElementType());
}

/// `x` [N, C, H, W] packed into [N, C/c0, H, W, c0].
Value packActivation(OpBuilder &b, Location loc, Value x, int64_t c0) {
  auto type = cast<RankedTensorType>(x.getType());
  RankedTensorType blocked = blockedType(type, c0);
  Value empty = tensor::EmptyOp::create(b, loc, blocked.getShape(),
                                        blocked.getElementType());
  return linalg::PackOp::create(b, loc, x, empty, ArrayRef<int64_t>{1},
                                ArrayRef<OpFoldResult>{b.getIndexAttr(c0)},
                                /*paddingValue=*/std::nullopt,
                                ArrayRef<int64_t>{})
      .getResult();
}

/// The blocked `y` unpacked into `type` [N, C, H, W].
Value unpackActivation(OpBuilder &b, Location loc, Value y,
                       RankedTensorType type, int64_t c0) {
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::UnPackOp::create(b, loc, y, empty, ArrayRef<int64_t>{1},
                                  ArrayRef<OpFoldResult>{b.getIndexAttr(c0)},
                                  ArrayRef<int64_t>{})
      .getResult();
}

/// The per-channel vector [C] that `init` broadcasts over [N, C, H, W] (a
/// convolution's bias), or null.
Value broadcastChannels(Value init) {
  auto generic = init.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumParallelLoops() != 4 || generic.getNumLoops() != 4)
    return {};
  OpOperand *input = generic.getDpsInputOperand(0);
  MLIRContext *ctx = init.getContext();
  if (generic.getMatchingIndexingMap(input) !=
          AffineMap::get(4, 0, getAffineDimExpr(1, ctx)) ||
      !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity())
    return {};
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  if (yield.getValues().size() != 1 ||
      yield.getValues()[0] != generic.getMatchingBlockArgument(input))
    return {};
  return input->get();
}

/// The accumulator's start in the blocked layout: a fill of `init`'s fill
/// value, a broadcast of its per-channel vector, else `init` packed.
Value blockedInit(OpBuilder &b, Location loc, Value init, int64_t c0) {
  auto type = cast<RankedTensorType>(init.getType());
  RankedTensorType blocked = blockedType(type, c0);
  Value empty = tensor::EmptyOp::create(b, loc, blocked.getShape(),
                                        blocked.getElementType());
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    return linalg::FillOp::create(b, loc, fill.getInputs()[0], empty)
        .getResult(0);
  if (Value channels = broadcastChannels(init)) {
    Value vector = tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get({blocked.getDimSize(1), c0},
                              blocked.getElementType()),
        channels, ArrayRef<ReassociationIndices>{{0, 1}});
    MLIRContext *ctx = b.getContext();
    SmallVector<AffineMap> maps = {
        AffineMap::get(
            5, 0, {getAffineDimExpr(1, ctx), getAffineDimExpr(4, ctx)}, ctx),
        b.getMultiDimIdentityMap(5)};
    return linalg::GenericOp::create(
               b, loc, TypeRange{blocked}, ValueRange{vector},
               ValueRange{empty}, maps,
               SmallVector<utils::IteratorType>(5,
                                                utils::IteratorType::parallel),
               [](OpBuilder &nb, Location nl, ValueRange args) {
                 linalg::YieldOp::create(nb, nl, args[0]);
               })
        .getResult(0);
  }
  return packActivation(b, loc, init, c0);
}

/// A new constant of `type` whose elements `element` computes from their
/// flat index, in a dense_resource blob.
Value packedConstant(OpBuilder &b, Location loc, RankedTensorType type,
                     function_ref<float(ArrayRef<int64_t>)> element) {
  int64_t count = type.getNumElements();
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocate(count * sizeof(float), alignof(float) * 16);
  MutableArrayRef<float> out(
      reinterpret_cast<float *>(blob.getMutableData().data()), count);
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t at = 0; at < count; ++at) {
    out[at] = element(index);
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return arith::ConstantOp::create(
      b, loc, type,
      DenseResourceElementsAttr::get(type, "onnx_packed_weights",
                                     std::move(blob)));
}

/// Whether every value of `type` is static f32.
bool isStaticF32(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && ranked.hasStaticShape() && ranked.getElementType().isF32();
}

/// The dims d0 ... d(n-1) of an op of `n` loops.
SmallVector<AffineExpr> loopDims(unsigned n, MLIRContext *ctx) {
  SmallVector<AffineExpr> dims;
  for (unsigned i = 0; i < n; ++i)
    dims.push_back(getAffineDimExpr(i, ctx));
  return dims;
}

/// The maps of a window read: (oh * s + ky * d) for the image's rows and
/// columns, from the loops `oh`, `ow`, `ky`, `kx`.
std::pair<AffineExpr, AffineExpr> windowExprs(MLIRContext *ctx, unsigned oh,
                                              unsigned ow, unsigned ky,
                                              unsigned kx,
                                              ArrayRef<int64_t> strides,
                                              ArrayRef<int64_t> dilations) {
  return {getAffineDimExpr(oh, ctx) * strides[0] +
              getAffineDimExpr(ky, ctx) * dilations[0],
          getAffineDimExpr(ow, ctx) * strides[1] +
              getAffineDimExpr(kx, ctx) * dilations[1]};
}

/// The blocked convolution generic (marked kBlockedConvAttr) over (n, fb,
/// oh, ow, f0, cb, ky, kx, ci): acc[n, fb, oh, ow, f0] +=
/// image[n, cb, row, col, ci] * filter[..., fb, cb, ky, kx, ci, f0], with
/// `row`, `col` the window's expressions and the filter's leading indices
/// `filterLead` (a filter per block of output rows, for Winograd).
Value blockedConvOp(OpBuilder &b, Location loc, Value image, Value filter,
                    Value acc, AffineExpr row, AffineExpr col,
                    ArrayRef<AffineExpr> filterLead) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> d = loopDims(9, ctx);
  SmallVector<AffineExpr> filterExprs(filterLead);
  filterExprs.append({d[1], d[5], d[6], d[7], d[8], d[4]});
  SmallVector<AffineMap> maps = {
      AffineMap::get(9, 0, {d[0], d[5], row, col, d[8]}, ctx),
      AffineMap::get(9, 0, filterExprs, ctx),
      AffineMap::get(9, 0, {d[0], d[1], d[2], d[3], d[4]}, ctx)};
  using utils::IteratorType;
  SmallVector<IteratorType> iterators(5, IteratorType::parallel);
  iterators.append(4, IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{acc.getType()}, ValueRange{image, filter},
      ValueRange{acc}, maps, iterators,
      [](OpBuilder &nb, Location l, ValueRange args) {
        Value product = arith::MulFOp::create(nb, l, args[0], args[1]);
        linalg::YieldOp::create(
            nb, l, arith::AddFOp::create(nb, l, args[2], product).getResult());
      });
  generic->setAttr(kBlockedConvAttr, UnitAttr::get(ctx));
  return generic.getResult(0);
}

/// A 3x3 convolution with unit strides and dilations of a blocked image
/// `image` [N, C/c0, H, W, c0] (padded: H = OH + 2), with Winograd's F(m, 3)
/// along its rows and directly along its columns, as onnx-cpu-pack-matmul's
/// winogradConv computes one in the plain layout: the image's rows in tiles
/// of m outputs (TH = OH / m tiles, rounded up) become alpha = m + 2 images
/// R_xi[N, C/c0, TH, W, c0] = sum_i B^T[xi][i] x[:, :, m th + i] (one
/// kernel, along the lanes), convolved with the 1x3 filter rows xi of G w
/// (computed and packed here, [alpha, F/c0, C/c0, 1, 3, c0, c0]) in one
/// blocked convolution over the alpha TH rows; output row m th + a is
/// sum_xi A^T[a][xi] of those (one kernel, with the init's fill value).
/// Returns the blocked result [N, F/c0, OH, OW, c0], before the init when
/// `added` is left false.
Value blockedWinograd(OpBuilder &b, Location loc, Value image,
                      ArrayRef<float> data, float splat, int64_t f, Value init,
                      const WinogradRows &wino, int64_t c0, bool &added) {
  auto type = cast<RankedTensorType>(image.getType());
  auto yType = cast<RankedTensorType>(init.getType());
  Type f32 = b.getF32Type();
  int64_t n = type.getDimSize(0), cb = type.getDimSize(1),
          h = type.getDimSize(2), wd = type.getDimSize(3);
  int64_t oh = yType.getDimSize(2), ow = yType.getDimSize(3);
  int64_t m = wino.m, alpha = wino.alpha, c = cb * c0, fb = f / c0;
  int64_t th = llvm::divideCeilSigned(oh, m);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(f32));
  if (th * m + 2 > h) {
    image = tensor::createPadHighOp(
        RankedTensorType::get({n, cb, th * m + 2, wd, c0}, f32), image, zero,
        /*nofold=*/false, loc, b);
  }
  SmallVector<Value> rowViews;
  auto viewType = RankedTensorType::get({n, cb, th, wd, c0}, f32);
  for (int64_t i = 0; i < alpha; ++i) {
    SmallVector<OpFoldResult> offsets(5, b.getIndexAttr(0));
    offsets[2] = b.getIndexAttr(i);
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(n), b.getIndexAttr(cb),
                                       b.getIndexAttr(th), b.getIndexAttr(wd),
                                       b.getIndexAttr(c0)};
    SmallVector<OpFoldResult> steps(5, b.getIndexAttr(1));
    steps[2] = b.getIndexAttr(m);
    rowViews.push_back(tensor::ExtractSliceOp::create(b, loc, viewType, image,
                                                      offsets, sizes, steps));
  }
  Value images = combineRows(
      b, loc, rowViews, wino.bt, alpha,
      RankedTensorType::get({n, cb, alpha, th, wd, c0}, f32), /*at=*/2);
  images = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({n, cb, alpha * th, wd, c0}, f32), images,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}, {4}, {5}});
  auto tapsType = RankedTensorType::get({alpha, fb, cb, 1, 3, c0, c0}, f32);
  Value taps =
      packedConstant(b, loc, tapsType, [&](ArrayRef<int64_t> i) -> float {
        int64_t filter = i[1] * c0 + i[6], channel = i[2] * c0 + i[5];
        double sum = 0;
        for (int64_t ky = 0; ky < 3; ++ky)
          sum += wino.g[i[0] * 3 + ky] *
                 (data.empty()
                      ? splat
                      : data[((filter * c + channel) * 3 + ky) * 3 + i[4]]);
        return static_cast<float>(sum);
      });
  Value acc =
      linalg::FillOp::create(
          b, loc, zero,
          tensor::EmptyOp::create(b, loc, {n, fb, alpha * th, ow, c0}, f32)
              .getResult())
          .getResult(0);
  MLIRContext *ctx = b.getContext();
  AffineExpr rowLoop = getAffineDimExpr(2, ctx);
  Value stacked = blockedConvOp(
      b, loc, images, taps, acc, rowLoop + getAffineDimExpr(6, ctx),
      getAffineDimExpr(3, ctx) + getAffineDimExpr(7, ctx),
      {rowLoop.floorDiv(th)});
  SmallVector<Value> products;
  auto productType = RankedTensorType::get({n, fb, th, ow, c0}, f32);
  for (int64_t xi = 0; xi < alpha; ++xi) {
    SmallVector<OpFoldResult> offsets(5, b.getIndexAttr(0));
    offsets[2] = b.getIndexAttr(xi * th);
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(n), b.getIndexAttr(fb),
                                       b.getIndexAttr(th), b.getIndexAttr(ow),
                                       b.getIndexAttr(c0)};
    SmallVector<OpFoldResult> steps(5, b.getIndexAttr(1));
    products.push_back(tensor::ExtractSliceOp::create(
        b, loc, productType, stacked, offsets, sizes, steps));
  }
  // The init's fill value is added in the output transform.
  float bias = 0;
  added = false;
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    if (auto constant =
            fill.getInputs()[0].getDefiningOp<arith::ConstantFloatOp>()) {
      bias = constant.value().convertToFloat();
      added = true;
    }
  Value rows = combineRows(b, loc, products, wino.at, m,
                           RankedTensorType::get({n, fb, th, m, ow, c0}, f32),
                           /*at=*/3, bias);
  rows = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({n, fb, th * m, ow, c0}, f32), rows,
      ArrayRef<ReassociationIndices>{{0}, {1}, {2, 3}, {4}, {5}});
  if (th * m == oh)
    return rows;
  SmallVector<OpFoldResult> offsets(5, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(n), b.getIndexAttr(fb),
                                     b.getIndexAttr(oh), b.getIndexAttr(ow),
                                     b.getIndexAttr(c0)};
  SmallVector<OpFoldResult> steps(5, b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({n, fb, oh, ow, c0}, f32), rows, offsets,
      sizes, steps);
}

/// y[N, F, OH, OW] = conv(x[N, C, H, W], w[F, C, KH, KW]) (the image already
/// padded) as a linalg.generic over (n, fb, oh, ow, f0, cb, ky, kx, ci) on
/// the image [N, C/ci, H, W, ci] (blocked, ci = c0, or viewed so with
/// ci = 1 when C is not a multiple of c0), the filter packed here into
/// [F/c0, C/ci, KH, KW, ci, c0] and the result [N, F/c0, OH, OW, c0].
struct ConvToBlocked : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  ConvToBlocked(MLIRContext *ctx, int64_t c0, unsigned winograd)
      : OpRewritePattern(ctx), c0(c0), winograd(winogradRows(winograd)) {}

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getDpsInputs()[0], w = op.getDpsInputs()[1];
    Value init = op.getDpsInits()[0];
    if (!isStaticF32(x.getType()) || !isStaticF32(w.getType()) ||
        !isStaticF32(init.getType()))
      return rewriter.notifyMatchFailure(op, "not static f32");
    auto xType = cast<RankedTensorType>(x.getType());
    auto wType = cast<RankedTensorType>(w.getType());
    auto yType = cast<RankedTensorType>(init.getType());
    int64_t n = xType.getDimSize(0), c = xType.getDimSize(1),
            h = xType.getDimSize(2), wd = xType.getDimSize(3);
    int64_t f = wType.getDimSize(0), kh = wType.getDimSize(2),
            kw = wType.getDimSize(3);
    int64_t ow = yType.getDimSize(3);
    if (f % c0 != 0 || blockedRowSegment(ow) == 0 ||
        xType.getNumElements() == 0 || yType.getNumElements() == 0)
      return rewriter.notifyMatchFailure(op, "filters or row not blockable");
    float splat = 0;
    std::optional<ArrayRef<float>> data = constantData(w, splat);
    if (!data)
      return rewriter.notifyMatchFailure(op, "filter not constant");
    SmallVector<int64_t> strides(op.getStrides().getValues<int64_t>());
    SmallVector<int64_t> dilations(op.getDilations().getValues<int64_t>());
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type f32 = rewriter.getF32Type();

    int64_t ci = c % c0 == 0 ? c0 : 1;
    Value image =
        ci == c0
            ? packActivation(rewriter, loc, x, c0)
            : tensor::ExpandShapeOp::create(
                  rewriter, loc, RankedTensorType::get({n, c, h, wd, 1}, f32),
                  x, ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4}})
                  .getResult();
    ArrayRef<float> values = *data;
    bool unit = strides[0] == 1 && strides[1] == 1 && dilations[0] == 1 &&
                dilations[1] == 1;
    if (unit && kh == 3 && kw == 3 && ci == c0 && useWinograd(yType)) {
      bool added = false;
      Value result = blockedWinograd(rewriter, loc, image, values, splat, f,
                                     init, *winograd, c0, added);
      if (!added)
        result = addInit(rewriter, loc, result,
                         blockedInit(rewriter, loc, init, c0));
      rewriter.replaceOp(op,
                         unpackActivation(rewriter, loc, result, yType, c0));
      return success();
    }
    auto filterType =
        RankedTensorType::get({f / c0, c / ci, kh, kw, ci, c0}, f32);
    Value filter = packedConstant(
        rewriter, loc, filterType, [&](ArrayRef<int64_t> i) -> float {
          if (values.empty())
            return splat;
          int64_t filterIndex = i[0] * c0 + i[5], channel = i[1] * ci + i[4];
          return values[((filterIndex * c + channel) * kh + i[2]) * kw + i[3]];
        });
    Value acc = blockedInit(rewriter, loc, init, c0);
    auto [row, col] = windowExprs(ctx, 2, 3, 6, 7, strides, dilations);
    Value result =
        blockedConvOp(rewriter, loc, image, filter, acc, row, col, {});
    rewriter.replaceOp(op, unpackActivation(rewriter, loc, result, yType, c0));
    return success();
  }

  /// Whether Winograd's F(m, 3) along the rows computes a 3x3 convolution to
  /// `yType`: its multiplications, with the rows of the last tile past OH,
  /// at most 0.8 of the direct convolution's (as onnx-cpu-pack-matmul
  /// decides).
  bool useWinograd(RankedTensorType yType) const {
    if (!winograd)
      return false;
    int64_t oh = yType.getDimSize(2);
    int64_t tiles = llvm::divideCeilSigned(oh, winograd->m);
    return 10 * 3 * winograd->alpha * tiles <= 8 * 9 * oh;
  }

  int64_t c0;
  std::optional<WinogradRows> winograd;
};

/// A depthwise convolution (a pool: `PoolOp`, the window's values combined
/// as its body combines them) of C channels, C a multiple of c0, as a
/// linalg.generic over (n, cb, oh, ow, c0, ky, kx) on the blocked image and
/// result; a depthwise filter [C, KH, KW] is packed here into
/// [C/c0, KH, KW, c0], a pool's window operand stays.
template <typename OpTy> struct WindowToBlocked : OpRewritePattern<OpTy> {
  WindowToBlocked(MLIRContext *ctx, int64_t c0)
      : OpRewritePattern<OpTy>(ctx), c0(c0) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    constexpr bool depthwise =
        std::is_same_v<OpTy, linalg::DepthwiseConv2DNchwChwOp>;
    Value x = op.getDpsInputs()[0], w = op.getDpsInputs()[1];
    Value init = op.getDpsInits()[0];
    if (!isStaticF32(x.getType()) || !isStaticF32(init.getType()))
      return rewriter.notifyMatchFailure(op, "not static f32");
    auto xType = cast<RankedTensorType>(x.getType());
    auto yType = cast<RankedTensorType>(init.getType());
    auto wType = cast<RankedTensorType>(w.getType());
    int64_t c = xType.getDimSize(1);
    int64_t kh = wType.getDimSize(wType.getRank() - 2),
            kw = wType.getDimSize(wType.getRank() - 1);
    if (c % c0 != 0 || c == 0 || blockedRowSegment(yType.getDimSize(3)) == 0 ||
        xType.getNumElements() == 0 || yType.getNumElements() == 0)
      return rewriter.notifyMatchFailure(op, "channels or row not blockable");
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value window = w;
    if constexpr (depthwise) {
      // The filter [C, KH, KW], a reshape of the constant of the Conv.
      Value stored = w;
      if (auto collapse = w.getDefiningOp<tensor::CollapseShapeOp>())
        stored = collapse.getSrc();
      float splat = 0;
      std::optional<ArrayRef<float>> data = constantData(stored, splat);
      if (!data || !isStaticF32(w.getType()))
        return rewriter.notifyMatchFailure(op, "filter not constant");
      ArrayRef<float> values = *data;
      auto filterType =
          RankedTensorType::get({c / c0, kh, kw, c0}, rewriter.getF32Type());
      window = packedConstant(
          rewriter, loc, filterType, [&](ArrayRef<int64_t> i) -> float {
            if (values.empty())
              return splat;
            return values[((i[0] * c0 + i[3]) * kh + i[1]) * kw + i[2]];
          });
    }
    SmallVector<int64_t> strides(op.getStrides().template getValues<int64_t>());
    SmallVector<int64_t> dilations(
        op.getDilations().template getValues<int64_t>());
    Value image = packActivation(rewriter, loc, x, c0);
    Value acc = blockedInit(rewriter, loc, init, c0);

    // Loops (n, cb, oh, ow, c0, ky, kx).
    SmallVector<AffineExpr> d = loopDims(7, ctx);
    auto [row, col] = windowExprs(ctx, 2, 3, 5, 6, strides, dilations);
    SmallVector<AffineMap> maps = {
        AffineMap::get(7, 0, {d[0], d[1], row, col, d[4]}, ctx),
        depthwise ? AffineMap::get(7, 0, {d[1], d[5], d[6], d[4]}, ctx)
                  : AffineMap::get(7, 0, {d[5], d[6]}, ctx),
        AffineMap::get(7, 0, {d[0], d[1], d[2], d[3], d[4]}, ctx)};
    using utils::IteratorType;
    SmallVector<IteratorType> iterators(5, IteratorType::parallel);
    iterators.append(2, IteratorType::reduction);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{acc.getType()}, ValueRange{image, window},
        ValueRange{acc}, maps, iterators);
    // The named op's body: (image, filter or window, accumulator).
    rewriter.cloneRegionBefore(op->getRegion(0), generic.getRegion(),
                               generic.getRegion().begin());
    generic->setAttr(kBlockedConvAttr, UnitAttr::get(ctx));
    rewriter.replaceOp(
        op, unpackActivation(rewriter, loc, generic.getResult(0), yType, c0));
    return success();
  }

  int64_t c0;
};

/// An elementwise linalg.generic over [N, C, H, W] that reads an unpack
/// from the blocked layout, computed on the blocked layout instead and its
/// result unpacked: each operand that is such an unpack is read as its
/// blocked source, a per-channel vector [C] reshaped into [C/c0, c0], any
/// other operand indexed by the channel packed; operands not indexed by the
/// channel are read as they are. Upstream's propagation takes one unpacked
/// operand; this takes any number (a residual addition of two
/// convolutions).
struct ElementwiseToBlocked : OpRewritePattern<linalg::GenericOp> {
  ElementwiseToBlocked(MLIRContext *ctx, int64_t c0)
      : OpRewritePattern(ctx), c0(c0) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumLoops() != 4 || op.getNumParallelLoops() != 4 ||
        op->getNumResults() != 1 || !op.hasPureTensorSemantics() ||
        op->hasAttr(kBlockedConvAttr))
      return failure();
    OpOperand *init = op.getDpsInitOperand(0);
    auto yType = dyn_cast<RankedTensorType>(init->get().getType());
    // (Results of other types, a comparison's i1, stay in the plain layout:
    // the blocked ops' neighbours are f32.)
    if (!yType || !yType.hasStaticShape() || yType.getRank() != 4 ||
        !yType.getElementType().isF32() || yType.getDimSize(1) % c0 != 0 ||
        !op.getMatchingIndexingMap(init).isIdentity())
      return failure();
    bool gathers = false;
    op.getBody()->walk([&](Operation *inner) {
      gathers |= isa<tensor::ExtractOp, linalg::IndexOp>(inner);
    });
    if (gathers)
      return failure();
    int64_t channels = yType.getDimSize(1);
    bool unpacked = false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
        return failure();
      std::optional<unsigned> at =
          map.getResultPosition(getAffineDimExpr(1, rewriter.getContext()));
      if (at &&
          cast<ShapedType>(input->get().getType()).getDimSize(*at) != channels)
        return failure();
      auto unpack = input->get().getDefiningOp<linalg::UnPackOp>();
      unpacked |= map.isIdentity() && isBlockedLayoutOp(unpack, c0);
    }
    if (!unpacked)
      return failure();

    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr inner = getAffineDimExpr(4, ctx);
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value value = input->get();
      AffineMap map = op.getMatchingIndexingMap(input);
      SmallVector<AffineExpr> exprs(map.getResults());
      std::optional<unsigned> at =
          map.getResultPosition(getAffineDimExpr(1, ctx));
      if (!at) {
        inputs.push_back(value);
        maps.push_back(AffineMap::get(5, 0, exprs, ctx));
        continue;
      }
      auto unpack = value.getDefiningOp<linalg::UnPackOp>();
      auto type = cast<RankedTensorType>(value.getType());
      if (map.isIdentity() && isBlockedLayoutOp(unpack, c0)) {
        value = unpack.getSource();
      } else if (type.getRank() == 1) {
        value = tensor::ExpandShapeOp::create(
            rewriter, loc,
            RankedTensorType::get({channels / c0, c0}, type.getElementType()),
            value, ArrayRef<ReassociationIndices>{{0, 1}});
      } else {
        SmallVector<int64_t> shape(type.getShape());
        shape[*at] /= c0;
        shape.push_back(c0);
        Value empty = tensor::EmptyOp::create(rewriter, loc, shape,
                                              type.getElementType());
        value = linalg::PackOp::create(
                    rewriter, loc, value, empty, ArrayRef<int64_t>{*at},
                    ArrayRef<OpFoldResult>{rewriter.getIndexAttr(c0)},
                    /*paddingValue=*/std::nullopt, ArrayRef<int64_t>{})
                    .getResult();
      }
      exprs.push_back(inner);
      inputs.push_back(value);
      maps.push_back(AffineMap::get(5, 0, exprs, ctx));
    }
    RankedTensorType blocked = blockedType(yType, c0);
    // The init: packed when the body reads it, else a new empty tensor.
    Value dest;
    if (op.getMatchingBlockArgument(init).use_empty())
      dest = tensor::EmptyOp::create(rewriter, loc, blocked.getShape(),
                                     blocked.getElementType());
    else
      dest = packActivation(rewriter, loc, init->get(), c0);
    maps.push_back(rewriter.getMultiDimIdentityMap(5));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{blocked}, inputs, ValueRange{dest}, maps,
        SmallVector<utils::IteratorType>(5, utils::IteratorType::parallel),
        /*bodyBuild=*/nullptr, llvm::to_vector(op->getDiscardableAttrs()));
    rewriter.cloneRegionBefore(op.getRegion(), generic.getRegion(),
                               generic.getRegion().begin());
    rewriter.replaceOp(
        op, unpackActivation(rewriter, loc, generic.getResult(0), yType, c0));
    return success();
  }

  int64_t c0;
};

/// A tensor.concat of [N, C, H, W] tensors one of which is an unpack from
/// the blocked layout, along any dim when every input's channels are a
/// multiple of c0: the concat of the blocked tensors (the others packed)
/// along the same dim, unpacked.
struct ConcatToBlocked : OpRewritePattern<tensor::ConcatOp> {
  ConcatToBlocked(MLIRContext *ctx, int64_t c0)
      : OpRewritePattern(ctx), c0(c0) {}

  LogicalResult matchAndRewrite(tensor::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    auto type = op.getResultType();
    if (type.getRank() != 4 || !type.hasStaticShape() ||
        !type.getElementType().isF32())
      return failure();
    bool unpacked = false;
    for (Value input : op.getInputs()) {
      auto inputType = cast<RankedTensorType>(input.getType());
      if (!inputType.hasStaticShape() || inputType.getDimSize(1) % c0 != 0)
        return failure();
      unpacked |=
          isBlockedLayoutOp(input.getDefiningOp<linalg::UnPackOp>(), c0);
    }
    if (!unpacked)
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> inputs;
    for (Value input : op.getInputs()) {
      auto unpack = input.getDefiningOp<linalg::UnPackOp>();
      inputs.push_back(isBlockedLayoutOp(unpack, c0)
                           ? unpack.getSource()
                           : packActivation(rewriter, loc, input, c0));
    }
    Value blocked =
        tensor::ConcatOp::create(rewriter, loc, op.getDim(), inputs);
    rewriter.replaceOp(op, unpackActivation(rewriter, loc, blocked, type, c0));
    return success();
  }

  int64_t c0;
};

struct CPUBlockedLayoutPass
    : public onnx::impl::CPUBlockedLayoutBase<CPUBlockedLayoutPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *) override {
    target = CPUTarget::get(targetCPU, targetFeatures);
    return success();
  }
  CPUTarget target;

  void runOnOperation() override {
    if (failed(checkTarget(target, getOperation())))
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    // With 16 vector registers (AVX2), a tile of a row segment's 8 to 16
    // positions times one block's vector holds more accumulators than fit,
    // and fewer positions spend a broadcast on each FMA: ResNet-50 compiled
    // for znver3 took 116 ms so, 95 in the plain layout (2026-11-30, Zen 4,
    // 4 alternated rounds; MobileNetV2 10.7 against 9.7). The layout is
    // AVX-512's (32 registers), where it is faster.
    if (target.vectorRegisters < 32)
      return;
    int64_t c0 = target.matmulTileN();
    RewritePatternSet patterns(ctx);
    if (winograd != 0 && !winogradRows(winograd)) {
      getOperation().emitError()
          << "onnx-cpu-blocked-layout: winograd=" << winograd.getValue()
          << " is not one of 0 (off), 2 or 4";
      return signalPassFailure();
    }
    patterns.add<ConvToBlocked>(ctx, c0, winograd);
    patterns.add<WindowToBlocked<linalg::DepthwiseConv2DNchwChwOp>,
                 WindowToBlocked<linalg::PoolingNchwMaxOp>,
                 WindowToBlocked<linalg::PoolingNchwSumOp>,
                 ElementwiseToBlocked, ConcatToBlocked>(ctx, c0);
    // Upstream's propagation, for the pads (of the images of convolutions)
    // between packs and unpacks of this layout only; generics are this
    // pass's (ElementwiseToBlocked), reshapes stay where they are.
    linalg::populateDataLayoutPropagationPatterns(
        patterns, [c0](OpOperand *operand) {
          Operation *owner = operand->getOwner();
          if (auto pack = dyn_cast<linalg::PackOp>(owner))
            return isBlockedLayoutOp(pack, c0) &&
                   operand->get().getDefiningOp<tensor::PadOp>();
          return isa<tensor::PadOp>(owner) &&
                 isBlockedLayoutOp(
                     operand->get().getDefiningOp<linalg::UnPackOp>(), c0);
        });
    linalg::PackOp::getCanonicalizationPatterns(patterns, ctx);
    linalg::UnPackOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::EmptyOp::getCanonicalizationPatterns(patterns, ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
