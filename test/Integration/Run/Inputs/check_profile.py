"""Checks a profile written by `onnx-run --profile`.

    check_profile.py PROFILE.json RUNS NODE:OPS ...

The file must be a JSON array of complete ("ph": "X") Chrome trace events:
RUNS "Session" events "model_run", and in each run one "Node" event per
NODE:OPS given, in that order, named NODE_kernel_time with args.op_name OPS,
inside the run's time span. Prints a one-line summary.
"""

import json
import sys

path, runs, kernels = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
with open(path) as f:
    events = json.load(f)
assert isinstance(events, list), "not a JSON array"
for e in events:
    for key in ("cat", "pid", "tid", "dur", "ts", "ph", "name", "args"):
        assert key in e, f"event without {key}: {e}"
    assert e["ph"] == "X" and e["dur"] >= 0, e
sessions = [e for e in events if e["cat"] == "Session"]
nodes = [e for e in events if e["cat"] == "Node"]
assert len(sessions) == runs, f"{len(sessions)} runs, wanted {runs}"
assert len(nodes) == runs * len(kernels), f"{len(nodes)} kernel events"
expected = [k.split(":") for k in kernels]
for r, run in enumerate(sessions):
    assert run["name"] == "model_run", run
    inside = [e for e in nodes
              if run["ts"] <= e["ts"] and
              e["ts"] + e["dur"] <= run["ts"] + run["dur"] + 1e-3]
    got = [(e["name"], e["args"]["op_name"]) for e in inside]
    want = [(n + "_kernel_time", ops) for n, ops in expected]
    assert got == want, f"run {r}: {got}, wanted {want}"
print(f"{runs} runs, {len(kernels)} kernels per run: " +
      ", ".join(f"{n} {ops}" for n, ops in expected))
