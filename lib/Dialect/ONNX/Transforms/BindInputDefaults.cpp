//===- BindInputDefaults.cpp - The onnx-bind-input-defaults pass ----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Replaces each graph input that has an initializer default (the argument
// attribute `onnx.default`) by a load of that initializer, and removes the
// argument from its function.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/BitVector.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_ONNXBINDINPUTDEFAULTS
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;

namespace {
struct BindInputDefaults
    : onnx::impl::ONNXBindInputDefaultsBase<BindInputDefaults> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      llvm::BitVector erase(func.getNumArguments());
      OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
        auto ref = func.getArgAttrOfType<FlatSymbolRefAttr>(i, "onnx.default");
        if (!ref)
          continue;
        auto global = symbols.lookup<ml_program::GlobalOp>(ref.getValue());
        if (!global || global.getIsMutable()) {
          func.emitError() << "input " << i << " names the default " << ref
                           << ", which is not an immutable initializer";
          return signalPassFailure();
        }
        BlockArgument arg = func.getArgument(i);
        Value load = ml_program::GlobalLoadConstOp::create(
            b, arg.getLoc(), global.getType(), ref);
        if (failed(verifyCompatibleShape(load.getType(), arg.getType())) ||
            getElementTypeOrSelf(load.getType()) !=
                getElementTypeOrSelf(arg.getType())) {
          func.emitError() << "input " << i << " has type " << arg.getType()
                           << " but its default " << ref << " has type "
                           << load.getType();
          return signalPassFailure();
        }
        arg.replaceAllUsesWith(load);
        erase.set(i);
      }
      if (erase.any() && failed(func.eraseArguments(erase)))
        return signalPassFailure();
    }
  }
};
} // namespace
