//===- PlanMemory.cpp - A static memory plan for the entry function -------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Buffer deallocation frees the entry function's buffers at its end, so a
// run of ResNet-50 held every intermediate tensor at once and allocated all
// of them again on each run. Here the statically shaped ones are placed at
// compile time in one arena, by liveness:
//
//   %a = memref.alloc() : memref<1x64x56x56xf32>      (live over ops 3..7)
//   %b = memref.alloc() : memref<1x64x56x56xf32>      (live over ops 8..12)
//   ...
//   memref.dealloc %a
//   memref.dealloc %b
//
// becomes
//
//   %busy = memref.get_global @main_arena_busy : memref<1xi32>
//   %was = memref.atomic_rmw assign %c1_i32, %busy[%c0]
//   %free = arith.cmpi eq, %was, %c0_i32
//   %arena = scf.if %free -> memref<802816xi8> {
//     %g = memref.get_global @main_arena        (mapped at load)
//   } else {
//     %m = memref.alloc() {alignment = 64}      (a concurrent run's own)
//   }
//   %a = memref.view %arena[%c0][] : ... to memref<1x64x56x56xf32>
//   %b = memref.view %arena[%c0][] : ... to memref<1x64x56x56xf32>
//   ...
//   scf.if %free { clear the flag } else { memref.dealloc %arena }
//
// A buffer's live range is [its alloc, the last top-level op that uses it
// or any value derived from it]; values derived are the results of the ops
// that use it (views, casts, loops that yield it) and the block arguments
// its uses bind. A buffer stays as it is when a value derived from it may
// leave the function (return, call, pointer taken, an op of a dialect this
// pass does not know) or when its dealloc is not one unconditional
// memref.dealloc at the top level.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_OUTPUTPARAMSPASS
#define GEN_PASS_DEF_PLANMEMORYPASS
#include "OnnxDialect/Pipelines/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;

/// The module's entry function when its body is one block (else null).
static func::FuncOp entryWithOneBlock(ModuleOp module) {
  func::FuncOp entry = onnx::findEntryFunction(module);
  if (!entry || entry.isExternal() || !entry.getBody().hasOneBlock())
    return nullptr;
  return entry;
}

/// Offsets and the arena's size are multiples of this (a cache line, the
/// alignment the bufferization gives allocations).
static constexpr int64_t kAlignment = 64;

namespace {
/// A buffer of the plan: its alloc and dealloc, bytes, live range (top-level
/// op positions, inclusive) and, once placed, its offset in the arena.
struct Buffer {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  int64_t bytes = 0;
  int64_t first = 0, last = 0;
  int64_t offset = -1;
};
} // namespace

/// The bytes of a buffer of `type` as the LLVM lowering lays it out, or -1
/// when this pass does not plan such buffers (or the size overflows).
static int64_t bytesOf(MemRefType type, const DataLayout &layout) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace())
    return -1;
  int64_t elementBytes =
      onnx::bufferElementBytes(type.getElementType(), layout);
  if (elementBytes < 0)
    return -1;
  std::optional<int64_t> bytes = elementBytes;
  for (int64_t dim : type.getShape())
    bytes = bytes ? llvm::checkedMul(*bytes, dim) : std::nullopt;
  return bytes ? std::max<int64_t>(*bytes, 1) : -1;
}

/// Whether `user`, given a value that points into a buffer as `operand`,
/// may let the pointer out of the function or free it other than by the
/// top-level dealloc: the buffer is then left to the allocator.
static bool mayEscape(Operation *user, OpOperand &operand) {
  if (isa<func::ReturnOp, CallOpInterface,
          memref::ExtractAlignedPointerAsIndexOp>(user))
    return true;
  // A buffer stored as a value (a memref of memrefs).
  if (auto store = dyn_cast<memref::StoreOp>(user))
    return &operand == &store.getValueMutable();
  Dialect *dialect = user->getDialect();
  return !isa_and_nonnull<memref::MemRefDialect, vector::VectorDialect,
                          linalg::LinalgDialect, scf::SCFDialect,
                          affine::AffineDialect, arith::ArithDialect,
                          math::MathDialect>(dialect);
}

/// Fills `buffer`'s dealloc and live range from the uses of its alloc and
/// of the values derived from it; false when it may not be planned.
static bool analyze(Buffer &buffer, Block &body,
                    const DenseMap<Operation *, int64_t> &position) {
  SmallVector<Value> worklist{buffer.alloc.getResult()};
  DenseSet<Value> seen{buffer.alloc.getResult()};
  auto derive = [&](Value value) {
    if (isa<BaseMemRefType>(value.getType()) && seen.insert(value).second)
      worklist.push_back(value);
  };
  // The values `op` defines: its results and its regions' arguments.
  auto deriveAll = [&](Operation *op) {
    for (Value result : op->getResults())
      derive(result);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          derive(argument);
  };
  buffer.first = buffer.last = position.lookup(buffer.alloc);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        if (dealloc->getBlock() != &body || buffer.dealloc)
          return false;
        buffer.dealloc = dealloc;
        continue;
      }
      if (mayEscape(user, use))
        return false;
      Operation *top = body.findAncestorOpInBlock(*user);
      if (!top)
        return false;
      buffer.last = std::max(buffer.last, position.lookup(top));
      deriveAll(user);
      // A terminator hands the value to its parent (scf.yield, ...).
      if (user->hasTrait<OpTrait::IsTerminator>())
        if (Operation *parent = user->getParentOp())
          deriveAll(parent);
    }
  }
  return static_cast<bool>(buffer.dealloc);
}

/// Places the buffers, largest first, each at the lowest aligned offset
/// that no placed buffer live at the same time covers; returns the arena's
/// size.
static int64_t place(MutableArrayRef<Buffer> buffers) {
  SmallVector<Buffer *> order;
  for (Buffer &buffer : buffers)
    order.push_back(&buffer);
  llvm::stable_sort(order, [](const Buffer *a, const Buffer *b) {
    return a->bytes > b->bytes;
  });
  SmallVector<Buffer *> placed;
  int64_t size = 0;
  for (Buffer *buffer : order) {
    SmallVector<Buffer *> overlapping;
    for (Buffer *other : placed)
      if (other->first <= buffer->last && buffer->first <= other->last)
        overlapping.push_back(other);
    llvm::sort(overlapping, [](const Buffer *a, const Buffer *b) {
      return a->offset < b->offset;
    });
    int64_t offset = 0;
    for (Buffer *other : overlapping) {
      if (offset + buffer->bytes <= other->offset)
        break;
      offset = std::max<int64_t>(
          offset, llvm::alignTo(other->offset + other->bytes, kAlignment));
    }
    buffer->offset = offset;
    size = std::max(size, offset + buffer->bytes);
    placed.push_back(buffer);
  }
  return static_cast<int64_t>(llvm::alignTo(size, kAlignment));
}

namespace {
struct PlanMemoryPass
    : public mlir::onnx::impl::PlanMemoryPassBase<PlanMemoryPass> {
  using PlanMemoryPassBase::PlanMemoryPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp entry = entryWithOneBlock(module);
    if (!entry)
      return;
    Block &body = entry.getBody().front();
    DenseMap<Operation *, int64_t> position;
    for (auto [index, op] : llvm::enumerate(body))
      position[&op] = index;
    DataLayout layout = DataLayout::closest(entry);
    SmallVector<Buffer> buffers;
    for (auto alloc : body.getOps<memref::AllocOp>()) {
      Buffer buffer;
      buffer.alloc = alloc;
      buffer.bytes = bytesOf(alloc.getType(), layout);
      if (buffer.bytes >= 0 && buffer.bytes <= maxBufferBytes &&
          analyze(buffer, body, position))
        buffers.push_back(buffer);
    }
    if (buffers.empty())
      return;
    int64_t size = place(buffers);
    rewrite(module, entry, buffers, size);
  }

  /// The arena's globals and its acquisition on entry, each buffer a view of
  /// it, its release before each return.
  void rewrite(ModuleOp module, func::FuncOp entry,
               MutableArrayRef<Buffer> buffers, int64_t size) {
    MLIRContext *context = module.getContext();
    Location loc = entry.getLoc();
    auto arenaType = MemRefType::get({size}, IntegerType::get(context, 8));
    auto flagType = MemRefType::get({1}, IntegerType::get(context, 32));
    OpBuilder builder(context);
    builder.setInsertionPoint(entry);
    SymbolTable symbols(module);
    auto arenaGlobal = memref::GlobalOp::create(
        builder, loc, (entry.getSymName() + "_arena").str(),
        builder.getStringAttr("private"), arenaType, builder.getUnitAttr(),
        /*constant=*/false, builder.getI64IntegerAttr(kAlignment));
    symbols.insert(arenaGlobal);
    auto zeroFlag =
        DenseElementsAttr::get(RankedTensorType::get({1}, builder.getI32Type()),
                               builder.getI32IntegerAttr(0).getValue());
    auto flagGlobal = memref::GlobalOp::create(
        builder, loc, (entry.getSymName() + "_arena_busy").str(),
        builder.getStringAttr("private"), flagType, zeroFlag,
        /*constant=*/false, builder.getI64IntegerAttr(4));
    symbols.insert(flagGlobal);

    Block &body = entry.getBody().front();
    builder.setInsertionPointToStart(&body);
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one32 = arith::ConstantIntOp::create(builder, loc, 1, 32);
    Value zero32 = arith::ConstantIntOp::create(builder, loc, 0, 32);
    Value flag = memref::GetGlobalOp::create(builder, loc, flagType,
                                             flagGlobal.getSymName());
    Value was =
        memref::AtomicRMWOp::create(builder, loc, arith::AtomicRMWKind::assign,
                                    one32, flag, ValueRange{zero});
    Value free = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                       was, zero32);
    auto acquire = scf::IfOp::create(
        builder, loc, free,
        [&](OpBuilder &b, Location l) {
          Value global = memref::GetGlobalOp::create(b, l, arenaType,
                                                     arenaGlobal.getSymName());
          scf::YieldOp::create(b, l, global);
        },
        [&](OpBuilder &b, Location l) {
          Value own = memref::AllocOp::create(b, l, arenaType,
                                              b.getI64IntegerAttr(kAlignment));
          scf::YieldOp::create(b, l, own);
        });
    Value arena = acquire.getResult(0);

    for (Buffer &buffer : buffers) {
      builder.setInsertionPoint(buffer.alloc);
      Value offset =
          arith::ConstantIndexOp::create(builder, loc, buffer.offset);
      Value view = memref::ViewOp::create(builder, buffer.alloc.getLoc(),
                                          buffer.alloc.getType(), arena, offset,
                                          ValueRange{});
      buffer.alloc.getResult().replaceAllUsesWith(view);
      buffer.dealloc.erase();
      buffer.alloc.erase();
    }

    auto release = [&](OpBuilder &b, Location l) {
      scf::IfOp::create(
          b, l, free,
          [&](OpBuilder &t, Location tl) {
            memref::AtomicRMWOp::create(t, tl, arith::AtomicRMWKind::assign,
                                        zero32, flag, ValueRange{zero});
            scf::YieldOp::create(t, tl);
          },
          [&](OpBuilder &e, Location el) {
            memref::DeallocOp::create(e, el, arena);
            scf::YieldOp::create(e, el);
          });
    };
    Operation *terminator = body.getTerminator();
    builder.setInsertionPoint(terminator);
    release(builder, terminator->getLoc());
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Outputs as arguments
//===----------------------------------------------------------------------===//

/// The buffer `value` is a view of (through view-like ops), or null when
/// that is not a memref.alloc at the top level of `body`.
static memref::AllocOp rootAlloc(Value value, Block &body) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  auto alloc = value.getDefiningOp<memref::AllocOp>();
  return alloc && alloc->getBlock() == &body ? alloc : nullptr;
}

namespace {
struct OutputParamsPass
    : public mlir::onnx::impl::OutputParamsPassBase<OutputParamsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp entry = entryWithOneBlock(module);
    if (!entry)
      return;
    Block &body = entry.getBody().front();
    auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
    if (!ret)
      return;
    // The allocations the outputs are views of, and how many outputs each
    // gives (a buffer returned twice stays a result: the runtime copies it).
    DenseMap<Operation *, unsigned> returned;
    for (Value value : ret.getOperands())
      if (memref::AllocOp alloc = rootAlloc(value, body))
        ++returned[alloc];
    SmallVector<Attribute> moved;
    llvm::BitVector erase(ret.getNumOperands());
    OpBuilder builder(ret);
    for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
      auto type = dyn_cast<MemRefType>(value.getType());
      memref::AllocOp alloc = rootAlloc(value, body);
      if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
          type.getMemorySpace() ||
          !type.getElementType().isIntOrIndexOrFloat() || !alloc ||
          returned.lookup(alloc) != 1)
        continue;
      unsigned position = entry.getNumArguments();
      if (failed(entry.insertArgument(
              position, type, entry.getResultAttrDict(index), value.getLoc())))
        return signalPassFailure();
      BlockArgument param = body.getArgument(position);
      if (value == alloc.getResult()) {
        // Computed in place, into the caller's buffer.
        alloc.getResult().replaceAllUsesWith(param);
        alloc.erase();
      } else {
        // A view of a buffer of the function: copied, then freed.
        memref::CopyOp::create(builder, value.getLoc(), value, param);
        memref::DeallocOp::create(builder, value.getLoc(), alloc);
      }
      SmallVector<int64_t> described{static_cast<int64_t>(index)};
      llvm::append_range(described, type.getShape());
      moved.push_back(DenseI64ArrayAttr::get(module.getContext(), described));
      erase.set(index);
    }
    if (moved.empty())
      return;
    ret->eraseOperands(erase);
    if (failed(entry.eraseResults(erase)))
      return signalPassFailure();
    module->setAttr("onnx.output_params",
                    ArrayAttr::get(module.getContext(), moved));
  }
};
} // namespace
