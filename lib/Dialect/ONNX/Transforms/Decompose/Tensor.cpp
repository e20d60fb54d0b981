//===- Tensor.cpp - Expansions of the Tensor family -----------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expansions of the Tensor family: Range, Bernoulli, CenterCropPad.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnx;
using namespace mlir::onnx::decompose;

Value decompose::emitRange(Emitter &e, Value start, Value limit, Value delta) {
  Type et = elementTypeOf(start);
  if (!et)
    return e.fail("unknown element type"), Value();
  Type ct = isFloat(et) ? et : Float64Type::get(e.getContext());
  Value count = e.unary<ReluOp>(e.unary<CeilOp>(
      e.div(e.castTo(e.sub(limit, start), ct), e.castTo(delta, ct))));
  MLIRContext *ctx = e.getContext();
  Type i64 = IntegerType::get(ctx, 64);
  Value n = e.create1<ReshapeOp>({e.castTo(count, i64), e.i64s({1})},
                                 RankedTensorType::get({1}, i64));
  auto one =
      DenseElementsAttr::get(RankedTensorType::get({1}, et),
                             isFloat(et) ? Attribute(FloatAttr::get(et, 1.0))
                                         : Attribute(IntegerAttr::get(et, 1)));
  auto vec = RankedTensorType::get({ShapedType::kDynamic}, et);
  Value ones = e.create1<ConstantOfShapeOp>(
      {n}, vec, {e.getBuilder().getNamedAttr("value", one)});
  Value idx = e.sub(e.create1<CumSumOp>({ones, e.scalar(i64, 0)}, vec),
                    e.scalar(et, 1.0));
  return e.add(start, e.mul(idx, delta));
}

static LogicalResult expandRange(Expansion &x) {
  Value r = emitRange(x.e, x.in(0), x.in(1), x.in(2));
  x.results = {r};
  return success(static_cast<bool>(r));
}

/// 1 where a uniform sample in [0, 1) is below p: P(1) = p, as the operator
/// is documented. (The function body of Bernoulli-15 compares with Greater,
/// which would draw 1 with probability 1 - p.)
static LogicalResult expandBernoulli(Expansion &x) {
  Emitter &e = x.e;
  Value v = x.in(0);
  Type out = x.ctx.hasAttr("dtype") ? x.ctx.getDataTypeAttr("dtype") : x.et();
  if (!out || !x.et())
    return unsupported(x, "unknown element type");
  SmallVector<NamedAttribute> attrs{x.b().getNamedAttr(
      "dtype", x.b().getI64IntegerAttr(getDataTypeForElementType(x.et())))};
  if (Attribute seed = x.ctx.getAttr("seed"))
    attrs.push_back(x.b().getNamedAttr("seed", seed));
  Value rnd = e.create1<RandomUniformLikeOp>({v}, v.getType(), attrs);
  x.results = {e.castTo(e.compare<LessOp>(rnd, v), out)};
  return success(!e.failed());
}

static LogicalResult expandCenterCropPad(Expansion &x) {
  Emitter &e = x.e;
  Value v = x.in(0), shape = x.in(1);
  MLIRContext *ctx = e.getContext();
  Type i64 = IntegerType::get(ctx, 64);
  auto vec = RankedTensorType::get({ShapedType::kDynamic}, i64);
  std::optional<SmallVector<int64_t>> axesAttr = x.ctx.getIntsAttr("axes");
  Value axes = axesAttr ? e.i64s(*axesAttr) : Value();
  auto dims = [&](Value t) {
    Value s = e.create1<ShapeOp>({t}, vec);
    if (!axes)
      return s;
    return e.create1<GatherOp>({s, axes}, vec);
  };
  Value two = e.i64s({2});
  Value xs = dims(v);
  Value padAmount = e.sub(e.binary<MaxOp>(xs, shape), xs);
  Value left = e.div(padAmount, two);
  Value pads = e.create1<ConcatOp>(
      {left, e.sub(padAmount, left)}, vec,
      {x.b().getNamedAttr("axis", x.b().getI64IntegerAttr(0))});
  Type et = x.et();
  Type anyShape = withElementType(UnrankedTensorType::get(et), et);
  if (auto r = dyn_cast_or_null<RankedTensorType>(v.getType()))
    anyShape = RankedTensorType::get(
        SmallVector<int64_t>(r.getRank(), ShapedType::kDynamic), et);
  Value padded =
      e.create1<PadOp>({v, pads, Value(), axes}, anyShape, {}, {2, 3});
  Value start = e.div(e.sub(dims(padded), shape), two);
  x.results = {e.create1<SliceOp>({padded, start, e.add(start, shape), axes},
                                  anyShape, {}, {3})};
  return success(!e.failed());
}

void decompose::registerTensorExpansions(ExpansionRegistry &r) {
  r.add<RangeOp>(expandRange);
  r.add<BernoulliOp>(expandBernoulli);
  r.add<CenterCropPadOp>(expandCenterCropPad);
}
