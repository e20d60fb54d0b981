//===- Constant.cpp - Constants, initializers and Identity ----------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx.Constant and the loads of initializers (ml_program.global_load_const
// of an ml_program.global) become arith.constant: the data stays where it
// is (a dense_resource blob is shared, not copied); unsigned element types
// are reinterpreted as signless ones of the same width. Identity forwards
// its input, and so does Dropout out of training mode (its mask all true).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::onnx;

/// `value` with the element type of `type` (same shape, same bits).
static TypedAttr retypeElements(ElementsAttr value, RankedTensorType type) {
  if (value.getType() == type)
    return value;
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.getElementType().getIntOrFloatBitWidth() !=
        type.getElementType().getIntOrFloatBitWidth())
      return {};
    return dense.bitcast(type.getElementType()).reshape(type);
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  return {};
}

/// The value of an onnx.Constant as an ElementsAttr of the op's result
/// type, from whichever of its attributes is set.
static ElementsAttr constantValue(ConstantOp op, RankedTensorType type) {
  if (auto value = op.getValueAttr())
    return value;
  Builder b(op.getContext());
  if (auto f = op.getValueFloatAttr())
    return DenseElementsAttr::get(type, f.getValue());
  if (auto fs = op.getValueFloatsAttr())
    return DenseElementsAttr::get(type, fs.asArrayRef());
  if (auto i = op.getValueIntAttr())
    return DenseElementsAttr::get(type, i.getInt());
  if (auto is = op.getValueIntsAttr())
    return DenseElementsAttr::get(type, is.asArrayRef());
  return {};
}

namespace {

struct ConstantLowering : ONNXToLinalgPattern<ConstantOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isStringTensor(op.getType()))
      return rewriter.notifyMatchFailure(op, "strings are StringConstant's");
    auto onnxType = dyn_cast<RankedTensorType>(op.getType());
    auto type = getConvertedType(op);
    if (!onnxType || !type)
      return emitLoweringError(op, "expected a ranked tensor");
    ElementsAttr value = constantValue(op, onnxType);
    if (!value)
      return emitLoweringError(
          op, "only numeric constants (value, value_float(s), value_int(s))");
    TypedAttr converted = retypeElements(value, type);
    if (!converted)
      return emitLoweringError(op, "unsupported constant value");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, converted);
    return success();
  }
};

struct GlobalLoadConstLowering
    : OpConversionPattern<ml_program::GlobalLoadConstOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ml_program::GlobalLoadConstOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isStringTensor(op.getType()))
      return rewriter.notifyMatchFailure(op, "strings are StringGlobalLoad's");
    auto global = SymbolTable::lookupNearestSymbolFrom<ml_program::GlobalOp>(
        op, op.getGlobalAttr());
    if (!global || !global.getValue())
      return emitLoweringError(op, "the global has no value");
    auto value = dyn_cast<ElementsAttr>(*global.getValue());
    auto type = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!value || !type)
      return emitLoweringError(op, "expected a ranked tensor value");
    TypedAttr converted = retypeElements(value, type);
    if (!converted)
      return emitLoweringError(op, "unsupported initializer value");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, converted);
    return success();
  }
};

struct IdentityLowering : ONNXToLinalgPattern<IdentityOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(IdentityOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    Value input = adaptor.getInput();
    if (isRuntimeHandleType(op.getInput().getType())) {
      // A sequence or optional: the same runtime value (values are immutable).
      rewriter.replaceOp(op, input);
      return success();
    }
    if (!isa_and_nonnull<RankedTensorType>(type) ||
        !isa<RankedTensorType>(input.getType()))
      return emitLoweringError(op, "expected ranked tensors");
    if (input.getType() != type)
      input = tensor::CastOp::create(rewriter, op.getLoc(), type, input);
    rewriter.replaceOp(op, input);
    return success();
  }
};

/// Dropout out of training mode, or with a ratio of 0: the output is the
/// input and the mask is all true. Training mode with a nonzero ratio draws
/// random numbers, which are not lowered: a compile error where both are
/// constants, else a run-time check.
struct DropoutLowering : ONNXToLinalgPattern<DropoutOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult
  matchAndRewrite(DropoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Known at compile time: training off, or a ratio of 0. Otherwise the
    // values are read at run time and checked to be so.
    Location loc = op.getLoc();
    Value mode = adaptor.getTrainingMode(), ratio = adaptor.getRatio();
    std::optional<SmallVector<int64_t>> training;
    if (mode)
      training = getConstantIntValues(mode);
    std::optional<SmallVector<double>> ratioValue;
    if (ratio)
      ratioValue = getConstantFloatValues(ratio);
    bool off =
        !mode || (training && training->size() == 1 && (*training)[0] == 0);
    bool zeroRatio =
        ratioValue && ratioValue->size() == 1 && (*ratioValue)[0] == 0.0;
    bool trainingOn = training && training->size() == 1 && (*training)[0] != 0;
    bool nonzeroRatio = !ratio || (ratioValue && ratioValue->size() == 1 &&
                                   (*ratioValue)[0] != 0.0);
    if (trainingOn && nonzeroRatio)
      return emitLoweringError(op, "training mode (random masks) is not "
                                   "lowered; only inference and ratio 0");
    if (!off && !zeroRatio) {
      // cond = !training || ratio == 0, from the scalar inputs.
      Value notTraining = arith::ConstantIntOp::create(rewriter, loc, 0, 1);
      if (!trainingOn) {
        Value t = tensor::ExtractOp::create(rewriter, loc, mode, ValueRange{});
        Value yes = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
        notTraining = arith::XOrIOp::create(rewriter, loc, t, yes);
      }
      Value isZero = arith::ConstantIntOp::create(rewriter, loc, 0, 1);
      if (ratio && !nonzeroRatio) {
        Value r = tensor::ExtractOp::create(rewriter, loc, ratio, ValueRange{});
        Value zero = arith::ConstantOp::create(
            rewriter, loc, rewriter.getZeroAttr(r.getType()));
        isZero = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OEQ,
                                       r, zero);
      }
      emitRuntimeCheck(rewriter, loc,
                       arith::OrIOp::create(rewriter, loc, notTraining, isZero),
                       op,
                       "training mode with a nonzero ratio (random masks) "
                       "is not supported");
    }
    auto type = getConvertedType(op.getOutput());
    Value input = adaptor.getData();
    if (!type || !isa<RankedTensorType>(input.getType()))
      return emitLoweringError(op, "expected ranked tensors");
    if (input.getType() != type)
      input = tensor::CastOp::create(rewriter, loc, type, input);
    SmallVector<Value> results = {input};
    if (Value mask = op.getMask()) {
      auto maskType = getConvertedType(mask);
      if (!maskType)
        return emitLoweringError(op, "expected a ranked mask");
      SmallVector<OpFoldResult> dims = getDims(rewriter, loc, input);
      Value empty = tensor::EmptyOp::create(rewriter, loc, dims,
                                            maskType.getElementType());
      Value one = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
      Value all = linalg::FillOp::create(rewriter, loc, one, empty).result();
      if (all.getType() != maskType)
        all = tensor::CastOp::create(rewriter, loc, maskType, all);
      results.push_back(all);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::onnx::populateConstantToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConstantLowering, GlobalLoadConstLowering, IdentityLowering,
               DropoutLowering>(converter, patterns.getContext());
}
