//===- Quantization.cpp - Inference of the quantizing onnx operators ------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// QuantizeLinear, DequantizeLinear (per-tensor, per-axis and blocked) and
// DynamicQuantizeLinear.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "mlir/IR/Builders.h"
#include <string>

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// The scale (slot 1) and zero point (slot 2) fit the input (slot 0): a
/// scalar (per tensor), a 1-D tensor of the length of the axis (per axis), or
/// the input's shape with the axis divided into blocks (blocked).
LogicalResult checkQuantParams(InferenceContext &ctx, StringRef xName,
                               StringRef scaleName, StringRef zpName) {
  std::optional<Shape> x = ctx.getInputShape(0);
  std::optional<Shape> scale = ctx.getInputShape(1);
  std::optional<Shape> zp = ctx.getInputShape(2);
  // One value (a scalar or [1]) is per tensor.
  auto isSingle = [](const Shape &s) {
    return llvm::all_of(
        s, [](const Dim &d) { return d.isStatic() && d.size == 1; });
  };
  if (scale && zp && !(isSingle(*scale) && isSingle(*zp))) {
    bool same = scale->size() == zp->size();
    for (size_t i = 0; same && i < scale->size(); ++i)
      same = succeeded(mergeDims((*scale)[i], (*zp)[i]));
    if (!same)
      return ctx.fail() << "input '" << zpName << "' " << formatShape(*zp)
                        << " must have the shape of input '" << scaleName
                        << "' " << formatShape(*scale);
  }
  if (!scale && zp)
    scale = zp;
  if (!x || !scale || ctx.isAttrRef("axis") || ctx.isAttrRef("block_size"))
    return success();
  int64_t blockSize = ctx.getIntAttrOrDefault("block_size");
  if (blockSize < 0)
    return ctx.fail() << "attribute 'block_size' must not be negative, got "
                      << blockSize;
  // Per tensor.
  if (scale->empty() || (blockSize == 0 && isSingle(*scale)))
    return success();
  int64_t rank = x->size();
  int64_t axisAttr = ctx.getIntAttrOrDefault("axis");
  std::optional<int64_t> axis = normalizeAxis(axisAttr, rank);
  if (!axis)
    return ctx.fail() << "attribute 'axis' " << axisAttr
                      << " is out of range for input '" << xName << "' of rank "
                      << rank;
  const Dim &d = (*x)[*axis];
  if (blockSize == 0) {
    if (scale->size() != 1)
      return ctx.fail() << "input '" << scaleName << "' " << formatShape(*scale)
                        << " must be a scalar or a 1-D tensor without "
                           "attribute 'block_size'";
    if (failed(mergeDims(scale->front(), d)))
      return ctx.fail() << "input '" << scaleName << "' " << formatShape(*scale)
                        << " must have the size of "
                        << "axis " << *axis << " of input '" << xName << "' "
                        << formatShape(*x);
    return success();
  }
  if (static_cast<int64_t>(scale->size()) != rank)
    return ctx.fail() << "input '" << scaleName << "' " << formatShape(*scale)
                      << " must have the rank of input '" << xName << "' "
                      << formatShape(*x) << " for blocked quantization";
  for (int64_t i = 0; i < rank; ++i) {
    const Dim &s = (*scale)[i], &xd = (*x)[i];
    if (i != *axis) {
      if (failed(mergeDims(s, xd)))
        return ctx.fail() << "input '" << scaleName << "' "
                          << formatShape(*scale) << " does not fit input '"
                          << xName << "' " << formatShape(*x)
                          << " outside of the blocked axis " << *axis;
      continue;
    }
    if (s.isStatic() && xd.isStatic() &&
        xd.size / blockSize + (xd.size % blockSize != 0) != s.size)
      return ctx.fail() << "input '" << scaleName << "' " << formatShape(*scale)
                        << " does not fit input '" << xName << "' "
                        << formatShape(*x) << " in blocks of " << blockSize
                        << " along axis " << *axis;
  }
  return success();
}

/// QuantizeLinear: the input's shape; the type of the zero point, of
/// output_dtype or uint8.
LogicalResult inferQuantizeLinear(InferenceContext &ctx) {
  if (failed(checkQuantParams(ctx, "x", "y_scale", "y_zero_point")))
    return failure();
  Type zpType = ctx.getInputElementType(2);
  Type dtype;
  if (ctx.hasAttr("output_dtype")) {
    if (ctx.isAttrRef("output_dtype"))
      return success();
    if (ctx.getIntAttrOrDefault("output_dtype") != 0) {
      dtype = ctx.getDataTypeAttr("output_dtype");
      if (!dtype)
        return ctx.fail() << "attribute 'output_dtype' is not a known data "
                             "type";
    }
  }
  if (dtype && zpType && dtype != zpType)
    return ctx.fail() << "attribute 'output_dtype' names " << dtype
                      << ", but input 'y_zero_point' has " << zpType;
  Type type = zpType ? zpType : dtype;
  if (!type && !ctx.hasInput(2))
    type = IntegerType::get(ctx.getContext(), 8, IntegerType::Unsigned);
  if (!type)
    return success();
  ctx.setOutput(0, type, ctx.getInputShape(0));
  return success();
}

/// DequantizeLinear: the input's shape; the type of output_dtype or of the
/// scale.
LogicalResult inferDequantizeLinear(InferenceContext &ctx) {
  if (failed(checkQuantParams(ctx, "x", "x_scale", "x_zero_point")))
    return failure();
  Type type;
  if (ctx.hasAttr("output_dtype")) {
    if (ctx.isAttrRef("output_dtype"))
      return success();
    if (ctx.getIntAttrOrDefault("output_dtype") != 0) {
      type = ctx.getDataTypeAttr("output_dtype");
      if (!type)
        return ctx.fail() << "attribute 'output_dtype' is not a known data "
                             "type";
    }
  }
  ctx.setOutput(0, type, ctx.getInputShape(0));
  return success();
}

/// DynamicQuantizeLinear: y has x's shape; scale and zero point are scalars.
LogicalResult inferDynamicQuantizeLinear(InferenceContext &ctx) {
  ctx.setOutput(0, nullptr, ctx.getInputShape(0));
  if (ctx.hasOutput(1))
    ctx.setOutput(1, nullptr, Shape());
  if (ctx.hasOutput(2))
    ctx.setOutput(2, nullptr, Shape());
  return success();
}

} // namespace

void mlir::onnx::registerQuantizationInference(InferenceRegistry &r) {
  r.add<QuantizeLinearOp>(inferQuantizeLinear);
  r.add<DequantizeLinearOp>(inferDequantizeLinear);
  r.add<DynamicQuantizeLinearOp>(inferDynamicQuantizeLinear);
}
