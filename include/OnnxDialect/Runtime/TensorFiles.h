//===- TensorFiles.h - Tensors in .npy and TensorProto files ----*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What onnx-run reads inputs from and writes outputs to: NumPy's .npy format
// (versions 1-3, little endian, C order, the numeric dtypes and bool) and
// ONNX's TensorProto (.pb; raw_data or the typed fields).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_RUNTIME_TENSORFILES_H
#define ONNXDIALECT_RUNTIME_TENSORFILES_H

#include "OnnxDialect/Runtime/OnnxRuntime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
namespace onnx {
namespace runtime {

/// A dense tensor that owns its bytes (row-major).
struct HostTensor {
  std::string name;
  int32_t dtype = 0;
  std::vector<int64_t> shape;
  std::vector<char> data;
  /// The elements of a string tensor (dtype ONNXD_STRING; `data` unused).
  std::vector<std::string> strings;
  /// The views of `strings` that view() hands out.
  mutable std::vector<const char *> stringPtrs;

  int64_t numElements() const;
  /// A view for onnxd_run (borrows this tensor).
  onnxd_tensor view() const;
  /// Copies a tensor the runtime returned.
  static HostTensor fromTensor(const onnxd_tensor &t);
};

/// A tensor, sequence or optional (onnxd_value's kinds) that owns its data.
struct HostValue {
  std::string name;
  int32_t kind = ONNXD_KIND_TENSOR;
  HostTensor tensor;
  std::vector<HostValue> elements;
  /// Storage of view()'s element arrays.
  mutable std::vector<onnxd_value> elementViews;

  /// A view for onnxd_run_values (borrows this value).
  onnxd_value view() const;
  /// Copies a value the runtime returned.
  static HostValue fromValue(const onnxd_value &v);
};

/// Reads a serialized TensorProto, SequenceProto or OptionalProto, as
/// `kind` says (the name goes to out.name).
bool readValueProto(const std::string &path, int32_t kind, HostValue &out,
                    std::string &error);
/// The same over `size` bytes in memory; `path` names them in errors.
bool readValueProtoBytes(const char *data, size_t size, const std::string &path,
                         int32_t kind, HostValue &out, std::string &error);

/// The numpy type code ("f4", "b1", ...; no byte-order character) of the
/// arrays that hold tensors of `dtype` in the C API's layout: the type
/// itself, or for the types numpy lacks the integer of the same width
/// holding the bit pattern (bfloat16: "u2"; float8, uint4: "u1"; int4:
/// "i1"). Null for strings and unknown codes.
const char *npyDescr(int32_t dtype);

/// Reads a .npy file; false with `error` (naming the file) on failure.
bool readNpy(const std::string &path, HostTensor &out, std::string &error);
/// The same over `size` bytes in memory; `path` names them in errors.
bool readNpyBytes(const char *data, size_t size, const std::string &path,
                  HostTensor &out, std::string &error);
/// Writes a .npy file (version 1).
bool writeNpy(const std::string &path, const HostTensor &t, std::string &error);
/// Reads a serialized TensorProto (its name goes to out.name).
bool readTensorProto(const std::string &path, HostTensor &out,
                     std::string &error);
/// Reads either, by the file's extension (.npy, else TensorProto).
bool readTensorFile(const std::string &path, HostTensor &out,
                    std::string &error);

} // namespace runtime
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_RUNTIME_TENSORFILES_H
