#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks type and shape inference against the ONNX node tests.

For every node test (ONNX 1.12 from libonnx-testdata, ONNX 1.22 from
shared/onnx-tests-1.22) whose directory name matches --filter: the output
types and the intermediate value_info are stripped from model.onnx, the
tensor inputs become initializers holding the test's input data (unless
--runtime-inputs), the model is imported, `onnx-opt --onnx-infer-shapes` runs (after
`--onnx-convert-opset` with --convert), and the types of the
graph outputs must equal the element type and the shape of the expected
outputs in test_data_set_0 (a sequence: every element's type; an optional:
its element's).

Prints each mismatch and the totals. With --expected FILE, the tests listed
there (name, then a reason) are expected to mismatch: an unexpected mismatch
or an unexpected match fails the run.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

import onnx
from onnx import numpy_helper  # noqa: F401  (keeps onnx's helpers loaded)

SUITES = {
    "onnx-1.12": "/usr/share/libonnx-testdata/data/node",
    "onnx-1.22": None,  # set from --shared
}

ELEMENT = {
    1: "f32", 2: "ui8", 3: "i8", 4: "ui16", 5: "i16", 6: "i32", 7: "i64",
    8: "!onnx.string", 9: "i1", 10: "f16", 11: "f64", 12: "ui32", 13: "ui64",
    14: "complex<f32>", 15: "complex<f64>", 16: "bf16", 17: "f8E4M3FN",
    18: "f8E4M3FNUZ", 19: "f8E5M2", 20: "f8E5M2FNUZ", 21: "ui4", 22: "i4",
    23: "f4E2M1FN", 24: "f8E8M0FNU", 25: "ui2", 26: "i2",
}


def tensor_type(dims, data_type):
    elem = ELEMENT.get(data_type, "?%d" % data_type)
    return "tensor<" + "".join("%dx" % d for d in dims) + elem + ">"


def expected_type(path, type_proto):
    """The MLIR type of the value stored in `path`, read as `type_proto`."""
    with open(path, "rb") as f:
        data = f.read()
    kind = type_proto.WhichOneof("value")
    if kind == "tensor_type":
        t = onnx.TensorProto()
        t.ParseFromString(data)
        data_type = t.data_type
        # ONNX 1.12's test data stores bfloat16 outputs as uint16.
        if type_proto.tensor_type.elem_type == 16 and data_type == 4:
            data_type = 16
        return tensor_type(t.dims, data_type)
    if kind == "sequence_type":
        s = onnx.SequenceProto()
        s.ParseFromString(data)
        types = {tensor_type(t.dims, t.data_type) for t in s.tensor_values}
        if len(types) == 1:
            return "!onnx.seq<%s>" % types.pop()
        # Elements of different shapes: only the element type is fixed.
        elem = type_proto.sequence_type.elem_type.tensor_type.elem_type
        ranks = {len(t.dims) for t in s.tensor_values}
        if len(ranks) == 1:
            rank = ranks.pop()
            return "!onnx.seq<tensor<%s%s>>" % ("?x" * rank, ELEMENT[elem])
        return "!onnx.seq<tensor<*x%s>>" % ELEMENT[elem]
    if kind == "optional_type":
        o = onnx.OptionalProto()
        o.ParseFromString(data)
        inner = type_proto.optional_type.elem_type
        which = inner.WhichOneof("value")
        if which == "tensor_type":
            if o.HasField("tensor_value"):
                t = o.tensor_value
                return "!onnx.opt<%s>" % tensor_type(t.dims, t.data_type)
            return "!onnx.opt<tensor<*x%s>>" % ELEMENT[inner.tensor_type.elem_type]
        if which == "sequence_type":
            seq = inner.sequence_type.elem_type.tensor_type.elem_type
            values = o.sequence_value.tensor_values
            shapes = {tuple(t.dims) for t in values}
            if o.HasField("sequence_value") and len(shapes) == 1:
                return "!onnx.opt<!onnx.seq<%s>>" % tensor_type(
                    shapes.pop(), seq)
            return "!onnx.opt<!onnx.seq<tensor<*x%s>>>" % ELEMENT[seq]
    return None


def split_types(s):
    """Splits a comma-separated list of MLIR types (nesting aware)."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def result_types(mlir, entry):
    """The result types of func.func @entry in printed MLIR."""
    m = re.search(r"func\.func @\"?" + re.escape(entry) + r"\"?\(", mlir)
    if not m:
        return None
    # Skip the argument list, then read `-> (...)` or `-> type`.
    i, depth = m.end() - 1, 0
    while i < len(mlir):
        if mlir[i] == "(":
            depth += 1
        elif mlir[i] == ")":
            depth -= 1
            if depth == 0:
                break
        i += 1
    rest = mlir[i + 1:].lstrip()
    if not rest.startswith("->"):
        return []
    rest = rest[2:].lstrip()
    if rest.startswith("("):
        depth, j = 0, 0
        for j, ch in enumerate(rest):
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    break
        inner = rest[1:j]
        # Drop result attributes {...}.
        inner = re.sub(r"\{[^{}]*\}", "", inner)
        return split_types(inner)
    # One result type without parentheses: up to the attributes or body.
    depth, j = 0, 0
    for j, ch in enumerate(rest):
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif depth == 0 and ch in " {\n":
            break
    return [rest[:j].strip()]


def check_one(args, suite, case_dir):
    name = os.path.basename(case_dir)
    model = onnx.load(os.path.join(case_dir, "model.onnx"))
    expected_protos = [o.type for o in model.graph.output]
    data_dir = os.path.join(case_dir, "test_data_set_0")
    expected = []
    for i, tp in enumerate(expected_protos):
        path = os.path.join(data_dir, "output_%d.pb" % i)
        expected.append(expected_type(path, tp) if os.path.exists(path) else None)
    del model.graph.value_info[:]
    for o in model.graph.output:
        o.ClearField("type")
    if not args.runtime_inputs:
        # The test's input tensors become initializers: shape-like inputs
        # (Reshape's shape, Resize's sizes, ...) are then constants, as in a
        # deployed model. Each op is inferred before it is folded, so a wrong
        # inferred type still shows: the folded constant no longer fits it.
        keep = []
        for i, inp in enumerate(model.graph.input):
            path = os.path.join(data_dir, "input_%d.pb" % i)
            if inp.type.WhichOneof("value") == "tensor_type" and os.path.exists(path):
                t = onnx.TensorProto()
                with open(path, "rb") as f:
                    t.ParseFromString(f.read())
                t.name = inp.name
                # ONNX 1.12 stores bfloat16 inputs as uint16 too.
                if inp.type.tensor_type.elem_type == 16 and t.data_type == 4:
                    t.data_type = 16
                    if not t.raw_data:
                        t.raw_data = b"".join(
                            int(v).to_bytes(2, "little") for v in t.int32_data)
                        del t.int32_data[:]
                model.graph.initializer.append(t)
            else:
                keep.append(inp)
        del model.graph.input[:]
        model.graph.input.extend(keep)
        model.ir_version = max(model.ir_version, 4)
    with tempfile.NamedTemporaryFile(suffix=".onnx") as tmp:
        tmp.write(model.SerializeToString())
        tmp.flush()
        imp = subprocess.run(
            [os.path.join(args.build, "bin", "onnx-translate"), "--import",
             tmp.name], capture_output=True, text=True)
    if imp.returncode != 0:
        return (suite, name, "import", imp.stderr.strip().splitlines()[:3])
    passes = ["--onnx-infer-shapes"]
    if args.convert:
        passes.insert(0, "--onnx-convert-opset")
    opt = subprocess.run(
        [os.path.join(args.build, "bin", "onnx-opt")] + passes,
        input=imp.stdout, capture_output=True, text=True)
    if opt.returncode != 0:
        return (suite, name, "infer", opt.stderr.strip().splitlines()[:3])
    entry = model.graph.name
    got = result_types(opt.stdout, entry)
    if got is None:
        return (suite, name, "parse", ["no func.func @%s in the output" % entry])
    diffs = []
    for i, (e, g) in enumerate(zip(expected, got)):
        if e is not None and e != g:
            diffs.append("output %d: inferred %s, expected %s" % (i, g, e))
    if diffs:
        return (suite, name, "mismatch", diffs)
    return (suite, name, "match", [])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--build", default=os.path.join(here, "..", "build"))
    p.add_argument("--shared", default=os.path.join(here, "..", "..", "shared"))
    p.add_argument("--filter", default="", help="regex on the test name")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--expected", help="file of expected mismatches")
    p.add_argument("--runtime-inputs", action="store_true",
                   help="keep the graph inputs as inputs (by default they "
                   "become initializers holding the test's input data)")
    p.add_argument("--convert", action="store_true",
                   help="convert to the newest opset before inference")
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args()
    SUITES["onnx-1.22"] = os.path.join(args.shared, "onnx-tests-1.22", "node")

    expected = {}
    if args.expected:
        with open(args.expected) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    key, _, reason = line.partition(" ")
                    expected[key] = reason.strip()

    cases = []
    pattern = re.compile(args.filter)
    for suite, root in SUITES.items():
        if not os.path.isdir(root):
            print("missing suite %s at %s" % (suite, root), file=sys.stderr)
            return 2
        for name in sorted(os.listdir(root)):
            if pattern.search(name):
                cases.append((suite, os.path.join(root, name)))

    counts = {}
    unexpected = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = pool.map(lambda c: check_one(args, *c), cases)
        for suite, name, status, detail in results:
            counts[(suite, status)] = counts.get((suite, status), 0) + 1
            key = "%s/%s" % (suite, name)
            if status == "match":
                if key in expected:
                    unexpected.append("%s: matches, but is listed as expected "
                                      "to mismatch" % key)
                continue
            if key not in expected:
                unexpected.append("%s: %s" % (key, status))
            if args.verbose or key not in expected:
                print("%s [%s]" % (key, status))
                for line in detail:
                    print("    " + line)

    total = 0
    matched = 0
    for suite in SUITES:
        n = sum(v for (s, _), v in counts.items() if s == suite)
        m = counts.get((suite, "match"), 0)
        total += n
        matched += m
        parts = ", ".join("%d %s" % (v, st) for (s, st), v in sorted(counts.items())
                          if s == suite and st != "match")
        print("%s: %d of %d match%s" % (suite, m, n, (" (" + parts + ")") if parts else ""))
    if total:
        print("total: %d of %d match (%.1f%%)" % (matched, total, 100.0 * matched / total))
    if args.expected:
        for line in unexpected:
            print("UNEXPECTED " + line)
        return 1 if unexpected else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
