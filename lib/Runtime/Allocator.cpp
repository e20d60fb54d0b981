//===- Allocator.cpp - A cache of the buffers compiled code frees ---------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every block is a malloc'd (or aligned_alloc'd) block, so that free() may
// release any of them: a freed block waits in a list of its (size,
// alignment) until an allocation of the same kind takes it, up to
// kCacheLimit bytes in all. A block handed to the caller (releaseBuffer)
// leaves the bookkeeping. Blocks of at most 16 KB are kept the same way
// per thread, without the lock (SmallCache): compiled code allocates such
// temporaries inside parallel loops.
//
//===----------------------------------------------------------------------===//

#include "Allocator.h"

#include "OnnxDialect/Runtime/OnnxRuntime.h"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

/// A new block from the system: malloc'd, or aligned_alloc'd when an
/// alignment is asked for.
void *newBlock(size_t size, size_t alignment) {
  if (alignment == 0)
    return std::malloc(size == 0 ? 1 : size);
  // aligned_alloc wants a multiple of the alignment.
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  return std::aligned_alloc(alignment, rounded == 0 ? alignment : rounded);
}

/// Freed blocks kept beyond this many bytes are returned to the system.
constexpr size_t kCacheLimit = size_t(1) << 30;

/// Blocks by kind, (size, alignment): the live ones, and the freed ones
/// kept for the next allocations of their kind.
struct Blocks {
  std::unordered_map<void *, std::pair<size_t, size_t>> live;
  std::map<std::pair<size_t, size_t>, std::vector<void *>> freed;

  /// A kept block of the kind (`reused` set), else a new one; live after.
  void *take(size_t size, size_t alignment, bool &reused) {
    std::pair<size_t, size_t> kind{size, alignment};
    void *block = nullptr;
    auto it = freed.find(kind);
    reused = it != freed.end() && !it->second.empty();
    if (reused) {
      block = it->second.back();
      it->second.pop_back();
    } else {
      block = newBlock(size, alignment);
    }
    if (block)
      live[block] = kind;
    return block;
  }
};

struct Cache : Blocks {
  std::mutex mutex;
  size_t freedBytes = 0;

  void *allocate(size_t size, size_t alignment) {
    std::lock_guard<std::mutex> lock(mutex);
    bool reused;
    void *block = take(size, alignment, reused);
    if (reused)
      freedBytes -= size;
    return block;
  }

  void release(void *block) {
    if (!block)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    live.erase(block);
  }

  void free(void *block) {
    if (!block)
      return;
    std::unique_lock<std::mutex> lock(mutex);
    auto it = live.find(block);
    if (it == live.end()) {
      // Not one of ours (memory the caller allocated): plain free().
      lock.unlock();
      std::free(block);
      return;
    }
    std::pair<size_t, size_t> kind = it->second;
    live.erase(it);
    if (freedBytes + kind.first > kCacheLimit) {
      lock.unlock();
      std::free(block);
      return;
    }
    freed[kind].push_back(block);
    freedBytes += kind.first;
  }
};

Cache &cache() {
  static Cache *instance = new Cache; // never destroyed: used at exit too
  return *instance;
}

/// Blocks up to this size are kept per thread, with no lock: compiled code
/// allocates small temporaries inside parallel loops (a product's partial
/// register tiles), and two threads contending for the global lock slept
/// in futex waits.
constexpr size_t kSmallBlock = 16 << 10;

/// The thread's own blocks of at most kSmallBlock bytes: those it allocated
/// and has not freed, and those it freed, kept for its next allocations. A
/// block is freed by the thread that allocated it (its deallocation ends
/// the same loop body or function); one freed elsewhere is not found here
/// and takes the global cache's path, which frees it.
struct SmallCache : Blocks {
  ~SmallCache() {
    for (auto &[kind, blocks] : freed)
      for (void *block : blocks)
        std::free(block);
  }

  void *allocate(size_t size, size_t alignment) {
    bool reused;
    return take(size, alignment, reused);
  }

  /// Whether `block` is one of this thread's; if so, it is kept for reuse
  /// (`keep`) or leaves the bookkeeping (handed to the caller).
  bool free(void *block, bool keep) {
    auto it = live.find(block);
    if (it == live.end())
      return false;
    if (keep)
      freed[it->second].push_back(block);
    live.erase(it);
    return true;
  }
};

/// The thread's SmallCache; null once the thread's exit destroyed it (a
/// block freed after that, at the process's exit, takes the global path).
SmallCache *smallCache() {
  struct Holder {
    SmallCache *cache = new SmallCache;
    ~Holder() {
      delete cache;
      cache = nullptr;
    }
  };
  static thread_local Holder holder;
  return holder.cache;
}

} // namespace

/// Compiled code does not test what an allocation returns: a failed one
/// fails the run (onnxd_rt_fail) rather than hand it a null buffer. Called
/// with no lock held, since onnxd_rt_fail does not return.
static void *checkAllocation(void *block, size_t size) {
  if (!block) {
    static thread_local std::string message;
    message = "out of memory: cannot allocate a buffer of " +
              std::to_string(size) + " bytes";
    onnxd_rt_fail(message.c_str());
  }
  return block;
}

/// A block of `size` bytes from the thread's cache or the global one.
static void *allocateBlock(size_t size, size_t alignment) {
  SmallCache *small = size <= kSmallBlock ? smallCache() : nullptr;
  return small ? small->allocate(size, alignment)
               : cache().allocate(size, alignment);
}

/// Whether `block` was the thread's own (then kept or released by it).
static bool freeSmallBlock(void *block, bool keep) {
  SmallCache *small = smallCache();
  return small && small->free(block, keep);
}

extern "C" void *_mlir_memref_to_llvm_alloc(size_t size) {
  return checkAllocation(allocateBlock(size, 0), size);
}

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment,
                                                    size_t size) {
  return checkAllocation(allocateBlock(size, alignment), size);
}

extern "C" void _mlir_memref_to_llvm_free(void *ptr) {
  if (ptr && !freeSmallBlock(ptr, /*keep=*/true))
    cache().free(ptr);
}

void mlir::onnx::runtime::releaseBuffer(void *ptr) {
  if (ptr && !freeSmallBlock(ptr, /*keep=*/false))
    cache().release(ptr);
}

size_t mlir::onnx::runtime::cachedBytes() {
  std::lock_guard<std::mutex> lock(cache().mutex);
  return cache().freedBytes;
}
