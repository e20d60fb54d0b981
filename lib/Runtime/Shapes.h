//===- Shapes.h - The element count of a tensor shape -----------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Runtime (standard C++ only): what the runtime's tensor
// values (HostTensor, RtValue) compute from their shapes.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_RUNTIME_SHAPES_H
#define ONNXDIALECT_LIB_RUNTIME_SHAPES_H

#include <cstdint>
#include <vector>

namespace mlir {
namespace onnx {
namespace runtime {

/// The number of elements of a tensor of shape `shape` (the product of its
/// dims; 1 for a scalar).
inline int64_t elementCount(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

} // namespace runtime
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_RUNTIME_SHAPES_H
