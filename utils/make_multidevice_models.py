#!/usr/bin/python3
# Part of the OnnxDialect project, under the Apache License v2.0 with LLVM
# Exceptions. See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the multi-device test models (ONNX IR 11) and their test data.

    make_multidevice_models.py OUT_DIR [--scale small|large] [--translate BIN]

For each model, OUT_DIR/<model>/ gets model.textproto (protobuf text format,
weights as external data in weights.bin), model.onnx (the same model written
by the project's exporter, `onnx-translate --export`, when --translate names
it) and test_data_set_0 (inputs and the outputs numpy computes). Every model
carries configurations for 1, 2 and 4 devices:

- mlp: Megatron-style MLP. MatMul W1 column-parallel (axis 1), Relu,
  MatMul W2 row-parallel (axis 0): one all-reduce. Configs tp1/tp2/tp4.
- attention: a transformer encoder layer whose attention is sharded by head:
  the per-head projections Wq/Wk/Wv [h, D, dh] and Wo [h, dh, D] split on
  the head axis, the heads summed (ReduceSum) into the residual, then
  LayerNormalization. Configs tp1/tp2/tp4.
- cnn: data parallel. The input batch split over the devices (axis 0), two
  convolutions, global pooling and a Gemm on every shard. Configs dp1/dp2/dp4.
- pipeline: four MatMul+Relu layers as pipeline stages: layer i on stage
  i * N / 4 of configuration ppN. Configs pp1/pp2/pp4.
- colgather: one column-parallel MatMul (W sharded on axis 1) whose
  replicated output gathers the shards along axis 1 (a gather on an inner
  axis: transposed around the MPI_Allgather). Configs tp1/tp2/tp4.
- mlp2d: the MLP on 4 devices as a 2x2 grid: data parallel over grid rows
  and tensor parallel over grid columns through device groups, the hidden
  activation split on two axes (config dt4); and the weights split over
  the devices in the order 0, 2, 1, 3 (config perm4).

ONNX 1.12's Python package has no IR 11 fields, so the models are written
as text here and read by the project's importer.
"""

import argparse
import os
import subprocess
import sys

import numpy as np

DEVICES = (1, 2, 4)


def dims_text(shape):
    return " ".join("dim { dim_value: %d }" % d for d in shape)


def value_info(name, shape):
    return ('{ name: "%s" type { tensor_type { elem_type: 1 shape { %s } } } }'
            % (name, dims_text(shape)))


def tensor_proto_file(path, name, array):
    """A TensorProto file of the test data (ONNX 1.12 writes TensorProto
    as the spec has it; only the model needs IR 11 fields)."""
    from onnx import numpy_helper
    tensor = numpy_helper.from_array(
        np.ascontiguousarray(array, dtype=np.float32), name)
    with open(path, "wb") as f:
        f.write(tensor.SerializeToString())


class Model:
    def __init__(self, name):
        self.name = name
        self.nodes = []
        self.inits = []  # (name, array)
        self.inputs = []
        self.outputs = []
        self.configs = []

    def node(self, op, inputs, outputs, name, attrs="", configs=()):
        text = 'node { name: "%s" op_type: "%s" ' % (name, op)
        text += " ".join('input: "%s"' % i for i in inputs) + " "
        text += " ".join('output: "%s"' % o for o in outputs) + " "
        text += attrs + " "
        for c in configs:
            text += "device_configurations { %s } " % c
        self.nodes.append(text + "}")

    def write(self, out_dir):
        os.makedirs(out_dir, exist_ok=True)
        offset = 0
        init_text = []
        with open(os.path.join(out_dir, "weights.bin"), "wb") as f:
            for name, array in self.inits:
                raw = np.ascontiguousarray(array, np.float32).tobytes()
                f.write(raw)
                init_text.append(
                    'initializer { name: "%s" data_type: 1 %s '
                    'data_location: EXTERNAL '
                    'external_data { key: "location" value: "weights.bin" } '
                    'external_data { key: "offset" value: "%d" } '
                    'external_data { key: "length" value: "%d" } }'
                    % (name, " ".join("dims: %d" % d for d in array.shape),
                       offset, len(raw)))
                offset += len(raw)
        text = "ir_version: 11\nopset_import { version: 21 }\n"
        for c in self.configs:
            text += "configuration { %s }\n" % c
        text += 'graph {\n  name: "%s"\n' % self.name
        for n in self.nodes:
            text += "  " + n + "\n"
        for i in init_text:
            text += "  " + i + "\n"
        for name, shape in self.inputs:
            text += "  input " + value_info(name, shape) + "\n"
        for name, shape in self.outputs:
            text += "  output " + value_info(name, shape) + "\n"
        text += "}\n"
        with open(os.path.join(out_dir, "model.textproto"), "w") as f:
            f.write(text)


def config(prefix, n):
    devices = " ".join('device: "cpu%d"' % i for i in range(n))
    return 'name: "%s%d" num_devices: %d %s' % (prefix, n, n, devices)


def split(prefix, n, tensor, axis, size):
    devices = " ".join("device: %d" % i for i in range(n))
    return ('configuration_id: "%s%d" sharding_spec { tensor_name: "%s" %s '
            'sharded_dim { axis: %d simple_sharding { dim_value: %d '
            'num_shards: %d } } }' % (prefix, n, tensor, devices, axis, size, n))


def spec(tensor, devices, dims, groups=None):
    """A sharding spec: `dims` is a list of (axis, dim_value, num_shards),
    `devices` the device entries (ids, or keys of `groups`)."""
    text = 'tensor_name: "%s" ' % tensor
    text += " ".join("device: %d" % d for d in devices) + " "
    for key, members in (groups or {}).items():
        text += ("index_to_device_group_map { key: %d %s } "
                 % (key, " ".join("value: %d" % v for v in members)))
    for axis, size, shards in dims:
        text += ("sharded_dim { axis: %d simple_sharding { dim_value: %d "
                 "num_shards: %d } } " % (axis, size, shards))
    return "sharding_spec { %s}" % text


def specs(config_id, *texts):
    """One node's configuration `config_id` with the sharding specs
    `texts`."""
    return 'configuration_id: "%s" %s' % (config_id, " ".join(texts))


def stage(prefix, n, s):
    return 'configuration_id: "%s%d" pipeline_stage: %d' % (prefix, n, s)


def relu(x):
    return np.maximum(x, 0)


def make_mlp(rng, d, h, batch):
    m = Model("mlp")
    w1 = rng.standard_normal((d, h), dtype=np.float32) / np.sqrt(d)
    w2 = rng.standard_normal((h, d), dtype=np.float32) / np.sqrt(h)
    m.inits = [("W1", w1), ("W2", w2)]
    m.inputs = [("X", (batch, d))]
    m.outputs = [("Y", (batch, d))]
    m.configs = [config("tp", n) for n in DEVICES]
    m.node("MatMul", ["X", "W1"], ["H"], "fc1",
           configs=[split("tp", n, "W1", 1, h) for n in DEVICES])
    m.node("Relu", ["H"], ["A"], "act")
    m.node("MatMul", ["A", "W2"], ["Y"], "fc2",
           configs=[split("tp", n, "W2", 0, h) for n in DEVICES])
    x = rng.standard_normal((batch, d), dtype=np.float32)
    return m, {"X": x}, {"Y": relu(x @ w1) @ w2}


def make_colgather(rng, d, h, batch):
    m = Model("colgather")
    w = rng.standard_normal((d, h), dtype=np.float32) / np.sqrt(d)
    m.inits = [("W", w)]
    m.inputs = [("X", (batch, d))]
    m.outputs = [("Y", (batch, h))]
    m.configs = [config("tp", n) for n in DEVICES]
    m.node("MatMul", ["X", "W"], ["H"], "fc",
           configs=[split("tp", n, "W", 1, h) for n in DEVICES])
    m.node("Relu", ["H"], ["Y"], "act")
    x = rng.standard_normal((batch, d), dtype=np.float32)
    return m, {"X": x}, {"Y": relu(x @ w)}


def make_mlp_2d(rng, d, h, batch):
    """The MLP on 4 devices seen as a 2x2 grid (config dt4): the batch split
    over grid rows (device groups {0,1} and {2,3}), the weights Megatron-style
    over grid columns (groups {0,2} and {1,3}), the hidden activation split
    on both axes. And (config perm4) W1 split by columns over the devices in
    the order 0, 2, 1, 3, which only a 2x2 view of the devices lays out."""
    m = Model("mlp2d")
    w1 = rng.standard_normal((d, h), dtype=np.float32) / np.sqrt(d)
    w2 = rng.standard_normal((h, d), dtype=np.float32) / np.sqrt(h)
    m.inits = [("W1", w1), ("W2", w2)]
    m.inputs = [("X", (batch, d))]
    m.outputs = [("Y", (batch, d))]
    m.configs = [config("dt", 4), config("perm", 4)]
    rows = {-1: [0, 1], -2: [2, 3]}
    cols = {-1: [0, 2], -2: [1, 3]}
    m.node("MatMul", ["X", "W1"], ["H"], "fc1", configs=[
        specs("dt4", spec("X", [-1, -2], [(0, batch, 2)], rows),
              spec("W1", [-1, -2], [(1, h, 2)], cols),
              spec("H", [0, 1, 2, 3], [(0, batch, 2), (1, h, 2)])),
        specs("perm4", spec("W1", [0, 2, 1, 3], [(1, h, 4)]))])
    m.node("Relu", ["H"], ["A"], "act")
    m.node("MatMul", ["A", "W2"], ["Y"], "fc2", configs=[
        specs("dt4", spec("W2", [-1, -2], [(0, h, 2)], cols),
              spec("Y", [-1, -2], [(0, batch, 2)], rows)),
        specs("perm4", spec("W2", [0, 2, 1, 3], [(0, h, 4)]))])
    x = rng.standard_normal((batch, d), dtype=np.float32)
    return m, {"X": x}, {"Y": relu(x @ w1) @ w2}


def make_attention(rng, seq, d, heads):
    m = Model("attention")
    dh = d // heads
    wq, wk, wv = (rng.standard_normal((heads, d, dh), dtype=np.float32) /
                  np.sqrt(d) for _ in range(3))
    wo = rng.standard_normal((heads, dh, d), dtype=np.float32) / np.sqrt(d)
    gamma = np.ones(d, np.float32)
    beta = np.zeros(d, np.float32)
    scale = np.array(1 / np.sqrt(dh), np.float32)
    m.inits = [("Wq", wq), ("Wk", wk), ("Wv", wv), ("Wo", wo),
               ("gamma", gamma), ("beta", beta), ("scale", scale)]
    m.inputs = [("X", (seq, d))]
    m.outputs = [("Y", (seq, d))]
    m.configs = [config("tp", n) for n in DEVICES]
    heads_split = lambda t: [split("tp", n, t, 0, heads) for n in DEVICES]
    m.node("MatMul", ["X", "Wq"], ["Q"], "q_proj", configs=heads_split("Wq"))
    m.node("MatMul", ["X", "Wk"], ["K"], "k_proj", configs=heads_split("Wk"))
    m.node("MatMul", ["X", "Wv"], ["V"], "v_proj", configs=heads_split("Wv"))
    m.node("Transpose", ["K"], ["Kt"], "k_t",
           attrs='attribute { name: "perm" type: INTS ints: 0 ints: 2 '
           'ints: 1 }')
    m.node("MatMul", ["Q", "Kt"], ["S"], "scores")
    m.node("Mul", ["S", "scale"], ["Ss"], "scale")
    m.node("Softmax", ["Ss"], ["P"], "softmax",
           attrs='attribute { name: "axis" type: INT i: -1 }')
    m.node("MatMul", ["P", "V"], ["O"], "context")
    m.node("MatMul", ["O", "Wo"], ["Oh"], "o_proj", configs=heads_split("Wo"))
    m.node("ReduceSum", ["Oh", "axes0"], ["Att"], "sum_heads",
           attrs='attribute { name: "keepdims" type: INT i: 0 }')
    m.inits.append(("axes0", None))
    m.node("Add", ["X", "Att"], ["R"], "residual")
    m.node("LayerNormalization", ["R", "gamma", "beta"], ["Y"], "norm",
           attrs='attribute { name: "axis" type: INT i: -1 }')
    x = rng.standard_normal((seq, d), dtype=np.float32)
    q, k, v = (np.einsum("sd,hde->hse", x, w) for w in (wq, wk, wv))
    s = q @ k.transpose(0, 2, 1) * scale
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    att = (np.einsum("hse,hed->hsd", p @ v, wo)).sum(0)
    r = x + att
    mu = r.mean(-1, keepdims=True)
    var = ((r - mu) ** 2).mean(-1, keepdims=True)
    y = (r - mu) / np.sqrt(var + 1e-5) * gamma + beta
    return m, {"X": x}, {"Y": y.astype(np.float32)}


def conv2d(x, w, b):
    n, c, hh, ww = x.shape
    f, _, kh, kw = w.shape
    out = np.zeros((n, f, hh - kh + 1, ww - kw + 1), np.float32)
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i:i + out.shape[2], j:j + out.shape[3]]
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    return out + b[None, :, None, None]


def make_cnn(rng, batch, size):
    m = Model("cnn")
    w1 = rng.standard_normal((16, 3, 3, 3), dtype=np.float32) * 0.2
    b1 = rng.standard_normal(16, dtype=np.float32) * 0.1
    w2 = rng.standard_normal((32, 16, 3, 3), dtype=np.float32) * 0.1
    b2 = rng.standard_normal(32, dtype=np.float32) * 0.1
    wf = rng.standard_normal((32, 10), dtype=np.float32) * 0.2
    bf = rng.standard_normal(10, dtype=np.float32) * 0.1
    m.inits = [("W1", w1), ("B1", b1), ("W2", w2), ("B2", b2), ("Wf", wf),
               ("Bf", bf)]
    m.inputs = [("X", (batch, 3, size, size))]
    m.outputs = [("Y", (batch, 10))]
    m.configs = [config("dp", n) for n in DEVICES]
    m.node("Conv", ["X", "W1", "B1"], ["C1"], "conv1",
           configs=[split("dp", n, "X", 0, batch) for n in DEVICES])
    m.node("Relu", ["C1"], ["A1"], "relu1")
    m.node("Conv", ["A1", "W2", "B2"], ["C2"], "conv2")
    m.node("Relu", ["C2"], ["A2"], "relu2")
    m.node("ReduceMean", ["A2", "axes23"], ["G"], "pool",
           attrs='attribute { name: "keepdims" type: INT i: 0 }')
    m.inits.append(("axes23", None))
    m.node("Gemm", ["G", "Wf", "Bf"], ["Y"], "fc")
    x = rng.standard_normal((batch, 3, size, size), dtype=np.float32)
    a1 = relu(conv2d(x, w1, b1))
    a2 = relu(conv2d(a1, w2, b2))
    y = a2.mean(axis=(2, 3)) @ wf + bf
    return m, {"X": x}, {"Y": y}


def make_pipeline(rng, d, batch):
    m = Model("pipeline")
    ws = [rng.standard_normal((d, d), dtype=np.float32) / np.sqrt(d)
          for _ in range(4)]
    m.inits = [("W%d" % i, w) for i, w in enumerate(ws)]
    m.inputs = [("X", (batch, d))]
    m.outputs = [("Y", (batch, d))]
    m.configs = [config("pp", n) for n in DEVICES]
    x = rng.standard_normal((batch, d), dtype=np.float32)
    prev, y = "X", x
    for i in range(4):
        out = "Y" if i == 3 else "A%d" % i
        configs = [stage("pp", n, i * n // 4) for n in DEVICES]
        m.node("MatMul", [prev, "W%d" % i], ["H%d" % i], "fc%d" % i,
               configs=configs)
        m.node("Relu", ["H%d" % i], [out], "relu%d" % i, configs=configs)
        prev = out
        y = relu(y @ ws[i])
    return m, {"X": x}, {"Y": y}


def fix_int_inits(m):
    """The axes initializers (int64) are written inline."""
    keep, extra = [], []
    for name, array in m.inits:
        if array is None:
            axes = {"axes0": [0], "axes23": [2, 3]}[name]
            extra.append('initializer { name: "%s" data_type: 7 dims: %d %s }'
                         % (name, len(axes),
                            " ".join("int64_data: %d" % a for a in axes)))
        else:
            keep.append((name, array))
    m.inits = keep
    m.nodes = extra + m.nodes  # initializers may go anywhere in the graph


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("--scale", choices=("small", "large"), default="small")
    parser.add_argument("--translate", help="onnx-translate, to write "
                        "model.onnx with the project's exporter")
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    large = args.scale == "large"
    models = [
        make_mlp(rng, 1024 if large else 256, 4096 if large else 1024, 8),
        make_attention(rng, 64 if large else 16, 512 if large else 64, 8),
        make_cnn(rng, 8, 32 if large else 12),
        make_pipeline(rng, 1024 if large else 128, 64 if large else 8),
        make_colgather(rng, 64, 32, 6),
        make_mlp_2d(rng, 1024 if large else 64, 4096 if large else 128, 8),
    ]
    for m, inputs, outputs in models:
        fix_int_inits(m)
        d = os.path.join(args.out_dir, m.name)
        m.write(d)
        data = os.path.join(d, "test_data_set_0")
        os.makedirs(data, exist_ok=True)
        for i, (name, value) in enumerate(inputs.items()):
            tensor_proto_file(os.path.join(data, "input_%d.pb" % i), name,
                              value)
        for i, (name, value) in enumerate(outputs.items()):
            tensor_proto_file(os.path.join(data, "output_%d.pb" % i), name,
                              value)
        if args.translate:
            mlir = subprocess.run(
                [args.translate, "--import",
                 os.path.join(d, "model.textproto")],
                check=True, stdout=subprocess.PIPE).stdout
            subprocess.run([args.translate, "--export", "-o",
                            os.path.join(d, "model.onnx")], input=mlir,
                           check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
