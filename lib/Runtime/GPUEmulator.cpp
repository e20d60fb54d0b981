//===- GPUEmulator.cpp - Kernels run on the host, a block at a time -------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The emulator of include/OnnxDialect/Runtime/GPUEmulator.h. Each thread of
// a block is a fiber with its own stack (switched by a few instructions on
// x86-64, by ucontext elsewhere and under AddressSanitizer, which follows
// ucontext's switches); a fiber runs until it
// reaches a barrier, a warp-wide operation (shfl.sync, mma.sync) or its end,
// then the scheduler runs the next. A warp's operation completes once every
// lane of the warp that has not exited reaches it; a barrier once every
// thread of the block has. Blocks run one after another, so the kernels'
// shared-memory globals (host globals here) serve each block in turn.
//
// The PTX ISA's semantics emulated: shfl.sync (its source lane and clamp
// arithmetic), mma.sync's fragments ("Matrix Fragments for mma.m16n8k8"
// and "... mma.m16n8k16 with floating point type"), cvt.rna.tf32.f32.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Runtime/GPUEmulator.h"
#include "CUDA.h"
#include "OnnxDialect/Runtime/OnnxRuntime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <sys/mman.h>
#include <ucontext.h>

#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#if defined(__has_feature)
#if !__has_feature(address_sanitizer)
#define ONNXD_EMU_STACK_SWITCH 1
#endif
#else
#define ONNXD_EMU_STACK_SWITCH 1
#endif
#endif

#ifdef ONNXD_EMU_STACK_SWITCH
// onnxd_emu_switch(&from, to): saves the callee-saved registers and the
// floating-point control words on the current stack, stores its pointer in
// `from`, and resumes the stack `to` saved (the System V ABI's state a
// call preserves; no signal mask, unlike swapcontext's system call).
extern "C" void onnxd_emu_switch(void **from, void *to);
asm(R"(
  .text
  .p2align 4
  .globl onnxd_emu_switch
  .hidden onnxd_emu_switch
  .type onnxd_emu_switch,@function
onnxd_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $16, %rsp
  stmxcsr 8(%rsp)
  fnstcw (%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  fldcw (%rsp)
  ldmxcsr 8(%rsp)
  addq $16, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size onnxd_emu_switch, .-onnxd_emu_switch
)");
#endif
#include <unordered_map>
#include <vector>

extern "C" void mgpuStreamSynchronize(void *stream);

namespace {

/// Why a fiber gave control back.
enum class State { Ready, Barrier, Warp, Done, Failed };

/// What a 2-byte unit of shared memory saw since the last barrier: the
/// thread that wrote it, the thread that read it (kMany: more than one).
struct Shadow {
  int64_t epoch = 0;
  int32_t writer = -1, reader = -1;
};
constexpr int32_t kMany = -2;

/// Where a fiber or the scheduler resumes.
struct Context {
#ifdef ONNXD_EMU_STACK_SWITCH
  void *sp = nullptr;
#else
  ucontext_t uc;
#endif
};

/// Saves the running context in `from` and resumes `to`.
void switchContext(Context &from, Context &to) {
#ifdef ONNXD_EMU_STACK_SWITCH
  onnxd_emu_switch(&from.sp, to.sp);
#else
  swapcontext(&from.uc, &to.uc);
#endif
}

struct Fiber {
  Context context;
  State state = State::Ready;
  int64_t tid[3] = {0, 0, 0};
  int64_t linear = 0;
  // The warp operation it waits at.
  bool mma = false;
  int32_t mode = 0, mask = 0, bits = 0, offset = 0, clamp = 0;
  int64_t shuffled = 0;
  int32_t kind = 0;
  int32_t *regs = nullptr;
};

constexpr size_t kStackBytes = 512 * 1024;
constexpr size_t kGuardBytes = 64 * 1024;
constexpr int64_t kMaxThreads = 1024;

struct Emulator {
  void (*entry)(void **) = nullptr;
  void **params = nullptr;
  int64_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1}, blockId[3] = {0, 0, 0};
  std::vector<Fiber> fibers;
  std::vector<char *> stacks;
  Context scheduler;
  Fiber *current = nullptr;
  // What the launch's blocks completed (ONNXD_GPU_EMULATOR_STATS).
  int64_t barriers = 0, shuffles = 0, products = 0;
  // Shared memory's accesses in the block since its last barrier (the
  // epoch: barriers completed), by 2-byte unit; the first race found.
  int64_t epoch = 0;
  std::unordered_map<uintptr_t, Shadow> shadow;
  std::string race;
};

Emulator &emulator() {
  static Emulator e;
  return e;
}

/// One launch at a time (the emulator's state is global).
std::mutex &launchMutex() {
  static std::mutex m;
  return m;
}

Fiber &self() {
  Fiber *f = emulator().current;
  if (!f) {
    std::fprintf(stderr, "onnxd: a GPU emulator call outside a kernel\n");
    std::abort();
  }
  return *f;
}

/// Back to the scheduler, in `state`.
void yield(State state) {
  Emulator &e = emulator();
  Fiber &f = self();
  f.state = state;
  switchContext(f.context, e.scheduler);
}

/// A fiber's start: the kernel, then back to the scheduler for good.
[[noreturn]] void runFiber() {
  Emulator &e = emulator();
  e.entry(e.params);
  yield(State::Done);
  std::abort(); // a finished fiber is not resumed
}

/// Makes `context` start runFiber on `stack` when switched to.
void startContext(Context &context, char *stack) {
#ifdef ONNXD_EMU_STACK_SWITCH
  // The frame onnxd_emu_switch restores: the control words, six registers,
  // then runFiber as the address it returns to, at a 16-byte boundary (so
  // that runFiber starts as a called function would).
  auto top = reinterpret_cast<uintptr_t>(stack + kStackBytes) & ~uintptr_t(15);
  auto *frame = reinterpret_cast<uint64_t *>(top - 16 - 64);
  uint32_t mxcsr;
  uint16_t fcw;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fcw));
  std::memset(frame, 0, 80);
  std::memcpy(frame, &fcw, sizeof(fcw));
  std::memcpy(reinterpret_cast<char *>(frame) + 8, &mxcsr, sizeof(mxcsr));
  frame[8] = reinterpret_cast<uint64_t>(&runFiber);
  context.sp = frame;
#else
  getcontext(&context.uc);
  context.uc.uc_stack.ss_sp = stack;
  context.uc.uc_stack.ss_size = kStackBytes;
  context.uc.uc_link = nullptr;
  makecontext(&context.uc, reinterpret_cast<void (*)()>(&runFiber), 0);
#endif
}

float fromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint32_t toBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h >> 15) << 31;
  int exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  if (exponent == 0x1f)
    return fromBits(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    float v = std::ldexp(float(mantissa), -24);
    return sign ? -v : v;
  }
  return fromBits(sign | (uint32_t(exponent - 15 + 127) << 23) |
                  (mantissa << 13));
}

/// An element of a register of 16-bit halves (`high`: the upper one).
float element(uint32_t reg, bool high, int32_t kind) {
  uint16_t half = high ? uint16_t(reg >> 16) : uint16_t(reg & 0xffff);
  if (kind == ONNXD_EMU_MMA_M16N8K16_BF16)
    return fromBits(uint32_t(half) << 16);
  return halfToFloat(half);
}

std::string laneText(const Fiber &f) {
  return "thread " + std::to_string(f.linear) + " (warp " +
         std::to_string(f.linear / 32) + ", lane " +
         std::to_string(f.linear % 32) + ")";
}

/// Completes the warp operation its lanes `lanes` wait at; false with
/// `error` set when they do not agree.
bool completeWarp(std::vector<Fiber *> &lanes, std::string &error) {
  Fiber &first = *lanes.front();
  for (Fiber *f : lanes)
    if (f->mma != first.mma || (f->mma && f->kind != first.kind)) {
      error = laneText(*f) + " and " + laneText(first) +
              " wait at different warp operations (a shuffle and a "
              "tensor-core product, or two kinds of product)";
      return false;
    }
  // By lane: nullptr where the lane has exited or does not exist.
  Fiber *byLane[32] = {};
  for (Fiber *f : lanes)
    byLane[f->linear % 32] = f;
  if (!first.mma) {
    for (Fiber *f : lanes) {
      int lane = int(f->linear % 32);
      int b = f->offset & 0x1f, c = f->clamp & 0x1f;
      int segmask = (f->clamp >> 8) & 0x1f;
      int maxLane = (lane & segmask) | (c & ~segmask);
      int minLane = lane & segmask;
      int j = lane;
      bool valid = false;
      switch (f->mode) {
      case ONNXD_EMU_SHFL_UP:
        j = lane - b;
        valid = j >= maxLane;
        break;
      case ONNXD_EMU_SHFL_DOWN:
        j = lane + b;
        valid = j <= maxLane;
        break;
      case ONNXD_EMU_SHFL_BFLY:
        j = lane ^ b;
        valid = j <= maxLane;
        break;
      default:
        j = minLane | (b & ~segmask);
        valid = j <= maxLane;
        break;
      }
      if (!valid)
        j = lane;
      if (!((uint32_t(f->mask) >> lane) & 1)) {
        error = laneText(*f) + " shuffles with a member mask that leaves "
                               "it out";
        return false;
      }
      if (!byLane[j] || !((uint32_t(f->mask) >> j) & 1)) {
        error = laneText(*f) + " reads lane " + std::to_string(j) +
                " of its warp, which " +
                (byLane[j] ? "is not in the member mask"
                           : "has exited or does not exist") +
                " at the shuffle";
        return false;
      }
      f->shuffled =
          int64_t(uint32_t(byLane[j]->bits)) | (valid ? (int64_t(1) << 32) : 0);
    }
    return true;
  }
  for (int lane = 0; lane < 32; ++lane)
    if (!byLane[lane]) {
      error = "lane " + std::to_string(lane) + " of warp " +
              std::to_string(first.linear / 32) +
              " is not at a tensor-core product that its warp runs "
              "(mma.sync needs all 32 lanes)";
      return false;
    }
  int32_t kind = first.kind;
  int kDim = kind == ONNXD_EMU_MMA_M16N8K8_TF32 ? 8 : 16;
  float a[16][16] = {}, bm[16][8] = {}, c[16][8] = {};
  for (int lane = 0; lane < 32; ++lane) {
    const int32_t *r = byLane[lane]->regs;
    int g = lane >> 2, t = lane & 3;
    if (kind == ONNXD_EMU_MMA_M16N8K8_TF32) {
      // A: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4); B: b0 (k t,
      // n g), b1 (k t+4, n g). TF32 keeps 10 bits of mantissa.
      auto tf32 = [](int32_t bits) {
        return fromBits(uint32_t(bits) & ~0x1fffu);
      };
      a[g][t] = tf32(r[0]);
      a[g + 8][t] = tf32(r[1]);
      a[g][t + 4] = tf32(r[2]);
      a[g + 8][t + 4] = tf32(r[3]);
      bm[t][g] = tf32(r[4]);
      bm[t + 4][g] = tf32(r[5]);
    } else {
      // A element i (register i/2, half i%2): row g for i in {0,1,4,5},
      // else g+8; column 2t + i%2, plus 8 for i >= 4. B element i: row
      // 2t + i%2, plus 8 for i >= 2; column g.
      for (int i = 0; i < 8; ++i) {
        int row = g + ((i & 2) ? 8 : 0);
        int col = 2 * t + (i & 1) + (i >= 4 ? 8 : 0);
        a[row][col] = element(uint32_t(r[i / 2]), i & 1, kind);
      }
      for (int i = 0; i < 4; ++i) {
        int row = 2 * t + (i & 1) + (i >= 2 ? 8 : 0);
        bm[row][g] = element(uint32_t(r[4 + i / 2]), i & 1, kind);
      }
    }
    // C and D: c0 (g, 2t), c1 (g, 2t+1), c2 (g+8, 2t), c3 (g+8, 2t+1).
    for (int i = 0; i < 4; ++i)
      c[g + ((i & 2) ? 8 : 0)][2 * t + (i & 1)] = fromBits(uint32_t(r[6 + i]));
  }
  for (int lane = 0; lane < 32; ++lane) {
    int32_t *r = byLane[lane]->regs;
    int g = lane >> 2, t = lane & 3;
    for (int i = 0; i < 4; ++i) {
      int row = g + ((i & 2) ? 8 : 0), col = 2 * t + (i & 1);
      double sum = c[row][col];
      for (int k = 0; k < kDim; ++k)
        sum += double(a[row][k]) * double(bm[k][col]);
      r[10 + i] = int32_t(toBits(float(sum)));
    }
  }
  return true;
}

/// Runs one block; false with `error` set when its threads cannot go on.
bool runBlock(Emulator &e, std::string &error) {
  int64_t threads = e.block[0] * e.block[1] * e.block[2];
  for (int64_t i = 0; i < threads; ++i) {
    Fiber &f = e.fibers[i];
    f.state = State::Ready;
    f.linear = i;
    f.tid[0] = i % e.block[0];
    f.tid[1] = (i / e.block[0]) % e.block[1];
    f.tid[2] = i / (e.block[0] * e.block[1]);
    startContext(f.context, e.stacks[i]);
  }
  int64_t warps = (threads + 31) / 32;
  std::vector<Fiber *> lanes;
  e.shadow.clear();
  e.epoch = 1;
  for (;;) {
    for (int64_t i = 0; i < threads; ++i) {
      Fiber &f = e.fibers[i];
      if (f.state != State::Ready)
        continue;
      e.current = &f;
      switchContext(e.scheduler, f.context);
      e.current = nullptr;
      if (f.state == State::Failed) {
        error = e.race;
        return false;
      }
    }
    int64_t done = 0, atBarrier = 0;
    for (int64_t i = 0; i < threads; ++i) {
      done += e.fibers[i].state == State::Done;
      atBarrier += e.fibers[i].state == State::Barrier;
    }
    if (done == threads)
      return true;
    bool released = false;
    for (int64_t w = 0; w < warps; ++w) {
      lanes.clear();
      bool waiting = true;
      for (int64_t i = w * 32; i < std::min(threads, w * 32 + 32); ++i) {
        Fiber &f = e.fibers[i];
        if (f.state == State::Done)
          continue;
        waiting &= f.state == State::Warp;
        lanes.push_back(&f);
      }
      if (lanes.empty() || !waiting)
        continue;
      if (!completeWarp(lanes, error))
        return false;
      ++(lanes.front()->mma ? e.products : e.shuffles);
      for (Fiber *f : lanes)
        f->state = State::Ready;
      released = true;
    }
    if (released)
      continue;
    if (atBarrier + done == threads) {
      ++e.barriers;
      ++e.epoch;
      for (int64_t i = 0; i < threads; ++i)
        if (e.fibers[i].state == State::Barrier)
          e.fibers[i].state = State::Ready;
      continue;
    }
    // Some wait at a barrier, others at a warp operation that a lane of
    // their warp does not reach.
    for (int64_t i = 0; i < threads; ++i)
      if (e.fibers[i].state == State::Warp) {
        error = laneText(e.fibers[i]) +
                " waits at a warp operation that a lane of its warp does "
                "not reach (it waits at a barrier)";
        return false;
      }
    error = "the threads wait at different barriers";
    return false;
  }
}

} // namespace

extern "C" {

int32_t onnxd_gpu_emu_sreg(int32_t code) {
  Emulator &e = emulator();
  Fiber &f = self();
  switch (code) {
  case ONNXD_EMU_TID_X:
  case ONNXD_EMU_TID_Y:
  case ONNXD_EMU_TID_Z:
    return int32_t(f.tid[code - ONNXD_EMU_TID_X]);
  case ONNXD_EMU_NTID_X:
  case ONNXD_EMU_NTID_Y:
  case ONNXD_EMU_NTID_Z:
    return int32_t(e.block[code - ONNXD_EMU_NTID_X]);
  case ONNXD_EMU_CTAID_X:
  case ONNXD_EMU_CTAID_Y:
  case ONNXD_EMU_CTAID_Z:
    return int32_t(e.blockId[code - ONNXD_EMU_CTAID_X]);
  case ONNXD_EMU_NCTAID_X:
  case ONNXD_EMU_NCTAID_Y:
  case ONNXD_EMU_NCTAID_Z:
    return int32_t(e.grid[code - ONNXD_EMU_NCTAID_X]);
  case ONNXD_EMU_LANEID:
    return int32_t(f.linear % 32);
  default:
    return 32;
  }
}

void onnxd_gpu_emu_barrier(void) { yield(State::Barrier); }

int64_t onnxd_gpu_emu_shfl(int32_t mode, int32_t mask, int32_t bits,
                           int32_t offset, int32_t clamp) {
  Fiber &f = self();
  f.mma = false;
  f.mode = mode;
  f.mask = mask;
  f.bits = bits;
  f.offset = offset;
  f.clamp = clamp;
  yield(State::Warp);
  return f.shuffled;
}

void onnxd_gpu_emu_mma(int32_t kind, int32_t *regs) {
  Fiber &f = self();
  f.mma = true;
  f.kind = kind;
  f.regs = regs;
  yield(State::Warp);
}

void onnxd_gpu_emu_shared(void *address, int64_t bytes, int32_t write) {
  Emulator &e = emulator();
  Fiber &f = self();
  auto tid = int32_t(f.linear);
  auto start = reinterpret_cast<uintptr_t>(address) >> 1;
  auto end = (reinterpret_cast<uintptr_t>(address) + uintptr_t(bytes) + 1) >> 1;
  for (uintptr_t unit = start; unit < end; ++unit) {
    Shadow &s = e.shadow[unit];
    if (s.epoch != e.epoch)
      s = Shadow{e.epoch, -1, -1};
    int32_t other = -1;
    bool otherWrote = false;
    if (s.writer >= 0 && s.writer != tid) {
      other = s.writer;
      otherWrote = true;
    } else if (write && s.reader != -1 && s.reader != tid) {
      other = s.reader;
    }
    if (other != -1 || (write && s.reader == kMany)) {
      e.race = "thread " + std::to_string(tid) + " " +
               (write ? "writes" : "reads") + " shared memory that " +
               (other >= 0 ? "thread " + std::to_string(other)
                           : std::string("other threads")) +
               " " + (otherWrote ? "wrote" : "read") +
               " since the last barrier (a missing barrier)";
      yield(State::Failed);
      return; // not resumed
    }
    if (write)
      s.writer = tid;
    else
      s.reader = s.reader == -1 || s.reader == tid ? tid : kMany;
  }
}

int32_t onnxd_gpu_emu_tf32(float value) {
  uint32_t bits = toBits(value);
  if ((bits & 0x7f800000u) == 0x7f800000u)
    return int32_t((bits & 0x7fffffu) ? 0x7fffffffu : bits);
  // To nearest, ties away from zero (sign and magnitude).
  return int32_t((bits + 0x1000u) & ~0x1fffu);
}

void onnxd_gpu_emu_launch(void (*entry)(void **), const char *name,
                          int64_t gridX, int64_t gridY, int64_t gridZ,
                          int64_t blockX, int64_t blockY, int64_t blockZ,
                          int32_t sharedBytes, void *stream, void **params,
                          int64_t count) {
  (void)sharedBytes;
  (void)count;
  if (gridX == 0 || gridY == 0 || gridZ == 0)
    return;
  static thread_local std::string message;
  std::string where = std::string("GPU emulator: kernel ") + name;
  for (int64_t v : {gridX, gridY, gridZ, blockX, blockY, blockZ})
    if (v < 1 || v > INT32_MAX) {
      message = where + ": a launch size of " + std::to_string(v);
      onnxd_rt_fail(message.c_str());
    }
  int64_t threads = blockX * blockY * blockZ;
  if (threads > kMaxThreads || blockZ > 64) {
    message = where + ": blocks of " + std::to_string(blockX) + "x" +
              std::to_string(blockY) + "x" + std::to_string(blockZ) +
              " threads (a GPU runs at most 1024, z at most 64)";
    onnxd_rt_fail(message.c_str());
  }
  if (stream)
    mgpuStreamSynchronize(stream);
  // A launch the run's profile records: the emulation's time on the host.
  int64_t profiled = mlir::onnx::runtime::takeProfiledLaunch();
  int64_t start = profiled >= 0 ? mlir::onnx::runtime::steadyNanos() : 0;
  std::string error;
  int64_t barriers = 0, shuffles = 0, products = 0;
  {
    std::lock_guard<std::mutex> lock(launchMutex());
    Emulator &e = emulator();
    e.entry = entry;
    e.params = params;
    e.grid[0] = gridX, e.grid[1] = gridY, e.grid[2] = gridZ;
    e.block[0] = blockX, e.block[1] = blockY, e.block[2] = blockZ;
    e.barriers = e.shuffles = e.products = 0;
    if (int64_t(e.fibers.size()) < threads)
      e.fibers.resize(threads);
    while (int64_t(e.stacks.size()) < threads) {
      // A page below each stack that faults: an overflow stops there
      // rather than writing over the next thread's stack.
      void *stack =
          mmap(nullptr, kStackBytes + kGuardBytes, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (stack != MAP_FAILED && mprotect(stack, kGuardBytes, PROT_NONE) != 0) {
        munmap(stack, kStackBytes + kGuardBytes);
        stack = MAP_FAILED;
      }
      if (stack == MAP_FAILED) {
        error =
            "cannot map the stacks of " + std::to_string(threads) + " threads";
        break;
      }
      e.stacks.push_back(static_cast<char *>(stack) + kGuardBytes);
    }
    for (int64_t z = 0; error.empty() && z < gridZ; ++z)
      for (int64_t y = 0; error.empty() && y < gridY; ++y)
        for (int64_t x = 0; error.empty() && x < gridX; ++x) {
          e.blockId[0] = x, e.blockId[1] = y, e.blockId[2] = z;
          if (!runBlock(e, error))
            error = "block (" + std::to_string(x) + "," + std::to_string(y) +
                    "," + std::to_string(z) + "): " + error;
        }
    barriers = e.barriers, shuffles = e.shuffles, products = e.products;
  }
  if (!error.empty()) {
    message = where + ": " + error;
    onnxd_rt_fail(message.c_str());
  }
  if (profiled >= 0)
    mlir::onnx::runtime::recordProfiledKernel(
        profiled, start, mlir::onnx::runtime::steadyNanos());
  // What ran, a line a launch: the warp-wide operations and block-wide
  // barriers completed (a test's check that a kernel took its path).
  static const bool stats = [] {
    const char *env = std::getenv("ONNXD_GPU_EMULATOR_STATS");
    return env && *env == '1';
  }();
  if (stats)
    std::fprintf(
        stderr,
        "GPU emulator: %s: %lld blocks of %lld threads, %lld "
        "barriers, %lld warp shuffles, %lld warp mma\n",
        name, static_cast<long long>(gridX * gridY * gridZ),
        static_cast<long long>(threads), static_cast<long long>(barriers),
        static_cast<long long>(shuffles), static_cast<long long>(products));
}

} // extern "C"
