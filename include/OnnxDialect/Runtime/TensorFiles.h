//===- TensorFiles.h - Tensors in .npy and TensorProto files ----*- C++ -*-===//
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

  int64_t numElements() const;
  /// A view for onnxd_run (borrows this tensor).
  onnxd_tensor view() const;
  /// Copies a tensor the runtime returned.
  static HostTensor fromTensor(const onnxd_tensor &t);
};

/// Reads a .npy file; false with `error` (naming the file) on failure.
bool readNpy(const std::string &path, HostTensor &out, std::string &error);
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
