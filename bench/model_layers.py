#!/usr/bin/env python3
"""Per-layer time of one model in ge and in ONNX Runtime, side by side.

    python3 bench/model_layers.py MODEL.onnx INPUT.npy [--threads N] [--rounds R]
            [--op Conv] [--ge build/ge] [--peer build/ge.old]

Each round runs `ge run --profile` (its trace holds the last timed run) and
ONNX Runtime with profiling on (node bench/ort/run.js --profile; the median of its
timed runs per node), alternating which goes first; a row is a node of the
chosen op type in execution order (ge's and ORT's nodes of that type are
matched by position, so both must run them in the same order: true of
sequential CNNs such as resnet18), with the median over rounds in ms. --peer
adds a column for a second ge binary (an older build), run in the same
rounds. The input is NAME=FILE.npy, as both ge and run.js take it (one input).
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ge_layers(ge, model, inp, threads, op, tmp):
    prof = os.path.join(tmp, "ge.json")
    subprocess.run([ge, "run", model, "--input", inp, "--threads", str(threads), "--repeat", "10",
                    "--warmup", "2", "--profile", prof], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    ev = json.load(open(prof))["traceEvents"]
    rows = [(e["name"], e["dur"] / 1000.0) for e in ev if e.get("cat") == op and e.get("ph") == "X"]
    return rows


def ort_layers(model, inp, threads, op, tmp):
    prefix = os.path.join(tmp, "ort")
    for f in glob.glob(prefix + "*.json"):
        os.remove(f)
    subprocess.run(["node", os.path.join(ROOT, "bench", "ort", "run.js"), model, inp, "--threads",
                    str(threads), "--repeat", "15", "--warmup", "3", "--profile", prefix], check=True,
                   stdout=subprocess.DEVNULL)
    ev = json.load(open(glob.glob(prefix + "*.json")[0]))
    per, order = {}, []
    for e in ev:
        if e.get("cat") != "Node" or not e["name"].endswith("_kernel_time"):
            continue
        if e.get("args", {}).get("op_name") != op:
            continue
        if e["name"] not in per:
            per[e["name"]] = []
            order.append(e["name"])
        per[e["name"]].append(e["dur"] / 1000.0)
    # the first runs are the warm-up
    return [(n, statistics.median(per[n][3:] or per[n])) for n in order]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("input", help="NAME=FILE.npy")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--op", default="Conv")
    ap.add_argument("--ge", default=os.path.join(ROOT, "build", "ge"))
    ap.add_argument("--peer", default=None)
    a = ap.parse_args()
    cols = {"ge": [], "ort": [], "peer": []}
    names = None
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.rounds):
            order = ["ort", "ge", "peer"] if r % 2 == 0 else ["peer", "ge", "ort"]
            for who in order:
                if who == "peer" and not a.peer:
                    continue
                if who == "ort":
                    rows = ort_layers(a.model, a.input, a.threads, a.op, tmp)
                else:
                    rows = ge_layers(a.ge if who == "ge" else a.peer, a.model, a.input, a.threads, a.op, tmp)
                    if who == "ge":
                        names = [n for n, _ in rows]
                cols[who].append([t for _, t in rows])
    n = min(len(c[0]) for c in cols.values() if c)
    med = {k: [statistics.median(c[i] for c in v) for i in range(n)] for k, v in cols.items() if v}
    head = f"{'node':48s} {'ge ms':>8s}" + (f" {'peer ms':>8s}" if a.peer else "") + f" {'ORT ms':>8s} {'ORT/ge':>7s}"
    print(f"{a.op} nodes of {os.path.basename(a.model)}, {a.threads} thread(s), median of {a.rounds} rounds")
    print(head)
    for i in range(n):
        line = f"{names[i][-48:]:48s} {med['ge'][i]:8.3f}"
        if a.peer:
            line += f" {med['peer'][i]:8.3f}"
        line += f" {med['ort'][i]:8.3f} {med['ort'][i] / med['ge'][i]:7.2f}"
        print(line)
    tot = {k: sum(v) for k, v in med.items()}
    line = f"{'total':48s} {tot['ge']:8.3f}" + (f" {tot['peer']:8.3f}" if a.peer else "")
    print(line + f" {tot['ort']:8.3f} {tot['ort'] / tot['ge']:7.2f}")


if __name__ == "__main__":
    sys.exit(main())
