#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Times onnx-run against ONNX Runtime on the same machine, models and inputs.

  /usr/bin/python3 bench/run.py [--models matmul,conv,resnet50,mobilenetv2,transformer]
                                [--runs 10] [--rounds 3] [--threads 1,2]
                                [--build build]

For each model of bench/models.py (built into --cache on first use) and each
thread count: ONNX Runtime (npm onnxruntime-node, installed into
bench/node_modules when missing; graph optimization 'all', intra-op threads T)
and onnx-run (`onnx-run --bench N --threads T` on the model compiled ahead of
time) are timed in alternation, --rounds times each, every round the median
of N runs after one warm-up run. A row gives the median round of each side
with half the spread of its rounds, the ratio ours / ORT (below 1 is faster
than ORT), our GFLOP/s (the multiply-adds of MatMul, Gemm and Conv), the peak
resident memory of both processes, our compile time, and whether our outputs
match ORT's on the same inputs (the largest absolute difference, and that
difference relative to the largest |ORT output|). A model onnx-run cannot
compile or run yet gets its error in one line instead of a number (the
operators with no lowering yet); nothing stops the whole run. Exit status 0
unless the setup itself fails (no Node/npm, ORT cannot load a model).
"""
import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import models  # noqa: E402

ORT_SCRIPT = os.path.join(HERE, "ort_bench.js")
ORT_PACKAGE = os.path.join(HERE, "node_modules", "onnxruntime-node")
# Our outputs match when the largest difference is within this fraction of
# the largest |ORT output| (float32, different summation orders).
REL_TOLERANCE = 1e-3


class Failure(Exception):
    """A step that failed, with a one-line reason."""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def ensure_ort():
    """Installs onnxruntime-node into bench/node_modules when missing."""
    if os.path.exists(os.path.join(ORT_PACKAGE, "package.json")):
        return
    if not shutil.which("npm"):
        log("bench: installing the Debian package npm")
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq",
                               "--no-install-recommends", "npm"],
                       check=True, env=env, stdout=subprocess.DEVNULL)
    log("bench: npm install --prefix bench onnxruntime-node")
    # The CPU provider is in the package; its install script would only fetch
    # the CUDA provider from nuget.org, which a CPU benchmark does not need.
    env = dict(os.environ, ONNXRUNTIME_NODE_INSTALL="skip")
    subprocess.run(["npm", "install", "--prefix", HERE, "onnxruntime-node",
                    "--no-save", "--no-audit", "--no-fund"],
                   check=True, env=env, stdout=subprocess.DEVNULL)


def one_line(text, limit=160):
    """The gist of a tool's stderr in one line: the operators that have no
    lowering yet when that is what failed, else the line that says what went
    wrong (the first one with "error", else the first that is not a note)."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    if not lines:
        return "no message"
    missing = []
    for l in lines:
        m = re.search(r"\bonnx\.(\w+)(?: '[^']*')?: no lowering", l)
        if m and m.group(1) not in missing:
            missing.append(m.group(1))
    if missing:
        line = "no lowering yet for " + ", ".join(missing)
    else:
        line = next((l for l in lines if re.search(r"\berror\b", l, re.I)),
                    next((l for l in lines if not l.startswith("note:")),
                         lines[0]))
        # Drop a "tool: path:" or loc(...) prefix.
        m = re.search(r"\berror:\s*(.*)", line, re.I)
        if m:
            line = m.group(1)
        line = re.sub(r"^[\w.-]+: \S+\.(onnx|so|mlir): ", "", line)
    line = re.sub(r"\s+", " ", line)
    return line if len(line) <= limit else line[:limit - 3] + "..."


def run_tool(cmd, timeout, what):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure("%s timed out after %d s" % (what, timeout))
    except OSError as e:  # e.g. a binary being relinked under us
        raise Failure("%s: cannot run %s: %s" % (what, cmd[0], e.strerror))
    if r.returncode < 0:
        raise Failure("%s crashed (signal %d): %s" %
                      (what, -r.returncode, one_line(r.stderr)))
    if r.returncode != 0:
        raise Failure("%s: %s" % (what, one_line(r.stderr or r.stdout)))
    return r


def input_args(inputs):
    args = []
    for name, path in inputs.items():
        args += ["--input", "%s=%s" % (name, path)]
    return args


def ort_run(model, inputs, threads, runs, warmup, timeout, output_dir=None):
    cmd = ["node", ORT_SCRIPT, model] + input_args(inputs) + [
        "--runs", str(runs), "--warmup", str(warmup), "--threads",
        str(threads)]
    if output_dir:
        cmd += ["--output-dir", output_dir]
    r = run_tool(cmd, timeout, "onnxruntime")
    return json.loads(r.stdout.strip().splitlines()[-1])


class Ours:
    """onnx-run on one model for one thread count. Threads are a compile-time
    choice (T > 1 compiles OpenMP loops, T = 1 sequential code), so the model
    is compiled ahead of time once per thread count (`-o model.so --threads
    T`, unless --jit), then run for its outputs and timed."""

    def __init__(self, onnx_run, model, inputs, threads, work, args):
        self.onnx_run, self.inputs, self.args = onnx_run, inputs, args
        self.threads = ["--threads", str(threads)]
        self.target = model
        self.compile_s = None
        if not args.jit:
            so = os.path.join(work, "model-t%d.so" % threads)
            start = time.monotonic()
            run_tool([onnx_run, model, "-o", so] + self.threads, args.timeout,
                     "onnx-run -o")
            self.compile_s = time.monotonic() - start
            self.target = so

    def outputs(self, out_dir):
        start = time.monotonic()
        run_tool([self.onnx_run, self.target] + input_args(self.inputs) +
                 self.threads + ["--output-dir", out_dir], self.args.timeout,
                 "onnx-run")
        return time.monotonic() - start

    def bench(self, runs):
        r = run_tool([self.onnx_run, self.target] + input_args(self.inputs) +
                     self.threads + ["--bench", str(runs)], self.args.timeout,
                     "onnx-run --bench")
        m = re.search(r"median latency:\s*([0-9.eE+-]+)\s*ms", r.stdout)
        if not m:
            raise Failure("onnx-run --bench printed no median latency: %s" %
                          one_line(r.stdout + r.stderr))
        rss = re.search(r"peak resident memory:\s*([0-9]+)\s*MB", r.stdout)
        return float(m.group(1)), float(rss.group(1)) if rss else None

    def runtime_rss(self):
        """The peak resident memory of running the library in a program that
        links only the runtime library (`onnxd-run-only`, bench/c_api_run.c),
        as a deployed program would: onnx-run's own figure includes libLLVM
        and libMLIR, which it loads even to run a library. None with --jit or
        without that program in the build."""
        runner = os.path.join(os.path.dirname(self.onnx_run), "onnxd-run-only")
        if self.args.jit or not os.path.exists(runner):
            return None
        r = run_tool([runner, self.target, "3"] +
                     ["%s=%s" % item for item in self.inputs.items()],
                     self.args.timeout, "onnxd-run-only")
        rss = re.search(r"peak resident memory:\s*([0-9]+)\s*MB", r.stderr)
        return float(rss.group(1)) if rss else None


def compare(ours_dir, ref_dir):
    """Checks our outputs against ORT's; returns (ok, one-line summary)."""
    worst_abs, worst_rel, notes = 0.0, 0.0, []
    for file in sorted(os.listdir(ref_dir)):
        name = file[:-len(".npy")]
        ref = np.load(os.path.join(ref_dir, file))
        path = os.path.join(ours_dir, file)
        if not os.path.exists(path):
            return False, "no output '%s' from onnx-run" % name
        got = np.load(path)
        if got.shape != ref.shape:
            return False, "output '%s' has shape %s, ORT's %s" % (
                name, list(got.shape), list(ref.shape))
        if got.dtype != ref.dtype:
            notes.append("%s is %s, ORT's %s" % (name, got.dtype, ref.dtype))
        got64, ref64 = got.astype(np.float64), ref.astype(np.float64)
        if not np.isfinite(got64).all():
            return False, "output '%s' has NaN or Inf" % name
        diff = float(np.abs(got64 - ref64).max()) if ref.size else 0.0
        scale = float(np.abs(ref64).max()) if ref.size else 0.0
        worst_abs = max(worst_abs, diff)
        worst_rel = max(worst_rel, diff / scale if scale else diff)
    ok = worst_rel <= REL_TOLERANCE and not notes
    text = "%s: max abs %.2g, rel %.2g" % ("ok" if ok else "MISMATCH",
                                           worst_abs, worst_rel)
    return ok, "; ".join([text] + notes)


def fmt_ms(ms):
    return "-" if ms is None else ("%.2f" % ms if ms < 1000 else "%.0f" % ms)


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"model name\s*:\s*(.*)", f.read())
            if m:
                cpu = m.group(1).strip()
    except OSError:
        pass
    load = "%.1f" % os.getloadavg()[0] if hasattr(os, "getloadavg") else "?"
    return "%s, %d cores, load average %s" % (cpu, os.cpu_count() or 0, load)


def spread(values):
    """(median, spread): the spread is (max - min) / median of the rounds."""
    values = sorted(v for v in values if v is not None)
    if not values:
        return None, None
    mid = len(values) // 2
    median = values[mid] if len(values) % 2 else (values[mid - 1] +
                                                  values[mid]) / 2
    return median, (values[-1] - values[0]) / median if median else 0.0


def bench_model(name, args, onnx_run):
    """Returns the table rows of one model; never raises. ONNX Runtime and
    onnx-run are timed in alternation, --rounds times, each round N runs."""
    rows = []

    def row(threads, **fields):
        r = {"model": name, "threads": threads, "ort_ms": None,
             "ours_ms": None, "ratio": None, "ort_spread": None,
             "ours_spread": None, "gflops": None, "ours_rss_mb": None,
             "ours_tool_rss_mb": None, "ort_rss_mb": None, "compile_s": None,
             "note": ""}
        r.update(fields)
        if r["ours_ms"] and r["ort_ms"]:
            r["ratio"] = r["ours_ms"] / r["ort_ms"]
        rows.append(r)

    try:
        model, inputs = models.ensure(name, args.cache)
        work_flops = models.flops(model)
    except Exception as e:  # a broken generator: report it, go on
        for t in args.threads:
            row(t, note="cannot build the model: %s" % one_line(str(e)))
        return rows

    with tempfile.TemporaryDirectory(prefix="bench-%s-" % name) as work:
        ref_dir = os.path.join(work, "ort")
        ref_ok = True
        try:
            ort_run(model, inputs, args.threads[0], 0, args.warmup,
                    args.timeout, ref_dir)
        except Failure as e:
            ref_ok = False
            log("bench: %s" % e)

        for t in args.threads:
            notes, ours, runs = [], None, args.runs
            fields = {}
            try:
                if args.no_ours:
                    raise Failure("not run (--no-ours)")
                if not onnx_run:
                    raise Failure("no onnx-run in %s/bin" % args.build)
                log("bench: %s, onnx-run, %d thread(s): compile" % (name, t))
                ours = Ours(onnx_run, model, inputs, t, work, args)
                fields["compile_s"] = ours.compile_s
                out_dir = os.path.join(work, "ours-t%d" % t)
                once = ours.outputs(out_dir)
                notes.append(compare(out_dir, ref_dir)[1] if ref_ok else
                             "not checked: ORT failed")
                # Keep slow models within --max-seconds per measurement.
                if once * (runs + 1) > args.max_seconds:
                    runs = max(3, int(args.max_seconds / max(once, 1e-3)) - 1)
                    notes.append("%d runs" % runs)
            except Failure as e:
                notes.append(str(e))
                ours = None
            ort_ms, ours_ms, ort_rss, ours_rss = [], [], [], []
            for r in range(args.rounds):
                log("bench: %s, %d thread(s), round %d of %d" %
                    (name, t, r + 1, args.rounds))
                order = ["ort", "ours"] if r % 2 == 0 else ["ours", "ort"]
                for who in order:
                    try:
                        if who == "ort":
                            o = ort_run(model, inputs, t, runs, args.warmup,
                                        args.timeout)
                            ort_ms.append(o["median_ms"])
                            if o.get("rss_mb") is not None:
                                ort_rss.append(o["rss_mb"])
                        elif ours:
                            ms, rss = ours.bench(runs)
                            ours_ms.append(ms)
                            if rss is not None:
                                ours_rss.append(rss)
                    except Failure as e:
                        notes.append(str(e))
                        if who == "ours":
                            ours = None
            fields["ort_ms"], fields["ort_spread"] = spread(ort_ms)
            fields["ours_ms"], fields["ours_spread"] = spread(ours_ms)
            if fields["ours_ms"]:
                fields["gflops"] = work_flops / fields["ours_ms"] / 1e6
            fields["ours_tool_rss_mb"] = max(ours_rss) if ours_rss else None
            fields["ours_rss_mb"] = fields["ours_tool_rss_mb"]
            if ours:
                try:
                    rss = ours.runtime_rss()
                    if rss is not None:
                        fields["ours_rss_mb"] = rss
                except Failure as e:
                    notes.append(str(e))
            fields["ort_rss_mb"] = max(ort_rss) if ort_rss else None
            if not ort_ms:
                notes.append("ORT failed")
            row(t, note="; ".join(dict.fromkeys(notes)), **fields)
    return rows


def print_table(rows):
    def ms(value, sp):
        if value is None:
            return "-"
        return "%s ±%.0f%%" % (fmt_ms(value), 100 * sp / 2) if sp else fmt_ms(value)

    head = ["model", "threads", "ours ms", "ORT ms", "ours/ORT", "GFLOP/s",
            "RSS MB ours/ORT", "compile s", "check"]
    body = []
    for r in rows:
        rss = "-" if r["ours_rss_mb"] is None or r["ort_rss_mb"] is None else \
            "%.0f / %.0f" % (r["ours_rss_mb"], r["ort_rss_mb"])
        body.append([
            r["model"], str(r["threads"]), ms(r["ours_ms"], r["ours_spread"]),
            ms(r["ort_ms"], r["ort_spread"]),
            "-" if r["ratio"] is None else "%.2fx" % r["ratio"],
            "-" if r["gflops"] is None else "%.1f" % r["gflops"], rss,
            "-" if r["compile_s"] is None else "%.1f" % r["compile_s"],
            r["note"]])
    widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    right = [False] + [True] * 7 + [False]

    def line(cells):
        return "| " + " | ".join(
            c.rjust(w) if rt else c.ljust(w)
            for c, w, rt in zip(cells, widths, right)) + " |"

    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for b in body:
        print(line(b))


def main():
    p = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="models: " + ", ".join(models.MODELS) +
        "; only when named: " + ", ".join(models.OPT_IN))
    p.add_argument("--models", default=",".join(models.MODELS),
                   help="comma-separated subset (default: all)")
    p.add_argument("--runs", type=int, default=10,
                   help="timed runs per measurement (default 10)")
    p.add_argument("--rounds", type=int, default=3,
                   help="measurements of each side, alternating ORT and "
                        "onnx-run (default 3); the table gives the median "
                        "round and half the spread of the rounds")
    p.add_argument("--warmup", type=int, default=1,
                   help="ORT warm-up runs (default 1, as onnx-run does)")
    p.add_argument("--threads", default="1,2",
                   help="comma-separated thread counts (default 1,2)")
    p.add_argument("--build", default=os.path.join(HERE, "..", "build"),
                   help="the build folder with bin/onnx-run (default build)")
    p.add_argument("--cache", default=models.DEFAULT_CACHE,
                   help="where the models are built (default bench/.models)")
    p.add_argument("--jit", action="store_true",
                   help="compile the .onnx in every onnx-run call instead of "
                        "once ahead of time with -o model.so")
    p.add_argument("--no-ours", action="store_true",
                   help="time ONNX Runtime only")
    p.add_argument("--timeout", type=int, default=900,
                   help="seconds for any one tool call (default 900)")
    p.add_argument("--max-seconds", type=float, default=120,
                   help="fewer onnx-run runs when N runs would take longer")
    p.add_argument("--json", metavar="FILE", help="also write the rows here")
    args = p.parse_args()
    args.build = os.path.abspath(args.build)
    names = [n for n in args.models.split(",") if n]
    unknown = [n for n in names
               if n not in models.MODELS and n not in models.OPT_IN]
    if unknown:
        p.error("unknown model(s) %s; known: %s" %
                (", ".join(unknown), ", ".join(models.MODELS)))
    try:
        args.threads = [int(t) for t in args.threads.split(",") if t]
    except ValueError:
        p.error("--threads takes a comma-separated list of integers")
    if not args.threads or min(args.threads) < 1 or args.runs < 1 or \
            args.rounds < 1:
        p.error("--threads, --runs and --rounds must be at least 1")

    try:
        ensure_ort()
    except (subprocess.CalledProcessError, OSError) as e:
        sys.exit("bench: cannot install onnxruntime-node: %s" % e)
    onnx_run = os.path.join(args.build, "bin", "onnx-run")
    if args.no_ours:
        onnx_run = None
    elif not os.access(onnx_run, os.X_OK):
        log("bench: no %s; timing ONNX Runtime only" % onnx_run)
        onnx_run = None

    with open(os.path.join(ORT_PACKAGE, "package.json")) as f:
        ort_version = json.load(f)["version"]
    print("machine: %s" % machine())
    print("onnxruntime-node %s; onnx-run: %s; %d rounds of %d runs, "
          "interleaved; %s" % (ort_version, onnx_run or "-", args.rounds,
                               args.runs, time.strftime("%Y-%m-%d")))
    rows = []
    for name in names:
        rows += bench_model(name, args, onnx_run)
    print()
    print_table(rows)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine(), "ort": ort_version,
                       "runs": args.runs, "rounds": args.rounds,
                       "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
