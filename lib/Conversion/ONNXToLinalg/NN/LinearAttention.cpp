//===- LinearAttention.cpp - LinearAttention to linalg --------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// LinearAttention runs its recurrence one token at a time: an scf.for over
// T carries the state S [B, H_kv, d_k, d_v] (in f32 for f16/bf16 inputs) and
// the output [B, T, H_q * d_v]. Each step slices token t of the packed
// inputs and, with linalg.generic ops whose maps unpack the heads
// (h * d_k + i):
//   gated rules:  S = exp(g_t) * S        (g per key dim or per head)
//   delta rules:  u = S^T k_t;  S += beta_t * k_t (x) (v_t - u)
//   otherwise:    S += k_t (x) v_t
//   o_t[hq] = scale * q_t[hq]^T S[hq / (H_q / H_kv)]
// The packed last dims must be static (they give d_k and d_v); B and T may
// be dynamic.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnx;

namespace {

using utils::IteratorType;

/// The heads and sizes of a LinearAttention, its update rule and its types.
struct Heads {
  int64_t hq = 0, hkv = 0, group = 0, dk = 0, dv = 0;
  bool gated = false, delta = false;
  /// decay's last dim is H_kv (one rate per head) rather than H_kv * d_k;
  /// beta's is 1 (one for all heads) rather than H_kv.
  bool decayPerHead = false, betaShared = false;
  Type elem, acc;
  double scale = 1;
};

/// `x` as a 3-D tensor with a static last dim, or null.
RankedTensorType rank3(Value x) {
  auto t = dyn_cast<RankedTensorType>(x.getType());
  return t && t.getRank() == 3 && !t.isDynamicDim(2) ? t : RankedTensorType();
}

/// Checks the operands and attributes of `op` (absent optional operands are
/// null) and reads its heads.
LogicalResult readHeads(LinearAttentionOp op, Value q, Value k, Value v,
                        Value past, Value decay, Value beta, Heads &h) {
  RankedTensorType qt = rank3(q), kt = rank3(k), vt = rank3(v);
  if (!qt || !kt || !vt)
    return emitLoweringError(op, "query, key and value must be 3-D with a "
                                 "static last dim");
  std::optional<uint64_t> hqAttr = op.getQNumHeads(),
                          hkvAttr = op.getKvNumHeads();
  if (!hqAttr || !hkvAttr || !*hqAttr || !*hkvAttr || *hqAttr % *hkvAttr)
    return emitLoweringError(op, "q_num_heads must be a positive multiple "
                                 "of kv_num_heads");
  int64_t hq = h.hq = *hqAttr, hkv = h.hkv = *hkvAttr;
  h.group = hq / hkv;
  if (qt.getDimSize(2) % hq || kt.getDimSize(2) % hkv || vt.getDimSize(2) % hkv)
    return emitLoweringError(op, "packed dims are not divisible by the "
                                 "number of heads");
  int64_t dk = h.dk = qt.getDimSize(2) / hq;
  int64_t dv = h.dv = vt.getDimSize(2) / hkv;
  if (kt.getDimSize(2) / hkv != dk)
    return emitLoweringError(op, "query and key have different head sizes");
  StringRef rule = op.getUpdateRule();
  bool gated = h.gated = rule == "gated" || rule == "gated_delta";
  bool delta = h.delta = rule == "delta" || rule == "gated_delta";
  if (!gated && !delta && rule != "linear")
    return emitLoweringError(op, "unknown update_rule '" + rule + "'");
  if (gated && !decay)
    return emitLoweringError(op, "the " + rule + " rule needs decay");
  if (delta && !beta)
    return emitLoweringError(op, "the " + rule + " rule needs beta");
  RankedTensorType gt = gated ? rank3(decay) : RankedTensorType();
  RankedTensorType bt = delta ? rank3(beta) : RankedTensorType();
  if (gated &&
      (!gt || (gt.getDimSize(2) != hkv * dk && gt.getDimSize(2) != hkv)))
    return emitLoweringError(op, "decay must be (B, T, H_kv * d_k) or "
                                 "(B, T, H_kv)");
  if (delta && (!bt || (bt.getDimSize(2) != hkv && bt.getDimSize(2) != 1)))
    return emitLoweringError(op, "beta must be (B, T, H_kv) or (B, T, 1)");
  h.decayPerHead = gated && gt.getDimSize(2) == hkv;
  h.betaShared = delta && bt.getDimSize(2) == 1;
  if (past) {
    auto pt = dyn_cast<RankedTensorType>(past.getType());
    if (!pt || pt.getRank() != 4 ||
        (!pt.isDynamicDim(1) && pt.getDimSize(1) != hkv) ||
        (!pt.isDynamicDim(2) && pt.getDimSize(2) != dk) ||
        (!pt.isDynamicDim(3) && pt.getDimSize(3) != dv))
      return emitLoweringError(op, "past_state must be (B, H_kv, d_k, d_v)");
  }
  h.elem = qt.getElementType();
  h.acc = getAccumulatorType(h.elem);
  h.scale = op.getScale().convertToDouble();
  if (h.scale == 0.0)
    h.scale = 1.0 / std::sqrt(static_cast<double>(dk));
  return success();
}

/// The generics of one LinearAttention: the state is (B, H_kv, d_k, d_v) in
/// the accumulator type, a step reads token t of the packed inputs.
class LinearAttentionBuilder {
public:
  LinearAttentionBuilder(MLIRContext *ctx, const Heads &h, Value batch)
      : ctx(ctx), h(h), batch(batch),
        stateType(RankedTensorType::get(
            {ShapedType::kDynamic, h.hkv, h.dk, h.dv}, h.acc)) {
    bindDims(ctx, d0, d1, d2, d3);
    zero = getAffineConstantExpr(0, ctx);
  }

  RankedTensorType getStateType() const { return stateType; }

  /// The initial state: past_state converted to the accumulator type (its
  /// batch and open dims checked at run time), or zeros.
  Value initialState(OpBuilder &b, Location loc, Operation *op,
                     Value past) const {
    if (!past)
      return createFilled(
          b, loc,
          {batch, b.getIndexAttr(h.hkv), b.getIndexAttr(h.dk),
           b.getIndexAttr(h.dv)},
          h.acc, arith::ConstantOp::create(b, loc, b.getFloatAttr(h.acc, 0.0)));
    Value eq =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                              tensor::DimOp::create(b, loc, past, 0), batch);
    emitRuntimeCheck(b, loc, eq, op, "past_state's batch differs");
    // Dims left open by the model are checked before the cast to the
    // static state shape.
    auto pt = cast<RankedTensorType>(past.getType());
    int64_t want[] = {h.hkv, h.dk, h.dv};
    for (int64_t d = 1; d < 4; ++d) {
      if (!pt.isDynamicDim(d))
        continue;
      Value ok = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          tensor::DimOp::create(b, loc, past, d),
          arith::ConstantIndexOp::create(b, loc, want[d - 1]));
      emitRuntimeCheck(b, loc, ok, op,
                       "past_state must be (B, H_kv, d_k, d_v)");
    }
    Value cast = tensor::CastOp::create(
        b, loc,
        RankedTensorType::get(stateType.getShape(), pt.getElementType()), past);
    return convertState(b, loc, cast, h.acc);
  }

  /// `state` with its elements converted to `element`.
  Value convertState(OpBuilder &b, Location loc, Value state,
                     Type element) const {
    Value init = tensor::EmptyOp::create(b, loc, stateType.getShape(), element,
                                         ValueRange{batch});
    return linalg::GenericOp::create(
               b, loc, TypeRange{init.getType()}, ValueRange{state},
               ValueRange{init},
               SmallVector<AffineMap>(2, b.getMultiDimIdentityMap(4)), par(4),
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 linalg::YieldOp::create(nb, l,
                                         convertFloat(nb, l, args[0], element));
               })
        .getResult(0);
  }

  /// Token t of a packed input: [B, 1, X].
  Value token(OpBuilder &fb, Location fl, Value x, Value t) const {
    auto xt = cast<RankedTensorType>(x.getType());
    SmallVector<OpFoldResult> offs{fb.getIndexAttr(0), t, fb.getIndexAttr(0)},
        sizes{tensor::getMixedSize(fb, fl, x, 0), fb.getIndexAttr(1),
              fb.getIndexAttr(xt.getDimSize(2))},
        strides(3, fb.getIndexAttr(1));
    return tensor::ExtractSliceOp::create(fb, fl, x, offs, sizes, strides)
        .getResult();
  }

  /// S *= exp(decay_t), per head or per (head, i).
  Value decayState(OpBuilder &fb, Location fl, Value s, Value gT) const {
    AffineMap gMap =
        h.decayPerHead ? map({d0, zero, d1}) : map({d0, zero, d1 * h.dk + d2});
    return linalg::GenericOp::create(
               fb, fl, TypeRange{stateType}, ValueRange{s, gT},
               ValueRange{emptyState(fb, fl)},
               SmallVector<AffineMap>{sId(fb), gMap, sId(fb)}, par(4),
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 Value e = math::ExpOp::create(nb, l, ext(nb, l, args[1]));
                 linalg::YieldOp::create(
                     nb, l,
                     ValueRange{
                         arith::MulFOp::create(nb, l, args[0], e).getResult()});
               })
        .getResult(0);
  }

  /// The type of a [batch, heads, d_v] accumulator (a row of d_v per head).
  RankedTensorType headRowsType(int64_t heads) const {
    return RankedTensorType::get({ShapedType::kDynamic, heads, h.dv}, h.acc);
  }

  /// Zeros of [batch, heads, d_v] in the accumulator type.
  Value zeroHeadRows(OpBuilder &fb, Location fl, int64_t heads) const {
    return createFilled(
        fb, fl, {batch, fb.getIndexAttr(heads), fb.getIndexAttr(h.dv)}, h.acc,
        arith::ConstantOp::create(fb, fl, fb.getFloatAttr(h.acc, 0.0)));
  }

  /// The delta rule: u = S^T k, then S += beta_t k (v - u)^T.
  Value deltaUpdate(OpBuilder &fb, Location fl, Value s, Value kT, Value vT,
                    Value bT) const {
    // u[b, h, j] = sum_i S[b, h, i, j] k[b, h, i]
    RankedTensorType uType = headRowsType(h.hkv);
    Value u = zeroHeadRows(fb, fl, h.hkv);
    // dims (b, h, j, i)
    u = linalg::GenericOp::create(
            fb, fl, TypeRange{uType}, ValueRange{s, kT}, ValueRange{u},
            SmallVector<AffineMap>{map({d0, d1, d3, d2}),
                                   map({d0, zero, d1 * h.dk + d3}),
                                   map({d0, d1, d2})},
            reduceLast(),
            [&](OpBuilder &nb, Location l, ValueRange args) {
              Value p =
                  arith::MulFOp::create(nb, l, args[0], ext(nb, l, args[1]));
              linalg::YieldOp::create(
                  nb, l,
                  ValueRange{
                      arith::AddFOp::create(nb, l, args[2], p).getResult()});
            })
            .getResult(0);
    AffineMap bMap = h.betaShared ? map({d0, zero, zero}) : map({d0, zero, d1});
    return linalg::GenericOp::create(
               fb, fl, TypeRange{stateType}, ValueRange{s, kT, vT, u, bT},
               ValueRange{emptyState(fb, fl)},
               SmallVector<AffineMap>{sId(fb), kMap(), vMap(),
                                      map({d0, d1, d3}), bMap, sId(fb)},
               par(4),
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 Value diff =
                     arith::SubFOp::create(nb, l, ext(nb, l, args[2]), args[3]);
                 Value upd = arith::MulFOp::create(
                     nb, l,
                     arith::MulFOp::create(nb, l, ext(nb, l, args[4]),
                                           ext(nb, l, args[1])),
                     diff);
                 linalg::YieldOp::create(
                     nb, l,
                     ValueRange{arith::AddFOp::create(nb, l, args[0], upd)
                                    .getResult()});
               })
        .getResult(0);
  }

  /// The linear (and gated) rule: S += k v^T.
  Value linearUpdate(OpBuilder &fb, Location fl, Value s, Value kT,
                     Value vT) const {
    return linalg::GenericOp::create(
               fb, fl, TypeRange{stateType}, ValueRange{s, kT, vT},
               ValueRange{emptyState(fb, fl)},
               SmallVector<AffineMap>{sId(fb), kMap(), vMap(), sId(fb)}, par(4),
               [&](OpBuilder &nb, Location l, ValueRange args) {
                 Value kv = arith::MulFOp::create(nb, l, ext(nb, l, args[1]),
                                                  ext(nb, l, args[2]));
                 linalg::YieldOp::create(
                     nb, l,
                     ValueRange{arith::AddFOp::create(nb, l, args[0], kv)
                                    .getResult()});
               })
        .getResult(0);
  }

  /// The output row of token t: o = scale * q^T S per query head, in the
  /// output type, packed as [B, 1, H_q * d_v].
  Value readOut(OpBuilder &fb, Location fl, Value qT, Value s) const {
    // o[b, hq, j] = scale * sum_i q[b, hq, i] S[b, hq / group, i, j],
    // dims (b, hq, j, i).
    RankedTensorType oType = headRowsType(h.hq);
    Value o = zeroHeadRows(fb, fl, h.hq);
    o = linalg::GenericOp::create(
            fb, fl, TypeRange{oType}, ValueRange{qT, s}, ValueRange{o},
            SmallVector<AffineMap>{map({d0, zero, d1 * h.dk + d3}),
                                   map({d0, d1.floorDiv(h.group), d3, d2}),
                                   map({d0, d1, d2})},
            reduceLast(),
            [&](OpBuilder &nb, Location l, ValueRange args) {
              Value p =
                  arith::MulFOp::create(nb, l, ext(nb, l, args[0]), args[1]);
              linalg::YieldOp::create(
                  nb, l,
                  ValueRange{
                      arith::AddFOp::create(nb, l, args[2], p).getResult()});
            })
            .getResult(0);
    // Scaled, in the output type, packed as [B, 1, H_q * d_v].
    Type elem = h.elem;
    auto rowType =
        RankedTensorType::get({ShapedType::kDynamic, 1, h.hq * h.dv}, elem);
    auto row4Type =
        RankedTensorType::get({ShapedType::kDynamic, 1, h.hq, h.dv}, elem);
    Value rowInit = tensor::EmptyOp::create(fb, fl, rowType.getShape(), elem,
                                            ValueRange{batch});
    SmallVector<ReassociationIndices> pack{{0}, {1}, {2, 3}};
    // dims (b, x, hq, j) with x the unit dim of the row.
    Value row =
        linalg::GenericOp::create(
            fb, fl, TypeRange{row4Type}, ValueRange{o},
            ValueRange{
                tensor::ExpandShapeOp::create(fb, fl, row4Type, rowInit, pack)},
            SmallVector<AffineMap>{map({d0, d2, d3}),
                                   fb.getMultiDimIdentityMap(4)},
            par(4),
            [&](OpBuilder &nb, Location l, ValueRange args) {
              Value sc = arith::ConstantOp::create(
                  nb, l, nb.getFloatAttr(h.acc, h.scale));
              Value y = arith::MulFOp::create(nb, l, args[0], sc);
              linalg::YieldOp::create(nb, l, convertFloat(nb, l, y, elem));
            })
            .getResult(0);
    return tensor::CollapseShapeOp::create(fb, fl, rowType, row, pack);
  }

private:
  /// A map over the 4 dims of a step's generics.
  AffineMap map(ArrayRef<AffineExpr> exprs) const {
    return AffineMap::get(4, 0, exprs, ctx);
  }
  static AffineMap sId(OpBuilder &b) { return b.getMultiDimIdentityMap(4); }
  /// k and v over the state's (b, h, i, j).
  AffineMap kMap() const { return map({d0, zero, d1 * h.dk + d2}); }
  AffineMap vMap() const { return map({d0, zero, d1 * h.dv + d3}); }
  static SmallVector<IteratorType> par(unsigned n) {
    return SmallVector<IteratorType>(n, IteratorType::parallel);
  }
  static SmallVector<IteratorType> reduceLast() {
    return {IteratorType::parallel, IteratorType::parallel,
            IteratorType::parallel, IteratorType::reduction};
  }
  Value emptyState(OpBuilder &fb, Location fl) const {
    return tensor::EmptyOp::create(fb, fl, stateType.getShape(), h.acc,
                                   ValueRange{batch});
  }
  Value ext(OpBuilder &nb, Location l, Value x) const {
    return convertFloat(nb, l, x, h.acc);
  }

  MLIRContext *ctx;
  const Heads &h;
  Value batch;
  RankedTensorType stateType;
  AffineExpr d0, d1, d2, d3, zero;
};

struct LinearAttentionLowering : ONNXToLinalgPattern<LinearAttentionOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(LinearAttentionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value q = adaptor.getQuery(), k = adaptor.getKey(), v = adaptor.getValue();
    Value past = adaptor.getPastState(), decay = adaptor.getDecay(),
          beta = adaptor.getBeta();
    auto absent = [](Value x) { return !x || isa<NoneType>(x.getType()); };
    if (absent(past))
      past = Value();
    if (absent(decay))
      decay = Value();
    if (absent(beta))
      beta = Value();
    Heads h;
    if (failed(readHeads(op, q, k, v, past, decay, beta, h)))
      return failure();

    OpBuilder &b = rewriter;
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
    Value batch = tensor::DimOp::create(b, loc, q, 0);
    Value steps = tensor::DimOp::create(b, loc, q, 1);
    // Run-time agreement of B and T across the inputs.
    for (Value x : {k, v, decay, beta}) {
      if (!x)
        continue;
      for (int64_t d : {0, 1}) {
        Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         tensor::DimOp::create(b, loc, x, d),
                                         d == 0 ? batch : steps);
        emitRuntimeCheck(b, loc, eq, op,
                         "inputs disagree on the batch or sequence length");
      }
    }

    LinearAttentionBuilder la(op.getContext(), h, batch);
    Value state = la.initialState(b, loc, op, past);
    auto outType = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic, h.hq * h.dv}, h.elem);
    Value out = tensor::EmptyOp::create(b, loc, outType.getShape(), h.elem,
                                        ValueRange{batch, steps});

    // One step per token: decay, update, read out, insert the row.
    auto loop = scf::ForOp::create(
        b, loc, c0, steps, c1, ValueRange{state, out},
        [&](OpBuilder &fb, Location fl, Value t, ValueRange iter) {
          Value s = iter[0];
          Value qT = la.token(fb, fl, q, t), kT = la.token(fb, fl, k, t),
                vT = la.token(fb, fl, v, t);
          if (h.gated)
            s = la.decayState(fb, fl, s, la.token(fb, fl, decay, t));
          if (h.delta)
            s = la.deltaUpdate(fb, fl, s, kT, vT, la.token(fb, fl, beta, t));
          else
            s = la.linearUpdate(fb, fl, s, kT, vT);
          Value row = la.readOut(fb, fl, qT, s);
          SmallVector<OpFoldResult> offs{fb.getIndexAttr(0), t,
                                         fb.getIndexAttr(0)},
              sizes{tensor::getMixedSize(fb, fl, row, 0), fb.getIndexAttr(1),
                    fb.getIndexAttr(h.hq * h.dv)},
              strides(3, fb.getIndexAttr(1));
          Value nextOut = tensor::InsertSliceOp::create(fb, fl, row, iter[1],
                                                        offs, sizes, strides);
          scf::YieldOp::create(fb, fl, ValueRange{s, nextOut});
        });

    SmallVector<Value> results;
    if (Value r = op.getOutput())
      results.push_back(
          castToType(b, loc, loop.getResult(1),
                     getTypeConverter()->convertType(r.getType())));
    if (Value r = op.getPresentState()) {
      auto rt = getConvertedType(r);
      if (!rt)
        return emitLoweringError(op, "present_state must be a ranked tensor");
      Value st =
          la.convertState(b, loc, loop.getResult(0), rt.getElementType());
      results.push_back(castToType(b, loc, st, rt));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::onnx::populateLinearAttentionToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LinearAttentionLowering>(converter, patterns.getContext());
}
