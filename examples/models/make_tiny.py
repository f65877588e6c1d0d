#!/usr/bin/python3
"""Write the small CNN that `make demo` runs, with torch's reference result.

    /usr/bin/python3 examples/models/make_tiny.py [OUTDIR]   (default: this folder)

Writes tiny_cnn.onnx (opset 13, input "input" float32 [1,3,32,32], output
"output" float32 [1,10]), tiny_cnn.input.npy and tiny_cnn.output.npy. The
network: three conv 3x3 / BatchNorm / ReLU blocks (two followed by a 2x2 max
pool), global average pooling and a linear head. BatchNormalization stays a
node of its own (exported with TrainingMode.PRESERVE on an eval-mode model, so
the exporter does not fold it into the convolution).

The files are committed; rerunning the script gives the same bytes (fixed
seeds, one thread). Needs python3-torch python3-numpy python3-onnx.
"""
import collections
import os
import sys

import numpy as np
import onnx
import torch
from torch import nn

SEED = 7


class TinyCNN(nn.Module):
    def __init__(self):
        super().__init__()
        def block(cin, cout):
            return [nn.Conv2d(cin, cout, 3, padding=1, bias=False),
                    nn.BatchNorm2d(cout), nn.ReLU()]
        self.features = nn.Sequential(
            *block(3, 8), nn.MaxPool2d(2),
            *block(8, 16), nn.MaxPool2d(2),
            *block(16, 32),
            nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(32, 10)

    def forward(self, x):
        return self.head(torch.flatten(self.features(x), 1))


def main(argv):
    outdir = argv[1] if len(argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(outdir, exist_ok=True)
    torch.set_num_threads(1)
    torch.manual_seed(SEED)
    gen = torch.Generator().manual_seed(SEED)
    model = TinyCNN()

    # Distinct BatchNorm parameters and statistics measured on one random batch,
    # so that no two layers are equal and activations stay in range.
    bns = [m for m in model.modules() if isinstance(m, nn.BatchNorm2d)]
    with torch.no_grad():
        for m in bns:
            m.weight.copy_(torch.rand(m.num_features, generator=gen) * 0.5 + 0.75)
            m.bias.copy_(torch.randn(m.num_features, generator=gen) * 0.1)
            m.momentum = None
        model.train()
        model(torch.randn(16, 3, 32, 32, generator=gen))
        for m in bns:
            m.momentum = 0.1
    model.eval()

    path = os.path.join(outdir, "tiny_cnn.onnx")
    x = torch.randn(1, 3, 32, 32, generator=gen)
    torch.onnx.export(model, (x,), path, input_names=["input"], output_names=["output"],
                      opset_version=13, do_constant_folding=False,   # nothing to fold
                      training=torch.onnx.TrainingMode.PRESERVE)
    proto = onnx.load(path)
    onnx.checker.check_model(proto)
    ops = collections.Counter(n.op_type for n in proto.graph.node)
    if ops.get("BatchNormalization", 0) != len(bns) or "Identity" in ops:
        sys.exit("make_tiny.py: unexpected ops %s" % dict(ops))
    y = model(x).detach()
    np.save(os.path.join(outdir, "tiny_cnn.input.npy"), x.numpy().astype(np.float32))
    np.save(os.path.join(outdir, "tiny_cnn.output.npy"), y.numpy().astype(np.float32))
    print("make_tiny.py: wrote %s (%d bytes; ops %s)"
          % (path, os.path.getsize(path), dict(sorted(ops.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
