# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The outputs of conv-dynamic-size.onnxtxt against numpy in float64:
#   check_dynamic_conv.py make X.npy      (writes the input)
#   check_dynamic_conv.py check X.npy DIR (compares DIR/y3.npy, y2.npy, y1.npy)
# Prints "ok" and the largest relative error, or what differs (exit 1).
import sys

import numpy as np


def weights(f, c, k):
    i = np.arange(f * c * k * k)
    return ((i * 7 % 13 - 6) / 8).reshape(f, c, k, k)


def conv(x, w, b, stride, pad):
    n, c, h, wd = x.shape
    f, _, k, _ = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - k) // stride + 1
    ow = (wd + 2 * pad - k) // stride + 1
    y = np.zeros((n, f, oh, ow))
    for ky in range(k):
        for kx in range(k):
            win = xp[:, :, ky:ky + stride * (oh - 1) + 1:stride,
                     kx:kx + stride * (ow - 1) + 1:stride]
            y += np.einsum("nchw,fc->nfhw", win, w[:, :, ky, kx])
    return y + b[None, :, None, None]


if sys.argv[1] == "make":
    rng = np.random.default_rng(7)
    np.save(sys.argv[2], rng.standard_normal((2, 16, 19, 21)).astype(np.float32))
    sys.exit(0)
x = np.load(sys.argv[2]).astype(np.float64)
bias = np.arange(8, dtype=np.float64) / 8
expected = {
    "y3": conv(x, weights(8, 16, 3), bias, 1, 1),
    "y2": conv(x, weights(8, 16, 3), bias, 2, 0),
    "y1": conv(x, weights(8, 16, 1), np.zeros(8), 1, 0),
}
for name, ref in expected.items():
    got = np.load("%s/%s.npy" % (sys.argv[3], name))
    if got.shape != ref.shape:
        print("%s: shape %s, expected %s" % (name, got.shape, ref.shape))
        sys.exit(1)
    err = float(np.abs(got - ref).max() / np.abs(ref).max())
    if err > 1e-5:
        print("%s: relative error %.2e" % (name, err))
        sys.exit(1)
print("ok, relative error below 1e-5")
