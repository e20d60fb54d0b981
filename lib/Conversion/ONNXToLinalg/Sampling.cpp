//===- Sampling.cpp - RoiAlign, DeformConv to linalg ----------------------===//
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

#include "DataMovementUtils.h"
#include "OnnxDialect/IR/ONNXOps.h"
#include "SignalPatterns.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::onnx;
using namespace mlir::onnx::dm;

namespace {

using Pred = arith::CmpIPredicate;
using FPred = arith::CmpFPredicate;

/// Float helpers on one builder.
struct FloatMath {
  OpBuilder &b;
  Location loc;
  Type type;
  Value c(double v) { return createScalarConstant(b, loc, type, v); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value max(Value x, Value y) {
    return arith::MaximumFOp::create(b, loc, x, y);
  }
  Value cmp(FPred p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value sel(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value floor(Value x) { return math::FloorOp::create(b, loc, x); }
  Value fromIndex(Value i) {
    return arith::SIToFPOp::create(
        b, loc, type, arith::IndexCastOp::create(b, loc, b.getI64Type(), i));
  }
  /// Truncation toward zero to an index.
  Value toIndex(Value x) {
    return arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        arith::FPToSIOp::create(b, loc, b.getI64Type(), x));
  }
};

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

struct RoiAlignLowering : OpConversionPattern<RoiAlignOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RoiAlignOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(*this, op);
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
    SmallVector<OpFoldResult> dims = {rDims[0], xDims[1], b.getIndexAttr(outH),
                                      b.getIndexAttr(outW)};
    dims = preferStatic(b, type, dims);
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

} // namespace

void mlir::onnx::populateSamplingToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<RoiAlignLowering>(converter, patterns.getContext());
}
