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
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Distribute/Passes.h"
#include "OnnxDialect/Pipelines/Pipelines.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

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
      module.emitError("pipeline stages are compiled for one rank: give "
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
