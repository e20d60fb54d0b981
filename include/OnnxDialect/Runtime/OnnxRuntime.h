/*===- OnnxRuntime.h - Compile, load and run ONNX models (C API) --*- C -*-===//
 *
 * Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 * The runtime of OnnxDialect as a plain C API (docs/runtime.md has examples).
 *
 *   onnxd_model *m;
 *   if (onnxd_compile("model.onnx", NULL, &m) != ONNXD_OK)   // or onnxd_load
 *     fprintf(stderr, "%s\n", onnxd_last_error());
 *   onnxd_tensor in = {"x", ONNXD_FLOAT, 2, shape, data};
 *   onnxd_tensor *out[1];
 *   if (onnxd_run(m, &in, 1, out, 1) == ONNXD_OK) {
 *     ... out[0]->data ...
 *     onnxd_tensor_free(out[0]);
 *   }
 *   onnxd_model_free(m);
 *
 * Errors. Every function that can fail returns an onnxd_status; on failure
 * onnxd_last_error() returns a message that says what went wrong (naming the
 * file, the input and what was expected). The message lives in thread-local
 * storage: it stays valid until the next failing call on the same thread.
 *
 * Ownership. Nothing is shared implicitly:
 *  - an onnxd_model belongs to the caller of onnxd_compile/onnxd_load and is
 *    released with onnxd_model_free; the onnxd_value_info it describes its
 *    inputs and outputs with (names, dims, dim_params) point into it;
 *  - inputs of onnxd_run are borrowed for the duration of the call (the
 *    compiled code never writes to them and keeps no pointer to them);
 *  - every output tensor is allocated by the runtime and owned by the caller,
 *    who frees it (shape, name and data together) with onnxd_tensor_free.
 *
 * Threads. A model may be run from several threads at once. Compiled code
 * with num_threads > 1 runs its outermost parallel loops on an OpenMP team
 * of that many threads.
 *
 *===----------------------------------------------------------------------===*/

#ifndef ONNXDIALECT_RUNTIME_ONNXRUNTIME_H
#define ONNXDIALECT_RUNTIME_ONNXRUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The result of every call that can fail. */
typedef enum onnxd_status {
  ONNXD_OK = 0,
  /** A bad argument: a missing or unknown input, a wrong element type, rank
   *  or dimension, a NULL pointer, an option out of range. */
  ONNXD_INVALID_ARGUMENT = 1,
  /** The model could not be read, imported, lowered or compiled. */
  ONNXD_COMPILE_ERROR = 2,
  /** A file could not be read or written (the model, a .so, an output). */
  ONNXD_IO_ERROR = 3,
  /** A check inside the compiled code failed during a run (for example, a
   *  broadcast of two dynamic dims that differ, an index out of range). */
  ONNXD_RUNTIME_ERROR = 4,
  /** The model uses something the compiler does not support yet (an element
   *  type, a map input, ...). */
  ONNXD_UNSUPPORTED = 5,
} onnxd_status;

/** Element types: the codes of ONNX's TensorProto.DataType. */
enum {
  ONNXD_UNDEFINED = 0,
  ONNXD_FLOAT = 1,
  ONNXD_UINT8 = 2,
  ONNXD_INT8 = 3,
  ONNXD_UINT16 = 4,
  ONNXD_INT16 = 5,
  ONNXD_INT32 = 6,
  ONNXD_INT64 = 7,
  ONNXD_STRING = 8,
  ONNXD_BOOL = 9, /* one byte per element, 0 or 1 */
  ONNXD_FLOAT16 = 10,
  ONNXD_DOUBLE = 11,
  ONNXD_UINT32 = 12,
  ONNXD_UINT64 = 13,
  ONNXD_COMPLEX64 = 14,
  ONNXD_COMPLEX128 = 15,
  ONNXD_BFLOAT16 = 16,
  /* The float8 types: one byte per element, the ONNX bit pattern. */
  ONNXD_FLOAT8E4M3FN = 17,
  ONNXD_FLOAT8E4M3FNUZ = 18,
  ONNXD_FLOAT8E5M2 = 19,
  ONNXD_FLOAT8E5M2FNUZ = 20,
  /* The sub-byte types are NOT packed here: one byte per element, the value
   * in the low 4 (2) bits. Outputs have int4/int2 sign-extended to the whole
   * byte (an int8_t holding -8..7 / -2..1) and the high bits of the others
   * cleared; inputs only need the low bits right. */
  ONNXD_UINT4 = 21,
  ONNXD_INT4 = 22,
  ONNXD_FLOAT4E2M1 = 23,
  ONNXD_FLOAT8E8M0 = 24,
  ONNXD_UINT2 = 25,
  ONNXD_INT2 = 26,
};

/** A dense tensor in row-major (C) order.
 *  As an input: `name` selects the graph input (or NULL or "" for all inputs,
 * which then go in the order of the signature); `shape` and `data` are
 * borrowed. As an output: everything is owned by the caller
 * (onnxd_tensor_free). */
typedef struct onnxd_tensor {
  const char *name;
  int32_t dtype; /* ONNX TensorProto.DataType */
  int32_t rank;
  const int64_t *shape; /* `rank` sizes */
  void *data;           /* product(shape) elements of dtype */
} onnxd_tensor;

/** Kinds of values (docs/runtime.md, "Values"). */
typedef enum onnxd_kind {
  ONNXD_KIND_TENSOR = 0,
  ONNXD_KIND_SEQUENCE = 1,
  ONNXD_KIND_MAP = 2,
  ONNXD_KIND_OPTIONAL = 3,
} onnxd_kind;

/** A value of any kind, for onnxd_run_values.
 *  - TENSOR: `tensor` (its name is not used).
 *  - SEQUENCE: `elements[0..num_elements)`, values of the element kind.
 *  - OPTIONAL: no value when num_elements is 0, else elements[0].
 *  - MAP: `tensor` holds the keys (1-D, int64 or string), elements[i] the
 *    value of key i (num_elements = number of keys).
 *  String tensors (dtype ONNXD_STRING) hold `const char *` per element:
 *  NUL-terminated UTF-8.
 *  As an input everything is borrowed; as an output everything is owned by
 *  the caller and released with onnxd_value_free. */
typedef struct onnxd_value {
  const char *name; /* top level only: the graph input/output */
  int32_t kind;     /* onnxd_kind */
  onnxd_tensor tensor;
  size_t num_elements;
  struct onnxd_value *elements;
} onnxd_value;

/** A graph input or output as the model declares it. For a sequence,
 *  optional or map, dtype/rank/dims/dim_params describe the tensors it
 *  holds (rank -1 when unknown) and `type` spells the whole type. */
typedef struct onnxd_value_info {
  const char *name;
  int32_t dtype;
  int32_t rank;
  /** `rank` sizes; -1 for a dynamic dimension. */
  const int64_t *dims;
  /** `rank` names: the dim_param of each dimension, "" where it has none. */
  const char *const *dim_params;
  /** onnxd_kind of the value. */
  int32_t kind;
  /** ONNX's spelling of the type: "tensor(float)",
   *  "optional(seq(tensor(int64)))", ... */
  const char *type;
} onnxd_value_info;

/** What onnxd_emit writes. */
typedef enum onnxd_emit_kind {
  ONNXD_EMIT_MLIR = 0,   /* the module lowered to the LLVM dialect (text) */
  ONNXD_EMIT_LLVM = 1,   /* optimized LLVM IR (text) */
  ONNXD_EMIT_OBJECT = 2, /* a relocatable object for the host */
  ONNXD_EMIT_SHARED = 3, /* a shared library + a C header beside it (.h) */
  ONNXD_EMIT_PTX = 4,    /* device "cuda": the kernels' PTX (text) */
} onnxd_emit_kind;

/** Compilation options; initialize with onnxd_options_init. */
typedef struct onnxd_options {
  /** LLVM optimization level 0-3 (default 3). */
  int opt_level;
  /** Threads for the compiled code: 1 (default) compiles sequential code;
   *  more compiles the outermost parallel loops to OpenMP and runs them on
   *  that many threads (onnxd_model_set_num_threads changes it later). */
  int num_threads;
  /** The input format: NULL or "" guesses it from the file name (.onnx,
   *  .onnxtxt/.txt/.textproto: ONNX; .mlir/.mlirbc: MLIR at the onnx level
   *  or lower, with one public function, named by the module attribute
   *  `onnx.entry` when there are several). */
  const char *format;
  /** The CPU to compile for: NULL, "" or "host" is this machine; else an LLVM
   *  CPU name ("znver4", "sapphirerapids", "x86-64-v3", ...), for a library
   *  that runs elsewhere. */
  const char *target_cpu;
  /** LLVM target features added to the CPU's, "+avx512f,-amx-tile" (NULL or
   *  "": none). The vector width of the generated code follows them. */
  const char *target_features;
  /** 0 compiles without the CPU code-generation stage (scalar loops, for
   *  comparison); 1 (default) packs, tiles and vectorizes. */
  int codegen;
  /** 1 compiles timing probes around every kernel, named after the ONNX
   *  nodes it computes; runs then record one event per kernel, written by
   *  onnxd_model_write_profile. 0 (default): no probes. */
  int profile;
  /** A device configuration of the model (ONNX IR 11; NULL or "": none) to
   *  execute as one rank of an MPI job: the process joins Open MPI
   *  (onnxd_mpi_init) and compiles the program of its rank. The job's size
   *  must be the configuration's num_devices. docs/multi-device.md. */
  const char *device_config;
  /** With device_config and pipeline stages: split the batch (dim 0 of the
   *  inputs) into this many micro-batches that flow through the stages one
   *  after another, so that the stages overlap. 1 (default): one batch. */
  int micro_batches;
  /** Where the model runs: NULL, "" or "cpu" (default), or "cuda": kernels
   *  for an NVIDIA GPU (onnx-lower-to-nvvm, docs/gpu.md), run through the
   *  driver's libcuda.so.1, which is opened when the model first runs (a
   *  machine without a GPU compiles such models; running one is an error
   *  that says why). */
  const char *device;
  /** With device "cuda": the GPU architecture of the kernels, "sm_80",
   *  "sm_90", ... (NULL or "": sm_90). */
  const char *gpu_chip;
  /** 1 (default) places the statically shaped buffers of a CPU model in one
   *  arena planned at compile time by liveness, mapped when the code is
   *  loaded (onnx-plan-memory); 0 allocates each buffer on its own. */
  int memory_plan;
  /** 3x3 convolutions with unit strides through Winograd's minimal filtering
   *  F(m, 3) along their rows (onnx-cpu-pack-matmul, docs/architecture.md): 4
   *  (default) or 2; 0 computes them directly. Any other value is
   *  ONNXD_INVALID_ARGUMENT. */
  int winograd;
  /** 1 (default) computes convolutions, depthwise convolutions and pools on
   *  activations in the blocked layout [N, C/c0, H, W, c0], converted once
   *  between chains of them (onnx-cpu-blocked-layout, docs/architecture.md);
   *  0 keeps [N, C, H, W] around each of them. */
  int blocked_layout;
  /** With device "cuda": 1 computes f32 matrix products and convolutions on
   *  the tensor cores with TF32 operands (f32 rounded to 10-bit mantissas,
   *  accumulated in f32; sm_80 or newer), as PyTorch's allow_tf32 and ONNX
   *  Runtime's use_tf32 do. 0 (default): full f32. With device "cpu", 1 is
   *  ONNXD_INVALID_ARGUMENT. */
  int gpu_tf32;
} onnxd_options;

typedef struct onnxd_model onnxd_model;

/** Whether models compiled for `device` ("cpu" or "cuda") can run in this
 *  process: for "cuda", opens the NVIDIA driver (libcuda.so.1, or the
 *  library ONNXD_CUDA_DRIVER names) and its device ONNXD_CUDA_DEVICE (0).
 *  ONNXD_OK, or an error whose message says why not in one line. */
onnxd_status onnxd_device_check(const char *device);

/** Where a model's kernels run: "cpu" or "cuda". */
const char *onnxd_model_device(const onnxd_model *model);

/** A buffer on `device` ("cuda") holding a copy of the `bytes` bytes at
 *  `host` (uninitialized where `host` is NULL), for inputs that stay on the
 *  device across runs, as ONNX Runtime's IOBinding with CUDA OrtValues: a
 *  tensor whose data is such a buffer is read by a model on that device
 *  device to device instead of over the bus (weights given as inputs, an
 *  input reused by many runs). Managed memory prefetched to the device, so
 *  host code (and CPU models) may also read it, slowly. *buffer receives
 *  it; free it with onnxd_device_buffer_free. ONNXD_INVALID_ARGUMENT for
 *  another device, ONNXD_RUNTIME_ERROR without a GPU or memory. */
onnxd_status onnxd_device_buffer_create(const char *device, const void *host,
                                        size_t bytes, void **buffer);

/** Frees a buffer of onnxd_device_buffer_create (NULL: nothing);
 *  ONNXD_INVALID_ARGUMENT (nothing freed) for a pointer that is not a live
 *  one. */
onnxd_status onnxd_device_buffer_free(void *buffer);

/** Sets the defaults (opt_level 3, one thread, the host CPU, codegen on). */
void onnxd_options_init(onnxd_options *options);

/** The message of the last failed call on this thread ("" if none). */
const char *onnxd_last_error(void);

/** Compiles a model file in process (JIT) for the host CPU. `options` may be
 *  NULL. On success *model owns the compiled code. */
onnxd_status onnxd_compile(const char *path, const onnxd_options *options,
                           onnxd_model **model);

/** Compiles a model file ahead of time and writes `out_path` (see
 *  onnxd_emit_kind). ONNXD_EMIT_SHARED also writes the header next to the
 *  library (model.so -> model.h) declaring the C entry point. */
onnxd_status onnxd_emit(const char *path, const onnxd_options *options,
                        onnxd_emit_kind kind, const char *out_path);

/** Loads a shared library written by onnxd_emit(..., ONNXD_EMIT_SHARED, ...)
 *  (or `onnx-run -o`); its signature is embedded in it. */
onnxd_status onnxd_load(const char *path, onnxd_model **model);

/** Multi-device runs (docs/multi-device.md). Open MPI is opened at run time
 *  (libmpi.so.40); the job is MPI_COMM_WORLD unless onnxd_mpi_set_comm
 *  names another communicator. onnxd_mpi_init joins it (once; later calls
 *  give the same answer): this process's rank and the job's size. */
onnxd_status onnxd_mpi_init(int *rank, int *size);
/** The communicator the models of this process run on, compile for and
 *  broadcast over: an Open MPI MPI_Comm handle (for example one from
 *  MPI_Comm_split, so that groups of ranks run separate copies of a model);
 *  NULL restores MPI_COMM_WORLD. Joins MPI if needed. From then on
 *  onnxd_mpi_init answers this process's rank and the size of `comm`; a model
 *  compiled for rank r of a configuration must run where this process is
 *  rank r of `comm`. */
onnxd_status onnxd_mpi_set_comm(void *comm);
/** The current communicator (compiled multi-device code calls this). */
void *onnxd_mpi_comm(void);
/** MPI_Bcast of `bytes` bytes from rank `root` (any size). */
onnxd_status onnxd_mpi_bcast(void *data, size_t bytes, int root);
/** Every rank's `value`, in rank order, into all[0 .. size-1]. */
onnxd_status onnxd_mpi_allgather_long(long value, long *all);
/** Ends the whole job (MPI_Abort when it has several ranks, so that no rank
 *  waits for one that failed), then this process, with `code`. */
void onnxd_mpi_abort(int code);

/** The bytes the model's collectives and point-to-point sends move per run
 *  on this rank (0 for a single-device model): the payload of each
 *  all-reduce and send, as compiled. */
long long onnxd_model_comm_bytes(const onnxd_model *model);

/** Releases a model (NULL is fine). Tensors it returned stay valid. */
void onnxd_model_free(onnxd_model *model);

/** The number of graph inputs / outputs. */
size_t onnxd_model_num_inputs(const onnxd_model *model);
size_t onnxd_model_num_outputs(const onnxd_model *model);

/** Describes input / output `index`; the strings and arrays stay valid while
 *  the model lives. */
onnxd_status onnxd_model_input(const onnxd_model *model, size_t index,
                               onnxd_value_info *info);
onnxd_status onnxd_model_output(const onnxd_model *model, size_t index,
                                onnxd_value_info *info);

/** Sets the number of threads of later runs (>= 1). Has no effect on a model
 *  compiled with num_threads = 1 (its code is sequential). */
onnxd_status onnxd_model_set_num_threads(onnxd_model *model, int num_threads);

/** Writes the kernel times recorded by the model's runs since it was
 *  compiled or loaded (or since the last call) to `path` as Chrome
 *  trace-event JSON, the format of ONNX Runtime's profiler (chrome://tracing,
 *  Perfetto): one "Node" event per kernel and run, named
 *  "<nodes>_kernel_time" with the op types in args.op_name, and one
 *  "Session" event "model_run" per run. The model must have been compiled
 *  with onnxd_options.profile = 1. *num_events (may be NULL) receives the
 *  number of events written. */
onnxd_status onnxd_model_write_profile(onnxd_model *model, const char *path,
                                       size_t *num_events);

/** Runs the model. `inputs` holds `num_inputs` tensors: all of the graph's
 *  inputs, by name (or all unnamed, in signature order). Each is checked
 *  against the signature (element type, rank, static dims, one size per
 *  dim_param across the inputs) before anything runs. On success
 *  outputs[0..num_outputs) receive new tensors owned by the caller;
 *  `num_outputs` must equal onnxd_model_num_outputs. On failure no output is
 *  returned (the slots are set to NULL). */
onnxd_status onnxd_run(onnxd_model *model, const onnxd_tensor *inputs,
                       size_t num_inputs, onnxd_tensor **outputs,
                       size_t num_outputs);

/** Runs the model like onnxd_run, into output tensors the caller provides
 *  (ONNX Runtime's output binding): a non-NULL outputs[i] is the caller's
 *  tensor for output i, of its element type and shape (dims known before
 *  the run must match; checked before anything runs) with data of that
 *  size that the caller owns. An output of static shape is computed
 *  directly into that data; one whose shape is known only after the run is
 *  copied there, and a shape that differs then fails the run. A NULL slot
 *  receives a new tensor owned by the caller, as with onnxd_run. Numeric
 *  tensors only, whose data shares no byte with an input's or another
 *  provided output's (an error). On failure the NULL slots stay NULL and the
 * provided tensors may have been written in part. */
onnxd_status onnxd_run_into(onnxd_model *model, const onnxd_tensor *inputs,
                            size_t num_inputs, onnxd_tensor **outputs,
                            size_t num_outputs);

/** Frees an output tensor (its shape, name and data). NULL is fine. */
void onnxd_tensor_free(onnxd_tensor *tensor);

/** Runs a model whose inputs or outputs may be sequences, optionals or
 *  (string) tensors; like onnxd_run otherwise (inputs by name or all
 *  unnamed; each checked against the signature: kind, element type, rank,
 *  static dims, recursively). Outputs are new values owned by the caller
 *  (onnxd_value_free). */
onnxd_status onnxd_run_values(onnxd_model *model, const onnxd_value *inputs,
                              size_t num_inputs, onnxd_value **outputs,
                              size_t num_outputs);

/** Frees an output value of onnxd_run_values and all it holds. NULL is
 *  fine. */
void onnxd_value_free(onnxd_value *value);

/** Bytes per element of `dtype` in this API (bool and the sub-byte types:
 *  1); 0 for strings and unknown codes. */
size_t onnxd_dtype_size(int32_t dtype);

/** The lowercase name numpy and ONNX's specification use: "float32",
 *  "int64", "bool", ... ("bfloat16", "float8e4m3fn", "int4", ... for the
 *  types numpy lacks: ml_dtypes' names); "undefined" for unknown codes. */
const char *onnxd_dtype_name(int32_t dtype);

/** Called by compiled code when a run-time check fails (the lowering of
 *  cf.assert). Ends the current onnxd_run with ONNXD_RUNTIME_ERROR and the
 *  message. Not for use by callers. */
void onnxd_rt_fail(const char *message);

/** Called by code compiled with onnxd_options.profile around each kernel:
 *  begin returns a timestamp, end records the kernel's event for the
 *  current run. Not for use by callers. */
int64_t onnxd_prof_begin(void);
void onnxd_prof_end(int64_t kernel, int64_t start);

#ifdef __cplusplus
}
#endif

#endif /* ONNXDIALECT_RUNTIME_ONNXRUNTIME_H */
