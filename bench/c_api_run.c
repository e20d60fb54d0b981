/*===- c_api_run.c - Per-run latency through the runtime's C API ----------===//
 *
 * Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 * The reference side of bench/python_overhead.py: loads an ahead-of-time
 * library (onnxd_load), binds every input to a zero-filled tensor of its
 * declared shape (dynamic dims: 1) and prints the median latency of
 * onnxd_run + onnxd_tensor_free over RUNS runs, in microseconds.
 *
 *   c_api_run MODEL.so RUNS
 *
 *===----------------------------------------------------------------------===*/

#include "OnnxDialect/Runtime/OnnxRuntime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: c_api_run MODEL.so RUNS\n");
    return 2;
  }
  int runs = atoi(argv[2]);
  onnxd_model *model;
  if (runs < 1 || onnxd_load(argv[1], &model) != ONNXD_OK) {
    fprintf(stderr, "%s\n", onnxd_last_error());
    return 1;
  }
  size_t n_in = onnxd_model_num_inputs(model);
  size_t n_out = onnxd_model_num_outputs(model);
  onnxd_tensor *in = calloc(n_in, sizeof *in);
  onnxd_tensor **out = calloc(n_out, sizeof *out);
  for (size_t i = 0; i < n_in; ++i) {
    onnxd_value_info info;
    onnxd_model_input(model, i, &info);
    int64_t *shape = calloc(info.rank ? info.rank : 1, sizeof *shape);
    size_t count = 1;
    for (int32_t d = 0; d < info.rank; ++d) {
      shape[d] = info.dims[d] < 0 ? 1 : info.dims[d];
      count *= shape[d];
    }
    in[i] =
        (onnxd_tensor){info.name, info.dtype, info.rank, shape,
                       calloc(count ? count : 1, onnxd_dtype_size(info.dtype))};
  }
  double *times = malloc(runs * sizeof *times);
  for (int r = -1; r < runs; ++r) { /* one warm-up run */
    double t0 = now_us();
    if (onnxd_run(model, in, n_in, out, n_out) != ONNXD_OK) {
      fprintf(stderr, "%s\n", onnxd_last_error());
      return 1;
    }
    for (size_t o = 0; o < n_out; ++o)
      onnxd_tensor_free(out[o]);
    if (r >= 0)
      times[r] = now_us() - t0;
  }
  qsort(times, runs, sizeof *times, cmp);
  printf("%.3f\n", times[runs / 2]);
  onnxd_model_free(model);
  return 0;
}
