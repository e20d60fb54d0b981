//===- Resize.cpp - Resize to a linalg.generic ----------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One linalg.generic over the result. For each resized axis the body maps
// the output coordinate to the input (coordinate_transformation_mode),
// picks the taps (1 for nearest, 2 for linear, 4 for cubic, more for an
// antialiasing filter when downscaling) with their weights, and sums the
// products of the weights over all axes (the separable interpolation of the
// ONNX reference); reads are clamped into the input (edge padding), weights
// of taps outside it are dropped and renormalized with exclude_outside, and
// tf_crop_and_resize gives extrapolation_value outside the region.
// Coordinates and weights are computed in f64. Scales and sizes that are
// not constants are read at run time (the antialiasing filter then needs
// static scales).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnx;

namespace {

using Pred = arith::CmpIPredicate;
using FPred = arith::CmpFPredicate;

/// What the body needs for one resized axis.
struct Axis {
  int64_t dim;
  Value inSize;           // index
  Value inSizeF;          // f64
  Value outSizeF;         // f64, the integer output size
  Value scale;            // f64
  Value outWidth;         // f64, scale * input size
  Value roiStart, roiEnd; // f64, tf_crop_and_resize only
  std::optional<double> staticScale;
};

struct ResizeLowering : ONNXToLinalgPattern<ResizeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(ResizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value x = adaptor.getX();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    if (!type || !xType || type.getRank() != xType.getRank())
      return emitLoweringError(op, "expected ranked tensors of one rank");
    StringRef mode = op.getMode();
    StringRef ctm = op.getCoordinateTransformationMode();
    StringRef nearestMode = op.getNearestMode();
    StringRef policy = op.getKeepAspectRatioPolicy();
    if (mode != "nearest" && mode != "linear" && mode != "cubic")
      return emitLoweringError(op, "unknown mode '" + mode + "'");
    if (ctm != "half_pixel" && ctm != "half_pixel_symmetric" &&
        ctm != "pytorch_half_pixel" && ctm != "align_corners" &&
        ctm != "asymmetric" && ctm != "tf_crop_and_resize" &&
        ctm != "tf_half_pixel_for_nn")
      return emitLoweringError(op, "unknown coordinate_transformation_mode '" +
                                       ctm + "'");
    if (nearestMode != "round_prefer_floor" &&
        nearestMode != "round_prefer_ceil" && nearestMode != "floor" &&
        nearestMode != "ceil")
      return emitLoweringError(op,
                               "unknown nearest_mode '" + nearestMode + "'");
    if (policy != "stretch" && policy != "not_larger" &&
        policy != "not_smaller")
      return emitLoweringError(op, "unknown keep_aspect_ratio_policy '" +
                                       policy + "'");
    Type elementType = type.getElementType();
    if (mode != "nearest" && !isa<FloatType, IntegerType>(elementType))
      return emitLoweringError(op, "interpolation of this element type");

    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    int64_t rank = type.getRank();
    SmallVector<int64_t> axes;
    if (auto a = op.getAxes()) {
      for (int64_t v : *a)
        axes.push_back(v < 0 ? v + rank : v);
      for (int64_t v : axes)
        if (v < 0 || v >= rank)
          return emitLoweringError(op, "axes out of range");
    } else {
      axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    }
    int64_t k = axes.size();
    Value scales =
        isAbsent(adaptor.getScales()) ? Value() : adaptor.getScales();
    Value sizes = isAbsent(adaptor.getSizes()) ? Value() : adaptor.getSizes();
    if (!scales == !sizes)
      return emitLoweringError(op, "exactly one of scales and sizes is needed");
    Value sizesOrScales = scales ? scales : sizes;
    auto sType = cast<RankedTensorType>(sizesOrScales.getType());
    if (sType.getRank() != 1 || sType.getDimSize(0) != k)
      return emitLoweringError(op, (scales ? "scales" : "sizes") +
                                       Twine(" needs ") + Twine(k) +
                                       " values (a static length)");
    Type f64 = b.getF64Type();
    auto f = [&](double v) { return createScalarConstant(b, loc, f64, v); };
    auto toF64 = [&](Value index) {
      return arith::SIToFPOp::create(
          b, loc, f64,
          arith::IndexCastOp::create(b, loc, b.getI64Type(), index));
    };
    auto toIndex = [&](Value v) {
      return castToIndex(b, loc,
                         arith::FPToSIOp::create(b, loc, b.getI64Type(), v));
    };
    auto readF64 = [&](Value t, int64_t i) {
      Value v =
          tensor::ExtractOp::create(b, loc, t, ValueRange{idx(b, loc, i)});
      return convertScalar(b, loc, v, f64, false);
    };
    std::optional<SmallVector<double>> staticScales =
        scales ? getConstantFloatValues(scales) : std::nullopt;
    std::optional<SmallVector<int64_t>> staticSizes =
        sizes ? getConstantIntValues(sizes) : std::nullopt;

    SmallVector<Value> inDims = dimValues(b, loc, x);
    SmallVector<Axis> info;
    for (int64_t a = 0; a < k; ++a) {
      Axis axis;
      axis.dim = axes[a];
      axis.inSize = inDims[axis.dim];
      axis.inSizeF = toF64(axis.inSize);
      if (ctm == "tf_crop_and_resize") {
        Value roi = adaptor.getRoi();
        auto roiType = roi ? dyn_cast<RankedTensorType>(roi.getType())
                           : RankedTensorType();
        if (isAbsent(roi) || !roiType || roiType.getRank() != 1 ||
            roiType.getDimSize(0) != 2 * k)
          return emitLoweringError(
              op, "tf_crop_and_resize needs a roi of 2 values per axis");
        axis.roiStart = readF64(roi, a);
        axis.roiEnd = readF64(roi, k + a);
      }
      info.push_back(axis);
    }
    // Scales, and output sizes.
    if (scales) {
      for (int64_t a = 0; a < k; ++a) {
        Axis &axis = info[a];
        axis.scale = readF64(scales, a);
        if (staticScales)
          axis.staticScale = (*staticScales)[a];
        Value width = arith::MulFOp::create(b, loc, axis.inSizeF, axis.scale);
        if (axis.roiStart)
          width = arith::MulFOp::create(
              b, loc, width,
              arith::SubFOp::create(b, loc, axis.roiEnd, axis.roiStart));
        axis.outSizeF = math::FloorOp::create(b, loc, width);
      }
    } else {
      for (int64_t a = 0; a < k; ++a) {
        Axis &axis = info[a];
        axis.outSizeF = readF64(sizes, a);
        axis.scale = arith::DivFOp::create(b, loc, axis.outSizeF, axis.inSizeF);
        if (staticSizes && !xType.isDynamicDim(axis.dim))
          axis.staticScale =
              double((*staticSizes)[a]) / double(xType.getDimSize(axis.dim));
      }
      if (policy != "stretch") {
        bool smaller = policy == "not_larger";
        Value s = info[0].scale;
        std::optional<double> ss = info[0].staticScale;
        for (int64_t a = 1; a < k; ++a) {
          s = smaller
                  ? (Value)arith::MinimumFOp::create(b, loc, s, info[a].scale)
                  : (Value)arith::MaximumFOp::create(b, loc, s, info[a].scale);
          if (ss && info[a].staticScale)
            ss = smaller ? std::min(*ss, *info[a].staticScale)
                         : std::max(*ss, *info[a].staticScale);
          else
            ss.reset();
        }
        for (Axis &axis : info) {
          axis.scale = s;
          axis.staticScale = ss;
          axis.outSizeF = math::FloorOp::create(
              b, loc,
              arith::AddFOp::create(
                  b, loc, arith::MulFOp::create(b, loc, s, axis.inSizeF),
                  f(0.5)));
        }
      }
    }
    for (Axis &axis : info) {
      axis.outWidth = arith::MulFOp::create(b, loc, axis.scale, axis.inSizeF);
      check(b, loc, arith::CmpFOp::create(b, loc, FPred::OGT, axis.scale, f(0)),
            op, "a scale is not positive");
    }

    SmallVector<OpFoldResult> dims;
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(inDims[d]);
    for (Axis &axis : info)
      dims[axis.dim] = toIndex(axis.outSizeF);
    for (int64_t d = 0; d < rank; ++d)
      if (!type.isDynamicDim(d) && !staticValue(dims[d]))
        check(b, loc,
              cmpI(b, loc, Pred::eq, toValue(b, loc, dims[d]),
                   idx(b, loc, type.getDimSize(d))),
              op,
              "the output size of dim " + Twine(d) + " is not the inferred " +
                  Twine(type.getDimSize(d)));
    dims = preferStatic(b, loc, op, type, dims);

    // Taps per axis. The antialiasing filter widens with 1 / scale: its
    // first tap is at floor(-w / s) + 1 (w = 1 linear, 2 cubic) and there
    // are 2 - 2 * first of them. A scale known at run time only is bounded
    // below by the static sizes (out >= s * in - 0.5), which bounds the taps;
    // taps past the filter's support get weight 0.
    bool antialias = op.getAntialias() != 0 && mode != "nearest";
    double support = mode == "cubic" ? 2.0 : 1.0;
    SmallVector<Value> tapStart(k), filterScale(k);
    SmallVector<int64_t> tapCount(k);
    // An axis of scale 1, or of size 1, is copied (a single tap of
    // weight 1) unless tf_crop_and_resize may extrapolate on it.
    SmallVector<bool> identity(k, false);
    for (int64_t a = 0; a < k; ++a) {
      identity[a] = ctm != "tf_crop_and_resize" &&
                    (info[a].staticScale == std::optional<double>(1.0) ||
                     xType.getDimSize(info[a].dim) == 1);
      if (mode == "nearest" || identity[a]) {
        tapCount[a] = 1;
        continue;
      }
      if (!antialias) {
        tapStart[a] = idx(b, loc, mode == "linear" ? 0 : -1);
        filterScale[a] = f(1);
        tapCount[a] = mode == "linear" ? 2 : 4;
        continue;
      }
      double lowest;
      if (info[a].staticScale) {
        lowest = *info[a].staticScale;
      } else {
        int64_t in = xType.getDimSize(info[a].dim);
        int64_t out = type.getDimSize(info[a].dim);
        if (ShapedType::isDynamic(in) || ShapedType::isDynamic(out))
          return emitLoweringError(
              op, "antialias needs static scales or static sizes");
        lowest = out == 0 ? 1.0 : (double(out) - 0.5) / double(in);
      }
      lowest = std::min(lowest, 1.0);
      if (lowest <= 0)
        return emitLoweringError(op, "antialias needs positive scales");
      int64_t first = static_cast<int64_t>(std::floor(-support / lowest) + 1);
      tapCount[a] = 2 - 2 * first;
      Value s = arith::MinimumFOp::create(b, loc, info[a].scale, f(1));
      filterScale[a] = s;
      Value start = arith::AddFOp::create(
          b, loc,
          math::FloorOp::create(b, loc,
                                arith::DivFOp::create(b, loc, f(-support), s)),
          f(1));
      tapStart[a] = toIndex(start);
    }
    int64_t combos = 1;
    for (int64_t n : tapCount)
      combos *= n;
    if (combos > 4096)
      return emitLoweringError(op, "the filter has too many taps (" +
                                       Twine(combos) + ")");

    double cubicA = op.getCubicCoeffA().convertToDouble();
    bool excludeOutside = op.getExcludeOutside() != 0;
    double extrapolation = op.getExtrapolationValue().convertToDouble();
    bool isUnsigned = isUnsignedElement(op.getX().getType());

    Value result = buildIndexGeneric(
        b, loc, type, dims, {}, {},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange) {
          auto fc = [&](double v) {
            return createScalarConstant(nb, nloc, f64, v);
          };
          auto add = [&](Value p, Value q) {
            return (Value)arith::AddFOp::create(nb, nloc, p, q);
          };
          auto sub = [&](Value p, Value q) {
            return (Value)arith::SubFOp::create(nb, nloc, p, q);
          };
          auto mul = [&](Value p, Value q) {
            return (Value)arith::MulFOp::create(nb, nloc, p, q);
          };
          auto div = [&](Value p, Value q) {
            return (Value)arith::DivFOp::create(nb, nloc, p, q);
          };
          auto fcmp = [&](FPred p, Value l, Value r) {
            return (Value)arith::CmpFOp::create(nb, nloc, p, l, r);
          };
          auto sel = [&](Value c, Value t, Value e) {
            return (Value)arith::SelectOp::create(nb, nloc, c, t, e);
          };
          Value outside; // tf_crop_and_resize: any coordinate out of range
          // Per axis: the read indices (clamped) and the weights.
          SmallVector<SmallVector<Value>> tapIndex(k), tapWeight(k);
          for (int64_t a = 0; a < k; ++a) {
            const Axis &axis = info[a];
            if (identity[a]) {
              tapIndex[a].push_back(ivs[axis.dim]);
              continue;
            }
            Value xr = arith::SIToFPOp::create(
                nb, nloc, f64,
                arith::IndexCastOp::create(nb, nloc, nb.getI64Type(),
                                           ivs[axis.dim]));
            Value one = fc(1);
            Value isOne = fcmp(FPred::OEQ, axis.outWidth, one);
            Value halfPixel = sub(div(add(xr, fc(0.5)), axis.scale), fc(0.5));
            Value inMinusOne = sub(axis.inSizeF, one);
            Value xo;
            if (ctm == "half_pixel") {
              xo = halfPixel;
            } else if (ctm == "half_pixel_symmetric") {
              Value adjustment = div(axis.outSizeF, axis.outWidth);
              Value center = div(axis.inSizeF, fc(2));
              Value offset = mul(center, sub(one, adjustment));
              xo = add(offset, halfPixel);
            } else if (ctm == "pytorch_half_pixel") {
              xo = sel(isOne, fc(-0.5), halfPixel);
            } else if (ctm == "align_corners") {
              xo = sel(isOne, fc(0),
                       div(mul(xr, inMinusOne), sub(axis.outWidth, one)));
            } else if (ctm == "asymmetric") {
              xo = div(xr, axis.scale);
            } else if (ctm == "tf_half_pixel_for_nn") {
              // Opset 11's mode: (x + 0.5) / scale.
              xo = div(add(xr, fc(0.5)), axis.scale);
            } else {
              Value span = sub(axis.roiEnd, axis.roiStart);
              Value single = div(mul(span, inMinusOne), fc(2));
              Value many =
                  div(mul(mul(xr, span), inMinusOne), sub(axis.outWidth, one));
              xo =
                  add(sel(isOne, single, many), mul(axis.roiStart, inMinusOne));
              Value out =
                  arith::OrIOp::create(nb, nloc, fcmp(FPred::OLT, xo, fc(0)),
                                       fcmp(FPred::OGT, xo, inMinusOne));
              outside =
                  outside ? (Value)arith::OrIOp::create(nb, nloc, outside, out)
                          : out;
            }
            // x0 and the ratio in (0, 1]: an integer coordinate takes the
            // pixel on its left with ratio 1, as the reference does.
            Value x0 = math::FloorOp::create(nb, nloc, xo);
            Value ratio = sub(xo, x0);
            Value integral = fcmp(FPred::OEQ, ratio, fc(0));
            x0 = sel(integral, sub(x0, one), x0);
            ratio = sel(integral, one, ratio);
            Value x0Index = castToIndex(
                nb, nloc,
                arith::FPToSIOp::create(nb, nloc, nb.getI64Type(), x0));
            Value last =
                maxI(nb, nloc, subI(nb, nloc, axis.inSize, idx(nb, nloc, 1)),
                     idx(nb, nloc, 0));
            auto clampRead = [&](Value i) {
              return clampI(nb, nloc, i, idx(nb, nloc, 0), last);
            };
            if (mode == "nearest") {
              Value second; // whether the right neighbour is taken
              if (nearestMode == "round_prefer_floor")
                second = fcmp(FPred::OGT, ratio, fc(0.5));
              else if (nearestMode == "round_prefer_ceil")
                second = fcmp(FPred::OGE, ratio, fc(0.5));
              else if (nearestMode == "floor")
                second = arith::ConstantIntOp::create(nb, nloc, 0, 1);
              else
                second = arith::ConstantIntOp::create(nb, nloc, 1, 1);
              second = arith::OrIOp::create(nb, nloc, second, integral);
              Value i = sel(second, addI(nb, nloc, x0Index, idx(nb, nloc, 1)),
                            x0Index);
              tapIndex[a].push_back(clampRead(i));
              continue;
            }
            Value sum = fc(0);
            for (int64_t t = 0; t < tapCount[a]; ++t) {
              Value offset = addI(nb, nloc, tapStart[a], idx(nb, nloc, t));
              Value offsetF = arith::SIToFPOp::create(
                  nb, nloc, f64,
                  arith::IndexCastOp::create(nb, nloc, nb.getI64Type(),
                                             offset));
              // |(offset - ratio) * s|
              Value arg = math::AbsFOp::create(
                  nb, nloc, mul(sub(offsetF, ratio), filterScale[a]));
              Value w;
              if (mode == "linear")
                w = arith::MaximumFOp::create(nb, nloc, sub(one, arg), fc(0));
              else
                w = cubicWeight(nb, nloc, arg, cubicA);
              Value i = addI(nb, nloc, x0Index, offset);
              if (excludeOutside) {
                Value inside = andI(
                    nb, nloc, cmpI(nb, nloc, Pred::sge, i, idx(nb, nloc, 0)),
                    cmpI(nb, nloc, Pred::slt, i, axis.inSize));
                w = sel(inside, w, fc(0));
              }
              sum = add(sum, w);
              tapWeight[a].push_back(w);
              tapIndex[a].push_back(clampRead(i));
            }
            if (antialias || excludeOutside)
              for (Value &w : tapWeight[a])
                w = div(w, sum);
          }
          // Sum over all combinations of taps.
          SmallVector<Value> at(ivs);
          Value acc;
          SmallVector<int64_t> choice(k, 0);
          while (true) {
            Value weight;
            for (int64_t a = 0; a < k; ++a) {
              at[info[a].dim] = tapIndex[a][choice[a]];
              if (!tapWeight[a].empty())
                weight = weight ? mul(weight, tapWeight[a][choice[a]])
                                : tapWeight[a][choice[a]];
            }
            Value v = tensor::ExtractOp::create(nb, nloc, x, at);
            if (mode == "nearest") {
              acc = v;
            } else {
              v = convertScalar(nb, nloc, v, f64, isUnsigned);
              Value term = weight ? mul(weight, v) : v;
              acc = acc ? add(acc, term) : term;
            }
            int64_t a = k - 1;
            while (a >= 0 && ++choice[a] == tapCount[a])
              choice[a--] = 0;
            if (a < 0)
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
          if (outside) {
            Value e;
            if (isa<FloatType>(elementType))
              e = createScalarConstant(nb, nloc, elementType, extrapolation);
            else if (isa<IntegerType>(elementType))
              e = createScalarConstant(nb, nloc, elementType,
                                       std::trunc(extrapolation));
            if (e)
              acc = sel(outside, e, acc);
          }
          return acc;
        });
    rewriter.replaceOp(op, result);
    return success();
  }

  /// The cubic convolution kernel at |x| with coefficient A.
  static Value cubicWeight(OpBuilder &b, Location loc, Value x, double a) {
    Type f64 = b.getF64Type();
    auto c = [&](double v) { return createScalarConstant(b, loc, f64, v); };
    auto mul = [&](Value p, Value q) {
      return (Value)arith::MulFOp::create(b, loc, p, q);
    };
    auto add = [&](Value p, Value q) {
      return (Value)arith::AddFOp::create(b, loc, p, q);
    };
    Value x2 = mul(x, x), x3 = mul(x2, x);
    // (A + 2)|x|^3 - (A + 3)|x|^2 + 1 for |x| <= 1
    Value near = add(add(mul(c(a + 2), x3), mul(c(-(a + 3)), x2)), c(1));
    // A|x|^3 - 5A|x|^2 + 8A|x| - 4A for 1 < |x| < 2
    Value far =
        add(add(add(mul(c(a), x3), mul(c(-5 * a), x2)), mul(c(8 * a), x)),
            c(-4 * a));
    Value isNear =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x, c(1));
    Value isFar =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, c(2));
    return arith::SelectOp::create(
        b, loc, isNear, near,
        arith::SelectOp::create(b, loc, isFar, far, c(0)));
  }
};

} // namespace

void mlir::onnx::populateResizeToLinalgPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<ResizeLowering>(converter, patterns.getContext());
}
