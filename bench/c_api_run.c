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
 * declared shape (dynamic dims: 1), or to the .npy file NAME=FILE gives it,
 * and prints the median latency of onnxd_run + onnxd_tensor_free over RUNS
 * runs, in microseconds; on stderr, the process's peak resident memory
 * (what bench/run.py reports as ours: a program that links only the runtime
 * library, as a deployed one would).
 *
 *   c_api_run MODEL.so RUNS [NAME=FILE.npy ...]
 *
 *===----------------------------------------------------------------------===*/

#include "OnnxDialect/Runtime/OnnxRuntime.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* The numpy kind of an ONNX element type ('f', 'i', 'u', 'b'), or 0 for one
 * not checked. */
static char npy_kind(int32_t dtype) {
  switch (dtype) {
  case 1:
  case 10:
  case 11:
    return 'f';
  case 3:
  case 5:
  case 6:
  case 7:
    return 'i';
  case 2:
  case 4:
  case 12:
  case 13:
    return 'u';
  case 9:
    return 'b';
  default:
    return 0;
  }
}

/* The array of a .npy file (version 1 to 3, C order, little-endian) into
 * `t` (its shape and data; its elements must be of `t`'s type), or 0 with
 * the reason on stderr. */
static int read_npy(const char *path, onnxd_tensor *t) {
  size_t elem = onnxd_dtype_size(t->dtype);
  char kind = npy_kind(t->dtype);
  FILE *f = fopen(path, "rb");
  unsigned char head[12];
  if (!f) {
    fprintf(stderr, "%s: %s\n", path, strerror(errno));
    return 0;
  }
  if (fread(head, 1, 10, f) != 10 || memcmp(head, "\x93NUMPY", 6)) {
    fprintf(stderr, "%s: not a .npy file\n", path);
    return 0;
  }
  size_t len = head[8] | (size_t)head[9] << 8;
  if (head[6] > 1) {
    if (fread(head + 10, 1, 2, f) != 2) {
      fprintf(stderr, "%s: truncated header\n", path);
      return 0;
    }
    len |= (size_t)head[10] << 16 | (size_t)head[11] << 24;
  }
  char *text = calloc(len + 1, 1);
  if (fread(text, 1, len, f) != len || strstr(text, "'fortran_order': True")) {
    fprintf(stderr, "%s: unreadable or Fortran-order header\n", path);
    return 0;
  }
  const char *descr = strstr(text, "'descr': '");
  const char *shape = strstr(text, "'shape': (");
  if (!descr || !shape || descr[10] == '>' || (kind && descr[11] != kind) ||
      (size_t)atoi(descr + 12) != elem) {
    fprintf(stderr, "%s: not the input's elements (%c%zu, little-endian)\n",
            path, kind ? kind : '?', elem);
    return 0;
  }
  int64_t *dims = calloc(16, sizeof *dims);
  int32_t rank = 0;
  size_t count = 1;
  for (const char *c = shape + 10; *c && *c != ')';) {
    char *end;
    long long d = strtoll(c, &end, 10);
    if (end == c) {
      ++c;
      continue;
    }
    if (d < 0) {
      fprintf(stderr, "%s: a negative dim in its shape\n", path);
      return 0;
    }
    if (rank == 16 || (d && count > SIZE_MAX / elem / (size_t)d)) {
      fprintf(stderr, "%s: more than 16 dims or too many elements\n", path);
      return 0;
    }
    dims[rank++] = d;
    count *= (size_t)d;
    c = end;
  }
  void *data = calloc(count ? count : 1, elem);
  if (!data) {
    fprintf(stderr, "%s: no memory for its %zu elements\n", path, count);
    return 0;
  }
  if (fread(data, elem, count, f) != count) {
    fprintf(stderr, "%s: fewer elements than its shape\n", path);
    return 0;
  }
  fclose(f);
  free(text);
  t->rank = rank;
  t->shape = dims;
  t->data = data;
  return 1;
}

/* VmHWM of /proc/self/status, in MB (0 where there is none). */
static long peak_rss_mb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = 0;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmHWM:", 6))
      kb = atol(line + 6);
  if (f)
    fclose(f);
  return kb / 1024;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: c_api_run MODEL.so RUNS [NAME=FILE.npy ...]\n");
    return 2;
  }
  char *runs_end;
  long runs_arg = strtol(argv[2], &runs_end, 10);
  int runs = runs_arg > 0 && runs_arg <= 100000000 && !*runs_end ? runs_arg : 0;
  if (runs < 1) {
    fprintf(stderr, "RUNS must be a number of runs, 1 to 100000000: %s\n",
            argv[2]);
    return 2;
  }
  onnxd_model *model;
  if (onnxd_load(argv[1], &model) != ONNXD_OK) {
    fprintf(stderr, "%s\n", onnxd_last_error());
    return 1;
  }
  size_t n_in = onnxd_model_num_inputs(model);
  size_t n_out = onnxd_model_num_outputs(model);
  onnxd_tensor *in = calloc(n_in, sizeof *in);
  onnxd_tensor **out = calloc(n_out, sizeof *out);
  /* Each NAME=FILE must name an input. */
  for (int a = 3; a < argc; ++a) {
    const char *eq = strchr(argv[a], '=');
    int found = 0;
    for (size_t i = 0; eq && i < n_in && !found; ++i) {
      onnxd_value_info info;
      onnxd_model_input(model, i, &info);
      found = strlen(info.name) == (size_t)(eq - argv[a]) &&
              !strncmp(argv[a], info.name, eq - argv[a]);
    }
    if (!found) {
      fprintf(stderr, "%s: not NAME=FILE.npy for an input of the model\n",
              argv[a]);
      return 2;
    }
  }
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
    size_t name_len = strlen(info.name);
    for (int a = 3; a < argc; ++a)
      if (!strncmp(argv[a], info.name, name_len) && argv[a][name_len] == '=' &&
          !read_npy(argv[a] + name_len + 1, &in[i]))
        return 1;
  }
  double *times = malloc(runs * sizeof *times);
  if (!times) {
    fprintf(stderr, "no memory for %d run times\n", runs);
    return 1;
  }
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
  fflush(stdout);
  fprintf(stderr, "peak resident memory: %ld MB\n", peak_rss_mb());
  onnxd_model_free(model);
  return 0;
}
