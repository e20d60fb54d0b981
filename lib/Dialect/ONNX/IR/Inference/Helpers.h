//===- Helpers.h - What the inference families share ------------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The helpers of the inference functions that more than one family uses
// (private to lib/Dialect/ONNX/IR/Inference): dims of inputs, checked size
// attributes, outputs of the shape of an input, and the window attributes
// of convolutions and pools.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_DIALECT_ONNX_INFERENCE_HELPERS_H
#define ONNXDIALECT_LIB_DIALECT_ONNX_INFERENCE_HELPERS_H

#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXWindow.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <optional>

namespace mlir {
namespace onnx {
namespace inference {

/// The dim `i` of `shape`, unknown when out of range.
inline Dim dimAt(const Shape &shape, int64_t i) {
  if (i < 0 || i >= static_cast<int64_t>(shape.size()))
    return Dim::unknown();
  return shape[i];
}

/// The dim `i` of input `slot`, unknown when the input is unranked or has no
/// such dim.
inline Dim inputDim(const InferenceContext &ctx, unsigned slot, int64_t i) {
  std::optional<Shape> shape = ctx.getInputShape(slot);
  return shape ? dimAt(*shape, i) : Dim::unknown();
}

/// The more precise of two facts about one dim; `a` when they contradict.
inline Dim pick(const Dim &a, const Dim &b) {
  FailureOr<Dim> merged = mergeDims(a, b);
  return succeeded(merged) ? *merged : a;
}

inline int64_t ceilDiv(int64_t a, int64_t b) {
  return llvm::divideCeilSigned(a, b);
}

/// A Dim computed from static dims, unknown when one of them is not or
/// when `fn` gives no value (its arithmetic left int64_t; the run then
/// checks the actual sizes).
template <typename F> Dim mapStatic(std::initializer_list<Dim> dims, F fn) {
  for (const Dim &d : dims)
    if (!d.isStatic())
      return Dim::unknown();
  std::optional<int64_t> size = fn();
  return size ? Dim(*size) : Dim::unknown();
}

/// floor(`v`) as a dimension, or nullopt when it is not one (negative, not
/// a number, or beyond int64_t).
inline std::optional<int64_t> floorToDim(double v) {
  v = std::floor(v);
  if (!(v >= 0) || v >= 9.2e18)
    return std::nullopt;
  return static_cast<int64_t>(v);
}

/// The value of a scalar (or one-element) constant integer input.
inline std::optional<int64_t> getConstantScalar(const InferenceContext &ctx,
                                                unsigned slot) {
  if (!ctx.hasInput(slot))
    return std::nullopt;
  std::optional<SmallVector<int64_t>> values = ctx.getConstantInts(slot);
  if (!values || values->size() != 1)
    return std::nullopt;
  return (*values)[0];
}

/// The name of the schema input in `slot`, for messages.
inline StringRef schemaInputName(const InferenceContext &ctx, unsigned slot) {
  ArrayRef<ArgSchema> inputs = ctx.getSchema().inputs;
  if (inputs.empty())
    return "?";
  if (slot >= inputs.size())
    return inputs.back().name;
  return inputs[slot].name;
}

inline LogicalResult expectRank(const InferenceContext &ctx, unsigned slot,
                                int64_t rank) {
  std::optional<int64_t> r = ctx.getInputRank(slot);
  if (r && *r != rank)
    return ctx.fail() << "input '" << schemaInputName(ctx, slot)
                      << "' must have rank " << rank << ", got " << *r;
  return success();
}

/// Checks that sizes read from an attribute or a constant input are >= 0.
inline LogicalResult checkSizes(const InferenceContext &ctx,
                                ArrayRef<int64_t> sizes, StringRef what) {
  for (int64_t s : sizes)
    if (s < 0)
      return ctx.fail() << what << " must be >= 0, got " << s;
  return success();
}

/// The largest value of a size attribute (kernel, stride, dilation, pad,
/// block size, window size, ...): far above what any model uses, and small
/// enough that a product of two of them, or a sum of a few, stays in
/// int64_t. Inference adds and multiplies them with dims in checked
/// arithmetic.
inline constexpr int64_t kMaxSizeAttr = (int64_t(1) << 31) - 1;

/// Checks that integer attribute `name` (else its default) is in
/// [min, kMaxSizeAttr]; returns its value.
inline FailureOr<int64_t> readSizeAttr(const InferenceContext &ctx,
                                       StringRef name, int64_t min) {
  int64_t v = ctx.getIntAttrOrDefault(name);
  if (v < min || v > kMaxSizeAttr)
    return ctx.fail() << "attribute '" << name << "' must be in [" << min
                      << ", " << kMaxSizeAttr << "], got " << v;
  return v;
}

/// The same for each value of an ints attribute.
inline LogicalResult checkSizeList(const InferenceContext &ctx, StringRef name,
                                   ArrayRef<int64_t> values, int64_t min) {
  for (int64_t v : values)
    if (v < min || v > kMaxSizeAttr)
      return ctx.fail() << "attribute '" << name << "' must be in [" << min
                        << ", " << kMaxSizeAttr << "], got " << v;
  return success();
}

/// a * b + c, or nullopt when it leaves int64_t.
inline std::optional<int64_t> checkedMulAdd(int64_t a, int64_t b, int64_t c) {
  std::optional<int64_t> m = llvm::checkedMul(a, b);
  return m ? llvm::checkedAdd(*m, c) : std::nullopt;
}

/// Sets output `i` to the shape of input `slot` (unranked if it is).
inline void copyShape(InferenceContext &ctx, unsigned out, unsigned slot,
                      Type elementType = {}) {
  ctx.setOutput(out, elementType, ctx.getInputShape(slot));
}

/// The outputs `outs` take the shape of input `in` and the element type the
/// schema gives them.
inline LogicalResult inferSameShape(InferenceContext &ctx, unsigned in = 0,
                                    ArrayRef<unsigned> outs = {0}) {
  if (!ctx.hasInput(in))
    return success();
  std::optional<Shape> shape = ctx.getInputShape(in);
  for (unsigned out : outs)
    if (ctx.hasOutput(out))
      ctx.setOutput(out, nullptr, shape);
  return success();
}

/// Sets output 0 to the schema's element type and `shape`.
inline LogicalResult setOut(InferenceContext &ctx, std::optional<Shape> shape,
                            Type elementType = nullptr, unsigned slot = 0) {
  ctx.setOutput(slot, elementType, std::move(shape));
  return success();
}

/// Output 0 has the shape of input `in` (unranked if it is).
inline LogicalResult sameShapeAs(InferenceContext &ctx, unsigned in,
                                 Type elementType = nullptr,
                                 unsigned slot = 0) {
  return setOut(ctx, ctx.getInputShape(in), elementType, slot);
}

/// The window attributes of a convolution or pooling op over `n` spatial
/// axes, with their defaults.
struct Window {
  SmallVector<Dim> kernel;
  SmallVector<int64_t> strides, dilations, pads;
  window::AutoPad autoPad = window::AutoPad::NotSet;
  bool ceilMode = false;
};

/// Reads and checks strides, dilations, pads and auto_pad for `n` spatial
/// axes; `kernel` must already be set. (Pooling reads its ceil_mode.)
inline LogicalResult readWindow(const InferenceContext &ctx, int64_t n,
                                Window &w, bool hasAutoPad = true) {
  auto readList = [&](StringRef name, int64_t size, int64_t deflt, int64_t min,
                      SmallVector<int64_t> &out) -> LogicalResult {
    std::optional<SmallVector<int64_t>> v = ctx.getIntsAttr(name);
    if (!v) {
      out.assign(size, deflt);
      return success();
    }
    if (static_cast<int64_t>(v->size()) != size)
      return ctx.fail() << "attribute '" << name << "' must have " << size
                        << " values, got " << v->size();
    if (failed(checkSizeList(ctx, name, *v, min)))
      return failure();
    out = std::move(*v);
    return success();
  };
  if (failed(readList("strides", n, 1, 1, w.strides)) ||
      failed(readList("dilations", n, 1, 1, w.dilations)))
    return failure();
  if (hasAutoPad) {
    StringRef autoPad = ctx.getStringAttrOrDefault("auto_pad");
    std::optional<window::AutoPad> parsed = window::parseAutoPad(autoPad);
    if (!parsed)
      return ctx.fail() << "attribute 'auto_pad' must be NOTSET, SAME_UPPER, "
                           "SAME_LOWER or VALID, got '"
                        << autoPad << "'";
    w.autoPad = *parsed;
  }
  // Pads that come with an auto_pad other than NOTSET are ignored.
  if (w.autoPad == window::AutoPad::NotSet) {
    if (failed(readList("pads", 2 * n, 0, 0, w.pads)))
      return failure();
  } else {
    w.pads.assign(2 * n, 0);
  }
  return success();
}

} // namespace inference
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_DIALECT_ONNX_INFERENCE_HELPERS_H
