//===- OutlineKernels.cpp - A function per kernel -------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// After code generation on buffers, a model's function is a sequence of
// kernels (loop nests, structured ops) between allocations. Lowered as it
// is, it makes one LLVM function of tens of thousands of instructions
// (ResNet-50: 65K), on which LLVM's function passes cost more than linearly
// and its code generation runs as one piece. This pass moves each kernel
// into a private function of its own, never inlined, and calls it in its
// place: LLVM then optimizes and compiles the kernels apart, and the
// ahead-of-time compiler spreads the functions over threads
// (lib/Runtime/Compiler.cpp).
//
// The values a kernel uses from above become the function's arguments,
// except constants, memref.get_global and pure ops on those only, which
// are cloned into it (so the kernel's code still sees them as constants).
// A kernel keeps the ONNX node of its location in its name
// (`@<function>_k<N>_<node>`), which is what a native profiler (perf)
// shows.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_OUTLINEKERNELSPASS
#include "OnnxDialect/Pipelines/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;

/// Whether `value` can be recomputed inside the outlined function: it is
/// made by a pure op without regions whose operands can be too (constants,
/// memref.get_global, views of those).
static bool isClonable(Value value, DenseMap<Value, bool> &memo,
                       unsigned depth = 0) {
  auto it = memo.find(value);
  if (it != memo.end())
    return it->second;
  Operation *def = value.getDefiningOp();
  bool ok = def && depth < 8 && def->getNumRegions() == 0 &&
            isMemoryEffectFree(def) &&
            llvm::all_of(def->getOperands(), [&](Value operand) {
              return isClonable(operand, memo, depth + 1);
            });
  memo[value] = ok;
  return ok;
}

/// The defining ops of `value`'s clonable chain, operands first.
static void collectChain(Value value, llvm::SetVector<Operation *> &chain) {
  Operation *def = value.getDefiningOp();
  if (chain.contains(def))
    return;
  for (Value operand : def->getOperands())
    collectChain(operand, chain);
  chain.insert(def);
}

/// The first ONNX node name in `loc`, made an identifier, or "".
static std::string nodeSuffix(Location loc) {
  auto named = loc->findInstanceOf<NameLoc>();
  std::string name = named ? named.getName().str() : "";
  std::string out;
  for (char ch : name.substr(0, 48))
    out += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  return out.empty() ? out : "_" + out;
}

namespace {
struct OutlineKernelsPass
    : public mlir::onnx::impl::OutlineKernelsPassBase<OutlineKernelsPass> {
  using OutlineKernelsPassBase::OutlineKernelsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp function : functions) {
      if (function.isExternal())
        continue;
      SmallVector<Operation *> kernels;
      for (Block &block : function.getBody())
        for (Operation &op : block)
          if (isKernel(&op))
            kernels.push_back(&op);
      unsigned index = 0;
      Operation *after = function;
      for (Operation *kernel : kernels)
        after = outline(function, kernel, index++, after, symbols);
    }
  }

  /// A top-level op with regions, no results and at least minOps ops.
  bool isKernel(Operation *op) const {
    if (op->getNumRegions() == 0 || op->getNumResults() != 0 ||
        op->hasTrait<OpTrait::IsTerminator>())
      return false;
    unsigned count = 0;
    op->walk([&](Operation *) { ++count; });
    return count > minOps; // the walk counts the op itself
  }

  /// Outlines `kernel` of `function` into a function placed after `after`;
  /// returns it.
  Operation *outline(func::FuncOp function, Operation *kernel, unsigned index,
                     Operation *after, SymbolTable &symbols) {
    llvm::SetVector<Value> used(kernel->operand_begin(), kernel->operand_end());
    getUsedValuesDefinedAbove(kernel->getRegions(), used);
    DenseMap<Value, bool> memo;
    llvm::SetVector<Operation *> chain;
    SmallVector<Value> arguments;
    for (Value value : used) {
      if (isClonable(value, memo))
        collectChain(value, chain);
      else
        arguments.push_back(value);
    }
    OpBuilder builder(function);
    builder.setInsertionPointAfter(after);
    Location loc = kernel->getLoc();
    auto type = builder.getFunctionType(ValueRange(arguments).getTypes(), {});
    std::string name =
        (function.getSymName() + "_k" + Twine(index)).str() + nodeSuffix(loc);
    auto outlined = func::FuncOp::create(builder, loc, name, type);
    outlined.setPrivate();
    // Internal in LLVM (not exported by a shared library), never inlined
    // back: LLVM's `noinline`, as a passthrough attribute, which
    // func-to-llvm carries over (it drops a func.func's `no_inline`, and
    // LLVM's inliner then put each kernel called once back into its caller).
    outlined->setAttr(
        "llvm.linkage",
        LLVM::LinkageAttr::get(builder.getContext(), LLVM::Linkage::Internal));
    outlined->setAttr("passthrough", builder.getArrayAttr(
                                         {builder.getStringAttr("noinline")}));
    symbols.insert(outlined);
    Block *body = outlined.addEntryBlock();
    IRMapping mapping;
    mapping.map(arguments, body->getArguments());
    builder.setInsertionPointToStart(body);
    for (Operation *op : chain)
      builder.clone(*op, mapping);
    builder.clone(*kernel, mapping);
    func::ReturnOp::create(builder, loc);
    builder.setInsertionPoint(kernel);
    func::CallOp::create(builder, loc, outlined, arguments);
    kernel->erase();
    return outlined;
  }
};
} // namespace
