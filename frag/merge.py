#!/usr/bin/env python3
"""Temporary: merges fragment files into ge_graph.h at their markers.
usage: merge.py OUT  (writes the merged header to OUT)"""
import sys, os
here = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(here, '..', 'ge_graph.h')).read()
for marker, frag in [('/* GE_ONNX_INFER */', 'onnx_infer.c'), ('/* GE_ONNX_SCHEMAS */', 'onnx_rows.c'), ('/* GE_IO */', 'io.c')]:
    f = os.path.join(here, frag)
    if os.path.exists(f):
        src = src.replace(marker, open(f).read())
open(sys.argv[1], 'w').write(src)
