#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks onnx-decompose on the ONNX node tests of both conformance suites.

For every node test (ONNX 1.12 from Debian's libonnx-testdata, ONNX 1.22 in
../shared/onnx-tests-1.22) whose model uses an operator that onnx-decompose
expands, this imports model.onnx with `onnx-translate --import`, runs
`onnx-opt --onnx-decompose --onnx-infer-shapes` and checks that
  - the pipeline succeeds,
  - no op of a decomposed operator remains (one left alone is listed with
    the pass's remark saying why), and
  - the signature of the graph (its func.func) is unchanged.
It prints one line per failing test and the counts.

Numerical equivalence (running the decomposed graph on the test's inputs
and comparing with its expected outputs) needs the CPU lowering, which does
not exist yet; it is not checked here.

Usage: utils/check_decompose.py [--build build] [-v] [filter-substring]
"""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The operators onnx-decompose expands (keep in sync with Decompose.cpp).
DECOMPOSED = [
    "Softsign", "Softplus", "HardSigmoid", "HardSwish", "Mish", "Elu", "Celu",
    "Selu", "LeakyRelu", "ThresholdedRelu", "Shrink", "Swish", "PRelu", "Gelu",
    "Softmax", "LogSoftmax", "ReduceLogSum", "ReduceLogSumExp", "ReduceL1",
    "ReduceL2", "ReduceSumSquare", "Clip", "CastLike", "Range",
    "LayerNormalization", "RMSNormalization", "GroupNormalization",
    "MeanVarianceNormalization", "DynamicQuantizeLinear", "HannWindow",
    "HammingWindow", "BlackmanWindow", "Bernoulli", "CenterCropPad",
    "NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss", "AffineGrid",
    "Attention", "RotaryEmbedding", "CausalConvWithState",
]
OP_RE = re.compile(r"\bonnx\.(%s)(_v\d+)?\b" % "|".join(DECOMPOSED))
SIG_RE = re.compile(r"^\s*func\.func\s+(?:public\s+|private\s+)?@[^\n]*", re.M)


def suites(shared):
    return [
        ("onnx-1.12", "/usr/share/libonnx-testdata/data/node"),
        ("onnx-1.22", os.path.join(shared, "onnx-tests-1.22", "node")),
    ]


def signature(mlir):
    """The func.func lines without attributes dictionaries' dim names."""
    return [re.sub(r"\s*attributes\s*\{.*\}\s*\{?\s*$", "", l).rstrip(" {")
            for l in SIG_RE.findall(mlir)]


def types_of(sig):
    """The argument and result types of a func signature line."""
    sig = re.sub(r"\{[^{}]*\}", "", sig)  # argument/result attributes
    return re.sub(r"%\w+:\s*", "", sig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("filter", nargs="?", default="")
    args = ap.parse_args()
    translate = os.path.join(args.build, "bin", "onnx-translate")
    opt = os.path.join(args.build, "bin", "onnx-opt")

    counts = {"tests": 0, "passed": 0, "import-failed": 0, "pass-failed": 0,
              "ops-left": 0, "signature-changed": 0}
    ops_seen = {}
    for suite, root in suites(args.shared):
        if not os.path.isdir(root):
            print(f"{suite}: {root} missing, skipped")
            continue
        for test in sorted(os.listdir(root)):
            if args.filter and args.filter not in test:
                continue
            model = os.path.join(root, test, "model.onnx")
            if not os.path.isfile(model):
                continue
            imp = subprocess.run([translate, "--import", model],
                                 capture_output=True, text=True)
            if imp.returncode != 0:
                ops = set()
            else:
                ops = {m.group(1) for m in OP_RE.finditer(imp.stdout)}
            if not ops:
                continue
            counts["tests"] += 1
            for o in ops:
                ops_seen[o] = ops_seen.get(o, 0) + 1
            name = f"{suite}/{test}"
            if imp.returncode != 0:
                counts["import-failed"] += 1
                print(f"IMPORT FAILED {name}")
                continue
            run = subprocess.run(
                [opt, "--onnx-decompose", "--onnx-infer-shapes", "-"],
                input=imp.stdout, capture_output=True, text=True)
            if run.returncode != 0:
                counts["pass-failed"] += 1
                err = run.stderr.strip().splitlines()
                print(f"PASS FAILED {name}: {err[0] if err else ''}")
                continue
            left = sorted({m.group(0) for m in OP_RE.finditer(run.stdout)})
            if left:
                counts["ops-left"] += 1
                why = [l for l in run.stderr.splitlines()
                       if "not decomposed" in l]
                print(f"LEFT {name}: {', '.join(left)}"
                      + (f" ({why[0].split('remark: ')[-1]})" if why else ""))
                continue
            before = [types_of(s) for s in signature(imp.stdout)]
            after = [types_of(s) for s in signature(run.stdout)]
            if before != after:
                counts["signature-changed"] += 1
                print(f"SIGNATURE CHANGED {name}:\n  {before}\n  {after}")
                continue
            counts["passed"] += 1
            if args.verbose:
                print(f"ok {name}: {', '.join(sorted(ops))}")
    print("operators seen (tests): " +
          ", ".join(f"{k} {v}" for k, v in sorted(ops_seen.items())))
    print(", ".join(f"{v} {k}" for k, v in counts.items()))
    return 0 if counts["passed"] == counts["tests"] else 1


if __name__ == "__main__":
    sys.exit(main())
