/* Values of every kind through the C API: a model with a sequence, an
 * optional and a string tensor among its inputs and outputs, run with
 * onnxd_run_values (JIT and ahead of time), bad kinds and element types,
 * a failed position check, and onnxd_run refusing such a model.
 *   onnxd-values-test values.mlir OUT.so   (see values.test) */

#include "OnnxDialect/Runtime/OnnxRuntime.h"

#include <stdio.h>
#include <string.h>

static void print_value(const onnxd_value *v, const char *name) {
  if (v->kind == ONNXD_KIND_SEQUENCE) {
    printf("%s: sequence of %zu\n", name, v->num_elements);
    for (size_t i = 0; i < v->num_elements; ++i)
      print_value(&v->elements[i], "  element");
    return;
  }
  if (v->kind == ONNXD_KIND_OPTIONAL) {
    if (!v->num_elements)
      printf("%s: none\n", name);
    else
      print_value(&v->elements[0], name);
    return;
  }
  const onnxd_tensor *t = &v->tensor;
  long long n = 1;
  printf("%s %s [", name, onnxd_dtype_name(t->dtype));
  for (int d = 0; d < t->rank; ++d) {
    printf(d ? ",%lld" : "%lld", (long long)t->shape[d]);
    n *= t->shape[d];
  }
  printf("]:");
  for (long long i = 0; i < n; ++i) {
    if (t->dtype == ONNXD_FLOAT)
      printf(" %g", ((const float *)t->data)[i]);
    else if (t->dtype == ONNXD_INT64)
      printf(" %lld", (long long)((const int64_t *)t->data)[i]);
    else if (t->dtype == ONNXD_BOOL)
      printf(" %d", ((const uint8_t *)t->data)[i]);
    else if (t->dtype == ONNXD_STRING)
      printf(" '%s'", ((const char *const *)t->data)[i]);
  }
  printf("\n");
}

static void describe(const onnxd_model *m) {
  onnxd_value_info info;
  for (size_t i = 0; i < onnxd_model_num_inputs(m); ++i)
    if (onnxd_model_input(m, i, &info) == ONNXD_OK)
      printf("input %s: kind %d %s rank %d\n", info.name, info.kind, info.type,
             info.rank);
  for (size_t i = 0; i < onnxd_model_num_outputs(m); ++i)
    if (onnxd_model_output(m, i, &info) == ONNXD_OK)
      printf("output %s: kind %d %s rank %d\n", info.name, info.kind, info.type,
             info.rank);
}

static onnxd_value tensor_value(const char *name, int32_t dtype, int32_t rank,
                                const int64_t *shape, void *data) {
  onnxd_value v;
  memset(&v, 0, sizeof(v));
  v.name = name;
  v.kind = ONNXD_KIND_TENSOR;
  v.tensor.dtype = dtype;
  v.tensor.rank = rank;
  v.tensor.shape = shape;
  v.tensor.data = data;
  return v;
}

static void run(onnxd_model *m, int64_t position, int with_optional,
                int32_t element_dtype) {
  float a[2] = {1, 2}, b[3] = {3, 4, 5}, x[1] = {9};
  int64_t sa[1] = {2}, sb[1] = {3}, sx[1] = {1}, s2[1] = {2};
  int64_t o[2] = {7, 8};
  const char *w[2] = {"ab", "c\xc3\xa9"};
  onnxd_value elements[2] = {tensor_value(NULL, element_dtype, 1, sa, a),
                             tensor_value(NULL, ONNXD_FLOAT, 1, sb, b)};
  onnxd_value opt_value = tensor_value(NULL, ONNXD_INT64, 1, s2, o);
  onnxd_value in[5];
  memset(&in[0], 0, sizeof(in[0]));
  in[0].name = "s";
  in[0].kind = ONNXD_KIND_SEQUENCE;
  in[0].num_elements = 2;
  in[0].elements = elements;
  in[1] = tensor_value("x", ONNXD_FLOAT, 1, sx, x);
  memset(&in[2], 0, sizeof(in[2]));
  in[2].name = "o";
  in[2].kind = ONNXD_KIND_OPTIONAL;
  in[2].num_elements = with_optional ? 1 : 0;
  in[2].elements = &opt_value;
  in[3] = tensor_value("w", ONNXD_STRING, 1, s2, (void *)w);
  in[4] = tensor_value("p", ONNXD_INT64, 0, NULL, &position);
  onnxd_value *out[5];
  onnxd_status s = onnxd_run_values(m, in, 5, out, 5);
  if (s != ONNXD_OK) {
    printf("error %d: %s\n", s, onnxd_last_error());
    return;
  }
  for (int i = 0; i < 5; ++i) {
    print_value(out[i], out[i]->name);
    onnxd_value_free(out[i]);
  }
}

static void exercise(onnxd_model *m) {
  describe(m);
  run(m, 2, 1, ONNXD_FLOAT);
  run(m, -3, 0, ONNXD_FLOAT);
  run(m, 3, 1, ONNXD_FLOAT); /* position out of range */
  run(m, 0, 1, ONNXD_INT32); /* wrong element type in the sequence */
  onnxd_tensor *outs[5];
  onnxd_status s = onnxd_run(m, NULL, 0, outs, 5);
  printf("status %d: %s\n", s, onnxd_last_error());
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  onnxd_model *m;
  printf("== jit\n");
  if (onnxd_compile(argv[1], NULL, &m) != ONNXD_OK) {
    printf("compile: %s\n", onnxd_last_error());
    return 1;
  }
  exercise(m);
  onnxd_model_free(m);
  printf("== aot\n");
  if (onnxd_emit(argv[1], NULL, ONNXD_EMIT_SHARED, argv[2]) != ONNXD_OK ||
      onnxd_load(argv[2], &m) != ONNXD_OK) {
    printf("aot: %s\n", onnxd_last_error());
    return 1;
  }
  exercise(m);
  onnxd_model_free(m);
  return 0;
}
