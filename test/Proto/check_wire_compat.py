#!/usr/bin/python3
"""Check that lib/Proto/{onnx,onnx-data}.proto is wire-compatible with ONNX.

Usage:
    /usr/bin/python3 check_wire_compat.py PROTOC_BINARY PROTO_DIR [options]

Needs Debian's python3-onnx (1.12) and python3-protobuf. Run it with
/usr/bin/python3 (a pyenv `python3` usually has no `onnx`).

What is checked:
  a. PROTOC_BINARY generates Python code for our two .proto files.
  b. Schema: every message / enum (nested ones too) of ONNX 1.12's generated
     modules exists in ours with the same field numbers, types, labels,
     packed-ness, oneof membership and enum value numbers. Fields / values that
     only exist in ours (newer IR versions) are counted and listed, not failed.
  c. Round trips:
     * hand-built models covering every attribute kind, several tensor types,
       functions, sparse initializers, sequence/map/optional/opaque types, ...:
       ONNX serialize -> ours parse -> ours serialize must give the same bytes
       and an ONNX message equal (==) to the original;
     * IR 9-13 only fields built with our classes survive a round trip through
       ONNX 1.12 (as unknown fields) and back;
     * ONNX 1.12 test data (Debian libonnx-testdata): for a sample of models and
       of test_data_set *.pb files, ours parse->serialize must equal ONNX's
       parse->serialize byte for byte;
     * ONNX 1.22 test data (IR up to 13): ours parse->serialize must equal the
       file bytes, and nothing may be left in unknown fields.
  d. Prints "N passed, M failed" as the last line; exit status 1 on failure.
"""

import argparse
import glob
import importlib
import os
import random
import subprocess
import sys
import tempfile
import traceback

import numpy as np

import onnx
from onnx import helper, numpy_helper
import onnx.onnx_ml_pb2 as onnx_ml_pb2
import onnx.onnx_data_pb2 as onnx_data_pb2

ONNX_PACKAGE = "onnx"
OUR_PACKAGE = "onnx_dialect.proto"

# Differences from ONNX 1.12 that are intended. Key: (full ONNX enum value
# name); value: reason. ONNX renames its newest IR version "IR_VERSION" each
# release; our IR_VERSION is the newest version our schema knows (13).
EXPECTED_ENUM_DIFFS = {
    "onnx.Version.IR_VERSION":
        "IR_VERSION names the newest IR (8 in ONNX 1.12, 13 here)",
}

DEBIAN_TESTDATA = "/usr/share/libonnx-testdata/data"
# ONNX 1.22 backend test data: the project's shared/ folder, found next to
# the checkout (../shared) or inside it (shared/); else /work/shared.
_HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_NEW_TESTDATA = next(
    (p for p in (os.path.normpath(os.path.join(_HERE, *rel, "shared",
                                               "onnx-tests-1.22"))
                 for rel in ((os.pardir,) * 3, (os.pardir,) * 2))
     if os.path.isdir(p)),
    "/work/shared/onnx-tests-1.22")


class Results:
    def __init__(self, verbose):
        self.passed = 0
        self.failed = 0
        self.verbose = verbose

    def check(self, cond, what, detail=""):
        if cond:
            self.passed += 1
            if self.verbose:
                print(f"PASS {what}")
        else:
            self.failed += 1
            print(f"FAIL {what}" + (f": {detail}" if detail else ""))
        return cond


# ---------------------------------------------------------------------------
# a. generate and import our modules
# ---------------------------------------------------------------------------

def generate_modules(protoc, proto_dir, out_dir, res):
    files = [os.path.join(proto_dir, "onnx.proto"),
             os.path.join(proto_dir, "onnx-data.proto")]
    cmd = [protoc, f"--python_out={out_dir}", "-I", proto_dir] + files
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if not res.check(proc.returncode == 0, "protoc --python_out",
                     proc.stderr.strip()):
        return None, None
    sys.path.insert(0, out_dir)
    try:
        ours = importlib.import_module("onnx_pb2")
        ours_data = importlib.import_module("onnx_data_pb2")
    except Exception as e:  # pylint: disable=broad-except
        res.check(False, "import generated modules", repr(e))
        return None, None
    res.check(ours.DESCRIPTOR.package == OUR_PACKAGE, "package name",
              ours.DESCRIPTOR.package)
    res.check(ours_data.DESCRIPTOR.package == OUR_PACKAGE,
              "onnx-data package name", ours_data.DESCRIPTOR.package)
    return ours, ours_data


# ---------------------------------------------------------------------------
# b. schema comparison
# ---------------------------------------------------------------------------

def strip_pkg(full_name, pkg):
    assert full_name.startswith(pkg + "."), full_name
    return full_name[len(pkg) + 1:]


class SchemaComparer:
    def __init__(self, res, our_pool_lookup):
        self.res = res
        self.lookup = our_pool_lookup  # relative name -> our descriptor
        self.new_fields = []
        self.new_enum_values = []
        self.new_messages = []
        self.new_enums = []
        self.seen = set()

    def compare_enum(self, theirs, ours):
        rel = strip_pkg(theirs.full_name, ONNX_PACKAGE)
        for v in theirs.values:
            full = f"{theirs.full_name}.{v.name}"
            ov = ours.values_by_name.get(v.name)
            if full in EXPECTED_ENUM_DIFFS and ov is not None:
                print(f"NOTE {rel}.{v.name}: ONNX 1.12 = {v.number}, ours = "
                      f"{ov.number} (expected: {EXPECTED_ENUM_DIFFS[full]})")
                self.res.check(True, f"enum value {rel}.{v.name}")
                continue
            self.res.check(ov is not None and ov.number == v.number,
                           f"enum value {rel}.{v.name}",
                           f"ONNX {v.number}, ours "
                           f"{None if ov is None else ov.number}")
        for v in ours.values:
            if v.name not in theirs.values_by_name:
                self.new_enum_values.append(f"{rel}.{v.name}={v.number}")

    def compare_field(self, rel_msg, tf, of):
        what = f"field {rel_msg}.{tf.name}"
        problems = []
        if of is None:
            self.res.check(False, what, "missing in ours")
            return
        if of.number != tf.number:
            problems.append(f"number {tf.number} vs {of.number}")
        if of.type != tf.type:
            problems.append(f"type {tf.type} vs {of.type}")
        if of.label != tf.label:
            problems.append(f"label {tf.label} vs {of.label}")
        if tf.message_type is not None or of.message_type is not None:
            tn = tf.message_type and strip_pkg(tf.message_type.full_name,
                                               ONNX_PACKAGE)
            on = of.message_type and strip_pkg(of.message_type.full_name,
                                               OUR_PACKAGE)
            if tn != on:
                problems.append(f"message type {tn} vs {on}")
        if tf.enum_type is not None or of.enum_type is not None:
            tn = tf.enum_type and strip_pkg(tf.enum_type.full_name,
                                            ONNX_PACKAGE)
            on = of.enum_type and strip_pkg(of.enum_type.full_name,
                                            OUR_PACKAGE)
            if tn != on:
                problems.append(f"enum type {tn} vs {on}")
        tp, op = tf.GetOptions().packed, of.GetOptions().packed
        if tp != op:
            problems.append(f"packed {tp} vs {op}")
        if tf.has_default_value != of.has_default_value or (
                tf.has_default_value and tf.default_value != of.default_value):
            problems.append(f"default {tf.default_value!r} vs "
                            f"{of.default_value!r}")
        toneof = tf.containing_oneof and tf.containing_oneof.name
        ooneof = of.containing_oneof and of.containing_oneof.name
        if toneof != ooneof:
            problems.append(f"oneof {toneof} vs {ooneof}")
        self.res.check(not problems, what, "; ".join(problems))

    def compare_message(self, theirs, ours):
        rel = strip_pkg(theirs.full_name, ONNX_PACKAGE)
        self.seen.add(rel)
        for tf in theirs.fields:
            self.compare_field(rel, tf, ours.fields_by_name.get(tf.name))
        for of in ours.fields:
            if of.name not in theirs.fields_by_name:
                self.new_fields.append(f"{rel}.{of.name}={of.number}")
        # nested types
        for nt in theirs.nested_types:
            self.compare_named(nt, "message")
        for ne in theirs.enum_types:
            self.compare_named(ne, "enum")
        for nt in ours.nested_types:
            r = strip_pkg(nt.full_name, OUR_PACKAGE)
            if nt.name not in theirs.nested_types_by_name:
                self.new_messages.append(r)
        for ne in ours.enum_types:
            if ne.name not in theirs.enum_types_by_name:
                self.new_enums.append(strip_pkg(ne.full_name, OUR_PACKAGE))

    def compare_named(self, theirs, kind):
        rel = strip_pkg(theirs.full_name, ONNX_PACKAGE)
        ours = self.lookup(rel, kind)
        if not self.res.check(ours is not None, f"{kind} {rel} exists"):
            return
        if kind == "message":
            self.compare_message(theirs, ours)
        else:
            self.compare_enum(theirs, ours)


def compare_schemas(ours, ours_data, res):
    our_files = [ours.DESCRIPTOR, ours_data.DESCRIPTOR]

    def lookup(rel, kind):
        parts = rel.split(".")
        for fd in our_files:
            table = (fd.message_types_by_name if len(parts) > 1 or
                     kind == "message" else fd.enum_types_by_name)
            d = table.get(parts[0])
            if d is None:
                continue
            for i, p in enumerate(parts[1:], start=1):
                last = i == len(parts) - 1
                if last and kind == "enum":
                    d = d.enum_types_by_name.get(p)
                else:
                    d = d.nested_types_by_name.get(p)
                if d is None:
                    break
            if d is not None:
                return d
        return None

    cmp = SchemaComparer(res, lookup)
    for theirs_fd, ours_fd in ((onnx_ml_pb2.DESCRIPTOR, ours.DESCRIPTOR),
                               (onnx_data_pb2.DESCRIPTOR, ours_data.DESCRIPTOR)):
        res.check(ours_fd.syntax == theirs_fd.syntax,
                  f"syntax of {ours_fd.name}", ours_fd.syntax)
        for m in theirs_fd.message_types_by_name.values():
            cmp.compare_named(m, "message")
        for e in theirs_fd.enum_types_by_name.values():
            cmp.compare_named(e, "enum")
        for name in ours_fd.message_types_by_name:
            if name not in theirs_fd.message_types_by_name:
                cmp.new_messages.append(name)
        for name in ours_fd.enum_types_by_name:
            if name not in theirs_fd.enum_types_by_name:
                cmp.new_enums.append(name)

    print(f"schema: {len(cmp.new_fields)} field(s) newer than ONNX 1.12: "
          + ", ".join(cmp.new_fields))
    print(f"schema: {len(cmp.new_messages)} message(s) newer than ONNX 1.12: "
          + ", ".join(cmp.new_messages))
    print(f"schema: {len(cmp.new_enums)} enum(s) newer than ONNX 1.12: "
          + ", ".join(cmp.new_enums))
    print(f"schema: {len(cmp.new_enum_values)} enum value(s) newer than "
          f"ONNX 1.12: " + ", ".join(cmp.new_enum_values))


# ---------------------------------------------------------------------------
# c. round trips
# ---------------------------------------------------------------------------

def has_unknown_fields(msg):
    """True if msg (recursively) holds fields our schema does not know."""
    copy = type(msg)()
    copy.CopyFrom(msg)
    before = copy.SerializeToString()
    copy.DiscardUnknownFields()
    return copy.SerializeToString() != before


def roundtrip_onnx_message(res, what, onnx_msg, our_cls):
    """ONNX bytes -> ours -> bytes; must be identical and parse back equal."""
    data = onnx_msg.SerializeToString()
    mine = our_cls()
    try:
        mine.ParseFromString(data)
    except Exception as e:  # pylint: disable=broad-except
        res.check(False, f"{what}: ours parses", repr(e))
        return
    res.check(not has_unknown_fields(mine), f"{what}: no unknown fields")
    again = mine.SerializeToString()
    res.check(again == data, f"{what}: bytes identical",
              f"{len(data)} vs {len(again)} bytes")
    back = type(onnx_msg)()
    back.ParseFromString(again)
    res.check(back == onnx_msg, f"{what}: ONNX message equal after round trip")


def build_models():
    """Non-trivial ModelProtos built with onnx.helper (ONNX 1.12 classes)."""
    TP = onnx.TensorProto
    models = []

    # -- initializers of many dtypes, typed storage and raw storage --------
    inits = [
        helper.make_tensor("f32", TP.FLOAT, [2, 3], np.arange(6.0) - 2.5),
        helper.make_tensor("f32raw", TP.FLOAT, [2, 2],
                           np.array([1, -2, 3.5, 1e30], np.float32).tobytes(),
                           raw=True),
        helper.make_tensor("f64", TP.DOUBLE, [3], [1.5, -2.25, 1e300]),
        helper.make_tensor("i8", TP.INT8, [4], [-128, -1, 0, 127]),
        helper.make_tensor("u8", TP.UINT8, [3], [0, 1, 255]),
        helper.make_tensor("i16", TP.INT16, [2], [-32768, 32767]),
        helper.make_tensor("u16", TP.UINT16, [2], [0, 65535]),
        helper.make_tensor("i32", TP.INT32, [3], [-2**31, 0, 2**31 - 1]),
        helper.make_tensor("i64", TP.INT64, [3], [-2**63, 0, 2**63 - 1]),
        helper.make_tensor("u32", TP.UINT32, [2], [0, 2**32 - 1]),
        helper.make_tensor("u64", TP.UINT64, [2], [0, 2**64 - 1]),
        helper.make_tensor("b", TP.BOOL, [3], [True, False, True]),
        helper.make_tensor("f16", TP.FLOAT16, [3],
                           np.array([1.0, -0.5, np.inf], np.float16)),
        helper.make_tensor("bf16", TP.BFLOAT16, [2], [1.0, -3.0]),
        helper.make_tensor("str", TP.STRING, [3], [b"a", b"", "\u00e9".encode()]),
        helper.make_tensor("c64", TP.COMPLEX64, [2],
                           np.array([1 + 2j, -3j], np.complex64)),
        helper.make_tensor("c128", TP.COMPLEX128, [1],
                           np.array([1.5 - 2j], np.complex128)),
        helper.make_tensor("scalar", TP.INT64, [], [42]),
        helper.make_tensor("empty", TP.FLOAT, [0, 3], []),
    ]
    # External-data tensor with a segment and a doc string (fields only).
    ext = TP()
    ext.name = "ext"
    ext.data_type = TP.FLOAT
    ext.dims.extend([1024])
    ext.data_location = TP.EXTERNAL
    for k, v in (("location", "weights.bin"), ("offset", "4096"),
                 ("length", "4096"), ("checksum", "0" * 40)):
        e = ext.external_data.add()
        e.key, e.value = k, v
    ext.doc_string = "external"
    seg = TP()
    seg.CopyFrom(helper.make_tensor("seg", TP.FLOAT, [2], [1, 2]))
    seg.segment.begin = 10
    seg.segment.end = 12
    inits += [ext, seg]

    sparse = helper.make_sparse_tensor(
        helper.make_tensor("sp", TP.FLOAT, [3], [1.0, 2.0, 3.0]),
        helper.make_tensor("sp_idx", TP.INT64, [3], [0, 5, 11]),
        [3, 4])
    sparse2d = helper.make_sparse_tensor(
        helper.make_tensor("sp2", TP.INT32, [2], [7, -7]),
        helper.make_tensor("sp2_idx", TP.INT64, [2, 2], [0, 1, 2, 3]),
        [3, 4])

    # -- subgraph used by If / attributes ---------------------------------
    sub = helper.make_graph(
        [helper.make_node("Identity", ["f32"], ["sub_out"], name="id")],
        "then_branch", [],
        [helper.make_tensor_value_info("sub_out", TP.FLOAT, [2, 3])])
    sub2 = helper.make_graph(
        [helper.make_node("Neg", ["f32"], ["sub_out2"])], "else_branch", [],
        [helper.make_tensor_value_info("sub_out2", TP.FLOAT, ["N", 3])])

    # -- type protos of every kind ----------------------------------------
    t_tensor = helper.make_tensor_type_proto(TP.FLOAT, ["batch", 3, None])
    t_tensor.tensor_type.shape.dim[0].denotation = "DATA_BATCH"
    t_tensor.denotation = "TENSOR"
    t_seq = helper.make_sequence_type_proto(
        helper.make_tensor_type_proto(TP.INT64, [None]))
    t_map = onnx.TypeProto()
    t_map.map_type.key_type = TP.STRING
    t_map.map_type.value_type.CopyFrom(
        helper.make_tensor_type_proto(TP.FLOAT, []))
    t_map_int = onnx.TypeProto()
    t_map_int.map_type.key_type = TP.INT64
    t_map_int.map_type.value_type.CopyFrom(t_seq)
    t_opt = helper.make_optional_type_proto(t_seq)
    t_opt_tensor = helper.make_optional_type_proto(
        helper.make_tensor_type_proto(TP.UINT8, [2]))
    t_sparse = helper.make_sparse_tensor_type_proto(TP.FLOAT, [3, 4])
    t_opaque = onnx.TypeProto()
    t_opaque.opaque_type.domain = "com.example"
    t_opaque.opaque_type.name = "Handle"
    t_seq_map = helper.make_sequence_type_proto(t_map)

    # -- a node carrying every attribute kind -----------------------------
    attrs = dict(
        a_float=helper.make_attribute("a_float", 0.25),
        a_int=helper.make_attribute("a_int", -7),
        a_string=helper.make_attribute("a_string", "hello"),
        a_tensor=helper.make_attribute("a_tensor", inits[2]),
        a_graph=helper.make_attribute("a_graph", sub),
        a_sparse=helper.make_attribute("a_sparse", sparse),
        a_tp=helper.make_attribute("a_tp", t_seq),
        a_floats=helper.make_attribute("a_floats", [1.0, -2.5, 3e-8]),
        a_ints=helper.make_attribute("a_ints", [1, -2, 2**40]),
        a_strings=helper.make_attribute("a_strings", ["x", "yz", ""]),
        a_tensors=helper.make_attribute("a_tensors", inits[:3]),
        a_graphs=helper.make_attribute("a_graphs", [sub, sub2]),
        a_sparses=helper.make_attribute("a_sparses", [sparse, sparse2d]),
        a_tps=helper.make_attribute("a_tps", [t_tensor, t_map, t_opt]),
    )
    attrs["a_float"].doc_string = "attr doc"
    kinds = {a.type for a in attrs.values()}
    all_kinds = set(onnx.AttributeProto.AttributeType.values()) - {0}
    assert kinds == all_kinds, (kinds, all_kinds)
    custom = onnx.NodeProto()
    custom.CopyFrom(helper.make_node(
        "Custom", ["f32", "", "i64"], ["c_out", "c_out2"], name="custom",
        domain="com.example", doc_string="node doc"))
    custom.attribute.extend(attrs.values())

    nodes = [
        custom,
        helper.make_node("If", ["b"], ["if_out"], then_branch=sub,
                         else_branch=sub2),
        helper.make_node("MyFunc", ["f32", "f32"], ["fn_out"],
                         domain="local", alpha=2.0),
        helper.make_node("Add", ["f32", "f32raw"], ["y"]),
    ]

    inputs = [
        helper.make_value_info("x_tensor", t_tensor, "input doc"),
        helper.make_value_info("x_seq", t_seq),
        helper.make_value_info("x_map", t_map),
        helper.make_value_info("x_map_int", t_map_int),
        helper.make_value_info("x_opt", t_opt),
        helper.make_value_info("x_opt_tensor", t_opt_tensor),
        helper.make_value_info("x_sparse", t_sparse),
        helper.make_value_info("x_opaque", t_opaque),
        helper.make_value_info("x_seq_map", t_seq_map),
        helper.make_tensor_sequence_value_info("x_tseq", TP.FLOAT, [2, "M"]),
    ]
    outputs = [helper.make_tensor_value_info("y", TP.FLOAT, [2, 2]),
               helper.make_empty_tensor_value_info("if_out")]
    graph = helper.make_graph(
        nodes, "everything", inputs, outputs, initializer=inits,
        doc_string="graph doc",
        value_info=[helper.make_tensor_value_info("c_out", TP.FLOAT, None)],
        sparse_initializer=[sparse, sparse2d])
    ann = graph.quantization_annotation.add()
    ann.tensor_name = "y"
    for k, v in (("SCALE_TENSOR", "s"), ("ZERO_POINT_TENSOR", "z")):
        e = ann.quant_parameter_tensor_names.add()
        e.key, e.value = k, v

    # -- model-local function with a ref_attr_name attribute --------------
    fn_mul = helper.make_node("Mul", ["a", "b"], ["m"])
    fn_const = helper.make_node("Constant", [], ["k"])
    ref = fn_const.attribute.add()
    ref.name = "value_float"
    ref.ref_attr_name = "alpha"
    ref.type = onnx.AttributeProto.FLOAT
    fn_add = helper.make_node("Add", ["m", "k"], ["out"])
    func = helper.make_function(
        "local", "MyFunc", ["a", "b"], ["out"], [fn_mul, fn_const, fn_add],
        [helper.make_opsetid("", 17)], attributes=["alpha"])
    func.doc_string = "function doc"

    model = helper.make_model(
        graph, producer_name="check_wire_compat", producer_version="1.0",
        domain="org.example", model_version=3, doc_string="model doc",
        opset_imports=[helper.make_opsetid("", 17),
                       helper.make_opsetid("com.example", 1),
                       helper.make_opsetid("local", 1)],
        functions=[func])
    helper.set_model_props(model, {"model_author": "me",
                                   "model_license": "Apache-2.0", "k": "v"})

    # -- training info ------------------------------------------------------
    init_graph = helper.make_graph(
        [helper.make_node("Constant", [], ["w0"],
                          value=helper.make_tensor("c", TP.FLOAT, [1], [0]))],
        "init", [], [helper.make_tensor_value_info("w0", TP.FLOAT, [1])])
    algo_graph = helper.make_graph(
        [helper.make_node("Add", ["f32", "f32"], ["w1"])], "algo", [],
        [helper.make_tensor_value_info("w1", TP.FLOAT, [2, 3])])
    model.training_info.append(helper.make_training_info(
        algo_graph, [("f32", "w1")], init_graph, [("f32", "w0")]))
    models.append(("model:everything", model))

    # -- a second, plain model: small Conv net built the usual way ---------
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3))
                                .astype(np.float32), "w")
    bias = numpy_helper.from_array(rng.standard_normal(4).astype(np.float32),
                                   "bias")
    shape = numpy_helper.from_array(np.array([1, -1], np.int64), "shape")
    conv = helper.make_graph(
        [helper.make_node("Conv", ["x", "w", "bias"], ["c"],
                          kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                          strides=[1, 1]),
         helper.make_node("Relu", ["c"], ["r"]),
         helper.make_node("Reshape", ["r", "shape"], ["out"])],
        "convnet",
        [helper.make_tensor_value_info("x", TP.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("out", TP.FLOAT, [1, 256])],
        initializer=[w, bias, shape])
    models.append(("model:convnet", helper.make_model(
        conv, opset_imports=[helper.make_opsetid("", 13)])))

    # -- a Loop with a nested If: deep subgraph nesting ----------------------
    inner_if = helper.make_graph(
        [helper.make_node("If", ["cond_in"], ["v"], then_branch=sub,
                          else_branch=sub2)], "body",
        [helper.make_tensor_value_info("iter", TP.INT64, []),
         helper.make_tensor_value_info("cond_in", TP.BOOL, [])],
        [helper.make_tensor_value_info("cond_in", TP.BOOL, []),
         helper.make_tensor_value_info("v", TP.FLOAT, [2, 3])])
    loop = helper.make_graph(
        [helper.make_node("Loop", ["trip", "cond"], ["vs"], body=inner_if)],
        "loop",
        [helper.make_tensor_value_info("trip", TP.INT64, []),
         helper.make_tensor_value_info("cond", TP.BOOL, [])],
        [helper.make_tensor_value_info("vs", TP.FLOAT, [None, 2, 3])],
        initializer=[inits[0]])
    models.append(("model:loop", helper.make_model(
        loop, opset_imports=[helper.make_opsetid("", 16)])))
    return models


def build_data_protos():
    """SequenceProto / MapProto / OptionalProto values (onnx-data.proto)."""
    TP = onnx.TensorProto
    t1 = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3),
                                 "t1")
    t2 = numpy_helper.from_array(np.array([1, 2], np.int64), "t2")
    seq = helper.make_sequence("seq", onnx.SequenceProto.TENSOR, [t1, t1])
    seq_i = helper.make_sequence("seq_i", onnx.SequenceProto.TENSOR, [t2])
    mp = helper.make_map("map", TP.INT64, [1, 5, -3], seq)
    mp.values.CopyFrom(helper.make_sequence("vals", onnx.SequenceProto.TENSOR,
                                            [t1, t1, t2]))
    smap = onnx.MapProto()
    smap.name = "smap"
    smap.key_type = TP.STRING
    smap.string_keys.extend([b"a", b"b"])
    smap.values.CopyFrom(seq)
    seq_of_seq = helper.make_sequence("ss", onnx.SequenceProto.SEQUENCE,
                                      [seq, seq_i])
    seq_of_map = helper.make_sequence("sm", onnx.SequenceProto.MAP, [mp, smap])
    opt_t = helper.make_optional("ot", onnx.OptionalProto.TENSOR, t1)
    opt_s = helper.make_optional("os", onnx.OptionalProto.SEQUENCE, seq)
    opt_none = onnx.OptionalProto()  # an empty optional: no value field
    opt_none.name = "on"
    opt_none.elem_type = onnx.OptionalProto.TENSOR
    opt_opt = onnx.OptionalProto()
    opt_opt.name = "oo"
    opt_opt.elem_type = onnx.OptionalProto.OPTIONAL
    opt_opt.optional_value.CopyFrom(opt_t)
    opt_map = onnx.OptionalProto()
    opt_map.elem_type = onnx.OptionalProto.MAP
    opt_map.map_value.CopyFrom(mp)
    sp = helper.make_sparse_tensor(
        helper.make_tensor("v", TP.FLOAT, [2], [1, 2]),
        helper.make_tensor("i", TP.INT64, [2], [0, 3]), [4])
    opt_sp = onnx.OptionalProto()
    opt_sp.elem_type = onnx.OptionalProto.SPARSE_TENSOR
    opt_sp.sparse_tensor_value.CopyFrom(sp)
    seq_sp = helper.make_sequence("ssp", onnx.SequenceProto.SPARSE_TENSOR,
                                  [sp])
    seq_opt = onnx.SequenceProto()
    seq_opt.elem_type = onnx.SequenceProto.OPTIONAL
    seq_opt.optional_values.extend([opt_t, opt_none])
    return [("SequenceProto", x) for x in (seq, seq_of_seq, seq_of_map,
                                           seq_sp, seq_opt)] + \
           [("MapProto", x) for x in (mp, smap)] + \
           [("OptionalProto", x) for x in (opt_t, opt_s, opt_none, opt_opt,
                                           opt_map, opt_sp)]


def build_new_ir_model(ours):
    """A model using IR 9-13 fields, built with our classes."""
    m = ours.ModelProto()
    m.ir_version = 13
    m.opset_import.add(domain="", version=25)
    g = m.graph
    g.name = "new_ir"
    md = g.metadata_props.add(key="graph_key", value="graph_val")
    del md
    n = g.node.add(op_type="MyFunc", domain="local", overload="v2",
                   input=["x"], output=["y"])
    n.metadata_props.add(key="node_key", value="node_val")
    dc = n.device_configurations.add(configuration_id="cfg", pipeline_stage=1)
    ss = dc.sharding_spec.add(tensor_name="x", device=[0, 1, 100])
    ss.index_to_device_group_map.add(key=100, value=[2, 3])
    sd = ss.sharded_dim.add(axis=-1)
    sd.simple_sharding.add(dim_value=8, num_shards=2)
    sd.simple_sharding.add(dim_param="N", num_shards=4)
    vi = g.input.add(name="x")
    vi.type.tensor_type.elem_type = ours.TensorProto.FLOAT8E4M3FN
    vi.type.tensor_type.shape.dim.add(dim_value=8)
    vi.metadata_props.add(key="vi_key", value="vi_val")
    out = g.output.add(name="y")
    out.type.tensor_type.elem_type = ours.TensorProto.INT2
    for code, raw in ((ours.TensorProto.FLOAT8E4M3FNUZ, b"\x01\x02"),
                      (ours.TensorProto.FLOAT8E5M2, b"\x03"),
                      (ours.TensorProto.FLOAT8E5M2FNUZ, b"\x04"),
                      (ours.TensorProto.UINT4, b"\x21"),
                      (ours.TensorProto.INT4, b"\xf7"),
                      (ours.TensorProto.FLOAT4E2M1, b"\x13"),
                      (ours.TensorProto.FLOAT8E8M0, b"\x7f"),
                      (ours.TensorProto.UINT2, b"\xe4"),
                      (ours.TensorProto.INT2, b"\x1b")):
        t = g.initializer.add(name=f"t{code}", data_type=code, dims=[1],
                              raw_data=raw)
        t.metadata_props.add(key="tk", value=str(code))
    t = g.initializer.add(name="typed4", data_type=ours.TensorProto.INT4,
                          dims=[3], int32_data=[0x21, 0x03])
    f = m.functions.add(name="MyFunc", domain="local", overload="v2",
                        input=["a"], output=["b"])
    f.opset_import.add(domain="", version=25)
    f.node.add(op_type="Identity", input=["a"], output=["b"])
    f.attribute_proto.add(name="alpha", type=ours.AttributeProto.FLOAT, f=1.5)
    f.value_info.add(name="a").type.tensor_type.elem_type = 1
    f.metadata_props.add(key="fk", value="fv")
    cfg = m.configuration.add(name="cfg", num_devices=2)
    cfg.device.extend(["gpu0", "gpu1"])
    return m


def check_handbuilt(res, ours, ours_data):
    for what, model in build_models():
        roundtrip_onnx_message(res, what, model, ours.ModelProto)
        # Also each nested kind on its own.
        for i, t in enumerate(model.graph.initializer):
            roundtrip_onnx_message(res, f"{what}:tensor[{i}]", t,
                                   ours.TensorProto)
    for what, msg in build_data_protos():
        roundtrip_onnx_message(res, f"data:{what}:{msg.name or '-'}", msg,
                               getattr(ours_data, what))

    # Our text format must be what ONNX prints (same field names).
    from google.protobuf import text_format
    model = build_models()[0][1]
    mine = ours.ModelProto.FromString(model.SerializeToString())
    res.check(text_format.MessageToString(mine) ==
              text_format.MessageToString(model), "text format identical")
    back = ours.ModelProto()
    try:
        text_format.Parse(text_format.MessageToString(model), back)
        res.check(back == mine, "text format parses into ours")
    except text_format.ParseError as e:
        res.check(False, "text format parses into ours", str(e))

    # IR 9..13 features: ours -> ONNX 1.12 (unknown fields kept) -> ours.
    m = build_new_ir_model(ours)
    data = m.SerializeToString()
    res.check(not has_unknown_fields(m), "new-IR model: no unknown fields")
    res.check(ours.ModelProto.FromString(data) == m,
              "new-IR model: ours round trip equal")
    old = onnx.ModelProto.FromString(data)
    res.check(has_unknown_fields(old),
              "new-IR model: ONNX 1.12 sees unknown fields (sanity)")
    res.check(ours.ModelProto.FromString(old.SerializeToString()) == m,
              "new-IR model: survives ONNX 1.12 round trip")
    mv = m.graph.node[0].device_configurations[0].sharding_spec[0]
    res.check(mv.sharded_dim[0].simple_sharding[1].WhichOneof("dim") ==
              "dim_param", "SimpleShardedDimProto oneof dim")


def model_type_for(model, kind, idx):
    """The message class name for input_K.pb / output_K.pb of a test."""
    vis = model.graph.input if kind == "input" else model.graph.output
    if idx >= len(vis):
        return None
    which = vis[idx].type.WhichOneof("value")
    return {"tensor_type": "TensorProto", "sequence_type": "SequenceProto",
            "map_type": "MapProto", "optional_type": "OptionalProto",
            "sparse_tensor_type": "SparseTensorProto"}.get(which)


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def collect_testdata(root, model_cls):
    """Every model under root with its data files.

    Returns ([model paths], [(pb path, message name)], [untyped pb paths]).
    Two layouts are understood: DIR/model.onnx + DIR/test_data_set_N/
    {input,output}_K.pb (backend tests) and NAME.onnx + NAME_output_K.pb
    side by side (ONNX's "light" models).
    """
    models, pbs, untyped = [], [], []
    for model_path in sorted(glob.glob(os.path.join(root, "**", "*.onnx"),
                                       recursive=True)):
        models.append(model_path)
        if os.path.basename(model_path) == "model.onnx":
            pattern = os.path.join(os.path.dirname(model_path),
                                   "test_data_set_*", "*.pb")
            prefix = ""
        else:
            prefix = os.path.basename(model_path)[:-len(".onnx")] + "_"
            pattern = os.path.join(os.path.dirname(model_path),
                                   glob.escape(prefix) + "*put_*.pb")
        model = None
        for pb in sorted(glob.glob(pattern)):
            base = os.path.basename(pb)[len(prefix):-len(".pb")]
            kind, _, idx = base.rpartition("_")
            if kind not in ("input", "output") or not idx.isdigit():
                untyped.append(pb)
                continue
            if model is None:
                model = model_cls.FromString(read_bytes(model_path))
            msg = model_type_for(model, kind, int(idx))
            if msg is None:
                untyped.append(pb)
            else:
                pbs.append((pb, msg))
    return models, pbs, untyped


def sample(rng, items, n, keep=lambda _: False):
    """All items for which keep(), plus n others chosen at random (seeded)."""
    if n < 0 or n >= len(items):
        return list(items)
    kept = [x for x in items if keep(x)]
    rest = [x for x in items if not keep(x)]
    return kept + sorted(rng.sample(rest, min(n, len(rest))))


DATA_MESSAGES = ("SequenceProto", "MapProto", "OptionalProto")


def our_class(ours, ours_data, name):
    return getattr(ours_data if name in DATA_MESSAGES else ours, name)


def pick_testdata(res, root, n_models, n_pbs, ours, rng):
    models, pbs, untyped = collect_testdata(root, ours.ModelProto)
    res.check(models, f"{root}: contains models")
    chosen = [(m, "ModelProto") for m in sample(rng, models, n_models)]
    # Non-tensor values are rare: always check all of them.
    chosen += sample(rng, pbs, n_pbs, keep=lambda p: p[1] != "TensorProto")
    summary = (f"(of {len(models)} models, {len(pbs)} data files"
               + (f"; {len(untyped)} data files of unknown type skipped"
                  if untyped else "") + ")")
    return chosen, summary


def count_summary(counts):
    return ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))


def check_testdata_12(res, root, n_models, n_pbs, ours, ours_data, rng):
    """ONNX 1.12 data: ours parse->serialize == ONNX parse->serialize."""
    chosen, summary = pick_testdata(res, root, n_models, n_pbs, ours, rng)
    counts = {}
    for path, kind in chosen:
        data = read_bytes(path)
        rel = os.path.relpath(path, root)
        theirs = getattr(onnx, kind).FromString(data).SerializeToString()
        mine_msg = our_class(ours, ours_data, kind).FromString(data)
        mine = mine_msg.SerializeToString()
        res.check(mine == theirs, f"1.12 {kind} {rel}: bytes identical",
                  f"{len(theirs)} vs {len(mine)} bytes")
        res.check(not has_unknown_fields(mine_msg),
                  f"1.12 {kind} {rel}: no unknown fields")
        counts[kind] = counts.get(kind, 0) + 1
    print(f"ONNX 1.12 test data under {root}: checked {count_summary(counts)} "
          + summary)


def check_testdata_new(res, root, n_models, n_pbs, ours, ours_data, rng):
    """Newer data (IR <= 13): ours parse->serialize == file bytes, and no
    field is left unknown."""
    chosen, summary = pick_testdata(res, root, n_models, n_pbs, ours, rng)
    counts = {}
    max_ir = 0
    for path, kind in chosen:
        data = read_bytes(path)
        rel = os.path.relpath(path, root)
        msg = our_class(ours, ours_data, kind).FromString(data)
        if kind == "ModelProto":
            max_ir = max(max_ir, msg.ir_version)
        res.check(not has_unknown_fields(msg),
                  f"new {kind} {rel}: no unknown fields")
        res.check(msg.SerializeToString() == data,
                  f"new {kind} {rel}: re-serialized bytes equal file")
        counts[kind] = counts.get(kind, 0) + 1
    print(f"newer test data under {root}: checked {count_summary(counts)} "
          f"{summary}; highest ir_version seen: {max_ir}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("protoc")
    ap.add_argument("proto_dir")
    ap.add_argument("--onnx12-data", default=DEBIAN_TESTDATA,
                    help="ONNX 1.12 backend test data (default: %(default)s)")
    ap.add_argument("--new-data", default=DEFAULT_NEW_TESTDATA,
                    help="newer backend test data, e.g. ONNX 1.22's "
                         "(default: %(default)s)")
    ap.add_argument("--models", type=int, default=200,
                    help="models sampled per data set (-1 = all)")
    ap.add_argument("--pbs", type=int, default=200,
                    help="tensor .pb files sampled per data set (-1 = all); "
                         "non-tensor .pb files are always all checked")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    res = Results(args.verbose)
    with tempfile.TemporaryDirectory(prefix="onnx_wire_compat_") as tmp:
        ours, ours_data = generate_modules(args.protoc, args.proto_dir, tmp,
                                           res)
        if ours is not None:
            rng = random.Random(args.seed)
            phases = [("schema comparison",
                       lambda: compare_schemas(ours, ours_data, res)),
                      ("hand-built round trips",
                       lambda: check_handbuilt(res, ours, ours_data))]
            for root, explicit, fn in (
                    (args.onnx12_data, args.onnx12_data != DEBIAN_TESTDATA,
                     check_testdata_12),
                    (args.new_data, args.new_data != DEFAULT_NEW_TESTDATA,
                     check_testdata_new)):
                if os.path.isdir(root):
                    phases.append((f"test data {root}",
                                   lambda root=root, fn=fn: fn(
                                       res, root, args.models, args.pbs, ours,
                                       ours_data, rng)))
                elif explicit:
                    res.check(False, f"test data directory {root} exists")
                else:
                    print(f"SKIP test data directory {root} (not found)")
            for name, phase in phases:
                try:
                    phase()
                except Exception:  # pylint: disable=broad-except
                    traceback.print_exc()
                    res.check(False, f"{name} ran to completion")
    print(f"{res.passed} passed, {res.failed} failed")
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
