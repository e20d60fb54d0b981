//===- NNUtils.cpp - Helpers of the NN family lowerings -------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// See NNUtils.h.
//
//===----------------------------------------------------------------------===//

#include "NNUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::onnx;

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

static int64_t floorDivInt(int64_t x, int64_t y) {
  int64_t q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0)))
    --q;
  return q;
}

OpFoldResult IndexMath::floorDiv(OpFoldResult x, OpFoldResult y) const {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return cst(floorDivInt(*cx, *cy));
  if (cy && *cy == 1)
    return x;
  return fold(b.createOrFold<arith::FloorDivSIOp>(loc, value(x), value(y)));
}

OpFoldResult IndexMath::ceilDiv(OpFoldResult x, OpFoldResult y) const {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return cst(-floorDivInt(-*cx, *cy));
  if (cy && *cy == 1)
    return x;
  return fold(b.createOrFold<arith::CeilDivSIOp>(loc, value(x), value(y)));
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
  attrs.autoPad = "NOTSET";
  if (auto autoPad = op->getAttrOfType<StringAttr>("auto_pad"))
    attrs.autoPad = autoPad.getValue().str();
  if (attrs.autoPad != "NOTSET" && attrs.autoPad != "VALID" &&
      attrs.autoPad != "SAME_UPPER" && attrs.autoPad != "SAME_LOWER")
    return emitLoweringError(op, "unknown auto_pad '" + attrs.autoPad + "'");
  return success();
}

void mlir::onnx::computeSpatialPads(IndexMath &m, const WindowAttrs &attrs,
                                    ArrayRef<OpFoldResult> inDims,
                                    SmallVector<OpFoldResult> &begin,
                                    SmallVector<OpFoldResult> &end) {
  size_t n = attrs.kernel.size();
  begin.clear();
  end.clear();
  for (size_t i = 0; i < n; ++i) {
    if (attrs.autoPad == "NOTSET") {
      begin.push_back(m.cst(attrs.pads[i]));
      end.push_back(m.cst(attrs.pads[n + i]));
      continue;
    }
    if (attrs.autoPad == "VALID") {
      begin.push_back(m.cst(0));
      end.push_back(m.cst(0));
      continue;
    }
    int64_t effective = (attrs.kernel[i] - 1) * attrs.dilations[i] + 1;
    OpFoldResult out = m.ceilDiv(inDims[i], m.cst(attrs.strides[i]));
    OpFoldResult total =
        m.max(m.cst(0),
              m.sub(m.add(m.mul(m.sub(out, m.cst(1)), m.cst(attrs.strides[i])),
                          m.cst(effective)),
                    inDims[i]));
    OpFoldResult half = m.floorDiv(total, m.cst(2));
    OpFoldResult rest = m.sub(total, half);
    if (attrs.autoPad == "SAME_UPPER") {
      begin.push_back(half);
      end.push_back(rest);
    } else {
      begin.push_back(rest);
      end.push_back(half);
    }
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

Value mlir::onnx::convertTensorElements(OpBuilder &b, Location loc,
                                        Value tensor, Type elementType) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (type.getElementType() == elementType)
    return tensor;
  int64_t rank = type.getRank();
  Value init =
      tensor::EmptyOp::create(b, loc, getDims(b, loc, tensor), elementType);
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{tensor},
             ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(
                   nb, nloc, convertFloat(nb, nloc, args[0], elementType));
             })
      .getResult(0);
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
