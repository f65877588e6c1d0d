#!/usr/bin/env bash
# ge against ONNX Runtime by CPU time per run at 1 thread, for a shared, noisy
# machine (wall time under load measures the other processes too).
#
#   bench/cpu_vs_ort.sh MODEL NAME=FILE.npy[,NAME=FILE.npy...] [ROUNDS] [REPEAT] [GE]
#
# Each round runs ORT (bench/ort/run.js, median_cpu_ms) and ge (`ge run`,
# cpu_ms) once, in processes of their own, REPEAT runs (20) after 3 warm-ups;
# each reports the median CPU time of a run (every thread of its process).
# Prints the medians over ROUNDS (3) and ORT/ge (above 1: ge is faster). At
# 1 thread a run's CPU time is its work; it still grows when another process
# shares the core's caches or its SMT sibling, so compare in one run.
# Example:
#   bench/cpu_vs_ort.sh build/zoo/googlenet.onnx in0=build/zoo/googlenet.in0.npy 3 20
set -uo pipefail
(($# >= 2)) || { sed -n '2,14p' "$0"; exit 2; }
model=$1 inputs=$2 rounds=${3:-3} repeat=${4:-20} ge=${5:-build/ge}
cd "$(dirname "$0")/.." || exit 1
ge_in=() ort_in=()
IFS=, read -r -a specs <<<"$inputs"
for s in "${specs[@]}"; do ge_in+=(--input "$s"); ort_in+=("$s"); done
g=() o=()
for ((r = 0; r < rounds; r++)); do
    o+=("$(node bench/ort/run.js "$model" "${ort_in[@]}" --threads 1 --repeat "$repeat" --warmup 3 2>&1 |
        sed -n 's/.*"median_cpu_ms":\([-0-9.eE+]*\).*/\1/p')")
    g+=("$("$ge" run "$model" "${ge_in[@]}" --threads 1 --repeat "$repeat" --warmup 3 2>&1 |
        grep -o 'cpu_ms=[-0-9.eE+]*' | head -n 1 | cut -d= -f2)")
done
med() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
[[ -n ${g[0]} && -n ${o[0]} ]] || { echo "cpu_vs_ort.sh: a runtime failed on $model (run it by hand)" >&2; exit 1; }
awk -v m="$(basename "$model" .onnx)" -v g="$(med "${g[@]}")" -v o="$(med "${o[@]}")" -v gr="${g[*]}" -v orr="${o[*]}" \
    'BEGIN { printf "%-36s ge %9.3f ms  ORT %9.3f ms  ORT/ge %5.2f   (ge: %s; ORT: %s)\n", m, g, o, (g > 0 ? o / g : 0), gr, orr }'
