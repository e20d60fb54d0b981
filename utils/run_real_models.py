#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs the real-model corpus through onnx-run and checks it against ONNX Runtime.

  /usr/bin/python3 utils/run_real_models.py [--build build] [--dir .real-models]
        [--filter REGEX] [--timeout 600] [--threads 1]
        [--expected utils/real-models-expected.txt] [--report docs/real-models.md]
        [--json FILE] [--work DIR] [--keep]

The corpus is what `utils/real_models.py fetch` made in --dir (one .onnx and
one .json record a model). For each model, in name order, one at a time:

 1. inputs: deterministic random data (numpy default_rng seeded from the
    model's name) of each graph input's type and shape; symbolic dimensions
    take the record's "dims" (else 1); the record's "inputs" give a shape,
    a value range, fixed values (a sample rate), or a padding mask.
 2. ONNX Runtime (npm onnxruntime-node, CPU provider, through
    bench/ort_bench.js: graph optimizations 'all', one thread) gives the
    reference outputs. A model ORT cannot run is listed with ORT's error and
    is not counted against us.
 3. onnx-run: `onnx-run MODEL.onnx -o model.so` (compile s), then
    `onnx-run model.so --input ... --output-dir` (run s); --timeout bounds
    the two together.
 4. every output is compared: float outputs by the largest absolute
    difference relative to the largest |ORT output| (match when <= 1e-4),
    integer and bool outputs exactly; shapes first (a detection model's
    outputs have data-dependent lengths, so a shape difference is reported
    as such).

It prints one row a model (model, source, status, detail, compile s, run s,
ORT s) and a totals line. A failure (ours: compile error, crash, timeout,
mismatch) is "expected" when --expected lists the model (`NAME  reason` a
line), else "unexpected"; a listed model that passes is an unexpected pass.
The exit status is 1 when anything unexpected happened, else 0.
Our stderr of each failing model is kept in --work/NAME/ (default
/tmp/real-models-work) for diagnosis.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
import zlib

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "utils"))
import run as bench_run  # noqa: E402  bench/run.py: ORT install, one_line
from run_conformance import classify, read_expected  # noqa: E402
from real_models import DEFAULT_DIR, load_records  # noqa: E402

ORT_SCRIPT = os.path.join(ROOT, "bench", "ort_bench.js")
REL_TOLERANCE = 1e-4
EXPECTED = os.path.join(ROOT, "utils", "real-models-expected.txt")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def first_line(text, limit=220):
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[:limit - 3] + "..."


# --------------------------------------------------------------------------
# inputs
# --------------------------------------------------------------------------

def graph_inputs(model):
    """(name, numpy dtype, [dim value or dim_param or None]) of each input
    that is not an initializer."""
    from onnx import mapping

    inits = {i.name for i in model.graph.initializer}
    out = []
    for inp in model.graph.input:
        if inp.name in inits:
            continue
        t = inp.type.tensor_type
        dtype = np.dtype(mapping.TENSOR_TYPE_TO_NP_TYPE[t.elem_type])
        dims = []
        for d in t.shape.dim:
            if d.HasField("dim_value"):
                dims.append(d.dim_value)
            else:
                dims.append(d.dim_param or None)
        out.append((inp.name, dtype, dims))
    return out


def padding_mask(shape, keep, rng, dtype):
    """[batch, seq]: row b keeps its first seq - 2b positions (at least 1);
    the padded ones are True (keep=None) or 0 (keep=1: 1 marks a kept one)."""
    batch, seq = shape[0], shape[-1]
    pad = np.zeros((batch, seq), bool)
    for b in range(batch):
        pad[b, max(1, seq - 2 * b):] = True
    if keep is None:
        return pad.astype(dtype)
    return np.where(pad, 0, keep).astype(dtype)


def make_inputs(rec, model, rng):
    """{name: array} for the model's inputs, from the record's specs."""
    dims = rec.get("dims", {})
    specs = rec.get("inputs", {})
    arrays = {}
    for name, dtype, gdims in graph_inputs(model):
        spec = specs.get(name, {})
        if "shape" in spec:
            shape = list(spec["shape"])
        else:
            shape = [d if isinstance(d, int) else dims.get(d, 1)
                     for d in gdims]
        if "values" in spec:
            a = np.array(spec["values"], dtype)
            arrays[name] = a.reshape(shape) if a.size == int(
                np.prod(shape)) else a
            continue
        if spec.get("zeros"):
            arrays[name] = np.zeros(shape, dtype)
        elif "padding_mask" in spec:
            arrays[name] = padding_mask(shape, spec.get("keep"), rng, dtype)
        elif dtype == np.bool_:
            arrays[name] = rng.random(shape) < 0.5
        elif np.issubdtype(dtype, np.integer):
            lo, hi = spec.get("range", [0, 10])
            arrays[name] = rng.integers(lo, hi, shape).astype(dtype)
        else:
            lo, hi = spec.get("range", [-1, 1])
            arrays[name] = rng.uniform(lo, hi, shape).astype(dtype)
    return arrays


def safe(name):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


def save_inputs(arrays, directory):
    os.makedirs(directory, exist_ok=True)
    args = []
    for i, (name, a) in enumerate(arrays.items()):
        path = os.path.join(directory, "%d_%s.npy" % (i, safe(name)))
        np.save(path, a)
        args += ["--input", "%s=%s" % (name, path)]
    return args


# --------------------------------------------------------------------------
# running
# --------------------------------------------------------------------------

class Failed(Exception):
    def __init__(self, category, reason, text=""):
        super().__init__(reason)
        self.category, self.reason, self.text = category, reason, text


def tool(cmd, timeout, log_path=None):
    """Runs cmd; returns (rc, stdout+stderr, seconds); rc None on timeout."""
    start = time.monotonic()
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=max(1, timeout))
        out, rc = r.stdout.decode("utf-8", "replace"), r.returncode
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        rc = None
    except OSError as e:
        out, rc = "cannot run %s: %s" % (cmd[0], e.strerror), 127
    if log_path:
        with open(log_path, "w") as f:
            f.write(" ".join(cmd) + "\n\n" + out)
    return rc, out, time.monotonic() - start


FAILED_OP = re.compile(r"(?:'|\b)(onnx\.\w+)'?(?:\s+op)?")
LOC_OP = re.compile(r'loc\("([^"]+)"\)')
PASS = re.compile(r"(?:in pass|pass) '?([\w-]+)'?|\bPass: ([\w-]+)",
                  re.I)


def our_error(rc, out, what):
    """(category, one line) of a failed onnx-run: the first error line, and
    the op and pass it names when it names them."""
    if rc is None:
        return "timeout", "%s timed out" % what
    category, reason = classify(rc, out)
    if category == "no-lowering":
        return category, reason
    lines = [l.strip() for l in out.splitlines() if l.strip()]
    err = next((l for l in lines if re.search(r"\berror\b", l, re.I)),
               lines[0] if lines else "exit status %d" % rc)
    err = re.sub(r"^\S*onnx-run: ", "", err)
    err = re.sub(r"\(anonymous namespace\)::", "", err)
    while re.search(r"<[^<>]*>", err):  # C++ template arguments
        err = re.sub(r"<[^<>]*>", "", err)
    err = re.sub(r": this is a bug of OnnxDialect.*", "", err)
    err = re.sub(r"^\S+\.(onnx|so|mlir):\d*:?\d*:?\s*", "", err)
    extra = []
    ops = [m for m in FAILED_OP.findall(out)]
    if ops and ops[0] not in err:
        extra.append("op " + ops[0])
    passes = [a or b for a, b in PASS.findall(out)]
    if passes and passes[0] not in err:
        extra.append("pass " + passes[0])
    node = re.search(r"\bnode '([^']+)'", out)
    if node and node.group(1) not in err:
        extra.append("node " + node.group(1))
    if rc < 0:
        err = "signal %d: %s" % (-rc, err)
    text = err + ("  [" + ", ".join(extra) + "]" if extra else "")
    return category if category != "compile" or what == "compile" \
        else "runtime", first_line(text)


def detection_order(ours_dir, ref_dir):
    """For a detection model: the permutation that puts our detections in
    ORT's order (each of ORT's, in turn, takes the unmatched one of ours of
    the same label whose box is nearest), or None when the counts differ.
    Detections whose scores tie to within float32 rounding may come out in
    either order; the outputs are then compared detection by detection, so
    a swap passes only where the scores agree within the tolerance."""
    def load(d, n):
        path = os.path.join(d, n + ".npy")
        return np.load(path) if os.path.exists(path) else None
    ref_boxes, got_boxes = load(ref_dir, "boxes"), load(ours_dir, "boxes")
    if ref_boxes is None or got_boxes is None or \
            ref_boxes.shape != got_boxes.shape or ref_boxes.ndim != 2:
        return None
    ref_labels, got_labels = load(ref_dir, "labels"), load(ours_dir, "labels")
    if ref_labels is None or got_labels is None or \
            ref_labels.shape != got_labels.shape:
        ref_labels = got_labels = np.zeros(len(ref_boxes), np.int64)
    ref_boxes = ref_boxes.astype(np.float64)
    got_boxes = got_boxes.astype(np.float64)
    order, free = [], set(range(len(got_boxes)))
    for i in range(len(ref_boxes)):
        same = [j for j in free if got_labels[j] == ref_labels[i]] or \
            list(free)
        j = min(same, key=lambda j: (
            float(np.abs(got_boxes[j] - ref_boxes[i]).max()), j))
        free.remove(j)
        order.append(j)
    return np.array(order, np.int64)


def compare(ours_dir, ref_dir, names, variable):
    """(ok, summary) of our outputs against ORT's."""
    worst, worst_name, notes, weak = 0.0, None, [], []
    order = detection_order(ours_dir, ref_dir) if variable else None
    moved = 0 if order is None else int(
        np.count_nonzero(order != np.arange(len(order))))
    for name in names:
        ref_path = os.path.join(ref_dir, name + ".npy")
        path = os.path.join(ours_dir, name + ".npy")
        if not os.path.exists(path):
            return False, "no output '%s' from onnx-run" % name
        ref, got = np.load(ref_path), np.load(path)
        if moved and got.ndim and got.shape[0] == len(order):
            got = got[order]
        if got.shape != ref.shape:
            what = "detections differ: " if variable else ""
            return False, "%soutput '%s' has shape %s, ORT's %s" % (
                what, name, list(got.shape), list(ref.shape))
        if ref.size == 0:
            continue
        if ref.dtype.kind in "biu" or ref.dtype == np.bool_:
            bad = int(np.count_nonzero(got.astype(np.int64) !=
                                       ref.astype(np.int64)))
            if bad:
                return False, "'%s' (%s): %d of %d values differ" % (
                    name, ref.dtype, bad, ref.size)
            continue
        r64, g64 = ref.astype(np.float64), got.astype(np.float64)
        ref_nan, got_nan = ~np.isfinite(r64), ~np.isfinite(g64)
        if (ref_nan != got_nan).any():
            return False, "'%s': NaN/Inf in %d places, ORT's in %d" % (
                name, int(got_nan.sum()), int(ref_nan.sum()))
        fin = ~ref_nan
        if not fin.any():
            continue
        diff = float(np.abs(g64[fin] - r64[fin]).max())
        scale = float(np.abs(r64[fin]).max())
        if float(r64[fin].max() - r64[fin].min()) <= 1e-6 * scale:
            notes_weak = "'%s' is constant (a weak check)" % name
            weak.append(notes_weak)
        rel = diff / scale if scale else diff
        if got.dtype != ref.dtype:
            notes.append("'%s' is %s, ORT's %s" % (name, got.dtype,
                                                   ref.dtype))
        if rel >= worst:
            worst, worst_name = rel, name
    if notes:
        return False, "; ".join(notes)
    ok = worst <= REL_TOLERANCE
    text = "rel err %.1e%s" % (worst, " ('%s')" % worst_name
                               if worst_name and len(names) > 1 and
                               not ok else "")
    if weak:
        text += "; " + "; ".join(weak)
    if variable:
        text += ", %d detections" % np.load(
            os.path.join(ref_dir, "boxes.npy")).shape[0]
        if moved:
            text += " (%d in another order, matched by box)" % moved
    return ok, text


def run_model(rec, args, onnx_run):
    name = rec["name"]
    model_path = os.path.join(rec["_dir"], rec["file"])
    work = os.path.join(args.work, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    result = {"name": name, "source": rec["source"], "compile_s": None,
              "run_s": None, "ort_s": None}
    import onnx

    model = onnx.load(model_path)
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    inputs = make_inputs(rec, model, rng)
    del model
    input_args = save_inputs(inputs, os.path.join(work, "inputs"))
    ort_dir = os.path.join(work, "ort")
    rc, out, secs = tool(["node", ORT_SCRIPT, model_path] + input_args +
                         ["--runs", "0", "--warmup", "0", "--threads", "1",
                          "--output-dir", ort_dir], args.timeout,
                         os.path.join(work, "ort.log"))
    result["ort_s"] = secs
    try:
        result["ort_version"] = json.loads(out.strip().splitlines()[-1])["ort"]
    except (ValueError, KeyError, IndexError):
        pass
    if rc != 0:
        lines = [l for l in out.splitlines() if l.strip()]
        msg = next((l for l in lines if "ort_bench:" in l),
                   lines[-1] if lines else "timed out")
        result.update(status="ORT error", detail=first_line(
            msg.replace("ort_bench: ", "")))
        return result
    names = [f[:-4] for f in sorted(os.listdir(ort_dir))]

    so = os.path.join(work, "model.so")
    threads = ["--threads", str(args.threads)]
    rc, out, secs = tool([onnx_run, model_path, "-o", so] + threads,
                         args.timeout, os.path.join(work, "compile.log"))
    result["compile_s"] = secs
    if rc != 0:
        category, why = our_error(rc, out, "compile")
        result.update(status="ours: " + category, detail=why)
        return result
    ours_dir = os.path.join(work, "ours")
    rc, out, secs = tool([onnx_run, so] + input_args + threads +
                         ["--output-dir", ours_dir],
                         args.timeout - result["compile_s"],
                         os.path.join(work, "run.log"))
    result["run_s"] = secs
    if rc != 0:
        category, why = our_error(rc, out, "run")
        result.update(status="ours: " + category, detail=why)
        return result
    ok, why = compare(ours_dir, ort_dir, names, "boxes" in names)
    result.update(status="match" if ok else "MISMATCH", detail=why)
    if ok and not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return result


def counts_against(result):
    """Whether a result is ours to fix: not a skip, not an ORT error."""
    return result["status"] not in ("match", "skipped", "ORT error")


def judge(result, expected):
    name = result["name"]
    if counts_against(result):
        result["verdict"] = "expected" if name in expected else "unexpected"
    elif result["status"] == "match" and name in expected:
        result["verdict"] = "unexpected pass"
    else:
        result["verdict"] = ""


def fmt_s(x):
    return "" if x is None else "%.1f" % x


COLUMNS = ["model", "source", "status", "detail", "compile s", "run s",
           "ORT s", "verdict"]


def row(r):
    return [r["name"], r["source"], r["status"], r.get("detail", ""),
            fmt_s(r.get("compile_s")), fmt_s(r.get("run_s")),
            fmt_s(r.get("ort_s")), r.get("verdict", "")]


def totals(results):
    n = {}
    for r in results:
        key = r["status"].split(":")[0] if r["status"].startswith("ours") \
            else r["status"]
        n[key] = n.get(key, 0) + 1
    target = [r for r in results if r["status"] not in ("skipped",
                                                        "ORT error")]
    matched = sum(r["status"] == "match" for r in target)
    unexpected = sum(r.get("verdict", "").startswith("unexpected")
                     for r in results)
    return ("%d models: %d match of %d that ORT runs (%d mismatch, %d our "
            "errors), %d ORT errors, %d skipped; %d unexpected" % (
                len(results), matched, len(target), n.get("MISMATCH", 0),
                n.get("ours", 0), n.get("ORT error", 0), n.get("skipped", 0),
                unexpected))


def print_table(results):
    rows = [COLUMNS] + [row(r) for r in results]
    widths = [min(max(len(x[i]) for x in rows), 90) for i in
              range(len(COLUMNS))]
    for x in rows:
        print("  ".join(c[:widths[i]].ljust(widths[i]) for i, c in
                        enumerate(x)).rstrip())
    print(totals(results))


REPORT_BEGIN = "<!-- results: begin (utils/run_real_models.py --report) -->"
REPORT_END = "<!-- results: end -->"


def write_report(path, results, args, elapsed):
    """Replaces the results section of PATH (between the markers)."""
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f
                        if l.startswith("model name")), "")
    except OSError:
        pass
    ort = sorted({r["ort_version"] for r in results if r.get("ort_version")})
    lines = [REPORT_BEGIN, "",
             "Measured %s on this machine: %d cores (%s). onnx-run from `%s`, "
             "`--threads %d`, `--timeout %g` s for compile + run; ONNX Runtime "
             "%s (npm onnxruntime-node, CPU, one thread). %.0f min of tool "
             "time in all. Times are wall-clock seconds of one process each, "
             "on a machine shared with other work." % (
                 args.date, os.cpu_count(), cpu, args.build, args.threads,
                 args.timeout, ", ".join(ort) or "?", elapsed / 60), "",
             "| " + " | ".join(COLUMNS) + " |",
             "|" + "---|" * len(COLUMNS)]
    for r in results:
        cells = [c.replace("|", "\\|") for c in row(r)]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "**Totals:** " + totals(results), "", REPORT_END]
    text = open(path).read() if os.path.exists(path) else ""
    if REPORT_BEGIN in text and REPORT_END in text:
        head = text[:text.index(REPORT_BEGIN)]
        tail = text[text.index(REPORT_END) + len(REPORT_END):]
        text = head + "\n".join(lines) + tail
    else:
        text = text + "\n" + "\n".join(lines) + "\n"
    with open(path, "w") as f:
        f.write(text)


def read_report(path):
    """The results of a --report table (the rows of an earlier run, for
    --from-json when its JSON is gone): name, source, status, detail and
    the times, as row() wrote them."""
    text = open(path).read()
    if REPORT_BEGIN not in text or REPORT_END not in text:
        sys.exit("%s has no results section" % path)
    text = text[text.index(REPORT_BEGIN):text.index(REPORT_END)]
    results = []
    for line in text.splitlines():
        if not line.startswith("| ") or line.startswith("| model |"):
            continue
        cells = [c.strip().replace("\\|", "|") for c in
                 re.split(r"(?<!\\)\|", line.strip()[1:-1])]
        if len(cells) != len(COLUMNS):
            sys.exit("%s: a row of %d cells: %s" % (path, len(cells), line))
        r = {"name": cells[0], "source": cells[1], "status": cells[2]}
        if cells[3]:
            r["detail"] = cells[3]
        for key, cell in zip(("compile_s", "run_s", "ort_s"), cells[4:7]):
            if cell:
                r[key] = float(cell)
        results.append(r)
    return results


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="a build (or install) folder with bin/onnx-run")
    ap.add_argument("--dir", default=DEFAULT_DIR, help="the corpus")
    ap.add_argument("--filter", help="models whose name matches this regex")
    ap.add_argument("--timeout", type=float, default=600,
                    help="seconds for compile + run of one model (and for "
                    "ORT's run)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--expected", default=EXPECTED)
    ap.add_argument("--report", help="write the table into this Markdown "
                    "file (between its results markers)")
    ap.add_argument("--json", help="also write the results as JSON")
    ap.add_argument("--work", default="/tmp/real-models-work")
    ap.add_argument("--keep", action="store_true",
                    help="keep the work folder of matching models too")
    ap.add_argument("--date", default=datetime.date.today().isoformat())
    ap.add_argument("--from-json", nargs="+", metavar="FILE",
                    help="run nothing: table (and --report) from the --json "
                    "files of earlier runs, later files winning; a .md file "
                    "is read as an earlier --report's table")
    args = ap.parse_args()
    if args.from_json:
        by_name = {}
        for path in args.from_json:
            if path.endswith(".md"):
                rows = read_report(path)
            else:
                with open(path) as f:
                    rows = json.load(f)
            for r in rows:
                by_name[r["name"]] = r
        results = [by_name[n] for n in sorted(by_name)]
        expected = read_expected(args.expected)
        for r in results:
            judge(r, expected)
        print_table(results)
        if args.report:
            write_report(args.report, results, args,
                         sum((r.get("ort_s") or 0) + (r.get("compile_s") or 0)
                             + (r.get("run_s") or 0) for r in results))
        sys.exit(1 if any(r["verdict"].startswith("unexpected")
                          for r in results) else 0)

    onnx_run = os.path.join(args.build, "bin", "onnx-run")
    if not os.path.exists(onnx_run):
        sys.exit("no %s (--build)" % onnx_run)
    records = load_records(args.dir)
    if not records:
        sys.exit("no corpus in %s: run utils/real_models.py fetch" % args.dir)
    if args.filter:
        records = [r for r in records if re.search(args.filter, r["name"])]
    bench_run.ensure_ort()
    expected = read_expected(args.expected)
    results = []
    start = time.monotonic()
    for rec in records:
        if "skip" in rec:
            r = {"name": rec["name"], "source": rec["source"],
                 "status": "skipped", "detail": first_line(rec["skip"])}
        else:
            log("run: %s" % rec["name"])
            try:
                r = run_model(rec, args, onnx_run)
            except Exception as e:  # a broken record: say so, go on
                r = {"name": rec["name"], "source": rec["source"],
                     "status": "runner error", "detail": first_line(
                         "%s: %s" % (type(e).__name__, e))}
        judge(r, expected)
        results.append(r)
        log("  %s  %s  %s" % (r["status"], r.get("detail", ""),
                              r.get("verdict", "")))
    elapsed = time.monotonic() - start
    print_table(results)
    if args.report:
        write_report(args.report, results, args, elapsed)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    sys.exit(1 if any(r.get("verdict", "").startswith("unexpected")
                      for r in results) else 0)


if __name__ == "__main__":
    main()
