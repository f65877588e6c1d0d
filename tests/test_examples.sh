#!/usr/bin/env bash
# The examples build with one cc call and run: examples/run_model.c (the
# README's session example) on the tiny CNN must print PyTorch's output for
# an input of ones, which `ge run` computes too.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
if cc -std=c99 -O2 -I. examples/run_model.c -lm -o "$t/run_model" 2> "$t/err"; then
    ok "examples/run_model.c builds with one cc call"
else
    bad "examples/run_model.c builds with one cc call"; sed 's/^/    /' "$t/err" | head -20
fi
out=$("$t/run_model" examples/models/tiny_cnn.onnx 2>&1)
# the same model on the same input (ones) through the tool
python3 -c "import struct,sys
hdr=\"{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 32, 32), }\"
hdr+=' '*(63-len(hdr)%64)+'\n'
sys.stdout.buffer.write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(hdr))+hdr.encode()+struct.pack('<3072f',*([1.0]*3072)))" > "$t/ones.npy"
want=$("$BUILD/ge" run examples/models/tiny_cnn.onnx --input "input=$t/ones.npy" 2>&1 | sed -n 's/.*= \[\(.*\)\]/\1/p' |
       awk -F', ' '{printf "%s %s %s %s", $1, $2, $3, $4}')
got=$(sed -n 's/.*values: //p' <<<"$out")
if [[ -n $want && $(awk -v a="$got" -v b="$want" 'BEGIN {n = split(a, x, " "); split(b, y, " ");
        for (i = 1; i <= n; i++) if ((x[i] - y[i]) ^ 2 > 1e-8) exit 1; exit n == 4 ? 0 : 1}'; echo $?) == 0 ]]; then
    ok "examples/run_model.c runs the tiny CNN as ge run does ($got)"
else
    bad "examples/run_model.c runs the tiny CNN as ge run does: got '$out', ge run gave '$want'"
fi
# several requests in flight on caller streams, each checked against the plain run
if "$BUILD/ge" run examples/models/tiny_cnn.onnx --input "input=$t/ones.npy" --threads 2 --repeat 12 \
        --concurrency 3 > "$t/conc" 2>&1 && grep -q "every output equal" "$t/conc"; then
    ok "ge run --concurrency 3 keeps three requests in flight, every output as the plain run's"
else
    bad "ge run --concurrency 3: $(tail -n 2 "$t/conc")"
fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
