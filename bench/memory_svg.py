#!/usr/bin/env python3
"""Draws a memory plan as offset over time: one rectangle per planned tensor
of the model block (x: steps first_use..last_use, y: offset..offset+size),
coloured by stream, with the lower bound as a dashed line.

    build/ge inspect MODEL --json [--option ...] > plan.json
    python3 bench/memory_svg.py plan.json out.svg [title]
"""
import json
import sys

W, H, PAD = 900, 420, 50
COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7"]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    doc = json.load(open(sys.argv[1]))
    title = sys.argv[3] if len(sys.argv) > 3 else doc.get("graph", "")
    mem = doc["memory"]
    if not mem.get("planned"):
        sys.exit("no memory plan: " + mem.get("reason", ""))
    block = [t for t in mem["tensors"] if t["segment"] in ("feature_map", "fixed", "output", "workspace")]
    steps = max([t["last_use"] for t in block] + [1]) + 1
    top = max([t["offset"] + t["size"] for t in block] + [mem["block_size"], 1])
    sx, sy = (W - 2 * PAD) / steps, (H - 2 * PAD) / top
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{PAD}" y="20">{title}: feature map {mem["feature_map"]:,} B, lower bound {mem["lower_bound"]:,} B, '
           f'no reuse {mem["no_reuse"]:,} B ({mem["strategy"]})</text>']
    for t in block:
        if t["alias_of"] >= 0 or t["size"] == 0:
            continue  # drawn with the tensor owning its bytes
        x, w = PAD + t["first_use"] * sx, max((t["last_use"] - t["first_use"] + 1) * sx, 1)
        y, h = H - PAD - (t["offset"] + t["size"]) * sy, max(t["size"] * sy, 0.5)
        c = COLOURS[max(t["stream"], 0) % len(COLOURS)]
        out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{c}" fill-opacity="0.75" '
                   f'stroke="black" stroke-width="0.3"><title>{t["name"]}: {t["size"]} B at {t["offset"]}, '
                   f'steps {t["first_use"]}..{t["last_use"]}, stream {t["stream"]}</title></rect>')
    lb = H - PAD - mem["lower_bound"] * sy
    out.append(f'<line x1="{PAD}" x2="{W - PAD}" y1="{lb:.1f}" y2="{lb:.1f}" stroke="red" stroke-dasharray="6,4"/>')
    out.append(f'<text x="{W - PAD - 90}" y="{lb - 4:.1f}" fill="red">lower bound</text>')
    out.append(f'<line x1="{PAD}" x2="{W - PAD}" y1="{H - PAD}" y2="{H - PAD}" stroke="black"/>')
    out.append(f'<line x1="{PAD}" x2="{PAD}" y1="{PAD}" y2="{H - PAD}" stroke="black"/>')
    out.append(f'<text x="{W / 2 - 60:.0f}" y="{H - 15}">step (execution order)</text>')
    out.append(f'<text x="12" y="{H / 2:.0f}" transform="rotate(-90 12 {H / 2:.0f})">offset (bytes)</text>')
    out.append("</svg>")
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
