/*===- GPUEmulator.h - The runtime's GPU emulator (C ABI) ---------*- C -*-===//
 *
 * Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 * What kernels compiled by onnx-gpu-emulate-kernels call instead of the
 * GPU's instructions (lib/Runtime/GPUEmulator.cpp runs them; docs/gpu.md,
 * "Tests"). A test of the kernels without a GPU, not a way to run models:
 * each block's threads run one after another on one host thread.
 *
 *===----------------------------------------------------------------------===*/

#ifndef ONNXDIALECT_RUNTIME_GPUEMULATOR_H
#define ONNXDIALECT_RUNTIME_GPUEMULATOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The special registers of onnxd_gpu_emu_sreg. */
enum {
  ONNXD_EMU_TID_X,
  ONNXD_EMU_TID_Y,
  ONNXD_EMU_TID_Z,
  ONNXD_EMU_NTID_X,
  ONNXD_EMU_NTID_Y,
  ONNXD_EMU_NTID_Z,
  ONNXD_EMU_CTAID_X,
  ONNXD_EMU_CTAID_Y,
  ONNXD_EMU_CTAID_Z,
  ONNXD_EMU_NCTAID_X,
  ONNXD_EMU_NCTAID_Y,
  ONNXD_EMU_NCTAID_Z,
  ONNXD_EMU_LANEID,
  ONNXD_EMU_WARPSIZE
};

/* The modes of onnxd_gpu_emu_shfl (shfl.sync's). */
enum {
  ONNXD_EMU_SHFL_IDX,
  ONNXD_EMU_SHFL_UP,
  ONNXD_EMU_SHFL_DOWN,
  ONNXD_EMU_SHFL_BFLY
};

/* The products of onnxd_gpu_emu_mma: mma.sync.aligned.SHAPE.row.col with f32
 * accumulators. */
enum {
  ONNXD_EMU_MMA_M16N8K8_TF32,
  ONNXD_EMU_MMA_M16N8K16_F16,
  ONNXD_EMU_MMA_M16N8K16_BF16
};

/* The calling thread's special register `code`. */
int32_t onnxd_gpu_emu_sreg(int32_t code);

/* bar.sync 0: waits until every thread of the block that has not exited
 * reaches a barrier. */
void onnxd_gpu_emu_barrier(void);

/* shfl.sync: the source lane's `bits` in the low 32 bits of the result,
 * whether the source lane was in range in bit 32. */
int64_t onnxd_gpu_emu_shfl(int32_t mode, int32_t mask, int32_t bits,
                           int32_t offset, int32_t clamp);

/* mma.sync of `kind` over the warp: regs[0..3] the lane's A registers,
 * regs[4..5] its B registers, regs[6..9] its C registers (f32 bits); the D
 * registers are written to regs[10..13]. */
void onnxd_gpu_emu_mma(int32_t kind, int32_t *regs);

/* Before each load (`write` 0) or store (1) of `bytes` bytes of shared
 * memory: a race with another thread of the block since the last barrier
 * (a write and another access of the same bytes) ends the run. */
void onnxd_gpu_emu_shared(void *address, int64_t bytes, int32_t write);

/* cvt.rna.tf32.f32. */
int32_t onnxd_gpu_emu_tf32(float value);

/* Runs `entry(params)` for every thread of a grid of blocks, after the
 * stream's pending work; an error (a barrier or shuffle the threads do not
 * all reach, a launch size a GPU refuses) ends the run (onnxd_rt_fail). */
void onnxd_gpu_emu_launch(void (*entry)(void **), const char *name,
                          int64_t gridX, int64_t gridY, int64_t gridZ,
                          int64_t blockX, int64_t blockY, int64_t blockZ,
                          int32_t sharedBytes, void *stream, void **params,
                          int64_t count);

#ifdef __cplusplus
}
#endif

#endif /* ONNXDIALECT_RUNTIME_GPUEMULATOR_H */
