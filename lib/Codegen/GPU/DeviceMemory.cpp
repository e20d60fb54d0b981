//===- DeviceMemory.cpp - Buffers that host and kernels both reach --------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-gpu-device-memory (memref level) and onnx-gpu-runtime-calls (LLVM
// level), the two halves of the memory policy of docs/gpu.md: every buffer
// of the compiled code is memory that host and device share, served by the
// runtime (lib/Runtime/CUDA.cpp); the caller's inputs are copied into such
// buffers; globals get a device copy made once.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Codegen/GPU/Passes.h"
#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_GPUDEVICEMEMORY
#define GEN_PASS_DEF_GPURUNTIMECALLS
#include "OnnxDialect/Codegen/GPU/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// The buffer a view is a view of.
static Value viewSource(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

struct GPUDeviceMemory
    : public onnx::impl::GPUDeviceMemoryBase<GPUDeviceMemory> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (func::FuncOp entry = findEntryFunction(module))
      if (!entry.isExternal())
        copyInputs(entry);
    mergeIdenticalKernels(module);
    nameKernelsAfterModules(module);
    // The globals host code reads (kernels get them as arguments).
    llvm::SetVector<Attribute> names;
    module.walk(
        [&](memref::GetGlobalOp op) { names.insert(op.getNameAttr()); });
    module->setAttr(kGPUGlobalsAttr,
                    ArrayAttr::get(module.getContext(), names.getArrayRef()));
  }

  /// Outlining makes one module per loop nest, and a model repeats its
  /// nests (the layers of a transformer): the launches of identical kernels
  /// share one module, so that the driver compiles each kernel once.
  void mergeIdenticalKernels(ModuleOp module) {
    llvm::StringMap<gpu::GPUFuncOp> first;  // text of the kernel -> kernel
    llvm::StringMap<gpu::GPUFuncOp> merged; // module name -> kept kernel
    SmallVector<gpu::GPUModuleOp> erased;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      auto ops = llvm::to_vector(
          llvm::make_pointer_range(gpuModule.getBody()->without_terminator()));
      auto kernel = ops.size() == 1 ? dyn_cast<gpu::GPUFuncOp>(ops.front())
                                    : gpu::GPUFuncOp();
      if (!kernel || !kernel.isKernel())
        continue;
      // The kernel's text without its name (and without locations).
      std::string text;
      llvm::raw_string_ostream os(text);
      StringAttr name = kernel.getNameAttr();
      kernel.setName("kernel");
      kernel->print(os, OpPrintingFlags().useLocalScope());
      kernel.setName(name);
      auto [it, inserted] = first.try_emplace(text, kernel);
      if (inserted)
        continue;
      merged[gpuModule.getName()] = it->second;
      erased.push_back(gpuModule);
    }
    if (merged.empty())
      return;
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto it = merged.find(launch.getKernelModuleName().getValue());
      if (it == merged.end())
        return;
      gpu::GPUFuncOp kept = it->second;
      auto keptModule = kept->getParentOfType<gpu::GPUModuleOp>();
      launch.setKernelAttr(
          SymbolRefAttr::get(keptModule.getNameAttr(),
                             {FlatSymbolRefAttr::get(kept.getNameAttr())}));
    });
    for (gpu::GPUModuleOp gpuModule : erased)
      gpuModule.erase();
  }

  /// Outlining names every kernel after its function (`f_kernel` in the
  /// modules `f_kernel`, `f_kernel_0`, ...); the runtime's messages and
  /// kernel times need a name per kernel: the module's, unique.
  void nameKernelsAfterModules(ModuleOp module) {
    llvm::StringMap<StringAttr> renamed; // module name -> kernel's old name
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>()) {
      auto kernels = llvm::to_vector(gpuModule.getOps<gpu::GPUFuncOp>());
      if (kernels.size() != 1 || !kernels.front().isKernel() ||
          kernels.front().getName() == gpuModule.getName())
        continue;
      renamed[gpuModule.getName()] = kernels.front().getNameAttr();
      kernels.front().setName(gpuModule.getName());
    }
    module.walk([&](gpu::LaunchFuncOp launch) {
      StringRef moduleName = launch.getKernelModuleName().getValue();
      auto it = renamed.find(moduleName);
      if (it != renamed.end() && launch.getKernelName() == it->second)
        launch.setKernelAttr(SymbolRefAttr::get(
            launch.getKernelModuleName(),
            {FlatSymbolRefAttr::get(launch.getContext(), moduleName)}));
    });
  }

  /// Each memref argument is copied into a buffer of the compiled code's.
  void copyInputs(func::FuncOp entry) {
    OpBuilder b(entry.getBody());
    Block &body = entry.getBody().front();
    for (BlockArgument arg : body.getArguments()) {
      auto type = dyn_cast<MemRefType>(arg.getType());
      if (!type || arg.use_empty() || !isDeviceType(type))
        continue;
      Location loc = arg.getLoc();
      SmallVector<Value> dims;
      for (int64_t i = 0; i < type.getRank(); ++i)
        if (type.isDynamicDim(i))
          dims.push_back(memref::DimOp::create(b, loc, arg, i));
      auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
      Value copy = memref::AllocOp::create(b, loc, bufferType, dims,
                                           b.getI64IntegerAttr(64));
      Value use = copy;
      if (bufferType != type)
        use = memref::CastOp::create(b, loc, type, copy);
      // A copy by the driver (the buffer's pages may lie on the device: the
      // host writing them would fault each one back); memref.copy where the
      // argument is not a plain row-major buffer.
      Operation *copyOp;
      if (driverCopies && type.getLayout().isIdentity()) {
        auto tokenType = b.getType<gpu::AsyncTokenType>();
        Value start = gpu::WaitOp::create(b, loc, tokenType, ValueRange())
                          .getAsyncToken();
        Value done = gpu::MemcpyOp::create(b, loc, tokenType, ValueRange{start},
                                           copy, arg)
                         .getAsyncToken();
        copyOp = gpu::WaitOp::create(b, loc, Type(), ValueRange{done});
      } else {
        copyOp = memref::CopyOp::create(b, loc, arg, copy);
      }
      llvm::SmallPtrSet<Operation *, 8> keep{copyOp};
      if (auto wait = dyn_cast<gpu::WaitOp>(copyOp))
        keep.insert(wait.getAsyncDependencies().front().getDefiningOp());
      for (Value dim : dims)
        keep.insert(dim.getDefiningOp());
      arg.replaceAllUsesExcept(use, keep);
      // Freed at each return that does not hand it (or a view) out.
      entry.walk([&](func::ReturnOp ret) {
        if (llvm::any_of(ret.getOperands(),
                         [&](Value v) { return viewSource(v) == copy; }))
          return;
        OpBuilder rb(ret);
        memref::DeallocOp::create(rb, loc, copy);
      });
    }
  }

  static bool isDeviceType(MemRefType type) {
    Type element = type.getElementType();
    return !type.getMemorySpace() &&
           (element.isIntOrIndexOrFloat() && !isa<IndexType>(element));
  }
};

/// The runtime functions of lib/Runtime/CUDA.cpp that replace the generic
/// allocation functions of finalize-memref-to-llvm.
static constexpr std::pair<const char *, const char *> kAllocRenames[] = {
    {"_mlir_memref_to_llvm_alloc", "onnxd_gpu_alloc"},
    {"_mlir_memref_to_llvm_aligned_alloc", "onnxd_gpu_aligned_alloc"},
    {"_mlir_memref_to_llvm_free", "onnxd_gpu_free"},
};

struct GPURuntimeCalls
    : public onnx::impl::GPURuntimeCallsBase<GPURuntimeCalls> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    SymbolTable symbols(module);
    for (auto [from, to] : kAllocRenames) {
      auto fn = symbols.lookup<LLVM::LLVMFuncOp>(from);
      if (!fn)
        continue;
      if (failed(symbols.rename(fn, StringAttr::get(ctx, to))))
        return signalPassFailure();
    }
    auto names = module->getAttrOfType<ArrayAttr>(kGPUGlobalsAttr);
    if (!names)
      return;
    llvm::StringSet<> device;
    for (Attribute name : names)
      device.insert(cast<FlatSymbolRefAttr>(name).getValue());
    module->removeAttr(kGPUGlobalsAttr);

    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    OpBuilder b(ctx);
    b.setInsertionPointToEnd(module.getBody());
    FailureOr<LLVM::LLVMFuncOp> getGlobal =
        LLVM::lookupOrCreateFn(b, module, "onnxd_gpu_global", {ptr, i64}, ptr);
    if (failed(getGlobal))
      return signalPassFailure();
    DataLayout layout(module);
    // Host functions only: kernels were outlined into gpu.modules.
    module.walk([&](LLVM::AddressOfOp op) {
      if (!device.contains(op.getGlobalName()) ||
          !op->getParentOfType<LLVM::LLVMFuncOp>() ||
          op->getParentOfType<gpu::GPUModuleOp>())
        return;
      auto global = symbols.lookup<LLVM::GlobalOp>(op.getGlobalName());
      if (!global)
        return;
      uint64_t bytes = layout.getTypeSize(global.getGlobalType());
      b.setInsertionPointAfter(op);
      Value size = LLVM::ConstantOp::create(b, op.getLoc(), i64,
                                            b.getI64IntegerAttr(bytes));
      auto call = LLVM::CallOp::create(b, op.getLoc(), *getGlobal,
                                       ValueRange{op.getResult(), size});
      op.getResult().replaceAllUsesExcept(call.getResult(), call);
    });
  }
};

} // namespace
