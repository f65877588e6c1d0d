#!/usr/bin/python3
"""Write the execution-overhead models: a chain of N Neg nodes on a float32
[1,16] tensor, for N = 1 and N = 1001, at opset 13.

    /usr/bin/python3 bench/models/make_chain.py [OUTDIR]     (default build/models)

Writes OUTDIR/neg_chain_1.onnx, OUTDIR/neg_chain_1001.onnx and
OUTDIR/neg_chain.input.npy (the [1,16] input both take). The graph input is
named "x", the output "y". The time difference between the two models over
1000 is the per-node cost of an executor. Needs python3-onnx and python3-numpy.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

SIZES = (1, 1001)
SHAPE = [1, 16]


def chain(n):
    nodes = []
    prev = "x"
    for i in range(n):
        out = "y" if i == n - 1 else "t%d" % i
        nodes.append(helper.make_node("Neg", [prev], [out], name="neg%d" % i))
        prev = out
    graph = helper.make_graph(
        nodes, "neg_chain_%d" % n,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, SHAPE)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, SHAPE)])
    model = helper.make_model(graph, producer_name="ge-bench",
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7            # opset 13's IR version; readable by older runtimes
    onnx.checker.check_model(model)
    return model


def main(argv):
    outdir = argv[1] if len(argv) > 1 else "build/models"
    os.makedirs(outdir, exist_ok=True)
    for n in SIZES:
        path = os.path.join(outdir, "neg_chain_%d.onnx" % n)
        onnx.save(chain(n), path)
        print("make_chain.py: wrote %s" % path)
    x = (np.arange(16, dtype=np.float32) - 7.5).reshape(SHAPE)
    np.save(os.path.join(outdir, "neg_chain.input.npy"), x)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
