#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Import benchmark: a model with 200 MB of weights, embedded and with external
data, imported and written as MLIR bytecode by
`onnx-translate --import M --emit-bytecode`. Prints the wall time and the
peak RSS of the import, and the RSS as a ratio to the model file size
(embedded) or to the weight data size (external).

  /usr/bin/python3 bench/import_large.py [--build build] [--mb 200] [--runs 3]

Targets (issue 3): under 2 s; peak RSS under 1.5x the file size embedded,
and well under the data size with external data."""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time



def make_model(path, mb, external):
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)
    n = mb  # 1 MB tensors, n of them
    inits, nodes = [], []
    prev = "x"
    for i in range(n):
        w = rng.standard_normal(256 * 1024, dtype=np.float32)  # 1 MiB
        inits.append(numpy_helper.from_array(w, "w%d" % i))
        nodes.append(helper.make_node("Add", [prev, "w%d" % i], ["a%d" % i]))
        prev = "a%d" % i
    graph = helper.make_graph(
        nodes, "big",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [256 * 1024])],
        [helper.make_tensor_value_info(prev, TensorProto.FLOAT, [256 * 1024])],
        initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    if external:
        onnx.save(model, path, save_as_external_data=True, all_tensors_to_one_file=True,
                  location=os.path.basename(path) + ".data", size_threshold=1024)
    else:
        onnx.save(model, path)


def run(cmd):
    """Runs cmd in a child and returns (seconds, peak RSS bytes of that child)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.execv(cmd[0], cmd)
    os.close(w)
    start = time.perf_counter()
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - start
    os.close(r)
    if status != 0:
        sys.exit("failed: %s" % " ".join(cmd))
    return seconds, usage.ru_maxrss * 1024


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--make":
        make_model(sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1")
        return
    ap = argparse.ArgumentParser()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--build", default=os.path.join(root, "build"))
    ap.add_argument("--mb", type=int, default=200)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    translate = os.path.join(args.build, "bin", "onnx-translate")
    data_bytes = args.mb * 1024 * 1024
    with tempfile.TemporaryDirectory() as tmp:
        for external in (False, True):
            path = os.path.join(tmp, "ext.onnx" if external else "embedded.onnx")
            # In a child: the high-water mark of a forked child starts at its
            # parent's size, so the parent must stay small.
            subprocess.run([sys.executable, __file__, "--make", path, str(args.mb),
                            "1" if external else "0"], check=True)
            size = os.path.getsize(path)
            best = None
            for _ in range(args.runs):
                t, rss = run([translate, "--import", path, "--emit-bytecode",
                              "-o", os.path.join(tmp, "out.mlirbc")])
                best = (t, rss) if best is None or t < best[0] else best
            t, rss = best
            base = data_bytes if external else size
            print("%-9s model %7.1f MB (weights %d MB): import+bytecode %.2f s, "
                  "peak RSS %.0f MB = %.2fx the %s" % (
                      "external" if external else "embedded", size / 1e6, args.mb, t,
                      rss / 1e6, rss / base, "data size" if external else "file size"))


if __name__ == "__main__":
    main()
