"""Runs small ONNX models through onnx-run and compares with numpy.

  check_codegen.py ONNX_RUN WORKDIR [onnx-run options...]

Each case is a model built with onnx.helper, chosen for the edges of the
CPU code generator: matmul sizes that are not multiples of the register tile
(M = 1, 3, 17; N = 5, 33; K = 1, 2), weights that are initializers (packed at
compile time) and weights that are inputs (packed at run time), MatMulInteger
(i32 products, exact), Gemm with a
bias and Relu, NaN and Inf in the operands, reductions along the last axis
(Softmax, LayerNormalization, ReduceSum, ReduceMax), convolutions through im2col
(3x3, strides, dilations, 1x1, 7x7, batches as a loop over the images;
groups left to the loops),
dynamic batch dims (matmul rows, batched matmul, softmax), elementwise chains whose length
is not a multiple of the vector length, and vector math (Exp, Tanh, Erf, Log,
Sigmoid) against numpy's. Prints `ok NAME` per case, or `FAIL NAME: why`
and exits 1.
"""
import math
import os
import subprocess
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

ONNX_RUN, WORK = sys.argv[1], sys.argv[2]
EXTRA = sys.argv[3:]
os.makedirs(WORK, exist_ok=True)
rng = np.random.default_rng(7)
failures = 0


def declared(shape, dynamic):
    """`shape` with the axes in `dynamic` as dim_params (N0, N1, ...)."""
    return [f"N{i}" if i in dynamic else d for i, d in enumerate(shape)]


def model(name, nodes, inputs, outputs, initializers=(), dynamic=()):
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(n, TensorProto.FLOAT,
                                       declared(a.shape, dynamic))
         for n, a in inputs],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT,
                                       declared(s, dynamic))
         for n, s in outputs],
        [numpy_helper.from_array(a, n) for n, a in initializers])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    path = os.path.join(WORK, name + ".onnx")
    save(m, path)
    return path


def run(name, path, inputs):
    args = [ONNX_RUN, path, "--output-dir", os.path.join(WORK, name)] + EXTRA
    for n, a in inputs:
        f = os.path.join(WORK, f"{name}.{n}.npy")
        np.save(f, a)
        args += ["--input", f"{n}={f}"]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1]
                           if done.stderr.strip() else "exit %d" % done.returncode)
    return np.load(os.path.join(WORK, name, "y.npy"))


def check(name, nodes, inputs, expected, initializers=(), rtol=1e-5, atol=1e-6,
          dynamic=()):
    """dynamic: axes declared as dim_params in every input and the output."""
    global failures
    try:
        path = model(name, nodes, inputs, [("y", expected.shape)], initializers,
                     dynamic)
        got = run(name, path, inputs)
    except RuntimeError as e:
        print(f"FAIL {name}: {e}")
        failures += 1
        return
    if got.shape != expected.shape:
        print(f"FAIL {name}: shape {got.shape}, expected {expected.shape}")
        failures += 1
    elif not np.allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True):
        bad = np.abs(got - expected)
        print(f"FAIL {name}: max abs difference {np.nanmax(bad):.3g}")
        failures += 1
    else:
        print(f"ok {name}")


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


# Matmuls: shapes around the register tile (16 x 16 with AVX-512, 8 x 8
# with AVX2), weights as an initializer and as an input.
for m, k, n in [(1, 64, 32), (3, 5, 7), (17, 33, 5), (16, 16, 16),
                (64, 1, 48), (2, 2, 33), (40, 300, 70), (20, 600, 49)]:
    a, b = f32(m, k), f32(k, n)
    node = helper.make_node("MatMul", ["a", "b"], ["y"])
    # Sums of K products in another order: rounding grows with K.
    tol = 1e-6 * max(k, 10)
    check(f"matmul_{m}x{k}x{n}_const", [node], [("a", a)], a @ b,
          initializers=[("b", b)], rtol=tol, atol=tol)
    check(f"matmul_{m}x{k}x{n}_input", [node], [("a", a), ("b", b)], a @ b,
          rtol=tol, atol=tol)

# A constant left operand (packed at compile time) and a batch of rows.
a, b = f32(20, 12), f32(3, 7, 20)
check("matmul_const_lhs_batched", [helper.make_node("MatMul", ["b", "a"], ["y"])],
      [("b", b)], b @ a, initializers=[("a", a)])

# MatMulInteger: an i32 product of its operands less their zero points,
# packed and computed on the register tiles like an f32 one; exact. The
# model's float input (integers) is cast to uint8 or int8, the result back
# to float (below 2^24). A scalar zero point for each operand, a per-column
# one for B with a long reduction (K = 600) and one row, B as an input
# (packed at run time), an odd K with a per-column zero point and a tail of
# columns, int8 A with per-row zero points times uint8 B (K = 37, not a
# multiple of 4), and a batch of products. With AVX-512 VNNI the products
# are of 8-bit quads (vpdpbusd: signed A, unsigned B, each flipped by 128
# when it is not, and the zero points' sums subtracted after), else of
# 32-bit integers.
def integers(lo, hi, *shape):
    return rng.integers(lo, hi + 1, shape)


def matmul_integer(name, a, b, az, bz, a_type, b_type, b_input=False):
    t = {np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8}
    nodes = [helper.make_node("Cast", ["a"], ["aq"], to=t[a_type])]
    inits = [("az", np.array(az, a_type)), ("bz", np.array(bz, b_type))]
    inputs = [("a", a.astype(np.float32))]
    if b_input:
        nodes.append(helper.make_node("Cast", ["b"], ["bq"], to=t[b_type]))
        inputs.append(("b", b.astype(np.float32)))
    else:
        inits.append(("bq", b.astype(b_type)))
    nodes += [helper.make_node("MatMulInteger", ["aq", "bq", "az", "bz"], ["p"]),
              helper.make_node("Cast", ["p"], ["y"], to=TensorProto.FLOAT)]
    # (A 1-D zero point of A is per row.)
    a_zero = np.asarray(az, np.int64)
    if a_zero.ndim == 1:
        a_zero = a_zero[:, None]
    expected = (a - a_zero) @ (b - np.asarray(bz, np.int64))
    check(name, nodes, inputs, expected.astype(np.float32), initializers=inits,
          rtol=0, atol=0)


matmul_integer("matmul_integer_u8_s8", integers(0, 255, 17, 40),
               integers(-128, 127, 40, 33), 131, -3, np.uint8, np.int8)
matmul_integer("matmul_integer_column_zero_points", integers(0, 255, 1, 600),
               integers(-40, 40, 600, 70), 0, integers(-5, 5, 70),
               np.uint8, np.int8)
matmul_integer("matmul_integer_s8_input_b", integers(-128, 127, 20, 48),
               integers(-128, 127, 48, 36), -7, 2, np.int8, np.int8,
               b_input=True)
matmul_integer("matmul_integer_odd_k_column_zero_points",
               integers(0, 255, 20, 301), integers(-128, 127, 301, 50), 77,
               integers(-9, 9, 50), np.uint8, np.int8)
matmul_integer("matmul_integer_s8_u8_row_zero_points",
               integers(-128, 127, 19, 37), integers(0, 255, 37, 40),
               integers(-5, 5, 19), 200, np.int8, np.uint8)
matmul_integer("matmul_integer_batched", integers(0, 255, 3, 7, 24),
               integers(-128, 127, 3, 24, 20), 100, 1, np.uint8, np.int8,
               b_input=True)

# Gemm with transB, a bias and Relu: the epilogue after the packed product.
a, w, c = f32(9, 24), f32(19, 24), f32(19)
check("gemm_bias_relu",
      [helper.make_node("Gemm", ["a", "w", "c"], ["g"], transB=1),
       helper.make_node("Relu", ["g"], ["y"])],
      [("a", a)], np.maximum(a @ w.T + c, 0), initializers=[("w", w), ("c", c)])

# Dynamic rows (a dynamic batch): chunks of 128 rows packed, the rows after
# them in tiles of 16 padded with zeros (300 = 2 x 128 + 2 x 16 + 12); a
# batched matmul and a softmax over a dynamic batch (loops).
for rows in (37, 300):
    a, b = f32(rows, 24), f32(24, 20)
    check(f"matmul_dynamic_rows_{rows}",
          [helper.make_node("MatMul", ["a", "b"], ["y"])],
          [("a", a)], a @ b, initializers=[("b", b)], rtol=1e-5, atol=1e-5,
          dynamic={0})
a, b = f32(3, 17, 8), f32(3, 8, 20)
check("batch_matmul_dynamic", [helper.make_node("MatMul", ["a", "b"], ["y"])],
      [("a", a), ("b", b)], a @ b, rtol=1e-5, atol=1e-5, dynamic={0})
x = f32(3, 5, 40)
e = np.exp(x - x.max(axis=-1, keepdims=True))
check("softmax_dynamic_batch",
      [helper.make_node("Softmax", ["x"], ["y"], axis=-1)], [("x", x)],
      e / e.sum(axis=-1, keepdims=True), dynamic={0})

# A dynamic batch N through an encoder-like block: a product with bias and
# GELU, x x^T over the batch (dims that shape inference names N on both
# sides: no broadcasting), a residual add; then a dim that is 1 at run time
# broadcast against N (other names: read broadcast).
x, w, c = f32(3, 20, 16), f32(16, 16), f32(16)
h = x @ w + c
g = 0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2))).astype(np.float32)
check("dynamic_batch_block",
      [helper.make_node("MatMul", ["x", "w"], ["p"]),
       helper.make_node("Add", ["p", "c"], ["h"]),
       helper.make_node("Div", ["h", "r2"], ["hs"]),
       helper.make_node("Erf", ["hs"], ["e"]),
       helper.make_node("Add", ["e", "one"], ["e1"]),
       helper.make_node("Mul", ["h", "e1"], ["he"]),
       helper.make_node("Mul", ["he", "half"], ["g"]),
       helper.make_node("Transpose", ["g"], ["gt"], perm=[0, 2, 1]),
       helper.make_node("MatMul", ["g", "gt"], ["s"]),
       helper.make_node("MatMul", ["s", "x"], ["sx"]),
       helper.make_node("Add", ["sx", "x"], ["y"])],
      [("x", x)], (g @ g.transpose(0, 2, 1)) @ x + x,
      initializers=[("w", w), ("c", c),
                    ("r2", np.array(math.sqrt(2), np.float32)),
                    ("one", np.array(1, np.float32)),
                    ("half", np.array(0.5, np.float32))],
      rtol=1e-4, atol=1e-4, dynamic={0})
try:
    a, b = f32(3, 8), f32(1, 8)
    graph = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["y"])], "add_broadcast_n_1",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, ["N", 8]),
         helper.make_tensor_value_info("b", TensorProto.FLOAT, ["M", 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 8])])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    path = os.path.join(WORK, "add_broadcast_n_1.onnx")
    save(m, path)
    got = run("add_broadcast_n_1", path, [("a", a), ("b", b)])
    if np.allclose(got, a + b):
        print("ok add_broadcast_n_1")
    else:
        print("FAIL add_broadcast_n_1: wrong values")
        failures += 1
except RuntimeError as e:
    print(f"FAIL add_broadcast_n_1: {e}")
    failures += 1

# NaN and Inf propagate through the packed product like numpy's.
a, b = f32(5, 6), f32(6, 18)
a[1, 2] = np.nan
b[3, 17] = np.inf
b[0, 4] = -np.inf
with np.errstate(invalid="ignore"):
    expected = a @ b
check("matmul_nan_inf", [helper.make_node("MatMul", ["a", "b"], ["y"])],
      [("a", a), ("b", b)], expected)



def conv_ref(x, w, b, stride, pad, dilation):
    """NCHW convolution (group 1) in numpy, as ONNX defines it."""
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - dilation * (kh - 1) - 1) // stride + 1
    ow = (wd + 2 * pad - dilation * (kw - 1) - 1) // stride + 1
    y = np.zeros((n, f, oh, ow), np.float64)
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i * dilation:i * dilation + stride * (oh - 1) + 1:stride,
                       j * dilation:j * dilation + stride * (ow - 1) + 1:stride]
            y += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    return (y + b.reshape(1, f, 1, 1)).astype(np.float32)


# Convolutions: direct 3x3 with padding, bias and Relu (the positions past
# each row's end computed and dropped); stride 2 and 5x5 stride 3 (through
# im2col); onto 7x7 maps by rows (a tile is one output row's positions
# times the filters; with stride 2, over the image's 4 phases), onto 28x28
# ones by rows in segments of 14 positions (with AVX-512; AVX2 by
# positions, and im2col with strides); few
# channels and dilation 2 through im2col and the packed matmul; 1x1 (no im2col), also with 7x7 = 49 positions against 32 filters
# (the transposed product: 7-row tiles of positions; with 320 channels and
# AVX2, 6-row tiles, the last one padded), and to 16 or 20
# filters over 16x16 or 12x12 positions (the image read by the product's
# tiles in place, not packed first), to 30 filters over 9x9 (5 rows
# and 5 columns of tiles: 4 of each over two threads, the last on one),
# and from 384 channels over 14x14 (a reduction of 384 steps, computed in
# the epilogue's tiles with AVX-512 and in blocks of 256 with AVX2; 196
# positions, 12 whole tiles and a tail of 4);
# batches of images (a
# loop over the images); a grouped convolution (left to the loops);
# depthwise convolutions (one elementwise op over strided windows).
for name, (n, c, h, f, k, stride, pad, dil, group) in {
        "conv3x3_bias_relu": (1, 5, 9, 18, 3, 1, 1, 1, 1),
        "conv3x3_direct_c16": (1, 16, 13, 24, 3, 1, 1, 1, 1),
        "conv3x3_stride2": (1, 4, 11, 7, 3, 2, 1, 1, 1),
        "conv3x3_stride2_c16": (1, 16, 15, 20, 3, 2, 1, 1, 1),
        "conv5x5_stride3_c8": (1, 8, 17, 9, 5, 3, 2, 1, 1),
        "conv3x3_by_rows_7x7": (1, 16, 7, 32, 3, 1, 1, 1, 1),
        "conv3x3_stride2_by_rows": (1, 16, 14, 48, 3, 2, 1, 1, 1),
        "conv3x3_rows_in_segments": (1, 16, 28, 32, 3, 1, 1, 1, 1),
        "conv3x3_stride2_rows_in_segments": (1, 16, 56, 32, 3, 2, 1, 1, 1),
        "conv3x3_dilation2": (1, 3, 12, 16, 3, 1, 2, 2, 1),
        "conv1x1": (1, 24, 7, 33, 1, 1, 0, 1, 1),
        "conv1x1_49x32": (1, 40, 7, 32, 1, 1, 0, 1, 1),
        "conv1x1_49x32_long": (1, 320, 7, 32, 1, 1, 0, 1, 1),
        "conv1x1_to16_image_in_tiles": (1, 32, 16, 16, 1, 1, 0, 1, 1),
        "conv1x1_to20_image_in_tiles": (1, 40, 12, 20, 1, 1, 0, 1, 1),
        "conv1x1_uneven_threads": (1, 32, 9, 30, 1, 1, 0, 1, 1),
        "conv1x1_384_to_96_14x14": (1, 384, 14, 96, 1, 1, 0, 1, 1),
        "conv7x7_stride2": (1, 3, 20, 8, 7, 2, 3, 1, 1),
        "conv3x3_batch2": (2, 3, 6, 5, 3, 1, 1, 1, 1),
        "conv1x1_batch3": (3, 16, 7, 20, 1, 1, 0, 1, 1),
        "conv3x3_stride2_batch4": (4, 5, 9, 17, 3, 2, 1, 1, 1),
        "conv3x3_group2": (1, 4, 6, 6, 3, 1, 1, 1, 2),
        "depthwise3x3": (1, 16, 20, 16, 3, 1, 1, 1, 16),
        "depthwise3x3_stride2": (1, 8, 15, 8, 3, 2, 1, 1, 8),
        "depthwise5x5_batch2": (2, 4, 9, 4, 5, 1, 2, 1, 4),
        "depthwise3x3_dilation2": (1, 8, 12, 8, 3, 1, 2, 2, 8),
        "depthwise3x3_stride2_even": (1, 8, 16, 8, 3, 2, 1, 1, 8)}.items():
    x, w, b = f32(n, c, h, h), f32(f, c // group, k, k), f32(f)
    conv = helper.make_node("Conv", ["x", "w", "b"], ["t"], strides=[stride] * 2,
                            pads=[pad] * 4, dilations=[dil] * 2, group=group)
    if group == 1:
        expected = conv_ref(x, w, b, stride, pad, dil)
    else:
        cg, fg = c // group, f // group
        expected = np.concatenate(
            [conv_ref(x[:, g * cg:(g + 1) * cg], w[g * fg:(g + 1) * fg],
                      b[g * fg:(g + 1) * fg], stride, pad, dil)
             for g in range(group)], axis=1)
    tol = 1e-6 * max(c * k * k, 10)
    check(name, [conv, helper.make_node("Relu", ["t"], ["y"])], [("x", x)],
          np.maximum(expected, 0), initializers=[("w", w), ("b", b)],
          rtol=tol, atol=tol)

# ConvInteger: the i32 convolution of the image and filter less their zero
# points (the border is the image's zero point) through im2col and the
# packed product (with AVX-512 VNNI im2col of the bytes and a product of
# quads); exact. A uint8 image; an int8 one with a zero point per filter;
# a 1x1 window without padding (the image is the matrix); a batch of 3
# (its bytes padded once, each image's product of quads in a loop).
for name, (n, c, h, f, stride, xz, wz, signed, window) in {
        "conv_integer_3x3": (1, 16, 9, 20, 1, 120, 3, False, 3),
        "conv_integer_3x3_stride2": (1, 8, 11, 12, 2, 7, -2, False, 3),
        "conv_integer_s8_filter_zero_points": (
            1, 10, 7, 18, 1, -5, integers(-4, 4, 18), True, 3),
        "conv_integer_1x1": (1, 24, 6, 17, 1, 200, 0, False, 1),
        "conv_integer_batch3": (3, 8, 7, 16, 1, 90, 0, False, 3)}.items():
    x_type = np.int8 if signed else np.uint8
    x = integers(-128, 127, n, c, h, h) if signed else \
        integers(0, 255, n, c, h, h)
    w = integers(-128, 127, f, c, window, window)
    pad = window // 2
    w_zero = np.asarray(wz, np.int64).reshape(-1, 1, 1, 1)
    check(name,
          [helper.make_node("Cast", ["x"], ["xq"],
                            to=TensorProto.INT8 if signed else
                            TensorProto.UINT8),
           helper.make_node("ConvInteger", ["xq", "w", "xz", "wz"], ["p"],
                            pads=[pad] * 4, strides=[stride] * 2),
           helper.make_node("Cast", ["p"], ["y"], to=TensorProto.FLOAT)],
          [("x", x.astype(np.float32))],
          conv_ref((x - xz).astype(np.float64), (w - w_zero).astype(np.float64),
                   np.zeros(f), stride, pad, 1),
          initializers=[("w", w.astype(np.int8)),
                        ("xz", np.array(xz, x_type)),
                        ("wz", np.array(wz, np.int8))],
          rtol=0, atol=0)

# An empty batch: nothing to compute, an output of [0, F, H, W] (also with
# --no-codegen, where the pad of the empty image had become a subview that
# the verifier rejected).
x, w, b = f32(0, 16, 8, 8), f32(16, 16, 3, 3), f32(16)
check("conv_empty_batch",
      [helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1] * 4)],
      [("x", x)], conv_ref(x, w, b, 1, 1, 1).astype(np.float32),
      initializers=[("w", w), ("b", b)])

# 3x3 convolutions with unit strides, constant filters, whole blocks of 16
# filters and at least 11 channels go through Winograd's F(m, 3) along the
# rows (onnx-run's default, --winograd 4; 2 under --winograd 2): output rows
# in tiles of m, the last one past the image (13 and 10 rows: 3 and 2 rows
# of zeros below), rows in segments (56 columns), a batch, and no bias (the
# accumulator's zero fill); with --winograd 0 they are direct.
for name, (n, c, h, f, bias) in {
        "conv3x3_winograd_13x13": (1, 12, 13, 16, True),
        "conv3x3_winograd_10x10_nobias": (1, 24, 10, 32, False),
        "conv3x3_winograd_56x56": (1, 16, 56, 16, True),
        "conv3x3_winograd_batch2": (2, 16, 9, 16, True)}.items():
    x, w = f32(n, c, h, h), f32(f, c, 3, 3) / np.sqrt(9 * c)
    b = f32(f) if bias else np.zeros(f, np.float32)
    check(name, [helper.make_node("Conv", ["x", "w", "b"] if bias else ["x", "w"],
                                  ["y"], pads=[1] * 4)],
          [("x", x)], conv_ref(x, w, b, 1, 1, 1),
          initializers=[("w", w)] + ([("b", b)] if bias else []),
          rtol=1e-5, atol=1e-5)

# NaN and Inf through such a convolution. Direct, each non-finite input
# makes the outputs whose 3x3 windows hold it non-finite. Winograd's row
# transform mixes the m + 2 rows of a tile (Inf - Inf is NaN), so there the
# outputs of every row of the tiles whose rows hold it (8 rows with F(4, 3))
# in those 3 columns may be NaN as well: the non-finite outputs must cover
# the direct ones and stay in those rows and columns; the rest must match.
x, w = f32(1, 16, 12, 12), f32(16, 16, 3, 3) / 12
x[0, 3, 5, 6], x[0, 7, 9, 2], x[0, 9, 0, 11] = np.nan, np.inf, -np.inf
expected = conv_ref(x, w, np.zeros(16, np.float32), 1, 1, 1)
name = "conv3x3_nan_inf"
try:
    got = run(name, model(name, [helper.make_node("Conv", ["x", "w"], ["y"],
                                                  pads=[1] * 4)],
                          [("x", x)], [("y", expected.shape)], [("w", w)]),
              [("x", x)])
    bad = ~np.isfinite(expected)
    reach = np.zeros_like(bad)
    for _, _, r, col in np.argwhere(~np.isfinite(x)):
        reach[:, :, max(r - 8, 0):r + 9, max(col - 1, 0):col + 2] = True
    finite = np.isfinite(got)
    if (finite & bad).any():
        print(f"FAIL {name}: a non-finite output came out finite")
        failures += 1
    elif (~finite & ~reach).any():
        print(f"FAIL {name}: a non-finite output out of the inputs' reach")
        failures += 1
    elif not np.allclose(got[finite & ~bad], expected[finite & ~bad],
                         rtol=1e-5, atol=1e-5):
        print(f"FAIL {name}: finite outputs differ")
        failures += 1
    else:
        print(f"ok {name}")
except RuntimeError as e:
    print(f"FAIL {name}: {e}")
    failures += 1

# A padded depthwise convolution reads its image from a buffer with rows of
# zeros around it, where a row's first and last taps read the neighbouring
# row and mask it: Inf and NaN at the ends of rows must reach only the
# outputs whose windows hold them, as with the padded image. Then a 1x1
# convolution with Clip writing the depthwise one's buffer in place (a
# MobileNetV2 block), with a bias and Clip after the depthwise one.
x = f32(1, 4, 6, 6)
x[0, 0, 2, 5], x[0, 1, 3, 0], x[0, 2, 0, 5], x[0, 3, 5, 0] = np.inf, -np.inf, np.nan, np.inf
w, b = f32(4, 1, 3, 3), f32(4)
expected = np.concatenate([conv_ref(x[:, g:g + 1], w[g:g + 1], b[g:g + 1], 1, 1, 1)
                           for g in range(4)], axis=1)
check("depthwise_inf_row_ends",
      [helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1] * 4, group=4)],
      [("x", x)], expected, initializers=[("w", w), ("b", b)])
for name, (c, f, h, stride) in {"conv1x1_then_depthwise": (8, 24, 14, 1),
                                "conv1x1_then_depthwise_stride2": (8, 16, 12, 2)}.items():
    x, w1, b1 = f32(1, c, h, h), f32(f, c, 1, 1) / np.sqrt(c), f32(f)
    w2, b2 = f32(f, 1, 3, 3), f32(f)
    lo, hi = np.array(0, np.float32), np.array(6, np.float32)
    t = np.clip(conv_ref(x, w1, b1, 1, 0, 1), 0, 6)
    expected = np.clip(np.concatenate(
        [conv_ref(t[:, g:g + 1], w2[g:g + 1], b2[g:g + 1], stride, 1, 1)
         for g in range(f)], axis=1), 0, 6)
    check(name, [helper.make_node("Conv", ["x", "w1", "b1"], ["t"]),
                 helper.make_node("Clip", ["t", "lo", "hi"], ["u"]),
                 helper.make_node("Conv", ["u", "w2", "b2"], ["v"], pads=[1] * 4,
                                  strides=[stride] * 2, group=f),
                 helper.make_node("Clip", ["v", "lo", "hi"], ["y"])],
          [("x", x)], expected,
          initializers=[("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2),
                        ("lo", lo), ("hi", hi)], rtol=1e-4, atol=1e-5)

# A MobileNetV2 block with a residual Add at map sizes whose positions are
# not a multiple of the tile (7x7 = 49, 14x14 = 196) and filters that are
# not a multiple of the register tile's rows: the first 1x1 convolution is
# computed in parts (whole tiles, then the columns and rows left) straight
# into the zero-padded buffer the next one packs, and read again from there
# by the Add.
for name, (c, f, e, h) in {"residual_block_7x7": (20, 22, 40, 7),
                           "residual_block_14x14": (24, 64, 96, 14)}.items():
    x = f32(1, c, h, h)
    w1, b1 = f32(f, c, 1, 1) / np.sqrt(c), f32(f)
    w2, b2 = f32(e, f, 1, 1) / np.sqrt(f), f32(e)
    w3, b3 = f32(e, 1, 3, 3), f32(e)
    w4, b4 = f32(f, e, 1, 1) / np.sqrt(e), f32(f)
    lo, hi = np.array(0, np.float32), np.array(6, np.float32)
    r = conv_ref(x, w1, b1, 1, 0, 1)
    t = np.clip(conv_ref(r, w2, b2, 1, 0, 1), 0, 6)
    d = np.clip(np.concatenate([conv_ref(t[:, g:g + 1], w3[g:g + 1], b3[g:g + 1], 1, 1, 1)
                                for g in range(e)], axis=1), 0, 6)
    expected = r + conv_ref(d, w4, b4, 1, 0, 1)
    check(name, [helper.make_node("Conv", ["x", "w1", "b1"], ["r"]),
                 helper.make_node("Conv", ["r", "w2", "b2"], ["t"]),
                 helper.make_node("Clip", ["t", "lo", "hi"], ["u"]),
                 helper.make_node("Conv", ["u", "w3", "b3"], ["v"], pads=[1] * 4,
                                  group=e),
                 helper.make_node("Clip", ["v", "lo", "hi"], ["d"]),
                 helper.make_node("Conv", ["d", "w4", "b4"], ["q"]),
                 helper.make_node("Add", ["r", "q"], ["y"])],
          [("x", x)], expected,
          initializers=[("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2),
                        ("w3", w3), ("b3", b3), ("w4", w4), ("b4", b4),
                        ("lo", lo), ("hi", hi)], rtol=1e-4, atol=1e-4)

# A chain on the blocked layout [N, C/c0, H, W, c0], converted at its
# input and output only: a 3x3 convolution (Winograd) with Relu, a
# depthwise one with strides of 2 and Clip, a 1x1 one, a residual Add of a
# MaxPool of the input, and an AveragePool that leaves out the padding; a
# batch of 2 (the blocked ops loop over the images themselves).
x = f32(2, 16, 14, 14)
w1, b1 = f32(32, 16, 3, 3) / 12, f32(32)
w2, b2 = f32(32, 1, 3, 3), f32(32)
w3, b3 = f32(16, 32, 1, 1) / np.sqrt(32), f32(16)
lo, hi = np.array(0, np.float32), np.array(6, np.float32)
t = np.maximum(conv_ref(x, w1, b1, 1, 1, 1), 0)
d = np.clip(np.concatenate([conv_ref(t[:, g:g + 1], w2[g:g + 1], b2[g:g + 1], 2, 1, 1)
                            for g in range(32)], axis=1), 0, 6)
s = conv_ref(d, w3, b3, 1, 0, 1) + x.reshape(2, 16, 7, 2, 7, 2).max(axis=(3, 5))
padded = np.pad(s.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
ones = np.pad(np.ones((7, 7)), 1)
window = lambda a: sum(a[..., i:i + 7, j:j + 7] for i in range(3) for j in range(3))
check("blocked_chain_batch2",
      [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1] * 4),
       helper.make_node("Relu", ["c1"], ["r1"]),
       helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1] * 4,
                        strides=[2, 2], group=32),
       helper.make_node("Clip", ["c2", "lo", "hi"], ["r2"]),
       helper.make_node("Conv", ["r2", "w3", "b3"], ["c3"]),
       helper.make_node("MaxPool", ["x"], ["m"], kernel_shape=[2, 2],
                        strides=[2, 2]),
       helper.make_node("Add", ["c3", "m"], ["s"]),
       helper.make_node("AveragePool", ["s"], ["y"], kernel_shape=[3, 3],
                        pads=[1] * 4)],
      [("x", x)], (window(padded) / window(ones)).astype(np.float32),
      initializers=[("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2),
                    ("w3", w3), ("b3", b3), ("lo", lo), ("hi", hi)],
      rtol=1e-4, atol=1e-4)

# A Concat along the channels of a blocked convolution's result and an
# input, read by another convolution: concatenated in the blocked layout.
x, z = f32(1, 16, 9, 9), f32(1, 32, 9, 9)
w1, w2 = f32(16, 16, 1, 1) / 4, f32(16, 48, 3, 3) / 20
c = np.concatenate([np.maximum(conv_ref(x, w1, np.zeros(16, np.float32), 1, 0, 1), 0),
                    z], axis=1)
check("blocked_concat",
      [helper.make_node("Conv", ["x", "w1"], ["c1"]),
       helper.make_node("Relu", ["c1"], ["r1"]),
       helper.make_node("Concat", ["r1", "z"], ["c"], axis=1),
       helper.make_node("Conv", ["c", "w2"], ["y"], pads=[1] * 4)],
      [("x", x), ("z", z)], conv_ref(c, w2, np.zeros(16, np.float32), 1, 1, 1),
      initializers=[("w1", w1), ("w2", w2)], rtol=1e-4, atol=1e-4)

# Products with their epilogue computed on the register tiles: a
# convolution with BatchNormalization, a residual Add and Relu (a short
# reduction: the product is computed in the epilogue's tile loop, whole tiles
# only), the same with 3x3 (K = 16 * 9, columns 7 * 7 = 49: whole tiles and a
# tail column) and with K = 300 (the product keeps its own schedule), and
# Gemm with bias and Relu whose rows and columns both have tails.
for name, (c, h, f, k) in {"conv1x1_bn_add_relu": (32, 8, 48, 1),
                           "conv3x3_bn_add_relu_tail": (16, 7, 32, 3),
                           "conv1x1_k300_bn_add_relu": (300, 6, 20, 1)}.items():
    x, w = f32(1, c, h, h), f32(f, c, k, k) / np.sqrt(c * k * k)
    scale, shift, mean = f32(f), f32(f), f32(f)
    var = (rng.random(f) + 0.5).astype(np.float32)
    residual = f32(1, f, h, h)
    nodes = [helper.make_node("Conv", ["x", "w"], ["t"], pads=[k // 2] * 4),
             helper.make_node("BatchNormalization",
                              ["t", "scale", "shift", "mean", "var"], ["u"]),
             helper.make_node("Add", ["u", "r"], ["v"]),
             helper.make_node("Relu", ["v"], ["y"])]
    t = conv_ref(x, w, np.zeros(f, np.float32), 1, k // 2, 1).astype(np.float64)
    per = lambda v: v.reshape(1, f, 1, 1).astype(np.float64)
    u = (t - per(mean)) / np.sqrt(per(var) + 1e-5) * per(scale) + per(shift)
    check(name, nodes, [("x", x), ("r", residual)],
          np.maximum(u + residual, 0).astype(np.float32),
          initializers=[("w", w), ("scale", scale), ("shift", shift),
                        ("mean", mean), ("var", var)], rtol=1e-4, atol=1e-4)
for m, k, n in [(37, 100, 50), (1, 300, 1000)]:
    a, b, bias = f32(m, k), f32(n, k), f32(n)
    check(f"gemm_{m}x{k}x{n}_bias_relu",
          [helper.make_node("Gemm", ["a", "b", "c"], ["t"], transB=1),
           helper.make_node("Relu", ["t"], ["y"])],
          [("a", a)], np.maximum(a @ b.T + bias, 0),
          initializers=[("b", b), ("c", bias)], rtol=1e-4, atol=1e-4)

# Elementwise chains of odd lengths (a masked vector tail), with a broadcast.
for shape in [(1,), (15,), (17,), (3, 37), (2, 64, 7, 7), (1000,)]:
    x, z = f32(*shape), f32(shape[-1])
    check(f"elementwise_{'x'.join(map(str, shape))}",
          [helper.make_node("Mul", ["x", "z"], ["t"]),
           helper.make_node("Add", ["t", "x"], ["u"]),
           helper.make_node("Relu", ["u"], ["y"])],
          [("x", x), ("z", z)], np.maximum(x * z + x, 0))

# Reductions along the last axis (vectorized whole up to 1024 elements):
# Softmax, LayerNormalization, ReduceSum and ReduceMax, with odd lengths and
# one too long to vectorize.
def softmax(v):
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


for shape in [(3, 37), (2, 5, 128), (1, 1500)]:
    x = f32(*shape)
    name = "x".join(map(str, shape))
    check(f"softmax_{name}", [helper.make_node("Softmax", ["x"], ["y"], axis=-1)],
          [("x", x)], softmax(x), rtol=1e-5, atol=1e-6)
    check(f"reducesum_{name}",
          [helper.make_node("ReduceSum", ["x", "axes"], ["y"], keepdims=0)],
          [("x", x)], x.sum(axis=-1), rtol=1e-5, atol=1e-5,
          initializers=[("axes", np.array([-1], np.int64))])
    check(f"reducemax_{name}",
          [helper.make_node("ReduceMax", ["x"], ["y"], axes=[-1], keepdims=1)],
          [("x", x)], x.max(axis=-1, keepdims=True))
x, g, b = f32(4, 256), f32(256), f32(256)
mean = x.mean(axis=-1, keepdims=True)
var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
check("layernorm_4x256",
      [helper.make_node("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1,
                        epsilon=1e-5)],
      [("x", x)], (x - mean) / np.sqrt(var + 1e-5) * g + b,
      initializers=[("g", g), ("b", b)], rtol=1e-4, atol=1e-5)

# Vector math through polynomial approximations, against numpy / libm.
x = np.linspace(-9, 9, 301, dtype=np.float32)
pos = np.linspace(1e-3, 50, 301, dtype=np.float32)
erf = np.vectorize(math.erf)
for op, data, fn in [("Exp", x, np.exp), ("Tanh", x, np.tanh),
                     ("Erf", x, lambda v: erf(v).astype(np.float32)),
                     ("Log", pos, np.log),
                     ("Sigmoid", x, lambda v: 1 / (1 + np.exp(-v)))]:
    check(f"math_{op.lower()}", [helper.make_node(op, ["x"], ["y"])],
          [("x", data)], fn(data).astype(np.float32), rtol=2e-6, atol=1e-6)

# Special values through the vector math.
x = np.array([np.nan, np.inf, -np.inf, 0, -0.0, 100, -100, 1e-30] * 3,
             np.float32)
for op, fn in [("Exp", np.exp), ("Tanh", np.tanh)]:
    with np.errstate(over="ignore"):
        check(f"math_{op.lower()}_special", [helper.make_node(op, ["x"], ["y"])],
              [("x", x)], fn(x).astype(np.float32), rtol=2e-6, atol=1e-6)

sys.exit(1 if failures else 0)
