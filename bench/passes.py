#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Pass speed: onnx-validate, onnx-convert-opset, onnx-decompose and
onnx-infer-shapes together, on the largest light model of the ONNX 1.22
suite (densenet121) and on a ResNet-50 built here with numpy and the onnx
helper (the real architecture and weight sizes, random weights, opset 13 so
that conversion has work to do). The model is imported once to MLIR bytecode;
the timed run is `onnx-opt` over that file with `--mlir-timing`, and the
figure reported is the passes' own time (parsing and printing excluded), the
median of --runs runs.

  /usr/bin/python3 bench/passes.py [--build build] [--runs 5]

Target (issue 4): well under a second for each model."""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

PASSES = ["onnx-validate", "onnx-convert-opset", "onnx-decompose",
          "onnx-infer-shapes"]


def make_resnet50(path, opset=13):
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)
    inits, nodes = [], []
    count = [0]

    def name(prefix):
        count[0] += 1
        return "%s%d" % (prefix, count[0])

    def weight(shape):
        n = name("w")
        inits.append(numpy_helper.from_array(
            (rng.standard_normal(shape) * 0.01).astype(np.float32), n))
        return n

    def conv_bn(x, cin, cout, k, stride, relu=True):
        w = weight((cout, cin, k, k))
        y = name("conv")
        nodes.append(helper.make_node(
            "Conv", [x, w], [y], kernel_shape=[k, k], strides=[stride, stride],
            pads=[k // 2] * 4))
        scale, bias = weight((cout,)), weight((cout,))
        mean, var = weight((cout,)), weight((cout,))
        z = name("bn")
        nodes.append(helper.make_node(
            "BatchNormalization", [y, scale, bias, mean, var], [z]))
        if not relu:
            return z
        r = name("relu")
        nodes.append(helper.make_node("Relu", [z], [r]))
        return r

    x = conv_bn("x", 3, 64, 7, 2)
    p = name("pool")
    nodes.append(helper.make_node("MaxPool", [x], [p], kernel_shape=[3, 3],
                                  strides=[2, 2], pads=[1, 1, 1, 1]))
    x, cin = p, 64
    for stage, (blocks, width) in enumerate([(3, 64), (4, 128), (6, 256),
                                             (3, 512)]):
        for b in range(blocks):
            stride = 2 if b == 0 and stage > 0 else 1
            y = conv_bn(x, cin, width, 1, 1)
            y = conv_bn(y, width, width, 3, stride)
            y = conv_bn(y, width, width * 4, 1, 1, relu=False)
            short = x
            if b == 0:
                short = conv_bn(x, cin, width * 4, 1, stride, relu=False)
            s = name("add")
            nodes.append(helper.make_node("Add", [y, short], [s]))
            r = name("relu")
            nodes.append(helper.make_node("Relu", [s], [r]))
            x, cin = r, width * 4
    g = name("gap")
    nodes.append(helper.make_node("GlobalAveragePool", [x], [g]))
    f = name("flat")
    nodes.append(helper.make_node("Flatten", [g], [f]))
    w, b = weight((1000, 2048)), weight((1000,))
    nodes.append(helper.make_node("Gemm", [f, w, b], ["logits"], transB=1))
    sm = helper.make_node("Softmax", ["logits"], ["y"], axis=1)
    nodes.append(sm)
    graph = helper.make_graph(
        nodes, "resnet50",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 224, 224])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1000])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 7
    onnx.save(model, path)


def pass_seconds(timing):
    """The seconds of the four passes in --mlir-timing's report."""
    total = 0.0
    for line in timing.splitlines():
        m = re.match(r"\s*([0-9.]+)\s+\(\s*[0-9.]+%\)\s+(.*)$", line)
        if not m:
            continue
        label = m.group(2).strip()
        if any(label.startswith(p) or label == p for p in
               ("ONNXValidate", "ONNXConvertOpset", "ONNXDecompose",
                "ONNXInferShapes")):
            total += float(m.group(1))
    return total


def run(build, model, runs):
    translate = os.path.join(build, "bin", "onnx-translate")
    opt = os.path.join(build, "bin", "onnx-opt")
    with tempfile.TemporaryDirectory() as tmp:
        bc = os.path.join(tmp, "m.mlirbc")
        subprocess.run([translate, "--import", model, "--emit-bytecode", "-o",
                        bc], check=True)
        times = []
        for _ in range(runs):
            r = subprocess.run(
                [opt, bc, "-o", os.devnull, "--mlir-timing"] +
                ["--" + p for p in PASSES],
                capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit("onnx-opt failed on %s:\n%s" % (model, r.stderr))
            times.append(pass_seconds(r.stderr))
        return statistics.median(times)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", default=os.path.join(here, "..", "build"))
    p.add_argument("--shared", default=os.path.join(here, "..", "..", "shared"))
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args()
    light = os.path.join(args.shared, "onnx-tests-1.22", "light",
                         "light_densenet121.onnx")
    with tempfile.TemporaryDirectory() as tmp:
        resnet = os.path.join(tmp, "resnet50.onnx")
        make_resnet50(resnet)
        for label, model in (("light_densenet121", light),
                             ("resnet50 (opset 13, 25.6M weights)", resnet)):
            secs = run(args.build, model, args.runs)
            print("%-36s %s: %.3f s" % (label, " + ".join(PASSES), secs))


if __name__ == "__main__":
    main()
