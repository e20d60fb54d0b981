/* Calls a model compiled by `onnx-run add-linalg.mlir -o add.so` through the
 * generated add.h, without the runtime. */
#include "add.h"

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40};
  add_input0 da = {a, a, 0, {1, 4}, {4, 1}};
  add_input1 db = {b, b, 0, {1, 4}, {4, 1}};
  /* c has a static shape: the caller provides its buffer (an argument). */
  int64_t c[2] = {0, 0};
  add_output2 dc = {c, c, 0, {2}, {1}};
  add_results r;
  _mlir_ciface_add(&r, &da, &db, &dc);
  float *y = r.y.aligned + r.y.offset;
  printf("y = %g %g %g %g\n", y[0], y[1], y[2], y[3]);
  printf("c = %lld %lld\n", (long long)c[0], (long long)c[1]);
  free(r.y.allocated);
  free(r.a_copy.allocated);
  return 0;
}
