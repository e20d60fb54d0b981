//===- Pipelines.cpp - Named pass pipelines of OnnxDialect ----------------===//
//
// The stages of onnx-lower-to-llvm (Pipelines.h), written as upstream pass
// pipeline text so that each step reads as what `onnx-opt` would run.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::onnx;

/// Adds the passes of a textual pipeline (no anchor) to `pm`; the texts
/// below are fixed, so a parse error is a bug of this file.
static void addPipeline(OpPassManager &pm, StringRef text) {
  std::string error;
  llvm::raw_string_ostream os(error);
  if (failed(parsePassPipeline(text, pm, os)))
    llvm::report_fatal_error(llvm::Twine("bad pipeline text: ") + error);
}

void mlir::onnx::buildLowerToLLVMPipeline(OpPassManager &pm,
                                          const LowerToLLVMOptions &options) {
  // 1. onnx level.
  if (options.onnxLevel)
    // Decomposition needs ranks and element types: infer them first.
    addPipeline(pm, "onnx-bind-input-defaults,onnx-inline-functions,"
                    "onnx-convert-opset,"
                    "onnx-infer-shapes,onnx-decompose,onnx-infer-shapes");
  // 2. linalg on tensors. The canonicalizer must not fold a tensor.cast of
  // an scf.for init into the loop's iter_arg type: that assumes the carried
  // value keeps the init's shape, but a Scan output buffer starts as a
  // placeholder (0 along the dims its first value decides) and is replaced
  // in the first iteration.
  const std::string canonicalize = "canonicalize{disable-patterns=\"(anonymous "
                                   "namespace)::ForOpTensorCastFolder\"}";
  addPipeline(pm, "convert-onnx-to-linalg," + canonicalize +
                      ",cse,func.func(linalg-fuse-elementwise-ops)," +
                      canonicalize);
  // 3. buffers.
  addPipeline(pm, "eliminate-empty-tensors,"
                  "one-shot-bufferize{bufferize-function-boundaries "
                  "allow-return-allocs-from-loops "
                  "function-boundary-type-conversion=identity-layout-map}," +
                      canonicalize +
                      ",buffer-deallocation-pipeline,"
                      "convert-bufferization-to-memref,canonicalize");
  // 4. loops (parallel ones on OpenMP threads) and LLVM.
  pm.addPass(createStridedCopiesToLinalgPass());
  pm.addPass(createMarkEntryCInterfacePass());
  if (options.runtimeChecks)
    pm.addPass(createLowerAssertsToRuntimePass());
  if (options.numThreads > 1) {
    addPipeline(pm, "func.func(convert-linalg-to-parallel-loops)");
    pm.addPass(createSequentializeFailingLoopsPass());
    addPipeline(pm, "convert-scf-to-openmp");
    pm.addPass(createInlineAllocaScopesPass());
  } else {
    addPipeline(pm, "func.func(convert-linalg-to-loops)");
  }
  addPipeline(pm,
              "lower-affine,convert-scf-to-cf,math-extend-to-supported-types,"
              "convert-math-to-funcs,expand-strided-metadata,lower-affine,"
              "finalize-memref-to-llvm,func.func(convert-math-to-llvm),"
              "convert-math-to-libm,convert-to-llvm,"
              "reconcile-unrealized-casts");
}

void mlir::onnx::registerPipelines() {
  registerPass(createMarkEntryCInterfacePass);
  registerPass(createLowerAssertsToRuntimePass);
  registerPass(createSequentializeFailingLoopsPass);
  registerPass(createStridedCopiesToLinalgPass);
  registerPass(createInlineAllocaScopesPass);
  PassPipelineRegistration<LowerToLLVMOptions>(
      "onnx-lower-to-llvm",
      "Lower an onnx module through linalg and buffers to the LLVM dialect",
      buildLowerToLLVMPipeline);
}
