//===- InferShapes.cpp - The onnx-infer-shapes pass -----------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Refines the result types of onnx ops with what their inference functions
// tell, and carries symbolic dimension names along.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXBuilder.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXFolding.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXShapeInference.h"
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h"

#include "Inference/JoinTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_ONNXINFERSHAPES
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h.inc"
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

/// An If whose condition is a constant is the branch it takes: moves that
/// branch's ops before the If and gives what it yields as `replacements`.
/// The ops were inferred (and folded) inside the branch already.
static LogicalResult inlineKnownBranch(Operation *op,
                                       SmallVectorImpl<Value> &replacements,
                                       SmallVectorImpl<Operation *> &moved,
                                       SymbolTableCollection *symbolTables) {
  auto iface = dyn_cast<ONNXSchemaOpInterface>(op);
  if (!iface || !isOperator<IfOp>(iface.getSchema()) ||
      op->getNumRegions() != 2)
    return failure();
  InferenceContext ctx(op, /*symbols=*/nullptr, symbolTables);
  std::optional<SmallVector<int64_t>> cond = ctx.getConstantInts(0);
  if (!cond || cond->size() != 1)
    return failure();
  // The regions follow the schema's attribute order: else_branch, then_branch.
  Region &taken = op->getRegion((*cond)[0] != 0 ? 1 : 0);
  if (!taken.hasOneBlock() || taken.front().getNumArguments() != 0)
    return failure();
  // A branch that fails at run time (failBranchAtRunTime) yields
  // placeholders: it is not inlined, the lowering keeps its failure.
  if (auto errors =
          op->getAttrOfType<DictionaryAttr>(getBranchErrorsAttrName()))
    if (errors.get((*cond)[0] != 0 ? "then_branch" : "else_branch"))
      return failure();
  Block &block = taken.front();
  Operation *yield = block.getTerminator();
  if (!yield || yield->getNumOperands() != op->getNumResults())
    return failure();
  replacements.assign(yield->operand_begin(), yield->operand_end());
  for (Operation &inner : block.without_terminator())
    moved.push_back(&inner);
  op->getBlock()->getOperations().splice(Block::iterator(op),
                                         block.getOperations(), block.begin(),
                                         Block::iterator(yield));
  yield->erase();
  return success();
}

/// Whether `type` is a tensor of unknown rank.
static bool isUnranked(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  return tensor && !tensor.hasRank();
}

/// At most this many ops (nested ones included) are copied into branches in
/// one run of the pass: each If of different ranks doubles what follows it,
/// so several in a row would grow the module exponentially.
static constexpr int64_t kMaxSunkOps = 20000;

/// An If whose branches yield tensors of different ranks has a result of
/// unknown rank, which no lowering takes. The ops after it in its block,
/// which use that result, are copied into both branches (each copy then
/// sees its branch's ranks), and the If yields what the block's terminator
/// returned. Runs once per such If; `thenOps`/`elseOps` get the copies (to
/// be inferred), and the new If is returned (null when nothing was done:
/// the unknown rank goes straight to the terminator, or the copies would
/// exceed what is left of `budget`, which they are taken from).
static Operation *sinkIntoBranches(Operation *op,
                                   SmallVectorImpl<Operation *> &thenOps,
                                   SmallVectorImpl<Operation *> &elseOps,
                                   int64_t &budget) {
  auto iface = dyn_cast<ONNXSchemaOpInterface>(op);
  if (!iface || !isOperator<IfOp>(iface.getSchema()) ||
      op->getNumRegions() != 2 ||
      !llvm::any_of(op->getResultTypes(), isUnranked))
    return nullptr;
  Block *block = op->getBlock();
  Operation *terminator = block->getTerminator();
  if (!terminator || terminator == op)
    return nullptr;
  SmallVector<Operation *> rest;
  for (Operation *o = op->getNextNode(); o != terminator; o = o->getNextNode())
    rest.push_back(o);
  int64_t copies = 0;
  for (Operation *o : rest)
    o->walk([&](Operation *) { copies += 2; });
  if (rest.empty() || copies > budget)
    return nullptr;
  for (Region &branch : op->getRegions())
    if (!branch.hasOneBlock() || !branch.front().mightHaveTerminator() ||
        branch.front().getTerminator()->getNumOperands() != op->getNumResults())
      return nullptr;
  budget -= copies;

  // What the If now gives the terminator: its operands that the If or the
  // ops after it compute.
  llvm::SmallPtrSet<Operation *, 16> moved(rest.begin(), rest.end());
  moved.insert(op);
  SmallVector<unsigned> outIndices;
  for (OpOperand &operand : terminator->getOpOperands())
    if (Operation *def = operand.get().getDefiningOp(); def && moved.count(def))
      outIndices.push_back(operand.getOperandNumber());

  MLIRContext *ctx = op->getContext();
  // The regions follow the schema's attribute order: else_branch, then_branch.
  SmallVector<SmallVector<Type>> yielded;
  for (auto [index, branch] : llvm::enumerate(op->getRegions())) {
    Operation *yield = branch.front().getTerminator();
    IRMapping mapping;
    mapping.map(op->getResults(), yield->getOperands());
    OpBuilder builder(yield);
    StringRef suffix = index == 0 ? ".else" : ".then";
    for (Operation *o : rest) {
      Operation *copy = builder.clone(*o, mapping);
      copy->walk([&](Operation *inner) {
        // What the model declares of these values assumed one of the
        // ranks: each copy is inferred afresh from its branch's values.
        for (OpResult result : inner->getResults())
          if (auto ranked = dyn_cast<RankedTensorType>(result.getType()))
            result.setType(UnrankedTensorType::get(ranked.getElementType()));
        // Names stay unique across the graph and its subgraphs.
        if (auto names = inner->getAttrOfType<ArrayAttr>("onnx.outputs")) {
          SmallVector<Attribute> renamed;
          for (Attribute name : names) {
            auto s = dyn_cast<StringAttr>(name);
            renamed.push_back(s && !s.getValue().empty()
                                  ? StringAttr::get(ctx, s.getValue() + suffix)
                                  : name);
          }
          inner->setAttr("onnx.outputs", ArrayAttr::get(ctx, renamed));
        }
      });
      (index == 0 ? elseOps : thenOps).push_back(copy);
    }
    SmallVector<Value> operands;
    for (unsigned i : outIndices)
      operands.push_back(mapping.lookupOrDefault(terminator->getOperand(i)));
    yield->setOperands(operands);
    yielded.emplace_back(yield->getOperandTypes());
  }

  SmallVector<Type> types;
  SmallVector<Attribute> names;
  for (auto [k, i] : llvm::enumerate(outIndices)) {
    Type joined = joinTypes(yielded[0][k], yielded[1][k]);
    types.push_back(joined ? joined : terminator->getOperand(i).getType());
    names.push_back(StringAttr::get(ctx, valueName(terminator->getOperand(i))));
  }
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(op->getOperands());
  state.addAttributes(op->getAttrs());
  state.addTypes(types);
  for (Region &branch : op->getRegions())
    state.addRegion()->takeBody(branch);
  OpBuilder builder(op);
  Operation *sunk = builder.create(state);
  sunk->setAttr("onnx.outputs", ArrayAttr::get(ctx, names));
  sunk->removeDiscardableAttr(kDimParams);
  for (auto [k, i] : llvm::enumerate(outIndices))
    terminator->setOperand(i, sunk->getResult(k));
  for (Operation *o : llvm::reverse(rest))
    o->erase();
  op->erase();
  return sunk;
}

/// A body argument of a Loop or Scan, the type the op's inputs give it, and
/// for a loop-carried value the body output that feeds the next iteration.
struct BodySeed {
  BlockArgument arg;
  Type type;
  int yieldIndex;
};

/// The types that a Loop's (or Scan's, version 9 on) inputs give the
/// arguments of its body: the iteration number and condition, the initial
/// values of carried values, the slices of scan inputs. Empty for other ops.
static SmallVector<BodySeed> bodySeeds(InferenceContext &ctx) {
  SmallVector<BodySeed> seeds;
  const OpSchema &schema = ctx.getSchema();
  Operation *op = ctx.getOp();
  if (op->getNumRegions() != 1 || op->getRegion(0).empty())
    return seeds;
  Block &body = op->getRegion(0).front();
  MLIRContext *mctx = op->getContext();
  auto seed = [&](unsigned argIndex, Type type, int yieldIndex) {
    if (argIndex < body.getNumArguments() && isa_and_nonnull<TensorType>(type))
      seeds.push_back({body.getArgument(argIndex), type, yieldIndex});
  };
  if (isOperator<LoopOp>(schema)) {
    seed(0, RankedTensorType::get({}, IntegerType::get(mctx, 64)), -1);
    seed(1, RankedTensorType::get({}, IntegerType::get(mctx, 1)), -1);
    for (unsigned i = 2, e = ctx.getNumInputs(); i < e; ++i)
      if (ctx.hasInput(i))
        seed(i, ctx.getInput(i).getType(), i - 1);
    return seeds;
  }
  if (!isOperator<ScanOp>(schema) || ctx.getVersion() < 9)
    return seeds;
  std::optional<int64_t> numScan = ctx.getIntAttr("num_scan_inputs");
  unsigned numInputs = ctx.getNumInputs();
  if (!numScan || *numScan < 1 || *numScan > numInputs)
    return seeds;
  unsigned numStates = numInputs - *numScan;
  for (unsigned i = 0; i < numStates; ++i)
    if (ctx.hasInput(i))
      seed(i, ctx.getInput(i).getType(), i);
  std::optional<SmallVector<int64_t>> axes = ctx.getIntsAttr("scan_input_axes");
  for (unsigned j = 0; j < *numScan; ++j) {
    auto type = dyn_cast_or_null<RankedTensorType>(
        ctx.hasInput(numStates + j) ? ctx.getInput(numStates + j).getType()
                                    : Type());
    if (!type || (axes && static_cast<int64_t>(axes->size()) != *numScan))
      continue;
    int64_t rank = type.getRank();
    int64_t axis = axes ? (*axes)[j] : 0;
    if (axis < 0)
      axis += rank;
    if (axis < 0 || axis >= rank)
      continue;
    SmallVector<int64_t> shape(type.getShape());
    shape.erase(shape.begin() + axis);
    seed(numStates + j, RankedTensorType::get(shape, type.getElementType()),
         -1);
  }
  return seeds;
}

namespace {
/// Why the copies in one branch of an If did not infer (sinkIntoBranches).
struct BranchError {
  Location loc;
  std::string message;

  /// The message, after the name of the node it is about when the location
  /// has one.
  std::string describe() const {
    if (auto name = loc->findInstanceOf<NameLoc>())
      return ("node '" + name.getName().getValue() + "': " + message).str();
    return message;
  }
};

/// Replaces region `index` of `ifOp` (0: else_branch, 1: then_branch) with a
/// branch that yields placeholders of the types the other branch yields
/// (zeros; a dynamic dim as 0) and records `message` in the If's
/// onnx.branch_errors: the lowering makes taking that branch a failure at
/// run time. Fails, changing nothing, when a placeholder cannot be made (a
/// value that is not a ranked tensor).
static LogicalResult failBranchAtRunTime(Operation *ifOp, int index,
                                         StringRef message) {
  Region &bad = ifOp->getRegion(index);
  Region &good = ifOp->getRegion(1 - index);
  Operation *yield = bad.front().getTerminator();
  Operation *goodYield = good.front().getTerminator();
  int64_t opset = getOpsetOf(ifOp);
  SmallVector<DenseElementsAttr> values;
  for (Type type : goodYield->getOperandTypes()) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (!ranked)
      return failure();
    Type elem = ranked.getElementType();
    Attribute zero;
    if (auto f = dyn_cast<FloatType>(elem))
      zero = FloatAttr::get(f, 0.0);
    else if (auto i = dyn_cast<IntegerType>(elem))
      zero = IntegerAttr::get(i, 0);
    // Constant takes other than floating point values from version 9.
    if (!zero || (opset < 9 && !isa<FloatType>(elem)))
      return failure();
    SmallVector<int64_t> shape;
    for (int64_t d : ranked.getShape())
      shape.push_back(ShapedType::isDynamic(d) ? 0 : d);
    values.push_back(
        DenseElementsAttr::get(RankedTensorType::get(shape, elem), zero));
  }
  for (Operation &inner :
       llvm::make_early_inc_range(llvm::reverse(bad.front())))
    if (&inner != yield) {
      inner.dropAllUses();
      inner.erase();
    }
  OpBuilder builder(yield);
  SmallVector<Value> placeholders;
  for (DenseElementsAttr value : values)
    placeholders.push_back(
        createConstant(builder, yield->getLoc(), value, opset));
  yield->setOperands(placeholders);
  MLIRContext *ctx = ifOp->getContext();
  auto errors = ifOp->getAttrOfType<DictionaryAttr>(getBranchErrorsAttrName());
  NamedAttrList list(errors);
  list.set(index == 0 ? "else_branch" : "then_branch",
           StringAttr::get(ctx, message));
  ifOp->setAttr(getBranchErrorsAttrName(), list.getDictionary(ctx));
  return success();
}

struct InferShapesPass
    : public mlir::onnx::impl::ONNXInferShapesBase<InferShapesPass> {
  using Base::Base;
  void runOnOperation() override;

  LogicalResult inferOp(Operation *op);
  /// Infers (and folds) the ops of `region` in order, nested graphs before
  /// the op that owns them.
  LogicalResult processRegion(Region &region);
  LogicalResult processOp(Operation *op);
  /// Set by processOp when it moved the rest of the op's block into the
  /// op's regions (sinkIntoBranches): the block has nothing more to process.
  bool restOfBlockSunk = false;
  /// What sinkIntoBranches may still copy in this run.
  int64_t sinkBudget = kMaxSunkOps;
  LogicalResult processLoopBody(Operation *op);
  void forgetSymbols(Region &region);
  void replaceResults(Operation *op, ArrayRef<Value> replacements);
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

void InferShapesPass::replaceResults(Operation *op,
                                     ArrayRef<Value> replacements) {
  for (auto [result, replacement] : llvm::zip(op->getResults(), replacements)) {
    auto it = symbols.find(result);
    if (it != symbols.end() && !symbols.count(replacement)) {
      SmallVector<StringAttr, 4> names = it->second;
      symbols[replacement] = names;
    }
    result.replaceAllUsesWith(replacement);
  }
}

LogicalResult InferShapesPass::processRegion(Region &region) {
  for (Block &block : region)
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (failed(processOp(&op)))
        return failure();
      if (restOfBlockSunk) {
        restOfBlockSunk = false;
        break;
      }
    }
  return success();
}

LogicalResult InferShapesPass::processOp(Operation *op) {
  SmallVector<Value> replacements;
  // An If with a known condition is the branch it takes; the other branch,
  // which may not even fit the inputs, is never looked at.
  if (fold) {
    SmallVector<Operation *> moved;
    if (succeeded(inlineKnownBranch(op, replacements, moved, symbolTables))) {
      // What the If declared of its results still holds of the branch's
      // values (inference of the moved ops refines from there).
      for (auto [result, value] : llvm::zip(op->getResults(), replacements)) {
        Operation *def = value.getDefiningOp();
        if (!def || !llvm::is_contained(moved, def))
          continue;
        FailureOr<Type> refined = refineType(value.getType(), result.getType());
        if (succeeded(refined))
          value.setType(*refined);
      }
      replaceResults(op, replacements);
      op->erase();
      for (Operation *inner : moved) {
        if (failed(processOp(inner)))
          return failure();
        // An If among them took the rest of the block into its branches
        // (the flag stays set: the caller's block is done too).
        if (restOfBlockSunk)
          return success();
      }
      return success();
    }
  }
  if (failed(processLoopBody(op)))
    return failure();
  if (!isa<ONNXSchemaOpInterface>(op))
    return success();
  if (failed(inferOp(op)))
    return failure();
  if (fold) {
    SmallVector<Operation *> thenOps, elseOps;
    if (Operation *sunk = sinkIntoBranches(op, thenOps, elseOps, sinkBudget)) {
      // The regions follow the schema's attribute order: else_branch,
      // then_branch. Per branch: the error that stopped its copies.
      std::optional<BranchError> errors[2];
      for (int index : {0, 1}) {
        SmallVector<Operation *> &copies = index == 0 ? elseOps : thenOps;
        // The nodes after the If may hold only for one branch's ranks: the
        // errors of a branch's copies are kept back until the other branch
        // is known to hold.
        ScopedDiagnosticHandler keep(sunk->getContext(), [&](Diagnostic &diag) {
          if (diag.getSeverity() != DiagnosticSeverity::Error)
            return failure();
          if (!errors[index])
            errors[index] = BranchError{diag.getLocation(), diag.str()};
          return success();
        });
        for (Operation *copy : copies) {
          if (failed(processOp(copy))) {
            if (!errors[index])
              errors[index] = BranchError{copy->getLoc(), "inference failed"};
            break;
          }
          // A copy that is itself such an If took the copies after it
          // into its own branches (and erased these).
          if (restOfBlockSunk) {
            restOfBlockSunk = false;
            break;
          }
        }
      }
      restOfBlockSunk = false;
      if (errors[0] || errors[1]) {
        // ONNX Runtime fails such a model only when the run takes the branch
        // that does not hold: that branch becomes a failure at run time.
        int bad = errors[0] ? 0 : 1;
        if (!(errors[0] && errors[1]))
          forgetSymbols(sunk->getRegion(bad));
        if ((errors[0] && errors[1]) ||
            failed(failBranchAtRunTime(sunk, bad, errors[bad]->describe()))) {
          emitError(errors[bad]->loc) << errors[bad]->message;
          auto name = sunk->getAttrOfType<StringAttr>("onnx.name");
          sunk->emitError()
              << "If" << (name ? " '" + name.str() + "'" : std::string())
              << ": its branches yield different "
              << "ranks, so the nodes after it were copied into both; in "
              << (bad == 0 ? "else_branch" : "then_branch")
              << " they do not accept what it yields (the error above)"
              << (errors[0] && errors[1] ? ", nor in then_branch" : "");
          return failure();
        }
      }
      if (failed(inferOp(sunk)))
        return failure();
      restOfBlockSunk = true;
      return success();
    }
  }
  // Fold what is now known, so that the ops after it see constants.
  OpBuilder builder(op->getContext());
  if (fold && succeeded(foldONNXOp(op, builder, replacements,
                                   /*allowRefinedTypes=*/true, symbolTables))) {
    replaceResults(op, replacements);
    if (isOpTriviallyDead(op))
      op->erase();
  }
  return success();
}

void InferShapesPass::forgetSymbols(Region &region) {
  region.walk([&](Block *block) {
    for (BlockArgument arg : block->getArguments())
      symbols.erase(arg);
    for (Operation &op : *block)
      for (Value result : op.getResults())
        symbols.erase(result);
  });
}

/// The regions of `op`; for a Loop or Scan body, first with the types its
/// inputs give the body's arguments. Carried values may change type from one
/// iteration to the next, so a seeded (or declared) type is kept only when
/// what the body gives the next iteration fits it (then every iteration has
/// it); the second try seeds the join of the two, and failing that the body
/// is inferred as declared.
LogicalResult InferShapesPass::processLoopBody(Operation *op) {
  SmallVector<BodySeed> seeds;
  if (isa<ONNXSchemaOpInterface>(op)) {
    InferenceContext ctx(op, &symbols, symbolTables);
    seeds = bodySeeds(ctx);
  }
  if (seeds.empty()) {
    for (Region &region : op->getRegions())
      if (failed(processRegion(region)))
        return failure();
    return success();
  }
  // The first try seeds the arguments with what the inputs say of them,
  // where it is more than the declared types.
  SmallVector<Type> declared, trial;
  for (BodySeed &seed : seeds) {
    Type type = seed.arg.getType();
    declared.push_back(type);
    FailureOr<Type> refined = refineType(type, seed.type);
    trial.push_back(succeeded(refined) ? *refined : type);
  }

  Region &body = op->getRegion(0);
  for (int attempt = 0; attempt < 3; ++attempt) {
    bool last = attempt == 2;
    // Each try starts from the body as written.
    Operation *pristine = last ? nullptr : op->clone();
    ArrayRef<Type> types = last ? ArrayRef<Type>(declared) : trial;
    for (auto [seed, type] : llvm::zip(seeds, types))
      seed.arg.setType(type);
    if (failed(processRegion(body))) {
      if (pristine)
        pristine->erase();
      return failure();
    }
    // A carried value is stable when what the body yields for the next
    // iteration fits the type its argument was given. A declared type can
    // fail that too: an export's trace wrote the size it saw (Mask R-CNN
    // declares a carried list of masks with dim 0 of 0, and appends to it);
    // ONNX Runtime takes it as a hint, and so does the next try.
    bool stable = true;
    Operation *yield = body.front().getTerminator();
    SmallVector<Type> next(types);
    for (auto [i, seed] : llvm::enumerate(seeds)) {
      if (seed.yieldIndex < 0)
        continue;
      Type yielded = yield && static_cast<unsigned>(seed.yieldIndex) <
                                  yield->getNumOperands()
                         ? yield->getOperand(seed.yieldIndex).getType()
                         : Type();
      Type joined = yielded ? joinTypes(types[i], yielded) : Type();
      if (joined == types[i])
        continue;
      stable = false;
      next[i] = joined ? joined : declared[i];
    }
    if (last)
      return success();
    if (stable) {
      pristine->erase();
      return success();
    }
    // Back to the body as written, and try again with what was learnt.
    forgetSymbols(body);
    body.dropAllReferences();
    body.getBlocks().clear();
    body.takeBody(pristine->getRegion(0));
    pristine->erase();
    seeds = [&] {
      InferenceContext ctx(op, &symbols, symbolTables);
      return bodySeeds(ctx);
    }();
    if (seeds.size() != declared.size())
      return op->emitOpError("internal error: the body changed shape");
    trial = next;
    if (attempt == 0 && trial == declared)
      attempt = 1;
  }
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
    if (failed(processRegion(func.getBody())))
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
