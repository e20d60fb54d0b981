//===- CUDA.cpp - The GPU runtime of compiled models ----------------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The functions that host code compiled by onnx-lower-to-nvvm calls
// (docs/gpu.md, "Runtime"):
// - the mgpu* functions of upstream's GPU host lowering, with the signatures
//   of MLIR 22 (symbol-compatible with libmlir_cuda_runtime);
// - onnxd_gpu_alloc/aligned_alloc/free: every buffer of the compiled code,
//   in memory that host and device share (cuMemAllocManaged, or pinned
//   mapped host memory where managed memory is refused), freed blocks kept
//   by size for the next run;
// - onnxd_gpu_global: the device copy of a global, made on its first use;
// - onnxd_gpu_prof_kernel: the id of the next launch in the run's profile
//   (onnx-profile-gpu-launches), timed by CUDA events.
// Over the driver API of libcuda.so.1, opened with dlopen on first use: a
// process without a driver loads this library and compiled GPU code, and
// gets an error only when it runs a GPU model. Modules are loaded lazily
// (the constructors of compiled code only record the PTX), functions are
// cached, one stream per thread is reused. A failure inside a run ends the
// run through onnxd_rt_fail with the driver's message; nothing aborts.
//
//===----------------------------------------------------------------------===//

#include "CUDA.h"

#include "OnnxDialect/Runtime/OnnxRuntime.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

using namespace mlir::onnx::runtime;

//===----------------------------------------------------------------------===//
// The driver API, declared here (no cuda.h at build time)
//===----------------------------------------------------------------------===//

namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = uint64_t;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;

constexpr CUresult kSuccess = 0;
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSize = 6;
constexpr int kJitOptimizationLevel = 7;
constexpr int kMaxDynamicSharedSize = 8;
constexpr unsigned kStreamNonBlocking = 1;
constexpr unsigned kMemAttachGlobal = 1;
constexpr unsigned kMemHostAllocPortable = 1;
constexpr unsigned kMemHostAllocDeviceMap = 2;
constexpr CUresult kErrorOutOfMemory = 2;
constexpr unsigned kEventDisableTiming = 2;

/// The driver's functions this file calls, by the names cuda.h 13 maps
/// its API to (the _v2 entry points where it has them).
struct Driver {
  CUresult (*init)(unsigned);
  CUresult (*deviceGet)(CUdevice *, int);
  CUresult (*deviceGetCount)(int *);
  CUresult (*primaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*ctxSetCurrent)(CUcontext);
  CUresult (*moduleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                               void **);
  CUresult (*moduleUnload)(CUmodule);
  CUresult (*moduleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CUstream, void **,
                           void **);
  CUresult (*funcSetAttribute)(CUfunction, int, int);
  CUresult (*streamCreate)(CUstream *, unsigned);
  CUresult (*streamDestroy)(CUstream);
  CUresult (*streamSynchronize)(CUstream);
  CUresult (*streamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*eventCreate)(CUevent *, unsigned);
  CUresult (*eventDestroy)(CUevent);
  CUresult (*eventRecord)(CUevent, CUstream);
  CUresult (*eventSynchronize)(CUevent);
  CUresult (*eventElapsedTime)(float *, CUevent, CUevent); // optional
  CUresult (*memPrefetchAsync)(CUdeviceptr, size_t, CUdevice,
                               CUstream); // optional
  CUresult (*memAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*memAlloc)(CUdeviceptr *, size_t);
  CUresult (*memFree)(CUdeviceptr);
  // Optional (null when the driver lacks them): pinned host memory that
  // the device reaches, used where managed memory is not supported.
  CUresult (*memHostAlloc)(void **, size_t, unsigned);
  CUresult (*memFreeHost)(void *);
  CUresult (*memcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*memsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*memsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*getErrorString)(CUresult, const char **);
};

struct DriverState {
  std::once_flag once;
  bool ok = false;
  std::string error; // why not ok
  Driver api{};
  CUcontext context = nullptr;
  CUdevice device = 0;
};

DriverState &state() {
  static DriverState *s = new DriverState; // used at exit too
  return *s;
}

template <typename Fn>
bool resolve(void *lib, const char *name, Fn &fn, std::string &missing) {
  fn = reinterpret_cast<Fn>(dlsym(lib, name));
  if (!fn && missing.empty())
    missing = name;
  return fn != nullptr;
}

std::string describe(CUresult result) {
  const char *text = nullptr;
  if (state().api.getErrorString &&
      state().api.getErrorString(result, &text) == kSuccess && text)
    return std::string(text) + " (CUresult " + std::to_string(result) + ")";
  return "CUresult " + std::to_string(result);
}

void openDriver(DriverState &s) {
  const char *path = std::getenv("ONNXD_CUDA_DRIVER");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    s.error = std::string("no CUDA driver: ") + (why ? why : path);
    return;
  }
  Driver &d = s.api;
  std::string missing;
  resolve(lib, "cuGetErrorString", d.getErrorString, missing);
  resolve(lib, "cuInit", d.init, missing);
  resolve(lib, "cuDeviceGet", d.deviceGet, missing);
  resolve(lib, "cuDeviceGetCount", d.deviceGetCount, missing);
  resolve(lib, "cuDevicePrimaryCtxRetain", d.primaryCtxRetain, missing);
  resolve(lib, "cuCtxSetCurrent", d.ctxSetCurrent, missing);
  resolve(lib, "cuModuleLoadDataEx", d.moduleLoadDataEx, missing);
  resolve(lib, "cuModuleUnload", d.moduleUnload, missing);
  resolve(lib, "cuModuleGetFunction", d.moduleGetFunction, missing);
  resolve(lib, "cuLaunchKernel", d.launchKernel, missing);
  resolve(lib, "cuFuncSetAttribute", d.funcSetAttribute, missing);
  resolve(lib, "cuStreamCreate", d.streamCreate, missing);
  resolve(lib, "cuStreamDestroy_v2", d.streamDestroy, missing);
  resolve(lib, "cuStreamSynchronize", d.streamSynchronize, missing);
  resolve(lib, "cuStreamWaitEvent", d.streamWaitEvent, missing);
  resolve(lib, "cuEventCreate", d.eventCreate, missing);
  resolve(lib, "cuEventDestroy_v2", d.eventDestroy, missing);
  resolve(lib, "cuEventRecord", d.eventRecord, missing);
  resolve(lib, "cuEventSynchronize", d.eventSynchronize, missing);
  resolve(lib, "cuMemAllocManaged", d.memAllocManaged, missing);
  resolve(lib, "cuMemAlloc_v2", d.memAlloc, missing);
  resolve(lib, "cuMemFree_v2", d.memFree, missing);
  std::string optional;
  resolve(lib, "cuMemPrefetchAsync", d.memPrefetchAsync, optional);
  if (!resolve(lib, "cuEventElapsedTime_v2", d.eventElapsedTime, optional))
    resolve(lib, "cuEventElapsedTime", d.eventElapsedTime, optional);
  resolve(lib, "cuMemHostAlloc", d.memHostAlloc, optional);
  resolve(lib, "cuMemFreeHost", d.memFreeHost, optional);
  resolve(lib, "cuMemcpyAsync", d.memcpyAsync, missing);
  resolve(lib, "cuMemsetD32Async", d.memsetD32Async, missing);
  resolve(lib, "cuMemsetD16Async", d.memsetD16Async, missing);
  if (!missing.empty()) {
    s.error = std::string(path) + " has no " + missing +
              " (a CUDA driver older than the runtime needs?)";
    return;
  }
  if (CUresult r = d.init(0); r != kSuccess) {
    s.error = "the CUDA driver does not start: " + describe(r);
    return;
  }
  int count = 0;
  if (CUresult r = d.deviceGetCount(&count); r != kSuccess || count == 0) {
    s.error =
        "no CUDA device" + (r == kSuccess ? std::string() : ": " + describe(r));
    return;
  }
  int ordinal = 0;
  if (const char *env = std::getenv("ONNXD_CUDA_DEVICE"))
    ordinal = std::atoi(env);
  CUdevice device = 0;
  if (CUresult r = d.deviceGet(&device, ordinal); r != kSuccess) {
    s.error = "no CUDA device " + std::to_string(ordinal) + " (there are " +
              std::to_string(count) + "): " + describe(r);
    return;
  }
  s.device = device;
  if (CUresult r = d.primaryCtxRetain(&s.context, device); r != kSuccess) {
    s.error = "cannot create a CUDA context: " + describe(r);
    return;
  }
  s.ok = true;
}

/// The driver with this thread's current context, or null (with `error`).
Driver *driver(std::string *error = nullptr) {
  DriverState &s = state();
  std::call_once(s.once, [&] { openDriver(s); });
  if (!s.ok) {
    if (error)
      *error = s.error;
    return nullptr;
  }
  static thread_local bool current = false;
  if (!current) {
    if (CUresult r = s.api.ctxSetCurrent(s.context); r != kSuccess) {
      if (error)
        *error = "cannot make the CUDA context current: " + describe(r);
      return nullptr;
    }
    current = true;
  }
  return &s.api;
}

/// Ends the current run with `message` (never returns).
[[noreturn]] void failRun(std::string message) {
  static thread_local std::string text;
  text = "CUDA: " + std::move(message);
  onnxd_rt_fail(text.c_str());
  std::abort(); // onnxd_rt_fail does not return
}

Driver &requireDriver() {
  std::string error;
  Driver *d = driver(&error);
  if (!d)
    failRun(error);
  return *d;
}

void check(CUresult result, const char *what) {
  if (result != kSuccess)
    failRun(std::string(what) + ": " + describe(result));
}

//===----------------------------------------------------------------------===//
// Modules: PTX recorded by constructors, loaded on first use
//===----------------------------------------------------------------------===//

struct Module {
  std::mutex mutex;
  const char *image; // NUL-terminated PTX, or a cubin/fatbin
  int optLevel;
  CUmodule loaded = nullptr;
  std::unordered_map<std::string, CUfunction> functions;
};

/// A loaded function: its name (for messages) and the parameters its PTX
/// declares (-1: not PTX), checked against what each launch passes.
struct FunctionInfo {
  std::string name;
  int64_t params = -1;
  std::vector<int> pointers; // the parameters that are buffers
};
std::mutex namesMutex;
std::unordered_map<CUfunction, FunctionInfo> &functionNames() {
  static auto *names = new std::unordered_map<CUfunction, FunctionInfo>;
  return *names;
}

/// The number of parameters of kernel `name` in a PTX image (its `.param`
/// declarations between `.entry name(` and `)`); -1 when not found.
/// The number of parameters kernel `name` declares in a PTX image (-1 when
/// not found), and which of them are pointers (`.ptr`: the buffers).
int64_t ptxParams(const char *image, const std::string &name,
                  std::vector<int> *pointers = nullptr) {
  std::string head = ".entry " + name + "(";
  const char *entry = std::strstr(image, head.c_str());
  if (!entry)
    return -1;
  const char *p = entry + head.size();
  const char *end = std::strchr(p, ')');
  if (!end)
    return -1;
  int64_t count = 0;
  for (const char *q = p; (q = std::strstr(q, ".param")) && q < end; q += 6) {
    const char *lineEnd = std::strpbrk(q, ",)\n");
    const char *ptr = std::strstr(q, ".ptr");
    if (pointers && ptr && lineEnd && ptr < lineEnd)
      pointers->push_back(static_cast<int>(count));
    ++count;
  }
  return count;
}

/// The first kernel a PTX image defines, to name it in messages.
std::string firstEntry(const char *image) {
  const char *entry = std::strstr(image, ".entry ");
  if (!entry)
    return "(no .entry)";
  entry += 7;
  size_t n = std::strcspn(entry, "( \n");
  return std::string(entry, n);
}

/// The stream of this thread (null until it is first needed).
thread_local CUstream currentStream = nullptr;

CUstream threadStream() {
  if (!currentStream)
    check(requireDriver().streamCreate(&currentStream, kStreamNonBlocking),
          "cuStreamCreate");
  return currentStream;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// Memory that the host code and the kernels both reach. Managed memory by
/// default; pinned host memory mapped into the device's address space
/// (cuMemHostAlloc) with ONNXD_CUDA_MEMORY=host, or when the driver refuses
/// managed memory for another reason than its size (some virtualized
/// drivers do): slower for kernels, but the same pointer on both sides.
struct SharedMemory {
  std::mutex mutex;
  std::unordered_set<void *> hostBlocks; // from cuMemHostAlloc
  std::atomic<bool> useHost{false};
  std::once_flag once;
};

SharedMemory &sharedMemory() {
  static SharedMemory *m = new SharedMemory;
  std::call_once(m->once, [] {
    const char *env = std::getenv("ONNXD_CUDA_MEMORY");
    m->useHost = env && std::string(env) == "host";
  });
  return *m;
}

CUresult allocateShared(Driver &d, size_t bytes, void *&block) {
  SharedMemory &m = sharedMemory();
  CUresult r = kSuccess;
  if (!m.useHost) {
    CUdeviceptr ptr = 0;
    r = d.memAllocManaged(&ptr, bytes, kMemAttachGlobal);
    if (r == kSuccess) {
      block = reinterpret_cast<void *>(ptr);
      return r;
    }
    if (r == kErrorOutOfMemory || !d.memHostAlloc)
      return r;
    m.useHost = true;
  }
  if (!d.memHostAlloc)
    return r == kSuccess ? CUresult(801) : r; // CUDA_ERROR_NOT_SUPPORTED
  r = d.memHostAlloc(&block, bytes,
                     kMemHostAllocPortable | kMemHostAllocDeviceMap);
  if (r == kSuccess) {
    std::lock_guard<std::mutex> lock(m.mutex);
    m.hostBlocks.insert(block);
  }
  return r;
}

void freeShared(Driver &d, void *block) {
  SharedMemory &m = sharedMemory();
  {
    std::lock_guard<std::mutex> lock(m.mutex);
    if (m.hostBlocks.erase(block)) {
      d.memFreeHost(block);
      return;
    }
  }
  d.memFree(reinterpret_cast<CUdeviceptr>(block));
}

/// Freed blocks beyond this many bytes go back to the driver.
constexpr size_t kCacheLimit = size_t(1) << 30;

/// A live block: what the driver gave, its size, and the run in which it
/// was last prefetched to the device.
struct LiveBlock {
  void *block;
  size_t bytes;
  uint64_t prefetched = 0;
};

/// Runs are numbered (GPURunScope): a buffer is prefetched to the device at
/// most once per run, by the first launch that passes it.
std::atomic<uint64_t> runNumber{1};

struct Pool {
  std::mutex mutex;
  /// Live blocks, by the pointer compiled code got.
  std::unordered_map<void *, LiveBlock> live;
  /// Freed driver blocks by size, each with the stream of the thread that
  /// freed it while that stream may still have had work using it (launches
  /// are queued without waiting: onnx-gpu-defer-syncs), else null. A block
  /// goes only to that stream (which runs after that work) until the
  /// stream is next synchronized; a null one to any.
  std::map<size_t, std::vector<std::pair<void *, CUstream>>> freed;
  size_t freedBytes = 0;
};

Pool &pool() {
  static Pool *p = new Pool;
  return *p;
}

/// Managed memory: the driver aligns it to at least 256 bytes.
void *allocate(size_t size, size_t alignment) {
  size_t bytes = std::max<size_t>(size, 1);
  if (alignment > 256)
    bytes += alignment;
  Pool &p = pool();
  void *block = nullptr;
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    auto it = p.freed.find(bytes);
    if (it != p.freed.end()) {
      std::vector<std::pair<void *, CUstream>> &blocks = it->second;
      for (size_t i = blocks.size(); i-- > 0;) {
        if (blocks[i].second && blocks[i].second != currentStream)
          continue;
        block = blocks[i].first;
        blocks.erase(blocks.begin() + i);
        p.freedBytes -= bytes;
        break;
      }
    }
  }
  if (!block) {
    CUresult r = allocateShared(requireDriver(), bytes, block);
    if (r != kSuccess)
      failRun("out of memory: cannot allocate a buffer of " +
              std::to_string(size) + " bytes: " + describe(r));
  }
  void *user = block;
  if (alignment > 256) {
    auto address = reinterpret_cast<uintptr_t>(block);
    user = reinterpret_cast<void *>((address + alignment - 1) / alignment *
                                    alignment);
  }
  std::lock_guard<std::mutex> lock(pool().mutex);
  pool().live[user] = {block, bytes};
  return user;
}

/// Frees a block of ours; false when `ptr` is not one.
bool release(void *ptr) {
  Pool &p = pool();
  std::unique_lock<std::mutex> lock(p.mutex);
  auto it = p.live.find(ptr);
  if (it == p.live.end())
    return false;
  void *block = it->second.block;
  size_t bytes = it->second.bytes;
  p.live.erase(it);
  if (p.freedBytes + bytes <= kCacheLimit) {
    p.freed[bytes].push_back({block, currentStream});
    p.freedBytes += bytes;
    return true;
  }
  lock.unlock();
  if (Driver *d = driver()) {
    // Work queued on this thread's stream may still use it.
    if (currentStream)
      d->streamSynchronize(currentStream);
    freeShared(*d, block);
  }
  return true;
}

/// After `stream` was synchronized: the blocks its thread freed may go to
/// any stream.
void streamIdle(CUstream stream) {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  for (auto &[bytes, blocks] : p.freed)
    for (auto &[block, owner] : blocks)
      if (owner == stream)
        owner = nullptr;
}

/// Managed memory that the host wrote migrates to the device page by page
/// as kernels fault on it, at a fraction of the bus's speed: the buffers a
/// launch passes are prefetched in bulk first (once per run each). A hint:
/// a driver without prefetching runs the same, slower.
std::atomic<bool> prefetchWorks{true};
using SmallBlocks = std::vector<std::pair<void *, size_t>>;

void prefetch(Driver &d, void *block, size_t bytes, CUstream stream) {
  if (!d.memPrefetchAsync || !prefetchWorks || sharedMemory().useHost)
    return;
  if (d.memPrefetchAsync(reinterpret_cast<CUdeviceptr>(block), bytes,
                         state().device, stream) != kSuccess)
    prefetchWorks = false;
}

void prefetchArguments(Driver &d, const std::vector<int> &pointers,
                       void **params, size_t count, CUstream stream) {
  if (!d.memPrefetchAsync || !prefetchWorks || sharedMemory().useHost)
    return;
  uint64_t run = runNumber;
  SmallBlocks blocks;
  {
    Pool &p = pool();
    std::lock_guard<std::mutex> lock(p.mutex);
    for (int i : pointers) {
      if (static_cast<size_t>(i) >= count)
        continue;
      void *ptr = *static_cast<void **>(params[i]);
      auto it = p.live.find(ptr);
      if (it == p.live.end() || it->second.prefetched == run)
        continue;
      it->second.prefetched = run;
      blocks.push_back({it->second.block, it->second.bytes});
    }
  }
  for (auto [block, bytes] : blocks)
    prefetch(d, block, bytes, stream);
}

} // namespace

//===----------------------------------------------------------------------===//
// Models' globals
//===----------------------------------------------------------------------===//

struct mlir::onnx::runtime::GPUModelState {
  std::mutex mutex;
  std::unordered_map<const void *, void *> globals; // host -> device copy
};

static thread_local GPUModelState *activeState = nullptr;

GPURunScope::GPURunScope(GPUModelState *&state) : previous(activeState) {
  if (!state)
    state = new GPUModelState;
  activeState = state;
  ++runNumber;
}

GPURunScope::~GPURunScope() { activeState = previous; }

void mlir::onnx::runtime::destroyGPUState(GPUModelState *state) {
  if (!state)
    return;
  Driver *d = driver();
  for (auto &entry : state->globals)
    if (d)
      freeShared(*d, entry.second);
  delete state;
}

bool mlir::onnx::runtime::cudaReady(std::string &error) {
  return driver(&error) != nullptr;
}

extern "C" void _mlir_memref_to_llvm_free(void *ptr);

bool mlir::onnx::runtime::copyFromGPUBuffer(void *host, const void *buffer,
                                            size_t bytes) {
  Driver *d = driver();
  if (!d || bytes == 0)
    return bytes == 0;
  CUstream stream = threadStream();
  if (d->memcpyAsync(reinterpret_cast<CUdeviceptr>(host),
                     reinterpret_cast<CUdeviceptr>(buffer), bytes,
                     stream) != kSuccess ||
      d->streamSynchronize(stream) != kSuccess)
    return false;
  streamIdle(stream);
  return true;
}

namespace {
/// The buffers of createDeviceBuffer that are live.
struct DeviceBuffers {
  std::mutex mutex;
  std::unordered_set<void *> live;
};
DeviceBuffers &deviceBuffers() {
  static DeviceBuffers *b = new DeviceBuffers;
  return *b;
}
} // namespace

bool mlir::onnx::runtime::createDeviceBuffer(const void *host, size_t bytes,
                                             void *&buffer,
                                             std::string &error) {
  Driver *d = driver(&error);
  if (!d)
    return false;
  void *block = nullptr;
  size_t size = std::max<size_t>(bytes, 1);
  if (CUresult r = allocateShared(*d, size, block); r != kSuccess) {
    error = "out of memory: cannot allocate a device buffer of " +
            std::to_string(bytes) + " bytes: " + describe(r);
    return false;
  }
  // Outside a run: no error may end it (failRun), so the legacy stream,
  // synchronized before returning, rather than the thread's.
  CUresult r = kSuccess;
  if (host && bytes)
    r = d->memcpyAsync(reinterpret_cast<CUdeviceptr>(block),
                       reinterpret_cast<CUdeviceptr>(host), bytes, nullptr);
  if (r == kSuccess) {
    prefetch(*d, block, size, nullptr);
    r = d->streamSynchronize(nullptr);
  }
  if (r != kSuccess) {
    freeShared(*d, block);
    error = "cannot copy " + std::to_string(bytes) +
            " bytes to the device: " + describe(r);
    return false;
  }
  std::lock_guard<std::mutex> lock(deviceBuffers().mutex);
  deviceBuffers().live.insert(block);
  buffer = block;
  return true;
}

bool mlir::onnx::runtime::freeDeviceBuffer(void *buffer) {
  {
    std::lock_guard<std::mutex> lock(deviceBuffers().mutex);
    if (!deviceBuffers().live.erase(buffer))
      return false;
  }
  if (Driver *d = driver())
    freeShared(*d, buffer);
  return true;
}

void mlir::onnx::runtime::freeGPUBuffer(void *ptr) {
  if (ptr && !release(ptr))
    _mlir_memref_to_llvm_free(ptr);
}

//===----------------------------------------------------------------------===//
// Kernel times (ONNXD_CUDA_KERNEL_TIMES)
//===----------------------------------------------------------------------===//

namespace {

/// With ONNXD_CUDA_KERNEL_TIMES set, each launch is bracketed by two timing
/// events; the next synchronization of the stream adds their interval to
/// the kernel's total. onnxd_gpu_kernel_time_ms returns (and resets) the sum
/// over all kernels; with ONNXD_CUDA_KERNEL_TIMES=print the totals per
/// kernel go to stderr at exit, the largest first.
struct KernelTimes {
  bool enabled = false, print = false;
  std::mutex mutex;
  std::map<std::string, std::pair<int64_t, double>> perKernel; // count, ms
  double sinceReset = 0;
};

struct PendingTime {
  std::string name;
  CUevent start, stop;
  /// The id of a launch the run's profile records (onnxd_gpu_prof_kernel),
  /// or -1.
  int64_t profiled = -1;
};

thread_local std::vector<PendingTime> pendingTimes;

/// The id onnxd_gpu_prof_kernel gave the next launch, or -1.
thread_local int64_t nextProfiled = -1;

/// For the profile's clock: an event recorded on the stream before the
/// first profiled launch since the last synchronization, and the host's
/// steady clock then (the stream was idle or about to run it).
struct ProfileOrigin {
  CUevent event = nullptr;
  int64_t hostNanos = 0;
};
thread_local ProfileOrigin profileOrigin;

void printKernelTimes();

KernelTimes &kernelTimes() {
  static KernelTimes *t = [] {
    auto *t = new KernelTimes;
    if (const char *env = std::getenv("ONNXD_CUDA_KERNEL_TIMES")) {
      t->enabled = *env && std::string(env) != "0";
      t->print = std::string(env) == "print";
      if (t->print)
        std::atexit(printKernelTimes);
    }
    return t;
  }();
  return *t;
}

void printKernelTimes() {
  KernelTimes &t = kernelTimes();
  std::lock_guard<std::mutex> lock(t.mutex);
  std::vector<std::pair<double, std::string>> rows;
  double total = 0;
  for (auto &[name, entry] : t.perKernel) {
    rows.push_back({entry.second, name});
    total += entry.second;
  }
  std::sort(rows.rbegin(), rows.rend());
  std::fprintf(stderr, "onnxd: GPU kernel times (%.3f ms in all)\n", total);
  for (auto &[ms, name] : rows)
    std::fprintf(stderr, "  %10.3f ms %8lld launches  %s\n", ms,
                 static_cast<long long>(t.perKernel[name].first), name.c_str());
}

/// Adds the intervals of this thread's finished launches (the stream has
/// been synchronized) to the kernel times (where enabled) and the run's
/// profile (a profiled launch: placed on the host's clock by the interval
/// from the origin event).
void collectKernelTimes(Driver &d) {
  KernelTimes &t = kernelTimes();
  for (PendingTime &p : pendingTimes) {
    float ms = 0, offset = 0;
    if (d.eventElapsedTime &&
        d.eventElapsedTime(&ms, p.start, p.stop) == kSuccess) {
      if (t.enabled) {
        std::lock_guard<std::mutex> lock(t.mutex);
        auto &entry = t.perKernel[p.name];
        ++entry.first;
        entry.second += ms;
        t.sinceReset += ms;
      }
      if (p.profiled >= 0 && profileOrigin.event &&
          d.eventElapsedTime(&offset, profileOrigin.event, p.start) ==
              kSuccess) {
        int64_t start = profileOrigin.hostNanos + int64_t(offset * 1e6);
        recordProfiledKernel(p.profiled, start, start + int64_t(ms * 1e6));
      }
    }
    d.eventDestroy(p.start);
    d.eventDestroy(p.stop);
  }
  pendingTimes.clear();
  if (profileOrigin.event) {
    d.eventDestroy(profileOrigin.event);
    profileOrigin = ProfileOrigin();
  }
}

} // namespace

int64_t mlir::onnx::runtime::takeProfiledLaunch() {
  return std::exchange(nextProfiled, -1);
}

//===----------------------------------------------------------------------===//
// The functions compiled code calls
//===----------------------------------------------------------------------===//

extern "C" {

void *onnxd_gpu_alloc(size_t size) { return allocate(size, 0); }

void *onnxd_gpu_aligned_alloc(size_t alignment, size_t size) {
  return allocate(size, alignment);
}

/// A block that is not ours came from a runtime function (host memory).
void onnxd_gpu_free(void *ptr) { freeGPUBuffer(ptr); }

void *onnxd_gpu_global(void *host, int64_t bytes) {
  GPUModelState *s = activeState;
  if (!s)
    failRun("a GPU model ran outside onnxd_run");
  Driver &d = requireDriver();
  CUresult r = kSuccess;
  void *copy = nullptr;
  {
    std::lock_guard<std::mutex> lock(s->mutex);
    auto it = s->globals.find(host);
    if (it != s->globals.end())
      return it->second;
    r = allocateShared(d, std::max<int64_t>(bytes, 1), copy);
    if (r == kSuccess) {
      std::memcpy(copy, host, bytes);
      prefetch(d, copy, std::max<int64_t>(bytes, 1), threadStream());
      s->globals[host] = copy;
    }
  }
  if (r != kSuccess)
    failRun("out of memory: cannot copy a constant of " +
            std::to_string(bytes) + " bytes to the device: " + describe(r));
  return copy;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  auto *module = new Module;
  module->image = static_cast<const char *>(data);
  module->optLevel = optLevel;
  return module;
}

void *mgpuModuleLoad(void *data, size_t size) {
  return mgpuModuleLoadJIT(data, 3);
}

void mgpuModuleUnload(void *handle) {
  auto *module = static_cast<Module *>(handle);
  if (!module)
    return;
  if (module->loaded)
    if (Driver *d = driver()) {
      std::lock_guard<std::mutex> lock(namesMutex);
      for (auto &entry : module->functions)
        functionNames().erase(entry.second);
      d->moduleUnload(module->loaded);
    }
  delete module;
}

/// Loads the module on first use; the error message when it cannot.
static std::string loadModule(Driver &d, Module &module) {
  if (module.loaded)
    return {};
  char log[8192] = {0};
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize,
                   kJitOptimizationLevel};
  void *values[] = {
      log, reinterpret_cast<void *>(sizeof(log) - 1),
      reinterpret_cast<void *>(static_cast<intptr_t>(module.optLevel))};
  CUresult r =
      d.moduleLoadDataEx(&module.loaded, module.image, 3, options, values);
  if (r == kSuccess)
    return {};
  module.loaded = nullptr;
  return "the driver cannot load the kernel " + firstEntry(module.image) +
         ": " + describe(r) + (log[0] ? std::string(": ") + log : "");
}

void *mgpuModuleGetFunction(void *handle, const char *name) {
  auto *module = static_cast<Module *>(handle);
  if (!module)
    failRun(std::string("the kernels of ") + name +
            " were not loaded (the model's constructors did not run)");
  Driver &d = requireDriver();
  // No lock may be held when the run fails (longjmp).
  std::string error;
  CUfunction fn = nullptr;
  {
    std::lock_guard<std::mutex> lock(module->mutex);
    error = loadModule(d, *module);
    if (error.empty()) {
      CUfunction &cached = module->functions[name];
      if (!cached) {
        if (CUresult r = d.moduleGetFunction(&cached, module->loaded, name);
            r != kSuccess) {
          module->functions.erase(name);
          error = std::string("no kernel ") + name + ": " + describe(r);
        } else {
          std::lock_guard<std::mutex> names(namesMutex);
          FunctionInfo &info = functionNames()[cached];
          info.name = name;
          info.params = ptxParams(module->image, name, &info.pointers);
        }
      }
      if (error.empty())
        fn = cached;
    }
  }
  if (!error.empty())
    failRun(error);
  return fn;
}

static FunctionInfo kernelInfo(void *fn) {
  std::lock_guard<std::mutex> lock(namesMutex);
  auto it = functionNames().find(fn);
  return it == functionNames().end() ? FunctionInfo{"(unknown)", -1}
                                     : it->second;
}

static std::string kernelName(void *fn) { return kernelInfo(fn).name; }

void mgpuLaunchKernel(void *fn, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                      intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                      int32_t smem, void *stream, void **params, void **extra,
                      size_t paramsCount) {
  Driver &d = requireDriver();
  // A loop of no iteration (a tensor with a zero dim) has no block to run.
  if (gridX == 0 || gridY == 0 || gridZ == 0)
    return;
  for (intptr_t v : {gridX, gridY, gridZ, blockX, blockY, blockZ})
    if (v < 1 || v > INT32_MAX)
      failRun("kernel " + kernelName(fn) + ": a launch size of " +
              std::to_string(v));
  // The host's launch and the kernel's PTX disagree on the parameters (an
  // ABI mismatch of the compiler): an error, not a kernel reading garbage.
  FunctionInfo info = kernelInfo(fn);
  if (info.params >= 0 && static_cast<size_t>(info.params) != paramsCount)
    failRun("kernel " + info.name + " declares " + std::to_string(info.params) +
            " parameters, the launch passes " + std::to_string(paramsCount));
  prefetchArguments(d, info.pointers, params, paramsCount, stream);
  if (smem > 0)
    check(d.funcSetAttribute(fn, kMaxDynamicSharedSize, smem),
          "cuFuncSetAttribute(shared memory)");
  PendingTime timing;
  // A launch the run's profile records (onnx-profile-gpu-launches named
  // it), or every launch with ONNXD_CUDA_KERNEL_TIMES.
  int64_t profiled = takeProfiledLaunch();
  if (profiled >= 0 && profilingRun()) {
    timing.profiled = profiled;
    if (!profileOrigin.event &&
        d.eventCreate(&profileOrigin.event, 0) == kSuccess) {
      profileOrigin.hostNanos = steadyNanos();
      d.eventRecord(profileOrigin.event, stream);
    }
  }
  bool timed = (kernelTimes().enabled || timing.profiled >= 0) &&
               d.eventCreate(&timing.start, 0) == kSuccess;
  if (timed && d.eventCreate(&timing.stop, 0) != kSuccess) {
    d.eventDestroy(timing.start);
    timed = false;
  }
  if (timed)
    d.eventRecord(timing.start, stream);
  CUresult r = d.launchKernel(fn, gridX, gridY, gridZ, blockX, blockY, blockZ,
                              smem, stream, params, extra);
  if (timed) {
    d.eventRecord(timing.stop, stream);
    timing.name = kernelName(fn);
    pendingTimes.push_back(std::move(timing));
  }
  if (r != kSuccess)
    failRun("launching kernel " + kernelName(fn) + " (" +
            std::to_string(gridX) + " blocks of " + std::to_string(blockX) +
            " threads): " + describe(r));
  // Compiled code queues launches without waiting (onnx-gpu-defer-syncs);
  // ONNXD_CUDA_SYNC=launch waits for each, as before that pass (to tell a
  // kernel's fault from a missing synchronization).
  static const bool syncEach = [] {
    const char *env = std::getenv("ONNXD_CUDA_SYNC");
    return env && std::string(env) == "launch";
  }();
  if (syncEach) {
    check(d.streamSynchronize(stream),
          ("kernel " + kernelName(fn) + " failed").c_str());
    streamIdle(static_cast<CUstream>(stream));
  }
}

void *mgpuStreamCreate() { return threadStream(); }

/// The thread's stream is kept for the next run.
void mgpuStreamDestroy(void *stream) {}

void mgpuStreamSynchronize(void *stream) {
  Driver &d = requireDriver();
  check(d.streamSynchronize(stream), "a kernel failed");
  streamIdle(static_cast<CUstream>(stream));
  if (!pendingTimes.empty())
    collectKernelTimes(d);
}

void onnxd_gpu_prof_kernel(int64_t kernel) { nextProfiled = kernel; }

double onnxd_gpu_kernel_time_ms(void) {
  KernelTimes &t = kernelTimes();
  std::lock_guard<std::mutex> lock(t.mutex);
  double ms = t.sinceReset;
  t.sinceReset = 0;
  return ms;
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  check(requireDriver().streamWaitEvent(stream, event, 0), "cuStreamWaitEvent");
}

void *mgpuEventCreate() {
  CUevent event = nullptr;
  check(requireDriver().eventCreate(&event, kEventDisableTiming),
        "cuEventCreate");
  return event;
}

void mgpuEventDestroy(void *event) {
  if (Driver *d = driver())
    d->eventDestroy(event);
}

void mgpuEventSynchronize(void *event) {
  check(requireDriver().eventSynchronize(event), "a kernel failed");
}

void mgpuEventRecord(void *event, void *stream) {
  check(requireDriver().eventRecord(event, stream), "cuEventRecord");
}

void *mgpuMemAlloc(uint64_t bytes, void *stream, bool isHostShared) {
  if (bytes == 0)
    return nullptr;
  return allocate(bytes, 0);
}

void mgpuMemFree(void *ptr, void *stream) { freeGPUBuffer(ptr); }

// Nothing to copy or set (an empty tensor, whose buffer mgpuMemAlloc left
// null) is no driver call: the driver may refuse a null pointer even for
// zero bytes.
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  if (bytes == 0)
    return;
  check(requireDriver().memcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                    reinterpret_cast<CUdeviceptr>(src), bytes,
                                    stream),
        "cuMemcpyAsync");
}

void mgpuMemset32(void *dst, unsigned value, size_t count, void *stream) {
  if (count == 0)
    return;
  check(requireDriver().memsetD32Async(reinterpret_cast<CUdeviceptr>(dst),
                                       value, count, stream),
        "cuMemsetD32Async");
}

void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream) {
  if (count == 0)
    return;
  check(requireDriver().memsetD16Async(reinterpret_cast<CUdeviceptr>(dst),
                                       value, count, stream),
        "cuMemsetD16Async");
}

void mgpuSetDefaultDevice(int32_t device) {}

} // extern "C"
