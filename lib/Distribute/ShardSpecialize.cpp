//===- ShardSpecialize.cpp - The partitioned program of one rank ----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-shard-specialize: every rank compiles its own program (the runtime
// knows its rank before it compiles), so the process index is a constant,
// the offsets of its shards fold, and the collectives that
// convert-shard-to-mpi does not lower are rewritten into ones it does.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Codegen/CPU/Passes.h"
#include "OnnxDialect/Distribute/Passes.h"
#include "OnnxDialect/Pipelines/Pipelines.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <limits>

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_SHARDSPECIALIZE
#include "OnnxDialect/Distribute/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// The runtime's all-gathers (lib/Runtime/MPI.cpp): over the model's
/// communicator, and over a group of it (the ranks that differ only in some
/// grid axes), split once per call site and kept in the site's slot. The
/// attribute on their calls records the bytes each moves.
constexpr const char *kAllGatherFunction = "onnxd_rt_allgather";
constexpr const char *kAllGatherGroupFunction = "onnxd_rt_allgather_group";
constexpr const char *kCommBytesAttr = "onnx.comm_bytes";

/// A new zeroed pair of pointers, private to the module, where the runtime
/// keeps the communicator that one call site splits off (the communicator
/// it was split from, and the result): `onnx_comm_slot_<n>`.
LLVM::GlobalOp createCommSlot(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto i64 = IntegerType::get(ctx, 64);
  auto type = LLVM::LLVMArrayType::get(i64, 2);
  std::string name;
  for (int n = 0;; ++n) {
    name = "onnx_comm_slot_" + std::to_string(n);
    if (!module.lookupSymbol(name))
      break;
  }
  return LLVM::GlobalOp::create(
      b, module.getLoc(), type, /*isConstant=*/false, LLVM::Linkage::Private,
      name,
      DenseElementsAttr::get(RankedTensorType::get({2}, i64),
                             ArrayRef<int64_t>{0, 0}));
}

/// The ranks a collective over some grid axes runs among: `size` of them,
/// this rank's place `key` among them, and `color` naming the group (the
/// rank's coordinates on the other axes). `world` when the group is every
/// rank in rank order.
struct Group {
  int64_t size = 1, key = 0, color = 0;
  bool world = false;
};

struct ShardSpecializePass
    : public onnx::impl::ShardSpecializeBase<ShardSpecializePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto rankAttr = module->getAttrOfType<IntegerAttr>("onnx.shard_rank");
    if (!rankAttr)
      return; // not compiled for one rank: nothing to specialize
    rank = rankAttr.getInt();
    auto grid = module.lookupSymbol<shard::GridOp>(kShardGridName);
    if (grid) {
      if (ShapedType::isDynamicShape(grid.getShape())) {
        grid.emitError("onnx-shard-specialize expects a static grid");
        return signalPassFailure();
      }
      shape.assign(grid.getShape().begin(), grid.getShape().end());
    }

    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<shard::ProcessMultiIndexOp, shard::ProcessLinearIndexOp,
              shard::AllSliceOp, shard::AllGatherOp, shard::AllToAllOp,
              mpi::CommRankOp, mpi::CommSplitOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (failed(rewrite(op)))
        return signalPassFailure();
  }

  LogicalResult rewrite(Operation *op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto index = dyn_cast<shard::ProcessMultiIndexOp>(op)) {
      SmallVector<int64_t> coords = distribute::gridCoordinates(rank, shape);
      ArrayRef<int16_t> axes = index.getAxes();
      for (auto [i, r] : llvm::enumerate(index.getResults()))
        r.replaceAllUsesWith(arith::ConstantIndexOp::create(
            b, loc, coords[axes.empty() ? i : axes[i]]));
      op->erase();
      return success();
    }
    if (isa<shard::ProcessLinearIndexOp>(op)) {
      op->getResult(0).replaceAllUsesWith(
          arith::ConstantIndexOp::create(b, loc, rank));
      op->erase();
      return success();
    }
    if (auto slice = dyn_cast<shard::AllSliceOp>(op)) {
      Value local =
          sliceOf(b, loc, slice.getInput(), slice.getSliceAxis().getSExtValue(),
                  groupOf(slice.getGridAxes()).key,
                  cast<RankedTensorType>(slice.getType()));
      slice.replaceAllUsesWith(local);
      slice.erase();
      return success();
    }
    if (isa<shard::AllGatherOp, shard::AllToAllOp>(op) &&
        !cast<RankedTensorType>(op->getOperand(0).getType()).hasStaticShape())
      return op->emitError()
             << "a gather of a shard with dynamic dims is not supported "
                "(the all-gather moves a fixed number of bytes)";
    if (auto gather = dyn_cast<shard::AllGatherOp>(op)) {
      Value full = gatherOf(b, loc, gather.getInput(),
                            gather.getGatherAxis().getSExtValue(),
                            groupOf(gather.getGridAxes()),
                            cast<RankedTensorType>(gather.getType()));
      gather.replaceAllUsesWith(full);
      gather.erase();
      return success();
    }
    if (auto a2a = dyn_cast<shard::AllToAllOp>(op)) {
      // Concatenate along concat_axis, then keep this rank's part of
      // split_axis.
      auto in = cast<RankedTensorType>(a2a.getInput().getType());
      int64_t concat = a2a.getConcatAxis().getSExtValue();
      int64_t split = a2a.getSplitAxis().getSExtValue();
      Group group = groupOf(a2a.getGridAxes());
      SmallVector<int64_t> fullShape(in.getShape());
      fullShape[concat] *= group.size;
      auto fullType = RankedTensorType::get(fullShape, in.getElementType());
      Value full = gatherOf(b, loc, a2a.getInput(), concat, group, fullType);
      Value local = sliceOf(b, loc, full, split, group.key,
                            cast<RankedTensorType>(a2a.getType()));
      a2a.replaceAllUsesWith(local);
      a2a.erase();
      return success();
    }
    if (auto commRank = dyn_cast<mpi::CommRankOp>(op)) {
      if (!commRank.getComm().getDefiningOp<mpi::CommWorldOp>())
        return success();
      commRank.getRank().replaceAllUsesWith(
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), rank));
      if (!commRank.getRetval() || commRank.getRetval().use_empty())
        commRank.erase();
      return success();
    }
    if (auto split = dyn_cast<mpi::CommSplitOp>(op)) {
      // The 1-D grid spans all ranks: one color, keys in rank order. (On a
      // grid of more axes, the split stays; onnx-fix-openmpi-symbols makes
      // it once per call site.)
      if (!split.getComm().getDefiningOp<mpi::CommWorldOp>() ||
          shape.size() != 1)
        return success();
      split.getNewcomm().replaceAllUsesWith(split.getComm());
      if (!split.getRetval() || split.getRetval().use_empty())
        split.erase();
      return success();
    }
    return success();
  }

  /// The group of a collective over `axes` of the grid.
  Group groupOf(ArrayRef<int16_t> axes) {
    Group g;
    g.size = distribute::shardCount(shape, axes);
    g.key = distribute::shardIndex(rank, shape, axes);
    SmallVector<int16_t> others;
    for (int16_t a = 0; a < int16_t(shape.size()); ++a)
      if (!llvm::is_contained(axes, a))
        others.push_back(a);
    g.color = distribute::shardIndex(rank, shape, others);
    // Every rank, in rank order: the axes of more than one process are all
    // there, in the grid's order.
    SmallVector<int16_t> wide, wideGrid;
    for (int16_t a : axes)
      if (shape[a] > 1)
        wide.push_back(a);
    for (int16_t a = 0; a < int16_t(shape.size()); ++a)
      if (shape[a] > 1)
        wideGrid.push_back(a);
    g.world = wide == wideGrid;
    return g;
  }

  /// This rank's block `index` of `full` along `axis`.
  Value sliceOf(OpBuilder &b, Location loc, Value full, int64_t axis,
                int64_t index, RankedTensorType local) {
    auto type = cast<RankedTensorType>(full.getType());
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
    for (int64_t d : local.getShape())
      sizes.push_back(b.getIndexAttr(d));
    offsets[axis] = b.getIndexAttr(index * local.getDimSize(axis));
    return tensor::ExtractSliceOp::create(b, loc, local, full, offsets, sizes,
                                          strides);
  }

  /// The blocks of `local` along `axis` of every rank of `group`, in group
  /// order: an MPI_Allgather of bytes (onnxd_rt_allgather[_group],
  /// lib/Runtime/MPI.cpp) into a buffer whose leading dim is `axis`,
  /// transposed there and back when `axis` is not the leading one.
  Value gatherOf(OpBuilder &b, Location loc, Value local, int64_t axis,
                 const Group &group, RankedTensorType fullType) {
    auto type = cast<RankedTensorType>(local.getType());
    Type element = type.getElementType();
    int64_t rankOfTensor = type.getRank();
    // Dims before `axis` of size 1 keep the blocks contiguous in rank order.
    bool leading = llvm::all_of(type.getShape().take_front(axis),
                                [](int64_t d) { return d == 1; });
    SmallVector<int64_t> perm, inverse(rankOfTensor);
    if (!leading) {
      perm.push_back(axis);
      for (int64_t d = 0; d < rankOfTensor; ++d)
        if (d != axis)
          perm.push_back(d);
      for (auto [i, p] : llvm::enumerate(perm))
        inverse[p] = i;
      SmallVector<int64_t> moved;
      for (int64_t p : perm)
        moved.push_back(type.getDimSize(p));
      Value init = tensor::EmptyOp::create(b, loc, moved, element);
      local =
          linalg::TransposeOp::create(b, loc, local, init, perm)->getResult(0);
      type = cast<RankedTensorType>(local.getType());
    }
    SmallVector<int64_t> gathered(type.getShape());
    gathered[leading ? axis : 0] *= group.size;
    int64_t elementBytes =
        std::max<int64_t>(1, (element.getIntOrFloatBitWidth() + 7) / 8);
    int64_t bytes = type.getNumElements() * elementBytes;

    // The send buffer: a copy of the block in bytes; the receive buffer:
    // size blocks, viewed with the element type.
    auto i8 = b.getI8Type();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value send = memref::AllocOp::create(b, loc, MemRefType::get({bytes}, i8),
                                         ValueRange{}, b.getI64IntegerAttr(64));
    auto blockType = MemRefType::get(type.getShape(), element);
    Value sendTyped =
        memref::ViewOp::create(b, loc, blockType, send, zero, ValueRange{});
    Value block = bufferization::ToBufferOp::create(b, loc, blockType, local,
                                                    /*readOnly=*/true);
    memref::CopyOp::create(b, loc, block, sendTyped);
    Value recv = memref::AllocOp::create(
        b, loc, MemRefType::get({bytes * group.size}, i8), ValueRange{},
        b.getI64IntegerAttr(64));
    auto dynamic = MemRefType::get({ShapedType::kDynamic}, i8);
    SmallVector<Value> args = {memref::CastOp::create(b, loc, dynamic, send),
                               memref::CastOp::create(b, loc, dynamic, recv)};
    if (!group.world) {
      args.push_back(
          arith::ConstantIntOp::create(b, loc, b.getI64Type(), group.color));
      args.push_back(
          arith::ConstantIntOp::create(b, loc, b.getI64Type(), group.key));
      args.push_back(commSlot(b, loc));
    }
    func::FuncOp callee = allgatherFunction(b, dynamic, !group.world);
    auto call = func::CallOp::create(b, loc, callee, args);
    call->setAttr(kCommBytesAttr, b.getI64IntegerAttr(bytes * group.size));
    Value recvTyped = memref::ViewOp::create(
        b, loc, MemRefType::get(gathered, element), recv, zero, ValueRange{});
    Value full = bufferization::ToTensorOp::create(
        b, loc, RankedTensorType::get(gathered, element), recvTyped,
        /*restrict=*/true, /*writable=*/true);
    if (leading)
      return full;
    Value init = tensor::EmptyOp::create(b, loc, fullType.getShape(), element);
    return linalg::TransposeOp::create(b, loc, full, init, inverse)
        ->getResult(0);
  }

  /// The declaration of onnxd_rt_allgather (or, for a group,
  /// onnxd_rt_allgather_group), made once.
  func::FuncOp allgatherFunction(OpBuilder &b, MemRefType bytes, bool inGroup) {
    auto module =
        b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
    StringRef name = inGroup ? kAllGatherGroupFunction : kAllGatherFunction;
    if (auto fn = module.lookupSymbol<func::FuncOp>(name))
      return fn;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    SmallVector<Type> args = {bytes, bytes};
    if (inGroup)
      args.append({b.getI64Type(), b.getI64Type(),
                   LLVM::LLVMPointerType::get(b.getContext())});
    auto fn = func::FuncOp::create(b, module.getLoc(), name,
                                   b.getFunctionType(args, {}));
    fn.setPrivate();
    return fn;
  }

  /// The address of a new slot for a call site's communicator.
  Value commSlot(OpBuilder &b, Location loc) {
    auto module =
        b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
    LLVM::GlobalOp slot = createCommSlot(module);
    return LLVM::AddressOfOp::create(b, loc, slot);
  }

  int64_t rank = 0;
  SmallVector<int64_t> shape;
};

} // namespace

//===----------------------------------------------------------------------===//
// onnx-shard-partition
//===----------------------------------------------------------------------===//

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_SHARDPARTITION
#include "OnnxDialect/Distribute/Passes.h.inc"
} // namespace onnx
} // namespace mlir

namespace {

/// Adds the payload of the module's all-reduces (per run) to its
/// `onnx.comm_bytes`, which the runtime reports (onnx-pipeline-stages counts
/// its sends). MPI counts a message in an `int`: a larger one is an error.
static LogicalResult recordCommBytes(ModuleOp module) {
  int64_t bytes = 0;
  WalkResult walk = module.walk([&](mpi::AllReduceOp op) {
    auto type = dyn_cast<MemRefType>(op->getOperand(0).getType());
    if (!type || !type.hasStaticShape())
      return WalkResult::advance();
    if (type.getNumElements() > std::numeric_limits<int32_t>::max()) {
      op.emitError() << "an all-reduce of " << type.getNumElements()
                     << " elements: MPI counts at most 2^31-1";
      return WalkResult::interrupt();
    }
    bytes += type.getNumElements() *
             std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  module.walk([&](func::CallOp call) {
    if (auto gathered = call->getAttrOfType<IntegerAttr>(kCommBytesAttr))
      bytes += gathered.getInt();
  });
  if (auto old = module->getAttrOfType<IntegerAttr>("onnx.comm_bytes"))
    bytes += old.getInt();
  module->setAttr(
      "onnx.comm_bytes",
      IntegerAttr::get(IntegerType::get(module.getContext(), 64), bytes));
  return success();
}

/// Upstream's linalg sharding model rejects an indexing map with a constant
/// result, which is how the lowering broadcasts a size-1 dim (`(d0, d1) ->
/// (d0, 0)`, Softmax and LayerNormalization have them). Before propagation,
/// such an input is collapsed to drop its broadcast unit dims and the map
/// names only the dims that remain.
void dropBroadcastUnitDims(func::FuncOp entry) {
  entry.walk([](linalg::GenericOp generic) {
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    bool changed = false;
    OpBuilder b(generic);
    for (OpOperand *input : generic.getDpsInputOperands()) {
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      AffineMap map = maps[input->getOperandNumber()];
      if (!type || !type.hasStaticShape())
        continue;
      SmallVector<AffineExpr> kept;
      SmallVector<int64_t> keptShape;
      SmallVector<ReassociationIndices> groups;
      ReassociationIndices pending;
      bool broadcast = false, other = false;
      for (auto [i, e] : llvm::enumerate(map.getResults())) {
        auto c = dyn_cast<AffineConstantExpr>(e);
        if (c && c.getValue() == 0 && type.getDimSize(i) == 1) {
          broadcast = true;
          pending.push_back(i);
          continue;
        }
        if (!isa<AffineDimExpr>(e))
          other = true;
        pending.push_back(i);
        groups.push_back(pending);
        pending.clear();
        kept.push_back(e);
        keptShape.push_back(type.getDimSize(i));
      }
      if (!broadcast || other)
        continue;
      // Trailing unit dims join the last group (none left: rank 0).
      if (!groups.empty())
        llvm::append_range(groups.back(), pending);
      auto collapsedType =
          RankedTensorType::get(keptShape, type.getElementType());
      Value collapsed = tensor::CollapseShapeOp::create(
          b, generic.getLoc(), collapsedType, input->get(), groups);
      input->set(collapsed);
      maps[input->getOperandNumber()] =
          AffineMap::get(map.getNumDims(), 0, kept, generic.getContext());
      changed = true;
    }
    if (changed)
      generic.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
  });
}

/// A tensor.empty shared by ops that want it split differently would be
/// resharded (gathered: bytes sent for nothing); each use gets its own.
void unshareEmptyTensors(func::FuncOp entry) {
  SmallVector<tensor::EmptyOp> shared;
  entry.walk([&](tensor::EmptyOp empty) {
    if (!empty->hasOneUse() && !empty->use_empty())
      shared.push_back(empty);
  });
  for (tensor::EmptyOp empty : shared) {
    SmallVector<OpOperand *> uses = llvm::map_to_vector(
        llvm::drop_begin(empty->getUses()), [](OpOperand &u) { return &u; });
    OpBuilder b(empty);
    for (OpOperand *use : uses) {
      b.setInsertionPoint(use->getOwner());
      use->set(b.clone(*empty)->getResult(0));
    }
  }
}

struct ShardPartitionPass
    : public onnx::impl::ShardPartitionBase<ShardPartitionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!module.lookupSymbol<shard::GridOp>(kShardGridName))
      return;
    func::FuncOp entry = findEntryFunction(module);
    if (!entry || entry.isExternal())
      return;
    dropBroadcastUnitDims(entry);
    unshareEmptyTensors(entry);
    OpPassManager propagate("func.func");
    // Forward first: the shardings of the specs flow down to the ops they
    // feed before the replicated outputs flow back up (upstream's default,
    // backward first, would replicate a data-parallel graph from its
    // output).
    shard::ShardingPropagationOptions order;
    order.traversal = shard::TraversalOrder::ForwardBackward;
    propagate.addPass(shard::createShardingPropagation(order));
    if (failed(runPipeline(propagate, entry)))
      return signalPassFailure();
    // shard-partition asserts (or crashes) where a tensor operand has no
    // annotation; say which op instead.
    bool unannotated = false;
    for (Operation &op : entry.getBody().front()) {
      if (isa<shard::ShardOp, shard::ShardingOp>(op))
        continue;
      for (OpOperand &operand : op.getOpOperands()) {
        auto type = dyn_cast<RankedTensorType>(operand.get().getType());
        if (!type || type.getRank() == 0 ||
            operand.get().getDefiningOp<shard::ShardOp>())
          continue;
        op.emitError() << "'" << op.getName() << "': operand "
                       << operand.getOperandNumber()
                       << " has no sharding after propagation; the sharding "
                          "stage cannot partition this op";
        unannotated = true;
        break;
      }
    }
    if (unannotated)
      return signalPassFailure();
    OpPassManager onEntry("func.func");
    onEntry.addPass(shard::createPartition());
    if (failed(runPipeline(onEntry, entry)))
      return signalPassFailure();
    const std::string canonicalize =
        std::string("canonicalize{disable-patterns=\"") +
        kDisabledCanonicalization + "\"}";
    OpPassManager onModule("builtin.module");
    std::string text = canonicalize + ",onnx-shard-specialize," + canonicalize +
                       ",convert-shard-to-mpi," + "onnx-shard-specialize," +
                       canonicalize + ",cse";
    if (failed(parsePassPipeline(text, onModule)))
      return signalPassFailure();
    if (failed(runPipeline(onModule, module)))
      return signalPassFailure();
    if (failed(recordCommBytes(module)))
      return signalPassFailure();
    // The collectives are MPI calls now; nothing refers to the grid, which
    // has no LLVM translation.
    if (auto grid = module.lookupSymbol<shard::GridOp>(kShardGridName)) {
      if (!SymbolTable::symbolKnownUseEmpty(grid, module)) {
        grid.emitError("the grid is still used after convert-shard-to-mpi");
        return signalPassFailure();
      }
      grid.erase();
    }
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// onnx-fix-openmpi-symbols
//===----------------------------------------------------------------------===//

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_OPENMPISYMBOLS
#include "OnnxDialect/Distribute/Passes.h.inc"
} // namespace onnx
} // namespace mlir

namespace {

struct OpenMPISymbolsPass
    : public onnx::impl::OpenMPISymbolsBase<OpenMPISymbolsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    static const char *const ops[] = {
        "sum", "max",  "min",  "prod",   "land",   "band",    "lor",
        "bor", "lxor", "bxor", "minloc", "maxloc", "replace", "no_op"};
    for (const char *op : ops) {
      std::string wrong = std::string("ompi_mpi_") + op;
      auto global = module.lookupSymbol<LLVM::GlobalOp>(wrong);
      if (!global || global.getInitializerRegion().getBlocks().size() ||
          global.getValueOrNull())
        continue;
      std::string right = std::string("ompi_mpi_op_") + op;
      if (failed(SymbolTable::replaceAllSymbolUses(
              global, StringAttr::get(&getContext(), right), module)))
        return signalPassFailure();
      global.setSymName(right);
    }
    // A split of the communicator (a collective over some axes of a grid of
    // several) is made on a call site's first run and kept: the runtime's
    // onnxd_rt_comm_split, MPI_Comm_split's arguments and the site's slot.
    SmallVector<LLVM::CallOp> splits;
    module.walk([&](LLVM::CallOp call) {
      if (call.getCallee() == StringRef("MPI_Comm_split"))
        splits.push_back(call);
    });
    if (!splits.empty()) {
      auto ptrType = LLVM::LLVMPointerType::get(&getContext());
      auto i32 = IntegerType::get(&getContext(), 32);
      auto cached = module.lookupSymbol<LLVM::LLVMFuncOp>(kSplitFunction);
      if (!cached) {
        OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
        cached = LLVM::LLVMFuncOp::create(
            b, module.getLoc(), kSplitFunction,
            LLVM::LLVMFunctionType::get(i32,
                                        {ptrType, i32, i32, ptrType, ptrType}));
      }
      for (LLVM::CallOp call : splits) {
        OpBuilder b(call);
        SmallVector<Value> args(call.getArgOperands());
        args.push_back(LLVM::AddressOfOp::create(b, call.getLoc(),
                                                 createCommSlot(module)));
        auto replacement = LLVM::CallOp::create(b, call.getLoc(), cached, args);
        call.replaceAllUsesWith(replacement);
        call.erase();
        if (failed(loadSplitAsPointer(args[3])))
          return signalPassFailure();
      }
      if (auto old = module.lookupSymbol<LLVM::LLVMFuncOp>("MPI_Comm_split"))
        if (SymbolTable::symbolKnownUseEmpty(old, module))
          old.erase();
    }

    // The communicator: the runtime's (onnxd_mpi_comm), which is
    // MPI_COMM_WORLD unless the application set its own.
    auto world = module.lookupSymbol<LLVM::GlobalOp>("ompi_mpi_comm_world");
    if (!world)
      return;
    SmallVector<LLVM::AddressOfOp> uses;
    module.walk([&](LLVM::AddressOfOp a) {
      if (a.getGlobalName() == world.getSymName() &&
          a->getParentOfType<LLVM::LLVMFuncOp>())
        uses.push_back(a);
    });
    if (uses.empty())
      return;
    auto ptr = LLVM::LLVMPointerType::get(&getContext());
    auto getter = module.lookupSymbol<LLVM::LLVMFuncOp>(kCommFunction);
    if (!getter) {
      OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
      getter = LLVM::LLVMFuncOp::create(b, module.getLoc(), kCommFunction,
                                        LLVM::LLVMFunctionType::get(ptr, {}));
    }
    for (LLVM::AddressOfOp a : uses) {
      OpBuilder b(a);
      auto call = LLVM::CallOp::create(b, a.getLoc(), getter, ValueRange());
      a.replaceAllUsesWith(call.getResult());
      a.erase();
    }
    if (SymbolTable::symbolKnownUseEmpty(world, module))
      world.erase();
  }

  /// MLIR 22's lowering of mpi.comm_split reads the new communicator back
  /// as an i32 (MPICH's handle) and widens it to i64, whatever the
  /// implementation; Open MPI's is a pointer, so the load is made a load of
  /// the pointer, as an i64.
  LogicalResult loadSplitAsPointer(Value out) {
    auto ptrType = LLVM::LLVMPointerType::get(&getContext());
    auto i64 = IntegerType::get(&getContext(), 64);
    for (Operation *user : llvm::make_early_inc_range(out.getUsers())) {
      auto load = dyn_cast<LLVM::LoadOp>(user);
      if (!load || load.getType().isInteger(64) || load.getType() == ptrType)
        continue;
      OpBuilder b(load);
      Value handle = LLVM::PtrToIntOp::create(
          b, load.getLoc(), i64,
          LLVM::LoadOp::create(b, load.getLoc(), ptrType, out));
      for (Operation *widen : llvm::make_early_inc_range(load->getUsers())) {
        if (!isa<LLVM::SExtOp, LLVM::ZExtOp>(widen) ||
            !widen->getResult(0).getType().isInteger(64))
          return widen->emitError("a communicator split read in a way this "
                                  "pass does not know");
        widen->getResult(0).replaceAllUsesWith(handle);
        widen->erase();
      }
      load.erase();
    }
    return success();
  }

  static constexpr const char *kCommFunction = "onnxd_mpi_comm";
  static constexpr const char *kSplitFunction = "onnxd_rt_comm_split";
};

} // namespace
