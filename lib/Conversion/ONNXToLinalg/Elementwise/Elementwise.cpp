//===- Elementwise.cpp - Elementwise onnx ops to linalg.generic -----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Unary math, binary arithmetic, comparisons, logic and bitwise ops, Where,
// and the variadic Max/Min/Sum/Mean: one linalg.generic each, with numpy
// broadcasting (buildElementwise), and a scalar body per op below.
//
// Integer semantics follow the spec where it has a rule and otherwise
// avoid undefined behaviour: integer Div and Mod by zero stop the model with
// an error (they trap on the hardware), a shift by at least the bit width
// gives 0, Pow of integers is exact (math.ipowi).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// What a scalar body knows of the op it computes.
struct ScalarContext {
  Operation *op;
  /// The element types of the op's inputs at the onnx level (unsigned kept).
  SmallVector<Type> inputTypes;
  /// The element type of the result after conversion.
  Type resultType;

  bool isFloat(unsigned i = 0) const { return isa<FloatType>(inputTypes[i]); }
  bool isUnsigned(unsigned i = 0) const {
    auto t = dyn_cast<IntegerType>(inputTypes[i]);
    return t && t.isUnsigned();
  }
};

using ScalarFn = Value (*)(OpBuilder &, Location, ValueRange,
                           const ScalarContext &);

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

template <typename FloatOp>
Value floatUnary(OpBuilder &b, Location loc, ValueRange a,
                 const ScalarContext &) {
  return FloatOp::create(b, loc, a[0]);
}

Value absBody(OpBuilder &b, Location loc, ValueRange a,
              const ScalarContext &c) {
  if (c.isFloat())
    return math::AbsFOp::create(b, loc, a[0]);
  if (c.isUnsigned())
    return a[0];
  return math::AbsIOp::create(b, loc, a[0]);
}

Value negBody(OpBuilder &b, Location loc, ValueRange a,
              const ScalarContext &c) {
  if (c.isFloat())
    return arith::NegFOp::create(b, loc, a[0]);
  return arith::SubIOp::create(b, loc, cst(b, loc, a[0].getType(), 0), a[0]);
}

Value reciprocalBody(OpBuilder &b, Location loc, ValueRange a,
                     const ScalarContext &) {
  return arith::DivFOp::create(b, loc, cst(b, loc, a[0].getType(), 1), a[0]);
}

Value sigmoidBody(OpBuilder &b, Location loc, ValueRange a,
                  const ScalarContext &) {
  Type t = a[0].getType();
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, a[0]));
  return arith::DivFOp::create(
      b, loc, cst(b, loc, t, 1),
      arith::AddFOp::create(b, loc, cst(b, loc, t, 1), e));
}

Value reluBody(OpBuilder &b, Location loc, ValueRange a,
               const ScalarContext &c) {
  Value zero = cst(b, loc, a[0].getType(), 0);
  if (c.isFloat())
    return arith::MaximumFOp::create(b, loc, a[0], zero);
  return arith::MaxSIOp::create(b, loc, a[0], zero);
}

Value signBody(OpBuilder &b, Location loc, ValueRange a,
               const ScalarContext &c) {
  Type t = a[0].getType();
  Value zero = cst(b, loc, t, 0);
  if (c.isFloat()) {
    // NaN stays NaN, zeros stay as they are.
    Value pos =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, a[0], zero);
    Value neg =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, a[0], zero);
    Value inner =
        arith::SelectOp::create(b, loc, neg, cst(b, loc, t, -1), a[0]);
    return arith::SelectOp::create(b, loc, pos, cst(b, loc, t, 1), inner);
  }
  Value pos = arith::CmpIOp::create(b, loc,
                                    c.isUnsigned() ? arith::CmpIPredicate::ugt
                                                   : arith::CmpIPredicate::sgt,
                                    a[0], zero);
  if (c.isUnsigned())
    return arith::SelectOp::create(b, loc, pos, cst(b, loc, t, 1), zero);
  Value neg =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, a[0], zero);
  Value inner = arith::SelectOp::create(b, loc, neg, cst(b, loc, t, -1), zero);
  return arith::SelectOp::create(b, loc, pos, cst(b, loc, t, 1), inner);
}

Value isNaNBody(OpBuilder &b, Location loc, ValueRange a,
                const ScalarContext &) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, a[0], a[0]);
}

Value isInfBody(OpBuilder &b, Location loc, ValueRange a,
                const ScalarContext &c) {
  Type t = a[0].getType();
  double inf = std::numeric_limits<double>::infinity();
  Value result = cst(b, loc, b.getI1Type(), 0);
  auto isInf = cast<IsInfOp>(c.op);
  if (isInf.getDetectPositive())
    result = arith::OrIOp::create(
        b, loc, result,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, a[0],
                              cst(b, loc, t, inf)));
  if (isInf.getDetectNegative())
    result = arith::OrIOp::create(
        b, loc, result,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, a[0],
                              cst(b, loc, t, -inf)));
  return result;
}

Value notBody(OpBuilder &b, Location loc, ValueRange a, const ScalarContext &) {
  return arith::XOrIOp::create(b, loc, a[0], cst(b, loc, a[0].getType(), -1));
}

//===----------------------------------------------------------------------===//
// Binary arithmetic
//===----------------------------------------------------------------------===//

template <typename FloatOp, typename IntOp>
Value arithBinary(OpBuilder &b, Location loc, ValueRange a,
                  const ScalarContext &c) {
  if (c.isFloat())
    return FloatOp::create(b, loc, a[0], a[1]);
  return IntOp::create(b, loc, a[0], a[1]);
}

/// A divisor that is never zero, and for signed division never -1 when the
/// dividend is the smallest value (both trap); a zero divisor also stops the
/// model with an error.
Value safeDivisor(OpBuilder &b, Location loc, Value x, Value y,
                  const ScalarContext &c) {
  Type t = y.getType();
  Value zero = cst(b, loc, t, 0);
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y, zero);
  emitRuntimeCheck(
      b, loc,
      arith::XOrIOp::create(b, loc, isZero, cst(b, loc, b.getI1Type(), 1)),
      c.op, "integer division by zero");
  Value bad = isZero;
  if (!c.isUnsigned()) {
    unsigned width = t.getIntOrFloatBitWidth();
    Value minValue = arith::ConstantOp::create(
        b, loc, t, b.getIntegerAttr(t, APInt::getSignedMinValue(width)));
    Value overflow = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, minValue),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, y,
                              cst(b, loc, t, -1)));
    bad = arith::OrIOp::create(b, loc, bad, overflow);
  }
  return arith::SelectOp::create(b, loc, bad, cst(b, loc, t, 1), y);
}

Value divBody(OpBuilder &b, Location loc, ValueRange a,
              const ScalarContext &c) {
  if (c.isFloat())
    return arith::DivFOp::create(b, loc, a[0], a[1]);
  Value y = safeDivisor(b, loc, a[0], a[1], c);
  if (c.isUnsigned())
    return arith::DivUIOp::create(b, loc, a[0], y);
  // INT_MIN / -1 wraps to INT_MIN, as it does in two's complement.
  Value q = arith::DivSIOp::create(b, loc, a[0], y);
  Value minusOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, a[1],
                                         cst(b, loc, a[1].getType(), -1));
  Value negated =
      arith::SubIOp::create(b, loc, cst(b, loc, a[0].getType(), 0), a[0]);
  return arith::SelectOp::create(b, loc, minusOne, negated, q);
}

Value modBody(OpBuilder &b, Location loc, ValueRange a,
              const ScalarContext &c) {
  bool fmod = cast<ModOp>(c.op).getFmod() != 0;
  if (c.isFloat()) {
    Value r = arith::RemFOp::create(b, loc, a[0], a[1]);
    if (fmod)
      return r;
    // The sign of the divisor (Python's %) for fmod=0.
    Value zero = cst(b, loc, r.getType(), 0);
    Value rNonZero =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, r, zero);
    Value signsDiffer = arith::XOrIOp::create(
        b, loc,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, r, zero),
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, a[1], zero));
    Value fix = arith::AndIOp::create(b, loc, rNonZero, signsDiffer);
    return arith::SelectOp::create(b, loc, fix,
                                   arith::AddFOp::create(b, loc, r, a[1]), r);
  }
  Value y = safeDivisor(b, loc, a[0], a[1], c);
  if (c.isUnsigned())
    return arith::RemUIOp::create(b, loc, a[0], y);
  Value r = arith::RemSIOp::create(b, loc, a[0], y);
  if (fmod)
    return r;
  Value zero = cst(b, loc, r.getType(), 0);
  Value rNonZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, r, zero);
  Value signsDiffer = arith::XOrIOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, y, zero));
  Value fix = arith::AndIOp::create(b, loc, rNonZero, signsDiffer);
  return arith::SelectOp::create(b, loc, fix,
                                 arith::AddIOp::create(b, loc, r, y), r);
}

Value powBody(OpBuilder &b, Location loc, ValueRange a,
              const ScalarContext &c) {
  Type t = a[0].getType();
  if (c.isFloat(0)) {
    Value y = convertScalar(b, loc, a[1], t, c.isUnsigned(1));
    return math::PowFOp::create(b, loc, a[0], y);
  }
  if (!c.isFloat(1)) {
    Value y = convertScalar(b, loc, a[1], t, c.isUnsigned(1));
    return math::IPowIOp::create(b, loc, a[0], y);
  }
  // Integer base, float exponent: computed in double, truncated.
  Type f64 = b.getF64Type();
  Value x = convertScalar(b, loc, a[0], f64, c.isUnsigned(0));
  Value y = convertScalar(b, loc, a[1], f64, false);
  return arith::FPToSIOp::create(b, loc, t, math::PowFOp::create(b, loc, x, y));
}

Value bitShiftBody(OpBuilder &b, Location loc, ValueRange a,
                   const ScalarContext &c) {
  Type t = a[0].getType();
  bool left = true;
  if (auto dir = c.op->getAttrOfType<StringAttr>("direction"))
    left = dir.getValue() != "RIGHT";
  Value shifted = left ? (Value)arith::ShLIOp::create(b, loc, a[0], a[1])
                       : (Value)arith::ShRUIOp::create(b, loc, a[0], a[1]);
  Value tooFar =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, a[1],
                            cst(b, loc, t, t.getIntOrFloatBitWidth()));
  return arith::SelectOp::create(b, loc, tooFar, cst(b, loc, t, 0), shifted);
}

//===----------------------------------------------------------------------===//
// Comparisons, logic, selection
//===----------------------------------------------------------------------===//

template <arith::CmpFPredicate FP, arith::CmpIPredicate SI,
          arith::CmpIPredicate UI>
Value compareBody(OpBuilder &b, Location loc, ValueRange a,
                  const ScalarContext &c) {
  if (c.isFloat())
    return arith::CmpFOp::create(b, loc, FP, a[0], a[1]);
  return arith::CmpIOp::create(b, loc, c.isUnsigned() ? UI : SI, a[0], a[1]);
}

template <typename IntOp>
Value intBinary(OpBuilder &b, Location loc, ValueRange a,
                const ScalarContext &) {
  return IntOp::create(b, loc, a[0], a[1]);
}

Value whereBody(OpBuilder &b, Location loc, ValueRange a,
                const ScalarContext &) {
  return arith::SelectOp::create(b, loc, a[0], a[1], a[2]);
}

//===----------------------------------------------------------------------===//
// Variadic
//===----------------------------------------------------------------------===//

/// The inputs combined left to right by `FOp` (floats), `UOp` (unsigned
/// integers) or `SOp` (signed integers).
template <typename FOp, typename UOp, typename SOp>
Value variadicBody(OpBuilder &b, Location loc, ValueRange a,
                   const ScalarContext &c) {
  Value r = a[0];
  for (Value v : a.drop_front())
    r = c.isFloat()      ? (Value)FOp::create(b, loc, r, v)
        : c.isUnsigned() ? (Value)UOp::create(b, loc, r, v)
                         : (Value)SOp::create(b, loc, r, v);
  return r;
}

constexpr ScalarFn sumBody =
    variadicBody<arith::AddFOp, arith::AddIOp, arith::AddIOp>;

Value meanBody(OpBuilder &b, Location loc, ValueRange a,
               const ScalarContext &c) {
  Value sum = sumBody(b, loc, a, c);
  return arith::DivFOp::create(b, loc, sum,
                               cst(b, loc, sum.getType(), a.size()));
}

//===----------------------------------------------------------------------===//
// The pattern
//===----------------------------------------------------------------------===//

/// Lowers one elementwise op (matched by name) with its scalar body.
class ElementwiseLowering : public ConversionPattern {
public:
  ElementwiseLowering(const TypeConverter &converter, MLIRContext *ctx,
                      StringRef opName, ScalarFn body)
      : ConversionPattern(converter, opName, /*benefit=*/1, ctx), body(body) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1 || operands.empty())
      return emitLoweringError(op, "expected one result and inputs");
    auto resultType = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op->getResult(0).getType()));
    if (!resultType)
      return emitLoweringError(op, "the result must be a ranked tensor");
    ScalarContext context{op, {}, resultType.getElementType()};
    for (auto [value, converted] : llvm::zip(op->getOperands(), operands)) {
      if (!isa<RankedTensorType>(converted.getType()))
        return emitLoweringError(op, "inputs must be ranked tensors");
      context.inputTypes.push_back(getElementTypeOf(value.getType()));
    }
    Value result = buildElementwise(
        rewriter, op->getLoc(), operands, resultType, op,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return body(b, loc, args, context);
        },
        op->getOperands());
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  ScalarFn body;
};

} // namespace

void mlir::onnx::populateElementwiseToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  using P = arith::CmpFPredicate;
  using I = arith::CmpIPredicate;
  static const std::pair<StringRef, ScalarFn> table[] = {
      // Unary.
      {AbsOp::getOperationName(), absBody},
      {NegOp::getOperationName(), negBody},
      {ExpOp::getOperationName(), floatUnary<math::ExpOp>},
      {LogOp::getOperationName(), floatUnary<math::LogOp>},
      {SqrtOp::getOperationName(), floatUnary<math::SqrtOp>},
      {ReciprocalOp::getOperationName(), reciprocalBody},
      {FloorOp::getOperationName(), floatUnary<math::FloorOp>},
      {CeilOp::getOperationName(), floatUnary<math::CeilOp>},
      {RoundOp::getOperationName(), floatUnary<math::RoundEvenOp>},
      {SinOp::getOperationName(), floatUnary<math::SinOp>},
      {CosOp::getOperationName(), floatUnary<math::CosOp>},
      {TanOp::getOperationName(), floatUnary<math::TanOp>},
      {AsinOp::getOperationName(), floatUnary<math::AsinOp>},
      {AcosOp::getOperationName(), floatUnary<math::AcosOp>},
      {AtanOp::getOperationName(), floatUnary<math::AtanOp>},
      {SinhOp::getOperationName(), floatUnary<math::SinhOp>},
      {CoshOp::getOperationName(), floatUnary<math::CoshOp>},
      {AsinhOp::getOperationName(), floatUnary<math::AsinhOp>},
      {AcoshOp::getOperationName(), floatUnary<math::AcoshOp>},
      {AtanhOp::getOperationName(), floatUnary<math::AtanhOp>},
      {TanhOp::getOperationName(), floatUnary<math::TanhOp>},
      {ErfOp::getOperationName(), floatUnary<math::ErfOp>},
      {SigmoidOp::getOperationName(), sigmoidBody},
      {ReluOp::getOperationName(), reluBody},
      {SignOp::getOperationName(), signBody},
      {IsNaNOp::getOperationName(), isNaNBody},
      {IsInfOp::getOperationName(), isInfBody},
      {NotOp::getOperationName(), notBody},
      {BitwiseNotOp::getOperationName(), notBody},
      // Binary.
      {AddOp::getOperationName(), arithBinary<arith::AddFOp, arith::AddIOp>},
      {SubOp::getOperationName(), arithBinary<arith::SubFOp, arith::SubIOp>},
      {MulOp::getOperationName(), arithBinary<arith::MulFOp, arith::MulIOp>},
      {DivOp::getOperationName(), divBody},
      {ModOp::getOperationName(), modBody},
      {PowOp::getOperationName(), powBody},
      {BitShiftOp::getOperationName(), bitShiftBody},
      {EqualOp::getOperationName(), compareBody<P::OEQ, I::eq, I::eq>},
      {LessOp::getOperationName(), compareBody<P::OLT, I::slt, I::ult>},
      {LessOrEqualOp::getOperationName(), compareBody<P::OLE, I::sle, I::ule>},
      {GreaterOp::getOperationName(), compareBody<P::OGT, I::sgt, I::ugt>},
      {GreaterOrEqualOp::getOperationName(),
       compareBody<P::OGE, I::sge, I::uge>},
      {AndOp::getOperationName(), intBinary<arith::AndIOp>},
      {OrOp::getOperationName(), intBinary<arith::OrIOp>},
      {XorOp::getOperationName(), intBinary<arith::XOrIOp>},
      {BitwiseAndOp::getOperationName(), intBinary<arith::AndIOp>},
      {BitwiseOrOp::getOperationName(), intBinary<arith::OrIOp>},
      {BitwiseXorOp::getOperationName(), intBinary<arith::XOrIOp>},
      {WhereOp::getOperationName(), whereBody},
      // Variadic.
      {MaxOp::getOperationName(),
       variadicBody<arith::MaximumFOp, arith::MaxUIOp, arith::MaxSIOp>},
      {MinOp::getOperationName(),
       variadicBody<arith::MinimumFOp, arith::MinUIOp, arith::MinSIOp>},
      {SumOp::getOperationName(), sumBody},
      {MeanOp::getOperationName(), meanBody},
  };
  for (const auto &[name, body] : table)
    patterns.add<ElementwiseLowering>(converter, patterns.getContext(), name,
                                      body);
}
