//===- NN.cpp - Expansions of the NN family -------------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expansions of the NN family: Normalizations, windows, AffineGrid, Attention,
// RotaryEmbedding, CausalConvWithState and ai.onnx.preview FlexAttention.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnx;
using namespace mlir::onnx::decompose;

//===--- Normalizations ---------------------------------------------------===//

/// The stash type of an op (its `stash_type` code, default float).
static Type stashType(Expansion &x) {
  if (!x.ctx.hasAttr("stash_type"))
    return Float32Type::get(x.ctx.getContext());
  return x.ctx.getDataTypeAttr("stash_type");
}

static LogicalResult expandLayerNorm(Expansion &x, bool rms) {
  Emitter &e = x.e;
  Value v = x.in(0);
  std::optional<int64_t> rank = rankOf(v);
  if (!rank)
    return unsupported(x, "the rank of the input is unknown");
  std::optional<int64_t> axis = normalizeAxis(x.i("axis"), *rank);
  if (!axis)
    return unsupported(x, "axis out of range");
  Type u = stashType(x);
  if (!isFloat(u))
    return unsupported(x, "stash_type is not a float type");
  Emitter::Axes axes{SmallVector<int64_t>(), {}};
  for (int64_t a = *axis; a < *rank; ++a)
    axes.constant->push_back(a);
  Value xu = e.castTo(v, u);
  Value eps = e.scalar(u, x.f("epsilon"));
  if (rms) {
    Value meanSq = e.reduce<ReduceMeanOp>(e.mul(xu, xu), axes, true);
    Value rmsv = e.unary<SqrtOp>(e.add(meanSq, eps));
    Value norm = e.castTo(e.div(xu, rmsv), x.et());
    x.results = {e.mul(norm, x.in(1))};
    return success(!e.failed());
  }
  Value mean = e.reduce<ReduceMeanOp>(xu, axes, true);
  Value meanOfSq = e.reduce<ReduceMeanOp>(e.mul(xu, xu), axes, true);
  Value var = e.sub(meanOfSq, e.mul(mean, mean));
  Value stdDev = e.unary<SqrtOp>(e.add(var, eps));
  Value norm = e.castTo(e.div(e.sub(xu, mean), stdDev), x.et());
  Value y = e.mul(norm, x.in(1));
  if (x.in(2))
    y = e.add(y, x.in(2));
  x.results = {y};
  if (x.ctx.hasOutput(1))
    x.results.push_back(mean);
  else if (x.ctx.getNumOutputs() > 1)
    x.results.push_back({});
  if (x.ctx.hasOutput(2))
    x.results.push_back(e.unary<ReciprocalOp>(stdDev));
  return success(!e.failed());
}

static LogicalResult expandGroupNorm(Expansion &x) {
  if (x.ctx.getVersion() < 21)
    return unsupported(x, "GroupNormalization-18 scales per group");
  Emitter &e = x.e;
  Value v = x.in(0);
  std::optional<int64_t> rank = rankOf(v);
  if (!rank || *rank < 2)
    return unsupported(x, "the rank of the input is unknown or below 2");
  std::optional<int64_t> groups = x.ctx.getIntAttr("num_groups");
  if (!groups || *groups <= 0)
    return unsupported(x, "num_groups is missing or not positive");
  Type u = stashType(x);
  if (!isFloat(u))
    return unsupported(x, "stash_type is not a float type");
  MLIRContext *ctx = e.getContext();
  Type i64 = IntegerType::get(ctx, 64);
  Value xu = e.castTo(v, u);
  Value shape = e.create1<ShapeOp>({xu}, RankedTensorType::get({*rank}, i64));
  // [N, G, C/G * D1 * ...], normalized over its last axis.
  int64_t n = cast<RankedTensorType>(v.getType()).getDimSize(0);
  auto t3 = RankedTensorType::get({n, *groups, ShapedType::kDynamic}, u);
  Value x3 = e.create1<ReshapeOp>({xu, e.i64s({0, *groups, -1})}, t3);
  Emitter::Axes last{SmallVector<int64_t>{2}, {}};
  Value mean = e.reduce<ReduceMeanOp>(x3, last, true);
  Value meanOfSq = e.reduce<ReduceMeanOp>(e.mul(x3, x3), last, true);
  Value var = e.sub(meanOfSq, e.mul(mean, mean));
  Value stdDev = e.unary<SqrtOp>(e.add(var, e.scalar(u, x.f("epsilon"))));
  Value norm3 = e.div(e.sub(x3, mean), stdDev);
  Value norm = e.castTo(
      e.create1<ReshapeOp>({norm3, shape}, withElementType(v.getType(), u)),
      x.et());
  // Scale and bias per channel: [C, 1, ..., 1].
  SmallVector<int64_t> cshape{-1};
  cshape.append(*rank - 2, 1);
  auto perChannel = [&](Value p) {
    SmallVector<int64_t> dims{ShapedType::kDynamic};
    dims.append(*rank - 2, 1);
    return e.create1<ReshapeOp>({e.castTo(p, x.et()), e.i64s(cshape)},
                                RankedTensorType::get(dims, x.et()));
  };
  x.results = {e.add(e.mul(norm, perChannel(x.in(1))), perChannel(x.in(2)))};
  return success(!e.failed());
}

static LogicalResult expandMVN(Expansion &x) {
  Emitter &e = x.e;
  Value v = x.in(0);
  Emitter::Axes axes{
      x.ctx.getIntsAttr("axes").value_or(SmallVector<int64_t>{0, 2, 3}), {}};
  Value two = x.c(2.0);
  Value mean = e.reduce<ReduceMeanOp>(v, axes, true);
  Value sqOfMean = e.binary<PowOp>(mean, two);
  Value meanOfSq = e.reduce<ReduceMeanOp>(e.binary<PowOp>(v, two), axes, true);
  Value stdDev = e.unary<SqrtOp>(e.sub(meanOfSq, sqOfMean));
  x.results = {e.div(e.sub(v, mean), e.add(stdDev, x.c(1e-9)))};
  return success(!e.failed());
}

static LogicalResult expandWindow(Expansion &x) {
  Emitter &e = x.e;
  double a0, a1, a2;
  if (x.is<HannWindowOp>())
    a0 = 0.5, a1 = 0.5, a2 = 0.0;
  else if (x.is<HammingWindowOp>())
    a0 = 25.0 / 46.0, a1 = 1.0 - 25.0 / 46.0, a2 = 0.0;
  else
    a0 = 0.42, a1 = 0.5, a2 = 0.08;
  Type out = x.ctx.hasAttr("output_datatype")
                 ? x.ctx.getDataTypeAttr("output_datatype")
                 : Float32Type::get(e.getContext());
  if (!isFloat(out))
    return unsupported(x, "output_datatype is not a float type");
  Type f32 = Float32Type::get(e.getContext());
  bool periodic = x.i("periodic") != 0;
  Value size = e.castTo(x.in(0), f32);
  Value n = periodic ? size : e.sub(size, e.scalar(f32, 1.0));
  Value step = e.div(e.scalar(f32, 2.0 * M_PI), n);
  Value angle =
      e.mul(emitRange(e, e.scalar(f32, 0.0), size, e.scalar(f32, 1.0)), step);
  Value w =
      e.sub(e.scalar(f32, a0), e.mul(e.scalar(f32, a1), e.unary<CosOp>(angle)));
  if (a2 != 0.0)
    w = e.add(w, e.mul(e.scalar(f32, a2),
                       e.unary<CosOp>(e.mul(angle, e.scalar(f32, 2.0)))));
  x.results = {e.castTo(w, out)};
  return success(!e.failed());
}

//===--- AffineGrid -------------------------------------------------------===//

/// The function body of AffineGrid-20 with its conditions (2-D or 3-D from
/// the length of `size`, align_corners) taken at compile time: for each
/// spatial dim n, coordinates start + i * step in the type of theta, a grid
/// of (x, y[, z], 1) over all positions, and theta times it. The body runs
/// the 2-D case through the 3-D one with theta extended by a zero column
/// and a z of 0; the extra terms are exact zeros, so the 2-D grid is built
/// directly.
static LogicalResult expandAffineGrid(Expansion &x) {
  Emitter &e = x.e;
  Value theta = x.in(0), size = x.in(1);
  Type et = x.et();
  if (!isFloat(et))
    return unsupported(x, "theta is not a float tensor");
  auto st = dyn_cast<RankedTensorType>(size.getType());
  if (!st || st.getRank() != 1 || st.isDynamicDim(0) ||
      (st.getDimSize(0) != 4 && st.getDimSize(0) != 5))
    return unsupported(x, "the length of size is unknown or not 4 or 5");
  int64_t k = st.getDimSize(0) - 2;
  bool alignCorners = x.i("align_corners") != 0;
  Type i64 = IntegerType::get(e.getContext(), 64);
  Value one = e.scalar(i64, 1), zero = e.scalar(i64, 0);
  Value oneF = e.scalar(et, 1.0), twoF = e.scalar(et, 2.0);
  Value minusOneF = e.scalar(et, -1.0), zeroF = e.scalar(et, 0.0);
  // Coordinates along spatial dim j (0: D or H, ..., k-1: W) of size n.
  auto coords = [&](int64_t j) {
    Value n = e.build1<GatherOp>({size, e.scalar(i64, 2 + j)}, i64);
    Value nf = e.castTo(n, et);
    Value start, step;
    if (!alignCorners) {
      step = e.div(twoF, nf);
      start = e.add(minusOneF, e.div(step, twoF));
    } else {
      step = e.div(twoF, e.sub(nf, oneF));
      // Depth 1 of a 3-D grid has step 0 (the body's If on D == 1).
      if (k == 3 && j == 0)
        step = e.where(e.compare<EqualOp>(n, one), zeroF, step);
      start = minusOneF;
    }
    Value steps = e.castTo(emitRange(e, zero, n, one), et);
    return e.add(start, e.mul(steps, step));
  };
  Value spatialShape =
      e.build1<SliceOp>({size, e.i64s({2}), e.i64s({2 + k})}, i64);
  auto zeroAttr = DenseElementsAttr::get(RankedTensorType::get({1}, et),
                                         FloatAttr::get(et, 0.0));
  Value zeros = e.build1<ConstantOfShapeOp>(
      {spatialShape}, et, {x.b().getNamedAttr("value", zeroAttr)});
  Value ones = e.add(zeros, oneF);
  // Each coordinate broadcast over the spatial shape, then (x, y[, z], 1)
  // along a new last axis.
  SmallVector<Value> parts;
  for (int64_t j = k - 1; j >= 0; --j) {
    // A permutation that puts dim j last, and its inverse.
    SmallVector<int64_t> perm, inv(k);
    for (int64_t d = 0; d < k; ++d)
      if (d != j)
        perm.push_back(d);
    perm.push_back(j);
    for (int64_t d = 0; d < k; ++d)
      inv[perm[d]] = d;
    Value g;
    if (j == k - 1)
      g = e.add(coords(j), zeros);
    else {
      Value zerosT = e.transpose(zeros, perm);
      g = e.transpose(e.add(zerosT, coords(j)), inv);
    }
    parts.push_back(e.unsqueeze(g, {-1}));
  }
  parts.push_back(e.unsqueeze(ones, {-1}));
  Value grid = e.concat(parts, -1);
  Value flat = e.transpose(e.reshape(grid, e.i64s({-1, k + 1})), {1, 0});
  Value prod = e.build1<MatMulOp>({theta, flat}, et);
  Value nsk = e.transpose(prod, {0, 2, 1});
  Value outShape =
      e.concat({e.build1<SliceOp>({size, e.i64s({0}), e.i64s({1})}, i64),
                spatialShape, e.i64s({k})},
               0);
  x.results = {e.reshape(nsk, outShape)};
  return success(!e.failed());
}

//===--- Attention --------------------------------------------------------===//

/// The function body of Attention-23/24: Q, K, V as [batch, heads, seq,
/// head_size] (3-D inputs reshaped by q_num_heads/kv_num_heads), past keys
/// and values concatenated, K and V heads repeated for grouped queries, Q
/// and K scaled by sqrt(scale), softcap, the bias of the mask, causality
/// and (24) nonpad_kv_seqlen added in float and cast to T, Softmax in
/// softmax_precision.
static LogicalResult expandAttention(Expansion &x) {
  Emitter &e = x.e;
  MLIRContext *ctx = e.getContext();
  Type f32 = Float32Type::get(ctx), i64 = IntegerType::get(ctx, 64);
  Value q = x.in(0), k = x.in(1), v = x.in(2), mask = x.in(3);
  Value pastK = x.in(4), pastV = x.in(5);
  int version = x.ctx.getVersion();
  Value nonpad = version >= 24 ? x.in(6) : Value();
  Type t = x.et();
  if (!isFloat(t) || x.et(1) != t || x.et(2) != t)
    return unsupported(x, "Q, K and V are not float tensors of one type");
  std::optional<int64_t> rank = rankOf(q);
  if (!rank || (*rank != 3 && *rank != 4) || rankOf(k) != rank ||
      rankOf(v) != rank)
    return unsupported(x, "Q, K and V are not all 3-D or all 4-D");
  if ((pastK != nullptr) != (pastV != nullptr))
    return unsupported(x, "only one of past_key and past_value is given");
  Type softmaxType = t;
  if (x.ctx.hasAttr("softmax_precision")) {
    softmaxType = x.ctx.getDataTypeAttr("softmax_precision");
    if (!isFloat(softmaxType))
      return unsupported(x, "softmax_precision is not a float type");
  }
  int64_t mode = x.i("qk_matmul_output_mode");
  if (x.ctx.hasOutput(3) && (mode < 0 || mode > 3))
    return unsupported(x, "unknown qk_matmul_output_mode");

  Value batch = e.shapeOf(q, 0, 1);
  Value qSeqLen = e.shapeOf(q, -2, -1);
  Value kvSeqLen = e.shapeOf(k, -2, -1);
  Value qr = q, kr = k, vr = v;
  if (*rank == 3) {
    std::optional<int64_t> qHeads = x.ctx.getIntAttr("q_num_heads");
    std::optional<int64_t> kvHeads = x.ctx.getIntAttr("kv_num_heads");
    if (!qHeads || !kvHeads)
      return unsupported(x, "3-D inputs without q_num_heads and kv_num_heads");
    Value negOne = e.i64s({-1});
    Value qShape = e.concat({batch, qSeqLen, e.i64s({*qHeads}), negOne}, 0);
    Value kvShape = e.concat({batch, kvSeqLen, e.i64s({*kvHeads}), negOne}, 0);
    qr = e.transpose(e.reshape(q, qShape), {0, 2, 1, 3});
    kr = e.transpose(e.reshape(k, kvShape), {0, 2, 1, 3});
    vr = e.transpose(e.reshape(v, kvShape), {0, 2, 1, 3});
  }
  Value qHeads = e.shapeOf(qr, 1, 2), kvHeads = e.shapeOf(kr, 1, 2);
  Value qkHeadSize = e.shapeOf(qr, 3, 4), vHeadSize = e.shapeOf(vr, 3, 4);

  // Q and K are each scaled by sqrt(scale).
  Value scale;
  if (std::optional<double> s = x.ctx.getFloatAttr("scale"))
    scale = e.scalar(f32, *s);
  else
    scale = e.div(e.scalar(f32, 1.0, {1}),
                  e.unary<SqrtOp>(e.castTo(qkHeadSize, f32)));
  Value scaleT = e.castTo(e.unary<SqrtOp>(scale), t);

  // The key/value cache.
  Value presentK = kr, presentV = vr, pastSeqLen;
  if (pastK) {
    presentK = e.concat({pastK, kr}, 2);
    pastSeqLen = e.shapeOf(pastK, -2, -1);
    presentV = e.concat({pastV, vr}, 2);
  } else {
    pastSeqLen = e.i64s({0});
  }
  Value newKVSeqLen = e.shapeOf(presentK, -2, -1);
  Value biasShape = e.concat({qSeqLen, newKVSeqLen}, 0);

  // The bias added to the scores, in float (or the mask's type).
  Value negInf = e.scalar(f32, -INFINITY, {1}), zeroF = e.scalar(f32, 0.0, {1});
  Value bias;
  if (mask) {
    Type mt = elementTypeOf(mask);
    bias = mt && mt.isInteger(1) ? e.where(mask, zeroF, negInf) : mask;
    if (version >= 24) {
      // A mask shorter than the keys is padded with -inf.
      Value padding = e.sub(newKVSeqLen, e.shapeOf(bias, -1));
      Value pads = e.concat({e.i64s({0}), padding}, 0);
      Value fill = e.castTo(e.scalar(f32, -INFINITY), elementTypeOf(bias));
      bias = e.build1<PadOp>({bias, pads, fill, e.i64s({-1})},
                             elementTypeOf(bias));
    }
  } else {
    auto zeroAttr =
        DenseElementsAttr::get(RankedTensorType::get({1}, f32), 0.0f);
    bias = e.build1<ConstantOfShapeOp>({biasShape}, f32,
                                       {x.b().getNamedAttr("value", zeroAttr)});
  }
  Type biasType = elementTypeOf(bias);
  if (x.i("is_causal") != 0) {
    // -inf where the key position is after the query's (past included).
    Value seqLen = e.build1<GatherOp>({biasShape, e.scalar(i64, 0)}, i64);
    Value total = e.build1<GatherOp>({biasShape, e.scalar(i64, 1)}, i64);
    Value zero = e.scalar(i64, 0), one = e.scalar(i64, 1);
    Value rows = e.unsqueeze(emitRange(e, zero, seqLen, one), {1});
    Value cols = e.unsqueeze(emitRange(e, zero, total, one), {0});
    Value above = e.compare<LessOp>(e.add(rows, pastSeqLen), cols);
    bias = e.add(bias, e.castTo(e.where(above, negInf, zeroF), biasType));
  }
  if (nonpad) {
    // -inf for the keys of a sample past its nonpad_kv_seqlen.
    Value lens = e.unsqueeze(nonpad, {1});
    Value len = e.squeeze(kvSeqLen, {0});
    Value range = emitRange(e, e.scalar(i64, 0), len, e.scalar(i64, 1));
    Value pad = e.where(e.compare<LessOp>(range, lens), zeroF, negInf);
    pad = e.unsqueeze(e.unsqueeze(pad, {1}), {1});
    bias = e.add(bias, e.castTo(pad, biasType));
  }
  Value biasT = e.castTo(bias, t);

  // Grouped queries: each K/V head serves q_num_heads / kv_num_heads query
  // heads (interleave 1 when they are equal or do not divide).
  Value one1 = e.i64s({1}), zero1 = e.i64s({0});
  Value notEqual = e.unary<NotOp>(e.compare<EqualOp>(qHeads, kvHeads));
  Value divides = e.compare<EqualOp>(e.binary<ModOp>(qHeads, kvHeads), zero1);
  Value gqa = e.compare<AndOp>(notEqual, divides);
  Value interleave = e.where(gqa, e.castTo(e.div(qHeads, kvHeads), i64), one1);
  auto repeatHeads = [&](Value kv, Value headSize) {
    Value shape5 =
        e.concat({batch, kvHeads, interleave, newKVSeqLen, headSize}, 0);
    Value expanded =
        e.build1<ExpandOp>({e.unsqueeze(kv, {2}), shape5}, elementTypeOf(kv));
    Value shape4 = e.concat({batch, qHeads, newKVSeqLen, headSize}, 0);
    return e.reshape(expanded, shape4);
  };
  Value kAttn = repeatHeads(presentK, qkHeadSize);
  Value vAttn = repeatHeads(presentV, vHeadSize);

  Value qScaled = e.mul(qr, scaleT);
  Value kScaled = e.mul(e.transpose(kAttn, {0, 1, 3, 2}), scaleT);
  Value qk = e.build1<MatMulOp>({qScaled, kScaled}, t);
  Value scores = e.castTo(qk, t);
  if (double softcap = x.f("softcap"); softcap > 0.0) {
    Value cap = e.castTo(e.scalar(f32, softcap, {1}), t);
    scores = e.mul(e.unary<TanhOp>(e.div(scores, cap)), cap);
  }
  Value softcapped = scores;
  Value biased = e.add(scores, biasT);
  Value probs = emitSoftmax(e, e.castTo(biased, softmaxType), -1, false);
  Value probsT = e.castTo(probs, t);
  Value y = e.build1<MatMulOp>({probsT, vAttn}, t);
  if (*rank == 3)
    y = e.reshape(e.transpose(y, {0, 2, 1, 3}), e.i64s({0, 0, -1}));
  x.results = {y, presentK, presentV};
  if (x.ctx.hasOutput(3)) {
    Value qkOut[] = {qk, softcapped, biased, probs};
    x.results.push_back(qkOut[mode]);
  }
  return success(!e.failed());
}

//===--- RotaryEmbedding --------------------------------------------------===//

/// The function body of RotaryEmbedding-23: the input as [batch, seq,
/// heads, head_size], its first rotary_embedding_dim values rotated by the
/// cos/sin caches (gathered at position_ids when given), in halves or
/// interleaved, the rest passed through.
static LogicalResult expandRotaryEmbedding(Expansion &x) {
  Emitter &e = x.e;
  Value in = x.in(0), cosCache = x.in(1), sinCache = x.in(2);
  Value positions = x.in(3);
  Type et = x.et();
  if (!isFloat(et))
    return unsupported(x, "the input is not a float tensor");
  std::optional<int64_t> rank = rankOf(in);
  if (!rank || (*rank != 3 && *rank != 4))
    return unsupported(x, "the input is not 3-D or 4-D");
  int64_t numHeads = x.ctx.getIntAttr("num_heads").value_or(0);
  if (*rank == 3 && numHeads <= 0)
    return unsupported(x, "a 3-D input without num_heads");
  Value xin = *rank == 4 ? e.transpose(in, {0, 2, 1, 3})
                         : e.reshape(in, e.i64s({0, 0, numHeads, -1}));
  Value headSize = e.shapeOf(xin, 3, 4);
  int64_t rotaryDim = x.i("rotary_embedding_dim");
  Value rd = rotaryDim > 0 ? e.i64s({rotaryDim}) : headSize;
  Value two1 = e.i64s({2}), zero1 = e.i64s({0});
  Value lengths = e.concat({rd, e.sub(headSize, rd)}, 0);
  SmallVector<Value> parts =
      e.build<SplitOp>({xin, lengths}, {et, et}, {e.attr("axis", int64_t(-1))});
  if (parts.size() != 2)
    return unsupported(x, e.getWhy());
  Value toRotate = parts[0], noRotate = parts[1];
  Value half = e.castTo(e.div(rd, two1), IntegerType::get(e.getContext(), 64));
  auto cache = [&](Value c) {
    if (positions)
      c = e.build1<GatherOp>({c, positions}, elementTypeOf(c));
    return e.unsqueeze(e.build1<SliceOp>({c, zero1, half, two1}, et), {2});
  };
  Value cosv = cache(cosCache), sinv = cache(sinCache);
  bool interleaved = x.i("interleaved") != 0;
  Value x1, x2;
  if (interleaved) {
    Value one1 = e.i64s({1}), axis = e.i64s({3});
    x1 = e.build1<SliceOp>({toRotate, zero1, rd, axis, two1}, et);
    x2 = e.build1<SliceOp>({toRotate, one1, e.add(rd, one1), axis, two1}, et);
  } else {
    SmallVector<Value> halves = e.build<SplitOp>(
        {toRotate}, {et, et},
        {e.attr("axis", int64_t(-1)), e.attr("num_outputs", 2)}, {1});
    if (halves.size() != 2)
      return unsupported(x, e.getWhy());
    x1 = halves[0];
    x2 = halves[1];
  }
  Value cosX1 = e.mul(cosv, x1);
  Value real = e.sub(cosX1, e.mul(sinv, x2));
  Value sinX1 = e.mul(sinv, x1);
  Value imag = e.add(sinX1, e.mul(cosv, x2));
  Value rotated;
  if (interleaved) {
    Value pairs =
        e.concat({e.unsqueeze(real, {-1}), e.unsqueeze(imag, {-1})}, -1);
    rotated = e.reshape(pairs, e.shapeOf(toRotate));
  } else
    rotated = e.concat({real, imag}, -1);
  Value y = e.concat({rotated, noRotate}, -1);
  if (*rank == 4)
    y = e.transpose(y, {0, 2, 1, 3});
  x.results = {e.reshape(y, e.shapeOf(in))};
  return success(!e.failed());
}

//===--- CausalConvWithState ----------------------------------------------===//

/// The function body of CausalConvWithState-27: the past state (or k - 1
/// zeros) concatenated before the input along the length, a depthwise Conv
/// (group = channels), SiLU in float for 'silu'/'swish', and the last k - 1
/// positions of the padded input as the present state.
static LogicalResult expandCausalConvWithState(Expansion &x) {
  Emitter &e = x.e;
  Value in = x.in(0), weight = x.in(1), bias = x.in(2), past = x.in(3);
  Type et = x.et();
  StringRef activation = x.s("activation");
  if (activation != "none" && activation != "silu" && activation != "swish")
    return unsupported(x, "unknown activation '" + activation + "'");
  // The group of the Conv is an attribute: the channels must be known.
  int64_t channels = ShapedType::kDynamic;
  for (Value v : {in, weight})
    if (auto t = dyn_cast<RankedTensorType>(v.getType()))
      if (t.getRank() == 3 && !t.isDynamicDim(v == in ? 1 : 0))
        channels = t.getDimSize(v == in ? 1 : 0);
  if (ShapedType::isDynamic(channels))
    return unsupported(x, "the number of channels is unknown");
  Value one1 = e.i64s({1});
  Value km1 = e.sub(e.shapeOf(weight, 2, 3), one1);
  if (!past) {
    Value shape = e.concat({e.shapeOf(in, 0, 1), e.shapeOf(in, 1, 2), km1}, 0);
    auto zeroAttr = DenseElementsAttr::get(RankedTensorType::get({1}, et),
                                           FloatAttr::get(et, 0.0));
    past = e.build1<ConstantOfShapeOp>({shape}, et,
                                       {x.b().getNamedAttr("value", zeroAttr)});
  }
  Value padded = e.concat({past, in}, 2);
  Value conv = e.build1<ConvOp>({padded, weight, bias}, et,
                                {e.attr("group", channels)}, {2});
  Value out = conv;
  if (activation != "none") {
    Value f = e.castTo(conv, Float32Type::get(e.getContext()));
    out = e.castTo(e.mul(f, e.unary<SigmoidOp>(f)), et);
  }
  Value padLen = e.shapeOf(padded, 2, 3);
  Value state =
      e.build1<SliceOp>({padded, e.sub(padLen, km1), padLen, e.i64s({2})}, et);
  x.results = {out, state};
  return success(!e.failed());
}

//===--- ai.onnx.preview --------------------------------------------------===//

/// The value a modifier subgraph (one tensor in, one out) computes from
/// `in`: its ops cloned with the argument replaced; null if the region is
/// empty (no modifier).
static Value inlineModifier(Expansion &x, Region &region, Value in) {
  if (region.empty())
    return in;
  Block &body = region.front();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (body.getNumArguments() != 1 || !yield || yield->getNumOperands() != 1)
    return x.e.fail("a modifier subgraph must take and return one tensor"),
           Value();
  IRMapping map;
  map.map(body.getArgument(0), in);
  for (Operation &op : body.without_terminator())
    x.b().clone(op, map);
  return map.lookupOrDefault(yield->getOperand(0));
}

/// FlexAttention: Softmax((Q K^T) * scale, after score_mod) after prob_mod,
/// times V, in softmax_precision (f32, or f64 for f64 inputs); K and V
/// heads repeated for grouped queries.
static LogicalResult expandFlexAttention(Expansion &x) {
  Emitter &e = x.e;
  MLIRContext *ctx = e.getContext();
  auto op = cast<PreviewFlexAttentionOp>(x.ctx.getOp());
  Type t = x.et(), i64 = IntegerType::get(ctx, 64);
  Value q = x.in(0), k = x.in(1), v = x.in(2);
  if (!isFloat(t) || x.et(1) != t || x.et(2) != t)
    return unsupported(x, "Q, K and V are not float tensors of one type");
  if (rankOf(q) != 4 || rankOf(k) != 4 || rankOf(v) != 4)
    return unsupported(x, "Q, K and V must be 4-D");
  Type p = t.isF64() ? Type(Float64Type::get(ctx)) : Float32Type::get(ctx);
  if (x.ctx.hasAttr("softmax_precision")) {
    p = x.ctx.getDataTypeAttr("softmax_precision");
    if (!isFloat(p))
      return unsupported(x, "softmax_precision is not a float type");
  }
  Value qp = e.castTo(q, p), kp = e.castTo(k, p), vp = e.castTo(v, p);
  Value batch = e.shapeOf(q, 0, 1), qHeads = e.shapeOf(q, 1, 2);
  Value kvHeads = e.shapeOf(k, 1, 2), kvLen = e.shapeOf(k, 2, 3);
  Value headSize = e.shapeOf(q, 3, 4), vHeadSize = e.shapeOf(v, 3, 4);
  // Query head h reads K/V head h / (q_num_heads / kv_num_heads).
  Value group = e.castTo(e.div(qHeads, kvHeads), i64);
  auto repeatHeads = [&](Value kv, Value size) {
    Value shape5 = e.concat({batch, kvHeads, group, kvLen, size}, 0);
    Value expanded =
        e.build1<ExpandOp>({e.unsqueeze(kv, {2}), shape5}, elementTypeOf(kv));
    return e.reshape(expanded, e.concat({batch, qHeads, kvLen, size}, 0));
  };
  Value kAttn = repeatHeads(kp, headSize), vAttn = repeatHeads(vp, vHeadSize);
  Value scale;
  if (std::optional<double> s = x.ctx.getFloatAttr("scale"))
    scale = e.scalar(p, *s);
  else
    scale =
        e.div(e.scalar(p, 1.0, {1}), e.unary<SqrtOp>(e.castTo(headSize, p)));
  Value scores = e.mul(
      e.build1<MatMulOp>({qp, e.transpose(kAttn, {0, 1, 3, 2})}, p), scale);
  scores = inlineModifier(x, op.getScoreMod(), scores);
  Value probs = emitSoftmax(e, scores, 3, /*log=*/false);
  probs = inlineModifier(x, op.getProbMod(), probs);
  Value y = e.build1<MatMulOp>({probs, vAttn}, p);
  x.results = {e.castTo(y, t)};
  return success(!e.failed());
}

void decompose::registerNNExpansions(ExpansionRegistry &r) {
  r.add<HannWindowOp, HammingWindowOp, BlackmanWindowOp>(expandWindow);
  r.add<LayerNormalizationOp>(
      [](Expansion &x) { return expandLayerNorm(x, false); });
  r.add<RMSNormalizationOp>(
      [](Expansion &x) { return expandLayerNorm(x, true); });
  r.add<GroupNormalizationOp>(expandGroupNorm);
  r.add<MeanVarianceNormalizationOp>(expandMVN);
  r.add<AffineGridOp>(expandAffineGrid);
  r.add<AttentionOp>(expandAttention);
  r.add<RotaryEmbeddingOp>(expandRotaryEmbedding);
  r.add<CausalConvWithStateOp>(expandCausalConvWithState);
  r.add<PreviewFlexAttentionOp>(expandFlexAttention);
}
