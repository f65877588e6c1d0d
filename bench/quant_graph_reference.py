#!/usr/bin/env python3
"""A dequantize-compute-quantize reference of a dynamically quantized graph,
op by op in numpy, to tell whose rounding a difference between ge and ONNX
Runtime comes from (isnet_quint8: both are as close to it).

    quant_graph_reference.py run MODEL.onnx INPUT.npy OUTDIR f64|f32
        every float op (and DynamicQuantizeLinear's scale, zero point and
        x / scale) in float64, or in float32 as the ONNX spec on float32
        tensors; ConvInteger exact; writes OUTDIR/<output>.npy
    quant_graph_reference.py compare REFDIR DIR...
        per output: max |dir - ref| / max |ref| and the mean absolute error

Covers the ops of isnet_quint8 (Reshape, DynamicQuantizeLinear,
ConvInteger with group 1, Cast, Mul, Add, Relu, Concat, MaxPool, linear
half_pixel Resize, Sigmoid) and stops naming any other. Needs numpy and
onnx (Debian python3-numpy python3-onnx). Slow (minutes on a 1024² input).
"""
import os
import sys

import numpy as np


def compare(ref, others):
    for f in sorted(os.listdir(ref)):
        r = np.load(os.path.join(ref, f)).astype(np.float64)
        row = [f[:-4]]
        for o in others:
            d = np.abs(np.load(os.path.join(o, f)).astype(np.float64) - r)
            row.append("max %.4f mean %.2e" % (d.max() / np.abs(r).max(), d.mean()))
        print("  ".join(row))


if len(sys.argv) > 2 and sys.argv[1] == "compare":
    compare(sys.argv[2], sys.argv[3:])
    sys.exit(0)
if len(sys.argv) != 6 or sys.argv[1] != "run" or sys.argv[5] not in ("f64", "f32"):
    sys.exit(__doc__)
import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402
M, IN, OUT, MODE = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
F = np.float64 if MODE == "f64" else np.float32
m = onnx.load(M); g = m.graph
env = {i.name: numpy_helper.to_array(i) for i in g.initializer}
x = np.load(IN); env[g.input[0].name] = x.astype(F)
def attrs(n): return {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}
def rint(v): return np.rint(v)  # half to even
def dql(x):
    x = x.astype(F)
    mn, mx = min(F(0), x.min()), max(F(0), x.max())
    s = F((mx - mn) / F(255))
    zp = np.clip(rint(F(0) - mn / s), 0, 255) if s != 0 else F(0)
    q = np.clip(rint(x / s) + zp, 0, 255) if s != 0 else np.zeros_like(x) + zp
    return q.astype(np.uint8), np.array(s, F), np.array(zp, np.uint8)
def conv_int(x, w, zx, zw, a):
    """(x - zx) conv (w - zw) exact: integer sums under 2^53 in float64."""
    x = x.astype(np.float64) - float(zx)
    zw = np.zeros(1) if zw is None else np.asarray(zw, np.float64).reshape(-1)
    w = w.astype(np.float64) - zw.reshape(-1, 1, 1, 1)
    s = a.get("strides", [1, 1]); d = a.get("dilations", [1, 1]); p = a.get("pads", [0, 0, 0, 0]); gr = a.get("group", 1)
    assert gr == 1
    N, C, H, W = x.shape; Mo, _, KH, KW = w.shape
    xp = np.zeros((N, C, H + p[0] + p[2], W + p[1] + p[3])); xp[:, :, p[0]:p[0] + H, p[1]:p[1] + W] = x
    OH = (H + p[0] + p[2] - (KH - 1) * d[0] - 1) // s[0] + 1; OW = (W + p[1] + p[3] - (KW - 1) * d[1] - 1) // s[1] + 1
    y = np.zeros((N, Mo, OH * OW))
    for kh in range(KH):
        for kw in range(KW):
            xs = xp[:, :, kh * d[0]: kh * d[0] + (OH - 1) * s[0] + 1: s[0], kw * d[1]: kw * d[1] + (OW - 1) * s[1] + 1: s[1]]
            y += np.einsum("mc,ncp->nmp", w[:, :, kh, kw], xs.reshape(N, C, -1), optimize=True)
    return y.reshape(N, Mo, OH, OW).astype(np.int64).astype(np.int32)
def maxpool(x, a):
    k = a["kernel_shape"]; s = a["strides"]; N, C, H, W = x.shape
    OH = -(-(H - k[0]) // s[0]) + 1 if a.get("ceil_mode", 0) else (H - k[0]) // s[0] + 1
    OW = -(-(W - k[1]) // s[1]) + 1 if a.get("ceil_mode", 0) else (W - k[1]) // s[1] + 1
    xp = np.full((N, C, (OH - 1) * s[0] + k[0], (OW - 1) * s[1] + k[1]), -np.inf, x.dtype)
    xp[:, :, :H, :W] = x
    y = np.full((N, C, OH, OW), -np.inf, x.dtype)
    for i in range(k[0]):
        for j in range(k[1]):
            y = np.maximum(y, xp[:, :, i: i + (OH - 1) * s[0] + 1: s[0], j: j + (OW - 1) * s[1] + 1: s[1]])
    return y
def resize(x, scales, sizes):
    N, C, H, W = x.shape
    if sizes is not None and len(sizes): OH, OW = int(sizes[2]), int(sizes[3]); sh, sw = F(OH) / F(H), F(OW) / F(W)
    else: sh, sw = F(scales[2]), F(scales[3]); OH, OW = int(np.floor(H * sh)), int(np.floor(W * sw))
    def axis(n_out, n_in, sc):
        o = (np.arange(n_out, dtype=F) + F(0.5)) / sc - F(0.5)
        o = np.clip(o, 0, n_in - 1); i0 = np.floor(o).astype(np.int64); i1 = np.minimum(i0 + 1, n_in - 1)
        return i0, i1, (o - i0).astype(F)
    h0, h1, fh = axis(OH, H, sh); w0, w1, fw = axis(OW, W, sw)
    top = x[:, :, h0, :] * (1 - fh)[:, None] + x[:, :, h1, :] * fh[:, None]
    return (top[:, :, :, w0] * (1 - fw) + top[:, :, :, w1] * fw).astype(F)
for n in g.node:
    I = [env[i] if i else None for i in n.input]; a = attrs(n); t = n.op_type
    if t == "Reshape": o = [I[0].reshape([int(v) if v != 0 else I[0].shape[k] for k, v in enumerate(I[1])])]
    elif t == "DynamicQuantizeLinear": o = list(dql(I[0]))
    elif t == "ConvInteger": o = [conv_int(I[0], I[1], I[2] if len(I) > 2 else 0, I[3] if len(I) > 3 else None, a)]
    elif t == "Cast": o = [I[0].astype(F)]
    elif t == "Mul": o = [(I[0].astype(F) * I[1].astype(F)).astype(F)]
    elif t == "Add": o = [(I[0].astype(F) + I[1].astype(F)).astype(F)]
    elif t == "Relu": o = [np.maximum(I[0], F(0))]
    elif t == "Concat": o = [np.concatenate(I, axis=a["axis"])]
    elif t == "MaxPool": o = [maxpool(I[0], a)]
    elif t == "Resize": o = [resize(I[0], I[2] if len(I) > 2 else None, I[3] if len(I) > 3 else None)]
    elif t == "Sigmoid": o = [(1 / (1 + np.exp(-I[0].astype(np.float64)))).astype(F)]
    else: raise SystemExit("op " + t)
    for name, v in zip(n.output, o): env[name] = v
os.makedirs(OUT, exist_ok=True)
for o in g.output: np.save(os.path.join(OUT, o.name + ".npy"), env[o.name].astype(np.float32))
print("done")
