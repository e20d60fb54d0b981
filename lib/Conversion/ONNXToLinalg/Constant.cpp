//===- Constant.cpp - Constants, initializers and Identity ----------------===//
//
// onnx.Constant and the loads of initializers (ml_program.global_load_const
// of an ml_program.global) become arith.constant: the data stays where it
// is (a dense_resource blob is shared, not copied); unsigned element types
// are reinterpreted as signless ones of the same width. Identity forwards
// its input.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "OnnxDialect/IR/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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

struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto onnxType = dyn_cast<RankedTensorType>(op.getType());
    auto type = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getType()));
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

struct IdentityLowering : OpConversionPattern<IdentityOp> {
  using OpConversionPattern::OpConversionPattern;

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

} // namespace

void mlir::onnx::populateConstantToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConstantLowering, GlobalLoadConstLowering, IdentityLowering>(
      converter, patterns.getContext());
}
