#!/usr/bin/env bash
# bench/zoo/run.sh [NAME...] — ge against ONNX Runtime on torchvision
# architectures exported by bench/zoo/export.py (into build/zoo, once).
#
# Per model, one line: ONNX Runtime's and ge's median ms (THREADS, REPEAT
# runs after WARMUP, each in its own process), ORT/ge, and every output's
# max |ge - ORT| / max |ORT| (bench/npy_compare.py). Environment: THREADS
# (1), REPEAT (5), WARMUP (2), GE (build/ge), ZOO (build/zoo), CPU (0; 1:
# the medians of each run's CPU time instead of its wall time, for a loaded
# machine at 1 thread: median_cpu_ms of bench/ort/run.js, cpu_ms of ge run),
# ROUNDS (1; more: ONNX Runtime and ge alternate ROUNDS times per model,
# the line gives the medians of their times and of the rounds' ratios, and
# a last line the geometric mean of the ratios and the models below 1).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
THREADS=${THREADS:-1} REPEAT=${REPEAT:-5} WARMUP=${WARMUP:-2} GE=${GE:-build/ge} ZOO=${ZOO:-build/zoo} CPU=${CPU:-0}
ROUNDS=${ROUNDS:-1}
OUT=build/bench_zoo
die() { echo "zoo: $*" >&2; exit 1; }
[[ -x $GE ]] || die "$GE not built (make build/ge)"
[[ -d build/ort/node_modules/onnxruntime-node ]] || die "needs ONNX Runtime in build/ort (see bench/models.sh)"
names=("$@")
if ((${#names[@]} == 0)); then
    mapfile -t names < <(/usr/bin/python3 -c 'import runpy; print("\n".join(runpy.run_path("bench/zoo/export.py")["MODELS"]))')
fi
missing=(); for n in "${names[@]}"; do [[ -s $ZOO/$n.onnx ]] || missing+=("$n"); done
if ((${#missing[@]})); then /usr/bin/python3 bench/zoo/export.py "$ZOO" "${missing[@]}" >&2 || die "export failed"; fi
ms() { grep -o "$1" "$2" | head -n 1 | sed 's/.*[=:]//'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
ratios=()
printf '%-40s %10s %10s %7s  %s\n' model "ORT ms" "ge ms" ORT/ge "rel err per output"
for n in "${names[@]}"; do
    [[ -s $ZOO/$n.onnx ]] || { printf '%-40s not exported\n' "$n"; continue; }
    d=$OUT/$n; rm -rf "$d"; mkdir -p "$d"
    ort_in=(); ge_in=()
    for f in "$ZOO/$n".in*.npy; do k=${f##*.in}; k=in${k%.npy}; ort_in+=("$k=$f"); ge_in+=(--input "$k=$f"); done
    os=(); gs=(); rs=()
    for ((r = 0; r < ROUNDS; r++)); do
        node bench/ort/run.js "$ZOO/$n.onnx" "${ort_in[@]}" --threads "$THREADS" --repeat "$REPEAT" --warmup "$WARMUP" \
            --outdir "$d/ort" >"$d/ort.log" 2>&1
        "$GE" run "$ZOO/$n.onnx" "${ge_in[@]}" --threads "$THREADS" --repeat "$REPEAT" --warmup "$WARMUP" \
            --outdir "$d/ge" >"$d/ge.log" 2>&1
        if ((CPU)); then o=$(ms '"median_cpu_ms":[0-9.]*' "$d/ort.log"); g=$(ms 'cpu_ms=[0-9.]*' "$d/ge.log")
        else o=$(ms '"median_ms":[0-9.]*' "$d/ort.log"); g=$(ms 'median_ms=[0-9.]*' "$d/ge.log"); fi
        [[ -n $o && -n $g ]] || break
        os+=("$o"); gs+=("$g"); rs+=("$(awk -v o="$o" -v g="$g" 'BEGIN { print o / g }')")
    done
    ((${#rs[@]} == ROUNDS)) && o=$(median "${os[@]}") g=$(median "${gs[@]}")
    errs=""
    for f in "$d"/ort/*.npy; do
        [[ -e $f ]] || continue
        b=$(basename "$f" .npy)
        if [[ -s $d/ge/$b.npy ]]; then errs+="$b $(python3 bench/npy_compare.py "$d/ge/$b.npy" "$f" 2>&1)  "
        else errs+="$b missing  "; fi
    done
    ratio=-
    if ((${#rs[@]} == ROUNDS)) && [[ -n $o && -n $g ]]; then
        ratios+=("$(median "${rs[@]}")"); ratio=$(printf '%.2f' "${ratios[-1]}")
    fi
    [[ -n $g ]] || errs="ge failed: $(grep -m1 -i error "$d/ge.log" | cut -c1-100)"
    printf '%-40s %10s %10s %7s  %s\n' "$n" "${o:--}" "${g:--}" "$ratio" "$errs"
done
if ((ROUNDS > 1 && ${#ratios[@]})); then
    printf '%s\n' "${ratios[@]}" | awk '{ s += log($1); b += $1 < 1 } END { printf "geometric mean of ORT/ge %.2f over %d models, %d below 1\n", exp(s / NR), NR, b }'
fi
