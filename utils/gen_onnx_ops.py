#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Generates the ODS of every ONNX operator schema version from the specification.

Reads Changelog.md (ai.onnx, ai.onnx.preview, ai.onnx.preview.training) and
Changelog-ml.md (ai.onnx.ml) and writes:
  include/OnnxDialect/Dialect/ONNX/IR/ONNXOps<Domain>.td   one op per schema version
  docs/status.md                              one row per operator (newest version)
Python 3 standard library only, so it runs anywhere the spec is.

  gen_onnx_ops.py --spec-dir ../shared/onnx-spec --out-dir .          (write)
  gen_onnx_ops.py --spec-dir ../shared/onnx-spec --out-dir . --check  (compare, exit 1 on drift)
  gen_onnx_ops.py --spec-dir ../shared/onnx-spec --dump-json FILE     (the parsed schemas)
"""

import argparse
import html
import json
import os
import re
import sys
from collections import OrderedDict

SPEC_URL = "https://github.com/onnx/onnx/blob/v1.22.0/docs/"

# ONNX domain -> (op-name prefix in the dialect, C++ class prefix, .td file suffix).
DOMAINS = OrderedDict([
    ("", ("", "", "AiOnnx")),
    ("ai.onnx.preview", ("preview.", "Preview", "Preview")),
    ("ai.onnx.preview.training", ("preview.training.", "PreviewTraining",
                                  "Preview")),
    ("ai.onnx.ml", ("ml.", "ML", "ML")),
])

# ONNX element type name -> ODS type constraint of the builtin (or dialect) type.
ELEMENT_TYPES = OrderedDict([
    ("float", "F32"), ("double", "F64"), ("float16", "F16"), ("bfloat16", "BF16"),
    ("int8", "I8"), ("int16", "I16"), ("int32", "I32"), ("int64", "I64"),
    ("uint8", "UI8"), ("uint16", "UI16"), ("uint32", "UI32"), ("uint64", "UI64"),
    ("bool", "I1"), ("string", "ONNX_String"),
    ("complex64", "Complex<F32>"), ("complex128", "Complex<F64>"),
    ("float8e4m3fn", "F8E4M3FN"), ("float8e4m3fnuz", "F8E4M3FNUZ"),
    ("float8e5m2", "F8E5M2"), ("float8e5m2fnuz", "F8E5M2FNUZ"),
    ("float8e8m0", "F8E8M0FNU"), ("float4e2m1", "F4E2M1FN"),
    ("int4", "I<4>"), ("uint4", "UI<4>"), ("int2", "I<2>"), ("uint2", "UI<2>"),
])

# ONNX attribute type -> (ODS attribute constraint, C++ AttrKind enumerator).
ATTR_TYPES = {
    "float": ("F32Attr", "Float"),
    "int": ("I64Attr", "Int"),
    "string": ("StrAttr", "String"),
    "tensor": ("ElementsAttr", "Tensor"),
    "sparse_tensor": ("ONNX_SparseTensorAttr", "SparseTensor"),
    "type_proto": ("TypeAttr", "TypeProto"),
    "graph": (None, "Graph"),
    "list of floats": ("DenseF32ArrayAttr", "Floats"),
    "list of ints": ("DenseI64ArrayAttr", "Ints"),
    "list of strings": ("StrArrayAttr", "Strings"),
    "list of tensors": ("ONNX_TensorListAttr", "Tensors"),
    "list of sparse_tensors": ("ONNX_SparseTensorListAttr", "SparseTensors"),
    "list of type_protos": ("TypeArrayAttr", "TypeProtos"),
    "list of graphs": (None, "Graphs"),
}

# Defaults that the spec text misprints, by (domain, operator, attribute) ->
# (first version it applies to, value): floats it rounds to 5 decimals
# (Selu's are float32 values its description spells out; 1e-06 prints as
# 0.0), and GRU-1's direction, printed "foward" (every later version and
# ONNX's reference implementation read "forward"; a GRU-1 without the
# attribute would otherwise be rejected as an unknown direction).
EXACT_DEFAULTS = {
    ("", "GRU", "direction"): (1, "forward"),
    ("", "Selu", "alpha"): (6, "1.67326319217681884765625"),
    ("", "Selu", "gamma"): (6, "1.05070102214813232421875"),
    ("ai.onnx.preview.training", "Adagrad", "epsilon"): (1, "1e-06"),
    ("ai.onnx.preview.training", "Adam", "epsilon"): (1, "1e-06"),
}

# Operators whose results differ from run to run: never Pure, so CSE and DCE keep them.
NONDETERMINISTIC = {"RandomNormal", "RandomNormalLike", "RandomUniform",
                    "RandomUniformLike", "Multinomial", "Bernoulli", "Dropout"}


class Arg:
    def __init__(self, name, kind, type_str, heterogeneous):
        self.name, self.kind, self.type_str = name, kind, type_str
        self.heterogeneous = heterogeneous
        self.min_arity = 1 if kind == "Variadic" else 0


class Attr:
    def __init__(self, name, type_str, required, default):
        self.name, self.type, self.required, self.default = (
            name, type_str, required, default)


class Schema:
    def __init__(self, domain, name, version, deprecated):
        self.domain, self.name, self.version = domain, name, version
        self.deprecated = deprecated
        self.summary = ""
        self.attrs, self.inputs, self.outputs = [], [], []
        self.type_vars = OrderedDict()  # name -> list of type strings
        self.newest = False
        self.spec_file = "Changelog.md"

    @property
    def anchor(self):
        prefix = self.domain + "." if self.domain else ""
        return "%s%s-%d" % (prefix, self.name, self.version)


# --------------------------------------------------------------------------- parsing

HEADING = re.compile(r'^### <a name="([^"]+)"></a>\*\*([^*]+)\*\*( \(deprecated\))?</a>')
DT = re.compile(r"^<dt><tt>([^<]+)</tt>(?: \(([^)]*)\))? : (.*)</dt>$")
ARITY = re.compile(r"^#### (Inputs|Outputs)(?: \((\d+) - ([^)]+)\))?$")


def first_sentence(lines):
    text = " ".join(l.strip() for l in lines if l.strip())
    text = re.sub(r"<[^>]+>", "", html.unescape(text))
    text = text.replace("`", "'").replace("\\", "")
    m = re.match(r"(.+?[.:])(\s|$)", text)
    s = m.group(1) if m else text
    if len(s) > 160:
        s = s[:157].rsplit(" ", 1)[0] + "..."
    return s.rstrip(":") + ("" if s.endswith(".") else ".")


def parse_changelog(path, spec_file):
    schemas = []
    domain = None
    cur = None
    section = None
    desc = []
    arity_min = None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for line in lines:
        if line.startswith("# "):
            d = line[2:].split()[0]
            domain = "" if d == "ai.onnx" else d
            continue
        m = HEADING.match(line)
        if m:
            if cur:
                finish(cur, desc)
            anchor, deprecated = m.group(1), bool(m.group(3))
            full, ver = anchor.rsplit("-", 1)
            name = full[len(domain) + 1:] if domain and full.startswith(domain + ".") else full
            cur = Schema(domain, name, int(ver), deprecated)
            cur.spec_file = spec_file
            schemas.append(cur)
            section, desc = "desc", []
            continue
        if cur is None:
            continue
        if line.startswith("## "):
            section = None
            continue
        if line.startswith("#### "):
            am = ARITY.match(line)
            if am:
                section = am.group(1).lower()
                arity_min = int(am.group(2)) if am.group(2) else None
                if section == "inputs":
                    cur.input_min = arity_min
                else:
                    cur.output_min = arity_min
            elif line.startswith("#### Attributes"):
                section = "attrs"
            elif line.startswith("#### Type Constraints"):
                section = "types"
            elif line.startswith("#### Version"):
                section = "version"
            else:
                section = None
            continue
        if section == "desc":
            desc.append(line)
            continue
        if section == "version":
            vm = re.search(r"since version (\d+)", line)
            if vm and "deprecated" not in line:
                assert int(vm.group(1)) == cur.version, cur.anchor
            continue
        dm = DT.match(line.strip())
        if not dm:
            continue
        name, mods, rest = dm.group(1), dm.group(2) or "", dm.group(3)
        if section == "attrs":
            am = re.match(r"^(.*?)(?: \((required|default is (.*))\))?$", rest)
            default = am.group(3)
            since, exact = EXACT_DEFAULTS.get((domain, cur.name, name), (0, None))
            if exact and cur.version >= since:
                default = exact
            cur.attrs.append(Attr(name, am.group(1), am.group(2) == "required",
                                  default))
        elif section in ("inputs", "outputs"):
            mods = [x.strip() for x in mods.split(",") if x.strip()]
            kind = ("Variadic" if "variadic" in mods else
                    "Optional" if "optional" in mods else "Single")
            arg = Arg(name, kind, rest.strip(), "heterogeneous" in mods)
            (cur.inputs if section == "inputs" else cur.outputs).append(arg)
        elif section == "types":
            cur.type_vars[name] = split_types(rest)
    if cur:
        finish(cur, desc)
    return schemas


def finish(schema, desc):
    schema.summary = first_sentence(desc)
    for args, attr in ((schema.inputs, "input_min"), (schema.outputs, "output_min")):
        lo = getattr(schema, attr, None)
        # The section's minimum counts every input before the variadic (optional
        # ones too) plus the variadic's own minimum.
        fixed = sum(1 for a in args if a.kind != "Variadic")
        for i, a in enumerate(args):
            if a.kind == "Variadic":
                assert i == len(args) - 1, "variadic not last in " + schema.anchor
                a.min_arity = max(0, (lo if lo is not None else fixed + 1) - fixed)


def split_types(text):
    """Splits 'tensor(float), map(int64, float)' at the top-level commas."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip())
    return [t for t in out if t]


def load(spec_dir):
    schemas = (parse_changelog(os.path.join(spec_dir, "Changelog.md"), "Changelog.md") +
               parse_changelog(os.path.join(spec_dir, "Changelog-ml.md"),
                               "Changelog-ml.md"))
    newest = {}
    for s in schemas:
        key = (s.domain, s.name)
        if key not in newest or newest[key].version < s.version:
            newest[key] = s
    for s in newest.values():
        s.newest = True
    return schemas


# --------------------------------------------------------------------------- types

def parse_type(t):
    """'seq(tensor(float))' -> ('seq', ('tensor', 'float'))."""
    t = t.strip()
    m = re.match(r"^(\w+)\((.*)\)$", t)
    if not m:
        return ("scalar", t)  # map values written as a bare element type
    head, inner = m.group(1), m.group(2)
    if head in ("tensor", "sparse_tensor"):
        return (head, inner.strip())
    if head in ("seq", "optional"):
        return (head, parse_type(inner))
    if head == "map":
        k, v = split_types(inner)
        return ("map", k, parse_type(v))
    raise ValueError("unknown type " + t)


def ods_element(e):
    if e not in ELEMENT_TYPES:
        raise ValueError("unknown element type " + e)
    return ELEMENT_TYPES[e]


def ods_constraint(types):
    """ODS type constraint accepting exactly the given ONNX type strings."""
    return ods_union([parse_type(t) for t in types])


def ods_union(parsed):
    tensors, sparse, seqs, opts, maps = [], [], [], [], []
    for p in parsed:
        if p[0] in ("tensor", "scalar"):
            tensors.append(ods_element(p[1]))
        elif p[0] == "sparse_tensor":
            sparse.append(ods_element(p[1]))
        elif p[0] == "seq":
            seqs.append(p[1])
        elif p[0] == "optional":
            opts.append(p[1])
        elif p[0] == "map":
            maps.append("ONNX_MapOf<%s, %s>" % (ods_element(p[1]), ods_union([p[2]])))
    parts = []
    if tensors:
        parts.append("TensorOf<[%s]>" % ", ".join(tensors))
    if sparse:
        parts.append("ONNX_SparseTensorOf<[%s]>" % ", ".join(sparse))
    if seqs:
        parts.append("ONNX_SeqOf<%s>" % ods_union(seqs))
    if opts:
        parts.append("ONNX_OptOf<%s>" % ods_union(opts))
    parts += maps
    if len(parts) == 1:
        return parts[0]
    return "AnyTypeOf<[%s]>" % ", ".join(parts)


# --------------------------------------------------------------------------- ODS

# Names ODS or the generated C++ already uses; an argument so named gets a trailing '_'.
RESERVED = {"operands", "results", "attributes", "properties", "regions", "operation",
            "context", "loc", "type", "name", "dialect", "odsOperands", "value_info"}


def camel(name):
    parts = [p for p in re.split(r"_", name) if p]
    return "".join(p[:1].upper() + p[1:] for p in parts)


def op_names(s):
    prefix, cpp_prefix, _ = DOMAINS[s.domain]
    suffix = "" if s.newest else "_v%d" % s.version
    mnemonic = prefix + s.name + suffix
    cls = cpp_prefix + s.name + ("" if s.newest else "V%d" % s.version) + "Op"
    return mnemonic, cls


def ods_name_map(s):
    """ONNX argument/attribute names -> ODS names, unique also after camel-casing."""
    used, result = set(), {}
    for kind, items in (("in", s.inputs), ("out", s.outputs), ("attr", s.attrs)):
        for it in items:
            n = it.name
            if n in RESERVED or not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", n):
                n = re.sub(r"\W", "_", n) + "_"
            while camel(n).lower() in used:
                n = n + "_" + kind
            used.add(camel(n).lower())
            result[(kind, it.name)] = n
    return result


def cpp_str(s):
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def attr_default(attr, ods):
    d = attr.default
    if attr.type == "int":
        return str(int(d))
    if attr.type == "float":
        v = d.strip("()")
        return v if re.search(r"[.e]", v) else v + ".0"
    if attr.type == "string":
        return cpp_str(d)
    if attr.type in ("list of ints", "list of floats", "list of strings"):
        items = [x.strip().strip("'\"") for x in d.strip("[]").split(",") if x.strip()]
        if attr.type == "list of strings":
            return "{%s}" % ", ".join(cpp_str(x) for x in items)
        return "{%s}" % ", ".join(items)
    raise ValueError("no default handling for %s in %s" % (attr.type, attr.name))


def type_ref(s, arg):
    """The type variable index of an argument, or -1 with the type written inline."""
    names = list(s.type_vars)
    return names.index(arg.type_str) if arg.type_str in s.type_vars else -1


def arg_constraint(s, arg):
    types = s.type_vars.get(arg.type_str, [arg.type_str])
    # Values of polymorphic functions (!onnx.any) are accepted everywhere.
    c = "AnyTypeOf<[%s, ONNX_Any]>" % ods_constraint(types)
    if arg.kind == "Optional":
        return "Optional<%s>" % c
    if arg.kind == "Variadic":
        return "Variadic<%s>" % c
    return c


def emit_op(s):
    mnemonic, cls = op_names(s)
    names = ods_name_map(s)
    traits = []
    graphs = [a for a in s.attrs if a.type in ("graph", "list of graphs")]
    if sum(1 for a in s.inputs if a.kind != "Single") > 1:
        traits.append("AttrSizedOperandSegments")
    if sum(1 for a in s.outputs if a.kind != "Single") > 1:
        traits.append("AttrSizedResultSegments")
    if graphs:
        traits.append("RecursiveMemoryEffects")
    elif s.name not in NONDETERMINISTIC and not s.deprecated:
        traits.append("Pure")
    link = "%s%s#%s" % (SPEC_URL, s.spec_file, s.anchor)
    domain = s.domain or "ai.onnx"
    o = []
    o.append("def ONNX_%s : ONNX_Op<\"%s\", [%s]> {" % (cls, mnemonic, ", ".join(traits)))
    summary = s.summary.replace('"', "'")
    o.append("  let summary = %s;" % cpp_str(("%s (%s, since version %d)" % (
        summary.rstrip("."), domain, s.version)) if summary else s.name))
    status = "Deprecated since" if s.deprecated else "Available from"
    o.append("  let description = [{\n    %s %s opset %d. Specification: %s\n  }];" % (
        status, domain, s.version, link))
    if s.deprecated:
        o.append("  let arguments = (ins Variadic<AnyType>:$inputs);")
        o.append("  let results = (outs Variadic<AnyType>:$outputs);")
        o.append("  let isDeprecated = 1;")
    else:
        args = []
        for a in s.inputs:
            args.append("%s:$%s" % (arg_constraint(s, a), names[("in", a.name)]))
        for a in s.attrs:
            ods, _ = ATTR_TYPES[a.type]
            if ods is None:
                continue
            n = names[("attr", a.name)]
            if a.default is not None:
                args.append("DefaultValuedOptionalAttr<%s, %s>:$%s" % (
                    ods, cpp_str(attr_default(a, ods)), n))
            else:
                args.append("OptionalAttr<%s>:$%s" % (ods, n))
        o.append("  let arguments = (ins%s);" % "".join("\n    " + a + "," for a in args).rstrip(","))
        outs = ["%s:$%s" % (arg_constraint(s, a), names[("out", a.name)]) for a in s.outputs]
        o.append("  let results = (outs%s);" % "".join("\n    " + a + "," for a in outs).rstrip(","))
        if graphs:
            regs = []
            for a in graphs:
                r = "SizedRegion<1>" if a.required else "MaxSizedRegion<1>"
                if a.type == "list of graphs":
                    r = "VariadicRegion<SizedRegion<1>>"
                regs.append("%s:$%s" % (r, names[("attr", a.name)]))
            o.append("  let regions = (region %s);" % ", ".join(regs))
    o.append("  let schemaDef = [{")
    o.extend(emit_schema_table(s))
    o.append("  }];")
    o.append("}")
    return "\n".join(o)


def emit_schema_table(s):
    """C++ body of getSchema(): the ONNX view of the op, for the shared parser,
    printer and verifier and for the importer's (domain, op_type, version) lookup."""
    o = []
    names = ods_name_map(s)

    def args(items, var, kind):
        if not items or s.deprecated:
            return "{}"
        rows = []
        for a in items:
            rows.append("{%s, ::mlir::onnx::ArgKind::%s, %d, %d, %s, %s}" % (
                cpp_str(a.name), a.kind, type_ref(s, a), a.min_arity,
                "true" if a.heterogeneous else "false", cpp_str(a.type_str)))
        o.append("    static const ::mlir::onnx::ArgSchema %s[] = {%s};" % (
            var, ",\n        ".join(rows)))
        return var

    ins = args(s.inputs, "inputs", "in")
    outs = args(s.outputs, "outputs", "out")
    attrs = "{}"
    if s.attrs and not s.deprecated:
        rows = []
        for a in s.attrs:
            rows.append("{%s, %s, ::mlir::onnx::AttrKind::%s, %s, %s}" % (
                cpp_str(a.name), cpp_str(names[("attr", a.name)]), ATTR_TYPES[a.type][1],
                "true" if a.required else "false",
                cpp_str(a.default) if a.default is not None else "nullptr"))
        o.append("    static const ::mlir::onnx::AttrSchema attrs[] = {%s};" %
                 ",\n        ".join(rows))
        attrs = "attrs"
    tvars = "{}"
    if s.type_vars and not s.deprecated:
        rows = ["{%s, %s}" % (cpp_str(k), cpp_str(", ".join(v)))
                for k, v in s.type_vars.items()]
        o.append("    static const ::mlir::onnx::TypeVarSchema typeVars[] = {%s};" %
                 ",\n        ".join(rows))
        tvars = "typeVars"
    o.append("    static const ::mlir::onnx::OpSchema schema{%s, %s, %d, %s, %s, %s, %s, %s, %s};" % (
        cpp_str(s.domain), cpp_str(s.name), s.version,
        "true" if s.deprecated else "false", "true" if s.newest else "false",
        ins, outs, attrs, tvars))
    o.append("    return schema;")
    return o


HEADER = """{banner}
//
// Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// GENERATED by utils/gen_onnx_ops.py from shared/onnx-spec/{spec}; do not edit.
// One op per operator schema version: the newest version of an operator is
// unsuffixed, older ones carry their version ('_v<N>').
//
//===----------------------------------------------------------------------===//

#ifndef ONNXDIALECT_IR_ONNXOPS{guard}_TD
#define ONNXDIALECT_IR_ONNXOPS{guard}_TD

include "OnnxDialect/Dialect/ONNX/IR/ONNXBase.td"
"""


def td_banner(fname, domains, suffix):
    """The 80-column first line of a generated file (LLVM's file header)."""
    tail = "-*- tablegen -*-===//"
    for what in (", ".join(domains), suffix.lower()):
        head = "//===- %s - ONNX %s operators " % (fname, what)
        if len(head) + len(tail) <= 80:
            return head + "-" * (80 - len(head) - len(tail)) + tail
    raise ValueError("no banner of 80 columns for " + fname)


def emit_td_files(schemas):
    files = OrderedDict()
    for dom, (_, _, suffix) in DOMAINS.items():
        files.setdefault(suffix, [])
    for s in schemas:
        files[DOMAINS[s.domain][2]].append(s)
    out = {}
    for suffix, items in files.items():
        items = sorted(items, key=lambda s: (s.domain, s.name, -s.version))
        fname = "ONNXOps%s.td" % suffix
        doms = sorted({s.domain or "ai.onnx" for s in items})
        spec = sorted({s.spec_file for s in items})
        text = HEADER.format(banner=td_banner(fname, doms, suffix), spec=", ".join(spec),
                             guard=suffix.upper())
        for s in items:
            text += "\n" + emit_op(s) + "\n"
        text += "\n#endif // ONNXDIALECT_IR_ONNXOPS%s_TD\n" % suffix.upper()
        out["include/OnnxDialect/Dialect/ONNX/IR/" + fname] = text
    return out


# --------------------------------------------------------------------------- docs

FAMILY_HEAD = """
## Operators lowered in another family

An operator's family is the file that registers its inference (Elementwise,
Math, NN, Tensor, Reduction, Quantization, Sequence, Text, ControlFlow, ML,
Training); its decomposition is in the file of that name in
`lib/Dialect/ONNX/Transforms/Decompose/` and its lowering in the folder of that name in
`lib/Conversion/ONNXToLinalg/`. The generator stops on any other exception than
these:

| operator | inference | decomposition or lowering | why |
|---|---|---|---|
"""

STATUS_HEAD = """# Operator status

GENERATED by utils/gen_onnx_ops.py: one row per operator (newest schema version);
`utils/gen_onnx_ops.py` fills the columns from `utils/op_status.json`, which each change
that adds a capability updates. Every schema version of every operator is an op of the
dialect (the count is below); older versions are reached through the newest one by
`onnx-convert-opset`.

| column | meaning |
|---|---|
| import | `onnx-translate --import` maps a node to this op |
| verify | ODS constraints and the schema verifier (arity, attributes, type variables) |
| infer | result type and shape inference |
| lower | it compiles for the CPU (lowered by `convert-onnx-to-linalg`, or expanded by `onnx-decompose` into ops that are): `yes` when at least one of its node tests passes and none fails for want of a lowering, `partial` when some do |
| run CPU / run GPU | node tests of the operator passing end to end / all its node tests, ONNX 1.12 and 1.22 together (`utils/update_op_status.py` fills both columns from `docs/conformance.md`) |
| inference in | the file of `lib/Dialect/ONNX/IR/Inference/` that registers its inference function (`r.add<...>`): its name is the operator's family |
| folding in | `lib/Dialect/ONNX/IR/Folding.cpp` when constant operands fold it |
| decomposition in | the file of `lib/Dialect/ONNX/Transforms/Decompose/` when `onnx-decompose` expands it (`r.add<...>` there), named for the family |
| lowering in | the family folder and file of `lib/Conversion/ONNXToLinalg/` whose pattern converts it |

The last four columns are read from the sources: each names an operator by the C++
class of one of its versions (`MatMulOp`, `GemmV7Op`), never by a string.

Schema versions: {count} ({ai} ai.onnx, {prev} ai.onnx.preview and ai.onnx.preview.training,
{ml} ai.onnx.ml); operators: {ops}.

| operator | domain | newest version | versions | import | verify | infer | lower | run CPU | run GPU | inference in | folding in | decomposition in | lowering in |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
"""


def registered_classes(text):
    """The op classes named in the template arguments of `add<...>(` calls."""
    found = set()
    for m in re.finditer(r"\badd<([^<>()]*)>\(", text):
        found.update(re.findall(r"\b(\w+Op)\b", m.group(1)))
    return found


def lowered_classes(text):
    """The op classes a lowering file converts: those in template arguments,
    except casts and lookups (isa<X>, dyn_cast<X>, getDefiningOp<X>, ...),
    and those of a table keyed by `XOp::getOperationName()`."""
    found = set()
    for m in re.finditer(r"(\w*)<([^<>()]*)>", text):
        if m.group(1) in ("isa", "cast", "dyn_cast", "dyn_cast_or_null",
                          "isa_and_nonnull", "getDefiningOp", "getParentOfType",
                          "create", "isOperator", "isSchemaOf", "of"):
            continue
        found.update(re.findall(r"\b(\w+Op)\b", m.group(2)))
    found.update(re.findall(r"\{(\w+Op)::getOperationName\(\)", text))
    return found


# Where each stage keeps its files, a file per op family (the lowering: a
# folder per family). The family of an operator is the file that registers its
# inference; the other stages are expected in the file or folder of that name.
INFERENCE_DIR = "lib/Dialect/ONNX/IR/Inference"
DECOMPOSE_DIR = "lib/Dialect/ONNX/Transforms/Decompose"
LOWERING_DIR = "lib/Conversion/ONNXToLinalg"


def source_sites(root):
    """Op class -> {column: [file]} from the sources under `root`/lib; a
    lowering file is named `Family/File.cpp`."""
    def read(path):
        with open(path, encoding="utf-8") as f:
            return f.read()

    def files(rel, nested=False):
        d = os.path.join(root, rel)
        if not os.path.isdir(d):
            return []
        out = []
        for sub in sorted(os.listdir(d)):
            path = os.path.join(d, sub)
            if nested and os.path.isdir(path):
                out += [(sub + "/" + n, read(os.path.join(path, n)))
                        for n in sorted(os.listdir(path)) if n.endswith(".cpp")]
        return out + [(n, read(os.path.join(d, n))) for n in sorted(os.listdir(d))
                      if n.endswith(".cpp") and not nested]

    sites = {}

    def note(classes, column, name):
        for c in classes:
            sites.setdefault(c, {}).setdefault(column, []).append(name)

    for name, text in files(INFERENCE_DIR):
        note(registered_classes(text), "infer_in", name)
    folding = os.path.join(root, "lib/Dialect/ONNX/IR/Folding.cpp")
    if os.path.exists(folding):
        # It names Constant only to leave it alone.
        note(set(re.findall(r"\b(\w+Op)\b", read(folding))) - {"ConstantOp"},
             "fold_in", "Folding.cpp")
    for name, text in files(DECOMPOSE_DIR):
        note(registered_classes(text), "decompose_in", name)
    for name, text in files(LOWERING_DIR, nested=True):
        note(lowered_classes(text), "lower_in", name)
    return sites


def family_of(name):
    """The family a stage's file belongs to: `NN.cpp` and `NN/Conv.cpp` are NN."""
    return name.split("/")[0][:-4] if "/" not in name else name.split("/")[0]


# The operators whose decomposition or lowering is, on purpose, in the file of
# another family than their inference: (operator, file) -> why. Any other
# mismatch stops the generator.
FAMILY_EXCEPTIONS = OrderedDict([
    (("Cast", "Text/Strings.cpp"), "the string forms of an op are lowered with the Text family's runtime strings"),
    (("Constant", "Text/Strings.cpp"), "the string forms of an op are lowered with the Text family's runtime strings"),
    (("Equal", "Text/Strings.cpp"), "the string forms of an op are lowered with the Text family's runtime strings"),
    (("Hardmax", "Reduction/Reduction.cpp"), "its inference is Softmax's; it is lowered as an arg-max along the axis"),
    (("MatMulInteger", "Quantization/Quantization.cpp"), "its inference is MatMul's; the lowering shares the zero-point handling of the quantized ops"),
    (("QLinearMatMul", "Quantization/Quantization.cpp"), "its inference is MatMul's; the lowering shares the zero-point handling of the quantized ops"),
    (("ConvInteger", "Quantization/Quantization.cpp"), "its inference is Conv's; the lowering shares the zero-point handling of the quantized ops"),
    (("QLinearConv", "Quantization/Quantization.cpp"), "its inference is Conv's; the lowering shares the zero-point handling of the quantized ops"),
])


def family_mismatches(name, where):
    """(file, why) for each decomposition or lowering file of operator `name`
    outside its family; raises for one that FAMILY_EXCEPTIONS does not list."""
    infer = where.get("infer_in", [])
    if not infer:
        return []
    family = family_of(infer[0])
    out = []
    for column in ("decompose_in", "lower_in"):
        for f in where.get(column, []):
            if family_of(f) == family:
                continue
            why = FAMILY_EXCEPTIONS.get((name, f))
            if why is None:
                raise SystemExit("%s: its inference is in the %s family (%s) but %s is "
                                 "in %s; move it, or list it in FAMILY_EXCEPTIONS"
                                 % (name, family, infer[0], column, f))
            out.append((f, why))
    return out


def emit_status(schemas, status_path, root):
    status = {}
    if os.path.exists(status_path):
        with open(status_path) as f:
            status = json.load(f)
    defaults = status.get("*", {})
    sites = source_sites(root)
    rows = []
    elsewhere = []
    by_op = OrderedDict()
    for s in sorted(schemas, key=lambda s: (s.domain, s.name, s.version)):
        by_op.setdefault((s.domain, s.name), []).append(s)
    for (dom, name), versions in by_op.items():
        newest = versions[-1]
        key = (dom + "." if dom else "") + name
        st = dict(defaults)
        st.update(status.get(key, {}))
        if newest.deprecated:
            st["verify"] = "deprecated"
        cols = [st.get(c, "-") for c in ("import", "verify", "infer", "lower", "run_cpu",
                                          "run_gpu")]
        where = {}
        for v in versions:
            for column, names in sites.get(op_names(v)[1], {}).items():
                for n in names:
                    if n not in where.setdefault(column, []):
                        where[column].append(n)
        cols += [", ".join(where.get(c, [])) or "-"
                 for c in ("infer_in", "fold_in", "decompose_in", "lower_in")]
        for f, why in family_mismatches(name, where):
            elsewhere.append("| %s | %s | %s | %s |" % (name, where["infer_in"][0], f, why))
        rows.append("| %s | %s | %d | %s | %s |" % (
            name, dom or "ai.onnx", newest.version,
            ", ".join(str(v.version) for v in versions), " | ".join(cols)))
    counts = {
        "count": len(schemas),
        "ai": sum(1 for s in schemas if s.domain == ""),
        "prev": sum(1 for s in schemas if s.domain.startswith("ai.onnx.preview")),
        "ml": sum(1 for s in schemas if s.domain == "ai.onnx.ml"),
        "ops": len(by_op),
    }
    return (STATUS_HEAD.format(**counts) + "\n".join(rows) + "\n" + FAMILY_HEAD
            + "\n".join(elsewhere) + "\n")


# --------------------------------------------------------------------------- main

def to_json(schemas):
    out = []
    for s in schemas:
        mnemonic, cls = op_names(s)
        out.append({
            "domain": s.domain, "name": s.name, "version": s.version,
            "deprecated": s.deprecated, "op": "onnx." + mnemonic, "class": cls,
            "inputs": [vars(a) for a in s.inputs],
            "outputs": [vars(a) for a in s.outputs],
            "attributes": [vars(a) for a in s.attrs],
            "type_constraints": s.type_vars,
        })
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap.add_argument("--spec-dir", default=os.path.join(root, "..", "shared", "onnx-spec"))
    ap.add_argument("--out-dir", default=root)
    ap.add_argument("--check", action="store_true",
                    help="compare with the files in --out-dir instead of writing them")
    ap.add_argument("--dump-json", metavar="FILE")
    args = ap.parse_args()

    schemas = load(args.spec_dir)
    if args.dump_json:
        with open(args.dump_json, "w") as f:
            json.dump(to_json(schemas), f, indent=1)
        return 0
    files = emit_td_files(schemas)
    files["docs/status.md"] = emit_status(
        schemas, os.path.join(args.out_dir, "utils", "op_status.json"), args.out_dir)
    stale = []
    for rel, text in files.items():
        path = os.path.join(args.out_dir, rel)
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        if old == text:
            continue
        if args.check:
            stale.append(rel)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    if stale:
        print("stale generated files (run utils/gen_onnx_ops.py): " + ", ".join(stale),
              file=sys.stderr)
        return 1
    print("%d schema versions, %d generated files %s" % (
        len(schemas), len(files), "up to date" if args.check else "written"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
