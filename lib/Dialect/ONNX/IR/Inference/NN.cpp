//===- NN.cpp - Inference of the neural network operators -----------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Convolutions, pooling, normalizations, recurrent networks, resampling,
// signal processing (DFT, STFT, windows), attention and the other operators
// of ONNX's neural network sections.
//
//===----------------------------------------------------------------------===//

#include "Helpers.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXWindow.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include <cmath>

using namespace mlir;
using namespace mlir::onnx;
using namespace mlir::onnx::inference;

namespace {

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

/// The output size of one spatial axis of a convolution or pooling window.
FailureOr<Dim> windowOutput(const InferenceContext &ctx, const Window &w,
                            int64_t i, const Dim &in) {
  int64_t n = w.strides.size();
  int64_t stride = w.strides[i];
  if (window::isSame(w.autoPad))
    return mapStatic({in}, [&] { return ceilDiv(in.size, stride); });
  if (!in.isStatic() || !w.kernel[i].isStatic())
    return Dim::unknown();
  // Attribute values are below 2^31: only the input dim can overflow.
  int64_t effective = window::effectiveKernel(w.kernel[i].size, w.dilations[i]);
  std::optional<int64_t> paddedOr =
      llvm::checkedAdd(in.size, w.pads[i] + w.pads[i + n]);
  if (!paddedOr)
    return ctx.fail() << "the padded input overflows along spatial axis " << i;
  int64_t padded = *paddedOr;
  if (padded < effective)
    return ctx.fail() << "the window (" << effective
                      << ") is larger than the padded input (" << padded
                      << ") along spatial axis " << i;
  return Dim(window::outputSize(window::StaticWindowMath(), w.autoPad, in.size,
                                w.pads[i], w.pads[i + n], w.kernel[i].size,
                                stride, w.dilations[i], w.ceilMode));
}

/// The spatial output dims of a window over the spatial dims of `x` (from
/// axis 2 on).
FailureOr<Shape> windowOutputs(const InferenceContext &ctx, const Window &w,
                               const Shape &x) {
  Shape out;
  for (int64_t i = 0, n = w.strides.size(); i < n; ++i) {
    FailureOr<Dim> d = windowOutput(ctx, w, i, x[i + 2]);
    if (failed(d))
      return failure();
    out.push_back(*d);
  }
  return out;
}

/// The kernel of a convolution: attribute kernel_shape, or the spatial dims
/// of the weight.
LogicalResult readConvKernel(const InferenceContext &ctx, int64_t n,
                             unsigned wSlot, Window &w) {
  std::optional<Shape> wShape = ctx.getInputShape(wSlot);
  if (wShape && static_cast<int64_t>(wShape->size()) != n + 2)
    return ctx.fail() << "input '" << schemaInputName(ctx, wSlot)
                      << "' must have rank " << n + 2 << ", got "
                      << wShape->size();
  if (std::optional<SmallVector<int64_t>> k = ctx.getIntsAttr("kernel_shape")) {
    if (static_cast<int64_t>(k->size()) != n)
      return ctx.fail() << "attribute 'kernel_shape' must have " << n
                        << " values, got " << k->size();
    if (failed(checkSizeList(ctx, "kernel_shape", *k, 1)))
      return failure();
    for (int64_t i = 0; i < n; ++i) {
      Dim fromW = wShape ? (*wShape)[i + 2] : Dim::unknown();
      if (fromW.isStatic() && fromW.size != (*k)[i])
        return ctx.fail() << "attribute 'kernel_shape' (" << (*k)[i]
                          << ") differs from the kernel of input '"
                          << schemaInputName(ctx, wSlot) << "' (" << fromW.size
                          << ") along spatial axis " << i;
      w.kernel.push_back(Dim((*k)[i]));
    }
    return success();
  }
  for (int64_t i = 0; i < n; ++i)
    w.kernel.push_back(wShape ? (*wShape)[i + 2] : Dim::unknown());
  return success();
}

/// Conv, ConvInteger, QLinearConv, DeformConv: Y is (N, M, out spatial...).
LogicalResult inferConvLike(InferenceContext &ctx, unsigned xSlot,
                            unsigned wSlot, int bSlot, bool hasAutoPad) {
  std::optional<Shape> x = ctx.getInputShape(xSlot);
  std::optional<Shape> wShape = ctx.getInputShape(wSlot);
  int64_t rank;
  if (x)
    rank = x->size();
  else if (wShape)
    rank = wShape->size();
  else {
    ctx.setOutput(0, {}, std::nullopt);
    return success();
  }
  if (rank < 3)
    return ctx.fail() << "input '" << schemaInputName(ctx, xSlot)
                      << "' must have rank >= 3, got " << rank;
  int64_t n = rank - 2;
  Window w;
  if (failed(readConvKernel(ctx, n, wSlot, w)) ||
      failed(readWindow(ctx, n, w, hasAutoPad)))
    return failure();
  int64_t group = ctx.getIntAttrOrDefault("group");
  if (group < 1)
    return ctx.fail() << "attribute 'group' must be >= 1, got " << group;
  Dim c = x ? (*x)[1] : Dim::unknown();
  Dim cPerGroup = wShape ? (*wShape)[1] : Dim::unknown();
  if (c.isStatic() && cPerGroup.isStatic() &&
      llvm::checkedMul(cPerGroup.size, group) != std::optional<int64_t>(c.size))
    return ctx.fail() << "input '" << schemaInputName(ctx, xSlot) << "' has "
                      << c.size << " channels, but input '"
                      << schemaInputName(ctx, wSlot) << "' expects "
                      << cPerGroup.size << " x " << group << " (group)";
  Dim m = wShape ? (*wShape)[0] : Dim::unknown();
  if (m.isStatic() && m.size % group != 0)
    return ctx.fail() << "the number of feature maps of input '"
                      << schemaInputName(ctx, wSlot) << "' (" << m.size
                      << ") must be a multiple of 'group' (" << group << ")";
  if (bSlot >= 0 && ctx.hasInput(bSlot)) {
    if (failed(expectRank(ctx, bSlot, 1)))
      return failure();
    m = pick(m, inputDim(ctx, bSlot, 0));
  }
  Shape out{x ? (*x)[0] : Dim::unknown(), m};
  Shape xs = x ? *x : unknownShape(rank);
  FailureOr<Shape> spatial = windowOutputs(ctx, w, xs);
  if (failed(spatial))
    return failure();
  out.append(spatial->begin(), spatial->end());
  ctx.setOutput(0, {}, out);
  return success();
}

LogicalResult inferConv(InferenceContext &ctx) {
  return inferConvLike(ctx, 0, 1, 2, /*hasAutoPad=*/true);
}

LogicalResult inferConvInteger(InferenceContext &ctx) {
  return inferConvLike(ctx, 0, 1, -1, /*hasAutoPad=*/true);
}

LogicalResult inferQLinearConv(InferenceContext &ctx) {
  return inferConvLike(ctx, 0, 3, 8, /*hasAutoPad=*/true);
}

LogicalResult inferDeformConv(InferenceContext &ctx) {
  return inferConvLike(ctx, 0, 1, 3, /*hasAutoPad=*/false);
}

LogicalResult inferConvTranspose(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  std::optional<Shape> wShape = ctx.getInputShape(1);
  int64_t rank;
  if (x)
    rank = x->size();
  else if (wShape)
    rank = wShape->size();
  else {
    ctx.setOutput(0, {}, std::nullopt);
    return success();
  }
  if (rank < 3)
    return ctx.fail() << "input 'X' must have rank >= 3, got " << rank;
  int64_t n = rank - 2;
  Window w;
  if (failed(readConvKernel(ctx, n, 1, w)) || failed(readWindow(ctx, n, w)))
    return failure();
  int64_t group = ctx.getIntAttrOrDefault("group");
  if (group < 1)
    return ctx.fail() << "attribute 'group' must be >= 1, got " << group;
  Dim c = x ? (*x)[1] : Dim::unknown();
  Dim wc = wShape ? (*wShape)[0] : Dim::unknown();
  if (c.isStatic() && wc.isStatic() && c.size != wc.size)
    return ctx.fail() << "input 'X' has " << c.size
                      << " channels, but input 'W' expects " << wc.size;
  Dim mPerGroup = wShape ? (*wShape)[1] : Dim::unknown();
  Dim m = mapStatic({mPerGroup},
                    [&] { return llvm::checkedMul(mPerGroup.size, group); });
  if (ctx.hasInput(2)) {
    if (failed(expectRank(ctx, 2, 1)))
      return failure();
    m = pick(m, inputDim(ctx, 2, 0));
  }
  SmallVector<int64_t> outputPadding(n, 0);
  if (auto op = ctx.getIntsAttr("output_padding")) {
    if (static_cast<int64_t>(op->size()) != n)
      return ctx.fail() << "attribute 'output_padding' must have " << n
                        << " values, got " << op->size();
    if (failed(checkSizeList(ctx, "output_padding", *op, 0)))
      return failure();
    outputPadding = *op;
  }
  Shape out{x ? (*x)[0] : Dim::unknown(), m};
  if (auto outputShape = ctx.getIntsAttr("output_shape")) {
    // The spatial dims; a full shape (with N and C) is also accepted.
    int64_t size = outputShape->size();
    if (size != n && size != n + 2)
      return ctx.fail() << "attribute 'output_shape' must have " << n
                        << " values, got " << size;
    if (failed(checkSizes(ctx, *outputShape, "attribute 'output_shape'")))
      return failure();
    for (int64_t i = size - n; i < size; ++i)
      out.push_back(Dim((*outputShape)[i]));
    ctx.setOutput(0, {}, out);
    return success();
  }
  for (int64_t i = 0; i < n; ++i) {
    Dim in = x ? (*x)[i + 2] : Dim::unknown();
    auto overflows = [&] {
      return ctx.fail() << "the output size along spatial axis " << i
                        << " overflows";
    };
    if (window::isSame(w.autoPad)) {
      if (!in.isStatic()) {
        out.push_back(Dim::unknown());
        continue;
      }
      std::optional<int64_t> size = llvm::checkedMul(in.size, w.strides[i]);
      if (!size)
        return overflows();
      out.push_back(Dim(*size));
      continue;
    }
    Dim k = w.kernel[i];
    if (!in.isStatic() || !k.isStatic()) {
      out.push_back(Dim::unknown());
      continue;
    }
    // Each attribute term is below 2^62: only the products with the input
    // and kernel dims can overflow.
    std::optional<int64_t> window =
        checkedMulAdd(k.size - 1, w.dilations[i],
                      outputPadding[i] + 1 - w.pads[i] - w.pads[i + n]);
    std::optional<int64_t> size =
        window ? checkedMulAdd(w.strides[i], in.size - 1, *window)
               : std::nullopt;
    if (!size)
      return overflows();
    out.push_back(Dim(*size));
    if (out.back().size < 0)
      return ctx.fail() << "the output size along spatial axis " << i
                        << " is negative (" << out.back().size << ")";
  }
  ctx.setOutput(0, {}, out);
  return success();
}

LogicalResult inferPool(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  std::optional<SmallVector<int64_t>> kernel = ctx.getIntsAttr("kernel_shape");
  if (!kernel) {
    // LpPool-1 has an optional kernel_shape; the others require it.
    if (!isOperator<LpPoolOp>(ctx.getSchema()) || ctx.getVersion() != 1)
      return ctx.fail() << "attribute 'kernel_shape' is required";
    ctx.setOutput(0, {},
                  x ? std::optional<Shape>(unknownShape(x->size()))
                    : std::nullopt);
    ctx.setOutput(1, {}, std::nullopt);
    return success();
  }
  int64_t n = kernel->size();
  if (n < 1)
    return ctx.fail() << "attribute 'kernel_shape' must not be empty";
  if (x && static_cast<int64_t>(x->size()) != n + 2)
    return ctx.fail() << "input 'X' must have rank " << n + 2
                      << " (2 + the length of 'kernel_shape'), got "
                      << x->size();
  if (failed(checkSizeList(ctx, "kernel_shape", *kernel, 1)))
    return failure();
  Window w;
  for (int64_t k : *kernel)
    w.kernel.push_back(Dim(k));
  if (failed(readWindow(ctx, n, w)))
    return failure();
  w.ceilMode = ctx.getIntAttrOrDefault("ceil_mode") != 0;
  Shape xs = x ? *x : unknownShape(n + 2);
  Shape out{xs[0], xs[1]};
  FailureOr<Shape> spatial = windowOutputs(ctx, w, xs);
  if (failed(spatial))
    return failure();
  out.append(spatial->begin(), spatial->end());
  ctx.setOutput(0, {}, out);
  // MaxPool's Indices.
  ctx.setOutput(1, {}, out);
  return success();
}

LogicalResult inferGlobalPool(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  if (!x) {
    ctx.setOutput(0, {}, std::nullopt);
    return success();
  }
  if (x->size() < 2)
    return ctx.fail() << "input 'X' must have rank >= 2, got " << x->size();
  Shape out{(*x)[0], (*x)[1]};
  out.append(x->size() - 2, Dim(1));
  ctx.setOutput(0, {}, out);
  return success();
}

LogicalResult inferRoiPool(InferenceContext &ctx, int64_t height,
                           int64_t width) {
  if (height < 1 || width < 1)
    return ctx.fail() << "the pooled output size must be >= 1, got " << height
                      << " x " << width;
  if (failed(expectRank(ctx, 0, 4)) || failed(expectRank(ctx, 1, 2)))
    return failure();
  Dim rois = inputDim(ctx, 1, 0);
  if (ctx.getNumInputs() > 2 && ctx.hasInput(2)) {
    if (failed(expectRank(ctx, 2, 1)))
      return failure();
    rois = pick(rois, inputDim(ctx, 2, 0));
  }
  ctx.setOutput(0, {}, Shape{rois, inputDim(ctx, 0, 1), height, width});
  return success();
}

LogicalResult inferMaxRoiPool(InferenceContext &ctx) {
  std::optional<SmallVector<int64_t>> pooled = ctx.getIntsAttr("pooled_shape");
  if (!pooled || pooled->size() != 2)
    return ctx.fail() << "attribute 'pooled_shape' must have 2 values";
  return inferRoiPool(ctx, (*pooled)[0], (*pooled)[1]);
}

LogicalResult inferRoiAlign(InferenceContext &ctx) {
  // sampling_ratio 0: adaptive (ceil(roi size / output size) points).
  FailureOr<int64_t> height = readSizeAttr(ctx, "output_height", 1);
  FailureOr<int64_t> width = readSizeAttr(ctx, "output_width", 1);
  if (failed(height) || failed(width) ||
      failed(readSizeAttr(ctx, "sampling_ratio", 0)))
    return failure();
  return inferRoiPool(ctx, *height, *width);
}

//===----------------------------------------------------------------------===//
// Normalization
//===----------------------------------------------------------------------===//

LogicalResult inferBatchNormalization(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  Dim c = x && x->size() >= 2 ? (*x)[1] : Dim::unknown();
  // From version 9 on, the statistics and parameters are per channel.
  if (ctx.getVersion() >= 9) {
    for (unsigned slot = 1; slot < 5; ++slot) {
      if (failed(expectRank(ctx, slot, 1)))
        return failure();
      Dim d = inputDim(ctx, slot, 0);
      if (c.isStatic() && d.isStatic() && c.size != d.size)
        return ctx.fail() << "input '" << schemaInputName(ctx, slot)
                          << "' must have " << c.size
                          << " elements (the channels of 'X'), got " << d.size;
      c = pick(c, d);
    }
  }
  copyShape(ctx, 0, 0);
  if (ctx.getVersion() >= 14) {
    ctx.setOutput(1, {}, Shape{c});
    ctx.setOutput(2, {}, Shape{c});
    return success();
  }
  // mean, var, saved_mean, saved_var: the shape of the input statistics.
  for (unsigned out = 1; out < 5; ++out) {
    std::optional<Shape> stat = ctx.getInputShape(out == 2 || out == 4 ? 4 : 3);
    if (!stat && ctx.getVersion() >= 9)
      stat = Shape{c};
    ctx.setOutput(out, {}, stat);
  }
  return success();
}

LogicalResult inferInstanceNormalization(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  if (x && x->size() < 2)
    return ctx.fail() << "input 'input' must have rank >= 2, got " << x->size();
  Dim c = x ? (*x)[1] : Dim::unknown();
  for (unsigned slot = 1; slot < 3; ++slot) {
    if (failed(expectRank(ctx, slot, 1)))
      return failure();
    Dim d = inputDim(ctx, slot, 0);
    if (c.isStatic() && d.isStatic() && c.size != d.size)
      return ctx.fail() << "input '" << schemaInputName(ctx, slot)
                        << "' must have " << c.size
                        << " elements (the channels of 'input'), got "
                        << d.size;
  }
  copyShape(ctx, 0, 0);
  return success();
}

/// LayerNormalization: Y like X; Mean and InvStdDev keep
/// the dims before `axis` and are 1 from it on.
LogicalResult inferLayerNormalization(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  copyShape(ctx, 0, 0);
  Type stash = ctx.getDataTypeAttr("stash_type");
  if (!stash && !ctx.hasAttr("stash_type"))
    stash = Float32Type::get(ctx.getContext());
  if (!x) {
    ctx.setOutput(1, stash, std::nullopt);
    ctx.setOutput(2, stash, std::nullopt);
    return success();
  }
  int64_t rank = x->size();
  std::optional<int64_t> axis =
      normalizeAxis(ctx.getIntAttrOrDefault("axis"), rank);
  if (!axis)
    return ctx.fail() << "attribute 'axis' (" << ctx.getIntAttrOrDefault("axis")
                      << ") is out of range for input 'X' of rank " << rank;
  Shape stats(x->begin(), x->begin() + *axis);
  stats.append(rank - *axis, Dim(1));
  ctx.setOutput(1, stash, stats);
  ctx.setOutput(2, stash, stats);
  return success();
}

LogicalResult inferGroupNormalization(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  if (x && x->size() < 2)
    return ctx.fail() << "input 'X' must have rank >= 2, got " << x->size();
  std::optional<int64_t> groups = ctx.getIntAttr("num_groups");
  if (groups && *groups < 1)
    return ctx.fail() << "attribute 'num_groups' must be >= 1, got " << *groups;
  Dim c = x ? (*x)[1] : Dim::unknown();
  if (groups && c.isStatic() && c.size % *groups != 0)
    return ctx.fail() << "attribute 'num_groups' (" << *groups
                      << ") must divide the channels of input 'X' (" << c.size
                      << ")";
  copyShape(ctx, 0, 0);
  return success();
}

/// LpNormalization and RMSNormalization: the output has the shape of the
/// input; `axis` must be one of its axes.
LogicalResult inferNormalizationAlongAxis(InferenceContext &ctx) {
  if (std::optional<int64_t> rank = ctx.getInputRank(0)) {
    int64_t axis = ctx.getIntAttrOrDefault("axis");
    if (!normalizeAxis(axis, *rank))
      return ctx.fail() << "attribute 'axis' (" << axis
                        << ") is out of range for input '"
                        << schemaInputName(ctx, 0) << "' of rank " << *rank;
  }
  copyShape(ctx, 0, 0);
  return success();
}

LogicalResult inferMeanVarianceNormalization(InferenceContext &ctx) {
  if (std::optional<int64_t> rank = ctx.getInputRank(0)) {
    if (auto axes = ctx.getIntsAttr("axes"))
      for (int64_t axis : *axes)
        if (!normalizeAxis(axis, *rank))
          return ctx.fail() << "attribute 'axes' has " << axis
                            << ", out of range for input 'X' of rank " << *rank;
  }
  copyShape(ctx, 0, 0);
  return success();
}

//===----------------------------------------------------------------------===//
// Recurrent networks
//===----------------------------------------------------------------------===//

/// RNN, GRU, LSTM with `gates` gates.
LogicalResult inferRecurrent(InferenceContext &ctx, int64_t gates) {
  StringRef direction = ctx.getStringAttrOrDefault("direction");
  if (direction != "forward" && direction != "reverse" &&
      direction != "bidirectional")
    return ctx.fail() << "attribute 'direction' must be forward, reverse or "
                         "bidirectional, got '"
                      << direction << "'";
  int64_t layout = ctx.getIntAttrOrDefault("layout");
  if (layout != 0 && layout != 1)
    return ctx.fail() << "attribute 'layout' must be 0 or 1, got " << layout;
  if (failed(expectRank(ctx, 0, 3)) || failed(expectRank(ctx, 1, 3)) ||
      failed(expectRank(ctx, 2, 3)))
    return failure();
  Dim numDirections(direction == "bidirectional" ? 2 : 1);
  for (unsigned slot = 1; slot < 3; ++slot) {
    Dim d = inputDim(ctx, slot, 0);
    if (d.isStatic() && d.size != numDirections.size)
      return ctx.fail() << "input '" << schemaInputName(ctx, slot)
                        << "' must have " << numDirections.size
                        << " directions (attribute 'direction'), got "
                        << d.size;
  }
  Dim hidden = Dim::unknown();
  if (std::optional<int64_t> h = ctx.getIntAttr("hidden_size")) {
    if (*h < 1)
      return ctx.fail() << "attribute 'hidden_size' must be >= 1, got " << *h;
    hidden = Dim(*h);
  }
  hidden = pick(hidden, inputDim(ctx, 2, 2));
  Dim rows = pick(inputDim(ctx, 1, 1), inputDim(ctx, 2, 1));
  if (!hidden.isStatic() && rows.isStatic() && rows.size % gates == 0)
    hidden = Dim(rows.size / gates);
  Dim seq = inputDim(ctx, 0, layout == 0 ? 0 : 1);
  Dim batch = inputDim(ctx, 0, layout == 0 ? 1 : 0);
  // initial_h (and initial_c) tell the batch and the hidden size too.
  for (int slot :
       {ctx.getInputSlot("initial_h"), ctx.getInputSlot("initial_c")}) {
    if (slot < 0 || !ctx.hasInput(slot))
      continue;
    if (failed(expectRank(ctx, slot, 3)))
      return failure();
    batch = pick(batch, inputDim(ctx, slot, layout == 0 ? 1 : 0));
    hidden = pick(hidden, inputDim(ctx, slot, 2));
  }
  if (layout == 0) {
    ctx.setOutput(0, {}, Shape{seq, numDirections, batch, hidden});
    for (unsigned i = 1; i < ctx.getNumOutputs(); ++i)
      ctx.setOutput(i, {}, Shape{numDirections, batch, hidden});
  } else {
    ctx.setOutput(0, {}, Shape{batch, seq, numDirections, hidden});
    for (unsigned i = 1; i < ctx.getNumOutputs(); ++i)
      ctx.setOutput(i, {}, Shape{batch, numDirections, hidden});
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Resampling
//===----------------------------------------------------------------------===//

/// The output of a resize by `scales` along the dims of `x`.
FailureOr<Shape> scaleShape(const InferenceContext &ctx, const Shape &x,
                            ArrayRef<int64_t> axes, ArrayRef<double> scales,
                            StringRef what) {
  if (scales.size() != axes.size())
    return ctx.fail() << what << " must have " << axes.size() << " values, got "
                      << scales.size();
  Shape out = x;
  for (auto [axis, scale] : llvm::zip(axes, scales)) {
    if (!(scale > 0))
      return ctx.fail() << what << " must be > 0, got " << scale;
    Dim in = x[axis];
    out[axis] = mapStatic({in}, [&] { return floorToDim(in.size * scale); });
  }
  return out;
}

LogicalResult inferResize(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  int scalesSlot = ctx.getInputSlot("scales");
  int sizesSlot = ctx.getInputSlot("sizes");
  if (!x) {
    ctx.setOutput(0, {}, std::nullopt);
    return success();
  }
  int64_t rank = x->size();
  SmallVector<int64_t> axes;
  if (auto attr = ctx.getIntsAttr("axes")) {
    for (int64_t axis : *attr) {
      std::optional<int64_t> a = normalizeAxis(axis, rank);
      if (!a)
        return ctx.fail() << "attribute 'axes' has " << axis
                          << ", out of range for input 'X' of rank " << rank;
      if (llvm::is_contained(axes, *a))
        return ctx.fail() << "attribute 'axes' repeats axis " << axis;
      axes.push_back(*a);
    }
  } else {
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  }
  // Where the new sizes are not known, the resized axes are unknown.
  Shape unknownAxes = *x;
  for (int64_t axis : axes)
    unknownAxes[axis] = Dim::unknown();

  std::optional<SmallVector<double>> scales;
  bool hasScales = scalesSlot >= 0 && ctx.hasInput(scalesSlot);
  if (hasScales) {
    scales = ctx.getConstantFloats(scalesSlot);
    if (scales && !scales->empty()) {
      FailureOr<Shape> out =
          scaleShape(ctx, *x, axes, *scales, "input 'scales'");
      if (failed(out))
        return failure();
      ctx.setOutput(0, {}, *out);
      return success();
    }
  }
  bool hasSizes = sizesSlot >= 0 && ctx.hasInput(sizesSlot);
  if (!hasSizes) {
    // Non-constant scales (or an empty constant without sizes).
    ctx.setOutput(0, {}, unknownAxes);
    return success();
  }
  std::optional<SmallVector<int64_t>> sizes = ctx.getConstantInts(sizesSlot);
  if (!sizes) {
    ctx.setOutput(0, {}, unknownAxes);
    return success();
  }
  if (sizes->size() != axes.size())
    return ctx.fail() << "input 'sizes' must have " << axes.size()
                      << " values, got " << sizes->size();
  for (int64_t s : *sizes)
    if (s < 0)
      return ctx.fail() << "input 'sizes' must be >= 0, got " << s;
  StringRef policy = ctx.getStringAttrOrDefault("keep_aspect_ratio_policy");
  Shape out = *x;
  if (policy == "stretch") {
    for (auto [axis, size] : llvm::zip(axes, *sizes))
      out[axis] = Dim(size);
    ctx.setOutput(0, {}, out);
    return success();
  }
  if (policy != "not_larger" && policy != "not_smaller")
    return ctx.fail() << "attribute 'keep_aspect_ratio_policy' must be "
                         "stretch, not_larger or not_smaller, got '"
                      << policy << "'";
  std::optional<double> scale;
  for (auto [axis, size] : llvm::zip(axes, *sizes)) {
    Dim in = (*x)[axis];
    if (!in.isStatic() || in.size == 0) {
      ctx.setOutput(0, {}, unknownAxes);
      return success();
    }
    double s = static_cast<double>(size) / static_cast<double>(in.size);
    if (!scale)
      scale = s;
    else
      scale =
          policy == "not_larger" ? std::min(*scale, s) : std::max(*scale, s);
  }
  for (int64_t axis : axes) {
    Dim in = (*x)[axis];
    out[axis] = mapStatic({in}, [&] {
      return floorToDim(*scale * static_cast<double>(in.size) + 0.5);
    });
  }
  ctx.setOutput(0, {}, out);
  return success();
}

LogicalResult inferUpsample(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  if (!x) {
    ctx.setOutput(0, {}, std::nullopt);
    return success();
  }
  int64_t rank = x->size();
  SmallVector<int64_t> axes;
  for (int64_t i = 0; i < rank; ++i)
    axes.push_back(i);
  std::optional<SmallVector<double>> scales;
  StringRef what = "attribute 'scales'";
  if (ctx.getVersion() == 1) {
    if (rank != 4)
      return ctx.fail() << "input 'X' must have rank 4, got " << rank;
    std::optional<double> h = ctx.getFloatAttr("height_scale");
    std::optional<double> w = ctx.getFloatAttr("width_scale");
    if (h && w)
      scales = SmallVector<double>{1.0, 1.0, *h, *w};
    what = "attributes 'height_scale' and 'width_scale'";
  } else if (ctx.getVersion() == 7) {
    scales = ctx.getFloatsAttr("scales");
  } else {
    scales = ctx.getConstantFloats(1);
    what = "input 'scales'";
  }
  if (!scales) {
    ctx.setOutput(0, {}, unknownShape(rank));
    return success();
  }
  FailureOr<Shape> out = scaleShape(ctx, *x, axes, *scales, what);
  if (failed(out))
    return failure();
  ctx.setOutput(0, {}, *out);
  return success();
}

LogicalResult inferGridSample(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  std::optional<Shape> grid = ctx.getInputShape(1);
  std::optional<int64_t> rank;
  if (x)
    rank = x->size();
  else if (grid)
    rank = grid->size();
  if (!rank) {
    ctx.setOutput(0, {}, std::nullopt);
    return success();
  }
  if (*rank < 3)
    return ctx.fail() << "input 'X' must have rank >= 3, got " << *rank;
  if (ctx.getVersion() < 20 && *rank != 4)
    return ctx.fail() << "input 'X' must have rank 4, got " << *rank;
  if (x && grid && grid->size() != x->size())
    return ctx.fail() << "input 'grid' must have the rank of input 'X' ("
                      << x->size() << "), got " << grid->size();
  Dim last = grid ? grid->back() : Dim::unknown();
  if (last.isStatic() && last.size != *rank - 2)
    return ctx.fail() << "the last dim of input 'grid' must be " << *rank - 2
                      << " (the number of spatial dims), got " << last.size;
  Dim n =
      pick(x ? (*x)[0] : Dim::unknown(), grid ? (*grid)[0] : Dim::unknown());
  Shape out{n, x ? (*x)[1] : Dim::unknown()};
  for (int64_t i = 1; i < *rank - 1; ++i)
    out.push_back(grid ? (*grid)[i] : Dim::unknown());
  ctx.setOutput(0, {}, out);
  return success();
}

LogicalResult inferAffineGrid(InferenceContext &ctx) {
  std::optional<Shape> theta = ctx.getInputShape(0);
  if (theta && theta->size() != 3)
    return ctx.fail() << "input 'theta' must have rank 3, got "
                      << theta->size();
  if (failed(expectRank(ctx, 1, 1)))
    return failure();
  std::optional<int64_t> spatial;
  Dim thetaRows = theta ? (*theta)[1] : Dim::unknown();
  if (thetaRows.isStatic()) {
    if (thetaRows.size != 2 && thetaRows.size != 3)
      return ctx.fail() << "input 'theta' must have shape (N, 2, 3) or "
                           "(N, 3, 4), got "
                        << thetaRows.size << " rows";
    spatial = thetaRows.size;
  }
  Dim sizeLen = inputDim(ctx, 1, 0);
  if (sizeLen.isStatic()) {
    if (sizeLen.size != 4 && sizeLen.size != 5)
      return ctx.fail() << "input 'size' must have 4 or 5 values, got "
                        << sizeLen.size;
    if (spatial && *spatial != sizeLen.size - 2)
      return ctx.fail() << "input 'size' (" << sizeLen.size
                        << " values) does not fit input 'theta'";
    spatial = sizeLen.size - 2;
  }
  if (!spatial) {
    ctx.setOutput(0, {}, std::nullopt);
    return success();
  }
  Shape out = unknownShape(*spatial + 2);
  out[0] = theta ? (*theta)[0] : Dim::unknown();
  out.back() = Dim(*spatial);
  if (auto size = ctx.getConstantInts(1)) {
    if (static_cast<int64_t>(size->size()) == *spatial + 2) {
      if (failed(checkSizes(ctx, *size, "input 'size'")))
        return failure();
      out[0] = pick(out[0], Dim((*size)[0]));
      for (int64_t i = 0; i < *spatial; ++i)
        out[i + 1] = Dim((*size)[i + 2]);
    }
  }
  ctx.setOutput(0, {}, out);
  return success();
}

//===----------------------------------------------------------------------===//
// Signal processing
//===----------------------------------------------------------------------===//

LogicalResult inferDFT(InferenceContext &ctx) {
  std::optional<Shape> x = ctx.getInputShape(0);
  if (!x) {
    ctx.setOutput(0, {}, std::nullopt);
    return success();
  }
  int64_t rank = x->size();
  if (rank < 2)
    return ctx.fail() << "input 'input' must have rank >= 2, got " << rank;
  Dim complex = x->back();
  if (complex.isStatic() && complex.size != 1 && complex.size != 2)
    return ctx.fail() << "the last dim of input 'input' must be 1 (real) or "
                         "2 (complex), got "
                      << complex.size;
  bool inverse = ctx.getIntAttrOrDefault("inverse") != 0;
  bool onesided = ctx.getIntAttrOrDefault("onesided") != 0;
  std::optional<int64_t> axis;
  if (ctx.getVersion() >= 20) {
    int slot = ctx.getInputSlot("axis");
    if (slot >= 0 && ctx.hasInput(slot)) {
      axis = getConstantScalar(ctx, slot);
      if (!axis) {
        // The axis is not known: only the last dim can be told.
        Shape out = unknownShape(rank);
        out.back() = Dim(onesided && inverse ? 1 : 2);
        ctx.setOutput(0, {}, out);
        return success();
      }
    } else {
      axis = -2;
    }
  } else {
    axis = ctx.getIntAttrOrDefault("axis");
  }
  if (*axis < -rank || *axis > rank - 2 || *axis == -1)
    return ctx.fail() << "axis " << *axis << " is out of range for input "
                      << "'input' of rank " << rank;
  int64_t a = *axis < 0 ? *axis + rank : *axis;
  Dim in = (*x)[a];
  Dim length = in;
  if (onesided && inverse)
    length = mapStatic(
        {in}, [&] { return llvm::checkedMul<int64_t>(2, in.size - 1); });
  int lengthSlot = ctx.getInputSlot("dft_length");
  if (lengthSlot >= 0 && ctx.hasInput(lengthSlot)) {
    std::optional<int64_t> l = getConstantScalar(ctx, lengthSlot);
    if (l && *l < 1)
      return ctx.fail() << "input 'dft_length' must be >= 1, got " << *l;
    length = l ? Dim(*l) : Dim::unknown();
  }
  Shape out = *x;
  if (onesided && !inverse)
    out[a] = mapStatic({length}, [&] { return length.size / 2 + 1; });
  else
    out[a] = length;
  out.back() = Dim(onesided && inverse ? 1 : 2);
  ctx.setOutput(0, {}, out);
  return success();
}

LogicalResult inferSTFT(InferenceContext &ctx) {
  std::optional<Shape> signal = ctx.getInputShape(0);
  if (signal && signal->size() != 3)
    return ctx.fail() << "input 'signal' must have rank 3, got "
                      << signal->size();
  if (ctx.hasInput(2) && failed(expectRank(ctx, 2, 1)))
    return failure();
  std::optional<int64_t> step = getConstantScalar(ctx, 1);
  if (step && *step < 1)
    return ctx.fail() << "input 'frame_step' must be >= 1, got " << *step;
  Dim length = Dim::unknown();
  if (ctx.hasInput(3)) {
    std::optional<int64_t> l = getConstantScalar(ctx, 3);
    if (l && *l < 1)
      return ctx.fail() << "input 'frame_length' must be >= 1, got " << *l;
    if (l)
      length = Dim(*l);
  } else if (ctx.hasInput(2)) {
    length = inputDim(ctx, 2, 0);
  }
  bool onesided = ctx.getIntAttrOrDefault("onesided") != 0;
  Dim signalLength = signal ? (*signal)[1] : Dim::unknown();
  Dim frames = Dim::unknown();
  if (step && signalLength.isStatic() && length.isStatic()) {
    if (signalLength.size < length.size)
      return ctx.fail() << "the frame length (" << length.size
                        << ") is longer than input 'signal' ("
                        << signalLength.size << ")";
    frames = Dim((signalLength.size - length.size) / *step + 1);
  }
  Dim bins = onesided ? mapStatic({length}, [&] { return length.size / 2 + 1; })
                      : length;
  ctx.setOutput(
      0, {},
      Shape{signal ? (*signal)[0] : Dim::unknown(), frames, bins, Dim(2)});
  return success();
}

/// The type an output_datatype attribute names (float by default).
Type outputDataType(const InferenceContext &ctx) {
  if (!ctx.hasAttr("output_datatype"))
    return Float32Type::get(ctx.getContext());
  return ctx.getDataTypeAttr("output_datatype");
}

LogicalResult inferWindow(InferenceContext &ctx) {
  std::optional<int64_t> rank = ctx.getInputRank(0);
  if (rank && *rank != 0 && !(*rank == 1 && inputDim(ctx, 0, 0) == Dim(1)))
    return ctx.fail() << "input 'size' must be a scalar";
  std::optional<int64_t> size = getConstantScalar(ctx, 0);
  if (size && *size < 0)
    return ctx.fail() << "input 'size' must be >= 0, got " << *size;
  ctx.setOutput(0, outputDataType(ctx),
                Shape{size ? Dim(*size) : Dim::unknown()});
  return success();
}

LogicalResult inferMelWeightMatrix(InferenceContext &ctx) {
  std::optional<int64_t> bins = getConstantScalar(ctx, 0);
  std::optional<int64_t> dftLength = getConstantScalar(ctx, 1);
  if (bins && *bins < 0)
    return ctx.fail() << "input 'num_mel_bins' must be >= 0, got " << *bins;
  if (dftLength && *dftLength < 0)
    return ctx.fail() << "input 'dft_length' must be >= 0, got " << *dftLength;
  ctx.setOutput(0, outputDataType(ctx),
                Shape{dftLength ? Dim(*dftLength / 2 + 1) : Dim::unknown(),
                      bins ? Dim(*bins) : Dim::unknown()});
  return success();
}

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

/// The per-head size of a 3D input with `heads` heads (dim 2 / heads).
Dim headSize(const Dim &hidden, std::optional<int64_t> heads) {
  if (!heads || !hidden.isStatic() || *heads < 1 || hidden.size % *heads != 0)
    return Dim::unknown();
  return Dim(hidden.size / *heads);
}

Dim addDims(const Dim &a, const Dim &b) {
  return mapStatic({a, b}, [&] { return llvm::checkedAdd(a.size, b.size); });
}

LogicalResult inferAttention(InferenceContext &ctx) {
  std::optional<Shape> q = ctx.getInputShape(0);
  std::optional<Shape> k = ctx.getInputShape(1);
  std::optional<Shape> v = ctx.getInputShape(2);
  for (unsigned slot = 0; slot < 3; ++slot) {
    std::optional<int64_t> r = ctx.getInputRank(slot);
    if (r && *r != 3 && *r != 4)
      return ctx.fail() << "input '" << schemaInputName(ctx, slot)
                        << "' must have rank 3 or 4, got " << *r;
  }
  std::optional<int64_t> qHeads = ctx.getIntAttr("q_num_heads");
  std::optional<int64_t> kvHeads = ctx.getIntAttr("kv_num_heads");
  if (qHeads && *qHeads < 1)
    return ctx.fail() << "attribute 'q_num_heads' must be >= 1, got "
                      << *qHeads;
  if (kvHeads && *kvHeads < 1)
    return ctx.fail() << "attribute 'kv_num_heads' must be >= 1, got "
                      << *kvHeads;
  auto checkHeads = [&](const std::optional<Shape> &s, StringRef name,
                        std::optional<int64_t> heads,
                        StringRef attr) -> LogicalResult {
    if (!s || s->size() != 3)
      return success();
    if (!heads)
      return ctx.fail() << "attribute '" << attr
                        << "' is required with a 3D input '" << name << "'";
    Dim hidden = (*s)[2];
    if (hidden.isStatic() && hidden.size % *heads != 0)
      return ctx.fail() << "dim 2 of input '" << name << "' (" << hidden.size
                        << ") must be a multiple of attribute '" << attr
                        << "' (" << *heads << ")";
    return success();
  };
  if (failed(checkHeads(q, "Q", qHeads, "q_num_heads")) ||
      failed(checkHeads(k, "K", kvHeads, "kv_num_heads")) ||
      failed(checkHeads(v, "V", kvHeads, "kv_num_heads")))
    return failure();

  // The facts of Q, K and V in 4D terms (batch, heads, sequence, head size).
  Dim batch = q ? (*q)[0] : Dim::unknown();
  Dim qHeadsDim = Dim::unknown(), qSeq = Dim::unknown();
  if (q && q->size() == 4) {
    qHeadsDim = (*q)[1];
    qSeq = (*q)[2];
  } else if (q) {
    qHeadsDim = Dim(*qHeads);
    qSeq = (*q)[1];
  }
  auto kvFacts = [&](const std::optional<Shape> &s, Dim &heads, Dim &seq,
                     Dim &size) {
    heads = kvHeads ? Dim(*kvHeads) : Dim::unknown();
    seq = size = Dim::unknown();
    if (!s)
      return;
    if (s->size() == 4) {
      heads = (*s)[1];
      seq = (*s)[2];
      size = (*s)[3];
    } else {
      seq = (*s)[1];
      size = headSize((*s)[2], kvHeads);
    }
  };
  Dim kHeads, kSeq, kSize, vHeads, vSeq, vSize;
  kvFacts(k, kHeads, kSeq, kSize);
  kvFacts(v, vHeads, vSeq, vSize);
  Dim kvHeadsDim = pick(kHeads, vHeads);
  Dim kvSeq = pick(kSeq, vSeq);

  int pastKeySlot = ctx.getInputSlot("past_key");
  int pastValueSlot = ctx.getInputSlot("past_value");
  bool hasPast = pastKeySlot >= 0 && ctx.hasInput(pastKeySlot);
  Dim total = kvSeq;
  if (hasPast) {
    if (failed(expectRank(ctx, pastKeySlot, 4)))
      return failure();
    total = addDims(inputDim(ctx, pastKeySlot, 2), kvSeq);
  }
  if (pastValueSlot >= 0 && ctx.hasInput(pastValueSlot) &&
      failed(expectRank(ctx, pastValueSlot, 4)))
    return failure();

  if (q && q->size() == 3) {
    Dim hidden = mapStatic(
        {vSize}, [&] { return llvm::checkedMul(vSize.size, *qHeads); });
    ctx.setOutput(0, {}, Shape{batch, qSeq, hidden});
  } else if (q) {
    ctx.setOutput(0, {}, Shape{batch, qHeadsDim, qSeq, vSize});
  } else {
    ctx.setOutput(0, {}, std::nullopt);
  }
  Dim pastKSize = hasPast ? inputDim(ctx, pastKeySlot, 3) : Dim::unknown();
  Dim pastVSize = pastValueSlot >= 0 && ctx.hasInput(pastValueSlot)
                      ? inputDim(ctx, pastValueSlot, 3)
                      : Dim::unknown();
  ctx.setOutput(1, {}, Shape{batch, kvHeadsDim, total, pick(kSize, pastKSize)});
  ctx.setOutput(2, {}, Shape{batch, kvHeadsDim, total, pick(vSize, pastVSize)});
  ctx.setOutput(3, {}, Shape{batch, qHeadsDim, qSeq, total});
  return success();
}

LogicalResult inferRotaryEmbedding(InferenceContext &ctx) {
  std::optional<int64_t> rank = ctx.getInputRank(0);
  if (rank && *rank != 3 && *rank != 4)
    return ctx.fail() << "input 'X' must have rank 3 or 4, got " << *rank;
  if (rank && *rank == 3 && !ctx.hasAttr("num_heads"))
    return ctx.fail() << "attribute 'num_heads' is required with a 3D "
                         "input 'X'";
  copyShape(ctx, 0, 0);
  return success();
}

LogicalResult inferLinearAttention(InferenceContext &ctx) {
  for (unsigned slot = 0; slot < 3; ++slot)
    if (failed(expectRank(ctx, slot, 3)))
      return failure();
  std::optional<int64_t> qHeads = ctx.getIntAttr("q_num_heads");
  std::optional<int64_t> kvHeads = ctx.getIntAttr("kv_num_heads");
  if (!qHeads || *qHeads < 1 || !kvHeads || *kvHeads < 1)
    return ctx.fail() << "attributes 'q_num_heads' and 'kv_num_heads' must "
                         "be >= 1";
  int pastSlot = ctx.getInputSlot("past_state");
  bool hasPast = pastSlot >= 0 && ctx.hasInput(pastSlot);
  if (hasPast && failed(expectRank(ctx, pastSlot, 4)))
    return failure();
  Dim keySize = pick(headSize(inputDim(ctx, 1, 2), kvHeads),
                     headSize(inputDim(ctx, 0, 2), qHeads));
  Dim valueSize = headSize(inputDim(ctx, 2, 2), kvHeads);
  Dim batch = inputDim(ctx, 0, 0);
  if (hasPast) {
    batch = pick(batch, inputDim(ctx, pastSlot, 0));
    keySize = pick(keySize, inputDim(ctx, pastSlot, 2));
    valueSize = pick(valueSize, inputDim(ctx, pastSlot, 3));
  }
  ctx.setOutput(0, {},
                Shape{batch, inputDim(ctx, 0, 1), mapStatic({valueSize}, [&] {
                        return llvm::checkedMul(valueSize.size, *qHeads);
                      })});
  // The state's type S is bound by past_state; without one, the state
  // keeps the activations' type (the spec recommends float32 or T; the
  // reference implementation and the node tests use T).
  Type stateType = hasPast ? Type() : ctx.getInputElementType(0);
  ctx.setOutput(1, stateType, Shape{batch, Dim(*kvHeads), keySize, valueSize});
  return success();
}

LogicalResult inferCausalConvWithState(InferenceContext &ctx) {
  if (failed(expectRank(ctx, 0, 3)) || failed(expectRank(ctx, 1, 3)))
    return failure();
  Dim k = inputDim(ctx, 1, 2);
  if (k.isStatic() && k.size < 1)
    return ctx.fail() << "the kernel size of input 'weight' must be >= 1";
  copyShape(ctx, 0, 0);
  ctx.setOutput(1, {},
                Shape{inputDim(ctx, 0, 0),
                      pick(inputDim(ctx, 0, 1), inputDim(ctx, 1, 0)),
                      mapStatic({k}, [&] { return k.size - 1; })});
  return success();
}

LogicalResult inferFlexAttention(InferenceContext &ctx) {
  for (unsigned slot = 0; slot < 3; ++slot)
    if (failed(expectRank(ctx, slot, 4)))
      return failure();
  ctx.setOutput(0, {},
                Shape{inputDim(ctx, 0, 0), inputDim(ctx, 0, 1),
                      inputDim(ctx, 0, 2), inputDim(ctx, 2, 3)});
  return success();
}

//===----------------------------------------------------------------------===//
// Others
//===----------------------------------------------------------------------===//

LogicalResult inferNonMaxSuppression(InferenceContext &ctx) {
  if (failed(expectRank(ctx, 0, 3)) || failed(expectRank(ctx, 1, 3)))
    return failure();
  // The number of selected boxes depends on the data.
  ctx.setOutput(0, {}, Shape{Dim::unknown(), Dim(3)});
  return success();
}

LogicalResult inferLRN(InferenceContext &ctx) {
  if (failed(readSizeAttr(ctx, "size", 1)))
    return failure();
  return inferSameShape(ctx);
}

LogicalResult inferImageDecoder(InferenceContext &ctx) {
  StringRef format = ctx.getStringAttrOrDefault("pixel_format");
  Dim channels = Dim::unknown();
  if (format == "RGB" || format == "BGR")
    channels = Dim(3);
  else if (format == "Grayscale")
    channels = Dim(1);
  else
    return ctx.fail() << "attribute 'pixel_format' must be RGB, BGR or "
                         "Grayscale, got '"
                      << format << "'";
  // The height and width are the image's.
  ctx.setOutput(0, {}, Shape{Dim::unknown(), Dim::unknown(), channels});
  return success();
}

} // namespace

void mlir::onnx::registerNNInference(InferenceRegistry &r) {
  r.add<ConvOp>(inferConv);
  r.add<ConvIntegerOp>(inferConvInteger);
  r.add<QLinearConvOp>(inferQLinearConv);
  r.add<DeformConvOp>(inferDeformConv);
  r.add<ConvTransposeOp>(inferConvTranspose);
  r.add<MaxPoolOp, AveragePoolOp, LpPoolOp>(inferPool);
  r.add<GlobalAveragePoolOp, GlobalMaxPoolOp, GlobalLpPoolOp>(inferGlobalPool);
  r.add<MaxRoiPoolOp>(inferMaxRoiPool);
  r.add<RoiAlignOp>(inferRoiAlign);
  r.add<BatchNormalizationOp>(inferBatchNormalization);
  r.add<InstanceNormalizationOp>(inferInstanceNormalization);
  r.add<LayerNormalizationOp>(inferLayerNormalization);
  r.add<GroupNormalizationOp>(inferGroupNormalization);
  r.add<LRNOp>(inferLRN);
  r.add<LpNormalizationOp, RMSNormalizationOp>(inferNormalizationAlongAxis);
  r.add<MeanVarianceNormalizationOp>(inferMeanVarianceNormalization);
  r.add<RNNOp>([](InferenceContext &ctx) { return inferRecurrent(ctx, 1); });
  r.add<GRUOp>([](InferenceContext &ctx) { return inferRecurrent(ctx, 3); });
  r.add<LSTMOp>([](InferenceContext &ctx) { return inferRecurrent(ctx, 4); });
  r.add<ResizeOp>(inferResize);
  r.add<UpsampleOp>(inferUpsample);
  r.add<GridSampleOp>(inferGridSample);
  r.add<AffineGridOp>(inferAffineGrid);
  r.add<DFTOp>(inferDFT);
  r.add<STFTOp>(inferSTFT);
  r.add<HannWindowOp, HammingWindowOp, BlackmanWindowOp>(inferWindow);
  r.add<MelWeightMatrixOp>(inferMelWeightMatrix);
  r.add<NonMaxSuppressionOp>(inferNonMaxSuppression);
  r.add<AttentionOp>(inferAttention);
  r.add<RotaryEmbeddingOp>(inferRotaryEmbedding);
  r.add<ImageDecoderOp>(inferImageDecoder);
  r.add<LinearAttentionOp>(inferLinearAttention);
  r.add<CausalConvWithStateOp>(inferCausalConvWithState);
  r.add<PreviewFlexAttentionOp>(inferFlexAttention);
}
