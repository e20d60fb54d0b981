#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs the folder utils/gpu/make_carry.py built, on the machine with the GPU.

Needs only Python, numpy and the NVIDIA driver (PyTorch, where present, for
the cuBLAS comparison); the compiled models call the runtime library in
lib/ through ctypes. Prints one line per failing case, the totals of the
node tests (outputs compared as the conformance runner does: rtol 1e-3,
atol 1e-7), then the MatMul benchmark: our median latency against
torch.matmul with TF32 off and on, as ratios.

Usage: python3 run_carry.py [DIR] [--filter REGEX] [--bench-runs 20]
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


class Tensor(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int32),
                ("rank", ctypes.c_int32),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("data", ctypes.c_void_p)]


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
        lib.onnxd_model_free.argtypes = [ctypes.c_void_p]
        lib.onnxd_device_check.argtypes = [ctypes.c_char_p]

    def error(self):
        return self.lib.onnxd_last_error().decode(errors="replace")

    def device_check(self, device):
        if self.lib.onnxd_device_check(device.encode()):
            raise RuntimeError(self.error())

    def load(self, path):
        model = ctypes.c_void_p()
        if self.lib.onnxd_load(path.encode(), ctypes.byref(model)):
            raise RuntimeError(self.error())
        return model

    def run(self, model, feed):
        """feed: list of (name, array); returns the outputs as arrays."""
        # (np.ascontiguousarray would make a 0-d array 1-d.)
        arrays = [np.require(a, requirements="C") for _, a in feed]
        inputs = (Tensor * max(len(feed), 1))()
        keep = []
        for t, (name, _), a in zip(inputs, feed, arrays):
            shape = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
            keep.append(shape)
            t.name, t.dtype, t.rank = name.encode(), CODES[a.dtype], a.ndim
            t.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
            t.data = a.ctypes.data
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
    """'pass', or the reason it failed."""
    model = rt.load(os.path.join(case, "model.so"))
    try:
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
                if want.dtype.kind == "f":
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
        a = rng.random((n, n), dtype=np.float32)
        b = rng.random((n, n), dtype=np.float32)
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
                  spread(times), err, "ok" if err < 1e-3 else "DIFFERS"),
              flush=True)
        try:
            if n not in references:  # cuBLAS once per size
                references[n] = cublas(a, b, runs)
            for tf32, (ref, whole) in zip((False, True), references[n]):
                line = "%s: cuBLAS%s: kernel %s = %.0f GFLOP/s, whole call %s" % (
                    so[:-3], " TF32" if tf32 else "", spread(ref),
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
    """[(kernel times, whole-call times)] of torch.matmul on the GPU, with
    TF32 off, then on."""
    import torch
    ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
    result = []
    for tf32 in (False, True):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        ref = torch_times(lambda: ta @ tb, runs)
        whole = []
        for _ in range(runs):
            start = time.perf_counter()
            (torch.from_numpy(a).cuda() @ torch.from_numpy(b).cuda()).cpu().numpy()
            whole.append(time.perf_counter() - start)
        result.append((ref, whole))
    torch.backends.cuda.matmul.allow_tf32 = False
    return result


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

    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.results = {}

    def spawn(self, n):
        log = open(os.path.join(self.args.logs, "worker%d.log" % n), "ab")
        return subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), self.args.dir, "--worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
            bufsize=0), log

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
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)
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
    results = pool.results
    passed = sum(1 for r in results.values() if r == "pass")
    kinds = {}
    for r in results.values():
        if r != "pass":
            k = r.split(":")[0]
            kinds[k] = kinds.get(k, 0) + 1
    print("%d passed, %d failed, %d not run (of %d node tests carried) in %.0f s; "
          "failures by kind: %s" % (
              passed, len(results) - passed, len(cases) - len(results), len(cases),
              time.time() - start,
              ", ".join("%s %d" % kv for kv in sorted(kinds.items())) or "none"),
          flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
    if os.path.isdir(os.path.join(args.dir, "bench")) and args.bench_runs > 0:
        bench(rt, os.path.join(args.dir, "bench"), args.bench_runs)
    return 0

if __name__ == "__main__":
    sys.exit(main())
