//===- Runtime.h - The runtime's internals ----------------------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Runtime: the model signature (what the C API describes and
// checks, embedded in ahead-of-time libraries as JSON), errors, and how the
// compiler library (Compiler.h) hands the runtime a model it compiled. The
// runtime library (OnnxDialectRuntime) links neither LLVM nor MLIR: nothing
// here may include their headers.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_RUNTIME_RUNTIME_H
#define ONNXDIALECT_LIB_RUNTIME_RUNTIME_H

#include "OnnxDialect/Runtime/OnnxRuntime.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
namespace onnx {
namespace runtime {

/// One graph input or output.
struct ValueSignature {
  std::string name;
  /// The kinds around the tensor, outermost first: {} for a tensor,
  /// {SEQUENCE} for seq(tensor), {OPTIONAL, SEQUENCE} for
  /// optional(seq(tensor)), ...
  std::vector<int32_t> nest;
  /// The (innermost) tensor's element type, rank and dims.
  int32_t dtype = 0;
  bool rankKnown = true;
  std::vector<int64_t> dims; // -1: dynamic
  std::vector<std::string> dimParams;
  /// ONNX's spelling of the type, "seq(tensor(float))" (built by finalize()).
  std::string type;

  int32_t kind() const { return nest.empty() ? 0 : nest.front(); }
  /// Passed to compiled code as a runtime handle (!llvm.ptr).
  bool isHandle() const { return !nest.empty(); }
  // Views for onnxd_value_info (built by finalize()).
  std::vector<const char *> dimParamPtrs;
};

/// The entry function of a compiled model, as the C API sees it.
struct Signature {
  std::string entry;
  std::vector<ValueSignature> inputs, outputs;
  /// The compiled code uses OpenMP (compiled with num_threads > 1).
  bool openmp = false;
  /// Compiled with profiling probes: per kernel id, the ONNX nodes it
  /// computes ("a,b") and their op types ("Conv+Relu").
  std::vector<std::pair<std::string, std::string>> kernels;
  /// Compiled with profiling (maybe without any kernel to time).
  bool profiled = false;
  /// Compiled as one rank of a device configuration (docs/multi-device.md):
  /// its name, the rank, and the bytes this rank's collectives and sends
  /// move per run.
  std::string deviceConfig;
  int64_t rank = -1, commBytes = 0;
  /// Where the kernels run: "cpu", or "cuda" (compiled by
  /// onnx-lower-to-nvvm: buffers come from the GPU runtime, CUDA.h).
  std::string device = "cpu";
  /// The outputs the entry takes as arguments after the inputs, in that
  /// order (onnx-output-params): the caller's buffers, written in place.
  /// Their dims are static.
  std::vector<int64_t> outputParams;

  bool onGPU() const { return device == "cuda"; }

  void finalize();
  std::string toJSON() const;
  /// Parses toJSON's output; false (with `error`) when malformed.
  bool fromJSON(const std::string &json, std::string &error);
};

/// The packed entry point every compiled model exports:
/// args[0] points to the results (a struct of memref descriptors),
/// args[1 + i] to the descriptor of input i.
using PackedEntry = void (*)(void **);

/// The name of the embedded signature (a NUL-terminated JSON string) and of
/// the packed entry point in compiled code.
constexpr const char *kSignatureSymbol = "onnxd_signature";
constexpr const char *kEntrySymbol = "onnxd_entry";
/// The OpenMP runtime that code compiled with threads calls (LLVM's libomp);
/// loaded when a model uses it, linked into its shared library.
constexpr const char *kOpenMPLibrary = "libomp.so.5";
/// Open MPI's library (Debian's libopenmpi3), opened for multi-device models.
constexpr const char *kMPILibrary = "libmpi.so.40";

/// An error from one of the steps below: a status and its message.
struct Error {
  onnxd_status status = ONNXD_OK;
  std::string message;
  explicit operator bool() const { return status != ONNXD_OK; }
};

/// What keeps a model's compiled code alive (the JIT's engine): owned by the
/// model, destroyed with it. The runtime knows nothing else of it.
struct CodeOwner {
  virtual ~CodeOwner();
};

/// Hands compiled code to the runtime: a new model running `entry`, the
/// signature finalized, libomp loaded and warmed when the code uses it. On
/// failure sets the last error and returns its status.
onnxd_status makeModel(const Signature &signature, PackedEntry entry,
                       std::unique_ptr<CodeOwner> owner, int numThreads,
                       onnxd_model **out);

/// Sets the message of onnxd_last_error and returns `status`.
onnxd_status fail(onnxd_status status, std::string message);

/// Makes the runtime library's symbols (onnxd_rt_fail, the allocator) global,
/// so that compiled code resolves against them even when this library was
/// loaded with RTLD_LOCAL (Python's ctypes does that).
void makeRuntimeGlobal();

/// Makes libomp's symbols global in the process (the JIT and the loaded
/// libraries resolve against it); returns its omp_set_num_threads, or null.
void (*loadOpenMP(std::string &error))(int);

/// Starts libomp's `threads` workers with an empty parallel region, so that
/// the first run does not pay for creating them (~300 us here). Does
/// nothing when libomp is not loaded.
void warmOpenMP(int threads);

/// Opens Open MPI (dlopen, RTLD_GLOBAL), initializes it once (finalized at
/// exit) and gives this process's rank and the job's size; false with a
/// message when it cannot.
bool joinMPI(int &rank, int &size, std::string &error);

/// The bytes of one element of `dtype` (bool: 1); 0 when not fixed.
size_t dtypeSize(int32_t dtype);
/// "float32", "int64", ...
const char *dtypeName(int32_t dtype);
/// Appends `s` to `out` as a JSON string literal (quoted, escaped).
void appendJSONString(std::string &out, const std::string &s);
/// "float32[N,4]" or "float32[?,4]".
std::string describe(const ValueSignature &value);

} // namespace runtime
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_RUNTIME_RUNTIME_H
