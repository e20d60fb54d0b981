#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Fills the "lower" and "run CPU" columns of utils/op_status.json from the
conformance runner's results (docs/conformance.md and the expected-failure
list it was checked against); then run utils/gen_onnx_ops.py to regenerate
docs/status.md.

run CPU: node tests passing / node tests of the operator, both suites
(ONNX 1.12 and 1.22) together. lower: "yes" when at least one of its node
tests passes end to end and none fails for want of a lowering of it,
"partial" when some pass and some lack it, "-" otherwise.
"""
import argparse
import json
import os
import re

ROW = re.compile(r"^\| (\S+) \| (\S+) \| (\S+) \|$")
NO_LOWERING = re.compile(r"no-lowering: no lowering: (.*)$")


def counts(cell):
    if cell == "-":
        return 0, 0
    a, b = cell.split("/")
    return int(a), int(b)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--report", default=os.path.join(root, "docs", "conformance.md"))
    ap.add_argument("--expected", default=os.path.join(
        root, "test", "Conformance", "run-expected-failures.txt"))
    ap.add_argument("--status", default=os.path.join(here, "op_status.json"))
    args = ap.parse_args()

    missing = set()
    with open(args.expected) as f:
        for line in f:
            m = NO_LOWERING.search(line.strip())
            if m:
                for op in m.group(1).split(", "):
                    # onnx.Name or onnx.domain.Name -> the status key.
                    key = op[len("onnx."):]
                    key = key.replace("preview.", "ai.onnx.preview.", 1) \
                        if key.startswith("preview.") else key
                    key = key.replace("ml.", "ai.onnx.ml.", 1) \
                        if key.startswith("ml.") else key
                    missing.add(key)

    with open(args.status) as f:
        status = json.load(f)
    in_table = False
    for line in open(args.report):
        line = line.strip()
        if line.startswith("## Per operator"):
            in_table = True
            continue
        if in_table and line.startswith("## "):
            break
        m = ROW.match(line) if in_table else None
        if not m or m.group(1) == "operator":
            continue
        a1, b1 = counts(m.group(2))
        a2, b2 = counts(m.group(3))
        passed, total = a1 + a2, b1 + b2
        entry = status.setdefault(m.group(1), {})
        entry["run_cpu"] = "%d/%d" % (passed, total)
        if passed and m.group(1) not in missing:
            entry["lower"] = "yes"
        elif passed:
            entry["lower"] = "partial"
        else:
            entry["lower"] = "-"
    with open(args.status, "w") as f:
        json.dump(status, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
