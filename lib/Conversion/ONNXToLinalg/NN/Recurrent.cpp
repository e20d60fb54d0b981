//===- Recurrent.cpp - RNN, GRU, LSTM to an scf.for over time -------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One lowering for the three recurrent ops. Layout 1 inputs are transposed
// to layout 0 ([seq, batch, ...]) and the outputs back. Per direction:
//  - the input projection of all time steps is one linalg.matmul
//    (X as [seq*batch, input] times W^T as [input, gates*hidden]) before
//    the loop;
//  - an scf.for over time carries H (and C for LSTM) and the direction's
//    Y [seq, batch, hidden]; each step is a linalg.matmul H * R^T (GRU
//    without linear_before_reset: one for the z and r gates and one for
//    (r . H) * Rh^T) and one linalg.generic over [batch, hidden] that
//    applies biases, peepholes, clip, the activations (with their
//    activation_alpha/beta, consumed in order by the functions that take
//    them) and sequence_lens (steps at or past a batch entry's length keep
//    H and C and write zeros to Y);
//  - the reverse direction runs the steps from the last; with
//    sequence_lens, each batch entry's sequence is reversed within its
//    length before the loop and Y is reversed back after it.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

using Pred = arith::CmpIPredicate;

enum class Kind { RNN, GRU, LSTM };

struct Activation {
  std::string name; // lower case
  double alpha = 0, beta = 0;
};

struct RecurrentArgs {
  Kind kind;
  Value x, w, r, b, seqLens, initH, initC, p;
  std::optional<ArrayRef<float>> alphas, betas;
  ArrayAttr activations; // null: the defaults
  std::optional<double> clip;
  StringRef direction;
  std::optional<int64_t> hiddenSize;
  int64_t layout = 0;
  bool inputForget = false, linearBeforeReset = false;
  Value yResult, yhResult, ycResult; // onnx results, null when absent
};

int64_t numGates(Kind k) { return k == Kind::RNN ? 1 : k == Kind::GRU ? 3 : 4; }
int64_t numActivations(Kind k) {
  return k == Kind::RNN ? 1 : k == Kind::GRU ? 2 : 3;
}

/// The activation functions with their alpha/beta, or failure with a
/// message.
FailureOr<SmallVector<Activation>> getActivations(const RecurrentArgs &a,
                                                  int64_t numDirections,
                                                  std::string &error) {
  int64_t n = numActivations(a.kind);
  SmallVector<std::string> names;
  if (a.activations) {
    for (Attribute attr : a.activations)
      names.push_back(cast<StringAttr>(attr).getValue().lower());
  } else if (a.kind == Kind::RNN) {
    names = {"tanh"};
  } else if (a.kind == Kind::GRU) {
    names = {"sigmoid", "tanh"};
  } else {
    names = {"sigmoid", "tanh", "tanh"};
  }
  if ((int64_t)names.size() == n && numDirections == 2)
    names.append(SmallVector<std::string>(names));
  if ((int64_t)names.size() != n * numDirections) {
    error = "expected " + std::to_string(n * numDirections) +
            " activations, got " + std::to_string(names.size());
    return failure();
  }
  size_t ai = 0, bi = 0;
  auto nextAlpha = [&](double def) {
    return a.alphas && ai < a.alphas->size() ? (double)(*a.alphas)[ai++] : def;
  };
  auto nextBeta = [&](double def) {
    return a.betas && bi < a.betas->size() ? (double)(*a.betas)[bi++] : def;
  };
  SmallVector<Activation> out;
  for (const std::string &name : names) {
    Activation act{name};
    if (name == "relu" || name == "tanh" || name == "sigmoid" ||
        name == "softsign" || name == "softplus") {
    } else if (name == "affine") {
      act.alpha = nextAlpha(1.0);
      act.beta = nextBeta(0.0);
    } else if (name == "leakyrelu") {
      act.alpha = nextAlpha(0.01);
    } else if (name == "thresholdedrelu") {
      act.alpha = nextAlpha(1.0);
    } else if (name == "scaledtanh") {
      act.alpha = nextAlpha(1.0);
      act.beta = nextBeta(1.0);
    } else if (name == "hardsigmoid") {
      act.alpha = nextAlpha(0.2);
      act.beta = nextBeta(0.5);
    } else if (name == "elu") {
      act.alpha = nextAlpha(1.0);
    } else {
      error = "unknown activation function '" + name + "'";
      return failure();
    }
    out.push_back(act);
  }
  return out;
}

Value applyActivation(OpBuilder &b, Location loc, const Activation &a,
                      Value x) {
  Type t = x.getType();
  auto c = [&](double v) { return createScalarConstant(b, loc, t, v); };
  auto sel = [&](Value cond, Value p, Value q) {
    return arith::SelectOp::create(b, loc, cond, p, q).getResult();
  };
  auto ge = [&](Value p, Value q) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, p, q)
        .getResult();
  };
  auto mul = [&](Value p, Value q) {
    return arith::MulFOp::create(b, loc, p, q).getResult();
  };
  auto add = [&](Value p, Value q) {
    return arith::AddFOp::create(b, loc, p, q).getResult();
  };
  const std::string &n = a.name;
  if (n == "relu")
    return arith::MaximumFOp::create(b, loc, x, c(0));
  if (n == "tanh")
    return math::TanhOp::create(b, loc, x);
  if (n == "sigmoid") {
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    return arith::DivFOp::create(b, loc, c(1), add(c(1), e));
  }
  if (n == "affine")
    return add(mul(c(a.alpha), x), c(a.beta));
  if (n == "leakyrelu")
    return sel(ge(x, c(0)), x, mul(c(a.alpha), x));
  if (n == "thresholdedrelu")
    return sel(ge(x, c(a.alpha)), x, c(0));
  if (n == "scaledtanh")
    return mul(c(a.alpha), math::TanhOp::create(b, loc, mul(c(a.beta), x)));
  if (n == "hardsigmoid")
    return arith::MinimumFOp::create(
        b, loc,
        arith::MaximumFOp::create(b, loc, add(mul(c(a.alpha), x), c(a.beta)),
                                  c(0)),
        c(1));
  if (n == "elu")
    return sel(ge(x, c(0)), x,
               mul(c(a.alpha),
                   arith::SubFOp::create(b, loc, math::ExpOp::create(b, loc, x),
                                         c(1))));
  if (n == "softsign")
    return arith::DivFOp::create(b, loc, x,
                                 add(c(1), math::AbsFOp::create(b, loc, x)));
  // softplus
  return math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, x));
}

Value emptyLike(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                Type elementType) {
  return tensor::EmptyOp::create(b, loc, sizes, elementType);
}

Value zeros(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
            Type elementType) {
  Value empty = emptyLike(b, loc, sizes, elementType);
  return linalg::FillOp::create(b, loc, zeroOf(b, loc, elementType), empty)
      .getResult(0);
}

Value transpose(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> perm) {
  SmallVector<OpFoldResult> dims = getDims(b, loc, x);
  SmallVector<OpFoldResult> sizes;
  for (int64_t p : perm)
    sizes.push_back(dims[p]);
  Value init = emptyLike(b, loc, sizes, getElementTypeOf(x.getType()));
  return linalg::TransposeOp::create(b, loc, x, init, perm).getResult()[0];
}

/// A [m, k] x [k, n] product.
Value matmul(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  Type t = getElementTypeOf(lhs.getType());
  Value init =
      zeros(b, loc, {getDims(b, loc, lhs)[0], getDims(b, loc, rhs)[1]}, t);
  return linalg::MatmulOp::create(b, loc, ValueRange{lhs, rhs},
                                  ValueRange{init})
      .getResult(0);
}

/// `x[offsets...]` with `sizes`, dropping the dims listed in `drop` (their
/// size must be 1).
Value slice(OpBuilder &b, Location loc, Value x, ArrayRef<OpFoldResult> offsets,
            ArrayRef<OpFoldResult> sizesIn, ArrayRef<int64_t> drop) {
  SmallVector<OpFoldResult> sizes;
  for (OpFoldResult s : sizesIn) {
    if (std::optional<int64_t> v = staticValue(s))
      sizes.push_back(b.getIndexAttr(*v));
    else
      sizes.push_back(s);
  }
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (llvm::is_contained(drop, d))
      continue;
    std::optional<int64_t> s = staticValue(sizes[d]);
    shape.push_back(s ? *s : ShapedType::kDynamic);
  }
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), x, offsets,
      sizes, strides);
}

/// Per batch entry, positions t < len reversed (len - 1 - t), others kept:
/// out[t, b, ...] = x[t < len[b] ? len[b] - 1 - t : t, b, ...].
Value reverseWithinLengths(OpBuilder &b, Location loc, Value x, Value lens) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<OpFoldResult> dims = getDims(b, loc, x);
  Value seq = toValue(b, loc, dims[0]);
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  AffineMap lensMap = AffineMap::get(rank, 0, getAffineDimExpr(1, ctx));
  return buildIndexGeneric(
      b, loc, type, dims, ValueRange{lens}, {lensMap},
      [&](OpBuilder &nb, Location nl, ValueRange ivs, ValueRange args) {
        Value len = castToIndex(nb, nl, args[0]);
        len = clampI(nb, nl, len, idx(nb, nl, 0), seq);
        Value t = ivs[0];
        Value inside = cmpI(nb, nl, Pred::slt, t, len);
        Value rev = subI(nb, nl, subI(nb, nl, len, idx(nb, nl, 1)), t);
        SmallVector<Value> at(ivs);
        at[0] = select(nb, nl, inside, rev, t);
        return tensor::ExtractOp::create(nb, nl, x, at).getResult();
      });
}

/// Inputs of the step generic with their maps over (batch, hidden).
struct StepInputs {
  SmallVector<Value> values;
  SmallVector<AffineMap> maps;
  MLIRContext *ctx;
  explicit StepInputs(MLIRContext *c) : ctx(c) {}
  // A [batch, hidden] tensor; returns its position.
  int add2d(Value v) {
    values.push_back(v);
    maps.push_back(AffineMap::getMultiDimIdentityMap(2, ctx));
    return values.size() - 1;
  }
  // A vector along loop `dim` (0: batch, 1: hidden), or -1 for none.
  int addVector(Value v, unsigned dim) {
    if (!v)
      return -1;
    values.push_back(v);
    maps.push_back(AffineMap::get(2, 0, getAffineDimExpr(dim, ctx)));
    return values.size() - 1;
  }
  // A [hidden] vector.
  int addHidden(Value v) { return addVector(v, 1); }
  // A [batch] vector.
  int addBatch(Value v) { return addVector(v, 0); }
};

/// A linalg.generic over [batch, hidden] with `numOutputs` outputs of
/// `type`; `body` gets the input scalars and returns the outputs.
SmallVector<Value> stepGeneric(
    OpBuilder &b, Location loc, const StepInputs &in, int numOutputs,
    ArrayRef<OpFoldResult> sizes, Type elementType,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Value> outs;
  SmallVector<AffineMap> maps(in.maps);
  for (int i = 0; i < numOutputs; ++i) {
    outs.push_back(emptyLike(b, loc, sizes, elementType));
    maps.push_back(AffineMap::getMultiDimIdentityMap(2, b.getContext()));
  }
  SmallVector<utils::IteratorType> iters(2, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, ValueRange(outs).getTypes(), in.values, outs, maps, iters,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        SmallVector<Value> results =
            body(nb, nl, args.take_front(in.values.size()));
        linalg::YieldOp::create(nb, nl, results);
      });
  return generic.getResults();
}

/// What the directions and steps of one recurrent op share: its kind,
/// activations and sizes (X, initial_h and initial_c in layout 0).
struct Recurrence {
  Kind kind;
  Type et;
  int64_t numDirections = 1, gates = 1, perDir = 1;
  SmallVector<Activation> acts;
  Value x, initH, initC;
  OpFoldResult seq, batch, input, hidden, gh;
  Value hiddenV;
};

/// The weights of one direction: W and R transposed, the halves of B,
/// P's gates, and for GRU without linear_before_reset R's z/r and h parts.
struct DirectionWeights {
  Value wT, rT, wb, rb, pi, po, pf, rTzr, rTh;
};

/// Checks the operand types and attributes of the recurrent op and reads
/// its sizes (X transposed to layout 0).
LogicalResult readRecurrence(Operation *op, const RecurrentArgs &a,
                             OpBuilder &b, Location loc, Recurrence &r) {
  auto xType = dyn_cast<RankedTensorType>(a.x.getType());
  auto wType = dyn_cast<RankedTensorType>(a.w.getType());
  auto rType = dyn_cast<RankedTensorType>(a.r.getType());
  if (!xType || !wType || !rType || xType.getRank() != 3 ||
      wType.getRank() != 3 || rType.getRank() != 3)
    return emitLoweringError(op, "X, W and R must be ranked tensors of rank 3");
  r.et = xType.getElementType();
  if (!isa<FloatType>(r.et))
    return emitLoweringError(op, "the element type is not a float");
  if (a.direction == "forward" || a.direction == "reverse")
    r.numDirections = 1;
  else if (a.direction == "bidirectional")
    r.numDirections = 2;
  else
    return emitLoweringError(op, "unknown direction '" + a.direction + "'");
  if (a.layout != 0 && a.layout != 1)
    return emitLoweringError(op, "layout must be 0 or 1");
  std::string error;
  FailureOr<SmallVector<Activation>> acts =
      getActivations(a, r.numDirections, error);
  if (failed(acts))
    return emitLoweringError(op, error);
  r.acts = std::move(*acts);
  r.kind = a.kind;
  r.gates = numGates(r.kind);
  r.perDir = numActivations(r.kind);

  r.x = a.x;
  r.initH = a.initH;
  r.initC = a.initC;
  if (a.layout == 1) {
    r.x = transpose(b, loc, r.x, {1, 0, 2});
    if (r.initH)
      r.initH = transpose(b, loc, r.initH, {1, 0, 2});
    if (r.initC)
      r.initC = transpose(b, loc, r.initC, {1, 0, 2});
  }
  SmallVector<OpFoldResult> xDims = getDims(b, loc, r.x);
  r.seq = xDims[0];
  r.batch = xDims[1];
  r.input = xDims[2];
  if (a.hiddenSize)
    r.hidden = b.getIndexAttr(*a.hiddenSize);
  else
    r.hidden = getDims(b, loc, a.r)[2];
  r.hiddenV = toValue(b, loc, r.hidden);
  r.gh = mulI(b, loc, r.hiddenV, idx(b, loc, r.gates));
  if (std::optional<int64_t> h = staticValue(r.hidden))
    r.gh = b.getIndexAttr(*h * r.gates);
  return success();
}

/// The weights' sizes, checked at run time where not static.
void checkWeightShapes(Operation *op, const RecurrentArgs &a,
                       const Recurrence &r, OpBuilder &b, Location loc) {
  auto checkDim = [&](Value v, int64_t d, OpFoldResult expected,
                      const Twine &what) {
    Value actual = toValue(b, loc, getDims(b, loc, v)[d]);
    check(b, loc, cmpI(b, loc, Pred::eq, actual, toValue(b, loc, expected)), op,
          what);
  };
  checkDim(a.w, 0, b.getIndexAttr(r.numDirections), "W has a wrong shape");
  checkDim(a.w, 1, r.gh, "W has a wrong shape");
  checkDim(a.w, 2, r.input, "W has a wrong shape");
  checkDim(a.r, 0, b.getIndexAttr(r.numDirections), "R has a wrong shape");
  checkDim(a.r, 1, r.gh, "R has a wrong shape");
  checkDim(a.r, 2, r.hidden, "R has a wrong shape");
  OpFoldResult dirs = b.getIndexAttr(r.numDirections);
  if (a.b) {
    checkDim(a.b, 0, dirs, "B has a wrong shape");
    checkDim(a.b, 1, mulI(b, loc, toValue(b, loc, r.gh), idx(b, loc, 2)),
             "B has a wrong shape");
  }
  if (a.seqLens)
    checkDim(a.seqLens, 0, r.batch, "sequence_lens has a wrong shape");
  for (auto [v, what] : {std::pair<Value, StringRef>{r.initH, "initial_h"},
                         {r.initC, "initial_c"}}) {
    if (!v)
      continue;
    checkDim(v, 0, dirs, what + " has a wrong shape");
    checkDim(v, 1, r.batch, what + " has a wrong shape");
    checkDim(v, 2, r.hidden, what + " has a wrong shape");
  }
  if (a.p) {
    checkDim(a.p, 0, dirs, "P has a wrong shape");
    checkDim(a.p, 1, mulI(b, loc, r.hiddenV, idx(b, loc, 3)),
             "P has a wrong shape");
  }
}

/// Gate `g` of a [gates * hidden] vector or a [batch, gates * hidden]
/// tensor (null stays null).
Value gateOf(OpBuilder &b, Location loc, const Recurrence &r, Value v,
             int64_t g) {
  if (!v)
    return v;
  OpFoldResult i0 = b.getIndexAttr(0);
  OpFoldResult off = mulI(b, loc, r.hiddenV, idx(b, loc, g));
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getRank() == 1)
    return slice(b, loc, v, {off}, {r.hidden}, {});
  return slice(b, loc, v, {i0, off}, {r.batch, r.hidden}, {});
}

/// The weights of direction `d`.
DirectionWeights sliceDirection(const RecurrentArgs &a, const Recurrence &r,
                                OpBuilder &b, Location loc, int64_t d) {
  OpFoldResult i0 = b.getIndexAttr(0), i1 = b.getIndexAttr(1);
  OpFoldResult dd = b.getIndexAttr(d);
  DirectionWeights w;
  w.wT = transpose(b, loc,
                   slice(b, loc, a.w, {dd, i0, i0}, {i1, r.gh, r.input}, {0}),
                   {1, 0});
  w.rT = transpose(b, loc,
                   slice(b, loc, a.r, {dd, i0, i0}, {i1, r.gh, r.hidden}, {0}),
                   {1, 0});
  if (a.b) {
    w.wb = slice(b, loc, a.b, {dd, i0}, {i1, r.gh}, {0});
    w.rb = slice(b, loc, a.b, {dd, r.gh}, {i1, r.gh}, {0});
  }
  if (a.p) {
    Value pd = slice(b, loc, a.p, {dd, i0},
                     {i1, mulI(b, loc, r.hiddenV, idx(b, loc, 3))}, {0});
    w.pi = gateOf(b, loc, r, pd, 0);
    w.po = gateOf(b, loc, r, pd, 1);
    w.pf = gateOf(b, loc, r, pd, 2);
  }
  return w;
}

/// One time step of one direction: the generics that compute the next
/// hidden (and cell) state and the step's row of Y from the input
/// projection of the step `xwT` and the previous state.
class StepBuilder {
public:
  StepBuilder(OpBuilder &fb, Location fl, const RecurrentArgs &a,
              const Recurrence &r, const DirectionWeights &w,
              ArrayRef<Activation> act, Value t, Value xwT)
      : fb(fb), fl(fl), a(a), r(r), w(w), act(act), t(t),
        xwT(xwT), bh{r.batch, r.hidden} {}

  /// RNN: H = f(X W^T + H R^T + Wb + Rb). Returns {H, Y row}.
  SmallVector<Value> rnn(Value hPrev, Value hr) {
    StepInputs in(fb.getContext());
    int ix = in.add2d(xg(0)), ih = in.add2d(vg(hr, 0));
    int iwb = in.addHidden(vg(w.wb, 0)), irb = in.addHidden(vg(w.rb, 0));
    int ip = in.add2d(hPrev), il = in.addBatch(a.seqLens);
    return stepGeneric(
        fb, fl, in, 2, bh, r.et, [&](OpBuilder &nb, Location nl, ValueRange s) {
          Value pre = addAll(nb, nl, {s[ix], s[ih], arg(s, iwb), arg(s, irb)});
          Value h = applyActivation(nb, nl, act[0], clip(nb, nl, pre));
          Value yv;
          h = masked(nb, nl, s, il, h, s[ip], yv);
          return SmallVector<Value>{h, yv};
        });
  }

  /// GRU, linear_before_reset = 0: the gates z and r with r * H first, then
  /// the candidate from (r * H) Rh^T. Returns {H, Y row}.
  SmallVector<Value> gruResetFirst(Value hPrev, Value hr) {
    StepInputs zr(fb.getContext());
    int xz = zr.add2d(xg(0)), xr = zr.add2d(xg(1));
    int hz = zr.add2d(vg(hr, 0)), hrr = zr.add2d(vg(hr, 1));
    int wz = zr.addHidden(vg(w.wb, 0)), wr = zr.addHidden(vg(w.wb, 1));
    int rz = zr.addHidden(vg(w.rb, 0)), rr = zr.addHidden(vg(w.rb, 1));
    int ip = zr.add2d(hPrev);
    SmallVector<Value> gates = stepGeneric(
        fb, fl, zr, 2, bh, r.et, [&](OpBuilder &nb, Location nl, ValueRange s) {
          Value z = gate(nb, nl, s, xz, hz, wz, rz);
          Value rg = gate(nb, nl, s, xr, hrr, wr, rr);
          return SmallVector<Value>{z,
                                    arith::MulFOp::create(nb, nl, rg, s[ip])};
        });
    Value gateZ = gates[0];
    Value hh = matmul(fb, fl, gates[1], w.rTh);
    StepInputs in(fb.getContext());
    int ix = in.add2d(xg(2)), ihh = in.add2d(hh);
    int iwb = in.addHidden(vg(w.wb, 2)), irb = in.addHidden(vg(w.rb, 2));
    int iz = in.add2d(gateZ), ip2 = in.add2d(hPrev);
    int il = in.addBatch(a.seqLens);
    return stepGeneric(
        fb, fl, in, 2, bh, r.et, [&](OpBuilder &nb, Location nl, ValueRange s) {
          Value cand = applyActivation(
              nb, nl, act[1],
              clip(nb, nl,
                   addAll(nb, nl, {s[ix], s[ihh], arg(s, irb), arg(s, iwb)})));
          Value h = interpolate(nb, nl, s[iz], cand, s[ip2]);
          Value yv;
          h = masked(nb, nl, s, il, h, s[ip2], yv);
          return SmallVector<Value>{h, yv};
        });
  }

  /// GRU, linear_before_reset = 1: one generic, r applied to H Rh^T + Rbh.
  /// Returns {H, Y row}.
  SmallVector<Value> gruLinearBeforeReset(Value hPrev, Value hr) {
    StepInputs in(fb.getContext());
    int xz = in.add2d(xg(0)), xr = in.add2d(xg(1)), xh = in.add2d(xg(2));
    int hz = in.add2d(vg(hr, 0)), hrr = in.add2d(vg(hr, 1)),
        hhh = in.add2d(vg(hr, 2));
    int wz = in.addHidden(vg(w.wb, 0)), wr = in.addHidden(vg(w.wb, 1)),
        wh = in.addHidden(vg(w.wb, 2));
    int rz = in.addHidden(vg(w.rb, 0)), rr = in.addHidden(vg(w.rb, 1)),
        rh = in.addHidden(vg(w.rb, 2));
    int ip = in.add2d(hPrev), il = in.addBatch(a.seqLens);
    return stepGeneric(
        fb, fl, in, 2, bh, r.et, [&](OpBuilder &nb, Location nl, ValueRange s) {
          Value z = gate(nb, nl, s, xz, hz, wz, rz);
          Value rg = gate(nb, nl, s, xr, hrr, wr, rr);
          Value rec = arith::MulFOp::create(
              nb, nl, rg, addAll(nb, nl, {s[hhh], arg(s, rh)}));
          Value cand = applyActivation(
              nb, nl, act[1],
              clip(nb, nl, addAll(nb, nl, {s[xh], rec, arg(s, wh)})));
          Value h = interpolate(nb, nl, z, cand, s[ip]);
          Value yv;
          h = masked(nb, nl, s, il, h, s[ip], yv);
          return SmallVector<Value>{h, yv};
        });
  }

  /// LSTM: the gates i, o, f, c (peepholes from P). Returns {H, C, Y row}.
  SmallVector<Value> lstm(Value hPrev, Value cPrev, Value hr) {
    StepInputs in(fb.getContext());
    int x_[4], h_[4], w_[4], r_[4];
    for (int g = 0; g < 4; ++g) {
      x_[g] = in.add2d(xg(g));
      h_[g] = in.add2d(vg(hr, g));
      w_[g] = in.addHidden(vg(w.wb, g));
      r_[g] = in.addHidden(vg(w.rb, g));
    }
    int ipi = in.addHidden(w.pi), ipo = in.addHidden(w.po),
        ipf = in.addHidden(w.pf);
    int ic = in.add2d(cPrev), ih = in.add2d(hPrev);
    int il = in.addBatch(a.seqLens);
    Type et = r.et;
    return stepGeneric(
        fb, fl, in, 3, bh, et, [&](OpBuilder &nb, Location nl, ValueRange s) {
          auto mul = [&](Value p, Value q) -> Value {
            if (!p || !q)
              return Value();
            return arith::MulFOp::create(nb, nl, p, q);
          };
          auto pre = [&](int g, Value extra) {
            return clip(nb, nl,
                        addAll(nb, nl,
                               {s[x_[g]], s[h_[g]], arg(s, w_[g]),
                                arg(s, r_[g]), extra}));
          };
          Value c = s[ic];
          Value ig =
              applyActivation(nb, nl, act[0], pre(0, mul(arg(s, ipi), c)));
          Value fg;
          Value oneV = createScalarConstant(nb, nl, et, 1);
          if (a.inputForget)
            fg = arith::SubFOp::create(nb, nl, oneV, ig);
          else
            fg = applyActivation(nb, nl, act[0], pre(2, mul(arg(s, ipf), c)));
          Value cg = applyActivation(nb, nl, act[1], pre(3, Value()));
          Value cNew = arith::AddFOp::create(
              nb, nl, arith::MulFOp::create(nb, nl, fg, c),
              arith::MulFOp::create(nb, nl, ig, cg));
          Value og =
              applyActivation(nb, nl, act[0], pre(1, mul(arg(s, ipo), cNew)));
          Value hNew = arith::MulFOp::create(
              nb, nl, og, applyActivation(nb, nl, act[2], cNew));
          Value yv, unused;
          hNew = masked(nb, nl, s, il, hNew, s[ih], yv);
          cNew = masked(nb, nl, s, il, cNew, c, unused);
          return SmallVector<Value>{hNew, cNew, yv};
        });
  }

private:
  /// Gate `g` of the step's input projection.
  Value xg(int64_t g) {
    OpFoldResult off = mulI(fb, fl, r.hiddenV, idx(fb, fl, g));
    return slice(fb, fl, xwT, {fb.getIndexAttr(0), off}, {r.batch, r.hidden},
                 {});
  }
  Value vg(Value v, int64_t g) { return gateOf(fb, fl, r, v, g); }
  /// `v` clipped into [-clip, clip] when the op has a clip.
  Value clip(OpBuilder &nb, Location nl, Value v) const {
    if (!a.clip)
      return v;
    Type st = v.getType();
    Value lo = createScalarConstant(nb, nl, st, -*a.clip);
    Value hi = createScalarConstant(nb, nl, st, *a.clip);
    return arith::MinimumFOp::create(
               nb, nl, arith::MaximumFOp::create(nb, nl, v, lo), hi)
        .getResult();
  }
  /// The sum of the terms that are present.
  static Value addAll(OpBuilder &nb, Location nl, ArrayRef<Value> terms) {
    Value s;
    for (Value v : terms)
      if (v)
        s = s ? arith::AddFOp::create(nb, nl, s, v).getResult() : v;
    return s;
  }
  static Value arg(ValueRange args, int i) { return i < 0 ? Value() : args[i]; }
  /// A sigmoid-like gate (the first activation) of the step's inputs at
  /// positions `x`, `h` and the biases `wb`, `rb` (-1: absent).
  Value gate(OpBuilder &nb, Location nl, ValueRange s, int x, int h, int wb,
             int rb) const {
    return applyActivation(
        nb, nl, act[0],
        clip(nb, nl, addAll(nb, nl, {s[x], s[h], arg(s, wb), arg(s, rb)})));
  }
  /// (1 - z) * cand + z * prev.
  Value interpolate(OpBuilder &nb, Location nl, Value z, Value cand,
                    Value prev) const {
    Value oneV = createScalarConstant(nb, nl, r.et, 1);
    return arith::AddFOp::create(
        nb, nl,
        arith::MulFOp::create(nb, nl, arith::SubFOp::create(nb, nl, oneV, z),
                              cand),
        arith::MulFOp::create(nb, nl, z, prev));
  }
  /// With sequence_lens (`lenIdx` >= 0), a step past the entry's length
  /// keeps `prev` and writes zeros to Y (`yv`); else `v` and `yv` = `v`.
  Value masked(OpBuilder &nb, Location nl, ValueRange args, int lenIdx, Value v,
               Value prev, Value &yv) const {
    yv = v;
    if (lenIdx < 0)
      return v;
    Value len = castToIndex(nb, nl, args[lenIdx]);
    Value valid = cmpI(nb, nl, Pred::slt, t, len);
    yv = arith::SelectOp::create(nb, nl, valid, v, zeroOf(nb, nl, v.getType()));
    return arith::SelectOp::create(nb, nl, valid, v, prev).getResult();
  }

  OpBuilder &fb;
  Location fl;
  const RecurrentArgs &a;
  const Recurrence &r;
  const DirectionWeights &w;
  ArrayRef<Activation> act;
  Value t, xwT;
  SmallVector<OpFoldResult> bh;
};

/// The outputs of one direction: Y (when wanted), Y_h, Y_c (LSTM).
struct DirectionResults {
  Value y, h, c;
};

/// Runs direction `d` over the sequence: an scf.for over time whose body is
/// one StepBuilder step, carrying H (C) and Y.
DirectionResults runDirection(const RecurrentArgs &a, const Recurrence &r,
                              OpBuilder &b, Location loc, int64_t d,
                              Value x2d) {
  Kind kind = r.kind;
  bool reverse = a.direction == "reverse" || d == 1;
  ArrayRef<Activation> act =
      ArrayRef<Activation>(r.acts).slice(d * r.perDir, r.perDir);
  OpFoldResult dd = b.getIndexAttr(d);
  OpFoldResult i0 = b.getIndexAttr(0), i1 = b.getIndexAttr(1);
  SmallVector<OpFoldResult> bh{r.batch, r.hidden};
  DirectionWeights w = sliceDirection(a, r, b, loc, d);

  // The input projection of every step: [seq, batch, gates * hidden].
  auto xType = cast<RankedTensorType>(a.x.getType());
  Value xw2d = matmul(b, loc, x2d, w.wT);
  auto xwType = RankedTensorType::get(
      {xType.getDimSize(a.layout == 1 ? 1 : 0),
       xType.getDimSize(a.layout == 1 ? 0 : 1),
       staticValue(r.gh) ? *staticValue(r.gh) : ShapedType::kDynamic},
      r.et);
  Value xw = tensor::ExpandShapeOp::create(
      b, loc, xwType, xw2d, SmallVector<ReassociationIndices>{{0, 1}, {2}},
      SmallVector<OpFoldResult>{r.seq, r.batch, r.gh});
  bool reverseByLength = reverse && a.seqLens;
  if (reverseByLength)
    xw = reverseWithinLengths(b, loc, xw, a.seqLens);

  Value h0 = r.initH ? slice(b, loc, r.initH, {dd, i0, i0},
                             {i1, r.batch, r.hidden}, {0})
                     : zeros(b, loc, bh, r.et);
  Value c0;
  if (kind == Kind::LSTM)
    c0 = r.initC ? slice(b, loc, r.initC, {dd, i0, i0}, {i1, r.batch, r.hidden},
                         {0})
                 : zeros(b, loc, bh, r.et);
  // Y is carried only when it is an output.
  bool wantY = a.yResult != nullptr;
  SmallVector<Value> inits{h0};
  if (c0)
    inits.push_back(c0);
  if (wantY)
    inits.push_back(emptyLike(b, loc, {r.seq, r.batch, r.hidden}, r.et));

  if (kind == Kind::GRU && !a.linearBeforeReset) {
    w.rTzr = slice(b, loc, w.rT, {i0, i0},
                   {r.hidden, mulI(b, loc, r.hiddenV, idx(b, loc, 2))}, {});
    w.rTh = slice(b, loc, w.rT, {i0, mulI(b, loc, r.hiddenV, idx(b, loc, 2))},
                  {r.hidden, r.hidden}, {});
  }

  Value seqV = toValue(b, loc, r.seq);
  Value zero = idx(b, loc, 0), one = idx(b, loc, 1);
  auto forOp = scf::ForOp::create(
      b, loc, zero, seqV, one, inits,
      [&](OpBuilder &fb, Location fl, Value t, ValueRange iter) {
        Value hPrev = iter[0];
        Value cPrev = kind == Kind::LSTM ? iter[1] : Value();
        Value y = wantY ? iter.back() : Value();
        Value tt = reverse && !reverseByLength
                       ? subI(fb, fl, subI(fb, fl, seqV, one), t)
                       : t;
        Value xwT = slice(fb, fl, xw, {tt, i0, i0}, {i1, r.batch, r.gh}, {0});
        Value hr = matmul(fb, fl, hPrev, w.rTzr ? w.rTzr : w.rT);
        StepBuilder step(fb, fl, a, r, w, act, t, xwT);
        SmallVector<Value> next;
        Value yRow;
        if (kind == Kind::RNN) {
          SmallVector<Value> out = step.rnn(hPrev, hr);
          next.push_back(out[0]);
          yRow = out[1];
        } else if (kind == Kind::GRU) {
          SmallVector<Value> out = a.linearBeforeReset
                                       ? step.gruLinearBeforeReset(hPrev, hr)
                                       : step.gruResetFirst(hPrev, hr);
          next.push_back(out[0]);
          yRow = out[1];
        } else {
          SmallVector<Value> out = step.lstm(hPrev, cPrev, hr);
          next.push_back(out[0]);
          next.push_back(out[1]);
          yRow = out[2];
        }
        if (wantY) {
          SmallVector<OpFoldResult> offs{tt, i0, i0},
              sizes{i1, r.batch, r.hidden}, strides{i1, i1, i1};
          next.push_back(tensor::InsertSliceOp::create(fb, fl, yRow, y, offs,
                                                       sizes, strides));
        }
        scf::YieldOp::create(fb, fl, next);
      });
  DirectionResults out;
  if (wantY) {
    out.y = forOp.getResults().back();
    if (reverseByLength)
      out.y = reverseWithinLengths(b, loc, out.y, a.seqLens);
  }
  out.h = forOp.getResult(0);
  if (kind == Kind::LSTM)
    out.c = forOp.getResult(1);
  return out;
}

LogicalResult lowerRecurrent(Operation *op, const RecurrentArgs &a,
                             const TypeConverter *converter,
                             ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  OpBuilder &b = rewriter;
  Recurrence r;
  if (failed(readRecurrence(op, a, b, loc, r)))
    return failure();
  checkWeightShapes(op, a, r, b, loc);

  // X as [seq * batch, input].
  Value x2d = tensor::CollapseShapeOp::create(
      b, loc, r.x, SmallVector<ReassociationIndices>{{0, 1}, {2}});
  SmallVector<Value> yDirs, hDirs, cDirs;
  for (int64_t d = 0; d < r.numDirections; ++d) {
    DirectionResults out = runDirection(a, r, b, loc, d, x2d);
    if (out.y)
      yDirs.push_back(out.y);
    hDirs.push_back(out.h);
    if (out.c)
      cDirs.push_back(out.c);
  }

  // Stack the directions: Y [seq, dirs, batch, hidden], Y_h/Y_c [dirs,
  // batch, hidden]; layout 1 transposes them.
  OpFoldResult dirs = b.getIndexAttr(r.numDirections);
  OpFoldResult i0 = b.getIndexAttr(0), i1 = b.getIndexAttr(1);
  SmallVector<OpFoldResult> bh{r.batch, r.hidden};
  auto stack = [&](ArrayRef<Value> parts, int64_t axis,
                   ArrayRef<OpFoldResult> partSizes) {
    SmallVector<OpFoldResult> sizes(partSizes);
    sizes.insert(sizes.begin() + axis, dirs);
    Value out = emptyLike(b, loc, sizes, r.et);
    for (int64_t d = 0; d < (int64_t)parts.size(); ++d) {
      SmallVector<OpFoldResult> offs(sizes.size(), i0), ss(partSizes),
          strides(sizes.size(), i1);
      offs[axis] = b.getIndexAttr(d);
      ss.insert(ss.begin() + axis, i1);
      out = tensor::InsertSliceOp::create(b, loc, parts[d], out, offs, ss,
                                          strides);
    }
    return out;
  };
  SmallVector<Value> results;
  auto finish = [&](Value onnxResult, Value v, ArrayRef<int64_t> perm) {
    if (!onnxResult)
      return;
    if (a.layout == 1)
      v = transpose(b, loc, v, perm);
    results.push_back(
        castTo(b, loc, v, converter->convertType(onnxResult.getType())));
  };
  if (a.yResult)
    finish(a.yResult, stack(yDirs, 1, {r.seq, r.batch, r.hidden}),
           {2, 0, 1, 3});
  if (a.yhResult)
    finish(a.yhResult, stack(hDirs, 0, bh), {1, 0, 2});
  if (a.ycResult)
    finish(a.ycResult, stack(cDirs, 0, bh), {1, 0, 2});
  rewriter.replaceOp(op, results);
  return success();
}

/// The operands and attributes the three recurrent ops share.
template <typename OpTy, typename AdaptorTy>
RecurrentArgs commonArgs(OpTy op, AdaptorTy adaptor, Kind kind) {
  RecurrentArgs a;
  a.kind = kind;
  a.x = adaptor.getX();
  a.w = adaptor.getW();
  a.r = adaptor.getR();
  a.b = adaptor.getB();
  a.seqLens = adaptor.getSequenceLens();
  a.initH = adaptor.getInitialH();
  a.alphas = op.getActivationAlpha();
  a.betas = op.getActivationBeta();
  a.activations = op.getActivationsAttr();
  if (std::optional<APFloat> c = op.getClip())
    a.clip = c->convertToDouble();
  a.direction = op.getDirection();
  if (std::optional<uint64_t> h = op.getHiddenSize())
    a.hiddenSize = *h;
  a.layout = op.getLayout();
  a.yResult = op.getY();
  a.yhResult = op.getYH();
  return a;
}

struct RNNLowering : ONNXToLinalgPattern<RNNOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(RNNOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RecurrentArgs a = commonArgs(op, adaptor, Kind::RNN);
    return lowerRecurrent(op, a, getTypeConverter(), rewriter);
  }
};

struct GRULowering : ONNXToLinalgPattern<GRUOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(GRUOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RecurrentArgs a = commonArgs(op, adaptor, Kind::GRU);
    a.linearBeforeReset = op.getLinearBeforeReset() != 0;
    return lowerRecurrent(op, a, getTypeConverter(), rewriter);
  }
};

struct LSTMLowering : ONNXToLinalgPattern<LSTMOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(LSTMOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RecurrentArgs a = commonArgs(op, adaptor, Kind::LSTM);
    a.initC = adaptor.getInitialC();
    a.p = adaptor.getP();
    a.inputForget = op.getInputForget() != 0;
    a.ycResult = op.getYC();
    return lowerRecurrent(op, a, getTypeConverter(), rewriter);
  }
};

} // namespace

void mlir::onnx::populateRecurrentToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<RNNLowering, GRULowering, LSTMLowering>(converter,
                                                       patterns.getContext());
}
