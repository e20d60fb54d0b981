//===- Sequence.cpp - Inference of the sequence and optional operators ----===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A sequence's type `!onnx.seq<T>` describes every element: its element type
// keeps the dims that all elements share. Optionals wrap one value's type.
//
//===----------------------------------------------------------------------===//

#include "JoinTypes.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// The element type of a sequence input; null if it is not a sequence.
Type getSeqElementType(InferenceContext &ctx, unsigned i) {
  if (auto seq = dyn_cast_or_null<SeqType>(ctx.getInputType(i)))
    return seq.getElementType();
  return nullptr;
}

/// Checks that input `i` ('position') is a scalar; a tensor of one element
/// is accepted too (conformance tests pass one).
LogicalResult checkPosition(InferenceContext &ctx, unsigned i) {
  std::optional<Shape> shape = ctx.getInputShape(i);
  if (!shape || shape->empty())
    return success();
  if (shape->size() == 1 && (!(*shape)[0].isStatic() || (*shape)[0].size == 1))
    return success();
  return ctx.fail() << "input 'position' must be a scalar, got rank "
                    << shape->size();
}

LogicalResult setSeqOf(InferenceContext &ctx, Type element, unsigned slot = 0) {
  if (element && isa<TensorType>(element))
    ctx.setOutputType(slot, SeqType::get(ctx.getContext(), element));
  return success();
}

LogicalResult inferSequenceEmpty(InferenceContext &ctx) {
  Type element = Builder(ctx.getContext()).getF32Type();
  if (ctx.hasAttr("dtype") && !ctx.isAttrRef("dtype")) {
    element = ctx.getDataTypeAttr("dtype");
    if (!element)
      return ctx.fail() << "attribute 'dtype' is not a known data type";
  }
  return setSeqOf(ctx, UnrankedTensorType::get(element));
}

LogicalResult inferSequenceConstruct(InferenceContext &ctx) {
  Type element;
  for (unsigned i = 0, e = ctx.getNumInputs(); i < e; ++i) {
    Type type = ctx.getInputType(i);
    if (!isa_and_nonnull<TensorType>(type))
      return success();
    if (i == 0) {
      element = type;
      continue;
    }
    if (cast<TensorType>(type).getElementType() !=
        cast<TensorType>(element).getElementType())
      return ctx.fail() << "all inputs must have the same element type";
    element = joinTypes(element, type);
  }
  return setSeqOf(ctx, element);
}

LogicalResult inferSequenceInsert(InferenceContext &ctx) {
  Type element = getSeqElementType(ctx, 0);
  auto tensor = dyn_cast_or_null<TensorType>(ctx.getInputType(1));
  if (failed(checkPosition(ctx, 2)))
    return failure();
  auto seqTensor = dyn_cast_or_null<TensorType>(element);
  if (!seqTensor || !tensor)
    return success();
  if (seqTensor.getElementType() != tensor.getElementType())
    return ctx.fail() << "input 'tensor' must have the element type of the "
                         "elements of input 'input_sequence'";
  if (isEmptySequence(ctx.getInput(0)))
    return setSeqOf(ctx, tensor);
  return setSeqOf(ctx, joinTypes(seqTensor, tensor));
}

LogicalResult inferSequenceErase(InferenceContext &ctx) {
  if (failed(checkPosition(ctx, 1)))
    return failure();
  return setSeqOf(ctx, getSeqElementType(ctx, 0));
}

LogicalResult inferSequenceAt(InferenceContext &ctx) {
  if (failed(checkPosition(ctx, 1)))
    return failure();
  if (Type element = getSeqElementType(ctx, 0))
    ctx.setOutputType(0, element);
  return success();
}

LogicalResult inferSequenceLength(InferenceContext &ctx) {
  ctx.setOutput(0, nullptr, Shape{});
  return success();
}

LogicalResult inferSplitToSequence(InferenceContext &ctx) {
  auto inType = dyn_cast_or_null<TensorType>(ctx.getInputType(0));
  if (!inType)
    return success();
  Type elementType = inType.getElementType();
  std::optional<Shape> in = ctx.getInputShape(0);
  if (!in)
    return setSeqOf(ctx, UnrankedTensorType::get(elementType));
  int64_t rank = in->size();
  int64_t axisAttr = ctx.getIntAttrOrDefault("axis");
  std::optional<int64_t> axis = normalizeAxis(axisAttr, rank);
  if (!axis)
    return ctx.fail() << "attribute 'axis' " << axisAttr
                      << " is out of range for rank " << rank;
  const Dim &dim = (*in)[*axis];
  Shape out = *in;
  if (!ctx.hasInput(1)) {
    // Pieces of size 1, the axis kept or dropped.
    if (ctx.getIntAttrOrDefault("keepdims") != 0)
      out[*axis] = Dim(1);
    else
      out.erase(out.begin() + *axis);
    return setSeqOf(ctx, getTensorType(out, elementType));
  }
  std::optional<int64_t> splitRank = ctx.getInputRank(1);
  if (splitRank && *splitRank > 1)
    return ctx.fail() << "input 'split' must be a scalar or 1-D, got rank "
                      << *splitRank;
  out[*axis] = Dim::unknown();
  if (std::optional<SmallVector<int64_t>> split = ctx.getConstantInts(1)) {
    for (int64_t s : *split)
      if (s < 0 || (splitRank == 0 && s == 0))
        return ctx.fail() << "input 'split' holds an invalid size " << s;
    if (splitRank == 0 && split->size() == 1) {
      int64_t s = (*split)[0];
      // Equal pieces when the size divides the axis.
      if (dim.isStatic() && dim.size % s == 0)
        out[*axis] = Dim(s);
    } else if (splitRank == 1) {
      int64_t sum = 0;
      for (int64_t s : *split)
        if (llvm::AddOverflow(sum, s, sum))
          return ctx.fail() << "the sum of input 'split' overflows";
      if (dim.isStatic() && sum != dim.size)
        return ctx.fail() << "input 'split' sums to " << sum
                          << " but the split axis has size " << dim.size;
      if (!split->empty() && llvm::all_equal(*split))
        out[*axis] = Dim((*split)[0]);
    }
  }
  return setSeqOf(ctx, getTensorType(out, elementType));
}

LogicalResult inferConcatFromSequence(InferenceContext &ctx) {
  auto element = dyn_cast_or_null<TensorType>(getSeqElementType(ctx, 0));
  if (!element)
    return success();
  Type elementType = element.getElementType();
  if (!element.hasRank()) {
    ctx.setOutput(0, elementType, std::nullopt);
    return success();
  }
  int64_t rank = element.getRank();
  bool newAxis = ctx.getIntAttrOrDefault("new_axis") != 0;
  int64_t outRank = newAxis ? rank + 1 : rank;
  std::optional<int64_t> axisAttr = ctx.getIntAttr("axis");
  if (!axisAttr)
    return ctx.fail() << "attribute 'axis' is required";
  std::optional<int64_t> axis = normalizeAxis(*axisAttr, outRank);
  if (!axis)
    return ctx.fail() << "attribute 'axis' " << *axisAttr
                      << " is out of range for rank " << outRank;
  Shape out = staticShape(element.getShape());
  for (Dim &d : out)
    if (!d.isStatic())
      d = Dim::unknown();
  if (newAxis)
    out.insert(out.begin() + *axis, Dim::unknown());
  else
    out[*axis] = Dim::unknown();
  ctx.setOutput(0, elementType, out);
  return success();
}

LogicalResult inferOptional(InferenceContext &ctx) {
  Type type;
  if (ctx.hasInput(0)) {
    type = ctx.getInputType(0);
  } else if (auto attr = dyn_cast_or_null<TypeAttr>(ctx.getAttr("type"))) {
    type = attr.getValue();
  } else if (!ctx.isAttrRef("type")) {
    return ctx.fail() << "attribute 'type' is required when there is no "
                         "input";
  }
  if (type && (isa<TensorType, SeqType>(type)))
    ctx.setOutputType(0, OptType::get(ctx.getContext(), type));
  return success();
}

LogicalResult inferOptionalHasElement(InferenceContext &ctx) {
  ctx.setOutput(0, nullptr, Shape{});
  return success();
}

LogicalResult inferOptionalGetElement(InferenceContext &ctx) {
  Type type = ctx.getInputType(0);
  if (auto opt = dyn_cast_or_null<OptType>(type))
    ctx.setOutputType(0, opt.getElementType());
  else if (type && isa<TensorType, SeqType>(type))
    ctx.setOutputType(0, type);
  return success();
}

LogicalResult inferSequenceMap(InferenceContext &ctx) {
  std::optional<SmallVector<Type>> yields =
      getYieldTypes(getGraphRegion(ctx.getOp(), ctx.getSchema(), "body"));
  if (!yields)
    return success();
  if (yields->size() != ctx.getNumOutputs())
    return ctx.fail() << "graph 'body' has " << yields->size()
                      << " outputs but the op has " << ctx.getNumOutputs();
  for (auto [i, type] : llvm::enumerate(*yields))
    if (isa<TensorType>(type))
      ctx.setOutputType(i, SeqType::get(ctx.getContext(), type));
  return success();
}

} // namespace

void mlir::onnx::registerSequenceInference(InferenceRegistry &r) {
  r.add<SequenceEmptyOp>(inferSequenceEmpty);
  r.add<SequenceConstructOp>(inferSequenceConstruct);
  r.add<SequenceInsertOp>(inferSequenceInsert);
  r.add<SequenceEraseOp>(inferSequenceErase);
  r.add<SequenceAtOp>(inferSequenceAt);
  r.add<SequenceLengthOp>(inferSequenceLength);
  r.add<SplitToSequenceOp>(inferSplitToSequence);
  r.add<ConcatFromSequenceOp>(inferConcatFromSequence);
  r.add<OptionalOp>(inferOptional);
  r.add<OptionalHasElementOp>(inferOptionalHasElement);
  r.add<OptionalGetElementOp>(inferOptionalGetElement);
  r.add<SequenceMapOp>(inferSequenceMap);
}
