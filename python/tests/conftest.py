# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Shared fixtures: small models built with onnx.helper."""

import os
import shutil

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "models", "tiny-cnn.onnx")


def make_model(nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def identity_model(elem_type, shape=("N", 3)):
    """y = Identity(x) for an element type."""
    return make_model(
        [helper.make_node("Identity", ["x"], ["y"])],
        [helper.make_tensor_value_info("x", elem_type, list(shape))],
        [helper.make_tensor_value_info("y", elem_type, list(shape))])


@pytest.fixture(scope="session")
def add_model():
    """z = x + y, float32 [N, 4] with a named dynamic dim."""
    return make_model(
        [helper.make_node("Add", ["x", "y"], ["z"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, ["N", 4])])


@pytest.fixture(scope="session")
def onnx_run():
    """The onnx-run tool of the same build."""
    here = os.path.dirname(os.path.abspath(__file__))
    build = os.environ.get("ONNX_DIALECT_BUILD", os.path.join(ROOT, "build"))
    tool = os.path.join(build, "bin", "onnx-run")
    if not os.path.exists(tool):
        tool = shutil.which("onnx-run")
    assert tool, "onnx-run not found (set ONNX_DIALECT_BUILD)"
    return tool
