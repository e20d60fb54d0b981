//===- Common.cpp - Helpers shared by the onnx-to-linalg patterns ---------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Type conversion, messages and run-time checks, constant operands, and the
// numpy broadcasting of elementwise generics (ONNXToLinalg.h).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::onnx;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type mlir::onnx::convertElementType(Type type) {
  // Strings: pointers to runtime-owned bytes (Text/Strings.cpp).
  if (isa<StringType>(type))
    return IntegerType::get(type.getContext(), 64);
  if (auto i = dyn_cast<IntegerType>(type))
    if (!i.isSignless())
      return IntegerType::get(type.getContext(), i.getWidth());
  return type;
}

ONNXToLinalgTypeConverter::ONNXToLinalgTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](RankedTensorType type) -> Type {
    return type.clone(convertElementType(type.getElementType()));
  });
  addConversion([](UnrankedTensorType type) -> Type {
    return UnrankedTensorType::get(convertElementType(type.getElementType()));
  });
  addConversion([](Type type) -> std::optional<Type> {
    if (!isRuntimeHandleType(type))
      return std::nullopt;
    return LLVM::LLVMPointerType::get(type.getContext());
  });
}

Type mlir::onnx::getElementTypeOf(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.getElementType();
  return type;
}

bool mlir::onnx::isUnsignedElement(Type type) {
  auto i = dyn_cast<IntegerType>(getElementTypeOf(type));
  return i && i.isUnsigned();
}

//===----------------------------------------------------------------------===//
// Messages and run-time checks
//===----------------------------------------------------------------------===//

std::string mlir::onnx::describeNode(Operation *op) {
  std::string text = op->getName().getStringRef().str();
  if (auto name = op->getAttrOfType<StringAttr>("onnx.name"))
    if (!name.getValue().empty())
      text += " '" + name.getValue().str() + "'";
  return text;
}

LogicalResult mlir::onnx::emitLoweringError(Operation *op,
                                            const Twine &message) {
  return op->emitError() << describeNode(op) << ": cannot lower: " << message;
}

LogicalResult mlir::onnx::resolveAxis(Operation *op, int64_t &axis,
                                      int64_t rank) {
  std::optional<int64_t> normalized = normalizeAxis(axis, rank);
  if (!normalized)
    return emitLoweringError(op, "axis out of range");
  axis = *normalized;
  return success();
}

void mlir::onnx::emitRuntimeCheck(OpBuilder &b, Location loc, Value cond,
                                  Operation *node, const Twine &message) {
  cf::AssertOp::create(b, loc, cond,
                       (describeNode(node) + ": " + message).str());
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// `d` truncated toward zero, saturated to int64_t's range (NaN: 0): a C++
/// conversion of a value out of range is undefined.
static int64_t truncateToInt64(double d) {
  if (std::isnan(d))
    return 0;
  if (d >= 9223372036854775807.0)
    return std::numeric_limits<int64_t>::max();
  if (d <= -9223372036854775808.0)
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

Value mlir::onnx::createScalarConstant(OpBuilder &b, Location loc, Type type,
                                       double value) {
  if (isa<FloatType>(type))
    return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
  if (type.isIndex())
    return arith::ConstantIndexOp::create(b, loc, truncateToInt64(value));
  return arith::ConstantOp::create(
      b, loc, type, b.getIntegerAttr(type, truncateToInt64(value)));
}

/// The elements of a constant attribute (dense, or a resource blob of ints
/// or floats of whole bytes) through `fn(int64_t, double)`: integers by their
/// signedness, floats as doubles (truncated toward zero for the int64).
template <typename Fn> static bool forEachElement(Attribute attr, Fn fn) {
  auto fromInt = [&](const APInt &v, bool isUnsigned) {
    int64_t i =
        isUnsigned ? static_cast<int64_t>(v.getZExtValue()) : v.getSExtValue();
    fn(i, isUnsigned ? static_cast<double>(v.getZExtValue())
                     : static_cast<double>(i));
  };
  auto fromFloat = [&](const APFloat &v) {
    double d = v.convertToDouble();
    fn(truncateToInt64(d), d);
  };
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    Type elementType = dense.getElementType();
    if (isa<IntegerType, IndexType>(elementType)) {
      for (const APInt &v : dense.getValues<APInt>())
        fromInt(v, elementType.isUnsignedInteger());
      return true;
    }
    if (isa<FloatType>(elementType)) {
      for (const APFloat &v : dense.getValues<APFloat>())
        fromFloat(v);
      return true;
    }
    return false;
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  if (!resource)
    return false;
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  Type elementType = resource.getType().getElementType();
  if (!blob || !elementType.isIntOrFloat())
    return false;
  ArrayRef<char> data = blob->getData();
  int64_t count = resource.getType().getNumElements();
  unsigned width = elementType.getIntOrFloatBitWidth();
  if (width % 8 != 0 || width > 64 ||
      data.size() < static_cast<size_t>(count) * width / 8)
    return false;
  for (int64_t i = 0; i < count; ++i) {
    uint64_t bits = 0;
    std::memcpy(&bits, data.data() + i * (width / 8), width / 8);
    APInt v(width, bits);
    if (auto f = dyn_cast<FloatType>(elementType))
      fromFloat(APFloat(f.getFloatSemantics(), v));
    else
      fromInt(v, elementType.isUnsignedInteger());
  }
  return true;
}

/// The same for the elements of a constant tensor value.
template <typename Fn> static bool forEachConstantElement(Value value, Fn fn) {
  Attribute attr;
  if (!value || !matchPattern(value, m_Constant(&attr)))
    return false;
  return forEachElement(attr, fn);
}

std::optional<SmallVector<double>>
mlir::onnx::getElementValues(Attribute attr) {
  SmallVector<double> out;
  if (!forEachElement(attr, [&](int64_t, double d) { out.push_back(d); }))
    return std::nullopt;
  return out;
}

std::optional<SmallVector<int64_t>>
mlir::onnx::getConstantIntValues(Value value) {
  SmallVector<int64_t> out;
  if (!forEachConstantElement(value,
                              [&](int64_t i, double) { out.push_back(i); }))
    return std::nullopt;
  return out;
}

std::optional<SmallVector<double>>
mlir::onnx::getConstantFloatValues(Value value) {
  SmallVector<double> out;
  if (!forEachConstantElement(value,
                              [&](int64_t, double d) { out.push_back(d); }))
    return std::nullopt;
  return out;
}

SmallVector<OpFoldResult> mlir::onnx::getDims(OpBuilder &b, Location loc,
                                              Value tensor) {
  return tensor::getMixedSizes(b, loc, tensor);
}

Value mlir::onnx::castToIndex(OpBuilder &b, Location loc, Value value,
                              bool isUnsigned) {
  if (value.getType().isIndex())
    return value;
  if (isUnsigned)
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), value);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

StringAttr mlir::onnx::dimSymbol(Value value, int64_t dim) {
  ArrayAttr names;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func =
        dyn_cast_or_null<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (!func || arg.getOwner() != &func.getFunctionBody().front())
      return {};
    names =
        func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(), "onnx.dim_params");
  } else {
    auto result = cast<OpResult>(value);
    auto all = dyn_cast_or_null<ArrayAttr>(
        result.getOwner()->getDiscardableAttr("onnx.dim_params"));
    if (!all || all.size() <= result.getResultNumber())
      return {};
    names = dyn_cast<ArrayAttr>(all[result.getResultNumber()]);
  }
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!names || !type || names.size() != static_cast<size_t>(type.getRank()) ||
      dim < 0 || dim >= type.getRank() || !type.isDynamicDim(dim))
    return {};
  auto name = dyn_cast<StringAttr>(names[dim]);
  return name && !name.getValue().empty() ? name : StringAttr();
}

/// computeBroadcastDims, and per result dim whether its dynamic input dims
/// all have the same symbolic name (then they are all the result's size:
/// none is read broadcast).
static SmallVector<OpFoldResult>
broadcastDims(OpBuilder &b, Location loc, ValueRange inputs,
              RankedTensorType resultType, Operation *node,
              ValueRange originals, SmallVectorImpl<bool> &sameNamed) {
  int64_t rank = resultType.getRank();
  SmallVector<OpFoldResult> dims;
  sameNamed.assign(rank, false);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t o = 0; o < rank; ++o) {
    // The dims of the inputs aligned with result dim `o`.
    SmallVector<Value> dynamic;
    SmallVector<StringAttr> names;
    std::optional<int64_t> staticSize;
    if (!resultType.isDynamicDim(o))
      staticSize = resultType.getDimSize(o);
    for (auto [i, input] : llvm::enumerate(inputs)) {
      auto type = cast<RankedTensorType>(input.getType());
      int64_t j = o - (rank - type.getRank());
      if (j < 0)
        continue;
      if (type.isDynamicDim(j)) {
        dynamic.push_back(tensor::DimOp::create(b, loc, input, j));
        names.push_back(i < originals.size() ? dimSymbol(originals[i], j)
                                             : StringAttr());
      } else if (type.getDimSize(j) != 1 && !staticSize) {
        staticSize = type.getDimSize(j);
      }
    }
    Value size;
    if (staticSize) {
      dims.push_back(b.getIndexAttr(*staticSize));
      if (dynamic.empty())
        continue;
      size = arith::ConstantIndexOp::create(b, loc, *staticSize);
    } else if (dynamic.empty()) {
      dims.push_back(b.getIndexAttr(1));
      continue;
    } else if (dynamic.size() > 1 && names.front() && llvm::all_equal(names)) {
      // One name: one size, which every input has.
      sameNamed[o] = true;
      size = dynamic.front();
      dims.push_back(size);
      for (Value d : ArrayRef(dynamic).drop_front())
        emitRuntimeCheck(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, size),
            node,
            "input dims named '" + names.front().getValue() + "' differ (dim " +
                Twine(o) + " of the result)");
      continue;
    } else {
      // The first dim that is not 1, or 1.
      size = dynamic.back();
      for (Value d : llvm::reverse(ArrayRef(dynamic).drop_back())) {
        Value isOne =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, one);
        size = arith::SelectOp::create(b, loc, isOne, size, d);
      }
      dims.push_back(size);
    }
    // A single dynamic dim with nothing static to agree with is the size.
    if (dynamic.size() == 1 && !staticSize)
      continue;
    for (Value d : dynamic) {
      Value isOne =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, one);
      Value same =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d, size);
      emitRuntimeCheck(b, loc, arith::OrIOp::create(b, loc, isOne, same), node,
                       "input dims do not broadcast (dim " + Twine(o) +
                           " of the result)");
    }
  }
  return dims;
}

SmallVector<OpFoldResult>
mlir::onnx::computeBroadcastDims(OpBuilder &b, Location loc, ValueRange inputs,
                                 RankedTensorType resultType, Operation *node,
                                 ValueRange originals) {
  SmallVector<bool> sameNamed;
  return broadcastDims(b, loc, inputs, resultType, node, originals, sameNamed);
}

Value mlir::onnx::extractBroadcastElement(OpBuilder &b, Location loc,
                                          Value input, int64_t rank) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t offset = rank - type.getRank();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> indices;
  for (int64_t j = 0; j < type.getRank(); ++j) {
    if (!type.isDynamicDim(j) && type.getDimSize(j) == 1) {
      indices.push_back(zero);
      continue;
    }
    Value idx = linalg::IndexOp::create(b, loc, offset + j);
    if (type.isDynamicDim(j)) {
      Value dim = tensor::DimOp::create(b, loc, input, j);
      Value isOne =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, dim, one);
      idx = arith::SelectOp::create(b, loc, isOne, zero, idx);
    }
    indices.push_back(idx);
  }
  return tensor::ExtractOp::create(b, loc, input, indices);
}

Value mlir::onnx::buildElementwise(
    OpBuilder &b, Location loc, ValueRange inputs, RankedTensorType resultType,
    Operation *node,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body,
    ValueRange originals) {
  int64_t rank = resultType.getRank();
  SmallVector<bool> sameNamed;
  SmallVector<OpFoldResult> dims =
      broadcastDims(b, loc, inputs, resultType, node, originals, sameNamed);
  Value init =
      tensor::EmptyOp::create(b, loc, dims, resultType.getElementType());

  // An input goes into the generic with an indexing map when each of its
  // dims is either the result's dim or a static 1; an input with a dynamic
  // dim that other inputs may broadcast against is read in the body.
  SmallVector<Value> mapped;
  SmallVector<AffineMap> maps;
  SmallVector<int> slotOf(inputs.size(), -1);
  MLIRContext *ctx = b.getContext();
  for (auto [i, input] : llvm::enumerate(inputs)) {
    auto type = cast<RankedTensorType>(input.getType());
    int64_t offset = rank - type.getRank();
    SmallVector<AffineExpr> exprs;
    bool direct = true;
    for (int64_t j = 0; j < type.getRank(); ++j) {
      int64_t o = offset + j;
      if (!type.isDynamicDim(j)) {
        exprs.push_back(type.getDimSize(j) == 1 && resultType.getDimSize(o) != 1
                            ? getAffineConstantExpr(0, ctx)
                            : getAffineDimExpr(o, ctx));
        continue;
      }
      // A dynamic dim is the result's dim when every other input has no
      // such dim or a static 1 there, and the result's dim is not a static
      // size it might broadcast to (a declared type): a run-time 1 must not
      // be read as that many elements.
      bool alone = resultType.isDynamicDim(o) || resultType.getDimSize(o) == 1;
      for (auto [k, other] : llvm::enumerate(inputs)) {
        if (sameNamed[o])
          break;
        if (k == i)
          continue;
        auto otherType = cast<RankedTensorType>(other.getType());
        int64_t jk = o - (rank - otherType.getRank());
        if (jk >= 0 && otherType.getDimSize(jk) != 1)
          alone = false;
      }
      if (!alone) {
        direct = false;
        break;
      }
      exprs.push_back(getAffineDimExpr(o, ctx));
    }
    if (!direct)
      continue;
    slotOf[i] = mapped.size();
    mapped.push_back(input);
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, mapped, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> scalars;
        for (auto [i, input] : llvm::enumerate(inputs)) {
          if (slotOf[i] >= 0) {
            scalars.push_back(args[slotOf[i]]);
            continue;
          }
          scalars.push_back(extractBroadcastElement(nb, nloc, input, rank));
        }
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, scalars));
      });
  return generic.getResult(0);
}
