#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes models/tiny-cnn.onnx, the bundled example model: a small MNIST-shaped
CNN (Conv, Relu, MaxPool, Reshape, Gemm, Softmax) with fixed pseudo-random
weights; models/tiny-cnn-input.npy, a batch of two 28x28 images (a stroke and
a ring); and models/tiny-cnn-expected.npy, the model's output on them computed
here with numpy. Needs Debian's python3-onnx and python3-numpy (run with
/usr/bin/python3)."""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(20261121)
w1 = numpy_helper.from_array((rng.standard_normal((8, 1, 3, 3)) * 0.3).astype(np.float32), "conv1.weight")
b1 = numpy_helper.from_array(np.zeros(8, np.float32), "conv1.bias")
w2 = numpy_helper.from_array((rng.standard_normal((10, 8 * 13 * 13)) * 0.05).astype(np.float32), "fc.weight")
b2 = numpy_helper.from_array(np.zeros(10, np.float32), "fc.bias")
shape = numpy_helper.from_array(np.array([-1, 8 * 13 * 13], np.int64), "flatten.shape")

nodes = [
    helper.make_node("Conv", ["image", "conv1.weight", "conv1.bias"], ["conv1"], name="conv1",
                     kernel_shape=[3, 3]),
    helper.make_node("Relu", ["conv1"], ["relu1"], name="relu1"),
    helper.make_node("MaxPool", ["relu1"], ["pool1"], name="pool1", kernel_shape=[2, 2],
                     strides=[2, 2]),
    helper.make_node("Reshape", ["pool1", "flatten.shape"], ["flat"], name="flatten"),
    helper.make_node("Gemm", ["flat", "fc.weight", "fc.bias"], ["logits"], name="fc", transB=1),
    helper.make_node("Softmax", ["logits"], ["probabilities"], name="softmax", axis=1),
]
graph = helper.make_graph(
    nodes, "tiny_cnn",
    [helper.make_tensor_value_info("image", TensorProto.FLOAT, ["batch", 1, 28, 28])],
    [helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["batch", 10])],
    initializer=[w1, b1, w2, b2, shape])
model = helper.make_model(graph, producer_name="OnnxDialect examples", producer_version="1",
                          opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
model.doc_string = "A small MNIST-shaped CNN with fixed pseudo-random weights."
onnx.checker.check_model(model)
models = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models")
onnx.save(model, os.path.join(models, "tiny-cnn.onnx"))

# Two images: a slanted stroke and a ring.
yy, xx = np.mgrid[0:28, 0:28]
stroke = (np.abs((xx - 14) - (yy - 14) * 0.3) < 2).astype(np.float32)
ring = (np.abs(np.hypot(xx - 14, yy - 14) - 8) < 2).astype(np.float32)
images = np.stack([stroke, ring])[:, None, :, :]
np.save(os.path.join(models, "tiny-cnn-input.npy"), images)


def reference(x):
    """The model in numpy: valid 3x3 conv, Relu, 2x2/2 max pool, Gemm, Softmax."""
    w, b = numpy_helper.to_array(w1), numpy_helper.to_array(b1)
    n = x.shape[0]
    conv = np.zeros((n, 8, 26, 26), np.float64)
    for i in range(3):
        for j in range(3):
            conv += np.einsum("nchw,oc->nohw", x[:, :, i:i + 26, j:j + 26], w[:, :, i, j])
    conv += b[None, :, None, None]
    relu = np.maximum(conv, 0)
    pool = relu.reshape(n, 8, 13, 2, 13, 2).max(axis=(3, 5))
    logits = pool.reshape(n, -1) @ numpy_helper.to_array(w2).T + numpy_helper.to_array(b2)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


np.save(os.path.join(models, "tiny-cnn-expected.npy"), reference(images))
print("wrote", models)
