"""Checks the outputs of Inputs/emulated.onnxtxt run on the GPU emulator
(emulator.test) against numpy references that round the products' operands
as the kernels do: TF32 in mode tf32, none in mode f32 (f16 and bf16
products are exact in f32 either way).

Usage: check_emulated.py DIR inputs   writes the inputs to DIR/in
       check_emulated.py DIR MODE [SUB]  checks DIR/SUB (default DIR/MODE),
                                          MODE f32, tf32 or half
"""
import os
import sys

import numpy as np


def tf32(x):
    """cvt.rna.tf32.f32: 10 bits of mantissa, ties away from zero."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x1000) & ~np.uint64(0x1FFF)).astype(np.uint32)
    return bits.view(np.float32)


def bf16(x):
    """f32 to bf16 (to nearest even), as f32."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & ~np.uint64(0xFFFF)
    return bits.astype(np.uint32).view(np.float32)


def inputs(d):
    r = np.random.default_rng(7)
    os.makedirs(os.path.join(d, "in"), exist_ok=True)
    shapes = {"a": (130, 70), "b": (70, 90), "bias": (90,),
              "img": (2, 3, 17, 17), "w": (8, 3, 3, 3), "x": (64, 128),
              "wt": (96, 128), "wd": (8, 1, 3, 3), "bd": (8,)}
    for name, shape in shapes.items():
        np.save(os.path.join(d, "in", name + ".npy"),
                r.standard_normal(shape).astype(np.float32))
    np.save(os.path.join(d, "in", "h1.npy"),
            r.standard_normal((200, 300)).astype(np.float16))
    np.save(os.path.join(d, "in", "h2.npy"),
            r.standard_normal((300, 100)).astype(np.float16))


def main():
    d, mode = sys.argv[1], sys.argv[2]
    sub = sys.argv[3] if len(sys.argv) > 3 else mode
    if mode == "inputs":
        return inputs(d)
    load = lambda sub, n: np.load(os.path.join(d, sub, n + ".npy"))
    inp = lambda n: load("in", n).astype(np.float64)
    failed = False

    def check(name, got, want, tol):
        nonlocal failed
        got = got.astype(np.float64)
        err = np.abs(got - want).max() / max(np.abs(want).max(), 1e-30)
        ok = err <= tol
        failed |= not ok
        print("%s %s: relative error %s %s" %
              ("ok" if ok else "FAIL", name, "within" if ok else "above",
               "%g" % tol) + ("" if ok else " (%g)" % err))

    ours = lambda n: load(sub, n)
    rnd = tf32 if mode == "tf32" else (lambda v: v)
    a, b = rnd(inp("a")), rnd(inp("b"))
    q = a @ b + inp("bias")
    check("y", ours("y"), np.maximum(q, 0), 1e-5)
    check("r", ours("r"), q.max(axis=1), 1e-5)
    e = np.exp(q - q.max(axis=1, keepdims=True))
    check("s", ours("s"), e / e.sum(axis=1, keepdims=True), 1e-5)
    centered = q - q.mean(axis=1, keepdims=True)
    norm = centered / np.sqrt((centered ** 2).mean(axis=1, keepdims=True) + 1e-5)
    check("ln", ours("ln"), norm * inp("bias"), 1e-5)
    img = np.pad(rnd(inp("img")), ((0, 0), (0, 0), (1, 1), (1, 1)))
    w = rnd(inp("w"))
    c = sum(np.einsum("oc,ncij->noij", w[:, :, ky, kx],
                      img[:, :, ky:ky + 17, kx:kx + 17])
            for ky in range(3) for kx in range(3))
    check("c", ours("c"), c, 1e-5)
    # f16 products are exact in f32; the output is rounded to f16.
    check("hc", ours("hc"), inp("h1") @ inp("h2"), 2.0 ** -11)
    x, wt = bf16(inp("x")).astype(np.float64), bf16(inp("wt")).astype(np.float64)
    check("g", ours("g"), x @ wt.T, 2.0 ** -8)
    # A depthwise convolution and a max pool of padded images (read where
    # they were copied from, the padding's value outside).
    t = np.pad(np.maximum(ours("c").astype(np.float64), 0),
               ((0, 0), (0, 0), (1, 1), (1, 1)))
    wd = inp("wd")[:, 0]
    dw = sum(wd[None, :, ky, kx, None, None] * t[:, :, ky:ky + 17, kx:kx + 17]
             for ky in range(3) for kx in range(3))
    dr = np.pad(np.maximum(dw + inp("bd")[None, :, None, None], 0),
                ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
    mp = np.max([dr[:, :, ky:ky + 17:2, kx:kx + 17:2]
                 for ky in range(3) for kx in range(3)], axis=0)
    check("mp", ours("mp"), mp, 1e-5)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
