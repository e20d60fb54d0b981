/*===- fma_peak.c - The FMA peak of one core ------------------------------===//
 *
 * Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 *   cc -O2 -mavx2 -mfma bench/fma_peak.c -o /tmp/fma_peak && /tmp/fma_peak
 *
 * Runs 12 independent chains of 8-lane float FMAs (enough to cover the FMA
 * latency on two pipes) and prints the GFLOP/s they reach: the most a kernel
 * can do on this core with AVX2, the ceiling of bench/run.py's GFLOP/s
 * column. Run two at once for two cores.
 *
 *===----------------------------------------------------------------------===*/
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

int main(void) {
  enum { kChains = 12 };
  const long steps = 200000000;
  __m256 acc[kChains];
  const __m256 a = _mm256_set1_ps(0.999f), b = _mm256_set1_ps(0.001f);
  for (int i = 0; i < kChains; ++i)
    acc[i] = _mm256_set1_ps((float)i);
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  // Unrolled by hand: a loop over the chains kept them in memory at -O2.
  for (long s = 0; s < steps; ++s) {
#define STEP(i) acc[i] = _mm256_fmadd_ps(acc[i], a, b)
    STEP(0);
    STEP(1);
    STEP(2);
    STEP(3);
    STEP(4);
    STEP(5);
    STEP(6);
    STEP(7);
    STEP(8);
    STEP(9);
    STEP(10);
    STEP(11);
#undef STEP
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  double seconds = (double)(end.tv_sec - start.tv_sec) +
                   1e-9 * (end.tv_nsec - start.tv_nsec);
  float sum = 0;
  for (int i = 0; i < kChains; ++i) {
    float lanes[8];
    _mm256_storeu_ps(lanes, acc[i]);
    sum += lanes[0];
  }
  // 8 lanes x 2 FLOP per FMA; the sum keeps the chains live.
  printf("%.1f GFLOP/s (checksum %g)\n", steps * kChains * 16.0 / seconds / 1e9,
         (double)sum);
  return 0;
}
