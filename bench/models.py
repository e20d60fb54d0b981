#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The benchmark models, built here with numpy and the onnx helper (no
downloads): random weights from a fixed seed, scaled (He / Xavier) so that
activations stay finite, and one fixed input per graph input.

  /usr/bin/python3 bench/models.py [--cache bench/.models] [NAME ...]

writes, for each model, CACHE/NAME.onnx and CACHE/NAME.<input>.npy (only
when missing or built by an older version of this file) and prints the paths.

| name        | what                                                          |
|-------------|---------------------------------------------------------------|
| matmul      | Y = A x B, 1024x1024 by 1024x1024 f32 (B an initializer)      |
| conv        | 3x3 Conv 64->64 channels, 56x56, pads 1, bias, then Relu      |
| resnet50    | ResNet-50 v1.5: 7x7 stem, bottlenecks [3,4,6,3] (stride on    |
|             | the 3x3), BatchNormalization, Relu, MaxPool, GAP, Gemm 1000   |
| mobilenetv2 | MobileNetV2 1.0 224x224: the paper's channel table, inverted  |
|             | residuals, depthwise Conv (group=C), BatchNormalization,      |
|             | Clip(0, 6), 1280 channels, GAP, Gemm 1000                     |
| mobilenetv2_folded | the same with each BatchNormalization folded into its  |
|             | Conv (a bias), as exporters write inference graphs            |
| transformer | 2-layer post-LN encoder, seq 128, d_model 256, 4 heads, FFN   |
|             | 1024: MatMul/Add, Reshape/Transpose, Softmax,                 |
|             | LayerNormalization, Erf-based GELU                            |
| bert        | the same encoder at BERT-base size: 12 layers, seq 128,       |
|             | d_model 768, 12 heads, FFN 3072 (85M weights)                 |
| transformer_dyn | the transformer with a dynamic batch dim N (run at N=4)   |
| lstm        | an LSTM (hidden 256) then a GRU (hidden 256) over 64 steps of |
|             | 256 features, batch 1                                         |

All are batch 1 (transformer_dyn: N, given 4), opset 17, IR version 8.
make_resnet50 and make_bert take a batch size (BATCHED: the GPU benchmark of
utils/gpu/make_carry.py); a larger batch gets the same weights.
"""
import argparse
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
IR_VERSION = 8
# Bump when a model changes, so that cached files are rebuilt.
VERSION = 3
# The size a dynamic dim (a dim_param) gets in the generated inputs.
DYNAMIC_DIM = 4
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CACHE = os.path.join(HERE, ".models")


class Graph:
    """Collects nodes and initializers; names values uniquely."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.nodes = []
        self.inits = []
        self.count = 0

    def name(self, prefix):
        self.count += 1
        return "%s_%d" % (prefix, self.count)

    def const(self, array, prefix="c"):
        n = self.name(prefix)
        self.inits.append(numpy_helper.from_array(np.asarray(array), n))
        return n

    def normal(self, shape, std, prefix="w"):
        return self.const(
            (self.rng.standard_normal(shape) * std).astype(np.float32), prefix)

    def op(self, op_type, inputs, prefix=None, out=None, **attrs):
        out = out or self.name(prefix or op_type.lower())
        self.nodes.append(helper.make_node(op_type, list(inputs), [out],
                                           name=out, **attrs))
        return out

    def model(self, name, inputs, outputs):
        # A str in a shape is a dim_param (a dynamic dim).
        graph = helper.make_graph(
            self.nodes, name,
            [helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
             for n, s in inputs],
            [helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
             for n, s in outputs],
            self.inits)
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", OPSET)],
            producer_name="onnx-dialect-bench")
        model.ir_version = IR_VERSION
        onnx.checker.check_model(model)
        return model

    # Layers shared by the CNNs.
    def conv(self, x, cin, cout, k, stride=1, group=1, bias=False, gain=1.0):
        fan_in = cin // group * k * k
        w = self.normal((cout, cin // group, k, k),
                        gain * np.sqrt(2.0 / fan_in))
        inputs = [x, w]
        if bias:
            inputs.append(self.normal((cout,), 0.1, "b"))
        return self.op("Conv", inputs, kernel_shape=[k, k],
                       strides=[stride, stride], pads=[k // 2] * 4,
                       group=group)

    def batchnorm(self, x, c, gamma=1.0):
        """Inference-mode BatchNormalization with plausible statistics."""
        rng = self.rng
        scale = self.const((gamma * rng.uniform(0.8, 1.2, c)).astype(
            np.float32), "bn_scale")
        bias = self.const((rng.standard_normal(c) * 0.1).astype(np.float32),
                          "bn_bias")
        mean = self.const((rng.standard_normal(c) * 0.1).astype(np.float32),
                          "bn_mean")
        var = self.const(rng.uniform(0.5, 1.5, c).astype(np.float32),
                         "bn_var")
        return self.op("BatchNormalization", [x, scale, bias, mean, var],
                       "bn", epsilon=1e-5)

    def classifier(self, x, channels, classes=1000, out=None):
        g = self.op("GlobalAveragePool", [x])
        f = self.op("Flatten", [g], axis=1)
        w = self.normal((classes, channels), np.sqrt(1.0 / channels))
        b = self.normal((classes,), 0.01, "b")
        return self.op("Gemm", [f, w, b], out=out, transB=1)


def make_matmul():
    g = Graph(1)
    b = g.normal((1024, 1024), np.sqrt(1.0 / 1024), "B")
    g.nodes.append(helper.make_node("MatMul", ["A", b], ["Y"], name="matmul"))
    return g.model("matmul_1024", [("A", [1024, 1024])],
                   [("Y", [1024, 1024])])


def make_conv():
    g = Graph(2)
    c = g.conv("x", 64, 64, 3, bias=True)
    g.nodes.append(helper.make_node("Relu", [c], ["y"], name="relu"))
    return g.model("conv3x3_64", [("x", [1, 64, 56, 56])],
                   [("y", [1, 64, 56, 56])])


def make_resnet50(batch=1):
    g = Graph(3)

    def conv_bn(x, cin, cout, k, stride, relu=True, gamma=1.0):
        y = g.batchnorm(g.conv(x, cin, cout, k, stride), cout, gamma)
        return g.op("Relu", [y]) if relu else y

    x = conv_bn("data", 3, 64, 7, 2)
    x = g.op("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2],
             pads=[1, 1, 1, 1])
    cin = 64
    for stage, (blocks, width) in enumerate([(3, 64), (4, 128), (6, 256),
                                             (3, 512)]):
        for b in range(blocks):
            # v1.5: the stride of a downsampling block is on its 3x3 conv.
            stride = 2 if b == 0 and stage > 0 else 1
            y = conv_bn(x, cin, width, 1, 1)
            y = conv_bn(y, width, width, 3, stride)
            # A small last gamma keeps the residual stream's variance from
            # doubling at every block (as zero-init-gamma training does).
            y = conv_bn(y, width, width * 4, 1, 1, relu=False, gamma=0.3)
            short = x
            if b == 0:
                short = conv_bn(x, cin, width * 4, 1, stride, relu=False)
            x = g.op("Relu", [g.op("Add", [y, short])])
            cin = width * 4
    g.classifier(x, 2048, out="logits")
    return g.model("resnet50_v1_5", [("data", [batch, 3, 224, 224])],
                   [("logits", [batch, 1000])])


# (expansion t, channels c, repeats n, first stride s), MobileNetV2 table 2.
MOBILENETV2_TABLE = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2),
                     (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                     (6, 320, 1, 1)]


def make_mobilenetv2(folded=False):
    """folded: each BatchNormalization folded into its Conv's weights and
    bias, as exporters write an inference graph (torch.onnx.export in eval
    mode, ONNX optimizers): Conv with a bias, then Clip."""
    g = Graph(4)
    lo = g.const(np.array(0.0, np.float32), "relu6_min")
    hi = g.const(np.array(6.0, np.float32), "relu6_max")

    def conv_bn(x, cin, cout, k, stride=1, group=1, relu6=True, gamma=1.0):
        if folded:
            y = g.conv(x, cin, cout, k, stride, group, bias=True, gain=gamma)
        else:
            y = g.batchnorm(g.conv(x, cin, cout, k, stride, group), cout,
                            gamma)
        return g.op("Clip", [y, lo, hi], "relu6") if relu6 else y

    x = conv_bn("input", 3, 32, 3, 2)
    cin = 32
    for t, c, n, s in MOBILENETV2_TABLE:
        for i in range(n):
            stride = s if i == 0 else 1
            hidden = cin * t
            y = x
            if t != 1:
                y = conv_bn(y, cin, hidden, 1)
            y = conv_bn(y, hidden, hidden, 3, stride, group=hidden)
            residual = stride == 1 and cin == c
            y = conv_bn(y, hidden, c, 1, relu6=False,
                        gamma=0.5 if residual else 1.0)
            x = g.op("Add", [x, y]) if residual else y
            cin = c
    x = conv_bn(x, cin, 1280, 1)
    g.classifier(x, 1280, out="logits")
    return g.model("mobilenetv2_1_0", [("input", [1, 3, 224, 224])],
                   [("logits", [1, 1000])])


def make_transformer(layers=2, seq=128, d=256, heads=4, ffn=1024, seed=5,
                     batch=1, name="transformer_encoder"):
    """batch None: a dynamic batch dim "N" (the reshapes copy it with 0)."""
    g = Graph(seed)
    dh = d // heads

    def linear(x, cin, cout):
        w = g.normal((cin, cout), np.sqrt(1.0 / cin))
        b = g.normal((cout,), 0.02, "b")
        return g.op("Add", [g.op("MatMul", [x, w]), b])

    def layer_norm(x, out=None):
        scale = g.const((1 + 0.1 * g.rng.standard_normal(d)).astype(
            np.float32), "ln_scale")
        bias = g.normal((d,), 0.1, "ln_bias")
        return g.op("LayerNormalization", [x, scale, bias], "ln", out=out,
                    axis=-1, epsilon=1e-5)

    b = 0 if batch is None else batch  # Reshape: 0 copies the input's dim
    split_shape = g.const(np.array([b, seq, heads, dh], np.int64), "shape")
    merge_shape = g.const(np.array([b, seq, d], np.int64), "shape")
    inv_sqrt_dh = g.const(np.array(1.0 / np.sqrt(dh), np.float32), "scale")
    inv_sqrt2 = g.const(np.array(1.0 / np.sqrt(2.0), np.float32), "c")
    half = g.const(np.array(0.5, np.float32), "c")
    one = g.const(np.array(1.0, np.float32), "c")

    def heads_of(x, perm):  # [1, seq, d] -> [1, heads, ...]
        return g.op("Transpose", [g.op("Reshape", [x, split_shape])],
                    perm=perm)

    x = "x"
    for i in range(layers):
        q = heads_of(linear(x, d, d), [0, 2, 1, 3])       # [1, h, seq, dh]
        k = heads_of(linear(x, d, d), [0, 2, 3, 1])       # [1, h, dh, seq]
        v = heads_of(linear(x, d, d), [0, 2, 1, 3])       # [1, h, seq, dh]
        scores = g.op("Mul", [g.op("MatMul", [q, k]), inv_sqrt_dh])
        attn = g.op("Softmax", [scores], axis=-1)
        ctx = g.op("Transpose", [g.op("MatMul", [attn, v])], perm=[0, 2, 1, 3])
        ctx = g.op("Reshape", [ctx, merge_shape])
        x = layer_norm(g.op("Add", [x, linear(ctx, d, d)]))
        h = linear(x, d, ffn)
        # GELU(h) = 0.5 h (1 + erf(h / sqrt 2))
        erf = g.op("Erf", [g.op("Mul", [h, inv_sqrt2])])
        h = g.op("Mul", [g.op("Mul", [h, half]), g.op("Add", [erf, one])])
        x = layer_norm(g.op("Add", [x, linear(h, ffn, d)]),
                       "y" if i == layers - 1 else None)
    n = "N" if batch is None else batch
    return g.model(name, [("x", [n, seq, d])], [("y", [n, seq, d])])


def make_bert(batch=1):
    return make_transformer(layers=12, seq=128, d=768, heads=12, ffn=3072,
                            seed=6, batch=batch, name="bert_base_encoder")


def make_transformer_dyn():
    return make_transformer(batch=None, name="transformer_encoder_dyn")


def make_lstm(seq=64, features=256, hidden=256):
    g = Graph(7)

    def weights(gates, cin):
        std = np.sqrt(1.0 / hidden)
        w = g.normal((1, gates * hidden, cin), std)
        r = g.normal((1, gates * hidden, hidden), std)
        b = g.normal((1, 2 * gates * hidden), 0.1, "b")
        return w, r, b

    w, r, b = weights(4, features)
    y = g.op("LSTM", ["x", w, r, b], hidden_size=hidden)    # [seq, 1, 1, h]
    axes = g.const(np.array([1], np.int64), "axes")
    y = g.op("Squeeze", [y, axes])                          # [seq, 1, h]
    w, r, b = weights(3, hidden)
    g.op("GRU", [y, w, r, b], out="y", hidden_size=hidden,
         linear_before_reset=1)                              # [seq, 1, 1, h]
    return g.model("lstm_gru", [("x", [seq, 1, features])],
                   [("y", [seq, 1, 1, hidden])])


MODELS = {
    "matmul": make_matmul,
    "conv": make_conv,
    "resnet50": make_resnet50,
    "mobilenetv2": make_mobilenetv2,
    "mobilenetv2_folded": lambda: make_mobilenetv2(folded=True),
    "transformer": make_transformer,
    "bert": make_bert,
    "transformer_dyn": make_transformer_dyn,
    "lstm": make_lstm,
}


def make_matmul_int8(m=128, k=768, n=768):
    """A MatMul as ONNX Runtime's dynamic quantization writes it (its
    `quantize_dynamic`): the float input quantized at run time to uint8
    (DynamicQuantizeLinear), MatMulInteger with int8 weights, the int32
    product scaled back to float."""
    g = Graph(10)
    w = "W"
    g.inits.append(numpy_helper.from_array(
        g.rng.integers(-127, 128, (k, n)).astype(np.int8), w))
    g.inits.append(numpy_helper.from_array(np.array(0, np.int8), "w_zero"))
    g.inits.append(numpy_helper.from_array(np.array(0.01, np.float32),
                                           "w_scale"))
    g.nodes += [
        helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"],
                         name="quantize"),
        helper.make_node("MatMulInteger", ["xq", w, "xz", "w_zero"], ["p"],
                         name="matmul_integer"),
        helper.make_node("Cast", ["p"], ["pf"], to=TensorProto.FLOAT,
                         name="cast"),
        helper.make_node("Mul", ["xs", "w_scale"], ["s"], name="scales"),
        helper.make_node("Mul", ["pf", "s"], ["y"], name="dequantize")]
    return g.model("matmul_int8", [("x", [m, k])], [("y", [m, n])])


def make_conv_int8(c=64, f=64, size=56):
    """A 3x3 convolution as a statically quantized model's operator form
    writes it: QuantizeLinear, QLinearConv with int8 weights, then
    DequantizeLinear."""
    g = Graph(11)
    values = {"x_scale": np.array(0.02, np.float32),
              "x_zero": np.array(128, np.uint8),
              "W": g.rng.integers(-127, 128, (f, c, 3, 3)).astype(np.int8),
              "w_scale": np.array(0.01, np.float32),
              "w_zero": np.array(0, np.int8),
              "y_scale": np.array(0.5, np.float32),
              "y_zero": np.array(128, np.uint8)}
    g.inits += [numpy_helper.from_array(v, k) for k, v in values.items()]
    g.nodes += [
        helper.make_node("QuantizeLinear", ["x", "x_scale", "x_zero"], ["xq"],
                         name="quantize"),
        helper.make_node("QLinearConv", ["xq", "x_scale", "x_zero", "W",
                                         "w_scale", "w_zero", "y_scale",
                                         "y_zero"], ["yq"], pads=[1] * 4,
                         name="qlinear_conv"),
        helper.make_node("DequantizeLinear", ["yq", "y_scale", "y_zero"], ["y"],
                         name="dequantize")]
    return g.model("conv_int8", [("x", [1, c, size, size])],
                   [("y", [1, f, size, size])])


# Models measured only when asked for (`bench/run.py --models matmul_int8`):
# 8-bit products, outside the set of models (bench/README.md).
OPT_IN = {
    "matmul_int8": make_matmul_int8,
    "conv_int8": make_conv_int8,
}


# The models that take a batch size: NAME(batch=B) (utils/gpu/make_carry.py).
BATCHED = {"resnet50": make_resnet50, "bert": make_bert}


def flops(path):
    """The floating-point operations of one run of the model at PATH: 2 per
    multiply-add of its MatMul, Gemm, Conv and LSTM/GRU/RNN nodes (the work
    that dominates; elementwise ops are not counted), from ONNX's shape
    inference, dynamic dims at DYNAMIC_DIM."""
    model = onnx.shape_inference.infer_shapes(onnx.load(path))
    shapes = {}
    for v in list(model.graph.value_info) + list(model.graph.input) + list(
            model.graph.output):
        dims = [d.dim_value if d.HasField("dim_value") else DYNAMIC_DIM
                for d in v.type.tensor_type.shape.dim]
        if dims and all(d > 0 for d in dims):
            shapes[v.name] = dims
    for t in model.graph.initializer:
        shapes[t.name] = list(t.dims)
    total = 0
    for node in model.graph.node:
        ins = [shapes.get(i) for i in node.input]
        out = shapes.get(node.output[0])
        if out is None or any(i is None for i in ins[:2]):
            continue
        if node.op_type in ("MatMul", "MatMulInteger"):
            k = ins[0][-1]
            total += 2 * int(np.prod(out)) * k
        elif node.op_type == "Gemm":
            trans_a = next((a.i for a in node.attribute if a.name == "transA"), 0)
            k = ins[0][0] if trans_a else ins[0][-1]
            total += 2 * int(np.prod(out)) * k
        elif node.op_type in ("Conv", "ConvInteger", "QLinearConv"):
            w = shapes.get(node.input[3 if node.op_type == "QLinearConv" else 1])
            total += 2 * int(np.prod(out)) * int(np.prod(w[1:]))
        elif node.op_type in ("LSTM", "GRU", "RNN"):
            # Per step and direction: the gates' products with X and H.
            x, w, r = ins[0], ins[1], ins[2]
            total += 2 * x[0] * x[1] * w[0] * w[1] * (w[2] + r[2])
    return total


def ensure(name, cache=DEFAULT_CACHE):
    """Builds NAME into CACHE unless it is there already; returns the model
    path and {input name: .npy path}."""
    builders = {**MODELS, **OPT_IN}
    if name not in builders:
        raise KeyError("unknown model '%s' (known: %s)" %
                       (name, ", ".join(builders)))
    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, name + ".onnx")
    stamp = os.path.join(cache, name + ".json")
    try:
        with open(stamp) as f:
            info = json.load(f)
        inputs = {k: os.path.join(cache, v) for k, v in info["inputs"].items()}
        if (info["version"] == VERSION and os.path.exists(path) and
                all(os.path.exists(p) for p in inputs.values())):
            return path, inputs
    except (OSError, ValueError, KeyError):
        pass
    model = builders[name]()
    rng = np.random.default_rng(100)
    inputs = {}
    for value in model.graph.input:
        shape = [d.dim_value if d.HasField("dim_value") else DYNAMIC_DIM
                 for d in value.type.tensor_type.shape.dim]
        npy = os.path.join(cache, "%s.%s.npy" % (name, value.name))
        np.save(npy, rng.standard_normal(shape).astype(np.float32))
        inputs[value.name] = npy
    tmp = path + ".tmp"
    onnx.save(model, tmp)
    os.replace(tmp, path)
    with open(stamp, "w") as f:
        json.dump({"version": VERSION,
                   "inputs": {k: os.path.basename(v)
                              for k, v in inputs.items()}}, f)
    return path, inputs


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("names", nargs="*", default=list(MODELS),
                   help="models to build (default: all)")
    p.add_argument("--cache", default=DEFAULT_CACHE)
    args = p.parse_args()
    for name in args.names:
        try:
            path, inputs = ensure(name, args.cache)
        except KeyError as e:
            sys.exit(str(e))
        print(path, " ".join("%s=%s" % kv for kv in inputs.items()))


if __name__ == "__main__":
    main()
