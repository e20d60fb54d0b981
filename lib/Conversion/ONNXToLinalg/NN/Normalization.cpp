//===- Normalization.cpp - Normalizations to linalg -----------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// BatchNormalization (inference with the given statistics, or training mode
// with the batch's mean and population variance and the updated running
// statistics), InstanceNormalization (statistics per image and channel),
// LpNormalization (p = 1 or 2 along an axis) and LRN (a window over the
// channels). Statistics are linalg.generic reductions into the kept dims,
// the normalization one elementwise generic; f16 / bf16 compute in f32.
//
// LayerNormalization, GroupNormalization, RMSNormalization and
// MeanVarianceNormalization are expanded by onnx-decompose.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

using CombineFn =
    function_ref<Value(OpBuilder &, Location, Value, ValueRange, Value)>;

/// Reduces `x` over every dim not in `kept` into a tensor of the kept dims
/// (element type `acc`, starting at `initValue`). `extras` are tensors of
/// the kept dims read at the same position; `combine(v, extras, acc)`.
Value reduceDims(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> kept,
                 Type acc, Value initValue, ValueRange extras,
                 CombineFn combine) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  SmallVector<OpFoldResult> dims = getDims(b, loc, x);
  SmallVector<OpFoldResult> keptDims;
  SmallVector<AffineExpr> keptExprs;
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  for (int64_t d : kept) {
    keptDims.push_back(dims[d]);
    keptExprs.push_back(getAffineDimExpr(d, ctx));
    iterators[d] = utils::IteratorType::parallel;
  }
  AffineMap keptMap = AffineMap::get(rank, 0, keptExprs, ctx);
  Value init = createFilled(b, loc, keptDims, acc, initValue);
  SmallVector<Value> inputs = {x};
  inputs.append(extras.begin(), extras.end());
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  maps.append(extras.size() + 1, keptMap);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l,
                                       combine(nb, l, args[0],
                                               args.drop_front().drop_back(),
                                               args.back()));
             })
      .getResult(0);
}

/// The number of elements of `x` over the dims not in `kept`, as `acc`.
Value countReduced(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> kept,
                   Type acc) {
  IndexMath m{b, loc};
  SmallVector<OpFoldResult> dims = getDims(b, loc, x);
  OpFoldResult n = m.cst(1);
  for (int64_t d = 0, e = dims.size(); d < e; ++d)
    if (!llvm::is_contained(kept, d))
      n = m.mul(n, dims[d]);
  return arith::SIToFPOp::create(
      b, loc, acc,
      arith::IndexCastOp::create(b, loc, b.getI64Type(), m.value(n)));
}

/// Mean and population variance of `x` over the dims not in `kept`.
std::pair<Value, Value> meanAndVariance(OpBuilder &b, Location loc, Value x,
                                        ArrayRef<int64_t> kept, Type acc) {
  Value zero = createScalarConstant(b, loc, acc, 0);
  Value count = countReduced(b, loc, x, kept, acc);
  Value sum = reduceDims(
      b, loc, x, kept, acc, zero, {},
      [&](OpBuilder &nb, Location l, Value v, ValueRange, Value a) {
        return arith::AddFOp::create(nb, l, a, convertFloat(nb, l, v, acc));
      });
  auto divide = [&](Value t) {
    return mapTensor(b, loc, t, acc, [&](OpBuilder &nb, Location l, Value v) {
      return arith::DivFOp::create(nb, l, v, count).getResult();
    });
  };
  Value mean = divide(sum);
  Value squares = reduceDims(
      b, loc, x, kept, acc, zero, {mean},
      [&](OpBuilder &nb, Location l, Value v, ValueRange extras, Value a) {
        Value diff = arith::SubFOp::create(nb, l, convertFloat(nb, l, v, acc),
                                           extras[0]);
        return arith::AddFOp::create(nb, l, a,
                                     arith::MulFOp::create(nb, l, diff, diff));
      });
  return {mean, divide(squares)};
}

/// One elementwise generic over `x`'s shape: `x` read at every position,
/// each of `params` with `paramMaps`; `body(x, params)` in `elem`.
Value normalizeElementwise(
    OpBuilder &b, Location loc, Value x, ValueRange params,
    ArrayRef<AffineMap> paramMaps, Type elem,
    function_ref<Value(OpBuilder &, Location, Value, ValueRange)> body) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  Value out = tensor::EmptyOp::create(b, loc, getDims(b, loc, x), elem);
  SmallVector<Value> inputs = {x};
  inputs.append(params.begin(), params.end());
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  maps.append(paramMaps.begin(), paramMaps.end());
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{out.getType()}, inputs, ValueRange{out}, maps,
             iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(
                   nb, l, body(nb, l, args[0], args.drop_front().drop_back()));
             })
      .getResult(0);
}

/// (x - mean) / sqrt(var + epsilon) * scale + bias, all in `acc`.
Value normalizeScalar(OpBuilder &b, Location loc, Value x, Value mean,
                      Value var, Value scale, Value bias, double epsilon) {
  Type acc = x.getType();
  Value eps = createScalarConstant(b, loc, acc, epsilon);
  Value denom =
      math::SqrtOp::create(b, loc, arith::AddFOp::create(b, loc, var, eps));
  Value norm = arith::DivFOp::create(
      b, loc, arith::SubFOp::create(b, loc, x, mean), denom);
  return arith::AddFOp::create(
      b, loc, arith::MulFOp::create(b, loc, norm, scale), bias);
}

/// Checks that `t` is a 1-D tensor of `expected` elements (at run time when
/// dynamic).
LogicalResult checkChannelParam(OpBuilder &b, Location loc, Operation *op,
                                Value t, OpFoldResult expected,
                                StringRef name) {
  auto type = dyn_cast<RankedTensorType>(t.getType());
  if (!type || type.getRank() != 1)
    return emitLoweringError(op, Twine(name) + " must be 1-D");
  OpFoldResult size = tensor::getMixedSize(b, loc, t, 0);
  std::optional<int64_t> cs = getConstantIntValue(size),
                         ce = getConstantIntValue(expected);
  if (cs && ce) {
    if (*cs != *ce)
      return emitLoweringError(op, Twine(name) + " has " + Twine(*cs) +
                                       " elements, not the " + Twine(*ce) +
                                       " channels");
    return success();
  }
  IndexMath m{b, loc};
  Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                   m.value(size), m.value(expected));
  emitRuntimeCheck(b, loc, ok, op,
                   Twine(name) + " does not have one element per channel");
  return success();
}

//===----------------------------------------------------------------------===//
// BatchNormalization
//===----------------------------------------------------------------------===//

/// BatchNormalization's per-channel a = scale / sqrt(var + epsilon) and
/// c = B - mean * a as constant [C] tensors of `type` (f32 or f64), when
/// scale, B, mean and var are constants with C elements each; else none.
static SmallVector<Value> foldCoefficients(OpBuilder &b, Location loc,
                                           ArrayRef<Value> params, Type type,
                                           double epsilon) {
  SmallVector<SmallVector<double>> values;
  for (Value param : params) {
    std::optional<SmallVector<double>> v = getConstantFloatValues(param);
    if (!v || (!values.empty() && v->size() != values.front().size()))
      return {};
    values.push_back(std::move(*v));
  }
  if (!type.isF32() && !type.isF64())
    return {};
  SmallVector<double> a, c;
  for (size_t i = 0; i < values[0].size(); ++i) {
    a.push_back(values[0][i] / std::sqrt(values[3][i] + epsilon));
    c.push_back(values[1][i] - values[2][i] * a.back());
  }
  auto tensorType =
      RankedTensorType::get({static_cast<int64_t>(a.size())}, type);
  auto constant = [&](ArrayRef<double> v) -> Value {
    DenseElementsAttr attr;
    if (type.isF64()) {
      attr = DenseElementsAttr::get(tensorType, v);
    } else {
      SmallVector<float> f(v.begin(), v.end());
      attr = DenseElementsAttr::get(tensorType, ArrayRef<float>(f));
    }
    return arith::ConstantOp::create(b, loc, tensorType, attr);
  };
  return {constant(a), constant(c)};
}

struct BatchNormalizationLowering
    : public ONNXToLinalgPattern<BatchNormalizationOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(BatchNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = getConvertedType(op.getY());
    Value x = adaptor.getX();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    if (!xType || xType.getRank() < 2)
      return emitLoweringError(op, "X needs a batch and a channel dim");
    int64_t rank = xType.getRank();
    OpFoldResult channels = tensor::getMixedSize(rewriter, loc, x, 1);
    Value scale = adaptor.getScale(), bias = adaptor.getB(),
          mean = adaptor.getInputMean(), var = adaptor.getInputVar();
    if (failed(
            checkChannelParam(rewriter, loc, op, scale, channels, "scale")) ||
        failed(checkChannelParam(rewriter, loc, op, bias, channels, "B")) ||
        failed(checkChannelParam(rewriter, loc, op, mean, channels,
                                 "input_mean")) ||
        failed(
            checkChannelParam(rewriter, loc, op, var, channels, "input_var")))
      return failure();
    Type elem = resultType.getElementType();
    Type acc = getAccumulatorType(elem);
    double epsilon = op.getEpsilon().convertToDouble();
    bool training = op.getTrainingMode() != 0;
    AffineMap channelMap =
        AffineMap::get(rank, 0, {getAffineDimExpr(1, ctx)}, ctx);

    Value useMean = mean, useVar = var;
    Value batchMean, batchVar;
    if (training) {
      std::tie(batchMean, batchVar) =
          meanAndVariance(rewriter, loc, x, {1}, acc);
      useMean = batchMean;
      useVar = batchVar;
    }
    Value y;
    if (training) {
      y = normalizeElementwise(
          rewriter, loc, x, {scale, bias, useMean, useVar},
          {channelMap, channelMap, channelMap, channelMap}, elem,
          [&](OpBuilder &b, Location l, Value v, ValueRange p) {
            auto c = [&](Value s) { return convertFloat(b, l, s, acc); };
            Value r = normalizeScalar(b, l, c(v), c(p[2]), c(p[3]), c(p[0]),
                                      c(p[1]), epsilon);
            return convertFloat(b, l, r, elem);
          });
    } else {
      // With the given statistics, y = x * a + c per channel, a = scale /
      // sqrt(var + epsilon) and c = B - mean * a computed once per channel
      // (as ONNX Runtime folds them into a preceding convolution): one
      // multiply-add per element, no division. With constant statistics
      // (initializers) a and c are constants computed here, in double:
      // computed by an op, the code generator's epilogue fusion recomputed
      // them in every tile of the convolution before (a square root and a
      // division per row of MobileNetV2's depthwise convolutions).
      SmallVector<Value> coefficients = foldCoefficients(
          rewriter, loc, {scale, bias, mean, var}, acc, epsilon);
      if (coefficients.empty()) {
        Value perChannel =
            tensor::EmptyOp::create(rewriter, loc, {channels}, acc);
        SmallVector<AffineMap> maps(6, rewriter.getMultiDimIdentityMap(1));
        auto generic = linalg::GenericOp::create(
            rewriter, loc,
            TypeRange{perChannel.getType(), perChannel.getType()},
            ValueRange{scale, bias, mean, var},
            ValueRange{perChannel, perChannel}, maps,
            {utils::IteratorType::parallel},
            [&](OpBuilder &b, Location l, ValueRange args) {
              auto c = [&](Value s) { return convertFloat(b, l, s, acc); };
              Value eps = createScalarConstant(b, l, acc, epsilon);
              Value a = arith::DivFOp::create(
                  b, l, c(args[0]),
                  math::SqrtOp::create(
                      b, l, arith::AddFOp::create(b, l, c(args[3]), eps)));
              Value shift = arith::SubFOp::create(
                  b, l, c(args[1]), arith::MulFOp::create(b, l, c(args[2]), a));
              linalg::YieldOp::create(b, l, ValueRange{a, shift});
            });
        coefficients.assign(generic.getResults().begin(),
                            generic.getResults().end());
      }
      y = normalizeElementwise(
          rewriter, loc, x, coefficients, {channelMap, channelMap}, elem,
          [&](OpBuilder &b, Location l, Value v, ValueRange p) {
            Value r = arith::AddFOp::create(
                b, l,
                arith::MulFOp::create(b, l, convertFloat(b, l, v, acc), p[0]),
                p[1]);
            return convertFloat(b, l, r, elem);
          });
    }
    SmallVector<Value> results = {castToType(rewriter, loc, y, resultType)};
    if (op.getRunningMean() || op.getRunningVar()) {
      if (!training)
        return emitLoweringError(
            op, "running_mean / running_var outputs need training_mode=1");
      double momentum = op.getMomentum().convertToDouble();
      auto update = [&](Value running, Value current, Value result) {
        auto type = getConvertedType(result);
        Type outElem = type.getElementType();
        Value out = tensor::EmptyOp::create(
            rewriter, loc, getDims(rewriter, loc, current), outElem);
        SmallVector<AffineMap> maps(3, rewriter.getMultiDimIdentityMap(1));
        Value r =
            linalg::GenericOp::create(
                rewriter, loc, TypeRange{out.getType()},
                ValueRange{running, current}, ValueRange{out}, maps,
                {utils::IteratorType::parallel},
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value run = convertFloat(b, l, args[0], acc);
                  Value m = createScalarConstant(b, l, acc, momentum);
                  Value rest = createScalarConstant(b, l, acc, 1 - momentum);
                  Value v = arith::AddFOp::create(
                      b, l, arith::MulFOp::create(b, l, run, m),
                      arith::MulFOp::create(b, l, args[1], rest));
                  linalg::YieldOp::create(b, l, convertFloat(b, l, v, outElem));
                })
                .getResult(0);
        return castToType(rewriter, loc, r, type);
      };
      if (op.getRunningMean())
        results.push_back(update(mean, batchMean, op.getRunningMean()));
      if (op.getRunningVar())
        results.push_back(update(var, batchVar, op.getRunningVar()));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// InstanceNormalization
//===----------------------------------------------------------------------===//

struct InstanceNormalizationLowering
    : public ONNXToLinalgPattern<InstanceNormalizationOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(InstanceNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = getConvertedType(op.getOutput());
    Value x = adaptor.getInput();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    if (!xType || xType.getRank() < 3)
      return emitLoweringError(op, "input needs a batch, a channel and at "
                                   "least one spatial dim");
    int64_t rank = xType.getRank();
    OpFoldResult channels = tensor::getMixedSize(rewriter, loc, x, 1);
    Value scale = adaptor.getScale(), bias = adaptor.getB();
    if (failed(
            checkChannelParam(rewriter, loc, op, scale, channels, "scale")) ||
        failed(checkChannelParam(rewriter, loc, op, bias, channels, "B")))
      return failure();
    Type elem = resultType.getElementType();
    Type acc = getAccumulatorType(elem);
    double epsilon = op.getEpsilon().convertToDouble();
    auto [mean, var] = meanAndVariance(rewriter, loc, x, {0, 1}, acc);
    AffineMap channelMap =
        AffineMap::get(rank, 0, {getAffineDimExpr(1, ctx)}, ctx);
    AffineMap statMap = AffineMap::get(
        rank, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)}, ctx);
    Value y = normalizeElementwise(
        rewriter, loc, x, {scale, bias, mean, var},
        {channelMap, channelMap, statMap, statMap}, elem,
        [&](OpBuilder &b, Location l, Value v, ValueRange p) {
          auto c = [&](Value s) { return convertFloat(b, l, s, acc); };
          Value r = normalizeScalar(b, l, c(v), p[2], p[3], c(p[0]), c(p[1]),
                                    epsilon);
          return convertFloat(b, l, r, elem);
        });
    rewriter.replaceOp(op, castToType(rewriter, loc, y, resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// LpNormalization
//===----------------------------------------------------------------------===//

struct LpNormalizationLowering : public ONNXToLinalgPattern<LpNormalizationOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(LpNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = getConvertedType(op.getOutput());
    Value x = adaptor.getInput();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    if (!xType || xType.getRank() == 0)
      return emitLoweringError(op, "input must have rank >= 1");
    int64_t rank = xType.getRank();
    int64_t axis = op.getAxis();
    if (axis < -rank || axis >= rank)
      return emitLoweringError(op, "axis " + Twine(axis) + " out of range");
    if (axis < 0)
      axis += rank;
    int64_t p = op.getP();
    if (p != 1 && p != 2)
      return emitLoweringError(op, "p must be 1 or 2");
    Type elem = resultType.getElementType();
    Type acc = getAccumulatorType(elem);
    SmallVector<int64_t> kept;
    SmallVector<AffineExpr> keptExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis) {
        kept.push_back(d);
        keptExprs.push_back(getAffineDimExpr(d, ctx));
      }
    Value sum =
        reduceDims(rewriter, loc, x, kept, acc,
                   createScalarConstant(rewriter, loc, acc, 0), {},
                   [&](OpBuilder &b, Location l, Value v, ValueRange, Value a) {
                     Value c = convertFloat(b, l, v, acc);
                     Value t =
                         p == 1 ? math::AbsFOp::create(b, l, c).getResult()
                                : arith::MulFOp::create(b, l, c, c).getResult();
                     return arith::AddFOp::create(b, l, a, t);
                   });
    Value y = normalizeElementwise(
        rewriter, loc, x, {sum}, {AffineMap::get(rank, 0, keptExprs, ctx)},
        elem, [&](OpBuilder &b, Location l, Value v, ValueRange s) {
          Value norm = p == 1 ? s[0] : math::SqrtOp::create(b, l, s[0]);
          Value r =
              arith::DivFOp::create(b, l, convertFloat(b, l, v, acc), norm);
          // A zero norm gives 0 (the reference's rule), not 0/0.
          Value zero = arith::ConstantOp::create(b, l, b.getZeroAttr(acc));
          Value isZero = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                               norm, zero);
          r = arith::SelectOp::create(b, l, isZero, zero, r);
          return convertFloat(b, l, r, elem);
        });
    rewriter.replaceOp(op, castToType(rewriter, loc, y, resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// LRN
//===----------------------------------------------------------------------===//

struct LRNLowering : public ONNXToLinalgPattern<LRNOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(LRNOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = getConvertedType(op.getY());
    Value x = adaptor.getX();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    if (!xType || xType.getRank() < 2)
      return emitLoweringError(op, "X needs a batch and a channel dim");
    if (!op.getSize())
      return emitLoweringError(op, "the size attribute is required");
    int64_t size = *op.getSize();
    if (size <= 0)
      return emitLoweringError(op, "size must be positive");
    int64_t rank = xType.getRank();
    Type elem = resultType.getElementType();
    Type acc = getAccumulatorType(elem);
    IndexMath m{rewriter, loc};

    // Squares summed over the window [c - floor((size-1)/2),
    // c + ceil((size-1)/2)] of channels: x padded with zeros on dim 1.
    // Channels beyond the tensor add nothing, so with a static channel count
    // C the window reaches at most C - 1 channels to either side (a huge
    // size neither pads nor loops more than C).
    int64_t before = (size - 1) / 2, after = size - 1 - (size - 1) / 2;
    if (!xType.isDynamicDim(1)) {
      int64_t reach = std::max<int64_t>(xType.getDimSize(1) - 1, 0);
      before = std::min(before, reach);
      after = std::min(after, reach);
    }
    SmallVector<OpFoldResult> low(rank, m.cst(0)), high(rank, m.cst(0));
    low[1] = m.cst(before);
    high[1] = m.cst(after);
    Value padded = padWith(rewriter, loc, x, low, high,
                           createScalarConstant(rewriter, loc, elem, 0));
    SmallVector<OpFoldResult> dims = getDims(rewriter, loc, x);
    Value init = createFilled(rewriter, loc, dims, acc,
                              createScalarConstant(rewriter, loc, acc, 0));
    Value window = tensor::EmptyOp::create(
        rewriter, loc, SmallVector<int64_t>{before + after + 1}, elem);
    int64_t numLoops = rank + 1;
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineExpr> inExprs, outExprs;
    for (int64_t i = 0; i < rank; ++i) {
      inExprs.push_back(i == 1 ? d(1) + d(rank) : d(i));
      outExprs.push_back(d(i));
    }
    SmallVector<AffineMap> maps = {AffineMap::get(numLoops, 0, inExprs, ctx),
                                   AffineMap::get(numLoops, 0, {d(rank)}, ctx),
                                   AffineMap::get(numLoops, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::parallel);
    iterators[rank] = utils::IteratorType::reduction;
    Value squares =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{init.getType()},
            ValueRange{padded, window}, ValueRange{init}, maps, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value v = convertFloat(b, l, args[0], acc);
              linalg::YieldOp::create(
                  b, l,
                  arith::AddFOp::create(b, l, args[2],
                                        arith::MulFOp::create(b, l, v, v))
                      .getResult());
            })
            .getResult(0);
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    double bias = op.getBias().convertToDouble();
    Value y = normalizeElementwise(
        rewriter, loc, x, {squares}, {rewriter.getMultiDimIdentityMap(rank)},
        elem, [&](OpBuilder &b, Location l, Value v, ValueRange s) {
          Value scaled = arith::MulFOp::create(
              b, l, createScalarConstant(b, l, acc, alpha / size), s[0]);
          Value base = arith::AddFOp::create(
              b, l, createScalarConstant(b, l, acc, bias), scaled);
          Value denom = math::PowFOp::create(
              b, l, base, createScalarConstant(b, l, acc, beta));
          Value r =
              arith::DivFOp::create(b, l, convertFloat(b, l, v, acc), denom);
          return convertFloat(b, l, r, elem);
        });
    rewriter.replaceOp(op, castToType(rewriter, loc, y, resultType));
    return success();
  }
};

} // namespace

void mlir::onnx::populateNormalizationToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<BatchNormalizationLowering, InstanceNormalizationLowering,
               LpNormalizationLowering, LRNLowering>(converter,
                                                     patterns.getContext());
}
