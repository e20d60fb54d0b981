//===- ML.cpp - Inference of the ai.onnx.ml operators ---------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The classic machine learning operators (Changelog-ml.md). Their inputs are
// [N, C] or [C] (then read as [1, C]); the number of classes or targets of
// an output comes from attributes only where the operator says so exactly.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

Type stringType(InferenceContext &ctx) {
  return StringType::get(ctx.getContext());
}
Type i64Type(InferenceContext &ctx) {
  return IntegerType::get(ctx.getContext(), 64);
}

/// The batch size N of an input that is [N, C] or [C]; fails for other
/// ranks.
FailureOr<Dim> getBatch(InferenceContext &ctx, unsigned i, StringRef name) {
  std::optional<Shape> shape = ctx.getInputShape(i);
  if (!shape)
    return Dim::unknown();
  if (shape->size() == 1)
    return Dim(1);
  if (shape->size() == 2)
    return (*shape)[0];
  return ctx.fail() << "input '" << name << "' must have rank 1 or 2, got "
                    << shape->size();
}

/// The length of the list attribute `name` (ints, floats or strings), if set.
std::optional<int64_t> getListLength(InferenceContext &ctx, StringRef name) {
  Attribute attr = ctx.getAttr(name);
  if (!attr || ctx.isAttrRef(name))
    return std::nullopt;
  if (auto array = dyn_cast<ArrayAttr>(attr))
    return array.size();
  if (auto array = dyn_cast<DenseArrayAttr>(attr))
    return array.size();
  if (auto elements = dyn_cast<ElementsAttr>(attr))
    return elements.getNumElements();
  return std::nullopt;
}

/// The label type of a classifier: strings when `classlabels_strings` is set,
/// else int64.
Type getLabelType(InferenceContext &ctx) {
  return ctx.hasAttr("classlabels_strings") ? stringType(ctx) : i64Type(ctx);
}

LogicalResult sameShape(InferenceContext &ctx, Type elementType = nullptr) {
  ctx.setOutput(0, elementType, ctx.getInputShape(0));
  return success();
}

LogicalResult inferArrayFeatureExtractor(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  std::optional<Shape> y = ctx.getInputShape(1);
  if (!x) {
    ctx.setOutput(0, nullptr, std::nullopt);
    return success();
  }
  if (x->empty())
    return ctx.fail() << "input 'X' must have rank at least 1";
  Dim count = Dim::unknown();
  if (y)
    if (std::optional<int64_t> n = getNumElements(*y))
      count = Dim(*n);
  Shape out;
  if (x->size() == 1)
    out = {Dim(1), count};
  else {
    out = *x;
    out.back() = count;
  }
  ctx.setOutput(0, nullptr, out);
  return success();
}

LogicalResult inferCastMap(InferenceContext &ctx) {
  StringRef to = ctx.getStringAttrOrDefault("cast_to");
  Type type;
  if (to == "TO_FLOAT")
    type = Builder(ctx.getContext()).getF32Type();
  else if (to == "TO_STRING")
    type = stringType(ctx);
  else if (to == "TO_INT64")
    type = i64Type(ctx);
  else if (!ctx.isAttrRef("cast_to"))
    return ctx.fail() << "attribute 'cast_to' must be TO_FLOAT, TO_STRING or "
                         "TO_INT64, got '"
                      << to << "'";
  if (type)
    ctx.setOutput(0, type, std::nullopt);
  return success();
}

LogicalResult inferCategoryMapper(InferenceContext &ctx) {
  Type in = ctx.getInputElementType(0);
  if (!in)
    return success();
  return sameShape(ctx, isa<StringType>(in) ? i64Type(ctx) : stringType(ctx));
}

LogicalResult inferDictVectorizer(InferenceContext &ctx) {
  if (auto map = dyn_cast_or_null<MapType>(ctx.getInputType(0)))
    if (auto value = dyn_cast<TensorType>(map.getValueType()))
      ctx.setOutput(0, value.getElementType(), std::nullopt);
  return success();
}

LogicalResult inferFeatureVectorizer(InferenceContext &ctx) {
  FailureOr<Dim> batch = getBatch(ctx, 0, "X");
  if (failed(batch))
    return failure();
  Dim total = Dim::unknown();
  if (auto dims = ctx.getIntsAttr("inputdimensions")) {
    int64_t sum = 0;
    for (int64_t d : *dims)
      sum += d;
    total = Dim(sum);
  }
  ctx.setOutput(0, nullptr, Shape{*batch, total});
  return success();
}

LogicalResult inferLabelEncoder(InferenceContext &ctx) {
  Type type;
  Builder b(ctx.getContext());
  if (ctx.getVersion() < 2) {
    Type in = ctx.getInputElementType(0);
    if (in)
      type = isa<StringType>(in) ? i64Type(ctx) : stringType(ctx);
  } else if (ctx.hasAttr("values_strings")) {
    type = stringType(ctx);
  } else if (ctx.hasAttr("values_int64s")) {
    type = i64Type(ctx);
  } else if (ctx.hasAttr("values_floats")) {
    type = b.getF32Type();
  } else if (auto values =
                 dyn_cast_or_null<ElementsAttr>(ctx.getAttr("values_tensor"))) {
    type = values.getElementType();
  }
  return sameShape(ctx, type);
}

/// A classifier: labels [N] and scores [N, E] (E unknown).
LogicalResult inferClassifier(InferenceContext &ctx) {
  FailureOr<Dim> batch = getBatch(ctx, 0, "X");
  if (failed(batch))
    return failure();
  ctx.setOutput(0, getLabelType(ctx), Shape{*batch});
  if (ctx.hasOutput(1))
    ctx.setOutput(1, nullptr, Shape{*batch, Dim::unknown()});
  return success();
}

/// A regressor: [N, targets] with the number of targets in attribute
/// `targetsAttr` (if any).
LogicalResult inferRegressor(InferenceContext &ctx, StringRef targetsAttr,
                             std::optional<int64_t> deflt,
                             bool requireRank2 = false) {
  std::optional<int64_t> rank = ctx.getInputRank(0);
  if (requireRank2 && rank && *rank != 2)
    return ctx.fail() << "input 'X' must have rank 2, got " << *rank;
  FailureOr<Dim> batch = getBatch(ctx, 0, "X");
  if (failed(batch))
    return failure();
  Dim targets = Dim::unknown();
  if (!targetsAttr.empty()) {
    if (std::optional<int64_t> n = ctx.getIntAttr(targetsAttr))
      targets = Dim(*n);
    else if (deflt && !ctx.isAttrRef(targetsAttr))
      targets = Dim(*deflt);
  }
  if (targets.isStatic() && targets.size < 0)
    return ctx.fail() << "attribute '" << targetsAttr
                      << "' must not be negative";
  ctx.setOutput(0, nullptr, Shape{*batch, targets});
  return success();
}

LogicalResult inferOneHotEncoder(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  if (!in) {
    ctx.setOutput(0, nullptr, std::nullopt);
    return success();
  }
  Dim cats = Dim::unknown();
  if (std::optional<int64_t> n = getListLength(ctx, "cats_int64s"))
    cats = Dim(*n);
  else if (std::optional<int64_t> n = getListLength(ctx, "cats_strings"))
    cats = Dim(*n);
  Shape out = *in;
  out.push_back(cats);
  ctx.setOutput(0, nullptr, out);
  return success();
}

LogicalResult inferZipMap(InferenceContext &ctx) {
  MLIRContext *context = ctx.getContext();
  Type key =
      ctx.hasAttr("classlabels_strings") ? stringType(ctx) : i64Type(ctx);
  // Map values are ONNX value types: tensor(float) scalars.
  Type value = RankedTensorType::get({}, Builder(context).getF32Type());
  Type map = MapType::get(context, key, value);
  ctx.setOutputType(0, SeqType::get(context, map));
  return success();
}

} // namespace

void mlir::onnx::registerMLInference(InferenceRegistry &r) {
  r.add<MLArrayFeatureExtractorOp>(inferArrayFeatureExtractor);
  r.add<MLBinarizerOp, MLImputerOp, MLNormalizerOp, MLScalerOp>(
      [](InferenceContext &ctx) { return sameShape(ctx); });
  r.add<MLCastMapOp>(inferCastMap);
  r.add<MLCategoryMapperOp>(inferCategoryMapper);
  r.add<MLDictVectorizerOp>(inferDictVectorizer);
  r.add<MLFeatureVectorizerOp>(inferFeatureVectorizer);
  r.add<MLLabelEncoderOp>(inferLabelEncoder);
  r.add<MLLinearClassifierOp, MLSVMClassifierOp, MLTreeEnsembleClassifierOp>(
      inferClassifier);
  r.add<MLLinearRegressorOp>(
      [](InferenceContext &ctx) { return inferRegressor(ctx, "targets", 1); });
  r.add<MLSVMRegressorOp>([](InferenceContext &ctx) {
    return inferRegressor(ctx, "", std::nullopt);
  });
  r.add<MLTreeEnsembleRegressorOp>([](InferenceContext &ctx) {
    return inferRegressor(ctx, "n_targets", std::nullopt);
  });
  r.add<MLTreeEnsembleOp>([](InferenceContext &ctx) {
    return inferRegressor(ctx, "n_targets", std::nullopt,
                          /*requireRank2=*/true);
  });
  r.add<MLOneHotEncoderOp>(inferOneHotEncoder);
  r.add<MLZipMapOp>(inferZipMap);
}
