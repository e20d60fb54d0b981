//===- Quantization.cpp - Linear quantization ops -------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// QuantizeLinear and DequantizeLinear are one linalg.generic each over the
// input's dims. Their scale and zero point are read through indexing maps:
// per tensor (a scalar or a one-element 1-D tensor: the constant map to 0),
// per axis (a 1-D tensor indexed by the `axis` dim) or blocked (a tensor of
// x's rank whose `axis` dim is indexed by `d floordiv block_size`), with
// run-time checks that the parameter's sizes fit x's.
// The arithmetic is in f32 (every input type converts to it exactly, but
// int32 x above 2^24): QuantizeLinear computes round_half_even(x / scale) +
// zero_point clamped to the output type's range for integer outputs, and
// encodes x / scale + zero_point with `saturate` for float8/float4 outputs
// (the encoders of Cast); DequantizeLinear computes (x - zero_point) * scale.
//
// The integer ops subtract the zero points from the inputs widened to i32
// (zero points per tensor, per row of A / per column of B, per output
// channel of w) and let onnx.MatMul / onnx.Conv on i32 tensors do the
// accumulation (those ops are then lowered by their own patterns, to
// linalg.batch_matmul, linalg.conv_* with i32 operands). QLinearMatMul and
// QLinearConv requantize that i32 result: round_half_even(acc * (a_scale *
// b_scale / y_scale)) + y_zero_point, saturated. QLinearMatMul with float8
// operands does the same on their decoded f32 values (f32 matmul).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// A tensor operand of an elementwise generic and its indexing map over the
/// loops of the result.
struct MappedInput {
  Value value;
  AffineMap map;
  Type onnxElement; // element type at the onnx level (signedness kept)
};

Value dimValue(OpBuilder &b, Location loc, Value tensor, int64_t dim) {
  return tensor::DimOp::create(b, loc, tensor, dim);
}

/// Checks at run time (or now, when both are static) that dim `pd` of
/// `param` equals `expected`.
LogicalResult checkDim(OpBuilder &b, Location loc, Value param, int64_t pd,
                       Value expected, std::optional<int64_t> staticExpected,
                       Operation *node, const Twine &message) {
  auto type = cast<RankedTensorType>(param.getType());
  if (!type.isDynamicDim(pd) && staticExpected) {
    if (type.getDimSize(pd) != *staticExpected)
      return emitLoweringError(node, message);
    return success();
  }
  Value eq = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                   dimValue(b, loc, param, pd), expected);
  emitRuntimeCheck(b, loc, eq, node, message);
  return success();
}

/// The indexing map of a quantization parameter (scale or zero point) of an
/// input `x` of rank `rank`: per tensor, per axis or blocked.
FailureOr<AffineMap> getParamMap(OpBuilder &b, Location loc, Value param,
                                 Value x, int64_t axis, int64_t blockSize,
                                 Operation *node) {
  MLIRContext *ctx = b.getContext();
  auto xType = cast<RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  auto pType = dyn_cast<RankedTensorType>(param.getType());
  if (!pType)
    return emitLoweringError(node, "a scale or zero point of unknown rank");
  int64_t pRank = pType.getRank();
  if (pRank == 0)
    return AffineMap::get(rank, 0, {}, ctx);
  if (axis < 0)
    axis += rank;
  if (pRank == 1 && blockSize <= 0) {
    if (pType.getDimSize(0) == 1 || rank == 0)
      return AffineMap::get(rank, 0, {getAffineConstantExpr(0, ctx)}, ctx);
    if (axis < 0 || axis >= rank)
      return emitLoweringError(node, "axis is out of range");
    std::optional<int64_t> expected;
    if (!xType.isDynamicDim(axis))
      expected = xType.getDimSize(axis);
    if (failed(checkDim(b, loc, param, 0, dimValue(b, loc, x, axis), expected,
                        node,
                        "the scale or zero point does not have x's size "
                        "on axis")))
      return failure();
    return AffineMap::get(rank, 0, {getAffineDimExpr(axis, ctx)}, ctx);
  }
  if (blockSize <= 0 || pRank != rank)
    return emitLoweringError(
        node, "a scale or zero point that is neither a scalar, nor 1-D, nor "
              "blocked (block_size > 0 and x's rank)");
  if (axis < 0 || axis >= rank)
    return emitLoweringError(node, "axis is out of range");
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < rank; ++i) {
    Value xd = dimValue(b, loc, x, i);
    std::optional<int64_t> expected;
    if (!xType.isDynamicDim(i))
      expected = xType.getDimSize(i);
    if (i == axis) {
      Value bs = arith::ConstantIndexOp::create(b, loc, blockSize);
      xd = arith::CeilDivUIOp::create(b, loc, xd, bs);
      if (expected)
        expected = (*expected + blockSize - 1) / blockSize;
      exprs.push_back(getAffineDimExpr(i, ctx).floorDiv(blockSize));
    } else {
      exprs.push_back(getAffineDimExpr(i, ctx));
    }
    if (failed(checkDim(b, loc, param, i, xd, expected, node,
                        "the blocked scale or zero point does not fit x "
                        "and block_size")))
      return failure();
  }
  return AffineMap::get(rank, 0, exprs, ctx);
}

/// A linalg.generic over `resultType`'s dims whose body gets the scalars of
/// `inputs` (read through their maps).
Value buildMapped(OpBuilder &b, Location loc, ArrayRef<MappedInput> inputs,
                  RankedTensorType resultType, ArrayRef<OpFoldResult> dims,
                  function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  Value init =
      tensor::EmptyOp::create(b, loc, dims, resultType.getElementType());
  SmallVector<Value> values;
  SmallVector<AffineMap> maps;
  for (const MappedInput &in : inputs) {
    values.push_back(in.value);
    maps.push_back(in.map);
  }
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, values, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args.drop_back()));
      });
  Value result = generic.getResult(0);
  if (result.getType() != resultType)
    result = tensor::CastOp::create(b, loc, resultType, result);
  return result;
}

Value toF32(OpBuilder &b, Location loc, Value v, Type onnxElement) {
  return castScalarElement(b, loc, v, onnxElement, b.getF32Type());
}

/// The range of an integer onnx element type, as doubles.
std::pair<double, double> intRange(IntegerType t) {
  unsigned w = t.getWidth();
  if (t.isUnsigned())
    return {0.0, std::ldexp(1.0, w) - 1};
  return {-std::ldexp(1.0, w - 1), std::ldexp(1.0, w - 1) - 1};
}

/// `v` (an f32 already divided by the scale) quantized to `outElement`
/// (onnx level) with the zero point `zp` (f32 or null).
Value quantizeScalar(OpBuilder &b, Location loc, Value v, Value zp,
                     Type outElement, bool saturate) {
  Type f32 = b.getF32Type();
  if (auto intType = dyn_cast<IntegerType>(outElement)) {
    v = math::RoundEvenOp::create(b, loc, v);
    if (zp)
      v = arith::AddFOp::create(b, loc, v, zp);
    auto [lo, hi] = intRange(intType);
    v = arith::MaxNumFOp::create(b, loc, v,
                                 createScalarConstant(b, loc, f32, lo));
    v = arith::MinNumFOp::create(b, loc, v,
                                 createScalarConstant(b, loc, f32, hi));
    return castScalarElement(b, loc, v, f32, outElement);
  }
  if (zp)
    v = arith::AddFOp::create(b, loc, v, zp);
  return castScalarElement(b, loc, v, f32, outElement, saturate);
}

bool isQuantizedType(Type t) {
  return isa<IntegerType>(t) || isa<FloatType>(t);
}

/// `x` (identity map) followed by its scale and zero point (null: absent),
/// each mapped per tensor, per axis or per block as `getParamMap` reads them.
/// `origs` are the same values at the onnx level, for their element types.
FailureOr<SmallVector<MappedInput>>
mapWithParams(OpBuilder &b, Location loc, Value x, Type xOnnx,
              ArrayRef<std::pair<Value, Value>> params, int64_t axis,
              int64_t blockSize, Operation *node) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  SmallVector<MappedInput> inputs = {
      {x, b.getMultiDimIdentityMap(rank), xOnnx}};
  for (auto [param, orig] : params) {
    if (!param)
      continue;
    FailureOr<AffineMap> map =
        getParamMap(b, loc, param, x, axis, blockSize, node);
    if (failed(map))
      return failure();
    inputs.push_back({param, *map, getElementTypeOf(orig.getType())});
  }
  return inputs;
}

/// The onnx element types of `inputs`, for the bodies of buildMapped.
SmallVector<Type> onnxElements(ArrayRef<MappedInput> inputs) {
  SmallVector<Type> types;
  for (const MappedInput &in : inputs)
    types.push_back(in.onnxElement);
  return types;
}

struct QuantizeLinearLowering : ONNXToLinalgPattern<QuantizeLinearOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(QuantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    auto resultType = getConvertedType(op);
    if (!xType || !resultType)
      return emitLoweringError(op, "x and y must be ranked");
    Type outElement = getElementTypeOf(op.getType());
    if (!isQuantizedType(outElement))
      return emitLoweringError(op, "unsupported output type");
    FailureOr<SmallVector<MappedInput>> mapped =
        mapWithParams(rewriter, loc, x, getElementTypeOf(op.getX().getType()),
                      {{adaptor.getYScale(), op.getYScale()},
                       {adaptor.getYZeroPoint(), op.getYZeroPoint()}},
                      op.getAxis(), op.getBlockSize(), op);
    if (failed(mapped))
      return failure();
    SmallVector<MappedInput> &inputs = *mapped;
    bool saturate = op.getSaturate() != 0;
    SmallVector<Type> types = onnxElements(inputs);
    Value result = buildMapped(
        rewriter, loc, inputs, resultType, getDims(rewriter, loc, x),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = toF32(b, l, args[0], types[0]);
          Value s = toF32(b, l, args[1], types[1]);
          v = arith::DivFOp::create(b, l, v, s);
          Value zp = args.size() > 2 ? toF32(b, l, args[2], types[2]) : Value();
          return quantizeScalar(b, l, v, zp, outElement, saturate);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DequantizeLinearLowering : ONNXToLinalgPattern<DequantizeLinearOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(DequantizeLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getX();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    auto resultType = getConvertedType(op);
    if (!xType || !resultType)
      return emitLoweringError(op, "x and y must be ranked");
    Type outElement = getElementTypeOf(op.getType());
    if (!isa<FloatType>(outElement))
      return emitLoweringError(op, "the output must be a float tensor");
    FailureOr<SmallVector<MappedInput>> mapped =
        mapWithParams(rewriter, loc, x, getElementTypeOf(op.getX().getType()),
                      {{adaptor.getXScale(), op.getXScale()},
                       {adaptor.getXZeroPoint(), op.getXZeroPoint()}},
                      op.getAxis(), op.getBlockSize(), op);
    if (failed(mapped))
      return failure();
    SmallVector<MappedInput> &inputs = *mapped;
    SmallVector<Type> types = onnxElements(inputs);
    Value result = buildMapped(
        rewriter, loc, inputs, resultType, getDims(rewriter, loc, x),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = toF32(b, l, args[0], types[0]);
          if (args.size() > 2)
            v = arith::SubFOp::create(b, l, v, toF32(b, l, args[2], types[2]));
          v = arith::MulFOp::create(b, l, v, toF32(b, l, args[1], types[1]));
          return castScalarElement(b, l, v, b.getF32Type(), outElement);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// `x` minus its zero point `zp` (null: none) widened to `acc` (i32 for
/// integer inputs, f32 for float8 ones). `zpAxis` is the dim of x a 1-D
/// zero point follows (-1: it must be per tensor).
FailureOr<Value> subtractZeroPoint(OpBuilder &b, Location loc, Value x,
                                   Type xOnnx, Value zp, Type zpOnnx,
                                   int64_t zpAxis, Type acc, Operation *node) {
  auto xType = cast<RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  SmallVector<MappedInput> inputs = {
      {x, b.getMultiDimIdentityMap(rank), xOnnx}};
  if (zp) {
    auto zpType = dyn_cast<RankedTensorType>(zp.getType());
    if (!zpType)
      return emitLoweringError(node, "a zero point of unknown rank");
    // A 1-D zero point of size 1 is per tensor.
    if (zpType.getRank() == 1 && zpType.getDimSize(0) != 1 && zpAxis < 0)
      return emitLoweringError(node, "a zero point must be a scalar here");
    if (zpType.getRank() > 1) {
      // [M, 1]-like shapes: all dims but one of size 1 are not supported.
      return emitLoweringError(node, "a zero point must be a scalar or 1-D");
    }
    FailureOr<AffineMap> map =
        getParamMap(b, loc, zp, x, std::max<int64_t>(zpAxis, 0), 0, node);
    if (failed(map))
      return failure();
    inputs.push_back({zp, *map, zpOnnx});
  }
  RankedTensorType resultType = RankedTensorType::get(xType.getShape(), acc);
  return buildMapped(
      b, loc, inputs, resultType, getDims(b, loc, x),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value v = castScalarElement(nb, l, args[0], xOnnx, acc);
        if (args.size() > 1)
          v = isa<FloatType>(acc)
                  ? (Value)arith::SubFOp::create(
                        nb, l, v,
                        castScalarElement(nb, l, args[1], zpOnnx, acc))
                  : (Value)arith::SubIOp::create(
                        nb, l, v,
                        castScalarElement(nb, l, args[1], zpOnnx, acc));
        return v;
      });
}

Type onnxElement(Value v) { return v ? getElementTypeOf(v.getType()) : Type(); }

/// A and B of MatMulInteger / QLinearMatMul minus their zero points, widened
/// to `acc` (A's zero point follows dim `aAxis`, B's dim `bAxis`; -1: per
/// tensor).
template <typename OpTy, typename AdaptorTy>
LogicalResult matMulOperands(OpBuilder &b, OpTy op, AdaptorTy adaptor,
                             int64_t aAxis, int64_t bAxis, Type acc, Value &lhs,
                             Value &rhs) {
  Location loc = op.getLoc();
  FailureOr<Value> a = subtractZeroPoint(
      b, loc, adaptor.getA(), onnxElement(op.getA()), adaptor.getAZeroPoint(),
      onnxElement(op.getAZeroPoint()), aAxis, acc, op);
  if (failed(a))
    return failure();
  FailureOr<Value> bv = subtractZeroPoint(
      b, loc, adaptor.getB(), onnxElement(op.getB()), adaptor.getBZeroPoint(),
      onnxElement(op.getBZeroPoint()), bAxis, acc, op);
  if (failed(bv))
    return failure();
  lhs = *a;
  rhs = *bv;
  return success();
}

struct MatMulIntegerLowering : ONNXToLinalgPattern<MatMulIntegerOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(MatMulIntegerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = dyn_cast<RankedTensorType>(adaptor.getA().getType());
    auto bType = dyn_cast<RankedTensorType>(adaptor.getB().getType());
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!aType || !bType || !isa_and_nonnull<RankedTensorType>(resultType))
      return emitLoweringError(op, "A, B and Y must be ranked");
    Value a, bv;
    if (failed(matMulOperands(rewriter, op, adaptor,
                              aType.getRank() >= 2 ? aType.getRank() - 2 : -1,
                              bType.getRank() - 1, rewriter.getI32Type(), a,
                              bv)))
      return failure();
    auto matmul = MatMulOp::create(rewriter, loc, resultType, a, bv);
    matmul->setLoc(op->getLoc());
    rewriter.replaceOp(op, matmul.getResult());
    return success();
  }
};

/// The attributes of a convolution op, to copy onto onnx.Conv.
SmallVector<NamedAttribute> convAttributes(Operation *op) {
  SmallVector<NamedAttribute> attrs;
  for (StringRef name :
       {"auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"})
    if (Attribute a = op->getAttr(name))
      attrs.push_back(NamedAttribute(name, a));
  return attrs;
}

/// onnx.Conv of i32 (or f32) tensors with the attributes of `op`.
Value createConv(OpBuilder &b, Location loc, Operation *op, Type resultType,
                 Value x, Value w, Value bias) {
  OperationState state(loc, ConvOp::getOperationName());
  state.addOperands({x, w});
  if (bias)
    state.addOperands(bias);
  state.addTypes(resultType);
  state.addAttributes(convAttributes(op));
  return b.create(state)->getResult(0);
}

/// x and w of ConvInteger / QLinearConv minus their zero points, as i32 (x's
/// zero point per tensor, w's per output channel).
template <typename OpTy, typename AdaptorTy>
LogicalResult convOperands(OpBuilder &b, OpTy op, AdaptorTy adaptor, Value &x,
                           Value &w) {
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  FailureOr<Value> xv = subtractZeroPoint(
      b, loc, adaptor.getX(), onnxElement(op.getX()), adaptor.getXZeroPoint(),
      onnxElement(op.getXZeroPoint()), -1, i32, op);
  if (failed(xv))
    return failure();
  FailureOr<Value> wv = subtractZeroPoint(
      b, loc, adaptor.getW(), onnxElement(op.getW()), adaptor.getWZeroPoint(),
      onnxElement(op.getWZeroPoint()), 0, i32, op);
  if (failed(wv))
    return failure();
  x = *xv;
  w = *wv;
  return success();
}

struct ConvIntegerLowering : ONNXToLinalgPattern<ConvIntegerOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(ConvIntegerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto xType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    auto wType = dyn_cast<RankedTensorType>(adaptor.getW().getType());
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!xType || !wType || !isa_and_nonnull<RankedTensorType>(resultType))
      return emitLoweringError(op, "x, w and y must be ranked");
    Value x, w;
    if (failed(convOperands(rewriter, op, adaptor, x, w)))
      return failure();
    rewriter.replaceOp(
        op, createConv(rewriter, loc, op, resultType, x, w, Value()));
    return success();
  }
};

/// round_half_even(acc * (scales[0] * scales[1] / yScale)) + yZeroPoint,
/// saturated to `outElement`: the requantization of QLinearMatMul/Conv.
/// `scaleAxes[i]` is the dim of acc a 1-D scale i follows.
FailureOr<Value> requantize(OpBuilder &b, Location loc, Value acc,
                            ArrayRef<std::pair<Value, Type>> scales,
                            ArrayRef<int64_t> scaleAxes, Value yScale,
                            Type yScaleOnnx, Value yZp, Type yZpOnnx,
                            RankedTensorType resultType, Type outElement,
                            Operation *node) {
  auto accType = cast<RankedTensorType>(acc.getType());
  SmallVector<MappedInput> inputs = {
      {acc, b.getMultiDimIdentityMap(accType.getRank()),
       accType.getElementType()}};
  SmallVector<std::pair<Value, Type>> params(scales);
  SmallVector<int64_t> axes(scaleAxes);
  params.push_back({yScale, yScaleOnnx});
  axes.push_back(-1);
  params.push_back({yZp, yZpOnnx});
  axes.push_back(-1);
  for (auto [param, axis] : llvm::zip(params, axes)) {
    auto pType = dyn_cast<RankedTensorType>(param.first.getType());
    if (!pType || pType.getRank() > 1 ||
        (axis < 0 && pType.getRank() == 1 && pType.getDimSize(0) != 1))
      return emitLoweringError(node, "a scale or zero point must be a "
                                     "scalar (or 1-D where the spec allows)");
    FailureOr<AffineMap> map = getParamMap(b, loc, param.first, acc,
                                           std::max<int64_t>(axis, 0), 0, node);
    if (failed(map))
      return failure();
    inputs.push_back({param.first, *map, param.second});
  }
  SmallVector<Type> types = onnxElements(inputs);
  return buildMapped(
      b, loc, inputs, resultType, getDims(b, loc, acc),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Type f32 = nb.getF32Type();
        Value v = castScalarElement(nb, l, args[0], types[0], f32);
        Value s = toF32(nb, l, args[1], types[1]);
        s = arith::MulFOp::create(nb, l, s, toF32(nb, l, args[2], types[2]));
        s = arith::DivFOp::create(nb, l, s, toF32(nb, l, args[3], types[3]));
        v = arith::MulFOp::create(nb, l, v, s);
        return quantizeScalar(nb, l, v, toF32(nb, l, args[4], types[4]),
                              outElement, /*saturate=*/true);
      });
}

struct QLinearMatMulLowering : ONNXToLinalgPattern<QLinearMatMulOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(QLinearMatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = dyn_cast<RankedTensorType>(adaptor.getA().getType());
    auto bType = dyn_cast<RankedTensorType>(adaptor.getB().getType());
    auto resultType = getConvertedType(op);
    if (!aType || !bType || !resultType)
      return emitLoweringError(op, "a, b and y must be ranked");
    bool isInt = isa<IntegerType>(onnxElement(op.getA())) &&
                 isa<IntegerType>(onnxElement(op.getB()));
    Type acc = isInt ? (Type)rewriter.getI32Type() : rewriter.getF32Type();
    int64_t aRow = aType.getRank() >= 2 ? aType.getRank() - 2 : -1;
    int64_t bCol = bType.getRank() >= 2 ? bType.getRank() - 1 : -1;
    Value a, bv;
    if (failed(matMulOperands(rewriter, op, adaptor, aRow, bCol, acc, a, bv)))
      return failure();
    auto accType = RankedTensorType::get(resultType.getShape(), acc);
    Value product = MatMulOp::create(rewriter, loc, accType, a, bv);
    int64_t rank = resultType.getRank();
    FailureOr<Value> result =
        requantize(rewriter, loc, product,
                   {{adaptor.getAScale(), onnxElement(op.getAScale())},
                    {adaptor.getBScale(), onnxElement(op.getBScale())}},
                   {aRow >= 0 ? rank - 2 : -1, bCol >= 0 ? rank - 1 : -1},
                   adaptor.getYScale(), onnxElement(op.getYScale()),
                   adaptor.getYZeroPoint(), onnxElement(op.getYZeroPoint()),
                   resultType, onnxElement(op.getY()), op);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

struct QLinearConvLowering : ONNXToLinalgPattern<QLinearConvOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(QLinearConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto xType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    auto wType = dyn_cast<RankedTensorType>(adaptor.getW().getType());
    auto resultType = getConvertedType(op);
    if (!xType || !wType || !resultType)
      return emitLoweringError(op, "x, w and y must be ranked");
    Type i32 = rewriter.getI32Type();
    Value x, w;
    if (failed(convOperands(rewriter, op, adaptor, x, w)))
      return failure();
    auto accType = RankedTensorType::get(resultType.getShape(), i32);
    Value acc = createConv(rewriter, loc, op, accType, x, w, adaptor.getB());
    FailureOr<Value> result =
        requantize(rewriter, loc, acc,
                   {{adaptor.getXScale(), onnxElement(op.getXScale())},
                    {adaptor.getWScale(), onnxElement(op.getWScale())}},
                   {-1, 1}, adaptor.getYScale(), onnxElement(op.getYScale()),
                   adaptor.getYZeroPoint(), onnxElement(op.getYZeroPoint()),
                   resultType, onnxElement(op.getY()), op);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

} // namespace

void mlir::onnx::populateQuantizationToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<QuantizeLinearLowering, DequantizeLinearLowering,
               MatMulIntegerLowering, ConvIntegerLowering,
               QLinearMatMulLowering, QLinearConvLowering>(
      converter, patterns.getContext());
}
