//===- ONNXWindow.h - The windows of convolutions and pools -----*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The arithmetic of a convolution's or a pool's window along one spatial
// axis (auto_pad, the SAME pads, the output size with and without
// ceil_mode), written once for the two places that need it: type inference
// (lib/Dialect/ONNX/IR/Inference/NN.cpp, on static sizes) and the lowering
// (lib/Conversion/ONNXToLinalg, on sizes that may be known at run time
// only). The formulas are templates over a `Math` that gives the values and
// the operations:
//
//   T cst(int64_t); T add(T, T); T sub(T, T); T mul(T, T);
//   T floorDiv(T, T); T ceilDiv(T, T); T max(T, T);
//   T selectGE(T a, T b, T x, T y);   // a >= b ? x : y
//
// StaticWindowMath is that Math on int64_t; the lowering's IndexMath is the
// one on OpFoldResult.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXWINDOW_H
#define ONNXDIALECT_IR_ONNXWINDOW_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace mlir {
namespace onnx {
namespace window {

/// The values of the auto_pad attribute.
enum class AutoPad { NotSet, Valid, SameUpper, SameLower };

/// The auto_pad value named `name`; nullopt for another string.
inline std::optional<AutoPad> parseAutoPad(llvm::StringRef name) {
  if (name == "NOTSET")
    return AutoPad::NotSet;
  if (name == "VALID")
    return AutoPad::Valid;
  if (name == "SAME_UPPER")
    return AutoPad::SameUpper;
  if (name == "SAME_LOWER")
    return AutoPad::SameLower;
  return std::nullopt;
}

inline bool isSame(AutoPad pad) {
  return pad == AutoPad::SameUpper || pad == AutoPad::SameLower;
}

/// The extent of a kernel of `kernel` taps `dilation` apart.
inline int64_t effectiveKernel(int64_t kernel, int64_t dilation) {
  return (kernel - 1) * dilation + 1;
}

/// Integer arithmetic for the formulas below on static sizes.
struct StaticWindowMath {
  int64_t cst(int64_t v) const { return v; }
  int64_t add(int64_t x, int64_t y) const { return x + y; }
  int64_t sub(int64_t x, int64_t y) const { return x - y; }
  int64_t mul(int64_t x, int64_t y) const { return x * y; }
  int64_t floorDiv(int64_t x, int64_t y) const {
    return llvm::divideFloorSigned(x, y);
  }
  int64_t ceilDiv(int64_t x, int64_t y) const {
    return llvm::divideCeilSigned(x, y);
  }
  int64_t max(int64_t x, int64_t y) const { return x > y ? x : y; }
  int64_t selectGE(int64_t a, int64_t b, int64_t x, int64_t y) const {
    return a >= b ? x : y;
  }
};

/// The pads SAME_UPPER / SAME_LOWER put (before, after) an input of size
/// `in`: the output is ceil(in / stride) and the padding it needs is split
/// in halves, the odd one at the end (UPPER) or the beginning (LOWER).
template <typename Math, typename T>
std::pair<T, T> samePads(const Math &m, T in, int64_t kernel, int64_t stride,
                         int64_t dilation, bool upper) {
  T out = m.ceilDiv(in, m.cst(stride));
  T total =
      m.max(m.cst(0), m.sub(m.add(m.mul(m.sub(out, m.cst(1)), m.cst(stride)),
                                  m.cst(effectiveKernel(kernel, dilation))),
                            in));
  T half = m.floorDiv(total, m.cst(2));
  T rest = m.sub(total, half);
  return upper ? std::make_pair(half, rest) : std::make_pair(rest, half);
}

/// The number of windows along an input of size `in` padded with
/// `padBegin` and `padEnd` (for SAME pads: ceil(in / stride)). With
/// `ceilMode` (pools, NOTSET pads) the last, partial window counts too,
/// unless it would start past the input and its begin padding.
template <typename Math, typename T>
T outputSize(const Math &m, AutoPad autoPad, T in, T padBegin, T padEnd,
             int64_t kernel, int64_t stride, int64_t dilation, bool ceilMode) {
  if (isSame(autoPad))
    return m.ceilDiv(in, m.cst(stride));
  T span = m.sub(m.add(m.add(in, padBegin), padEnd),
                 m.cst(effectiveKernel(kernel, dilation)));
  if (!ceilMode)
    return m.add(m.floorDiv(span, m.cst(stride)), m.cst(1));
  T out = m.add(m.ceilDiv(span, m.cst(stride)), m.cst(1));
  if (autoPad != AutoPad::NotSet)
    return out;
  T lastStart = m.mul(m.sub(out, m.cst(1)), m.cst(stride));
  return m.selectGE(lastStart, m.add(in, padBegin), m.sub(out, m.cst(1)), out);
}

} // namespace window
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_IR_ONNXWINDOW_H
