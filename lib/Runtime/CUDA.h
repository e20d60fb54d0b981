//===- CUDA.h - The GPU runtime of compiled models --------------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the rest of the runtime needs of CUDA.cpp, which also exports the C
// functions that code compiled by onnx-lower-to-nvvm calls (the mgpu*
// functions of upstream's host lowering, onnxd_gpu_alloc/free/global).
// The NVIDIA driver (libcuda.so.1) is opened with dlopen when a model first
// needs it; nothing links against CUDA.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_RUNTIME_CUDA_H
#define ONNXDIALECT_LIB_RUNTIME_CUDA_H

#include <cstdint>
#include <string>

namespace mlir {
namespace onnx {
namespace runtime {

/// Opens the driver (once), initializes it and retains the primary context
/// of the device (ONNXD_CUDA_DEVICE, default 0) for this thread; false with
/// a one-line reason when there is no usable GPU. ONNXD_CUDA_DRIVER names
/// another driver library (tests use a stub).
bool cudaReady(std::string &error);

/// A GPU model's state that outlives one run: the device copies of its
/// globals. Created on the model's first run, destroyed with the model.
struct GPUModelState;
void destroyGPUState(GPUModelState *state);

/// Brackets a run of a GPU model on this thread: its globals are looked up
/// in (and added to) `*state`, created when null.
struct GPURunScope {
  explicit GPURunScope(GPUModelState *&state);
  ~GPURunScope();

private:
  GPUModelState *previous;
};

/// Frees a buffer that compiled GPU code returned (onnxd_gpu_free).
void freeGPUBuffer(void *ptr);

/// A buffer of `bytes` in memory the device reaches (managed memory,
/// prefetched to the device; pinned host memory where the driver refuses
/// managed memory), holding a copy of `host` (left as the driver gives it
/// where `host` is null): onnxd_device_buffer_create. False with a one-line
/// reason where there is no GPU or no memory.
bool createDeviceBuffer(const void *host, size_t bytes, void *&buffer,
                        std::string &error);

/// Frees a buffer of createDeviceBuffer; false when `buffer` is not one.
bool freeDeviceBuffer(void *buffer);

/// Copies `bytes` of a buffer compiled GPU code returned into host memory
/// by the driver (no page faults on managed memory); false where the driver
/// refuses (then the caller copies on the host).
bool copyFromGPUBuffer(void *host, const void *buffer, size_t bytes);

/// The profiles' clock: the steady clock in nanoseconds (OnnxRuntime.cpp).
int64_t steadyNanos();

/// Whether the run on this thread records a profile (a model compiled with
/// profiling; OnnxRuntime.cpp).
bool profilingRun();

/// The profile id onnxd_gpu_prof_kernel gave the next launch (or -1), which
/// it no longer has.
int64_t takeProfiledLaunch();

/// Adds kernel `kernel`'s interval from `start` to `end` (steady-clock
/// nanoseconds) to the profile of the run on this thread.
void recordProfiledKernel(int64_t kernel, int64_t start, int64_t end);

} // namespace runtime
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_RUNTIME_CUDA_H
