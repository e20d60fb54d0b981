//===- LabelEncoder.cpp - ai.onnx.ml.LabelEncoder -------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// LabelEncoder maps keys to values (numbers or strings): its input is boxed
// and the map runs in the runtime, with the key and value lists as boxed
// constants.
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

struct LabelEncoderLowering : ONNXToLinalgPattern<MLLabelEncoderOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;
  LogicalResult
  matchAndRewrite(MLLabelEncoderOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto stringType = StringType::get(ctx);
    // keys_* / values_* as constant tensors.
    auto fromLists = [&](std::optional<ArrayRef<float>> floats,
                         std::optional<ArrayRef<int64_t>> ints,
                         std::optional<ArrayAttr> strs,
                         std::optional<ElementsAttr> tensor) -> ElementsAttr {
      if (tensor)
        return *tensor;
      if (floats)
        return DenseElementsAttr::get(
            RankedTensorType::get({int64_t(floats->size())},
                                  Float32Type::get(ctx)),
            *floats);
      if (ints)
        return DenseElementsAttr::get(
            RankedTensorType::get({int64_t(ints->size())},
                                  IntegerType::get(ctx, 64)),
            *ints);
      if (strs) {
        SmallVector<StringRef> values;
        for (Attribute s : *strs)
          values.push_back(cast<StringAttr>(s).getValue());
        return DenseStringElementsAttr::get(
            RankedTensorType::get({int64_t(values.size())}, stringType),
            values);
      }
      return {};
    };
    ElementsAttr keys = fromLists(op.getKeysFloats(), op.getKeysInt64s(),
                                  op.getKeysStrings(), op.getKeysTensor());
    ElementsAttr values =
        fromLists(op.getValuesFloats(), op.getValuesInt64s(),
                  op.getValuesStrings(), op.getValuesTensor());
    if (!keys || !values)
      return emitLoweringError(op, "keys and values are required");
    Type valueElement = cast<ShapedType>(values.getType()).getElementType();
    ElementsAttr fallback;
    auto scalar = RankedTensorType::get({}, valueElement);
    if (op.getDefaultTensor())
      fallback = *op.getDefaultTensor();
    else if (isa<StringType>(valueElement))
      fallback = DenseStringElementsAttr::get(
          scalar, ArrayRef<StringRef>{op.getDefaultString()});
    else if (valueElement.isInteger(64))
      fallback = DenseElementsAttr::get(
          scalar,
          ArrayRef<int64_t>{static_cast<int64_t>(op.getDefaultInt64())});
    else if (valueElement.isF32())
      fallback = DenseElementsAttr::get(
          scalar, ArrayRef<float>{static_cast<float>(
                      op.getDefaultFloat().convertToFloat())});
    else
      return emitLoweringError(op, "values of this type need default_tensor");
    FailureOr<Value> input =
        boxTensor(rewriter, loc, op, adaptor.getX(), op.getX().getType());
    if (failed(input))
      return failure();
    FailureOr<Value> k = boxConstant(rewriter, loc, op, keys);
    FailureOr<Value> v = boxConstant(rewriter, loc, op, values);
    FailureOr<Value> d = boxConstant(rewriter, loc, op, fallback);
    if (failed(k) || failed(v) || failed(d))
      return failure();
    Value result = callRuntime(
        rewriter, loc, op, "onnxd_label_encode",
        {*input, *k, *v, *d, globalString(rewriter, loc, op, describeNode(op))},
        {ptrType(ctx)});
    return replaceWithUnboxed(rewriter, loc, op, result,
                              getTypeConverter()->convertType(op.getType()));
  }
};

} // namespace

void mlir::onnx::populateLabelEncoderToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LabelEncoderLowering>(converter, patterns.getContext());
}
