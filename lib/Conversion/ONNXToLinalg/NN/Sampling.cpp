//===- Sampling.cpp - RoiAlign, DeformConv to linalg ----------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Ops that read their input at computed (fractional) positions with
// bilinear interpolation. RoiAlign: one linalg.generic over the result
// (rois, C, output_height, output_width) whose body loops (scf.for, the
// sampling grid may depend on the roi) over the samples of its bin and
// averages (or takes the max of) the bilinear interpolations; samples are
// clamped into the input as the ONNX reference does, and reads never leave
// it. Positions and weights are computed in f64.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

using Pred = arith::CmpIPredicate;
using FPred = arith::CmpFPredicate;

/// The four corners and weights of the bilinear interpolation at (y, x) in
/// an image of `height` x `width` (index and f64 values), as RoiAlign's
/// reference computes them: a sample more than one pixel outside gives
/// weight 0; otherwise it is clamped into the image.
struct Bilinear {
  Value valid;
  Value yLow, yHigh, xLow, xHigh;
  Value w[4]; // (yLow, xLow), (yLow, xHigh), (yHigh, xLow), (yHigh, xHigh)
};

Bilinear bilinear(FloatMath &m, Value y, Value x, Value height, Value width,
                  Value heightF, Value widthF) {
  OpBuilder &b = m.b;
  Location loc = m.loc;
  Bilinear r;
  Value outside = orI(
      b, loc,
      orI(b, loc, m.cmp(FPred::OLT, y, m.c(-1)), m.cmp(FPred::OGT, y, heightF)),
      orI(b, loc, m.cmp(FPred::OLT, x, m.c(-1)), m.cmp(FPred::OGT, x, widthF)));
  r.valid = arith::XOrIOp::create(b, loc, outside,
                                  arith::ConstantIntOp::create(b, loc, 1, 1));
  y = m.max(y, m.c(0));
  x = m.max(x, m.c(0));
  auto axis = [&](Value p, Value size, Value &low, Value &high) {
    Value last =
        maxI(b, loc, subI(b, loc, size, idx(b, loc, 1)), idx(b, loc, 0));
    Value l = m.toIndex(p);
    Value atEnd = cmpI(b, loc, Pred::sge, l, last);
    low = select(b, loc, atEnd, last, l);
    high = select(b, loc, atEnd, last, addI(b, loc, l, idx(b, loc, 1)));
    return m.sel(atEnd, m.fromIndex(last), p);
  };
  y = axis(y, height, r.yLow, r.yHigh);
  x = axis(x, width, r.xLow, r.xHigh);
  Value ly = m.sub(y, m.fromIndex(r.yLow));
  Value lx = m.sub(x, m.fromIndex(r.xLow));
  Value hy = m.sub(m.c(1), ly), hx = m.sub(m.c(1), lx);
  r.w[0] = m.mul(hy, hx);
  r.w[1] = m.mul(hy, lx);
  r.w[2] = m.mul(ly, hx);
  r.w[3] = m.mul(ly, lx);
  return r;
}

struct RoiAlignLowering : ONNXToLinalgPattern<RoiAlignOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(RoiAlignOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value x = adaptor.getX(), rois = adaptor.getRois(),
          batchIndices = adaptor.getBatchIndices();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    auto rType = dyn_cast<RankedTensorType>(rois.getType());
    if (!type || type.getRank() != 4 || !xType || xType.getRank() != 4 ||
        !rType || rType.getRank() != 2)
      return emitLoweringError(op,
                               "expected X and Y of rank 4, rois of rank 2");
    StringRef mode = op.getMode();
    StringRef ctm = op.getCoordinateTransformationMode();
    if (mode != "avg" && mode != "max")
      return emitLoweringError(op, "unknown mode '" + mode + "'");
    if (ctm != "half_pixel" && ctm != "output_half_pixel")
      return emitLoweringError(op, "unknown coordinate_transformation_mode '" +
                                       ctm + "'");
    bool halfPixel = ctm == "half_pixel";
    int64_t outH = op.getOutputHeight(), outW = op.getOutputWidth();
    int64_t ratio = op.getSamplingRatio();
    double scale = op.getSpatialScale().convertToDouble();
    if (outH <= 0 || outW <= 0 || ratio < 0)
      return emitLoweringError(op, "output sizes must be positive and "
                                   "sampling_ratio not negative");
    Type elementType = type.getElementType();

    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type f64 = b.getF64Type();
    SmallVector<Value> xDims = dimValues(b, loc, x);
    SmallVector<Value> rDims = dimValues(b, loc, rois);
    if (!rType.isDynamicDim(1) && rType.getDimSize(1) != 4)
      return emitLoweringError(op, "rois must have 4 coordinates");
    check(b, loc, cmpI(b, loc, Pred::eq, rDims[1], idx(b, loc, 4)), op,
          "rois must have 4 coordinates");
    check(b, loc,
          cmpI(b, loc, Pred::eq, rDims[0], dimValues(b, loc, batchIndices)[0]),
          op, "rois and batch_indices differ in length");
    SmallVector<OpFoldResult> dims = {rDims[0], xDims[1], b.getIndexAttr(outH),
                                      b.getIndexAttr(outW)};
    dims = preferStatic(b, loc, op, type, dims);
    FloatMath outer{b, loc, f64};
    Value heightF = outer.fromIndex(xDims[2]);
    Value widthF = outer.fromIndex(xDims[3]);
    Value height = xDims[2], width = xDims[3];
    bool isMax = mode == "max";

    Value result = buildIndexGeneric(
        b, loc, type, dims, {}, {},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange) {
          FloatMath m{nb, nloc, f64};
          Value r = ivs[0], ch = ivs[1];
          Value n = castToIndex(
              nb, nloc, tensor::ExtractOp::create(nb, nloc, batchIndices, r));
          n = checkedIndex(nb, nloc, n, xDims[0], false, op,
                           "batch_indices out of range");
          auto coord = [&](int64_t k) {
            Value v = tensor::ExtractOp::create(
                nb, nloc, rois, ValueRange{r, idx(nb, nloc, k)});
            v = convertScalar(nb, nloc, v, f64, false);
            v = m.mul(v, m.c(scale));
            return halfPixel ? m.sub(v, m.c(0.5)) : v;
          };
          Value x1 = coord(0), y1 = coord(1), x2 = coord(2), y2 = coord(3);
          Value roiW = m.sub(x2, x1), roiH = m.sub(y2, y1);
          if (!halfPixel) {
            roiW = m.max(roiW, m.c(1));
            roiH = m.max(roiH, m.c(1));
          }
          Value binH = m.div(roiH, m.c(outH));
          Value binW = m.div(roiW, m.c(outW));
          Value gridH, gridW;
          if (ratio > 0) {
            gridH = gridW = idx(nb, nloc, ratio);
          } else {
            gridH = m.toIndex(math::CeilOp::create(nb, nloc, binH));
            gridW = m.toIndex(math::CeilOp::create(nb, nloc, binW));
            gridH = maxI(nb, nloc, gridH, idx(nb, nloc, 0));
            gridW = maxI(nb, nloc, gridW, idx(nb, nloc, 0));
          }
          Value gridHF = m.fromIndex(gridH), gridWF = m.fromIndex(gridW);
          Value startY = m.add(y1, m.mul(m.fromIndex(ivs[2]), binH));
          Value startX = m.add(x1, m.mul(m.fromIndex(ivs[3]), binW));
          Value zero = idx(nb, nloc, 0), one = idx(nb, nloc, 1);
          Value init = isMax ? m.c(-INFINITY) : m.c(0);
          auto rowLoop = scf::ForOp::create(
              nb, nloc, zero, gridH, one, ValueRange{init},
              [&](OpBuilder &b1, Location l1, Value iy, ValueRange a1) {
                FloatMath m1{b1, l1, f64};
                Value y = m1.add(
                    startY,
                    m1.div(m1.mul(m1.add(m1.fromIndex(iy), m1.c(0.5)), binH),
                           gridHF));
                auto colLoop = scf::ForOp::create(
                    b1, l1, zero, gridW, one, a1,
                    [&](OpBuilder &b2, Location l2, Value ix, ValueRange a2) {
                      FloatMath m2{b2, l2, f64};
                      Value xx = m2.add(
                          startX,
                          m2.div(
                              m2.mul(m2.add(m2.fromIndex(ix), m2.c(0.5)), binW),
                              gridWF));
                      Bilinear bl =
                          bilinear(m2, y, xx, height, width, heightF, widthF);
                      Value ys[4] = {bl.yLow, bl.yLow, bl.yHigh, bl.yHigh};
                      Value xs[4] = {bl.xLow, bl.xHigh, bl.xLow, bl.xHigh};
                      Value v;
                      for (int k = 0; k < 4; ++k) {
                        Value e = tensor::ExtractOp::create(
                            b2, l2, x, ValueRange{n, ch, ys[k], xs[k]});
                        Value t = m2.mul(bl.w[k],
                                         convertScalar(b2, l2, e, f64, false));
                        t = m2.sel(bl.valid, t, m2.c(0));
                        v = !v ? t : (isMax ? m2.max(v, t) : m2.add(v, t));
                      }
                      Value acc = isMax ? m2.max(a2[0], v) : m2.add(a2[0], v);
                      scf::YieldOp::create(b2, l2, ValueRange{acc});
                    });
                scf::YieldOp::create(b1, l1, colLoop.getResults());
              });
          Value acc = rowLoop.getResult(0);
          Value countF = m.fromIndex(mulI(nb, nloc, gridH, gridW));
          Value empty = m.cmp(FPred::OEQ, countF, m.c(0));
          if (isMax)
            acc = m.sel(empty, m.c(0), acc);
          else
            acc = m.div(acc, m.sel(empty, m.c(1), countF));
          return convertScalar(nb, nloc, acc, elementType, false);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The attributes of a DeformConv and the sizes its body reads.
struct DeformGeometry {
  int64_t rank = 0, nd = 0, group = 1, offsetGroup = 1;
  SmallVector<int64_t> strides, dilations, pads;
  SmallVector<Value> xDims, wDims, oDims;
  Value cPerGroup, ocPerGroup, cPerOffsetGroup, kernelSize;
};

/// Reads and checks the attributes of `op` over `nd` spatial axes.
LogicalResult readDeformAttributes(DeformConvOp op, RankedTensorType wType,
                                   DeformGeometry &g) {
  int64_t nd = g.nd;
  auto attr = [&](std::optional<ArrayRef<int64_t>> a, int64_t n, int64_t dflt) {
    SmallVector<int64_t> v(n, dflt);
    if (a && a->size() == static_cast<size_t>(n))
      v.assign(a->begin(), a->end());
    return v;
  };
  if (auto a = op.getPads(); a && a->size() != static_cast<size_t>(2 * nd))
    return emitLoweringError(op, "pads needs 2 values per spatial axis");
  g.strides = attr(op.getStrides(), nd, 1);
  g.dilations = attr(op.getDilations(), nd, 1);
  g.pads = attr(op.getPads(), 2 * nd, 0);
  g.group = op.getGroup();
  g.offsetGroup = op.getOffsetGroup();
  if (g.group < 1 || g.offsetGroup < 1)
    return emitLoweringError(op, "group and offset_group must be positive");
  if (auto k = op.getKernelShape())
    for (int64_t d = 0; d < nd && k->size() == static_cast<size_t>(nd); ++d)
      if (!wType.isDynamicDim(2 + d) && wType.getDimSize(2 + d) != (*k)[d])
        return emitLoweringError(op, "kernel_shape differs from W's shape");
  return success();
}

/// The sizes of the operands, checked against each other at run time.
void checkDeformShapes(OpBuilder &b, Location loc, Operation *op, Value x,
                       Value w, Value offset, Value mask, Value bias,
                       DeformGeometry &g) {
  int64_t nd = g.nd;
  g.xDims = dimValues(b, loc, x);
  g.wDims = dimValues(b, loc, w);
  g.oDims = dimValues(b, loc, offset);
  ArrayRef<Value> xDims = g.xDims, wDims = g.wDims, oDims = g.oDims;
  Value c = xDims[1], oc = wDims[0];
  Value groupV = idx(b, loc, g.group),
        offsetGroupV = idx(b, loc, g.offsetGroup);
  Value zero = idx(b, loc, 0);
  auto divides = [&](Value d, Value v) {
    return cmpI(b, loc, Pred::eq, arith::RemUIOp::create(b, loc, v, d), zero);
  };
  g.cPerGroup = arith::DivUIOp::create(b, loc, c, groupV);
  g.ocPerGroup = arith::DivUIOp::create(b, loc, oc, groupV);
  g.cPerOffsetGroup = arith::DivUIOp::create(b, loc, c, offsetGroupV);
  check(b, loc,
        andI(b, loc, andI(b, loc, divides(groupV, c), divides(groupV, oc)),
             divides(offsetGroupV, c)),
        op, "C and oC must be divisible by group, C by offset_group");
  check(b, loc, cmpI(b, loc, Pred::eq, wDims[1], g.cPerGroup), op,
        "W's dim 1 is not C / group");
  g.kernelSize = idx(b, loc, 1);
  for (int64_t d = 0; d < nd; ++d)
    g.kernelSize = mulI(b, loc, g.kernelSize, wDims[2 + d]);
  Value maskChannels = mulI(b, loc, offsetGroupV, g.kernelSize);
  check(b, loc,
        andI(b, loc, cmpI(b, loc, Pred::eq, oDims[0], xDims[0]),
             cmpI(b, loc, Pred::eq, oDims[1],
                  mulI(b, loc, maskChannels, idx(b, loc, nd)))),
        op,
        "offset must have shape (N, offset_group * kernel size * " + Twine(nd) +
            ", output sizes...)");
  if (mask) {
    SmallVector<Value> mDims = dimValues(b, loc, mask);
    Value ok = andI(b, loc, cmpI(b, loc, Pred::eq, mDims[0], xDims[0]),
                    cmpI(b, loc, Pred::eq, mDims[1], maskChannels));
    for (int64_t d = 0; d < nd; ++d)
      ok = andI(b, loc, ok, cmpI(b, loc, Pred::eq, mDims[2 + d], oDims[2 + d]));
    check(b, loc, ok, op,
          "mask must have shape (N, offset_group * kernel "
          "size, output sizes...)");
  }
  if (bias)
    check(b, loc, cmpI(b, loc, Pred::eq, dimValues(b, loc, bias)[0], oc), op,
          "B must have oC values");
}

/// The result's initial value: the bias broadcast along the channel (or
/// zeros).
Value deformInit(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> dims,
                 Type elementType, Value bias) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = dims.size();
  Value init = tensor::EmptyOp::create(b, loc, dims, elementType);
  if (!bias)
    return linalg::FillOp::create(b, loc,
                                  ValueRange{zeroOf(b, loc, elementType)},
                                  ValueRange{init})
        .getResult(0);
  AffineMap biasMap = AffineMap::get(rank, 0, {getAffineDimExpr(1, ctx)}, ctx);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{bias},
             ValueRange{init},
             ArrayRef<AffineMap>{biasMap,
                                 AffineMap::getMultiDimIdentityMap(rank, ctx)},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, args[0]);
             })
      .getResult(0);
}

/// The input value (f64) that the kernel tap at `ivs` (n, oc, o_1..o_nd,
/// c in group, k_1..k_nd) reads: X at the tap's position moved by its
/// offset, N-linearly interpolated with zeros outside the input, times the
/// mask.
Value deformedInput(FloatMath &m, const DeformGeometry &g, Value x,
                    Value offset, Value mask, ArrayRef<Value> ivs) {
  OpBuilder &nb = m.b;
  Location nloc = m.loc;
  int64_t rank = g.rank, nd = g.nd;
  Type f64 = nb.getF64Type();
  Value zero = idx(nb, nloc, 0);
  Value n = ivs[0], o = ivs[1];
  Value grp = arith::DivUIOp::create(nb, nloc, o, g.ocPerGroup);
  Value ic = addI(nb, nloc, mulI(nb, nloc, grp, g.cPerGroup), ivs[rank]);
  Value og = arith::DivUIOp::create(nb, nloc, ic, g.cPerOffsetGroup);
  Value kf = idx(nb, nloc, 0);
  for (int64_t d = 0; d < nd; ++d)
    kf = addI(nb, nloc, mulI(nb, nloc, kf, g.wDims[2 + d]), ivs[rank + 1 + d]);
  Value maskChannel = addI(nb, nloc, mulI(nb, nloc, og, g.kernelSize), kf);
  SmallVector<Value> outPos(ivs.begin() + 2, ivs.begin() + rank);
  SmallVector<Value> lowIdx, frac;
  for (int64_t d = 0; d < nd; ++d) {
    SmallVector<Value> at = {
        n, addI(nb, nloc, mulI(nb, nloc, maskChannel, idx(nb, nloc, nd)),
                idx(nb, nloc, d))};
    at.append(outPos);
    Value off = convertScalar(
        nb, nloc, tensor::ExtractOp::create(nb, nloc, offset, at), f64, false);
    // o * stride - pad + k * dilation + offset (each step its own
    // statement: argument evaluation order differs between compilers).
    Value kernelPos =
        mulI(nb, nloc, ivs[rank + 1 + d], idx(nb, nloc, g.dilations[d]));
    Value outStart = mulI(nb, nloc, outPos[d], idx(nb, nloc, g.strides[d]));
    Value base = subI(nb, nloc, addI(nb, nloc, outStart, kernelPos),
                      idx(nb, nloc, g.pads[d]));
    Value pos = m.add(m.fromIndex(base), off);
    Value fl = m.floor(pos);
    lowIdx.push_back(m.toIndex(fl));
    frac.push_back(m.sub(pos, fl));
  }
  // N-linear interpolation with zeros outside the input.
  Value val = m.c(0);
  for (int64_t corner = 0; corner < (int64_t(1) << nd); ++corner) {
    SmallVector<Value> at = {n, ic};
    Value weight = m.c(1);
    Value valid;
    for (int64_t d = 0; d < nd; ++d) {
      bool high = (corner >> (nd - 1 - d)) & 1;
      Value i = high ? addI(nb, nloc, lowIdx[d], idx(nb, nloc, 1)) : lowIdx[d];
      Value in = andI(nb, nloc, cmpI(nb, nloc, Pred::sge, i, zero),
                      cmpI(nb, nloc, Pred::slt, i, g.xDims[2 + d]));
      valid = valid ? andI(nb, nloc, valid, in) : in;
      Value last = maxI(nb, nloc,
                        subI(nb, nloc, g.xDims[2 + d], idx(nb, nloc, 1)), zero);
      at.push_back(clampI(nb, nloc, i, zero, last));
      weight = m.mul(weight, high ? frac[d] : m.sub(m.c(1), frac[d]));
    }
    Value v = convertScalar(
        nb, nloc, tensor::ExtractOp::create(nb, nloc, x, at), f64, false);
    val = m.add(val, m.sel(valid, m.mul(weight, v), m.c(0)));
  }
  if (mask) {
    SmallVector<Value> at = {n, maskChannel};
    at.append(outPos);
    val =
        m.mul(val, convertScalar(nb, nloc,
                                 tensor::ExtractOp::create(nb, nloc, mask, at),
                                 f64, false));
  }
  return val;
}

struct DeformConvLowering : ONNXToLinalgPattern<DeformConvOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(DeformConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value x = adaptor.getX(), w = adaptor.getW(), offset = adaptor.getOffset();
    Value bias = adaptor.getB(), mask = adaptor.getMask();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    auto wType = dyn_cast<RankedTensorType>(w.getType());
    auto oType = dyn_cast<RankedTensorType>(offset.getType());
    if (!type || !xType || !wType || !oType)
      return emitLoweringError(op, "expected ranked tensors");
    DeformGeometry g;
    int64_t rank = g.rank = xType.getRank();
    int64_t nd = g.nd = rank - 2;
    if (nd < 1 || wType.getRank() != rank || oType.getRank() != rank ||
        type.getRank() != rank)
      return emitLoweringError(op, "X, W, offset and Y need one rank >= 3");
    if (bias && isa<NoneType>(bias.getType()))
      bias = Value();
    if (mask && isa<NoneType>(mask.getType()))
      mask = Value();
    auto rankIs = [](Value v, int64_t r) {
      auto t = dyn_cast<RankedTensorType>(v.getType());
      return t && t.getRank() == r;
    };
    if (mask && !rankIs(mask, rank))
      return emitLoweringError(op, "mask must have the rank of X");
    if (bias && !rankIs(bias, 1))
      return emitLoweringError(op, "B must be 1-D");
    if (failed(readDeformAttributes(op, wType, g)))
      return failure();
    Type elementType = type.getElementType();

    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    checkDeformShapes(b, loc, op, x, w, offset, mask, bias, g);
    SmallVector<OpFoldResult> dims = {g.xDims[0], g.wDims[0]};
    for (int64_t d = 0; d < nd; ++d)
      dims.push_back(g.oDims[2 + d]);
    dims = preferStatic(b, loc, op, type, dims);

    // The result starts as the bias (or zeros).
    Value init = deformInit(b, loc, dims, elementType, bias);
    // Loops: (n, oc, o_1..o_nd) parallel, (c in group, k_1..k_nd) reduced;
    // W is read through its map, the rest with tensor.extract.
    MLIRContext *ctx = b.getContext();
    int64_t loops = rank + 1 + nd;
    SmallVector<AffineExpr> wExprs = {getAffineDimExpr(1, ctx)};
    for (int64_t d = rank; d < loops; ++d)
      wExprs.push_back(getAffineDimExpr(d, ctx));
    AffineMap wMap = AffineMap::get(loops, 0, wExprs, ctx);
    AffineMap outMap =
        AffineMap::getMultiDimIdentityMap(loops, ctx).getMajorSubMap(rank);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.append(1 + nd, utils::IteratorType::reduction);
    Type f64 = b.getF64Type();
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{init.getType()}, ValueRange{w}, ValueRange{init},
        ArrayRef<AffineMap>{wMap, outMap}, iterators,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          FloatMath m{nb, nloc, f64};
          SmallVector<Value> ivs;
          for (int64_t d = 0; d < loops; ++d)
            ivs.push_back(linalg::IndexOp::create(nb, nloc, d));
          Value val = deformedInput(m, g, x, offset, mask, ivs);
          Value term = arith::MulFOp::create(
              nb, nloc, convertScalar(nb, nloc, val, elementType, false),
              args[0]);
          linalg::YieldOp::create(
              nb, nloc,
              ValueRange{arith::AddFOp::create(nb, nloc, args[1], term)});
        });
    rewriter.replaceOp(op, castTo(b, loc, generic.getResult(0), type));
    return success();
  }
};

} // namespace

void mlir::onnx::populateSamplingToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<RoiAlignLowering, DeformConvLowering>(converter,
                                                     patterns.getContext());
}
