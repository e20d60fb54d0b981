//===- Reduction.cpp - Reductions, arg-reductions, scans and TopK ---------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ReduceSum/Mean/Max/Min/Prod (axes constant or computed at run time),
// ArgMax/ArgMin, Hardmax, CumSum, CumProd and TopK.
//
// Reductions with constant axes are one linalg.reduce (a tensor.expand_shape
// puts the kept unit dims back). Axes known only at run time are turned
// into a per-dim "is reduced" mask; the input is then viewed (tensor.reshape,
// no copy) with each dim d split in two, (out_d, red_d), one of which is 1:
// a linalg.reduce over the odd dims gives the keepdims result whatever the
// axes are, and a second reshape drops the unit dims when keepdims is 0.
//
// Sums, means and products of float16 or bfloat16 elements accumulate in
// float32 and are rounded to the type once, at the end.
//
// Empty reductions give the identity of the reduction (ReduceMax of nothing
// is -inf for floats, the smallest value for integers); Max/Min propagate
// NaN. ArgMax/ArgMin and TopK order ties by index as the spec says, and a
// NaN compares above every number (numpy's argmax/sort).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::onnx;

namespace {

enum class ReduceKind { Sum, Mean, Max, Min, Prod };

Value cstIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// `value` as a tensor of `type` (a tensor.cast when the static sizes
/// differ).
Value castTensor(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

/// The smallest (`max` false) or largest value of an element type; -inf and
/// +inf for floats.
Value extremeValue(OpBuilder &b, Location loc, Type type, bool isUnsigned,
                   bool largest) {
  if (auto f = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(
        b, loc, type,
        b.getFloatAttr(type, APFloat::getInf(f.getFloatSemantics(), !largest)));
  unsigned width = type.getIntOrFloatBitWidth();
  APInt v = isUnsigned ? (largest ? APInt::getMaxValue(width)
                                  : APInt::getMinValue(width))
                       : (largest ? APInt::getSignedMaxValue(width)
                                  : APInt::getSignedMinValue(width));
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, v));
}

/// What a reduction computes on scalars of one element type.
struct Reducer {
  ReduceKind kind;
  Type type;
  bool isUnsigned;

  bool isFloat() const { return isa<FloatType>(type); }

  /// Whether the elements accumulate in f32: a sum, mean or product of f16
  /// or bf16 elements, rounded to the type once at the end (as the GPU
  /// reduction kernels do, and ONNX Runtime's half-precision kernels). A
  /// maximum or minimum is exact in any type.
  bool wide() const {
    return isa<Float16Type, BFloat16Type>(type) && kind != ReduceKind::Max &&
           kind != ReduceKind::Min;
  }
  /// The type the elements accumulate in.
  Type accType() const {
    return wide() ? Float32Type::get(type.getContext()) : type;
  }

  Value identity(OpBuilder &b, Location loc) const {
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      return cst(b, loc, accType(), 0);
    case ReduceKind::Prod:
      return cst(b, loc, accType(), 1);
    case ReduceKind::Max:
      return extremeValue(b, loc, type, isUnsigned, /*largest=*/false);
    case ReduceKind::Min:
      return extremeValue(b, loc, type, isUnsigned, /*largest=*/true);
    }
    llvm_unreachable("reduce kind");
  }

  Value combine(OpBuilder &b, Location loc, Value acc, Value x) const {
    bool f = isFloat();
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      return f ? (Value)arith::AddFOp::create(b, loc, acc, x)
               : (Value)arith::AddIOp::create(b, loc, acc, x);
    case ReduceKind::Prod:
      return f ? (Value)arith::MulFOp::create(b, loc, acc, x)
               : (Value)arith::MulIOp::create(b, loc, acc, x);
    case ReduceKind::Max:
      return f            ? (Value)arith::MaximumFOp::create(b, loc, acc, x)
             : isUnsigned ? (Value)arith::MaxUIOp::create(b, loc, acc, x)
                          : (Value)arith::MaxSIOp::create(b, loc, acc, x);
    case ReduceKind::Min:
      return f            ? (Value)arith::MinimumFOp::create(b, loc, acc, x)
             : isUnsigned ? (Value)arith::MinUIOp::create(b, loc, acc, x)
                          : (Value)arith::MinSIOp::create(b, loc, acc, x);
    }
    llvm_unreachable("reduce kind");
  }
};

/// linalg.reduce of `input` over `dims` into a tensor of `outDims`, of the
/// reducer's accumulator type (narrowResult rounds it to the type).
Value buildReduce(OpBuilder &b, Location loc, Value input,
                  ArrayRef<int64_t> dims, ArrayRef<OpFoldResult> outDims,
                  const Reducer &reducer) {
  Value init = tensor::EmptyOp::create(b, loc, outDims, reducer.accType());
  Value filled = linalg::FillOp::create(b, loc, reducer.identity(b, loc), init)
                     .getResult(0);
  auto reduce = linalg::ReduceOp::create(
      b, loc, ValueRange{input}, ValueRange{filled}, dims,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value x = args[0];
        if (reducer.wide())
          x = arith::ExtFOp::create(nb, nloc, reducer.accType(), x);
        linalg::YieldOp::create(nb, nloc,
                                reducer.combine(nb, nloc, args[1], x));
      });
  return reduce.getResult(0);
}

/// An accumulated result (buildReduce, divideByCount) rounded to the
/// reducer's type, when it accumulated wider.
Value narrowResult(OpBuilder &b, Location loc, Value acc,
                   const Reducer &reducer) {
  if (!reducer.wide())
    return acc;
  auto type = cast<RankedTensorType>(acc.getType());
  Value init =
      tensor::EmptyOp::create(b, loc, getDims(b, loc, acc), reducer.type);
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(type.getRank()));
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{acc},
             ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(
                   nb, nloc,
                   arith::TruncFOp::create(nb, nloc, reducer.type, args[0])
                       .getResult());
             })
      .getResult(0);
}

/// Divides every element of `sum` by `count` (an index), for ReduceMean.
/// Integers divide with truncation; a count of 0 leaves integer sums (0) as
/// they are and makes float means NaN (0/0).
Value divideByCount(OpBuilder &b, Location loc, Value sum, Value count,
                    const Reducer &reducer) {
  Type t = reducer.accType();
  Value divisor;
  if (reducer.isFloat()) {
    Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
    divisor = arith::SIToFPOp::create(b, loc, t, i64);
  } else {
    Value zero = cstIndex(b, loc, 0);
    Value isZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, count, zero);
    Value safe =
        arith::SelectOp::create(b, loc, isZero, cstIndex(b, loc, 1), count);
    divisor = arith::IndexCastOp::create(b, loc, t, safe);
  }
  auto type = cast<RankedTensorType>(sum.getType());
  Value init = tensor::EmptyOp::create(b, loc, getDims(b, loc, sum), t);
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(type.getRank()));
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{sum}, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value r = reducer.isFloat() ? (Value)arith::DivFOp::create(
                                                 nb, nloc, args[0], divisor)
                         : reducer.isUnsigned
                             ? (Value)arith::DivUIOp::create(nb, nloc, args[0],
                                                             divisor)
                             : (Value)arith::DivSIOp::create(nb, nloc, args[0],
                                                             divisor);
               linalg::YieldOp::create(nb, nloc, r);
             })
      .getResult(0);
}

/// Inserts unit dims at the positions `unitDims` (sorted) of a tensor of
/// rank `rank` - |unitDims|.
Value expandUnitDims(OpBuilder &b, Location loc, Value value, int64_t rank,
                     ArrayRef<int64_t> unitDims) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices leading;
  int64_t src = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(unitDims, d)) {
      shape.push_back(1);
      if (groups.empty())
        leading.push_back(d);
      else
        groups.back().push_back(d);
      continue;
    }
    shape.push_back(type.getDimSize(src++));
    groups.push_back(leading);
    leading.clear();
    groups.back().push_back(d);
  }
  if (type.getRank() == 0)
    groups.clear();
  auto expanded = RankedTensorType::get(shape, type.getElementType());
  return tensor::ExpandShapeOp::create(b, loc, expanded, value, groups);
}

/// The normalized (non-negative) form of `axis` for a rank, or nullopt when
/// out of range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1))
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

/// `axis` normalized for `rank`, or a lowering error on `op` when it is out
/// of range (a rank-0 tensor has no axis).
FailureOr<int64_t> checkedAxis(Operation *op, int64_t axis, int64_t rank) {
  std::optional<int64_t> d = normalizeAxis(axis, rank);
  if (!d || rank == 0)
    return emitLoweringError(
        op, "axis " + Twine(axis) + " is out of range for rank " + Twine(rank));
  return *d;
}

//===----------------------------------------------------------------------===//
// Reduce*
//===----------------------------------------------------------------------===//

template <typename OpTy, ReduceKind Kind>
struct ReduceLowering : ONNXToLinalgPattern<OpTy> {
  using ONNXToLinalgPattern<OpTy>::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto inType = dyn_cast<RankedTensorType>(data.getType());
    auto resultType = this->getConvertedType(op);
    if (!inType || !resultType)
      return emitLoweringError(op, "the data and the result must be ranked");
    int64_t rank = inType.getRank();
    bool keepdims = op.getKeepdims() != 0;
    bool noop = op.getNoopWithEmptyAxes() != 0;
    Reducer reducer{Kind, inType.getElementType(),
                    isUnsignedElement(op.getData().getType())};
    // ReduceMax/Min of bool: False < True.
    if (reducer.type.isInteger(1))
      reducer.isUnsigned = true;

    std::optional<SmallVector<int64_t>> axes;
    Value axesValue = adaptor.getAxes();
    if (!axesValue)
      axes.emplace();
    else
      axes = getConstantIntValues(axesValue);
    if (!axes)
      return lowerDynamicAxes(op, rewriter, data, axesValue, resultType,
                              reducer, keepdims, noop);

    // Constant axes.
    if (axes->empty()) {
      if (noop) {
        rewriter.replaceOp(op, castTensor(rewriter, loc, data, resultType));
        return success();
      }
      for (int64_t d = 0; d < rank; ++d)
        axes->push_back(d);
    }
    SmallVector<int64_t> dims;
    for (int64_t a : *axes) {
      FailureOr<int64_t> d = checkedAxis(op, a, rank);
      if (failed(d))
        return failure();
      if (!llvm::is_contained(dims, *d))
        dims.push_back(*d);
    }
    llvm::sort(dims);

    SmallVector<OpFoldResult> inDims = getDims(rewriter, loc, data);
    SmallVector<OpFoldResult> outDims;
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(dims, d))
        outDims.push_back(inDims[d]);
    Value result = buildReduce(rewriter, loc, data, dims, outDims, reducer);
    if (Kind == ReduceKind::Mean) {
      Value count = cstIndex(rewriter, loc, 1);
      for (int64_t d : dims)
        count = arith::MulIOp::create(
            rewriter, loc, count,
            getValueOrCreateConstantIndexOp(rewriter, loc, inDims[d]));
      result = divideByCount(rewriter, loc, result, count, reducer);
    }
    result = narrowResult(rewriter, loc, result, reducer);
    if (keepdims)
      result = expandUnitDims(rewriter, loc, result, rank, dims);
    if (cast<RankedTensorType>(result.getType()).getRank() !=
        resultType.getRank())
      return emitLoweringError(op, "the result rank does not match the axes");
    rewriter.replaceOp(op, castTensor(rewriter, loc, result, resultType));
    return success();
  }

  /// Axes known at run time: see the file comment.
  LogicalResult lowerDynamicAxes(OpTy op, ConversionPatternRewriter &b,
                                 Value data, Value axes,
                                 RankedTensorType resultType,
                                 const Reducer &reducer, bool keepdims,
                                 bool noop) const {
    Location loc = op.getLoc();
    auto inType = cast<RankedTensorType>(data.getType());
    int64_t rank = inType.getRank();
    auto axesType = dyn_cast<RankedTensorType>(axes.getType());
    if (!axesType || axesType.getRank() != 1)
      return emitLoweringError(op, "axes must be a 1-D tensor");
    if (rank > 63)
      return emitLoweringError(op, "run-time axes need a rank below 64");
    if (keepdims && resultType.getRank() != rank)
      return emitLoweringError(op, "the result rank must be the input's");
    if (!keepdims && resultType.getRank() > rank)
      return emitLoweringError(op, "the result rank is above the input's");

    // The mask of reduced dims, one bit per dim.
    Type i64 = b.getI64Type();
    Value count = tensor::DimOp::create(b, loc, axes, 0);
    Value rankValue = cst(b, loc, i64, rank);
    Value zero64 = cst(b, loc, i64, 0);
    auto loop = scf::ForOp::create(
        b, loc, cstIndex(b, loc, 0), count, cstIndex(b, loc, 1),
        ValueRange{zero64},
        [&](OpBuilder &nb, Location nloc, Value k, ValueRange iter) {
          Value a = tensor::ExtractOp::create(nb, nloc, axes, ValueRange{k});
          Value negative = arith::CmpIOp::create(
              nb, nloc, arith::CmpIPredicate::slt, a, zero64);
          a = arith::SelectOp::create(
              nb, nloc, negative, arith::AddIOp::create(nb, nloc, a, rankValue),
              a);
          Value inRange = arith::AndIOp::create(
              nb, nloc,
              arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::sge, a,
                                    zero64),
              arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::slt, a,
                                    rankValue));
          emitRuntimeCheck(nb, nloc, inRange, op, "an axis is out of range");
          Value bit = arith::ShLIOp::create(
              nb, nloc, cst(nb, nloc, i64, 1),
              arith::SelectOp::create(nb, nloc, inRange, a, zero64));
          Value mask = arith::OrIOp::create(
              nb, nloc, iter[0],
              arith::SelectOp::create(nb, nloc, inRange, bit, zero64));
          scf::YieldOp::create(nb, nloc, mask);
        });
    Value mask = loop.getResult(0);
    if (!noop) {
      Value none = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         count, cstIndex(b, loc, 0));
      Value all = cst(b, loc, i64, (int64_t(1) << rank) - 1);
      mask = arith::SelectOp::create(b, loc, none, all, mask);
    }

    Value one = cstIndex(b, loc, 1);
    SmallVector<Value> isReduced, inDims, outDims, redDims, split;
    Value reducedCount = cstIndex(b, loc, 0);
    Value elements = one;
    SmallVector<OpFoldResult> dataDims = getDims(b, loc, data);
    for (int64_t d = 0; d < rank; ++d) {
      Value bit = arith::AndIOp::create(
          b, loc, arith::ShRUIOp::create(b, loc, mask, cst(b, loc, i64, d)),
          cst(b, loc, i64, 1));
      Value reduced =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bit, zero64);
      Value dim = getValueOrCreateConstantIndexOp(b, loc, dataDims[d]);
      isReduced.push_back(reduced);
      inDims.push_back(dim);
      outDims.push_back(arith::SelectOp::create(b, loc, reduced, one, dim));
      redDims.push_back(arith::SelectOp::create(b, loc, reduced, dim, one));
      split.push_back(outDims.back());
      split.push_back(redDims.back());
      reducedCount = arith::AddIOp::create(
          b, loc, reducedCount,
          arith::SelectOp::create(b, loc, reduced, one, cstIndex(b, loc, 0)));
      elements = arith::MulIOp::create(b, loc, elements, redDims.back());
    }

    // The input viewed with each dim split in (out, red).
    Value shape = tensor::FromElementsOp::create(b, loc, split);
    SmallVector<int64_t> dynamic(2 * rank, ShapedType::kDynamic);
    Value view = tensor::ReshapeOp::create(
        b, loc, RankedTensorType::get(dynamic, reducer.type), data, shape);
    SmallVector<int64_t> odd;
    for (int64_t d = 0; d < rank; ++d)
      odd.push_back(2 * d + 1);
    SmallVector<OpFoldResult> outFold(outDims.begin(), outDims.end());
    Value result = buildReduce(b, loc, view, odd, outFold, reducer);
    if (Kind == ReduceKind::Mean)
      result = divideByCount(b, loc, result, elements, reducer);
    result = narrowResult(b, loc, result, reducer);
    if (keepdims) {
      b.replaceOp(op, castTensor(b, loc, result, resultType));
      return success();
    }

    // keepdims = 0: the kept dims, in order, make the result shape.
    int64_t outRank = resultType.getRank();
    emitRuntimeCheck(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, reducedCount,
                              cstIndex(b, loc, rank - outRank)),
        op,
        "the number of reduced axes does not match the result rank " +
            Twine(outRank));
    SmallVector<Value> finalDims(outRank, cstIndex(b, loc, 0));
    Value before = cstIndex(b, loc, 0);
    for (int64_t d = 0; d < rank; ++d) {
      Value kept = arith::XOrIOp::create(b, loc, isReduced[d],
                                         cst(b, loc, b.getI1Type(), 1));
      for (int64_t j = 0; j < outRank; ++j) {
        Value here = arith::AndIOp::create(
            b, loc, kept,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, before,
                                  cstIndex(b, loc, j)));
        finalDims[j] =
            arith::SelectOp::create(b, loc, here, inDims[d], finalDims[j]);
      }
      before = arith::AddIOp::create(
          b, loc, before,
          arith::SelectOp::create(b, loc, kept, one, cstIndex(b, loc, 0)));
    }
    Value finalShape =
        outRank == 0 ? (Value)tensor::EmptyOp::create(
                           b, loc, ArrayRef<int64_t>{0}, b.getIndexType())
                     : (Value)tensor::FromElementsOp::create(b, loc, finalDims);
    SmallVector<int64_t> finalDynamic(outRank, ShapedType::kDynamic);
    Value reshaped = tensor::ReshapeOp::create(
        b, loc, RankedTensorType::get(finalDynamic, reducer.type), result,
        finalShape);
    b.replaceOp(op, castTensor(b, loc, reshaped, resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// ArgMax, ArgMin, Hardmax
//===----------------------------------------------------------------------===//

/// The index (i64) of the largest (`isMax`) or smallest element of `input`
/// along `axis`, the first one or (`lastIndex`) the last one among equals;
/// a NaN wins over numbers. The result has the axis dropped.
Value buildArgReduce(OpBuilder &b, Location loc, Value input, int64_t axis,
                     bool isMax, bool lastIndex, bool isUnsigned) {
  auto type = cast<RankedTensorType>(input.getType());
  Type t = type.getElementType();
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> dims = getDims(b, loc, input);
  SmallVector<OpFoldResult> outDims;
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis) {
      outDims.push_back(dims[d]);
      outExprs.push_back(b.getAffineDimExpr(d));
    }
  Type i64 = b.getI64Type();
  Value values = linalg::FillOp::create(
                     b, loc, extremeValue(b, loc, t, isUnsigned, !isMax),
                     tensor::EmptyOp::create(b, loc, outDims, t).getResult())
                     .getResult(0);
  Value indices = linalg::FillOp::create(
                      b, loc, cst(b, loc, i64, 0),
                      tensor::EmptyOp::create(b, loc, outDims, i64).getResult())
                      .getResult(0);
  AffineMap outMap = AffineMap::get(rank, 0, outExprs, b.getContext());
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank), outMap,
                                 outMap};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators[axis] = utils::IteratorType::reduction;
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{values.getType(), indices.getType()}, ValueRange{input},
      ValueRange{values, indices}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value x = args[0], cur = args[1], curIndex = args[2];
        Value wins;
        if (isa<FloatType>(t)) {
          auto pred = isMax ? (lastIndex ? arith::CmpFPredicate::OGE
                                         : arith::CmpFPredicate::OGT)
                            : (lastIndex ? arith::CmpFPredicate::OLE
                                         : arith::CmpFPredicate::OLT);
          Value better = arith::CmpFOp::create(nb, nloc, pred, x, cur);
          Value xNaN =
              arith::CmpFOp::create(nb, nloc, arith::CmpFPredicate::UNO, x, x);
          Value curNaN = arith::CmpFOp::create(
              nb, nloc, arith::CmpFPredicate::UNO, cur, cur);
          if (lastIndex) {
            // The last NaN, else the last extreme number.
            wins = arith::OrIOp::create(nb, nloc, better, xNaN);
          } else {
            // The first NaN, else the first extreme number.
            Value notCurNaN = arith::XOrIOp::create(
                nb, nloc, curNaN, cst(nb, nloc, nb.getI1Type(), 1));
            wins = arith::AndIOp::create(
                nb, nloc, notCurNaN,
                arith::OrIOp::create(nb, nloc, better, xNaN));
          }
        } else {
          arith::CmpIPredicate pred;
          if (isMax)
            pred = lastIndex ? (isUnsigned ? arith::CmpIPredicate::uge
                                           : arith::CmpIPredicate::sge)
                             : (isUnsigned ? arith::CmpIPredicate::ugt
                                           : arith::CmpIPredicate::sgt);
          else
            pred = lastIndex ? (isUnsigned ? arith::CmpIPredicate::ule
                                           : arith::CmpIPredicate::sle)
                             : (isUnsigned ? arith::CmpIPredicate::ult
                                           : arith::CmpIPredicate::slt);
          wins = arith::CmpIOp::create(nb, nloc, pred, x, cur);
        }
        Value index = arith::IndexCastOp::create(
            nb, nloc, i64, linalg::IndexOp::create(nb, nloc, axis));
        linalg::YieldOp::create(
            nb, nloc,
            ValueRange{
                arith::SelectOp::create(nb, nloc, wins, x, cur),
                arith::SelectOp::create(nb, nloc, wins, index, curIndex)});
      });
  return generic.getResult(1);
}

template <typename OpTy, bool IsMax>
struct ArgReduceLowering : ONNXToLinalgPattern<OpTy> {
  using ONNXToLinalgPattern<OpTy>::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto inType = dyn_cast<RankedTensorType>(data.getType());
    auto resultType = this->getConvertedType(op);
    if (!inType || !resultType)
      return emitLoweringError(op, "the data and the result must be ranked");
    int64_t rank = inType.getRank();
    FailureOr<int64_t> axis =
        checkedAxis(op, static_cast<int64_t>(op.getAxis()), rank);
    if (failed(axis))
      return failure();
    Value result = buildArgReduce(rewriter, loc, data, *axis, IsMax,
                                  op.getSelectLastIndex() != 0,
                                  isUnsignedElement(op.getData().getType()));
    if (op.getKeepdims() != 0)
      result = expandUnitDims(rewriter, loc, result, rank, {*axis});
    rewriter.replaceOp(op, castTensor(rewriter, loc, result, resultType));
    return success();
  }
};

/// Hardmax: 1 at the first largest element along the axis, 0 elsewhere.
struct HardmaxLowering : ONNXToLinalgPattern<HardmaxOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(HardmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto type = dyn_cast<RankedTensorType>(input.getType());
    auto resultType = getConvertedType(op);
    if (!type || !resultType)
      return emitLoweringError(op, "the input and the result must be ranked");
    int64_t rank = type.getRank();
    FailureOr<int64_t> axis =
        checkedAxis(op, static_cast<int64_t>(op.getAxis()), rank);
    if (failed(axis))
      return failure();
    Value index = buildArgReduce(rewriter, loc, input, *axis, /*isMax=*/true,
                                 /*lastIndex=*/false, /*isUnsigned=*/false);
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis)
        exprs.push_back(rewriter.getAffineDimExpr(d));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank, 0, exprs, rewriter.getContext()),
        rewriter.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Type t = type.getElementType();
    Value init = tensor::EmptyOp::create(rewriter, loc,
                                         getDims(rewriter, loc, input), t);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{init.getType()}, ValueRange{index},
            ValueRange{init}, maps, iterators,
            [&](OpBuilder &nb, Location nloc, ValueRange args) {
              Value here = arith::IndexCastOp::create(
                  nb, nloc, nb.getI64Type(),
                  linalg::IndexOp::create(nb, nloc, *axis));
              Value eq = arith::CmpIOp::create(
                  nb, nloc, arith::CmpIPredicate::eq, here, args[0]);
              linalg::YieldOp::create(
                  nb, nloc,
                  arith::SelectOp::create(nb, nloc, eq, cst(nb, nloc, t, 1),
                                          cst(nb, nloc, t, 0))
                      .getResult());
            })
            .getResult(0);
    rewriter.replaceOp(op, castTensor(rewriter, loc, result, resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// CumSum, CumProd
//===----------------------------------------------------------------------===//

/// The running sum (product when `product`) of `input` along `axis`: loops over
/// the other dims and, innermost, a loop along the axis carrying the sum, which
/// is written before (exclusive) or after adding each element. Scalar loads and
/// stores only, so that nothing is copied.
Value buildCumSum(OpBuilder &b, Location loc, Value input, int64_t axis,
                  bool exclusive, bool reverse, bool product = false) {
  auto type = cast<RankedTensorType>(input.getType());
  Type t = type.getElementType();
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> dims = getDims(b, loc, input);
  Value zero = cstIndex(b, loc, 0), one = cstIndex(b, loc, 1);
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis) {
      lbs.push_back(zero);
      ubs.push_back(getValueOrCreateConstantIndexOp(b, loc, dims[d]));
      steps.push_back(one);
    }
  Value n = getValueOrCreateConstantIndexOp(b, loc, dims[axis]);
  Value out = tensor::EmptyOp::create(b, loc, dims, t);
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{out},
      [&](OpBuilder &ob, Location oloc, ValueRange ivs,
          ValueRange iter) -> scf::ValueVector {
        auto inner = scf::ForOp::create(
            ob, oloc, zero, n, one,
            ValueRange{iter[0], cst(ob, oloc, t, product ? 1 : 0)},
            [&](OpBuilder &nb, Location nloc, Value k, ValueRange args) {
              Value index =
                  reverse ? (Value)arith::SubIOp::create(
                                nb, nloc,
                                arith::SubIOp::create(nb, nloc, n, one), k)
                          : k;
              SmallVector<Value> indices;
              for (int64_t d = 0, o = 0; d < rank; ++d)
                indices.push_back(d == axis ? index : ivs[o++]);
              Value x = tensor::ExtractOp::create(nb, nloc, input, indices);
              Value sum;
              if (product)
                sum = isa<FloatType>(t)
                          ? (Value)arith::MulFOp::create(nb, nloc, args[1], x)
                          : (Value)arith::MulIOp::create(nb, nloc, args[1], x);
              else
                sum = isa<FloatType>(t)
                          ? (Value)arith::AddFOp::create(nb, nloc, args[1], x)
                          : (Value)arith::AddIOp::create(nb, nloc, args[1], x);
              Value result = tensor::InsertOp::create(
                  nb, nloc, exclusive ? args[1] : sum, args[0], indices);
              scf::YieldOp::create(nb, nloc, ValueRange{result, sum});
            });
        return {inner.getResult(0)};
      });
  return nest.results.empty() ? out : nest.results[0];
}

template <typename CumOp, bool product>
struct CumulativeLowering : ONNXToLinalgPattern<CumOp> {
  using ONNXToLinalgPattern<CumOp>::ONNXToLinalgPattern;
  using OpAdaptor = typename CumOp::Adaptor;

  LogicalResult
  matchAndRewrite(CumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto type = dyn_cast<RankedTensorType>(x.getType());
    auto resultType = this->getConvertedType(op);
    if (!type || !resultType || type.getRank() == 0)
      return emitLoweringError(op, "the input must be ranked, rank >= 1");
    int64_t rank = type.getRank();
    bool exclusive = op.getExclusive() != 0, reverse = op.getReverse() != 0;
    if (std::optional<SmallVector<int64_t>> axes =
            getConstantIntValues(adaptor.getAxis())) {
      std::optional<int64_t> axis =
          axes->size() == 1 ? normalizeAxis((*axes)[0], rank) : std::nullopt;
      if (!axis)
        return emitLoweringError(op, "the axis must be one value in [-rank, "
                                     "rank)");
      Value result =
          buildCumSum(rewriter, loc, x, *axis, exclusive, reverse, product);
      rewriter.replaceOp(op, castTensor(rewriter, loc, result, resultType));
      return success();
    }

    // An axis known at run time: one case per dim.
    Value axisTensor = adaptor.getAxis();
    auto axisType = dyn_cast<RankedTensorType>(axisTensor.getType());
    if (!axisType || axisType.getNumElements() != 1)
      return emitLoweringError(op, "the axis must be a one-element tensor");
    SmallVector<Value> zeros(axisType.getRank(), cstIndex(rewriter, loc, 0));
    Value axis = castToIndex(
        rewriter, loc,
        tensor::ExtractOp::create(rewriter, loc, axisTensor, zeros));
    Value rankValue = cstIndex(rewriter, loc, rank);
    Value negative =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, axis,
                              cstIndex(rewriter, loc, 0));
    axis = arith::SelectOp::create(
        rewriter, loc, negative,
        arith::AddIOp::create(rewriter, loc, axis, rankValue), axis);
    Value inRange = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, axis,
                              cstIndex(rewriter, loc, 0)),
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, axis,
                              rankValue));
    emitRuntimeCheck(rewriter, loc, inRange, op, "the axis is out of range");
    SmallVector<int64_t> cases;
    for (int64_t d = 0; d < rank; ++d)
      cases.push_back(d);
    auto sw = scf::IndexSwitchOp::create(rewriter, loc, TypeRange{type}, axis,
                                         cases, cases.size());
    for (int64_t d = 0; d <= rank; ++d) {
      Region &region =
          d < rank ? sw.getCaseRegions()[d] : sw.getDefaultRegion();
      Block *block = rewriter.createBlock(&region);
      rewriter.setInsertionPointToStart(block);
      Value result = d < rank ? buildCumSum(rewriter, loc, x, d, exclusive,
                                            reverse, product)
                              : x;
      scf::YieldOp::create(rewriter, loc,
                           castTensor(rewriter, loc, result, type));
    }
    rewriter.setInsertionPointAfter(sw);
    rewriter.replaceOp(op,
                       castTensor(rewriter, loc, sw.getResult(0), resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// TopK
//===----------------------------------------------------------------------===//

/// TopK without sorting hardware: the rank of each element along the axis
/// (how many elements come before it: better values, then equal values at
/// lower indices) is counted by one generic; a second one gathers the
/// elements of rank 0..k-1. O(n^2 + n k) per slice.
struct TopKLowering : ONNXToLinalgPattern<TopKOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto type = dyn_cast<RankedTensorType>(x.getType());
    auto valuesType = getConvertedType(op.getValues());
    auto indicesType = getConvertedType(op.getIndices());
    if (!type || !valuesType || !indicesType || type.getRank() == 0)
      return emitLoweringError(op, "the input must be ranked, rank >= 1");
    int64_t rank = type.getRank();
    FailureOr<int64_t> axisOr =
        checkedAxis(op, static_cast<int64_t>(op.getAxis()), rank);
    if (failed(axisOr))
      return failure();
    int64_t axis = *axisOr;
    bool largest = op.getLargest() != 0;
    bool isUnsigned = isUnsignedElement(op.getX().getType());
    Type t = type.getElementType();
    Type i64 = rewriter.getI64Type();
    SmallVector<OpFoldResult> dims = getDims(rewriter, loc, x);
    Value n = getValueOrCreateConstantIndexOp(rewriter, loc, dims[axis]);

    // k: a constant, or read and checked at run time.
    OpFoldResult k;
    if (std::optional<SmallVector<int64_t>> kValues =
            getConstantIntValues(adaptor.getK());
        kValues && kValues->size() == 1) {
      if ((*kValues)[0] < 0 ||
          (!type.isDynamicDim(axis) && (*kValues)[0] > type.getDimSize(axis)))
        return emitLoweringError(op, "k = " + Twine((*kValues)[0]) +
                                         " is out of range");
      k = rewriter.getIndexAttr((*kValues)[0]);
      if (type.isDynamicDim(axis))
        emitRuntimeCheck(
            rewriter, loc,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sle,
                                  cstIndex(rewriter, loc, (*kValues)[0]), n),
            op, "k is larger than the axis");
    } else {
      Value kTensor = adaptor.getK();
      auto kType = dyn_cast<RankedTensorType>(kTensor.getType());
      if (!kType || kType.getRank() > 1)
        return emitLoweringError(op, "k must be a 1-D tensor");
      if (kType.getRank() == 1 && kType.isDynamicDim(0))
        emitRuntimeCheck(rewriter, loc,
                         arith::CmpIOp::create(
                             rewriter, loc, arith::CmpIPredicate::eq,
                             tensor::DimOp::create(rewriter, loc, kTensor, 0),
                             cstIndex(rewriter, loc, 1)),
                         op, "k must have one element");
      SmallVector<Value> zeros(kType.getRank(), cstIndex(rewriter, loc, 0));
      Value kValue =
          castToIndex(rewriter, loc,
                      tensor::ExtractOp::create(rewriter, loc, kTensor, zeros));
      Value ok = arith::AndIOp::create(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                kValue, cstIndex(rewriter, loc, 0)),
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sle,
                                kValue, n));
      emitRuntimeCheck(rewriter, loc, ok, op,
                       "k must be in [0, the size of the axis]");
      k = kValue;
    }

    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineExpr> identity, alongJ;
    for (int64_t d = 0; d < rank; ++d) {
      identity.push_back(getAffineDimExpr(d, ctx));
      alongJ.push_back(getAffineDimExpr(d == axis ? rank : d, ctx));
    }
    AffineMap idMap = AffineMap::get(rank + 1, 0, identity, ctx);
    AffineMap jMap = AffineMap::get(rank + 1, 0, alongJ, ctx);
    SmallVector<utils::IteratorType> iterators(rank + 1,
                                               utils::IteratorType::parallel);
    iterators[rank] = utils::IteratorType::reduction;

    // Whether `a` goes before `b` (NaN first for largest, last otherwise).
    auto before = [&](OpBuilder &nb, Location nloc, Value a, Value b) {
      if (isa<FloatType>(t)) {
        Value aNaN =
            arith::CmpFOp::create(nb, nloc, arith::CmpFPredicate::UNO, a, a);
        Value bNaN =
            arith::CmpFOp::create(nb, nloc, arith::CmpFPredicate::UNO, b, b);
        Value notANaN = arith::XOrIOp::create(nb, nloc, aNaN,
                                              cst(nb, nloc, nb.getI1Type(), 1));
        Value notBNaN = arith::XOrIOp::create(nb, nloc, bNaN,
                                              cst(nb, nloc, nb.getI1Type(), 1));
        Value cmp = arith::CmpFOp::create(nb, nloc,
                                          largest ? arith::CmpFPredicate::OGT
                                                  : arith::CmpFPredicate::OLT,
                                          a, b);
        Value nanOrder = largest
                             ? arith::AndIOp::create(nb, nloc, aNaN, notBNaN)
                             : arith::AndIOp::create(nb, nloc, notANaN, bNaN);
        return (Value)arith::OrIOp::create(nb, nloc, cmp, nanOrder);
      }
      arith::CmpIPredicate pred =
          largest ? (isUnsigned ? arith::CmpIPredicate::ugt
                                : arith::CmpIPredicate::sgt)
                  : (isUnsigned ? arith::CmpIPredicate::ult
                                : arith::CmpIPredicate::slt);
      return (Value)arith::CmpIOp::create(nb, nloc, pred, a, b);
    };
    auto same = [&](OpBuilder &nb, Location nloc, Value a, Value b) {
      if (isa<FloatType>(t))
        return (Value)arith::OrIOp::create(
            nb, nloc,
            arith::CmpFOp::create(nb, nloc, arith::CmpFPredicate::OEQ, a, b),
            arith::AndIOp::create(
                nb, nloc,
                arith::CmpFOp::create(nb, nloc, arith::CmpFPredicate::UNO, a,
                                      a),
                arith::CmpFOp::create(nb, nloc, arith::CmpFPredicate::UNO, b,
                                      b)));
      return (Value)arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::eq, a,
                                          b);
    };

    // 1. ranks[..., i, ...] = #{j : x_j before x_i, or x_j == x_i and j < i}.
    Value zero64 = cst(rewriter, loc, i64, 0);
    Value ranks =
        linalg::FillOp::create(
            rewriter, loc, zero64,
            tensor::EmptyOp::create(rewriter, loc, dims, i64).getResult())
            .getResult(0);
    ranks =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{ranks.getType()}, ValueRange{x, x},
            ValueRange{ranks}, ArrayRef<AffineMap>{idMap, jMap, idMap},
            iterators,
            [&](OpBuilder &nb, Location nloc, ValueRange args) {
              Value xi = args[0], xj = args[1];
              Value i = linalg::IndexOp::create(nb, nloc, axis);
              Value j = linalg::IndexOp::create(nb, nloc, rank);
              Value tie = arith::AndIOp::create(
                  nb, nloc, same(nb, nloc, xj, xi),
                  arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::ult, j,
                                        i));
              Value counts =
                  arith::OrIOp::create(nb, nloc, before(nb, nloc, xj, xi), tie);
              Value add = arith::ExtUIOp::create(nb, nloc, i64, counts);
              linalg::YieldOp::create(
                  nb, nloc,
                  arith::AddIOp::create(nb, nloc, args[2], add).getResult());
            })
            .getResult(0);

    // 2. out[..., p, ...] = the element of rank p.
    SmallVector<OpFoldResult> outDims = dims;
    outDims[axis] = k;
    Value values =
        linalg::FillOp::create(
            rewriter, loc, cst(rewriter, loc, t, 0),
            tensor::EmptyOp::create(rewriter, loc, outDims, t).getResult())
            .getResult(0);
    Value indices =
        linalg::FillOp::create(
            rewriter, loc, zero64,
            tensor::EmptyOp::create(rewriter, loc, outDims, i64).getResult())
            .getResult(0);
    auto gather = linalg::GenericOp::create(
        rewriter, loc, TypeRange{values.getType(), indices.getType()},
        ValueRange{x, ranks}, ValueRange{values, indices},
        ArrayRef<AffineMap>{jMap, jMap, idMap, idMap}, iterators,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          Value p = arith::IndexCastOp::create(
              nb, nloc, i64, linalg::IndexOp::create(nb, nloc, axis));
          Value j = arith::IndexCastOp::create(
              nb, nloc, i64, linalg::IndexOp::create(nb, nloc, rank));
          Value hit = arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::eq,
                                            args[1], p);
          linalg::YieldOp::create(
              nb, nloc,
              ValueRange{
                  arith::SelectOp::create(nb, nloc, hit, args[0], args[2]),
                  arith::SelectOp::create(nb, nloc, hit, j, args[3])});
        });
    rewriter.replaceOp(
        op, {castTensor(rewriter, loc, gather.getResult(0), valuesType),
             castTensor(rewriter, loc, gather.getResult(1), indicesType)});
    return success();
  }
};

} // namespace

void mlir::onnx::populateReductionToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ReduceLowering<ReduceSumOp, ReduceKind::Sum>,
               ReduceLowering<ReduceMeanOp, ReduceKind::Mean>,
               ReduceLowering<ReduceMaxOp, ReduceKind::Max>,
               ReduceLowering<ReduceMinOp, ReduceKind::Min>,
               ReduceLowering<ReduceProdOp, ReduceKind::Prod>,
               ArgReduceLowering<ArgMaxOp, true>,
               ArgReduceLowering<ArgMinOp, false>, HardmaxLowering,
               CumulativeLowering<CumSumOp, false>,
               CumulativeLowering<CumProdOp, true>, TopKLowering>(converter,
                                                                  ctx);
}
