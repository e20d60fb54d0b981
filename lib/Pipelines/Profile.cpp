//===- Profile.cpp - Timing probes around the kernels of a model ----------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `onnx-run --profile FILE` (docs/runtime.md) times each kernel of a model
// and names it after the ONNX nodes it came from. Two passes:
//
// - onnx-profile-record-nodes, first in the pipeline, keeps the op type of
//   every named ONNX node in the module attribute `onnx.node_types`
//   ({"conv_3" = "Conv", ...}): the locations the importer gives ops name
//   the node, and the op type is gone once the ops are lowered. A node
//   without a name gets its first output's name as its location.
//
// - onnx-profile-kernels, on buffers after code generation, splits the top
//   level of the entry function into spans: a span is a run of consecutive
//   ops whose locations name the same nodes (a matmul's pack, mmt4d and
//   unpack loops), with the ops that name none (glue the compiler made)
//   joining the span before them. A kernel names the nodes of its ops'
//   locations: a fused elementwise kernel is named after the node whose
//   result it writes (upstream fusion keeps the consumer's location). Each
//   span that does work (an op with regions, or one that reads or writes
//   memory beyond allocating it) is bracketed by
//
//     %t = func.call @onnxd_prof_begin() : () -> i64
//     ...
//     func.call @onnxd_prof_end(%c<id>, %t) : (i64, i64) -> ()
//
//   and the module attribute `onnx.profile_kernels` lists, per id, the
//   nodes and their op types. The runtime (lib/Runtime) records the events
//   and writes them as Chrome trace events, as ONNX Runtime's profiler does.
//
// Kernels nested in control flow (If, Loop, Scan bodies) are timed as part
// of the span of their enclosing op.
//
// - onnx-profile-gpu-launches, the GPU form (device cuda), after kernel
//   outlining: each gpu.launch_func gets an id, passed right before it to
//
//     func.call @onnxd_gpu_prof_kernel(%c<id>) : (i64) -> ()
//
//   and is named after the nodes of the ops its kernel holds (those fused
//   into it included). The runtime brackets that launch with CUDA events.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Dialect/ONNX/IR/ONNXOps.h"
#include "OnnxDialect/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir {
namespace onnx {
#define GEN_PASS_DEF_PROFILERECORDNODESPASS
#define GEN_PASS_DEF_PROFILEKERNELSPASS
#define GEN_PASS_DEF_PROFILEGPULAUNCHESPASS
#include "OnnxDialect/Pipelines/Passes.h.inc"
} // namespace onnx
} // namespace mlir

using namespace mlir;

static constexpr llvm::StringLiteral kNodeTypesAttr = "onnx.node_types";
static constexpr llvm::StringLiteral kKernelsAttr = "onnx.profile_kernels";
static constexpr llvm::StringLiteral kBeginFunction = "onnxd_prof_begin";
static constexpr llvm::StringLiteral kEndFunction = "onnxd_prof_end";
static constexpr llvm::StringLiteral kGPUKernelFunction =
    "onnxd_gpu_prof_kernel";

/// The ONNX op type of an onnx op: its schema's operator ("Conv" for
/// onnx.Conv_v11); the op name without the dialect for the dialect's other
/// ops.
static StringRef opType(Operation *op) {
  if (auto schemaOp = dyn_cast<onnx::ONNXSchemaOpInterface>(op))
    return schemaOp.getSchema().name;
  return op->getName().stripDialect();
}

/// The node names a location carries, in order, without repeats.
static void collectNames(Location loc, llvm::SetVector<StringRef> &names) {
  loc->walk([&](Location inner) {
    if (auto name = dyn_cast<NameLoc>(inner))
      names.insert(name.getName().getValue());
    return WalkResult::advance();
  });
}

/// The entry of `onnx.profile_kernels` for a kernel of the nodes `names`:
/// ["a,b", "Conv+Relu"] (each op type once, from `types`).
static Attribute kernelEntry(Builder &builder, ArrayRef<StringRef> names,
                             DictionaryAttr types) {
  llvm::SetVector<StringRef> ops;
  for (StringRef name : names)
    if (auto type = types ? types.getAs<StringAttr>(name) : nullptr)
      ops.insert(type.getValue());
  std::string nodes = llvm::join(names, ",");
  std::string opNames = llvm::join(ops.getArrayRef(), "+");
  return builder.getStrArrayAttr(
      {nodes.empty() ? std::string("(unnamed)") : nodes,
       opNames.empty() ? std::string("(compiler)") : opNames});
}

/// The private declaration of the runtime function `name` in `module`,
/// made at `builder`'s insertion point where there is none.
static func::FuncOp declareRuntimeFunction(OpBuilder &builder, ModuleOp module,
                                           StringRef name, FunctionType type) {
  auto fn = module.lookupSymbol<func::FuncOp>(name);
  if (!fn) {
    fn = func::FuncOp::create(builder, module.getLoc(), name, type);
    fn.setPrivate();
  }
  return fn;
}

/// An op whose time is worth a probe: control flow and loops, or memory
/// traffic beyond allocating and freeing.
static bool doesWork(Operation *op) {
  if (op->getNumRegions() > 0 || isa<CallOpInterface>(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
           !op->hasTrait<OpTrait::ConstantLike>();
  return effects.hasEffect<MemoryEffects::Read>() ||
         effects.hasEffect<MemoryEffects::Write>();
}

namespace {
struct RecordNodesPass
    : public mlir::onnx::impl::ProfileRecordNodesPassBase<RecordNodesPass> {

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    llvm::StringMap<StringRef> types;
    SmallVector<NamedAttribute> entries;
    module.walk([&](Operation *op) {
      if (op->getName().getDialectNamespace() != "onnx")
        return;
      llvm::SetVector<StringRef> names;
      collectNames(op->getLoc(), names);
      if (auto attr = op->getAttrOfType<StringAttr>("onnx.name"))
        names.insert(attr.getValue());
      // A node without a name is known by its first output's name (the
      // importer keeps them in onnx.outputs), as its location says from now.
      auto outputs = op->getAttrOfType<ArrayAttr>("onnx.outputs");
      if (names.empty() && outputs && !outputs.empty())
        if (auto first = dyn_cast<StringAttr>(outputs[0])) {
          op->setLoc(NameLoc::get(first, op->getLoc()));
          names.insert(first.getValue());
        }
      for (StringRef name : names)
        if (types.try_emplace(name, opType(op)).second)
          entries.emplace_back(StringAttr::get(ctx, name),
                               StringAttr::get(ctx, types[name]));
    });
    module->setAttr(kNodeTypesAttr, DictionaryAttr::get(ctx, entries));
  }
};

struct ProfileKernelsPass
    : public mlir::onnx::impl::ProfileKernelsPassBase<ProfileKernelsPass> {

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    // Compiled with probes, even when there is nothing to time.
    module->setAttr(kKernelsAttr, ArrayAttr::get(ctx, {}));
    func::FuncOp entry = onnx::findEntryFunction(module);
    if (!entry || entry.isExternal() || !entry.getBody().hasOneBlock())
      return;
    auto types = module->getAttrOfType<DictionaryAttr>(kNodeTypesAttr);

    // The spans: [first, last] runs of top-level ops naming the same nodes.
    struct Span {
      Operation *first, *last;
      SmallVector<StringRef> names;
    };
    SmallVector<Span> spans;
    for (Operation &op : entry.getBody().front().without_terminator()) {
      if (!doesWork(&op))
        continue;
      llvm::SetVector<StringRef> names;
      collectNames(op.getLoc(), names);
      // An op without a node (compiler glue: a fill, a copy) joins the
      // kernel before it, or the one after it at the start.
      if (!spans.empty() &&
          (names.empty() || spans.back().names.empty() ||
           ArrayRef<StringRef>(spans.back().names) == names.getArrayRef())) {
        spans.back().last = &op;
        if (spans.back().names.empty())
          spans.back().names.assign(names.begin(), names.end());
        continue;
      }
      spans.push_back({&op, &op, SmallVector<StringRef>(names.getArrayRef())});
    }
    if (spans.empty())
      return;

    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    Type i64 = builder.getI64Type();
    func::FuncOp begin = declareRuntimeFunction(
        builder, module, kBeginFunction, builder.getFunctionType({}, {i64}));
    func::FuncOp end = declareRuntimeFunction(
        builder, module, kEndFunction, builder.getFunctionType({i64, i64}, {}));

    SmallVector<Attribute> kernels;
    for (auto [id, span] : llvm::enumerate(spans)) {
      // Nodes "a,b" and their op types "Conv+Relu".
      kernels.push_back(kernelEntry(builder, span.names, types));

      Location loc = span.first->getLoc();
      builder.setInsertionPoint(span.first);
      Value start =
          func::CallOp::create(builder, loc, begin, ValueRange{}).getResult(0);
      builder.setInsertionPointAfter(span.last);
      Value kernel = arith::ConstantIntOp::create(builder, loc, id, 64);
      func::CallOp::create(builder, loc, end, ValueRange{kernel, start});
    }
    module->setAttr(kKernelsAttr, ArrayAttr::get(ctx, kernels));
  }
};

struct ProfileGPULaunchesPass
    : public mlir::onnx::impl::ProfileGPULaunchesPassBase<
          ProfileGPULaunchesPass> {

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    // Compiled with probes, even when there is nothing to time.
    module->setAttr(kKernelsAttr, ArrayAttr::get(ctx, {}));
    func::FuncOp entry = onnx::findEntryFunction(module);
    if (!entry || entry.isExternal())
      return;
    SmallVector<gpu::LaunchFuncOp> launches;
    entry.walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    if (launches.empty())
      return;
    auto types = module->getAttrOfType<DictionaryAttr>(kNodeTypesAttr);
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    func::FuncOp next = declareRuntimeFunction(
        builder, module, kGPUKernelFunction,
        builder.getFunctionType({builder.getI64Type()}, {}));
    SymbolTableCollection symbols;
    SmallVector<Attribute> kernels;
    for (auto [id, launch] : llvm::enumerate(launches)) {
      // The nodes of the kernel's ops, in order (the launch's own location
      // names the op its kernel was built for, the ops fused into it are
      // inside).
      llvm::SetVector<StringRef> names;
      collectNames(launch.getLoc(), names);
      if (auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
              launch, launch.getKernel()))
        kernel.walk([&](Operation *op) {
          // Constants sunk into the kernel may carry the locations of every
          // op that used them in the function.
          if (!op->hasTrait<OpTrait::ConstantLike>())
            collectNames(op->getLoc(), names);
        });
      kernels.push_back(kernelEntry(builder, names.getArrayRef(), types));
      builder.setInsertionPoint(launch);
      Value kernelId = arith::ConstantIntOp::create(
          builder, launch.getLoc(), static_cast<int64_t>(id), 64);
      func::CallOp::create(builder, launch.getLoc(), next,
                           ValueRange{kernelId});
    }
    module->setAttr(kKernelsAttr, ArrayAttr::get(ctx, kernels));
  }
};
} // namespace
