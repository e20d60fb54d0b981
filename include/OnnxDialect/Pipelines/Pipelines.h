//===- Pipelines.h - Named pass pipelines of OnnxDialect --------*- C++ -*-===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `onnx-lower-to-llvm`: an onnx module (as imported) to the LLVM dialect,
// ready for translation to LLVM IR. Stages, each a place where later work
// (tiling, packing, vectorization, threads) slots in:
//   1. onnx level: inline model-local functions, convert every op to the
//      newest opset, decompose function ops, infer shapes and fold;
//   2. convert-onnx-to-linalg, canonicalization, elementwise fusion;
//   3. CPU code generation on tensors (lib/Codegen/CPU): matmuls packed into
//      register tiles, tiling with threads, vectorization;
//   4. one-shot bufferization across functions (identity layouts), buffer
//      deallocation, then the vector ops lowered to 1-D vector code;
//   5. loops, then the LLVM dialect (math through LLVM intrinsics, libm or
//      outlined functions).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_PIPELINES_PIPELINES_H
#define ONNXDIALECT_PIPELINES_PIPELINES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Pass/Pass.h"
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
  PassOptions::Option<unsigned> numThreads{
      *this, "num-threads",
      llvm::cl::desc("More than 1: the outermost parallel loops become "
                     "OpenMP parallel loops (libomp)"),
      llvm::cl::init(1)};
  PassOptions::Option<bool> codegen{
      *this, "codegen",
      llvm::cl::desc("Run the CPU code-generation stage (packing, tiling, "
                     "vectorization); off: scalar loops"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> targetCPU{
      *this, "target-cpu",
      llvm::cl::desc("The CPU to generate code for (`host` or an LLVM CPU "
                     "name)"),
      llvm::cl::init("host")};
  PassOptions::Option<std::string> targetFeatures{
      *this, "target-features",
      llvm::cl::desc("LLVM target features added to the CPU's (+x,-y)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> runtimeAllocator{
      *this, "runtime-allocator",
      llvm::cl::desc("Buffers are allocated and freed through "
                     "_mlir_memref_to_llvm_alloc/_free (the runtime keeps "
                     "freed blocks for the next run) instead of malloc/free"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> memoryPlan{
      *this, "memory-plan",
      llvm::cl::desc("With codegen: place the entry function's statically "
                     "shaped buffers in one arena by liveness "
                     "(onnx-plan-memory); off: each buffer allocated on "
                     "its own and freed at the end"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> winograd{
      *this, "winograd",
      llvm::cl::desc("With codegen: 3x3 convolutions with unit strides "
                     "through Winograd's F(m, 3) along their rows, m = 4 or "
                     "2; 0: computed directly"),
      llvm::cl::init(4)};
  PassOptions::Option<bool> blockedLayout{
      *this, "blocked-layout",
      llvm::cl::desc("With codegen: convolutions, depthwise convolutions and "
                     "pools on activations in the blocked layout [N, C/c0, "
                     "H, W, c0], converted once between chains of them "
                     "(onnx-cpu-blocked-layout); off: each convolution reads "
                     "and writes [N, C, H, W] (onnx-cpu-pack-matmul)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> profile{
      *this, "profile",
      llvm::cl::desc("Bracket each kernel of the entry function with "
                     "onnxd_prof_begin/end calls, named after its ONNX nodes "
                     "(onnx-profile-kernels)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> deviceConfig{
      *this, "device-config",
      llvm::cl::desc("Execute this device configuration of the model (IR "
                     "11): its sharding specs and pipeline stages, for the "
                     "rank given by `rank` (docs/multi-device.md)"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> rank{
      *this, "rank",
      llvm::cl::desc("With device-config: the rank (MPI process) to compile "
                     "the program of"),
      llvm::cl::init(-1)};
  PassOptions::Option<int64_t> microBatches{
      *this, "micro-batches",
      llvm::cl::desc("With device-config: split the batch into this many "
                     "micro-batches that flow through the pipeline stages "
                     "one after another (onnx-pipeline-stages)"),
      llvm::cl::init(1)};
  PassOptions::Option<bool> runtimeChecks{
      *this, "runtime-checks",
      llvm::cl::desc("cf.assert calls onnxd_rt_fail (the runtime's error "
                     "path) instead of aborting"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> gpuMappingOnCPU{
      *this, "test-gpu-mapping-on-cpu",
      llvm::cl::desc("Test: map the loop nests onto blocks and threads as "
                     "onnx-lower-to-nvvm does (onnx-gpu-map-to-kernels, "
                     "onnx-gpu-device-memory), products and reductions with "
                     "the elementwise ops their kernels fuse as host loops "
                     "(test-on-cpu), then run them as loops on the CPU, to "
                     "check the mapping's arithmetic and the fusion"),
      llvm::cl::init(false)};
};

/// Adds the stages of onnx-lower-to-llvm to `pm` (anchored on a module).
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMOptions &options);

/// `onnx-lower-to-nvvm` (docs/gpu.md): the onnx level and linalg on tensors
/// as for the CPU, buffers, every linalg op a loop nest that becomes a
/// kernel where the device can run it (lib/Codegen/GPU), kernels lowered to
/// NVVM without libdevice and serialized as PTX into the host module, whose
/// code launches them through the mgpu* functions of the runtime.
struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  PassOptions::Option<bool> onnxLevel{
      *this, "onnx-level",
      llvm::cl::desc("Run the onnx-level passes (opset conversion, "
                     "decomposition, shape inference) first"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> chip{
      *this, "gpu-chip",
      llvm::cl::desc("The NVIDIA architecture of the kernels (sm_80, sm_89, "
                     "sm_90, ...)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "gpu-features",
      llvm::cl::desc("PTX features of the kernels (the PTX ISA version)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level of kernels"),
      llvm::cl::init(3)};
  PassOptions::Option<int64_t> blockSize{
      *this, "block-size",
      llvm::cl::desc("Threads per block of the elementwise kernels"),
      llvm::cl::init(256)};
  PassOptions::Option<bool> runtimeChecks{
      *this, "runtime-checks",
      llvm::cl::desc("cf.assert calls onnxd_rt_fail (the runtime's error "
                     "path) instead of aborting"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> contractionKernels{
      *this, "contraction-kernels",
      llvm::cl::desc("f32 matrix products as tiled shared-memory kernels "
                     "(onnx-gpu-contraction-kernels); false: one thread per "
                     "output element like other ops"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> reductionKernels{
      *this, "reduction-kernels",
      llvm::cl::desc("Row reductions with a warp per row "
                     "(onnx-gpu-reduction-kernels); false: one thread per "
                     "output element like other ops"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> tf32{
      *this, "tf32",
      llvm::cl::desc("f32 matrix products and convolutions on the tensor "
                     "cores with TF32 operands (10-bit mantissas; sm_80 or "
                     "newer), as PyTorch's allow_tf32 and ONNX Runtime's "
                     "use_tf32"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> emulate{
      *this, "emulate",
      llvm::cl::desc("compile the kernels for the host and launch them on "
                     "the runtime's GPU emulator instead of as PTX (a test "
                     "of the kernels without a GPU, onnx-gpu-emulate-kernels)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> contractionOptions{
      *this, "contraction-options",
      llvm::cl::desc("Options of onnx-gpu-contraction-kernels, as in its "
                     "braces (\"tile-k=16 prefetch=false\")"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> reductionOptions{
      *this, "reduction-options",
      llvm::cl::desc("Options of onnx-gpu-reduction-kernels, as in its "
                     "braces (\"chains=false\")"),
      llvm::cl::init("")};
  PassOptions::Option<bool> profile{
      *this, "profile",
      llvm::cl::desc("Name each kernel launch after its ONNX nodes for the "
                     "runtime's profile (onnx-profile-gpu-launches)"),
      llvm::cl::init(false)};
};

/// Adds the stages of onnx-lower-to-nvvm to `pm` (anchored on a module).
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMOptions &options);

/// The function the runtime calls: the one the module attribute `onnx.entry`
/// names, else the only public function with a body (null if several).
func::FuncOp findEntryFunction(ModuleOp module);

/// The bytes one element of a buffer of `element` takes as the LLVM lowering
/// lays it out (its size rounded up to its ABI alignment: 8 for an i48, 16
/// for an f80), or -1 for an element that is not an integer, index or float.
int64_t bufferElementBytes(Type element, const DataLayout &layout);

/// The passes of include/OnnxDialect/Pipelines/Passes.td:
/// create<Name>() and register<Name>() for each.
#define GEN_PASS_DECL
#include "OnnxDialect/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "OnnxDialect/Pipelines/Passes.h.inc"

/// Registers the named pipelines with the pass registry (onnx-opt).
void registerPipelines();

} // namespace onnx
} // namespace mlir

#endif // ONNXDIALECT_PIPELINES_PIPELINES_H
