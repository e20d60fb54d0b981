//===- AllocaScopes.cpp - memref.alloca_scope out of the way of scf-to-cf -===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// convert-scf-to-openmp wraps each parallel loop body in memref.alloca_scope,
// whose region must stay one block; convert-scf-to-cf then turns the scf.for
// nests inside it into several blocks, which the op refuses. This pass
// removes the scopes before that: a scope with no memref.alloca inside is
// inlined; one with allocas brackets its inlined body with llvm.stacksave /
// llvm.stackrestore, as finalize-memref-to-llvm would, so the stack of a
// worker does not grow with each iteration.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_INLINEALLOCASCOPESPASS
#include "OnnxDialect/Pipelines/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;

namespace {
struct AllocaScopesPass
    : public mlir::onnx::impl::InlineAllocaScopesPassBase<AllocaScopesPass> {

  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    // Post-order: inner scopes are inlined before the ones around them.
    getOperation()->walk(
        [&](memref::AllocaScopeOp scope) { scopes.push_back(scope); });
    IRRewriter rewriter(&getContext());
    for (memref::AllocaScopeOp scope : scopes) {
      Block *body = &scope.getBodyRegion().front();
      bool allocates = false;
      body->walk([&](memref::AllocaOp) { allocates = true; });
      auto ret = cast<memref::AllocaScopeReturnOp>(body->getTerminator());
      SmallVector<Value> results(ret.getResults());
      rewriter.setInsertionPoint(scope);
      Value saved;
      Location loc = scope.getLoc();
      if (allocates)
        saved = LLVM::StackSaveOp::create(
            rewriter, loc, LLVM::LLVMPointerType::get(&getContext()));
      if (allocates) {
        rewriter.setInsertionPoint(ret);
        LLVM::StackRestoreOp::create(rewriter, loc, saved);
      }
      rewriter.eraseOp(ret);
      rewriter.inlineBlockBefore(body, scope);
      rewriter.replaceOp(scope, results);
    }
  }
};
} // namespace
