#!/usr/bin/env bash
# Model latency: ge vs ONNX Runtime on real models, batch 1, 2 threads, side by side.
#
#   bench/models.sh                   (from any directory; paths are the repo's)
#
# The models are exported by bench/models/export.py into build/models (resnet18,
# mobilenet_v2, a 2-layer Transformer encoder at opset 13 and at opset 17; see
# build/models/models.json). Each measurement is the median of REPEAT timed runs
# after WARMUP runs, in one process; ROUNDS rounds alternate ge and ORT, and the
# table shows the median over the rounds. "ORT/ge" above 1 means ge is faster.
# The error columns compare each runtime's output with torch's reference output:
# max |out - ref| / max |ref| (bench/npy_compare.py).
# Environment: ROUNDS (3), THREADS (2), GE (build/ge), REPEAT and WARMUP
# (default per model: 10/2 for the CNNs, 200/20 for the transformers),
# MODELS (a space-separated list of model names; default every model).
#
# If `ge run` is not available yet, the ORT columns are printed and ge is
# reported missing (exit 0). Needs python3-torch python3-torchvision
# python3-numpy python3-onnx (installed as root through scripts/deps.sh) for the
# export, node and npm (onnxruntime-node is installed into build/ort when missing).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

ROUNDS=${ROUNDS:-3}
THREADS=${THREADS:-2}
GE=${GE:-build/ge}
MODELS_ONLY=${MODELS:-}
MODELS=build/models
OUT=build/bench_models
PY=/usr/bin/python3
BATCH=1
# OPENBLAS_CORETYPE forces slower kernels; a benchmark may drop it for itself.
unset OPENBLAS_CORETYPE

die() { echo "models.sh: $*" >&2; exit 1; }

# --- inputs: the exported models and ONNX Runtime ----------------------------
# exported again only when export.py changed (its sha256 in models.json), not
# when it is merely newer: a fresh checkout must not rewrite a shared build/models
exporter=$(sha256sum bench/models/export.py | cut -c1-64)
if [[ ! -s $MODELS/models.json ]] || ! grep -q "\"exporter\": \"$exporter\"" "$MODELS/models.json"; then
    if ! $PY -c 'import torch, torchvision, onnx, numpy' 2>/dev/null; then
        scripts/deps.sh python3-torch python3-torchvision python3-numpy python3-onnx >&2 ||
            die "needs python3-torch python3-torchvision python3-numpy python3-onnx"
    fi
    echo "models.sh: exporting the models into $MODELS" >&2
    $PY bench/models/export.py "$MODELS" >&2 || die "export.py failed"
fi
if [[ ! -d build/ort/node_modules/onnxruntime-node ]]; then
    command -v npm >/dev/null || die "needs node and npm for ONNX Runtime (Debian: nodejs npm)"
    echo "models.sh: installing onnxruntime-node into build/ort" >&2
    npm install --ignore-scripts --no-audit --no-fund --prefix build/ort onnxruntime-node@1.30 >&2 ||
        die "npm install onnxruntime-node failed"
fi

# One line per model: NAME FILE INPUT OUTPUT OPSET (names sanitized as ge writes them).
mapfile -t MODEL_LINES < <(python3 - "$MODELS/models.json" <<'EOF'
import json, re, sys
for m in json.load(open(sys.argv[1]))["models"]:
    print(m["name"], m["file"], m["input"], re.sub(r"[^A-Za-z0-9._-]", "_", m["output"]), m["opset"])
EOF
)
[[ ${#MODEL_LINES[@]} -gt 0 ]] || die "no models in $MODELS/models.json"
if [[ -n ${MODELS_ONLY:-} ]]; then
    picked=()
    for line in "${MODEL_LINES[@]}"; do
        for want in $MODELS_ONLY; do [[ ${line%% *} == "$want" ]] && picked+=("$line"); done
    done
    [[ ${#picked[@]} -gt 0 ]] || die "none of MODELS=\"$MODELS_ONLY\" is in $MODELS/models.json"
    MODEL_LINES=("${picked[@]}")
fi

have_ge=1
ge_why=""
if [[ ! -x $GE ]]; then
    have_ge=0; ge_why="$GE not built (make)"
else
    read -r name file input output opset <<<"${MODEL_LINES[-1]}"
    probe=$("$GE" run "$MODELS/$file" --input "$input=$MODELS/$name.b$BATCH.input.npy" \
            --threads "$THREADS" --repeat 1 --warmup 0 --outdir "$OUT/probe" 2>&1)
    if ! grep -q 'median_ms=' <<<"$probe"; then
        have_ge=0; ge_why="'ge run' failed: $(head -n 1 <<<"$probe")"
    fi
fi

med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

ort_ms() { # MODEL INPUT_SPEC REPEAT WARMUP OUTDIR
    local out
    out=$(node bench/ort/run.js "$1" "$2" --threads "$THREADS" --repeat "$3" --warmup "$4" \
          --outdir "$5") || return 1
    sed -n 's/.*"median_ms":\([-0-9.eE+]*\).*/\1/p' <<<"$out"
}
ge_ms() { # MODEL INPUT_SPEC REPEAT WARMUP OUTDIR
    local out
    out=$("$GE" run "$1" --input "$2" --threads "$THREADS" --repeat "$3" --warmup "$4" \
          --outdir "$5" 2>&1) || { printf '%s\n' "$out" | tail -n 5 >&2; return 1; }
    grep -o 'median_ms=[-0-9.eE+]*' <<<"$out" | head -n 1 | cut -d= -f2
}
relerr() { # OUT.npy REF.npy
    [[ -s $1 ]] || { echo "no output"; return; }
    python3 bench/npy_compare.py "$1" "$2" 2>/dev/null || echo "mismatch"
}

rows=()
for line in "${MODEL_LINES[@]}"; do
    read -r name file input output opset <<<"$line"
    case $name in
        transformer*) rep=${REPEAT:-200} warm=${WARMUP:-20} ;;
        *)            rep=${REPEAT:-10}  warm=${WARMUP:-2} ;;
    esac
    model=$MODELS/$file
    spec=$input=$MODELS/$name.b$BATCH.input.npy
    ref=$MODELS/$name.b$BATCH.output.npy
    rm -rf "$OUT/$name.ge" "$OUT/$name.ort"
    ge_t=() ort_t=() ge_fail=""
    for ((r = 0; r < ROUNDS; r++)); do
        if ((r % 2 == 0)); then order="ort ge"; else order="ge ort"; fi
        for who in $order; do
            if [[ $who == ge ]]; then
                ((have_ge)) && [[ -z $ge_fail ]] || continue
                if v=$(ge_ms "$model" "$spec" "$rep" "$warm" "$OUT/$name.ge") && [[ -n $v ]]; then
                    ge_t+=("$v")
                else
                    ge_fail="ge run failed"
                fi
            else
                v=$(ort_ms "$model" "$spec" "$rep" "$warm" "$OUT/$name.ort") && [[ -n $v ]] ||
                    die "ONNX Runtime failed on $model"
                ort_t+=("$v")
            fi
        done
    done
    ort_med=$(med "${ort_t[@]}")
    ort_err=$(relerr "$OUT/$name.ort/$output.npy" "$ref")
    if ((have_ge)) && [[ -z $ge_fail ]]; then
        ge_med=$(med "${ge_t[@]}")
        ge_err=$(relerr "$OUT/$name.ge/$output.npy" "$ref")
        ratio=$(awk -v o="$ort_med" -v g="$ge_med" 'BEGIN {printf "%.2f", (g > 0 ? o / g : 0)}')
        ge_col=$(printf '%.3f' "$ge_med")
    else
        ge_col=${ge_fail:-missing} ge_err=- ratio=-
    fi
    rows+=("$(printf '%-18s %5s %12s %12s %8s %11s %11s' "$name" "$opset" "$ge_col" \
              "$(printf '%.3f' "$ort_med")" "$ratio" "$ge_err" "$ort_err")")
    echo "models.sh: $name done" >&2
done

echo
echo "Model latency, batch $BATCH, $THREADS threads (ms, median of $ROUNDS rounds of the median of"
echo "REPEAT runs after warm-up); error = max|out - torch| / max|torch|"
echo
printf '%-18s %5s %12s %12s %8s %11s %11s\n' model opset "ge ms" "ORT ms" ORT/ge "ge error" "ORT error"
printf '%-18s %5s %12s %12s %8s %11s %11s\n' ------------------ ----- ------------ ------------ -------- ----------- -----------
printf '%s\n' "${rows[@]}"
if ((!have_ge)); then
    echo
    echo "ge: missing — $ge_why"
fi
exit 0
