//===- Decompose.cpp - The onnx-decompose pass ----------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expands the operators that the ONNX specification defines as functions
// (and a few closely related ones) into primitive ops, so that a lowering
// only has to handle primitives. Each expansion computes what the operator's
// function body computes: the same ops in the same element types (stash_type
// where the operator has one), with numpy broadcasting where the body relies
// on it. Ops whose expansion needs facts that are unknown (a rank, an element
// type, the value of an attribute that refers to a function parameter) are
// left alone with a remark, as are ops whose primitives do not exist, or do
// not take the element type, at the opset the module imports. At opsets
// before multidirectional broadcasting (Add-7, Max-8) the one-element
// constants of a body are splats of the other operand's static shape.
// Conditions that a body tests with If on facts known at compile time (the
// rank of an input, an attribute) are taken at compile time.
//
//===----------------------------------------------------------------------===//

#include "Decompose/Expansion.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXBuilder.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXDataTypes.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_ONNXDECOMPOSE
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;
using namespace mlir::onnx::decompose;

//===----------------------------------------------------------------------===//
// The registry
//===----------------------------------------------------------------------===//

const ExpansionRegistry &ExpansionRegistry::get() {
  static const ExpansionRegistry registry = [] {
    ExpansionRegistry r;
    registerElementwiseExpansions(r);
    registerReductionExpansions(r);
    registerTensorExpansions(r);
    registerNNExpansions(r);
    registerQuantizationExpansions(r);
    registerTrainingExpansions(r);
    registerMLExpansions(r);
    return r;
  }();
  return registry;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

static std::optional<int64_t> aiOnnxOpset(DictionaryAttr opsets) {
  if (!opsets)
    return std::nullopt;
  auto v = opsets.getAs<IntegerAttr>("ai.onnx");
  if (!v)
    v = opsets.getAs<IntegerAttr>("");
  if (!v)
    return std::nullopt;
  return v.getInt();
}

/// The ai.onnx opset that governs `op`: that of its model-local function if
/// it is in one and the function imports ai.onnx, else the module's, else
/// the newest.
static int64_t opsetFor(Operation *op, ModuleOp module, int64_t deflt) {
  if (auto func = op->getParentOfType<func::FuncOp>())
    if (auto info = func->getAttrOfType<DictionaryAttr>("onnx.function"))
      if (std::optional<int64_t> v =
              aiOnnxOpset(info.getAs<DictionaryAttr>("opset_import")))
        return *v;
  if (std::optional<int64_t> v = aiOnnxOpset(
          module->getAttrOfType<DictionaryAttr>("onnx.opset_import")))
    return *v;
  return deflt;
}

namespace {
struct DecomposePass
    : public mlir::onnx::impl::ONNXDecomposeBase<DecomposePass> {
  using Base::Base;
  void runOnOperation() override;
  /// Expands `op`; on failure leaves it alone and says why in `why`.
  LogicalResult decompose(Operation *op, const ExpandFn &fn, int64_t opset,
                          std::string &why);
};
} // namespace

LogicalResult DecomposePass::decompose(Operation *op, const ExpandFn &fn,
                                       int64_t opset, std::string &why) {
  if (op->hasAttr(getAttrRefsAttrName())) {
    why = "an attribute refers to a function parameter";
    return failure();
  }
  // Every input and output must be a tensor of a known element type.
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (!isa<TensorType>(t)) {
      why = "a value is not a tensor of a known element type";
      return failure();
    }

  OpBuilder b(op);
  CreatedOps created;
  b.setListener(&created);
  Emitter e(b, op->getLoc(), opset);
  InferenceContext ctx(op);
  Expansion x{ctx, e, {}};
  LogicalResult result = failure();
  {
    // Diagnostics of ops that do not verify say why an expansion failed;
    // they are not errors of the input.
    ScopedDiagnosticHandler quiet(op->getContext(),
                                  [](Diagnostic &) { return success(); });
    result = fn(x);
  }
  if (succeeded(result) && e.failed())
    result = failure();
  // The expansion gives every produced output slot a value of its type.
  SmallVector<std::pair<Value, Value>> replace;
  if (succeeded(result)) {
    for (unsigned i = 0, n = ctx.getNumOutputs(); i < n; ++i) {
      Value old = ctx.getOutput(i);
      if (!old)
        continue;
      Value nv = i < x.results.size() ? x.results[i] : Value();
      if (!nv) {
        e.fail("output " + Twine(i) + " has no value");
        result = failure();
        break;
      }
      if (failed(refineType(old.getType(), nv.getType()))) {
        e.fail("output " + Twine(i) + " would change its type");
        result = failure();
        break;
      }
      replace.push_back({old, nv});
    }
  }
  if (failed(result)) {
    why = e.getWhy().empty() ? "the expansion failed" : e.getWhy().str();
    for (Operation *c : llvm::reverse(created.ops)) {
      c->dropAllUses();
      c->erase();
    }
    return failure();
  }
  // Keep the declared output types (the signature of the graph must not
  // change): the op that defines a result takes it, or an Identity.
  b.setListener(nullptr);
  for (auto &[old, nv] : replace) {
    if (nv.getType() != old.getType()) {
      Operation *def = nv.getDefiningOp();
      if (def && llvm::is_contained(created.ops, def) &&
          !def->hasTrait<OpTrait::ConstantLike>() &&
          !isOperator<ConstantOp>(
              cast<ONNXSchemaOpInterface>(def).getSchema())) {
        nv.setType(old.getType());
      } else {
        FailureOr<Operation *> id =
            createSchemaOp(b, op->getLoc(), Operator::of<IdentityOp>(), opset,
                           {nv}, {old.getType()}, {});
        if (succeeded(id))
          nv = (*id)->getResult(0);
      }
    }
    old.replaceAllUsesWith(nv);
  }
  op->erase();
  return success();
}

void DecomposePass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = module.getContext();
  int64_t newest = getNewestOpset(ctx);
  llvm::StringSet<> only;
  for (const std::string &name : ops)
    only.insert(name);

  SmallVector<std::pair<Operation *, ExpandFn>> work;
  module.walk([&](Operation *op) {
    auto iface = dyn_cast<ONNXSchemaOpInterface>(op);
    if (!iface)
      return;
    const OpSchema &schema = iface.getSchema();
    if (!only.empty() && !only.contains(schema.name))
      return;
    if (const ExpandFn *fn = ExpansionRegistry::get().lookup(Operator(schema)))
      work.push_back({op, *fn});
  });
  bool addedOnnxOps = false;
  for (auto &[op, fn] : work) {
    std::string why;
    StringRef name = cast<ONNXSchemaOpInterface>(op).getSchema().name;
    int64_t opset = opsetFor(op, module, newest);
    if (failed(decompose(op, fn, opset, why)))
      op->emitRemark() << "not decomposed: " << name << " at opset " << opset
                       << ": " << why;
    else
      addedOnnxOps = true;
  }
  // A model that imported only another domain (the training optimizers,
  // ai.onnx.ml) now uses ai.onnx ops at the newest opset: import it.
  auto opsets = module->getAttrOfType<DictionaryAttr>("onnx.opset_import");
  if (addedOnnxOps && opsets && !aiOnnxOpset(opsets)) {
    NamedAttrList list(opsets);
    list.set("ai.onnx", IntegerAttr::get(IntegerType::get(ctx, 64), newest));
    module->setAttr("onnx.opset_import", list.getDictionary(ctx));
  }
}
