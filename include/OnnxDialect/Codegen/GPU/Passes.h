//===- Passes.h - The GPU code-generation stage -----------------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Declarations and registration of the passes of Passes.td, and the test of
// what a kernel may contain that onnx-gpu-map-to-kernels and
// onnx-gpu-to-nvvm share.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_CODEGEN_GPU_PASSES_H
#define ONNXDIALECT_CODEGEN_GPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir {
namespace onnx {

/// The module attribute onnx-gpu-device-memory writes and
/// onnx-gpu-runtime-calls reads: the globals kernels may read.
inline constexpr const char *kGPUGlobalsAttr = "onnx.gpu_globals";

/// Whether `op` (with what it holds) can run inside a kernel that
/// onnx-gpu-to-nvvm lowers; if not, `why` says what stops it.
bool canRunOnDevice(Operation *op, std::string &why);

/// Marks the original op that a product or reduction kernel keeps for the
/// grids it cannot launch (in the else of their scf.if): the other kernel
/// passes leave it as it is.
inline constexpr const char *kGPUFallbackAttr = "onnx.gpu_fallback";

/// Whether kernels compute with `type`: integers up to 64 bits, index, the
/// floats NVPTX has registers for, and buffers of those with no memory
/// space.
bool isKernelType(Type type);

/// Whether `op` itself (an op of a linalg body, say) can be cloned into a
/// kernel: canRunOnDevice's test of each op it holds, applied to `op`.
bool canRunInKernel(Operation *op);

#define GEN_PASS_DECL
#include "OnnxDialect/Codegen/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "OnnxDialect/Codegen/GPU/Passes.h.inc"

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_CODEGEN_GPU_PASSES_H
