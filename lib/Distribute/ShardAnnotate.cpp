//===- ShardAnnotate.cpp - Sharding specs to shard annotations ------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx-shard-annotate: the ShardingSpecProtos of one device configuration
// (imported as the `onnx.device_configurations` attribute of each node and
// the module's `onnx.configuration`) become `shard.shard` ops over a 1-D
// grid of the configuration's devices. Upstream propagation and partitioning
// take it from there (Pipelines.cpp).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Distribute/Passes.h"
#include "OnnxDialect/Pipelines/Pipelines.h"
#include "OnnxDialect/Transforms/Passes.h"
#include "Utils.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_SHARDANNOTATE
#include "OnnxDialect/Distribute/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;
using namespace mlir::onnx;

//===----------------------------------------------------------------------===//
// Shared with the pipeline-stage pass (Utils.h)
//===----------------------------------------------------------------------===//

std::string mlir::onnx::distribute::describeNode(Operation *op) {
  std::string what = "node";
  if (auto name = op->getAttrOfType<StringAttr>("onnx.name");
      name && !name.empty())
    what += " '" + name.str() + "'";
  return what + " (" + op->getName().getStringRef().str() + ")";
}

DictionaryAttr mlir::onnx::findDeviceConfiguration(ModuleOp module,
                                                   StringRef name) {
  auto configs = module->getAttrOfType<ArrayAttr>("onnx.configuration");
  if (!configs)
    return nullptr;
  for (Attribute a : configs)
    if (auto c = dyn_cast<DictionaryAttr>(a))
      if (auto n = dyn_cast_or_null<StringAttr>(c.get("name"));
          n && n.getValue() == name)
        return c;
  return nullptr;
}

DictionaryAttr mlir::onnx::distribute::nodeConfiguration(Operation *op,
                                                         StringRef name) {
  auto list = op->getAttrOfType<ArrayAttr>("onnx.device_configurations");
  if (!list)
    return nullptr;
  for (Attribute a : list)
    if (auto c = dyn_cast<DictionaryAttr>(a))
      if (auto id = dyn_cast_or_null<StringAttr>(c.get("configuration_id"));
          id && id.getValue() == name)
        return c;
  return nullptr;
}

void mlir::onnx::distribute::setMPIImplementation(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  Builder b(ctx);
  auto entry = DataLayoutEntryAttr::get(b.getStringAttr("MPI:Implementation"),
                                        b.getStringAttr("OpenMPI"));
  module->setAttr("dlti.map", MapAttr::get(ctx, {entry}));
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

struct ShardAnnotatePass
    : public onnx::impl::ShardAnnotateBase<ShardAnnotatePass> {
  using ShardAnnotateBase::ShardAnnotateBase;

  void runOnOperation() override {
    if (deviceConfig.empty())
      return;
    ModuleOp module = getOperation();
    DictionaryAttr config = findDeviceConfiguration(module, deviceConfig);
    if (!config) {
      module.emitError() << "the model has no device configuration '"
                         << deviceConfig << "'";
      return signalPassFailure();
    }
    auto num = dyn_cast_or_null<IntegerAttr>(config.get("num_devices"));
    if (!num || num.getInt() < 1) {
      module.emitError() << "device configuration '" << deviceConfig
                         << "' has no positive num_devices";
      return signalPassFailure();
    }
    devices = num.getInt();
    if (rank >= devices) {
      module.emitError() << "rank " << rank << " is not one of the " << devices
                         << " devices of '" << deviceConfig << "'";
      return signalPassFailure();
    }
    func::FuncOp entry = findEntryFunction(module);
    if (!entry || entry.isExternal()) {
      module.emitError("no entry function to distribute");
      return signalPassFailure();
    }

    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    module->setAttr("onnx.shard_config", b.getStringAttr(deviceConfig));
    if (rank >= 0)
      module->setAttr("onnx.shard_rank", b.getI64IntegerAttr(rank));
    distribute::setMPIImplementation(module);

    // The nodes that carry a sharding spec of this configuration.
    SmallVector<std::pair<Operation *, ArrayAttr>> nodes;
    bool staged = false;
    entry.walk([&](Operation *op) {
      DictionaryAttr c = distribute::nodeConfiguration(op, deviceConfig);
      if (!c)
        return;
      if (c.get("pipeline_stage"))
        staged = true;
      if (auto specs = dyn_cast_or_null<ArrayAttr>(c.get("sharding_spec"));
          specs && !specs.empty()) {
        if (op->getParentOp() != entry.getOperation()) {
          op->emitError() << distribute::describeNode(op)
                          << ": sharding inside a subgraph is not supported";
          hadError = true;
          return;
        }
        nodes.push_back({op, specs});
      }
    });
    if (staged && !nodes.empty()) {
      entry.emitError() << "device configuration '" << deviceConfig
                        << "' has both pipeline stages and sharded tensors: "
                           "not supported together";
      return signalPassFailure();
    }
    if (hadError)
      return signalPassFailure();
    if (nodes.empty())
      return;

    b.setInsertionPointToStart(module.getBody());
    shard::GridOp::create(b, module.getLoc(), kShardGridName,
                          ArrayRef<int64_t>{devices});
    grid = FlatSymbolRefAttr::get(ctx, kShardGridName);

    for (auto [op, specs] : nodes)
      for (Attribute s : specs)
        if (auto spec = dyn_cast<DictionaryAttr>(s))
          annotate(op, spec);
    if (hadError)
      return signalPassFailure();
    annotateBoundary(entry);
  }

  /// The split axes of `spec` for a tensor of `type`, or an error.
  FailureOr<SmallVector<shard::GridAxesAttr>> splitAxes(Operation *op,
                                                        DictionaryAttr spec,
                                                        StringRef tensorName,
                                                        Type type) {
    MLIRContext *ctx = op->getContext();
    auto fail = [&](const Twine &why) {
      op->emitError() << distribute::describeNode(op) << ", sharding of '"
                      << tensorName << "': " << why;
      hadError = true;
      return failure();
    };
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return fail("the tensor needs a known rank");
    SmallVector<shard::GridAxesAttr> axes(tensor.getRank(),
                                          shard::GridAxesAttr::get(ctx, {}));
    auto dims = dyn_cast_or_null<ArrayAttr>(spec.get("sharded_dim"));
    if (!dims || dims.empty())
      return axes; // replicated
    if (auto devs = dyn_cast_or_null<DenseI64ArrayAttr>(spec.get("device"))) {
      bool identity = int64_t(devs.size()) == devices;
      for (auto [i, d] : llvm::enumerate(devs.asArrayRef()))
        identity &= d == int64_t(i);
      if (!identity)
        return fail("the shards must map in order onto all " + Twine(devices) +
                    " devices of '" + deviceConfig +
                    "' (other device lists are not supported yet)");
    }
    if (auto groups = spec.get("index_to_device_group_map"))
      if (auto arr = dyn_cast<ArrayAttr>(groups); arr && !arr.empty())
        return fail("index_to_device_group_map is not supported yet");
    if (dims.size() != 1)
      return fail("one sharded axis per tensor is supported, not " +
                  Twine(dims.size()));
    auto dim = dyn_cast<DictionaryAttr>(dims[0]);
    auto axisAttr =
        dim ? dyn_cast_or_null<IntegerAttr>(dim.get("axis")) : IntegerAttr();
    if (!axisAttr)
      return fail("the sharded_dim has no axis");
    int64_t axis = axisAttr.getInt();
    if (axis < -tensor.getRank() || axis >= tensor.getRank())
      return fail("axis " + Twine(axis) + " is out of range for rank " +
                  Twine(tensor.getRank()));
    if (axis < 0)
      axis += tensor.getRank();
    int64_t shards = 0;
    if (auto simple = dyn_cast_or_null<ArrayAttr>(dim.get("simple_sharding")))
      for (Attribute x : simple)
        if (auto sd = dyn_cast<DictionaryAttr>(x))
          if (auto n = dyn_cast_or_null<IntegerAttr>(sd.get("num_shards")))
            shards += n.getInt();
    if (shards != devices)
      return fail("axis " + Twine(axis) + " is split into " + Twine(shards) +
                  " shards; one shard per device (" + Twine(devices) +
                  ") is supported");
    if (tensor.isDynamicDim(axis) || tensor.getDimSize(axis) % devices != 0)
      return fail("dim " + Twine(axis) + " (" +
                  (tensor.isDynamicDim(axis)
                       ? std::string("dynamic")
                       : std::to_string(tensor.getDimSize(axis))) +
                  ") does not split evenly over " + Twine(devices) +
                  " devices");
    int16_t gridAxis = 0;
    axes[axis] = shard::GridAxesAttr::get(ctx, {gridAxis});
    // Upstream's form: no trailing unsplit dims (a linalg op reading such a
    // dim through a compound index, as a convolution's input does, would
    // otherwise reject the sharding).
    axes.resize(axis + 1);
    return axes;
  }

  void annotate(Operation *op, DictionaryAttr spec) {
    auto name = dyn_cast_or_null<StringAttr>(spec.get("tensor_name"));
    if (!name || name.empty())
      return;
    bool found = false;
    for (OpOperand &operand : op->getOpOperands()) {
      if (onnx::valueName(operand.get()) != name.getValue())
        continue;
      found = true;
      auto axes = splitAxes(op, spec, name, operand.get().getType());
      if (failed(axes))
        return;
      OpBuilder b(op);
      Value sharding = shard::ShardingOp::create(
          b, op->getLoc(), shard::Sharding::get(grid, *axes));
      Value annotated =
          shard::ShardOp::create(b, op->getLoc(), operand.get(), sharding,
                                 /*annotate_for_users=*/b.getUnitAttr());
      operand.set(annotated);
    }
    for (OpResult result : op->getResults()) {
      if (onnx::valueName(result) != name.getValue())
        continue;
      found = true;
      auto axes = splitAxes(op, spec, name, result.getType());
      if (failed(axes))
        return;
      OpBuilder b(op->getContext());
      b.setInsertionPointAfter(op);
      Value sharding = shard::ShardingOp::create(
          b, op->getLoc(), shard::Sharding::get(grid, *axes));
      auto annotated =
          shard::ShardOp::create(b, op->getLoc(), result, sharding, UnitAttr());
      result.replaceAllUsesExcept(annotated.getResult(), annotated);
    }
    if (!found) {
      op->emitError() << distribute::describeNode(op) << ": sharding of '"
                      << name.getValue()
                      << "': no input or output of the node has that name";
      hadError = true;
    }
  }

  /// The whole inputs come in and the whole outputs go out.
  void annotateBoundary(func::FuncOp entry) {
    OpBuilder b(entry.getContext());
    Block &body = entry.getBody().front();
    b.setInsertionPointToStart(&body);
    Value all;
    auto replicated = [&](Location loc) {
      if (!all)
        all = shard::ShardingOp::create(
            b, loc,
            shard::Sharding::get(
                grid, {shard::GridAxesAttr::get(b.getContext(), {})}));
      return all;
    };
    for (BlockArgument arg : body.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || type.getRank() == 0 || arg.use_empty())
        continue;
      auto annotated = shard::ShardOp::create(
          b, arg.getLoc(), arg, replicated(arg.getLoc()), UnitAttr());
      arg.replaceAllUsesExcept(annotated.getResult(), annotated);
    }
    Operation *ret = body.getTerminator();
    b.setInsertionPoint(ret);
    for (OpOperand &operand : ret->getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      if (!type || type.getRank() == 0)
        continue;
      operand.set(shard::ShardOp::create(b, ret->getLoc(), operand.get(),
                                         replicated(ret->getLoc()),
                                         b.getUnitAttr()));
    }
  }

  int64_t devices = 0;
  FlatSymbolRefAttr grid;
  bool hadError = false;
};

} // namespace
