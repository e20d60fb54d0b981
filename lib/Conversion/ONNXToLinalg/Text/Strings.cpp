//===- Strings.cpp - Tensors of strings -----------------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Strings: a tensor of !onnx.string is a tensor of i64 after conversion,
// each element a `const char *` (NUL-terminated UTF-8) the runtime, the
// caller or a constant global owns; data movement ops move the pointers.
// Elementwise string ops (Equal, StringConcat, RegexFullMatch) are
// linalg.generic's whose body calls a scalar runtime function; the others
// (StringNormalizer, StringSplit) box their input and run in the runtime.
// Casts to and from strings and string constants are here too.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXDataTypes.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "RuntimeValues.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// `op` as one elementwise linalg.generic over `operands` whose body calls
/// the scalar runtime function `fn` on the elements and `extra` (result of
/// element type `element`).
LogicalResult lowerToRuntimeCalls(ConversionPatternRewriter &rewriter,
                                  Operation *op, ValueRange operands,
                                  RankedTensorType resultType, StringRef fn,
                                  Type element, ValueRange extra = {}) {
  Value result = buildElementwise(
      rewriter, op->getLoc(), operands, resultType, op,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        SmallVector<Value> callArgs(args);
        llvm::append_range(callArgs, extra);
        return callRuntime(b, loc, op, fn, callArgs, {element});
      });
  rewriter.replaceOp(op, result);
  return success();
}

/// Equal on strings: byte-wise equality (numbers are Elementwise.cpp's).
struct StringEqualLowering : ONNXToLinalgPattern<EqualOp> {
  StringEqualLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ONNXToLinalgPattern(converter, ctx, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(EqualOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isStringTensor(op.getA().getType()))
      return rewriter.notifyMatchFailure(op, "not strings");
    return lowerToRuntimeCalls(rewriter, op, {adaptor.getA(), adaptor.getB()},
                               getConvertedType(op), "onnxd_str_equal",
                               rewriter.getI1Type());
  }
};

/// Cast from or to strings (numbers are Cast.cpp's): per element, the
/// runtime parses (strtod/strtoll: "NaN", "INF", "-INF" too) or formats
/// (the shortest text that reads back as the same float32/float64; integers
/// in decimal; bools as "1"/"0").
struct StringCastLowering : ONNXToLinalgPattern<CastOp> {
  StringCastLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ONNXToLinalgPattern(converter, ctx, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type from = getElementTypeOf(op.getInput().getType());
    Type to = getElementTypeOf(op.getType());
    bool fromString = isa<StringType>(from), toString = isa<StringType>(to);
    if (!fromString && !toString)
      return rewriter.notifyMatchFailure(op, "no strings");
    auto resultType = getConvertedType(op);
    Type loweredFrom = convertElementType(from);
    Type loweredTo = resultType.getElementType();
    auto isPlain = [](Type t) {
      return t.isF16() || t.isBF16() || t.isF32() || t.isF64() ||
             (isa<IntegerType>(t) && cast<IntegerType>(t).getWidth() <= 64 &&
              llvm::is_contained({1u, 8u, 16u, 32u, 64u},
                                 cast<IntegerType>(t).getWidth()));
    };
    if (fromString && toString) {
      rewriter.replaceOp(op, adaptor.getInput());
      return success();
    }
    if (!isPlain(fromString ? loweredTo : loweredFrom))
      return rewriter.notifyMatchFailure(
          op, "casts between strings and this element type are not "
              "supported"); // Cast.cpp then reports it
    bool isUnsigned =
        isUnsignedElement(fromString ? op.getType() : op.getInput().getType());
    Operation *node = op;
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getInput()}, resultType, op,
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value x = args[0];
          Type f64 = b.getF64Type(), i64 = b.getI64Type();
          if (fromString) {
            if (isa<FloatType>(loweredTo)) {
              Value d =
                  callRuntime(b, loc, node, "onnxd_str_to_f64", {x}, {f64});
              return loweredTo == f64
                         ? d
                         : arith::TruncFOp::create(b, loc, loweredTo, d)
                               .getResult();
            }
            Value n = callRuntime(b, loc, node,
                                  isUnsigned ? "onnxd_str_to_u64"
                                             : "onnxd_str_to_i64",
                                  {x}, {i64});
            if (loweredTo.isInteger(1))
              return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, n,
                                           i64Const(b, loc, 0));
            return loweredTo == i64
                       ? n
                       : arith::TruncIOp::create(b, loc, loweredTo, n)
                             .getResult();
          }
          if (auto f = dyn_cast<FloatType>(loweredFrom)) {
            Value d = f == f64 ? x : arith::ExtFOp::create(b, loc, f64, x);
            Value bits = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                                      f.getWidth());
            return callRuntime(b, loc, node, "onnxd_str_from_f64", {d, bits},
                               {i64});
          }
          Value n = x;
          if (!loweredFrom.isInteger(64))
            n = isUnsigned || loweredFrom.isInteger(1)
                    ? arith::ExtUIOp::create(b, loc, i64, x).getResult()
                    : arith::ExtSIOp::create(b, loc, i64, x).getResult();
          return callRuntime(b, loc, node,
                             isUnsigned ? "onnxd_str_from_u64"
                                        : "onnxd_str_from_i64",
                             {n}, {i64});
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Constants of strings (value, value_string, value_strings) and string
/// initializers: tensors of pointers to global strings.
static std::optional<SmallVector<StringRef>> stringValues(Attribute attr,
                                                          int64_t count) {
  auto strs = dyn_cast_or_null<DenseStringElementsAttr>(attr);
  if (!strs)
    return std::nullopt;
  SmallVector<StringRef> values;
  if (strs.isSplat())
    values.assign(count, strs.getSplatValue<StringRef>());
  else
    llvm::append_range(values, strs.getRawStringData());
  return values;
}

struct StringConstantLowering : ONNXToLinalgPattern<ConstantOp> {
  StringConstantLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ONNXToLinalgPattern(converter, ctx, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !isStringTensor(type))
      return rewriter.notifyMatchFailure(op, "not strings");
    std::optional<SmallVector<StringRef>> values;
    if (op.getValue())
      values = stringValues(*op.getValue(), type.getNumElements());
    else if (op.getValueString())
      values = SmallVector<StringRef>{*op.getValueString()};
    else if (std::optional<ArrayAttr> strs = op.getValueStrings()) {
      values.emplace();
      for (Attribute s : *strs)
        values->push_back(cast<StringAttr>(s).getValue());
    }
    if (!values || int64_t(values->size()) != type.getNumElements())
      return emitLoweringError(op, "unsupported string constant");
    rewriter.replaceOp(op, stringConstant(rewriter, op.getLoc(), op, *values,
                                          type.getShape()));
    return success();
  }
};

struct StringGlobalLoadLowering
    : OpConversionPattern<ml_program::GlobalLoadConstOp> {
  StringGlobalLoadLowering(const TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(ml_program::GlobalLoadConstOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !isStringTensor(type))
      return rewriter.notifyMatchFailure(op, "not strings");
    auto global = SymbolTable::lookupNearestSymbolFrom<ml_program::GlobalOp>(
        op, op.getGlobalAttr());
    std::optional<SmallVector<StringRef>> values;
    if (global && global.getValue())
      values = stringValues(*global.getValue(), type.getNumElements());
    if (!values)
      return emitLoweringError(op, "unsupported string initializer");
    rewriter.replaceOp(op, stringConstant(rewriter, op.getLoc(), op, *values,
                                          type.getShape()));
    return success();
  }
};

struct StringConcatLowering : ONNXToLinalgPattern<StringConcatOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(StringConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerToRuntimeCalls(rewriter, op, {adaptor.getX(), adaptor.getY()},
                               getConvertedType(op), "onnxd_str_concat",
                               rewriter.getI64Type());
  }
};

struct RegexFullMatchLowering : ONNXToLinalgPattern<RegexFullMatchOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(RegexFullMatchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getPattern())
      return emitLoweringError(op, "the pattern attribute is required");
    Location loc = op.getLoc();
    Value pattern = globalString(rewriter, loc, op, *op.getPattern());
    Value name = globalString(rewriter, loc, op, describeNode(op));
    return lowerToRuntimeCalls(
        rewriter, op, {adaptor.getX()}, getConvertedType(op),
        "onnxd_str_regex_full_match", rewriter.getI1Type(), {pattern, name});
  }
};

struct StringNormalizerLowering : ONNXToLinalgPattern<StringNormalizerOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(StringNormalizerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t action = StringSwitch<int64_t>(op.getCaseChangeAction())
                         .Case("NONE", 0)
                         .Case("LOWER", 1)
                         .Case("UPPER", 2)
                         .Default(-1);
    if (action < 0)
      return emitLoweringError(op, "case_change_action must be NONE, LOWER "
                                   "or UPPER");
    FailureOr<Value> input =
        boxTensor(rewriter, loc, op, adaptor.getX(), op.getX().getType());
    if (failed(input))
      return failure();
    Value stop = nullHandle(rewriter, loc);
    if (std::optional<ArrayAttr> words = op.getStopwords();
        words && !words->empty()) {
      SmallVector<StringRef> values;
      for (Attribute w : *words)
        values.push_back(cast<StringAttr>(w).getValue());
      FailureOr<Value> boxed = boxTensor(
          rewriter, loc, op,
          stringConstant(rewriter, loc, op, values, {int64_t(values.size())}),
          op.getX().getType());
      if (failed(boxed))
        return failure();
      stop = *boxed;
    }
    Value result =
        callRuntime(rewriter, loc, op, "onnxd_str_normalize",
                    {*input, stop, i64Const(rewriter, loc, action),
                     i64Const(rewriter, loc, op.getIsCaseSensitive() != 0),
                     globalString(rewriter, loc, op, describeNode(op))},
                    {ptrType(op.getContext())});
    // The static result shape inference gives may not hold (stopwords).
    auto type = getConvertedType(op);
    SmallVector<int64_t> shape(type.getShape());
    shape.back() = ShapedType::kDynamic;
    FailureOr<Value> tensor =
        unboxTensor(rewriter, loc, op, result, type.clone(shape), op.getType());
    if (failed(tensor))
      return failure();
    rewriter.replaceOp(
        op, tensor::CastOp::create(rewriter, loc, type, *tensor).getResult());
    return success();
  }
};

struct StringSplitLowering : ONNXToLinalgPattern<StringSplitOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(StringSplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<Value> input =
        boxTensor(rewriter, loc, op, adaptor.getX(), op.getX().getType());
    if (failed(input))
      return failure();
    Value delimiter = op.getDelimiter()
                          ? globalString(rewriter, loc, op, *op.getDelimiter())
                          : nullHandle(rewriter, loc);
    int64_t maxsplit =
        op.getMaxsplit() ? static_cast<int64_t>(*op.getMaxsplit()) : -1;
    Type ptr = ptrType(op.getContext());
    Value pair = callRuntime(
        rewriter, loc, op, "onnxd_str_split",
        {*input, delimiter, i64Const(rewriter, loc, maxsplit)}, {ptr});
    SmallVector<Value> results;
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      Value v = callRuntime(rewriter, loc, op, "onnxd_seq_get",
                            {pair, i64Const(rewriter, loc, i)}, {ptr});
      FailureOr<Value> tensor = unboxTensor(
          rewriter, loc, op, v,
          getTypeConverter()->convertType(result.getType()), result.getType());
      if (failed(tensor))
        return failure();
      results.push_back(*tensor);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::onnx::populateStringsToLinalgPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<StringEqualLowering, StringCastLowering, StringConstantLowering,
               StringGlobalLoadLowering, StringConcatLowering,
               RegexFullMatchLowering, StringNormalizerLowering,
               StringSplitLowering>(converter, patterns.getContext());
}
