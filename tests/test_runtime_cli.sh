#!/usr/bin/env bash
# `ge run --profile` and `--timeout-ms` end to end, on a model written here:
# x [4,N] -> B branches of D x (MatMul by an [N,N] weight, Tanh) -> summed.
#  - the trace parses as JSON (python3), has one "X" event per task (the
#    per-op table's "all tasks" count), a lane per stream under the stream
#    executor and as many flow starts as ends; the table's total over the
#    timed runs is about their run time (single thread: 80-101%);
#  - a run longer than --timeout-ms fails under every executor, naming the
#    node that was running; a bad --timeout-ms value is a usage error.
# Needs python3 with numpy and onnx (to write the model); else runs nothing
# and says so. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
GE=${GE:-build/ge}
PY=/usr/bin/python3
pass=0 fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
ok()  { echo "PASS $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); [[ -s $t/err ]] && sed 's/^/    /' "$t/err" | head -n 15; }

if ! $PY -c 'import numpy, onnx' 2>/dev/null; then
    echo "test_runtime_cli.sh: needs python3-numpy and python3-onnx; nothing run"
    echo "0 passed, 0 failed"; exit 0
fi
[[ -x $GE ]] || { echo "FAIL $GE missing (make build/ge)"; echo "0 passed, 1 failed"; exit 1; }

cat > "$t/gen.py" <<'PYEOF'
import sys, numpy as np, onnx
from onnx import TensorProto, helper, numpy_helper
out, B, D, N, R = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rng = np.random.default_rng(7)
nodes, inits, ends = [], [], []
for b in range(B):
    prev = "x"
    for k in range(D):
        w = "w%d_%d" % (b, k)
        inits.append(numpy_helper.from_array((rng.standard_normal((N, N)) * (0.5 / np.sqrt(N))).astype(np.float32), w))
        nodes.append(helper.make_node("MatMul", [prev, w], ["m%d_%d" % (b, k)], name="mm%d_%d" % (b, k)))
        nodes.append(helper.make_node("Tanh", ["m%d_%d" % (b, k)], ["t%d_%d" % (b, k)], name="tanh%d_%d" % (b, k)))
        prev = "t%d_%d" % (b, k)
    ends.append(prev)
acc = ends[0]
for b in range(1, B):
    nodes.append(helper.make_node("Add", [acc, ends[b]], ["s%d" % b], name="add%d" % b))
    acc = "s%d" % b
nodes[-1].output[0] = "y"
g = helper.make_graph(nodes, "branches", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [R, N])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [R, N])], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
m.ir_version = 7
onnx.save(m, "%s/b%d_%d_%d.onnx" % (out, B, D, N))
np.save("%s/x%d.npy" % (out, N), rng.standard_normal((R, N)).astype(np.float32))
PYEOF
# the second model's 64 products of 256 rows take far longer than the 3 ms
# timeout below (8.6 GFLOP a run, tens of ms on any CPU: the test must not
# depend on how fast the kernels are)
$PY "$t/gen.py" "$t" 4 4 256 4 && $PY "$t/gen.py" "$t" 8 8 512 256 || { echo "FAIL writing the models"; echo "0 passed, 1 failed"; exit 1; }

# check_trace NAME TRACE STDERR MIN_LANES: JSON, X count, lanes, flows, table total
check_trace() {
    $PY - "$2" "$3" "$4" > "$t/err" 2>&1 <<'PYEOF'
import json, re, sys
trace, log, min_lanes = sys.argv[1], open(sys.argv[2]).read(), int(sys.argv[3])
ev = json.load(open(trace))["traceEvents"]
xs = [e for e in ev if e["ph"] == "X"]
m = re.search(r"^all tasks +(\d+) +([0-9.]+) .*\((\d+) runs, ([0-9.]+) ms each", log, re.M)
assert m, "no 'all tasks' row in:\n" + log
tasks, total_ms, runs, each_ms = int(m.group(1)), float(m.group(2)), int(m.group(3)), float(m.group(4))
assert len(xs) == tasks, "%d X events, %d tasks" % (len(xs), tasks)
assert all(e["dur"] >= 0 and "op" in e["args"] and "engine" in e["args"] for e in xs), "bad X event"
lanes = {e["tid"] for e in xs}
assert len(lanes) >= min_lanes, "lanes %s, want at least %d" % (sorted(lanes), min_lanes)
s = sum(e["ph"] == "s" for e in ev); f = sum(e["ph"] == "f" for e in ev)
assert s == f, "%d flow starts, %d ends" % (s, f)
assert min_lanes < 2 or s >= 1, "no flow between streams"
if min_lanes == 1:  # one thread: the tasks fill the run
    ratio = total_ms / (runs * each_ms)
    assert 0.8 <= ratio <= 1.01, "the table sums to %.3f of the run time" % ratio
PYEOF
}

M1=$t/b4_4_256.onnx X1=$t/x256.npy
if "$GE" run "$M1" --input "x=$X1" --repeat 20 --warmup 2 --threads 1 --executor sequential --profile "$t/seq.json" \
       > "$t/out" 2> "$t/log" && check_trace seq "$t/seq.json" "$t/log" 1; then ok "profile, sequential"
else cat "$t/log" >> "$t/err"; bad "profile, sequential"; fi
for mode in sink host; do
    if "$GE" run "$M1" --input "x=$X1" --repeat 20 --warmup 2 --threads 2 --executor streams --mode $mode \
           --profile "$t/st.json" > "$t/out" 2> "$t/log" && check_trace st "$t/st.json" "$t/log" 2; then ok "profile, streams $mode"
    else cat "$t/log" >> "$t/err"; bad "profile, streams $mode"; fi
done

M2=$t/b8_8_512.onnx X2=$t/x512.npy
for ex in sequential topological priority multi-thread streams; do
    if "$GE" run "$M2" --input "x=$X2" --repeat 3 --threads 2 --executor $ex --timeout-ms 3 > "$t/out" 2> "$t/err"; then
        echo "    the run did not time out" >> "$t/err"; bad "timeout, $ex"
    elif grep -Eq "run timed out after 3 ms: node '(mm|tanh|add)[0-9_]+' \((MatMul|Tanh|Add|[A-Za-z]+)\) was running" "$t/err"; then
        ok "timeout, $ex"
    else bad "timeout, $ex"; fi
done
if "$GE" run "$M2" --input "x=$X2" --timeout-ms 0 > "$t/out" 2> "$t/err"; then bad "--timeout-ms 0 refused"
elif grep -q "bad value '0' for --timeout-ms" "$t/err"; then ok "--timeout-ms 0 refused"; else bad "--timeout-ms 0 refused"; fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
