/* A communicator of the application's own (onnxd_mpi_set_comm): the ranks of
 * the job split into GROUPS groups (MPI_Comm_split by rank % GROUPS), each of
 * which compiles and runs its own copy of a multi-device model; the first
 * rank of each group prints the sum of the output.
 *   mpirun -np N onnxd-mpi-comm-test MODEL CONFIG GROUPS   (see mpirun.test)
 * MPI_Comm_split comes from the libmpi the runtime opened (Open MPI's ABI),
 * so that this program needs no MPI headers. */

#include "OnnxDialect/Runtime/OnnxRuntime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static int failed(const char *what) {
  fprintf(stderr, "%s: %s\n", what, onnxd_last_error());
  onnxd_mpi_abort(1);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: onnxd-mpi-comm-test MODEL CONFIG GROUPS\n");
    return 2;
  }
  int groups = atoi(argv[3]);
  int rank = 0, size = 0;
  if (onnxd_mpi_init(&rank, &size) != ONNXD_OK)
    return failed("onnxd_mpi_init");
  if (groups > 1) {
    void *mpi = dlopen("libmpi.so.40", RTLD_NOW | RTLD_GLOBAL);
    int (*split)(void *, int, int, void **) =
        mpi ? (int (*)(void *, int, int, void **))dlsym(mpi, "MPI_Comm_split")
            : NULL;
    void *world = mpi ? dlsym(mpi, "ompi_mpi_comm_world") : NULL;
    void *group = NULL;
    if (!split || !world || split(world, rank % groups, rank, &group) != 0) {
      fprintf(stderr, "MPI_Comm_split failed\n");
      onnxd_mpi_abort(1);
    }
    if (onnxd_mpi_set_comm(group) != ONNXD_OK)
      return failed("onnxd_mpi_set_comm");
  }
  int local = 0, local_size = 0;
  if (onnxd_mpi_init(&local, &local_size) != ONNXD_OK)
    return failed("onnxd_mpi_init");

  onnxd_options options;
  onnxd_options_init(&options);
  options.device_config = argv[2];
  onnxd_model *model = NULL;
  if (onnxd_compile(argv[1], &options, &model) != ONNXD_OK)
    return failed("onnxd_compile");

  onnxd_value_info info;
  if (onnxd_model_input(model, 0, &info) != ONNXD_OK)
    return failed("onnxd_model_input");
  long long n = 1;
  for (int d = 0; d < info.rank; ++d)
    n *= info.dims[d];
  float *x = malloc(sizeof(float) * (size_t)n);
  for (long long i = 0; i < n; ++i)
    x[i] = (float)(i % 7) * 0.25f - 0.75f;
  onnxd_tensor input = {info.name, ONNXD_FLOAT, info.rank, info.dims, x};
  onnxd_tensor *output = NULL;
  if (onnxd_run(model, &input, 1, &output, 1) != ONNXD_OK)
    return failed("onnxd_run");
  if (local == 0) {
    long long m = 1;
    for (int d = 0; d < output->rank; ++d)
      m *= output->shape[d];
    double sum = 0;
    for (long long i = 0; i < m; ++i)
      sum += ((const float *)output->data)[i];
    printf("group %d of %d ranks: sum %.2f\n", rank % (groups > 1 ? groups : 1),
           local_size, sum);
  }
  onnxd_tensor_free(output);
  free(x);
  onnxd_model_free(model);
  return 0;
}
