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
// the module's `onnx.configuration`) become `shard.shard` ops over a
// grid of the configuration's devices. Upstream propagation and partitioning
// take it from there (Pipelines.cpp).
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h"
#include "OnnxDialect/Distribute/Passes.h"
#include "OnnxDialect/Pipelines/Pipelines.h"
#include "Utils.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Builders.h"

#include <functional>
#include <optional>

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

SmallVector<int64_t>
mlir::onnx::distribute::gridCoordinates(int64_t rank, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> coords(shape.size(), 0);
  for (int64_t a = int64_t(shape.size()) - 1; a >= 0; --a) {
    coords[a] = rank % shape[a];
    rank /= shape[a];
  }
  return coords;
}

int64_t mlir::onnx::distribute::shardIndex(int64_t rank,
                                           ArrayRef<int64_t> shape,
                                           ArrayRef<int16_t> axes) {
  SmallVector<int64_t> coords = gridCoordinates(rank, shape);
  int64_t index = 0;
  for (int16_t a : axes)
    index = index * shape[a] + coords[a];
  return index;
}

int64_t mlir::onnx::distribute::shardCount(ArrayRef<int64_t> shape,
                                           ArrayRef<int16_t> axes) {
  int64_t count = 1;
  for (int16_t a : axes)
    count *= shape[a];
  return count;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

/// A sharding spec of one node's tensor, read: the tensor axes it splits in
/// the order the spec lists them, each with its number of shards, and the
/// devices that hold each shard. Shards are numbered row-major over the
/// listed axes (the first one major); a shard held by several devices is
/// one whose `device` entry names a device group.
struct ReadSpec {
  Operation *op = nullptr;
  StringAttr name;
  int64_t tensorRank = 0;
  SmallVector<std::pair<int64_t, int64_t>> split; // (tensor axis, shards)
  SmallVector<SmallVector<int64_t>> holders;      // per shard, ascending
};

/// Every ordered factorization of `n` into factors of 2 or more, the 1-D
/// grid first, then by number of axes: the grids a configuration of `n`
/// devices may be viewed as.
SmallVector<SmallVector<int64_t>> candidateGrids(int64_t n) {
  SmallVector<SmallVector<int64_t>> all;
  SmallVector<int64_t> current;
  std::function<void(int64_t)> extend = [&](int64_t left) {
    if (left == 1) {
      if (!current.empty())
        all.push_back(current);
      return;
    }
    if (all.size() >= 4096)
      return;
    for (int64_t f = 2; f <= left; ++f) {
      if (left % f)
        continue;
      current.push_back(f);
      extend(left / f);
      current.pop_back();
    }
  };
  extend(n);
  llvm::stable_sort(all, [](auto &a, auto &b) { return a.size() < b.size(); });
  if (all.empty())
    all.push_back({n}); // one device
  return all;
}

/// What the search for a grid may still spend, in devices checked: the
/// assignments of grid axes to a spec's axes grow factorially with the
/// number of grid axes (a layout that fits no grid of 4096 devices would
/// try them all).
struct SearchBudget {
  int64_t left = int64_t(1) << 26;
  bool exhausted() const { return left <= 0; }
};

/// The grid axes that split each of `spec`'s axes on a grid of `shape`, so
/// that every device holds the shard the spec gives it, or nothing (also
/// when `budget` runs out).
std::optional<SmallVector<SmallVector<int16_t>>>
express(const ReadSpec &spec, ArrayRef<int64_t> shape, SearchBudget &budget) {
  SmallVector<SmallVector<int16_t>> axes(spec.split.size());
  if (spec.split.empty())
    return axes; // replicated: any grid
  int64_t devices = 1;
  for (int64_t s : shape)
    devices *= s;
  SmallVector<bool> used(shape.size(), false);
  auto matches = [&]() {
    budget.left -= devices;
    SmallVector<SmallVector<int64_t>> expected(spec.holders.size());
    for (int64_t d = 0; d < devices; ++d) {
      int64_t shard = 0;
      for (auto [i, s] : llvm::enumerate(spec.split))
        shard = shard * s.second + distribute::shardIndex(d, shape, axes[i]);
      expected[shard].push_back(d);
    }
    return expected == spec.holders;
  };
  // Axis i takes an ordered run of unused grid axes whose sizes multiply to
  // its number of shards.
  std::function<bool(size_t, int64_t)> assign = [&](size_t i,
                                                    int64_t left) -> bool {
    if (budget.exhausted())
      return false;
    if (i == spec.split.size())
      return matches();
    if (left == 1)
      return assign(i + 1,
                    i + 1 < spec.split.size() ? spec.split[i + 1].second : 1);
    for (auto [a, size] : llvm::enumerate(shape)) {
      if (used[a] || left % size)
        continue;
      used[a] = true;
      axes[i].push_back(int16_t(a));
      if (assign(i, left / size))
        return true;
      axes[i].pop_back();
      used[a] = false;
    }
    return false;
  };
  if (!assign(0, spec.split.empty() ? 1 : spec.split[0].second))
    return std::nullopt;
  return axes;
}

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

    // Laying shards out walks every device (and every grid of them).
    constexpr int64_t kMaxShardedDevices = 1 << 16;
    if (devices > kMaxShardedDevices) {
      module.emitError() << "device configuration '" << deviceConfig << "' has "
                         << devices
                         << " devices; sharded tensors are laid out on at "
                            "most "
                         << kMaxShardedDevices;
      return signalPassFailure();
    }
    SmallVector<ReadSpec> specs;
    for (auto [op, list] : nodes)
      for (Attribute s : list)
        if (auto spec = dyn_cast<DictionaryAttr>(s))
          if (std::optional<ReadSpec> r = read(op, spec))
            specs.push_back(std::move(*r));
    if (hadError)
      return signalPassFailure();

    // The grid: the first view of the devices that expresses every spec.
    SmallVector<int64_t> shape;
    SmallVector<SmallVector<SmallVector<int16_t>>> chosen;
    for (SmallVector<int64_t> &candidate : candidateGrids(devices)) {
      chosen.clear();
      for (const ReadSpec &spec : specs) {
        auto axes = express(spec, candidate, budget);
        if (!axes)
          break;
        chosen.push_back(std::move(*axes));
      }
      if (chosen.size() == specs.size()) {
        shape = candidate;
        break;
      }
    }
    if (shape.empty()) {
      reportNoGrid(specs);
      return signalPassFailure();
    }

    b.setInsertionPointToStart(module.getBody());
    shard::GridOp::create(b, module.getLoc(), kShardGridName, shape);
    grid = FlatSymbolRefAttr::get(ctx, kShardGridName);
    for (auto [spec, axes] : llvm::zip(specs, chosen))
      annotate(spec, axes);
    annotateBoundary(entry);
  }

  /// `spec` of `op` read, or an error naming both.
  std::optional<ReadSpec> read(Operation *op, DictionaryAttr spec) {
    auto name = dyn_cast_or_null<StringAttr>(spec.get("tensor_name"));
    if (!name || name.empty())
      return std::nullopt;
    ReadSpec r;
    r.op = op;
    r.name = name;
    auto fail = [&](const Twine &why) -> std::optional<ReadSpec> {
      op->emitError() << distribute::describeNode(op) << ", sharding of '"
                      << name.getValue() << "': " << why;
      hadError = true;
      return std::nullopt;
    };
    Type type;
    for (Value v : op->getOperands())
      if (onnx::valueName(v) == name.getValue())
        type = v.getType();
    for (Value v : op->getResults())
      if (onnx::valueName(v) == name.getValue())
        type = v.getType();
    if (!type)
      return fail("no input or output of the node has that name");
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return fail("the tensor needs a known rank");
    r.tensorRank = tensor.getRank();

    auto dims = dyn_cast_or_null<ArrayAttr>(spec.get("sharded_dim"));
    int64_t shards = 1;
    for (Attribute d : dims ? dims : ArrayAttr::get(op->getContext(), {})) {
      auto dim = dyn_cast<DictionaryAttr>(d);
      auto axisAttr =
          dim ? dyn_cast_or_null<IntegerAttr>(dim.get("axis")) : IntegerAttr();
      if (!axisAttr)
        return fail("a sharded_dim has no axis");
      int64_t axis = axisAttr.getInt();
      if (axis < -tensor.getRank() || axis >= tensor.getRank())
        return fail("axis " + Twine(axis) + " is out of range for rank " +
                    Twine(tensor.getRank()));
      if (axis < 0)
        axis += tensor.getRank();
      if (llvm::any_of(r.split, [&](auto &s) { return s.first == axis; }))
        return fail("axis " + Twine(axis) + " is listed twice");
      // Several simple_shardings describe axes fused into this one: only the
      // first (outermost) may be split, or the shards are not blocks.
      int64_t count = 0;
      if (auto simple =
              dyn_cast_or_null<ArrayAttr>(dim.get("simple_sharding"))) {
        for (auto [i, x] : llvm::enumerate(simple)) {
          auto sd = dyn_cast<DictionaryAttr>(x);
          auto n = sd ? dyn_cast_or_null<IntegerAttr>(sd.get("num_shards"))
                      : IntegerAttr();
          if (!n || n.getInt() < 1)
            return fail("axis " + Twine(axis) + " needs a positive num_shards");
          if (i == 0)
            count = n.getInt();
          else if (n.getInt() != 1)
            return fail("axis " + Twine(axis) +
                        " splits an inner one of its fused axes; only the "
                        "outermost may be split");
        }
      }
      if (count < 1)
        return fail("axis " + Twine(axis) + " has no simple_sharding");
      if (count == 1)
        continue;
      if (tensor.isDynamicDim(axis) || tensor.getDimSize(axis) % count != 0)
        return fail("dim " + Twine(axis) + " (" +
                    (tensor.isDynamicDim(axis)
                         ? std::string("dynamic")
                         : std::to_string(tensor.getDimSize(axis))) +
                    ") does not split evenly into " + Twine(count) + " shards");
      if (llvm::MulOverflow(shards, count, shards) || shards > devices)
        return fail("more shards than the " + Twine(devices) + " devices of '" +
                    deviceConfig + "'");
      r.split.push_back({axis, count});
    }
    if (r.split.empty())
      return r; // replicated

    // The devices of each shard: an id, or the key of a device group.
    DenseMap<int64_t, SmallVector<int64_t>> groups;
    if (auto map =
            dyn_cast_or_null<ArrayAttr>(spec.get("index_to_device_group_map")))
      for (Attribute e : map) {
        auto pair = dyn_cast<ArrayAttr>(e);
        if (!pair || pair.size() != 2)
          continue;
        auto key = dyn_cast<IntegerAttr>(pair[0]);
        auto members = dyn_cast<DenseI64ArrayAttr>(pair[1]);
        if (key && members)
          groups[key.getInt()].assign(members.asArrayRef().begin(),
                                      members.asArrayRef().end());
      }
    SmallVector<int64_t> entries;
    if (auto list = dyn_cast_or_null<DenseI64ArrayAttr>(spec.get("device")))
      entries.assign(list.asArrayRef().begin(), list.asArrayRef().end());
    else if (shards == devices)
      entries = llvm::to_vector(llvm::seq<int64_t>(0, devices));
    if (int64_t(entries.size()) != shards)
      return fail(Twine(shards) + " shards but " + Twine(entries.size()) +
                  " entries in its device list");
    SmallVector<int64_t> holderOf(devices, -1);
    for (auto [shard, e] : llvm::enumerate(entries)) {
      SmallVector<int64_t> members;
      if (auto g = groups.find(e); g != groups.end())
        members = g->second;
      else
        members.push_back(e);
      llvm::sort(members);
      for (int64_t d : members) {
        if (d < 0 || d >= devices)
          return fail("device " + Twine(d) + " is not one of the " +
                      Twine(devices) + " devices of '" + deviceConfig + "'");
        if (holderOf[d] >= 0)
          return fail("device " + Twine(d) + " holds two shards");
        holderOf[d] = shard;
      }
      r.holders.push_back(std::move(members));
    }
    for (auto [d, h] : llvm::enumerate(holderOf))
      if (h < 0)
        return fail("device " + Twine(d) + " of '" + deviceConfig +
                    "' holds no shard (every device must hold one)");
    return r;
  }

  /// No view of the devices as a grid expresses every spec: name one that
  /// no grid expresses, or the first that conflicts with those before it
  /// (or say the search ran out of its bound).
  void reportNoGrid(ArrayRef<ReadSpec> specs) {
    SmallVector<SmallVector<int64_t>> grids = candidateGrids(devices);
    // The grids every spec so far lays out on.
    SmallVector<bool> left(grids.size(), true);
    for (const ReadSpec &spec : specs) {
      bool alone = false, together = false;
      for (auto [g, grid] : llvm::enumerate(grids)) {
        bool fits = express(spec, grid, budget).has_value();
        alone |= fits;
        left[g] = left[g] && fits;
        together |= left[g];
      }
      if (budget.exhausted())
        break;
      if (together)
        continue;
      spec.op->emitError()
          << distribute::describeNode(spec.op) << ", sharding of '"
          << spec.name.getValue() << "': "
          << (alone ? "its devices are laid out as a grid that the earlier "
                      "specs of '" +
                          deviceConfig + "' contradict"
                    : "its shards are not laid out on the " +
                          std::to_string(devices) +
                          " devices as a grid (device d holds the shard of "
                          "its coordinates, row-major)");
      return;
    }
    getOperation().emitError()
        << "device configuration '" << deviceConfig << "': no grid of its "
        << devices << " devices lays out every sharding spec within the "
        << "search's bound";
  }

  /// The `shard.shard` of `spec`'s tensor, split over `axes` of the grid.
  void annotate(const ReadSpec &spec, ArrayRef<SmallVector<int16_t>> axes) {
    MLIRContext *ctx = spec.op->getContext();
    SmallVector<shard::GridAxesAttr> split(spec.tensorRank,
                                           shard::GridAxesAttr::get(ctx, {}));
    int64_t last = -1;
    for (auto [s, a] : llvm::zip(spec.split, axes)) {
      split[s.first] = shard::GridAxesAttr::get(ctx, a);
      last = std::max(last, s.first);
    }
    // Upstream's form: no trailing unsplit dims (a linalg op reading such a
    // dim through a compound index, as a convolution's input does, would
    // otherwise reject the sharding).
    split.resize(std::max<int64_t>(last + 1, 1));
    Operation *op = spec.op;
    for (OpOperand &operand : op->getOpOperands()) {
      if (onnx::valueName(operand.get()) != spec.name.getValue())
        continue;
      OpBuilder b(op);
      Value sharding = shard::ShardingOp::create(
          b, op->getLoc(), shard::Sharding::get(grid, split));
      Value annotated =
          shard::ShardOp::create(b, op->getLoc(), operand.get(), sharding,
                                 /*annotate_for_users=*/b.getUnitAttr());
      operand.set(annotated);
    }
    for (OpResult result : op->getResults()) {
      if (onnx::valueName(result) != spec.name.getValue())
        continue;
      OpBuilder b(ctx);
      b.setInsertionPointAfter(op);
      Value sharding = shard::ShardingOp::create(
          b, op->getLoc(), shard::Sharding::get(grid, split));
      auto annotated =
          shard::ShardOp::create(b, op->getLoc(), result, sharding, UnitAttr());
      result.replaceAllUsesExcept(annotated.getResult(), annotated);
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
  SearchBudget budget;
  FlatSymbolRefAttr grid;
  bool hadError = false;
};

} // namespace
