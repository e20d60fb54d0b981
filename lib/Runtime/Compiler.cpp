//===- Compiler.cpp - From a model file to native code --------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// import (.onnx/.onnxtxt or .mlir/.mlirbc) -> the entry's signature ->
// the lowering to the LLVM dialect -> LLVM IR with the host's triple, CPU and
// features, O3 -> the JIT (mlir::ExecutionEngine), an object, or a shared
// library linked with `cc -shared` plus a C header.
//
// Every compiled module gets two symbols besides the entry function:
//   onnxd_entry(void **args)  calls _mlir_ciface_<entry>(args[0], args[1], ...)
//   onnxd_signature           the signature as a NUL-terminated JSON string
//
//===----------------------------------------------------------------------===//

#include "Compiler.h"
#include "CrashGuard.h"

#include "OnnxDialect/Codegen/CPU/CPUTarget.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXDataTypes.h"
#include "OnnxDialect/Dialect/ONNX/IR/ONNXDialect.h"
#include "OnnxDialect/Dialect/ONNX/Transforms/Passes.h"
#include "OnnxDialect/Distribute/Passes.h"
#include "OnnxDialect/InitAllDialects.h"
#include "OnnxDialect/InitAllPasses.h"
#include "OnnxDialect/Pipelines/Pipelines.h"
#include "OnnxDialect/Target/ONNX/ImportONNX.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Analysis/RuntimeLibcallInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cctype>
#include <csignal>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <thread>

#include <unistd.h>

using namespace mlir;
using namespace mlir::onnx::runtime;

JITModel::JITModel() = default;
JITModel::~JITModel() = default;

static Error makeError(onnxd_status status, std::string message) {
  return Error{status, std::move(message)};
}

//===----------------------------------------------------------------------===//
// Import
//===----------------------------------------------------------------------===//

namespace {
/// Collects the diagnostics of one compilation as text.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext *context)
      : handler(context, [this](Diagnostic &diag) {
          if (diag.getSeverity() != DiagnosticSeverity::Error)
            return success();
          if (!text.empty())
            text += "\n";
          llvm::raw_string_ostream os(text);
          if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation());
              loc && loc.getLine() != 0)
            os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
               << loc.getColumn() << ": ";
          os << diag;
          for (Diagnostic &note : diag.getNotes())
            os << "\n  note: " << note;
          return success();
        }) {}
  std::string take(llvm::StringRef fallback) {
    std::string out = text.empty() ? fallback.str() : text;
    text.clear();
    return out;
  }

private:
  std::string text;
  ScopedDiagnosticHandler handler;
};

/// One compilation: the context, the module and its signature. Its steps run
/// under `guard`; one that crashed leaves it to be leaked (CompilationScope).
struct Compilation {
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  Signature signature;
  DiagnosticCollector diagnostics{&context};
  CrashGuard guard{context};

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    onnx::registerAllDialects(registry);
    registerAllToLLVMIRTranslations(registry);
    return registry;
  }
  // Single-threaded: the crash guard covers the thread that runs a step.
  Compilation() : context(makeRegistry()) { context.disableMultithreading(); }

  /// Runs `pm` on the module under the crash guard.
  LogicalResult run(PassManager &pm, std::string &crash) {
    LogicalResult result = failure();
    if (std::optional<std::string> what =
            guard.run("the pass pipeline", [&] { result = pm.run(*module); })) {
      crash = *what;
      return failure();
    }
    return result;
  }
};

/// A compilation that is destroyed when it goes out of scope, unless one of
/// its steps crashed: its state may be corrupt, so it is leaked.
struct CompilationScope {
  std::unique_ptr<Compilation> owned = std::make_unique<Compilation>();
  ~CompilationScope() {
    if (owned->guard.crashed())
      (void)owned.release();
  }
  Compilation &operator*() { return *owned; }
};
} // namespace

static bool isMLIRFile(llvm::StringRef path, const onnxd_options &options) {
  llvm::StringRef format = options.format ? options.format : "";
  if (!format.empty())
    return format == "mlir" || format == "mlirbc";
  return path.ends_with(".mlir") || path.ends_with(".mlirbc");
}

static Error load(llvm::StringRef path, const onnxd_options &options,
                  Compilation &c) {
  if (!llvm::sys::fs::exists(path))
    return makeError(ONNXD_IO_ERROR, path.str() + ": no such file");
  std::optional<std::string> crash = c.guard.run("the import", [&] {
    if (isMLIRFile(path, options))
      c.module = parseSourceFile<ModuleOp>(path, &c.context);
    else
      c.module = onnx::importONNXModelFromFile(path, &c.context);
  });
  if (crash)
    return makeError(ONNXD_COMPILE_ERROR, path.str() + ": " + *crash);
  if (!c.module)
    return makeError(ONNXD_COMPILE_ERROR,
                     path.str() + ": " + c.diagnostics.take("cannot import"));
  return {};
}

//===----------------------------------------------------------------------===//
// The signature
//===----------------------------------------------------------------------===//

static bool isSupportedDType(int32_t dtype) {
  switch (dtype) {
  case 1:
  case 2:
  case 3:
  case 4:
  case 5:
  case 6:
  case 7:
  case 8: // strings: `const char *` per element
  case 9:
  case 10:
  case 11:
  case 12:
  case 13:
  case 14:
  case 15:
  case 16:
  case 17:
  case 18:
  case 19:
  case 20:
  case 21:
  case 22:
  case 23:
  case 24:
  case 25:
  case 26:
    return true;
  default:
    return false;
  }
}

static Error describeValue(Type type, DictionaryAttr attrs, std::string what,
                           ValueSignature &value) {
  if (auto name = attrs ? attrs.getAs<StringAttr>("onnx.name") : nullptr)
    value.name = name.str();
  else
    value.name = what;
  auto typeText = [](Type t) {
    std::string s;
    llvm::raw_string_ostream(s) << t;
    return s;
  };
  // Sequences and optionals around the tensor (runtime handles).
  Type inner = type;
  while (true) {
    if (auto seq = dyn_cast<onnx::SeqType>(inner)) {
      value.nest.push_back(ONNXD_KIND_SEQUENCE);
      inner = seq.getElementType();
    } else if (auto opt = dyn_cast<onnx::OptType>(inner)) {
      value.nest.push_back(ONNXD_KIND_OPTIONAL);
      inner = opt.getElementType();
    } else {
      break;
    }
  }
  auto shaped = dyn_cast<TensorType>(inner);
  if (!shaped)
    return makeError(ONNXD_UNSUPPORTED,
                     "'" + value.name + "' has type " + typeText(type) +
                         "; the runtime supports tensors and sequences and "
                         "optionals of tensors");
  Type element = shaped.getElementType();
  value.dtype = onnx::getDataTypeForElementType(element);
  if (element.isSignlessInteger(1))
    value.dtype = 9;
  if (!isSupportedDType(value.dtype)) {
    std::string s;
    llvm::raw_string_ostream(s) << element;
    return makeError(ONNXD_UNSUPPORTED,
                     "'" + value.name + "' has element type " + s + " (" +
                         dtypeName(value.dtype) +
                         "), which the compiler does not support yet");
  }
  if (auto ranked = dyn_cast<RankedTensorType>(shaped)) {
    for (int64_t d : ranked.getShape())
      value.dims.push_back(ShapedType::isDynamic(d) ? -1 : d);
  } else {
    value.dims.clear(); // rank known after lowering (outputs only)
    value.rankKnown = !value.nest.empty() ? false : true;
  }
  value.dimParams.assign(value.dims.size(), "");
  if (auto params = attrs ? attrs.getAs<ArrayAttr>("onnx.dim_params") : nullptr)
    for (auto [i, p] : llvm::enumerate(params))
      if (auto s = dyn_cast<StringAttr>(p); s && i < value.dimParams.size())
        value.dimParams[i] = s.str();
  return {};
}

static Error extractSignature(ModuleOp module, Signature &sig) {
  func::FuncOp func = onnx::findEntryFunction(module);
  if (!func)
    return makeError(ONNXD_COMPILE_ERROR,
                     "no entry function: the module needs one public "
                     "func.func or an `onnx.entry` attribute naming it");
  sig.entry = func.getSymName().str();
  FunctionType type = func.getFunctionType();
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    ValueSignature value;
    if (Error e = describeValue(type.getInput(i), func.getArgAttrDict(i),
                                "arg" + std::to_string(i), value))
      return makeError(e.status, "input " + e.message);
    if (value.nest.empty() && !isa<RankedTensorType>(type.getInput(i)))
      return makeError(ONNXD_UNSUPPORTED, "input '" + value.name +
                                              "' has no rank; the compiled "
                                              "code needs ranked inputs");
    sig.inputs.push_back(std::move(value));
  }
  if (type.getNumResults() == 0)
    return makeError(ONNXD_COMPILE_ERROR, "the entry function has no results");
  for (unsigned i = 0; i < type.getNumResults(); ++i) {
    ValueSignature value;
    if (Error e = describeValue(type.getResult(i), func.getResultAttrDict(i),
                                "result" + std::to_string(i), value))
      return makeError(e.status, "output " + e.message);
    sig.outputs.push_back(std::move(value));
  }
  // The C interface of the entry: _mlir_ciface_<entry>(results*, args*...).
  func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                UnitAttr::get(module.getContext()));
  return {};
}

/// The rank of each result of the lowered entry (an llvm.func returning a
/// descriptor or a struct of descriptors).
static Error fixOutputRanks(ModuleOp module, Signature &sig) {
  auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(sig.entry);
  if (!func)
    return makeError(ONNXD_COMPILE_ERROR,
                     "the lowered module has no function '" + sig.entry + "'");
  // The outputs it returns: those it does not take as arguments.
  SmallVector<size_t> returned;
  for (size_t i = 0; i < sig.outputs.size(); ++i)
    if (!llvm::is_contained(sig.outputParams, static_cast<int64_t>(i)))
      returned.push_back(i);
  Type result = func.getFunctionType().getReturnType();
  SmallVector<Type> descriptors;
  auto st = dyn_cast<LLVM::LLVMStructType>(result);
  if (returned.size() == 1)
    descriptors.push_back(result);
  else if (st)
    llvm::append_range(descriptors, st.getBody());
  if (descriptors.size() != returned.size())
    return makeError(ONNXD_COMPILE_ERROR,
                     "the lowered entry does not return one memref per output");
  for (auto [r, d] : llvm::enumerate(descriptors)) {
    size_t i = returned[r];
    if (sig.outputs[i].isHandle()) {
      if (!isa<LLVM::LLVMPointerType>(d))
        return makeError(ONNXD_COMPILE_ERROR,
                         "output '" + sig.outputs[i].name +
                             "' is not a handle in the lowered entry");
      continue;
    }
    auto desc = dyn_cast<LLVM::LLVMStructType>(d);
    if (!desc || (desc.getBody().size() != 3 && desc.getBody().size() != 5))
      return makeError(ONNXD_COMPILE_ERROR,
                       "output '" + sig.outputs[i].name +
                           "' is not a memref in the lowered entry");
    size_t rank = 0;
    if (desc.getBody().size() == 5)
      rank = cast<LLVM::LLVMArrayType>(desc.getBody()[3]).getNumElements();
    ValueSignature &out = sig.outputs[i];
    if (out.dims.size() != rank) {
      out.dims.assign(rank, -1);
      out.dimParams.assign(rank, "");
    }
  }
  sig.finalize();
  return {};
}

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

static void registerPassesOnce() {
  static std::once_flag once;
  std::call_once(once, [] { onnx::registerAllPasses(); });
}

static bool hasONNXOps(ModuleOp module) {
  return module
      ->walk([](Operation *op) {
        return isa<onnx::ONNXDialect>(op->getDialect())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The CPU the options name, `host` when they name none.
static std::string targetCPUName(const onnxd_options &options) {
  if (!options.target_cpu || !*options.target_cpu)
    return "host";
  return options.target_cpu;
}

/// Runs a lowering pipeline; its diagnostics (or the crash) as the error.
static Error runLowering(Compilation &c, PassManager &pm) {
  std::string crash;
  if (failed(c.run(pm, crash)))
    return makeError(ONNXD_COMPILE_ERROR,
                     crash.empty() ? c.diagnostics.take("the lowering failed")
                                   : crash);
  return {};
}

/// The device the options name: "cpu" (the default) or "cuda".
static std::string deviceName(const onnxd_options &options) {
  if (!options.device || !*options.device)
    return "cpu";
  return options.device;
}

/// The options of `pass` that the environment variable `variable` holds (a
/// tuning hook), into `value`: an error naming the variable where they do
/// not parse.
static Error passOptionsFromEnv(const char *variable, llvm::StringRef pass,
                                std::string &value) {
  const char *text = std::getenv(variable);
  if (!text)
    return {};
  OpPassManager check("func.func");
  std::string error;
  llvm::raw_string_ostream os(error);
  if (succeeded(
          parsePassPipeline((pass + "{" + text + "}").str(), check, os))) {
    value = text;
    return {};
  }
  // The parser's lines, on one.
  SmallVector<llvm::StringRef> lines;
  llvm::StringRef(error).split(lines, '\n', -1, /*KeepEmpty=*/false);
  std::string message = std::string(variable) + "=\"" + text + "\":";
  for (llvm::StringRef line : lines)
    if (!line.trim().empty())
      message += " " + line.trim().str();
  return makeError(ONNXD_INVALID_ARGUMENT, message);
}

/// The kernels the profiling probes name (onnx.profile_kernels, from
/// onnx-profile-kernels or onnx-profile-gpu-launches), into the signature.
static void readProfiledKernels(Compilation &c) {
  auto kernels = (*c.module)->getAttrOfType<ArrayAttr>("onnx.profile_kernels");
  if (!kernels)
    return;
  c.signature.profiled = true;
  for (Attribute kernel : kernels) {
    auto pair = cast<ArrayAttr>(kernel);
    c.signature.kernels.emplace_back(
        cast<StringAttr>(pair[0]).getValue().str(),
        cast<StringAttr>(pair[1]).getValue().str());
  }
}

/// onnx-lower-to-nvvm for device "cuda" (docs/gpu.md).
static Error lowerForGPU(Compilation &c, const onnxd_options &options) {
  if (options.device_config && *options.device_config)
    return makeError(ONNXD_UNSUPPORTED,
                     "a device configuration (multi-device) on device cuda "
                     "is not supported yet");
  PassManager pm(&c.context);
  onnx::LowerToNVVMOptions pipeline;
  pipeline.onnxLevel = hasONNXOps(*c.module);
  pipeline.runtimeChecks = true;
  if (options.gpu_chip && *options.gpu_chip) {
    llvm::StringRef chip = options.gpu_chip;
    unsigned version = 0;
    if (!chip.consume_front("sm_") || chip.consumeInteger(10, version) ||
        !(chip.empty() || chip == "a") || version < 50)
      return makeError(ONNXD_INVALID_ARGUMENT,
                       std::string("unknown GPU chip '") + options.gpu_chip +
                           "' (sm_50 or newer: sm_80, sm_89, sm_90, ...)");
    pipeline.chip = options.gpu_chip;
    if (options.gpu_tf32 && version < 80)
      return makeError(ONNXD_INVALID_ARGUMENT,
                       std::string("gpu_tf32: the tensor cores' TF32 "
                                   "products need sm_80 or newer, not ") +
                           options.gpu_chip);
  }
  pipeline.tf32 = options.gpu_tf32 != 0;
  pipeline.profile = options.profile != 0;
  // Tuning hooks (docs/gpu.md): the options of the matrix-product and
  // reduction kernels.
  std::string contraction, reduction;
  if (Error e = passOptionsFromEnv("ONNXD_GPU_CONTRACTION",
                                   "onnx-gpu-contraction-kernels", contraction))
    return e;
  if (Error e = passOptionsFromEnv("ONNXD_GPU_REDUCTION",
                                   "onnx-gpu-reduction-kernels", reduction))
    return e;
  pipeline.contractionOptions = contraction;
  pipeline.reductionOptions = reduction;
  // Test hook (docs/gpu.md, "Tests"): the kernels compiled for the host and
  // run on the runtime's GPU emulator.
  if (const char *emulate = std::getenv("ONNXD_TEST_GPU_EMULATE");
      emulate && *emulate == '1')
    pipeline.emulate = true;
  onnx::buildLowerToNVVMPipeline(pm, pipeline);
  if (Error e = runLowering(c, pm))
    return e;
  c.signature.device = "cuda";
  readProfiledKernels(c);
  return fixOutputRanks(*c.module, c.signature);
}

static Error lower(Compilation &c, const onnxd_options &options) {
  registerPassesOnce();
  std::string device = deviceName(options);
  if (device == "cuda")
    return lowerForGPU(c, options);
  if (device != "cpu")
    return makeError(ONNXD_INVALID_ARGUMENT,
                     "unknown device '" + device + "' (cpu or cuda)");
  if (options.gpu_tf32)
    return makeError(ONNXD_INVALID_ARGUMENT,
                     "gpu_tf32 applies to device cuda, not cpu");
  if (options.winograd != 0 && options.winograd != 2 && options.winograd != 4)
    return makeError(ONNXD_INVALID_ARGUMENT,
                     "winograd " + std::to_string(options.winograd) +
                         ": not 0 (off), 2 or 4");
  PassManager pm(&c.context);
  onnx::LowerToLLVMOptions pipeline;
  pipeline.onnxLevel = hasONNXOps(*c.module);
  pipeline.numThreads = options.num_threads;
  pipeline.runtimeChecks = true;
  pipeline.runtimeAllocator = true;
  pipeline.codegen = options.codegen != 0;
  pipeline.memoryPlan = options.memory_plan != 0;
  pipeline.winograd = options.winograd;
  pipeline.blockedLayout = options.blocked_layout != 0;
  pipeline.profile = options.profile != 0;
  pipeline.targetCPU = targetCPUName(options);
  // Test hook (docs/gpu.md, "Tests"): the GPU mapping run on the CPU.
  if (const char *test = std::getenv("ONNXD_TEST_GPU_MAPPING_ON_CPU");
      test && *test == '1' && options.num_threads == 1) {
    pipeline.gpuMappingOnCPU = true;
    pipeline.codegen = false;
  }
  pipeline.targetFeatures =
      options.target_features ? options.target_features : "";
  if (options.device_config && *options.device_config) {
    // One rank of an MPI job: the program of this process's rank.
    int rank = 0, size = 0;
    std::string error;
    if (!joinMPI(rank, size, error))
      return makeError(ONNXD_IO_ERROR, error);
    DictionaryAttr config =
        onnx::findDeviceConfiguration(*c.module, options.device_config);
    auto num = config ? dyn_cast_or_null<IntegerAttr>(config.get("num_devices"))
                      : IntegerAttr();
    int64_t devices = num ? num.getInt() : -1;
    if (devices < 0)
      return makeError(ONNXD_INVALID_ARGUMENT,
                       std::string("the model has no device configuration '") +
                           options.device_config + "'");
    if (devices != size)
      return makeError(
          ONNXD_INVALID_ARGUMENT,
          std::string("device configuration '") + options.device_config +
              "' has " + std::to_string(devices) +
              " devices but the MPI job has " + std::to_string(size) + " rank" +
              (size == 1 ? "" : "s") + " (mpirun -np " +
              std::to_string(devices) + ")");
    pipeline.deviceConfig = options.device_config;
    pipeline.rank = rank;
    pipeline.microBatches = std::max(1, options.micro_batches);
    c.signature.deviceConfig = options.device_config;
    c.signature.rank = rank;
  }
  onnx::buildLowerToLLVMPipeline(pm, pipeline);
  if (Error e = runLowering(c, pm))
    return e;
  c.signature.openmp = options.num_threads > 1;
  if (auto params =
          (*c.module)->getAttrOfType<ArrayAttr>("onnx.output_params")) {
    for (Attribute param : params) {
      auto described = dyn_cast<DenseI64ArrayAttr>(param);
      int64_t index = described && !described.empty() ? described[0] : -1;
      if (index < 0 || static_cast<size_t>(index) >= c.signature.outputs.size())
        return makeError(ONNXD_COMPILE_ERROR,
                         "malformed onnx.output_params in the lowered module");
      // The dims the lowering inferred (the signature's may be dynamic).
      ValueSignature &out = c.signature.outputs[index];
      ArrayRef<int64_t> dims = described.asArrayRef().drop_front();
      if (out.dims.size() != dims.size())
        out.dimParams.assign(dims.size(), "");
      out.dims.assign(dims.begin(), dims.end());
      c.signature.outputParams.push_back(index);
    }
  }
  if (auto bytes = (*c.module)->getAttrOfType<IntegerAttr>("onnx.comm_bytes"))
    c.signature.commBytes = bytes.getInt();
  readProfiledKernels(c);
  return fixOutputRanks(*c.module, c.signature);
}

static Error frontEnd(llvm::StringRef path, const onnxd_options &options,
                      Compilation &c) {
  if (Error e = load(path, options, c))
    return e;
  // Inputs with an initializer default are bound to it before the signature
  // is taken (onnx-bind-input-defaults; the pipeline runs it too).
  {
    registerPassesOnce();
    PassManager pm(&c.context);
    pm.addPass(onnx::createONNXBindInputDefaults());
    std::string crash;
    if (failed(c.run(pm, crash)))
      return makeError(ONNXD_COMPILE_ERROR,
                       path.str() + ": " +
                           (crash.empty() ? c.diagnostics.take(
                                                "binding input defaults failed")
                                          : crash));
  }
  if (Error e = extractSignature(*c.module, c.signature))
    return makeError(e.status, path.str() + ": " + e.message);
  if (Error e = lower(c, options))
    return makeError(e.status, path.str() + ": " + e.message);
  return {};
}

//===----------------------------------------------------------------------===//
// LLVM
//===----------------------------------------------------------------------===//

static llvm::CodeGenOptLevel codeGenLevel(int level) {
  switch (level) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

/// A target machine for the CPU the options name (the host's by default):
/// the host's triple, the CPU's features plus the options' own.
static std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const onnxd_options &options, std::string &error) {
  int optLevel = options.opt_level;
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  llvm::Triple triple(llvm::sys::getProcessTriple());
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  onnx::CPUTarget cpu = onnx::CPUTarget::get(
      targetCPUName(options),
      options.target_features ? options.target_features : "");
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, cpu.cpu, ""));
  if (!info || !info->isCPUStringValid(cpu.cpu)) {
    error = "unknown target CPU '" + cpu.cpu + "' (an LLVM CPU name for " +
            triple.str() + ", or host)";
    return nullptr;
  }
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpu.cpu, cpu.features, llvm::TargetOptions(), llvm::Reloc::PIC_,
      std::nullopt, codeGenLevel(optLevel)));
  if (!tm)
    error = "cannot create a target machine for " + triple.str();
  return tm;
}

/// Adds onnxd_entry, onnxd_signature (and, for a library, a weak fallback of
/// onnxd_rt_fail for callers without the runtime).
static void addRuntimeSymbols(llvm::Module &module, const Signature &sig,
                              bool library) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type *voidTy = llvm::Type::getVoidTy(ctx);

  // onnxd_entry(void **args): args[0] the results, then the inputs, then
  // the outputs taken as arguments (onnx-output-params).
  // The C wrapper takes a pointer to the results first, except for one
  // result that is not a struct (a handle), which it returns, and none.
  size_t numArgs = 1 + sig.inputs.size() + sig.outputParams.size();
  llvm::Function *wrapper = module.getFunction("_mlir_ciface_" + sig.entry);
  bool returnsValue =
      wrapper && !wrapper->getFunctionType()->getReturnType()->isVoidTy();
  bool noResults = sig.outputParams.size() == sig.outputs.size();
  bool skipResults = returnsValue || noResults;
  llvm::SmallVector<llvm::Type *> params(numArgs - (skipResults ? 1 : 0), ptr);
  llvm::FunctionCallee ciface = module.getOrInsertFunction(
      "_mlir_ciface_" + sig.entry,
      llvm::FunctionType::get(returnsValue ? ptr : voidTy, params, false));
  auto *entry = llvm::Function::Create(
      llvm::FunctionType::get(voidTy, {ptr}, false),
      llvm::GlobalValue::ExternalLinkage, kEntrySymbol, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", entry));
  llvm::SmallVector<llvm::Value *> args;
  for (size_t i = skipResults ? 1 : 0; i < numArgs; ++i)
    args.push_back(
        b.CreateLoad(ptr, b.CreateConstGEP1_64(ptr, entry->getArg(0), i)));
  llvm::Value *result = b.CreateCall(ciface, args);
  if (returnsValue)
    b.CreateStore(result, b.CreateLoad(ptr, entry->getArg(0)));
  b.CreateRetVoid();

  // onnxd_signature
  llvm::Constant *json =
      llvm::ConstantDataArray::getString(ctx, sig.toJSON(), true);
  auto *global = new llvm::GlobalVariable(module, json->getType(), true,
                                          llvm::GlobalValue::ExternalLinkage,
                                          json, kSignatureSymbol);
  global->setAlignment(llvm::Align(1));

  if (!library)
    return;
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
  // The allocation functions as weak definitions over libc's malloc,
  // aligned_alloc and free, for callers without the runtime (whose caching
  // definitions win where it is loaded).
  auto forward = [&](llvm::StringRef name, llvm::StringRef libcName) {
    llvm::Function *fn = module.getFunction(name);
    if (!fn || !fn->isDeclaration())
      return;
    fn->setLinkage(llvm::GlobalValue::WeakAnyLinkage);
    llvm::IRBuilder<> ab(llvm::BasicBlock::Create(ctx, "entry", fn));
    llvm::FunctionCallee libc =
        module.getOrInsertFunction(libcName, fn->getFunctionType());
    llvm::SmallVector<llvm::Value *> args;
    for (llvm::Argument &arg : fn->args())
      args.push_back(&arg);
    llvm::Value *result = ab.CreateCall(libc, args);
    if (fn->getReturnType()->isVoidTy())
      ab.CreateRetVoid();
    else
      ab.CreateRet(result);
  };
  forward("_mlir_memref_to_llvm_alloc", "malloc");
  forward("_mlir_memref_to_llvm_aligned_alloc", "aligned_alloc");
  forward("_mlir_memref_to_llvm_free", "free");
  // The profiling probes as weak no-ops (the runtime's record the events).
  if (llvm::Function *begin = module.getFunction("onnxd_prof_begin")) {
    begin->setLinkage(llvm::GlobalValue::WeakAnyLinkage);
    llvm::IRBuilder<> pb(llvm::BasicBlock::Create(ctx, "entry", begin));
    pb.CreateRet(pb.getInt64(0));
  }
  for (const char *name : {"onnxd_prof_end", "onnxd_gpu_prof_kernel"})
    if (llvm::Function *probe = module.getFunction(name)) {
      probe->setLinkage(llvm::GlobalValue::WeakAnyLinkage);
      llvm::IRBuilder<> pb(llvm::BasicBlock::Create(ctx, "entry", probe));
      pb.CreateRetVoid();
    }
  // onnxd_rt_fail(msg) { write(2, msg, strlen(msg)); abort(); } as a weak
  // definition: the runtime's own definition wins where it is loaded.
  llvm::Function *fail = module.getFunction("onnxd_rt_fail");
  if (!fail)
    return;
  fail->setLinkage(llvm::GlobalValue::WeakAnyLinkage);
  llvm::IRBuilder<> fb(llvm::BasicBlock::Create(ctx, "entry", fail));
  llvm::FunctionCallee strlenFn = module.getOrInsertFunction(
      "strlen", llvm::FunctionType::get(i64, {ptr}, false));
  llvm::FunctionCallee writeFn = module.getOrInsertFunction(
      "write", llvm::FunctionType::get(i64, {i32, ptr, i64}, false));
  llvm::FunctionCallee abortFn = module.getOrInsertFunction(
      "abort", llvm::FunctionType::get(voidTy, {}, false));
  llvm::Value *len = fb.CreateCall(strlenFn, {fail->getArg(0)});
  fb.CreateCall(writeFn, {fb.getInt32(2), fail->getArg(0), len});
  fb.CreateCall(abortFn, {});
  fb.CreateUnreachable();
}

/// The LLVM IR of a lowered module, for the host, optimized.
static std::unique_ptr<llvm::Module>
translate(ModuleOp module, llvm::LLVMContext &ctx, const Signature &sig,
          llvm::TargetMachine &tm, int optLevel, bool library, bool optimize,
          std::string &error) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, ctx, "onnxd_model");
  if (!llvmModule) {
    error = "cannot translate to LLVM IR";
    return nullptr;
  }
  llvmModule->setTargetTriple(tm.getTargetTriple());
  llvmModule->setDataLayout(tm.createDataLayout());
  addRuntimeSymbols(*llvmModule, sig, library);
  if (optimize) {
    auto transformer = makeOptimizingTransformer(optLevel, 0, &tm);
    if (llvm::Error e = transformer(llvmModule.get())) {
      error = llvm::toString(std::move(e));
      return nullptr;
    }
  }
  return llvmModule;
}

static onnxd_options normalize(const onnxd_options &in) {
  onnxd_options out = in;
  if (out.opt_level < 0)
    out.opt_level = 0;
  if (out.opt_level > 3)
    out.opt_level = 3;
  if (out.num_threads < 1)
    out.num_threads = 1;
  return out;
}

Error mlir::onnx::runtime::compileJIT(llvm::StringRef path,
                                      const onnxd_options &rawOptions,
                                      JITModel &model) {
  onnxd_options options = normalize(rawOptions);
  CompilationScope scope;
  Compilation &c = *scope;
  if (Error e = frontEnd(path, options, c))
    return e;
  if (c.signature.openmp) {
    std::string error;
    if (!loadOpenMP(error))
      return makeError(ONNXD_COMPILE_ERROR, error);
  }
  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, error);
  if (!tm)
    return makeError(ONNXD_COMPILE_ERROR, error);
  Signature &sig = c.signature;
  auto builder = [&](Operation *op,
                     llvm::LLVMContext &ctx) -> std::unique_ptr<llvm::Module> {
    return translate(cast<ModuleOp>(op), ctx, sig, *tm, options.opt_level,
                     /*library=*/false, /*optimize=*/true, error);
  };
  ExecutionEngineOptions engineOptions;
  engineOptions.llvmModuleBuilder = builder;
  engineOptions.jitCodeGenOptLevel = codeGenLevel(options.opt_level);
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  // The translation to LLVM IR, LLVM's optimizations and its code generation
  // (at the lookup) run under the crash guard too.
  std::optional<llvm::Expected<std::unique_ptr<ExecutionEngine>>> engine;
  std::optional<llvm::Expected<void *>> entry;
  // The large code model: the engine's linker (RuntimeDyld) maps each
  // section on its own, wherever mmap puts it, and the small model's 32-bit
  // PC-relative references from the code to its data and stubs were then
  // silently truncated when they landed more than 2 GB apart: a call
  // jumped through an unmapped slot (light_inception_v2 under
  // AddressSanitizer, whose shadow memory spreads the mappings out).
  std::unique_ptr<llvm::TargetMachine> jitTarget =
      createTargetMachine(options, error);
  if (jitTarget)
    jitTarget->setCodeModel(llvm::CodeModel::Large);
  if (std::optional<std::string> crash =
          c.guard.run("LLVM's code generation", [&] {
            engine.emplace(ExecutionEngine::create(*c.module, engineOptions,
                                                   std::move(jitTarget)));
            if (*engine) {
              // Global constructors: a GPU model's record its kernels' PTX.
              (**engine)->initialize();
              entry.emplace((**engine)->lookup(kEntrySymbol));
            }
          })) {
    // An engine made before the crash (in the lookup) is leaked with the
    // compilation: its state may be corrupt too.
    if (engine && *engine)
      (void)(*engine)->release();
    return makeError(ONNXD_COMPILE_ERROR, path.str() + ": " + *crash);
  }
  if (!*engine)
    return makeError(ONNXD_COMPILE_ERROR,
                     path.str() +
                         ": JIT: " + llvm::toString(engine->takeError()) +
                         (error.empty() ? "" : ": " + error));
  if (!*entry)
    return makeError(ONNXD_COMPILE_ERROR,
                     path.str() +
                         ": JIT: " + llvm::toString(entry->takeError()));
  model.entry = reinterpret_cast<PackedEntry>(**entry);
  model.engine = std::move(**engine);
  model.signature = std::move(sig);
  return {};
}

//===----------------------------------------------------------------------===//
// Ahead of time
//===----------------------------------------------------------------------===//

static Error writeObject(llvm::Module &module, llvm::TargetMachine &tm,
                         llvm::StringRef outPath) {
  std::error_code ec;
  llvm::ToolOutputFile out(outPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return makeError(ONNXD_IO_ERROR, outPath.str() + ": " + ec.message());
  // TargetMachine::addPassesToEmitFile's pipeline, without the post-RA
  // list scheduler: on the unrolled vector kernels it took a third of the
  // code generation (5 of ResNet-50's 14 s here) for no measurable speed on
  // an out-of-order core (docs/runtime.md).
  llvm::legacy::PassManager pm;
  // What the C library provides, for the module's triple, as
  // addPassesToEmitFile and llc add it: without the runtime library info the
  // code generator assumes no memcpy or memset and expands each into a loop
  // of one-byte moves (MatMul 1024's 4 MB zero fill and copy of A were a
  // fifth of its time).
  const llvm::Triple &triple = module.getTargetTriple();
  pm.add(new llvm::TargetLibraryInfoWrapperPass(triple));
  pm.add(new llvm::RuntimeLibraryInfoWrapper(
      triple, tm.Options.ExceptionModel, tm.Options.FloatABIType,
      tm.Options.EABIVersion, tm.Options.MCOptions.ABIName, tm.Options.VecLib));
  auto *machineModule = new llvm::MachineModuleInfoWrapperPass(&tm);
  llvm::TargetPassConfig *config = tm.createPassConfig(pm);
  config->setDisableVerify(true);
  pm.add(config);
  pm.add(machineModule);
  config->disablePass(&llvm::PostRASchedulerID);
  if (config->addISelPasses())
    return makeError(ONNXD_COMPILE_ERROR, "the target cannot emit objects");
  config->addMachinePasses();
  config->setInitialized();
  if (tm.addAsmPrinter(pm, out.os(), nullptr, llvm::CodeGenFileType::ObjectFile,
                       machineModule->getMMI().getContext()))
    return makeError(ONNXD_COMPILE_ERROR, "the target cannot emit objects");
  pm.add(llvm::createFreeMachineFunctionPass());
  pm.run(module);
  out.keep();
  return {};
}

/// How many pieces a module is compiled in: one a hardware thread, at most
/// one a defined function (onnx-outline-kernels makes one a kernel), 8 at
/// most.
static unsigned codeGenParts(const llvm::Module &module) {
  // An alias (or ifunc) must stay with what it names: such a module (an
  // LLVM-dialect input can have one; the pipeline makes none) is compiled
  // whole.
  if (!module.alias_empty() || !module.ifunc_empty())
    return 1;
  unsigned defined = 0;
  for (const llvm::Function &function : module)
    defined += !function.isDeclaration();
  unsigned threads = llvm::hardware_concurrency().compute_thread_count();
  return std::max(1u, std::min({threads, defined, 8u}));
}

/// Splits `module` into `n` modules that link back into it, each with
/// whole functions: the functions go to the part with the fewest
/// instructions so far, largest first, and the global variables to the part
/// with the fewest bytes. Local and linkonce symbols become hidden global
/// ones (a part may use what another defines); `llvm.*` arrays
/// (constructors) stay in part 0.
static void
splitByFunctions(llvm::Module &module, unsigned n,
                 llvm::function_ref<void(std::unique_ptr<llvm::Module>)> take) {
  llvm::DenseMap<const llvm::GlobalValue *, unsigned> partOf;
  llvm::SmallVector<std::pair<uint64_t, llvm::GlobalValue *>> functions,
      variables;
  for (llvm::GlobalValue &gv : module.global_values()) {
    if (gv.isDeclaration())
      continue;
    if (!gv.hasName())
      gv.setName("onnxd_unnamed");
    // A linkonce definition (convert-math-to-funcs' __mlir_math_ipowi_*)
    // would be dropped by its part's optimizer when only another part
    // calls it: it becomes a hidden external one too.
    if (gv.hasLocalLinkage() || gv.hasLinkOnceLinkage()) {
      gv.setLinkage(llvm::GlobalValue::ExternalLinkage);
      gv.setVisibility(llvm::GlobalValue::HiddenVisibility);
    }
    if (auto *function = llvm::dyn_cast<llvm::Function>(&gv))
      functions.push_back({function->getInstructionCount(), &gv});
    else if (auto *variable = llvm::dyn_cast<llvm::GlobalVariable>(&gv);
             variable && !variable->hasAppendingLinkage())
      variables.push_back(
          {module.getDataLayout().getTypeAllocSize(variable->getValueType()),
           &gv});
    else
      partOf[&gv] = 0;
  }
  auto assign = [&](auto &list) {
    llvm::stable_sort(list, [](auto &a, auto &b) { return a.first > b.first; });
    llvm::SmallVector<uint64_t> load(n, 0);
    for (auto &[size, gv] : list) {
      unsigned least =
          std::min_element(load.begin(), load.end()) - load.begin();
      partOf[gv] = least;
      load[least] += size;
    }
  };
  assign(functions);
  assign(variables);
  for (unsigned i = 0; i < n; ++i) {
    llvm::ValueToValueMapTy map;
    std::unique_ptr<llvm::Module> part =
        llvm::CloneModule(module, map, [&](const llvm::GlobalValue *gv) {
          auto it = partOf.find(gv);
          return it != partOf.end() && it->second == i;
        });
    // The other parts' copies of the llvm.* arrays are declarations, which
    // those arrays may not be.
    for (llvm::GlobalVariable &variable :
         llvm::make_early_inc_range(part->globals()))
      if (variable.isDeclaration() && variable.getName().starts_with("llvm."))
        variable.eraseFromParent();
    take(std::move(part));
  }
}

/// Optimizes the unoptimized `module` and compiles it into the objects
/// `objects` (as many files as codeGenParts says; the caller links them).
/// The module is split by functions (splitByFunctions) and each part, in a
/// context of its own, is optimized and compiled on a thread of its own,
/// under crash recovery of its own.
static Error compileInParts(std::unique_ptr<llvm::Module> module,
                            const onnxd_options &options,
                            llvm::ArrayRef<std::string> objects,
                            llvm::StringRef modelPath) {
  llvm::SmallVector<llvm::SmallString<0>> parts;
  auto write = [&](const llvm::Module &part) {
    llvm::raw_svector_ostream os(parts.emplace_back());
    llvm::WriteBitcodeToFile(part, os);
  };
  // One part is the module itself: no copy of its weights.
  if (objects.size() == 1)
    write(*module);
  else
    splitByFunctions(*module, objects.size(),
                     [&](std::unique_ptr<llvm::Module> part) { write(*part); });
  module.reset();
  std::vector<std::string> errors(parts.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < parts.size(); ++i)
    threads.emplace_back([&, i] {
      std::string &error = errors[i];
      llvm::CrashRecoveryContext recovery;
      // After a crash the context and the module are leaked (their state
      // may be corrupt).
      auto *ctx = new llvm::LLVMContext;
      std::unique_ptr<llvm::Module> part;
      bool done = recovery.RunSafely([&] {
        llvm::Expected<std::unique_ptr<llvm::Module>> parsed =
            llvm::parseBitcodeFile(
                llvm::MemoryBufferRef(parts[i].str(), "part"), *ctx);
        if (!parsed) {
          error = llvm::toString(parsed.takeError());
          return;
        }
        part = std::move(*parsed);
        // The testing hook of CrashGuard.h, for this step.
        if (const char *hook = std::getenv("ONNXD_DEBUG_CRASH_IN_PASS");
            hook && llvm::StringRef(hook) == "llvm-code-generation")
          std::raise(SIGSEGV);
        parts[i] = llvm::SmallString<0>(); // read whole: no longer needed
        std::unique_ptr<llvm::TargetMachine> tm =
            createTargetMachine(options, error);
        if (!tm)
          return;
        auto transformer =
            makeOptimizingTransformer(options.opt_level, 0, tm.get());
        if (llvm::Error e = transformer(part.get())) {
          error = llvm::toString(std::move(e));
          return;
        }
        if (Error e = writeObject(*part, *tm, objects[i]))
          error = e.message;
      });
      if (!done) {
        error = crashedIn(recovery.RetCode,
                          "LLVM's optimization and code generation") +
                kCrashIsABug;
        (void)part.release();
        return;
      }
      part.reset();
      delete ctx;
    });
  for (std::thread &thread : threads)
    thread.join();
  for (const std::string &error : errors)
    if (!error.empty())
      return makeError(ONNXD_COMPILE_ERROR, modelPath.str() + ": " + error);
  return {};
}

static std::string cTypeOf(int32_t dtype) {
  switch (dtype) {
  case 1:
    return "float";
  case 11:
    return "double";
  case 2:
  case 9:
  case 17:
  case 18:
  case 19:
  case 20:
  case 21:
  case 23:
  case 24:
  case 25:
    return "uint8_t";
  case 3:
  case 22:
  case 26:
    return "int8_t";
  case 4:
  case 10:
  case 16:
    return "uint16_t";
  case 5:
    return "int16_t";
  case 6:
    return "int32_t";
  case 7:
    return "int64_t";
  case 12:
    return "uint32_t";
  case 13:
    return "uint64_t";
  case 8:
    return "const char *"; // strings: one pointer per element
  case 14:
    return "float"; // interleaved real, imaginary
  case 15:
    return "double"; // interleaved real, imaginary
  default:
    return "void";
  }
}

static std::string identifier(llvm::StringRef s) {
  std::string out;
  for (char ch : s)
    out += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])))
    out = "_" + out;
  return out;
}

static std::string makeHeader(const Signature &sig, llvm::StringRef library) {
  std::string e = identifier(sig.entry);
  std::string guard = "ONNXD_MODEL_" + llvm::StringRef(e).upper() + "_H";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "/* " << llvm::sys::path::filename(library)
     << ": a model compiled by OnnxDialect (onnx-run -o). Generated. */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << "/* Easiest: onnxd_load(\"" << llvm::sys::path::filename(library)
     << "\") with OnnxDialect/Runtime/OnnxRuntime.h,\n"
     << " * which checks the inputs and owns nothing of yours. Or call the "
        "entry directly:\n"
     << " *  - each input is a memref descriptor: allocated = aligned = the "
        "data, offset 0,\n"
     << " *    sizes = the shape, strides = row-major strides (in elements);\n"
     << " *  - each output listed as an argument is a descriptor of the "
        "caller's buffer,\n"
     << " *    as for an input (dense, of the static shape listed): the "
        "model writes it;\n"
     << " *  - each result comes back as a descriptor whose `allocated` "
        "pointer was\n"
     << " *    malloc'ed by the model: free(allocated) when done; the data is "
        "at\n"
     << " *    aligned + offset with the strides given. A result that is a "
        "constant has\n"
     << " *    allocated == (void *)0xdeadbeef and must not be freed.\n"
     << " *  - a failed run-time check calls onnxd_rt_fail(message): the "
        "default prints\n"
     << " *    the message and aborts; define your own to handle it (it must "
        "not return).\n"
     << " *\n * Inputs:\n";
  for (const ValueSignature &v : sig.inputs)
    os << " *   " << v.name << ": " << describe(v) << "\n";
  os << " * Outputs:\n";
  for (auto [i, v] : llvm::enumerate(sig.outputs))
    os << " *   " << v.name << ": " << describe(v)
       << (llvm::is_contained(sig.outputParams, static_cast<int64_t>(i))
               ? " (an argument)"
               : "")
       << "\n";
  os << " */\n\n";
  auto descriptor = [&](const ValueSignature &v, const std::string &name) {
    if (v.isHandle()) {
      os << "/* A sequence or optional: a handle to a value of the runtime\n"
            " * (libOnnxDialectRuntime; docs/runtime.md, \"Values\"). */\n"
         << "typedef void *" << name << ";\n\n";
      return;
    }
    size_t rank = v.dims.size();
    os << "typedef struct " << name << " {\n  " << cTypeOf(v.dtype)
       << " *allocated;\n  " << cTypeOf(v.dtype)
       << " *aligned;\n  int64_t offset;\n";
    if (rank)
      os << "  int64_t sizes[" << rank << "];\n  int64_t strides[" << rank
         << "];\n";
    os << "} " << name << ";\n\n";
  };
  for (auto [i, v] : llvm::enumerate(sig.inputs))
    descriptor(v, e + "_input" + std::to_string(i));
  for (auto [i, v] : llvm::enumerate(sig.outputs))
    descriptor(v, e + "_output" + std::to_string(i));
  // The outputs written into the caller's buffers (arguments after the
  // inputs) and those returned.
  auto isParam = [&](size_t i) {
    return llvm::is_contained(sig.outputParams, static_cast<int64_t>(i));
  };
  SmallVector<size_t> returned;
  for (size_t i = 0; i < sig.outputs.size(); ++i)
    if (!isParam(i))
      returned.push_back(i);
  if (!returned.empty()) {
    os << "typedef struct " << e << "_results {\n";
    for (size_t i : returned)
      os << "  " << e << "_output" << i << " "
         << identifier(sig.outputs[i].name) << ";\n";
    os << "} " << e << "_results;\n\n";
  }
  // One handle result is returned, not written through a pointer.
  bool returnsHandle =
      returned.size() == 1 && sig.outputs[returned[0]].isHandle();
  bool resultsArg = !returned.empty() && !returnsHandle;
  if (returnsHandle)
    os << e << "_output" << returned[0] << " _mlir_ciface_" << sig.entry << "(";
  else
    os << "void _mlir_ciface_" << sig.entry << "(";
  if (resultsArg)
    os << e << "_results *results";
  bool first = !resultsArg;
  for (auto [i, v] : llvm::enumerate(sig.inputs)) {
    os << (first ? "" : ",\n    ") << e << "_input" << i
       << (v.isHandle() ? " " : " *") << identifier(v.name);
    first = false;
  }
  for (int64_t o : sig.outputParams) {
    os << (first ? "" : ",\n    ") << e << "_output" << o << " *"
       << identifier(sig.outputs[o].name);
    first = false;
  }
  if (first)
    os << "void";
  os << ");\n\n"
     << "/* args[0] = results, args[1 + i] = input i, then the outputs "
        "listed as\n"
     << " * arguments, in order. */\n"
     << "void onnxd_entry(void **args);\n"
     << "/* The signature as JSON (names, ONNX dtypes, dims, dim_params). */\n"
     << "extern const char onnxd_signature[];\n\n"
     << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  return s;
}

static Error linkShared(llvm::ArrayRef<std::string> objects,
                        llvm::StringRef outPath, bool openmp, bool mpi) {
  llvm::ErrorOr<std::string> cc = llvm::sys::findProgramByName("cc");
  if (!cc)
    return makeError(ONNXD_COMPILE_ERROR,
                     "cannot find `cc` to link " + outPath.str());
  std::string out = outPath.str();
  llvm::SmallVector<llvm::StringRef> args = {*cc, "-shared", "-o", out};
  args.append(objects.begin(), objects.end());
  std::string omp = std::string("-l:") + kOpenMPLibrary;
  if (openmp)
    args.push_back(omp);
  std::string libmpi = std::string("-l:") + kMPILibrary;
  if (mpi)
    args.push_back(libmpi);
  std::string message;
  int rc =
      llvm::sys::ExecuteAndWait(*cc, args, std::nullopt, {}, 0, 0, &message);
  if (rc != 0)
    return makeError(ONNXD_COMPILE_ERROR,
                     "linking " + outPath.str() + " with cc failed" +
                         (message.empty() ? "" : ": " + message));
  return {};
}

/// The PTX of every kernel module, one after another.
static Error writePTX(Compilation &c, llvm::StringRef outPath) {
  if (!c.signature.onGPU())
    return makeError(ONNXD_INVALID_ARGUMENT,
                     "PTX is written for device cuda only");
  // Kernels compiled for the GPU emulator are host code.
  bool emulated = false;
  c.module->walk([&](LLVM::LLVMFuncOp fn) {
    emulated |= fn.getSymName() == "onnxd_gpu_emu_launch";
  });
  if (emulated)
    return makeError(ONNXD_INVALID_ARGUMENT,
                     "no PTX: the kernels were compiled for the GPU emulator "
                     "(ONNXD_TEST_GPU_EMULATE=1)");
  std::error_code ec;
  llvm::ToolOutputFile out(outPath, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return makeError(ONNXD_IO_ERROR, outPath.str() + ": " + ec.message());
  c.module->walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      out.os() << "// kernel module " << binary.getSymName() << " for "
               << object.getTarget() << "\n"
               << object.getObject().getValue().rtrim('\0') << "\n";
    }
  });
  out.keep();
  return {};
}

Error mlir::onnx::runtime::emit(llvm::StringRef path,
                                const onnxd_options &rawOptions,
                                onnxd_emit_kind kind, llvm::StringRef outPath) {
  onnxd_options options = normalize(rawOptions);
  CompilationScope scope;
  Compilation &c = *scope;
  if (Error e = frontEnd(path, options, c))
    return e;
  if (kind == ONNXD_EMIT_PTX)
    return writePTX(c, outPath);
  if (kind == ONNXD_EMIT_MLIR) {
    std::error_code ec;
    llvm::ToolOutputFile out(outPath, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return makeError(ONNXD_IO_ERROR, outPath.str() + ": " + ec.message());
    c.module->print(out.os());
    out.keep();
    return {};
  }
  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm = createTargetMachine(options, error);
  if (!tm)
    return makeError(ONNXD_COMPILE_ERROR, error);
  // LLVM's context and module are leaked with the compilation if a step
  // that uses them crashes.
  auto ctx = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module;
  llvm::scope_exit leak([&] {
    if (c.guard.crashed()) {
      (void)module.release();
      (void)ctx.release();
    }
  });
  // A shared library is optimized and compiled in parts, on threads.
  bool inParts = kind == ONNXD_EMIT_SHARED;
  if (std::optional<std::string> crash =
          c.guard.run("the translation to LLVM IR", [&] {
            module =
                translate(*c.module, *ctx, c.signature, *tm, options.opt_level,
                          /*library=*/kind == ONNXD_EMIT_SHARED,
                          /*optimize=*/!inParts, error);
          }))
    return makeError(ONNXD_COMPILE_ERROR, path.str() + ": " + *crash);
  if (!module)
    return makeError(ONNXD_COMPILE_ERROR, path.str() + ": " + error);
  if (kind == ONNXD_EMIT_LLVM) {
    std::error_code ec;
    llvm::ToolOutputFile out(outPath, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return makeError(ONNXD_IO_ERROR, outPath.str() + ": " + ec.message());
    module->print(out.os(), nullptr);
    out.keep();
    return {};
  }
  // LLVM's code generation, under the crash guard.
  auto writeObjectGuarded = [&](llvm::StringRef file) -> Error {
    Error result;
    if (std::optional<std::string> crash =
            c.guard.run("LLVM's code generation",
                        [&] { result = writeObject(*module, *tm, file); }))
      return makeError(ONNXD_COMPILE_ERROR, path.str() + ": " + *crash);
    return result;
  };
  if (kind == ONNXD_EMIT_OBJECT)
    return writeObjectGuarded(outPath);

  // A shared library: objects in temporary files, linked by cc.
  std::vector<std::string> objects(codeGenParts(*module));
  llvm::scope_exit removeObjects([&] {
    for (const std::string &object : objects)
      if (!object.empty())
        llvm::sys::fs::remove(object);
  });
  for (std::string &object : objects) {
    llvm::SmallString<128> file;
    int fd;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("onnxd-model", "o", fd, file))
      return makeError(ONNXD_IO_ERROR, "temporary object: " + ec.message());
    ::close(fd);
    object = file.str().str();
  }
  // The split runs on this thread, under the compilation's guard.
  Error compiled;
  if (std::optional<std::string> crash =
          c.guard.run("LLVM's code generation", [&] {
            compiled =
                compileInParts(std::move(module), options, objects, path);
          }))
    return makeError(ONNXD_COMPILE_ERROR, path.str() + ": " + *crash);
  if (compiled)
    return compiled;
  if (Error e = linkShared(objects, outPath, c.signature.openmp,
                           !c.signature.deviceConfig.empty()))
    return e;
  llvm::SmallString<128> header(outPath);
  llvm::sys::path::replace_extension(header, "h");
  std::error_code ec;
  llvm::ToolOutputFile out(header, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return makeError(ONNXD_IO_ERROR, header.str().str() + ": " + ec.message());
  out.os() << makeHeader(c.signature, outPath);
  out.keep();
  return {};
}
