#!/usr/bin/env bash
# Real models end to end: `ge run` on models exported from PyTorch must reproduce
# torch's outputs. Ends with "N passed, N failed" (exit 1 on a failure).
#
#   tests/test_models.sh            (run by `make test`; GE=path overrides the tool)
#
# bench/models/export.py writes resnet18, mobilenet_v2 and a 2-layer Transformer
# encoder at opsets 13 and 17 into build/models (skipped when models.json names this
# script's sha256), with torch's inputs and outputs for batch 1 and 4. For each
# model and batch this runs
#   ge run MODEL --input NAME=FILE.npy --outdir DIR --repeat 1 --warmup 1
# (batch 1 also with each placement option: --option ge.engineType=VectorEngine,
# ge.exec.exclude_engines=AiCore, ge.exec.hostExecFlag=1) and compares
# DIR/<output name>.npy with torch's output: max|ge - torch| / max|torch| must
# be at most 1e-4 (bench/npy_compare.py).
# Without PyTorch for /usr/bin/python3 (Debian python3-torch python3-torchvision
# python3-numpy python3-onnx) it runs nothing and says so.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
PY=/usr/bin/python3
MODELS=build/models
TOL=1e-4
pass=0 fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
ok()  { echo "PASS $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); [[ -s $t/err ]] && sed 's/^/    /' "$t/err" | head -n 15; }
finish() { echo "$pass passed, $fail failed"; [[ $fail -eq 0 ]]; exit; }

if ! $PY -c 'import torch, torchvision, onnx, numpy' 2>/dev/null; then
    echo "test_models: PyTorch is not importable by $PY; skipping the model tests"
    echo "  (as root: apt-get install -y python3-torch python3-torchvision python3-numpy python3-onnx)"
    finish
fi

# The tool: build it unless GE names one. It is $BUILD/ge (run_all.sh passes BUILD);
# run by hand under SAN=1 (which reaches us through MAKEFLAGS) it is build/san/ge.
if [[ -z ${GE:-} ]]; then
    if [[ -n ${BUILD:-} ]]; then GE=$BUILD/ge
    elif [[ " ${MAKEFLAGS:-} " == *" SAN=1 "* ]]; then GE=build/san/ge
    else GE=build/ge; fi
    if ! ${MAKE:-make} --no-print-directory -s all > "$t/err" 2>&1; then
        bad "build $GE"; finish
    fi
fi

# Export unless up to date: models.json made by this export.py (its sha256), every listed file there.
up_to_date() {
    local exporter
    exporter=$(sha256sum bench/models/export.py | cut -c1-64)
    [[ -s $MODELS/models.json ]] && grep -q "\"exporter\": \"$exporter\"" "$MODELS/models.json" || return 1
    python3 - "$MODELS" <<'EOF'
import json, os, sys
d = sys.argv[1]
for m in json.load(open(os.path.join(d, "models.json")))["models"]:
    files = [m["file"]] + ["%s.b%d.%s.npy" % (m["name"], b, k) for b in m["batches"]
                           for k in ("input", "output")]
    if not all(os.path.isfile(os.path.join(d, f)) for f in files):
        sys.exit(1)
EOF
}
if ! up_to_date; then
    if $PY bench/models/export.py "$MODELS" > "$t/err" 2>&1; then ok "export.py"
    else bad "export.py"; finish; fi
fi

# NAME FILE INPUT OUTPUT(sanitized as ge writes it) BATCHES(comma-separated) SHAPE(B: the batch)
mapfile -t lines < <(python3 - "$MODELS/models.json" <<'EOF'
import json, re, sys
for m in json.load(open(sys.argv[1]))["models"]:
    print(m["name"], m["file"], m["input"], re.sub(r"[^A-Za-z0-9._-]", "_", m["output"]),
          ",".join(str(b) for b in m["batches"]),
          ",".join("B" if isinstance(d, str) else str(d) for d in m["input_shape"]))
EOF
)
[[ ${#lines[@]} -gt 0 ]] || { : > "$t/err"; bad "models.json lists models"; finish; }

# Every batch with the default placement, and with the input shape fixed by
# ge.inputShape (a static model: it runs from its stream and memory plan, one
# block); batch 1 again under each placement option (the dense ops then run
# on the AI CPU or host CPU engines).
PLACEMENTS=("" "STATIC" "ge.engineType=VectorEngine" "ge.exec.exclude_engines=AiCore" "ge.exec.hostExecFlag=1")
for line in "${lines[@]}"; do
    read -r name file input output batches shape <<<"$line"
    for run in "${PLACEMENTS[@]/#/-}"; do
      for b in ${batches//,/ }; do
        option=${run#-}
        [[ $option == STATIC ]] && option="ge.inputShape=$input:${shape//B/$b}"
        [[ -n $option && $option != ge.inputShape=* && $b != 1 ]] && continue
        test="ge run $name batch $b${option:+ --option $option}"
        dir=$t/$name.b$b
        rm -rf "$dir"
        timeout 600 "$GE" run "$MODELS/$file" --input "$input=$MODELS/$name.b$b.input.npy" \
            ${option:+--option "$option"} --outdir "$dir" --repeat 1 --warmup 1 > "$t/err" 2>&1
        rc=$?
        if [[ $rc -ne 0 ]]; then
            echo "(ge run exited with status $rc$([[ $rc -eq 124 ]] && echo ': timeout'))" >> "$t/err"
            bad "$test"; continue
        fi
        if [[ ! -f $dir/$output.npy ]]; then
            echo "ge run wrote no $output.npy in --outdir (it wrote: $(ls "$dir" 2>/dev/null | tr '\n' ' '))" > "$t/err"
            bad "$test"; continue
        fi
        if err=$(python3 bench/npy_compare.py "$dir/$output.npy" "$MODELS/$name.b$b.output.npy" \
                 --tol "$TOL" 2> "$t/err"); then
            ok "$test (relative error $err)"
        else
            [[ -n $err ]] && echo "relative error $err > $TOL" >> "$t/err"
            bad "$test"
        fi
      done
    done
done
finish
