/* A C program of the runtime API: compile, describe, run, bad inputs, a
 * failing run-time check, ahead-of-time compile and load.
 *   onnxd-api-test add.mlir assert.mlir OUT.so   (see api.test) */

#include "OnnxDialect/Runtime/OnnxRuntime.h"

#include <stdio.h>
#include <stdlib.h>

static void print_info(const char *what, const onnxd_value_info *info) {
  printf("%s %s: %s rank %d dims", what, info->name,
         onnxd_dtype_name(info->dtype), info->rank);
  for (int d = 0; d < info->rank; ++d)
    printf(" %lld(%s)", (long long)info->dims[d], info->dim_params[d]);
  printf("\n");
}

static void describe(const onnxd_model *m) {
  onnxd_value_info info;
  for (size_t i = 0; i < onnxd_model_num_inputs(m); ++i)
    if (onnxd_model_input(m, i, &info) == ONNXD_OK)
      print_info("input", &info);
  for (size_t i = 0; i < onnxd_model_num_outputs(m); ++i)
    if (onnxd_model_output(m, i, &info) == ONNXD_OK)
      print_info("output", &info);
}

static void print_tensor(const onnxd_tensor *t) {
  printf("%s %s [", t->name, onnxd_dtype_name(t->dtype));
  long long n = 1;
  for (int d = 0; d < t->rank; ++d) {
    printf(d ? ",%lld" : "%lld", (long long)t->shape[d]);
    n *= t->shape[d];
  }
  printf("]:");
  for (long long i = 0; i < n; ++i) {
    if (t->dtype == ONNXD_FLOAT)
      printf(" %g", ((const float *)t->data)[i]);
    else if (t->dtype == ONNXD_INT64)
      printf(" %lld", (long long)((const long long *)t->data)[i]);
  }
  printf("\n");
}

/* Runs the add model with the given tensors and prints what comes back. */
static void run_add(onnxd_model *m, const onnxd_tensor *in, size_t n) {
  onnxd_tensor *out[3];
  onnxd_status s = onnxd_run(m, in, n, out, 3);
  if (s != ONNXD_OK) {
    printf("error %d: %s\n", (int)s, onnxd_last_error());
    return;
  }
  for (int i = 0; i < 3; ++i) {
    print_tensor(out[i]);
    onnxd_tensor_free(out[i]);
  }
}

static void exercise_add(onnxd_model *m) {
  describe(m);
  float a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  float b[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  int64_t shape[2] = {2, 4};
  onnxd_tensor in[2] = {{"b", ONNXD_FLOAT, 2, shape, b},
                        {"a", ONNXD_FLOAT, 2, shape, a}};
  run_add(m, in, 2);

  /* Unnamed inputs go in signature order. */
  onnxd_tensor unnamed[2] = {{NULL, ONNXD_FLOAT, 2, shape, a},
                             {NULL, ONNXD_FLOAT, 2, shape, b}};
  run_add(m, unnamed, 2);

  /* Bad inputs: missing, unknown, dtype, rank, static dim, dim_param. */
  run_add(m, in, 1);
  onnxd_tensor unknown[2] = {{"a", ONNXD_FLOAT, 2, shape, a},
                             {"bb", ONNXD_FLOAT, 2, shape, b}};
  run_add(m, unknown, 2);
  onnxd_tensor dtype[2] = {{"a", ONNXD_INT32, 2, shape, a},
                           {"b", ONNXD_FLOAT, 2, shape, b}};
  run_add(m, dtype, 2);
  onnxd_tensor rank[2] = {{"a", ONNXD_FLOAT, 1, shape, a},
                          {"b", ONNXD_FLOAT, 2, shape, b}};
  run_add(m, rank, 2);
  int64_t wide[2] = {2, 8};
  onnxd_tensor dim[2] = {{"a", ONNXD_FLOAT, 2, shape, a},
                         {"b", ONNXD_FLOAT, 2, wide, b}};
  run_add(m, dim, 2);
  int64_t one[2] = {1, 4};
  onnxd_tensor param[2] = {{"a", ONNXD_FLOAT, 2, shape, a},
                           {"b", ONNXD_FLOAT, 2, one, b}};
  run_add(m, param, 2);
  onnxd_tensor *out[1];
  onnxd_status s = onnxd_run(m, in, 2, out, 1);
  printf("status %d: %s\n", (int)s, onnxd_last_error());
}

/* Runs the add model into the caller's tensors: y (a dynamic shape: copied
 * there after the run) and c (static: computed in place); a_copy comes back
 * new. Then provided tensors that do not fit. */
static void exercise_into(onnxd_model *m) {
  float a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  float b[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  int64_t shape[2] = {2, 4};
  onnxd_tensor in[2] = {{"a", ONNXD_FLOAT, 2, shape, a},
                        {"b", ONNXD_FLOAT, 2, shape, b}};
  float y[8] = {0};
  long long c[2] = {0, 0};
  int64_t two = 2;
  onnxd_tensor yt = {"y", ONNXD_FLOAT, 2, shape, y};
  onnxd_tensor ct = {"c", ONNXD_INT64, 1, &two, c};
  onnxd_tensor *out[3] = {&yt, NULL, &ct};
  onnxd_status s = onnxd_run_into(m, in, 2, out, 3);
  if (s != ONNXD_OK) {
    printf("error %d: %s\n", (int)s, onnxd_last_error());
    return;
  }
  printf("same tensors: %d %d\n", out[0] == &yt, out[2] == &ct);
  for (int i = 0; i < 3; ++i)
    print_tensor(out[i]);
  onnxd_tensor_free(out[1]);

  onnxd_tensor ci = {"c", ONNXD_INT32, 1, &two, c};
  onnxd_tensor *wrong[3] = {NULL, NULL, &ci};
  s = onnxd_run_into(m, in, 2, wrong, 3);
  printf("status %d: %s\n", (int)s, onnxd_last_error());
  int64_t three = 3;
  onnxd_tensor c3 = {"c", ONNXD_INT64, 1, &three, c};
  wrong[2] = &c3;
  s = onnxd_run_into(m, in, 2, wrong, 3);
  printf("status %d: %s\n", (int)s, onnxd_last_error());
  /* y's shape is known only after the run. */
  int64_t one[2] = {1, 4};
  onnxd_tensor y1 = {"y", ONNXD_FLOAT, 2, one, y};
  onnxd_tensor *late[3] = {&y1, NULL, NULL};
  s = onnxd_run_into(m, in, 2, late, 3);
  printf("status %d: %s; slots %d %d\n", (int)s, onnxd_last_error(),
         late[0] == &y1, late[1] == NULL);
  /* A provided shape with a negative dim. */
  int64_t negative[2] = {-1, 4};
  onnxd_tensor yn = {"y", ONNXD_FLOAT, 2, negative, y};
  onnxd_tensor *bad[3] = {&yn, NULL, NULL};
  s = onnxd_run_into(m, in, 2, bad, 3);
  printf("status %d: %s\n", (int)s, onnxd_last_error());
  /* An output written over an input, or over another output. */
  onnxd_tensor over = {"y", ONNXD_FLOAT, 2, shape, b};
  onnxd_tensor *aliased[3] = {&over, NULL, NULL};
  s = onnxd_run_into(m, in, 2, aliased, 3);
  printf("status %d: %s\n", (int)s, onnxd_last_error());
  onnxd_tensor y2 = {"a_copy", ONNXD_FLOAT, 2, shape, y};
  onnxd_tensor *twice[3] = {&yt, &y2, NULL};
  s = onnxd_run_into(m, in, 2, twice, 3);
  printf("status %d: %s\n", (int)s, onnxd_last_error());
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s add.mlir assert.mlir out.so\n", argv[0]);
    return 2;
  }
  onnxd_model *m;
  onnxd_options options;
  onnxd_options_init(&options);

  printf("== jit\n");
  if (onnxd_compile(argv[1], &options, &m) != ONNXD_OK) {
    printf("compile failed: %s\n", onnxd_last_error());
    return 1;
  }
  exercise_add(m);
  printf("== into\n");
  exercise_into(m);
  onnxd_model_free(m);

  printf("== assert\n");
  if (onnxd_compile(argv[2], NULL, &m) != ONNXD_OK) {
    printf("compile failed: %s\n", onnxd_last_error());
    return 1;
  }
  float x[3] = {1, 2, 3}, y[2] = {4, 5};
  int64_t three = 3, two = 2;
  onnxd_tensor in[2] = {{"a", ONNXD_FLOAT, 1, &three, x},
                        {"b", ONNXD_FLOAT, 1, &two, y}};
  onnxd_tensor *out[1];
  onnxd_status s = onnxd_run(m, in, 2, out, 1);
  printf("status %d: %s\n", (int)s, onnxd_last_error());
  /* The model still runs after a failed check. */
  in[1].shape = &three;
  float z[3] = {4, 5, 6};
  in[1].data = z;
  if (onnxd_run(m, in, 2, out, 1) == ONNXD_OK) {
    print_tensor(out[0]);
    onnxd_tensor_free(out[0]);
  }
  onnxd_model_free(m);

  printf("== aot\n");
  if (onnxd_emit(argv[1], &options, ONNXD_EMIT_SHARED, argv[3]) != ONNXD_OK) {
    printf("emit failed: %s\n", onnxd_last_error());
    return 1;
  }
  if (onnxd_load(argv[3], &m) != ONNXD_OK) {
    printf("load failed: %s\n", onnxd_last_error());
    return 1;
  }
  exercise_add(m);
  exercise_into(m);
  onnxd_model_free(m);

  printf("== errors\n");
  s = onnxd_compile("no-such.onnx", NULL, &m);
  printf("status %d: %s\n", (int)s, onnxd_last_error());
  s = onnxd_load("no-such.so", &m);
  printf("status %d: %s\n", (int)s, onnxd_last_error());
  return 0;
}
