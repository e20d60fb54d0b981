//===- Training.cpp - Expansions of the Training family -------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expansions of the Training family: The ai.onnx.preview.training optimizers
// Adagrad, Adam and Momentum.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnx;
using namespace mlir::onnx::decompose;

//===--- Training optimizers (ai.onnx.preview.training) -------------------===//

/// The inputs of an optimizer: R, T, then `groups` lists of `n` tensors
/// (X..., G..., and the optimizer's state); n from the operand count.
struct OptimizerInputs {
  Value r, t;
  int64_t n = 0;
  SmallVector<Value> all;
  Value get(int64_t group, int64_t i) const { return all[group * n + i]; }
};

static std::optional<OptimizerInputs> optimizerInputs(Expansion &x,
                                                      int64_t groups) {
  Operation *op = x.ctx.getOp();
  int64_t count = (int64_t)op->getNumOperands() - 2;
  if (count < groups || count % groups ||
      (int64_t)op->getNumResults() != count / groups * (groups - 1))
    return std::nullopt;
  OptimizerInputs in;
  in.r = op->getOperand(0);
  in.t = op->getOperand(1);
  in.n = count / groups;
  for (Value v : op->getOperands().drop_front(2))
    in.all.push_back(v);
  return in;
}

/// norm_coefficient * X + G.
static Value emitRegularized(Emitter &e, Value xv, Value g, double norm) {
  Type et = elementTypeOf(xv);
  return e.add(e.mul(e.scalar(et, norm), xv), g);
}

/// Adagrad: r = R / (1 + T * decay_factor); G' = norm * X + G;
/// H_new = H + G'^2; X_new = X - r * G' / (sqrt(H_new) + epsilon).
static LogicalResult expandAdagrad(Expansion &x) {
  Emitter &e = x.e;
  std::optional<OptimizerInputs> in = optimizerInputs(x, 3);
  if (!in)
    return unsupported(x, "inputs are not X..., G..., H... with one output "
                          "per X and H");
  double decay = x.f("decay_factor"), eps = x.f("epsilon"),
         norm = x.f("norm_coefficient");
  SmallVector<Value> xs, hs;
  for (int64_t i = 0; i < in->n; ++i) {
    Value xv = in->get(0, i), g = in->get(1, i), h = in->get(2, i);
    Type et = elementTypeOf(xv);
    Value t = e.castTo(in->t, et);
    Value r = e.div(e.castTo(in->r, et),
                    e.add(e.scalar(et, 1.0), e.mul(t, e.scalar(et, decay))));
    Value gr = emitRegularized(e, xv, g, norm);
    Value hNew = e.add(h, e.mul(gr, gr));
    Value hAdaptive = e.add(e.unary<SqrtOp>(hNew), e.scalar(et, eps));
    xs.push_back(e.sub(xv, e.div(e.mul(r, gr), hAdaptive)));
    hs.push_back(hNew);
  }
  x.results.assign(xs.begin(), xs.end());
  x.results.append(hs.begin(), hs.end());
  return success(!e.failed());
}

/// Adam: G' = norm * X + G; V_new = alpha V + (1 - alpha) G';
/// H_new = beta H + (1 - beta) G'^2; R' = T > 0 ? R sqrt(1 - beta^T) /
/// (1 - alpha^T) : R; X_new = (1 - norm_post) (X - R' V_new / (sqrt(H_new)
/// + epsilon)).
static LogicalResult expandAdam(Expansion &x) {
  Emitter &e = x.e;
  std::optional<OptimizerInputs> in = optimizerInputs(x, 4);
  if (!in)
    return unsupported(x, "inputs are not X..., G..., V..., H... with one "
                          "output per X, V and H");
  double alpha = x.f("alpha"), beta = x.f("beta"), eps = x.f("epsilon"),
         norm = x.f("norm_coefficient"), post = x.f("norm_coefficient_post");
  SmallVector<Value> xs, vs, hs;
  for (int64_t i = 0; i < in->n; ++i) {
    Value xv = in->get(0, i), g = in->get(1, i), v = in->get(2, i),
          h = in->get(3, i);
    Type et = elementTypeOf(xv);
    Value one = e.scalar(et, 1.0);
    Value gr = emitRegularized(e, xv, g, norm);
    Value vNew = e.add(e.mul(e.scalar(et, alpha), v),
                       e.mul(e.scalar(et, 1.0 - alpha), gr));
    Value hNew = e.add(e.mul(e.scalar(et, beta), h),
                       e.mul(e.scalar(et, 1.0 - beta), e.mul(gr, gr)));
    Value hSqrt = e.add(e.unary<SqrtOp>(hNew), e.scalar(et, eps));
    Value t = e.castTo(in->t, et);
    Value r = e.castTo(in->r, et);
    Value adjusted =
        e.div(e.mul(r, e.unary<SqrtOp>(
                           e.sub(one, e.binary<PowOp>(e.scalar(et, beta), t)))),
              e.sub(one, e.binary<PowOp>(e.scalar(et, alpha), t)));
    Value positive =
        e.compare<GreaterOp>(in->t, e.scalar(elementTypeOf(in->t), 0.0));
    Value rAdj = e.where(positive, adjusted, r);
    Value xNew = e.sub(xv, e.mul(rAdj, e.div(vNew, hSqrt)));
    xs.push_back(e.mul(e.scalar(et, 1.0 - post), xNew));
    vs.push_back(vNew);
    hs.push_back(hNew);
  }
  x.results.assign(xs.begin(), xs.end());
  x.results.append(vs.begin(), vs.end());
  x.results.append(hs.begin(), hs.end());
  return success(!e.failed());
}

/// Momentum: G' = norm * X + G; V_new = alpha V + (T > 0 ? beta : 1) G';
/// X_new = X - R V_new (standard) or X - R (G' + alpha V_new) (nesterov).
static LogicalResult expandMomentum(Expansion &x) {
  Emitter &e = x.e;
  std::optional<OptimizerInputs> in = optimizerInputs(x, 3);
  if (!in)
    return unsupported(x, "inputs are not X..., G..., V... with one output "
                          "per X and V");
  std::optional<double> alpha = x.ctx.getFloatAttr("alpha"),
                        beta = x.ctx.getFloatAttr("beta"),
                        norm = x.ctx.getFloatAttr("norm_coefficient");
  std::optional<StringRef> mode = x.ctx.getStringAttr("mode");
  if (!alpha || !beta || !norm || !mode)
    return unsupported(x, "alpha, beta, mode and norm_coefficient are "
                          "required");
  if (*mode != "standard" && *mode != "nesterov")
    return unsupported(x, "mode '" + *mode +
                              "' is neither standard nor "
                              "nesterov");
  SmallVector<Value> xs, vs;
  for (int64_t i = 0; i < in->n; ++i) {
    Value xv = in->get(0, i), g = in->get(1, i), v = in->get(2, i);
    Type et = elementTypeOf(xv);
    Value gr = emitRegularized(e, xv, g, *norm);
    Value positive =
        e.compare<GreaterOp>(in->t, e.scalar(elementTypeOf(in->t), 0.0));
    Value betaAdj = e.where(positive, e.scalar(et, *beta), e.scalar(et, 1.0));
    Value vNew = e.add(e.mul(e.scalar(et, *alpha), v), e.mul(betaAdj, gr));
    Value r = e.castTo(in->r, et);
    Value step = *mode == "standard"
                     ? vNew
                     : e.add(gr, e.mul(e.scalar(et, *alpha), vNew));
    xs.push_back(e.sub(xv, e.mul(r, step)));
    vs.push_back(vNew);
  }
  x.results.assign(xs.begin(), xs.end());
  x.results.append(vs.begin(), vs.end());
  return success(!e.failed());
}

void decompose::registerTrainingExpansions(ExpansionRegistry &r) {
  r.add<PreviewTrainingAdagradOp>(expandAdagrad);
  r.add<PreviewTrainingAdamOp>(expandAdam);
  r.add<PreviewTrainingMomentumOp>(expandMomentum);
}
