#!/usr/bin/python3
"""Export torchvision architectures to ONNX (opset 17, batch 1) with random
weights from a fixed seed, and a random input each, for bench/zoo/run.sh.

    /usr/bin/python3 bench/zoo/export.py OUTDIR [NAME...]

Writes OUTDIR/NAME.onnx and OUTDIR/NAME.in<k>.npy (input k, named in<k> in
the model). Without names, every model of MODELS below. A model that fails
to export prints "FAIL NAME: why" and the others go on; each success prints
"OK NAME". BatchNorm statistics are randomised (otherwise they are the
identity). The point is breadth of real architectures (classifiers,
detectors with NonMaxSuppression, segmentation, video, optical flow,
attention with Einsum), not accuracy: with random weights a detector's
scores are near-ties, so its ranked outputs may differ between runtimes
where floats round differently.

Needs the Debian packages python3-torch python3-torchvision python3-numpy.
"""
import os
import sys

import numpy as np
import torch
import torchvision.models as M
import torchvision.models.detection as D
import torchvision.models.optical_flow as OF
import torchvision.models.segmentation as S
import torchvision.models.video as V

MODELS = [
    "squeezenet1_1", "shufflenet_v2_x1_0", "mnasnet0_5", "efficientnet_b0", "mobilenet_v3_small",
    "mobilenet_v3_large", "regnet_y_400mf", "regnet_x_400mf", "convnext_tiny", "densenet121", "googlenet",
    "inception_v3", "resnext50_32x4d", "alexnet", "efficientnet_b3", "efficientnet_v2_s", "swin_t", "maxvit_t",
    "r3d_18", "deeplabv3_mobilenet_v3_large", "lraspp_mobilenet_v3_large", "ssdlite320_mobilenet_v3_large",
    "fasterrcnn_mobilenet_v3_large_320_fpn", "raft_small",
]
SHAPES = {"inception_v3": (1, 3, 299, 299), "r3d_18": (1, 3, 8, 112, 112), "raft_small": (1, 3, 128, 128),
          "ssdlite320_mobilenet_v3_large": (1, 3, 320, 320), "fasterrcnn_mobilenet_v3_large_320_fpn": (1, 3, 320, 320)}
DETECTORS = ("ssdlite", "fasterrcnn")


def build(name):
    for mod in (M, S, D, V, OF):
        if hasattr(mod, name):
            fn = getattr(mod, name)
            break
    else:
        raise KeyError(name)
    kw = {"weights": None}
    if name in ("inception_v3", "googlenet"):
        kw.update(aux_logits=False, init_weights=True)
    if name.startswith(DETECTORS + ("deeplab", "lraspp")):
        kw["weights_backbone"] = None
    if name.startswith(("deeplab", "lraspp")):
        kw["aux_loss"] = None
    model = fn(**kw).eval()
    for m in model.modules():
        if isinstance(m, (torch.nn.BatchNorm2d, torch.nn.BatchNorm3d)):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 1.5)
    return model


def export(name, out):
    torch.manual_seed(20261127)
    model = build(name)
    x = torch.rand(*SHAPES.get(name, (1, 3, 224, 224)))
    if name == "raft_small":
        inputs = [x, torch.rand(*x.shape)]
        args = tuple(inputs)
    elif name.startswith(DETECTORS):
        inputs = [x[0]]
        args = ([x[0]],)
    else:
        inputs = [x]
        args = (x,)
    with torch.no_grad():
        torch.onnx.export(model, args, os.path.join(out, name + ".onnx"), opset_version=17,
                          input_names=["in%d" % k for k in range(len(inputs))])
    for k, t in enumerate(inputs):
        np.save(os.path.join(out, "%s.in%d.npy" % (name, k)), t.numpy())


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.set_num_threads(1)
    for name in sys.argv[2:] or MODELS:
        try:
            export(name, out)
            print("OK", name, flush=True)
        except Exception as e:  # one model's failure must not stop the others
            print("FAIL %s: %s: %s" % (name, type(e).__name__, str(e)[:200]), flush=True)


if __name__ == "__main__":
    main()
