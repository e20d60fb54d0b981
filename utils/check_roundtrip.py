#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Round trip of every model of the ONNX conformance suites through the dialect.

  check_roundtrip.py ONNX_TRANSLATE [--expected-failures FILE] [--jobs N] DIR...

For each */*/model.onnx below each DIR (a suite root such as
/usr/share/libonnx-testdata/data or ../shared/onnx-tests-1.22):
  1. import it (M1), 2. export M1 (P2), 3. import P2 (M2);
  M1 and M2 must be the same text, and P2 must be semantically equal to the
  original: same metadata, opsets, graph inputs and outputs (names, types),
  initializers (names, types, values bit for bit), nodes (domain, op_type,
  name, inputs, outputs, attributes; subgraphs alike). Field order, default-
  valued fields, value_info and doc strings of fields we do not keep may differ.
A model in the expected-failures file ('<suite>/<group>/<case> reason') must
fail step 1. Ends with 'N passed, M failed'. Needs Debian's python3-onnx.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def domain(d):
    return "" if d in ("", "ai.onnx") else d


def strip_denotations(tp):
    tp = onnx.TypeProto.FromString(tp.SerializeToString())

    def visit(t):
        t.ClearField("denotation")
        kind = t.WhichOneof("value")
        if kind in ("tensor_type", "sparse_tensor_type"):
            for d in getattr(t, kind).shape.dim:
                d.ClearField("denotation")
        elif kind == "sequence_type":
            visit(t.sequence_type.elem_type)
        elif kind == "optional_type":
            visit(t.optional_type.elem_type)
        elif kind == "map_type":
            visit(t.map_type.value_type)
    visit(tp)
    return tp


def tensor_equal(a, b, where, errors):
    if a.data_type != b.data_type or list(a.dims) != list(b.dims):
        errors.append("%s: type or shape differs (%d %s vs %d %s)" % (
            where, a.data_type, list(a.dims), b.data_type, list(b.dims)))
        return
    if a.data_type == onnx.TensorProto.STRING:
        if list(a.string_data) != list(b.string_data):
            errors.append("%s: strings differ" % where)
        return
    try:
        x, y = numpy_helper.to_array(a), numpy_helper.to_array(b)
    except Exception as e:  # data types ONNX 1.12's numpy_helper lacks
        ra, rb = raw_bytes(a), raw_bytes(b)
        if ra is None or rb is None or ra != rb:
            errors.append("%s: cannot compare values (%s)" % (where, e))
        return
    if x.tobytes() != y.tobytes():
        errors.append("%s: values differ" % where)


def raw_bytes(t):
    if t.HasField("raw_data"):
        return t.raw_data
    return None


def attr_equal(a, b, where, errors):
    A = onnx.AttributeProto
    if a.ref_attr_name != b.ref_attr_name:
        errors.append("%s: ref_attr_name differs" % where)
        return
    ta = a.type or b.type
    if ta == A.FLOAT:
        if np.float32(a.f).tobytes() != np.float32(b.f).tobytes():
            errors.append("%s: %r vs %r" % (where, a.f, b.f))
    elif ta == A.INT:
        if a.i != b.i:
            errors.append("%s: %r vs %r" % (where, a.i, b.i))
    elif ta == A.STRING:
        if a.s != b.s:
            errors.append("%s: %r vs %r" % (where, a.s, b.s))
    elif ta == A.FLOATS:
        if np.array(a.floats, np.float32).tobytes() != np.array(b.floats, np.float32).tobytes():
            errors.append("%s: floats differ" % where)
    elif ta == A.INTS:
        if list(a.ints) != list(b.ints):
            errors.append("%s: ints differ" % where)
    elif ta == A.STRINGS:
        if list(a.strings) != list(b.strings):
            errors.append("%s: strings differ" % where)
    elif ta == A.TENSOR:
        tensor_equal(a.t, b.t, where, errors)
    elif ta == A.TENSORS:
        if len(a.tensors) != len(b.tensors):
            errors.append("%s: tensor counts differ" % where)
        for i, (x, y) in enumerate(zip(a.tensors, b.tensors)):
            tensor_equal(x, y, "%s[%d]" % (where, i), errors)
    elif ta == A.SPARSE_TENSOR:
        sparse_equal(a.sparse_tensor, b.sparse_tensor, where, errors)
    elif ta == A.GRAPH:
        graph_equal(a.g, b.g, where, errors, subgraph=True)
    elif ta == A.TYPE_PROTO:
        if strip_denotations(a.tp) != strip_denotations(b.tp):
            errors.append("%s: type differs" % where)
    elif ta == A.TYPE_PROTOS:
        if [strip_denotations(t) for t in a.type_protos] != [strip_denotations(t) for t in b.type_protos]:
            errors.append("%s: types differ" % where)
    else:
        if a.SerializeToString() != b.SerializeToString():
            errors.append("%s: attribute differs" % where)


def sparse_equal(a, b, where, errors):
    if list(a.dims) != list(b.dims):
        errors.append("%s: sparse dims differ" % where)
        return
    # Compare densified values: indices may be linearized in one of them.
    def dense(s):
        values = numpy_helper.to_array(s.values)
        idx = numpy_helper.to_array(s.indices)
        out = np.zeros(int(np.prod(s.dims)) if len(s.dims) else 1, values.dtype)
        if idx.ndim == 2:
            idx = np.ravel_multi_index(tuple(idx.T), tuple(s.dims)) if len(idx) else idx.reshape(-1)
        out[idx.astype(np.int64)] = values
        return out
    if dense(a).tobytes() != dense(b).tobytes():
        errors.append("%s: sparse values differ" % where)


def node_key(n):
    return tuple(n.output)


def trimmed(names):
    names = list(names)
    while names and names[-1] == "":
        names.pop()
    return names


def graph_equal(a, b, where, errors, subgraph=False):
    if [i.name for i in a.input] != [i.name for i in b.input]:
        errors.append("%s: input names differ" % where)
    if [o.name for o in a.output] != [o.name for o in b.output]:
        errors.append("%s: output names differ" % where)
    if not subgraph:
        for x, y in zip(a.input, b.input):
            if x.HasField("type") and strip_denotations(x.type) != strip_denotations(y.type):
                errors.append("%s: type of input '%s' differs" % (where, x.name))
        for x, y in zip(a.output, b.output):
            if x.HasField("type") and strip_denotations(x.type) != strip_denotations(y.type):
                errors.append("%s: type of output '%s' differs" % (where, x.name))
    inits_a = {t.name: t for t in a.initializer}
    inits_b = {t.name: t for t in b.initializer}
    if sorted(inits_a) != sorted(inits_b):
        errors.append("%s: initializer names differ" % where)
    for name in inits_a:
        if name in inits_b:
            tensor_equal(inits_a[name], inits_b[name], "%s initializer '%s'" % (where, name), errors)
    sp_a = {t.values.name: t for t in a.sparse_initializer}
    sp_b = {t.values.name: t for t in b.sparse_initializer}
    if sorted(sp_a) != sorted(sp_b):
        errors.append("%s: sparse initializer names differ" % where)
    for name in sp_a:
        if name in sp_b:
            sparse_equal(sp_a[name], sp_b[name], "%s sparse initializer '%s'" % (where, name), errors)
    if len(a.node) != len(b.node):
        errors.append("%s: %d nodes vs %d" % (where, len(a.node), len(b.node)))
        return
    nodes_b = {node_key(n): n for n in b.node}
    for n in a.node:
        m = nodes_b.get(node_key(n))
        w = "%s node '%s' (%s)" % (where, n.name, n.op_type)
        if m is None:
            errors.append("%s: no node with outputs %s" % (w, list(n.output)))
            continue
        if (domain(n.domain), n.op_type, n.name) != (domain(m.domain), m.op_type, m.name):
            errors.append("%s: identity differs" % w)
        if trimmed(n.input) != trimmed(m.input):
            errors.append("%s: inputs %s vs %s" % (w, list(n.input), list(m.input)))
        attrs_a = {x.name: x for x in n.attribute}
        attrs_b = {x.name: x for x in m.attribute}
        if sorted(attrs_a) != sorted(attrs_b):
            errors.append("%s: attributes %s vs %s" % (w, sorted(attrs_a), sorted(attrs_b)))
            continue
        for name in attrs_a:
            attr_equal(attrs_a[name], attrs_b[name], "%s attribute '%s'" % (w, name), errors)


def model_equal(a, b):
    errors = []
    for field in ("ir_version", "producer_name", "producer_version", "domain",
                  "model_version", "doc_string"):
        if getattr(a, field) != getattr(b, field):
            errors.append("%s differs: %r vs %r" % (field, getattr(a, field), getattr(b, field)))
    if {domain(o.domain): o.version for o in a.opset_import} != \
            {domain(o.domain): o.version for o in b.opset_import}:
        errors.append("opset_import differs")
    if {p.key: p.value for p in a.metadata_props} != {p.key: p.value for p in b.metadata_props}:
        errors.append("metadata_props differ")
    if a.graph.name != b.graph.name:
        errors.append("graph name differs")
    graph_equal(a.graph, b.graph, "graph", errors)
    return errors


def check(translate, key, path, tmp):
    base = os.path.join(tmp, key.replace("/", "_"))
    rc, m1, err = run([translate, "--import", path])
    if rc != 0:
        return False, "import: " + err.strip().split("\n")[0]
    with open(base + ".1.mlir", "wb") as f:
        f.write(m1)
    rc, _, err = run([translate, "--export", base + ".1.mlir", "-o", base + ".2.onnx"])
    if rc != 0:
        return False, "export: " + err.strip().split("\n")[0]
    rc, m2, err = run([translate, "--import", base + ".2.onnx"])
    if rc != 0:
        return False, "re-import: " + err.strip().split("\n")[0]
    if m1 != m2:
        return False, "the MLIR of the re-imported model differs"
    original = onnx.load(path, load_external_data=False)
    exported = onnx.load(base + ".2.onnx", load_external_data=False)
    errors = model_equal(original, exported)
    for suffix in (".1.mlir", ".2.onnx"):
        os.remove(base + suffix)
    if errors:
        return False, "; ".join(errors[:3])
    return True, ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("translate")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--expected-failures")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    expected = {}
    if args.expected_failures:
        with open(args.expected_failures) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    key, _, reason = line.partition(" ")
                    expected[key] = reason.strip()
    models = []
    for root in args.dirs:
        suite = os.path.basename(os.path.normpath(root))
        for group in sorted(os.listdir(root)):
            gdir = os.path.join(root, group)
            if not os.path.isdir(gdir):
                continue
            for case in sorted(os.listdir(gdir)):
                path = os.path.join(gdir, case, "model.onnx")
                if os.path.exists(path):
                    models.append(("%s/%s/%s" % (suite, group, case), path))
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [(key, pool.submit(check, args.translate, key, path, tmp))
                   for key, path in models]
        for key, future in futures:
            try:
                ok, why = future.result()
            except Exception as e:
                ok, why = False, "checker error: %r" % e
            if key in expected:
                if ok or not why.startswith("import: "):
                    failed += 1
                    print("UNEXPECTED %s %s (listed: %s)" % (
                        "PASS" if ok else "FAILURE", key, why or expected[key]))
                else:
                    passed += 1
            elif ok:
                passed += 1
            else:
                failed += 1
                print("FAIL %s: %s" % (key, why))
    print("%d models, %d expected import failures" % (len(models), len(expected)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
