//===- Shape.cpp - Shape-level onnx ops to tensor/linalg ------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Shape and Size read dims; Reshape, Flatten, Squeeze and Unsqueeze are
// tensor.collapse_shape / expand_shape (through one dim when the grouping is
// not clear from static sizes); Expand is a broadcasting linalg.generic;
// ConstantOfShape a linalg.fill; Range a generic over its index. Shape-like
// inputs that are not constants are read at run time (the result rank is
// known), with run-time checks of what the spec requires of them.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

using Pred = arith::CmpIPredicate;

//===----------------------------------------------------------------------===//
// Shape, Size
//===----------------------------------------------------------------------===//

struct ShapeLowering : ONNXToLinalgPattern<ShapeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(ShapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    auto inType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
    if (!type || !inType)
      return emitLoweringError(op, "expected ranked tensors");
    Location loc = op.getLoc();
    int64_t rank = inType.getRank();
    auto clampAxis = [&](int64_t a) {
      if (a < 0)
        a += rank;
      return std::clamp<int64_t>(a, 0, rank);
    };
    int64_t start = clampAxis(static_cast<int64_t>(op.getStart()));
    int64_t end =
        op.getEnd() ? clampAxis(static_cast<int64_t>(*op.getEnd())) : rank;
    SmallVector<Value> elements;
    for (int64_t d = start; d < end; ++d) {
      Value dim = inType.isDynamicDim(d)
                      ? (Value)tensor::DimOp::create(rewriter, loc,
                                                     adaptor.getData(), d)
                      : idx(rewriter, loc, inType.getDimSize(d));
      elements.push_back(arith::IndexCastOp::create(
          rewriter, loc, type.getElementType(), dim));
    }
    auto exact = RankedTensorType::get({(int64_t)elements.size()},
                                       type.getElementType());
    Value result =
        tensor::FromElementsOp::create(rewriter, loc, exact, elements);
    rewriter.replaceOp(op, castTo(rewriter, loc, result, type));
    return success();
  }
};

struct SizeLowering : ONNXToLinalgPattern<SizeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(SizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    if (!type || !isa<RankedTensorType>(adaptor.getData().getType()))
      return emitLoweringError(op, "expected ranked tensors");
    Location loc = op.getLoc();
    OpFoldResult n =
        product(rewriter, loc, getDims(rewriter, loc, adaptor.getData()));
    Value v = arith::IndexCastOp::create(rewriter, loc, type.getElementType(),
                                         toValue(rewriter, loc, n));
    Value result = tensor::FromElementsOp::create(
        rewriter, loc, RankedTensorType::get({}, type.getElementType()), v);
    rewriter.replaceOp(op, castTo(rewriter, loc, result, type));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reshape, Flatten, Squeeze, Unsqueeze
//===----------------------------------------------------------------------===//

Value xorTrue(OpBuilder &b, Location loc, Value v) {
  return b.createOrFold<arith::XOrIOp>(
      loc, v, arith::ConstantIntOp::create(b, loc, 1, 1));
}

/// Replaces `op` with `data` reshaped to `type` of sizes `dims`, after a
/// run-time check (where not static) that `dims` hold as many elements as
/// `data`.
LogicalResult replaceWithReshape(ConversionPatternRewriter &rewriter,
                                 Operation *op, Value data,
                                 RankedTensorType type,
                                 ArrayRef<OpFoldResult> dims) {
  OpBuilder &b = rewriter;
  Location loc = op->getLoc();
  OpFoldResult in = product(b, loc, getDims(b, loc, data));
  OpFoldResult out = product(b, loc, dims);
  check(b, loc,
        cmpI(b, loc, Pred::eq, toValue(b, loc, in), toValue(b, loc, out)), op,
        "the new shape does not have as many elements as the input");
  rewriter.replaceOp(op, reshapeTo(b, loc, data, type, dims));
  return success();
}

struct ReshapeLowering : ONNXToLinalgPattern<ReshapeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getData();
    RankedTensorType type, inType;
    if (failed(getRankedTypes(op, data, type, inType)))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    int64_t rank = type.getRank();
    bool allowZero = op.getAllowzero() != 0;

    SmallVector<OpFoldResult> dims;
    bool constantShape = getConstantIntValues(adaptor.getShape()).has_value();
    if (type.hasStaticShape() && constantShape) {
      for (int64_t d : type.getShape())
        dims.push_back(b.getIndexAttr(d));
    } else {
      std::optional<SmallVector<OpFoldResult>> shape =
          getIndexValues(b, loc, adaptor.getShape());
      if (!shape)
        return emitLoweringError(op, "the shape input needs a static length");
      if ((int64_t)shape->size() != rank)
        return emitLoweringError(
            op, "the shape input has " + Twine(shape->size()) +
                    " values for a result of rank " + Twine(rank));
      SmallVector<OpFoldResult> inDims = getDims(b, loc, data);
      // 0 copies the input dim (unless allowzero), -1 is inferred.
      Value zero = idx(b, loc, 0), minusOne = idx(b, loc, -1);
      SmallVector<Value> values, isInferred;
      Value inferredCount = zero;
      for (int64_t i = 0; i < rank; ++i) {
        Value s = toValue(b, loc, (*shape)[i]);
        check(b, loc, cmpI(b, loc, Pred::sge, s, minusOne), op,
              "a value of the shape is below -1");
        if (!allowZero && i < inType.getRank())
          s = select(b, loc, cmpI(b, loc, Pred::eq, s, zero),
                     toValue(b, loc, inDims[i]), s);
        else if (!allowZero)
          check(b, loc, cmpI(b, loc, Pred::ne, s, zero), op,
                "a 0 in the shape copies a dim the input does not have");
        Value inferred = cmpI(b, loc, Pred::eq, s, minusOne);
        inferredCount = addI(b, loc, inferredCount,
                             select(b, loc, inferred, idx(b, loc, 1), zero));
        values.push_back(s);
        isInferred.push_back(inferred);
      }
      check(b, loc, cmpI(b, loc, Pred::ule, inferredCount, idx(b, loc, 1)), op,
            "more than one -1 in the shape");
      // The product of the given dims, and the inferred one.
      Value known = idx(b, loc, 1);
      for (int64_t i = 0; i < rank; ++i)
        known = mulI(b, loc, known,
                     select(b, loc, isInferred[i], idx(b, loc, 1), values[i]));
      Value total = toValue(b, loc, product(b, loc, inDims));
      Value safeKnown = select(b, loc, cmpI(b, loc, Pred::eq, known, zero),
                               idx(b, loc, 1), known);
      Value inferredSize =
          b.createOrFold<arith::DivUIOp>(loc, total, safeKnown);
      for (int64_t i = 0; i < rank; ++i) {
        Value d = select(b, loc, isInferred[i], inferredSize, values[i]);
        dims.push_back(d);
        if (!type.isDynamicDim(i))
          check(b, loc,
                cmpI(b, loc, Pred::eq, d, idx(b, loc, type.getDimSize(i))), op,
                "dim " + Twine(i) + " of the new shape is not " +
                    Twine(type.getDimSize(i)) + " (the inferred size)");
      }
      dims = preferStatic(b, loc, op, type, dims);
      for (OpFoldResult &d : dims)
        if (std::optional<int64_t> s = staticValue(d))
          d = b.getIndexAttr(*s);
    }
    return replaceWithReshape(rewriter, op, data, type, dims);
  }
};

struct FlattenLowering : ONNXToLinalgPattern<FlattenOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(FlattenOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value input = adaptor.getInput();
    auto inType = dyn_cast<RankedTensorType>(input.getType());
    if (!type || !inType || type.getRank() != 2)
      return emitLoweringError(op, "expected ranked tensors, a 2-D result");
    Location loc = op.getLoc();
    int64_t rank = inType.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    if (axis < 0)
      axis += rank;
    if (axis < 0 || axis > rank)
      return emitLoweringError(op, "axis out of range");
    SmallVector<OpFoldResult> inDims = getDims(rewriter, loc, input);
    SmallVector<OpFoldResult> dims = {
        product(rewriter, loc, ArrayRef(inDims).take_front(axis)),
        product(rewriter, loc, ArrayRef(inDims).drop_front(axis))};
    dims = preferStatic(rewriter, loc, op, type, dims);
    if (axis > 0 && axis < rank) {
      ReassociationIndices front = llvm::to_vector(llvm::seq<int64_t>(0, axis));
      ReassociationIndices back =
          llvm::to_vector(llvm::seq<int64_t>(axis, rank));
      Value r = tensor::CollapseShapeOp::create(
          rewriter, loc, input, ArrayRef<ReassociationIndices>{front, back});
      rewriter.replaceOp(op, castTo(rewriter, loc, r, type));
      return success();
    }
    rewriter.replaceOp(op, reshapeTo(rewriter, loc, input, type, dims));
    return success();
  }
};

/// Normalizes `axes` against `rank`; false if one is out of range or
/// repeated.
bool normalizeAxes(SmallVectorImpl<int64_t> &axes, int64_t rank) {
  for (int64_t &a : axes) {
    if (a < 0)
      a += rank;
    if (a < 0 || a >= rank)
      return false;
  }
  llvm::sort(axes);
  return std::adjacent_find(axes.begin(), axes.end()) == axes.end();
}

/// Whether each of `rank` dims is one of `axes` (a 1-D tensor read at run
/// time; negative axes count from the end), with checks that the axes are
/// in range.
std::optional<SmallVector<Value>> axisFlags(OpBuilder &b, Location loc,
                                            Value axesTensor, int64_t rank,
                                            Operation *node) {
  std::optional<SmallVector<OpFoldResult>> axes =
      getIndexValues(b, loc, axesTensor);
  if (!axes)
    return std::nullopt;
  Value f = arith::ConstantIntOp::create(b, loc, 0, 1);
  SmallVector<Value> flags(rank, f);
  for (OpFoldResult a : *axes) {
    Value v = toValue(b, loc, a);
    check(b, loc,
          andI(b, loc, cmpI(b, loc, Pred::sge, v, idx(b, loc, -rank)),
               cmpI(b, loc, Pred::slt, v, idx(b, loc, rank))),
          node, "an axis is out of range");
    for (int64_t d = 0; d < rank; ++d)
      flags[d] = orI(b, loc, flags[d],
                     orI(b, loc, cmpI(b, loc, Pred::eq, v, idx(b, loc, d)),
                         cmpI(b, loc, Pred::eq, v, idx(b, loc, d - rank))));
  }
  return flags;
}

/// Squeeze with axes known at run time only: the result dims are the
/// input dims not squeezed, picked by position.
LogicalResult squeezeAtRunTime(Operation *op, Value data, Value axes,
                               RankedTensorType type,
                               ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  OpBuilder &b = rewriter;
  int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
  std::optional<SmallVector<Value>> flags = axisFlags(b, loc, axes, rank, op);
  if (!flags)
    return emitLoweringError(op, "the axes need a static length");
  SmallVector<Value> inDims = dimValues(b, loc, data);
  Value zero = idx(b, loc, 0), one = idx(b, loc, 1);
  SmallVector<Value> dims(type.getRank(), one);
  Value pos = zero;
  for (int64_t d = 0; d < rank; ++d) {
    check(b, loc,
          orI(b, loc, xorTrue(b, loc, (*flags)[d]),
              cmpI(b, loc, Pred::eq, inDims[d], one)),
          op, "a dim to squeeze is not 1");
    for (int64_t j = 0; j < type.getRank(); ++j)
      dims[j] = select(b, loc,
                       andI(b, loc, xorTrue(b, loc, (*flags)[d]),
                            cmpI(b, loc, Pred::eq, pos, idx(b, loc, j))),
                       inDims[d], dims[j]);
    pos = addI(b, loc, pos, select(b, loc, (*flags)[d], zero, one));
  }
  check(b, loc, cmpI(b, loc, Pred::eq, pos, idx(b, loc, type.getRank())), op,
        "the number of squeezed dims does not match the result rank");
  SmallVector<OpFoldResult> result(dims.begin(), dims.end());
  result = preferStatic(b, loc, op, type, result);
  return replaceWithReshape(rewriter, op, data, type, result);
}

/// Unsqueeze with axes known at run time only: a result dim is 1 where an
/// axis points, else the next input dim.
LogicalResult unsqueezeAtRunTime(Operation *op, Value data, Value axes,
                                 RankedTensorType type,
                                 ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  OpBuilder &b = rewriter;
  int64_t rank = type.getRank();
  int64_t inRank = cast<RankedTensorType>(data.getType()).getRank();
  std::optional<SmallVector<Value>> flags = axisFlags(b, loc, axes, rank, op);
  if (!flags)
    return emitLoweringError(op, "the axes need a static length");
  SmallVector<Value> inDims = dimValues(b, loc, data);
  Value zero = idx(b, loc, 0), one = idx(b, loc, 1);
  SmallVector<OpFoldResult> dims;
  Value pos = zero; // the input dim the next kept result dim takes
  for (int64_t j = 0; j < rank; ++j) {
    Value d = one;
    for (int64_t i = 0; i < inRank; ++i)
      d = select(b, loc, cmpI(b, loc, Pred::eq, pos, idx(b, loc, i)), inDims[i],
                 d);
    dims.push_back(select(b, loc, (*flags)[j], one, d));
    pos = addI(b, loc, pos, select(b, loc, (*flags)[j], zero, one));
  }
  check(b, loc, cmpI(b, loc, Pred::eq, pos, idx(b, loc, inRank)), op,
        "the number of axes does not match the result rank");
  dims = preferStatic(b, loc, op, type, dims);
  return replaceWithReshape(rewriter, op, data, type, dims);
}

struct SqueezeLowering : ONNXToLinalgPattern<SqueezeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(SqueezeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getData();
    RankedTensorType type, inType;
    if (failed(getRankedTypes(op, data, type, inType)))
      return failure();
    Location loc = op.getLoc();
    int64_t rank = inType.getRank();
    SmallVector<int64_t> axes;
    if (Value a = adaptor.getAxes()) {
      std::optional<SmallVector<int64_t>> values = getConstantIntValues(a);
      if (!values)
        return squeezeAtRunTime(op, data, a, type, rewriter);
      axes = *values;
      if (!normalizeAxes(axes, rank))
        return emitLoweringError(op, "axes out of range or repeated");
    } else {
      for (int64_t d = 0; d < rank; ++d)
        if (inType.getDimSize(d) == 1)
          axes.push_back(d);
    }
    if (rank - (int64_t)axes.size() != type.getRank())
      return emitLoweringError(
          op, "the squeezed dims are not known (dynamic dims and no axes)");
    // The squeezed dims must be 1.
    SmallVector<int64_t> shape(inType.getShape());
    for (int64_t a : axes) {
      if (inType.isDynamicDim(a)) {
        Value d = tensor::DimOp::create(rewriter, loc, data, a);
        check(rewriter, loc,
              cmpI(rewriter, loc, Pred::eq, d, idx(rewriter, loc, 1)), op,
              "dim " + Twine(a) + " to squeeze is not 1");
      } else if (inType.getDimSize(a) != 1) {
        return emitLoweringError(op, "dim " + Twine(a) + " is not 1");
      }
      shape[a] = 1;
    }
    data = castTo(rewriter, loc, data, inType.clone(shape));
    // Each kept dim takes the squeezed dims before it (the last also those
    // after it).
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices pending;
    for (int64_t d = 0; d < rank; ++d) {
      pending.push_back(d);
      if (!llvm::is_contained(axes, d)) {
        groups.push_back(pending);
        pending.clear();
      }
    }
    if (!groups.empty())
      groups.back().append(pending);
    Value r = tensor::CollapseShapeOp::create(rewriter, loc, data, groups);
    rewriter.replaceOp(op, castTo(rewriter, loc, r, type));
    return success();
  }
};

struct UnsqueezeLowering : ONNXToLinalgPattern<UnsqueezeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(UnsqueezeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getData();
    RankedTensorType type, inType;
    if (failed(getRankedTypes(op, data, type, inType)))
      return failure();
    Location loc = op.getLoc();
    int64_t rank = type.getRank();
    std::optional<SmallVector<int64_t>> values =
        getConstantIntValues(adaptor.getAxes());
    if (!values)
      return unsqueezeAtRunTime(op, data, adaptor.getAxes(), type, rewriter);
    SmallVector<int64_t> axes = *values;
    if (!normalizeAxes(axes, rank) ||
        rank != inType.getRank() + (int64_t)axes.size())
      return emitLoweringError(op, "axes out of range or repeated");
    SmallVector<OpFoldResult> inDims = getDims(rewriter, loc, data);
    SmallVector<OpFoldResult> dims;
    SmallVector<int64_t> shape;
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices pending;
    int64_t j = 0;
    for (int64_t d = 0; d < rank; ++d) {
      pending.push_back(d);
      if (llvm::is_contained(axes, d)) {
        dims.push_back(rewriter.getIndexAttr(1));
        shape.push_back(1);
        continue;
      }
      dims.push_back(inDims[j]);
      shape.push_back(inType.getDimSize(j));
      ++j;
      groups.push_back(pending);
      pending.clear();
    }
    if (!groups.empty())
      groups.back().append(pending);
    Value r = tensor::ExpandShapeOp::create(rewriter, loc, type.clone(shape),
                                            data, groups, dims);
    rewriter.replaceOp(op, castTo(rewriter, loc, r, type));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Expand, ConstantOfShape, Range
//===----------------------------------------------------------------------===//

struct ExpandLowering : ONNXToLinalgPattern<ExpandOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(ExpandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    Value input = adaptor.getInput();
    if (!type || !isa<RankedTensorType>(input.getType()))
      return emitLoweringError(op, "expected ranked tensors");
    Location loc = op.getLoc();
    std::optional<SmallVector<OpFoldResult>> shape =
        getIndexValues(rewriter, loc, adaptor.getShape());
    if (!shape)
      return emitLoweringError(op, "the shape input needs a static length");
    // The shape takes part in the broadcast as an (unused) empty tensor of
    // its sizes.
    for (OpFoldResult &s : *shape) {
      if (std::optional<int64_t> v = staticValue(s)) {
        if (*v < 0)
          return emitLoweringError(op, "a negative value in the shape");
        continue;
      }
      check(rewriter, loc,
            cmpI(rewriter, loc, Pred::sge, toValue(rewriter, loc, s),
                 idx(rewriter, loc, 0)),
            op, "a negative value in the shape");
    }
    Value shapeTensor =
        tensor::EmptyOp::create(rewriter, loc, *shape, type.getElementType());
    Value result = buildElementwise(
        rewriter, loc, {input, shapeTensor}, type, op,
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConstantOfShapeLowering : ONNXToLinalgPattern<ConstantOfShapeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(ConstantOfShapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    if (!type)
      return emitLoweringError(op, "expected a ranked result");
    Location loc = op.getLoc();
    Type elementType = type.getElementType();
    Value fill;
    if (auto value = op.getValueAttr()) {
      auto dense = dyn_cast<DenseElementsAttr>(value);
      if (!dense || dense.getNumElements() != 1)
        return emitLoweringError(op, "the value must be one dense element");
      Attribute element = dense.getValues<Attribute>()[0];
      if (auto i = dyn_cast<IntegerAttr>(element))
        element = IntegerAttr::get(elementType, i.getValue());
      auto typed = dyn_cast<TypedAttr>(element);
      if (!typed || typed.getType() != elementType)
        return emitLoweringError(op, "unsupported value type");
      fill = arith::ConstantOp::create(rewriter, loc, typed);
    } else {
      fill = zeroOf(rewriter, loc, elementType);
      if (!fill)
        return emitLoweringError(op, "unsupported element type");
    }
    SmallVector<OpFoldResult> dims;
    if (type.hasStaticShape()) {
      for (int64_t d : type.getShape())
        dims.push_back(rewriter.getIndexAttr(d));
    } else {
      std::optional<SmallVector<OpFoldResult>> shape =
          getIndexValues(rewriter, loc, adaptor.getInput());
      if (!shape || (int64_t)shape->size() != type.getRank())
        return emitLoweringError(op, "the shape input needs a static length");
      for (auto [i, s] : llvm::enumerate(*shape)) {
        if (!staticValue(s))
          check(rewriter, loc,
                cmpI(rewriter, loc, Pred::sge, toValue(rewriter, loc, s),
                     idx(rewriter, loc, 0)),
                op, "a negative value in the shape");
      }
      dims = preferStatic(rewriter, loc, op, type, *shape);
    }
    Value empty = tensor::EmptyOp::create(rewriter, loc, dims, elementType);
    Value result =
        linalg::FillOp::create(rewriter, loc, fill, empty).getResult(0);
    rewriter.replaceOp(op, castTo(rewriter, loc, result, type));
    return success();
  }
};

struct RangeLowering : ONNXToLinalgPattern<RangeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(RangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = getResultType(op);
    if (!type || type.getRank() != 1)
      return emitLoweringError(op, "expected a 1-D result");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type t = type.getElementType();
    Value start = extractScalar(b, loc, adaptor.getStart());
    Value limit = extractScalar(b, loc, adaptor.getLimit());
    Value delta = extractScalar(b, loc, adaptor.getDelta());
    Value count;
    if (isa<FloatType>(t)) {
      check(b, loc,
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, delta,
                                  zeroOf(b, loc, t)),
            op, "delta is 0");
      // Computed in f64 so that f16 counts do not lose precision.
      Type f64 = b.getF64Type();
      Value s = convertScalar(b, loc, start, f64, false);
      Value l = convertScalar(b, loc, limit, f64, false);
      Value d = convertScalar(b, loc, delta, f64, false);
      Value n = math::CeilOp::create(
          b, loc,
          arith::DivFOp::create(b, loc, arith::SubFOp::create(b, loc, l, s),
                                d));
      n = arith::MaximumFOp::create(b, loc, n, zeroOf(b, loc, f64));
      count = arith::FPToSIOp::create(b, loc, b.getI64Type(), n);
      count = castToIndex(b, loc, count);
    } else {
      Value zero = zeroOf(b, loc, t);
      check(b, loc, arith::CmpIOp::create(b, loc, Pred::ne, delta, zero), op,
            "delta is 0");
      Value safeDelta = arith::SelectOp::create(
          b, loc, arith::CmpIOp::create(b, loc, Pred::eq, delta, zero),
          createScalarConstant(b, loc, t, 1), delta);
      // In i64 so that the difference does not overflow narrow types.
      Type i64 = b.getI64Type();
      Value diff = arith::SubIOp::create(
          b, loc, convertScalar(b, loc, limit, i64, false),
          convertScalar(b, loc, start, i64, false));
      Value n = arith::CeilDivSIOp::create(
          b, loc, diff, convertScalar(b, loc, safeDelta, i64, false));
      n = arith::MaxSIOp::create(b, loc, n, zeroOf(b, loc, i64));
      count = castToIndex(b, loc, n);
    }
    SmallVector<OpFoldResult> dims = {count};
    if (!type.isDynamicDim(0)) {
      check(b, loc,
            cmpI(b, loc, Pred::eq, count, idx(b, loc, type.getDimSize(0))), op,
            "the number of values is not the inferred " +
                Twine(type.getDimSize(0)));
      dims[0] = b.getIndexAttr(type.getDimSize(0));
    }
    Value result = buildIndexGeneric(
        b, loc, type, dims, {}, {},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange) {
          Value i = convertScalar(
              nb, nloc,
              arith::IndexCastOp::create(nb, nloc, nb.getI64Type(), ivs[0]), t,
              false);
          if (isa<FloatType>(t))
            return (Value)arith::AddFOp::create(
                nb, nloc, start, arith::MulFOp::create(nb, nloc, i, delta));
          return (Value)arith::AddIOp::create(
              nb, nloc, start, arith::MulIOp::create(nb, nloc, i, delta));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::onnx::populateShapeToLinalgPatterns(const TypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<ShapeLowering, SizeLowering, ReshapeLowering, FlattenLowering,
               SqueezeLowering, UnsqueezeLowering, ExpandLowering,
               ConstantOfShapeLowering, RangeLowering>(converter,
                                                       patterns.getContext());
}
