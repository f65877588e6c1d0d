#!/usr/bin/env bash
# Stream parallelism end to end: the 8-branch graph of bench/runtime_bench.c
# (8 independent branches of 16 x (MatMul [4,256]x[256,256] + Tanh)) as an
# ONNX file, run by `ge run` under each executor and by ONNX Runtime in its
# sequential and parallel modes, all at 2 threads, rounds alternating.
#
#   bench/branches.sh            (ROUNDS=5 REPEAT=200 WARMUP=20)
#
# ge: --threads 2 with --executor sequential (both threads inside the
# kernels), multi-thread, and streams (sink). ONNX Runtime: sequential with
# 2 intra-op threads; parallel with 2 inter-op threads and 1 intra-op thread.
# Each cell is the median over rounds of each run's median ms.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
ROUNDS=${ROUNDS:-5}
REPEAT=${REPEAT:-200}
WARMUP=${WARMUP:-20}
GE=${GE:-build/ge}
OUT=build/bench_branches
unset OPENBLAS_CORETYPE
die() { echo "branches.sh: $*" >&2; exit 1; }

make --no-print-directory build/runtime_bench "$GE" >&2 || die "build failed"
[[ -d build/ort/node_modules/onnxruntime-node ]] ||
    npm install --ignore-scripts --no-audit --no-fund --prefix build/ort onnxruntime-node@1.30 >&2 ||
    die "npm install onnxruntime-node failed"
mkdir -p "$OUT"
build/runtime_bench --write-onnx "$OUT" >&2 || die "runtime_bench --write-onnx failed"
model=$OUT/branches.onnx x=$OUT/branches.x.npy

declare -A t
names=("ge sequential" "ge multi-thread" "ge streams (sink)" "ORT sequential" "ORT parallel")
run() { # NAME -> median ms
    case $1 in
    "ge sequential") "$GE" run "$model" --input x="$x" --threads 2 --executor sequential --repeat "$REPEAT" --warmup "$WARMUP" ;;
    "ge multi-thread") "$GE" run "$model" --input x="$x" --threads 2 --executor multi-thread --repeat "$REPEAT" --warmup "$WARMUP" ;;
    "ge streams (sink)") "$GE" run "$model" --input x="$x" --threads 2 --executor streams --mode sink --repeat "$REPEAT" --warmup "$WARMUP" ;;
    "ORT sequential") node bench/ort/run.js "$model" "x=$x" --threads 2 --repeat "$REPEAT" --warmup "$WARMUP" ;;
    "ORT parallel") node bench/ort/run.js "$model" "x=$x" --threads 1 --inter 2 --repeat "$REPEAT" --warmup "$WARMUP" ;;
    esac 2>&1 | grep -o -E 'median_ms[=":]+[0-9.eE+-]+' | head -n 1 | grep -o -E '[0-9.eE+-]+$'
}
for ((r = 0; r < ROUNDS; r++)); do
    for n in "${names[@]}"; do
        v=$(run "$n") || true
        [[ -n $v ]] || die "$n: no timing"
        t[$n]+="$v "
    done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
best_seq=$(echo "${t["ge sequential"]}" | median)
printf '%-20s %10s %22s\n' runtime "ms" "vs ge sequential"
for n in "${names[@]}"; do
    m=$(echo "${t[$n]}" | median)
    printf '%-20s %10.3f %21.2fx\n' "$n" "$m" "$(awk -v a="$best_seq" -v b="$m" 'BEGIN {print a / b}')"
done
