//===- MPI.cpp - Joining an MPI job, libmpi opened at run time ------------===//
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A model compiled for a device configuration (docs/multi-device.md) calls
// Open MPI's C API. The runtime opens libmpi with dlopen (RTLD_GLOBAL, so
// that the compiled code's MPI symbols resolve to it) only when a model asks
// for it: the library has no link-time MPI dependency, and a process that
// runs single-device models never loads MPI. Open MPI's handles
// (MPI_COMM_WORLD, MPI_BYTE, ...) are addresses of its predefined objects.
//
//===----------------------------------------------------------------------===//

#include "OnnxDialect/Runtime/OnnxRuntime.h"
#include "Runtime.h"

#include <climits>
#include <cstdlib>
#include <dlfcn.h>
#include <string>

using namespace mlir::onnx::runtime;

namespace {

struct MPIApi {
  void *handle = nullptr;
  int (*initialized)(int *) = nullptr;
  int (*initThread)(int *, char ***, int, int *) = nullptr;
  int (*finalized)(int *) = nullptr;
  int (*finalize)() = nullptr;
  int (*commRank)(void *, int *) = nullptr;
  int (*commSize)(void *, int *) = nullptr;
  int (*bcast)(void *, int, void *, int, void *) = nullptr;
  int (*allgather)(const void *, int, void *, void *, int, void *,
                   void *) = nullptr;
  int (*abort)(void *, int) = nullptr;
  int (*commSplit)(void *, int, int, void **) = nullptr;
  void *world = nullptr, *byteType = nullptr, *longType = nullptr;
  /// The communicator models run on: the world unless the application set
  /// one (onnxd_mpi_set_comm). rank and size are this process's in it.
  void *comm = nullptr;
  int rank = -1, size = 0;
};

MPIApi &api() {
  static MPIApi mpi;
  return mpi;
}

void finalizeAtExit() {
  MPIApi &mpi = api();
  int done = 0;
  if (mpi.finalized && mpi.finalized(&done) == 0 && !done)
    mpi.finalize();
}

template <typename T> bool bind(void *handle, const char *name, T &fn) {
  fn = reinterpret_cast<T>(dlsym(handle, name));
  return fn != nullptr;
}

} // namespace

bool mlir::onnx::runtime::joinMPI(int &rank, int &size, std::string &error) {
  MPIApi &mpi = api();
  if (mpi.rank >= 0) {
    rank = mpi.rank;
    size = mpi.size;
    return true;
  }
  if (!mpi.handle) {
    for (const char *name : {kMPILibrary, "libmpi.so"})
      if ((mpi.handle = dlopen(name, RTLD_NOW | RTLD_GLOBAL)))
        break;
    if (!mpi.handle) {
      const char *msg = dlerror();
      error = std::string("cannot load Open MPI (") + kMPILibrary +
              "): " + (msg ? msg : "unknown error") +
              "; install libopenmpi3 (Debian) to run multi-device models";
      return false;
    }
  }
  void *h = mpi.handle;
  bool ok = bind(h, "MPI_Initialized", mpi.initialized) &&
            bind(h, "MPI_Init_thread", mpi.initThread) &&
            bind(h, "MPI_Finalized", mpi.finalized) &&
            bind(h, "MPI_Finalize", mpi.finalize) &&
            bind(h, "MPI_Comm_rank", mpi.commRank) &&
            bind(h, "MPI_Comm_size", mpi.commSize) &&
            bind(h, "MPI_Bcast", mpi.bcast) &&
            bind(h, "MPI_Allgather", mpi.allgather) &&
            bind(h, "MPI_Abort", mpi.abort) &&
            bind(h, "MPI_Comm_split", mpi.commSplit);
  mpi.world = dlsym(h, "ompi_mpi_comm_world");
  mpi.byteType = dlsym(h, "ompi_mpi_byte");
  mpi.longType = dlsym(h, "ompi_mpi_long");
  if (!ok || !mpi.world || !mpi.byteType || !mpi.longType) {
    error = std::string(kMPILibrary) +
            " is not Open MPI (the compiled code follows Open MPI's ABI)";
    return false;
  }
  int initialized = 0;
  mpi.initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    // MPI_THREAD_FUNNELED (1): only the thread that runs the model calls MPI.
    if (mpi.initThread(nullptr, nullptr, 1, &provided) != 0) {
      error = "MPI_Init_thread failed";
      return false;
    }
    std::atexit(finalizeAtExit);
  }
  mpi.comm = mpi.world;
  if (mpi.commRank(mpi.comm, &mpi.rank) != 0 ||
      mpi.commSize(mpi.comm, &mpi.size) != 0) {
    error = "MPI_Comm_rank/MPI_Comm_size failed";
    return false;
  }
  rank = mpi.rank;
  size = mpi.size;
  return true;
}

extern "C" {

onnxd_status onnxd_mpi_init(int *rank, int *size) {
  int r = 0, s = 0;
  std::string error;
  if (!joinMPI(r, s, error))
    return fail(ONNXD_IO_ERROR, error);
  if (rank)
    *rank = r;
  if (size)
    *size = s;
  return ONNXD_OK;
}

onnxd_status onnxd_mpi_bcast(void *data, size_t bytes, int root) {
  MPIApi &mpi = api();
  if (mpi.rank < 0)
    return fail(ONNXD_INVALID_ARGUMENT,
                "onnxd_mpi_bcast: onnxd_mpi_init was not called");
  char *p = static_cast<char *>(data);
  while (bytes) {
    int n = bytes > size_t(INT_MAX) ? INT_MAX : int(bytes);
    if (mpi.bcast(p, n, mpi.byteType, root, mpi.comm) != 0)
      return fail(ONNXD_RUNTIME_ERROR, "MPI_Bcast failed");
    p += n;
    bytes -= n;
  }
  return ONNXD_OK;
}

onnxd_status onnxd_mpi_allgather_long(long value, long *all) {
  MPIApi &mpi = api();
  if (mpi.rank < 0)
    return fail(ONNXD_INVALID_ARGUMENT,
                "onnxd_mpi_allgather_long: onnxd_mpi_init was not called");
  if (mpi.allgather(&value, 1, mpi.longType, all, 1, mpi.longType, mpi.comm) !=
      0)
    return fail(ONNXD_RUNTIME_ERROR, "MPI_Allgather failed");
  return ONNXD_OK;
}

onnxd_status onnxd_mpi_set_comm(void *comm) {
  int r = 0, s = 0;
  std::string error;
  if (!joinMPI(r, s, error))
    return fail(ONNXD_IO_ERROR, error);
  MPIApi &mpi = api();
  void *next = comm ? comm : mpi.world;
  int rank = -1, size = 0;
  if (mpi.commRank(next, &rank) != 0 || mpi.commSize(next, &size) != 0 ||
      rank < 0 || size < 1)
    return fail(ONNXD_INVALID_ARGUMENT,
                "onnxd_mpi_set_comm: not a communicator this process is in");
  mpi.comm = next;
  mpi.rank = rank;
  mpi.size = size;
  return ONNXD_OK;
}

/// What compiled multi-device code calls for a gather (onnx-shard-specialize):
/// every rank's `send` bytes, in rank order, into `recv` (size times as
/// many), over the model's communicator. The two buffers are memref<?xi8>
/// descriptors, expanded. A failure ends the run (onnxd_rt_fail).
void onnxd_rt_allgather(void *sendAllocated, char *sendAligned,
                        int64_t sendOffset, int64_t sendSize,
                        int64_t sendStride, void *recvAllocated,
                        char *recvAligned, int64_t recvOffset, int64_t recvSize,
                        int64_t recvStride) {
  MPIApi &mpi = api();
  static thread_local std::string message;
  if (mpi.rank < 0) {
    onnxd_rt_fail("all-gather: the process has not joined MPI");
    return;
  }
  if (sendStride != 1 || recvStride != 1 || sendSize < 0 ||
      recvSize != sendSize * mpi.size || sendSize > INT_MAX) {
    message = "all-gather: " + std::to_string(sendSize) +
              " bytes a rank into " + std::to_string(recvSize) + " over " +
              std::to_string(mpi.size) +
              " ranks (a bug of the compiled code, or more than 2^31-1 bytes)";
    onnxd_rt_fail(message.c_str());
    return;
  }
  if (mpi.allgather(sendAligned + sendOffset, int(sendSize), mpi.byteType,
                    recvAligned + recvOffset, int(sendSize), mpi.byteType,
                    onnxd_mpi_comm()) != 0)
    onnxd_rt_fail("all-gather: MPI_Allgather failed");
}

/// What compiled code calls where upstream's lowering calls MPI_Comm_split
/// (a collective over some axes of a grid of several, onnx-fix-openmpi-
/// symbols): the split is made on the call site's first run and kept in the
/// site's `slot` (the communicator it was split from, and the result), so
/// that a model run many times makes it once. Every rank runs the same
/// sites in the same order, so every rank makes the split together, and
/// again when the application gives the runtime another communicator.
int onnxd_rt_comm_split(void *comm, int color, int key, void **newcomm,
                        void **slot) {
  MPIApi &mpi = api();
  if (!mpi.commSplit) {
    onnxd_rt_fail("communicator split: the process has not joined MPI");
    return 1;
  }
  if (slot[0] == comm && slot[1]) {
    *newcomm = slot[1];
    return 0;
  }
  int rc = mpi.commSplit(comm, color, key, newcomm);
  if (rc != 0)
    return rc;
  slot[0] = comm;
  slot[1] = *newcomm;
  return 0;
}

/// onnxd_rt_allgather among the ranks of one group of the model's
/// communicator (those of one `color`, in `key` order): what a gather over
/// some axes of a grid of several calls. The group's communicator is split
/// once per call site (`slot`, as onnxd_rt_comm_split).
void onnxd_rt_allgather_group(void *sendAllocated, char *sendAligned,
                              int64_t sendOffset, int64_t sendSize,
                              int64_t sendStride, void *recvAllocated,
                              char *recvAligned, int64_t recvOffset,
                              int64_t recvSize, int64_t recvStride,
                              int64_t color, int64_t key, void **slot) {
  MPIApi &mpi = api();
  if (mpi.rank < 0) {
    onnxd_rt_fail("all-gather: the process has not joined MPI");
    return;
  }
  void *group = nullptr;
  if (color < 0 || color > INT_MAX || key < 0 || key > INT_MAX ||
      onnxd_rt_comm_split(onnxd_mpi_comm(), int(color), int(key), &group,
                          slot) != 0) {
    onnxd_rt_fail("all-gather: MPI_Comm_split failed");
    return;
  }
  int groupSize = 0;
  mpi.commSize(group, &groupSize);
  static thread_local std::string message;
  if (sendStride != 1 || recvStride != 1 || sendSize < 0 ||
      recvSize != sendSize * groupSize || sendSize > INT_MAX) {
    message = "all-gather: " + std::to_string(sendSize) +
              " bytes a rank into " + std::to_string(recvSize) + " over " +
              std::to_string(groupSize) +
              " ranks (a bug of the compiled code, or more than 2^31-1 bytes)";
    onnxd_rt_fail(message.c_str());
    return;
  }
  if (mpi.allgather(sendAligned + sendOffset, int(sendSize), mpi.byteType,
                    recvAligned + recvOffset, int(sendSize), mpi.byteType,
                    group) != 0)
    onnxd_rt_fail("all-gather: MPI_Allgather failed");
}

void *onnxd_mpi_comm(void) {
  MPIApi &mpi = api();
  return mpi.comm ? mpi.comm : mpi.world;
}

void onnxd_mpi_abort(int code) {
  MPIApi &mpi = api();
  if (mpi.abort && mpi.rank >= 0 && mpi.size > 1)
    mpi.abort(mpi.comm, code);
  std::exit(code);
}

} // extern "C"
