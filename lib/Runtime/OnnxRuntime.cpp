//===- OnnxRuntime.cpp - The C API ----------------------------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks inputs against the signature, passes them to the compiled entry as
// memref descriptors, and turns the result descriptors into tensors the
// caller owns.
//
// A failed check inside compiled code calls onnxd_rt_fail, which longjmps
// back to the onnxd_run that is active on this thread. Buffers the compiled
// code allocated before the failure are not freed (a leak on the error path
// only; see docs/runtime.md).
//
// A model compiled with profiling probes records one event per kernel and
// run (onnxd_prof_begin/end, called by the compiled code on the thread that
// called onnxd_run) and writes them as Chrome trace events.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Runtime/OnnxRuntime.h"

#include "Allocator.h"
#include "CUDA.h"
#include "Runtime.h"
#include "Values.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <optional>
#include <string>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>
#include <vector>

using namespace mlir::onnx::runtime;

namespace {
/// One timed kernel (kernel >= 0, an index of Signature::kernels) or one
/// whole run (kernel = -1); nanoseconds of the steady clock.
struct ProfileEvent {
  int64_t kernel, start, end;
};
/// The events of a model's runs since it was created or last written.
struct Profile {
  std::vector<ProfileEvent> events;
  int64_t origin = 0;
  size_t dropped = 0;
};
} // namespace

/// At most this many events are kept between two writes (96 MiB).
static constexpr size_t kMaxProfileEvents = size_t(1) << 22;

int64_t mlir::onnx::runtime::steadyNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The profile of the run active on this thread, if it records.
static thread_local Profile *activeProfile = nullptr;

static void record(Profile &p, int64_t kernel, int64_t start, int64_t end) {
  if (p.events.size() >= kMaxProfileEvents) {
    ++p.dropped;
    return;
  }
  p.events.push_back({kernel, start, end});
}

int64_t onnxd_prof_begin(void) { return steadyNanos(); }

void onnxd_prof_end(int64_t kernel, int64_t start) {
  if (Profile *p = activeProfile)
    record(*p, kernel, start, steadyNanos());
}

bool mlir::onnx::runtime::profilingRun() { return activeProfile != nullptr; }

void mlir::onnx::runtime::recordProfiledKernel(int64_t kernel, int64_t start,
                                               int64_t end) {
  if (Profile *p = activeProfile)
    record(*p, kernel, start, end);
}

struct onnxd_model {
  Signature signature;
  std::unique_ptr<CodeOwner> owner; // compiled in process, or
  void *library = nullptr;          // a loaded shared library
  PackedEntry entry = nullptr;
  void (*setThreads)(int) = nullptr;
  int numThreads = 1;
  Profile profile;
  /// A GPU model's device copies of its globals (CUDA.h).
  GPUModelState *gpu = nullptr;

  ~onnxd_model() {
    destroyGPUState(gpu);
    owner.reset();
    if (library)
      dlclose(library);
  }
};

CodeOwner::~CodeOwner() = default;

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

static thread_local std::string lastError;

onnxd_status mlir::onnx::runtime::fail(onnxd_status status,
                                       std::string message) {
  lastError = std::move(message);
  return status;
}

const char *onnxd_last_error(void) { return lastError.c_str(); }

namespace {
/// The onnxd_run active on this thread (where onnxd_rt_fail returns to).
struct RunContext {
  jmp_buf jump;
  const char *message = nullptr;
  RunContext *previous = nullptr;
};
} // namespace

static thread_local RunContext *activeRun = nullptr;

void onnxd_rt_fail(const char *message) {
  RunContext *run = activeRun;
  if (!run) {
    // Not inside onnxd_run on this thread: nothing to return to.
    std::fprintf(stderr, "onnxd: run-time check failed: %s\n", message);
    std::abort();
  }
  run->message = message;
  longjmp(run->jump, 1);
}

/// Calls the entry; false (with the message) when a check failed. No object
/// with a destructor lives in this frame: longjmp skips destructors.
static bool callEntry(PackedEntry entry, void **args, const char **message) {
  RunContext run;
  run.previous = activeRun;
  activeRun = &run;
  if (setjmp(run.jump) != 0) {
    activeRun = run.previous;
    *message = run.message;
    return false;
  }
  entry(args);
  activeRun = run.previous;
  return true;
}

//===----------------------------------------------------------------------===//
// Models
//===----------------------------------------------------------------------===//

long long onnxd_model_comm_bytes(const onnxd_model *model) {
  return model ? model->signature.commBytes : 0;
}

onnxd_status onnxd_device_check(const char *device) {
  std::string name = device ? device : "";
  if (name.empty() || name == "cpu")
    return ONNXD_OK;
  if (name != "cuda")
    return fail(ONNXD_INVALID_ARGUMENT,
                "unknown device '" + name + "' (cpu or cuda)");
  std::string error;
  if (!cudaReady(error))
    return fail(ONNXD_RUNTIME_ERROR, "device cuda: " + error);
  return ONNXD_OK;
}

const char *onnxd_model_device(const onnxd_model *model) {
  return model && model->signature.onGPU() ? "cuda" : "cpu";
}

onnxd_status onnxd_device_buffer_create(const char *device, const void *host,
                                        size_t bytes, void **buffer) {
  std::string name = device ? device : "";
  if (name != "cuda")
    return fail(ONNXD_INVALID_ARGUMENT,
                "device buffers: device '" + name +
                    "' (only cuda has memory of its own)");
  if (!buffer)
    return fail(ONNXD_INVALID_ARGUMENT, "device buffers: no result pointer");
  *buffer = nullptr;
  std::string error;
  if (!createDeviceBuffer(host, bytes, *buffer, error))
    return fail(ONNXD_RUNTIME_ERROR, "device cuda: " + error);
  return ONNXD_OK;
}

onnxd_status onnxd_device_buffer_free(void *buffer) {
  if (buffer && !freeDeviceBuffer(buffer))
    return fail(ONNXD_INVALID_ARGUMENT,
                "onnxd_device_buffer_free: not a live device buffer");
  return ONNXD_OK;
}

void onnxd_options_init(onnxd_options *options) {
  if (!options)
    return;
  options->opt_level = 3;
  options->num_threads = 1;
  options->format = nullptr;
  options->target_cpu = nullptr;
  options->target_features = nullptr;
  options->codegen = 1;
  options->profile = 0;
  options->device_config = nullptr;
  options->micro_batches = 1;
  options->device = nullptr;
  options->gpu_chip = nullptr;
  options->memory_plan = 1;
  options->winograd = 4;
  options->blocked_layout = 1;
  options->gpu_tf32 = 0;
}

void mlir::onnx::runtime::makeRuntimeGlobal() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&onnxd_rt_fail), &info) && info.dli_fname)
    dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
}

/// A model compiled for one rank of a device configuration runs only where
/// this process is that rank of the current communicator.
static onnxd_status checkRank(const Signature &sig) {
  if (sig.deviceConfig.empty())
    return ONNXD_OK;
  int rank = 0, size = 0;
  std::string error;
  if (!joinMPI(rank, size, error))
    return fail(ONNXD_IO_ERROR, error);
  if (rank != sig.rank)
    return fail(ONNXD_INVALID_ARGUMENT,
                "the model was compiled for rank " + std::to_string(sig.rank) +
                    " of device configuration '" + sig.deviceConfig +
                    "', this process is rank " + std::to_string(rank));
  return ONNXD_OK;
}

static onnxd_status finishModel(onnxd_model *model, onnxd_model **out) {
  model->profile.origin = steadyNanos();
  if (onnxd_status status = checkRank(model->signature)) {
    delete model;
    return status;
  }
  if (model->signature.openmp) {
    std::string error;
    model->setThreads = loadOpenMP(error);
    if (!model->setThreads) {
      delete model;
      return fail(ONNXD_IO_ERROR, error);
    }
    // The thread pool starts now, not in the first run.
    model->setThreads(model->numThreads);
    warmOpenMP(model->numThreads);
  }
  *out = model;
  return ONNXD_OK;
}

onnxd_status mlir::onnx::runtime::makeModel(const Signature &signature,
                                            PackedEntry entry,
                                            std::unique_ptr<CodeOwner> owner,
                                            int numThreads, onnxd_model **out) {
  auto *m = new onnxd_model;
  m->signature = signature;
  m->signature.finalize();
  m->owner = std::move(owner);
  m->entry = entry;
  m->numThreads = std::max(1, numThreads);
  return finishModel(m, out);
}

//===----------------------------------------------------------------------===//
// OpenMP
//===----------------------------------------------------------------------===//

/// Binds the OpenMP threads one to a core, spread over the cores the process
/// may run on (libomp's KMP_AFFINITY=granularity=core,scatter, given through
/// `kmp_set_defaults`, which leaves the environment alone), unless the
/// environment already places them (KMP_AFFINITY, OMP_PROC_BIND, OMP_PLACES
/// or GOMP_CPU_AFFINITY set; OMP_PROC_BIND=false lets them float). It takes
/// effect when libomp starts its first thread team, so not in a process
/// whose OpenMP threads already run. Left to the kernel's scheduler, two
/// threads shared one core now and then: a 2-thread int8 MatMul of 0.21 ms
/// took 0.8 ms in 5 of 30 processes (none bound).
static void placeThreads(void *handle) {
  for (const char *name :
       {"KMP_AFFINITY", "OMP_PROC_BIND", "OMP_PLACES", "GOMP_CPU_AFFINITY"})
    if (getenv(name))
      return;
  if (auto defaults = reinterpret_cast<void (*)(const char *)>(
          dlsym(handle, "kmp_set_defaults")))
    defaults("KMP_AFFINITY=granularity=core,scatter");
}

void (*mlir::onnx::runtime::loadOpenMP(std::string &error))(int) {
  void *handle = dlopen(kOpenMPLibrary, RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    const char *msg = dlerror();
    error = std::string("cannot load ") + kOpenMPLibrary + ": " +
            (msg ? msg : "unknown error");
    return nullptr;
  }
  static std::once_flag placed;
  std::call_once(placed, placeThreads, handle);
  return reinterpret_cast<void (*)(int)>(dlsym(handle, "omp_set_num_threads"));
}

void mlir::onnx::runtime::warmOpenMP(int threads) {
  void *handle = dlopen(kOpenMPLibrary, RTLD_NOW | RTLD_NOLOAD);
  if (!handle)
    return;
  // GOMP_parallel(fn, data, num_threads, flags): libomp's GNU entry point,
  // the one of its entry points with a plain C signature.
  using Parallel = void (*)(void (*)(void *), void *, unsigned, unsigned);
  if (auto parallel =
          reinterpret_cast<Parallel>(dlsym(handle, "GOMP_parallel")))
    parallel([](void *) {}, nullptr, static_cast<unsigned>(threads), 0);
  dlclose(handle);
}

onnxd_status onnxd_load(const char *path, onnxd_model **model) {
  if (!path || !model)
    return fail(ONNXD_INVALID_ARGUMENT, "onnxd_load: NULL argument");
  *model = nullptr;
  // The model's own libomp dependency and onnxd_rt_fail resolve globally.
  makeRuntimeGlobal();
  std::string file = path;
  if (file.find('/') == std::string::npos)
    file = "./" + file;
  void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *msg = dlerror();
    return fail(ONNXD_IO_ERROR,
                std::string(path) + ": " + (msg ? msg : "cannot load"));
  }
  auto *json = static_cast<const char *>(dlsym(handle, kSignatureSymbol));
  auto entry = reinterpret_cast<PackedEntry>(dlsym(handle, kEntrySymbol));
  if (!json || !entry) {
    dlclose(handle);
    return fail(ONNXD_IO_ERROR,
                std::string(path) + ": not a model library (no " +
                    kSignatureSymbol + "/" + kEntrySymbol + ")");
  }
  auto *m = new onnxd_model;
  m->library = handle;
  m->entry = entry;
  std::string error;
  if (!m->signature.fromJSON(json, error)) {
    delete m;
    return fail(ONNXD_IO_ERROR,
                std::string(path) + ": bad embedded signature: " + error);
  }
  m->numThreads = 1;
  return finishModel(m, model);
}

void onnxd_model_free(onnxd_model *model) { delete model; }

size_t onnxd_model_num_inputs(const onnxd_model *model) {
  return model ? model->signature.inputs.size() : 0;
}

size_t onnxd_model_num_outputs(const onnxd_model *model) {
  return model ? model->signature.outputs.size() : 0;
}

static onnxd_status describeValue(const std::vector<ValueSignature> &values,
                                  size_t index, onnxd_value_info *info,
                                  const char *what) {
  if (!info)
    return fail(ONNXD_INVALID_ARGUMENT, "NULL onnxd_value_info");
  if (index >= values.size())
    return fail(ONNXD_INVALID_ARGUMENT,
                std::string(what) + " " + std::to_string(index) +
                    " out of range (the model has " +
                    std::to_string(values.size()) + ")");
  const ValueSignature &v = values[index];
  info->name = v.name.c_str();
  info->dtype = v.dtype;
  info->rank = static_cast<int32_t>(v.dims.size());
  info->dims = v.dims.data();
  info->dim_params = v.dimParamPtrs.data();
  if (!v.rankKnown)
    info->rank = -1;
  info->kind = v.kind();
  info->type = v.type.c_str();
  return ONNXD_OK;
}

onnxd_status onnxd_model_input(const onnxd_model *model, size_t index,
                               onnxd_value_info *info) {
  if (!model)
    return fail(ONNXD_INVALID_ARGUMENT, "NULL model");
  return describeValue(model->signature.inputs, index, info, "input");
}

onnxd_status onnxd_model_output(const onnxd_model *model, size_t index,
                                onnxd_value_info *info) {
  if (!model)
    return fail(ONNXD_INVALID_ARGUMENT, "NULL model");
  return describeValue(model->signature.outputs, index, info, "output");
}

onnxd_status onnxd_model_set_num_threads(onnxd_model *model, int num_threads) {
  if (!model || num_threads < 1)
    return fail(ONNXD_INVALID_ARGUMENT,
                "onnxd_model_set_num_threads: needs a model and >= 1 thread");
  if (model->setThreads && num_threads != model->numThreads) {
    model->setThreads(num_threads);
    warmOpenMP(num_threads);
  }
  model->numThreads = num_threads;
  return ONNXD_OK;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

static std::string expectedInputs(const Signature &sig) {
  std::string s;
  for (const ValueSignature &v : sig.inputs)
    s += "\n  " + v.name + ": " + describe(v);
  return s;
}

static std::string shapeString(int32_t rank, const int64_t *shape) {
  std::string s = "[";
  for (int32_t i = 0; i < rank; ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

static const char *kindWord(int32_t kind) {
  switch (kind) {
  case ONNXD_KIND_TENSOR:
    return "a tensor";
  case ONNXD_KIND_SEQUENCE:
    return "a sequence";
  case ONNXD_KIND_MAP:
    return "a map";
  case ONNXD_KIND_OPTIONAL:
    return "an optional";
  default:
    return "an unknown kind";
  }
}

/// Checks `value` against the part of `sig` below `depth` kinds; `what`
/// names it ("input 'x'", "input 'x' element 2").
static onnxd_status checkValue(
    const ValueSignature &sig, size_t depth, const onnxd_value &value,
    const std::string &what,
    std::unordered_map<std::string, std::pair<int64_t, std::string>> &params) {
  std::string expected = "expected " + describe(sig);
  int32_t kind =
      depth < sig.nest.size() ? sig.nest[depth] : int32_t(ONNXD_KIND_TENSOR);
  if (value.kind != kind)
    return fail(ONNXD_INVALID_ARGUMENT,
                what + ": " + kindWord(value.kind) + ", " + expected);
  if (kind != ONNXD_KIND_TENSOR) {
    if (value.num_elements && !value.elements)
      return fail(ONNXD_INVALID_ARGUMENT, what + ": elements is NULL");
    if (kind == ONNXD_KIND_OPTIONAL && value.num_elements > 1)
      return fail(ONNXD_INVALID_ARGUMENT,
                  what + ": an optional holds at most one value");
    if (kind == ONNXD_KIND_MAP)
      return fail(ONNXD_UNSUPPORTED, what + ": maps are not supported yet");
    for (size_t i = 0; i < value.num_elements; ++i)
      if (onnxd_status s =
              checkValue(sig, depth + 1, value.elements[i],
                         kind == ONNXD_KIND_OPTIONAL
                             ? what + " (its value)"
                             : what + " element " + std::to_string(i),
                         params))
        return s;
    return ONNXD_OK;
  }
  const onnxd_tensor &t = value.tensor;
  if (t.dtype != sig.dtype)
    return fail(ONNXD_INVALID_ARGUMENT, what + ": element type " +
                                            dtypeName(t.dtype) + ", " +
                                            expected);
  if (t.rank < 0 || (sig.rankKnown && t.rank != int32_t(sig.dims.size())))
    return fail(ONNXD_INVALID_ARGUMENT,
                what + ": rank " + std::to_string(t.rank) + ", " + expected);
  if (t.rank > 0 && !t.shape)
    return fail(ONNXD_INVALID_ARGUMENT, what + ": shape is NULL");
  int64_t elements = 1;
  for (int32_t d = 0; d < t.rank; ++d) {
    int64_t size = t.shape[d];
    std::string dim = "dim " + std::to_string(d);
    if (size < 0)
      return fail(ONNXD_INVALID_ARGUMENT, what + ": " + dim + " is negative (" +
                                              std::to_string(size) + ")");
    elements *= size;
    if (!sig.rankKnown)
      continue;
    if (sig.dims[d] >= 0 && size != sig.dims[d])
      return fail(ONNXD_INVALID_ARGUMENT,
                  what + ": shape " + shapeString(t.rank, t.shape) + ", " +
                      expected + " (" + dim + " must be " +
                      std::to_string(sig.dims[d]) + ")");
    // dim_params tie the dims of top-level tensors together.
    const std::string &param = sig.dimParams[d];
    if (!param.empty() && sig.nest.empty()) {
      auto [it, inserted] =
          params.try_emplace(param, size, sig.name + " " + dim);
      if (!inserted && it->second.first != size)
        return fail(ONNXD_INVALID_ARGUMENT,
                    what + ": " + dim + " (" + param + ") is " +
                        std::to_string(size) + ", but " + param + " = " +
                        std::to_string(it->second.first) + " from " +
                        it->second.second);
    }
  }
  if (elements > 0 && !t.data)
    return fail(ONNXD_INVALID_ARGUMENT, what + ": data is NULL");
  if (t.dtype == ONNXD_STRING)
    for (int64_t i = 0; i < elements; ++i)
      if (!static_cast<const char *const *>(t.data)[i])
        return fail(ONNXD_INVALID_ARGUMENT,
                    what + ": string " + std::to_string(i) + " is NULL");
  return ONNXD_OK;
}

/// Puts the caller's values in signature order and checks them.
static onnxd_status bindInputs(const Signature &sig, const onnxd_value *inputs,
                               size_t numInputs,
                               std::vector<const onnxd_value *> &bound) {
  bound.assign(sig.inputs.size(), nullptr);
  if (numInputs && !inputs)
    return fail(ONNXD_INVALID_ARGUMENT, "inputs is NULL");
  // NULL or "" is no name (TensorProto files often carry none).
  auto hasName = [](const onnxd_value &t) { return t.name && *t.name; };
  bool named = numInputs == 0 || hasName(inputs[0]);
  for (size_t i = 0; i < numInputs; ++i)
    if (hasName(inputs[i]) != named)
      return fail(ONNXD_INVALID_ARGUMENT,
                  "either every input has a name or none has");
  if (!named) {
    if (numInputs != sig.inputs.size())
      return fail(ONNXD_INVALID_ARGUMENT,
                  "got " + std::to_string(numInputs) +
                      " unnamed inputs; the model expects " +
                      std::to_string(sig.inputs.size()) + ":" +
                      expectedInputs(sig));
    for (size_t i = 0; i < numInputs; ++i)
      bound[i] = &inputs[i];
  } else {
    for (size_t i = 0; i < numInputs; ++i) {
      size_t j = 0;
      while (j < sig.inputs.size() && sig.inputs[j].name != inputs[i].name)
        ++j;
      if (j == sig.inputs.size())
        return fail(ONNXD_INVALID_ARGUMENT,
                    std::string("unknown input '") + inputs[i].name +
                        "'; the model's inputs are:" + expectedInputs(sig));
      if (bound[j])
        return fail(ONNXD_INVALID_ARGUMENT, std::string("input '") +
                                                inputs[i].name +
                                                "' is given twice");
      bound[j] = &inputs[i];
    }
    std::string missing;
    for (size_t j = 0; j < sig.inputs.size(); ++j)
      if (!bound[j])
        missing += "\n  " + sig.inputs[j].name + ": " + describe(sig.inputs[j]);
    if (!missing.empty())
      return fail(ONNXD_INVALID_ARGUMENT, "missing input(s):" + missing);
  }

  // Kinds, element types, ranks, static dims, one size per dim_param.
  std::unordered_map<std::string, std::pair<int64_t, std::string>> params;
  for (size_t j = 0; j < sig.inputs.size(); ++j)
    if (onnxd_status s =
            checkValue(sig.inputs[j], 0, *bound[j],
                       "input '" + sig.inputs[j].name + "'", params))
      return s;
  return ONNXD_OK;
}

namespace {
/// An output as handed to the caller: the tensor first (onnxd_tensor_free
/// takes it back), then what it points to.
struct OwnedTensor {
  onnxd_tensor tensor;
  void *base; // what free() releases; null when data lives elsewhere
};
} // namespace

static OwnedTensor *newTensor(const ValueSignature &v, const int64_t *shape) {
  size_t rank = v.dims.size();
  size_t bytes =
      sizeof(OwnedTensor) + rank * sizeof(int64_t) + v.name.size() + 1;
  auto *t = static_cast<OwnedTensor *>(std::malloc(bytes));
  if (!t)
    return nullptr;
  auto *dims = reinterpret_cast<int64_t *>(t + 1);
  if (rank) // a rank-0 shape may be null
    std::memcpy(dims, shape, rank * sizeof(int64_t));
  char *name = reinterpret_cast<char *>(dims + rank);
  std::memcpy(name, v.name.c_str(), v.name.size() + 1);
  t->tensor.name = name;
  t->tensor.dtype = v.dtype;
  t->tensor.rank = static_cast<int32_t>(rank);
  t->tensor.shape = dims;
  t->tensor.data = nullptr;
  t->base = nullptr;
  return t;
}

void onnxd_tensor_free(onnxd_tensor *tensor) {
  if (!tensor)
    return;
  auto *t = reinterpret_cast<OwnedTensor *>(tensor);
  if (t->tensor.dtype == ONNXD_STRING && t->base) {
    int64_t n = 1;
    for (int32_t d = 0; d < t->tensor.rank; ++d)
      n *= t->tensor.shape[d];
    for (int64_t i = 0; i < n; ++i)
      std::free(static_cast<char **>(t->base)[i]);
  }
  std::free(t->base);
  std::free(t);
}

/// Copies a strided buffer into a dense row-major one.
static void copyStrided(char *dst, const char *src, size_t elemSize,
                        size_t rank, const int64_t *sizes,
                        const int64_t *strides) {
  if (rank == 0) {
    std::memcpy(dst, src, elemSize);
    return;
  }
  std::vector<int64_t> index(rank, 0);
  int64_t total = 1;
  for (size_t d = 0; d < rank; ++d)
    total *= sizes[d];
  for (int64_t n = 0; n < total; ++n) {
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d)
      offset += index[d] * strides[d];
    std::memcpy(dst + n * elemSize, src + offset * elemSize, elemSize);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
}

//===----------------------------------------------------------------------===//
// Values across the boundary
//===----------------------------------------------------------------------===//

/// The compiled code stores a sub-byte element (i4, i2, f4E2M1) in a byte
/// whose high bits it does not define: keep the value's bits, sign-extend
/// int4/int2 and clear the rest for the others.
static void normalizeSubByte(int32_t dtype, char *data, int64_t elements) {
  unsigned bits;
  bool isSigned = dtype == ONNXD_INT4 || dtype == ONNXD_INT2;
  switch (dtype) {
  case ONNXD_UINT4:
  case ONNXD_INT4:
  case ONNXD_FLOAT4E2M1:
    bits = 4;
    break;
  case ONNXD_UINT2:
  case ONNXD_INT2:
    bits = 2;
    break;
  default:
    return;
  }
  auto *p = reinterpret_cast<uint8_t *>(data);
  uint8_t mask = (1u << bits) - 1, sign = 1u << (bits - 1);
  for (int64_t i = 0; i < elements; ++i) {
    uint8_t v = p[i] & mask;
    if (isSigned && (v & sign))
      v |= ~mask;
    p[i] = v;
  }
}

/// A caller's value as a runtime value of this run (tensor data copied;
/// strings borrowed for the run). Optionals become null or their value.
static RtValue *toRuntime(const onnxd_value &v, Arena &arena) {
  if (v.kind == ONNXD_KIND_OPTIONAL)
    return v.num_elements ? toRuntime(v.elements[0], arena) : nullptr;
  RtValue *out = arena.make(v.kind);
  if (v.kind == ONNXD_KIND_SEQUENCE) {
    for (size_t i = 0; i < v.num_elements; ++i)
      out->elements.push_back(toRuntime(v.elements[i], arena));
    return out;
  }
  out->dtype = v.tensor.dtype;
  out->shape.assign(v.tensor.shape, v.tensor.shape + v.tensor.rank);
  size_t bytes = out->numElements() * storageSize(out->dtype);
  if (bytes)
    out->data.assign(static_cast<const char *>(v.tensor.data),
                     static_cast<const char *>(v.tensor.data) + bytes);
  return out;
}

/// Copies `count` strings (pointers at `src`) into malloc'ed ones at `dst`.
static void copyStrings(char **dst, const char *const *src, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    dst[i] = strdup(src[i] ? src[i] : "");
}

static void freeContents(onnxd_value &v);

/// The caller-owned copy of runtime value `r` whose type is `sig` below
/// `depth` kinds.
static void fromRuntime(const RtValue *r, const ValueSignature &sig,
                        size_t depth, onnxd_value &out) {
  std::memset(&out, 0, sizeof(out));
  int32_t kind =
      depth < sig.nest.size() ? sig.nest[depth] : int32_t(ONNXD_KIND_TENSOR);
  out.kind = kind;
  if (kind == ONNXD_KIND_OPTIONAL) {
    if (!r)
      return;
    out.num_elements = 1;
    out.elements =
        static_cast<onnxd_value *>(std::calloc(1, sizeof(onnxd_value)));
    fromRuntime(r, sig, depth + 1, out.elements[0]);
    return;
  }
  if (kind == ONNXD_KIND_SEQUENCE) {
    out.num_elements = r->elements.size();
    out.elements = static_cast<onnxd_value *>(std::calloc(
        std::max<size_t>(1, out.num_elements), sizeof(onnxd_value)));
    for (size_t i = 0; i < out.num_elements; ++i)
      fromRuntime(r->elements[i], sig, depth + 1, out.elements[i]);
    return;
  }
  onnxd_tensor &t = out.tensor;
  t.dtype = r->dtype;
  t.rank = static_cast<int32_t>(r->shape.size());
  auto *shape = static_cast<int64_t *>(
      std::malloc(std::max<size_t>(1, t.rank) * sizeof(int64_t)));
  std::memcpy(shape, r->shape.data(), t.rank * sizeof(int64_t));
  t.shape = shape;
  size_t bytes = r->data.size();
  t.data = std::malloc(std::max<size_t>(1, bytes));
  if (r->dtype == ONNXD_STRING)
    copyStrings(static_cast<char **>(t.data),
                reinterpret_cast<const char *const *>(r->data.data()),
                r->numElements());
  else
    std::memcpy(t.data, r->data.data(), bytes);
}

static void freeContents(onnxd_value &v) {
  if (v.kind == ONNXD_KIND_TENSOR || v.kind == ONNXD_KIND_MAP) {
    if (v.tensor.dtype == ONNXD_STRING && v.tensor.data) {
      int64_t n = 1;
      for (int32_t d = 0; d < v.tensor.rank; ++d)
        n *= v.tensor.shape[d];
      for (int64_t i = 0; i < n; ++i)
        std::free(static_cast<char **>(v.tensor.data)[i]);
    }
    std::free(v.tensor.data);
    std::free(const_cast<int64_t *>(v.tensor.shape));
  }
  for (size_t i = 0; i < v.num_elements; ++i)
    freeContents(v.elements[i]);
  std::free(v.elements);
}

namespace {
/// An output of onnxd_run_values: the value first (onnxd_value_free takes it
/// back); a top-level tensor keeps the OwnedTensor its fields point into.
struct OwnedValue {
  onnxd_value value;
  onnxd_tensor *tensor;
  char *name;
};

/// What one run hands back: per output, a tensor or a value.
struct RunOutput {
  onnxd_tensor *tensor = nullptr;
  onnxd_value value{};
  bool isValue = false;
  /// `tensor` is the caller's (onnxd_run_into): written, never freed.
  bool borrowed = false;
};
} // namespace

void onnxd_value_free(onnxd_value *value) {
  if (!value)
    return;
  auto *v = reinterpret_cast<OwnedValue *>(value);
  if (v->tensor)
    onnxd_tensor_free(v->tensor);
  else
    freeContents(v->value);
  std::free(v->name);
  std::free(v);
}

static void freeOutputs(std::vector<RunOutput> &outs) {
  for (RunOutput &o : outs) {
    if (!o.borrowed)
      onnxd_tensor_free(o.tensor);
    if (o.isValue)
      freeContents(o.value);
  }
  outs.clear();
}

/// Elements of a tensor of `rank` dims `shape`.
static int64_t elementCount(const int64_t *shape, size_t rank) {
  int64_t n = 1;
  for (size_t k = 0; k < rank; ++k)
    n *= shape[k];
  return n;
}

/// Checks the caller's tensors for outputs (onnxd_run_into) against the
/// signature: element type, rank, data, static dims.
static onnxd_status checkProvided(const Signature &sig,
                                  onnxd_tensor *const *provided) {
  for (size_t i = 0; i < sig.outputs.size(); ++i) {
    const onnxd_tensor *t = provided[i];
    if (!t)
      continue;
    const ValueSignature &v = sig.outputs[i];
    std::string where = "output '" + v.name + "': ";
    if (v.isHandle() || v.dtype == ONNXD_STRING)
      return fail(ONNXD_INVALID_ARGUMENT,
                  where + "is " + describe(v) +
                      "; only numeric tensors can be provided (leave the "
                      "slot NULL)");
    if (t->dtype != v.dtype)
      return fail(ONNXD_INVALID_ARGUMENT, where + "the provided tensor is " +
                                              onnxd_dtype_name(t->dtype) +
                                              ", the output " +
                                              onnxd_dtype_name(v.dtype));
    if (t->rank < 0 || static_cast<size_t>(t->rank) != v.dims.size() ||
        (t->rank && !t->shape))
      return fail(ONNXD_INVALID_ARGUMENT,
                  where + "the provided tensor has rank " +
                      std::to_string(t->rank) + ", the output " +
                      std::to_string(v.dims.size()));
    size_t bytes = storageSize(t->dtype);
    for (size_t k = 0; k < v.dims.size(); ++k) {
      if (t->shape[k] < 0 ||
          __builtin_mul_overflow(bytes, size_t(t->shape[k]), &bytes))
        return fail(ONNXD_INVALID_ARGUMENT,
                    where + "the provided tensor's shape " +
                        shapeString(t->rank, t->shape) +
                        " has a negative dim or too many elements");
      if (v.dims[k] >= 0 && t->shape[k] != v.dims[k])
        return fail(ONNXD_INVALID_ARGUMENT, where + "dim " + std::to_string(k) +
                                                " of the provided tensor is " +
                                                std::to_string(t->shape[k]) +
                                                ", the output's " +
                                                std::to_string(v.dims[k]));
    }
    if (!t->data && bytes > 0)
      return fail(ONNXD_INVALID_ARGUMENT,
                  where + "the provided tensor has no data");
  }
  return ONNXD_OK;
}

/// The caller's output tensors must not share memory with the inputs or
/// with each other: the compiled code writes an output while it still reads
/// the inputs.
static onnxd_status
checkProvidedOverlap(const Signature &sig,
                     const std::vector<const onnxd_value *> &bound,
                     onnxd_tensor *const *provided) {
  auto range = [](const onnxd_tensor &t) {
    auto *begin = static_cast<const char *>(t.data);
    size_t bytes = elementCount(t.shape, t.rank) * storageSize(t.dtype);
    return std::make_pair(begin, begin + bytes);
  };
  auto overlap = [&](const onnxd_tensor &a, const onnxd_tensor &b) {
    auto [a0, a1] = range(a);
    auto [b0, b1] = range(b);
    return a0 < a1 && b0 < b1 && a0 < b1 && b0 < a1;
  };
  for (size_t i = 0; i < sig.outputs.size(); ++i) {
    if (!provided[i])
      continue;
    for (size_t j = 0; j < bound.size(); ++j)
      if (!sig.inputs[j].isHandle() && overlap(*provided[i], bound[j]->tensor))
        return fail(ONNXD_INVALID_ARGUMENT,
                    "output '" + sig.outputs[i].name +
                        "': the provided tensor's data overlaps input '" +
                        sig.inputs[j].name + "'");
    for (size_t j = 0; j < i; ++j)
      if (provided[j] && overlap(*provided[i], *provided[j]))
        return fail(ONNXD_INVALID_ARGUMENT,
                    "output '" + sig.outputs[i].name +
                        "': the provided tensor's data overlaps output '" +
                        sig.outputs[j].name + "'");
  }
  return ONNXD_OK;
}

/// Moves the outputs the run returned (rather than wrote in place) into the
/// caller's tensors, where it provided some: the shapes must agree.
static onnxd_status copyIntoProvided(const Signature &sig,
                                     onnxd_tensor *const *provided,
                                     std::vector<RunOutput> &outs) {
  for (size_t i = 0; i < outs.size(); ++i) {
    onnxd_tensor *into = provided[i];
    if (!into || outs[i].borrowed)
      continue;
    onnxd_tensor *produced = outs[i].tensor;
    for (int32_t k = 0; k < produced->rank; ++k)
      if (produced->shape[k] != into->shape[k])
        return fail(
            ONNXD_RUNTIME_ERROR,
            "output '" + sig.outputs[i].name + "': dim " + std::to_string(k) +
                " is " + std::to_string(produced->shape[k]) +
                ", the provided tensor's " + std::to_string(into->shape[k]));
    size_t bytes = elementCount(produced->shape, produced->rank) *
                   storageSize(produced->dtype);
    if (bytes)
      std::memcpy(into->data, produced->data, bytes);
    onnxd_tensor_free(produced);
    outs[i].tensor = into;
    outs[i].borrowed = true;
  }
  return ONNXD_OK;
}

/// Runs the entry on checked inputs (signature order). `provided` (may be
/// NULL): per output, the caller's tensor to write it into (checked by
/// checkProvided), or NULL for a new one.
static onnxd_status runEntry(onnxd_model *model,
                             const std::vector<const onnxd_value *> &bound,
                             std::vector<RunOutput> &outs,
                             onnxd_tensor *const *provided = nullptr) {
  const Signature &sig = model->signature;
  // The communicator may have changed since the model was loaded.
  if (onnxd_status status = checkRank(sig))
    return status;
  std::optional<GPURunScope> gpuScope;
  if (sig.onGPU()) {
    std::string error;
    if (!cudaReady(error))
      return fail(ONNXD_RUNTIME_ERROR,
                  "the model was compiled for device cuda: " + error);
    gpuScope.emplace(model->gpu);
  }
  Arena arena;
  ArenaScope scope(arena);

  // Input descriptors: {allocated, aligned, offset, sizes[r], strides[r]};
  // sequences and optionals: a runtime handle.
  std::vector<std::vector<int64_t>> descriptors(bound.size());
  std::vector<void *> args(1 + bound.size());
  for (size_t i = 0; i < bound.size(); ++i) {
    if (sig.inputs[i].isHandle()) {
      args[1 + i] = toRuntime(*bound[i], arena);
      continue;
    }
    const onnxd_tensor &t = bound[i]->tensor;
    std::vector<int64_t> &d = descriptors[i];
    d.resize(3 + 2 * t.rank);
    auto data = reinterpret_cast<int64_t>(t.data);
    d[0] = d[1] = data;
    d[2] = 0;
    int64_t stride = 1;
    for (int32_t k = t.rank; k-- > 0;) {
      d[3 + k] = t.shape[k];
      d[3 + t.rank + k] = stride;
      stride *= t.shape[k];
    }
    args[1 + i] = d.data();
  }
  // Outputs computed in place (onnx-output-params): their descriptors
  // follow the inputs', over the caller's tensor or a new one.
  outs.assign(sig.outputs.size(), RunOutput());
  std::vector<bool> isParam(sig.outputs.size(), false);
  std::vector<std::vector<int64_t>> paramDescriptors;
  for (int64_t o : sig.outputParams) {
    const ValueSignature &v = sig.outputs[o];
    isParam[o] = true;
    size_t rank = v.dims.size();
    onnxd_tensor *t = provided ? provided[o] : nullptr;
    if (t) {
      outs[o].tensor = t;
      outs[o].borrowed = true;
    } else {
      // The bytes, rounded up to the alignment, unless they overflow.
      size_t bytes = storageSize(v.dtype);
      for (int64_t dim : v.dims)
        if (__builtin_mul_overflow(bytes, size_t(dim), &bytes))
          bytes = SIZE_MAX;
      bytes = std::max<size_t>(bytes, 1);
      OwnedTensor *owned =
          bytes < SIZE_MAX - 63 ? newTensor(v, v.dims.data()) : nullptr;
      if (owned)
        owned->base = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
      if (!owned || !owned->base) {
        std::free(owned);
        freeOutputs(outs);
        return fail(ONNXD_RUNTIME_ERROR,
                    "out of memory: cannot allocate output '" + v.name +
                        "' of shape " + shapeString(rank, v.dims.data()));
      }
      // A string tensor's pointers are its own only once copied (below):
      // null until then, for onnxd_tensor_free.
      if (v.dtype == ONNXD_STRING)
        std::memset(owned->base, 0, bytes);
      owned->tensor.data = owned->base;
      outs[o].tensor = t = &owned->tensor;
    }
    std::vector<int64_t> d(3 + 2 * rank);
    d[0] = d[1] = reinterpret_cast<int64_t>(t->data);
    int64_t stride = 1;
    for (size_t k = rank; k-- > 0;) {
      d[3 + k] = v.dims[k];
      d[3 + rank + k] = stride;
      stride *= v.dims[k];
    }
    paramDescriptors.push_back(std::move(d));
  }
  for (std::vector<int64_t> &d : paramDescriptors)
    args.push_back(d.data());
  size_t resultWords = 0;
  for (size_t i = 0; i < sig.outputs.size(); ++i)
    if (!isParam[i])
      resultWords +=
          sig.outputs[i].isHandle() ? 1 : 3 + 2 * sig.outputs[i].dims.size();
  std::vector<int64_t> results(resultWords, 0);
  args[0] = results.data();

  if (model->setThreads)
    model->setThreads(model->numThreads);
  const char *message = nullptr;
  bool profiling = sig.profiled;
  Profile *outerProfile = activeProfile;
  if (profiling)
    activeProfile = &model->profile;
  int64_t start = profiling ? steadyNanos() : 0;
  bool ok = callEntry(model->entry, args.data(), &message);
  if (profiling) {
    record(model->profile, -1, start, steadyNanos());
    activeProfile = outerProfile;
  }
  if (!ok) {
    for (int64_t o : sig.outputParams)
      if (sig.outputs[o].dtype == ONNXD_STRING)
        std::memset(outs[o].tensor->data, 0,
                    elementCount(sig.outputs[o].dims.data(),
                                 sig.outputs[o].dims.size()) *
                        storageSize(ONNXD_STRING));
    freeOutputs(outs);
    return fail(ONNXD_RUNTIME_ERROR, std::string("run-time check failed: ") +
                                         (message ? message : "(no message)"));
  }

  // Hand the result buffers over; copy those the caller cannot own.
  std::unordered_set<void *> inputBuffers, taken, toFree;
  for (size_t i = 0; i < bound.size(); ++i)
    if (!sig.inputs[i].isHandle())
      inputBuffers.insert(bound[i]->tensor.data);
  for (int64_t o : sig.outputParams)
    inputBuffers.insert(outs[o].tensor->data);
  auto *constant = reinterpret_cast<void *>(uintptr_t(0xdeadbeef));
  size_t word = 0;
  onnxd_status status = ONNXD_OK;
  for (size_t i = 0; i < sig.outputs.size(); ++i) {
    const ValueSignature &v = sig.outputs[i];
    if (isParam[i]) {
      char *data = static_cast<char *>(outs[i].tensor->data);
      int64_t elements = elementCount(v.dims.data(), v.dims.size());
      // Strings point into the run's arena (or the inputs): copy them.
      if (v.dtype == ONNXD_STRING)
        for (int64_t k = 0; k < elements; ++k) {
          char *&string = reinterpret_cast<char **>(data)[k];
          string = strdup(string ? string : "");
        }
      normalizeSubByte(v.dtype, data, elements);
      continue;
    }
    if (v.isHandle()) {
      auto *handle = reinterpret_cast<RtValue *>(results[word++]);
      outs[i].isValue = true;
      fromRuntime(handle, v, 0, outs[i].value);
      continue;
    }
    size_t rank = v.dims.size();
    int64_t *d = &results[word];
    word += 3 + 2 * rank;
    auto *allocated = reinterpret_cast<void *>(d[0]);
    auto *aligned = reinterpret_cast<char *>(d[1]);
    int64_t offset = d[2];
    const int64_t *sizes = d + 3, *strides = d + 3 + rank;
    size_t elemSize = storageSize(v.dtype);
    bool owned =
        allocated && allocated != constant && !inputBuffers.count(allocated);
    if (owned)
      toFree.insert(allocated);
    // A negative size is a bug of the compiled code (a size computed at run
    // time that no check caught): an error, not a tensor.
    if (const int64_t *bad =
            std::find_if(sizes, sizes + rank, [](int64_t s) { return s < 0; });
        bad != sizes + rank) {
      status = fail(ONNXD_RUNTIME_ERROR,
                    "output '" + v.name + "' has dim " +
                        std::to_string(bad - sizes) + " of size " +
                        std::to_string(*bad) + " (a bug of the compiled code)");
      break;
    }
    int64_t elements = 1;
    bool dense = true;
    for (size_t k = rank; k-- > 0;) {
      if (sizes[k] != 1 && strides[k] != elements)
        dense = false;
      elements *= sizes[k];
    }
    OwnedTensor *t = newTensor(v, sizes);
    if (!t) {
      status = fail(ONNXD_RUNTIME_ERROR, "out of memory");
      break;
    }
    outs[i].tensor = &t->tensor;
    char *data = aligned + offset * elemSize;
    // A GPU model's buffers belong to the GPU runtime: copied out.
    if (owned && dense && !taken.count(allocated) && v.dtype != ONNXD_STRING &&
        !sig.onGPU()) {
      taken.insert(allocated);
      releaseBuffer(allocated);
      t->base = allocated;
      t->tensor.data = data;
      normalizeSubByte(v.dtype, data, elements);
      continue;
    }
    size_t bytes = std::max<int64_t>(elements, 1) * elemSize;
    t->base = std::malloc(bytes);
    if (!t->base) {
      status = fail(ONNXD_RUNTIME_ERROR, "out of memory");
      break;
    }
    t->tensor.data = t->base;
    // A GPU model's dense outputs are copied by the driver, which reads
    // managed memory where it lies (the host would fault on each page).
    bool copied = sig.onGPU() && dense && v.dtype != ONNXD_STRING &&
                  elements > 0 && copyFromGPUBuffer(t->base, data, bytes);
    if (elements > 0 && !copied)
      copyStrided(static_cast<char *>(t->base), data, elemSize, rank, sizes,
                  strides);
    // Strings point into the run's arena (or the inputs): copy them.
    if (v.dtype == ONNXD_STRING) {
      auto **strings = static_cast<char **>(t->base);
      for (int64_t k = 0; k < elements; ++k)
        strings[k] = strdup(strings[k] ? strings[k] : "");
    }
    normalizeSubByte(v.dtype, static_cast<char *>(t->base), elements);
  }
  for (void *p : toFree)
    if (!taken.count(p))
      sig.onGPU() ? freeGPUBuffer(p) : _mlir_memref_to_llvm_free(p);
  if (status == ONNXD_OK && provided)
    status = copyIntoProvided(sig, provided, outs);
  if (status != ONNXD_OK)
    freeOutputs(outs);
  return status;
}

/// The model and the output slots given to `what` (onnxd_run, ...).
static onnxd_status checkSlots(const onnxd_model *model, const char *what,
                               bool haveOutputs, size_t num_outputs) {
  if (!model)
    return fail(ONNXD_INVALID_ARGUMENT, std::string(what) + ": NULL model");
  size_t expected = model->signature.outputs.size();
  if (!haveOutputs || num_outputs != expected)
    return fail(ONNXD_INVALID_ARGUMENT,
                std::string(what) + ": the model has " +
                    std::to_string(expected) +
                    " outputs; pass an array of that many slots");
  return ONNXD_OK;
}

/// onnxd_run and onnxd_run_into (`what`) once the output slots are checked:
/// the outputs land in `outputs`, over the `provided` tensors (may be NULL).
static onnxd_status runTensors(onnxd_model *model, const char *what,
                               const onnxd_tensor *inputs, size_t num_inputs,
                               onnxd_tensor *const *provided,
                               onnxd_tensor **outputs) {
  const Signature &sig = model->signature;
  for (const auto *list : {&sig.inputs, &sig.outputs})
    for (const ValueSignature &v : *list)
      if (v.isHandle())
        return fail(ONNXD_INVALID_ARGUMENT,
                    std::string(what) + ": '" + v.name + "' is " + describe(v) +
                        ", not a tensor: use onnxd_run_values");
  if (num_inputs && !inputs)
    return fail(ONNXD_INVALID_ARGUMENT, "inputs is NULL");
  std::vector<onnxd_value> values(num_inputs);
  for (size_t i = 0; i < num_inputs; ++i) {
    values[i] = onnxd_value{};
    values[i].name = inputs[i].name;
    values[i].kind = ONNXD_KIND_TENSOR;
    values[i].tensor = inputs[i];
  }
  std::vector<const onnxd_value *> bound;
  if (onnxd_status s = bindInputs(sig, values.data(), num_inputs, bound))
    return s;
  if (provided)
    if (onnxd_status s = checkProvidedOverlap(sig, bound, provided))
      return s;
  std::vector<RunOutput> outs;
  if (onnxd_status s = runEntry(model, bound, outs, provided))
    return s;
  for (size_t i = 0; i < outs.size(); ++i)
    outputs[i] = outs[i].tensor;
  return ONNXD_OK;
}

onnxd_status onnxd_run(onnxd_model *model, const onnxd_tensor *inputs,
                       size_t num_inputs, onnxd_tensor **outputs,
                       size_t num_outputs) {
  onnxd_status s =
      checkSlots(model, "onnxd_run", outputs != nullptr, num_outputs);
  if (s == ONNXD_OK) {
    std::fill(outputs, outputs + num_outputs, nullptr);
    s = runTensors(model, "onnxd_run", inputs, num_inputs, nullptr, outputs);
  }
  return s;
}

onnxd_status onnxd_run_into(onnxd_model *model, const onnxd_tensor *inputs,
                            size_t num_inputs, onnxd_tensor **outputs,
                            size_t num_outputs) {
  if (onnxd_status s =
          checkSlots(model, "onnxd_run_into", outputs != nullptr, num_outputs))
    return s;
  const Signature &sig = model->signature;
  if (onnxd_status s = checkProvided(sig, outputs))
    return s;
  std::vector<onnxd_tensor *> provided(outputs, outputs + num_outputs);
  onnxd_status status = runTensors(model, "onnxd_run_into", inputs, num_inputs,
                                   provided.data(), outputs);
  if (status != ONNXD_OK)
    for (size_t i = 0; i < num_outputs; ++i)
      outputs[i] = provided[i];
  return status;
}

onnxd_status onnxd_run_values(onnxd_model *model, const onnxd_value *inputs,
                              size_t num_inputs, onnxd_value **outputs,
                              size_t num_outputs) {
  if (onnxd_status s = checkSlots(model, "onnxd_run_values", outputs != nullptr,
                                  num_outputs))
    return s;
  const Signature &sig = model->signature;
  for (size_t i = 0; i < num_outputs; ++i)
    outputs[i] = nullptr;
  std::vector<const onnxd_value *> bound;
  if (onnxd_status s = bindInputs(sig, inputs, num_inputs, bound))
    return s;
  std::vector<RunOutput> outs;
  if (onnxd_status s = runEntry(model, bound, outs))
    return s;
  for (size_t i = 0; i < num_outputs; ++i) {
    auto *v = static_cast<OwnedValue *>(std::calloc(1, sizeof(OwnedValue)));
    v->name = strdup(sig.outputs[i].name.c_str());
    if (outs[i].isValue) {
      v->value = outs[i].value;
    } else {
      v->tensor = outs[i].tensor;
      v->value.kind = ONNXD_KIND_TENSOR;
      v->value.tensor = *outs[i].tensor;
    }
    v->value.name = v->name;
    outputs[i] = &v->value;
  }
  return ONNXD_OK;
}

onnxd_status onnxd_model_write_profile(onnxd_model *model, const char *path,
                                       size_t *num_events) {
  if (num_events)
    *num_events = 0;
  if (!model || !path || !*path)
    return fail(ONNXD_INVALID_ARGUMENT,
                "onnxd_model_write_profile: needs a model and a file name");
  const Signature &sig = model->signature;
  if (!sig.profiled)
    return fail(ONNXD_INVALID_ARGUMENT,
                "onnxd_model_write_profile: the model was compiled without "
                "profiling probes (onnxd_options.profile = 1, onnx-run "
                "--profile)");
  FILE *out = std::fopen(path, "w");
  if (!out)
    return fail(ONNXD_IO_ERROR,
                std::string(path) + ": " + std::strerror(errno));
  Profile &p = model->profile;
  // The trace's clock is microseconds (with fractions: kernels of small
  // models take less than one) since the model was created.
  auto micros = [&](int64_t ns) { return double(ns - p.origin) / 1000; };
  long pid = long(getpid());
  std::string json = "[";
  // Two pids, a duration and a timestamp of up to 20 digits each fit.
  char number[192];
  bool first = true;
  for (const ProfileEvent &e : p.events) {
    bool run = e.kernel < 0;
    const auto *kernel = run || size_t(e.kernel) >= sig.kernels.size()
                             ? nullptr
                             : &sig.kernels[size_t(e.kernel)];
    if (!run && !kernel)
      continue;
    json += first ? "\n" : ",\n";
    first = false;
    std::snprintf(number, sizeof(number),
                  "{\"cat\":\"%s\",\"pid\":%ld,\"tid\":%ld,\"dur\":%.3f,",
                  run ? "Session" : "Node", pid, pid,
                  double(e.end - e.start) / 1000);
    json += number;
    std::snprintf(number, sizeof(number),
                  "\"ts\":%.3f,\"ph\":\"X\",\"name\":", micros(e.start));
    json += number;
    if (run) {
      json += "\"model_run\",\"args\":{}}";
      continue;
    }
    appendJSONString(json, kernel->first + "_kernel_time");
    json += ",\"args\":{\"op_name\":";
    appendJSONString(json, kernel->second);
    json += ",\"node_names\":";
    appendJSONString(json, kernel->first);
    json += ",\"kernel\":" + std::to_string(e.kernel) + ",\"provider\":\"" +
            (sig.onGPU() ? "OnnxDialectCUDA" : "OnnxDialectCPU") + "\"}}";
  }
  json += "\n]\n";
  bool written = std::fwrite(json.data(), 1, json.size(), out) == json.size();
  written &= std::fclose(out) == 0;
  if (!written)
    return fail(ONNXD_IO_ERROR,
                std::string(path) + ": " + std::strerror(errno));
  if (num_events)
    *num_events = p.events.size();
  if (p.dropped)
    std::fprintf(stderr,
                 "onnxd: profile: %zu events beyond the first %zu dropped\n",
                 p.dropped, kMaxProfileEvents);
  p.events.clear();
  p.dropped = 0;
  return ONNXD_OK;
}

size_t onnxd_dtype_size(int32_t dtype) { return dtypeSize(dtype); }

const char *onnxd_dtype_name(int32_t dtype) { return dtypeName(dtype); }
