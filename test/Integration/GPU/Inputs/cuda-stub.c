/*===- cuda-stub.c - A recording stub of the NVIDIA driver ----------------===*
 *
 * Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===*
 *
 * The driver functions lib/Runtime/CUDA.cpp calls, without a GPU: memory is
 * host memory, kernels do not run (their outputs keep what the buffers
 * held), every call is written as one line to ONNXD_CUDA_STUB_LOG (or
 * stderr). ONNXD_CUDA_STUB_FAIL=init|nodevice|load|launch|sync|alloc makes
 * that step fail as the driver would.
 *
 *===----------------------------------------------------------------------===*/

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
enum {
  kSuccess = 0,
  kOutOfMemory = 2,
  kNotInitialized = 3,
  kNoDevice = 100,
  kInvalidPtx = 218,
  kLaunchFailed = 719,
  kIllegalAddress = 700,
  kNotSupported = 801
};

static int failing(const char *step) {
  const char *fail = getenv("ONNXD_CUDA_STUB_FAIL");
  return fail && strcmp(fail, step) == 0;
}

static void record(const char *format, ...) {
  const char *path = getenv("ONNXD_CUDA_STUB_LOG");
  FILE *out = path ? fopen(path, "a") : stderr;
  if (!out)
    return;
  va_list args;
  va_start(args, format);
  fputs("cuda-stub: ", out);
  vfprintf(out, format, args);
  fputc('\n', out);
  va_end(args);
  if (out != stderr)
    fclose(out);
}

CUresult cuGetErrorString(CUresult result, const char **text) {
  switch (result) {
  case kOutOfMemory:
    *text = "out of memory";
    return kSuccess;
  case kNoDevice:
    *text = "no CUDA-capable device is detected";
    return kSuccess;
  case kInvalidPtx:
    *text = "a PTX JIT compilation failed";
    return kSuccess;
  case kIllegalAddress:
    *text = "an illegal memory access was encountered";
    return kSuccess;
  case kLaunchFailed:
    *text = "unspecified launch failure";
    return kSuccess;
  default:
    *text = "stub error";
    return kSuccess;
  }
}

CUresult cuInit(unsigned flags) {
  record("cuInit");
  return failing("init") ? kNotInitialized : kSuccess;
}

CUresult cuDeviceGetCount(int *count) {
  *count = failing("nodevice") ? 0 : 1;
  return kSuccess;
}

CUresult cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? kSuccess : kNoDevice;
}

CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  static int the_context;
  *context = &the_context;
  record("cuDevicePrimaryCtxRetain device=%d", device);
  return kSuccess;
}

CUresult cuCtxSetCurrent(void *context) { return kSuccess; }

/* A module: its PTX; a function: its name. */
struct Function {
  char name[256];
};

/* The value of a PTX directive (".target sm_90"), or "?". */
static void directive(const char *ptx, const char *name, char *out,
                      size_t size) {
  const char *at = strstr(ptx, name);
  snprintf(out, size, "?");
  if (!at)
    return;
  at += strlen(name);
  size_t n = strcspn(at, " \n\t(");
  if (n >= size)
    n = size - 1;
  memcpy(out, at, n);
  out[n] = 0;
}

CUresult cuModuleLoadDataEx(void **module, const void *image,
                            unsigned numOptions, int *options, void **values) {
  const char *ptx = (const char *)image;
  char target[32], entry[256], version[16];
  directive(ptx, ".target ", target, sizeof(target));
  directive(ptx, ".entry ", entry, sizeof(entry));
  directive(ptx, ".version ", version, sizeof(version));
  int externs = 0, mmas = 0;
  for (const char *p = ptx; (p = strstr(p, ".extern")) != NULL; ++p)
    ++externs;
  for (const char *p = ptx; (p = strstr(p, "mma.sync")) != NULL; ++p)
    ++mmas;
  long opt = -1;
  char *log = NULL;
  size_t logSize = 0;
  for (unsigned i = 0; i < numOptions; ++i) {
    if (options[i] == 7)
      opt = (long)(intptr_t)values[i];
    if (options[i] == 5)
      log = (char *)values[i];
    if (options[i] == 6)
      logSize = (size_t)(uintptr_t)values[i];
  }
  record("cuModuleLoadDataEx ptx bytes=%zu version=%s target=%s entry=%s "
         "externs=%d O=%ld mma=%d",
         strlen(ptx), version, target, entry, externs, opt, mmas);
  if (failing("load")) {
    if (log && logSize)
      snprintf(log, logSize, "ptxas fatal   : stub: unknown target");
    return kInvalidPtx;
  }
  *module = strdup(ptx);
  return kSuccess;
}

CUresult cuModuleUnload(void *module) {
  free(module);
  return kSuccess;
}

CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  char pattern[300];
  snprintf(pattern, sizeof(pattern), ".entry %s(", name);
  if (!strstr((const char *)module, pattern))
    return 500; /* CUDA_ERROR_NOT_FOUND */
  struct Function *f = calloc(1, sizeof(struct Function));
  snprintf(f->name, sizeof(f->name), "%s", name);
  *function = f;
  record("cuModuleGetFunction %s", name);
  return kSuccess;
}

CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *stream, void **params, void **extra) {
  record("cuLaunchKernel %s grid=%ux%ux%u block=%ux%ux%u smem=%u",
         ((struct Function *)function)->name, gx, gy, gz, bx, by, bz, smem);
  return failing("launch") ? kLaunchFailed : kSuccess;
}

CUresult cuFuncSetAttribute(void *function, int attribute, int value) {
  return kSuccess;
}

CUresult cuStreamCreate(void **stream, unsigned flags) {
  static int the_stream;
  *stream = &the_stream;
  record("cuStreamCreate flags=%u", flags);
  return kSuccess;
}

CUresult cuStreamDestroy_v2(void *stream) { return kSuccess; }

CUresult cuStreamSynchronize(void *stream) {
  record("cuStreamSynchronize");
  return failing("sync") ? kIllegalAddress : kSuccess;
}

CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) {
  return kSuccess;
}

CUresult cuEventCreate(void **event, unsigned flags) {
  *event = malloc(1);
  return kSuccess;
}

CUresult cuEventDestroy_v2(void *event) {
  free(event);
  return kSuccess;
}

CUresult cuEventRecord(void *event, void *stream) { return kSuccess; }

CUresult cuEventSynchronize(void *event) { return kSuccess; }

/// Each timed interval is 0.5 ms.
CUresult cuMemPrefetchAsync(uint64_t ptr, size_t bytes, int device,
                            void *stream) {
  record("cuMemPrefetchAsync bytes=%zu device=%d", bytes, device);
  return kSuccess;
}

CUresult cuEventElapsedTime_v2(float *ms, void *start, void *stop) {
  *ms = 0.5f;
  return kSuccess;
}

/* The stub's blocks ("device" memory), so that copies say which way they
   go. */
enum { kMaxBlocks = 1 << 16 };
static struct {
  uintptr_t start;
  size_t bytes;
} blocks[kMaxBlocks];
static size_t numBlocks;

static void remember(uintptr_t start, size_t bytes) {
  for (size_t i = 0; i < numBlocks; ++i)
    if (blocks[i].bytes == 0) {
      blocks[i].start = start;
      blocks[i].bytes = bytes ? bytes : 1;
      return;
    }
  if (numBlocks < kMaxBlocks) {
    blocks[numBlocks].start = start;
    blocks[numBlocks++].bytes = bytes ? bytes : 1;
  }
}

static void forget(uintptr_t start) {
  for (size_t i = 0; i < numBlocks; ++i)
    if (blocks[i].start == start)
      blocks[i].bytes = 0;
}

static const char *side(uint64_t ptr) {
  for (size_t i = 0; i < numBlocks; ++i)
    if (ptr >= blocks[i].start && ptr < blocks[i].start + blocks[i].bytes)
      return "device";
  return "host";
}

static CUresult allocate(uint64_t *ptr, size_t bytes, const char *what) {
  if (failing("alloc"))
    return kOutOfMemory;
  void *block = NULL;
  if (posix_memalign(&block, 256, bytes ? bytes : 1) != 0)
    return kOutOfMemory;
  memset(block, 0, bytes);
  *ptr = (uint64_t)(uintptr_t)block;
  remember((uintptr_t)block, bytes);
  record("%s bytes=%zu", what, bytes);
  return kSuccess;
}

CUresult cuMemAllocManaged(uint64_t *ptr, size_t bytes, unsigned flags) {
  if (failing("managed"))
    return kNotSupported;
  return allocate(ptr, bytes, "cuMemAllocManaged");
}

CUresult cuMemHostAlloc(void **ptr, size_t bytes, unsigned flags) {
  uint64_t block = 0;
  CUresult r = allocate(&block, bytes, "cuMemHostAlloc");
  if (r == kSuccess)
    record("cuMemHostAlloc flags=%u", flags);
  *ptr = (void *)(uintptr_t)block;
  return r;
}

CUresult cuMemFreeHost(void *ptr) {
  record("cuMemFreeHost");
  forget((uintptr_t)ptr);
  free(ptr);
  return kSuccess;
}

CUresult cuMemAlloc_v2(uint64_t *ptr, size_t bytes) {
  return allocate(ptr, bytes, "cuMemAlloc");
}

CUresult cuMemFree_v2(uint64_t ptr) {
  forget((uintptr_t)ptr);
  free((void *)(uintptr_t)ptr);
  return kSuccess;
}

CUresult cuMemcpyAsync(uint64_t dst, uint64_t src, size_t bytes, void *stream) {
  record("cuMemcpyAsync bytes=%zu %s->%s", bytes, side(src), side(dst));
  memcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
  return kSuccess;
}

CUresult cuMemsetD32Async(uint64_t dst, unsigned value, size_t count,
                          void *stream) {
  for (size_t i = 0; i < count; ++i)
    ((unsigned *)(uintptr_t)dst)[i] = value;
  return kSuccess;
}

CUresult cuMemsetD16Async(uint64_t dst, unsigned short value, size_t count,
                          void *stream) {
  for (size_t i = 0; i < count; ++i)
    ((unsigned short *)(uintptr_t)dst)[i] = value;
  return kSuccess;
}
