//===- Utils.cpp - The toolkit of the onnx to linalg patterns -------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See Utils.h (Common.cpp defines the rest).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::onnx;

Value onnx::idx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value onnx::toValue(OpBuilder &b, Location loc, OpFoldResult v) {
  return getValueOrCreateConstantIndexOp(b, loc, v);
}

std::optional<int64_t> onnx::staticValue(OpFoldResult v) {
  return getConstantIntValue(v);
}

Value onnx::addI(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::AddIOp>(loc, x, y);
}
Value onnx::subI(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::SubIOp>(loc, x, y);
}
Value onnx::mulI(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::MulIOp>(loc, x, y);
}
Value onnx::minI(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::MinSIOp>(loc, x, y);
}
Value onnx::maxI(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::MaxSIOp>(loc, x, y);
}
Value onnx::cmpI(OpBuilder &b, Location loc, arith::CmpIPredicate p, Value x,
                 Value y) {
  return b.createOrFold<arith::CmpIOp>(loc, p, x, y);
}
Value onnx::select(OpBuilder &b, Location loc, Value c, Value x, Value y) {
  return b.createOrFold<arith::SelectOp>(loc, c, x, y);
}
Value onnx::andI(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::AndIOp>(loc, x, y);
}
Value onnx::orI(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::OrIOp>(loc, x, y);
}

Value onnx::clampI(OpBuilder &b, Location loc, Value x, Value lo, Value hi) {
  return minI(b, loc, maxI(b, loc, x, lo), hi);
}

OpFoldResult onnx::product(OpBuilder &b, Location loc,
                           ArrayRef<OpFoldResult> dims) {
  int64_t staticPart = 1;
  Value dynamicPart;
  for (OpFoldResult d : dims) {
    if (std::optional<int64_t> s = staticValue(d)) {
      staticPart *= *s;
      continue;
    }
    Value v = toValue(b, loc, d);
    dynamicPart = dynamicPart ? mulI(b, loc, dynamicPart, v) : v;
  }
  if (!dynamicPart)
    return b.getIndexAttr(staticPart);
  if (staticPart == 1)
    return dynamicPart;
  return mulI(b, loc, dynamicPart, idx(b, loc, staticPart));
}

Value onnx::extractIndex(OpBuilder &b, Location loc, Value tensor, int64_t i,
                         bool isUnsigned) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> indices;
  if (type.getRank() > 0)
    indices.push_back(idx(b, loc, i));
  for (int64_t d = 1; d < type.getRank(); ++d)
    indices.push_back(idx(b, loc, 0));
  Value v = tensor::ExtractOp::create(b, loc, tensor, indices);
  if (isa<FloatType>(v.getType()))
    v = arith::FPToSIOp::create(b, loc, b.getI64Type(), v);
  return castToIndex(b, loc, v, isUnsigned);
}

Value onnx::extractScalar(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> indices(type.getRank(), idx(b, loc, 0));
  return tensor::ExtractOp::create(b, loc, tensor, indices);
}

std::optional<SmallVector<OpFoldResult>>
onnx::getIndexValues(OpBuilder &b, Location loc, Value tensor) {
  SmallVector<OpFoldResult> out;
  if (std::optional<SmallVector<int64_t>> values =
          getConstantIntValues(tensor)) {
    for (int64_t v : *values)
      out.push_back(b.getIndexAttr(v));
    return out;
  }
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  if (!type || type.getRank() > 1 || !type.hasStaticShape())
    return std::nullopt;
  int64_t n = type.getNumElements();
  for (int64_t i = 0; i < n; ++i)
    out.push_back(extractIndex(b, loc, tensor, i));
  return out;
}

Value onnx::castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

/// The grouping of `from` into `to` (a collapse), when each group is made of
/// static dims whose product is the target's static size, plus at most one
/// group with dynamic dims on both sides.
static std::optional<SmallVector<ReassociationIndices>>
groupDims(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (llvm::count(from, ShapedType::kDynamic) > 1 ||
      llvm::count(to, ShapedType::kDynamic) > 1)
    return std::nullopt;
  if (to.empty()) {
    if (llvm::all_of(from, [](int64_t d) { return d == 1; }))
      return SmallVector<ReassociationIndices>{};
    return std::nullopt;
  }
  return getReassociationIndicesForCollapse(from, to);
}

RankedTensorType onnx::typeOfDims(ArrayRef<OpFoldResult> dims, Type elem) {
  SmallVector<int64_t> shape;
  SmallVector<Value> ignored;
  dispatchIndexOpFoldResults(dims, ignored, shape);
  return RankedTensorType::get(shape, elem);
}

Value onnx::reshapeTo(OpBuilder &b, Location loc, Value input,
                      RankedTensorType resultType,
                      ArrayRef<OpFoldResult> dims) {
  auto inType = cast<RankedTensorType>(input.getType());
  if (inType == resultType && resultType.hasStaticShape())
    return input;
  ArrayRef<int64_t> inShape = inType.getShape();
  SmallVector<int64_t> outShape;
  for (auto [i, d] : llvm::enumerate(dims)) {
    std::optional<int64_t> s = staticValue(d);
    outShape.push_back(resultType.isDynamicDim(i) ? ShapedType::kDynamic
                                                  : resultType.getDimSize(i));
    if (s && outShape.back() == ShapedType::kDynamic)
      outShape.back() = *s;
  }
  auto staticOut = resultType.clone(outShape);
  if (inType.getRank() > resultType.getRank()) {
    if (auto groups = groupDims(inShape, outShape)) {
      Value r = tensor::CollapseShapeOp::create(b, loc, input, *groups);
      return castTo(b, loc, r, resultType);
    }
  } else if (inType.getRank() < resultType.getRank()) {
    if (auto groups = groupDims(outShape, inShape)) {
      Value r = tensor::ExpandShapeOp::create(b, loc, staticOut, input, *groups,
                                              dims);
      return castTo(b, loc, r, resultType);
    }
  } else if (inShape == ArrayRef<int64_t>(outShape) &&
             llvm::count(outShape, ShapedType::kDynamic) <= 1) {
    return castTo(b, loc, input, resultType);
  }
  // Several dynamic dims in one group: tensor.reshape with the sizes as a
  // tensor (expand_shape of such groups does not lower to LLVM).
  if (llvm::count(outShape, ShapedType::kDynamic) > 1) {
    SmallVector<Value> sizes;
    for (OpFoldResult d : dims)
      sizes.push_back(toValue(b, loc, d));
    Value shape = tensor::FromElementsOp::create(
        b, loc,
        RankedTensorType::get({(int64_t)sizes.size()}, b.getIndexType()),
        sizes);
    Value r = tensor::ReshapeOp::create(b, loc, staticOut, input, shape);
    return castTo(b, loc, r, resultType);
  }
  // Through one dim.
  Value flat = input;
  if (inType.getRank() == 0) {
    flat = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({1}, inType.getElementType()), input,
        ArrayRef<ReassociationIndices>{},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  } else if (inType.getRank() > 1) {
    ReassociationIndices all =
        llvm::to_vector(llvm::seq<int64_t>(0, inType.getRank()));
    flat = tensor::CollapseShapeOp::create(b, loc, input,
                                           ArrayRef<ReassociationIndices>{all});
  }
  if (resultType.getRank() == 0) {
    flat = castTo(b, loc, flat,
                  RankedTensorType::get({1}, resultType.getElementType()));
    return tensor::CollapseShapeOp::create(b, loc, resultType, flat,
                                           ArrayRef<ReassociationIndices>{});
  }
  if (resultType.getRank() == 1)
    return castTo(b, loc, flat, resultType);
  // The one dim being expanded is static exactly when all the dims it expands
  // into are (the element counts are checked before a reshape is built).
  int64_t flatSize = ShapedType::kDynamic;
  if (staticOut.hasStaticShape())
    flatSize = staticOut.getNumElements();
  flat = castTo(b, loc, flat,
                RankedTensorType::get({flatSize}, resultType.getElementType()));
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, resultType.getRank()));
  Value r = tensor::ExpandShapeOp::create(
      b, loc, staticOut, flat, ArrayRef<ReassociationIndices>{all}, dims);
  return castTo(b, loc, r, resultType);
}

Value onnx::buildIndexGeneric(
    OpBuilder &b, Location loc, RankedTensorType type,
    ArrayRef<OpFoldResult> dims, ValueRange inputs, ArrayRef<AffineMap> maps,
    function_ref<Value(OpBuilder &, Location, ValueRange, ValueRange)> body) {
  int64_t rank = type.getRank();
  Value init = tensor::EmptyOp::create(b, loc, dims, type.getElementType());
  SmallVector<AffineMap> allMaps(maps);
  allMaps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, allMaps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> ivs;
        for (int64_t d = 0; d < rank; ++d)
          ivs.push_back(linalg::IndexOp::create(nb, nloc, d));
        Value v = body(nb, nloc, ivs, args.drop_back());
        linalg::YieldOp::create(nb, nloc, v);
      });
  return castTo(b, loc, generic.getResult(0), type);
}

void onnx::check(OpBuilder &b, Location loc, Value cond, Operation *node,
                 const Twine &message) {
  if (matchPattern(cond, m_One()))
    return;
  emitRuntimeCheck(b, loc, cond, node, message);
}

Value onnx::checkedIndex(OpBuilder &b, Location loc, Value index, Value size,
                         bool wrap, Operation *node, const Twine &what) {
  Value zero = idx(b, loc, 0);
  if (wrap) {
    Value negative = cmpI(b, loc, arith::CmpIPredicate::slt, index, zero);
    index = select(b, loc, negative, addI(b, loc, index, size), index);
  }
  Value inRange =
      andI(b, loc, cmpI(b, loc, arith::CmpIPredicate::sge, index, zero),
           cmpI(b, loc, arith::CmpIPredicate::slt, index, size));
  check(b, loc, inRange, node, what);
  return clampI(b, loc, index, zero,
                maxI(b, loc, subI(b, loc, size, idx(b, loc, 1)), zero));
}

SmallVector<Value> onnx::elementsIndexPosition(
    OpBuilder &b, Location loc, Value index, ValueRange ivs, int64_t axis,
    RankedTensorType indicesType, RankedTensorType dataType,
    ArrayRef<Value> dataDims, Operation *node) {
  SmallVector<Value> at;
  for (int64_t d = 0, r = dataType.getRank(); d < r; ++d) {
    if (d == axis) {
      at.push_back(checkedIndex(b, loc, castToIndex(b, loc, index), dataDims[d],
                                /*wrap=*/true, node, "index out of range"));
      continue;
    }
    // The other dims of indices must fit in data.
    int64_t di = indicesType.getDimSize(d), dd = dataType.getDimSize(d);
    if (!ShapedType::isDynamic(di) && !ShapedType::isDynamic(dd) && di <= dd) {
      at.push_back(ivs[d]);
      continue;
    }
    at.push_back(
        checkedIndex(b, loc, ivs[d], dataDims[d], false, node,
                     "indices are larger than data in dim " + Twine(d)));
  }
  return at;
}

SmallVector<Value> onnx::readIndexTuple(OpBuilder &b, Location loc,
                                        Value indices, ValueRange where,
                                        int64_t k, ArrayRef<Value> dataDims,
                                        Operation *node) {
  SmallVector<Value> at;
  SmallVector<Value> pos(where);
  pos.push_back(Value());
  for (int64_t m = 0; m < k; ++m) {
    pos.back() = idx(b, loc, m);
    Value i = tensor::ExtractOp::create(b, loc, indices, pos);
    at.push_back(checkedIndex(b, loc, castToIndex(b, loc, i), dataDims[m],
                              /*wrap=*/true, node, "index out of range"));
  }
  return at;
}

Value onnx::zeroOf(OpBuilder &b, Location loc, Type elementType) {
  if (isa<FloatType, IntegerType, IndexType>(elementType))
    return createScalarConstant(b, loc, elementType, 0);
  return {};
}

Value onnx::convertScalar(OpBuilder &b, Location loc, Value v, Type to,
                          bool fromUnsigned) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (isa<FloatType>(from) && isa<FloatType>(to))
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
               ? (Value)arith::ExtFOp::create(b, loc, to, v)
               : (Value)arith::TruncFOp::create(b, loc, to, v);
  if (isa<FloatType>(to))
    return fromUnsigned ? (Value)arith::UIToFPOp::create(b, loc, to, v)
                        : (Value)arith::SIToFPOp::create(b, loc, to, v);
  if (isa<FloatType>(from))
    return arith::FPToSIOp::create(b, loc, to, v);
  if (from.isIndex() || to.isIndex())
    return fromUnsigned ? (Value)arith::IndexCastUIOp::create(b, loc, to, v)
                        : (Value)arith::IndexCastOp::create(b, loc, to, v);
  if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth())
    return arith::TruncIOp::create(b, loc, to, v);
  return fromUnsigned ? (Value)arith::ExtUIOp::create(b, loc, to, v)
                      : (Value)arith::ExtSIOp::create(b, loc, to, v);
}

SmallVector<Value>
onnx::buildLoopNest(OpBuilder &b, Location loc, ArrayRef<Value> dims,
                    ValueRange inits,
                    function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                    ValueRange, ValueRange)>
                        body) {
  SmallVector<Value> lbs(dims.size(), idx(b, loc, 0));
  SmallVector<Value> steps(dims.size(), idx(b, loc, 1));
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, dims, steps, inits,
      [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
        return body(nb, nloc, ivs, args);
      });
  return llvm::to_vector(nest.results);
}

SmallVector<OpFoldResult> onnx::preferStatic(OpBuilder &b, Location loc,
                                             Operation *node,
                                             RankedTensorType type,
                                             ArrayRef<OpFoldResult> computed) {
  SmallVector<OpFoldResult> dims(computed);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.isDynamicDim(d))
      continue;
    int64_t size = type.getDimSize(d);
    if (!staticValue(computed[d]))
      check(b, loc,
            cmpI(b, loc, arith::CmpIPredicate::eq, toValue(b, loc, computed[d]),
                 idx(b, loc, size)),
            node,
            "the result's dim " + Twine(d) + " is not " + Twine(size) +
                " at run time, the size its inferred or declared type gives");
    dims[d] = b.getIndexAttr(size);
  }
  return dims;
}

void onnx::checkInferredSize(OpBuilder &b, Location loc, Operation *node,
                             RankedTensorType type, int64_t d,
                             OpFoldResult size) {
  if (type.isDynamicDim(d))
    return;
  check(b, loc,
        cmpI(b, loc, arith::CmpIPredicate::eq, toValue(b, loc, size),
             idx(b, loc, type.getDimSize(d))),
        node,
        "the output size of dim " + Twine(d) + " is not the inferred " +
            Twine(type.getDimSize(d)));
}

SmallVector<Value> onnx::dimValues(OpBuilder &b, Location loc, Value tensor) {
  SmallVector<Value> out;
  for (OpFoldResult d : getDims(b, loc, tensor))
    out.push_back(toValue(b, loc, d));
  return out;
}

using onnx::FloatMath;

Value FloatMath::c(double v) { return createScalarConstant(b, loc, type, v); }
Value FloatMath::add(Value x, Value y) {
  return arith::AddFOp::create(b, loc, x, y);
}
Value FloatMath::sub(Value x, Value y) {
  return arith::SubFOp::create(b, loc, x, y);
}
Value FloatMath::mul(Value x, Value y) {
  return arith::MulFOp::create(b, loc, x, y);
}
Value FloatMath::div(Value x, Value y) {
  return arith::DivFOp::create(b, loc, x, y);
}
Value FloatMath::max(Value x, Value y) {
  return arith::MaximumFOp::create(b, loc, x, y);
}
Value FloatMath::cmp(arith::CmpFPredicate p, Value x, Value y) {
  return arith::CmpFOp::create(b, loc, p, x, y);
}
Value FloatMath::sel(Value c, Value x, Value y) {
  return arith::SelectOp::create(b, loc, c, x, y);
}
Value FloatMath::floor(Value x) { return math::FloorOp::create(b, loc, x); }
Value FloatMath::fromIndex(Value i) {
  return arith::SIToFPOp::create(
      b, loc, type, arith::IndexCastOp::create(b, loc, b.getI64Type(), i));
}
Value FloatMath::toIndex(Value x) {
  return arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      arith::FPToSIOp::create(b, loc, b.getI64Type(), x));
}
Value FloatMath::clamp(Value x, Value lo, Value hi) {
  return arith::MinimumFOp::create(
      b, loc, arith::MaximumFOp::create(b, loc, x, lo), hi);
}

//===----------------------------------------------------------------------===//
// IndexMath
//===----------------------------------------------------------------------===//

Value IndexMath::value(OpFoldResult v) const {
  return getValueOrCreateConstantIndexOp(b, loc, v);
}

OpFoldResult IndexMath::fold(Value v) const { return getAsOpFoldResult(v); }

OpFoldResult IndexMath::cst(int64_t v) const { return b.getIndexAttr(v); }

OpFoldResult IndexMath::add(OpFoldResult x, OpFoldResult y) const {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return cst(*cx + *cy);
  if (cy && *cy == 0)
    return x;
  if (cx && *cx == 0)
    return y;
  return fold(b.createOrFold<arith::AddIOp>(loc, value(x), value(y)));
}

OpFoldResult IndexMath::sub(OpFoldResult x, OpFoldResult y) const {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return cst(*cx - *cy);
  if (cy && *cy == 0)
    return x;
  return fold(b.createOrFold<arith::SubIOp>(loc, value(x), value(y)));
}

OpFoldResult IndexMath::mul(OpFoldResult x, OpFoldResult y) const {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return cst(*cx * *cy);
  if (cy && *cy == 1)
    return x;
  if (cx && *cx == 1)
    return y;
  return fold(b.createOrFold<arith::MulIOp>(loc, value(x), value(y)));
}

OpFoldResult IndexMath::floorDiv(OpFoldResult x, OpFoldResult y) const {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return cst(llvm::divideFloorSigned(*cx, *cy));
  if (cy && *cy == 1)
    return x;
  return fold(b.createOrFold<arith::FloorDivSIOp>(loc, value(x), value(y)));
}

OpFoldResult IndexMath::ceilDiv(OpFoldResult x, OpFoldResult y) const {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return cst(llvm::divideCeilSigned(*cx, *cy));
  if (cy && *cy == 1)
    return x;
  return fold(b.createOrFold<arith::CeilDivSIOp>(loc, value(x), value(y)));
}

OpFoldResult IndexMath::selectGE(OpFoldResult a, OpFoldResult c, OpFoldResult x,
                                 OpFoldResult y) const {
  std::optional<int64_t> ca = getConstantIntValue(a),
                         cc = getConstantIntValue(c);
  if (ca && cc)
    return *ca >= *cc ? x : y;
  Value ge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, value(a),
                                   value(c));
  return fold(arith::SelectOp::create(b, loc, ge, value(x), value(y)));
}

OpFoldResult IndexMath::max(OpFoldResult x, OpFoldResult y) const {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return cst(std::max(*cx, *cy));
  return fold(b.createOrFold<arith::MaxSIOp>(loc, value(x), value(y)));
}

OpFoldResult IndexMath::min(OpFoldResult x, OpFoldResult y) const {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return cst(std::min(*cx, *cy));
  return fold(b.createOrFold<arith::MinSIOp>(loc, value(x), value(y)));
}

//===----------------------------------------------------------------------===//
// Windows
//===----------------------------------------------------------------------===//

LogicalResult mlir::onnx::readWindowAttrs(Operation *op,
                                          ArrayRef<int64_t> kernel,
                                          WindowAttrs &attrs) {
  size_t n = kernel.size();
  attrs.kernel.assign(kernel.begin(), kernel.end());
  for (int64_t k : kernel)
    if (k <= 0)
      return emitLoweringError(op, "kernel_shape values must be positive");
  auto read = [&](StringRef name, size_t size, int64_t fallback,
                  SmallVector<int64_t> &out) -> LogicalResult {
    out.assign(size, fallback);
    auto attr = op->getAttrOfType<DenseI64ArrayAttr>(name);
    if (!attr)
      return success();
    if (attr.size() != static_cast<int64_t>(size))
      return emitLoweringError(op, Twine(name) + " has " + Twine(attr.size()) +
                                       " values, " + Twine(size) + " expected");
    out.assign(attr.asArrayRef().begin(), attr.asArrayRef().end());
    return success();
  };
  if (failed(read("strides", n, 1, attrs.strides)) ||
      failed(read("dilations", n, 1, attrs.dilations)) ||
      failed(read("pads", 2 * n, 0, attrs.pads)))
    return failure();
  for (size_t i = 0; i < n; ++i)
    if (attrs.strides[i] <= 0 || attrs.dilations[i] <= 0)
      return emitLoweringError(op, "strides and dilations must be positive");
  for (int64_t p : attrs.pads)
    if (p < 0)
      return emitLoweringError(op, "negative pads");
  StringRef autoPad = "NOTSET";
  if (auto attr = op->getAttrOfType<StringAttr>("auto_pad"))
    autoPad = attr.getValue();
  std::optional<window::AutoPad> parsed = window::parseAutoPad(autoPad);
  if (!parsed)
    return emitLoweringError(op, "unknown auto_pad '" + autoPad + "'");
  attrs.autoPad = *parsed;
  return success();
}

void mlir::onnx::checkWindowFits(IndexMath &m, Operation *node, OpFoldResult in,
                                 OpFoldResult begin, OpFoldResult end,
                                 int64_t kernel, int64_t dilation,
                                 int64_t axis) {
  int64_t effective = window::effectiveKernel(kernel, dilation);
  OpFoldResult padded = m.add(m.add(in, begin), end);
  std::optional<int64_t> size = getConstantIntValue(padded);
  if (size && *size >= effective)
    return;
  emitRuntimeCheck(m.b, m.loc,
                   arith::CmpIOp::create(m.b, m.loc, arith::CmpIPredicate::sge,
                                         m.value(padded),
                                         m.value(m.cst(effective))),
                   node,
                   "the window (" + Twine(effective) +
                       ") is larger than the padded input along spatial axis " +
                       Twine(axis));
}

void mlir::onnx::computeSpatialPads(IndexMath &m, const WindowAttrs &attrs,
                                    ArrayRef<OpFoldResult> inDims,
                                    SmallVector<OpFoldResult> &begin,
                                    SmallVector<OpFoldResult> &end) {
  size_t n = attrs.kernel.size();
  begin.clear();
  end.clear();
  for (size_t i = 0; i < n; ++i) {
    if (attrs.autoPad == window::AutoPad::NotSet) {
      begin.push_back(m.cst(attrs.pads[i]));
      end.push_back(m.cst(attrs.pads[n + i]));
      continue;
    }
    if (attrs.autoPad == window::AutoPad::Valid) {
      begin.push_back(m.cst(0));
      end.push_back(m.cst(0));
      continue;
    }
    auto [padBegin, padEnd] = window::samePads(
        m, inDims[i], attrs.kernel[i], attrs.strides[i], attrs.dilations[i],
        attrs.autoPad == window::AutoPad::SameUpper);
    begin.push_back(padBegin);
    end.push_back(padEnd);
  }
}

//===----------------------------------------------------------------------===//
// Types and tensors
//===----------------------------------------------------------------------===//

Type mlir::onnx::getAccumulatorType(Type type) {
  if (type.isF16() || type.isBF16())
    return Float32Type::get(type.getContext());
  return type;
}

Value mlir::onnx::convertFloat(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, loc, to, v);
  return arith::TruncFOp::create(b, loc, to, v);
}

Value mlir::onnx::createFilled(OpBuilder &b, Location loc,
                               ArrayRef<OpFoldResult> dims, Type elementType,
                               Value value) {
  Value empty = tensor::EmptyOp::create(b, loc, dims, elementType);
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

Value mlir::onnx::padWith(OpBuilder &b, Location loc, Value source,
                          ArrayRef<OpFoldResult> low,
                          ArrayRef<OpFoldResult> high, Value padValue) {
  bool none = true;
  for (OpFoldResult p : llvm::concat<const OpFoldResult>(low, high))
    if (!isConstantIntValue(p, 0))
      none = false;
  if (none)
    return source;
  return tensor::PadOp::create(b, loc, Type(), source, low, high, padValue);
}

Value mlir::onnx::mapTensor(
    OpBuilder &b, Location loc, Value t, Type elem,
    function_ref<Value(OpBuilder &, Location, Value)> fn) {
  int64_t rank = cast<RankedTensorType>(t.getType()).getRank();
  Value out = tensor::EmptyOp::create(b, loc, getDims(b, loc, t), elem);
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{out.getType()}, ValueRange{t}, ValueRange{out},
             maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, fn(nb, l, args[0]));
             })
      .getResult(0);
}

Value mlir::onnx::convertTensorElements(OpBuilder &b, Location loc,
                                        Value tensor, Type elementType) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (type.getElementType() == elementType)
    return tensor;
  return mapTensor(b, loc, tensor, elementType,
                   [&](OpBuilder &nb, Location nloc, Value v) {
                     return convertFloat(nb, nloc, v, elementType);
                   });
}

Value mlir::onnx::castToType(OpBuilder &b, Location loc, Value value,
                             Type type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

Value mlir::onnx::createLowest(OpBuilder &b, Location loc, Type elementType,
                               bool isUnsigned) {
  if (auto f = dyn_cast<FloatType>(elementType))
    return arith::ConstantOp::create(
        b, loc, elementType,
        b.getFloatAttr(elementType,
                       APFloat::getInf(f.getFloatSemantics(), true)));
  unsigned width = elementType.getIntOrFloatBitWidth();
  APInt lowest =
      isUnsigned ? APInt::getZero(width) : APInt::getSignedMinValue(width);
  return arith::ConstantOp::create(b, loc, elementType,
                                   b.getIntegerAttr(elementType, lowest));
}

bool onnx::isAbsent(Value v) {
  if (!v)
    return true;
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.hasStaticShape() && t.getNumElements() == 0;
}
