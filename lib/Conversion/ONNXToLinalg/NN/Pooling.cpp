//===- Pooling.cpp - Pools to linalg --------------------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MaxPool, AveragePool and LpPool pad their input (the lowest value for
// max, zeros for the sums) so that every window lies inside it: the pads
// (explicit or auto_pad) at the beginning, and at the end as much as the
// last window needs (ceil_mode windows may run past the pads). The windows
// are reduced by linalg.pooling_nc{w,hw}_{max,sum} for 1-D and 2-D float
// images, and otherwise by a linalg.generic with the same loops
// (n, c, out..., window...).
//
// AveragePool divides by the number of window elements inside the input
// (count_include_pad = 0) or inside the padded input (count_include_pad =
// 1); ceil_mode's overhang never counts. MaxPool's Indices are the row-major
// (storage_order = 0) or column-major (1) flat index of the maximum in the
// unpadded input, the first one on ties.
//
// The Global pools reduce all spatial dims with one linalg.generic.
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

/// The geometry of a pool: its window attributes, input dims, pads and
/// output dims.
struct PoolGeometry {
  WindowAttrs attrs;
  int64_t rank = 0; // spatial rank
  SmallVector<OpFoldResult> xDims;
  SmallVector<OpFoldResult> padBegin, padEnd;
  SmallVector<OpFoldResult> outDims; // [N, C, out...]
  /// The padding at the end that the last window needs.
  SmallVector<OpFoldResult> needEnd;
};

LogicalResult computeGeometry(Operation *op, OpBuilder &b, Location loc,
                              Value x, RankedTensorType resultType,
                              PoolGeometry &g) {
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  if (!xType || xType.getRank() < 3)
    return emitLoweringError(op, "X needs a batch, a channel and at least "
                                 "one spatial dim");
  auto kernelAttr = op->getAttrOfType<DenseI64ArrayAttr>("kernel_shape");
  g.rank = xType.getRank() - 2;
  if (!kernelAttr || kernelAttr.size() != g.rank)
    return emitLoweringError(op, "kernel_shape must have one value per "
                                 "spatial dim");
  if (failed(readWindowAttrs(op, kernelAttr.asArrayRef(), g.attrs)))
    return failure();
  bool ceilMode = false;
  if (auto a = op->getAttrOfType<IntegerAttr>("ceil_mode"))
    ceilMode = a.getInt() != 0;
  IndexMath m{b, loc};
  g.xDims = getDims(b, loc, x);
  SmallVector<OpFoldResult> inDims(g.xDims.begin() + 2, g.xDims.end());
  computeSpatialPads(m, g.attrs, inDims, g.padBegin, g.padEnd);
  g.outDims = {g.xDims[0], g.xDims[1]};
  for (int64_t i = 0; i < g.rank; ++i) {
    int64_t s = g.attrs.strides[i];
    int64_t effective =
        window::effectiveKernel(g.attrs.kernel[i], g.attrs.dilations[i]);
    if (!window::isSame(g.attrs.autoPad))
      checkWindowFits(m, op, inDims[i], g.padBegin[i], g.padEnd[i],
                      g.attrs.kernel[i], g.attrs.dilations[i], i);
    OpFoldResult out = window::outputSize(
        m, g.attrs.autoPad, inDims[i], g.padBegin[i], g.padEnd[i],
        g.attrs.kernel[i], s, g.attrs.dilations[i], ceilMode);
    // A static result dim is the output size; one computed at run time must
    // agree with it (a declared type may say otherwise).
    if (!resultType.isDynamicDim(2 + i)) {
      int64_t size = resultType.getDimSize(2 + i);
      if (!getConstantIntValue(out))
        emitRuntimeCheck(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                  m.value(out), m.value(m.cst(size))),
            op,
            "the output's spatial dim " + Twine(i) + " is not " + Twine(size) +
                " at run time, the size its inferred or declared type gives");
      out = m.cst(size);
    }
    g.outDims.push_back(out);
    OpFoldResult need =
        m.add(m.mul(m.sub(out, m.cst(1)), m.cst(s)), m.cst(effective));
    g.needEnd.push_back(
        m.max(m.cst(0), m.sub(need, m.add(inDims[i], g.padBegin[i]))));
  }
  return success();
}

/// `x` padded with `value` for the windows of `g`.
Value padForWindows(OpBuilder &b, Location loc, Value x, const PoolGeometry &g,
                    Value value) {
  IndexMath m{b, loc};
  SmallVector<OpFoldResult> low = {m.cst(0), m.cst(0)},
                            high = {m.cst(0), m.cst(0)};
  low.append(g.padBegin);
  high.append(g.needEnd);
  return padWith(b, loc, x, low, high, value);
}

/// `x` padded with zeros for the windows of `g`, and zeros of `acc` in the
/// output dims to sum the windows into.
std::pair<Value, Value> zeroPaddedSum(OpBuilder &b, Location loc, Value x,
                                      const PoolGeometry &g, Type elem,
                                      Type acc) {
  Value padded =
      padForWindows(b, loc, x, g, createScalarConstant(b, loc, elem, 0));
  Value init = createFilled(b, loc, g.outDims, acc,
                            createScalarConstant(b, loc, acc, 0));
  return {padded, init};
}

/// The loops (n, c, out..., window...) of a pool over `padded`: maps of the
/// input, the window tensor and an output.
SmallVector<AffineMap> windowMaps(MLIRContext *ctx, const PoolGeometry &g,
                                  unsigned numOutputs) {
  int64_t r = g.rank, numLoops = 2 + 2 * r;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> in = {d(0), d(1)}, window, out = {d(0), d(1)};
  for (int64_t i = 0; i < r; ++i) {
    in.push_back(d(2 + i) * g.attrs.strides[i] +
                 d(2 + r + i) * g.attrs.dilations[i]);
    window.push_back(d(2 + r + i));
    out.push_back(d(2 + i));
  }
  SmallVector<AffineMap> maps = {AffineMap::get(numLoops, 0, in, ctx),
                                 AffineMap::get(numLoops, 0, window, ctx)};
  for (unsigned i = 0; i < numOutputs; ++i)
    maps.push_back(AffineMap::get(numLoops, 0, out, ctx));
  return maps;
}

SmallVector<utils::IteratorType> windowIterators(const PoolGeometry &g) {
  SmallVector<utils::IteratorType> iterators(2 + 2 * g.rank,
                                             utils::IteratorType::parallel);
  for (int64_t i = 2 + g.rank; i < 2 + 2 * g.rank; ++i)
    iterators[i] = utils::IteratorType::reduction;
  return iterators;
}

Value windowTensor(OpBuilder &b, Location loc, const PoolGeometry &g,
                   Type elem) {
  return tensor::EmptyOp::create(b, loc, g.attrs.kernel, elem);
}

/// Reduces each window of `padded` into `init` with `combine(value, acc)`.
Value reduceWindows(
    OpBuilder &b, Location loc, Value padded, const PoolGeometry &g, Value init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  Value window = windowTensor(
      b, loc, g, cast<RankedTensorType>(padded.getType()).getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{padded, window},
             ValueRange{init}, windowMaps(b.getContext(), g, 1),
             windowIterators(g),
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc,
                                       combine(nb, nloc, args[0], args[2]));
             })
      .getResult(0);
}

Attribute i64Elements(OpBuilder &b, ArrayRef<int64_t> v) {
  return DenseIntElementsAttr::get(
      RankedTensorType::get({static_cast<int64_t>(v.size())}, b.getI64Type()),
      v);
}

/// A named linalg pooling op for 1-D / 2-D windows, or null.
template <typename Op1D, typename Op2D>
Value namedPool(OpBuilder &b, Location loc, Value padded, const PoolGeometry &g,
                Value init) {
  if (g.rank != 1 && g.rank != 2)
    return Value();
  Value window = windowTensor(
      b, loc, g, cast<RankedTensorType>(padded.getType()).getElementType());
  Attribute strides = i64Elements(b, g.attrs.strides);
  Attribute dilations = i64Elements(b, g.attrs.dilations);
  if (g.rank == 1)
    return Op1D::create(b, loc, TypeRange{init.getType()},
                        ValueRange{padded, window}, ValueRange{init}, strides,
                        dilations)
        .getResult(0);
  return Op2D::create(b, loc, TypeRange{init.getType()},
                      ValueRange{padded, window}, ValueRange{init}, strides,
                      dilations)
      .getResult(0);
}

//===----------------------------------------------------------------------===//
// MaxPool
//===----------------------------------------------------------------------===//

Value maxScalars(OpBuilder &b, Location loc, Value x, Value y,
                 bool isUnsigned) {
  if (isa<FloatType>(x.getType()))
    return arith::MaximumFOp::create(b, loc, x, y);
  if (isUnsigned)
    return arith::MaxUIOp::create(b, loc, x, y);
  return arith::MaxSIOp::create(b, loc, x, y);
}

struct MaxPoolLowering : public ONNXToLinalgPattern<MaxPoolOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(MaxPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = getConvertedType(op.getY());
    Value x = adaptor.getX();
    PoolGeometry g;
    if (failed(computeGeometry(op, rewriter, loc, x, resultType, g)))
      return failure();
    int64_t storageOrder = op.getStorageOrder();
    if (storageOrder != 0 && storageOrder != 1)
      return emitLoweringError(op, "storage_order must be 0 or 1");
    Type elem = resultType.getElementType();
    bool isUnsigned = isUnsignedElement(op.getX().getType());
    Value lowest = createLowest(rewriter, loc, elem, isUnsigned);
    Value padded = padForWindows(rewriter, loc, x, g, lowest);
    Value init = createFilled(rewriter, loc, g.outDims, elem, lowest);

    if (!op.getIndices()) {
      Value y;
      if (isa<FloatType>(elem))
        y = namedPool<linalg::PoolingNcwMaxOp, linalg::PoolingNchwMaxOp>(
            rewriter, loc, padded, g, init);
      if (!y)
        y = reduceWindows(rewriter, loc, padded, g, init,
                          [&](OpBuilder &b, Location l, Value v, Value acc) {
                            return maxScalars(b, l, v, acc, isUnsigned);
                          });
      rewriter.replaceOp(op, castToType(rewriter, loc, y, resultType));
      return success();
    }

    // With Indices: the value and the flat index of the first maximum.
    auto indicesType = getConvertedType(op.getIndices());
    IndexMath m{rewriter, loc};
    Value indexInit = createFilled(
        rewriter, loc, g.outDims, rewriter.getI64Type(),
        createScalarConstant(rewriter, loc, rewriter.getI64Type(), 0));
    SmallVector<Value> inDims, padBegin;
    for (int64_t i = 0; i < g.rank; ++i) {
      inDims.push_back(m.value(g.xDims[2 + i]));
      padBegin.push_back(m.value(g.padBegin[i]));
    }
    Value channels = m.value(g.xDims[1]);
    int64_t r = g.rank;
    Value window = windowTensor(rewriter, loc, g, elem);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType(), indexInit.getType()},
        ValueRange{padded, window}, ValueRange{init, indexInit},
        windowMaps(rewriter.getContext(), g, 2), windowIterators(g),
        [&](OpBuilder &b, Location l, ValueRange args) {
          // The position in the unpadded input.
          SmallVector<Value> pos;
          for (int64_t i = 0; i < r; ++i) {
            Value o = linalg::IndexOp::create(b, l, 2 + i);
            Value k = linalg::IndexOp::create(b, l, 2 + r + i);
            Value p = arith::AddIOp::create(
                b, l,
                arith::MulIOp::create(
                    b, l, o,
                    arith::ConstantIndexOp::create(b, l, g.attrs.strides[i])),
                arith::MulIOp::create(b, l, k,
                                      arith::ConstantIndexOp::create(
                                          b, l, g.attrs.dilations[i])));
            pos.push_back(arith::SubIOp::create(b, l, p, padBegin[i]));
          }
          Value inner;
          if (storageOrder == 0) {
            inner = pos[0];
            for (int64_t i = 1; i < r; ++i)
              inner = arith::AddIOp::create(
                  b, l, arith::MulIOp::create(b, l, inner, inDims[i]), pos[i]);
          } else {
            inner = pos[r - 1];
            for (int64_t i = r - 2; i >= 0; --i)
              inner = arith::AddIOp::create(
                  b, l, arith::MulIOp::create(b, l, inner, inDims[i]), pos[i]);
          }
          Value plane = inDims[0];
          for (int64_t i = 1; i < r; ++i)
            plane = arith::MulIOp::create(b, l, plane, inDims[i]);
          Value n = linalg::IndexOp::create(b, l, 0);
          Value c = linalg::IndexOp::create(b, l, 1);
          Value nc = arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, n, channels), c);
          Value flat = arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, nc, plane), inner);
          Value flat64 = arith::IndexCastOp::create(b, l, b.getI64Type(), flat);
          Value greater;
          if (isa<FloatType>(elem))
            greater = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT,
                                            args[0], args[2]);
          else
            greater =
                arith::CmpIOp::create(b, l,
                                      isUnsigned ? arith::CmpIPredicate::ugt
                                                 : arith::CmpIPredicate::sgt,
                                      args[0], args[2]);
          // The first window element is taken whatever it is, so that the
          // index always points at an element of the window.
          Value first = arith::ConstantIntOp::create(b, l, 1, 1);
          for (int64_t i = 0; i < r; ++i) {
            Value k = linalg::IndexOp::create(b, l, 2 + r + i);
            first = arith::AndIOp::create(
                b, l, first,
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, k,
                                      arith::ConstantIndexOp::create(b, l, 0)));
          }
          // A padding element is never the maximum.
          Value inside = arith::ConstantIntOp::create(b, l, 1, 1);
          Value zero = arith::ConstantIndexOp::create(b, l, 0);
          for (int64_t i = 0; i < r; ++i) {
            inside = arith::AndIOp::create(
                b, l, inside,
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, pos[i],
                                      zero));
            inside = arith::AndIOp::create(
                b, l, inside,
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, pos[i],
                                      inDims[i]));
          }
          Value take = arith::AndIOp::create(
              b, l, inside, arith::OrIOp::create(b, l, greater, first));
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(b, l, take, args[0], args[2]),
                         arith::SelectOp::create(b, l, take, flat64, args[3])});
        });
    rewriter.replaceOp(
        op, {castToType(rewriter, loc, generic.getResult(0), resultType),
             castToType(rewriter, loc, generic.getResult(1), indicesType)});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// AveragePool, LpPool
//===----------------------------------------------------------------------===//

/// The number of k in [0, kernel) with lo <= start + k * dilation < hi.
Value countInRange(OpBuilder &b, Location loc, Value start, Value lo, Value hi,
                   int64_t kernel, int64_t dilation) {
  Value d = arith::ConstantIndexOp::create(b, loc, dilation);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value kLo = arith::MaxSIOp::create(
      b, loc, zero,
      arith::CeilDivSIOp::create(b, loc,
                                 arith::SubIOp::create(b, loc, lo, start), d));
  Value last = arith::SubIOp::create(
      b, loc, arith::SubIOp::create(b, loc, hi, one), start);
  Value kHi = arith::MinSIOp::create(
      b, loc, arith::ConstantIndexOp::create(b, loc, kernel - 1),
      arith::FloorDivSIOp::create(b, loc, last, d));
  Value n = arith::AddIOp::create(b, loc,
                                  arith::SubIOp::create(b, loc, kHi, kLo), one);
  return arith::MaxSIOp::create(b, loc, zero, n);
}

struct AveragePoolLowering : public ONNXToLinalgPattern<AveragePoolOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(AveragePoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = getConvertedType(op.getY());
    Value x = adaptor.getX();
    PoolGeometry g;
    if (failed(computeGeometry(op, rewriter, loc, x, resultType, g)))
      return failure();
    Type elem = resultType.getElementType();
    Type acc = getAccumulatorType(elem);
    auto [padded, init] = zeroPaddedSum(rewriter, loc, x, g, elem, acc);
    Value sum;
    if (acc == elem)
      sum = namedPool<linalg::PoolingNcwSumOp, linalg::PoolingNchwSumOp>(
          rewriter, loc, padded, g, init);
    if (!sum)
      sum = reduceWindows(rewriter, loc, padded, g, init,
                          [&](OpBuilder &b, Location l, Value v, Value a) {
                            return arith::AddFOp::create(
                                b, l, a, convertFloat(b, l, v, acc));
                          });

    // The divisor: static when no window ever leaves the input.
    bool includePad = op.getCountIncludePad() != 0;
    IndexMath m{rewriter, loc};
    bool uniform = true;
    int64_t windowSize = 1;
    for (int64_t i = 0; i < g.rank; ++i) {
      windowSize *= g.attrs.kernel[i];
      if (!isConstantIntValue(g.needEnd[i], 0) ||
          (!includePad && !isConstantIntValue(g.padBegin[i], 0)))
        uniform = false;
      if (!includePad && !isConstantIntValue(g.padEnd[i], 0))
        uniform = false;
    }
    // With count_include_pad, windows inside the pads count them all; only
    // the ceil_mode overhang past the end pads is not counted.
    if (includePad && !uniform) {
      uniform = true;
      for (int64_t i = 0; i < g.rank; ++i) {
        std::optional<int64_t> need = getConstantIntValue(g.needEnd[i]);
        std::optional<int64_t> end = getConstantIntValue(g.padEnd[i]);
        if (!need || !end || *need > *end)
          uniform = false;
      }
    }
    SmallVector<Value> lo, hi, padBegin;
    for (int64_t i = 0; i < g.rank; ++i) {
      Value in = m.value(g.xDims[2 + i]);
      Value pb = m.value(g.padBegin[i]);
      padBegin.push_back(pb);
      if (includePad) {
        lo.push_back(arith::ConstantIndexOp::create(rewriter, loc, 0));
        hi.push_back(arith::AddIOp::create(
            rewriter, loc, arith::AddIOp::create(rewriter, loc, in, pb),
            m.value(g.padEnd[i])));
      } else {
        lo.push_back(pb);
        hi.push_back(arith::AddIOp::create(rewriter, loc, in, pb));
      }
    }
    int64_t rank = g.rank + 2;
    Value out = tensor::EmptyOp::create(rewriter, loc, g.outDims, elem);
    SmallVector<AffineMap> maps(2, rewriter.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Value y =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{out.getType()}, ValueRange{sum},
            ValueRange{out}, maps, iterators,
            [&](OpBuilder &b, Location l, ValueRange args) {
              Value count;
              if (uniform) {
                count = createScalarConstant(b, l, acc, windowSize);
              } else {
                Value n = arith::ConstantIndexOp::create(b, l, 1);
                for (int64_t i = 0; i < g.rank; ++i) {
                  // Window start in padded coordinates.
                  Value start = arith::MulIOp::create(
                      b, l, linalg::IndexOp::create(b, l, 2 + i),
                      arith::ConstantIndexOp::create(b, l, g.attrs.strides[i]));
                  n = arith::MulIOp::create(
                      b, l, n,
                      countInRange(b, l, start, lo[i], hi[i], g.attrs.kernel[i],
                                   g.attrs.dilations[i]));
                }
                count = arith::SIToFPOp::create(
                    b, l, acc,
                    arith::IndexCastOp::create(b, l, b.getI64Type(), n));
              }
              Value avg = arith::DivFOp::create(b, l, args[0], count);
              linalg::YieldOp::create(b, l, convertFloat(b, l, avg, elem));
            })
            .getResult(0);
    rewriter.replaceOp(op, castToType(rewriter, loc, y, resultType));
    return success();
  }
};

/// |v|^p in `acc`.
Value absPow(OpBuilder &b, Location loc, Value v, int64_t p, Type acc) {
  Value a = math::AbsFOp::create(b, loc, convertFloat(b, loc, v, acc));
  if (p == 1)
    return a;
  if (p == 2)
    return arith::MulFOp::create(b, loc, a, a);
  return math::PowFOp::create(b, loc, a, createScalarConstant(b, loc, acc, p));
}

/// s^(1/p) in `acc`.
Value rootOf(OpBuilder &b, Location loc, Value s, int64_t p) {
  if (p == 1)
    return s;
  if (p == 2)
    return math::SqrtOp::create(b, loc, s);
  return math::PowFOp::create(
      b, loc, s, createScalarConstant(b, loc, s.getType(), 1.0 / p));
}

struct LpPoolLowering : public ONNXToLinalgPattern<LpPoolOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(LpPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = getConvertedType(op.getY());
    Value x = adaptor.getX();
    PoolGeometry g;
    if (failed(computeGeometry(op, rewriter, loc, x, resultType, g)))
      return failure();
    int64_t p = op.getP();
    if (p <= 0)
      return emitLoweringError(op, "p must be positive");
    Type elem = resultType.getElementType();
    Type acc = getAccumulatorType(elem);
    auto [padded, init] = zeroPaddedSum(rewriter, loc, x, g, elem, acc);
    Value sum = reduceWindows(rewriter, loc, padded, g, init,
                              [&](OpBuilder &b, Location l, Value v, Value a) {
                                return arith::AddFOp::create(
                                    b, l, a, absPow(b, l, v, p, acc));
                              });
    Value y = mapTensor(rewriter, loc, sum, elem,
                        [&](OpBuilder &b, Location l, Value s) {
                          return convertFloat(b, l, rootOf(b, l, s, p), elem);
                        });
    rewriter.replaceOp(op, castToType(rewriter, loc, y, resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Global pools
//===----------------------------------------------------------------------===//

enum class GlobalKind { Average, Max, Lp };

/// Reduces the spatial dims of `x` [N, C, S...] with `combine(value, acc)`
/// from `initValue` into [N, C], then finishes each sum with
/// `finish(acc, count)` into [N, C, 1...] of `resultType`.
Value buildGlobalPool(
    OpBuilder &b, Location loc, Value x, RankedTensorType resultType, Type acc,
    Value initValue,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
    function_ref<Value(OpBuilder &, Location, Value, Value)> finish) {
  MLIRContext *ctx = b.getContext();
  auto xType = cast<RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  SmallVector<OpFoldResult> dims = getDims(b, loc, x);
  Value init = createFilled(b, loc, {dims[0], dims[1]}, acc, initValue);
  SmallVector<AffineMap> maps = {
      b.getMultiDimIdentityMap(rank),
      AffineMap::get(
          rank, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)}, ctx)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  iterators[0] = iterators[1] = utils::IteratorType::parallel;
  Value reduced =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{x}, ValueRange{init},
          maps, iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(nb, l, combine(nb, l, args[0], args[1]));
          })
          .getResult(0);
  IndexMath m{b, loc};
  OpFoldResult count = m.cst(1);
  for (int64_t i = 2; i < rank; ++i)
    count = m.mul(count, dims[i]);
  Value countValue = m.value(count);
  Type elem = resultType.getElementType();
  Value finished =
      mapTensor(b, loc, reduced, elem, [&](OpBuilder &nb, Location l, Value v) {
        return finish(nb, l, v, countValue);
      });
  SmallVector<OpFoldResult> outDims = {dims[0], dims[1]};
  outDims.append(rank - 2, m.cst(1));
  SmallVector<ReassociationIndices> groups = {{0}, {1}};
  for (int64_t i = 2; i < rank; ++i)
    groups.back().push_back(i);
  return tensor::ExpandShapeOp::create(b, loc, typeOfDims(outDims, elem),
                                       finished, groups, outDims);
}

template <typename OpTy, GlobalKind kind>
struct GlobalPoolLowering : public ONNXToLinalgPattern<OpTy> {
  using ONNXToLinalgPattern<OpTy>::ONNXToLinalgPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = this->getConvertedType(op.getY());
    Value x = adaptor.getX();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    if (!xType || xType.getRank() < 2)
      return emitLoweringError(op, "X needs a batch and a channel dim");
    Type elem = resultType.getElementType();
    Type acc = getAccumulatorType(elem);
    int64_t p = 2;
    if constexpr (kind == GlobalKind::Lp) {
      p = op.getP();
      if (p <= 0)
        return emitLoweringError(op, "p must be positive");
    }
    Value initValue = kind == GlobalKind::Max
                          ? createLowest(rewriter, loc, acc, false)
                          : createScalarConstant(rewriter, loc, acc, 0);
    Value y = buildGlobalPool(
        rewriter, loc, x, resultType, acc, initValue,
        [&](OpBuilder &b, Location l, Value v, Value a) -> Value {
          if (kind == GlobalKind::Max)
            return arith::MaximumFOp::create(b, l, a,
                                             convertFloat(b, l, v, acc));
          if (kind == GlobalKind::Lp)
            return arith::AddFOp::create(b, l, a, absPow(b, l, v, p, acc));
          return arith::AddFOp::create(b, l, a, convertFloat(b, l, v, acc));
        },
        [&](OpBuilder &b, Location l, Value a, Value count) -> Value {
          if (kind == GlobalKind::Average) {
            Value n = arith::SIToFPOp::create(
                b, l, acc,
                arith::IndexCastOp::create(b, l, b.getI64Type(), count));
            a = arith::DivFOp::create(b, l, a, n);
          } else if (kind == GlobalKind::Lp) {
            a = rootOf(b, l, a, p);
          }
          return convertFloat(b, l, a, elem);
        });
    rewriter.replaceOp(op, castToType(rewriter, loc, y, resultType));
    return success();
  }
};

} // namespace

void mlir::onnx::populatePoolingToLinalgPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<MaxPoolLowering, AveragePoolLowering, LpPoolLowering,
               GlobalPoolLowering<GlobalAveragePoolOp, GlobalKind::Average>,
               GlobalPoolLowering<GlobalMaxPoolOp, GlobalKind::Max>,
               GlobalPoolLowering<GlobalLpPoolOp, GlobalKind::Lp>>(
      converter, patterns.getContext());
}
