#!/usr/bin/env python3
"""Temporary: splices kernel fragments into ge_engines/host_cpu.h.
usage: merge_hc.py OUT   (writes the merged header to OUT)
Fragments: frag/hc_<family>.c (kernels, spliced at /* GE_HC_KERNELS */) and
frag/hc_<family>_table.c (table rows, spliced at /* GE_HC_TABLE */)."""
import glob, os, sys
here = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(here, '..', 'ge_engines', 'host_cpu.h')).read()
kernels, rows = [], []
for f in sorted(glob.glob(os.path.join(here, 'hc_*.c'))):
    (rows if f.endswith('_table.c') else kernels).append(open(f).read())
src = src.replace('/* GE_HC_KERNELS */', '/* GE_HC_KERNELS */\n' + '\n'.join(kernels))
src = src.replace('/* GE_HC_TABLE */', '/* GE_HC_TABLE */\n' + '\n'.join(rows))
os.makedirs(os.path.dirname(os.path.abspath(sys.argv[1])), exist_ok=True)
open(sys.argv[1], 'w').write(src)
