#!/usr/bin/env bash
# Execution overhead per node: ge vs ONNX Runtime, one thread each, side by side.
#
#   bench/exec_overhead.sh            (from any directory; paths are the repo's)
#
# The models are chains of N Neg nodes on a float32 [1,16] tensor
# (bench/models/make_chain.py), N = 1 and N = 1001. The work per node is nil, so
#   ns/node = (t(N=1001) - t(N=1)) / 1000
# is what an executor spends per node. Each measurement is the median of REPEAT
# timed runs after WARMUP runs, in one process; ROUNDS rounds alternate ge and
# ORT and the two chains, and the table shows the median over the rounds.
# Environment: REPEAT (2000), WARMUP (200), ROUNDS (5), GE (build/ge), GE_ARGS (more
# `ge run` flags, e.g. "--executor streams --mode host"; the tool's default: sequential).
#
# If `ge run` is not available yet, the ORT half is printed and ge is reported
# missing (exit 0). Needs python3-onnx and python3-numpy (to write the chains;
# installed as root through scripts/deps.sh), node and npm (onnxruntime-node is
# installed into build/ort when missing).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

REPEAT=${REPEAT:-2000}
WARMUP=${WARMUP:-200}
ROUNDS=${ROUNDS:-5}
GE=${GE:-build/ge}
read -r -a GE_EXTRA <<<"${GE_ARGS:-}"
MODELS=build/models
PY=/usr/bin/python3
# OPENBLAS_CORETYPE forces slower kernels; a benchmark may drop it for itself.
unset OPENBLAS_CORETYPE

die() { echo "exec_overhead.sh: $*" >&2; exit 1; }

# --- inputs: the chain models and ONNX Runtime -------------------------------
if [[ ! -s $MODELS/neg_chain_1001.onnx || ! -s $MODELS/neg_chain.input.npy ||
      bench/models/make_chain.py -nt $MODELS/neg_chain_1001.onnx ]]; then
    if ! $PY -c 'import onnx, numpy' 2>/dev/null; then
        scripts/deps.sh python3-onnx python3-numpy >&2 || die "needs python3-onnx and python3-numpy"
    fi
    $PY bench/models/make_chain.py "$MODELS" >/dev/null || die "make_chain.py failed"
fi
if [[ ! -d build/ort/node_modules/onnxruntime-node ]]; then
    command -v npm >/dev/null || die "needs node and npm for ONNX Runtime (Debian: nodejs npm)"
    echo "exec_overhead.sh: installing onnxruntime-node into build/ort" >&2
    npm install --ignore-scripts --no-audit --no-fund --prefix build/ort onnxruntime-node@1.30 >&2 ||
        die "npm install onnxruntime-node failed"
fi

# --- the two runners: each prints one median in milliseconds ------------------
ort_ms() { # MODEL
    local out
    out=$(node bench/ort/run.js "$1" "x=$MODELS/neg_chain.input.npy" --threads 1 \
          --repeat "$REPEAT" --warmup "$WARMUP") || return 1
    sed -n 's/.*"median_ms":\([-0-9.eE+]*\).*/\1/p' <<<"$out"
}
ge_ms() { # MODEL
    local out
    out=$("$GE" run "$1" --input "x=$MODELS/neg_chain.input.npy" --threads 1 \
          --repeat "$REPEAT" --warmup "$WARMUP" ${GE_EXTRA[@]+"${GE_EXTRA[@]}"} 2>&1) ||
        { printf '%s\n' "$out" >&2; return 1; }
    grep -o 'median_ms=[-0-9.eE+]*' <<<"$out" | head -n 1 | cut -d= -f2
}

have_ge=1
ge_why=""
if [[ ! -x $GE ]]; then
    have_ge=0; ge_why="$GE not built (make)"
else
    probe=$("$GE" run "$MODELS/neg_chain_1.onnx" --input "x=$MODELS/neg_chain.input.npy" \
            --threads 1 --repeat 1 --warmup 0 2>&1)
    if ! grep -q 'median_ms=' <<<"$probe"; then
        have_ge=0; ge_why="'ge run' failed: $(head -n 1 <<<"$probe")"
    fi
fi

# --- measure ------------------------------------------------------------------
declare -a ge1 ge1001 ort1 ort1001
for ((r = 0; r < ROUNDS; r++)); do
    # Alternate the order from round to round so drift hits both sides alike.
    if ((r % 2 == 0)); then order="ort ge"; else order="ge ort"; fi
    for who in $order; do
        for n in 1 1001; do
            [[ $who == ge && $have_ge == 0 ]] && continue
            v=$("${who}_ms" "$MODELS/neg_chain_$n.onnx")
            [[ -n $v ]] || die "$who run of neg_chain_$n.onnx failed"
            eval "${who}${n}[r]=\$v"
        done
    done
    echo "round $((r + 1))/$ROUNDS: ort ${ort1[r]} / ${ort1001[r]} ms${ge1[r]:+, ge ${ge1[r]} / ${ge1001[r]} ms}" >&2
done

# median of the arguments
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
# per-round ns/node values, then their median
per_node() { # NAME_OF_T1 NAME_OF_T1001
    local -n a=$1 b=$2
    local i vals=()
    for ((i = 0; i < ROUNDS; i++)); do
        vals+=("$(awk -v x="${a[i]}" -v y="${b[i]}" 'BEGIN {printf "%.3f", (y - x) * 1e6 / 1000}')")
    done
    med "${vals[@]}"
}

ort_ns=$(per_node ort1 ort1001)
echo
echo "Execution overhead: chain of N Neg nodes, float32 [1,16], 1 thread"
echo "median of $ROUNDS rounds; each round the median of $REPEAT runs after $WARMUP warm-up runs"
echo
printf '%-14s %12s %14s %10s\n' runtime "t(N=1) us" "t(N=1001) us" ns/node
printf '%-14s %12s %14s %10s\n' -------------- ------------ -------------- ----------
row() { printf '%-14s %12.2f %14.2f %10.1f\n' "$1" "$(awk -v x="$2" 'BEGIN{print x*1000}')" \
               "$(awk -v x="$3" 'BEGIN{print x*1000}')" "$4"; }
if ((have_ge)); then
    ge_ns=$(per_node ge1 ge1001)
    row ge "$(med "${ge1[@]}")" "$(med "${ge1001[@]}")" "$ge_ns"
else
    printf '%-14s %12s %14s %10s\n' ge - - missing
fi
row "ONNX Runtime" "$(med "${ort1[@]}")" "$(med "${ort1001[@]}")" "$ort_ns"
echo
if ((have_ge)); then
    awk -v o="$ort_ns" -v g="$ge_ns" 'BEGIN {
        if (g > 0) printf "ratio ORT/ge per node: %.2f (above 1: ge spends less per node)\n", o / g;
        else printf "ratio ORT/ge per node: n/a (ge per-node time %.1f ns)\n", g }'
else
    echo "ge: missing — $ge_why"
fi
exit 0
