#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs the ONNX conformance suites through onnx-run and writes docs/conformance.md.

Suites: ONNX 1.12 from Debian's libonnx-testdata (node, pytorch-converted,
pytorch-operator, simple) and ONNX 1.22 in ../shared/onnx-tests-1.22 (node,
light, pytorch-converted, pytorch-operator, simple). Every case is a
directory with model.onnx and test_data_set_*/{input,output}_*.pb, run with
`onnx-run --test-dir CASE` (outputs compared with rtol 1e-3, atol 1e-7). A
light model (light_NAME.onnx + light_NAME_output_0.pb, no inputs stored) is
run on zeros: its weights are constants, so its output does not depend on
the input.

Each failure gets a category:
  no-lowering  the compiler has no lowering for an op (the op is named)
  compile      import, passes or code generation failed otherwise
  runtime      the compiled model stopped with an error
  mismatch     outputs differ from the expected ones
  timeout      the case ran longer than --timeout seconds
  crash        onnx-run died from a signal (always a bug)

With --expected FILE, the failures must be exactly the cases FILE lists
(one `suite/case  reason` per line): an unexpected failure or an unexpected
pass makes the exit status 1. --update-expected rewrites FILE from this run.
The last line printed is `N passed, N failed` (`, N expected failures`).

Usage: utils/run_conformance.py [--build build] [--jobs 2] [--filter REGEX]
         [--expected FILE] [--update-expected] [--report docs/conformance.md]
"""

import argparse
import fnmatch
import collections
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEBIAN = "/usr/share/libonnx-testdata/data"
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "onnx-tests-1.22")

SUITES = [
    ("onnx-1.12/node", os.path.join(DEBIAN, "node")),
    ("onnx-1.12/pytorch-converted", os.path.join(DEBIAN, "pytorch-converted")),
    ("onnx-1.12/pytorch-operator", os.path.join(DEBIAN, "pytorch-operator")),
    ("onnx-1.12/simple", os.path.join(DEBIAN, "simple")),
    ("onnx-1.22/node", os.path.join(SHARED, "node")),
    ("onnx-1.22/light", os.path.join(SHARED, "light")),
    ("onnx-1.22/pytorch-converted", os.path.join(SHARED, "pytorch-converted")),
    ("onnx-1.22/pytorch-operator", os.path.join(SHARED, "pytorch-operator")),
    ("onnx-1.22/simple", os.path.join(SHARED, "simple")),
]

NO_LOWERING = re.compile(r"(onnx(?:\.\w+)+)(?: '[^']*')?: no lowering")


def discover(suite, path):
    """The cases of a suite: (suite/case name, directory or light model)."""
    if not os.path.isdir(path):
        return []
    cases = []
    for name in sorted(os.listdir(path)):
        full = os.path.join(path, name)
        if suite.endswith("/light"):
            m = re.fullmatch(r"light_(\w+)\.onnx", name)
            if m:
                cases.append((suite + "/" + m.group(1), full))
        elif os.path.isfile(os.path.join(full, "model.onnx")):
            cases.append((suite + "/" + name, full))
    return cases


def light_case(model, workdir):
    """A test directory for a light model: zeros for every graph input that
    no node and no initializer defines, and its stored output."""
    import numpy as np
    import onnx
    from onnx import mapping, numpy_helper

    case = os.path.join(workdir, os.path.basename(model)[: -len(".onnx")])
    data = os.path.join(case, "test_data_set_0")
    os.makedirs(data, exist_ok=True)
    shutil.copy(model, os.path.join(case, "model.onnx"))
    shutil.copy(model[: -len(".onnx")] + "_output_0.pb",
                os.path.join(data, "output_0.pb"))
    m = onnx.load(model)
    defined = {i.name for i in m.graph.initializer}
    for node in m.graph.node:
        defined.update(node.output)
    k = 0
    for inp in m.graph.input:
        if inp.name in defined:
            continue
        t = inp.type.tensor_type
        shape = [d.dim_value if d.dim_value > 0 else 1 for d in t.shape.dim]
        dtype = mapping.TENSOR_TYPE_TO_NP_TYPE[t.elem_type]
        tensor = numpy_helper.from_array(np.zeros(shape, dtype), inp.name)
        with open(os.path.join(data, "input_%d.pb" % k), "wb") as f:
            f.write(tensor.SerializeToString())
        k += 1
    return case


def classify(rc, out):
    """(category, one-line reason) of a failed run."""
    lines = [l.strip() for l in out.splitlines() if l.strip()]
    ops = sorted(set(NO_LOWERING.findall(out)))
    if ops:
        return "no-lowering", "no lowering: " + ", ".join(ops)
    if rc < 0:
        return "crash", "signal %d" % -rc
    first = next((l for l in lines if "error" in l.lower()), None)
    mismatch = next((l for l in lines if l.startswith("FAIL") or
                     "mismatch" in l.lower()), None)
    if rc == 1 and mismatch:
        return "mismatch", mismatch
    if rc == 1:
        return "runtime", first or (lines[-1] if lines else "exit status 1")
    return "compile", first or (lines[-1] if lines else "exit status %d" % rc)


def run_case(onnx_run, name, path, timeout, workdir, device="cpu"):
    start = time.time()
    try:
        case = light_case(path, workdir) if name.split("/")[1] == "light" \
            else path
        proc = subprocess.run([onnx_run, "--test-dir", case, "--device",
                               device],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=timeout)
        out = proc.stdout.decode("utf-8", "replace")
        if proc.returncode == 0:
            return name, "pass", "", time.time() - start
        category, reason = classify(proc.returncode, out)
        return name, category, reason, time.time() - start
    except subprocess.TimeoutExpired:
        return name, "timeout", "over %d s" % timeout, time.time() - start
    except Exception as e:  # a broken case file: report it, go on
        return name, "compile", "runner: %s" % e, time.time() - start


def operators_of(name, path):
    """The operators a node case tests: the op types of its graph (for an
    `_expanded` case, those of the case it expands)."""
    import onnx

    if name.split("/")[1] != "node":
        return []
    base = path[: -len("_expanded")] if path.endswith("_expanded") else path
    model = os.path.join(base if os.path.isdir(base) else path, "model.onnx")
    try:
        m = onnx.load(model, load_external_data=False)
    except Exception:
        return []
    domain = lambda n: "" if n.domain in ("", "ai.onnx") else n.domain + "."
    return sorted({domain(n) + n.op_type for n in m.graph.node})


def read_expected(path):
    expected = {}
    if path and os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, reason = line.partition(" ")
            expected[name] = reason.strip()
    return expected


REASONS = os.path.join(ROOT, "test", "Conformance", "failure-reasons.txt")


def read_reasons(path=REASONS):
    """(glob, why) pairs: why a failing case fails, in words."""
    reasons = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    pattern, _, why = line.partition(" ")
                    reasons.append((pattern, why.strip()))
    return reasons


def explain(name, reason, reasons):
    """The reason of a failure, led by the first matching why."""
    for pattern, why in reasons:
        if fnmatch.fnmatchcase(name, pattern):
            return "%s [%s]" % (why, reason)
    return reason


def write_expected(path, results):
    reasons = read_reasons()
    with open(path, "w") as f:
        f.write("# Conformance cases expected to fail, with the category and reason\n"
                "# (utils/run_conformance.py --update-expected writes this file;\n"
                "# the why in words comes from test/Conformance/failure-reasons.txt,\n"
                "# the run's own message follows in brackets).\n")
        for name, (category, reason, _) in sorted(results.items()):
            if category != "pass":
                f.write("%s %s: %s\n" % (name, category,
                                          explain(name, reason, reasons)))


def percent(a, b):
    return "%.1f%%" % (100.0 * a / b) if b else "-"


def write_report(path, results, ops, elapsed, device="cpu"):
    suites = collections.OrderedDict((s, [0, 0]) for s, _ in SUITES)
    for name, (category, _, _) in results.items():
        suite = "/".join(name.split("/")[:2])
        suites[suite][1] += 1
        suites[suite][0] += category == "pass"
    by_op = collections.defaultdict(lambda: {"1.12": [0, 0], "1.22": [0, 0]})
    for name, (category, _, _) in results.items():
        version = name.split("/")[0][len("onnx-"):]
        for op in ops.get(name, []):
            by_op[op][version][1] += 1
            by_op[op][version][0] += category == "pass"
    failures = collections.defaultdict(list)
    reasons = read_reasons()
    for name, (category, reason, _) in sorted(results.items()):
        if category != "pass":
            failures[category].append((name, explain(name, reason, reasons)))

    where = "on this machine's CPU" if device == "cpu" else \
        "with `--device %s`%s" % (
            device, " on the GPU emulator"
            if os.environ.get("ONNXD_TEST_GPU_EMULATE") == "1" else "")
    out = ["# Conformance", "",
           "Generated by `utils/run_conformance.py` (run by `utils/run-tests.sh`, "
           "the README's test command); do not edit by hand.", "",
           "Every case of the ONNX backend test data runs through "
           "`onnx-run --test-dir` %s; outputs are compared "
           "with rtol 1e-3 and atol 1e-7. %d cases in %.0f s." %
           (where, len(results), elapsed), "",
           "| suite | passed | total | share |", "|---|---|---|---|"]
    for suite, (p, t) in suites.items():
        if t:
            out.append("| %s | %d | %d | %s |" % (suite, p, t, percent(p, t)))
    total_pass = sum(p for p, _ in suites.values())
    out.append("| all | %d | %d | %s |" % (total_pass, len(results),
                                            percent(total_pass, len(results))))
    out += ["", "## Failures by category", ""]
    for category in sorted(failures):
        out.append("- %s: %d" % (category, len(failures[category])))
    out += ["", "## Per operator (node tests)", "",
            "| operator | ONNX 1.12 | ONNX 1.22 |", "|---|---|---|"]
    for op in sorted(by_op):
        cell = lambda v: ("%d/%d" % tuple(by_op[op][v])) if by_op[op][v][1] else "-"
        out.append("| %s | %s | %s |" % (op, cell("1.12"), cell("1.22")))
    out += ["", "## Every failure", ""]
    for category in sorted(failures):
        out += ["### %s" % category, ""]
        for name, reason in failures[category]:
            out.append("- `%s`: %s" % (name, reason.replace("|", "\\|")))
        out.append("")
    with open(path, "w") as f:
        f.write("\n".join(out).rstrip() + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--filter", default="")
    parser.add_argument("--sample", type=int, default=1, metavar="N",
                        help="run every Nth case (of those --filter keeps)")
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--device", default="cpu",
                        help="onnx-run's --device (cuda: through the driver, "
                        "or the GPU emulator with ONNXD_TEST_GPU_EMULATE=1 "
                        "and the stub driver, docs/gpu.md)")
    parser.add_argument("--expected")
    parser.add_argument("--update-expected", action="store_true")
    parser.add_argument("--report")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()

    onnx_run = os.path.join(args.build, "bin", "onnx-run")
    if not os.access(onnx_run, os.X_OK):
        sys.exit("run_conformance: %s is missing (build it first)" % onnx_run)
    cases = [c for s, p in SUITES for c in discover(s, p)
             if re.search(args.filter, c[0])][::max(args.sample, 1)]
    if not cases:
        sys.exit("run_conformance: no case matches (are the suites installed?)")

    start = time.time()
    results = {}
    workdir = tempfile.mkdtemp(prefix="onnx-conformance-")
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(run_case, onnx_run, n, p, args.timeout,
                                   workdir, args.device) for n, p in cases]
            for future in concurrent.futures.as_completed(futures):
                name, category, reason, seconds = future.result()
                results[name] = (category, reason, seconds)
                if args.verbose:
                    print("%-8s %s %s" % (category, name, reason))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    elapsed = time.time() - start

    if args.report:
        ops = {n: operators_of(n, p) for n, p in cases}
        write_report(args.report, results, ops, elapsed, args.device)
    if args.update_expected and args.expected:
        write_expected(args.expected, results)

    expected = read_expected(args.expected)
    passed = sum(1 for c, _, _ in results.values() if c == "pass")
    failed = len(results) - passed
    status = 0
    if args.expected and not args.update_expected:
        for name, (category, reason, _) in sorted(results.items()):
            if category != "pass" and name not in expected:
                print("UNEXPECTED FAILURE %s %s: %s" % (name, category, reason))
                status = 1
            elif category == "pass" and name in expected:
                print("UNEXPECTED PASS %s (listed: %s)" % (name, expected[name]))
                status = 1
        crashes = [n for n, (c, _, _) in results.items() if c == "crash"]
        for name in crashes:
            print("CRASH %s: %s" % (name, results[name][1]))
    for suite, _ in SUITES:
        rs = [c for n, (c, _, _) in results.items() if n.startswith(suite + "/")]
        if rs:
            p = sum(1 for c in rs if c == "pass")
            print("%-28s %4d of %4d pass (%s)" % (suite, p, len(rs),
                                                  percent(p, len(rs))))
    print("%.0f s" % elapsed)
    line = "%d passed, %d failed" % (passed, failed)
    if args.expected and not args.update_expected:
        unexpected = sum(1 for n, (c, _, _) in results.items()
                         if (c != "pass") != (n in expected))
        line = "%d passed, %d failed (%d expected failures, %d unexpected results)" % (
            passed, failed, failed - sum(1 for n, (c, _, _) in results.items()
                                         if c != "pass" and n not in expected),
            unexpected)
    print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
