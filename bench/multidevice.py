#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Multi-device benchmark (ONNX IR 11, docs/multi-device.md): the four models
of utils/make_multidevice_models.py at --scale large (a Megatron MLP with
32 MB of weights, a head-sharded attention layer, a batch-sharded CNN, a
4-layer MLP in pipeline stages, the MLP on a 2x2 grid of 4 ranks: data
parallel over its rows, tensor parallel over its columns), compiled ahead of time into one library a
rank, run under `mpirun -np N onnx-run lib.%r.so --device-config <cfg>N
--bench RUNS` for each N, the rank counts taken in turn within each round; the pipeline also with its batch in micro-batches
(`--micro-batches M`, the row "pipeline/M"), which overlaps the stages.
Prints per model and rank count the median latency
(and the spread of the round medians), its ratio to one rank, the peak RSS
of each rank and the bytes this rank-0 program sends per run.

  /usr/bin/python3 bench/multidevice.py [--build build] [--ranks 1,2,4]
      [--runs 50] [--rounds 3] [--models mlp,attention,cnn,pipeline,mlp2d]
      [--micro-batches 4]

More ranks than cores run oversubscribed (`--oversubscribe`): on a 2-core
machine 4 ranks share 2 cores, which is a measure of memory, not speed."""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

CONFIG = {"mlp": "tp", "attention": "tp", "cnn": "dp", "pipeline": "pp",
          # 4 devices as a 2x2 grid only; on 1 rank, the annotations ignored
          "mlp2d": {1: None, 4: "dt4"}}


def config_of(name, ranks):
    """The device configuration of `name` for `ranks` ranks ("" for none:
    the model run as one process), or None when it has none."""
    c = CONFIG[name]
    if isinstance(c, dict):
        return "" if c.get(ranks, "missing") is None else c.get(ranks)
    return "%s%d" % (c, ranks)


def config_args(name, ranks):
    config = config_of(name, ranks)
    return ["--device-config", config] if config else []


def mpirun(ranks, args):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return subprocess.run(["mpirun", "--oversubscribe", "-np", str(ranks)] +
                          args, env=env, capture_output=True, text=True)


def compile_ranks(build, model_dir, name, ranks, micro_batches, out):
    """One ahead-of-time library a rank (`%r`), so that the runs measure the
    program and its weights, not the compiler."""
    res = mpirun(ranks, [os.path.join(build, "bin", "onnx-run"),
                         os.path.join(model_dir, "model.onnx")] +
                 config_args(name, ranks) +
                 (["--micro-batches", str(micro_batches)]
                  if micro_batches > 1 else []) +
                 ["-o", out + (".%r.so" if config_of(name, ranks) else
                               ".0.so")])
    if res.returncode != 0:
        sys.exit("compiling %s for %d ranks failed:\n%s%s" %
                 (name, ranks, res.stdout, res.stderr))


def run(build, model_dir, name, ranks, runs, library):
    res = mpirun(ranks, [os.path.join(build, "bin", "onnx-run"),
                         library + (".%r.so" if config_of(name, ranks)
                                    else ".0.so")] +
                 config_args(name, ranks) +
                 ["--input", "X=" + os.path.join(
                             model_dir, "test_data_set_0", "input_0.pb"),
                         "--bench", str(runs)])
    if res.returncode != 0:
        sys.exit("%s on %d ranks failed:\n%s%s" % (name, ranks, res.stdout,
                                                   res.stderr))
    text = res.stdout + res.stderr
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
    parser.add_argument("--models",
                        default="mlp,attention,cnn,pipeline,mlp2d")
    parser.add_argument("--micro-batches", type=int, default=4)
    args = parser.parse_args()
    ranks = [int(r) for r in args.ranks.split(",")]
    models = args.models.split(",")
    # (row name, model, micro-batches)
    rows = [(m, m, 1) for m in models]
    if "pipeline" in models and args.micro_batches > 1:
        rows.append(("pipeline/%d" % args.micro_batches, "pipeline",
                     args.micro_batches))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, os.path.join(root, "utils",
                                          "make_multidevice_models.py"),
             tmp, "--scale", "large", "--translate",
             os.path.join(args.build, "bin", "onnx-translate")],
            check=True, stdout=subprocess.DEVNULL)
        libraries = {}
        for row, name, mb in rows:
            for n in ranks:
                if config_of(name, n) is None:
                    continue
                lib = os.path.join(tmp, "%s-%d-%d" % (name, n, mb))
                compile_ranks(args.build, os.path.join(tmp, name), name, n,
                              mb, lib)
                libraries[(row, n)] = lib
        results = {}
        for _ in range(args.rounds):
            for row, name, mb in rows:
                for n in ranks:
                    if (row, n) not in libraries:
                        continue
                    lat, rss, comm = run(args.build, os.path.join(tmp, name),
                                         name, n, args.runs,
                                         libraries[(row, n)])
                    r = results.setdefault((row, n),
                                           {"lat": [], "rss": rss, "comm": comm})
                    r["lat"].append(lat)
                    r["rss"] = [max(a, b) for a, b in zip(r["rss"], rss)]
    print("| model | ranks | median latency (spread of %d rounds) | vs 1 rank "
          "| peak RSS per rank | bytes sent per run (rank 0) |" % args.rounds)
    print("|---|---|---|---|---|---|")
    for name, _, _ in rows:
        base = statistics.median(results[(name, ranks[0])]["lat"])
        for n in ranks:
            if (name, n) not in results:
                continue
            r = results[(name, n)]
            med = statistics.median(r["lat"])
            print("| %s | %d | %.2f ms (%.2f-%.2f) | %.2fx | %s MB | %d |" %
                  (name, n, med, min(r["lat"]), max(r["lat"]), med / base,
                   ", ".join(str(x) for x in r["rss"]), r["comm"]))


if __name__ == "__main__":
    main()
