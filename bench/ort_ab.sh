#!/usr/bin/env bash
# ONNX Runtime against one or more ge builds on one model, alternating within
# each round (ORT, then every build in turn), wall-clock medians.
#
#   bench/ort_ab.sh MODEL NAME=FILE.npy[,NAME=FILE.npy...] THREADS ROUNDS REPEAT GE_A [GE_B...]
#
# Each round runs ORT (bench/ort/run.js) and every build (`ge run`) once, in
# processes of their own, each REPEAT runs after 3 warm-ups and reporting its
# median; the script prints the median over the rounds per runtime and
# ORT/ge per build (above 1: ge is faster), then every round's figures.
# Example:
#   bench/ort_ab.sh build/zoo/squeezenet1_1.onnx in0=build/zoo/squeezenet1_1.in0.npy 1 7 20 build/ge.old build/ge
set -uo pipefail
(($# >= 6)) || { sed -n '2,13p' "$0"; exit 2; }
model=$1 inputs=$2 threads=$3 rounds=$4 repeat=$5
shift 5
cd "$(dirname "$0")/.." || exit 1
ge_in=() ort_in=()
IFS=, read -r -a specs <<<"$inputs"
for s in "${specs[@]}"; do ge_in+=(--input "$s"); ort_in+=("$s"); done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ort_ms() {
    node bench/ort/run.js "$model" "${ort_in[@]}" --threads "$threads" --repeat "$repeat" --warmup 3 >"$tmp/o" 2>&1 ||
        { echo "ort_ab.sh: ORT failed:" >&2; tail -n 3 "$tmp/o" >&2; exit 1; }
    grep -o '"median_ms":[0-9.]*' "$tmp/o" | head -n 1 | sed 's/.*://'
}
ge_ms() { # GE
    "$1" run "$model" "${ge_in[@]}" --threads "$threads" --repeat "$repeat" --warmup 3 >"$tmp/g" 2>&1 ||
        { echo "ort_ab.sh: $1 failed:" >&2; tail -n 3 "$tmp/g" >&2; exit 1; }
    grep -o 'median_ms=[0-9.]*' "$tmp/g" | head -n 1 | sed 's/.*=//'
}
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

declare -A all
for ((r = 0; r < rounds; r++)); do
    all[ort]+=" $(ort_ms)" || exit 1
    for ge in "$@"; do all[$ge]+=" $(ge_ms "$ge")" || exit 1; done
done
o=$(median <<<"${all[ort]}")
printf '%s, %s thread(s), %s rounds of %s runs\n' "$(basename "$model")" "$threads" "$rounds" "$repeat"
printf '  ORT %9.3f ms  (rounds:%s)\n' "$o" "${all[ort]}"
for ge in "$@"; do
    g=$(median <<<"${all[$ge]}")
    printf '  %s %9.3f ms  ORT/ge %.2f  (rounds:%s)\n' "$ge" "$g" "$(awk -v a="$o" -v b="$g" 'BEGIN {print a / b}')" "${all[$ge]}"
done
