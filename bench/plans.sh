#!/usr/bin/env bash
# Stream and memory plans of the real models (batch 1), from `ge inspect --json`.
#
#   bench/plans.sh            (from any directory; paths are the repo's)
#
# For resnet18, mobilenet_v2 and the transformers (exported into build/models by
# bench/models/export.py, with a dynamic batch dim fixed to 1 by ge.inputShape)
# it prints, per model:
#   streams      physical streams of the static pass chain (default options)
#   events       events kept (the transitive reduction), with GE's send- and
#                receive-side passes alone, and one per cross-stream dependency
#   fm/lb        planned feature-map bytes over the lower bound (the most bytes
#                live at one step) — 1.00 is optimal for the lifetimes
#   fm/no-reuse  planned feature-map bytes over the sum of all tensors
#   1-stream     the same with ge.enableSingleStream=1 (no cross-stream limits)
# Needs the models (bench/models.sh or tests/test_models.sh export them).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
GE=${GE:-build/ge}
MODELS=build/models
PY=/usr/bin/python3

if [[ ! -f $MODELS/models.json ]]; then
    echo "bench/plans.sh: no models in $MODELS (run bench/models.sh or tests/test_models.sh first)"
    exit 0
fi
[[ -x $GE ]] || make --no-print-directory "$GE" >/dev/null || exit 1

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
printf "%-18s %6s %7s %9s %6s %9s %7s %12s %14s %14s\n" model nodes streams events ge_passes all fm/lb fm/no-reuse "1-stream fm/lb" "plan bytes"
for m in resnet18 mobilenet_v2 transformer_op13 transformer_op17; do
    f=$MODELS/$m.onnx
    [[ -f $f ]] || continue
    shape=$($PY -c "import json,sys; m=[x for x in json.load(open('$MODELS/models.json'))['models'] if x['name']=='$m'][0]; \
print(m['input']+':'+','.join('1' if isinstance(d,str) else str(d) for d in m['input_shape']))")
    "$GE" inspect "$f" --json --option ge.inputShape="$shape" > "$t/multi.json" 2>"$t/err" || { echo "$m: $(cat "$t/err")"; continue; }
    "$GE" inspect "$f" --json --option ge.inputShape="$shape" --option ge.enableSingleStream=1 > "$t/single.json" 2>"$t/err" || { echo "$m: $(cat "$t/err")"; continue; }
    $PY - "$m" "$t/multi.json" "$t/single.json" <<'EOF'
import json, sys
name, multi, single = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
s, mem, one = multi["stream_summary"], multi["memory"], single["memory"]
if not mem["planned"]:
    print(f"{name}: memory not planned: {mem['reason']}")
    sys.exit(0)
ratio = lambda m: m["feature_map"] / m["lower_bound"] if m["lower_bound"] else 1.0
nodes = sum(1 for n in multi["nodes"] if n["subgraph"] is None)
print(f"{name:<18} {nodes:>6} {s['physical_streams']:>7} {s['events']:>9} {s['events_ge_passes']:>6} {s['events_all']:>9} "
      f"{ratio(mem):>7.3f} {mem['feature_map'] / max(mem['no_reuse'], 1):>12.3f} {ratio(one):>14.3f} {mem['block_size']:>14}")
EOF
done
