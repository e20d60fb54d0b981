#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Builds the folder that a GPU machine runs: compiled models and their data.

The GPU machine has the NVIDIA driver, Python, numpy and PyTorch, but no
LLVM, MLIR or protobuf: everything is compiled here. For each ONNX node test
(ONNX 1.22's suite; --filter narrows it) the model is compiled ahead of time
for --device (cuda by default) into OUT/cases/NAME/model.so and its test data
sets are written as .npy files (OUT/cases/NAME/N/{input,output}_K.npy with
the tensors' names in names.txt). OUT/lib holds the runtime library (all a
compiled model needs besides the driver), OUT/run_carry.py the script that
runs it all there (utils/gpu/run_carry.py) and OUT/bench the benchmark
models. Finally OUT.tar.gz is written (what the device tool carries).

Usage: utils/gpu/make_carry.py [--build build] [--out gpu-carry]
         [--device cuda] [--chip sm_90] [--filter REGEX] [--jobs 2]
"""

import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tarfile

import numpy as np
import onnx
from onnx import numpy_helper

# The element types run_carry.py hands to the C API with numpy's own dtypes.
PLAIN_DTYPES = {1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13}

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import run_conformance  # noqa: E402  (the suites and their discovery)


def tensor_files(case_dir, out_dir):
    """Writes each test data set's tensors as .npy; False if one is not a
    plain tensor (sequences and optionals are not carried)."""
    for n, data_set in enumerate(sorted(glob.glob(
            os.path.join(case_dir, "test_data_set_*")))):
        target = os.path.join(out_dir, str(n))
        os.makedirs(target, exist_ok=True)
        names = []
        for kind in ("input", "output"):
            for k, pb in enumerate(sorted(
                    glob.glob(os.path.join(data_set, kind + "_*.pb")),
                    key=lambda p: int(re.findall(r"(\d+)\.pb$", p)[0]))):
                tensor = onnx.TensorProto()
                with open(pb, "rb") as f:
                    tensor.ParseFromString(f.read())
                if tensor.data_type not in PLAIN_DTYPES:
                    return False
                try:
                    array = numpy_helper.to_array(tensor)
                except Exception:  # noqa: BLE001  (not a plain tensor)
                    return False
                if array.dtype.kind not in "biuf":
                    return False
                np.save(os.path.join(target, "%s_%d.npy" % (kind, k)), array)
                names.append("%s_%d %s" % (kind, k, tensor.name))
        with open(os.path.join(target, "names.txt"), "w") as f:
            f.write("\n".join(names) + "\n")
    return True


def build_case(onnx_run, device, chip, name, path, out):
    case_out = os.path.join(out, "cases", name.replace("/", "__"))
    os.makedirs(case_out, exist_ok=True)
    if not tensor_files(path, case_out):
        shutil.rmtree(case_out)
        return name, "skipped: not plain tensors"
    # Input names: the model's graph inputs without initializers, in order.
    model = onnx.load(os.path.join(path, "model.onnx"), load_external_data=False)
    inits = {i.name for i in model.graph.initializer}
    with open(os.path.join(case_out, "inputs.txt"), "w") as f:
        f.write("\n".join(i.name for i in model.graph.input
                          if i.name not in inits) + "\n")
    run = subprocess.run(
        [onnx_run, os.path.join(path, "model.onnx"), "--device", device,
         "--gpu-chip", chip, "-o", os.path.join(case_out, "model.so")],
        capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        shutil.rmtree(case_out)
        lines = (run.stderr or run.stdout).strip().splitlines()
        return name, "compile: " + (lines[-1] if lines else "failed")
    os.unlink(os.path.join(case_out, "model.h"))
    return name, "ok"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="gpu-carry")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--filter", default="")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variants", default="",
                        help="';'-separated options of the matrix-product "
                        "kernels to compile MatMul 4096 with as well")
    args = parser.parse_args()
    onnx_run = os.path.join(args.build, "bin", "onnx-run")
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(os.path.join(args.out, "lib"))
    shutil.copy(os.path.join(args.build, "lib", "libOnnxDialectRuntime.so"),
                os.path.join(args.out, "lib"))
    shutil.copy(os.path.join(HERE, "run_carry.py"), args.out)
    cases = [c for s, p in run_conformance.SUITES if s == "onnx-1.22/node"
             for c in run_conformance.discover(s, p)
             if re.search(args.filter, c[0])]
    counts = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, status in pool.map(
                lambda c: build_case(onnx_run, args.device, args.chip, c[0],
                                     c[1], args.out), cases):
            kind = status.split(":")[0]
            counts[kind] = counts.get(kind, 0) + 1
            if kind == "compile":
                print("%s: %s" % (name, status))
    # The benchmark: f32 MatMul 4096^3 (bench/ runs it against cuBLAS there).
    bench = os.path.join(args.out, "bench")
    os.makedirs(bench)
    for n in (1024, 2048, 4096):
        model = onnx.helper.make_model(onnx.helper.make_graph(
            [onnx.helper.make_node("MatMul", ["a", "b"], ["c"])], "matmul",
            [onnx.helper.make_tensor_value_info("a", onnx.TensorProto.FLOAT, [n, n]),
             onnx.helper.make_tensor_value_info("b", onnx.TensorProto.FLOAT, [n, n])],
            [onnx.helper.make_tensor_value_info("c", onnx.TensorProto.FLOAT, [n, n])]),
            opset_imports=[onnx.helper.make_opsetid("", 17)])
        model.ir_version = 8
        path = os.path.join(bench, "matmul%d.onnx" % n)
        onnx.save(model, path)
        # The largest also with other options of the matrix-product kernels
        # (ONNXD_GPU_CONTRACTION), to compare them on the GPU.
        variants = [""] + (args.variants.split(";") if n == 4096 and
                           args.variants else [])
        for variant in variants:
            suffix = "_" + re.sub(r"[^A-Za-z0-9=-]+", "_", variant) if variant else ""
            env = dict(os.environ, ONNXD_GPU_CONTRACTION=variant)
            subprocess.run([onnx_run, path, "--device", args.device, "--gpu-chip",
                            args.chip, "-o", path[:-5] + suffix + ".so"],
                           check=True, env=env)
            os.unlink(path[:-5] + suffix + ".h")
        os.unlink(path)
    with tarfile.open(args.out.rstrip("/") + ".tar.gz", "w:gz") as tar:
        tar.add(args.out, arcname=os.path.basename(args.out.rstrip("/")))
    size = os.path.getsize(args.out.rstrip("/") + ".tar.gz")
    print("%d cases: %s; %s.tar.gz %.1f MB" % (
        len(cases), ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())),
        args.out.rstrip("/"), size / 1e6))


if __name__ == "__main__":
    main()
