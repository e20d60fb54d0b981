//===- ShardModels.cpp - Sharding and effect models for the shard stage ---===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Upstream sharding propagation needs a ShardingInterface on every op of the
// function it partitions, and upstream partitions only splat constants. The
// lowered ONNX graph has slices, reshapes, pads, scalar arithmetic and
// initializers of real data, so the project adds:
//
// - a model for arith.constant that partitions a sharded constant into the
//   slice of its data that the module's rank (`onnx.shard_rank`) holds: the
//   program of a rank carries only its shard of a sharded initializer;
// - a replicating model for the ops that have none: their tensors are
//   replicated, which gathers a sharded operand (a remark names the node);
// - a model for tensor.expand_shape/collapse_shape that moves a split to
//   the outer dim of a merged group;
// - a model for convolutions and pooling, split along batch and output
//   channels (upstream's linalg model partitions none of them);
// - the memory effects of the mpi ops on their buffers, which the `mpi`
//   dialect does not declare and bufferization's deallocation requires.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Distribute/Passes.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SmallBitVector.h"

#include <cstring>

using namespace mlir;
using namespace mlir::shard;

namespace {

/// The grid of the module that `op` is in (onnx-shard-annotate's), or null.
FlatSymbolRefAttr moduleGrid(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module || !module.lookupSymbol<GridOp>(onnx::kShardGridName))
    return nullptr;
  return FlatSymbolRefAttr::get(op->getContext(), onnx::kShardGridName);
}

/// A replicated sharding over `grid`.
Sharding replicated(FlatSymbolRefAttr grid) {
  return Sharding::get(grid, {GridAxesAttr::get(grid.getContext(), {})});
}

bool isShardable(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.getRank() > 0;
}

//===----------------------------------------------------------------------===//
// arith.constant: the rank's slice of the data
//===----------------------------------------------------------------------===//

/// The bytes of a non-splat constant, one element `elementBytes` wide; empty
/// when its storage is not one whole byte per element or more.
ArrayRef<char> constantBytes(ElementsAttr value, int64_t &elementBytes) {
  ArrayRef<char> raw;
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    raw = dense.getRawData();
  else if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      raw = blob->getData();
  int64_t n = value.getNumElements();
  if (n == 0 || raw.size() % n != 0 || raw.empty())
    return {};
  elementBytes = raw.size() / n;
  // i1 is stored one bit an element in a DenseElementsAttr.
  if (isa<DenseElementsAttr>(value) && value.getElementType().isInteger(1))
    return {};
  return raw;
}

struct ConstantSharding
    : public ShardingInterface::ExternalModel<ConstantSharding,
                                              arith::ConstantOp> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    return SmallVector<utils::IteratorType>(type ? type.getRank() : 0,
                                            utils::IteratorType::parallel);
  }

  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type)
      return {};
    return {
        AffineMap::getMultiDimIdentityMap(type.getRank(), op->getContext())};
  }

  /// The constant takes the sharding its users want; none is no decision.
  FailureOr<ShardingOption>
  getShardingOption(Operation *op, ArrayRef<Sharding>,
                    ArrayRef<Sharding> resultShardings) const {
    Sharding result = resultShardings[0];
    if (!result)
      return ShardingOption::makeEmpty();
    if (!isa<RankedTensorType>(op->getResult(0).getType()))
      return ShardingOption({}, result.getGridAttr());
    ShardingArray axes(result.getSplitAxes().size());
    for (auto [i, a] : llvm::enumerate(result.getSplitAxes()))
      axes[i].append(a.asArrayRef().begin(), a.asArrayRef().end());
    return ShardingOption(axes, result.getGridAttr());
  }

  LogicalResult partition(Operation *op, ArrayRef<Value>, ArrayRef<Sharding>,
                          ArrayRef<Sharding> resultShardings,
                          IRMapping &partitionMap,
                          SymbolTableCollection &symbols,
                          OpBuilder &builder) const {
    auto constant = cast<arith::ConstantOp>(op);
    Sharding sharding = resultShardings[0];
    auto type = dyn_cast<RankedTensorType>(constant.getType());
    if (!sharding || !type || isFullReplication(sharding)) {
      builder.clone(*op, partitionMap);
      return success();
    }
    GridOp grid = getGrid(op, sharding.getGridAttr(), symbols);
    auto local = cast<RankedTensorType>(shardType(type, grid, sharding));
    auto value = cast<ElementsAttr>(constant.getValue());
    auto splat = dyn_cast<SplatElementsAttr>(value);
    if (splat) {
      auto c = arith::ConstantOp::create(builder, op->getLoc(), local,
                                         splat.resizeSplat(local));
      partitionMap.map(op->getResult(0), c.getResult());
      partitionMap.map(op, c.getOperation());
      return success();
    }
    auto module = op->getParentOfType<ModuleOp>();
    auto rankAttr = module->getAttrOfType<IntegerAttr>("onnx.shard_rank");
    if (!rankAttr)
      return op->emitError("a sharded constant is partitioned for one rank: "
                           "the module has no onnx.shard_rank");
    if (ShapedType::isDynamicShape(grid.getShape()))
      return op->emitError("sharded constants are partitioned on static "
                           "grids only");
    int64_t rank = rankAttr.getInt();
    int64_t elementBytes = 0;
    ArrayRef<char> raw = constantBytes(value, elementBytes);
    if (raw.empty())
      return op->emitError("cannot slice the data of this constant (")
             << type.getElementType() << " elements)";
    // Offsets of the rank's block in every dim (a dim split over grid axes
    // starts at the rank's shard index along them times the local size).
    SmallVector<int64_t> offsets(type.getRank(), 0);
    for (auto [d, axes] : llvm::enumerate(sharding.getSplitAxes()))
      offsets[d] = onnx::distribute::shardIndex(rank, grid.getShape(),
                                                axes.asArrayRef()) *
                   local.getDimSize(d);
    // Copy the block a contiguous innermost row at a time.
    int64_t rowBytes = local.getShape().back() * elementBytes;
    AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
        std::max<int64_t>(1, local.getNumElements() * elementBytes), 64);
    char *out = blob.getMutableData().data();
    SmallVector<int64_t> strides(type.getRank(), elementBytes);
    for (int64_t d = type.getRank() - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * type.getDimSize(d + 1);
    int64_t rows =
        local.getNumElements() / std::max<int64_t>(1, local.getShape().back());
    SmallVector<int64_t> index(type.getRank(), 0);
    for (int64_t r = 0; r < rows; ++r) {
      int64_t at = 0;
      for (int64_t d = 0; d < type.getRank(); ++d)
        at += (offsets[d] + index[d]) * strides[d];
      std::memcpy(out + r * rowBytes, raw.data() + at, rowBytes);
      for (int64_t d = type.getRank() - 2; d >= 0; --d) {
        if (++index[d] < local.getDimSize(d))
          break;
        index[d] = 0;
      }
    }
    auto attr =
        DenseResourceElementsAttr::get(local, "onnx_shard", std::move(blob));
    auto c = arith::ConstantOp::create(builder, op->getLoc(), local, attr);
    partitionMap.map(op->getResult(0), c.getResult());
    partitionMap.map(op, c.getOperation());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Ops without a sharding model: replicated
//===----------------------------------------------------------------------===//

template <typename OpTy>
struct ReplicatedSharding
    : public ShardingInterface::ExternalModel<ReplicatedSharding<OpTy>, OpTy> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *) const {
    return {};
  }
  SmallVector<AffineMap> getIndexingMaps(Operation *) const { return {}; }

  FailureOr<ShardingOption> getShardingOption(Operation *op, ArrayRef<Sharding>,
                                              ArrayRef<Sharding>) const {
    FlatSymbolRefAttr grid = moduleGrid(op);
    if (!grid)
      return ShardingOption::makeEmpty();
    return ShardingOption({}, grid);
  }

  FailureOr<std::vector<Sharding>>
  getShardingAnnotations(Operation *op, const ShardingOption &option) const {
    std::vector<Sharding> all;
    for (Value v : op->getOperands())
      all.push_back(isShardable(v) ? replicated(option.grid) : Sharding());
    for (Value v : op->getResults())
      all.push_back(isShardable(v) ? replicated(option.grid) : Sharding());
    return all;
  }

  LogicalResult addShardingAnnotations(Operation *op, OpBuilder &b,
                                       const ShardingOption &option) const {
    Sharding all = replicated(option.grid);
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isShardable(operand.get()))
        continue;
      FailureOr<std::pair<bool, Sharding>> current = getSharding(operand);
      if (succeeded(current) && current->second &&
          !isFullReplication(current->second))
        op->emitRemark() << "'" << op->getName()
                         << "' has no sharding rule: operand "
                         << operand.getOperandNumber()
                         << " is gathered and the op replicated";
      maybeInsertSourceShardingAnnotation(all, operand, b);
    }
    for (OpResult result : op->getResults())
      if (isShardable(result))
        maybeInsertTargetShardingAnnotation(all, result, b);
    return success();
  }
};

template <typename... Ops> void attachReplicated(MLIRContext *ctx) {
  (Ops::template attachInterface<ReplicatedSharding<Ops>>(*ctx), ...);
}

/// The ops of a dialect, from its GET_OP_LIST, minus those in `Skip`.
template <typename Skip, typename Op> void attachUnless(MLIRContext *ctx) {
  if constexpr (!std::is_same_v<Op, Skip>)
    Op::template attachInterface<ReplicatedSharding<Op>>(*ctx);
}
template <typename Skip, typename... Ops>
void attachReplicatedExcept(MLIRContext *ctx) {
  (attachUnless<Skip, Ops>(ctx), ...);
}

//===----------------------------------------------------------------------===//
// tensor.expand_shape / collapse_shape: a split follows the outer dim
//===----------------------------------------------------------------------===//

/// A reshape's loops are the dims of its higher-rank ("fine") side; a dim of
/// the lower-rank side corresponds to the first non-unit dim of its
/// reassociation group (its outermost), the only one whose block split is a
/// block split of the merged dim. Softmax and LayerNormalization reshape
/// their reductions this way, and replicating them would gather every
/// head-sharded tensor.
template <typename OpTy>
struct ReshapeSharding
    : public ShardingInterface::ExternalModel<ReshapeSharding<OpTy>, OpTy> {
  static constexpr bool kExpand = std::is_same_v<OpTy, tensor::ExpandShapeOp>;

  static RankedTensorType fineType(OpTy op) {
    if constexpr (kExpand)
      return op.getResultType();
    else
      return op.getSrcType();
  }

  /// For each dim of the low-rank side, the fine dim that carries its split.
  static SmallVector<int64_t> carriers(OpTy op) {
    RankedTensorType fine = fineType(op);
    SmallVector<int64_t> result;
    for (const ReassociationIndices &group : op.getReassociationIndices()) {
      int64_t carrier = group.empty() ? 0 : group.front();
      for (int64_t d : group)
        if (fine.getDimSize(d) != 1) {
          carrier = d;
          break;
        }
      result.push_back(carrier);
    }
    return result;
  }

  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    return SmallVector<utils::IteratorType>(fineType(cast<OpTy>(op)).getRank(),
                                            utils::IteratorType::parallel);
  }

  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    auto reshape = cast<OpTy>(op);
    MLIRContext *ctx = op->getContext();
    int64_t rank = fineType(reshape).getRank();
    AffineMap fine = AffineMap::getMultiDimIdentityMap(rank, ctx);
    SmallVector<AffineExpr> dims;
    for (int64_t d : carriers(reshape))
      dims.push_back(getAffineDimExpr(d, ctx));
    AffineMap coarse = AffineMap::get(rank, 0, dims, ctx);
    SmallVector<AffineMap> maps;
    maps.push_back(kExpand ? coarse : fine);
    // The dynamic sizes of an expand_shape: scalars.
    for (unsigned i = 1; i < op->getNumOperands(); ++i)
      maps.push_back(AffineMap::get(rank, 0, {}, ctx));
    maps.push_back(kExpand ? fine : coarse);
    return maps;
  }

  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<Sharding> operandShardings,
                          ArrayRef<Sharding> resultShardings,
                          IRMapping &partitionMap,
                          SymbolTableCollection &symbolTable,
                          OpBuilder &builder) const {
    auto reshape = cast<OpTy>(op);
    Sharding fine = kExpand ? resultShardings[0] : operandShardings[0];
    Sharding out = resultShardings[0];
    if (!out || isFullReplication(out)) {
      if (operandShardings[0] && !isFullReplication(operandShardings[0]))
        return op->emitOpError() << "cannot gather a split operand here";
      builder.clone(*op, partitionMap);
      return success();
    }
    RankedTensorType fineTy = fineType(reshape);
    if (!fineTy.hasStaticShape())
      return op->emitOpError() << "is split but has a dynamic shape";
    SmallVector<int64_t> carry = carriers(reshape);
    GridOp grid = getGrid(op, out.getGridAttr(), symbolTable);
    for (auto [d, axes] : llvm::enumerate(fine.getSplitAxes())) {
      if (axes.empty())
        continue;
      if (!llvm::is_contained(carry, int64_t(d)))
        return op->emitOpError()
               << "is split along dimension " << d
               << ", an inner dimension of a merged group; only the outer "
                  "one can be split";
      int64_t shards = collectiveProcessGroupSize(axes.asArrayRef(), grid);
      if (fineTy.getDimSize(d) % shards != 0)
        return op->emitOpError()
               << "dimension " << d << " (" << fineTy.getDimSize(d)
               << ") does not split evenly into " << shards;
    }
    auto type = cast<RankedTensorType>(
        shardType(op->getResult(0).getType(), grid, out));
    Value result;
    if constexpr (kExpand)
      result = tensor::ExpandShapeOp::create(builder, op->getLoc(), type,
                                             partitionedOperands[0],
                                             reshape.getReassociationIndices());
    else
      result = tensor::CollapseShapeOp::create(
          builder, op->getLoc(), type, partitionedOperands[0],
          reshape.getReassociationIndices());
    partitionMap.map(op->getResult(0), result);
    partitionMap.map(op, result.getDefiningOp());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Convolutions and pooling: split along the loops they index plainly
//===----------------------------------------------------------------------===//

/// Upstream's linalg model partitions only ops whose indexing maps are
/// projected permutations; a convolution's input is read at `oh + kh`. This
/// model splits a convolution or pooling along the loops that every map
/// names as a plain dimension (batch, output channel, group), which needs no
/// halo exchange, and refuses a sharding of a window or reduction loop with
/// an error naming the op.
template <typename OpTy>
struct WindowedSharding
    : public ShardingInterface::ExternalModel<WindowedSharding<OpTy>, OpTy> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    return cast<linalg::LinalgOp>(op).getIteratorTypesArray();
  }
  SmallVector<ReductionKind>
  getReductionLoopIteratorKinds(Operation *op) const {
    SmallVector<ReductionKind> kinds;
    for (utils::IteratorType t : getLoopIteratorTypes(op))
      if (t == utils::IteratorType::reduction)
        kinds.push_back(ReductionKind::Sum);
    return kinds;
  }
  /// A map per operand, then one per result (its init's).
  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    SmallVector<AffineMap> maps = linalgOp.getIndexingMapsArray();
    for (OpOperand &init : linalgOp.getDpsInitsMutable())
      maps.push_back(linalgOp.getMatchingIndexingMap(&init));
    return maps;
  }

  /// Upstream's option, after refusing a split window dim in plain words.
  FailureOr<ShardingOption>
  getShardingOption(Operation *op, ArrayRef<Sharding> operandShardings,
                    ArrayRef<Sharding> resultShardings) const {
    SmallVector<AffineMap> maps = getIndexingMaps(op);
    for (auto [sharding, map] : llvm::zip(operandShardings, maps)) {
      if (!sharding)
        continue;
      for (auto [dim, axes] : llvm::enumerate(sharding.getSplitAxes()))
        if (!axes.empty() && !isa<AffineDimExpr>(map.getResult(dim)))
          return op->emitOpError()
                 << "is split along dimension " << dim
                 << " of an operand, a window dimension; only its batch "
                    "and output channels can be split";
    }
    return shard::detail::defaultGetShardingOption(op, operandShardings,
                                                   resultShardings);
  }

  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<Sharding> operandShardings,
                          ArrayRef<Sharding> resultShardings,
                          IRMapping &partitionMap,
                          SymbolTableCollection &symbolTable,
                          OpBuilder &builder) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    SmallVector<AffineMap> maps = getIndexingMaps(op);
    SmallVector<utils::IteratorType> loops = linalgOp.getIteratorTypesArray();
    // The loops that some map reads through a compound expression.
    llvm::SmallBitVector windowed(loops.size());
    for (AffineMap map : maps)
      for (AffineExpr e : map.getResults())
        if (!isa<AffineDimExpr, AffineConstantExpr>(e))
          e.walk([&](AffineExpr sub) {
            if (auto d = dyn_cast<AffineDimExpr>(sub))
              windowed.set(d.getPosition());
          });
    SmallVector<Sharding, 4> all(operandShardings);
    llvm::append_range(all, resultShardings);
    for (auto [sharding, map] : llvm::zip_equal(all, maps)) {
      if (!sharding)
        continue;
      for (auto [dim, axes] : llvm::enumerate(sharding.getSplitAxes())) {
        if (axes.empty())
          continue;
        auto d = dyn_cast<AffineDimExpr>(map.getResult(dim));
        if (!d || windowed.test(d.getPosition()) ||
            loops[d.getPosition()] == utils::IteratorType::reduction)
          return op->emitOpError()
                 << "is split along dimension " << dim
                 << " of an operand, a window or reduction dimension; only "
                    "its batch and output channels can be split";
      }
    }
    partitionTriviallyShardableOperation(*op, partitionedOperands,
                                         operandShardings, resultShardings,
                                         partitionMap, symbolTable, builder);
    return success();
  }
};

template <typename... Ops> void attachWindowed(MLIRContext *ctx) {
  (Ops::template attachInterface<WindowedSharding<Ops>>(*ctx), ...);
}

//===----------------------------------------------------------------------===//
// mpi ops: effects on their buffers
//===----------------------------------------------------------------------===//

template <typename OpTy>
struct MPIEffects
    : public MemoryEffectOpInterface::ExternalModel<MPIEffects<OpTy>, OpTy> {
  void
  getEffects(Operation *op,
             SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) const {
    auto *defaultResource = SideEffects::DefaultResource::get();
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<BaseMemRefType>(operand.get().getType()))
        continue;
      // A receive writes its buffer; allreduce reads the first and writes
      // the second; a send reads.
      bool writes =
          isa<mpi::RecvOp, mpi::IRecvOp>(op) ||
          (isa<mpi::AllReduceOp>(op) && operand.getOperandNumber() == 1);
      bool reads = !isa<mpi::RecvOp, mpi::IRecvOp>(op);
      if (reads)
        effects.emplace_back(MemoryEffects::Read::get(), &operand,
                             defaultResource);
      if (writes)
        effects.emplace_back(MemoryEffects::Write::get(), &operand,
                             defaultResource);
    }
    // Communication is a side effect of its own: never removed or reordered.
    effects.emplace_back(MemoryEffects::Write::get(), defaultResource);
  }
};

} // namespace

void mlir::onnx::registerShardingModelsFirst(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    arith::ConstantOp::attachInterface<ConstantSharding>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, mpi::MPIDialect *) {
    mpi::SendOp::attachInterface<MPIEffects<mpi::SendOp>>(*ctx);
    mpi::RecvOp::attachInterface<MPIEffects<mpi::RecvOp>>(*ctx);
    mpi::AllReduceOp::attachInterface<MPIEffects<mpi::AllReduceOp>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::ExpandShapeOp::attachInterface<
        ReshapeSharding<tensor::ExpandShapeOp>>(*ctx);
    tensor::CollapseShapeOp::attachInterface<
        ReshapeSharding<tensor::CollapseShapeOp>>(*ctx);
  });
  // Before upstream's linalg models, which would refuse these ops.
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    attachWindowed<linalg::Conv1DNcwFcwOp, linalg::Conv2DNchwFchwOp,
                   linalg::Conv2DNgchwGfchwOp, linalg::Conv3DNcdhwFcdhwOp,
                   linalg::DepthwiseConv1DNcwCwOp,
                   linalg::DepthwiseConv2DNchwChwOp,
                   linalg::DepthwiseConv3DNcdhwCdhwOp, linalg::PoolingNchwMaxOp,
                   linalg::PoolingNchwSumOp, linalg::PoolingNcwMaxOp,
                   linalg::PoolingNcwSumOp>(ctx);
  });
}

void mlir::onnx::registerShardingModelsLast(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    attachReplicatedExcept<tensor::EmptyOp,
#define GET_OP_LIST
#include "mlir/Dialect/Tensor/IR/TensorOps.cpp.inc"
                           >(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    attachReplicatedExcept<arith::ConstantOp,
#define GET_OP_LIST
#include "mlir/Dialect/Arith/IR/ArithOps.cpp.inc"
                           >(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *) {
    attachReplicatedExcept<void,
#define GET_OP_LIST
#include "mlir/Dialect/Math/IR/MathOps.cpp.inc"
                           >(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, scf::SCFDialect *) {
    attachReplicated<scf::ForOp, scf::IfOp, scf::WhileOp, scf::ForallOp,
                     scf::IndexSwitchOp, scf::ExecuteRegionOp>(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, cf::ControlFlowDialect *) {
    attachReplicated<cf::AssertOp>(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, func::FuncDialect *) {
    attachReplicated<func::CallOp>(ctx);
  });
  registry.addExtension(
      +[](MLIRContext *ctx, bufferization::BufferizationDialect *) {
        attachReplicated<bufferization::ToTensorOp, bufferization::ToBufferOp,
                         bufferization::AllocTensorOp,
                         bufferization::MaterializeInDestinationOp>(ctx);
      });
  registry.addExtension(+[](MLIRContext *ctx, ml_program::MLProgramDialect *) {
    attachReplicated<ml_program::GlobalLoadConstOp>(ctx);
  });
}
