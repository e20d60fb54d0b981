//===- OnnxRuntime.cpp - The C API ----------------------------------------===//
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
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Runtime/OnnxRuntime.h"

#include "Compiler.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <vector>

using namespace mlir::onnx::runtime;

struct onnxd_model {
  Signature signature;
  JITModel jit;            // compiled in process, or
  void *library = nullptr; // a loaded shared library
  PackedEntry entry = nullptr;
  void (*setThreads)(int) = nullptr;
  int numThreads = 1;

  ~onnxd_model() {
    jit.engine.reset();
    if (library)
      dlclose(library);
  }
};

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

static thread_local std::string lastError;

static onnxd_status fail(onnxd_status status, std::string message) {
  lastError = std::move(message);
  return status;
}

static onnxd_status fail(const Error &e) { return fail(e.status, e.message); }

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

void onnxd_options_init(onnxd_options *options) {
  if (!options)
    return;
  options->opt_level = 3;
  options->num_threads = 1;
  options->format = nullptr;
}

/// Makes this library's symbols (onnxd_rt_fail) global, so that compiled
/// code resolves against them even when the library itself was loaded with
/// RTLD_LOCAL (Python's ctypes does that).
static void makeRuntimeGlobal() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&onnxd_rt_fail), &info) && info.dli_fname)
    dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
}

static onnxd_status finishModel(onnxd_model *model, onnxd_model **out) {
  if (model->signature.openmp) {
    std::string error;
    model->setThreads = loadOpenMP(error);
    if (!model->setThreads) {
      delete model;
      return fail(ONNXD_IO_ERROR, error);
    }
  }
  *out = model;
  return ONNXD_OK;
}

onnxd_status onnxd_compile(const char *path, const onnxd_options *options,
                           onnxd_model **model) {
  if (!path || !model)
    return fail(ONNXD_INVALID_ARGUMENT, "onnxd_compile: NULL argument");
  *model = nullptr;
  makeRuntimeGlobal();
  onnxd_options defaults;
  onnxd_options_init(&defaults);
  auto *m = new onnxd_model;
  if (Error e = compileJIT(path, options ? *options : defaults, m->jit)) {
    delete m;
    return fail(e);
  }
  m->signature = m->jit.signature;
  m->signature.finalize();
  m->entry = m->jit.entry;
  m->numThreads = options ? std::max(1, options->num_threads) : 1;
  return finishModel(m, model);
}

onnxd_status onnxd_emit(const char *path, const onnxd_options *options,
                        onnxd_emit_kind kind, const char *out_path) {
  if (!path || !out_path)
    return fail(ONNXD_INVALID_ARGUMENT, "onnxd_emit: NULL argument");
  if (kind < ONNXD_EMIT_MLIR || kind > ONNXD_EMIT_SHARED)
    return fail(ONNXD_INVALID_ARGUMENT, "onnxd_emit: unknown kind");
  onnxd_options defaults;
  onnxd_options_init(&defaults);
  if (Error e = emit(path, options ? *options : defaults, kind, out_path))
    return fail(e);
  return ONNXD_OK;
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

/// Puts the caller's tensors in signature order and checks them.
static onnxd_status bindInputs(const Signature &sig, const onnxd_tensor *inputs,
                               size_t numInputs,
                               std::vector<const onnxd_tensor *> &bound) {
  bound.assign(sig.inputs.size(), nullptr);
  if (numInputs && !inputs)
    return fail(ONNXD_INVALID_ARGUMENT, "inputs is NULL");
  // NULL or "" is no name (TensorProto files often carry none).
  auto hasName = [](const onnxd_tensor &t) { return t.name && *t.name; };
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

  // Element types, ranks, static dims, one size per dim_param.
  llvm::StringMap<std::pair<int64_t, std::string>> params;
  for (size_t j = 0; j < sig.inputs.size(); ++j) {
    const ValueSignature &v = sig.inputs[j];
    const onnxd_tensor &t = *bound[j];
    std::string what = "input '" + v.name + "'";
    std::string expected = "expected " + describe(v);
    if (t.dtype != v.dtype)
      return fail(ONNXD_INVALID_ARGUMENT, what + ": element type " +
                                              dtypeName(t.dtype) + ", " +
                                              expected);
    if (t.rank != static_cast<int32_t>(v.dims.size()))
      return fail(ONNXD_INVALID_ARGUMENT,
                  what + ": rank " + std::to_string(t.rank) + ", " + expected);
    if (t.rank > 0 && !t.shape)
      return fail(ONNXD_INVALID_ARGUMENT, what + ": shape is NULL");
    int64_t elements = 1;
    for (int32_t d = 0; d < t.rank; ++d) {
      int64_t size = t.shape[d];
      std::string dim = "dim " + std::to_string(d);
      if (size < 0)
        return fail(ONNXD_INVALID_ARGUMENT, what + ": " + dim +
                                                " is negative (" +
                                                std::to_string(size) + ")");
      if (v.dims[d] >= 0 && size != v.dims[d])
        return fail(ONNXD_INVALID_ARGUMENT,
                    what + ": shape " + shapeString(t.rank, t.shape) + ", " +
                        expected + " (" + dim + " must be " +
                        std::to_string(v.dims[d]) + ")");
      const std::string &param = v.dimParams[d];
      if (!param.empty()) {
        auto [it, inserted] =
            params.try_emplace(param, size, v.name + " " + dim);
        if (!inserted && it->second.first != size)
          return fail(ONNXD_INVALID_ARGUMENT,
                      what + ": " + dim + " (" + param + ") is " +
                          std::to_string(size) + ", but " + param + " = " +
                          std::to_string(it->second.first) + " from " +
                          it->second.second);
      }
      elements *= size;
    }
    if (elements > 0 && !t.data)
      return fail(ONNXD_INVALID_ARGUMENT, what + ": data is NULL");
  }
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

onnxd_status onnxd_run(onnxd_model *model, const onnxd_tensor *inputs,
                       size_t num_inputs, onnxd_tensor **outputs,
                       size_t num_outputs) {
  if (!model)
    return fail(ONNXD_INVALID_ARGUMENT, "onnxd_run: NULL model");
  const Signature &sig = model->signature;
  if (!outputs || num_outputs != sig.outputs.size())
    return fail(ONNXD_INVALID_ARGUMENT,
                "onnxd_run: the model has " +
                    std::to_string(sig.outputs.size()) +
                    " outputs; pass an array of that many slots");
  for (size_t i = 0; i < num_outputs; ++i)
    outputs[i] = nullptr;
  std::vector<const onnxd_tensor *> bound;
  if (onnxd_status s = bindInputs(sig, inputs, num_inputs, bound))
    return s;

  // Input descriptors: {allocated, aligned, offset, sizes[r], strides[r]}.
  std::vector<std::vector<int64_t>> descriptors(bound.size());
  std::vector<void *> args(1 + bound.size());
  for (size_t i = 0; i < bound.size(); ++i) {
    const onnxd_tensor &t = *bound[i];
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
  size_t resultWords = 0;
  for (const ValueSignature &v : sig.outputs)
    resultWords += 3 + 2 * v.dims.size();
  std::vector<int64_t> results(resultWords, 0);
  args[0] = results.data();

  if (model->setThreads)
    model->setThreads(model->numThreads);
  const char *message = nullptr;
  if (!callEntry(model->entry, args.data(), &message))
    return fail(ONNXD_RUNTIME_ERROR, std::string("run-time check failed: ") +
                                         (message ? message : "(no message)"));

  // Hand the result buffers over; copy those the caller cannot own.
  llvm::DenseSet<void *> inputBuffers, taken, toFree;
  for (const onnxd_tensor *t : bound)
    inputBuffers.insert(t->data);
  auto *constant = reinterpret_cast<void *>(uintptr_t(0xdeadbeef));
  size_t word = 0;
  onnxd_status status = ONNXD_OK;
  for (size_t i = 0; i < sig.outputs.size(); ++i) {
    const ValueSignature &v = sig.outputs[i];
    size_t rank = v.dims.size();
    int64_t *d = &results[word];
    word += 3 + 2 * rank;
    auto *allocated = reinterpret_cast<void *>(d[0]);
    auto *aligned = reinterpret_cast<char *>(d[1]);
    int64_t offset = d[2];
    const int64_t *sizes = d + 3, *strides = d + 3 + rank;
    size_t elemSize = dtypeSize(v.dtype);
    bool owned =
        allocated && allocated != constant && !inputBuffers.count(allocated);
    if (owned)
      toFree.insert(allocated);
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
    outputs[i] = &t->tensor;
    char *data = aligned + offset * elemSize;
    if (owned && dense && !taken.count(allocated)) {
      taken.insert(allocated);
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
    if (elements > 0)
      copyStrided(static_cast<char *>(t->base), data, elemSize, rank, sizes,
                  strides);
    normalizeSubByte(v.dtype, static_cast<char *>(t->base), elements);
  }
  for (void *p : toFree)
    if (!taken.count(p))
      std::free(p);
  if (status != ONNXD_OK)
    for (size_t i = 0; i < num_outputs; ++i) {
      onnxd_tensor_free(outputs[i]);
      outputs[i] = nullptr;
    }
  return status;
}

size_t onnxd_dtype_size(int32_t dtype) { return dtypeSize(dtype); }

const char *onnxd_dtype_name(int32_t dtype) { return dtypeName(dtype); }
