"""Inputs and numpy references for Inputs/attention-dynamic.onnxtxt
(row-chains.test): Softmax over rows of a dynamic length S and an f16
LayerNormalization over a dynamic batch and sequence.

Usage: check_attention_dynamic.py DIR S inputs  writes DIR/in (batch 2)
       check_attention_dynamic.py DIR S check   checks DIR/out
"""
import os
import sys

import numpy as np

d, s, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
r = np.random.default_rng(s)
scores = (r.standard_normal((2, 3, s, s)) * 4).astype(np.float32)
h = r.standard_normal((2, s, 64)).astype(np.float16)
g = r.standard_normal(64).astype(np.float16)
if what == "inputs":
    os.makedirs(os.path.join(d, "in"), exist_ok=True)
    for name, value in (("scores", scores), ("h", h), ("g", g)):
        np.save(os.path.join(d, "in", name + ".npy"), value)
    sys.exit(0)
x = scores.astype(np.float64)
e = np.exp(x - x.max(-1, keepdims=True))
want = {"p": e / e.sum(-1, keepdims=True)}
hx = h.astype(np.float64)
mean = hx.mean(-1, keepdims=True)
var = ((hx - mean) ** 2).mean(-1, keepdims=True)
want["ln"] = (hx - mean) / np.sqrt(var + 1e-5) * g.astype(np.float64)
for name, tol in (("p", 1e-6), ("ln", 2.0 ** -9)):
    got = np.load(os.path.join(d, "out", name + ".npy")).astype(np.float64)
    ref = want[name]
    if got.shape != ref.shape:
        sys.exit("%s: shape %s, expected %s" % (name, got.shape, ref.shape))
    err = np.abs(got - ref).max() / max(np.abs(ref).max(), 1e-30)
    print("%s %s: relative error %s %g" %
          ("ok" if err <= tol else "WRONG", name,
           "within" if err <= tol else "is", tol if err <= tol else err))
