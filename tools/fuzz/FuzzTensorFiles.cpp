//===- FuzzTensorFiles.cpp - libFuzzer target for onnx-run's inputs -------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-tensor-fuzzer: the readers of the tensor files that onnx-run and the
// Python package take inputs from (include/OnnxDialect/Runtime/
// TensorFiles.h). The first byte picks the reader (.npy, TensorProto,
// SequenceProto, OptionalProto), the rest is the file. A value that reads
// is then viewed as the runtime's onnxd_value, as onnx-run hands it over,
// and its sizes are checked against its data: a reader that accepts a
// tensor whose data is shorter than its shape says is a bug found.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Runtime/TensorFiles.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir::onnx::runtime;

/// Aborts when `t` holds fewer bytes than its shape says (the runtime would
/// read past them) or its view disagrees with it.
static void checkTensor(const HostTensor &t) {
  int64_t n = t.numElements();
  if (n < 0)
    abort();
  if (t.dtype == ONNXD_STRING) {
    if (t.strings.size() != size_t(n))
      abort();
    return;
  }
  onnxd_tensor view = t.view();
  if (view.rank < 0 || size_t(view.rank) != t.shape.size())
    abort();
  if (t.data.size() < size_t(n) * onnxd_dtype_size(t.dtype))
    abort();
}

static void checkValue(const HostValue &v) {
  if (v.kind == ONNXD_KIND_TENSOR)
    checkTensor(v.tensor);
  for (const HostValue &e : v.elements)
    checkValue(e);
  (void)v.view();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  const char *bytes = reinterpret_cast<const char *>(data) + 1;
  size_t n = size - 1;
  std::string error;
  switch (data[0] % 4) {
  case 0: {
    HostTensor t;
    if (readNpyBytes(bytes, n, "input.npy", t, error))
      checkTensor(t);
    break;
  }
  case 1: {
    HostValue v;
    if (readValueProtoBytes(bytes, n, "input.pb", ONNXD_KIND_TENSOR, v, error))
      checkValue(v);
    break;
  }
  case 2: {
    HostValue v;
    if (readValueProtoBytes(bytes, n, "input.pb", ONNXD_KIND_SEQUENCE, v,
                            error))
      checkValue(v);
    break;
  }
  default: {
    HostValue v;
    if (readValueProtoBytes(bytes, n, "input.pb", ONNXD_KIND_OPTIONAL, v,
                            error))
      checkValue(v);
    break;
  }
  }
  return 0;
}
