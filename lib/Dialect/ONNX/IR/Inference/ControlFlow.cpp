//===- ControlFlow.cpp - Inference of If, Loop and Scan -------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The outputs of a control flow op come from what its graphs yield: the ops
// of a body are inferred before the op that holds it, so the types of the
// body's yielded values are as precise as inference can make them.
//
//===----------------------------------------------------------------------===//

#include "JoinTypes.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// The yield types of graph `name`; fails when their number is not `count`.
FailureOr<std::optional<SmallVector<Type>>>
getGraphOutputs(InferenceContext &ctx, StringRef name, size_t count) {
  std::optional<SmallVector<Type>> types =
      getYieldTypes(getGraphRegion(ctx.getOp(), ctx.getSchema(), name));
  if (types && types->size() != count)
    return ctx.fail() << "graph '" << name << "' has " << types->size()
                      << " outputs, expected " << count;
  return types;
}

/// `type` with `dim` inserted at `axis` (a tensor); null when it is not a
/// tensor or the axis is out of range.
FailureOr<Type> insertDim(InferenceContext &ctx, Type type, int64_t axis,
                          int64_t dim, StringRef what) {
  auto tensor = dyn_cast<TensorType>(type);
  if (!tensor)
    return Type();
  if (!tensor.hasRank())
    return Type(UnrankedTensorType::get(tensor.getElementType()));
  int64_t rank = tensor.getRank() + 1;
  std::optional<int64_t> a = normalizeAxis(axis, rank);
  if (!a)
    return ctx.fail() << "'" << what << "' value " << axis
                      << " is out of range for rank " << rank;
  SmallVector<int64_t> dims(tensor.getShape());
  dims.insert(dims.begin() + *a, dim);
  return Type(RankedTensorType::get(dims, tensor.getElementType()));
}

/// Input `slot`, a condition or count, must hold one element (of any rank:
/// ONNX Runtime takes [1] and [1, 1] as well as a scalar).
LogicalResult checkOneElement(InferenceContext &ctx, unsigned slot,
                              StringRef name) {
  if (!ctx.hasInput(slot))
    return success();
  std::optional<Shape> shape = ctx.getInputShape(slot);
  if (!shape)
    return success();
  for (const Dim &d : *shape)
    if (d.isStatic() && d.size != 1)
      return ctx.fail() << "input '" << name
                        << "' must hold one element, but has a dimension of "
                        << d.size;
  return success();
}

LogicalResult inferIf(InferenceContext &ctx) {
  if (failed(checkOneElement(ctx, 0, "cond")))
    return failure();
  size_t n = ctx.getNumOutputs();
  auto thenTypes = getGraphOutputs(ctx, "then_branch", n);
  if (failed(thenTypes))
    return failure();
  auto elseTypes = getGraphOutputs(ctx, "else_branch", n);
  if (failed(elseTypes))
    return failure();
  if (!*thenTypes || !*elseTypes)
    return success();
  for (size_t i = 0; i < n; ++i) {
    Type a = (**thenTypes)[i], b = (**elseTypes)[i];
    auto ta = dyn_cast<TensorType>(a), tb = dyn_cast<TensorType>(b);
    if (ta && tb && ta.getElementType() != tb.getElementType())
      return ctx.fail() << "output " << i << " has element type "
                        << ta.getElementType() << " in 'then_branch' but "
                        << tb.getElementType() << " in 'else_branch'";
    if (Type joined = joinTypes(a, b))
      ctx.setOutputType(i, joined);
  }
  return success();
}

LogicalResult inferLoop(InferenceContext &ctx) {
  if (failed(checkOneElement(ctx, 0, "M")) ||
      failed(checkOneElement(ctx, 1, "cond")))
    return failure();
  unsigned numInputs = ctx.getNumInputs();
  unsigned numCarried = numInputs > 2 ? numInputs - 2 : 0;
  unsigned numOutputs = ctx.getNumOutputs();
  if (numOutputs < numCarried)
    return ctx.fail() << "the op has " << numCarried
                      << " loop-carried inputs but only " << numOutputs
                      << " outputs";
  auto yields = getGraphOutputs(ctx, "body", 1 + numOutputs);
  if (failed(yields))
    return failure();
  if (!*yields)
    return success();
  for (unsigned i = 0; i < numCarried; ++i)
    if (Type joined = joinLoopCarried(ctx.getInput(2 + i), (**yields)[1 + i]))
      ctx.setOutputType(i, joined);
  // The loop runs exactly M times without 'cond', or when 'cond' is a
  // constant true that the body passes on unchanged.
  int64_t trips = ShapedType::kDynamic;
  bool condStaysTrue = !ctx.hasInput(1);
  if (!condStaysTrue) {
    auto cond = ctx.getConstantInts(1);
    Region &body = ctx.getOp()->getRegion(0);
    if (cond && cond->size() == 1 && (*cond)[0] != 0 && !body.empty() &&
        body.front().getNumArguments() >= 2) {
      Operation *yield = body.front().getTerminator();
      condStaysTrue = yield && yield->getNumOperands() >= 1 &&
                      yield->getOperand(0) == body.front().getArgument(1);
    }
  }
  if (condStaysTrue)
    if (auto m = ctx.getConstantInts(0); m && m->size() == 1 && (*m)[0] >= 0)
      trips = (*m)[0];
  for (unsigned i = numCarried; i < numOutputs; ++i) {
    FailureOr<Type> type =
        insertDim(ctx, (**yields)[1 + i], 0, trips, "scan output");
    if (failed(type))
      return failure();
    if (*type)
      ctx.setOutputType(i, *type);
  }
  return success();
}

LogicalResult inferScan(InferenceContext &ctx) {
  bool v8 = ctx.getVersion() < 9;
  unsigned first = v8 ? 1 : 0;
  unsigned numInputs = ctx.getNumInputs();
  std::optional<int64_t> numScan = ctx.getIntAttr("num_scan_inputs");
  if (!numScan)
    return ctx.fail() << "attribute 'num_scan_inputs' is required";
  if (*numScan < 1 || first + *numScan > numInputs)
    return ctx.fail() << "attribute 'num_scan_inputs' is " << *numScan
                      << " but the op has " << numInputs - first
                      << " state and scan inputs";
  unsigned numStates = numInputs - first - *numScan;
  unsigned numOutputs = ctx.getNumOutputs();
  if (numOutputs < numStates)
    return ctx.fail() << "the op has " << numStates << " state inputs but only "
                      << numOutputs << " outputs";
  unsigned numScanOutputs = numOutputs - numStates;

  std::optional<SmallVector<int64_t>> inAxes =
      ctx.getIntsAttr("scan_input_axes");
  std::optional<SmallVector<int64_t>> outAxes =
      ctx.getIntsAttr("scan_output_axes");
  if (inAxes && static_cast<int64_t>(inAxes->size()) != *numScan)
    return ctx.fail() << "attribute 'scan_input_axes' must have " << *numScan
                      << " values, got " << inAxes->size();
  if (outAxes && outAxes->size() != numScanOutputs)
    return ctx.fail() << "attribute 'scan_output_axes' must have "
                      << numScanOutputs << " values, got " << outAxes->size();

  // The number of iterations (and in version 8 the batch size): the same
  // for every scan input.
  Dim length = Dim::unknown(), batch = Dim::unknown();
  for (int64_t j = 0; j < *numScan; ++j) {
    std::optional<Shape> shape = ctx.getInputShape(first + numStates + j);
    if (!shape)
      continue;
    int64_t rank = shape->size();
    int64_t axisAttr = v8 ? 1 : (inAxes ? (*inAxes)[j] : 0);
    std::optional<int64_t> axis = normalizeAxis(axisAttr, rank);
    if (!axis)
      return ctx.fail() << "scan input " << j << " of rank " << rank
                        << " has no scan axis " << axisAttr;
    FailureOr<Dim> merged = mergeDims(length, (*shape)[*axis]);
    if (failed(merged))
      return ctx.fail() << "the scan inputs differ in their scan length";
    length = *merged;
    if (v8) {
      FailureOr<Dim> b = mergeDims(batch, (*shape)[0]);
      if (failed(b))
        return ctx.fail() << "the scan inputs differ in their batch size";
      batch = *b;
    }
  }

  auto yields = getGraphOutputs(ctx, "body", numOutputs);
  if (failed(yields))
    return failure();
  if (!*yields)
    return success();
  for (unsigned i = 0; i < numStates; ++i) {
    Type yielded = (**yields)[i];
    if (v8) {
      FailureOr<Type> withBatch = insertDim(ctx, yielded, 0, batch.size, "");
      if (failed(withBatch))
        return failure();
      yielded = *withBatch;
    }
    if (Type joined = joinLoopCarried(ctx.getInput(first + i), yielded))
      ctx.setOutputType(i, joined);
  }
  for (unsigned j = 0; j < numScanOutputs; ++j) {
    Type yielded = (**yields)[numStates + j];
    FailureOr<Type> type = insertDim(ctx, yielded, outAxes ? (*outAxes)[j] : 0,
                                     length.size, "scan_output_axes");
    if (failed(type))
      return failure();
    if (v8 && *type) {
      type = insertDim(ctx, *type, 0, batch.size, "");
      if (failed(type))
        return failure();
    }
    if (*type)
      ctx.setOutputType(numStates + j, *type);
  }
  return success();
}

} // namespace

void mlir::onnx::registerControlFlowInference(InferenceRegistry &r) {
  r.add<IfOp>(inferIf);
  r.add<LoopOp>(inferLoop);
  r.add<ScanOp>(inferScan);
}
