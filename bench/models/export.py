#!/usr/bin/python3
"""Export the benchmark models to ONNX with Debian's PyTorch, plus torch's
reference inputs and outputs.

    /usr/bin/python3 bench/models/export.py [OUTDIR]        (default build/models)

Writes to OUTDIR:
  resnet18.onnx, mobilenet_v2.onnx          torchvision, weights=None, opset 13
  transformer_op13.onnx, transformer_op17.onnx
                                            2-layer TransformerEncoder (d_model 128,
                                            4 heads, ff 256, seq 16, batch_first);
                                            the opset-17 file uses LayerNormalization
  <model>.b<N>.input.npy, <model>.b<N>.output.npy   for N = 1 and 4 (torch's result)
  models.json                               the manifest: file, input/output names,
                                            opset, batch sizes, op counts, and the
                                            sha256 of this script ("exporter"), which
                                            tells the callers when to export again

Every model has a dynamic batch axis (dim 0 of its input and output, named
"batch"). The files are the same on every run: all parameters, BatchNorm
statistics and inputs come from fixed seeds, and torch runs on one thread.

Pitfalls this script handles (see DESIGN.md section 8):
  - export runs with gradients enabled: under torch.no_grad() the fast path of
    nn.TransformerEncoder (a fused kernel) is taken, and it does not export;
  - BatchNorm running statistics and affine parameters are randomised, and
    every parameter of the TransformerEncoder is re-drawn (its layers are deep
    copies of one layer), otherwise the exporter folds identical weights into
    Identity nodes. The script fails if an exported graph has an Identity node.

Needs the Debian packages python3-torch python3-torchvision python3-numpy
python3-onnx.
"""
import collections
import hashlib
import json
import math
import os
import sys

import numpy as np
import onnx
import torch
import torchvision

SEED = 20261121
BATCHES = (1, 4)
TRACE_BATCH = 2          # trace with a batch that is neither 1 nor a test size
INPUT_NAME = "input"
OUTPUT_NAME = "output"

# Transformer encoder size: modest, so that a naive executor runs it quickly.
D_MODEL, NHEAD, D_FF, SEQ, LAYERS = 128, 4, 256, 16, 2


def die(msg):
    sys.stderr.write("export.py: error: %s\n" % msg)
    sys.exit(1)


def randomize_batchnorm(model, gen, sample_shape):
    """Give every BatchNorm layer its own affine parameters and statistics.

    The affine parameters are drawn near the identity; the running statistics
    are then measured on one random batch (train mode, cumulative average), so
    that activations keep a sane range through the whole network. Statistics
    drawn blindly make MobileNetV2's ReLU6 layers saturate, and its output no
    longer depends on its input."""
    bns = [m for m in model.modules()
           if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    with torch.no_grad():
        for m in bns:
            n = m.num_features
            if m.affine:
                m.weight.copy_(torch.rand(n, generator=gen) * 0.5 + 0.75)
                m.bias.copy_(torch.randn(n, generator=gen) * 0.1)
            m.reset_running_stats()
            m.momentum = None             # cumulative average over the batches
        model.train()
        model(torch.randn((8,) + sample_shape, generator=gen))
        model.eval()
        for m in bns:
            m.momentum = 0.1


def redraw_parameters(model, gen):
    """Re-draw every parameter from the generator (layers copied with deepcopy
    would otherwise share values): matrices ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)),
    LayerNorm weights near 1, biases small."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if p.dim() >= 2:
                fan_in = p[0].numel()
                bound = 1.0 / math.sqrt(fan_in)
                p.copy_((torch.rand(p.shape, generator=gen) * 2 - 1) * bound)
            elif "norm" in name and name.endswith("weight"):
                p.copy_(1.0 + 0.1 * torch.randn(p.shape, generator=gen))
            else:
                p.copy_(0.05 * torch.randn(p.shape, generator=gen))


def cnn(builder, gen):
    model = builder(weights=None)
    # torchvision's default init for convs is random too, but it draws from the
    # global generator; re-seeded just before, so it is reproducible.
    randomize_batchnorm(model, gen, (3, 224, 224))
    return model.eval()


def transformer(gen):
    layer = torch.nn.TransformerEncoderLayer(
        d_model=D_MODEL, nhead=NHEAD, dim_feedforward=D_FF, dropout=0.0,
        batch_first=True)
    model = torch.nn.TransformerEncoder(layer, num_layers=LAYERS,
                                        enable_nested_tensor=False)
    redraw_parameters(model, gen)
    return model.eval()


def op_counts(model_proto):
    c = collections.Counter(n.op_type for n in model_proto.graph.node)
    return dict(sorted(c.items()))


def export_one(model, name, sample_shape, opset, outdir, gen):
    path = os.path.join(outdir, name + ".onnx")
    trace_input = torch.randn((TRACE_BATCH,) + sample_shape, generator=gen)
    # No torch.no_grad() here: see the module docstring.
    torch.onnx.export(
        model, (trace_input,), path,
        input_names=[INPUT_NAME], output_names=[OUTPUT_NAME],
        dynamic_axes={INPUT_NAME: {0: "batch"}, OUTPUT_NAME: {0: "batch"}},
        opset_version=opset, do_constant_folding=True,
        training=torch.onnx.TrainingMode.EVAL)
    proto = onnx.load(path)
    onnx.checker.check_model(proto)
    ops = op_counts(proto)
    if "Identity" in ops:
        die("%s: the exporter folded weights into %d Identity node(s); "
            "randomise the parameters that are equal" % (name, ops["Identity"]))
    got_opset = [o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")]
    if got_opset != [opset]:
        die("%s: asked for opset %d, file says %s" % (name, opset, got_opset))
    for b in BATCHES:
        x = torch.randn((b,) + sample_shape, generator=gen)
        # With gradients on, as in the export: the same code path the graph
        # was traced from (not the fused no-grad fast path).
        y = model(x).detach()
        np.save(os.path.join(outdir, "%s.b%d.input.npy" % (name, b)),
                np.ascontiguousarray(x.numpy().astype(np.float32)))
        np.save(os.path.join(outdir, "%s.b%d.output.npy" % (name, b)),
                np.ascontiguousarray(y.numpy().astype(np.float32)))
    return {
        "name": name,
        "file": name + ".onnx",
        "input": INPUT_NAME,
        "output": OUTPUT_NAME,
        "input_shape": ["batch"] + list(sample_shape),
        "opset": opset,
        "batches": list(BATCHES),
        "nodes": len(proto.graph.node),
        "ops": ops,
    }


def main(argv):
    outdir = argv[1] if len(argv) > 1 else "build/models"
    if len(argv) > 2 or outdir.startswith("-"):
        sys.stderr.write("usage: export.py [OUTDIR]\n")
        return 2
    os.makedirs(outdir, exist_ok=True)
    torch.set_num_threads(1)        # same float sums on every machine size
    torch.use_deterministic_algorithms(True)

    entries = []
    jobs = [
        ("resnet18", 13, (3, 224, 224), lambda g: cnn(torchvision.models.resnet18, g)),
        ("mobilenet_v2", 13, (3, 224, 224), lambda g: cnn(torchvision.models.mobilenet_v2, g)),
        ("transformer_op13", 13, (SEQ, D_MODEL), transformer),
        ("transformer_op17", 17, (SEQ, D_MODEL), transformer),
    ]
    # Both transformer files hold the same weights and get the same inputs,
    # so their reference outputs agree to rounding.
    seeds = [0, 1, 2, 2]
    for (name, opset, shape, make), k in zip(jobs, seeds):
        torch.manual_seed(SEED + k)               # torchvision's own init
        gen = torch.Generator().manual_seed(SEED + 100 + k)
        model = make(gen)
        e = export_one(model, name, shape, opset, outdir, gen)
        entries.append(e)
        print("export.py: %s opset %d: %d nodes %s" % (name, opset, e["nodes"], e["ops"]))

    # The opset-17 transformer must keep LayerNormalization whole (torch 1.13
    # has the opset-17 symbolic; an older torch would decompose it).
    t17 = entries[3]["ops"]
    if t17.get("LayerNormalization", 0) != 2 * LAYERS:
        die("transformer_op17: expected %d LayerNormalization nodes, got %d (ops: %s)"
            % (2 * LAYERS, t17.get("LayerNormalization", 0), t17))
    if "LayerNormalization" in entries[2]["ops"]:
        die("transformer_op13: LayerNormalization is not an opset-13 op")

    with open(os.path.abspath(__file__), "rb") as f:
        exporter = hashlib.sha256(f.read()).hexdigest()
    manifest = {"seed": SEED, "torch": torch.__version__.split("+")[0],
                "exporter": exporter, "models": entries}
    with open(os.path.join(outdir, "models.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    print("export.py: wrote %d models to %s" % (len(entries), outdir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
