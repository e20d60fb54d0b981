//===- BitCast.cpp - BitCast to linalg ------------------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// BitCast reinterprets each element's bits as another type of the same
// width: one elementwise linalg.generic of arith.bitcast. bool is a byte in
// ONNX: it is widened to i8 (0 or 1) when it is the source and compared
// with 0 when it is the target. Complex types are not lowered.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// The bits an element takes in ONNX's storage (bool: 8).
static unsigned storageBits(Type t) {
  if (t.isInteger(1))
    return 8;
  return t.getIntOrFloatBitWidth();
}

struct BitCastLowering : ONNXToLinalgPattern<BitCastOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(BitCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    auto type = dyn_cast<RankedTensorType>(x.getType());
    auto resultType = getConvertedType(op);
    if (!type || !resultType)
      return emitLoweringError(op, "the input and result must be ranked");
    Type from = type.getElementType(), to = resultType.getElementType();
    if (!from.isIntOrFloat() || !to.isIntOrFloat())
      return emitLoweringError(op, "only integer, bool and float element "
                                   "types are lowered (not complex)");
    if (storageBits(from) != storageBits(to))
      return emitLoweringError(op, "the input and target types differ in "
                                   "width");
    Value result = buildElementwise(
        rewriter, loc, x, resultType, op,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value v = args[0];
          if (from == to)
            return v;
          if (from.isInteger(1))
            v = arith::ExtUIOp::create(b, l, b.getI8Type(), v);
          if (to.isInteger(1)) {
            if (v.getType() != b.getI8Type())
              v = arith::BitcastOp::create(b, l, b.getI8Type(), v);
            return arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::ne, v,
                arith::ConstantIntOp::create(b, l, b.getI8Type(), 0));
          }
          if (v.getType() != to)
            v = arith::BitcastOp::create(b, l, to, v);
          return v;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::onnx::populateBitCastToLinalgPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<BitCastLowering>(converter, patterns.getContext());
}
