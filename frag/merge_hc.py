#!/usr/bin/env python3
"""Temporary: writes ge_engines/host_cpu.h from frag/host_cpu.in.h and the
kernel fragments. usage: merge_hc.py [OUT]   (default ge_engines/host_cpu.h)
Fragments: frag/hc_<family>.c (kernels, spliced at /* GE_HC_KERNELS */) and
frag/hc_<family>_table.c (table rows, spliced at /* GE_HC_TABLE */)."""
import glob, os, sys
here = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(here, 'host_cpu.in.h')).read()
kernels, rows = [], []
for f in sorted(glob.glob(os.path.join(here, 'hc_*.c'))):
    (rows if f.endswith('_table.c') else kernels).append(open(f).read())
src = src.replace('/* GE_HC_KERNELS */', '\n'.join(kernels))
src = src.replace('    /* GE_HC_TABLE */\n', ''.join(rows))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, '..', 'ge_engines', 'host_cpu.h')
os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
open(out, 'w').write(src)
