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

#include "OnnxDialect/IR/ONNXOps.h"
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
  // A [hidden] vector.
  int addHidden(Value v) {
    if (!v)
      return -1;
    values.push_back(v);
    maps.push_back(AffineMap::get(2, 0, getAffineDimExpr(1, ctx)));
    return values.size() - 1;
  }
  // A [batch] vector.
  int addBatch(Value v) {
    if (!v)
      return -1;
    values.push_back(v);
    maps.push_back(AffineMap::get(2, 0, getAffineDimExpr(0, ctx)));
    return values.size() - 1;
  }
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

LogicalResult lowerRecurrent(Operation *op, const RecurrentArgs &a,
                             const TypeConverter *converter,
                             ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  OpBuilder &b = rewriter;
  auto xType = dyn_cast<RankedTensorType>(a.x.getType());
  auto wType = dyn_cast<RankedTensorType>(a.w.getType());
  auto rType = dyn_cast<RankedTensorType>(a.r.getType());
  if (!xType || !wType || !rType || xType.getRank() != 3 ||
      wType.getRank() != 3 || rType.getRank() != 3)
    return emitLoweringError(op, "X, W and R must be ranked tensors of rank 3");
  Type et = xType.getElementType();
  if (!isa<FloatType>(et))
    return emitLoweringError(op, "the element type is not a float");
  int64_t numDirections;
  if (a.direction == "forward" || a.direction == "reverse")
    numDirections = 1;
  else if (a.direction == "bidirectional")
    numDirections = 2;
  else
    return emitLoweringError(op, "unknown direction '" + a.direction + "'");
  if (a.layout != 0 && a.layout != 1)
    return emitLoweringError(op, "layout must be 0 or 1");
  std::string error;
  FailureOr<SmallVector<Activation>> acts =
      getActivations(a, numDirections, error);
  if (failed(acts))
    return emitLoweringError(op, error);
  Kind kind = a.kind;
  int64_t gates = numGates(kind);
  int64_t perDir = numActivations(kind);

  Value x = a.x, initH = a.initH, initC = a.initC;
  if (a.layout == 1) {
    x = transpose(b, loc, x, {1, 0, 2});
    if (initH)
      initH = transpose(b, loc, initH, {1, 0, 2});
    if (initC)
      initC = transpose(b, loc, initC, {1, 0, 2});
  }
  SmallVector<OpFoldResult> xDims = getDims(b, loc, x);
  OpFoldResult seq = xDims[0], batch = xDims[1], input = xDims[2];
  OpFoldResult hidden;
  if (a.hiddenSize)
    hidden = b.getIndexAttr(*a.hiddenSize);
  else
    hidden = getDims(b, loc, a.r)[2];
  Value hiddenV = toValue(b, loc, hidden);
  OpFoldResult gh = mulI(b, loc, hiddenV, idx(b, loc, gates));
  if (std::optional<int64_t> h = staticValue(hidden))
    gh = b.getIndexAttr(*h * gates);
  // The weights' sizes (checked at run time where not static).
  auto checkDim = [&](Value v, int64_t d, OpFoldResult expected,
                      const Twine &what) {
    Value actual = toValue(b, loc, getDims(b, loc, v)[d]);
    check(b, loc, cmpI(b, loc, Pred::eq, actual, toValue(b, loc, expected)), op,
          what);
  };
  checkDim(a.w, 0, b.getIndexAttr(numDirections), "W has a wrong shape");
  checkDim(a.w, 1, gh, "W has a wrong shape");
  checkDim(a.w, 2, input, "W has a wrong shape");
  checkDim(a.r, 0, b.getIndexAttr(numDirections), "R has a wrong shape");
  checkDim(a.r, 1, gh, "R has a wrong shape");
  checkDim(a.r, 2, hidden, "R has a wrong shape");
  OpFoldResult dirs = b.getIndexAttr(numDirections);
  if (a.b) {
    checkDim(a.b, 0, dirs, "B has a wrong shape");
    checkDim(a.b, 1, mulI(b, loc, toValue(b, loc, gh), idx(b, loc, 2)),
             "B has a wrong shape");
  }
  if (a.seqLens)
    checkDim(a.seqLens, 0, batch, "sequence_lens has a wrong shape");
  for (auto [v, what] : {std::pair<Value, StringRef>{initH, "initial_h"},
                         {initC, "initial_c"}}) {
    if (!v)
      continue;
    checkDim(v, 0, dirs, what + " has a wrong shape");
    checkDim(v, 1, batch, what + " has a wrong shape");
    checkDim(v, 2, hidden, what + " has a wrong shape");
  }
  if (a.p) {
    checkDim(a.p, 0, dirs, "P has a wrong shape");
    checkDim(a.p, 1, mulI(b, loc, hiddenV, idx(b, loc, 3)),
             "P has a wrong shape");
  }

  Value seqV = toValue(b, loc, seq);
  Value zero = idx(b, loc, 0), one = idx(b, loc, 1);
  OpFoldResult i0 = b.getIndexAttr(0), i1 = b.getIndexAttr(1);
  SmallVector<OpFoldResult> bh{batch, hidden};
  // X as [seq * batch, input].
  Value x2d = tensor::CollapseShapeOp::create(
      b, loc, x, SmallVector<ReassociationIndices>{{0, 1}, {2}});

  SmallVector<Value> yDirs, hDirs, cDirs;
  for (int64_t d = 0; d < numDirections; ++d) {
    bool reverse = a.direction == "reverse" || d == 1;
    ArrayRef<Activation> act =
        ArrayRef<Activation>(*acts).slice(d * perDir, perDir);
    OpFoldResult dd = b.getIndexAttr(d);
    Value wT = transpose(
        b, loc, slice(b, loc, a.w, {dd, i0, i0}, {i1, gh, input}, {0}), {1, 0});
    Value rT = transpose(
        b, loc, slice(b, loc, a.r, {dd, i0, i0}, {i1, gh, hidden}, {0}),
        {1, 0});
    Value wb, rb;
    if (a.b) {
      wb = slice(b, loc, a.b, {dd, i0}, {i1, gh}, {0});
      rb = slice(b, loc, a.b, {dd, gh}, {i1, gh}, {0});
    }
    auto gateOf = [&](Value v, int64_t g) -> Value {
      if (!v)
        return v;
      OpFoldResult off = mulI(b, loc, hiddenV, idx(b, loc, g));
      auto type = cast<RankedTensorType>(v.getType());
      if (type.getRank() == 1)
        return slice(b, loc, v, {off}, {hidden}, {});
      return slice(b, loc, v, {i0, off}, {batch, hidden}, {});
    };
    Value pi, po, pf;
    if (a.p) {
      Value pd = slice(b, loc, a.p, {dd, i0},
                       {i1, mulI(b, loc, hiddenV, idx(b, loc, 3))}, {0});
      pi = gateOf(pd, 0);
      po = gateOf(pd, 1);
      pf = gateOf(pd, 2);
    }

    // The input projection of every step: [seq, batch, gates * hidden].
    Value xw2d = matmul(b, loc, x2d, wT);
    auto xwType = RankedTensorType::get(
        {xType.getDimSize(a.layout == 1 ? 1 : 0),
         xType.getDimSize(a.layout == 1 ? 0 : 1),
         staticValue(gh) ? *staticValue(gh) : ShapedType::kDynamic},
        et);
    Value xw = tensor::ExpandShapeOp::create(
        b, loc, xwType, xw2d, SmallVector<ReassociationIndices>{{0, 1}, {2}},
        SmallVector<OpFoldResult>{seq, batch, gh});
    bool reverseByLength = reverse && a.seqLens;
    if (reverseByLength)
      xw = reverseWithinLengths(b, loc, xw, a.seqLens);

    Value h0 =
        initH ? slice(b, loc, initH, {dd, i0, i0}, {i1, batch, hidden}, {0})
              : zeros(b, loc, bh, et);
    Value c0;
    if (kind == Kind::LSTM)
      c0 = initC ? slice(b, loc, initC, {dd, i0, i0}, {i1, batch, hidden}, {0})
                 : zeros(b, loc, bh, et);
    // Y is carried only when it is an output.
    bool wantY = a.yResult != nullptr;
    SmallVector<Value> inits{h0};
    if (c0)
      inits.push_back(c0);
    if (wantY)
      inits.push_back(emptyLike(b, loc, {seq, batch, hidden}, et));

    Value rTzr, rTh;
    if (kind == Kind::GRU && !a.linearBeforeReset) {
      rTzr = slice(b, loc, rT, {i0, i0},
                   {hidden, mulI(b, loc, hiddenV, idx(b, loc, 2))}, {});
      rTh = slice(b, loc, rT, {i0, mulI(b, loc, hiddenV, idx(b, loc, 2))},
                  {hidden, hidden}, {});
    }

    auto forOp = scf::ForOp::create(
        b, loc, zero, seqV, one, inits,
        [&](OpBuilder &fb, Location fl, Value t, ValueRange iter) {
          Value hPrev = iter[0];
          Value cPrev = kind == Kind::LSTM ? iter[1] : Value();
          Value y = wantY ? iter.back() : Value();
          Value tt = reverse && !reverseByLength
                         ? subI(fb, fl, subI(fb, fl, seqV, one), t)
                         : t;
          Value xwT = slice(fb, fl, xw, {tt, i0, i0}, {i1, batch, gh}, {0});
          auto xg = [&](int64_t g) {
            OpFoldResult off = mulI(fb, fl, hiddenV, idx(fb, fl, g));
            return slice(fb, fl, xwT, {i0, off}, {batch, hidden}, {});
          };
          auto vg = [&](Value v, int64_t g) -> Value {
            if (!v)
              return v;
            OpFoldResult off = mulI(fb, fl, hiddenV, idx(fb, fl, g));
            auto type = cast<RankedTensorType>(v.getType());
            if (type.getRank() == 1)
              return slice(fb, fl, v, {off}, {hidden}, {});
            return slice(fb, fl, v, {i0, off}, {batch, hidden}, {});
          };
          Value hr = matmul(fb, fl, hPrev, rTzr ? rTzr : rT);
          auto clip = [&](OpBuilder &nb, Location nl, Value v) {
            if (!a.clip)
              return v;
            Type st = v.getType();
            Value lo = createScalarConstant(nb, nl, st, -*a.clip);
            Value hi = createScalarConstant(nb, nl, st, *a.clip);
            return arith::MinimumFOp::create(
                       nb, nl, arith::MaximumFOp::create(nb, nl, v, lo), hi)
                .getResult();
          };
          auto addAll = [&](OpBuilder &nb, Location nl, ArrayRef<Value> terms) {
            Value s;
            for (Value v : terms)
              if (v)
                s = s ? arith::AddFOp::create(nb, nl, s, v).getResult() : v;
            return s;
          };
          auto arg = [&](ValueRange args, int i) {
            return i < 0 ? Value() : args[i];
          };
          // valid: the step is within the batch entry's sequence length.
          auto masked = [&](OpBuilder &nb, Location nl, ValueRange args,
                            int lenIdx, Value v, Value prev, Value &yv) {
            yv = v;
            if (lenIdx < 0)
              return v;
            Value len = castToIndex(nb, nl, args[lenIdx]);
            Value valid = cmpI(nb, nl, Pred::slt, t, len);
            yv = arith::SelectOp::create(nb, nl, valid, v,
                                         zeroOf(nb, nl, v.getType()));
            return arith::SelectOp::create(nb, nl, valid, v, prev).getResult();
          };

          SmallVector<Value> next;
          Value yRow;
          StepInputs in(fb.getContext());
          if (kind == Kind::RNN) {
            int ix = in.add2d(xg(0)), ih = in.add2d(vg(hr, 0));
            int iwb = in.addHidden(vg(wb, 0)), irb = in.addHidden(vg(rb, 0));
            int ip = in.add2d(hPrev), il = in.addBatch(a.seqLens);
            SmallVector<Value> r = stepGeneric(
                fb, fl, in, 2, bh, et,
                [&](OpBuilder &nb, Location nl, ValueRange s) {
                  Value pre =
                      addAll(nb, nl, {s[ix], s[ih], arg(s, iwb), arg(s, irb)});
                  Value h = applyActivation(nb, nl, act[0], clip(nb, nl, pre));
                  Value yv;
                  h = masked(nb, nl, s, il, h, s[ip], yv);
                  return SmallVector<Value>{h, yv};
                });
            next.push_back(r[0]);
            yRow = r[1];
          } else if (kind == Kind::GRU) {
            // Gates z, r, h.
            Value hh;
            Value gateZ, gateR; // for the second generic
            if (!a.linearBeforeReset) {
              StepInputs zr(fb.getContext());
              int xz = zr.add2d(xg(0)), xr = zr.add2d(xg(1));
              int hz = zr.add2d(vg(hr, 0)), hrr = zr.add2d(vg(hr, 1));
              int wz = zr.addHidden(vg(wb, 0)), wr = zr.addHidden(vg(wb, 1));
              int rz = zr.addHidden(vg(rb, 0)), rr = zr.addHidden(vg(rb, 1));
              int ip = zr.add2d(hPrev);
              SmallVector<Value> r = stepGeneric(
                  fb, fl, zr, 2, bh, et,
                  [&](OpBuilder &nb, Location nl, ValueRange s) {
                    Value z = applyActivation(
                        nb, nl, act[0],
                        clip(nb, nl,
                             addAll(nb, nl,
                                    {s[xz], s[hz], arg(s, wz), arg(s, rz)})));
                    Value rg = applyActivation(
                        nb, nl, act[0],
                        clip(nb, nl,
                             addAll(nb, nl,
                                    {s[xr], s[hrr], arg(s, wr), arg(s, rr)})));
                    return SmallVector<Value>{
                        z, arith::MulFOp::create(nb, nl, rg, s[ip])};
                  });
              gateZ = r[0];
              hh = matmul(fb, fl, r[1], rTh);
              int ix = in.add2d(xg(2)), ihh = in.add2d(hh);
              int iwb = in.addHidden(vg(wb, 2)), irb = in.addHidden(vg(rb, 2));
              int iz = in.add2d(gateZ), ip2 = in.add2d(hPrev);
              int il = in.addBatch(a.seqLens);
              SmallVector<Value> r2 = stepGeneric(
                  fb, fl, in, 2, bh, et,
                  [&](OpBuilder &nb, Location nl, ValueRange s) {
                    Value cand =
                        applyActivation(nb, nl, act[1],
                                        clip(nb, nl,
                                             addAll(nb, nl,
                                                    {s[ix], s[ihh], arg(s, irb),
                                                     arg(s, iwb)})));
                    Value oneV = createScalarConstant(nb, nl, et, 1);
                    Value h = arith::AddFOp::create(
                        nb, nl,
                        arith::MulFOp::create(
                            nb, nl, arith::SubFOp::create(nb, nl, oneV, s[iz]),
                            cand),
                        arith::MulFOp::create(nb, nl, s[iz], s[ip2]));
                    Value yv;
                    h = masked(nb, nl, s, il, h, s[ip2], yv);
                    return SmallVector<Value>{h, yv};
                  });
              next.push_back(r2[0]);
              yRow = r2[1];
            } else {
              int xz = in.add2d(xg(0)), xr = in.add2d(xg(1)),
                  xh = in.add2d(xg(2));
              int hz = in.add2d(vg(hr, 0)), hrr = in.add2d(vg(hr, 1)),
                  hhh = in.add2d(vg(hr, 2));
              int wz = in.addHidden(vg(wb, 0)), wr = in.addHidden(vg(wb, 1)),
                  wh = in.addHidden(vg(wb, 2));
              int rz = in.addHidden(vg(rb, 0)), rr = in.addHidden(vg(rb, 1)),
                  rh = in.addHidden(vg(rb, 2));
              int ip = in.add2d(hPrev), il = in.addBatch(a.seqLens);
              SmallVector<Value> r = stepGeneric(
                  fb, fl, in, 2, bh, et,
                  [&](OpBuilder &nb, Location nl, ValueRange s) {
                    Value z = applyActivation(
                        nb, nl, act[0],
                        clip(nb, nl,
                             addAll(nb, nl,
                                    {s[xz], s[hz], arg(s, wz), arg(s, rz)})));
                    Value rg = applyActivation(
                        nb, nl, act[0],
                        clip(nb, nl,
                             addAll(nb, nl,
                                    {s[xr], s[hrr], arg(s, wr), arg(s, rr)})));
                    Value rec = arith::MulFOp::create(
                        nb, nl, rg, addAll(nb, nl, {s[hhh], arg(s, rh)}));
                    Value cand = applyActivation(
                        nb, nl, act[1],
                        clip(nb, nl, addAll(nb, nl, {s[xh], rec, arg(s, wh)})));
                    Value oneV = createScalarConstant(nb, nl, et, 1);
                    Value h = arith::AddFOp::create(
                        nb, nl,
                        arith::MulFOp::create(
                            nb, nl, arith::SubFOp::create(nb, nl, oneV, z),
                            cand),
                        arith::MulFOp::create(nb, nl, z, s[ip]));
                    Value yv;
                    h = masked(nb, nl, s, il, h, s[ip], yv);
                    return SmallVector<Value>{h, yv};
                  });
              next.push_back(r[0]);
              yRow = r[1];
            }
          } else {
            // LSTM gates i, o, f, c.
            int x_[4], h_[4], w_[4], r_[4];
            for (int g = 0; g < 4; ++g) {
              x_[g] = in.add2d(xg(g));
              h_[g] = in.add2d(vg(hr, g));
              w_[g] = in.addHidden(vg(wb, g));
              r_[g] = in.addHidden(vg(rb, g));
            }
            int ipi = in.addHidden(pi), ipo = in.addHidden(po),
                ipf = in.addHidden(pf);
            int ic = in.add2d(cPrev), ih = in.add2d(hPrev);
            int il = in.addBatch(a.seqLens);
            SmallVector<Value> r = stepGeneric(
                fb, fl, in, 3, bh, et,
                [&](OpBuilder &nb, Location nl, ValueRange s) {
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
                  Value ig = applyActivation(nb, nl, act[0],
                                             pre(0, mul(arg(s, ipi), c)));
                  Value fg;
                  Value oneV = createScalarConstant(nb, nl, et, 1);
                  if (a.inputForget)
                    fg = arith::SubFOp::create(nb, nl, oneV, ig);
                  else
                    fg = applyActivation(nb, nl, act[0],
                                         pre(2, mul(arg(s, ipf), c)));
                  Value cg = applyActivation(nb, nl, act[1], pre(3, Value()));
                  Value cNew = arith::AddFOp::create(
                      nb, nl, arith::MulFOp::create(nb, nl, fg, c),
                      arith::MulFOp::create(nb, nl, ig, cg));
                  Value og = applyActivation(nb, nl, act[0],
                                             pre(1, mul(arg(s, ipo), cNew)));
                  Value hNew = arith::MulFOp::create(
                      nb, nl, og, applyActivation(nb, nl, act[2], cNew));
                  Value yv, unused;
                  hNew = masked(nb, nl, s, il, hNew, s[ih], yv);
                  cNew = masked(nb, nl, s, il, cNew, c, unused);
                  return SmallVector<Value>{hNew, cNew, yv};
                });
            next.push_back(r[0]);
            next.push_back(r[1]);
            yRow = r[2];
          }
          if (wantY) {
            SmallVector<OpFoldResult> offs{tt, i0, i0},
                sizes{i1, batch, hidden}, strides{i1, i1, i1};
            next.push_back(tensor::InsertSliceOp::create(fb, fl, yRow, y, offs,
                                                         sizes, strides));
          }
          scf::YieldOp::create(fb, fl, next);
        });
    if (wantY) {
      Value yd = forOp.getResults().back();
      if (reverseByLength)
        yd = reverseWithinLengths(b, loc, yd, a.seqLens);
      yDirs.push_back(yd);
    }
    hDirs.push_back(forOp.getResult(0));
    if (kind == Kind::LSTM)
      cDirs.push_back(forOp.getResult(1));
  }

  // Stack the directions: Y [seq, dirs, batch, hidden], Y_h/Y_c [dirs,
  // batch, hidden]; layout 1 transposes them.
  auto stack = [&](ArrayRef<Value> parts, int64_t axis,
                   ArrayRef<OpFoldResult> partSizes) {
    SmallVector<OpFoldResult> sizes(partSizes);
    sizes.insert(sizes.begin() + axis, dirs);
    Value out = emptyLike(b, loc, sizes, et);
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
    finish(a.yResult, stack(yDirs, 1, {seq, batch, hidden}), {2, 0, 1, 3});
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
