#!/usr/bin/env bash
# ONNX conformance: every case in tests/conformance_floor.txt must still pass,
# on the host CPU engine alone and compiled onto the standard engine set
# (constant folding, placement, fusion) under several placement options, and
# partitioned (engine pieces optimised and merged back, dynamic/static
# subgraphs) under several partition options, and run from stream and memory
# plans (--plan).
# Each run prints per-folder counts and "N passed, N failed" over the floor;
# the last line sums them. Refresh the floor after an improvement with:
#   build/conformance --write-floor tests/conformance_floor.txt $DATA/{node,pytorch-converted,pytorch-operator,simple}
# QUICK=1 runs two configurations only (tests/test_sanitized.sh, under ASan).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
DATA=/usr/share/libonnx-testdata/data
if [[ ! -d $DATA/node ]]; then
    echo "libonnx-testdata is not installed (make test installs it as root): skipped"
    echo "0 passed, 0 failed"
    exit 0
fi
if [[ ! -x $BUILD/conformance ]]; then
    echo "FAIL: $BUILD/conformance is not built (make $BUILD/conformance, or make test)"
    echo "0 passed, 1 failed"
    exit 1
fi
pass=0 fail=0
run() { # FLAGS...
    local log last rc
    log=$(mktemp)
    echo "-- conformance $*"
    "$BUILD/conformance" --floor tests/conformance_floor.txt "$@" \
        "$DATA/node" "$DATA/pytorch-converted" "$DATA/pytorch-operator" "$DATA/simple" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    last=$(tail -n 1 "$log")
    rm -f "$log"
    if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        pass=$((pass + BASH_REMATCH[1])) fail=$((fail + BASH_REMATCH[2]))
        if [[ $rc -ne 0 && ${BASH_REMATCH[2]} -eq 0 ]]; then
            echo "FAIL conformance $*: exit status $rc"; fail=$((fail + 1))
        fi
    else
        echo "FAIL conformance $*: no summary"; fail=$((fail + 1))
    fi
}
if [[ ${QUICK:-0} == 1 ]]; then
    run --engines --partition --plan
    run --engines --plan --executor streams --threads 2 --check-order
    echo "$pass passed, $fail failed"
    exit $((fail > 0))
fi
run
run --engines
run --engines --option ge.engineType=VectorEngine
run --engines --option ge.exec.exclude_engines=AiCore,AiCpuAscend
run --engines --option ge.exec.hostExecFlag=1
run --engines --partition
run --engines --partition --option ge.engineType=VectorEngine --option ge.exec.static_model_ops_lower_limit=1
run --engines --partition --option ge.exec.static_model_ops_lower_limit=-1
run --engines --plan
run --engines --partition --plan --option ge.engineType=VectorEngine
# every executor and both launch modes, with the happens-before checker
run --engines --plan --executor topological --check-order
run --engines --plan --executor priority --check-order
run --engines --plan --executor multi-thread --threads 2 --check-order
run --engines --plan --executor streams --threads 2 --check-order
run --engines --plan --executor streams --mode host --threads 2 --check-order
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
