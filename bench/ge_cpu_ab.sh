#!/usr/bin/env bash
# A/B of ge builds on one model by CPU time per run, for a shared, noisy machine.
#
#   bench/ge_cpu_ab.sh MODEL NAME=FILE.npy[,NAME=FILE.npy...] THREADS ROUNDS REPEAT GE_A GE_B...
#
# Each round runs every build in turn (alternating): `ge run` with REPEAT runs
# and with 1 run, both after 1 warm-up; (user + sys of the first - of the
# second) / (REPEAT - 1) is one run's CPU time, without the load and compile.
# Prints each build's median over the rounds and all the rounds. CPU time
# leaves out the time other processes hold the core (wall time under load
# does not), but at THREADS > 1 it counts the workers' spinning too: use it
# for 1 thread. /usr/bin/time gives 10 ms steps: pick REPEAT so that a
# build's total is well above that (e.g. 600 runs of a 1 ms model).
# Example (inputs from bench/real_models.py inputs):
#   bench/ge_cpu_ab.sh build/real_models/joined/seg_rsu.onnx img=in/in0.npy 1 7 600 build/ge.old build/ge
set -uo pipefail
(($# >= 6)) || { sed -n '2,16p' "$0"; exit 2; }
model=$1 inputs=$2 threads=$3 rounds=$4 repeat=$5
shift 5
[[ -x /usr/bin/time ]] || { echo "ge_cpu_ab.sh: needs /usr/bin/time (Debian: time)" >&2; exit 1; }
((repeat >= 2)) || { echo "ge_cpu_ab.sh: REPEAT must be at least 2" >&2; exit 2; }
in_args=()
IFS=, read -r -a specs <<<"$inputs"
for s in "${specs[@]}"; do in_args+=(--input "$s"); done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cpu_seconds() { # GE N: user + sys of one `ge run` with N runs
    /usr/bin/time -o "$tmp/t" -f "%U %S" "$1" run "$model" "${in_args[@]}" --threads "$threads" \
        --repeat "$2" --warmup 1 >/dev/null 2>"$tmp/err" || { echo "ge_cpu_ab.sh: $1 failed:" >&2; tail -n 3 "$tmp/err" >&2; exit 1; }
    awk '{print $1 + $2}' "$tmp/t"
}

declare -A per_run
for ((r = 0; r < rounds; r++)); do
    for ge in "$@"; do
        long=$(cpu_seconds "$ge" "$repeat") || exit 1
        short=$(cpu_seconds "$ge" 1) || exit 1
        per_run[$ge]+=" $(awk -v a="$long" -v b="$short" -v n="$repeat" 'BEGIN {printf "%.4f", (a - b) * 1000 / (n - 1)}')"
    done
done
for ge in "$@"; do
    printf '%s\n' ${per_run[$ge]} | sort -n |
        awk -v g="$ge" '{a[NR] = $1} END {printf "%s: median %.3f ms CPU per run (rounds:", g, a[int((NR + 1) / 2)];
                                        for (i = 1; i <= NR; i++) printf " %s", a[i]; print ")"}'
done
