//===- InferShapes.cpp - The onnx-infer-shapes pass -----------------------===//
//
// Refines the result types of onnx ops with what their inference functions
// tell, and carries symbolic dimension names along.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/IR/ONNXOps.h"
#include "OnnxDialect/IR/ONNXShapeInference.h"
#include "OnnxDialect/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_ONNXINFERSHAPES
#include "OnnxDialect/Transforms/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

static constexpr StringLiteral kDimParams = "onnx.dim_params";

/// The symbols of a list of dim names ("" for none) of a value of `type`;
/// empty if they do not fit its shape.
static SmallVector<StringAttr, 4> symbolsFor(Type type, ArrayAttr names) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || !names || names.size() != ranked.getShape().size())
    return {};
  SmallVector<StringAttr, 4> symbols;
  bool any = false;
  for (auto [name, size] : llvm::zip(names, ranked.getShape())) {
    auto s = dyn_cast<StringAttr>(name);
    if (s && !s.getValue().empty() && ShapedType::isDynamic(size)) {
      symbols.push_back(s);
      any = true;
    } else {
      symbols.push_back({});
    }
  }
  return any ? symbols : SmallVector<StringAttr, 4>();
}

static ArrayAttr namesAttr(MLIRContext *ctx, ArrayRef<StringAttr> symbols) {
  SmallVector<Attribute> names;
  for (StringAttr s : symbols)
    names.push_back(s ? Attribute(s) : StringAttr::get(ctx, ""));
  return ArrayAttr::get(ctx, names);
}

namespace {
struct InferShapesPass
    : public mlir::onnx::impl::ONNXInferShapesBase<InferShapesPass> {
  void runOnOperation() override;

  LogicalResult inferOp(Operation *op);
  void seedSymbols(Operation *op);
  void writeSymbols(Operation *op);

  DimSymbols symbols;
  SymbolTableCollection *symbolTables = nullptr;
};
} // namespace

/// Reads the names an earlier run (or the author) recorded on `op`.
void InferShapesPass::seedSymbols(Operation *op) {
  auto all = dyn_cast_or_null<ArrayAttr>(op->getDiscardableAttr(kDimParams));
  if (!all || all.size() != op->getNumResults())
    return;
  for (auto [result, names] : llvm::zip(op->getResults(), all)) {
    SmallVector<StringAttr, 4> s =
        symbolsFor(result.getType(), dyn_cast<ArrayAttr>(names));
    if (!s.empty())
      symbols[result] = s;
  }
}

void InferShapesPass::writeSymbols(Operation *op) {
  MLIRContext *ctx = op->getContext();
  bool any = false;
  SmallVector<Attribute> all;
  for (Value result : op->getResults()) {
    auto it = symbols.find(result);
    if (it == symbols.end()) {
      all.push_back(ArrayAttr::get(ctx, {}));
      continue;
    }
    any = true;
    all.push_back(namesAttr(ctx, it->second));
  }
  if (any)
    op->setDiscardableAttr(kDimParams, ArrayAttr::get(ctx, all));
}

LogicalResult InferShapesPass::inferOp(Operation *op) {
  seedSymbols(op);
  InferenceContext ctx(op, &symbols, symbolTables);
  if (failed(inferTypes(ctx)))
    return failure();
  bool changedSymbols = false;
  for (unsigned i = 0, e = ctx.getNumOutputs(); i < e; ++i) {
    Type inferred = ctx.getInferredType(i);
    Value result = ctx.getOutput(i);
    if (!inferred || !result)
      continue;
    FailureOr<Type> refined = refineType(result.getType(), inferred);
    if (failed(refined))
      return op->emitOpError()
             << "output " << i << " is declared as " << result.getType()
             << ", but its inputs and attributes give it type " << inferred;
    result.setType(*refined);
    ArrayRef<StringAttr> names = ctx.getInferredSymbols(i);
    auto ranked = dyn_cast<RankedTensorType>(*refined);
    if (names.empty() || !ranked || ranked.getShape().size() != names.size())
      continue;
    SmallVector<StringAttr, 4> &known = symbols[result];
    known.resize(names.size());
    for (auto [k, name, size] : llvm::zip(known, names, ranked.getShape()))
      if (!k && name && ShapedType::isDynamic(size)) {
        k = name;
        changedSymbols = true;
      }
    if (llvm::all_of(known, [](StringAttr s) { return !s; }))
      symbols.erase(result);
  }
  if (changedSymbols)
    writeSymbols(op);
  return success();
}

void InferShapesPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = module.getContext();
  SymbolTableCollection tables;
  symbolTables = &tables;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    symbols.clear();
    // Graph inputs: their dim_params, one per dim of a tensor input.
    for (BlockArgument arg : func.getArguments()) {
      SmallVector<StringAttr, 4> s = symbolsFor(
          arg.getType(),
          func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(), kDimParams));
      if (!s.empty())
        symbols[arg] = s;
    }
    WalkResult walk = func.walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (!isa<ONNXSchemaOpInterface>(op))
        return WalkResult::advance();
      return failed(inferOp(op)) ? WalkResult::interrupt()
                                 : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    // The graph's signature follows what it returns.
    Operation *ret = func.getBody().back().getTerminator();
    if (!ret)
      continue;
    SmallVector<Type> resultTypes(ret->getOperandTypes());
    func.setFunctionType(
        FunctionType::get(ctx, func.getArgumentTypes(), resultTypes));
    for (auto [i, value] : llvm::enumerate(ret->getOperands())) {
      auto it = symbols.find(value);
      if (it == symbols.end() || func.getResultAttr(i, kDimParams))
        continue;
      func.setResultAttr(i, kDimParams, namesAttr(ctx, it->second));
    }
  }
}
