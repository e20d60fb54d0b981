#!/usr/bin/env python3
"""Cross-checks the dialect's op schemas against ONNX's own operator registry.

  /usr/bin/python3 check_onnx_registry.py SCHEMAS.json     (or '-' for stdin)

SCHEMAS.json is the output of `onnx-opt --print-onnx-schemas`: a list of
objects {op, domain, name, version, deprecated, inputs, outputs, attributes,
type_constraints}. For every schema of the installed onnx package's registry
(onnx.defs.get_all_schemas_with_history(); Debian's python3-onnx, 1.12) the op
with the same (domain, name, since_version) must exist and agree on:
  - the deprecated flag (nothing more is compared for deprecated schemas: the
    spec text lists no inputs, outputs or attributes for them);
  - inputs and outputs, in order: name, option (single/optional/variadic),
    type string or type variable, heterogeneity and min_arity of a variadic;
  - attributes: name, type, required flag and default value (compared as
    values: floats to a relative 1e-6; the generator restores the defaults
    that the spec text prints rounded, see EXACT_DEFAULTS there);
  - type constraints: names (in order) and the set of allowed types.
Every mismatch is printed as `MISMATCH <domain>::<name>-<version>: <what>`;
the last line is `N passed, M failed` and the exit status is 1 if M > 0.

The spec the dialect is generated from is ONNX 1.22's; schemas that ONNX
changed after 1.12 without bumping their version are listed in
KNOWN_DIFFERENCES and not counted as failures (they are still printed, as
`KNOWN`, so that a fix on either side shows up).

Python 3 standard library and onnx only.
"""

import ast
import json
import math
import re
import sys

try:
    import onnx
    from onnx import defs, helper
except ImportError:  # pragma: no cover
    sys.stderr.write("check_onnx_registry.py needs the onnx Python package "
                     "(Debian's python3-onnx: run it with /usr/bin/python3)\n")
    sys.exit(2)


# (domain, name, since_version) -> list of (substring of the mismatch text,
# why it is a real ONNX change between 1.12 and the 1.22 spec). A mismatch of
# that schema is excused only if its text contains one of the substrings.
# Each entry was verified against shared/onnx-spec/Changelog*.md (1.22) and
# onnx 1.12's registry.
KNOWN_DIFFERENCES = {
    # ONNX 1.12 constrains T of Erf-13 to all numeric tensors (integers
    # included); later releases narrowed Erf-13 in place to float tensors, and
    # the 1.22 Changelog.md lists T : tensor(bfloat16), tensor(float16),
    # tensor(float), tensor(double) ("Constrain input and output types to
    # float tensors.", 1.12: "... to all numeric tensors.").
    ("", "Erf", 13): [
        ("type constraint 'T': missing: tensor(int16), tensor(int32), "
         "tensor(int64), tensor(int8), tensor(uint16), tensor(uint32), "
         "tensor(uint64), tensor(uint8)",
         "Erf-13 narrowed to float tensors after ONNX 1.12"),
    ],
    # ONNX 1.12 had the type variables of GridSample-16 swapped (X, grid : T1,
    # Y : T2 with T1 = all tensor types, T2 = float tensors, so the float grid
    # was typed 'any tensor' and the output 'float only'). Later releases fixed
    # it in place: the 1.22 Changelog.md has X : T1, grid : T2, Y : T1.
    ("", "GridSample", 16): [
        ("input 'grid': type 'T2', ONNX 1.12 has 'T1'",
         "GridSample-16 grid/Y type variables fixed after ONNX 1.12"),
        ("output 'Y': type 'T1', ONNX 1.12 has 'T2'",
         "GridSample-16 grid/Y type variables fixed after ONNX 1.12"),
    ],
    # Not an ONNX change but ours: ONNX (1.12 and the 1.22 Changelog.md) spells
    # GRU-1's default direction "foward", which no implementation accepts;
    # utils/gen_onnx_ops.py reads it as "forward", as every later GRU and
    # ONNX's reference implementation do.
    ("", "GRU", 1): [
        ("attribute 'direction': default 'forward', ONNX 1.12 has 'foward'",
         "GRU-1's misprinted default read as forward (gen_onnx_ops.py)"),
    ],
}


# ---------------------------------------------------------------- helpers

def norm_type(t):
    """'map(int64, float)' and 'map(int64,float)' are the same type."""
    return re.sub(r"\s+", "", t)


def split_types(text):
    """Splits 'tensor(float), map(int64, float)' at the top-level commas."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return [norm_type(t) for t in out if t.strip()]


def floats_match(a, b, strict=True):
    """The spec text prints a float default rounded to 5 decimals (onnx's
    gen_doc: str(np.round(v, 5)), or '(%e)' when that is longer than 10
    characters), and ONNX stores it as float32: accept a relative difference
    of 1e-6 or (unless strict) an absolute one within the 5-decimal rounding.
    Selu-6's alpha 1.6732632 is printed '1.67326', and the epsilon 1e-06 of
    Adam-1 and Adagrad-1 '0.0': the generator corrects those (EXACT_DEFAULTS),
    so the check is strict by default."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    if math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-12):
        return True
    return not strict and abs(a - b) <= 0.5e-5 * (1 + 1e-6)


def as_text(v):
    return v.decode("utf-8") if isinstance(v, (bytes, bytearray)) else v


SCALAR_OF = {"FLOATS": "FLOAT", "INTS": "INT", "STRINGS": "STRING"}


def parse_scalar(text, attr_type):
    """One value of the spec text, e.g. '1e-05', '(3.402823e+38)', '-1',
    'NOTSET', as the Python value of an attribute of attr_type."""
    if attr_type == "FLOAT":
        t = text.strip()
        if t.startswith("(") and t.endswith(")"):
            t = t[1:-1]
        return float(t)
    if attr_type == "INT":
        return int(text.strip())
    if attr_type == "STRING":
        return text
    raise ValueError("no default of type %s can be compared" % attr_type)


def parse_default(text, attr_type):
    """The spec-text default of an attribute as a Python value."""
    if attr_type in SCALAR_OF:
        items = ast.literal_eval(text)
        if not isinstance(items, (list, tuple)):
            raise ValueError("not a list: %r" % text)
        return [parse_scalar(str(x), SCALAR_OF[attr_type]) for x in items]
    return parse_scalar(text, attr_type)


def values_match(ours, theirs, attr_type, strict=False):
    if attr_type in SCALAR_OF:
        if not isinstance(theirs, list) or len(ours) != len(theirs):
            return False
        return all(values_match(a, b, SCALAR_OF[attr_type], strict)
                   for a, b in zip(ours, theirs))
    if attr_type == "FLOAT":
        return floats_match(float(ours), float(theirs), strict)
    if attr_type == "STRING":
        return ours == as_text(theirs)
    return ours == theirs


def onnx_default(attr):
    """(has_default, python value) of an onnx OpSchema.Attribute."""
    dv = attr.default_value
    if isinstance(dv, (bytes, bytearray)):  # very old onnx: serialized proto
        proto = onnx.AttributeProto()
        proto.ParseFromString(dv)
        dv = proto
    if dv is None or dv.type == onnx.AttributeProto.UNDEFINED:
        return False, None
    value = helper.get_attribute_value(dv)
    if isinstance(value, list):
        value = [as_text(v) for v in value]
    else:
        value = as_text(value)
    return True, value


def param_attr(param, *names):
    for n in names:
        if hasattr(param, n):
            return getattr(param, n)
    raise AttributeError(names[0])


def onnx_args(params, min_count):
    """The formal parameters of an onnx schema in the JSON's shape."""
    out = []
    for i, p in enumerate(params):
        kind = p.option.name.lower()  # Single / Optional / Variadic
        min_arity = None
        if kind == "variadic":
            if hasattr(p, "min_arity"):
                min_arity = p.min_arity
            else:
                # onnx 1.12 has no FormalParameter.min_arity; OpSchema::Finalize
                # sets min_input = (number of parameters before the variadic,
                # optional ones included) + the variadic's min_arity.
                min_arity = min_count - i
        out.append({
            "name": p.name,
            "kind": kind,
            "type": param_attr(p, "type_str", "typeStr"),
            "heterogeneous": not param_attr(p, "is_homogeneous", "isHomogeneous"),
            "min_arity": min_arity,
        })
    return out


# ---------------------------------------------------------------- checks

def compare_args(what, ours, theirs, report):
    if [a.get("name") for a in ours] != [a["name"] for a in theirs]:
        report("%s: names %s, ONNX 1.12 has %s" % (
            what, [a.get("name") for a in ours], [a["name"] for a in theirs]))
        return
    for o, t in zip(ours, theirs):
        where = "%s '%s'" % (what[:-1], t["name"])
        kind = str(o.get("kind", "")).lower()
        if kind != t["kind"]:
            report("%s: option %s, ONNX 1.12 has %s" % (where, kind, t["kind"]))
        if norm_type(str(o.get("type", ""))) != norm_type(t["type"]):
            report("%s: type '%s', ONNX 1.12 has '%s'" % (where, o.get("type"), t["type"]))
        if t["kind"] == "variadic" and kind == "variadic":
            if bool(o.get("heterogeneous")) != t["heterogeneous"]:
                report("%s: heterogeneous %s, ONNX 1.12 has %s" % (
                    where, bool(o.get("heterogeneous")), t["heterogeneous"]))
            if o.get("min_arity") != t["min_arity"]:
                report("%s: min_arity %s, ONNX 1.12 has %s" % (
                    where, o.get("min_arity"), t["min_arity"]))


def compare_attrs(ours, schema, report, note):
    theirs = schema.attributes  # dict name -> OpSchema.Attribute
    ours_by_name = {}
    for a in ours:
        ours_by_name[a.get("name")] = a
    for name in sorted(set(ours_by_name) - set(theirs)):
        report("attribute '%s' is not in ONNX 1.12" % name)
    for name in sorted(set(theirs) - set(ours_by_name)):
        report("attribute '%s' of ONNX 1.12 is missing" % name)
    for name in sorted(set(theirs) & set(ours_by_name)):
        o, t = ours_by_name[name], theirs[name]
        where = "attribute '%s'" % name
        ttype = t.type.name
        if o.get("type") != ttype:
            report("%s: type %s, ONNX 1.12 has %s" % (where, o.get("type"), ttype))
            continue
        if bool(o.get("required")) != bool(t.required):
            report("%s: required %s, ONNX 1.12 has %s" % (
                where, bool(o.get("required")), bool(t.required)))
        has, value = onnx_default(t)
        text = o.get("default")
        if text is None and not has:
            continue
        if text is None:
            report("%s: no default, ONNX 1.12 has %r" % (where, value))
            continue
        if not has:
            report("%s: default '%s', ONNX 1.12 has none" % (where, text))
            continue
        try:
            ours_value = parse_default(text, ttype)
        except (ValueError, SyntaxError) as e:
            report("%s: cannot read default '%s' (%s), ONNX 1.12 has %r" % (
                where, text, e, value))
            continue
        if not values_match(ours_value, value, ttype):
            report("%s: default '%s', ONNX 1.12 has %r" % (where, text, value))
        elif not values_match(ours_value, value, ttype, strict=True):
            note("%s: default '%s' is ONNX's %r rounded by the spec text" % (
                where, text, value))


def our_type_constraints(tc):
    """[(name, set of types)] from the JSON (a list of {name, allowed} where
    allowed is a comma-separated string or a list; or a dict name -> list)."""
    if isinstance(tc, dict):
        tc = [{"name": k, "allowed": v} for k, v in tc.items()]
    out = []
    for c in tc:
        allowed = c.get("allowed", "")
        if isinstance(allowed, str):
            allowed = split_types(allowed)
        else:
            allowed = [norm_type(x) for x in allowed]
        out.append((c.get("name"), set(allowed)))
    return out


def compare_type_constraints(ours, schema, report):
    theirs = [(c.type_param_str, {norm_type(x) for x in c.allowed_type_strs})
              for c in schema.type_constraints]
    onames, tnames = [n for n, _ in ours], [n for n, _ in theirs]
    if sorted(onames) != sorted(tnames):
        report("type constraints %s, ONNX 1.12 has %s" % (onames, tnames))
    elif onames != tnames:
        report("type constraint order %s, ONNX 1.12 has %s" % (onames, tnames))
    tmap = dict(theirs)
    for name, allowed in ours:
        if name not in tmap:
            continue
        if allowed != tmap[name]:
            extra = sorted(allowed - tmap[name])
            missing = sorted(tmap[name] - allowed)
            parts = []
            if extra:
                parts.append("not in ONNX 1.12: " + ", ".join(extra))
            if missing:
                parts.append("missing: " + ", ".join(missing))
            report("type constraint '%s': %s" % (name, "; ".join(parts)))


def check_schema(op, schema, report, note):
    if bool(op.get("deprecated")) != bool(schema.deprecated):
        report("deprecated %s, ONNX 1.12 has %s" % (
            bool(op.get("deprecated")), bool(schema.deprecated)))
        return
    if schema.deprecated:
        return
    compare_args("inputs", op.get("inputs") or [],
                 onnx_args(schema.inputs, schema.min_input), report)
    compare_args("outputs", op.get("outputs") or [],
                 onnx_args(schema.outputs, schema.min_output), report)
    compare_attrs(op.get("attributes") or [], schema, report, note)
    compare_type_constraints(our_type_constraints(op.get("type_constraints") or []),
                             schema, report)


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: %s SCHEMAS.json|-\n" % argv[0])
        return 2
    if argv[1] == "-":
        ops = json.load(sys.stdin)
    else:
        with open(argv[1], encoding="utf-8") as f:
            ops = json.load(f)

    by_key = {}
    for op in ops:
        key = (op["domain"], op["name"], int(op["version"]))
        if key in by_key:
            print("MISMATCH %s::%s-%d: two ops in the JSON (%s, %s)" % (
                key[0], key[1], key[2], by_key[key].get("op"), op.get("op")))
        by_key[key] = op

    passed = failed = known = 0
    seen = set()
    schemas = sorted(defs.get_all_schemas_with_history(),
                     key=lambda s: (s.domain, s.name, s.since_version))
    for schema in schemas:
        key = (schema.domain, schema.name, schema.since_version)
        label = "%s::%s-%d" % key
        seen.add(key)
        op = by_key.get(key)
        if op is None:
            print("MISMATCH %s: missing from the JSON" % label)
            failed += 1
            continue
        problems = []
        check_schema(op, schema, problems.append,
                     lambda text: print("NOTE %s: %s" % (label, text)))
        excuses = KNOWN_DIFFERENCES.get(key, [])
        real = 0
        for p in problems:
            if any(sub in p for sub, _ in excuses):
                print("KNOWN %s: %s" % (label, p))
                known += 1
            else:
                print("MISMATCH %s: %s" % (label, p))
                real += 1
        if real:
            failed += 1
        else:
            passed += 1

    newer = sorted(k for k in by_key if k not in seen)
    print("info: %d schemas of ONNX %s checked, %d known differences excused; "
          "%d ops in the JSON have no counterpart in ONNX %s (newer schemas)" % (
              len(schemas), onnx.__version__, known, len(newer), onnx.__version__))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
