# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""InferenceSession, ahead-of-time compile/load and the MLIR-level functions."""

import os
import tempfile

import numpy as np

from . import _onnx_dialect as _native

# The types numpy lacks, as ml_dtypes spells them (when it is installed).
_ML_DTYPES = {16: "bfloat16", 17: "float8_e4m3fn", 18: "float8_e4m3fnuz",
              19: "float8_e5m2", 20: "float8_e5m2fnuz", 21: "uint4",
              22: "int4", 23: "float4_e2m1fn", 24: "float8_e8m0fnu",
              25: "uint2", 26: "int2"}
try:
    import ml_dtypes as _ml_dtypes
except ImportError:  # Debian 12 does not package it: bit patterns then.
    _ml_dtypes = None

_EMIT_KINDS = {"mlir": 0, "llvm": 1, "object": 2, "shared": 3, "ptx": 4}

# ONNX Runtime's execution providers and the devices they stand for.
_PROVIDERS = {"CPUExecutionProvider": "cpu", "CUDAExecutionProvider": "cuda"}
_PROVIDER_OF = {d: p for p, d in _PROVIDERS.items()}


def _device(device, providers):
    """The device a session runs on: `device`, or the first provider's."""
    names = [p[0] if isinstance(p, (tuple, list)) else p
             for p in providers or []]
    for name in names:
        if name not in _PROVIDERS:
            raise _native.Unsupported(
                "provider %r: CPUExecutionProvider and CUDAExecutionProvider "
                "are supported" % (name,))
    if device is None:
        device = _PROVIDERS[names[0]] if names else "cpu"
    device = str(device).lower()
    if device not in _PROVIDER_OF:
        raise _native.Unsupported(
            "device %r: 'cpu' and 'cuda' are supported" % (device,))
    return device


def _gpu_tf32(gpu_tf32, device, providers):
    """Whether a session computes f32 products with TF32 on the tensor cores:
    `gpu_tf32`, else the CUDAExecutionProvider's option use_tf32 (as ONNX
    Runtime's providers=[("CUDAExecutionProvider", {"use_tf32": 1})]) on
    device cuda, else no. (An explicit gpu_tf32 on the CPU is the compiler's
    error.)"""
    if gpu_tf32 is not None:
        return bool(gpu_tf32)
    for p in providers or []:
        if (device == "cuda" and isinstance(p, (tuple, list)) and len(p) > 1
                and p[0] == "CUDAExecutionProvider"
                and isinstance(p[1], dict) and "use_tf32" in p[1]):
            return str(p[1]["use_tf32"]).lower() not in ("0", "false")
    return False


class OrtValue:
    """A tensor to feed to run(), as onnxruntime.OrtValue.
    ortvalue_from_numpy(array, "cuda") copies the array to the GPU once
    (onnxd_device_buffer_create): runs of a session on device cuda given it
    read it on the device instead of copying it over the bus each time (a
    model's weights as inputs, an input reused by many runs). "cpu" keeps
    the array. The device memory is freed with the value."""

    def __init__(self, value, device):
        self._value = value
        self._device = device

    @staticmethod
    def ortvalue_from_numpy(array, device_type="cpu", device_id=0):
        device = str(device_type).lower()
        if device not in _PROVIDER_OF:
            raise _native.Unsupported(
                "device %r: 'cpu' and 'cuda' are supported" % (device_type,))
        if device_id != 0:
            raise _native.Unsupported(
                "device_id %r: the GPU is chosen by ONNXD_CUDA_DEVICE "
                "(docs/gpu.md); pass 0" % (device_id,))
        array = np.asarray(array)
        if device == "cpu":
            return OrtValue(array, device)
        return OrtValue(_native.DeviceTensor(array, device), device)

    def device_name(self):
        return self._device

    def shape(self):
        return list(self._value.shape)

    def is_tensor(self):
        return True

    def numpy(self):
        """A host copy of the tensor."""
        if self._device == "cpu":
            return self._value
        return self._value.numpy()


class NodeArg:
    """A graph input or output, as onnxruntime.NodeArg describes it."""

    def __init__(self, info):
        self.name = info.name
        self.type = info.type
        if info.rank < 0:
            self.shape = None
        else:
            self.shape = [p if p else (d if d >= 0 else None)
                          for d, p in zip(info.dims, info.dim_params)]
        self.dtype = info.dtype  # ONNX TensorProto.DataType code

    def __repr__(self):
        return "NodeArg(name=%r, type=%r, shape=%r)" % (
            self.name, self.type, self.shape)


def _model_path(model, tmpdir):
    """A file name for `model` (a path, bytes or an onnx.ModelProto)."""
    if isinstance(model, (str, os.PathLike)):
        return os.fspath(model)
    if isinstance(model, (bytes, bytearray, memoryview)):
        data = bytes(model)
    elif hasattr(model, "SerializeToString"):
        data = model.SerializeToString()
    else:
        raise TypeError("model: a path, bytes or an onnx.ModelProto, not %s"
                        % type(model).__name__)
    path = os.path.join(tmpdir, "model.onnx")
    with open(path, "wb") as f:
        f.write(data)
    return path


def _threads(threads, sess_options):
    if threads is None and sess_options is not None:
        threads = getattr(sess_options, "intra_op_num_threads", 0) or None
    return 1 if threads is None else int(threads)


class InferenceSession:
    """Compiles a model (JIT, for this CPU or a GPU) and runs it.

    model: a file name (.onnx, .onnxtxt, .mlir), the model's bytes or an
    onnx.ModelProto. threads: the compiled code's threads (1: sequential).
    device: "cpu" (the default) or "cuda" (an NVIDIA GPU through its driver,
    docs/gpu.md; gpu_chip: its architecture, sm_90 by default; gpu_tf32:
    f32 matrix products and convolutions on the tensor cores with TF32
    operands, off by default, also set by the CUDAExecutionProvider option
    use_tf32); without a device, the first of `providers`
    (CUDAExecutionProvider: "cuda"). A
    session on a device this machine lacks is an error saying why, raised
    before compiling. profile: compile timing probes
    (end_profiling() writes ONNX Runtime's profile format). device_config:
    a device configuration of the model (ONNX IR 11) that this process runs
    as one rank of an MPI job (docs/multi-device.md: every rank creates the
    session and runs it with the same inputs; mpi_init() says which rank this
    is; micro_batches splits the batch for pipeline stages). The rest are the
    compiler's options (docs/runtime.md). sess_options is accepted for ONNX
    Runtime compatibility: its intra_op_num_threads sets threads when threads
    is not given.
    """

    def __init__(self, model, sess_options=None, providers=None, *,
                 threads=None, device=None, opt_level=3, codegen=True,
                 profile=False, target_cpu="", target_features="",
                 gpu_chip="", device_config=None, micro_batches=1,
                 memory_plan=True, winograd=4, blocked_layout=True,
                 gpu_tf32=None, _native_model=None):
        if _native_model is None:
            device = _device(device, providers)
            gpu_tf32 = _gpu_tf32(gpu_tf32, device, providers)
            _native.device_check(device)
        self._profile_prefix = "onnx_dialect_profile"
        if _native_model is not None:
            self._model = _native_model
        else:
            with tempfile.TemporaryDirectory(prefix="onnx_dialect-") as tmp:
                self._model = _native.compile(
                    _model_path(model, tmp), opt_level=opt_level,
                    threads=_threads(threads, sess_options),
                    target_cpu=target_cpu or "",
                    target_features=target_features or "",
                    codegen=codegen, profile=profile, device=device,
                    gpu_chip=gpu_chip or "",
                    device_config=device_config or "",
                    micro_batches=int(micro_batches),
                    memory_plan=bool(memory_plan), winograd=int(winograd),
                    blocked_layout=bool(blocked_layout), gpu_tf32=gpu_tf32)
        self._inputs = [NodeArg(i) for i in self._model.inputs]
        self._outputs = [NodeArg(o) for o in self._model.outputs]
        self._output_index = {o.name: i for i, o in enumerate(self._outputs)}
        self._views = [_ML_DTYPES.get(o.dtype) if _ml_dtypes else None
                       for o in self._outputs]

    def get_inputs(self):
        return list(self._inputs)

    def get_outputs(self):
        return list(self._outputs)

    def get_providers(self):
        return [_PROVIDER_OF[self._model.device]]

    def run(self, output_names, input_feed, run_options=None):
        """Runs the model on input_feed (a dict name -> numpy array, list,
        None, OrtValue, ...) and returns the outputs named by output_names (all of them
        when None or empty), in that order. Inputs are checked (names, element
        types, ranks, dims) before anything runs."""
        if not isinstance(input_feed, dict):
            raise TypeError("input_feed: a dict of input name -> value")
        input_feed = {k: v._value if isinstance(v, OrtValue) else v
                      for k, v in input_feed.items()}
        outputs = self._model.run(input_feed)
        if _ml_dtypes is not None:
            for i, view in enumerate(self._views):
                if view is not None and isinstance(outputs[i], np.ndarray):
                    outputs[i] = outputs[i].view(getattr(_ml_dtypes, view))
        if not output_names:
            return outputs
        result = []
        for name in output_names:
            index = self._output_index.get(name)
            if index is None:
                raise _native.InvalidArgument(
                    "output '%s': the model has no such output (its outputs: %s)"
                    % (name, ", ".join("'%s'" % o.name for o in self._outputs)))
            result.append(outputs[index])
        return result

    def set_threads(self, threads):
        """The threads of later runs (a model compiled with threads=1 stays
        sequential)."""
        self._model.set_num_threads(int(threads))

    def end_profiling(self, path=None):
        """Writes the kernel times recorded since the session began (or the
        last call) as Chrome trace JSON, ONNX Runtime's profile format, and
        returns the file name. Needs profile=True."""
        path = path or "%s_%d.json" % (self._profile_prefix, os.getpid())
        self._model.write_profile(path)
        return path


def compile(model, output="model.so", *, threads=1, opt_level=3,
            codegen=True, profile=False, target_cpu="", target_features="",
            kind="shared", device="cpu", gpu_chip="", device_config="",
            micro_batches=1, memory_plan=True, winograd=4,
            blocked_layout=True, gpu_tf32=False):
    """Compiles a model ahead of time. kind "shared" writes a shared library
    (and its C header, model.h) that load() or the C API runs; "object",
    "llvm", "mlir" or "ptx" (device "cuda": the kernels) write what onnx-run
    --emit does. device "cuda" compiles for an NVIDIA GPU (no GPU needed to
    compile; gpu_tf32 puts its f32 products on the tensor cores with TF32
    operands). device_config compiles the program of this process's rank of
    an MPI job (one library a rank). Returns output."""
    if kind not in _EMIT_KINDS:
        raise ValueError("kind: one of %s" % ", ".join(_EMIT_KINDS))
    with tempfile.TemporaryDirectory(prefix="onnx_dialect-") as tmp:
        _native.emit(_model_path(model, tmp), os.fspath(output),
                     _EMIT_KINDS[kind], opt_level=opt_level, threads=threads,
                     target_cpu=target_cpu or "",
                     target_features=target_features or "",
                     codegen=codegen, profile=profile, device=device,
                     gpu_chip=gpu_chip or "",
                     device_config=device_config or "",
                     micro_batches=int(micro_batches),
                     memory_plan=bool(memory_plan), winograd=int(winograd),
                     blocked_layout=bool(blocked_layout),
                     gpu_tf32=bool(gpu_tf32))
    return output


def load(path, threads=None):
    """An InferenceSession over a shared library written by compile() (or
    onnx-run -o)."""
    session = InferenceSession(None, _native_model=_native.load(os.fspath(path)))
    if threads is not None:
        session.set_threads(threads)
    return session


def import_model(model, bytecode=False):
    """Imports an ONNX model (a path, bytes or an onnx.ModelProto) into the
    onnx dialect: MLIR text, or bytecode (bytes) when bytecode=True."""
    if isinstance(model, (str, os.PathLike)):
        return _native.import_model_file(os.fspath(model), bytecode=bytecode)
    if hasattr(model, "SerializeToString"):
        model = model.SerializeToString()
    return _native.import_model(bytes(model), bytecode=bytecode)


def run_passes(mlir, pipeline, bytecode=False):
    """Runs a pass pipeline on an MLIR module (text or bytecode) and returns
    the result as text (bytecode when bytecode=True). The pipeline is
    onnx-opt's textual form, "onnx-infer-shapes,canonicalize", nested in
    builtin.module(...) unless it names its anchor; function passes go in
    func.func(...)."""
    return _native.run_passes(mlir, pipeline, bytecode=bytecode)


def export_model(mlir, text=False):
    """Exports an MLIR module at the onnx level as an ONNX model: the bytes
    of a binary ModelProto (protobuf text format when text=True)."""
    return _native.export_model(mlir, text=text)


def mpi_init():
    """Joins the MPI job of a multi-device run (Open MPI, opened at run time;
    once): (rank, size) of this process (docs/multi-device.md)."""
    return _native.mpi_init()


def mpi_set_comm(comm):
    """The MPI communicator multi-device models run on: an MPI_Comm handle
    as an integer (mpi4py: MPI._handleof(comm)); 0 or None restores
    MPI_COMM_WORLD."""
    _native.mpi_set_comm(int(comm or 0))
