#!/usr/bin/env bash
# Throughput under concurrency: requests/s with C = 1, 2, 4 requests in flight on
# one model, ge against ONNX Runtime, at a budget of 2 threads (issue 15).
#
#   bench/concurrency.sh              (from any directory; paths are the repo's)
#
# ge:  build/ge run MODEL --input NAME=FILE --threads 2 --repeat R --warmup W
#      --concurrency C  (R requests on C caller streams of one graph, C in flight,
#      every output checked against the plain run; it prints requests/s). The plain
#      run before it gives the "ge sync" column: 1000 / its median latency.
# ORT: node bench/ort/concurrent.js MODEL INPUT --concurrency C --repeat R (C
#      session.run calls in flight on one session; threads as that script says:
#      intra-op 2 x 1 run at C = 1, intra-op 1 x 2 runs at once for C >= 2).
# Models: resnet18, transformer_op13, transformer_op17 at batch 1 (build/models,
# exported by bench/models/export.py; run bench/models.sh once to make them).
# ROUNDS rounds (default 3) alternate ge and ORT for each model and C, ge first
# in odd rounds and ORT first in even ones; the table shows the median over the
# rounds and ge/ORT (above 1: ge serves more requests per second).
# Environment: ROUNDS (3), GE (build/ge), MODELS_LIST ("resnet18 transformer_op13
# transformer_op17"), CS ("1 2 4"); REPEAT and WARMUP per model (40/4 for resnet18,
# 400/20 for the transformers) unless set. Raw results: build/bench_concurrency/.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

ROUNDS=${ROUNDS:-3}
GE=${GE:-build/ge}
MODELS=build/models
OUT=build/bench_concurrency
MODELS_LIST=${MODELS_LIST:-"resnet18 transformer_op13 transformer_op17"}
CS=${CS:-"1 2 4"}
die() { echo "concurrency.sh: $*" >&2; exit 1; }

[[ -x $GE ]] || die "no $GE (make build/ge)"
[[ -d build/ort/node_modules/onnxruntime-node ]] || die "no ONNX Runtime in build/ort (bench/models.sh installs it)"
mkdir -p "$OUT"
rm -f "$OUT"/*.txt

repeat_of() { case $1 in resnet18|mobilenet_v2) echo "${REPEAT:-40}";; *) echo "${REPEAT:-400}";; esac; }
warmup_of() { case $1 in resnet18|mobilenet_v2) echo "${WARMUP:-4}";; *) echo "${WARMUP:-20}";; esac; }

run_ge() { # MODEL C -> "RPS SYNC_RPS" or "FAIL"
    local m=$1 c=$2 out
    out=$("$GE" run "$MODELS/$m.onnx" --input "input=$MODELS/$m.b1.input.npy" --threads 2 \
          --repeat "$(repeat_of "$m")" --warmup "$(warmup_of "$m")" --concurrency "$c" 2>&1) || { echo FAIL; return; }
    awk '/median_ms=/ { for (i = 1; i <= NF; i++) if ($i ~ /^median_ms=/) { split($i, a, "="); sync = 1000 / a[2] } }
         /^concurrency [0-9]+:/ { rps = $5 }
         END { if (rps == "") print "FAIL"; else printf "%s %.1f\n", rps, sync }' <<< "$out"
}
run_ort() { # MODEL C -> RPS or FAIL
    local m=$1 c=$2 out
    out=$(node bench/ort/concurrent.js "$MODELS/$m.onnx" "$MODELS/$m.b1.input.npy" --concurrency "$c" \
          --repeat "$(repeat_of "$m")" --warmup "$(warmup_of "$m")" 2>&1) || { echo FAIL; return; }
    sed -n 's/.*"requests_per_s":\([0-9.e+]*\).*/\1/p' <<< "$out" | tail -n 1 | grep . || echo FAIL
}

for ((r = 1; r <= ROUNDS; r++)); do
    for m in $MODELS_LIST; do
        [[ -s $MODELS/$m.onnx ]] || die "no $MODELS/$m.onnx (bench/models.sh exports the models)"
        for c in $CS; do
            if ((r % 2)); then g=$(run_ge "$m" "$c"); o=$(run_ort "$m" "$c")
            else o=$(run_ort "$m" "$c"); g=$(run_ge "$m" "$c"); fi
            echo "$g" >> "$OUT/ge.$m.$c.txt"
            echo "$o" >> "$OUT/ort.$m.$c.txt"
            echo "round $r $m C=$c: ge $g | ort $o" >&2
        done
    done
done

median() { # FILE [FIELD] -> the median of the numeric values, or FAIL
    awk -v f="${2:-1}" '$f ~ /^[0-9.e+]+$/ { v[n++] = $f } END {
        if (!n) { print "FAIL"; exit }
        for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        printf "%.1f\n", n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2 }' "$1"
}

echo "| model | C | ge requests/s | ORT requests/s | ge/ORT | ge sync (1/median) |"
echo "|---|---:|---:|---:|---:|---:|"
for m in $MODELS_LIST; do
    for c in $CS; do
        g=$(median "$OUT/ge.$m.$c.txt" 1); s=$(median "$OUT/ge.$m.$c.txt" 2); o=$(median "$OUT/ort.$m.$c.txt" 1)
        ratio=$(awk -v a="$g" -v b="$o" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }')
        echo "| $m | $c | $g | $o | $ratio | $s |"
    done
done
