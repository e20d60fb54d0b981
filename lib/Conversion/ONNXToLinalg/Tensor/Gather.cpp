//===- Gather.cpp - Indexed reads: Gather*, OneHot, NonZero ---------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Gather, GatherElements and GatherND are linalg.generics over the result
// that read the indices through indexing maps and the data with
// tensor.extract; negative indices wrap (the spec allows [-s, s-1]) and an
// index outside that range stops the model with an error (the read is also
// clamped, so it never leaves the tensor). OneHot compares the index with
// the position (out-of-range indices give all off values, as the spec
// says). NonZero counts first, then fills its data-dependent result with
// loops.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

using Pred = arith::CmpIPredicate;

struct GatherLowering : ONNXToLinalgPattern<GatherOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    auto dataType = dyn_cast<RankedTensorType>(data.getType());
    auto indicesType = dyn_cast<RankedTensorType>(indices.getType());
    if (!type || !dataType || !indicesType)
      return emitLoweringError(op, "expected ranked tensors");
    int64_t r = dataType.getRank(), q = indicesType.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    if (failed(resolveAxis(op, axis, r)))
      return failure();
    if (type.getRank() != q + r - 1)
      return emitLoweringError(op, "axis out of range");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    SmallVector<OpFoldResult> dataDims = getDims(b, loc, data);
    SmallVector<OpFoldResult> indicesDims = getDims(b, loc, indices);
    SmallVector<OpFoldResult> dims(dataDims.begin(), dataDims.begin() + axis);
    dims.append(indicesDims);
    dims.append(dataDims.begin() + axis + 1, dataDims.end());
    dims = preferStatic(b, loc, op, type, dims);
    MLIRContext *ctx = b.getContext();
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < q; ++i)
      exprs.push_back(getAffineDimExpr(axis + i, ctx));
    AffineMap map = AffineMap::get(type.getRank(), 0, exprs, ctx);
    Value size = toValue(b, loc, dataDims[axis]);
    Value result = buildIndexGeneric(
        b, loc, type, dims, {indices}, {map},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          Value i = checkedIndex(nb, nloc, castToIndex(nb, nloc, args[0]), size,
                                 /*wrap=*/true, op, "index out of range");
          SmallVector<Value> at(ivs.begin(), ivs.begin() + axis);
          at.push_back(i);
          at.append(ivs.begin() + axis + q, ivs.end());
          return (Value)tensor::ExtractOp::create(nb, nloc, data, at);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GatherElementsLowering : ONNXToLinalgPattern<GatherElementsOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(GatherElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    auto dataType = dyn_cast<RankedTensorType>(data.getType());
    auto indicesType = dyn_cast<RankedTensorType>(indices.getType());
    if (!type || !dataType || !indicesType ||
        dataType.getRank() != indicesType.getRank())
      return emitLoweringError(op, "expected ranked tensors of one rank");
    int64_t r = dataType.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    if (failed(resolveAxis(op, axis, r)))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    SmallVector<Value> dataDims = dimValues(b, loc, data);
    SmallVector<OpFoldResult> dims =
        preferStatic(b, loc, op, type, getDims(b, loc, indices));
    Value result = buildIndexGeneric(
        b, loc, type, dims, {indices}, {b.getMultiDimIdentityMap(r)},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          SmallVector<Value> at =
              elementsIndexPosition(nb, nloc, args[0], ivs, axis, indicesType,
                                    dataType, dataDims, op);
          return (Value)tensor::ExtractOp::create(nb, nloc, data, at);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GatherNDLowering : ONNXToLinalgPattern<GatherNDOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(GatherNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    auto dataType = dyn_cast<RankedTensorType>(data.getType());
    auto indicesType = dyn_cast<RankedTensorType>(indices.getType());
    if (!type || !dataType || !indicesType || indicesType.getRank() < 1)
      return emitLoweringError(op, "expected ranked tensors");
    int64_t r = dataType.getRank(), q = indicesType.getRank();
    int64_t k = indicesType.getDimSize(q - 1);
    int64_t batch = static_cast<int64_t>(op.getBatchDims());
    if (ShapedType::isDynamic(k))
      return emitLoweringError(op, "the last dim of indices must be static");
    if (batch < 0 || batch >= q || batch + k > r ||
        type.getRank() != q - 1 + r - k - batch)
      return emitLoweringError(op, "indices do not fit data");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    SmallVector<Value> dataDims = dimValues(b, loc, data);
    SmallVector<OpFoldResult> indicesDims = getDims(b, loc, indices);
    for (int64_t d = 0; d < batch; ++d)
      check(
          b, loc,
          cmpI(b, loc, Pred::eq, dataDims[d], toValue(b, loc, indicesDims[d])),
          op, "batch dim " + Twine(d) + " differs");
    SmallVector<OpFoldResult> dims(indicesDims.begin(), indicesDims.end() - 1);
    for (int64_t d = batch + k; d < r; ++d)
      dims.push_back(getDims(b, loc, data)[d]);
    dims = preferStatic(b, loc, op, type, dims);
    Value result = buildIndexGeneric(
        b, loc, type, dims, {}, {},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange) {
          SmallVector<Value> at(ivs.begin(), ivs.begin() + batch);
          at.append(readIndexTuple(nb, nloc, indices, ivs.take_front(q - 1), k,
                                   ArrayRef(dataDims).drop_front(batch), op));
          at.append(ivs.begin() + (q - 1), ivs.end());
          return (Value)tensor::ExtractOp::create(nb, nloc, data, at);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// An integer index of any numeric onnx element type as i64 (floats are
/// truncated, as the spec of OneHot says).
Value toI64(OpBuilder &b, Location loc, Value v, bool isUnsigned) {
  return convertScalar(b, loc, v, b.getI64Type(), isUnsigned);
}

struct OneHotLowering : ONNXToLinalgPattern<OneHotOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(OneHotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value indices = adaptor.getIndices();
    auto indicesType = dyn_cast<RankedTensorType>(indices.getType());
    auto valuesType = dyn_cast<RankedTensorType>(adaptor.getValues().getType());
    if (!type || !indicesType || !valuesType ||
        type.getRank() != indicesType.getRank() + 1)
      return emitLoweringError(op, "expected ranked tensors");
    int64_t rank = type.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    if (failed(resolveAxis(op, axis, rank)))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    bool indicesUnsigned = isUnsignedElement(op.getIndices().getType());
    Value depth = toI64(b, loc, extractScalar(b, loc, adaptor.getDepth()),
                        isUnsignedElement(op.getDepth().getType()));
    check(
        b, loc,
        arith::CmpIOp::create(b, loc, Pred::sgt, depth,
                              createScalarConstant(b, loc, b.getI64Type(), 0)),
        op, "depth is not positive");
    Value depthIndex = castToIndex(b, loc, depth);
    Value off = extractIndexedValue(b, loc, adaptor.getValues(), 0);
    Value on = extractIndexedValue(b, loc, adaptor.getValues(), 1);
    SmallVector<OpFoldResult> dims = getDims(b, loc, indices);
    dims.insert(dims.begin() + axis, depthIndex);
    dims = preferStatic(b, loc, op, type, dims);
    MLIRContext *ctx = b.getContext();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        exprs.push_back(getAffineDimExpr(d, ctx));
    AffineMap map = AffineMap::get(rank, 0, exprs, ctx);
    Value result = buildIndexGeneric(
        b, loc, type, dims, {indices}, {map},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          Value i = toI64(nb, nloc, args[0], indicesUnsigned);
          Value zero = createScalarConstant(nb, nloc, nb.getI64Type(), 0);
          i = arith::SelectOp::create(
              nb, nloc, arith::CmpIOp::create(nb, nloc, Pred::slt, i, zero),
              arith::AddIOp::create(nb, nloc, i, depth), i);
          Value pos =
              arith::IndexCastOp::create(nb, nloc, nb.getI64Type(), ivs[axis]);
          Value hit = arith::CmpIOp::create(nb, nloc, Pred::eq, i, pos);
          return (Value)arith::SelectOp::create(nb, nloc, hit, on, off);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

  static Value extractIndexedValue(OpBuilder &b, Location loc, Value t,
                                   int64_t i) {
    auto type = cast<RankedTensorType>(t.getType());
    SmallVector<Value> at(type.getRank(), idx(b, loc, 0));
    if (!at.empty())
      at.back() = idx(b, loc, i);
    return tensor::ExtractOp::create(b, loc, t, at);
  }
};

/// True where `v` is not zero (NaN counts as not zero).
Value isNonZero(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  if (isa<FloatType>(t))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v,
                                 zeroOf(b, loc, t));
  return arith::CmpIOp::create(b, loc, Pred::ne, v, zeroOf(b, loc, t));
}

struct NonZeroLowering : ONNXToLinalgPattern<NonZeroOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(NonZeroOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value x = adaptor.getX();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    if (!type || !xType || type.getRank() != 2)
      return emitLoweringError(op, "expected ranked tensors");
    if (!isa<FloatType, IntegerType>(xType.getElementType()))
      return emitLoweringError(op, "unsupported element type");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    int64_t rank = xType.getRank();
    SmallVector<Value> xDims = dimValues(b, loc, x);
    Value zero = idx(b, loc, 0), one = idx(b, loc, 1);
    Value count = buildLoopNest(
        b, loc, xDims, {zero},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          Value v = tensor::ExtractOp::create(nb, nloc, x, ivs);
          return SmallVector<Value>{select(nb, nloc, isNonZero(nb, nloc, v),
                                           addI(nb, nloc, args[0], one),
                                           args[0])};
        })[0];
    SmallVector<OpFoldResult> dims = {b.getIndexAttr(rank), count};
    if (!type.isDynamicDim(1))
      check(b, loc,
            cmpI(b, loc, Pred::eq, count, idx(b, loc, type.getDimSize(1))), op,
            "the number of non-zero values is not the inferred one");
    dims = preferStatic(b, loc, op, type, dims);
    Value init = tensor::EmptyOp::create(b, loc, dims, type.getElementType());
    Value result = buildLoopNest(
        b, loc, xDims, {zero, init},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          Value v = tensor::ExtractOp::create(nb, nloc, x, ivs);
          Value nz = isNonZero(nb, nloc, v);
          auto ifOp = scf::IfOp::create(
              nb, nloc, nz,
              [&](OpBuilder &tb, Location tloc) {
                Value t = args[1];
                for (int64_t d = 0; d < rank; ++d) {
                  Value c = arith::IndexCastOp::create(
                      tb, tloc, type.getElementType(), ivs[d]);
                  t = tensor::InsertOp::create(
                      tb, tloc, c, t, ValueRange{idx(tb, tloc, d), args[0]});
                }
                scf::YieldOp::create(tb, tloc, t);
              },
              [&](OpBuilder &eb, Location eloc) {
                scf::YieldOp::create(eb, eloc, args[1]);
              });
          return SmallVector<Value>{
              select(nb, nloc, nz, addI(nb, nloc, args[0], one), args[0]),
              ifOp.getResult(0)};
        })[1];
    rewriter.replaceOp(op, castTo(b, loc, result, type));
    return success();
  }
};

} // namespace

void mlir::onnx::populateGatherScatterToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GatherLowering, GatherElementsLowering, GatherNDLowering,
               OneHotLowering, NonZeroLowering>(converter,
                                                patterns.getContext());
  populateScatterToLinalgPatterns(converter, patterns);
  populateUniqueToLinalgPatterns(converter, patterns);
}
