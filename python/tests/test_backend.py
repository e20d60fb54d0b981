# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ONNX's own backend test suite (onnx.backend.test, Debian's python3-onnx
1.12 and its data: node, simple, pytorch-converted, pytorch-operator)
through onnx_dialect.backend.

Expected failures are those of the project's conformance runner on the
same data (test/Conformance/run-expected-failures.txt, with its reasons)
plus the ones of this path alone (backend-expected-failures.txt here).
The `real` models are left out: the runner downloads them.
"""

import os
import re

import numpy as np

# onnx 1.12's runner compares string outputs with `np.object`, which numpy
# 1.24 (Debian 12's) removed; it meant the builtin.
if "object" not in vars(np):
    np.object = object

import onnx.backend.test  # noqa: E402
from onnx.backend.test.runner import Runner  # noqa: E402

import onnx_dialect.backend  # noqa: E402

# onnx 1.12's runner compares a sequence output by recursing into its
# elements as if each were a list of outputs: a sequence of 0-d tensors
# fails with "len() of unsized object" before any value is compared
# (test_loop16_seq_none). An element (an array) is compared here as one
# output, with the same checks and tolerances.
_compare = Runner.assert_similar_outputs.__func__


def _assert_similar_outputs(cls, ref_outputs, outputs, rtol, atol):
    if isinstance(ref_outputs, np.ndarray) and isinstance(outputs, np.ndarray):
        ref_outputs, outputs = [ref_outputs], [outputs]
    _compare(cls, ref_outputs, outputs, rtol, atol)


Runner.assert_similar_outputs = classmethod(_assert_similar_outputs)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def expected_failures():
    """name -> reason, from both lists."""
    failures = {}
    conformance = os.path.join(ROOT, "test", "Conformance",
                               "run-expected-failures.txt")
    with open(conformance) as f:
        for line in f:
            m = re.match(r"onnx-1\.12/[\w-]+/(\w+) (.*)", line)
            if m:
                failures[m.group(1)] = m.group(2)
    with open(os.path.join(HERE, "backend-expected-failures.txt")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, reason = line.partition(" ")
                failures[name] = reason
    return failures


backend_test = onnx.backend.test.BackendTest(onnx_dialect.backend, __name__)
for _name in expected_failures():
    backend_test.xfail(r"^%s_cpu$" % re.escape(_name))


def _cpu_cases():
    """The runner's test classes, CPU tests only (the CUDA twins would all
    be skips), without the real models."""
    cases = {}
    for name, case in backend_test.test_cases.items():
        if name == "OnnxBackendRealModelTest":
            continue
        for test in [t for t in vars(case) if t.endswith("_cuda")]:
            delattr(case, test)
        cases[name] = case
    return cases


globals().update(_cpu_cases())
