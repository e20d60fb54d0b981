//===- GridSample.cpp - GridSample to linalg ------------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// GridSample reads its input at computed (fractional) positions: one
// linalg.generic over the result whose body computes the positions, the
// interpolation taps and weights, and reads the input with tensor.extract
// at clamped indices (a tap outside the input reads a clamped element and
// gets weight 0, or a padding-mode index). Positions and weights are
// computed in f64 (GridSample denormalizes in the grid's type, as the ONNX
// reference does, so that nearest rounding ties agree).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

using Pred = arith::CmpIPredicate;
using FPred = arith::CmpFPredicate;

/// GridSample's reflection of `x` into [lo, hi] (the ONNX reference's
/// _gs_reflect: repeated reflections at both borders).
Value reflect(FloatMath &m, Value x, Value lo, Value hi) {
  OpBuilder &b = m.b;
  Location loc = m.loc;
  Value dx = m.sub(hi, lo);
  Value safeDx = m.sel(m.cmp(FPred::OEQ, dx, m.c(0)), m.c(1), dx);
  auto fold = [&](Value fx, Value nearB, Value farB, bool below) {
    // n = int(fx / dx); r = fx - n * dx; even n: near border +- r.
    Value n = m.floor(m.div(fx, safeDx));
    Value r = m.sub(fx, m.mul(n, safeDx));
    Value ni = arith::FPToSIOp::create(b, loc, b.getI64Type(), n);
    Value odd = arith::TruncIOp::create(b, loc, b.getI1Type(), ni);
    Value nearV = below ? m.add(nearB, r) : m.sub(nearB, r);
    Value farV = below ? m.sub(farB, r) : m.add(farB, r);
    return m.sel(odd, farV, nearV);
  };
  Value belowV = fold(m.sub(lo, x), lo, hi, true);
  Value aboveV = fold(m.sub(x, hi), hi, lo, false);
  Value result = m.sel(m.cmp(FPred::OLT, x, lo), belowV,
                       m.sel(m.cmp(FPred::OGT, x, hi), aboveV, x));
  return m.sel(m.cmp(FPred::OEQ, dx, m.c(0)), lo, result);
}

/// The cubic convolution weights (A = -0.75) of the 4 taps at offsets
/// -1, 0, 1, 2 from floor(x), for the fraction t = x - floor(x).
SmallVector<Value> cubicWeights(FloatMath &m, Value t) {
  double a = -0.75;
  auto far = [&](Value x) { // A|x|^3 - 5A|x|^2 + 8A|x| - 4A, 1 <= |x| < 2
    return m.sub(
        m.mul(m.add(m.mul(m.sub(m.mul(m.c(a), x), m.c(5 * a)), x), m.c(8 * a)),
              x),
        m.c(4 * a));
  };
  auto near = [&](Value x) { // (A + 2)|x|^3 - (A + 3)|x|^2 + 1, |x| <= 1
    return m.add(m.mul(m.mul(m.sub(m.mul(m.c(a + 2), x), m.c(a + 3)), x), x),
                 m.c(1));
  };
  Value one = m.c(1);
  return {far(m.add(t, one)), near(t), near(m.sub(one, t)),
          far(m.sub(m.c(2), t))};
}

struct GridSampleLowering : ONNXToLinalgPattern<GridSampleOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(GridSampleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value x = adaptor.getX(), grid = adaptor.getGrid();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    auto gType = dyn_cast<RankedTensorType>(grid.getType());
    if (!type || !xType || !gType)
      return emitLoweringError(op, "expected ranked tensors");
    int64_t rank = xType.getRank();
    int64_t r = rank - 2;
    if (r < 1 || gType.getRank() != rank || type.getRank() != rank)
      return emitLoweringError(op, "X and grid need one rank (at least 3)");
    if (!gType.isDynamicDim(rank - 1) && gType.getDimSize(rank - 1) != r)
      return emitLoweringError(op, "the last dim of grid must be " + Twine(r));
    StringRef mode = op.getMode();
    StringRef padding = op.getPaddingMode();
    bool align = op.getAlignCorners() != 0;
    if (mode == "bilinear")
      mode = "linear";
    if (mode == "bicubic")
      mode = "cubic";
    if (mode != "linear" && mode != "nearest" && mode != "cubic")
      return emitLoweringError(op, "unknown mode '" + mode + "'");
    if (padding != "zeros" && padding != "border" && padding != "reflection")
      return emitLoweringError(op, "unknown padding_mode '" + padding + "'");
    Type elementType = type.getElementType();
    // Strings are i64 pointers once converted: refuse them by their ONNX type
    // (zeros padding has no string to give).
    if (!isa<FloatType, IntegerType>(elementType) ||
        isa<StringType>(getElementTypeOrSelf(op.getX().getType())) ||
        (mode != "nearest" && elementType.isInteger(1)))
      return emitLoweringError(op, "GridSample of this element type");
    bool isUnsigned = isUnsignedElement(op.getX().getType());
    Type gridElem = gType.getElementType();
    // The type the positions are denormalized in (the reference: the
    // grid's type).
    Type denormType = gridElem.isF64() ? gridElem : rewriter.getF32Type();

    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    SmallVector<Value> xDims = dimValues(b, loc, x);
    SmallVector<Value> gDims = dimValues(b, loc, grid);
    if (gType.isDynamicDim(rank - 1))
      check(b, loc, cmpI(b, loc, Pred::eq, gDims[rank - 1], idx(b, loc, r)), op,
            "the last dim of grid is not " + Twine(r));
    check(b, loc, cmpI(b, loc, Pred::eq, gDims[0], xDims[0]), op,
          "X and grid have different batch sizes");
    SmallVector<OpFoldResult> dims = {xDims[0], xDims[1]};
    for (int64_t d = 1; d <= r; ++d)
      dims.push_back(gDims[d]);
    dims = preferStatic(b, loc, op, type, dims);

    Type f64 = b.getF64Type();
    FloatMath outer{b, loc, f64};
    SmallVector<Value> lens, lensD, lo, hi;
    for (int64_t i = 0; i < r; ++i) {
      Value len = xDims[2 + i];
      lens.push_back(len);
      lensD.push_back(FloatMath{b, loc, denormType}.fromIndex(len));
      Value lenF = outer.fromIndex(len);
      lo.push_back(align ? outer.c(0) : outer.c(-0.5));
      hi.push_back(align ? outer.sub(lenF, outer.c(1))
                         : outer.sub(lenF, outer.c(0.5)));
    }

    Value result = buildIndexGeneric(
        b, loc, type, dims, {}, {},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange) {
          FloatMath m{nb, nloc, f64};
          FloatMath dm{nb, nloc, denormType};
          Value zeroI = idx(nb, nloc, 0);
          SmallVector<SmallVector<Value>> tapIndex(r), tapWeight(r),
              tapValid(r);
          for (int64_t i = 0; i < r; ++i) {
            // The grid lists coordinates innermost first.
            SmallVector<Value> at = {ivs[0]};
            for (int64_t d = 0; d < r; ++d)
              at.push_back(ivs[2 + d]);
            at.push_back(idx(nb, nloc, r - 1 - i));
            Value g = tensor::ExtractOp::create(nb, nloc, grid, at);
            g = convertScalar(nb, nloc, g, denormType, false);
            Value one = dm.c(1);
            Value pos =
                align ? dm.mul(dm.div(dm.add(g, one), dm.c(2)),
                               dm.sub(lensD[i], one))
                      : dm.div(dm.sub(dm.mul(dm.add(g, one), lensD[i]), one),
                               dm.c(2));
            if (mode == "nearest")
              pos = math::RoundEvenOp::create(nb, nloc, pos);
            pos = convertScalar(nb, nloc, pos, f64, false);
            Value lenF = m.fromIndex(lens[i]);
            if (padding == "border")
              pos = m.clamp(pos, m.c(0), m.sub(lenF, m.c(1)));
            else if (padding == "reflection")
              pos = reflect(m, pos, lo[i], hi[i]);
            Value last = maxI(nb, nloc,
                              subI(nb, nloc, lens[i], idx(nb, nloc, 1)), zeroI);
            // The read index of tap `t` (an integer position) and whether
            // it reads the input (zeros padding).
            auto addTap = [&](Value t, Value w) {
              Value valid;
              if (padding == "zeros") {
                valid = andI(nb, nloc, cmpI(nb, nloc, Pred::sge, t, zeroI),
                             cmpI(nb, nloc, Pred::slt, t, lens[i]));
              } else if (padding == "reflection") {
                t = m.toIndex(reflect(m, m.fromIndex(t), lo[i], hi[i]));
              }
              tapIndex[i].push_back(clampI(nb, nloc, t, zeroI, last));
              tapValid[i].push_back(valid);
              tapWeight[i].push_back(w);
            };
            if (mode == "nearest") {
              addTap(m.toIndex(pos), Value());
              continue;
            }
            Value p0 = m.floor(pos);
            Value frac = m.sub(pos, p0);
            Value i0 = m.toIndex(p0);
            if (mode == "linear") {
              addTap(i0, m.sub(m.c(1), frac));
              addTap(addI(nb, nloc, i0, idx(nb, nloc, 1)), frac);
              continue;
            }
            SmallVector<Value> w = cubicWeights(m, frac);
            for (int64_t t = 0; t < 4; ++t)
              addTap(addI(nb, nloc, i0, idx(nb, nloc, t - 1)), w[t]);
          }
          // Sum over all combinations of taps.
          int64_t taps = tapIndex[0].size();
          SmallVector<Value> at = {ivs[0], ivs[1]};
          at.resize(rank);
          SmallVector<int64_t> choice(r, 0);
          Value acc;
          while (true) {
            Value weight, valid;
            for (int64_t i = 0; i < r; ++i) {
              at[2 + i] = tapIndex[i][choice[i]];
              if (Value w = tapWeight[i][choice[i]])
                weight = weight ? m.mul(weight, w) : w;
              if (Value v = tapValid[i][choice[i]])
                valid = valid ? andI(nb, nloc, valid, v) : v;
            }
            Value v = tensor::ExtractOp::create(nb, nloc, x, at);
            if (mode == "nearest") {
              acc = valid ? select(nb, nloc, valid, v,
                                   zeroOf(nb, nloc, elementType))
                          : v;
            } else {
              v = convertScalar(nb, nloc, v, f64, isUnsigned);
              Value term = m.mul(weight, v);
              if (valid)
                term = m.sel(valid, term, m.c(0));
              acc = acc ? m.add(acc, term) : term;
            }
            int64_t i = r - 1;
            while (i >= 0 && ++choice[i] == taps)
              choice[i--] = 0;
            if (i < 0)
              break;
          }
          if (mode != "nearest") {
            if (isa<FloatType>(elementType))
              acc = convertScalar(nb, nloc, acc, elementType, false);
            else if (isUnsigned)
              acc = arith::FPToUIOp::create(nb, nloc, elementType, acc);
            else
              acc = arith::FPToSIOp::create(nb, nloc, elementType, acc);
          }
          return acc;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::onnx::populateGridSampleToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GridSampleLowering>(converter, patterns.getContext());
}
