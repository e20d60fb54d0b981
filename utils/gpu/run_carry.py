#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs the folder utils/gpu/make_carry.py built, on the machine with the GPU.

Needs only Python, numpy and the NVIDIA driver (PyTorch, where present, for
the cuBLAS comparison); the compiled models call the runtime library in
lib/ through ctypes. Prints one line per failing case, the totals of the
node tests (outputs compared as the conformance runner does: rtol 1e-3,
atol 1e-7), then the MatMul benchmark: our median latency against
torch.matmul with TF32 off and on, as ratios.

Then the models (DIR/models, where make_carry.py --models put them; needs
the repository's bench/models.py, --repo, and onnx; PyTorch, torchvision,
transformers and onnxruntime where present): each entry in a process of its
own, within its share of --model-budget seconds. It rebuilds the model with
bench/models.py, checks each weight against the manifest's sha256, runs
PyTorch eager on the same device (torchvision's resnet50, transformers'
BertEncoder or else torch.nn.TransformerEncoder, loaded with our weights;
fp32, TF32 off) and the upload of our weights alone (torch, host to
device), then ours (data and weights through the C API: the weights are
copied to the device on every run) once, compares its output with
onnxruntime's (CPU, the model with its initializers) and PyTorch's (rtol
1e-3, atol 1e-4), and times it: median, min and max over up to
--model-runs runs, fewer where the time is up. One line per entry; with
--json, the figures in models.json beside that file.

Usage: python3 run_carry.py [DIR] [--filter REGEX] [--bench-runs 20]
         [--model-runs 20] [--model-budget 120] [--repo ROOT]
"""

import argparse
import ctypes
import os
import json
import re
import select
import statistics
import subprocess
import sys
import threading
import time

import numpy as np

DTYPES = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16,
          6: np.int32, 7: np.int64, 9: np.bool_, 10: np.float16,
          11: np.float64, 12: np.uint32, 13: np.uint64}
CODES = {np.dtype(v): k for k, v in DTYPES.items()}
HERE = os.path.dirname(os.path.abspath(__file__))


class Tensor(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int32),
                ("rank", ctypes.c_int32),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("data", ctypes.c_void_p)]


class Value(ctypes.Structure):
    pass


Value._fields_ = [("name", ctypes.c_char_p), ("kind", ctypes.c_int32),
                  ("tensor", Tensor), ("num_elements", ctypes.c_size_t),
                  ("elements", ctypes.POINTER(Value))]
KIND_TENSOR, KIND_SEQUENCE, KIND_OPTIONAL = 0, 1, 3
STRING = 8


def fill_tensor(t, array, keep):
    """Points t at array (numpy, strings as an object or bytes array)."""
    if array.dtype.kind in "OSU":
        items = [x.encode() if isinstance(x, str) else bytes(x)
                 for x in array.reshape(-1)]
        data = (ctypes.c_char_p * max(len(items), 1))(*items)
        t.dtype = STRING
    else:
        array = np.require(array, requirements="C")
        data = array
        t.dtype = CODES[array.dtype]
    shape = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
    keep += [array, data, shape]
    t.rank = array.ndim
    t.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
    t.data = ctypes.cast(data, ctypes.c_void_p) if t.dtype == STRING else array.ctypes.data


def to_value(v, type_proto, obj, keep):
    """Fills the Value v with obj (numpy array, list, or None for an empty
    optional) of the ONNX type type_proto."""
    kind = type_proto.WhichOneof("value")
    if kind == "tensor_type":
        v.kind = KIND_TENSOR
        fill_tensor(v.tensor, np.asarray(obj), keep)
        return
    elem = (type_proto.sequence_type.elem_type if kind == "sequence_type"
            else type_proto.optional_type.elem_type)
    items = list(obj) if kind == "sequence_type" else ([] if obj is None else [obj])
    v.kind = KIND_SEQUENCE if kind == "sequence_type" else KIND_OPTIONAL
    elements = (Value * max(len(items), 1))()
    keep.append(elements)
    for e, item in zip(elements, items):
        to_value(e, elem, item, keep)
    v.num_elements = len(items)
    v.elements = elements


def from_value(v):
    """A Value the runtime returned, as numpy arrays, lists and None."""
    if v.kind == KIND_TENSOR:
        t = v.tensor
        shape = [t.shape[i] for i in range(t.rank)]
        count = int(np.prod(shape)) if shape else 1
        if t.dtype == STRING:
            ptrs = ctypes.cast(t.data, ctypes.POINTER(ctypes.c_char_p))
            return np.array([ptrs[i] for i in range(count)],
                            dtype=object).reshape(shape)
        dtype = DTYPES[t.dtype]
        buf = (ctypes.c_char * (count * np.dtype(dtype).itemsize)).from_address(t.data)
        return np.frombuffer(bytes(buf), dtype).reshape(shape)
    items = [from_value(v.elements[i]) for i in range(v.num_elements)]
    if v.kind == KIND_OPTIONAL:
        return items[0] if items else None
    return items


def read_pb(path, type_proto):
    """The value in a test data .pb of the given ONNX type."""
    import onnx
    from onnx import numpy_helper
    kind = type_proto.WhichOneof("value")
    with open(path, "rb") as f:
        data = f.read()
    if kind == "tensor_type":
        proto = onnx.TensorProto()
        proto.ParseFromString(data)
        return numpy_helper.to_array(proto)
    if kind == "sequence_type":
        proto = onnx.SequenceProto()
        proto.ParseFromString(data)
        return numpy_helper.to_list(proto)
    proto = onnx.OptionalProto()
    proto.ParseFromString(data)
    return numpy_helper.to_optional(proto)


def differs(got, want):
    """None when got equals want (floats as the conformance runner
    compares them), else why not."""
    if want is None or got is None:
        return None if got is None and want is None else "optional: %r, expected %r" % (
            "empty" if got is None else "a value", "empty" if want is None else "a value")
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return "sequence of %s, expected %d elements" % (
                len(got) if isinstance(got, list) else "no list", len(want))
        for i, (g, w) in enumerate(zip(got, want)):
            why = differs(g, w)
            if why:
                return "element %d: %s" % (i, why)
        return None
    want = np.asarray(want)
    got = np.asarray(got)
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    if want.dtype.kind in "OSU":
        norm = lambda a: [x.decode() if isinstance(x, bytes) else str(x) for x in a.reshape(-1)]
        return None if norm(got) == norm(want) else "strings differ"
    if want.dtype.kind == "f":
        if np.allclose(got, want, rtol=1e-3, atol=1e-7, equal_nan=True):
            return None
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
        return "differs (max abs diff %.3g)" % np.nanmax(diff)
    return None if np.array_equal(got, want) else "values differ"


def run_values_case(rt, case, model):
    """A case with sequences, optionals or strings, through
    onnxd_run_values: its .pb data read with onnx against the model's
    types."""
    import onnx
    proto = onnx.load(os.path.join(case, "model.onnx"), load_external_data=False)
    inits = {i.name for i in proto.graph.initializer}
    inputs = [i for i in proto.graph.input if i.name not in inits]
    outputs = list(proto.graph.output)
    n = rt.lib.onnxd_model_num_outputs(model)
    for data_set in sorted(d for d in os.listdir(case) if d.isdigit()):
        base = os.path.join(case, data_set)
        files = {f: os.path.join(base, f) for f in os.listdir(base)}
        keep = []
        count = len([f for f in files if f.startswith("input_")])
        values = (Value * max(count, 1))()
        for k in range(count):
            values[k].name = inputs[k].name.encode()
            to_value(values[k], inputs[k].type,
                     read_pb(files["input_%d.pb" % k], inputs[k].type), keep)
        results = (ctypes.POINTER(Value) * n)()
        if rt.lib.onnxd_run_values(model, values, count, results, n):
            raise RuntimeError(rt.error())
        try:
            for k in range(n):
                got = from_value(results[k].contents)
                want = read_pb(files["output_%d.pb" % k], outputs[k].type)
                why = differs(got, want)
                if why:
                    return "output %d: %s" % (k, why)
        finally:
            for r in results:
                rt.lib.onnxd_value_free(r)
    return "pass"


class DeviceArray:
    """An array copied to the device once (onnxd_device_buffer_create), fed
    to runs in its place: they read it device to device."""

    def __init__(self, rt, array):
        self.rt, self.shape, self.dtype = rt, array.shape, array.dtype
        self.ndim = array.ndim
        self.ptr = ctypes.c_void_p()
        array = np.ascontiguousarray(array)
        if rt.lib.onnxd_device_buffer_create(b"cuda", array.ctypes.data,
                                             array.nbytes, ctypes.byref(self.ptr)):
            raise RuntimeError(rt.error())

    def free(self):
        if self.ptr:
            self.rt.lib.onnxd_device_buffer_free(self.ptr)
            self.ptr = ctypes.c_void_p()


class Runtime:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        lib = self.lib
        lib.onnxd_last_error.restype = ctypes.c_char_p
        lib.onnxd_load.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        lib.onnxd_model_num_outputs.argtypes = [ctypes.c_void_p]
        lib.onnxd_model_num_outputs.restype = ctypes.c_size_t
        lib.onnxd_run.argtypes = [ctypes.c_void_p, ctypes.POINTER(Tensor),
                                  ctypes.c_size_t,
                                  ctypes.POINTER(ctypes.POINTER(Tensor)),
                                  ctypes.c_size_t]
        lib.onnxd_tensor_free.argtypes = [ctypes.POINTER(Tensor)]
        lib.onnxd_run_values.argtypes = [ctypes.c_void_p, ctypes.POINTER(Value),
                                         ctypes.c_size_t,
                                         ctypes.POINTER(ctypes.POINTER(Value)),
                                         ctypes.c_size_t]
        lib.onnxd_value_free.argtypes = [ctypes.POINTER(Value)]
        lib.onnxd_model_free.argtypes = [ctypes.c_void_p]
        lib.onnxd_device_check.argtypes = [ctypes.c_char_p]
        if hasattr(lib, "onnxd_device_buffer_create"):
            lib.onnxd_device_buffer_create.argtypes = [
                ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t,
                ctypes.POINTER(ctypes.c_void_p)]
            lib.onnxd_device_buffer_free.argtypes = [ctypes.c_void_p]
        lib.onnxd_model_write_profile.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t)]

    def error(self):
        return self.lib.onnxd_last_error().decode(errors="replace")

    def device_check(self, device):
        if self.lib.onnxd_device_check(device.encode()):
            raise RuntimeError(self.error())

    def write_profile(self, model, path):
        """The events of the runs of MODEL (compiled with --profile) since
        the last call, written to PATH; returns their count."""
        n = ctypes.c_size_t()
        if self.lib.onnxd_model_write_profile(model, path.encode(),
                                              ctypes.byref(n)):
            raise RuntimeError(self.error())
        return n.value

    def load(self, path):
        model = ctypes.c_void_p()
        if self.lib.onnxd_load(path.encode(), ctypes.byref(model)):
            raise RuntimeError(self.error())
        return model

    def run(self, model, feed):
        """feed: list of (name, array or DeviceArray); returns the outputs
        as arrays."""
        # (np.ascontiguousarray would make a 0-d array 1-d.)
        arrays = [a if isinstance(a, DeviceArray) else
                  np.require(a, requirements="C") for _, a in feed]
        inputs = (Tensor * max(len(feed), 1))()
        keep = []
        for t, (name, _), a in zip(inputs, feed, arrays):
            shape = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
            keep.append(shape)
            t.name, t.dtype, t.rank = name.encode(), CODES[a.dtype], a.ndim
            t.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
            t.data = a.ptr.value if isinstance(a, DeviceArray) else a.ctypes.data
        n = self.lib.onnxd_model_num_outputs(model)
        outputs = (ctypes.POINTER(Tensor) * n)()
        if self.lib.onnxd_run(model, inputs, len(feed), outputs, n):
            raise RuntimeError(self.error())
        result = []
        for p in outputs:
            t = p.contents
            shape = [t.shape[i] for i in range(t.rank)]
            dtype = DTYPES[t.dtype]
            count = int(np.prod(shape)) if shape else 1
            buf = (ctypes.c_char * (count * np.dtype(dtype).itemsize)).from_address(t.data)
            result.append(np.frombuffer(bytes(buf), dtype).reshape(shape))
            self.lib.onnxd_tensor_free(p)
        return result


def run_case(rt, case):
    """'pass', or the reason it failed. A case compiled with --gpu-tf32
    (its name ends in __tf32) is compared as TF32 allows: operands rounded
    to 10-bit mantissas, so rtol 1e-2 and an atol of 1e-3 of the output's
    largest magnitude. So is a product of f16 or bf16 operands on the
    tensor cores (__half), whose outputs are rounded to f16 or bf16."""
    tf32 = case.endswith("__tf32") or case.endswith("__half")
    model = rt.load(os.path.join(case, "model.so"))
    try:
        if os.path.exists(os.path.join(case, "model.onnx")):
            return run_values_case(rt, case, model)
        with open(os.path.join(case, "inputs.txt")) as f:
            input_names = [l.strip() for l in f if l.strip()]
        for data_set in sorted(d for d in os.listdir(case) if d.isdigit()):
            base = os.path.join(case, data_set)
            names = dict(l.split(" ", 1) for l in
                         open(os.path.join(base, "names.txt")).read().splitlines())
            feed = []
            for k in range(len([n for n in names if n.startswith("input_")])):
                name = names["input_%d" % k] or input_names[k]
                feed.append((name, np.load(os.path.join(base, "input_%d.npy" % k))))
            outputs = rt.run(model, feed)
            for k, got in enumerate(outputs):
                want = np.load(os.path.join(base, "output_%d.npy" % k))
                if got.shape != want.shape:
                    return "output %d: shape %s, expected %s" % (k, got.shape, want.shape)
                if want.dtype.kind == "f" and tf32:
                    scale = float(np.nanmax(np.abs(want), initial=0))
                    ok = np.allclose(got, want, rtol=1e-2,
                                     atol=1e-3 * max(scale, 1e-4), equal_nan=True)
                elif want.dtype.kind == "f":
                    ok = np.allclose(got, want, rtol=1e-3, atol=1e-7, equal_nan=True)
                else:
                    ok = np.array_equal(got, want)
                if not ok:
                    diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
                    return "output %d differs (max abs diff %.3g)" % (k, np.nanmax(diff))
        return "pass"
    finally:
        rt.lib.onnxd_model_free(model)


def spread(times):
    """'median ms (min .. max)' of times in seconds."""
    return "%.3f ms (%.3f .. %.3f)" % (statistics.median(times) * 1e3,
                                       min(times) * 1e3, max(times) * 1e3)


def torch_times(fn, runs):
    """Seconds per call of fn on the GPU, by CUDA events, after a warm-up."""
    import torch
    fn()
    times = []
    for _ in range(runs):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / 1e3)
    return times


def bench(rt, folder, runs):
    """Each bench/matmulN.so against cuBLAS through PyTorch: our kernels'
    time (ONNXD_CUDA_KERNEL_TIMES: events around each launch) against
    cuBLAS's on data already on the GPU, and the whole call (copies in and
    out included) against the same done with PyTorch."""
    os.environ["ONNXD_CUDA_KERNEL_TIMES"] = "1"  # read at the first launch
    kernel_time = getattr(rt.lib, "onnxd_gpu_kernel_time_ms", None)
    references = {}
    if kernel_time:
        kernel_time.restype = ctypes.c_double
    for so in sorted((f for f in os.listdir(folder) if f.endswith(".so")),
                     key=lambda f: int(re.findall(r"\d+", f)[0])):
        n = int(re.findall(r"\d+", so)[0])
        flop = 2.0 * n**3
        model = rt.load(os.path.join(folder, so))
        rng = np.random.default_rng(0)
        # matmulN_f16*: an f16 product, against cuBLAS's f16 one.
        dtype = np.float16 if "_f16" in so else np.float32
        a = rng.random((n, n), dtype=np.float32).astype(dtype)
        b = rng.random((n, n), dtype=np.float32).astype(dtype)
        times, kernels = [], []
        try:
            for _ in range(runs + 1):  # the first run loads the module
                if kernel_time:
                    kernel_time()
                start = time.perf_counter()
                c, = rt.run(model, [("a", a), ("b", b)])
                times.append(time.perf_counter() - start)
                if kernel_time:
                    kernels.append(kernel_time() / 1e3)
        except RuntimeError as e:
            print("matmul %d: %s" % (n, e))
            continue
        finally:
            rt.lib.onnxd_model_free(model)
        times, kernels = times[1:], kernels[1:]
        if not kernels or min(kernels) <= 0:
            kernels = []  # a runtime without the GPU's kernel times
        want = a.astype(np.float64) @ b.astype(np.float64)
        err = float(np.max(np.abs(c - want) / np.maximum(np.abs(want), 1e-6)))
        print("%s: ours: kernels %s = %.0f GFLOP/s, whole call %s; "
              "max relative error %.2g against float64 (%s)" % (
                  so[:-3], spread(kernels) if kernels else "(not timed)",
                  flop / statistics.median(kernels) / 1e9 if kernels else 0,
                  spread(times), err,
                  # f16 outputs are rounded to 11 bits (relative 4.9e-4).
                  "ok" if err < (5e-3 if "tf32" in so else 1e-3) else "DIFFERS"),
              flush=True)
        try:
            key = (n, a.dtype.name)
            if key not in references:  # cuBLAS once per size and type
                references[key] = cublas(a, b, runs)
            for label, ref, whole in references[key]:
                line = "%s: cuBLAS%s: kernel %s = %.0f GFLOP/s, whole call %s" % (
                    so[:-3], label, spread(ref),
                    flop / statistics.median(ref) / 1e9, spread(whole))
                if kernels:
                    line += "; ours/cuBLAS: kernels %.2fx (ours at %.0f%% of cuBLAS), whole call %.2fx" % (
                        statistics.median(kernels) / statistics.median(ref),
                        100 * statistics.median(ref) / statistics.median(kernels),
                        statistics.median(times) / statistics.median(whole))
                print(line, flush=True)
        except Exception as e:  # noqa: BLE001  (no PyTorch or no GPU there)
            print("%s: no cuBLAS comparison (%s)" % (so[:-3], e))


def cublas(a, b, runs):
    """[(label, kernel times, whole-call times)] of torch.matmul on the GPU:
    of f32 operands with TF32 off, then on; of f16 ones as they are (on the
    tensor cores, as PyTorch does by default)."""
    import torch
    ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
    result = []
    for tf32 in ((None,) if a.dtype == np.float16 else (False, True)):
        if tf32 is not None:
            torch.backends.cuda.matmul.allow_tf32 = tf32
        ref = torch_times(lambda: ta @ tb, runs)
        whole = []
        for _ in range(runs):
            start = time.perf_counter()
            (torch.from_numpy(a).cuda() @ torch.from_numpy(b).cuda()).cpu().numpy()
            whole.append(time.perf_counter() - start)
        label = {None: " f16", False: "", True: " TF32"}[tf32]
        result.append((label, ref, whole))
    torch.backends.cuda.matmul.allow_tf32 = False
    return result


# The whole-model benchmark (OUT/models, utils/gpu/make_carry.py --models):
# each entry's weights are graph inputs, rebuilt here by bench/models.py.

MODEL_RTOL, MODEL_ATOL = 1e-3, 1e-4
# An entry starts no run that would end past its share of --model-budget
# less ENTRY_MARGIN_S (its teardown), and is killed ENTRY_GRACE_S after it.
ENTRY_MARGIN_S, ENTRY_GRACE_S = 5, 10


class Failure(Exception):
    """A step of a model entry that failed, with a one-line reason."""


def fmt_ms(seconds):
    ms = seconds * 1e3
    if ms >= 10000:
        return "%.1f s" % seconds
    return "%.0f ms" % ms if ms >= 100 else "%.1f ms" % ms if ms >= 10 else "%.2f ms" % ms


def summary(times):
    """{median, min, max, runs} of a list of seconds."""
    return {"median_s": statistics.median(times), "min_s": min(times),
            "max_s": max(times), "runs": len(times)}


def timed(fn, runs, deadline, sync=lambda: None, record=None, guess=0.0):
    """Times up to RUNS calls of FN (after the caller's warm-up); starts no
    run that would end past DEADLINE, judged by the slowest run so far (by
    GUESS, the warm-up's time, before the first). RECORD(times) is called
    after each run."""
    times = []
    while len(times) < runs:
        if time.time() + max(times or [guess]) > deadline:
            break
        sync()
        start = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - start)
        if record:
            record(times)
    return times


def compare(got, want):
    """{max_abs_diff, max_abs_ref, pass} of our output against a reference."""
    diff = float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64))))
    return {"max_abs_diff": diff,
            "max_abs_ref": float(np.max(np.abs(want))),
            "pass": bool(got.shape == want.shape and np.allclose(
                got, want, rtol=MODEL_RTOL, atol=MODEL_ATOL))}


def float_params(model):
    """The model's float initializers of rank >= 1, in order (the layers'
    parameters in the order bench/models.py creates them)."""
    from onnx import numpy_helper
    arrays = [numpy_helper.to_array(i) for i in model.graph.initializer]
    return [a for a in arrays if a.dtype.kind == "f" and a.ndim >= 1]


def load_params(module, assign):
    """Loads {state_dict key: array} into MODULE, every key known and of
    the same shape as the module's."""
    import torch
    state = module.state_dict()
    for key, array in assign.items():
        if key not in state or tuple(state[key].shape) != array.shape:
            raise Failure("%s: %s, ours %s" % (
                key, tuple(state[key].shape) if key in state else "no such key",
                array.shape))
    missing = [k for k, _ in module.named_parameters() if k not in assign]
    if missing:
        raise Failure("no weight for %s" % missing[0])
    module.load_state_dict({k: torch.from_numpy(np.ascontiguousarray(a))
                            for k, a in assign.items()}, strict=False)


def torch_resnet50(params):
    """torchvision's resnet50 (v1.5, as bench/models.py's) with our
    weights (params None: its random ones): the same layers in the same
    order (conv, BN scale, bias, mean, var, ..., fc)."""
    import torchvision
    module = torchvision.models.resnet50()
    if params is None:
        return module, "torchvision resnet50"
    keys = [k for k in module.state_dict() if not k.endswith("num_batches_tracked")]
    if len(keys) != len(params):
        raise Failure("%d tensors in torchvision's, %d in ours" % (len(keys), len(params)))
    load_params(module, dict(zip(keys, params)))
    return module, "torchvision resnet50"


BERT_LAYERS, BERT_D, BERT_HEADS, BERT_FFN = 12, 768, 12, 3072


def bert_layers(params):
    """Our encoder's parameters per layer: q, k, v, attention out, LN1,
    FFN in, FFN out, LN2, each (weight, bias); MatMul weights [in, out]."""
    if len(params) != 16 * BERT_LAYERS:
        raise Failure("%d tensors in ours, expected %d" % (len(params), 16 * BERT_LAYERS))
    return [[params[16 * l + 2 * j: 16 * l + 2 * j + 2] for j in range(8)]
            for l in range(BERT_LAYERS)]


def torch_bert(params):
    """transformers' BertEncoder (BertConfig() but our LayerNorm epsilon,
    1e-5) with our weights (params None: its random ones);
    torch.nn.TransformerEncoder (post-LN, GELU) where transformers is
    missing or fails."""
    import torch
    layers = bert_layers(params) if params is not None else None
    try:
        import transformers
        config = transformers.BertConfig(layer_norm_eps=1e-5)
        assert (config.num_hidden_layers, config.hidden_size,
                config.num_attention_heads, config.intermediate_size,
                config.hidden_act) == (BERT_LAYERS, BERT_D, BERT_HEADS,
                                       BERT_FFN, "gelu")
        module = transformers.BertModel(config, add_pooling_layer=False).encoder
        names = ["attention.self.query", "attention.self.key",
                 "attention.self.value", "attention.output.dense",
                 "attention.output.LayerNorm", "intermediate.dense",
                 "output.dense", "output.LayerNorm"]
        assign = {}
        for l, layer in enumerate(layers or []):
            for name, (w, b) in zip(names, layer):
                key = "layer.%d.%s." % (l, name)
                assign[key + "weight"] = w.T if w.ndim == 2 else w
                assign[key + "bias"] = b
        if layers:
            load_params(module, assign)
        module.eval()

        class Encoder(torch.nn.Module):
            def __init__(self, encoder):
                super().__init__()
                self.encoder = encoder

            def forward(self, x):
                out = self.encoder(x)
                return out[0] if isinstance(out, tuple) else out.last_hidden_state

        module = Encoder(module)
        with torch.no_grad():  # a call that fails falls back as well
            module(torch.zeros(1, 4, BERT_D))
        return module, "transformers %s BertEncoder" % transformers.__version__
    except Exception as e:  # noqa: BLE001  (no transformers, or another API)
        why = one_line(e)
    layer = torch.nn.TransformerEncoderLayer(
        BERT_D, BERT_HEADS, BERT_FFN, dropout=0.0, activation="gelu",
        layer_norm_eps=1e-5, batch_first=True, norm_first=False)
    module = torch.nn.TransformerEncoder(layer, BERT_LAYERS, enable_nested_tensor=False)
    if layers is None:
        return module, "torch.nn.TransformerEncoder (no transformers BertEncoder: %s)" % why
    assign = {}
    for l, layer in enumerate(layers):
        (qw, qb), (kw, kb), (vw, vb), (ow, ob), (n1w, n1b), (f1w, f1b), \
            (f2w, f2b), (n2w, n2b) = layer
        key = "layers.%d." % l
        assign.update({
            key + "self_attn.in_proj_weight": np.concatenate([qw.T, kw.T, vw.T]),
            key + "self_attn.in_proj_bias": np.concatenate([qb, kb, vb]),
            key + "self_attn.out_proj.weight": ow.T,
            key + "self_attn.out_proj.bias": ob,
            key + "linear1.weight": f1w.T, key + "linear1.bias": f1b,
            key + "linear2.weight": f2w.T, key + "linear2.bias": f2b,
            key + "norm1.weight": n1w, key + "norm1.bias": n1b,
            key + "norm2.weight": n2w, key + "norm2.bias": n2b})
    load_params(module, assign)
    return module, "torch.nn.TransformerEncoder (no transformers BertEncoder: %s)" % why


TORCH_MODELS = {"resnet50": torch_resnet50, "bert": torch_bert}


def one_line(e):
    text = str(e).strip().splitlines()
    return "%s: %s" % (type(e).__name__, text[0] if text else "")


def model_entry(args):
    """Runs one entry of OUT/models/manifest.json (--model-entry) and writes
    what it finds as JSON lines on stdout, each as soon as known (the
    parent keeps what came before a kill); the first error ends it."""
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # what the compiled code or the libraries print: stderr

    def fact(**kv):
        out.write(json.dumps(kv) + "\n")
        out.flush()

    try:
        measure_entry(args, fact)
    except Failure as e:
        fact(error=str(e))
    except Exception as e:  # noqa: BLE001  (a run error, bad data: report it)
        fact(error=one_line(e))
    fact(done=True)
    return 0


def measure_entry(args, fact):
    start = time.time()
    deadline = start + args.entry_budget
    with open(os.path.join(args.dir, "models", "manifest.json")) as f:
        manifest = json.load(f)
    entry = manifest["entries"][args.model_entry]
    device = manifest["device"]
    runs = args.model_runs

    # The model, rebuilt here; its weights checked against the manifest.
    sys.path.insert(0, os.path.join(args.repo, "bench"))
    import hashlib
    import models as bench_models
    from onnx import numpy_helper
    model = bench_models.BATCHED[entry["model"]](batch=entry["batch"])
    inits = {i.name: i for i in model.graph.initializer}
    weights = []
    for w in entry["weights"]:
        if w["name"] not in inits:
            raise Failure("weight %s: not in the model bench/models.py builds here" % w["name"])
        array = np.ascontiguousarray(numpy_helper.to_array(inits[w["name"]]))
        if (list(array.shape) != w["shape"] or str(array.dtype) != w["dtype"] or
                hashlib.sha256(array.tobytes()).hexdigest() != w["sha256"]):
            raise Failure("weight %s: checksum differs from the compiled model's "
                          "(numpy %s here: its Generator gave other numbers?)" % (
                              w["name"], np.__version__))
        weights.append((w["name"], array))
    data = np.random.default_rng(100).standard_normal(
        entry["input"]["shape"]).astype(np.float32)
    fact(rebuild_s=time.time() - start)
    rt = Runtime(os.path.join(args.dir, "lib", "libOnnxDialectRuntime.so"))
    if device != "cpu":
        rt.device_check(device)
    so = rt.load(os.path.join(args.dir, "models", entry["file"]))

    # PyTorch eager on the same device: the same model with our weights
    # (else random ones), then the upload of our weights alone.
    want_torch = None
    try:
        import warnings
        import torch
        # (our weights are read-only views; nothing writes to them)
        warnings.filterwarnings("ignore", message="The given NumPy array is not writable")
        tdev = "cuda" if device == "cuda" else "cpu"
        if tdev == "cuda" and not torch.cuda.is_available():
            raise Failure("PyTorch %s sees no CUDA device" % torch.__version__)
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        sync = torch.cuda.synchronize if tdev == "cuda" else (lambda: None)
        try:
            module, what = TORCH_MODELS[entry["model"]](float_params(model))
            what += ", our weights"
            same_weights = True
        except Exception as e:  # noqa: BLE001  (then its own random weights)
            module, what = TORCH_MODELS[entry["model"]](None)
            what += ", random weights (ours did not load: %s)" % one_line(e)
            same_weights = False
        module = module.to(tdev).eval()
        x = torch.from_numpy(data).to(tdev)
        torch_deadline = time.time() + max(5.0, (deadline - time.time()) / 4)
        with torch.no_grad():
            for _ in range(3):
                warm = time.perf_counter()
                y = module(x)
                sync()
                warm = time.perf_counter() - warm
            if same_weights:
                want_torch = y.float().cpu().numpy()
            # (too slow for a timed run: the last warm-up run instead)
            times = timed(lambda: module(x), runs, torch_deadline, sync,
                          guess=warm) or [warm]
        fact(torch=dict(summary(times), what=what, device=tdev,
                        matmul_precision=torch.get_float32_matmul_precision(),
                        threads=torch.get_num_threads() if tdev == "cpu" else None,
                        version=torch.__version__))
        module = x = y = None  # (free them; the lambda above holds the names)
        if tdev == "cuda":
            def upload():
                for _, w in weights:
                    torch.from_numpy(w).cuda()
            warm = time.perf_counter()
            upload()
            sync()
            warm = time.perf_counter() - warm
            times = timed(upload, runs, time.time() + max(3.0, (deadline - time.time()) / 8),
                          sync, guess=warm) or [warm]
            fact(upload=summary(times))
            torch.cuda.empty_cache()
    except Exception as e:  # noqa: BLE001  (no PyTorch, no GPU, another API)
        fact(torch_error=one_line(e))

    # Ours: data and weights through the C API.
    feed = [(entry["input"]["name"], data)] + weights
    first = time.perf_counter()
    got, = rt.run(so, feed)
    fact(first_s=time.perf_counter() - first)
    if want_torch is not None:
        fact(vs_torch=compare(got, want_torch))
    try:
        import onnxruntime
        session = onnxruntime.InferenceSession(
            model.SerializeToString(), providers=["CPUExecutionProvider"])
        want, = session.run(None, {entry["input"]["name"]: data})
        fact(vs_ort=compare(got, want))
    except ImportError:
        fact(vs_ort_error="no onnxruntime here")
    except Exception as e:  # noqa: BLE001
        fact(vs_ort_error=one_line(e))
    del model, inits
    # The weights on the device once (as PyTorch's are), for half of what
    # is left: runs copy them device to device. Then with the weights
    # copied from host memory by every run.
    if device == "cuda" and hasattr(rt.lib, "onnxd_device_buffer_create"):
        resident = []
        try:
            resident = [(n, DeviceArray(rt, w)) for n, w in weights]
            feed_resident = [(entry["input"]["name"], data)] + resident
            got, = rt.run(so, feed_resident)
            if want_torch is not None:
                fact(resident_vs_torch=compare(got, want_torch))
            timed(lambda: rt.run(so, feed_resident), runs,
                  time.time() + (deadline - time.time()) / 2,
                  record=lambda times: fact(resident=summary(times)))
        except Exception as e:  # noqa: BLE001  (an older runtime, no memory)
            fact(resident_error=one_line(e))
        finally:
            for _, d in resident:
                d.free()
    # The profiled build (make_carry.py --profile-batches): its launches
    # timed by CUDA events and named after the ONNX nodes, over a few runs
    # after the first (the JIT), while a quarter of the budget is left.
    if (entry.get("profile_file") and args.profile_dir and
            deadline - time.time() > args.entry_budget / 4):
        try:
            fact(profile=profile_entry(rt, args, entry, feed))
        except Exception as e:  # noqa: BLE001  (an older runtime, a run error)
            fact(profile_error=one_line(e))
    # (the first run JIT-compiles the kernels: no guess from it; a run that
    # ends far past the deadline gets the entry killed, keeping the above)
    timed(lambda: rt.run(so, feed), runs, deadline,
          record=lambda times: fact(ours=summary(times)))
    rt.lib.onnxd_model_free(so)
    fact(done=True)
    return 0


def profile_entry(rt, args, entry, feed, runs=3):
    """Runs ENTRY's profiled build RUNS times after a first run (the JIT),
    writes their profile to --profile-dir and returns where, the kernels'
    time a run and the op types that took most of it."""
    model = rt.load(os.path.join(args.dir, "models", entry["profile_file"]))
    try:
        path = os.path.join(args.profile_dir, "profile_%s_b%d.json" % (
            entry["model"], entry["batch"]))
        rt.run(model, feed)
        rt.write_profile(model, path)  # (drops the first run's events)
        for _ in range(runs):
            rt.run(model, feed)
        rt.write_profile(model, path)
    finally:
        rt.lib.onnxd_model_free(model)
    with open(path) as f:
        events = json.load(f)
    by_op, run_us, kernel_us = {}, 0.0, 0.0
    for e in events:
        if e.get("cat") == "Session":
            run_us += e["dur"]
            continue
        op = e["args"].get("op_name", "?")
        by_op[op] = by_op.get(op, 0.0) + e["dur"]
        kernel_us += e["dur"]
    top = sorted(by_op.items(), key=lambda kv: -kv[1])[:6]
    return {"file": os.path.basename(path), "runs": runs,
            "run_ms": run_us / runs / 1e3, "kernels_ms": kernel_us / runs / 1e3,
            "launches": (len(events) - runs) // runs,
            "top": [[op, us / runs / 1e3] for op, us in top]}


def entry_line(label, r):
    """The one line an entry prints."""
    parts = []
    if "error" in r:
        parts.append(r["error"])
    ours, ref = r.get("ours"), r.get("torch")
    if ours:
        parts.append("ours %s (%s .. %s, %d runs; first run %s)" % (
            fmt_ms(ours["median_s"]), fmt_ms(ours["min_s"]), fmt_ms(ours["max_s"]),
            ours["runs"], fmt_ms(r["first_s"])))
    elif "first_s" in r:
        parts.append("ours: first run only, %s (includes the JIT)" % fmt_ms(r["first_s"]))
    if ref:
        parts.append("torch eager %s (%s .. %s, %d runs; %s%s)" % (
            fmt_ms(ref["median_s"]), fmt_ms(ref["min_s"]), fmt_ms(ref["max_s"]),
            ref["runs"], ref["what"],
            ", %d CPU thread(s)" % ref["threads"] if ref.get("threads") else ""))
    elif "torch_error" in r:
        parts.append("torch eager: none (%s)" % r["torch_error"])
    if ours and ref:
        parts.append("ours/torch %.1fx" % (ours["median_s"] / ref["median_s"]))
    resident = r.get("resident")
    if resident:
        parts.append("ours with the weights on the device %s (%s .. %s, %d runs)%s" % (
            fmt_ms(resident["median_s"]), fmt_ms(resident["min_s"]),
            fmt_ms(resident["max_s"]), resident["runs"],
            "; ours/torch %.1fx" % (resident["median_s"] / ref["median_s"])
            if ref else ""))
        if "resident_vs_torch" in r:
            c = r["resident_vs_torch"]
            parts.append("its output vs torch: max abs diff %.2g (%s)" % (
                c["max_abs_diff"], "pass" if c["pass"] else "FAIL"))
    elif "resident_error" in r:
        parts.append("weights on the device: not run (%s)" % r["resident_error"])
    if "upload" in r:
        parts.append("weight upload alone (torch) %s" % fmt_ms(r["upload"]["median_s"]))
    if "profile" in r:
        p = r["profile"]
        parts.append("profile (%s): run %.2f ms, kernels %.2f ms in %d launches; "
                     "%s" % (p["file"], p["run_ms"], p["kernels_ms"], p["launches"],
                             ", ".join("%s %.2f ms" % (op, ms) for op, ms in p["top"])))
    elif "profile_error" in r:
        parts.append("profile: not written (%s)" % r["profile_error"])
    for key, name in (("vs_ort", "onnxruntime"), ("vs_torch", "torch")):
        if key in r:
            c = r[key]
            parts.append("output vs %s: max abs diff %.2g (of max |ref| %.3g; %s)" % (
                name, c["max_abs_diff"], c["max_abs_ref"], "pass" if c["pass"] else "FAIL"))
        elif key + "_error" in r:
            parts.append("output vs %s: not compared (%s)" % (name, r[key + "_error"]))
    return "%s: %s" % (label, "; ".join(parts))


def models_stage(args):
    """Runs each entry of OUT/models/manifest.json in a process of its own
    within its share of --model-budget; prints one line per entry."""
    with open(os.path.join(args.dir, "models", "manifest.json")) as f:
        manifest = json.load(f)
    device = manifest["device"]
    entries = manifest["entries"]
    print("== models: ours on %s (weights as inputs%s) against PyTorch eager "
          "on the %s, fp32, TF32 off; outputs against onnxruntime (CPU) and "
          "PyTorch with rtol %g, atol %g; budget %.0f s" % (
              device, ": on the device once, then uploaded every run" if device == "cuda" else "",
              "GPU" if device == "cuda" else "CPU (a CPU carry: no GPU in this stage)",
              MODEL_RTOL, MODEL_ATOL, args.model_budget), flush=True)
    repo = args.repo or os.path.dirname(os.path.dirname(HERE))
    if not os.path.exists(os.path.join(repo, "bench", "models.py")):
        print("models: no bench/models.py under %s (pass --repo)" % repo)
        return []
    results = []
    start = time.time()
    def chosen(e):
        return re.search(args.model_filter, "%s b%d" % (e["model"], e["batch"]))
    runnable = sum(1 for e in entries if "error" not in e and chosen(e))
    for i, entry in enumerate(entries):
        label = "%s b%d" % (entry["model"], entry["batch"])
        if not chosen(entry):
            continue
        if "error" in entry:  # (the compile's)
            r = {"error": entry["error"]}
        else:
            share = (args.model_budget - (time.time() - start)) / runnable
            runnable -= 1
            if share < 10:
                r = {"error": "not run: %.0f s of the models' budget (%.0f s) left "
                     "for it" % (max(share, 0), args.model_budget)}
            else:
                r = run_entry(args, i, repo, share, label)
        print(entry_line(label, r), flush=True)
        results.append(dict(r, model=entry["model"], batch=entry["batch"],
                            device=device))
    return results


def run_entry(args, index, repo, share, label):
    log_path = os.path.join(args.logs, "model-%s.log" % label.replace(" ", "_"))
    # (bench() sets ONNXD_CUDA_KERNEL_TIMES: events around every launch
    # would weigh on the latency measured here)
    env = {k: v for k, v in os.environ.items() if k != "ONNXD_CUDA_KERNEL_TIMES"}
    if args.model_kernel_times:  # the totals per kernel, in the entry's log
        env["ONNXD_CUDA_KERNEL_TIMES"] = "print"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), args.dir,
             "--model-entry", str(index), "--repo", repo,
             "--model-runs", str(args.model_runs),
             "--entry-budget", "%.1f" % (share - ENTRY_MARGIN_S)] +
            (["--profile-dir", os.path.abspath(args.profile_dir)]
             if args.profile_dir else []),
            stdout=subprocess.PIPE, stderr=log, text=True, env=env)
        try:
            stdout, _ = proc.communicate(timeout=share + ENTRY_GRACE_S)
            killed = False
        except subprocess.TimeoutExpired:
            proc.kill()
            stdout, _ = proc.communicate()
            killed = True
    r = {}
    for line in stdout.splitlines():
        try:
            r.update(json.loads(line))
        except ValueError:
            pass
    if killed:
        r["error"] = "killed after %.0f s (its share of the budget and %d s)" % (
            share + ENTRY_GRACE_S, ENTRY_GRACE_S)
    elif not r.pop("done", False):
        with open(log_path, "rb") as f:
            tail = f.read()[-2000:].decode(errors="replace").strip().splitlines()
        r["error"] = "crash: exit %s: %s" % (proc.returncode, tail[-1] if tail else "")
    return r


def worker(args):
    """Runs the cases named on stdin, one per line; answers each with one
    line on stdout. Exits after a runtime error: a fault can leave the CUDA
    context unusable, so the next case gets a fresh process."""
    rt = Runtime(os.path.join(args.dir, "lib", "libOnnxDialectRuntime.so"))
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # what the compiled code prints goes to stderr
    for line in sys.stdin:
        case = line.strip()
        try:
            result = run_case(rt, os.path.join(args.dir, "cases", case))
        except RuntimeError as e:
            result = "error: %s" % " | ".join(str(e).splitlines()[:3])
        except Exception as e:  # noqa: BLE001  (bad data: report, go on)
            result = "python: %s: %s" % (type(e).__name__, e)
        out.write("%s\t%s\n" % (case, result))
        out.flush()
        if result.startswith("error:"):
            return 0
    return 0


class Pool:
    """--jobs worker processes; a case that runs past --case-timeout is
    killed and reported as a hang, a worker that dies as a crash."""

    def __init__(self, args, env=None):
        self.args = args
        self.env = dict(os.environ, **(env or {}))
        self.lock = threading.Lock()
        self.results = {}

    def spawn(self, n):
        log = open(os.path.join(self.args.logs, "worker%d.log" % n), "ab")
        return subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), self.args.dir, "--worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
            bufsize=0, env=self.env), log

    def loop(self, n, queue, deadline):
        proc, log = None, None
        while True:
            with self.lock:
                if not queue or time.time() > deadline:
                    break
                case = queue.pop(0)
            if proc is None:
                proc, log = self.spawn(n)
            proc.stdin.write((case + "\n").encode())
            ready, _, _ = select.select([proc.stdout], [], [], self.args.case_timeout)
            line = proc.stdout.readline() if ready else b""
            if not ready:
                result = "hang: no answer in %d s" % self.args.case_timeout
            elif not line:
                log.flush()
                with open(log.name, "rb") as f:
                    tail = f.read()[-300:].decode(errors="replace")
                result = "crash: exit %s: %s" % (
                    proc.wait(), " | ".join(tail.strip().splitlines()[-2:]))
            else:
                result = line.decode(errors="replace").rstrip("\n").split("\t", 1)[1]
            if not ready or not line or result.startswith("error:"):
                proc.kill()
                proc.wait()
                proc = None
            with self.lock:
                self.results[case] = result
                if result != "pass":
                    print("FAIL %s: %s" % (case, result), flush=True)
        if proc is not None:
            proc.stdin.close()
            proc.wait()


def rerun_with_waits(args, failed):
    """Runs the failed cases again with ONNXD_CUDA_SYNC=launch (the runtime
    waits after each launch, as compiled code did before
    onnx-gpu-defer-syncs): a case that passes then points at a missing wait,
    one that fails again at its kernels (or the CPU's expected failures)."""
    if not failed or not args.rerun_budget:
        return
    failed = failed[:args.rerun_limit]
    pool = Pool(args, env={"ONNXD_CUDA_SYNC": "launch"})
    queue = list(failed)
    start = time.time()
    print("== the %d failed cases again, waiting after each launch "
          "(ONNXD_CUDA_SYNC=launch)" % len(failed), flush=True)
    threads = [threading.Thread(target=pool.loop,
                                args=(n, queue, start + args.rerun_budget))
               for n in range(args.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    now_pass = sorted(c for c, r in pool.results.items() if r == "pass")
    print("waiting after each launch: %d of %d rerun pass%s" % (
        len(now_pass), len(pool.results),
        (" (a missing wait in the compiled code: %s)" % ", ".join(now_pass))
        if now_pass else ""), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", nargs="?", default=os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--filter", default="")
    parser.add_argument("--bench-runs", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=8)
    parser.add_argument("--case-timeout", type=int, default=60)
    parser.add_argument("--budget", type=float, default=1e9,
                        help="seconds after which no new case starts")
    parser.add_argument("--json", help="writes {case: result} there")
    parser.add_argument("--logs", default=None, help="the workers' stderr")
    parser.add_argument("--rerun-budget", type=float, default=60,
                        help="seconds to rerun failed cases with a wait "
                        "after each launch (0: none)")
    parser.add_argument("--rerun-limit", type=int, default=60,
                        help="how many failed cases to rerun at most")
    parser.add_argument("--model-filter", default="",
                        help="the model entries ('resnet50 b32', ...) to run")
    parser.add_argument("--model-kernel-times", action="store_true",
                        help="time each kernel of the models (events around "
                        "each launch: slower); the totals go to their logs")
    parser.add_argument("--profile-dir", default=None,
                        help="where the models' profiles go (profile_NAME_bB"
                        ".json, of the entries make_carry.py compiled with "
                        "--profile; none without it)")
    parser.add_argument("--model-runs", type=int, default=20,
                        help="timed runs per model entry (0: no models stage)")
    parser.add_argument("--model-budget", type=float, default=120,
                        help="seconds for the models stage, all entries")
    parser.add_argument("--repo", help="the repository root, for bench/models.py "
                        "(default: two folders above this script)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--model-entry", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--entry-budget", type=float, default=60, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)
    if args.model_entry is not None:
        return model_entry(args)
    args.logs = args.logs or os.path.join(args.dir, "logs")
    os.makedirs(args.logs, exist_ok=True)
    rt = Runtime(os.path.join(args.dir, "lib", "libOnnxDialectRuntime.so"))
    try:
        rt.device_check("cuda")
        print("device cuda: available", flush=True)
    except RuntimeError as e:
        print("device cuda: %s" % e, flush=True)
    cases_dir = os.path.join(args.dir, "cases")
    cases = sorted(c for c in os.listdir(cases_dir) if re.search(args.filter, c))
    pool = Pool(args)
    queue = list(cases)
    start = time.time()
    threads = [threading.Thread(target=pool.loop, args=(n, queue, start + args.budget))
               for n in range(args.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # The node tests, then those compiled with --gpu-tf32 and those compiled
    # without the fused and chained kernels (make_carry.py --plain-filter),
    # if carried.
    groups = (("", ""), ("__tf32", "with --gpu-tf32 (rtol 1e-2): "),
              ("__plain", "without fusion, row chains, small tiles or "
               "read-through padding: "),
              ("__half", "f16/bf16 products with half-mma (rtol 1e-2): "))
    for suffix, label in groups:
        group = [c for c in cases
                 if (c.endswith(suffix) if suffix else
                     not any(c.endswith(g) for g, _ in groups[1:]))]
        results = {c: r for c, r in pool.results.items() if c in group}
        if suffix and not group:
            continue
        passed = sum(1 for r in results.values() if r == "pass")
        kinds = {}
        for r in results.values():
            if r != "pass":
                k = r.split(":")[0]
                kinds[k] = kinds.get(k, 0) + 1
        print("%s%d passed, %d failed, %d not run (of %d node tests carried) "
              "in %.0f s; failures by kind: %s" % (
                  label, passed, len(results) - passed,
                  len(group) - len(results), len(group), time.time() - start,
                  ", ".join("%s %d" % kv for kv in sorted(kinds.items())) or "none"),
              flush=True)
    # A failure whose plain build passes is the fusion's, the row chains',
    # the small tiles' or the read-through padding's (docs/gpu.md, "On a GPU
    # machine").
    blamed = sorted(c for c, r in pool.results.items()
                    if r != "pass" and pool.results.get(c + "__plain") == "pass")
    if blamed:
        print("failing, but passing without fusion, row chains, small "
              "tiles and read-through padding: %s" % " ".join(blamed),
              flush=True)
    results = pool.results
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
    rerun_with_waits(args, [c for c, r in sorted(results.items()) if r != "pass"])
    if os.path.isdir(os.path.join(args.dir, "bench")) and args.bench_runs > 0:
        bench(rt, os.path.join(args.dir, "bench"), args.bench_runs)
    if (os.path.exists(os.path.join(args.dir, "models", "manifest.json")) and
            args.model_runs > 0):
        models = models_stage(args)
        if args.json:
            with open(os.path.join(os.path.dirname(os.path.abspath(args.json)),
                                   "models.json"), "w") as f:
                json.dump(models, f, indent=1, sort_keys=True)
    return 0

if __name__ == "__main__":
    sys.exit(main())
