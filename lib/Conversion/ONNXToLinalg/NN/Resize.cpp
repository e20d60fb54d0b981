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

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
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

/// One Resize: its modes, its resized axes and their taps.
struct ResizePlan {
  StringRef mode, ctm, nearestMode, policy;
  SmallVector<Axis> info;
  /// Per resized axis: the first tap's offset from x0, the filter's scale
  /// (antialiasing), the number of taps, whether the axis is copied, and
  /// whether its input has one element (every output reads index 0).
  SmallVector<Value> tapStart, filterScale;
  SmallVector<int64_t> tapCount;
  SmallVector<bool> identity, single;
  bool antialias = false, excludeOutside = false, isUnsigned = false;
  double cubicA = -0.75, extrapolation = 0;
};

/// Checks the string attributes of `op` (`elementType` is Y's).
LogicalResult checkModes(ResizeOp op, Type elementType, ResizePlan &p) {
  StringRef mode = p.mode = op.getMode();
  StringRef ctm = p.ctm = op.getCoordinateTransformationMode();
  StringRef nearestMode = p.nearestMode = op.getNearestMode();
  StringRef policy = p.policy = op.getKeepAspectRatioPolicy();
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
    return emitLoweringError(op, "unknown nearest_mode '" + nearestMode + "'");
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
    return emitLoweringError(op, "unknown keep_aspect_ratio_policy '" + policy +
                                     "'");
  if (mode != "nearest" && !isa<FloatType, IntegerType>(elementType))
    return emitLoweringError(op, "interpolation of this element type");
  return success();
}

/// The resized axes of `op` (all axes without the `axes` attribute).
FailureOr<SmallVector<int64_t>> readAxes(ResizeOp op, int64_t rank) {
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
  return axes;
}

/// Fills `p.info` for `axes`: the input sizes, the roi of
/// tf_crop_and_resize, the scales (given, or from the sizes and
/// keep_aspect_ratio_policy) and the output sizes; a scale that is not
/// positive stops the model.
LogicalResult planAxes(ResizeOp op, OpBuilder &b, Location loc, Value x,
                       Value roi, Value scales, Value sizes,
                       ArrayRef<int64_t> axes, ArrayRef<Value> inDims,
                       ResizePlan &p) {
  auto xType = cast<RankedTensorType>(x.getType());
  int64_t k = axes.size();
  Type f64 = b.getF64Type();
  auto f = [&](double v) { return createScalarConstant(b, loc, f64, v); };
  auto toF64 = [&](Value index) {
    return arith::SIToFPOp::create(
        b, loc, f64, arith::IndexCastOp::create(b, loc, b.getI64Type(), index));
  };
  auto readF64 = [&](Value t, int64_t i) {
    Value v = tensor::ExtractOp::create(b, loc, t, ValueRange{idx(b, loc, i)});
    return convertScalar(b, loc, v, f64, false);
  };
  std::optional<SmallVector<double>> staticScales =
      scales ? getConstantFloatValues(scales) : std::nullopt;
  std::optional<SmallVector<int64_t>> staticSizes =
      sizes ? getConstantIntValues(sizes) : std::nullopt;

  SmallVector<Axis> &info = p.info;
  for (int64_t a = 0; a < k; ++a) {
    Axis axis;
    axis.dim = axes[a];
    axis.inSize = inDims[axis.dim];
    axis.inSizeF = toF64(axis.inSize);
    if (p.ctm == "tf_crop_and_resize") {
      auto roiType =
          roi ? dyn_cast<RankedTensorType>(roi.getType()) : RankedTensorType();
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
    if (p.policy != "stretch") {
      bool smaller = p.policy == "not_larger";
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
  return success();
}

/// The result's dims: the input's, with the output sizes of the resized
/// axes (checked against a static result type at run time).
SmallVector<OpFoldResult> outputDims(ResizeOp op, OpBuilder &b, Location loc,
                                     RankedTensorType type,
                                     ArrayRef<Value> inDims,
                                     const ResizePlan &p) {
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> dims;
  for (int64_t d = 0; d < rank; ++d)
    dims.push_back(inDims[d]);
  for (const Axis &axis : p.info)
    dims[axis.dim] = castToIndex(
        b, loc, arith::FPToSIOp::create(b, loc, b.getI64Type(), axis.outSizeF));
  for (int64_t d = 0; d < rank; ++d)
    if (!staticValue(dims[d]))
      checkInferredSize(b, loc, op, type, d, dims[d]);
  return preferStatic(b, loc, op, type, dims);
}

/// The taps of each resized axis. The antialiasing filter widens with
/// 1 / scale: its first tap is at floor(-w / s) + 1 (w = 1 linear, 2 cubic)
/// and there are 2 - 2 * first of them. A scale known at run time only is
/// bounded below by the static sizes (out >= s * in - 0.5), which bounds the
/// taps; taps past the filter's support get weight 0.
LogicalResult planTaps(ResizeOp op, OpBuilder &b, Location loc,
                       RankedTensorType xType, RankedTensorType type,
                       ResizePlan &p) {
  int64_t k = p.info.size();
  Type f64 = b.getF64Type();
  auto f = [&](double v) { return createScalarConstant(b, loc, f64, v); };
  StringRef mode = p.mode;
  p.antialias = op.getAntialias() != 0 && mode != "nearest";
  double support = mode == "cubic" ? 2.0 : 1.0;
  p.tapStart.assign(k, Value());
  p.filterScale.assign(k, Value());
  p.tapCount.assign(k, 0);
  // An axis of scale 1, or of size 1, is copied (a single tap of
  // weight 1) unless tf_crop_and_resize may extrapolate on it.
  p.identity.assign(k, false);
  p.single.assign(k, false);
  for (int64_t a = 0; a < k; ++a) {
    const Axis &axis = p.info[a];
    p.single[a] = xType.getDimSize(axis.dim) == 1;
    p.identity[a] =
        p.ctm != "tf_crop_and_resize" &&
        (axis.staticScale == std::optional<double>(1.0) || p.single[a]);
    if (mode == "nearest" || p.identity[a]) {
      p.tapCount[a] = 1;
      continue;
    }
    if (!p.antialias) {
      p.tapStart[a] = idx(b, loc, mode == "linear" ? 0 : -1);
      p.filterScale[a] = f(1);
      p.tapCount[a] = mode == "linear" ? 2 : 4;
      continue;
    }
    double lowest;
    if (axis.staticScale) {
      lowest = *axis.staticScale;
    } else {
      int64_t in = xType.getDimSize(axis.dim);
      int64_t out = type.getDimSize(axis.dim);
      if (ShapedType::isDynamic(in) || ShapedType::isDynamic(out))
        return emitLoweringError(
            op, "antialias needs static scales or static sizes");
      lowest = out == 0 ? 1.0 : (double(out) - 0.5) / double(in);
    }
    lowest = std::min(lowest, 1.0);
    if (lowest <= 0)
      return emitLoweringError(op, "antialias needs positive scales");
    int64_t first = static_cast<int64_t>(std::floor(-support / lowest) + 1);
    p.tapCount[a] = 2 - 2 * first;
    Value s = arith::MinimumFOp::create(b, loc, axis.scale, f(1));
    p.filterScale[a] = s;
    Value start = arith::AddFOp::create(
        b, loc,
        math::FloorOp::create(b, loc,
                              arith::DivFOp::create(b, loc, f(-support), s)),
        f(1));
    p.tapStart[a] = castToIndex(
        b, loc, arith::FPToSIOp::create(b, loc, b.getI64Type(), start));
  }
  int64_t combos = 1;
  for (int64_t n : p.tapCount)
    combos *= n;
  if (combos > 4096)
    return emitLoweringError(op, "the filter has too many taps (" +
                                     Twine(combos) + ")");
  return success();
}

/// f64 arithmetic in the body of the generic.
struct F64Math {
  OpBuilder &nb;
  Location nloc;
  Value c(double v) const {
    return createScalarConstant(nb, nloc, nb.getF64Type(), v);
  }
  Value add(Value p, Value q) const {
    return arith::AddFOp::create(nb, nloc, p, q);
  }
  Value sub(Value p, Value q) const {
    return arith::SubFOp::create(nb, nloc, p, q);
  }
  Value mul(Value p, Value q) const {
    return arith::MulFOp::create(nb, nloc, p, q);
  }
  Value div(Value p, Value q) const {
    return arith::DivFOp::create(nb, nloc, p, q);
  }
  Value cmp(FPred p, Value l, Value r) const {
    return arith::CmpFOp::create(nb, nloc, p, l, r);
  }
  Value sel(Value cond, Value t, Value e) const {
    return arith::SelectOp::create(nb, nloc, cond, t, e);
  }
};

/// The input coordinate (f64) of the output coordinate `xr` along `axis`
/// (coordinate_transformation_mode `ctm`). tf_crop_and_resize also ors into
/// `outside` whether the coordinate is out of the input.
Value sourceCoordinate(const F64Math &m, const Axis &axis, StringRef ctm,
                       Value xr, Value &outside) {
  Value one = m.c(1);
  Value isOne = m.cmp(FPred::OEQ, axis.outWidth, one);
  Value halfPixel = m.sub(m.div(m.add(xr, m.c(0.5)), axis.scale), m.c(0.5));
  Value inMinusOne = m.sub(axis.inSizeF, one);
  if (ctm == "half_pixel")
    return halfPixel;
  if (ctm == "half_pixel_symmetric") {
    Value adjustment = m.div(axis.outSizeF, axis.outWidth);
    Value center = m.div(axis.inSizeF, m.c(2));
    Value offset = m.mul(center, m.sub(one, adjustment));
    return m.add(offset, halfPixel);
  }
  if (ctm == "pytorch_half_pixel")
    return m.sel(isOne, m.c(-0.5), halfPixel);
  if (ctm == "align_corners")
    return m.sel(isOne, m.c(0),
                 m.div(m.mul(xr, inMinusOne), m.sub(axis.outWidth, one)));
  if (ctm == "asymmetric")
    return m.div(xr, axis.scale);
  if (ctm == "tf_half_pixel_for_nn")
    // Opset 11's mode: (x + 0.5) / scale.
    return m.div(m.add(xr, m.c(0.5)), axis.scale);
  Value span = m.sub(axis.roiEnd, axis.roiStart);
  Value single = m.div(m.mul(span, inMinusOne), m.c(2));
  Value many =
      m.div(m.mul(m.mul(xr, span), inMinusOne), m.sub(axis.outWidth, one));
  Value xo =
      m.add(m.sel(isOne, single, many), m.mul(axis.roiStart, inMinusOne));
  Value out = arith::OrIOp::create(m.nb, m.nloc, m.cmp(FPred::OLT, xo, m.c(0)),
                                   m.cmp(FPred::OGT, xo, inMinusOne));
  outside =
      outside ? (Value)arith::OrIOp::create(m.nb, m.nloc, outside, out) : out;
  return xo;
}

/// The cubic convolution kernel at |x| with coefficient A.
Value cubicWeight(OpBuilder &b, Location loc, Value x, double a) {
  F64Math m{b, loc};
  Value x2 = m.mul(x, x), x3 = m.mul(x2, x);
  // (A + 2)|x|^3 - (A + 3)|x|^2 + 1 for |x| <= 1
  Value near =
      m.add(m.add(m.mul(m.c(a + 2), x3), m.mul(m.c(-(a + 3)), x2)), m.c(1));
  // A|x|^3 - 5A|x|^2 + 8A|x| - 4A for 1 < |x| < 2
  Value far = m.add(m.add(m.add(m.mul(m.c(a), x3), m.mul(m.c(-5 * a), x2)),
                          m.mul(m.c(8 * a), x)),
                    m.c(-4 * a));
  Value isNear = m.cmp(FPred::OLE, x, m.c(1));
  Value isFar = m.cmp(FPred::OLT, x, m.c(2));
  return m.sel(isNear, near, m.sel(isFar, far, m.c(0)));
}

/// The read indices (clamped into the input) and the weights (none for
/// nearest) of resized axis `a` at the output index `iv`.
void axisTaps(const F64Math &m, const ResizePlan &p, int64_t a, Value iv,
              SmallVector<Value> &tapIndex, SmallVector<Value> &tapWeight,
              Value &outside) {
  OpBuilder &nb = m.nb;
  Location nloc = m.nloc;
  const Axis &axis = p.info[a];
  if (p.identity[a]) {
    // Of scale 1 the output index is the input's; of one input element
    // every output reads it.
    tapIndex.push_back(
        p.single[a] ? Value(arith::ConstantIndexOp::create(nb, nloc, 0)) : iv);
    return;
  }
  Value xr = arith::SIToFPOp::create(
      nb, nloc, nb.getF64Type(),
      arith::IndexCastOp::create(nb, nloc, nb.getI64Type(), iv));
  Value one = m.c(1);
  Value xo = sourceCoordinate(m, axis, p.ctm, xr, outside);
  // x0 and the ratio in (0, 1]: an integer coordinate takes the pixel on
  // its left with ratio 1, as the reference does.
  Value x0 = math::FloorOp::create(nb, nloc, xo);
  Value ratio = m.sub(xo, x0);
  Value integral = m.cmp(FPred::OEQ, ratio, m.c(0));
  x0 = m.sel(integral, m.sub(x0, one), x0);
  ratio = m.sel(integral, one, ratio);
  Value x0Index = castToIndex(
      nb, nloc, arith::FPToSIOp::create(nb, nloc, nb.getI64Type(), x0));
  Value last = maxI(nb, nloc, subI(nb, nloc, axis.inSize, idx(nb, nloc, 1)),
                    idx(nb, nloc, 0));
  auto clampRead = [&](Value i) {
    return clampI(nb, nloc, i, idx(nb, nloc, 0), last);
  };
  if (p.mode == "nearest") {
    Value second; // whether the right neighbour is taken
    if (p.nearestMode == "round_prefer_floor")
      second = m.cmp(FPred::OGT, ratio, m.c(0.5));
    else if (p.nearestMode == "round_prefer_ceil")
      second = m.cmp(FPred::OGE, ratio, m.c(0.5));
    else if (p.nearestMode == "floor")
      second = arith::ConstantIntOp::create(nb, nloc, 0, 1);
    else
      second = arith::ConstantIntOp::create(nb, nloc, 1, 1);
    second = arith::OrIOp::create(nb, nloc, second, integral);
    Value i = m.sel(second, addI(nb, nloc, x0Index, idx(nb, nloc, 1)), x0Index);
    tapIndex.push_back(clampRead(i));
    return;
  }
  Value sum = m.c(0);
  for (int64_t t = 0; t < p.tapCount[a]; ++t) {
    Value offset = addI(nb, nloc, p.tapStart[a], idx(nb, nloc, t));
    Value offsetF = arith::SIToFPOp::create(
        nb, nloc, nb.getF64Type(),
        arith::IndexCastOp::create(nb, nloc, nb.getI64Type(), offset));
    // |(offset - ratio) * s|
    Value arg = math::AbsFOp::create(
        nb, nloc, m.mul(m.sub(offsetF, ratio), p.filterScale[a]));
    Value w;
    if (p.mode == "linear")
      w = arith::MaximumFOp::create(nb, nloc, m.sub(one, arg), m.c(0));
    else
      w = cubicWeight(nb, nloc, arg, p.cubicA);
    Value i = addI(nb, nloc, x0Index, offset);
    if (p.excludeOutside) {
      Value inside =
          andI(nb, nloc, cmpI(nb, nloc, Pred::sge, i, idx(nb, nloc, 0)),
               cmpI(nb, nloc, Pred::slt, i, axis.inSize));
      w = m.sel(inside, w, m.c(0));
    }
    sum = m.add(sum, w);
    tapWeight.push_back(w);
    tapIndex.push_back(clampRead(i));
  }
  if (p.antialias || p.excludeOutside)
    for (Value &w : tapWeight)
      w = m.div(w, sum);
}

/// The body of the generic at the output index `ivs`: the weighted sum of
/// the reads over every combination of taps of the resized axes, converted
/// to `elementType` (extrapolation_value outside a tf_crop_and_resize
/// region).
Value resizedElement(const F64Math &m, const ResizePlan &p, Value x,
                     Type elementType, ValueRange ivs) {
  OpBuilder &nb = m.nb;
  Location nloc = m.nloc;
  Type f64 = nb.getF64Type();
  int64_t k = p.info.size();
  Value outside; // tf_crop_and_resize: any coordinate out of range
  SmallVector<SmallVector<Value>> tapIndex(k), tapWeight(k);
  for (int64_t a = 0; a < k; ++a)
    axisTaps(m, p, a, ivs[p.info[a].dim], tapIndex[a], tapWeight[a], outside);
  // Sum over all combinations of taps.
  SmallVector<Value> at(ivs);
  Value acc;
  SmallVector<int64_t> choice(k, 0);
  while (true) {
    Value weight;
    for (int64_t a = 0; a < k; ++a) {
      at[p.info[a].dim] = tapIndex[a][choice[a]];
      if (!tapWeight[a].empty())
        weight = weight ? m.mul(weight, tapWeight[a][choice[a]])
                        : tapWeight[a][choice[a]];
    }
    Value v = tensor::ExtractOp::create(nb, nloc, x, at);
    if (p.mode == "nearest") {
      acc = v;
    } else {
      v = convertScalar(nb, nloc, v, f64, p.isUnsigned);
      Value term = weight ? m.mul(weight, v) : v;
      acc = acc ? m.add(acc, term) : term;
    }
    int64_t a = k - 1;
    while (a >= 0 && ++choice[a] == p.tapCount[a])
      choice[a--] = 0;
    if (a < 0)
      break;
  }
  if (p.mode != "nearest") {
    if (isa<FloatType>(elementType))
      acc = convertScalar(nb, nloc, acc, elementType, false);
    else if (p.isUnsigned)
      acc = arith::FPToUIOp::create(nb, nloc, elementType, acc);
    else
      acc = arith::FPToSIOp::create(nb, nloc, elementType, acc);
  }
  if (outside) {
    Value e;
    if (isa<FloatType>(elementType))
      e = createScalarConstant(nb, nloc, elementType, p.extrapolation);
    else if (isa<IntegerType>(elementType))
      e = createScalarConstant(nb, nloc, elementType,
                               std::trunc(p.extrapolation));
    if (e)
      acc = m.sel(outside, e, acc);
  }
  return acc;
}

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
    ResizePlan p;
    Type elementType = type.getElementType();
    if (failed(checkModes(op, elementType, p)))
      return failure();

    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    FailureOr<SmallVector<int64_t>> axes = readAxes(op, type.getRank());
    if (failed(axes))
      return failure();
    int64_t k = axes->size();
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

    SmallVector<Value> inDims = dimValues(b, loc, x);
    if (failed(planAxes(op, b, loc, x, adaptor.getRoi(), scales, sizes, *axes,
                        inDims, p)))
      return failure();
    SmallVector<OpFoldResult> dims = outputDims(op, b, loc, type, inDims, p);
    if (failed(planTaps(op, b, loc, xType, type, p)))
      return failure();
    p.cubicA = op.getCubicCoeffA().convertToDouble();
    p.excludeOutside = op.getExcludeOutside() != 0;
    p.extrapolation = op.getExtrapolationValue().convertToDouble();
    p.isUnsigned = isUnsignedElement(op.getX().getType());

    Value result = buildIndexGeneric(
        b, loc, type, dims, {}, {},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange) {
          return resizedElement(F64Math{nb, nloc}, p, x, elementType, ivs);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::onnx::populateResizeToLinalgPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<ResizeLowering>(converter, patterns.getContext());
}
