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

#include "OnnxDialect/IR/ONNXOps.h"
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

struct LinearAttentionLowering : ONNXToLinalgPattern<LinearAttentionOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(LinearAttentionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
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
    auto rank3 = [](Value x) {
      auto t = dyn_cast<RankedTensorType>(x.getType());
      return t && t.getRank() == 3 && !t.isDynamicDim(2) ? t
                                                         : RankedTensorType();
    };
    RankedTensorType qt = rank3(q), kt = rank3(k), vt = rank3(v);
    if (!qt || !kt || !vt)
      return emitLoweringError(op, "query, key and value must be 3-D with a "
                                   "static last dim");
    std::optional<uint64_t> hqAttr = op.getQNumHeads(),
                            hkvAttr = op.getKvNumHeads();
    if (!hqAttr || !hkvAttr || !*hqAttr || !*hkvAttr || *hqAttr % *hkvAttr)
      return emitLoweringError(op, "q_num_heads must be a positive multiple "
                                   "of kv_num_heads");
    int64_t hq = *hqAttr, hkv = *hkvAttr, group = hq / hkv;
    if (qt.getDimSize(2) % hq || kt.getDimSize(2) % hkv ||
        vt.getDimSize(2) % hkv)
      return emitLoweringError(op, "packed dims are not divisible by the "
                                   "number of heads");
    int64_t dk = qt.getDimSize(2) / hq, dv = vt.getDimSize(2) / hkv;
    if (kt.getDimSize(2) / hkv != dk)
      return emitLoweringError(op, "query and key have different head sizes");
    StringRef rule = op.getUpdateRule();
    bool gated = rule == "gated" || rule == "gated_delta";
    bool delta = rule == "delta" || rule == "gated_delta";
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
    if (past) {
      auto pt = dyn_cast<RankedTensorType>(past.getType());
      if (!pt || pt.getRank() != 4 ||
          (!pt.isDynamicDim(1) && pt.getDimSize(1) != hkv) ||
          (!pt.isDynamicDim(2) && pt.getDimSize(2) != dk) ||
          (!pt.isDynamicDim(3) && pt.getDimSize(3) != dv))
        return emitLoweringError(op, "past_state must be (B, H_kv, d_k, d_v)");
    }

    Type elem = qt.getElementType();
    Type acc = getAccumulatorType(elem);
    double scale = op.getScale().convertToDouble();
    if (scale == 0.0)
      scale = 1.0 / std::sqrt(static_cast<double>(dk));

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

    auto stateType =
        RankedTensorType::get({ShapedType::kDynamic, hkv, dk, dv}, acc);
    Value state;
    if (past) {
      Value eq =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                tensor::DimOp::create(b, loc, past, 0), batch);
      emitRuntimeCheck(b, loc, eq, op, "past_state's batch differs");
      // Dims left open by the model are checked before the cast to the
      // static state shape.
      int64_t want[] = {hkv, dk, dv};
      for (int64_t d = 1; d < 4; ++d) {
        if (!cast<RankedTensorType>(past.getType()).isDynamicDim(d))
          continue;
        Value ok = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq,
            tensor::DimOp::create(b, loc, past, d),
            arith::ConstantIndexOp::create(b, loc, want[d - 1]));
        emitRuntimeCheck(b, loc, ok, op,
                         "past_state must be (B, H_kv, d_k, d_v)");
      }
      auto pt = cast<RankedTensorType>(past.getType());
      Value init = tensor::EmptyOp::create(b, loc, stateType.getShape(), acc,
                                           ValueRange{batch});
      state = linalg::GenericOp::create(
                  b, loc, TypeRange{stateType},
                  ValueRange{tensor::CastOp::create(
                      b, loc,
                      RankedTensorType::get(stateType.getShape(),
                                            pt.getElementType()),
                      past)},
                  ValueRange{init},
                  SmallVector<AffineMap>(2, b.getMultiDimIdentityMap(4)),
                  SmallVector<IteratorType>(4, IteratorType::parallel),
                  [&](OpBuilder &nb, Location l, ValueRange args) {
                    linalg::YieldOp::create(nb, l,
                                            convertFloat(nb, l, args[0], acc));
                  })
                  .getResult(0);
    } else {
      state = createFilled(
          b, loc,
          {batch, b.getIndexAttr(hkv), b.getIndexAttr(dk), b.getIndexAttr(dv)},
          acc, arith::ConstantOp::create(b, loc, b.getFloatAttr(acc, 0.0)));
    }
    auto outType = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic, hq * dv}, elem);
    Value out = tensor::EmptyOp::create(b, loc, outType.getShape(), elem,
                                        ValueRange{batch, steps});

    AffineExpr d0, d1, d2, d3, d4;
    bindDims(ctx, d0, d1, d2, d3, d4);
    AffineExpr zero = getAffineConstantExpr(0, ctx);
    auto map = [&](unsigned dims, ArrayRef<AffineExpr> exprs) {
      return AffineMap::get(dims, 0, exprs, ctx);
    };
    auto par = [](unsigned n) {
      return SmallVector<IteratorType>(n, IteratorType::parallel);
    };
    // Token t of a packed input: [B, 1, X].
    auto token = [&](OpBuilder &fb, Location fl, Value x, Value t) {
      auto xt = cast<RankedTensorType>(x.getType());
      SmallVector<OpFoldResult> offs{fb.getIndexAttr(0), t, fb.getIndexAttr(0)},
          sizes{tensor::getMixedSize(fb, fl, x, 0), fb.getIndexAttr(1),
                fb.getIndexAttr(xt.getDimSize(2))},
          strides(3, fb.getIndexAttr(1));
      return tensor::ExtractSliceOp::create(fb, fl, x, offs, sizes, strides)
          .getResult();
    };
    auto ext = [&](OpBuilder &nb, Location l, Value x) {
      return convertFloat(nb, l, x, acc);
    };

    auto loop = scf::ForOp::create(
        b, loc, c0, steps, c1, ValueRange{state, out},
        [&](OpBuilder &fb, Location fl, Value t, ValueRange iter) {
          Value s = iter[0];
          Value qT = token(fb, fl, q, t), kT = token(fb, fl, k, t),
                vT = token(fb, fl, v, t);
          Value sInit = tensor::EmptyOp::create(fb, fl, stateType.getShape(),
                                                acc, ValueRange{batch});
          // State maps over (b, h, i, j).
          AffineMap sId = fb.getMultiDimIdentityMap(4);
          AffineMap kMap = map(4, {d0, zero, d1 * dk + d2});
          AffineMap vMap = map(4, {d0, zero, d1 * dv + d3});
          if (gated) {
            Value gT = token(fb, fl, decay, t);
            AffineMap gMap = gt.getDimSize(2) == hkv
                                 ? map(4, {d0, zero, d1})
                                 : map(4, {d0, zero, d1 * dk + d2});
            s = linalg::GenericOp::create(
                    fb, fl, TypeRange{stateType}, ValueRange{s, gT},
                    ValueRange{sInit}, SmallVector<AffineMap>{sId, gMap, sId},
                    par(4),
                    [&](OpBuilder &nb, Location l, ValueRange args) {
                      Value e = math::ExpOp::create(nb, l, ext(nb, l, args[1]));
                      linalg::YieldOp::create(
                          nb, l,
                          ValueRange{arith::MulFOp::create(nb, l, args[0], e)
                                         .getResult()});
                    })
                    .getResult(0);
          }
          if (delta) {
            // u[b, h, j] = sum_i S[b, h, i, j] k[b, h, i]
            auto uType =
                RankedTensorType::get({ShapedType::kDynamic, hkv, dv}, acc);
            Value u = createFilled(
                fb, fl, {batch, fb.getIndexAttr(hkv), fb.getIndexAttr(dv)}, acc,
                arith::ConstantOp::create(fb, fl, fb.getFloatAttr(acc, 0.0)));
            // dims (b, h, j, i)
            u = linalg::GenericOp::create(
                    fb, fl, TypeRange{uType}, ValueRange{s, kT}, ValueRange{u},
                    SmallVector<AffineMap>{map(4, {d0, d1, d3, d2}),
                                           map(4, {d0, zero, d1 * dk + d3}),
                                           map(4, {d0, d1, d2})},
                    SmallVector<IteratorType>{
                        IteratorType::parallel, IteratorType::parallel,
                        IteratorType::parallel, IteratorType::reduction},
                    [&](OpBuilder &nb, Location l, ValueRange args) {
                      Value p = arith::MulFOp::create(nb, l, args[0],
                                                      ext(nb, l, args[1]));
                      linalg::YieldOp::create(
                          nb, l,
                          ValueRange{arith::AddFOp::create(nb, l, args[2], p)
                                         .getResult()});
                    })
                    .getResult(0);
            Value bT = token(fb, fl, beta, t);
            AffineMap bMap = bt.getDimSize(2) == 1 ? map(4, {d0, zero, zero})
                                                   : map(4, {d0, zero, d1});
            s = linalg::GenericOp::create(
                    fb, fl, TypeRange{stateType}, ValueRange{s, kT, vT, u, bT},
                    ValueRange{sInit},
                    SmallVector<AffineMap>{sId, kMap, vMap,
                                           map(4, {d0, d1, d3}), bMap, sId},
                    par(4),
                    [&](OpBuilder &nb, Location l, ValueRange args) {
                      Value diff = arith::SubFOp::create(
                          nb, l, ext(nb, l, args[2]), args[3]);
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
          } else {
            s = linalg::GenericOp::create(
                    fb, fl, TypeRange{stateType}, ValueRange{s, kT, vT},
                    ValueRange{sInit},
                    SmallVector<AffineMap>{sId, kMap, vMap, sId}, par(4),
                    [&](OpBuilder &nb, Location l, ValueRange args) {
                      Value kv = arith::MulFOp::create(
                          nb, l, ext(nb, l, args[1]), ext(nb, l, args[2]));
                      linalg::YieldOp::create(
                          nb, l,
                          ValueRange{arith::AddFOp::create(nb, l, args[0], kv)
                                         .getResult()});
                    })
                    .getResult(0);
          }
          // o[b, hq, j] = scale * sum_i q[b, hq, i] S[b, hq / group, i, j],
          // dims (b, hq, j, i).
          auto oType =
              RankedTensorType::get({ShapedType::kDynamic, hq, dv}, acc);
          Value o = createFilled(
              fb, fl, {batch, fb.getIndexAttr(hq), fb.getIndexAttr(dv)}, acc,
              arith::ConstantOp::create(fb, fl, fb.getFloatAttr(acc, 0.0)));
          o = linalg::GenericOp::create(
                  fb, fl, TypeRange{oType}, ValueRange{qT, s}, ValueRange{o},
                  SmallVector<AffineMap>{
                      map(4, {d0, zero, d1 * dk + d3}),
                      map(4, {d0, d1.floorDiv(group), d3, d2}),
                      map(4, {d0, d1, d2})},
                  SmallVector<IteratorType>{
                      IteratorType::parallel, IteratorType::parallel,
                      IteratorType::parallel, IteratorType::reduction},
                  [&](OpBuilder &nb, Location l, ValueRange args) {
                    Value p = arith::MulFOp::create(nb, l, ext(nb, l, args[0]),
                                                    args[1]);
                    linalg::YieldOp::create(
                        nb, l,
                        ValueRange{arith::AddFOp::create(nb, l, args[2], p)
                                       .getResult()});
                  })
                  .getResult(0);
          // Scaled, in the output type, packed as [B, 1, H_q * d_v].
          auto rowType =
              RankedTensorType::get({ShapedType::kDynamic, 1, hq * dv}, elem);
          Value rowInit = tensor::EmptyOp::create(fb, fl, rowType.getShape(),
                                                  elem, ValueRange{batch});
          // dims (b, x, hq, j) with x the unit dim of the row.
          Value
              row = linalg::GenericOp::create(
                        fb, fl,
                        TypeRange{RankedTensorType::get(
                            {ShapedType::kDynamic, 1, hq, dv}, elem)},
                        ValueRange{o},
                        ValueRange{tensor::ExpandShapeOp::create(
                            fb, fl,
                            RankedTensorType::get(
                                {ShapedType::kDynamic, 1, hq, dv}, elem),
                            rowInit,
                            SmallVector<ReassociationIndices>{
                                {0}, {1}, {2, 3}})},
                        SmallVector<AffineMap>{map(4, {d0, d2, d3}),
                                               fb.getMultiDimIdentityMap(4)},
                        par(4),
                        [&](OpBuilder &nb, Location l, ValueRange args) {
                          Value sc = arith::ConstantOp::create(
                              nb, l, nb.getFloatAttr(acc, scale));
                          Value y = arith::MulFOp::create(nb, l, args[0], sc);
                          linalg::YieldOp::create(nb, l,
                                                  convertFloat(nb, l, y, elem));
                        })
                        .getResult(0);
          row = tensor::CollapseShapeOp::create(
              fb, fl, rowType, row,
              SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
          SmallVector<OpFoldResult> offs{fb.getIndexAttr(0), t,
                                         fb.getIndexAttr(0)},
              sizes{tensor::getMixedSize(fb, fl, row, 0), fb.getIndexAttr(1),
                    fb.getIndexAttr(hq * dv)},
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
      Type se = rt.getElementType();
      Value init = tensor::EmptyOp::create(b, loc, stateType.getShape(), se,
                                           ValueRange{batch});
      Value st =
          linalg::GenericOp::create(
              b, loc, TypeRange{init.getType()}, ValueRange{loop.getResult(0)},
              ValueRange{init},
              SmallVector<AffineMap>(2, b.getMultiDimIdentityMap(4)), par(4),
              [&](OpBuilder &nb, Location l, ValueRange args) {
                linalg::YieldOp::create(nb, l,
                                        convertFloat(nb, l, args[0], se));
              })
              .getResult(0);
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
