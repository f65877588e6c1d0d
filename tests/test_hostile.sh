#!/usr/bin/env bash
# Hostile inputs: malformed models, .npy files and options (tests/hostile_gen.py
# writes them and the list of cases). Each must be refused by the ge tool with
# a nonzero exit, no signal, and a message naming the culprit (a keyword).
# Ends with "N passed, N failed".
#
#   tests/test_hostile.sh             (run by `make test`; GE=path overrides the tool)
#   GE=build/san/ge tests/test_hostile.sh     (the same under ASan+UBSan)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
pass=0 fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
ok()  { echo "PASS $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1: $2"; fail=$((fail + 1)); sed 's/^/    /' "$t/err" | head -n 5; }
finish() { echo "$pass passed, $fail failed"; [[ $fail -eq 0 ]]; exit; }

# The tool: $BUILD/ge (run_all.sh passes BUILD), built unless GE names one.
if [[ -z ${GE:-} ]]; then
    GE=${BUILD:-build}/ge
    if ! ${MAKE:-make} --no-print-directory -s "$GE" > "$t/err" 2>&1; then
        bad "build $GE" "make failed"; finish
    fi
fi
if ! python3 tests/hostile_gen.py "$t/in" > "$t/err" 2>&1; then
    bad hostile_gen.py "the generator failed"; finish
fi

# A sanitizer report is a failure even when the exit status looks right.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
while IFS=$'\t' read -r -a f; do
    name=${f[0]} keyword=${f[1]}
    timeout 120 "$GE" "${f[@]:2}" > "$t/out" 2> "$t/err"
    rc=$?
    if [[ $rc -eq 0 ]]; then bad "$name" "accepted (exit 0)"
    elif [[ $rc -eq 124 ]]; then bad "$name" "timed out"
    elif [[ $rc -gt 128 ]]; then bad "$name" "killed by signal $((rc - 128))"
    elif grep -q -E 'Sanitizer|runtime error:' "$t/err"; then bad "$name" "sanitizer report"
    elif ! grep -q -i -F -- "$keyword" "$t/err"; then bad "$name" "message does not name '$keyword'"
    else ok "$name"
    fi
done < "$t/in/cases.tsv"

# A good input still runs (the suite must not pass by refusing everything).
if "$GE" run "$t/in/relu.onnx" --input "x=$t/in/x_2x4.npy" > "$t/out" 2> "$t/err" && grep -q "output y" "$t/out"; then
    ok good_model_runs
else
    bad good_model_runs "a valid model and input were refused"
fi
finish
