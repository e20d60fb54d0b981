//===- Allocator.h - The buffers compiled code allocates --------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Compiled code allocates and frees its buffers through the runtime
// (_mlir_memref_to_llvm_alloc / _free, the pipeline's `runtime-allocator`
// option). The runtime keeps freed blocks and hands them out again for the
// same size, so that a model run after the first touches no fresh page: the
// kernel's page faults on new buffers cost 10-35% of a run otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_LIB_RUNTIME_ALLOCATOR_H
#define ONNXDIALECT_LIB_RUNTIME_ALLOCATOR_H

#include <cstddef>

extern "C" {
/// The allocation functions compiled code calls (MLIR's generic allocation
/// functions of finalize-memref-to-llvm).
void *_mlir_memref_to_llvm_alloc(size_t size);
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);
void _mlir_memref_to_llvm_free(void *ptr);
}

namespace mlir {
namespace onnx {
namespace runtime {

/// A buffer of compiled code the caller takes over (an output handed out):
/// from now on it is a plain malloc'd block that the caller frees with free().
void releaseBuffer(void *ptr);

/// Freed blocks kept for reuse, in bytes (for tests and diagnostics).
size_t cachedBytes();

} // namespace runtime
} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_LIB_RUNTIME_ALLOCATOR_H
