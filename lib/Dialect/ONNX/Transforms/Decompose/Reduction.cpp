//===- Reduction.cpp - Expansions of the Reduction family -----------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expansions of the Reduction family: The Reduce* operators defined as
// functions and the losses.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnx;
using namespace mlir::onnx::decompose;

static Emitter::Axes getReduceAxes(Expansion &x) {
  Emitter::Axes axes;
  int slot = x.ctx.getInputSlot("axes");
  if (slot >= 0) {
    if (!x.ctx.hasInput(slot)) {
      axes.constant = SmallVector<int64_t>();
      return axes;
    }
    if (std::optional<SmallVector<int64_t>> c = x.ctx.getConstantInts(slot))
      axes.constant = *c;
    else
      axes.value = x.in(slot);
    return axes;
  }
  axes.constant = x.ctx.getIntsAttr("axes").value_or(SmallVector<int64_t>());
  return axes;
}

static LogicalResult expandReduce(Expansion &x) {
  Emitter &e = x.e;
  Value v = x.in(0);
  Emitter::Axes axes = getReduceAxes(x);
  bool keep = x.i("keepdims") != 0;
  // Versions before 18 (13 for ReduceSum) have no noop_with_empty_axes: they
  // take the newest version's default (0: empty axes mean all axes).
  bool noop = x.i("noop_with_empty_axes") != 0;
  auto sum = [&](Value in) {
    return e.reduce<ReduceSumOp>(in, axes, keep, noop);
  };
  Value r;
  if (x.is<ReduceLogSumOp>()) {
    r = e.unary<LogOp>(sum(v));
  } else if (x.is<ReduceLogSumExpOp>()) {
    // The function body computes in double and casts back.
    Type et = x.et();
    Value d = e.castTo(v, Float64Type::get(e.getContext()));
    r = e.castTo(e.unary<LogOp>(sum(e.unary<ExpOp>(d))), et);
  } else if (x.is<ReduceL1Op>()) {
    r = sum(e.unary<AbsOp>(v));
  } else if (x.is<ReduceL2Op>()) {
    // Integers are summed in their type, the root taken in float.
    Type et = x.et();
    Value s = sum(e.mul(v, v));
    if (isFloat(et))
      r = e.unary<SqrtOp>(s);
    else
      r = e.castTo(
          e.unary<SqrtOp>(e.castTo(s, Float32Type::get(e.getContext()))), et);
  } else if (x.is<ReduceSumSquareOp>()) {
    r = sum(e.mul(v, v));
  } else {
    return unsupported(x, "no expansion");
  }
  x.results = {r};
  return success(static_cast<bool>(r));
}

//===--- Losses -----------------------------------------------------------===//

/// The function body of NegativeLogLikelihoodLoss: -input at the target
/// class (GatherElements along axis 1), zero where the target is
/// ignore_index, times the class weight, reduced. The loss is computed in
/// the element type of `input`.
static Value emitNLL(Emitter &e, Value input, Value target, Value weight,
                     StringRef reduction, std::optional<int64_t> ignoreIndex) {
  Type et = elementTypeOf(input), tt = elementTypeOf(target);
  Type i64 = IntegerType::get(e.getContext(), 64);
  if (!isFloat(et) || !tt)
    return e.fail("unknown element type"), Value();
  Value zero1 = e.i64s({0}), one1 = e.i64s({1});
  Value expanded = e.unsqueeze(target, {1});
  Value mask, index = expanded;
  Value zero = e.scalar(et, 0.0);
  if (ignoreIndex) {
    Value zeroTarget = e.sub(expanded, expanded);
    mask = e.compare<EqualOp>(e.castTo(expanded, i64), e.i64s({*ignoreIndex}));
    index = e.where(mask, zeroTarget, expanded);
  }
  Value gathered = e.build1<GatherElementsOp>({input, index}, et,
                                              {e.attr("axis", int64_t(1))});
  if (mask)
    gathered = e.where(mask, zero, gathered);
  Value lossNCdd = e.unary<NegOp>(gathered);
  Value lossN1dd = e.build1<SliceOp>({lossNCdd, zero1, one1, one1}, et);
  // The weight of each sample (none without weight and ignore_index).
  Value w;
  if (weight && mask)
    w = e.squeeze(e.where(mask, zero, e.build1<GatherOp>({weight, index}, et)),
                  {1});
  else if (weight)
    w = e.build1<GatherOp>({weight, target}, et);
  else if (mask)
    w = e.where(e.squeeze(mask, {1}), zero, e.scalar(et, 1.0));
  Value loss = e.squeeze(lossN1dd, {1});
  if (w)
    loss = e.mul(loss, w);
  if (reduction == "none")
    return loss;
  Emitter::Axes all{SmallVector<int64_t>(), {}};
  if (reduction == "sum")
    return e.reduce<ReduceSumOp>(loss, all, false);
  if (reduction != "mean")
    return e.fail("unknown reduction '" + reduction + "'"), Value();
  if (!w)
    return e.reduce<ReduceMeanOp>(loss, all, false);
  Value lossSum = e.reduce<ReduceSumOp>(loss, all, false);
  return e.div(lossSum, e.reduce<ReduceSumOp>(w, all, false));
}

static LogicalResult expandNLL(Expansion &x) {
  x.results = {emitNLL(x.e, x.in(0), x.in(1), x.in(2), x.s("reduction"),
                       x.ctx.getIntAttr("ignore_index"))};
  return success(!x.e.failed());
}

/// SoftmaxCrossEntropyLoss: LogSoftmax over the classes of scores viewed as
/// [N, C, D] (transposed to put C last), then NegativeLogLikelihoodLoss; the
/// log probabilities are the second output.
static LogicalResult expandSCE(Expansion &x) {
  Emitter &e = x.e;
  Value scores = x.in(0);
  Value ncd = e.reshape(scores, e.i64s({0, 0, -1}));
  Value ndc = e.transpose(ncd, {0, 2, 1});
  Value logSm = e.transpose(emitSoftmax(e, ndc, 2, /*log=*/true), {0, 2, 1});
  Value logProb = e.reshape(logSm, e.shapeOf(scores));
  x.results = {emitNLL(e, logProb, x.in(1), x.in(2), x.s("reduction"),
                       x.ctx.getIntAttr("ignore_index"))};
  if (x.ctx.hasOutput(1))
    x.results.push_back(logProb);
  return success(!e.failed());
}

void decompose::registerReductionExpansions(ExpansionRegistry &r) {
  r.add<ReduceLogSumOp, ReduceLogSumExpOp, ReduceL1Op, ReduceL2Op,
        ReduceSumSquareOp>(expandReduce);
  r.add<NegativeLogLikelihoodLossOp>(expandNLL);
  r.add<SoftmaxCrossEntropyLossOp>(expandSCE);
}
