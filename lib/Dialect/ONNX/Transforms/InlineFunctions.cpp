//===- InlineFunctions.cpp - The onnx-inline-functions pass ---------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Replaces each call of a model-local function (onnx.call) by the function's
// body, specialized for the call: the function's attribute parameters that
// its ops refer to (onnx.attr_refs, ONNX's ref_attr_name) take the call's
// values, or the function's defaults, or stay unset. Calls inside the
// inlined bodies are inlined in turn. Inlined ops bound to the function's
// own opset are converted to the graph's. Functions no longer called are
// removed.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "OnnxDialect/Dialect/ONNX/Transforms/OpsetConversion.h"
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_ONNXINLINEFUNCTIONS
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

/// How deep calls may nest (the validator rejects recursion; this bounds a
/// malformed module that was not validated).
static constexpr unsigned kMaxInlineDepth = 64;

/// Gives `op` (and the ops nested in it) the values of the attribute
/// parameters it refers to.
static LogicalResult bindAttrRefs(Operation *root, CallOp call,
                                  DictionaryAttr defaults) {
  WalkResult result = root->walk([&](Operation *op) {
    auto refs = dyn_cast_or_null<DictionaryAttr>(
        op->getDiscardableAttr(getAttrRefsAttrName()));
    if (!refs)
      return WalkResult::advance();
    op->removeDiscardableAttr(getAttrRefsAttrName());
    auto iface = dyn_cast<ONNXSchemaOpInterface>(op);
    for (NamedAttribute ref : refs) {
      auto param = dyn_cast<AttrRefAttr>(ref.getValue());
      if (!param) {
        op->emitOpError() << "has a malformed reference for attribute '"
                          << ref.getName().getValue() << "'";
        return WalkResult::interrupt();
      }
      Attribute value = call->getDiscardableAttr(param.getName());
      if (!value && defaults)
        value = defaults.get(param.getName());
      if (!value)
        continue; // The attribute stays unset, as ONNX specifies.
      StringRef name = ref.getName().getValue();
      if (iface) {
        const OpSchema &schema = iface.getSchema();
        const AttrSchema *attr = nullptr;
        for (const AttrSchema &a : schema.attributes)
          if (name == a.name)
            attr = &a;
        if (!attr) {
          op->emitOpError() << "has no attribute '" << name << "'";
          return WalkResult::interrupt();
        }
        op->setAttr(attr->odsName, value);
      } else {
        op->setAttr(name, value);
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Prefixes the value names that the inlined ops define, so that they stay
/// unique in the graph.
static void renameOutputs(Operation *op, StringRef prefix) {
  auto names = op->getAttrOfType<ArrayAttr>("onnx.outputs");
  if (!names)
    return;
  SmallVector<Attribute> renamed;
  for (Attribute a : names) {
    auto s = dyn_cast<StringAttr>(a);
    if (s && !s.getValue().empty())
      renamed.push_back(
          StringAttr::get(op->getContext(), prefix + s.getValue()));
    else
      renamed.push_back(a);
  }
  op->setAttr("onnx.outputs", ArrayAttr::get(op->getContext(), renamed));
}

namespace {
struct InlineFunctionsPass
    : public mlir::onnx::impl::ONNXInlineFunctionsBase<InlineFunctionsPass> {
  void runOnOperation() override;
  LogicalResult inlineCall(CallOp call, SymbolTable &symbols);
  unsigned counter = 0;
};
} // namespace

LogicalResult InlineFunctionsPass::inlineCall(CallOp call,
                                              SymbolTable &symbols) {
  auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
  if (!callee || callee.isExternal())
    return call.emitOpError()
           << "calls " << call.getCalleeAttr() << ", which has no body";
  Block &body = callee.getBody().front();
  if (body.getNumArguments() != call.getArgs().size())
    return call.emitOpError()
           << "passes " << call.getArgs().size() << " inputs to a function of "
           << body.getNumArguments();
  auto info = callee->getAttrOfType<DictionaryAttr>("onnx.function");
  DictionaryAttr defaults =
      info ? info.getAs<DictionaryAttr>("attribute_defaults")
           : DictionaryAttr();
  int64_t opset = getOpsetOf(call);

  std::string prefix;
  if (auto name = call->getAttrOfType<StringAttr>("onnx.name");
      name && !name.getValue().empty())
    prefix = (name.getValue() + "/").str();
  else
    prefix = "inlined" + std::to_string(counter++) + "/";

  IRMapping mapping;
  for (auto [arg, operand] : llvm::zip(body.getArguments(), call.getArgs()))
    mapping.map(arg, operand);
  OpBuilder builder(call);
  SmallVector<Operation *> inlined;
  for (Operation &op : body.without_terminator()) {
    Operation *clone = builder.clone(op, mapping);
    inlined.push_back(clone);
    if (failed(bindAttrRefs(clone, call, defaults)))
      return failure();
    clone->walk([&](Operation *nested) { renameOutputs(nested, prefix); });
  }
  Operation *ret = body.getTerminator();
  if (ret->getNumOperands() < call.getNumResults())
    return call.emitOpError() << "has more outputs than its function";
  for (auto [result, value] :
       llvm::zip(call.getResults(), ret->getOperands())) {
    Value mapped = mapping.lookupOrDefault(value);
    // The call's declared type is at least as precise as the function's
    // polymorphic one.
    if (auto def = mapped.getDefiningOp();
        def && llvm::is_contained(inlined, def)) {
      FailureOr<Type> refined = refineType(mapped.getType(), result.getType());
      if (failed(refined))
        return call.emitOpError()
               << "declares output type " << result.getType()
               << " for a function output of type " << mapped.getType();
      mapped.setType(*refined);
      // The output keeps the call's name.
      if (auto names = call->getAttrOfType<ArrayAttr>("onnx.outputs"))
        if (auto outNames = def->getAttrOfType<ArrayAttr>("onnx.outputs")) {
          SmallVector<Attribute> n(outNames.getValue());
          unsigned idx = cast<OpResult>(mapped).getResultNumber();
          unsigned callIdx = result.getResultNumber();
          if (idx < n.size() && callIdx < names.size())
            n[idx] = names[callIdx];
          def->setAttr("onnx.outputs", ArrayAttr::get(def->getContext(), n));
        }
    }
    result.replaceAllUsesWith(mapped);
  }
  call.erase();
  // The function's ops were bound to its own opset.
  for (Operation *op : inlined) {
    SmallVector<Operation *> nested;
    op->walk([&](Operation *o) { nested.push_back(o); });
    for (Operation *o : nested)
      if (failed(convertOpToOpset(o, opset)))
        return failure();
  }
  return success();
}

void InlineFunctionsPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  for (auto func : module.getOps<func::FuncOp>()) {
    // Function bodies are inlined into graphs, not into each other.
    if (func->hasAttr("onnx.function") || func.isExternal())
      continue;
    for (unsigned depth = 0;; ++depth) {
      SmallVector<CallOp> calls;
      func.walk([&](CallOp call) { calls.push_back(call); });
      if (calls.empty())
        break;
      if (depth == kMaxInlineDepth) {
        calls.front().emitOpError()
            << "calls nest deeper than " << kMaxInlineDepth
            << " levels; is a function recursive?";
        return signalPassFailure();
      }
      for (CallOp call : calls)
        if (failed(inlineCall(call, symbols)))
          return signalPassFailure();
    }
    // The graph's signature follows what it returns.
    Operation *ret = func.getBody().back().getTerminator();
    func.setFunctionType(FunctionType::get(
        module.getContext(), func.getArgumentTypes(), ret->getOperandTypes()));
  }
  // Functions that nothing calls any more (a function called only by
  // another such function goes in a later round).
  for (bool erased = true; erased;) {
    erased = false;
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (func->hasAttr("onnx.function") &&
          SymbolTable::symbolKnownUseEmpty(func, module)) {
        func.erase();
        erased = true;
      }
  }
}
