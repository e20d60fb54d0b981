//===- PipelineStages.cpp - One pipeline stage per rank -------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-pipeline-stages: the program of rank r keeps the nodes of pipeline
// stage r. Every rank walks the graph in the same order, so the sends of a
// producer and the receives of its consumers pair up in that order (each
// tensor has a tag of its own) and no rank waits on one that waits on it.
// With micro-batches, the nodes that read the batch are first cloned once a
// micro-batch, in micro-batch order: a stage then sends micro-batch m and
// goes on with m+1 while the next stage computes m.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOperator.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Distribute/Passes.h"
#include "OnnxDialect/Pipelines/Pipelines.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

#include <limits>
#include <set>

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_PIPELINESTAGES
#include "OnnxDialect/Distribute/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

namespace {

/// \p buffer (static shape, identity layout) as a 1-D memref: the MPI
/// lowering counts the elements of a message by its first dimension.
Value flatten(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() == 1)
    return buffer;
  if (type.getRank() == 0)
    return memref::ExpandShapeOp::create(b, loc, ArrayRef<int64_t>{1}, buffer,
                                         ArrayRef<ReassociationIndices>{});
  ReassociationIndices all(type.getRank());
  for (int64_t i = 0; i < type.getRank(); ++i)
    all[i] = i;
  return memref::CollapseShapeOp::create(b, loc, buffer,
                                         ArrayRef<ReassociationIndices>{all});
}

//===----------------------------------------------------------------------===//
// Micro-batches
//===----------------------------------------------------------------------===//

/// The schema of `op`, an ai.onnx node; null for other ops.
const OpSchema *onnxSchema(Operation *op) {
  auto schemaOp = dyn_cast<ONNXSchemaOpInterface>(op);
  if (!schemaOp || *schemaOp.getSchema().domain)
    return nullptr;
  return &schemaOp.getSchema();
}

int64_t intAttr(Operation *op, StringRef name, int64_t dflt) {
  if (auto a = op->getAttrOfType<IntegerAttr>(name))
    return a.getInt();
  return dflt;
}

/// Why `op`, whose operands marked in `carrying` hold rows of the batch
/// along dim 0, may not compute one micro-batch's rows from that
/// micro-batch's rows alone; "" when it may. Conservative: an op not known
/// to work row by row is refused.
std::string notRowWise(Operation *op, const llvm::DenseSet<Value> &carrying) {
  const OpSchema *schema = onnxSchema(op);
  if (!schema)
    return "not an ONNX node";
  if (op->getNumRegions())
    return "a node with subgraphs";
  auto rankOf = [](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t ? t.getRank() : int64_t(-1);
  };
  auto carries = [&](Value v) { return carrying.contains(v); };
  int64_t outRank = rankOf(op->getResult(0));
  // A batch-free operand must not vary along the output's dim 0.
  auto broadcastsOverBatch = [&](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t)
      return false;
    return t.getRank() < outRank ||
           (t.getRank() == outRank && outRank > 0 && t.getDimSize(0) == 1);
  };
  if (isOperator<ReluOp, LeakyReluOp, SigmoidOp, TanhOp, ExpOp, LogOp, NegOp,
                 AbsOp, SqrtOp, ReciprocalOp, ErfOp, GeluOp, EluOp, SeluOp,
                 SoftplusOp, SoftsignOp, HardSigmoidOp, HardSwishOp, ClipOp,
                 CastOp, IdentityOp, SinOp, CosOp, FloorOp, CeilOp, RoundOp,
                 SignOp, NotOp, MishOp, CeluOp, ThresholdedReluOp, IsNaNOp,
                 IsInfOp, DropoutOp, CastLikeOp, AddOp, SubOp, MulOp, DivOp,
                 PowOp, MaxOp, MinOp, SumOp, MeanOp, WhereOp, EqualOp, LessOp,
                 GreaterOp, LessOrEqualOp, GreaterOrEqualOp, AndOp, OrOp, XorOp,
                 ModOp, PReluOp, BitShiftOp>(*schema)) {
    // Elementwise (with broadcasting): rows stay rows when every operand
    // that carries the batch has the output's rank.
    for (Value v : op->getOperands()) {
      if (carries(v) ? rankOf(v) != outRank : !broadcastsOverBatch(v))
        return "an operand that does not broadcast row by row";
    }
    return "";
  }
  if (isOperator<MatMulOp>(*schema)) {
    Value a = op->getOperand(0), b = op->getOperand(1);
    if (carries(a) && !carries(b) && rankOf(a) >= 2 &&
        (rankOf(b) <= 2 || broadcastsOverBatch(b)))
      return "";
    if (carries(a) && carries(b) && rankOf(a) >= 3 && rankOf(a) == rankOf(b))
      return "";
    return "a MatMul whose batch rows are not independent";
  }
  if (isOperator<GemmOp>(*schema)) {
    if (intAttr(op, "transA", 0) == 0 && carries(op->getOperand(0)) &&
        llvm::all_of(op->getOperands().drop_front(),
                     [&](Value v) { return !carries(v); }) &&
        (op->getNumOperands() < 3 || rankOf(op->getOperand(2)) < 2 ||
         broadcastsOverBatch(op->getOperand(2))))
      return "";
    return "a Gemm whose batch rows are not independent";
  }
  if (isOperator<ConvOp, MaxPoolOp, AveragePoolOp, GlobalAveragePoolOp,
                 GlobalMaxPoolOp, LpPoolOp, BatchNormalizationOp,
                 InstanceNormalizationOp, LRNOp, ConvTransposeOp>(*schema)) {
    // Training-mode BatchNormalization takes its statistics over the batch.
    if (isOperator<BatchNormalizationOp>(*schema) &&
        intAttr(op, "training_mode", 0) != 0)
      return "batch statistics (training_mode)";
    if (carries(op->getOperand(0)) &&
        llvm::all_of(op->getOperands().drop_front(),
                     [&](Value v) { return !carries(v); }))
      return "";
    return "a weight that depends on the batch";
  }
  // One operand along an axis other than 0.
  auto axisNot0 = [&](int64_t dflt) -> std::string {
    int64_t axis = intAttr(op, "axis", dflt);
    if (axis < 0)
      axis += outRank;
    if (axis == 0 || !carries(op->getOperand(0)) ||
        llvm::any_of(op->getOperands().drop_front(), carries))
      return "an operation along the batch axis";
    return "";
  };
  if (isOperator<SoftmaxOp, LogSoftmaxOp, HardmaxOp>(*schema))
    return axisNot0(-1);
  if (isOperator<LayerNormalizationOp>(*schema))
    return axisNot0(-1);
  if (isOperator<FlattenOp>(*schema))
    return axisNot0(1);
  if (isOperator<TransposeOp>(*schema)) {
    auto perm = op->getAttrOfType<ArrayAttr>("perm");
    if (perm && !perm.empty())
      if (auto p0 = dyn_cast<IntegerAttr>(perm[0]); p0 && p0.getInt() == 0)
        return "";
    return "a Transpose that moves the batch axis";
  }
  if (isOperator<ConcatOp>(*schema)) {
    int64_t axis = intAttr(op, "axis", 0);
    if ((axis < 0 ? axis + outRank : axis) != 0 &&
        llvm::all_of(op->getOperands(), carries))
      return "";
    return "a Concat along the batch axis or of a batch-free tensor";
  }
  return "an operator not known to work row by row";
}

SmallVector<OpFoldResult> indices(OpBuilder &b, ArrayRef<int64_t> values) {
  return llvm::map_to_vector(
      values, [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); });
}

/// Splits the batch (dim 0 of the inputs) into `count` micro-batches: every
/// node that computes from the batch is cloned once per micro-batch, in
/// micro-batch order, on that micro-batch's rows; the outputs are put back
/// together at the end. With pipeline stages, stage s then works on
/// micro-batch m while stage s+1 works on m-1.
LogicalResult splitMicroBatches(func::FuncOp entry, int64_t count) {
  Block &body = entry.getBody().front();
  Operation *ret = body.getTerminator();
  int64_t batch = -1;
  for (BlockArgument arg : entry.getArguments())
    if (auto t = dyn_cast<RankedTensorType>(arg.getType());
        t && t.getRank() > 0 && !t.isDynamicDim(0)) {
      batch = t.getDimSize(0);
      break;
    }
  if (batch < count || batch % count != 0)
    return mlir::emitError(entry.getLoc())
           << "micro-batches: the first input's dim 0 (the batch, "
           << (batch < 0 ? std::string("unknown") : std::to_string(batch))
           << ") must be static and split evenly into " << count;
  int64_t rows = batch / count;
  llvm::DenseSet<Value> carrying;
  for (BlockArgument arg : entry.getArguments())
    if (auto t = dyn_cast<RankedTensorType>(arg.getType());
        t && t.hasStaticShape() && t.getRank() > 0 && t.getDimSize(0) == batch)
      carrying.insert(arg);
  SmallVector<Operation *> split;
  for (Operation &op : body.without_terminator()) {
    bool uses = false;
    op.walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        uses |= carrying.contains(v);
    });
    if (!uses)
      continue;
    std::string why = notRowWise(&op, carrying);
    for (Value r : op.getResults()) {
      auto t = dyn_cast<RankedTensorType>(r.getType());
      if (why.empty() && (!t || !t.hasStaticShape() || t.getRank() == 0 ||
                          t.getDimSize(0) != batch))
        why = "a result whose dim 0 is not the batch";
      carrying.insert(r);
    }
    if (!why.empty())
      return op.emitError()
             << distribute::describeNode(&op) << ": micro-batches need every "
             << "node that reads the batch to work row by row along dim 0; "
             << "this one has " << why;
    split.push_back(&op);
  }
  if (split.empty())
    return success();
  OpBuilder b(ret);
  Location loc = entry.getLoc();
  // Micro-batch m: the rows [m*rows, (m+1)*rows) of every batch input.
  SmallVector<IRMapping> maps(count);
  for (int64_t m = 0; m < count; ++m) {
    for (BlockArgument arg : entry.getArguments()) {
      if (!carrying.contains(arg))
        continue;
      auto t = cast<RankedTensorType>(arg.getType());
      SmallVector<int64_t> offsets(t.getRank(), 0), sizes(t.getShape());
      offsets[0] = m * rows;
      sizes[0] = rows;
      maps[m].map(arg, tensor::ExtractSliceOp::create(
                           b, loc, arg, indices(b, offsets), indices(b, sizes),
                           indices(b, SmallVector<int64_t>(t.getRank(), 1))));
    }
    for (Operation *op : split) {
      Operation *clone = b.clone(*op, maps[m]);
      for (Value r : clone->getResults()) {
        auto t = cast<RankedTensorType>(r.getType());
        SmallVector<int64_t> shape(t.getShape());
        shape[0] = rows;
        r.setType(t.clone(shape));
      }
    }
  }
  // The outputs: the micro-batches' rows put back in place.
  for (OpOperand &out : ret->getOpOperands()) {
    Value v = out.get();
    if (!carrying.contains(v))
      continue;
    auto t = cast<RankedTensorType>(v.getType());
    Value whole =
        tensor::EmptyOp::create(b, loc, t.getShape(), t.getElementType());
    for (int64_t m = 0; m < count; ++m) {
      SmallVector<int64_t> offsets(t.getRank(), 0);
      offsets[0] = m * rows;
      Value part = maps[m].lookup(v);
      whole = tensor::InsertSliceOp::create(
          b, loc, part, whole, indices(b, offsets),
          indices(b, cast<RankedTensorType>(part.getType()).getShape()),
          indices(b, SmallVector<int64_t>(t.getRank(), 1)));
    }
    out.set(whole);
  }
  for (Operation *op : llvm::reverse(split)) {
    op->dropAllUses();
    op->erase();
  }
  return success();
}

/// The stage of an op that runs on every rank (fed by inputs and
/// initializers alone).
constexpr int64_t kEveryRank = -1;

struct PipelineStagesPass
    : public onnx::impl::PipelineStagesBase<PipelineStagesPass> {
  using PipelineStagesBase::PipelineStagesBase;

  void runOnOperation() override {
    if (deviceConfig.empty())
      return;
    ModuleOp module = getOperation();
    DictionaryAttr config = findDeviceConfiguration(module, deviceConfig);
    func::FuncOp entry = findEntryFunction(module);
    if (!config || !entry || entry.isExternal())
      return; // onnx-shard-annotate reports these
    int64_t devices = 0;
    if (auto n = dyn_cast_or_null<IntegerAttr>(config.get("num_devices")))
      devices = n.getInt();

    Block &body = entry.getBody().front();
    if (microBatches > 1) {
      bool anyStage = false;
      for (Operation &op : body.without_terminator())
        if (DictionaryAttr c = distribute::nodeConfiguration(&op, deviceConfig))
          anyStage |= bool(c.get("pipeline_stage"));
      if (!anyStage) {
        mlir::emitError(module.getLoc())
            << "micro-batches: device configuration '" << deviceConfig
            << "' has no pipeline stages";
        return signalPassFailure();
      }
      if (failed(splitMicroBatches(entry, microBatches)))
        return signalPassFailure();
    }
    // Stages of the top-level ops.
    llvm::DenseMap<Operation *, int64_t> stageOf;
    bool staged = false;
    for (Operation &op : body.without_terminator()) {
      int64_t stage = kEveryRank;
      DictionaryAttr c = distribute::nodeConfiguration(&op, deviceConfig);
      auto s = c ? dyn_cast_or_null<IntegerAttr>(c.get("pipeline_stage"))
                 : IntegerAttr();
      if (s) {
        staged = true;
        stage = s.getInt();
        if (stage < 0 || stage >= devices) {
          op.emitError() << distribute::describeNode(&op) << ": pipeline_stage "
                         << stage << " is not one of the " << devices
                         << " devices of '" << deviceConfig << "'";
          return signalPassFailure();
        }
      } else {
        // The latest stage among the producers of its operands (and of the
        // values its regions use).
        auto visit = [&](Value v) {
          if (Operation *def = v.getDefiningOp())
            if (def->getBlock() == &body)
              stage = std::max(stage, stageOf.lookup(def));
        };
        for (Value v : op.getOperands())
          visit(v);
        op.walk([&](Operation *inner) {
          for (Value v : inner->getOperands())
            visit(v);
        });
      }
      stageOf[&op] = stage;
    }
    // Nested ops with a stage are not supported.
    bool nested = false;
    entry.walk([&](Operation *op) {
      if (op->getBlock() == &body)
        return;
      DictionaryAttr c = distribute::nodeConfiguration(op, deviceConfig);
      if (c && c.get("pipeline_stage")) {
        op->emitError() << distribute::describeNode(op)
                        << ": a pipeline_stage inside a subgraph is not "
                           "supported";
        nested = true;
      }
    });
    if (nested)
      return signalPassFailure();
    if (!staged)
      return;
    if (rank < 0) {
      mlir::emitError(module.getLoc(),
                      "pipeline stages are compiled for one rank: give "
                      "onnx-pipeline-stages a rank");
      return signalPassFailure();
    }
    distribute::setMPIImplementation(module);
    module->setAttr("onnx.shard_config",
                    StringAttr::get(&getContext(), deviceConfig));
    module->setAttr(
        "onnx.shard_rank",
        IntegerAttr::get(IntegerType::get(&getContext(), 64), rank));

    OpBuilder b(&getContext());
    Operation *ret = body.getTerminator();
    // Where each value computed by a stage must go: the stages of its
    // users, and rank 0 for a model output.
    int64_t tag = 0, sentBytes = 0;
    SmallVector<Operation *> erase;
    // The ops of the graph, not those this loop inserts.
    SmallVector<Operation *> graph = llvm::map_to_vector(
        body.without_terminator(), [](Operation &op) { return &op; });
    for (Operation *opPtr : graph) {
      Operation &op = *opPtr;
      int64_t stage = stageOf.lookup(&op);
      if (stage == kEveryRank)
        continue;
      for (Value v : op.getResults()) {
        ++tag;
        std::set<int64_t> to;
        for (OpOperand &use : v.getUses()) {
          Operation *user = body.findAncestorOpInBlock(*use.getOwner());
          if (user == ret)
            to.insert(0);
          else if (user)
            to.insert(stageOf.lookup(user));
        }
        to.erase(stage);
        to.erase(kEveryRank);
        if (to.empty())
          continue;
        auto type = dyn_cast<RankedTensorType>(v.getType());
        if (!type || !type.hasStaticShape()) {
          op.emitError() << distribute::describeNode(&op)
                         << ": a tensor sent between pipeline stages needs a "
                            "static shape";
          return signalPassFailure();
        }
        if (type.getNumElements() > std::numeric_limits<int32_t>::max()) {
          op.emitError() << distribute::describeNode(&op) << ": a tensor of "
                         << type.getNumElements()
                         << " elements sent between pipeline stages: MPI "
                            "counts a message in at most 2^31-1 elements";
          return signalPassFailure();
        }
        auto memrefType =
            MemRefType::get(type.getShape(), type.getElementType());
        Location loc = op.getLoc();
        b.setInsertionPointAfter(&op);
        Value comm =
            mpi::CommWorldOp::create(b, loc, mpi::CommType::get(&getContext()));
        Value tagValue =
            arith::ConstantIntOp::create(b, loc, b.getI32Type(), tag);
        if (stage == rank) {
          // Send to every later stage that uses it.
          Value buffer =
              bufferization::ToBufferOp::create(b, loc, memrefType, v);
          Value flat = flatten(b, loc, buffer);
          for (int64_t dest : to) {
            sentBytes +=
                type.getNumElements() *
                std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
            Value destValue =
                arith::ConstantIntOp::create(b, loc, b.getI32Type(), dest);
            mpi::SendOp::create(b, loc, Type(), flat, tagValue, destValue,
                                comm);
          }
        } else if (to.count(rank)) {
          // Receive it where it would have been computed.
          Value buffer = memref::AllocOp::create(b, loc, memrefType);
          Value source =
              arith::ConstantIntOp::create(b, loc, b.getI32Type(), stage);
          mpi::RecvOp::create(b, loc, Type(), flatten(b, loc, buffer), tagValue,
                              source, comm);
          Value received = bufferization::ToTensorOp::create(
              b, loc, type, buffer, /*restrict=*/true, /*writable=*/true);
          v.replaceAllUsesWith(received);
        } else {
          // Unused here but by the outputs, which only rank 0 returns.
          Value zeros = arith::ConstantOp::create(
              b, loc, type,
              SplatElementsAttr::get(type,
                                     b.getZeroAttr(type.getElementType())));
          v.replaceAllUsesWith(zeros);
        }
      }
      if (stage != rank)
        erase.push_back(&op);
    }
    module->setAttr("onnx.comm_bytes", b.getI64IntegerAttr(sentBytes));
    // Outputs of another stage that rank 0 does not receive: zeros.
    for (Operation *op : llvm::reverse(erase)) {
      for (Value v : op->getResults())
        if (!v.use_empty()) {
          auto type = dyn_cast<RankedTensorType>(v.getType());
          if (!type || !type.hasStaticShape()) {
            op->emitError() << distribute::describeNode(op)
                            << ": an output of another pipeline stage needs "
                               "a static shape";
            return signalPassFailure();
          }
          b.setInsertionPoint(op);
          v.replaceAllUsesWith(arith::ConstantOp::create(
              b, op->getLoc(), type,
              SplatElementsAttr::get(type,
                                     b.getZeroAttr(type.getElementType()))));
        }
      op->erase();
    }
  }
};

} // namespace
