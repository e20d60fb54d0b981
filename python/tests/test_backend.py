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

import onnx_dialect.backend  # noqa: E402

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

for _case_name, _case in backend_test.test_cases.items():
    if _case_name == "OnnxBackendRealModelTest":
        continue
    # The CPU only: the runner's CUDA twins would all be skips.
    for _test in [t for t in vars(_case) if t.endswith("_cuda")]:
        delattr(_case, _test)
    globals()[_case_name] = _case
