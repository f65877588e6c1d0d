#!/usr/bin/env python3
"""node_scaling.py — per-node times of one model at 1 and 2 threads (or of two
ge builds at one thread count), from `ge run --profile` traces, as medians
over rounds that alternate the configurations in one run.

  bench/node_scaling.py MODEL NAME=FILE.npy [--rounds 7] [--repeat 5] [--warmup 3]
                        [--threads 1,2] [--ge build/ge] [--ge2 OTHER/ge] [--top 40]

Each round runs every configuration once (`ge run ... --repeat R --warmup W
--profile`; the trace holds the last run), in an order that alternates from
round to round. The table gives, per node in execution order, the median
duration (us) of each configuration and the ratio of the first to the
others (for 1,2 threads: the 2-thread gain), then the sum over nodes, the
median wall time of the whole call and the gap between the two (time outside
the nodes: executor and hand-offs). Prefix with `chrt -f 10` on a busy machine.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile


def run_once(ge, model, inputs, threads, repeat, warmup, path):
    cmd = [ge, "run", model, "--threads", str(threads), "--repeat", str(repeat), "--warmup", str(warmup),
           "--profile", path]
    for spec in inputs:
        cmd += ["--input", spec]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out.returncode:
        sys.exit("node_scaling: %s failed:\n%s" % (" ".join(cmd), out.stderr[-2000:]))
    med = None
    for tok in (out.stdout + out.stderr).split():
        if tok.startswith("median_ms="):
            med = float(tok.split("=")[1])
    ev = [e for e in json.load(open(path))["traceEvents"] if e.get("ph") == "X"]
    nodes, top = [], 0.0
    for e in ev:
        if e["args"].get("nested") or e["cat"] != "PartitionedCall":
            nodes.append((e["name"], e["cat"], e["dur"]))
        else:
            top += e["dur"]
    return nodes, med


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--ge", default="build/ge")
    ap.add_argument("--ge2", default=None)
    ap.add_argument("--top", type=int, default=0, help="only the N nodes with the largest last-config time")
    a = ap.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    if any(t > 2 for t in threads):
        sys.exit("node_scaling: at most 2 threads on this machine")
    configs = [(a.ge, t) for t in threads]
    if a.ge2:
        configs += [(a.ge2, t) for t in threads]
    names = ["%s%dt" % ("" if g == a.ge else "B:", t) for g, t in configs]
    durs = [dict() for _ in configs]
    walls = [[] for _ in configs]
    order = None
    tmp = tempfile.mkdtemp(prefix="node_scaling")
    for r in range(a.rounds):
        idx = list(range(len(configs)))
        if r % 2:
            idx.reverse()
        for i in idx:
            g, t = configs[i]
            nodes, med = run_once(g, a.model, a.inputs, t, a.repeat, a.warmup, os.path.join(tmp, "p.json"))
            if order is None:
                order = [(n, c) for n, c, _ in nodes]
            for n, c, d in nodes:
                durs[i].setdefault(n, []).append(d)
            walls[i].append(med)
    medians = [{n: statistics.median(v) for n, v in d.items()} for d in durs]
    rows = order
    if a.top:
        rows = sorted(order, key=lambda nc: -medians[-1].get(nc[0], 0))[: a.top]
        rows.sort(key=lambda nc: order.index(nc))
    head = "%-44s %-18s" % ("node", "op") + "".join("%10s" % n for n in names)
    head += "".join("%9s" % ("%s/%s" % (names[0], n)) for n in names[1:])
    print(head)
    for n, c in rows:
        vals = [m.get(n, float("nan")) for m in medians]
        line = "%-44s %-18s" % (n[-44:], c[:18]) + "".join("%10.1f" % v for v in vals)
        line += "".join("%9.2f" % (vals[0] / v if v else 0) for v in vals[1:])
        print(line)
    sums = [sum(m.get(n, 0) for n, _ in order) for m in medians]
    wall = [statistics.median(w) * 1000 for w in walls]
    print("%-63s" % "sum of node medians (us)" + "".join("%10.1f" % s for s in sums)
          + "".join("%9.2f" % (sums[0] / s) for s in sums[1:]))
    print("%-63s" % "median run (us, ge's median_ms)" + "".join("%10.1f" % w for w in wall)
          + "".join("%9.2f" % (wall[0] / w) for w in wall[1:]))
    print("%-63s" % "run - node sum (us)" + "".join("%10.1f" % (w - s) for w, s in zip(wall, sums)))
    # per op type
    ops = {}
    for n, c in order:
        ops.setdefault(c, []).append(n)
    print()
    print("%-20s %5s" % ("op", "count") + "".join("%10s" % n for n in names))
    for c, ns in ops.items():
        print("%-20s %5d" % (c[:20], len(ns)) + "".join("%10.1f" % sum(m.get(n, 0) for n in ns) for m in medians))


if __name__ == "__main__":
    main()
