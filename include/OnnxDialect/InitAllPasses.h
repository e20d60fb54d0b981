//===- InitAllPasses.h - Every pass the project's tools know ----*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one place that registers passes for onnx-opt: every upstream pass and
// pipeline (the lowerings are built from them) and the project's own
// passes, conversions and named pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_INITALLPASSES_H
#define ONNXDIALECT_INITALLPASSES_H

#include "OnnxDialect/Codegen/CPU/Passes.h"
#include "OnnxDialect/Codegen/GPU/Passes.h"
#include "OnnxDialect/Conversion/Passes.h"
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h"
#include "OnnxDialect/Distribute/Passes.h"
#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/InitAllPasses.h"

namespace mlir {
namespace onnx {

inline void registerAllPasses() {
  mlir::registerAllPasses();
  registerONNXTransformsPasses();
  registerONNXConversionPasses();
  registerONNXCPUCodegenPasses();
  registerONNXGPUCodegenPasses();
  registerONNXDistributePasses();
  registerPipelines();
}

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_INITALLPASSES_H
