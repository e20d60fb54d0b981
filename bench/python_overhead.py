#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The cost of onnx_dialect.InferenceSession.run above the runtime's C API
on a tiny model (the issue's target: under 20 us).

Both sides run the same ahead-of-time library (onnx_dialect.compile) with
the same zero-filled inputs: bench/c_api_run.c (onnxd_run +
onnxd_tensor_free, built here with cc) and session.run(None, feed) with numpy
arrays. They alternate for --rounds rounds (order flipped every round), each
round the median of --runs runs; printed: the median of the round medians
and their spread (min-max), and the difference.

    PYTHONPATH=build/python_packages /usr/bin/python3 bench/python_overhead.py
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def tiny_models():
    """name -> ModelProto: one Add of two [1,4] floats; the same with 4
    inputs and 2 outputs (per-tensor costs)."""
    add = helper.make_graph(
        [helper.make_node("Add", ["x", "y"], ["z"])], "add",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 4]) for n in "xy"],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, 4])])
    four = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["s"]),
         helper.make_node("Mul", ["c", "d"], ["p"])], "four",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 4]) for n in "abcd"],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 4]) for n in "sp"])
    models = {}
    for g in (add, four):
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
        m.ir_version = 8
        models[g.name] = m
    return models


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    sys.path.insert(0, os.path.join(args.build, "python_packages"))
    import onnx_dialect

    tmp = tempfile.mkdtemp(prefix="onnxd-overhead-")
    runner = os.path.join(tmp, "c_api_run")
    lib = os.path.join(args.build, "lib")
    subprocess.run(["cc", "-O2", "-o", runner, os.path.join(HERE, "c_api_run.c"),
                    "-I", os.path.join(ROOT, "include"), "-L", lib,
                    "-lOnnxDialectRuntime", "-Wl,-rpath," + lib], check=True)
    print("| model | C API us | Python us | Python - C us |")
    print("|---|---|---|---|")
    for name, model in tiny_models().items():
        so = os.path.join(tmp, name + ".so")
        onnx_dialect.compile(model, so)
        sess = onnx_dialect.load(so)
        feed = {i.name: np.zeros([1, 4], np.float32) for i in sess.get_inputs()}
        sess.run(None, feed)
        c_rounds, py_rounds = [], []
        for r in range(args.rounds):
            def c_side():
                out = subprocess.run([runner, so, str(args.runs)], check=True,
                                     capture_output=True, text=True).stdout
                c_rounds.append(float(out))

            def py_side():
                times = []
                run = sess.run
                clock = time.perf_counter_ns
                for _ in range(args.runs):
                    t0 = clock()
                    run(None, feed)
                    times.append(clock() - t0)
                py_rounds.append(statistics.median(times) / 1e3)
            for side in ((c_side, py_side) if r % 2 == 0 else (py_side, c_side)):
                side()
        c, py = statistics.median(c_rounds), statistics.median(py_rounds)
        print("| %s | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | %.2f |" % (
            name, c, min(c_rounds), max(c_rounds), py, min(py_rounds),
            max(py_rounds), py - c))


if __name__ == "__main__":
    main()
