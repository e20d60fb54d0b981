//===- InitAllDialects.h - Every dialect the tools load ---------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one place that says which dialects onnx-opt and onnx-translate know: the
// onnx dialect, and every upstream dialect with its interface extensions
// (bufferization models, inliner interfaces, ...) for the lowerings.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_INITALLDIALECTS_H
#define ONNXDIALECT_INITALLDIALECTS_H

#include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.h"
#include "OnnxDialect/Distribute/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

namespace mlir {
namespace onnx {

inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<ONNXDialect>();
  // The first registration of an interface wins: the project's sharding of
  // constants goes before upstream's (registerAllDialects adds those), its
  // replicating fallback after all of upstream's.
  registerShardingModelsFirst(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary serializes kernels through the NVVM target
  // attribute and the translations to LLVM IR (onnx-lower-to-nvvm).
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerAllToLLVMIRTranslations(registry);
  registerShardingModelsLast(registry);
}

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_INITALLDIALECTS_H
