//===- Values.h - Sequences, optionals and tensors of a run -----*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Runtime: the values compiled code holds by handle
// (sequences, optionals, maps; docs/runtime.md, "Values"). Every value
// belongs to the arena of the onnxd_run that created it and is immutable:
// sequence operations make new sequences that share the elements. The arena
// is freed when the run ends (also when a run-time check fails).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_RUNTIME_VALUES_H
#define ONNXDIALECT_LIB_RUNTIME_VALUES_H

#include "OnnxDialect/Runtime/OnnxRuntime.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace mlir {
namespace onnx {
namespace runtime {

/// A tensor (kind TENSOR), a sequence (SEQUENCE: `elements`) or a map (MAP:
/// keys in the tensor fields, values in `elements`). An optional is the
/// handle of its value, or null.
struct RtValue {
  int32_t kind = ONNXD_KIND_TENSOR;
  int32_t dtype = 0;
  std::vector<int64_t> shape;
  /// Dense row-major data; for strings one `const char *` per element.
  std::vector<char> data;
  std::vector<RtValue *> elements;

  int64_t numElements() const;
};

/// The values and strings of one run.
struct Arena {
  std::deque<RtValue> values;
  std::deque<std::string> strings;

  RtValue *make(int32_t kind);
  const char *string(std::string text);
};

/// Makes `arena` the current one on this thread while it lives.
class ArenaScope {
public:
  explicit ArenaScope(Arena &arena);
  ~ArenaScope();

private:
  Arena *previous;
};

/// The current arena of this thread.
Arena &currentArena();

/// Bytes of one element as compiled code stores it (strings: a pointer).
size_t storageSize(int32_t dtype);

} // namespace runtime
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_RUNTIME_VALUES_H
