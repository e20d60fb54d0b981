//===- Cast.cpp - Cast between numeric element types ----------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Cast as one elementwise linalg.generic whose scalar body converts between
// every pair of numeric ONNX types: integers of every width and signedness
// (bool, 2- and 4-bit included), f16/bf16/f32/f64, the float8 types
// (E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ, E8M0FNU) and f4E2M1FN.
//
// The LLVM path has no arithmetic on the small float types, so they are
// encoded and decoded on their bits here, through f32:
//  - decoding is exact: sign, exponent and mantissa fields give the value
//    as mantissa * 2^exponent in f32;
//  - encoding rounds to nearest even with the target's mantissa width:
//    |x| * 2^(m - e) (exact) is rounded to an integer r, e being the
//    exponent of x clamped to the target's smallest normal exponent emin;
//    the code is then ((e - emin) << m) + r, which also carries a rounding
//    up into the next binade. Values above the largest finite number
//    saturate (`saturate` = 1, and always for f4E2M1FN) or become Inf or
//    NaN as the spec's tables say;
//  - E8M0 (a power of two) rounds the exponent up, down or to nearest as
//    `round_mode` says.
// A double input is first rounded to f32 (a second rounding for f64 ->
// float8, exact for every other source).
//
// Float to integer truncates toward zero (C) after clamping to the range of
// i64 (NaN gives 0), and then keeps the low bits as the spec says for
// integer overflow, so out-of-range values are defined. Casts from and to
// strings are not lowered yet.
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

Value i32c(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32Type(),
                                   b.getI32IntegerAttr(value));
}

Value f32Bits(OpBuilder &b, Location loc, Value bits) {
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
}

/// The layout of a small float type that is encoded here.
struct SmallFloat {
  unsigned bits;     // storage width (8 or 4)
  unsigned mantissa; // mantissa bits
  int bias;
  unsigned maxCode;  // largest finite magnitude
  int nanCode;       // magnitude code of NaN (-1: none)
  int infCode;       // magnitude code of Inf (-1: none)
  bool unsignedZero; // FNUZ: no -0, NaN is the sign bit alone
  bool isE8M0 = false;
};

std::optional<SmallFloat> getSmallFloat(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return SmallFloat{8, 3, 7, 0x7e, 0x7f, -1, false};
  if (isa<Float8E4M3FNUZType>(type))
    return SmallFloat{8, 3, 8, 0x7f, -1, -1, true};
  if (isa<Float8E5M2Type>(type))
    return SmallFloat{8, 2, 15, 0x7b, 0x7e, 0x7c, false};
  if (isa<Float8E5M2FNUZType>(type))
    return SmallFloat{8, 2, 16, 0x7f, -1, -1, true};
  if (isa<Float4E2M1FNType>(type))
    return SmallFloat{4, 1, 1, 0x7, -1, -1, false};
  if (isa<Float8E8M0FNUType>(type)) {
    SmallFloat f{8, 0, 127, 0xfe, 0xff, -1, false};
    f.isE8M0 = true;
    return f;
  }
  return std::nullopt;
}

/// The f32 value of a small float scalar (exact).
Value decodeSmallFloat(OpBuilder &b, Location loc, Value v,
                       const SmallFloat &f) {
  Type storage = b.getIntegerType(f.bits);
  Value code = arith::ExtUIOp::create(
      b, loc, b.getI32Type(), arith::BitcastOp::create(b, loc, storage, v));
  Value nan = cst(b, loc, b.getF32Type(), std::nan(""));
  auto eq = [&](Value x, int64_t c) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x,
                                 i32c(b, loc, c));
  };
  if (f.isE8M0) {
    // 2^(code - 127): code << 23 as f32 bits; code 0 is the subnormal
    // 2^-127.
    Value value =
        f32Bits(b, loc, arith::ShLIOp::create(b, loc, code, i32c(b, loc, 23)));
    value = arith::SelectOp::create(
        b, loc, eq(code, 0), f32Bits(b, loc, i32c(b, loc, 0x400000)), value);
    return arith::SelectOp::create(b, loc, eq(code, 0xff), nan, value);
  }
  unsigned m = f.mantissa;
  unsigned expBits = f.bits - 1 - m;
  Value sign = arith::ShRUIOp::create(b, loc, code, i32c(b, loc, f.bits - 1));
  Value magnitude = arith::AndIOp::create(
      b, loc, code, i32c(b, loc, (1 << (f.bits - 1)) - 1));
  Value exp = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, magnitude, i32c(b, loc, m)),
      i32c(b, loc, (1 << expBits) - 1));
  Value mant =
      arith::AndIOp::create(b, loc, magnitude, i32c(b, loc, (1 << m) - 1));
  Value isSubnormal = eq(exp, 0);
  Value significand = arith::SelectOp::create(
      b, loc, isSubnormal, mant,
      arith::OrIOp::create(b, loc, mant, i32c(b, loc, 1 << m)));
  // 2^(max(exp, 1) - bias - m) as f32 bits.
  Value scaleExp = arith::AddIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, exp, i32c(b, loc, 1)),
      i32c(b, loc, 127 - f.bias - static_cast<int>(m)));
  Value scale = f32Bits(
      b, loc, arith::ShLIOp::create(b, loc, scaleExp, i32c(b, loc, 23)));
  Value value = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, b.getF32Type(), significand),
      scale);
  Value negative = eq(sign, 1);
  value = arith::SelectOp::create(b, loc, negative,
                                  arith::NegFOp::create(b, loc, value), value);
  if (f.infCode >= 0) {
    Value inf = cst(b, loc, b.getF32Type(), INFINITY);
    Value signedInf = arith::SelectOp::create(
        b, loc, negative, cst(b, loc, b.getF32Type(), -INFINITY), inf);
    value = arith::SelectOp::create(b, loc, eq(magnitude, f.infCode), signedInf,
                                    value);
    // E5M2: every code above Inf is a NaN.
    Value isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                        magnitude, i32c(b, loc, f.infCode));
    return arith::SelectOp::create(b, loc, isNaN, nan, value);
  }
  if (f.unsignedZero)
    return arith::SelectOp::create(b, loc, eq(code, 1 << (f.bits - 1)), nan,
                                   value);
  if (f.nanCode >= 0)
    return arith::SelectOp::create(b, loc, eq(magnitude, f.nanCode), nan,
                                   value);
  return value;
}

/// The small float nearest to `x` (an f32), see the file comment.
Value encodeSmallFloat(OpBuilder &b, Location loc, Value x, Type target,
                       const SmallFloat &f, bool saturate,
                       StringRef roundMode) {
  Type i32 = b.getI32Type();
  Type f32 = b.getF32Type();
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  auto select = [&](Value c, Value t, Value e) {
    return arith::SelectOp::create(b, loc, c, t, e).getResult();
  };
  Value code;
  if (f.isE8M0) {
    // Negative inputs are unspecified: the sign is ignored.
    Value magnitude =
        arith::AndIOp::create(b, loc, bits, i32c(b, loc, 0x7fffffff));
    Value exp = arith::ShRUIOp::create(b, loc, magnitude, i32c(b, loc, 23));
    Value mant =
        arith::AndIOp::create(b, loc, magnitude, i32c(b, loc, 0x7fffff));
    Value up;
    if (roundMode == "down")
      up = cst(b, loc, b.getI1Type(), 0);
    else if (roundMode == "nearest")
      up = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, mant,
                                 i32c(b, loc, 0x400000));
    else
      up = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, mant,
                                 i32c(b, loc, 0));
    code = arith::AddIOp::create(b, loc, exp,
                                 arith::ExtUIOp::create(b, loc, i32, up));
    Value tooLarge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                           code, i32c(b, loc, 0xff));
    code = select(tooLarge, i32c(b, loc, saturate ? 0xfe : 0xff), code);
    // Below the smallest normal f32: 2^-127 (code 0), or NaN for a zero
    // without saturation.
    Value tiny = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, exp,
                                       i32c(b, loc, 0));
    Value tinyCode = i32c(b, loc, 0);
    if (!saturate)
      tinyCode = select(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              mant, i32c(b, loc, 0)),
                        i32c(b, loc, 0xff), tinyCode);
    code = select(tiny, tinyCode, code);
    code = select(isNaN, i32c(b, loc, 0xff), code);
  } else {
    unsigned m = f.mantissa;
    int emin = 1 - f.bias;
    Value a = math::AbsFOp::create(b, loc, x);
    Value isInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, a,
                                        cst(b, loc, f32, INFINITY));
    a = select(arith::OrIOp::create(b, loc, isNaN, isInf), cst(b, loc, f32, 0),
               a);
    Value sign = arith::ShRUIOp::create(b, loc, bits, i32c(b, loc, 31));
    Value exp = arith::SubIOp::create(
        b, loc,
        arith::ShRUIOp::create(b, loc, arith::BitcastOp::create(b, loc, i32, a),
                               i32c(b, loc, 23)),
        i32c(b, loc, 127));
    Value e = arith::MaxSIOp::create(b, loc, exp, i32c(b, loc, emin));
    // 2^(m - e) as f32 bits.
    Value scale = f32Bits(
        b, loc,
        arith::ShLIOp::create(
            b, loc, arith::SubIOp::create(b, loc, i32c(b, loc, 127 + m), e),
            i32c(b, loc, 23)));
    Value r = math::RoundEvenOp::create(
        b, loc, arith::MulFOp::create(b, loc, a, scale));
    Value magnitude = arith::AddIOp::create(
        b, loc,
        arith::ShLIOp::create(
            b, loc, arith::SubIOp::create(b, loc, e, i32c(b, loc, emin)),
            i32c(b, loc, m)),
        arith::FPToUIOp::create(b, loc, i32, r));
    Value overflow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                           magnitude, i32c(b, loc, f.maxCode));
    // What a value too large (or infinite) becomes.
    int bigCode = f.maxCode;
    if (!saturate && f.bits == 8)
      bigCode = f.infCode >= 0 ? f.infCode : f.nanCode >= 0 ? f.nanCode : 0x80;
    Value big = i32c(b, loc, bigCode);
    magnitude =
        select(arith::OrIOp::create(b, loc, overflow, isInf), big, magnitude);
    if (f.unsignedZero) {
      // No -0: the sign only goes on non-zero magnitudes; NaN is 0x80.
      Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           magnitude, i32c(b, loc, 0));
      Value isNaNCode = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              magnitude, i32c(b, loc, 0x80));
      sign = select(arith::OrIOp::create(b, loc, isZero, isNaNCode),
                    i32c(b, loc, 0), sign);
      magnitude = select(isNaN, i32c(b, loc, 0x80), magnitude);
      code = arith::OrIOp::create(
          b, loc, magnitude,
          arith::ShLIOp::create(b, loc, sign, i32c(b, loc, 7)));
    } else {
      code = arith::OrIOp::create(
          b, loc, magnitude,
          arith::ShLIOp::create(b, loc, sign, i32c(b, loc, f.bits - 1)));
      // NaN keeps its sign where the type has a NaN code; f4E2M1FN has no
      // NaN and gives 0x8, as ONNX's reference does.
      Value nanCode = f.nanCode >= 0
                          ? (Value)arith::OrIOp::create(
                                b, loc, i32c(b, loc, f.nanCode),
                                arith::ShLIOp::create(b, loc, sign,
                                                      i32c(b, loc, f.bits - 1)))
                          : i32c(b, loc, 1 << (f.bits - 1));
      code = select(isNaN, nanCode, code);
    }
  }
  Value stored =
      arith::TruncIOp::create(b, loc, b.getIntegerType(f.bits), code);
  return arith::BitcastOp::create(b, loc, target, stored);
}

/// Float (any width but the small ones) to an integer of `target`'s width:
/// truncation toward zero of the value clamped to i64 (NaN gives 0), then
/// the low bits. uint64 takes values up to 2^64.
Value floatToInt(OpBuilder &b, Location loc, Value v, IntegerType target,
                 bool isUnsigned) {
  Type ft = v.getType();
  if (!ft.isF32() && !ft.isF64()) {
    v = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
    ft = v.getType();
  }
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
  v = arith::SelectOp::create(b, loc, isNaN, cst(b, loc, ft, 0), v);
  // The largest values below 2^63 and 2^64 in the type.
  double below63 = ft.isF32() ? 9223371487098961920.0 : 9223372036854774784.0;
  double below64 = ft.isF32() ? 18446742974197923840.0 : 18446744073709549568.0;
  Type i64 = b.getI64Type();
  auto clamp = [&](double lo, double hi) {
    Value c = arith::MaximumFOp::create(b, loc, v, cst(b, loc, ft, lo));
    return arith::MinimumFOp::create(b, loc, c, cst(b, loc, ft, hi));
  };
  Value wide = arith::FPToSIOp::create(b, loc, i64,
                                       clamp(-9223372036854775808.0, below63));
  if (isUnsigned && target.getWidth() == 64) {
    Value large = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, v,
                                        cst(b, loc, ft, 9223372036854775808.0));
    Value unsignedValue =
        arith::FPToUIOp::create(b, loc, i64, clamp(0, below64));
    wide = arith::SelectOp::create(b, loc, large, unsignedValue, wide);
  }
  Type out = b.getIntegerType(target.getWidth());
  if (target.getWidth() == 64)
    return wide;
  return arith::TruncIOp::create(b, loc, out, wide);
}

/// A standard float (f16, bf16, f32, f64) converted to another one.
Value floatToFloat(OpBuilder &b, Location loc, Value v, Type to) {
  Type from = v.getType();
  if (from == to)
    return v;
  unsigned fw = from.getIntOrFloatBitWidth(), tw = to.getIntOrFloatBitWidth();
  if (fw == tw) // f16 <-> bf16
    return arith::TruncFOp::create(
        b, loc, to, arith::ExtFOp::create(b, loc, b.getF32Type(), v));
  if (fw < tw)
    return arith::ExtFOp::create(b, loc, to, v);
  return arith::TruncFOp::create(b, loc, to, v);
}

struct CastSpec {
  Type from, to; // onnx element types (unsigned kept)
  bool saturate;
  StringRef roundMode;
};

/// The scalar conversion of Cast.
Value castScalar(OpBuilder &b, Location loc, Value v, const CastSpec &spec) {
  Type from = spec.from, to = spec.to;
  Type toLowered = convertElementType(to);
  if (from == to)
    return v;
  // Small float sources are decoded to f32 first.
  if (std::optional<SmallFloat> f = getSmallFloat(from)) {
    v = decodeSmallFloat(b, loc, v, *f);
    from = b.getF32Type();
    if (from == to)
      return v;
  }
  auto fromInt = dyn_cast<IntegerType>(from);
  bool fromUnsigned =
      fromInt && (fromInt.isUnsigned() || fromInt.getWidth() == 1);

  // To bool: non-zero (NaN included) is true.
  if (to.isInteger(1)) {
    if (isa<FloatType>(from))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v,
                                   cst(b, loc, from, 0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v,
                                 cst(b, loc, v.getType(), 0));
  }
  // To an integer.
  if (auto toInt = dyn_cast<IntegerType>(to)) {
    if (isa<FloatType>(from))
      return floatToInt(b, loc, v, toInt, toInt.isUnsigned());
    unsigned fw = fromInt.getWidth(), tw = toInt.getWidth();
    if (fw == tw)
      return v;
    if (fw > tw)
      return arith::TruncIOp::create(b, loc, toLowered, v);
    return fromUnsigned ? (Value)arith::ExtUIOp::create(b, loc, toLowered, v)
                        : (Value)arith::ExtSIOp::create(b, loc, toLowered, v);
  }
  // To a float: small float targets are encoded from f32.
  std::optional<SmallFloat> small = getSmallFloat(to);
  Type wideTo = small ? b.getF32Type() : to;
  if (fromInt)
    v = fromUnsigned ? (Value)arith::UIToFPOp::create(b, loc, wideTo, v)
                     : (Value)arith::SIToFPOp::create(b, loc, wideTo, v);
  else
    v = floatToFloat(b, loc, v, wideTo);
  if (!small)
    return v;
  return encodeSmallFloat(b, loc, v, to, *small, spec.saturate, spec.roundMode);
}

bool isNumeric(Type type) { return isa<IntegerType, FloatType>(type); }

struct CastLowering : ONNXToLinalgPattern<CastOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    auto inType = dyn_cast<RankedTensorType>(input.getType());
    auto resultType = getConvertedType(op);
    if (!inType || !resultType)
      return emitLoweringError(op, "the input and the result must be ranked");
    CastSpec spec{getElementTypeOf(op.getInput().getType()),
                  getElementTypeOf(op.getType()), op.getSaturate() != 0,
                  op.getRoundMode()};
    if (!isNumeric(spec.from) || !isNumeric(spec.to))
      return emitLoweringError(op, "casts from or to strings are not "
                                   "supported yet");
    if (spec.from == spec.to) {
      Value same = input;
      if (inType != resultType)
        same = tensor::CastOp::create(rewriter, op.getLoc(), resultType, input);
      rewriter.replaceOp(op, same);
      return success();
    }
    Value result =
        buildElementwise(rewriter, op.getLoc(), ValueRange{input}, resultType,
                         op, [&](OpBuilder &b, Location loc, ValueRange args) {
                           return castScalar(b, loc, args[0], spec);
                         });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

Value mlir::onnx::castScalarElement(OpBuilder &b, Location loc, Value v,
                                    Type from, Type to, bool saturate,
                                    StringRef roundMode) {
  return castScalar(b, loc, v, CastSpec{from, to, saturate, roundMode});
}

void mlir::onnx::populateCastToLinalgPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<CastLowering>(converter, patterns.getContext());
}
