#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compiles every ONNX node test for device cuda and checks its PTX with ptxas.

No GPU is needed: each case's model.onnx goes through
`onnx-run --device cuda --emit ptx` (onnx-lower-to-nvvm), and every kernel
module of the PTX through `ptxas -arch=<chip>` (a CUDA toolkit's ptxas on
PATH). The PTX must also have no `.extern` function (the driver's JIT cannot
link libdevice). Prints one line per failing case and the totals:
  N compiled, N ptxas-clean, N kernels; failures by kind.

Usage: utils/check_gpu_ptx.py [--build build] [--jobs 2] [--filter REGEX]
         [--chip sm_90]
"""

import argparse
import collections
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_conformance  # noqa: E402  (the suites and their discovery)


def compiler_env(ptxas):
    """The environment of the compiler: no CUDA toolkit visible, so that
    nothing (libdevice) is linked from one; the PTX must stand alone."""
    env = dict(os.environ)
    for var in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"):
        env.pop(var, None)
    toolkit = os.path.dirname(ptxas)
    env["PATH"] = os.pathsep.join(
        d for d in env.get("PATH", "").split(os.pathsep)
        if d and os.path.realpath(d) != os.path.realpath(toolkit))
    return env


def check_case(onnx_run, ptxas, chip, name, path, workdir):
    """(kind, kernels, message): kind is ok, compile, ptxas or extern."""
    out = os.path.join(workdir, re.sub(r"\W", "_", name) + ".ptx")
    model = os.path.join(path, "model.onnx")
    run = subprocess.run(
        [onnx_run, model, "--device", "cuda", "--gpu-chip", chip,
         "--emit", "ptx", "-o", out],
        capture_output=True, text=True, timeout=300, env=compiler_env(ptxas))
    if run.returncode != 0:
        lines = (run.stderr or run.stdout).strip().splitlines()
        return "compile", 0, lines[-1] if lines else "exit %d" % run.returncode
    with open(out) as f:
        text = f.read()
    os.unlink(out)
    modules = [m for m in re.split(r"^// kernel module .*$", text,
                                   flags=re.M) if ".entry" in m]
    for i, module in enumerate(modules):
        if re.search(r"^\s*\.extern\s+\.func", module, re.M):
            return "extern", len(modules), "module %d declares an extern" % i
        ptx = out + ".%d.ptx" % i
        with open(ptx, "w") as f:
            f.write(module)
        check = subprocess.run([ptxas, "-arch=" + chip, ptx, "-o", os.devnull],
                               capture_output=True, text=True, timeout=300)
        os.unlink(ptx)
        if check.returncode != 0:
            return "ptxas", len(modules), check.stderr.strip().splitlines()[0]
    return "ok", len(modules), ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--filter", default="")
    parser.add_argument("--chip", default="sm_90")
    args = parser.parse_args()
    onnx_run = os.path.join(args.build, "bin", "onnx-run")
    ptxas = shutil.which("ptxas")
    if not ptxas:
        sys.exit("check_gpu_ptx: no ptxas on PATH (a CUDA toolkit's)")
    cases = [c for s, p in run_conformance.SUITES if s.endswith("/node")
             for c in run_conformance.discover(s, p)
             if re.search(args.filter, c[0])]
    counts = collections.Counter()
    kernels = 0
    with tempfile.TemporaryDirectory() as workdir, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(check_case, onnx_run, ptxas, args.chip, name,
                               path, workdir): name for name, path in cases}
        for future in concurrent.futures.as_completed(futures):
            kind, n, message = future.result()
            counts[kind] += 1
            kernels += n
            if kind != "ok":
                print("%-8s %s: %s" % (kind, futures[future], message))
    compiled = len(cases) - counts["compile"]
    print("%d cases: %d compiled, %d ptxas-clean, %d kernels; "
          "%d compile, %d ptxas, %d extern failures"
          % (len(cases), compiled, counts["ok"], kernels, counts["compile"],
             counts["ptxas"], counts["extern"]))
    return 0 if counts["ptxas"] == 0 and counts["extern"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
