#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Where the time of a model goes, from Chrome trace-event profiles.

    bench/profile_summary.py PROFILE.json [PROFILE2.json ...] [--top N]

Reads the profiles `onnx-run --profile FILE` writes, and those of ONNX
Runtime (`node bench/ort_bench.js ... --profile PREFIX`): both hold one
"Node" event "<node>_kernel_time" per kernel and run (args.op_name: the op
types) and one "Session" event "model_run" per run. The first run (the
warm-up) is left out when there are several. Prints, per file, the time per
run by op type and the N slowest kernels, in milliseconds per run and as a
share of the kernels' total.
"""

import argparse
import collections
import json
import sys


def load(path):
    try:
        with open(path) as f:
            events = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"profile_summary: {path}: {e}")
    if isinstance(events, dict):  # {"traceEvents": [...]}
        events = events.get("traceEvents", [])
    runs = sorted((e for e in events if e.get("name") == "model_run"),
                  key=lambda e: e["ts"])
    kernels = [e for e in events
               if e.get("cat") == "Node"
               and str(e.get("name", "")).endswith("_kernel_time")]
    if len(runs) > 1:  # leave the warm-up run out
        first_end = runs[0]["ts"] + runs[0]["dur"]
        kernels = [e for e in kernels if e["ts"] >= first_end]
        runs = runs[1:]
    return runs, kernels


def summarize(path, top):
    runs, kernels = load(path)
    n = max(len(runs), 1)
    by_type = collections.Counter()
    by_node = collections.Counter()
    node_type = {}
    for e in kernels:
        op = e.get("args", {}).get("op_name", "?")
        node = e["name"][: -len("_kernel_time")]
        by_type[op] += e["dur"]
        by_node[node] += e["dur"]
        node_type[node] = op
    total = sum(by_type.values())
    run_ms = sum(r["dur"] for r in runs) / n / 1000 if runs else 0
    print(f"{path}: {len(runs)} runs, {run_ms:.3f} ms per run, "
          f"kernels {total / n / 1000:.3f} ms per run")
    if not total:
        return
    print(f"  {'op type':<40} {'ms/run':>9} {'share':>7}")
    for op, us in by_type.most_common():
        print(f"  {op[:40]:<40} {us / n / 1000:9.4f} {100 * us / total:6.1f}%")
    print(f"  {'slowest kernels':<40} {'ms/run':>9} {'share':>7}  op type")
    for node, us in by_node.most_common(top):
        print(f"  {node[:40]:<40} {us / n / 1000:9.4f} "
              f"{100 * us / total:6.1f}%  {node_type[node]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profiles", nargs="+")
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    for i, path in enumerate(args.profiles):
        if i:
            print()
        summarize(path, args.top)


if __name__ == "__main__":
    main()
