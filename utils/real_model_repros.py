#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the minimal reproducers of the real-model failures (docs/real-models.md)
into .real-models/repro (git-ignored), with one input .npy each (NAME.X.npy):

  /usr/bin/python3 utils/real_model_repros.py

Each model is a few nodes cut down from the pattern a real model failed on;
run one with
  onnx-run .real-models/repro/NAME.onnx --input X=.real-models/repro/NAME.X.npy
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    ".real-models", "repro")
os.makedirs(HERE, exist_ok=True)
F = TensorProto.FLOAT


def save(name, graph, opset=17, inputs=None, check=True):
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    if check:  # the checker wants a shape on every output, even of rank ?
        onnx.checker.check_model(model)
    onnx.save(model, os.path.join(HERE, name + ".onnx"))
    for k, v in (inputs or {}).items():
        np.save(os.path.join(HERE, "%s.%s.npy" % (name, k)), v)


def untyped(name):
    """A ValueInfo with an empty TypeProto (`type {}`), as torch.onnx.export
    writes the outputs of If branches."""
    vi = onnx.ValueInfoProto()
    vi.name = name
    vi.type.CopyFrom(onnx.TypeProto())
    return vi


def rng_input(*shape):
    return np.random.default_rng(0).standard_normal(shape).astype(np.float32)


# 1. MatMul [B, T, K] x [K, N] with two dynamic dims: the lowering collapses
# [B, T] into rows and expands the product back; memref.expand_shape with
# two dynamic sizes in one group crashes MLIR's expand-strided-metadata.
w = numpy_helper.from_array(rng_input(64, 30), "W")
save("matmul_dyn2_segv", helper.make_graph(
    [helper.make_node("MatMul", ["X", "W"], ["Y"])], "matmul_dyn2",
    [helper.make_tensor_value_info("X", F, ["B", "T", 64])],
    [helper.make_tensor_value_info("Y", F, ["B", "T", 30])], [w]),
    inputs={"X": rng_input(2, 5, 64)})

# 2. If whose branch outputs have no type (`type {}`): torch's exporter
# writes them so for nested Ifs (Silero VAD v5's decoder).
then_g = helper.make_graph([helper.make_node("Relu", ["X"], ["t"])], "then",
                           [], [untyped("t")])
else_g = helper.make_graph([helper.make_node("Neg", ["X"], ["e"])], "else",
                           [], [untyped("e")])
save("if_untyped_branch_outputs", helper.make_graph(
    [helper.make_node("ReduceSum", ["X"], ["s"], keepdims=0),
     helper.make_node("Constant", [], ["zero"],
                      value=numpy_helper.from_array(np.float32(0))),
     helper.make_node("Greater", ["s", "zero"], ["c"]),
     helper.make_node("If", ["c"], ["Y"], then_branch=then_g,
                      else_branch=else_g)], "if_untyped",
    [helper.make_tensor_value_info("X", F, [2, 3])],
    [helper.make_tensor_value_info("Y", F, [2, 3])]),
    inputs={"X": rng_input(2, 3)})

# 3. If whose branches have different ranks: torch's export of
# `x.squeeze(1)` on a dim it cannot prove is 1 (Silero VAD v4's STFT):
# then Squeeze(axis 1), else Identity. Here dim 1 is known to be 1, so the
# condition Equal(Shape(X)[1], 1) is a constant.
axes = numpy_helper.from_array(np.array([1], np.int64), "axes")
then_g = helper.make_graph([helper.make_node("Squeeze", ["X", "axes"],
                                             ["t"])], "then", [],
                           [helper.make_tensor_value_info("t", F, None)])
else_g = helper.make_graph([helper.make_node("Identity", ["X"], ["e"])],
                           "else", [],
                           [helper.make_tensor_value_info("e", F, None)])
save("if_branch_ranks_differ", helper.make_graph(
    [helper.make_node("Shape", ["X"], ["shape"]),
     helper.make_node("Constant", [], ["one_i"],
                      value=numpy_helper.from_array(np.array(1, np.int64))),
     helper.make_node("Gather", ["shape", "one_i"], ["d1"], axis=0),
     helper.make_node("Equal", ["d1", "one_i"], ["c"]),
     helper.make_node("If", ["c"], ["Y"], then_branch=then_g,
                      else_branch=else_g)], "if_ranks",
    [helper.make_tensor_value_info("X", F, ["N", 1, "T"])],
    [helper.make_tensor_value_info("Y", F, None)], [axes]),
    inputs={"X": rng_input(1, 1, 8)}, check=False)

# 4. Resize (linear, half_pixel) of a 1x1 image up to 28x28 with `sizes`
# from Concat(Shape(X)[0:2], [28, 28]): DeepLabV3's ASPP pooling branch.
# Every output value should equal the input pixel of its channel.
save("resize_linear_from_1x1", helper.make_graph(
    [helper.make_node("Shape", ["X"], ["shape"]),
     helper.make_node("Slice", ["shape", "zero", "two", "zero"], ["nc"]),
     helper.make_node("Concat", ["nc", "hw"], ["sizes"], axis=0),
     helper.make_node("Resize", ["X", "", "", "sizes"], ["Y"],
                      mode="linear",
                      coordinate_transformation_mode="half_pixel")],
    "resize_1x1",
    [helper.make_tensor_value_info("X", F, [1, 4, 1, 1])],
    [helper.make_tensor_value_info("Y", F, [1, 4, 28, 28])],
    [numpy_helper.from_array(np.array([0], np.int64), "zero"),
     numpy_helper.from_array(np.array([2], np.int64), "two"),
     numpy_helper.from_array(np.array([28, 28], np.int64), "hw")]),
    inputs={"X": np.arange(1, 5, dtype=np.float32).reshape(1, 4, 1, 1)})

# 5. Compile time that grows much faster than the model: N blocks of
# LayerNormalization -> MatMul 64x64 -> Tanh -> Add (residual) on
# [1, T, 64] with T dynamic (one dynamic dim, so no crash of 1.). Most of
# the time goes to one-shot-bufferize's subset analysis
# (ValueBoundsConstraintSet over the CPU code generation's tiled IR).
def ln_matmul_chain(n, dims):
    rng = np.random.default_rng(0)
    nodes, inits, cur = [], [], "X"
    for i in range(n):
        inits.append(numpy_helper.from_array(
            (rng.standard_normal((64, 64)) / 8).astype(np.float32), "W%d" % i))
        nodes += [
            helper.make_node("LayerNormalization", [cur, "g", "b"],
                             ["l%d" % i], axis=-1),
            helper.make_node("MatMul", ["l%d" % i, "W%d" % i], ["m%d" % i]),
            helper.make_node("Tanh", ["m%d" % i], ["t%d" % i]),
            helper.make_node("Add", ["t%d" % i, cur], ["a%d" % i])]
        cur = "a%d" % i
    inits += [numpy_helper.from_array(np.ones(64, np.float32), "g"),
              numpy_helper.from_array(np.zeros(64, np.float32), "b")]
    nodes.append(helper.make_node("Identity", [cur], ["Y"]))
    return helper.make_graph(
        nodes, "ln_matmul_chain",
        [helper.make_tensor_value_info("X", F, dims)],
        [helper.make_tensor_value_info("Y", F, dims)], inits)


for n in (2, 4, 6):
    save("slow_compile_dyn_chain%d" % n, ln_matmul_chain(n, [1, "T", 64]),
         inputs={"X": rng_input(1, 7, 64)})
save("slow_compile_static_chain6", ln_matmul_chain(6, [1, 8, 64]),
     inputs={"X": rng_input(1, 8, 64)})

# 6. A model with static input shapes whose dims become dynamic: Swin's
# shifted windows pad H and W to a multiple of the window size with pads
# computed at run time from Shape (pad = (w - H % w) % w). ONNX Runtime
# folds such shape arithmetic when it loads the model; if we keep it, every
# dim after the Pad is dynamic and the MatMul after it hits crash 1.
i64 = lambda name, v: numpy_helper.from_array(np.array(v, np.int64), name)
w = numpy_helper.from_array(rng_input(16, 16), "W")
save("static_pad_from_shape", helper.make_graph(
    [helper.make_node("Shape", ["X"], ["shape"]),
     helper.make_node("Gather", ["shape", "ax1"], ["h"], axis=0),
     helper.make_node("Gather", ["shape", "ax2"], ["w"], axis=0),
     helper.make_node("Mod", ["h", "win"], ["hm"]),
     helper.make_node("Sub", ["win", "hm"], ["hp0"]),
     helper.make_node("Mod", ["hp0", "win"], ["hp"]),
     helper.make_node("Mod", ["w", "win"], ["wm"]),
     helper.make_node("Sub", ["win", "wm"], ["wp0"]),
     helper.make_node("Mod", ["wp0", "win"], ["wp"]),
     helper.make_node("Concat", ["z4", "z1", "hp", "wp", "z1"], ["pads"], axis=0),
     helper.make_node("Pad", ["X", "pads"], ["P"]),
     helper.make_node("MatMul", ["P", "W"], ["Y"])], "static_pad",
    [helper.make_tensor_value_info("X", F, [1, 7, 7, 16])],
    [helper.make_tensor_value_info("Y", F, [1, 8, 8, 16])],
    [w, i64("ax1", 1), i64("ax2", 2), i64("win", [4]), i64("z4", [0, 0, 0, 0]),
     i64("z1", [0])]),
    inputs={"X": rng_input(1, 7, 7, 16)})
