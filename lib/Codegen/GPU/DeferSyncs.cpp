//===- DeferSyncs.cpp - Launch without waiting ----------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-gpu-defer-syncs (Passes.td): kernels and copies are queued on one
// stream, and the host waits for them only before it touches memory.
//
// The host's state at each point is whether work may be pending on the
// stream ("dirty"): a launch or an mgpuMemcpy/mgpuMemset makes it dirty, a
// synchronization clean; at a block's start it is dirty if it is at the end
// of any predecessor. An operation that may read or write memory, other
// than the runtime calls listed below, gets a synchronization before it
// where the state is dirty, and so does each return.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Codegen/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_GPUDEFERSYNCS
#include "OnnxDialect/Codegen/GPU/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// What an operation does to the host's view of the stream.
enum class Effect {
  None,    // touches no memory the stream's work uses
  Queue,   // queues work on the stream (a launch, a copy, a fill)
  Sync,    // waits for the stream
  Touches, // may read or write memory: needs the stream idle first
};

/// The runtime's functions (lib/Runtime/CUDA.cpp) by what they do. Buffers
/// come from and go back to a pool (stream-ordered for the kernels; the
/// host touches a reused block only after a synchronization); a global's
/// device copy is new memory; modules and events touch no buffer.
Effect calleeEffect(StringRef name) {
  return llvm::StringSwitch<Effect>(name)
      .Cases({"mgpuLaunchKernel", "mgpuMemcpy", "mgpuMemset32", "mgpuMemset16"},
             Effect::Queue)
      .Case("mgpuStreamSynchronize", Effect::Sync)
      .Cases({"mgpuStreamCreate", "mgpuStreamDestroy", "mgpuModuleLoad",
              "mgpuModuleLoadJIT", "mgpuModuleUnload", "mgpuModuleGetFunction",
              "mgpuEventCreate", "mgpuEventDestroy", "mgpuEventRecord",
              "mgpuStreamWaitEvent", "mgpuMemAlloc", "mgpuMemFree",
              "mgpuSetDefaultDevice", "onnxd_gpu_alloc",
              "onnxd_gpu_aligned_alloc", "onnxd_gpu_free", "onnxd_gpu_global",
              "onnxd_gpu_prof_kernel"},
             Effect::None)
      .Default(Effect::Touches);
}

Effect effectOf(Operation *op) {
  if (isa<gpu::LaunchFuncOp>(op))
    return Effect::Queue;
  if (auto call = dyn_cast<LLVM::CallOp>(op)) {
    std::optional<StringRef> callee = call.getCallee();
    return callee ? calleeEffect(*callee) : Effect::Touches;
  }
  if (isMemoryEffectFree(op))
    return Effect::None;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return Effect::Touches;
  // Allocating stack memory (llvm.alloca) touches nothing.
  if (effects.hasEffect<MemoryEffects::Read>() ||
      effects.hasEffect<MemoryEffects::Write>())
    return Effect::Touches;
  return Effect::None;
}

struct GPUDeferSyncs : public onnx::impl::GPUDeferSyncsBase<GPUDeferSyncs> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> functions;
    module.walk([&](LLVM::LLVMFuncOp f) {
      if (!f.isExternal() && !f->getParentOfType<gpu::GPUModuleOp>() &&
          f->walk([](Operation *op) {
             return effectOf(op) == Effect::Queue ? WalkResult::interrupt()
                                                  : WalkResult::advance();
           }).wasInterrupted())
        functions.push_back(f);
    });
    for (LLVM::LLVMFuncOp f : functions)
      if (failed(rewrite(module, f)))
        return signalPassFailure();
  }

  LogicalResult rewrite(ModuleOp module, LLVM::LLVMFuncOp f) {
    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto voidType = LLVM::LLVMVoidType::get(ctx);
    FailureOr<LLVM::LLVMFuncOp> create =
        LLVM::lookupOrCreateFn(b, module, "mgpuStreamCreate", {}, ptr);
    FailureOr<LLVM::LLVMFuncOp> sync = LLVM::lookupOrCreateFn(
        b, module, "mgpuStreamSynchronize", {ptr}, voidType);
    if (failed(create) || failed(sync))
      return f.emitError("onnx-gpu-defer-syncs: cannot declare the stream "
                         "functions");

    // The stream: made once at the entry (the runtime's stream of the
    // thread); every launch is queued on it.
    b.setInsertionPointToStart(&f.getBody().front());
    Value stream =
        LLVM::CallOp::create(b, f.getLoc(), *create, ValueRange()).getResult();
    f.walk([&](gpu::LaunchFuncOp launch) {
      if (!launch.getAsyncObject())
        launch.getAsyncObjectMutable().assign(stream);
    });
    // The synchronizations already there (after copies) go: they are put
    // back below where the host needs them.
    SmallVector<Operation *> old;
    f.walk([&](LLVM::CallOp call) {
      if (call.getCallee() == StringRef("mgpuStreamSynchronize"))
        old.push_back(call);
    });
    for (Operation *op : old)
      op->erase();

    // Dirty at the end of each block, to a fixed point.
    auto transfer = [](Block &block, bool dirty) {
      for (Operation &op : block) {
        switch (effectOf(&op)) {
        case Effect::Queue:
          dirty = true;
          break;
        case Effect::Sync:
        case Effect::Touches:
          dirty = false;
          break;
        case Effect::None:
          if (isa<LLVM::ReturnOp>(op))
            dirty = false;
          break;
        }
      }
      return dirty;
    };
    llvm::DenseMap<Block *, bool> atEnd;
    auto atStart = [&](Block &block) {
      bool dirty = false;
      for (Block *pred : block.getPredecessors())
        dirty |= atEnd.lookup(pred);
      return dirty;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (Block &block : f.getBody()) {
        bool end = transfer(block, atStart(block));
        auto [it, inserted] = atEnd.try_emplace(&block, end);
        if (!inserted && it->second != end) {
          it->second = end;
          changed = true;
        } else if (inserted && end) {
          changed = true;
        }
      }
    }
    // A synchronization before each operation that needs one.
    for (Block &block : f.getBody()) {
      bool dirty = atStart(block);
      for (Operation &op : llvm::make_early_inc_range(block)) {
        Effect e = effectOf(&op);
        if (dirty && (e == Effect::Touches || isa<LLVM::ReturnOp>(op))) {
          b.setInsertionPoint(&op);
          LLVM::CallOp::create(b, op.getLoc(), *sync, ValueRange{stream});
          dirty = false;
        }
        if (e == Effect::Queue)
          dirty = true;
        else if (e == Effect::Sync)
          dirty = false;
      }
    }
    return success();
  }
};

} // namespace
