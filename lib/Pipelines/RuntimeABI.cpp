//===- RuntimeABI.cpp - What the runtime needs of the lowered code --------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The entry function gets MLIR's C interface (`_mlir_ciface_<entry>`, the
// runtime's calling convention; docs/runtime.md), and failed run-time checks
// return to the runtime.
//
// The conversions check what only a run can tell (dynamic dims that must
// broadcast, indices in range) with `cf.assert %ok, "message"`. Upstream
// lowers it to puts + abort, which would end the caller's process. Here each
// assert becomes
//
//   scf.if (not %ok) { func.call @onnxd_rt_fail(<message>) }
//
// and onnxd_rt_fail (lib/Runtime/OnnxRuntime.cpp) ends the current onnxd_run
// with ONNXD_RUNTIME_ERROR and the message. It does not return, so the code
// after the check never sees the bad values.
//
// A parallel loop that contains such a check is kept sequential when loops
// become OpenMP (onnx-sequentialize-failing-loops): the failure unwinds to
// the thread that called onnxd_run, which a worker thread cannot do.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_MARKENTRYCINTERFACEPASS
#define GEN_PASS_DEF_LOWERASSERTSTORUNTIMEPASS
#define GEN_PASS_DEF_SEQUENTIALIZEFAILINGLOOPSPASS
#include "OnnxDialect/Pipelines/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;

static constexpr llvm::StringLiteral kFailFunction = "onnxd_rt_fail";

func::FuncOp mlir::onnx::findEntryFunction(ModuleOp module) {
  if (auto name = module->getAttrOfType<FlatSymbolRefAttr>("onnx.entry"))
    return module.lookupSymbol<func::FuncOp>(name.getValue());
  func::FuncOp entry;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    if (entry)
      return nullptr; // several public functions: no entry
    entry = func;
  }
  return entry;
}

namespace {
struct MarkEntryPass
    : public mlir::onnx::impl::MarkEntryCInterfacePassBase<MarkEntryPass> {

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp entry = onnx::findEntryFunction(module);
    if (entry && !entry.isExternal())
      entry->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                     UnitAttr::get(module.getContext()));
  }
};

struct LowerAssertsPass
    : public mlir::onnx::impl::LowerAssertsToRuntimePassBase<LowerAssertsPass> {

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<cf::AssertOp> asserts;
    module.walk([&](cf::AssertOp op) { asserts.push_back(op); });
    if (asserts.empty())
      return;
    MLIRContext *ctx = module.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto fail = module.lookupSymbol<func::FuncOp>(kFailFunction);
    if (!fail) {
      fail = func::FuncOp::create(builder, module.getLoc(), kFailFunction,
                                  builder.getFunctionType({ptrType}, {}));
      fail.setPrivate();
    }
    llvm::StringMap<LLVM::GlobalOp> messages;
    for (cf::AssertOp op : asserts) {
      std::string text = op.getMsg().str();
      LLVM::GlobalOp &global = messages[text];
      if (!global) {
        builder.setInsertionPointToStart(module.getBody());
        auto type =
            LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), text.size() + 1);
        std::string name =
            "onnxd_assert_msg_" + std::to_string(messages.size());
        global = LLVM::GlobalOp::create(
            builder, op.getLoc(), type, /*isConstant=*/true,
            LLVM::Linkage::Internal, name,
            builder.getStringAttr(text + std::string(1, '\0')));
      }
      builder.setInsertionPoint(op);
      Location loc = op.getLoc();
      Value trueValue = arith::ConstantIntOp::create(builder, loc, 1, 1);
      Value bad = arith::XOrIOp::create(builder, loc, op.getArg(), trueValue);
      auto ifOp = scf::IfOp::create(builder, loc, bad, /*withElse=*/false);
      builder.setInsertionPointToStart(ifOp.thenBlock());
      Value address = LLVM::AddressOfOp::create(builder, loc, global);
      func::CallOp::create(builder, loc, fail, ValueRange{address});
      op.erase();
    }
  }
};

struct SequentializePass
    : public mlir::onnx::impl::SequentializeFailingLoopsPassBase<
          SequentializePass> {

  /// Calls onnxd_rt_fail, or another runtime function (onnxd_*: string and
  /// sequence functions use the calling thread's run arena and may fail).
  static bool mayFail(Operation *op) {
    return op
        ->walk([](func::CallOp call) {
          return call.getCallee() == kFailFunction ||
                         call.getCallee().starts_with("onnxd_")
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  }

  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation().walk<WalkOrder::PreOrder>([&](scf::ParallelOp op) {
      if (op.getNumResults() == 0 && mayFail(op)) {
        loops.push_back(op);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    for (scf::ParallelOp op : loops) {
      OpBuilder builder(op);
      Block *body = op.getBody();
      scf::buildLoopNest(builder, op.getLoc(), op.getLowerBound(),
                         op.getUpperBound(), op.getStep(),
                         [&](OpBuilder &nested, Location, ValueRange ivs) {
                           IRMapping mapping;
                           mapping.map(body->getArguments(), ivs);
                           for (Operation &inner : body->without_terminator())
                             nested.clone(inner, mapping);
                         });
      op.erase();
    }
  }
};
} // namespace
