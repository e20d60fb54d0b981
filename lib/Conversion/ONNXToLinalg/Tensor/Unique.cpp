//===- Unique.cpp - Unique with scf loops ---------------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Unique has data-dependent result sizes, so it is built with scf.for
// loops over index tensors: the first occurrence of each item (an element
// of the flattened input, or a slice along `axis`), the count of unique
// items, their order (first occurrence, or sorted: the rank of each among
// the unique items), and from those the four outputs. Items compare
// elementwise (slices lexicographically); the work is quadratic in the
// number of items, which is fine for the sizes Unique sees in models.
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

Value xorTrue(OpBuilder &b, Location loc, Value v) {
  return b.createOrFold<arith::XOrIOp>(
      loc, v, arith::ConstantIntOp::create(b, loc, 1, 1));
}

/// The loops of one Unique over the items of `x` (slices along `axis`):
/// each step a loop nest of index tensors, in the order the results need
/// them.
class UniqueBuilder {
public:
  UniqueBuilder(OpBuilder &b, Location loc, Value x, int64_t axis,
                bool isUnsigned)
      : b(b), loc(loc), x(x), axis(axis), isUnsigned(isUnsigned),
        et(cast<RankedTensorType>(x.getType()).getElementType()) {
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    SmallVector<Value> xDims = dimValues(b, loc, x);
    n = xDims[axis];
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        sliceDims.push_back(xDims[d]);
    zero = idx(b, loc, 0);
    one = idx(b, loc, 1);
    f = arith::ConstantIntOp::create(b, loc, 0, 1);
  }

  /// The number of items.
  Value getCount() const { return n; }

  /// (equal, less) of items i and j: lexicographic over the slice, the
  /// first differing element decides.
  std::pair<Value, Value> compare(OpBuilder &cb, Location cl, Value i,
                                  Value j) const {
    SmallVector<Value> r = buildLoopNest(
        cb, cl, sliceDims, {f, f},
        [&](OpBuilder &lb, Location ll, ValueRange ivs, ValueRange args) {
          SmallVector<Value> ai(ivs), aj(ivs);
          ai.insert(ai.begin() + axis, i);
          aj.insert(aj.begin() + axis, j);
          Value a = tensor::ExtractOp::create(lb, ll, x, ai);
          Value c = tensor::ExtractOp::create(lb, ll, x, aj);
          auto [eq, lt] = compareElements(lb, ll, a, c);
          Value decides =
              andI(lb, ll, xorTrue(lb, ll, args[0]), xorTrue(lb, ll, eq));
          return SmallVector<Value>{orI(lb, ll, args[0], decides),
                                    select(lb, ll, decides, lt, args[1])};
        });
    return {xorTrue(cb, cl, r[0]), r[1]};
  }

  /// 1. The first occurrence of each item.
  Value firstOccurrences() const {
    Value first = tensor::EmptyOp::create(b, loc, ArrayRef<OpFoldResult>{n},
                                          b.getIndexType());
    return buildLoopNest(
        b, loc, {n}, {first},
        [&](OpBuilder &lb, Location ll, ValueRange ivs, ValueRange args) {
          Value i = ivs[0];
          Value found = buildLoopNest(
              lb, ll, {i}, {i},
              [&](OpBuilder &ib, Location il, ValueRange jvs,
                  ValueRange jargs) {
                Value notYet = cmpI(ib, il, Pred::eq, jargs[0], i);
                auto ifOp = scf::IfOp::create(
                    ib, il, notYet,
                    [&](OpBuilder &tb, Location tl) {
                      Value eq = compare(tb, tl, jvs[0], i).first;
                      scf::YieldOp::create(
                          tb, tl, select(tb, tl, eq, jvs[0], jargs[0]));
                    },
                    [&](OpBuilder &eb, Location el) {
                      scf::YieldOp::create(eb, el, jargs[0]);
                    });
                return SmallVector<Value>{ifOp.getResult(0)};
              })[0];
          return SmallVector<Value>{
              tensor::InsertOp::create(lb, ll, found, args[0], i)};
        })[0];
  }

  /// 2. The number of unique items, and the unique items in order of first
  /// occurrence.
  std::pair<Value, Value> uniqueItems(Value first) const {
    Value count = buildLoopNest(
        b, loc, {n}, {zero},
        [&](OpBuilder &lb, Location ll, ValueRange ivs, ValueRange args) {
          Value fi = tensor::ExtractOp::create(lb, ll, first, ivs[0]);
          Value isNew = cmpI(lb, ll, Pred::eq, fi, ivs[0]);
          return SmallVector<Value>{
              select(lb, ll, isNew, addI(lb, ll, args[0], one), args[0])};
        })[0];
    Value uniq = tensor::EmptyOp::create(b, loc, ArrayRef<OpFoldResult>{count},
                                         b.getIndexType());
    uniq = buildLoopNest(
        b, loc, {n}, {zero, uniq},
        [&](OpBuilder &lb, Location ll, ValueRange ivs, ValueRange args) {
          Value fi = tensor::ExtractOp::create(lb, ll, first, ivs[0]);
          Value isNew = cmpI(lb, ll, Pred::eq, fi, ivs[0]);
          auto ifOp = scf::IfOp::create(
              lb, ll, isNew,
              [&](OpBuilder &tb, Location tl) {
                scf::YieldOp::create(
                    tb, tl,
                    tensor::InsertOp::create(tb, tl, ivs[0], args[1], args[0])
                        .getResult());
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, args[1]);
              });
          return SmallVector<Value>{
              select(lb, ll, isNew, addI(lb, ll, args[0], one), args[0]),
              ifOp.getResult(0)};
        })[1];
    return {count, uniq};
  }

  /// A 1-D index tensor of `size` zeros.
  Value zeroIndices(OpFoldResult size) const {
    Value t = tensor::EmptyOp::create(b, loc, ArrayRef<OpFoldResult>{size},
                                      b.getIndexType());
    return linalg::FillOp::create(b, loc, zero, t).getResult(0);
  }

  /// 3. Sorted: each unique item goes to its rank among them.
  Value sortedOrder(Value uniq, Value count) const {
    // Slots that two items would share (NaN) keep a valid index.
    Value init = zeroIndices(count);
    return buildLoopNest(
        b, loc, {count}, {init},
        [&](OpBuilder &lb, Location ll, ValueRange ivs, ValueRange args) {
          Value p = tensor::ExtractOp::create(lb, ll, uniq, ivs[0]);
          Value rankOfP = buildLoopNest(
              lb, ll, {count}, {zero},
              [&](OpBuilder &ib, Location il, ValueRange jvs,
                  ValueRange jargs) {
                Value q = tensor::ExtractOp::create(ib, il, uniq, jvs[0]);
                Value lt = compare(ib, il, q, p).second;
                return SmallVector<Value>{
                    select(ib, il, lt, addI(ib, il, jargs[0], one), jargs[0])};
              })[0];
          rankOfP = minI(lb, ll, rankOfP, subI(lb, ll, count, one));
          return SmallVector<Value>{
              tensor::InsertOp::create(lb, ll, p, args[0], rankOfP)};
        })[0];
  }

  /// 4. The position of each unique item in the output.
  Value positions(Value order, Value count) const {
    Value posOf = zeroIndices(n);
    return buildLoopNest(
        b, loc, {count}, {posOf},
        [&](OpBuilder &lb, Location ll, ValueRange ivs, ValueRange args) {
          Value item = tensor::ExtractOp::create(lb, ll, order, ivs[0]);
          return SmallVector<Value>{
              tensor::InsertOp::create(lb, ll, ivs[0], args[0], item)};
        })[0];
  }

  /// The counts output: how many items have each unique item's first
  /// occurrence.
  Value counts(Value first, Value posOf, Value count,
               RankedTensorType type) const {
    Value init = tensor::EmptyOp::create(b, loc, ArrayRef<OpFoldResult>{count},
                                         type.getElementType());
    init = linalg::FillOp::create(
               b, loc, createScalarConstant(b, loc, type.getElementType(), 0),
               init)
               .getResult(0);
    return buildLoopNest(
        b, loc, {n}, {init},
        [&](OpBuilder &lb, Location ll, ValueRange ivs, ValueRange args) {
          Value fi = tensor::ExtractOp::create(lb, ll, first, ivs[0]);
          Value p = tensor::ExtractOp::create(lb, ll, posOf, fi);
          Value c = tensor::ExtractOp::create(lb, ll, args[0], p);
          c = arith::AddIOp::create(
              lb, ll, c,
              createScalarConstant(lb, ll, type.getElementType(), 1));
          return SmallVector<Value>{
              tensor::InsertOp::create(lb, ll, c, args[0], p)};
        })[0];
  }

private:
  /// (equal, less) of two elements.
  std::pair<Value, Value> compareElements(OpBuilder &eb, Location el, Value a,
                                          Value c) const {
    if (isa<FloatType>(et))
      return {arith::CmpFOp::create(eb, el, arith::CmpFPredicate::OEQ, a, c),
              arith::CmpFOp::create(eb, el, arith::CmpFPredicate::OLT, a, c)};
    return {arith::CmpIOp::create(eb, el, Pred::eq, a, c),
            arith::CmpIOp::create(
                eb, el, isUnsigned || et.isInteger(1) ? Pred::ult : Pred::slt,
                a, c)};
  }

  OpBuilder &b;
  Location loc;
  Value x;
  int64_t axis;
  bool isUnsigned;
  Type et;
  Value n, zero, one, f;
  SmallVector<Value> sliceDims;
};

struct UniqueLowering : ONNXToLinalgPattern<UniqueOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(UniqueOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    RankedTensorType yType, xType;
    if (failed(getRankedTypes(op, x, yType, xType)))
      return failure();
    Type et = xType.getElementType();
    if (!isa<FloatType, IntegerType>(et))
      return emitLoweringError(op, "unsupported element type");
    for (unsigned i = 1; i < op->getNumResults(); ++i)
      if (!getResultType(op, i))
        return emitLoweringError(op, "expected ranked results");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;

    // Items: elements of the flattened input, or slices along the axis.
    int64_t axis = -1;
    if (op.getAxis()) {
      axis = static_cast<int64_t>(*op.getAxis());
      if (failed(resolveAxis(op, axis, xType.getRank())))
        return failure();
    } else {
      OpFoldResult n = product(b, loc, getDims(b, loc, x));
      auto flatType = RankedTensorType::get(
          {staticValue(n).value_or(ShapedType::kDynamic)}, et);
      x = reshapeTo(b, loc, x, flatType, {n});
      xType = flatType;
      axis = 0;
    }
    if (yType.getRank() != xType.getRank())
      return emitLoweringError(op, "the result rank does not match");
    int64_t rank = xType.getRank();

    UniqueBuilder u(b, loc, x, axis, isUnsignedElement(op.getX().getType()));
    Value n = u.getCount();
    Value first = u.firstOccurrences();
    auto [count, uniq] = u.uniqueItems(first);
    Value order = op.getSorted() != 0 ? u.sortedOrder(uniq, count) : uniq;
    Value posOf = u.positions(order, count);

    SmallVector<Value> results;
    // Y.
    SmallVector<OpFoldResult> yDims = getDims(b, loc, x);
    yDims[axis] = count;
    yDims = preferStatic(b, loc, op, yType, yDims);
    MLIRContext *ctx = b.getContext();
    AffineMap orderMap =
        AffineMap::get(rank, 0, {getAffineDimExpr(axis, ctx)}, ctx);
    results.push_back(buildIndexGeneric(
        b, loc, yType, yDims, {order}, {orderMap},
        [&](OpBuilder &nb, Location nl, ValueRange ivs, ValueRange args) {
          SmallVector<Value> at(ivs);
          at[axis] = args[0];
          return (Value)tensor::ExtractOp::create(nb, nl, x, at);
        }));
    unsigned next = 1;
    if (op.getIndices()) {
      auto type = getResultType(op, next++);
      results.push_back(buildIndexGeneric(
          b, loc, type, preferStatic(b, loc, op, type, getDims(b, loc, order)),
          {order}, {b.getMultiDimIdentityMap(1)},
          [&](OpBuilder &nb, Location nl, ValueRange, ValueRange args) {
            return (Value)arith::IndexCastOp::create(
                nb, nl, type.getElementType(), args[0]);
          }));
    }
    if (op.getInverseIndices()) {
      auto type = getResultType(op, next++);
      results.push_back(buildIndexGeneric(
          b, loc, type, preferStatic(b, loc, op, type, {n}), {first},
          {b.getMultiDimIdentityMap(1)},
          [&](OpBuilder &nb, Location nl, ValueRange, ValueRange args) {
            Value p = tensor::ExtractOp::create(nb, nl, posOf, args[0]);
            return (Value)arith::IndexCastOp::create(nb, nl,
                                                     type.getElementType(), p);
          }));
    }
    if (op.getCounts()) {
      auto type = getResultType(op, next++);
      results.push_back(
          castTo(b, loc, u.counts(first, posOf, count, type), type));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::onnx::populateUniqueToLinalgPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<UniqueLowering>(converter, patterns.getContext());
}
