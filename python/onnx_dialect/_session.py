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

_EMIT_KINDS = {"mlir": 0, "llvm": 1, "object": 2, "shared": 3}


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
    """Compiles a model (JIT, for this CPU) and runs it.

    model: a file name (.onnx, .onnxtxt, .mlir), the model's bytes or an
    onnx.ModelProto. threads: the compiled code's threads (1: sequential).
    device: "cpu" (the only device so far). profile: compile timing probes
    (end_profiling() writes ONNX Runtime's profile format). The rest are the
    compiler's options (docs/runtime.md). sess_options and providers are
    accepted for ONNX Runtime compatibility: sess_options'
    intra_op_num_threads sets threads when threads is not given; providers
    other than the CPU one are refused.
    """

    def __init__(self, model, sess_options=None, providers=None, *,
                 threads=None, device="cpu", opt_level=3, codegen=True,
                 profile=False, target_cpu="", target_features="",
                 _native_model=None):
        if str(device).lower() != "cpu":
            raise _native.Unsupported(
                "device %r: only 'cpu' is supported so far" % (device,))
        for p in providers or []:
            name = p[0] if isinstance(p, (tuple, list)) else p
            if name != "CPUExecutionProvider":
                raise _native.Unsupported(
                    "provider %r: only CPUExecutionProvider is supported" % name)
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
                    codegen=codegen, profile=profile)
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
        return ["CPUExecutionProvider"]

    def run(self, output_names, input_feed, run_options=None):
        """Runs the model on input_feed (a dict name -> numpy array, list,
        None, ...) and returns the outputs named by output_names (all of them
        when None or empty), in that order. Inputs are checked (names, element
        types, ranks, dims) before anything runs."""
        if not isinstance(input_feed, dict):
            raise TypeError("input_feed: a dict of input name -> value")
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
            kind="shared"):
    """Compiles a model ahead of time. kind "shared" writes a shared library
    (and its C header, model.h) that load() or the C API runs; "object",
    "llvm" or "mlir" write what onnx-run --emit does. Returns output."""
    if kind not in _EMIT_KINDS:
        raise ValueError("kind: one of %s" % ", ".join(_EMIT_KINDS))
    with tempfile.TemporaryDirectory(prefix="onnx_dialect-") as tmp:
        _native.emit(_model_path(model, tmp), os.fspath(output),
                     _EMIT_KINDS[kind], opt_level=opt_level, threads=threads,
                     target_cpu=target_cpu or "",
                     target_features=target_features or "",
                     codegen=codegen, profile=profile)
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
