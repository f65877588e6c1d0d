#!/usr/bin/env bash
# ONNX conformance: every case in tests/conformance_floor.txt must still pass
# (build/conformance prints per-folder counts and "N passed, N failed" over
# the floor). Refresh the floor after an improvement with:
#   build/conformance --write-floor tests/conformance_floor.txt $DATA/{node,pytorch-converted,pytorch-operator,simple}
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
DATA=/usr/share/libonnx-testdata/data
if [[ ! -d $DATA/node ]]; then
    echo "libonnx-testdata is not installed (make test installs it as root): skipped"
    echo "0 passed, 0 failed"
    exit 0
fi
exec "$BUILD/conformance" --floor tests/conformance_floor.txt \
    "$DATA/node" "$DATA/pytorch-converted" "$DATA/pytorch-operator" "$DATA/simple"
