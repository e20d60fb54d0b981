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

/// The runtime's all-gather (lib/Runtime/MPI.cpp) and the attribute on its
/// calls that records the bytes each moves.
constexpr const char *kAllGatherFunction = "onnxd_rt_allgather";
constexpr const char *kCommBytesAttr = "onnx.comm_bytes";

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
      if (grid.getRank() != 1 || grid.getShape()[0] == ShapedType::kDynamic) {
        grid.emitError("onnx-shard-specialize expects a static 1-D grid");
        return signalPassFailure();
      }
      size = grid.getShape()[0];
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
    if (isa<shard::ProcessMultiIndexOp, shard::ProcessLinearIndexOp>(op)) {
      for (Value r : op->getResults())
        r.replaceAllUsesWith(arith::ConstantIndexOp::create(b, loc, rank));
      op->erase();
      return success();
    }
    if (auto slice = dyn_cast<shard::AllSliceOp>(op)) {
      Value local =
          sliceOf(b, loc, slice.getInput(), slice.getSliceAxis().getSExtValue(),
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
      SmallVector<int64_t> shape(in.getShape());
      shape[concat] *= size;
      auto fullType = RankedTensorType::get(shape, in.getElementType());
      Value full = gatherOf(b, loc, a2a.getInput(), concat, fullType);
      Value local =
          sliceOf(b, loc, full, split, cast<RankedTensorType>(a2a.getType()));
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
      // The 1-D grid spans all ranks: one color, keys in rank order.
      if (!split.getComm().getDefiningOp<mpi::CommWorldOp>() || size == 0)
        return success();
      split.getNewcomm().replaceAllUsesWith(split.getComm());
      if (!split.getRetval() || split.getRetval().use_empty())
        split.erase();
      return success();
    }
    return success();
  }

  /// This rank's block of `full` along `axis`.
  Value sliceOf(OpBuilder &b, Location loc, Value full, int64_t axis,
                RankedTensorType local) {
    auto type = cast<RankedTensorType>(full.getType());
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
    for (int64_t d : local.getShape())
      sizes.push_back(b.getIndexAttr(d));
    offsets[axis] = b.getIndexAttr(rank * local.getDimSize(axis));
    return tensor::ExtractSliceOp::create(b, loc, local, full, offsets, sizes,
                                          strides);
  }

  /// All ranks' blocks of `local` along `axis`, in rank order: an
  /// MPI_Allgather of bytes (onnxd_rt_allgather, lib/Runtime/MPI.cpp) into
  /// a buffer whose leading dim is `axis`, transposed there and back when
  /// `axis` is not the leading one.
  Value gatherOf(OpBuilder &b, Location loc, Value local, int64_t axis,
                 RankedTensorType fullType) {
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
    gathered[leading ? axis : 0] *= size;
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
    Value recv =
        memref::AllocOp::create(b, loc, MemRefType::get({bytes * size}, i8),
                                ValueRange{}, b.getI64IntegerAttr(64));
    auto dynamic = MemRefType::get({ShapedType::kDynamic}, i8);
    func::FuncOp callee = allgatherFunction(b, dynamic);
    auto call = func::CallOp::create(
        b, loc, callee,
        ValueRange{memref::CastOp::create(b, loc, dynamic, send),
                   memref::CastOp::create(b, loc, dynamic, recv)});
    call->setAttr(kCommBytesAttr, b.getI64IntegerAttr(bytes * size));
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

  /// The declaration of onnxd_rt_allgather, made once.
  func::FuncOp allgatherFunction(OpBuilder &b, MemRefType bytes) {
    auto module =
        b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
    if (auto fn = module.lookupSymbol<func::FuncOp>(kAllGatherFunction))
      return fn;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    auto fn = func::FuncOp::create(b, module.getLoc(), kAllGatherFunction,
                                   b.getFunctionType({bytes, bytes}, {}));
    fn.setPrivate();
    return fn;
  }

  int64_t rank = 0;
  int64_t size = 0;
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

  static constexpr const char *kCommFunction = "onnxd_mpi_comm";
};

} // namespace
