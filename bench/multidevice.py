#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Multi-device benchmark (ONNX IR 11, docs/multi-device.md): the four models
of utils/make_multidevice_models.py at --scale large (a Megatron MLP with
32 MB of weights, a head-sharded attention layer, a batch-sharded CNN, a
4-layer MLP in pipeline stages) run under `mpirun -np N onnx-run ...
--device-config <cfg>N --bench RUNS` for each N, the rank counts taken in
turn within each round. Prints per model and rank count the median latency
(and the spread of the round medians), its ratio to one rank, the peak RSS
of each rank and the bytes this rank-0 program sends per run.

  /usr/bin/python3 bench/multidevice.py [--build build] [--ranks 1,2,4]
      [--runs 50] [--rounds 3] [--models mlp,attention,cnn,pipeline]

More ranks than cores run oversubscribed (`--oversubscribe`): on a 2-core
machine 4 ranks share 2 cores, which is a measure of memory, not speed."""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

CONFIG = {"mlp": "tp", "attention": "tp", "cnn": "dp", "pipeline": "pp"}


def run(build, model_dir, name, ranks, runs):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    cmd = ["mpirun", "--oversubscribe", "-np", str(ranks),
           os.path.join(build, "bin", "onnx-run"),
           os.path.join(model_dir, "model.onnx"),
           "--device-config", "%s%d" % (CONFIG[name], ranks),
           "--input", "X=" + os.path.join(model_dir, "test_data_set_0",
                                           "input_0.pb"),
           "--bench", str(runs)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("%s on %d ranks failed:\n%s%s" % (name, ranks, out.stdout,
                                                   out.stderr))
    text = out.stdout + out.stderr
    latency = float(re.search(r"median latency: ([0-9.]+) ms", text).group(1))
    rss = [int(x) for x in re.search(
        r"peak resident memory(?: per rank)?: ([0-9 ]+) MB", text).group(1)
        .split()]
    comm = re.search(r"communication per run \(rank 0\): ([0-9]+) bytes", text)
    return latency, rss, int(comm.group(1)) if comm else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--ranks", default="1,2,4")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--models", default="mlp,attention,cnn,pipeline")
    args = parser.parse_args()
    ranks = [int(r) for r in args.ranks.split(",")]
    models = args.models.split(",")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, os.path.join(root, "utils",
                                          "make_multidevice_models.py"),
             tmp, "--scale", "large", "--translate",
             os.path.join(args.build, "bin", "onnx-translate")],
            check=True, stdout=subprocess.DEVNULL)
        results = {}
        for _ in range(args.rounds):
            for name in models:
                for n in ranks:
                    lat, rss, comm = run(args.build, os.path.join(tmp, name),
                                         name, n, args.runs)
                    r = results.setdefault((name, n),
                                           {"lat": [], "rss": rss, "comm": comm})
                    r["lat"].append(lat)
                    r["rss"] = [max(a, b) for a, b in zip(r["rss"], rss)]
    print("| model | ranks | median latency (spread of %d rounds) | vs 1 rank "
          "| peak RSS per rank | bytes sent per run (rank 0) |" % args.rounds)
    print("|---|---|---|---|---|---|")
    for name in models:
        base = statistics.median(results[(name, ranks[0])]["lat"])
        for n in ranks:
            r = results[(name, n)]
            med = statistics.median(r["lat"])
            print("| %s | %d | %.2f ms (%.2f-%.2f) | %.2fx | %s MB | %d |" %
                  (name, n, med, min(r["lat"]), max(r["lat"]), med / base,
                   ", ".join(str(x) for x in r["rss"]), r["comm"]))


if __name__ == "__main__":
    main()
