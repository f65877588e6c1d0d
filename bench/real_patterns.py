#!/usr/bin/python3
"""Blocks of the model families bench/real_models.sh has no package for, built
with random weights (seeded), for the manifest's synth:NAME paths.

    /usr/bin/python3 bench/real_patterns.py NAME OUT.onnx

  yolo_head     YOLOv8-style: SiLU convs, SPPF (MaxPool 5x5 three times),
                nearest Resize by scales, Split, DFL Softmax over 16 bins,
                box decode by broadcasting (opset 13)
  face_embed    ArcFace/MobileFaceNet tail: Conv+BN+PRelu (per-channel
                slope [C,1,1]), depthwise Conv, Flatten, Gemm, BatchNorm on
                rank 2, L2 normalisation (opset 13)
  asr_encoder   Whisper-style encoder layer: Conv1d+Gelu(Erf) front end,
                LayerNormalization, 4-D attention with a Where mask built
                from Range/Less, Softmax, Trilu, Gather of positions (opset 17)
  seg_rsu       U2-Net/IS-Net RSU block: dilated convs, MaxPool ceil_mode=1,
                bilinear Resize to the skip's Shape, InstanceNormalization,
                Sigmoid (opset 13)
  yolov5_io     YOLOv5 export quirks: Focus (Slice with step 2 on H and W),
                Pow, detect head updating boxes in place with ScatterND,
                Expand of the grid (opset 13)
  det_post      SSD/UltraFace post-processing: Softmax scores, box decode
                with Exp, TopK, NonMaxSuppression, Gather/GatherND of the
                kept boxes (data-dependent output shapes, opset 13)
  asr_greedy    greedy decoding in a Loop: the token sequence grows by one
                each iteration (Concat of a loop-carried int64 tensor),
                Gather embedding, attention over encoder states, ArgMax,
                early stop on an end token (opset 13)

Needs python3-onnx and python3-numpy.
"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

RNG = np.random.default_rng(7)


class G:
    def __init__(self):
        self.nodes, self.inits, self.k = [], [], 0

    def w(self, *shape, scale=None):
        self.k += 1
        fan = int(np.prod(shape[1:])) if len(shape) > 1 else 1
        a = RNG.standard_normal(shape).astype(np.float32) * np.float32(scale or (1.0 / np.sqrt(fan)))
        name = "w%d" % self.k
        self.inits.append(numpy_helper.from_array(a, name))
        return name

    def c(self, value, dtype=np.int64):
        self.k += 1
        name = "c%d" % self.k
        self.inits.append(numpy_helper.from_array(np.array(value, dtype=dtype), name))
        return name

    def op(self, op, inputs, n_out=1, **attrs):
        self.k += 1
        outs = ["t%d_%d" % (self.k, i) for i in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, name="%s_%d" % (op, self.k), **attrs))
        return outs[0] if n_out == 1 else outs

    def conv(self, x, cin, cout, k=3, stride=1, group=1, dil=1, bias=True):
        pad = dil * (k - 1) // 2
        ins = [x, self.w(cout, cin // group, k, k)] + ([self.w(cout, scale=0.1)] if bias else [])
        return self.op("Conv", ins, kernel_shape=[k, k], strides=[stride, stride], pads=[pad] * 4,
                       group=group, dilations=[dil, dil])

    def bn(self, x, ch):
        return self.op("BatchNormalization", [x, self.w(ch, scale=0.2), self.w(ch, scale=0.1),
                                              self.w(ch, scale=0.1), self.c(RNG.uniform(0.5, 1.5, ch), np.float32)])

    def silu(self, x):
        return self.op("Mul", [x, self.op("Sigmoid", [x])])

    def model(self, inputs, outputs, opset):
        g = helper.make_graph(self.nodes, "pattern", inputs, outputs, self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="real_patterns")
        m.ir_version = 8
        return m


def vi(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


def yolo_head():
    g = G()
    x = g.silu(g.conv("images", 3, 16, stride=2))
    x = g.silu(g.conv(x, 16, 32, stride=2))
    a, b = g.op("Split", [x, g.c([16, 16])], 2, axis=1)
    b = g.silu(g.conv(b, 16, 16))
    x = g.silu(g.conv(g.op("Concat", [a, b], axis=1), 32, 32, k=1))
    p1 = g.op("MaxPool", [x], kernel_shape=[5, 5], pads=[2, 2, 2, 2], strides=[1, 1])
    p2 = g.op("MaxPool", [p1], kernel_shape=[5, 5], pads=[2, 2, 2, 2], strides=[1, 1])
    p3 = g.op("MaxPool", [p2], kernel_shape=[5, 5], pads=[2, 2, 2, 2], strides=[1, 1])
    x = g.silu(g.conv(g.op("Concat", [x, p1, p2, p3], axis=1), 128, 32, k=1))
    small = g.silu(g.conv(x, 32, 32, stride=2))
    up = g.op("Resize", [small, "", g.c([1, 1, 2, 2], np.float32)], mode="nearest",
              coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    x = g.op("Concat", [x, up], axis=1)
    box = g.conv(g.silu(g.conv(x, 64, 32)), 32, 64, k=1)            # 4 sides x 16 bins
    cls = g.op("Sigmoid", [g.conv(g.silu(g.conv(x, 64, 32)), 32, 8, k=1)])
    n = g.op("Reshape", [box, g.c([1, 4, 16, -1])])
    dist = g.op("Softmax", [g.op("Transpose", [n], perm=[0, 2, 1, 3])], axis=1)
    bins = g.c(np.arange(16, dtype=np.float32).reshape(1, 16, 1, 1), np.float32)
    ltrb = g.op("ReduceSum", [g.op("Mul", [dist, bins]), g.c([1])], keepdims=0)   # [1, 4, A]
    lt, rb = g.op("Split", [ltrb, g.c([2, 2])], 2, axis=1)
    anchors = g.c(RNG.uniform(0, 40, (1, 2, 400)).astype(np.float32), np.float32)
    xy = g.op("Div", [g.op("Add", [g.op("Sub", [anchors, lt]), g.op("Add", [anchors, rb])]), g.c(2.0, np.float32)])
    wh = g.op("Sub", [g.op("Add", [anchors, rb]), g.op("Sub", [anchors, lt])])
    boxes = g.op("Mul", [g.op("Concat", [xy, wh], axis=1), g.c(4.0, np.float32)])
    scores = g.op("Reshape", [cls, g.c([1, 8, -1])])
    g.nodes.append(helper.make_node("Concat", [boxes, scores], ["out"], axis=1))
    return g.model([vi("images", TensorProto.FLOAT, [1, 3, 80, 80])],
                   [vi("out", TensorProto.FLOAT, None)], 13)


def face_embed():
    g = G()

    def cbp(x, cin, cout, k=3, s=1, group=1):
        y = g.bn(g.conv(x, cin, cout, k, s, group, bias=False), cout)
        return g.op("PRelu", [y, g.c(RNG.uniform(0, 0.5, (cout, 1, 1)), np.float32)])

    x = cbp("face", 3, 32, s=2)
    x = cbp(x, 32, 32, group=32)
    y = cbp(cbp(x, 32, 64, k=1), 64, 64, s=2, group=64)
    y = g.bn(g.conv(y, 64, 32, k=1, bias=False), 32)
    x = g.op("Add", [y, g.conv(x, 32, 32, k=1, stride=2)])
    x = g.bn(g.conv(x, 32, 32, k=7, group=32, bias=False), 32)     # global depthwise "GDC"
    x = g.op("Flatten", [x], axis=1)
    x = g.op("Gemm", [x, g.w(128, 32 * 14 * 14), g.w(128, scale=0.1)], transB=1)
    x = g.bn(x, 128)                                                   # BatchNorm1d on [N, C]
    norm = g.op("Sqrt", [g.op("ReduceSum", [g.op("Mul", [x, x]), g.c([1])], keepdims=1)])
    g.nodes.append(helper.make_node("Div", [x, norm], ["embedding"]))
    return g.model([vi("face", TensorProto.FLOAT, [2, 3, 56, 56])],
                   [vi("embedding", TensorProto.FLOAT, None)], 13)


def asr_encoder():
    g = G()
    d, heads, t = 64, 4, 50
    x = g.op("Conv", ["mel", g.w(d, 20, 3), g.w(d, scale=0.1)], kernel_shape=[3], pads=[1, 1])
    x = g.op("Mul", [g.op("Mul", [x, g.c(0.5, np.float32)]),
                     g.op("Add", [g.op("Erf", [g.op("Div", [x, g.c(np.sqrt(2.0), np.float32)])]),
                                  g.c(1.0, np.float32)])])
    x = g.op("Transpose", [x], perm=[0, 2, 1])                              # [1, T, D]
    pos = g.op("Gather", [g.w(100, d, scale=0.5), g.op("Range", [g.c(0), g.c(t), g.c(1)])])
    x = g.op("Add", [x, pos])
    h = g.op("LayerNormalization", [x, g.w(d, scale=1.0), g.w(d, scale=0.1)], axis=-1, epsilon=1e-5)

    def proj(v):
        y = g.op("Add", [g.op("MatMul", [v, g.w(d, d)]), g.w(d, scale=0.1)])
        return g.op("Transpose", [g.op("Reshape", [y, g.c([1, t, heads, d // heads])])], perm=[0, 2, 1, 3])

    q, k, v = proj(h), proj(h), proj(h)
    s = g.op("Div", [g.op("MatMul", [q, g.op("Transpose", [k], perm=[0, 1, 3, 2])]),
                     g.c(np.sqrt(d / heads), np.float32)])
    r = g.op("Range", [g.c(0), g.c(t), g.c(1)])
    causal = g.op("Less", [g.op("Unsqueeze", [r, g.c([0])]), g.op("Unsqueeze", [r, g.c([1])])])
    band = g.op("Cast", [g.op("Trilu", [g.op("ConstantOfShape", [g.c([t, t])],
                                             value=numpy_helper.from_array(np.array([1], np.int64))),
                                        g.c(8)], upper=0)], to=TensorProto.BOOL)
    keep = g.op("Or", [causal, g.op("Not", [band])])
    s = g.op("Where", [keep, g.c(-1e9, np.float32), s])
    a = g.op("MatMul", [g.op("Softmax", [s], axis=-1), v])
    a = g.op("Reshape", [g.op("Transpose", [a], perm=[0, 2, 1, 3]), g.c([1, t, d])])
    x = g.op("Add", [x, g.op("MatMul", [a, g.w(d, d)])])
    h = g.op("LayerNormalization", [x, g.w(d, scale=1.0), g.w(d, scale=0.1)], axis=-1, epsilon=1e-5)
    f = g.op("MatMul", [h, g.w(d, 4 * d)])
    f = g.op("Mul", [f, g.op("Sigmoid", [g.op("Mul", [f, g.c(1.702, np.float32)])])])     # quick GELU
    g.nodes.append(helper.make_node("Add", [x, g.op("MatMul", [f, g.w(4 * d, d)])], ["hidden"]))
    return g.model([vi("mel", TensorProto.FLOAT, [1, 20, t])], [vi("hidden", TensorProto.FLOAT, None)], 17)


def seg_rsu():
    g = G()

    def cbr(x, cin, cout, dil=1):
        return g.op("Relu", [g.bn(g.conv(x, cin, cout, dil=dil), cout)])

    x0 = cbr("img", 3, 16)
    e1 = cbr(x0, 16, 8)
    e2 = cbr(g.op("MaxPool", [e1], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1), 8, 8)
    e3 = cbr(g.op("MaxPool", [e2], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1), 8, 8)
    e4 = cbr(e3, 8, 8, dil=2)
    d3 = cbr(g.op("Concat", [e4, e3], axis=1), 16, 8)

    def up_to(x, like):
        size = g.op("Slice", [g.op("Shape", [like]), g.c([2]), g.c([4])])
        full = g.op("Concat", [g.c([1, 8]), size], axis=0)
        return g.op("Resize", [x, "", "", full], mode="linear", coordinate_transformation_mode="half_pixel")

    d2 = cbr(g.op("Concat", [up_to(d3, e2), e2], axis=1), 16, 8)
    d1 = cbr(g.op("Concat", [up_to(d2, e1), e1], axis=1), 16, 16)
    y = g.op("Add", [d1, x0])
    y = g.op("InstanceNormalization", [y, g.w(16, scale=1.0), g.w(16, scale=0.1)], epsilon=1e-5)
    align = g.op("Resize", [y, "", g.c([1, 1, 0.5, 0.5], np.float32)], mode="linear",
                 coordinate_transformation_mode="align_corners")
    g.nodes.append(helper.make_node("Sigmoid", [g.conv(align, 16, 1, k=1)], ["mask"]))
    return g.model([vi("img", TensorProto.FLOAT, [1, 3, 75, 99])], [vi("mask", TensorProto.FLOAT, None)], 13)


def yolov5_io():
    g = G()
    sl = [g.op("Slice", ["images", g.c([h, w]), g.c([2 ** 62, 2 ** 62]), g.c([2, 3]), g.c([2, 2])])
          for h, w in ((0, 0), (1, 0), (0, 1), (1, 1))]
    x = g.silu(g.conv(g.op("Concat", sl, axis=1), 12, 16))
    y = g.op("Sigmoid", [g.conv(x, 16, 3 * 7, k=1)])                              # 3 anchors x (xywh, obj, 2 cls)
    y = g.op("Transpose", [g.op("Reshape", [y, g.c([1, 3, 7, 16, 16])])], perm=[0, 1, 3, 4, 2])
    gy, gx = np.meshgrid(np.arange(16), np.arange(16), indexing="ij")
    grid = g.op("Expand", [g.c(np.stack([gx, gy], -1)[None, None].astype(np.float32), np.float32),
                           g.c([1, 3, 16, 16, 2])])
    xy = g.op("Mul", [g.op("Add", [g.op("Sub", [g.op("Mul", [g.op("Slice", [y, g.c([0]), g.c([2]), g.c([4])]),
                                                               g.c(2.0, np.float32)]), g.c(0.5, np.float32)]), grid]),
                      g.c(8.0, np.float32)])
    wh = g.op("Mul", [g.op("Pow", [g.op("Mul", [g.op("Slice", [y, g.c([2]), g.c([4]), g.c([4])]), g.c(2.0, np.float32)]),
                                   g.c(2.0, np.float32)]),
                      g.c(RNG.uniform(10, 60, (1, 3, 1, 1, 2)).astype(np.float32), np.float32)])
    idx = np.zeros((1, 3, 16, 16, 4, 5), np.int64)
    for k, v in np.ndenumerate(idx[..., 0, 0]):
        for c in range(4):
            idx[k + (c,)] = k + (c,)
    y = g.op("ScatterND", [y, g.c(idx), g.op("Concat", [xy, wh], axis=4)])
    g.nodes.append(helper.make_node("Reshape", [y, g.c([1, -1, 7])], ["pred"]))
    return g.model([vi("images", TensorProto.FLOAT, [1, 3, 32, 32])], [vi("pred", TensorProto.FLOAT, None)], 13)


def det_post():
    g = G()
    n_anchor, n_cls = 300, 4
    logits = g.op("Reshape", [g.op("MatMul", ["feat", g.w(32, n_cls)]), g.c([1, n_anchor, n_cls])])
    scores = g.op("Softmax", [logits], axis=-1)
    reg = g.op("MatMul", ["feat", g.w(32, 4, scale=0.1)])                       # [1, A, 4]
    priors = g.c(np.concatenate([RNG.uniform(0.1, 0.9, (n_anchor, 2)), RNG.uniform(0.05, 0.3, (n_anchor, 2))],
                                axis=1).astype(np.float32)[None], np.float32)
    pxy, pwh = g.op("Split", [priors, g.c([2, 2])], 2, axis=2)
    dxy, dwh = g.op("Split", [reg, g.c([2, 2])], 2, axis=2)
    cxy = g.op("Add", [pxy, g.op("Mul", [g.op("Mul", [dxy, g.c(0.1, np.float32)]), pwh])])
    wh = g.op("Mul", [pwh, g.op("Exp", [g.op("Mul", [dwh, g.c(0.2, np.float32)])])])
    half = g.op("Div", [wh, g.c(2.0, np.float32)])
    boxes = g.op("Concat", [g.op("Sub", [cxy, half]), g.op("Add", [cxy, half])], axis=2)   # [1, A, 4]
    cls_scores = g.op("Transpose", [scores], perm=[0, 2, 1])                             # [1, C, A]
    sel = g.op("NonMaxSuppression", [boxes, cls_scores, g.c([20]), g.c([0.45], np.float32),
                                     g.c([0.3], np.float32)])                           # [K, 3]
    kept = g.op("GatherND", [cls_scores, sel], batch_dims=0)                              # [K]
    top = min(10, n_anchor)
    best, idx = g.op("TopK", [g.op("ReduceMax", [cls_scores], axes=[1], keepdims=0), g.c([top])], 2, axis=1)
    g.nodes.append(helper.make_node("Gather", [boxes, g.op("Squeeze", [idx, g.c([0])])], ["top_boxes"], axis=1))
    g.nodes.append(helper.make_node("Identity", [sel], ["selected"]))
    g.nodes.append(helper.make_node("Identity", [kept], ["kept_scores"]))
    g.nodes.append(helper.make_node("Identity", [best], ["top_scores"]))
    return g.model([vi("feat", TensorProto.FLOAT, [1, n_anchor * n_cls // n_cls, 32])],
                   [vi("selected", TensorProto.INT64, None), vi("kept_scores", TensorProto.FLOAT, None),
                    vi("top_boxes", TensorProto.FLOAT, None), vi("top_scores", TensorProto.FLOAT, None)], 13)


def asr_greedy():
    g = G()
    d, vocab, steps, end = 32, 40, 12, 5
    emb = g.w(vocab, d, scale=1.0)
    wq, wo = g.w(d, d), g.w(d, vocab, scale=0.5)
    body = G()
    body.k = 1000
    tok = body.op("Gather", [emb, body.op("Slice", ["seq_in", body.c([-1]), body.c([2 ** 62]), body.c([0])])])  # [1, d]
    q = body.op("MatMul", [tok, wq])
    att = body.op("Softmax", [body.op("MatMul", [q, body.op("Transpose", ["enc"], perm=[1, 0])])], axis=-1)
    ctx = body.op("Add", [body.op("MatMul", [att, "enc"]), tok])
    nxt = body.op("ArgMax", [body.op("MatMul", [ctx, wo])], axis=-1, keepdims=0)         # [1]
    body.nodes.append(helper.make_node("Concat", ["seq_in", nxt], ["seq_out"], axis=0))
    body.nodes.append(helper.make_node("Not", [body.op("Equal", [nxt, body.c([end])])], ["cond_vec"]))
    body.nodes.append(helper.make_node("Squeeze", ["cond_vec", body.c([0])], ["cond_out"]))
    body_graph = helper.make_graph(
        body.nodes, "step",
        [vi("i", TensorProto.INT64, []), vi("cond_in", TensorProto.BOOL, []), vi("seq_in", TensorProto.INT64, None)],
        [vi("cond_out", TensorProto.BOOL, []), vi("seq_out", TensorProto.INT64, None)], body.inits)
    enc = g.op("MatMul", ["frames", g.w(20, d)])
    g.nodes.append(helper.make_node("Identity", [enc], ["enc"]))
    g.nodes.append(helper.make_node("Loop", [g.c(steps), g.c(True, np.bool_), g.c([1])], ["tokens"], body=body_graph))
    return g.model([vi("frames", TensorProto.FLOAT, [30, 20])], [vi("tokens", TensorProto.INT64, None)], 13)


PATTERNS = {"yolo_head": yolo_head, "face_embed": face_embed, "asr_encoder": asr_encoder, "seg_rsu": seg_rsu,
            "yolov5_io": yolov5_io, "det_post": det_post, "asr_greedy": asr_greedy}


def build(name, out):
    if name not in PATTERNS:
        sys.exit("real_patterns.py: no pattern %s (%s)" % (name, ", ".join(PATTERNS)))
    save(PATTERNS[name](), out)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    build(sys.argv[1], sys.argv[2])
