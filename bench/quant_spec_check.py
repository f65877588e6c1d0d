#!/usr/bin/env python3
"""Checks a dynamically quantized model's integer steps against the ONNX spec.

  python3 bench/quant_spec_check.py expose MODEL.onnx OUT.onnx
      writes OUT.onnx: MODEL with every DynamicQuantizeLinear input and output
      and every ConvInteger / MatMulInteger output as a graph output (uint8
      ones through a Cast to int32, which bench/ort/run.js can write)
  python3 bench/quant_spec_check.py check MODEL.onnx DIR...
      DIR: the outputs of OUT.onnx as .npy (`ge run OUT.onnx --outdir DIR`,
      `node bench/ort/run.js OUT.onnx ... --outdir DIR`). For each DIR, each
      DynamicQuantizeLinear and integer product is recomputed from that
      engine's own inputs with numpy as the spec says (scale (max - min) / 255
      in float32, round half to even, int64 products) and the nodes off the
      spec are counted, so drift in the float ops between quantized layers
      does not count against the integer steps.
Needs python3 with numpy and onnx.
"""
import re
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def expose(src, dst):
    m = onnx.load(src)
    g = m.graph
    outs, seen = [], set(o.name for o in g.output)
    for n in list(g.node):
        if n.op_type == 'DynamicQuantizeLinear':
            outs.append((n.input[0], TensorProto.FLOAT))
            for i, nm in enumerate(n.output):
                if i == 1:
                    outs.append((nm, TensorProto.FLOAT))
                else:
                    g.node.append(helper.make_node('Cast', [nm], [nm + '_i32'], to=TensorProto.INT32))
                    outs.append((nm + '_i32', TensorProto.INT32))
        if n.op_type in ('ConvInteger', 'MatMulInteger'):
            outs.append((n.output[0], TensorProto.INT32))
    for nm, t in outs:
        if nm not in seen:
            seen.add(nm)
            g.output.append(helper.make_tensor_value_info(nm, t, None))
    onnx.save(m, dst)


def dql(x):
    x = x.astype(np.float32)
    mn, mx = np.float32(min(0.0, x.min())), np.float32(max(0.0, x.max()))
    s = np.float32((mx - mn) / np.float32(255))
    if not s > 0:
        return np.zeros(x.shape, np.int64), s, 0
    zp = np.clip(np.rint(np.float32(0) - mn / s), 0, 255)
    return np.clip(np.rint(x / s) + zp, 0, 255).astype(np.int64), s, int(zp)


def conv(x, w, zx, zw, a):
    one_d = x.ndim == 3
    if one_d:
        x, w = x[:, :, None, :], w[:, :, None, :]
    sp = lambda k, d: ([1] + list(a[k]) if one_d else list(a[k])) if k in a else d
    g, s, dl = a.get('group', 1), sp('strides', [1, 1]), sp('dilations', [1, 1])
    p = a.get('pads', [0] * (2 if one_d else 4))
    p = [0, p[0], 0, p[1]] if one_d else p
    x = x.astype(np.int64) - zx
    w = w.astype(np.int64) - (zw.reshape(-1, 1, 1, 1) if np.ndim(zw) else zw)
    N, C, H, W = x.shape
    M, Cg, KH, KW = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])))
    OH = (H + p[0] + p[2] - (KH - 1) * dl[0] - 1) // s[0] + 1
    OW = (W + p[1] + p[3] - (KW - 1) * dl[1] - 1) // s[1] + 1
    y, Mg = np.zeros((N, M, OH, OW), np.int64), M // g
    for gi in range(g):
        xs = xp[:, gi * Cg:(gi + 1) * Cg]
        for kh in range(KH):
            for kw in range(KW):
                t = xs[:, :, kh * dl[0]:kh * dl[0] + (OH - 1) * s[0] + 1:s[0], kw * dl[1]:kw * dl[1] + (OW - 1) * s[1] + 1:s[1]]
                y[:, gi * Mg:(gi + 1) * Mg] += np.einsum('nchw,mc->nmhw', t, w[gi * Mg:(gi + 1) * Mg, :, kh, kw])
    return y[:, :, 0, :] if one_d else y


def check(model, dirs):
    m = onnx.load(model)
    const = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    for n in m.graph.node:
        if n.op_type == 'Constant':
            const[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
    q_outs = set(o for n in m.graph.node if n.op_type == 'DynamicQuantizeLinear' for i, o in enumerate(n.output) if i != 1)
    for d in dirs:
        def load(nm):
            if nm in const:
                return const[nm]
            nm = nm + '_i32' if nm in q_outs else nm
            return np.load(f"{d}/{re.sub(r'[^A-Za-z0-9._-]', '_', nm)}.npy")
        bad_q = bad_i = nq = ni = 0
        for n in m.graph.node:
            if n.op_type == 'DynamicQuantizeLinear':
                nq += 1
                y, s, zp = dql(load(n.input[0]))
                if (load(n.output[0]) != y).any() or load(n.output[1]) != s or load(n.output[2]) != zp:
                    bad_q += 1
                    print(f'{d}: {n.name}: DynamicQuantizeLinear off the spec (scale {load(n.output[1])} vs {s})')
            if n.op_type in ('ConvInteger', 'MatMulInteger'):
                ni += 1
                x, w = load(n.input[0]), load(n.input[1])
                zx = int(load(n.input[2])) if len(n.input) > 2 and n.input[2] else 0
                zw = load(n.input[3]).astype(np.int64) if len(n.input) > 3 and n.input[3] else np.int64(0)
                if n.op_type == 'MatMulInteger':
                    ref = (x.astype(np.int64) - zx) @ (w.astype(np.int64) - zw)
                else:
                    ref = conv(x, w, zx, zw, {a.name: (list(a.ints) if a.ints else a.i) for a in n.attribute})
                if (load(n.output[0]) != ref).any():
                    bad_i += 1
                    print(f'{d}: {n.name}: {n.op_type} off the spec')
        print(f'{d}: {bad_q} of {nq} DynamicQuantizeLinear and {bad_i} of {ni} integer products off the spec')


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == 'expose':
        expose(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 4 and sys.argv[1] == 'check':
        check(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
