//===- Pipelines.cpp - Named pass pipelines of OnnxDialect ----------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The stages of onnx-lower-to-llvm (Pipelines.h), written as upstream pass
// pipeline text so that each step reads as what `onnx-opt` would run.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Pipelines/Pipelines.h"

#include "OnnxDialect/Codegen/CPU/Passes.h"

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

/// The canonicalizer without the pattern that breaks Scan output buffers
/// (kDisabledCanonicalization says why).
static std::string canonicalizeText() {
  return std::string("canonicalize{disable-patterns=\"") +
         kDisabledCanonicalization + "\"}";
}

/// Stage 1: the onnx-level passes, with the multi-device passes of a device
/// configuration (empty `distribute`: none) between them.
static void addONNXLevel(OpPassManager &pm, bool onnxLevel,
                         const std::string &distribute) {
  if (onnxLevel)
    // Decomposition needs ranks and element types: infer them first.
    addPipeline(pm, "onnx-bind-input-defaults,onnx-inline-functions,"
                    "onnx-convert-opset,onnx-infer-shapes," +
                        distribute + "onnx-decompose,onnx-infer-shapes");
  else if (!distribute.empty())
    addPipeline(pm, distribute.substr(0, distribute.size() - 1));
}

/// Stage 4: one-shot bufferization across functions with identity layouts,
/// then the deallocations. First every dynamic size is said in terms of the
/// function's arguments (dims of op and loop results resolved): the
/// bufferization analysis compares slices through ValueBounds, whose cost
/// grows with the chain of ops behind a size (a 2-layer transformer decoder
/// with dynamic lengths spent minutes there).
static void addBufferization(OpPassManager &pm) {
  const std::string canonicalize = canonicalizeText();
  addPipeline(pm,
              "func.func(scf-for-loop-canonicalization,"
              "resolve-ranked-shaped-type-result-dims)," +
                  canonicalize +
                  ",cse,onnx-prepare-bufferization,"
                  "eliminate-empty-tensors,"
                  "one-shot-bufferize{bufferize-function-boundaries "
                  "allow-return-allocs-from-loops "
                  "function-boundary-type-conversion=identity-layout-map}," +
                  canonicalize + ",cse," + canonicalize +
                  ",buffer-deallocation-pipeline,"
                  "convert-bufferization-to-memref,canonicalize");
}

/// Stage 5's conversion of host code to the LLVM dialect: loops, math
/// (intrinsics, libm or outlined functions), bf16 arithmetic in f32 and its
/// conversions as integer arithmetic (no libcall), memrefs.
static void addHostToLLVM(OpPassManager &pm, bool runtimeAllocator) {
  std::string memrefToLLVM = runtimeAllocator
                                 ? "finalize-memref-to-llvm{use-generic-"
                                   "functions=true}"
                                 : "finalize-memref-to-llvm";
  addPipeline(
      pm, "lower-affine,convert-scf-to-cf,math-extend-to-supported-types,"
          "arith-emulate-unsupported-floats{source-types=bf16 target-type=f32},"
          "onnx-expand-bf16-casts,convert-math-to-funcs,convert-vector-to-llvm,"
          "expand-strided-metadata,lower-affine," +
              memrefToLLVM +
              ",func.func(convert-math-to-llvm),"
              "convert-math-to-libm,convert-to-llvm,"
              "reconcile-unrealized-casts");
}

/// ONNX to linalg on tensors. Integer ranges (a dim is not negative) then
/// fold the run-time checks and selects of Reshape's 0 and -1 on dynamic
/// shapes, which would otherwise stand between ops that the code generation
/// fuses (a product and the transpose into heads after it).
static void addONNXToLinalg(OpPassManager &pm,
                            const std::string &canonicalize) {
  addPipeline(pm, "convert-onnx-to-linalg,int-range-optimizations," +
                      canonicalize + ",cse," + canonicalize);
}

void mlir::onnx::buildLowerToLLVMPipeline(OpPassManager &pm,
                                          const LowerToLLVMOptions &options) {
  if (options.profile)
    pm.addPass(createProfileRecordNodesPass());
  // 1. onnx level.
  // A device configuration is read after opset conversion and inference
  // (value names and ranked types) and before decomposition, which keeps
  // the shard annotations between the nodes.
  std::string distribute;
  if (!options.deviceConfig.empty()) {
    std::string args = "{device-config=" + options.deviceConfig.getValue() +
                       " rank=" + std::to_string(options.rank) + "}";
    std::string stageArgs =
        args.substr(0, args.size() - 1) +
        " micro-batches=" + std::to_string(options.microBatches) + "}";
    distribute = "onnx-pipeline-stages" + stageArgs + ",onnx-shard-annotate" +
                 args + ",";
  }
  addONNXLevel(pm, options.onnxLevel, distribute);
  // 2. linalg on tensors.
  const std::string canonicalize = canonicalizeText();
  std::string target = "target-cpu=" + options.targetCPU.getValue() +
                       " target-features=\"" +
                       options.targetFeatures.getValue() + "\"";
  addONNXToLinalg(pm, canonicalize);
  // The program of one rank: sharded ops on their local shards, collectives
  // as MPI calls (lib/Distribute).
  if (!options.deviceConfig.empty())
    addPipeline(pm, "onnx-shard-partition");
  // 3. CPU code generation on tensors. Matmuls and convolutions are packed
  // before elementwise fusion, which would otherwise fold the reshapes around
  // them into generics that are no longer recognizable as matmuls.
  if (options.codegen && options.blockedLayout)
    addPipeline(pm, "func.func(onnx-cpu-blocked-layout{" + target +
                        " winograd=" + std::to_string(options.winograd) +
                        "})," + canonicalize);
  if (options.codegen)
    addPipeline(pm, "func.func(onnx-cpu-pack-matmul{" + target +
                        " num-threads=" + std::to_string(options.numThreads) +
                        " winograd=" + std::to_string(options.winograd) +
                        "})," + canonicalize);
  pm.addNestedPass<func::FuncOp>(createFuseElementwisePass());
  addPipeline(pm, canonicalize);
  if (options.codegen)
    addPipeline(pm, "func.func(onnx-cpu-tile-and-vectorize{" + target +
                        " num-threads=" + std::to_string(options.numThreads) +
                        "},lower-vector-mask)," + canonicalize + ",cse");
  // 4. buffers, then the vector ops on them.
  addBufferization(pm);
  if (options.codegen)
    addPipeline(pm, "func.func(onnx-cpu-lower-vectors{" + target +
                        " num-threads=" + std::to_string(options.numThreads) +
                        "})");
  // The memory plan: statically shaped outputs written into the caller's
  // buffers, the other buffers of the entry function placed in one arena
  // by liveness (deallocation left them all to the end of the function).
  if (options.codegen && options.memoryPlan && !options.gpuMappingOnCPU) {
    pm.addPass(createOutputParamsPass());
    pm.addPass(createPlanMemoryPass());
  }
  if (options.profile)
    pm.addPass(createProfileKernelsPass());
  // 5. loops (parallel ones on OpenMP threads) and LLVM.
  pm.addPass(createStridedCopiesToLinalgPass());
  pm.addPass(createExpandShapesToReinterpretCastsPass());
  pm.addPass(createFlattenConstantGlobalsPass());
  pm.addPass(createMarkEntryCInterfacePass());
  if (options.runtimeChecks) {
    pm.addPass(createCheckBufferSizesPass());
    pm.addPass(createLowerAssertsToRuntimePass());
  }
  // A function a kernel, for LLVM to compile apart.
  if (!options.gpuMappingOnCPU)
    pm.addPass(createOutlineKernelsPass());
  if (options.numThreads > 1) {
    addPipeline(pm, "scf-forall-to-parallel,"
                    "func.func(convert-linalg-to-parallel-loops)");
    pm.addPass(createSequentializeFailingLoopsPass());
    addPipeline(pm, "convert-scf-to-openmp");
    pm.addPass(createInlineAllocaScopesPass());
  } else if (options.gpuMappingOnCPU) {
    // The product and reduction kernels' computation (with the elementwise
    // ops they fuse) as host loops, the rest mapped as for the GPU.
    addPipeline(pm, "scf-forall-to-parallel,"
                    "func.func(onnx-gpu-contraction-kernels{test-on-cpu=true},"
                    "onnx-gpu-reduction-kernels{test-on-cpu=true},"
                    "convert-linalg-to-parallel-loops,"
                    "onnx-gpu-map-to-kernels),"
                    "onnx-gpu-device-memory{driver-copies=false}");
  } else {
    addPipeline(pm, "scf-forall-to-for,func.func(convert-linalg-to-loops)");
  }
  addHostToLLVM(pm, options.runtimeAllocator);
  if (!options.deviceConfig.empty())
    addPipeline(pm, "onnx-fix-openmpi-symbols");
}

void mlir::onnx::buildLowerToNVVMPipeline(OpPassManager &pm,
                                          const LowerToNVVMOptions &options) {
  if (options.profile)
    pm.addPass(createProfileRecordNodesPass());
  // 1.-2. onnx level and linalg on tensors, as for the CPU.
  addONNXLevel(pm, options.onnxLevel, "");
  const std::string canonicalize = canonicalizeText();
  addONNXToLinalg(pm, canonicalize);
  pm.addNestedPass<func::FuncOp>(createFuseElementwisePass());
  addPipeline(pm, canonicalize);
  // 3. buffers.
  addBufferization(pm);
  pm.addPass(createStridedCopiesToLinalgPass({/*all=*/true}));
  pm.addPass(createExpandShapesToReinterpretCastsPass());
  pm.addPass(createFlattenConstantGlobalsPass());
  pm.addPass(createMarkEntryCInterfacePass());
  if (options.runtimeChecks)
    pm.addPass(createLowerAssertsToRuntimePass());
  // 4. kernels: each linalg op one loop nest, mapped onto blocks and
  // threads where the device can run it, outlined into gpu.modules whose
  // code is lowered to NVVM here (no libdevice) and attached to the chip.
  addPipeline(pm, std::string("scf-forall-to-parallel,func.func(") +
                      (options.contractionKernels
                           ? "onnx-gpu-contraction-kernels{chip=" +
                                 options.chip.getValue() + " " +
                                 std::string(options.tf32 ? "tf32=true " : "") +
                                 options.contractionOptions.getValue() + "},"
                           : std::string()) +
                      (options.reductionKernels
                           ? "onnx-gpu-reduction-kernels{" +
                                 options.reductionOptions.getValue() + "},"
                           : std::string()) +
                      "convert-linalg-to-parallel-loops,"
                      "onnx-gpu-map-to-kernels{block-size=" +
                      std::to_string(options.blockSize) +
                      "}),convert-parallel-loops-to-gpu,"
                      "func.func(gpu-launch-sink-index-computations),"
                      "gpu-kernel-outlining," +
                      (options.profile ? "onnx-profile-gpu-launches," : "") +
                      "onnx-gpu-device-memory,"
                      "gpu.module(math-extend-to-supported-types,"
                      "onnx-gpu-to-nvvm,canonicalize,cse,"
                      "reconcile-unrealized-casts),"
                      "nvvm-attach-target{chip=" +
                      options.chip.getValue() +
                      " features=" + options.features.getValue() +
                      " O=" + std::to_string(options.optLevel) + "}");
  // 5. the host: loops left on it, LLVM, launches as runtime calls,
  // allocations and globals through the GPU runtime, the kernels as PTX.
  addPipeline(pm, "func.func(convert-linalg-to-loops)");
  addHostToLLVM(pm, /*runtimeAllocator=*/true);
  addPipeline(pm, std::string("gpu-to-llvm,reconcile-unrealized-casts,"
                              "onnx-gpu-runtime-calls,onnx-gpu-defer-syncs,") +
                      (options.emulate ? "onnx-gpu-emulate-kernels"
                                       : "gpu-module-to-binary{format=isa}"));
}

void mlir::onnx::registerPipelines() {
  registerONNXPipelinesPasses();
  PassPipelineRegistration<LowerToLLVMOptions>(
      "onnx-lower-to-llvm",
      "Lower an onnx module through linalg and buffers to the LLVM dialect",
      buildLowerToLLVMPipeline);
  PassPipelineRegistration<LowerToNVVMOptions>(
      "onnx-lower-to-nvvm",
      "Lower an onnx module through linalg and buffers to host code in the "
      "LLVM dialect that launches kernels compiled to PTX (docs/gpu.md)",
      buildLowerToNVVMPipeline);
}
