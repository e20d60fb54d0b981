//===- Reduction.cpp - Inference of the reducing onnx operators -----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The Reduce* operators, ArgMax/ArgMin, the operators along one axis
// (CumSum, CumProd, TopK) and the loss operators SoftmaxCrossEntropyLoss and
// NegativeLogLikelihoodLoss.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "llvm/ADT/SmallBitVector.h"
#include <string>

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// Reduce*: the dims of `axes` (all when none are given, none with
/// noop_with_empty_axes) become 1, or are dropped without keepdims.
LogicalResult inferReduce(InferenceContext &ctx) {
  bool keepdims = ctx.getIntAttrOrDefault("keepdims") != 0;
  bool noop = ctx.getIntAttrOrDefault("noop_with_empty_axes") != 0;
  bool present = false;
  std::optional<SmallVector<int64_t>> axes =
      ctx.getIntsInputOrAttr("axes", &present);
  std::optional<Shape> data = ctx.getInputShape(0);

  // Axes from an input that is not constant: its static length may tell.
  std::optional<int64_t> numAxes;
  if (present && !axes) {
    int slot = ctx.getInputSlot("axes");
    if (std::optional<Shape> axesShape =
            slot >= 0 ? ctx.getInputShape(slot) : std::nullopt;
        axesShape && axesShape->size() == 1 && axesShape->front().isStatic())
      numAxes = axesShape->front().size;
    if (numAxes == 0)
      axes = SmallVector<int64_t>();
  }

  if (present && !axes) {
    // Axes that are not known: which dims are reduced is not known.
    if (!data) {
      ctx.setOutput(0, nullptr, std::nullopt);
      return success();
    }
    int64_t rank = data->size();
    if (numAxes && *numAxes > rank)
      return ctx.fail() << "input 'axes' has " << *numAxes
                        << " axes for input 'data' of rank " << rank;
    if (keepdims) {
      // All dims are reduced when there are as many axes as dims.
      Shape result = unknownShape(rank);
      for (auto [r, d] : llvm::zip(result, *data))
        if ((d.isStatic() && d.size == 1) || numAxes == rank)
          r = Dim(1);
      ctx.setOutput(0, nullptr, result);
      return success();
    }
    // Without keepdims the rank is the data's less the number of axes.
    if (numAxes)
      ctx.setOutput(0, nullptr, unknownShape(rank - *numAxes));
    else
      ctx.setOutput(0, nullptr, std::nullopt);
    return success();
  }

  if (!data) {
    ctx.setOutput(0, nullptr, std::nullopt);
    return success();
  }
  int64_t rank = data->size();
  if (!axes || axes->empty()) {
    if (noop) {
      ctx.setOutput(0, nullptr, data);
      return success();
    }
    Shape result;
    if (keepdims)
      result.assign(rank, Dim(1));
    ctx.setOutput(0, nullptr, result);
    return success();
  }
  llvm::SmallBitVector reduced(rank);
  for (int64_t axis : *axes) {
    std::optional<int64_t> a = normalizeAxis(axis, rank);
    if (!a)
      return ctx.fail() << "axis " << axis << " of 'axes' is out of range "
                        << "for input 'data' of rank " << rank;
    if (reduced.test(*a))
      return ctx.fail() << "axis " << axis << " of 'axes' is repeated";
    reduced.set(*a);
  }
  Shape result;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced.test(i))
      result.push_back((*data)[i]);
    else if (keepdims)
      result.push_back(Dim(1));
  }
  ctx.setOutput(0, nullptr, result);
  return success();
}

/// ArgMax, ArgMin: the axis becomes 1, or is dropped without keepdims.
LogicalResult inferArgReduce(InferenceContext &ctx) {
  bool keepdims = ctx.getIntAttrOrDefault("keepdims") != 0;
  std::optional<Shape> data = ctx.getInputShape(0);
  if (!data) {
    ctx.setOutput(0, nullptr, std::nullopt);
    return success();
  }
  int64_t rank = data->size();
  if (ctx.isAttrRef("axis")) {
    ctx.setOutput(0, nullptr, unknownShape(keepdims ? rank : rank - 1));
    return success();
  }
  int64_t axisAttr = ctx.getIntAttrOrDefault("axis");
  std::optional<int64_t> axis = normalizeAxis(axisAttr, rank);
  if (!axis)
    return ctx.fail() << "attribute 'axis' " << axisAttr
                      << " is out of range for input 'data' of rank " << rank;
  Shape result = *data;
  if (keepdims)
    result[*axis] = Dim(1);
  else
    result.erase(result.begin() + *axis);
  ctx.setOutput(0, nullptr, result);
  return success();
}

/// SoftmaxCrossEntropyLoss, NegativeLogLikelihoodLoss: scores [N, C, D...]
/// and labels [N, D...] give the loss of [N, D...], or a scalar when reduced;
/// SoftmaxCrossEntropyLoss's log_prob has the shape of the scores.
LogicalResult inferLoss(InferenceContext &ctx) {
  bool sce = isOperator<SoftmaxCrossEntropyLossOp>(ctx.getSchema());
  StringRef scoresName = sce ? "scores" : "input";
  StringRef labelsName = sce ? "labels" : "target";
  StringRef weightsName = sce ? "weights" : "weight";
  StringRef reduction = ctx.getStringAttrOrDefault("reduction");
  if (!ctx.isAttrRef("reduction") && reduction != "none" &&
      reduction != "sum" && reduction != "mean")
    return ctx.fail() << "attribute 'reduction' must be \"none\", \"sum\" or "
                      << "\"mean\", got \"" << reduction << "\"";
  std::optional<Shape> scores = ctx.getInputShape(0);
  std::optional<Shape> labels = ctx.getInputShape(1);
  if (scores && scores->size() < 2)
    return ctx.fail() << "input '" << scoresName
                      << "' must have rank 2 or more, got " << scores->size();
  std::optional<Shape> loss;
  if (scores) {
    loss = Shape{(*scores)[0]};
    loss->append(scores->begin() + 2, scores->end());
  }
  if (labels) {
    if (loss) {
      if (labels->size() != loss->size())
        return ctx.fail() << "input '" << labelsName << "' "
                          << formatShape(*labels) << " does not fit input '"
                          << scoresName << "' " << formatShape(*scores)
                          << ": expected rank " << loss->size();
      for (auto [l, d] : llvm::zip(*loss, *labels)) {
        FailureOr<Dim> merged = mergeDims(l, d);
        if (failed(merged))
          return ctx.fail() << "input '" << labelsName << "' "
                            << formatShape(*labels) << " does not fit input '"
                            << scoresName << "' " << formatShape(*scores);
        l = *merged;
      }
    } else {
      loss = labels;
    }
  }
  if (std::optional<Shape> weights = ctx.getInputShape(2)) {
    if (weights->size() != 1)
      return ctx.fail() << "input '" << weightsName
                        << "' must have rank 1, got " << weights->size();
    if (scores && failed(mergeDims(weights->front(), (*scores)[1])))
      return ctx.fail() << "input '" << weightsName << "' "
                        << formatShape(*weights)
                        << " must have one weight per class of input '"
                        << scoresName << "' " << formatShape(*scores);
  }
  if (ctx.isAttrRef("reduction"))
    ctx.setOutput(0, nullptr, std::nullopt);
  else if (reduction == "none")
    ctx.setOutput(0, nullptr, loss);
  else
    ctx.setOutput(0, nullptr, Shape());
  if (sce && ctx.hasOutput(1))
    ctx.setOutput(1, nullptr, scores);
  return success();
}

/// CumSum, CumProd: the shape of x; the axis is in range.
LogicalResult inferCumulative(InferenceContext &ctx) {
  std::optional<int64_t> rank = ctx.getInputRank(0);
  if (std::optional<SmallVector<int64_t>> axis = ctx.getConstantInts(1)) {
    if (axis->size() != 1)
      return ctx.fail() << "input 'axis' must hold one value, got "
                        << axis->size();
    if (rank && !normalizeAxis((*axis)[0], *rank))
      return ctx.fail() << "input 'axis' " << (*axis)[0]
                        << " is out of range for input 'x' of rank " << *rank;
  }
  ctx.setOutput(0, nullptr, ctx.getInputShape(0));
  return success();
}

/// TopK: the shape of X with k at the axis, for values and indices.
LogicalResult inferTopK(InferenceContext &ctx) {
  std::optional<int64_t> k;
  if (ctx.getVersion() < 10) {
    k = ctx.getIntAttr("k");
  } else if (std::optional<SmallVector<int64_t>> ks = ctx.getConstantInts(1)) {
    if (ks->size() != 1)
      return ctx.fail() << "input 'K' must hold one value, got " << ks->size();
    k = (*ks)[0];
  }
  if (k && *k < 0)
    return ctx.fail() << "k must not be negative, got " << *k;
  std::optional<Shape> x = ctx.getInputShape(0);
  if (!x) {
    ctx.setOutput(0, nullptr, std::nullopt);
    if (ctx.hasOutput(1))
      ctx.setOutput(1, nullptr, std::nullopt);
    return success();
  }
  int64_t rank = x->size();
  int64_t axisAttr = ctx.getIntAttrOrDefault("axis");
  std::optional<int64_t> axis = normalizeAxis(axisAttr, rank);
  if (!axis) {
    if (ctx.isAttrRef("axis")) {
      ctx.setOutput(0, nullptr, unknownShape(rank));
      if (ctx.hasOutput(1))
        ctx.setOutput(1, nullptr, unknownShape(rank));
      return success();
    }
    return ctx.fail() << "attribute 'axis' " << axisAttr
                      << " is out of range for input 'X' of rank " << rank;
  }
  Dim &d = (*x)[*axis];
  if (k && d.isStatic() && *k > d.size)
    return ctx.fail() << "k " << *k << " is greater than the size " << d.size
                      << " of axis " << *axis << " of input 'X'";
  d = k ? Dim(*k) : Dim::unknown();
  ctx.setOutput(0, nullptr, *x);
  if (ctx.hasOutput(1))
    ctx.setOutput(1, nullptr, *x);
  return success();
}

} // namespace

void mlir::onnx::registerReductionInference(InferenceRegistry &r) {
  r.add<ReduceL1Op, ReduceL2Op, ReduceLogSumOp, ReduceLogSumExpOp, ReduceMaxOp,
        ReduceMeanOp, ReduceMinOp, ReduceProdOp, ReduceSumOp,
        ReduceSumSquareOp>(inferReduce);
  r.add<ArgMaxOp, ArgMinOp>(inferArgReduce);
  r.add<SoftmaxCrossEntropyLossOp, NegativeLogLikelihoodLossOp>(inferLoss);
  r.add<CumSumOp, CumProdOp>(inferCumulative);
  r.add<TopKOp>(inferTopK);
}
