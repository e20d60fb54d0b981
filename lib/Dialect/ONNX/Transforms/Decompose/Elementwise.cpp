//===- Elementwise.cpp - Expansions of the Elementwise family -------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expansions of the Elementwise family: The activations that ONNX defines as
// functions, Softmax, LogSoftmax, Clip and CastLike.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnx;
using namespace mlir::onnx::decompose;

//===--- Activations
//-------------------------------------------------------===//

/// alpha * (exp(x) - 1) where x < 0, x elsewhere.
static Value emitElu(Emitter &e, Value x, double alpha) {
  Type et = elementTypeOf(x);
  Value zero = e.scalar(et, 0.0), one = e.scalar(et, 1.0);
  Value neg = e.mul(e.scalar(et, alpha), e.sub(e.unary<ExpOp>(x), one));
  return e.where(e.compare<LessOp>(x, zero), neg, x);
}

/// max(0, min(1, alpha * x + beta)).
static Value emitHardSigmoid(Emitter &e, Value x, double alpha, double beta) {
  Type et = elementTypeOf(x);
  Value lin = e.add(e.mul(x, e.scalar(et, alpha)), e.scalar(et, beta));
  return e.binary<MaxOp>(e.binary<MinOp>(lin, e.scalar(et, 1.0)),
                         e.scalar(et, 0.0));
}

/// log(exp(x) + 1).
static Value emitSoftplus(Emitter &e, Value x) {
  return e.unary<LogOp>(
      e.add(e.unary<ExpOp>(x), e.scalar(elementTypeOf(x), 1.0)));
}

static LogicalResult expandElementwise(Expansion &x) {
  Emitter &e = x.e;
  Value v = x.in(0);
  Value r;
  if (x.is<SoftsignOp>()) {
    r = e.div(v, e.add(x.c(1.0), e.unary<AbsOp>(v)));
  } else if (x.is<SoftplusOp>()) {
    r = emitSoftplus(e, v);
  } else if (x.is<HardSigmoidOp>()) {
    r = emitHardSigmoid(e, v, x.f("alpha"), x.f("beta"));
  } else if (x.is<HardSwishOp>()) {
    r = e.mul(v, emitHardSigmoid(e, v, 1.0 / 6.0, 0.5));
  } else if (x.is<MishOp>()) {
    r = e.mul(v, e.unary<TanhOp>(emitSoftplus(e, v)));
  } else if (x.is<EluOp>()) {
    r = emitElu(e, v, x.f("alpha"));
  } else if (x.is<CeluOp>()) {
    // alpha * Elu(x / alpha, 1).
    Value alpha = x.c(x.f("alpha"));
    r = e.mul(alpha, emitElu(e, e.div(v, alpha), 1.0));
  } else if (x.is<SeluOp>()) {
    double alpha = x.f("alpha");
    double gamma = x.f("gamma");
    Value a = x.c(alpha);
    Value neg = e.sub(e.mul(a, e.unary<ExpOp>(v)), a);
    Value sel = e.where(e.compare<GreaterOp>(v, x.c(0.0)), v, neg);
    r = e.mul(x.c(gamma), sel);
  } else if (x.is<LeakyReluOp>()) {
    r = e.where(e.compare<LessOp>(v, x.c(0.0)), e.mul(x.c(x.f("alpha")), v), v);
  } else if (x.is<ThresholdedReluOp>()) {
    r = e.where(e.compare<GreaterOp>(v, x.c(x.f("alpha"))), v, x.c(0.0));
  } else if (x.is<ShrinkOp>()) {
    double lambd = x.f("lambd"), bias = x.f("bias");
    Type et = x.et();
    if (!isFloat(et) && !isa_and_nonnull<IntegerType>(et))
      return unsupported(x, "unknown element type");
    Value lo = e.compare<LessOp>(v, e.scalar(et, -lambd));
    Value hi = e.compare<GreaterOp>(v, e.scalar(et, lambd));
    Value inner = e.where(hi, e.sub(v, e.scalar(et, bias)), e.scalar(et, 0.0));
    r = e.where(lo, e.add(v, e.scalar(et, bias)), inner);
  } else if (x.is<SwishOp>()) {
    r = e.mul(v, e.unary<SigmoidOp>(e.mul(x.c(x.f("alpha")), v)));
  } else if (x.is<PReluOp>()) {
    Value slope = x.in(1);
    r = e.where(e.compare<LessOp>(v, x.c(0.0)), e.mul(slope, v), v);
  } else if (x.is<GeluOp>()) {
    StringRef approx = x.s("approximate");
    Value half = x.c(0.5), one = x.c(1.0);
    Value phi;
    if (approx == "none") {
      phi = e.add(one, e.unary<ErfOp>(e.div(v, e.unary<SqrtOp>(x.c(2.0)))));
    } else if (approx == "tanh") {
      Value cubed = e.binary<PowOp>(v, x.c(3.0));
      Value inner = e.add(v, e.mul(x.c(0.044715), cubed));
      Value k = e.unary<SqrtOp>(x.c(2.0 / M_PI));
      phi = e.add(one, e.unary<TanhOp>(e.mul(k, inner)));
    } else {
      return unsupported(x, "unknown approximation '" + approx + "'");
    }
    r = e.mul(e.mul(half, v), phi);
  } else {
    return unsupported(x, "no expansion");
  }
  x.results = {r};
  return success(static_cast<bool>(r));
}

//===--- Softmax, reductions ----------------------------------------------===//

/// The function body of Softmax-13 (LogSoftmax-13 with `log`) along `axis`.
Value decompose::emitSoftmax(Emitter &e, Value v, int64_t axis, bool log) {
  Emitter::Axes axes{SmallVector<int64_t>{axis}, {}};
  Value shifted = e.sub(v, e.reduce<ReduceMaxOp>(v, axes, true));
  Value ex = e.unary<ExpOp>(shifted);
  Value sum = e.reduce<ReduceSumOp>(ex, axes, true);
  return log ? e.sub(shifted, e.unary<LogOp>(sum)) : e.div(ex, sum);
}

static LogicalResult expandSoftmax(Expansion &x, bool log) {
  if (x.ctx.getVersion() < 13)
    return unsupported(x, "Softmax before 13 coerces to 2-D: convert it first");
  x.results = {emitSoftmax(x.e, x.in(0), x.i("axis"), log)};
  return success(static_cast<bool>(x.results[0]));
}

/// The axes of a Reduce* op: its `axes` input (newer versions) or attribute.

//===--- Clip, CastLike, Range --------------------------------------------===//

static LogicalResult expandClip(Expansion &x) {
  Emitter &e = x.e;
  Value v = x.in(0);
  Value lo, hi;
  if (x.ctx.getInputSlot("min") >= 0) {
    lo = x.in(1);
    hi = x.in(2);
  } else {
    // Clip before 11: the bounds are attributes (default: unbounded).
    if (std::optional<double> m = x.ctx.getFloatAttr("min"))
      lo = x.c(*m);
    if (std::optional<double> m = x.ctx.getFloatAttr("max"))
      hi = x.c(*m);
  }
  Value r = v;
  if (lo)
    r = e.binary<MaxOp>(r, lo);
  if (hi)
    r = e.binary<MinOp>(r, hi);
  if (r == v)
    r = e.unary<IdentityOp>(v);
  x.results = {r};
  return success(static_cast<bool>(r));
}

static LogicalResult expandCastLike(Expansion &x) {
  Emitter &e = x.e;
  Type to = x.et(1);
  int32_t code = getDataTypeForElementType(to);
  if (!x.in(0) || !code)
    return unsupported(x, "the target element type is unknown");
  SmallVector<NamedAttribute> attrs{
      x.b().getNamedAttr("to", x.b().getI64IntegerAttr(code))};
  for (StringRef name : {"saturate", "round_mode"})
    if (Attribute a = x.ctx.getAttr(name))
      attrs.push_back(x.b().getNamedAttr(name, a));
  x.results = {e.create1<CastOp>(
      {x.in(0)}, withElementType(x.in(0).getType(), to), attrs)};
  return success(static_cast<bool>(x.results[0]));
}

/// start + delta * [0, 1, ..., n - 1], n = max(ceil((limit - start) / delta),
/// 0): Range without its Loop. The count is computed in the element type for
/// floats and in double for integers.

void decompose::registerElementwiseExpansions(ExpansionRegistry &r) {
  r.add<SoftsignOp, SoftplusOp, HardSigmoidOp, HardSwishOp, MishOp, EluOp,
        CeluOp, SeluOp, LeakyReluOp, ThresholdedReluOp, ShrinkOp, SwishOp,
        PReluOp, GeluOp>(expandElementwise);
  r.add<SoftmaxOp>([](Expansion &x) { return expandSoftmax(x, false); });
  r.add<LogSoftmaxOp>([](Expansion &x) { return expandSoftmax(x, true); });
  r.add<ClipOp>(expandClip);
  r.add<CastLikeOp>(expandCastLike);
}
