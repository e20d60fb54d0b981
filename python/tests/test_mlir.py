# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The MLIR level from Python: import_model, run_passes, export_model
(through the dialect's MLIR C API)."""

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

import onnx_dialect
from conftest import EXAMPLE


def test_import_forms():
    text = onnx_dialect.import_model(EXAMPLE)
    assert isinstance(text, str) and "onnx.Conv" in text and "func.func" in text
    model = onnx.load(EXAMPLE)
    assert onnx_dialect.import_model(model) == onnx_dialect.import_model(
        model.SerializeToString())
    code = onnx_dialect.import_model(EXAMPLE, bytecode=True)
    assert isinstance(code, bytes) and code.startswith(b"ML\xefR")


def test_run_passes():
    text = onnx_dialect.import_model(EXAMPLE)
    linalg = onnx_dialect.run_passes(
        text, "onnx-convert-opset,onnx-infer-shapes,onnx-decompose,"
        "convert-onnx-to-linalg")
    assert "linalg." in linalg and "onnx.Conv" not in linalg
    assert "llvm.func" in onnx_dialect.run_passes(text, "onnx-lower-to-llvm")
    # A pipeline that fails: the error names the node and the fix.
    with pytest.raises(onnx_dialect.CompileError, match="Conv_v11 'conv1': result #0 has an unknown rank"):
        onnx_dialect.run_passes(text, "convert-onnx-to-linalg")
    # Anchored pipelines and bytecode in and out.
    code = onnx_dialect.import_model(EXAMPLE, bytecode=True)
    again = onnx_dialect.run_passes(code, "builtin.module(canonicalize)", bytecode=True)
    assert isinstance(again, bytes)
    assert "onnx.Conv" in onnx_dialect.run_passes(again, "canonicalize")


def test_export_round_trip():
    original = onnx.load(EXAMPLE)
    exported = onnx.load_from_string(
        onnx_dialect.export_model(onnx_dialect.import_model(EXAMPLE)))
    onnx.checker.check_model(exported)
    assert [n.op_type for n in exported.graph.node] == \
        [n.op_type for n in original.graph.node]
    for a, b in zip(original.graph.initializer, exported.graph.initializer):
        np.testing.assert_array_equal(numpy_helper.to_array(a), numpy_helper.to_array(b))
    text = onnx_dialect.export_model(onnx_dialect.import_model(EXAMPLE), text=True)
    assert b"graph {" in text


def test_errors():
    with pytest.raises(onnx_dialect.CompileError, match="not a valid ONNX model|cannot import"):
        onnx_dialect.import_model(b"\x08\x07garbage")
    with pytest.raises(onnx_dialect.CompileError, match="missing.onnx"):
        onnx_dialect.import_model("/nonexistent/missing.onnx")
    with pytest.raises(onnx_dialect.InvalidArgument, match="no-such-pass"):
        onnx_dialect.run_passes(onnx_dialect.import_model(EXAMPLE), "no-such-pass")
    with pytest.raises(onnx_dialect.CompileError, match="cannot parse"):
        onnx_dialect.run_passes("func.func @f(", "canonicalize")
    with pytest.raises(onnx_dialect.CompileError, match="export"):
        onnx_dialect.export_model("module {}")
