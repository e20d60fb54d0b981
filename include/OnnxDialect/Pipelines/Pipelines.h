//===- Pipelines.h - Named pass pipelines of OnnxDialect --------*- C++ -*-===//
//
// `onnx-lower-to-llvm`: an onnx module (as imported) to the LLVM dialect,
// ready for translation to LLVM IR. Stages, each a place where later work
// (tiling, packing, vectorization, threads) slots in:
//   1. onnx level: inline model-local functions, convert every op to the
//      newest opset, decompose function ops, infer shapes and fold;
//   2. convert-onnx-to-linalg, canonicalization, elementwise fusion;
//   3. one-shot bufferization across functions (identity layouts), buffer
//      deallocation;
//   4. loops, then the LLVM dialect (math through LLVM intrinsics, libm or
//      outlined functions).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_PIPELINES_PIPELINES_H
#define ONNXDIALECT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace onnx {

struct LowerToLLVMOptions : public PassPipelineOptions<LowerToLLVMOptions> {
  PassOptions::Option<bool> onnxLevel{
      *this, "onnx-level",
      llvm::cl::desc("Run the onnx-level passes (opset conversion, "
                     "decomposition, shape inference) first"),
      llvm::cl::init(true)};
};

/// Adds the stages of onnx-lower-to-llvm to `pm` (anchored on a module).
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMOptions &options);

/// Registers the named pipelines with the pass registry (onnx-opt).
void registerPipelines();

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_PIPELINES_PIPELINES_H
