//===- KernelUtils.cpp - What the GPU kernel builders share ---------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"
#include "OnnxDialect/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::onnx;

Value mlir::onnx::loopProduct(OpBuilder &b, Location loc,
                              ArrayRef<unsigned> dims, ArrayRef<Value> sizes) {
  if (dims.empty())
    return arith::ConstantIndexOp::create(b, loc, 1);
  Value product = sizes[dims.front()];
  for (unsigned d : dims.drop_front())
    product = b.createOrFold<arith::MulIOp>(loc, product, sizes[d]);
  return product;
}

void mlir::onnx::delinearizeLoops(OpBuilder &b, Location loc, Value linear,
                                  ArrayRef<unsigned> dims,
                                  ArrayRef<Value> sizes,
                                  MutableArrayRef<Value> loops) {
  if (dims.empty())
    return;
  for (unsigned d : llvm::reverse(dims.drop_front())) {
    loops[d] = arith::RemUIOp::create(b, loc, linear, sizes[d]);
    linear = arith::DivUIOp::create(b, loc, linear, sizes[d]);
  }
  loops[dims.front()] = linear;
}

SmallVector<Value> mlir::onnx::operandIndicesAt(OpBuilder &b, Location loc,
                                                linalg::LinalgOp op,
                                                OpOperand &operand,
                                                ArrayRef<Value> loops) {
  SmallVector<Value> indices;
  for (AffineExpr expr : op.getMatchingIndexingMap(&operand).getResults())
    indices.push_back(
        affine::expandAffineExpr(b, loc, expr, loops, ValueRange()));
  return indices;
}

SmallVector<Value> mlir::onnx::loopsAtIndices(linalg::LinalgOp op,
                                              OpOperand &operand,
                                              ArrayRef<Value> indices) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  assert(map.isPermutation() && "a permutation map");
  SmallVector<Value> loops(op.getNumLoops());
  for (auto [i, index] : llvm::enumerate(indices))
    loops[map.getDimPosition(i)] = index;
  return loops;
}

Value mlir::onnx::bufferRoot(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>()) {
    if (view.getViewDest() != buffer)
      break;
    buffer = view.getViewSource();
  }
  return buffer;
}

llvm::SmallPtrSet<Value, 8> mlir::onnx::bufferAliases(Value root) {
  llvm::SmallPtrSet<Value, 8> aliases;
  SmallVector<Value> work{root};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!aliases.insert(v).second)
      continue;
    for (Operation *user : v.getUsers())
      if (auto view = dyn_cast<ViewLikeOpInterface>(user))
        if (view.getViewSource() == v)
          work.push_back(view.getViewDest());
  }
  return aliases;
}

Value mlir::onnx::reshapeRoot(Value buffer) {
  while (true) {
    auto type = dyn_cast<MemRefType>(buffer.getType());
    if (!type || !type.getLayout().isIdentity())
      return nullptr;
    if (auto expand = buffer.getDefiningOp<memref::ExpandShapeOp>())
      buffer = expand.getSrc();
    else if (auto collapse = buffer.getDefiningOp<memref::CollapseShapeOp>())
      buffer = collapse.getSrc();
    else
      return bufferRoot(buffer) == buffer ? buffer : nullptr;
  }
}

SmallVector<Value> mlir::onnx::reshapeIndices(OpBuilder &b, Location loc,
                                              Value from, Value to,
                                              ArrayRef<Value> indices) {
  if (from == to)
    return SmallVector<Value>(indices);
  auto size = [&](Value buffer, int64_t i) -> Value {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.isDynamicDim(i))
      return arith::ConstantIndexOp::create(b, loc, type.getDimSize(i));
    return memref::DimOp::create(b, loc, buffer, i);
  };
  Value offset = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [i, index] : llvm::enumerate(indices))
    offset = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, offset, size(from, i)), index);
  int64_t rank = cast<MemRefType>(to.getType()).getRank();
  SmallVector<Value> result(rank);
  for (int64_t i = rank - 1; i > 0; --i) {
    Value n = size(to, i);
    result[i] = arith::RemUIOp::create(b, loc, offset, n);
    offset = arith::DivUIOp::create(b, loc, offset, n);
  }
  if (rank > 0)
    result[0] = offset;
  return result;
}

bool mlir::onnx::touchesBuffer(Operation *op,
                               const llvm::SmallPtrSetImpl<Value> &aliases) {
  if (isMemoryEffectFree(op))
    return false;
  WalkResult result = op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (aliases.contains(operand))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

bool mlir::onnx::isElementwiseKernelOp(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return false;
  if (!llvm::all_of(op->getOperandTypes(), isKernelType))
    return false;
  for (Operation &inner : op.getBlock()->without_terminator())
    if (!isa<linalg::IndexOp>(inner) &&
        (!isMemoryEffectFree(&inner) || !canRunInKernel(&inner)))
      return false;
  return true;
}

SmallVector<Value>
mlir::onnx::emitBodyAt(OpBuilder &b, Location loc, linalg::LinalgOp op,
                       ArrayRef<Value> loops,
                       ArrayRef<std::pair<OpOperand *, Value>> given) {
  IRMapping mapping;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (arg.use_empty())
      continue;
    if (auto it = llvm::find_if(
            given, [&](auto &pair) { return pair.first == &operand; });
        it != given.end()) {
      mapping.map(arg, it->second);
      continue;
    }
    Value value = operand.get();
    if (isa<MemRefType>(value.getType()))
      value = memref::LoadOp::create(
          b, loc, value, operandIndicesAt(b, loc, op, operand, loops));
    mapping.map(arg, value);
  }
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner))
      mapping.map(index.getResult(), loops[index.getDim()]);
    else
      b.clone(inner, mapping);
  }
  SmallVector<Value> results;
  for (Value yielded : body->getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(yielded));
  return results;
}

/// Whether `buffer` is a buffer of its own, which nothing outside the
/// function body aliases.
static bool isAllocated(Value buffer) {
  return buffer.getDefiningOp<memref::AllocOp>() ||
         buffer.getDefiningOp<memref::AllocaOp>();
}

/// The op before `op` that initializes its output `out` (of root `root`,
/// aliased by `aliases`): an elementwise op whose only output is `out`, at
/// a permutation, whose body does not read it, and whose inputs nothing
/// between it and `op` may write; nothing between them may touch the
/// output either.
static linalg::LinalgOp
matchPrologue(linalg::LinalgOp op, Value out, Value root,
              const llvm::SmallPtrSetImpl<Value> &aliases) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    auto candidate = dyn_cast<linalg::LinalgOp>(prev);
    if (!candidate || candidate.getNumDpsInits() != 1 ||
        candidate.getDpsInitOperand(0)->get() != out) {
      if (touchesBuffer(prev, aliases))
        return nullptr;
      continue;
    }
    OpOperand *init = candidate.getDpsInitOperand(0);
    if (!isElementwiseKernelOp(candidate) ||
        !candidate.getMatchingIndexingMap(init).isPermutation() ||
        !candidate.getMatchingBlockArgument(init).use_empty())
      return nullptr;
    for (OpOperand *input : candidate.getDpsInputOperands()) {
      if (!isa<MemRefType>(input->get().getType()))
        continue;
      Value inputRoot = bufferRoot(input->get());
      if (inputRoot == root)
        return nullptr;
      llvm::SmallPtrSet<Value, 8> inputAliases = bufferAliases(inputRoot);
      for (Operation *between = candidate->getNextNode(); between != op;
           between = between->getNextNode())
        if (touchesBuffer(between, inputAliases))
          return nullptr;
    }
    return candidate;
  }
  return nullptr;
}

/// The op right after `op` (past allocations and ops free of memory
/// effects) that consumes `value`, which `op` writes: an elementwise op
/// that reads `value` (and no other view of the buffers in `written`, those
/// the kernel writes) at one permutation, and writes, at permutations,
/// either `value` itself at that permutation or buffers of their own, and
/// that it reads itself only at the element it writes. Sets `fused` to its
/// operands that are `value`, and `writesRead` where it writes a buffer in
/// `read` (those the kernel reads: other threads may still read them).
static linalg::LinalgOp
matchEpilogue(Operation *op, Value value,
              const llvm::SmallPtrSetImpl<Value> &read,
              const llvm::SmallPtrSetImpl<Value> &written,
              SmallVectorImpl<OpOperand *> &fused, bool &writesRead) {
  Operation *next = op->getNextNode();
  while (next && !isa<linalg::LinalgOp>(next) &&
         (isMemoryEffectFree(next) ||
          isa<memref::AllocOp, memref::AllocaOp>(next)))
    next = next->getNextNode();
  auto consumer = dyn_cast_or_null<linalg::LinalgOp>(next);
  if (!consumer || !isElementwiseKernelOp(consumer))
    return nullptr;
  AffineMap fusedMap;
  bool readsValue = false;
  llvm::SmallPtrSet<Value, 4> writes;
  fused.clear();
  writesRead = false;
  for (OpOperand &operand : consumer->getOpOperands()) {
    Value buffer = operand.get();
    if (!isa<MemRefType>(buffer.getType()))
      continue;
    AffineMap map = consumer.getMatchingIndexingMap(&operand);
    // The value itself, or a reshape of it (the heads of an attention's
    // projection: [N, S, H * D] read as [N, S, H, D]).
    Value valueRoot = reshapeRoot(value);
    if (buffer == value || (valueRoot && reshapeRoot(buffer) == valueRoot)) {
      if (!map.isPermutation() || (fusedMap && map != fusedMap) ||
          (!fused.empty() && fused.front()->get() != buffer))
        return nullptr;
      fusedMap = map;
      fused.push_back(&operand);
      readsValue |= consumer.isDpsInput(&operand);
      continue;
    }
    Value root = bufferRoot(buffer);
    if (written.contains(root))
      return nullptr;
    if (!consumer.isDpsInit(&operand))
      continue;
    if (!map.isPermutation() || !isAllocated(root) ||
        !writes.insert(root).second)
      return nullptr;
    writesRead |= read.contains(root);
    // An input of the epilogue in the buffer it writes: only the element
    // each thread writes (in place, as a residual sum's).
    for (OpOperand *input : consumer.getDpsInputOperands())
      if (isa<MemRefType>(input->get().getType()) &&
          bufferRoot(input->get()) == root &&
          (input->get() != buffer ||
           consumer.getMatchingIndexingMap(input) != map))
        return nullptr;
  }
  if (!readsValue)
    return nullptr;
  return consumer;
}

/// Whether an op other than `ops` (and deallocations, views and dims) uses
/// the buffer of root `root`.
static bool hasOtherUsers(Value root, ArrayRef<Operation *> ops) {
  for (Value alias : bufferAliases(root))
    for (Operation *user : alias.getUsers())
      if (!isa<ViewLikeOpInterface, memref::DeallocOp, memref::DimOp>(user) &&
          !llvm::is_contained(ops, user))
        return true;
  return false;
}

/// Whether `op` writes every element of the buffer of root `root`, through
/// `alias` (the root or a reshape of it), without reading it.
static bool overwrites(Operation *op, Value alias, Value root) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || reshapeRoot(alias) != root)
    return false;
  bool written = false;
  for (OpOperand &operand : linalgOp->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()) ||
        bufferRoot(operand.get()) != root)
      continue;
    if (!linalgOp.isDpsInit(&operand) || operand.get() != alias ||
        linalgOp.payloadUsesValueFromOperand(&operand) ||
        !linalgOp.getMatchingIndexingMap(&operand).isPermutation())
      return false;
    written = true;
  }
  return written;
}

/// Whether no op after `op` but `next` (and deallocations, views and dims)
/// reads the buffer of root `root` before an op overwrites all of it: the
/// values `op` leaves there are read by `next` alone (the next layer may
/// reuse the buffer).
static bool onlyNextUses(Value root, Operation *op, Operation *next) {
  Block *block = op->getBlock();
  // The first op after `op` and `next` that uses the buffer, and the alias
  // it uses.
  Operation *first = nullptr;
  Value firstAlias;
  for (Value alias : bufferAliases(root))
    for (Operation *user : alias.getUsers()) {
      if (isa<ViewLikeOpInterface, memref::DeallocOp, memref::DimOp>(user) ||
          user == op || user == next)
        continue;
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor)
        return false;
      if (ancestor->isBeforeInBlock(op))
        continue;
      if (ancestor != user || ancestor->isBeforeInBlock(next))
        return false;
      if (!first || user->isBeforeInBlock(first))
        first = user, firstAlias = alias;
      else if (user == first && alias != firstAlias)
        return false;
    }
  return !first || overwrites(first, firstAlias, root);
}

/// Whether `stage` writes the value it reads in place.
static bool writesInPlace(const Fusion::Stage &stage) {
  linalg::LinalgOp op = stage.op;
  return llvm::any_of(
      stage.fused, [&](OpOperand *operand) { return op.isDpsInit(operand); });
}

Fusion mlir::onnx::matchFusion(linalg::LinalgOp op,
                               llvm::SmallPtrSetImpl<Operation *> &claimed) {
  Fusion fusion;
  Value out = op.getDpsInitOperand(0)->get();
  Value root = bufferRoot(out);
  if (!isAllocated(root))
    return fusion;
  fusion.prologue = matchPrologue(op, out, root, bufferAliases(root));
  if (fusion.prologue && claimed.contains(fusion.prologue))
    fusion.prologue = nullptr;
  // The buffers the kernel reads (other threads may still read them while
  // a thread runs an epilogue) and writes.
  llvm::SmallPtrSet<Value, 8> read, written;
  auto addInputs = [&](linalg::LinalgOp reader) {
    for (OpOperand *input : reader.getDpsInputOperands())
      if (isa<MemRefType>(input->get().getType()))
        read.insert(bufferRoot(input->get()));
  };
  addInputs(op);
  if (fusion.prologue)
    addInputs(fusion.prologue);
  written.insert(root);
  // A chain of epilogues, each reading the one output of the one before.
  Operation *last = op;
  Value value = out;
  while (fusion.epilogues.size() < kMaxEpilogues) {
    Fusion::Stage stage;
    stage.op = matchEpilogue(last, value, read, written, stage.fused,
                             stage.writesRead);
    if (!stage.op || claimed.contains(stage.op))
      break;
    addInputs(stage.op);
    for (Value init : stage.op.getDpsInits())
      written.insert(bufferRoot(init));
    fusion.epilogues.push_back(stage);
    if (stage.op.getNumDpsInits() != 1)
      break;
    last = stage.op;
    value = stage.op.getDpsInits().front();
  }
  // A stage that writes a buffer the kernel reads (bufferization reused an
  // operand's buffer for it, as for the f16 rounding of an attention's
  // context before its transpose) is fused only where the kernel need not
  // store its results: the next stage is fused too (and does not write
  // them in place), and no op after the two reads the buffer before one
  // overwrites all of it (onlyNextUses). Other threads may still read the
  // operand while a thread runs the stage; its values stay in registers.
  // (Cutting the chain may leave an earlier such stage last: check again.)
  auto needsStore = [&](size_t i) {
    Fusion::Stage &stage = fusion.epilogues[i];
    return stage.writesRead &&
           !(i + 1 < fusion.epilogues.size() &&
             stage.op.getNumDpsInits() == 1 &&
             !writesInPlace(fusion.epilogues[i + 1]) &&
             onlyNextUses(bufferRoot(stage.op.getDpsInits().front()), stage.op,
                          fusion.epilogues[i + 1].op));
  };
  for (size_t i = 0; i < fusion.epilogues.size();) {
    if (needsStore(i)) {
      fusion.epilogues.resize(i);
      i = 0;
      continue;
    }
    ++i;
  }
  if (fusion.prologue)
    claimed.insert(fusion.prologue);
  for (Fusion::Stage &stage : fusion.epilogues)
    claimed.insert(stage.op);
  // Each stage's results (the kernel's, then each epilogue's but the
  // last's) are stored unless the next stage writes them in place, or no
  // op but it and the next stage uses them.
  for (size_t i = 0; i < fusion.epilogues.size(); ++i) {
    const Fusion::Stage &next = fusion.epilogues[i];
    bool &store =
        i == 0 ? fusion.storeOutput : fusion.epilogues[i - 1].storeResults;
    SmallVector<Operation *> users = {next.op};
    Value stored = out;
    if (i == 0) {
      users.push_back(op);
      if (fusion.prologue)
        users.push_back(fusion.prologue);
    } else {
      users.push_back(fusion.epilogues[i - 1].op);
      stored = fusion.epilogues[i - 1].op.getDpsInits().front();
    }
    store = !writesInPlace(next) && hasOtherUsers(bufferRoot(stored), users);
    if (i > 0 && fusion.epilogues[i - 1].writesRead)
      store = false; // (checked above: only the next stage reads them)
  }
  return fusion;
}

Value mlir::onnx::emitOutputElement(OpBuilder &b, Location loc,
                                    const Fusion &fusion, OpOperand &out,
                                    ArrayRef<Value> indices) {
  linalg::LinalgOp prologue = fusion.prologue;
  if (!prologue)
    return memref::LoadOp::create(b, loc, out.get(), indices);
  SmallVector<Value> loops =
      loopsAtIndices(prologue, *prologue.getDpsInitOperand(0), indices);
  return emitBodyAt(b, loc, prologue, loops,
                    /*given=*/{})
      .front();
}

void mlir::onnx::emitStoreOutputElement(OpBuilder &b, Location loc,
                                        const Fusion &fusion, OpOperand &out,
                                        ArrayRef<Value> indices, Value value) {
  if (fusion.storeOutput)
    memref::StoreOp::create(b, loc, value, out.get(), indices);
  // The element the stage before computed, in the buffer it writes (the
  // next stage may read a reshape of it).
  SmallVector<Value> at(indices);
  Value atBuffer = out.get();
  for (const Fusion::Stage &stage : fusion.epilogues) {
    linalg::LinalgOp epilogue = stage.op;
    OpOperand &fused = *stage.fused.front();
    SmallVector<Value> loops = loopsAtIndices(
        epilogue, fused, reshapeIndices(b, loc, atBuffer, fused.get(), at));
    SmallVector<std::pair<OpOperand *, Value>> given;
    for (OpOperand *operand : stage.fused)
      given.push_back({operand, value});
    SmallVector<Value> results = emitBodyAt(b, loc, epilogue, loops, given);
    for (auto [init, result] :
         llvm::zip(epilogue.getDpsInitsMutable(), results)) {
      SmallVector<Value> initAt =
          operandIndicesAt(b, loc, epilogue, init, loops);
      if (stage.storeResults)
        memref::StoreOp::create(b, loc, result, init.get(), initAt);
      // The next stage reads the one result.
      value = result;
      at = initAt;
      atBuffer = init.get();
    }
  }
}

void mlir::onnx::cloneFallback(OpBuilder &b, const Fusion &fusion,
                               linalg::LinalgOp op) {
  if (linalg::LinalgOp prologue = fusion.prologue)
    b.clone(*prologue.getOperation());
  b.clone(*op.getOperation())->setAttr(kGPUFallbackAttr, b.getUnitAttr());
  for (const Fusion::Stage &stage : fusion.epilogues) {
    linalg::LinalgOp epilogue = stage.op;
    b.clone(*epilogue.getOperation());
  }
}

void mlir::onnx::guardKernel(OpBuilder &b, Location loc, Value fits,
                             function_ref<void()> fallback) {
  if (matchPattern(fits, m_One()))
    return;
  auto ifOp = scf::IfOp::create(b, loc, fits, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    fallback();
  }
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
}

void mlir::onnx::eraseFused(const Fusion &fusion, linalg::LinalgOp op) {
  for (const Fusion::Stage &stage : llvm::reverse(fusion.epilogues)) {
    linalg::LinalgOp epilogue = stage.op;
    epilogue->erase();
  }
  op->erase();
  if (linalg::LinalgOp prologue = fusion.prologue)
    prologue->erase();
}

void mlir::onnx::buildFusedLoops(
    OpBuilder &b, Location loc, linalg::LinalgOp op, const Fusion &fusion,
    TypedAttr identity,
    llvm::function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
    bool parallel, const PaddedImage *padded, FoldElement fold) {
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Value> sizes;
  for (Range range : op.createLoopRanges(b, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> loops(op.getNumLoops(), zero);
  SmallVector<unsigned> reduced, outer;
  for (auto [d, type] : llvm::enumerate(op.getIteratorTypesArray()))
    (type == utils::IteratorType::reduction ? reduced : outer).push_back(d);
  // The outer dims in the order of the output's (a depthwise convolution's
  // channel dim comes after the positions' but is outer in NCHW): the
  // threads of a warp then store, and mostly load, consecutive elements.
  OpOperand &out = *op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(&out);
  if (outMap.isProjectedPermutation() &&
      outMap.getNumResults() == outer.size()) {
    SmallVector<unsigned> ordered;
    for (unsigned i = 0; i < outMap.getNumResults(); ++i)
      ordered.push_back(outMap.getDimPosition(i));
    if (llvm::all_of(ordered,
                     [&](unsigned d) { return llvm::is_contained(outer, d); }))
      outer = ordered;
  }
  if (parallel && !outer.empty()) {
    SmallVector<Value> zeros(outer.size(), zero), ones(outer.size(), one),
        upper;
    for (unsigned d : outer)
      upper.push_back(sizes[d]);
    auto loop = scf::ParallelOp::create(b, loc, zeros, upper, ones);
    b.setInsertionPointToStart(loop.getBody());
    for (auto [d, iv] : llvm::zip(outer, loop.getInductionVars()))
      loops[d] = iv;
  } else {
    for (unsigned d : outer) {
      auto loop = scf::ForOp::create(b, loc, zero, sizes[d], one);
      b.setInsertionPointToStart(loop.getBody());
      loops[d] = loop.getInductionVar();
    }
  }
  Value folded = arith::ConstantOp::create(b, loc, identity);
  {
    OpBuilder::InsertionGuard inner(b);
    SmallVector<scf::ForOp> nest;
    for (unsigned d : reduced) {
      auto loop = scf::ForOp::create(
          b, loc, zero, sizes[d], one,
          ValueRange{nest.empty() ? folded
                                  : nest.back().getRegionIterArgs().front()});
      if (!nest.empty())
        scf::YieldOp::create(b, loc, loop.getResults());
      b.setInsertionPointToStart(loop.getBody());
      loops[d] = loop.getInductionVar();
      nest.push_back(loop);
    }
    if (!nest.empty()) {
      SmallVector<std::pair<OpOperand *, Value>> given = {
          {&out, nest.back().getRegionIterArgs().front()}};
      if (padded) {
        // The source's element, or the fill's value outside it.
        Value in;
        SmallVector<Value> indices = sourceIndices(
            b, loc, *padded,
            operandIndicesAt(b, loc, op, *padded->image, loops), in);
        Value element = memref::LoadOp::create(b, loc, padded->source, indices);
        if (in)
          element = arith::SelectOp::create(
              b, loc, in, element,
              arith::ConstantOp::create(b, loc, padded->value));
        given.push_back({padded->image, element});
      }
      auto atElement = [&](Value outValue) {
        given.front().second = outValue;
        return emitBodyAt(b, loc, op, loops, given).front();
      };
      Value acc = nest.back().getRegionIterArgs().front();
      scf::YieldOp::create(
          b, loc, fold ? fold(b, loc, acc, atElement) : atElement(acc));
      folded = nest.front().getResult(0);
    }
  }
  for (unsigned d : reduced)
    loops[d] = zero;
  SmallVector<Value> indices = operandIndicesAt(b, loc, op, out, loops);
  Value init = emitOutputElement(b, loc, fusion, out, indices);
  emitStoreOutputElement(b, loc, fusion, out, indices,
                         combine(b, loc, init, folded));
}

//===----------------------------------------------------------------------===//
// Images padded for one op
//===----------------------------------------------------------------------===//

/// The constant `op` writes into the whole of `buffer`: a linalg.fill's, or
/// that of a linalg op without inputs whose body yields it (a linalg.map).
static TypedAttr filledWith(Operation *op, Value buffer) {
  Value value;
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    if (fill.output() != buffer)
      return nullptr;
    value = fill.value();
  } else {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || linalgOp.getNumDpsInputs() != 0 ||
        linalgOp.getNumDpsInits() != 1 ||
        linalgOp.getDpsInitOperand(0)->get() != buffer ||
        linalgOp.getNumReductionLoops() != 0)
      return nullptr;
    auto yield =
        dyn_cast<linalg::YieldOp>(linalgOp.getBlock()->getTerminator());
    if (!yield || yield.getNumOperands() != 1)
      return nullptr;
    value = yield.getOperand(0);
  }
  TypedAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) ||
      attr.getType() != cast<MemRefType>(buffer.getType()).getElementType())
    return nullptr;
  return attr;
}

/// Whether `op` copies `from` into the whole of `to` as it is.
static bool copies(Operation *op, Value &from, Value to) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumDpsInputs() != 1 ||
      linalgOp.getNumDpsInits() != 1 ||
      linalgOp.getDpsInitOperand(0)->get() != to ||
      linalgOp.getNumReductionLoops() != 0 ||
      !llvm::all_of(linalgOp.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(linalgOp.getBlock()->getTerminator());
  if (!yield || yield.getNumOperands() != 1 ||
      yield.getOperand(0) != linalgOp.getBlock()->getArgument(0))
    return false;
  from = linalgOp.getDpsInputOperand(0)->get();
  return true;
}

std::optional<PaddedImage> mlir::onnx::matchPaddedImage(linalg::LinalgOp op,
                                                        OpOperand &image,
                                                        const Fusion &fusion) {
  auto alloc = image.get().getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getType().hasStaticShape() ||
      alloc->getBlock() != op->getBlock())
    return std::nullopt;
  PaddedImage result{&image, alloc, {}, {}, {}, nullptr, nullptr, nullptr};
  for (Operation *user : alloc->getUsers()) {
    if (user == op.getOperation() || isa<memref::DeallocOp>(user))
      continue;
    if (!result.fill)
      if (TypedAttr value = filledWith(user, alloc)) {
        result.fill = user;
        result.value = value;
        continue;
      }
    auto interior = dyn_cast<memref::SubViewOp>(user);
    if (result.interior || !interior || !interior->hasOneUse() ||
        interior.getSourceType().getRank() != interior.getType().getRank() ||
        !llvm::all_of(interior.getStaticStrides(),
                      [](int64_t stride) { return stride == 1; }) ||
        llvm::any_of(interior.getStaticOffsets(), ShapedType::isDynamic) ||
        !copies(*interior->getUsers().begin(), result.source, interior))
      return std::nullopt;
    result.interior = interior;
    result.copy = *interior->getUsers().begin();
    result.low.assign(interior.getStaticOffsets().begin(),
                      interior.getStaticOffsets().end());
  }
  // The operand is used once by `op` (its buffer is not also its output).
  if (!result.fill || !result.copy ||
      result.copy->getBlock() != op->getBlock() ||
      !result.fill->isBeforeInBlock(result.copy) ||
      !result.copy->isBeforeInBlock(op) ||
      llvm::count_if(op->getOperands(),
                     [&](Value v) { return v == result.padded; }) != 1)
    return std::nullopt;
  // (A source with no element would leave nothing to clamp a load into.)
  auto sourceType = dyn_cast<MemRefType>(result.source.getType());
  if (!sourceType || !sourceType.hasStaticShape() ||
      sourceType.getNumElements() == 0 ||
      sourceType.getElementType() != alloc.getType().getElementType())
    return std::nullopt;
  llvm::SmallPtrSet<Value, 8> aliases =
      bufferAliases(bufferRoot(result.source));
  Operation *prologue = fusion.prologue;
  for (Operation *between = result.copy->getNextNode(); between != op;
       between = between->getNextNode())
    if (between != prologue && touchesBuffer(between, aliases))
      return std::nullopt;
  return result;
}

/// Makes the ops from `first` on write and read a new allocation where they
/// wrote and read `root` (an allocation of the block), which is deallocated
/// right after `last` (the kernel's last op). Where a view of `root` is used
/// from `first` on, does nothing and returns false.
static bool redirectOverwrite(Operation *first, Operation *last, Value root,
                              const llvm::SmallPtrSetImpl<Value> &aliases) {
  auto alloc = root.getDefiningOp<memref::AllocOp>();
  Block *block = first->getBlock();
  if (!alloc || alloc->getBlock() != block || !alloc.getDynamicSizes().empty())
    return false;
  auto fromFirst = [&](OpOperand &use) {
    Operation *at = block->findAncestorOpInBlock(*use.getOwner());
    return at && (at == first || first->isBeforeInBlock(at));
  };
  for (Value alias : aliases)
    if (alias != root && llvm::any_of(alias.getUses(), fromFirst))
      return false;
  OpBuilder b(first);
  Value fresh = b.clone(*alloc)->getResult(0);
  root.replaceUsesWithIf(fresh, fromFirst);
  b.setInsertionPointAfter(last);
  memref::DeallocOp::create(b, first->getLoc(), root);
  return true;
}

bool mlir::onnx::redirectSourceWrites(linalg::LinalgOp op, const Fusion &fusion,
                                      Operation *last,
                                      const PaddedImage &padded) {
  Value root = bufferRoot(padded.source);
  llvm::SmallPtrSet<Value, 8> aliases = bufferAliases(root);
  auto writesSource = [&](linalg::LinalgOp stage) {
    return stage && llvm::any_of(stage.getDpsInits(), [&](Value init) {
             return aliases.contains(init) ||
                    aliases.contains(bufferRoot(init));
           });
  };
  // Writes the whole source (the allocation itself, at a permutation)
  // without reading what was there, or none of it.
  auto overwritesWhole = [&](linalg::LinalgOp stage) {
    return llvm::all_of(stage.getDpsInitsMutable(), [&](OpOperand &init) {
      if (!aliases.contains(init.get()) &&
          !aliases.contains(bufferRoot(init.get())))
        return true;
      return init.get() == root &&
             stage.getMatchingIndexingMap(&init).isPermutation() &&
             !stage.payloadUsesValueFromOperand(&init);
    });
  };
  // The first of the ops that write the source, which must overwrite it:
  // the prologue, or an epilogue where `op` does not write it (it would
  // read the source's elements as its initial values).
  Operation *first = nullptr;
  linalg::LinalgOp prologue = fusion.prologue;
  if (writesSource(prologue)) {
    if (!overwritesWhole(prologue))
      return false;
    first = prologue;
  } else if (writesSource(op)) {
    return false;
  }
  for (const Fusion::Stage &stage : fusion.epilogues) {
    if (!writesSource(stage.op))
      continue;
    if (!overwritesWhole(stage.op))
      return false;
    if (!first)
      first = op;
  }
  return !first || redirectOverwrite(first, last, root, aliases);
}

SmallVector<Value> mlir::onnx::sourceIndices(OpBuilder &b, Location loc,
                                             const PaddedImage &padded,
                                             ArrayRef<Value> indices,
                                             Value &in) {
  auto paddedType = cast<MemRefType>(padded.padded.getType());
  auto sourceType = cast<MemRefType>(padded.source.getType());
  SmallVector<Value> result(indices);
  for (auto [d, low] : llvm::enumerate(padded.low)) {
    int64_t size = sourceType.getDimSize(d);
    if (low == 0 && size == paddedType.getDimSize(d))
      continue;
    Value at = arith::SubIOp::create(
        b, loc, indices[d], arith::ConstantIndexOp::create(b, loc, low));
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, at,
                              arith::ConstantIndexOp::create(b, loc, size));
    in = in ? arith::AndIOp::create(b, loc, in, inside).getResult() : inside;
    result[d] = arith::MinUIOp::create(
        b, loc, at, arith::ConstantIndexOp::create(b, loc, size - 1));
  }
  return result;
}

void mlir::onnx::erasePaddedImage(const PaddedImage &padded) {
  padded.copy->erase();
  padded.interior->erase();
  padded.fill->erase();
  for (Operation *user : llvm::make_early_inc_range(padded.padded.getUsers()))
    user->erase();
  padded.padded.getDefiningOp()->erase();
}
