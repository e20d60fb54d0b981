//===- Text.cpp - Inference of the string operators -----------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Type and shape inference of the operators on text: the string operators
// (StringNormalizer, StringConcat, StringSplit, RegexFullMatch) and
// TfIdfVectorizer (n-gram counts of token sequences).
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"

using namespace mlir;
using namespace mlir::onnx;
using namespace mlir::onnx::inference;

namespace {

LogicalResult inferStringNormalizer(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  if (!in)
    return setOut(ctx, std::nullopt);
  if (in->size() != 1 &&
      !(in->size() == 2 && (*in)[0].isStatic() && (*in)[0].size == 1) &&
      !(in->size() == 2 && !(*in)[0].isStatic()))
    return ctx.fail() << "input 'X' must have shape [C] or [1, C]";
  auto stopwords = dyn_cast_or_null<ArrayAttr>(ctx.getAttr("stopwords"));
  if (!stopwords || stopwords.empty())
    return setOut(ctx, *in);
  Shape out = *in;
  out.back() = Dim::unknown();
  return setOut(ctx, out);
}

LogicalResult inferStringConcat(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0), y = ctx.getInputShape(1);
  if (!x || !y)
    return setOut(ctx, std::nullopt);
  FailureOr<Shape> out = broadcastShapes({*x, *y});
  if (failed(out))
    return ctx.fail() << "inputs 'X' and 'Y' do not broadcast";
  return setOut(ctx, *out);
}

LogicalResult inferStringSplit(InferenceContext &ctx) {
  std::optional<Shape> in = ctx.getInputShape(0);
  std::optional<Shape> y;
  if (in) {
    y = *in;
    y->push_back(Dim::unknown());
  }
  ctx.setOutput(0, nullptr, y);
  if (ctx.hasOutput(1))
    ctx.setOutput(1, nullptr, in);
  return success();
}

LogicalResult inferRegexFullMatch(InferenceContext &ctx) {
  return sameShapeAs(ctx, 0);
}

LogicalResult inferTfIdfVectorizer(InferenceContext &ctx) {
  FailureOr<int64_t> minGram = readSizeAttr(ctx, "min_gram_length", 1);
  FailureOr<int64_t> maxGram = readSizeAttr(ctx, "max_gram_length", 1);
  if (failed(minGram) || failed(maxGram) ||
      failed(readSizeAttr(ctx, "max_skip_count", 0)))
    return failure();
  if (*maxGram < *minGram)
    return ctx.fail() << "attribute 'max_gram_length' (" << *maxGram
                      << ") must be >= 'min_gram_length' (" << *minGram << ")";
  std::optional<Shape> x = ctx.getInputShape(0);
  std::optional<SmallVector<int64_t>> indexes =
      ctx.getIntsAttr("ngram_indexes");
  Dim size = Dim::unknown();
  if (indexes) {
    if (failed(checkSizeList(ctx, "ngram_indexes", *indexes, 0)))
      return failure();
    int64_t max = -1;
    for (int64_t i : *indexes)
      max = std::max(max, i);
    size = Dim(max + 1);
  }
  if (!x) {
    ctx.setOutput(0, {}, std::nullopt);
    return success();
  }
  if (x->size() == 1) {
    ctx.setOutput(0, {}, Shape{size});
    return success();
  }
  if (x->size() == 2) {
    ctx.setOutput(0, {}, Shape{(*x)[0], size});
    return success();
  }
  return ctx.fail() << "input 'X' must have rank 1 or 2, got " << x->size();
}

} // namespace

void mlir::onnx::registerTextInference(InferenceRegistry &r) {
  r.add<StringNormalizerOp>(inferStringNormalizer);
  r.add<StringConcatOp>(inferStringConcat);
  r.add<StringSplitOp>(inferStringSplit);
  r.add<RegexFullMatchOp>(inferRegexFullMatch);
  r.add<TfIdfVectorizerOp>(inferTfIdfVectorizer);
}
