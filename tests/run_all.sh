#!/usr/bin/env bash
# Runs every test suite and prints one aggregate line "N passed, N failed" last.
#   tests/run_all.sh [BUILD_DIR]      (called by `make test`; MAKE names the make to use)
# Suites, in order: build/test_* programs (from tests/test_*.c), tests/compile_matrix.sh,
# then every other tests/test_*.sh. Each suite prints PASS/FAIL lines and ends with its own
# "N passed, N failed" line, which is what gets summed here.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${1:-build}
MAKE=${MAKE:-make}
TIMEOUT=${GE_TEST_TIMEOUT:-900}   # seconds per suite; a hang must not stall CI forever

total_pass=0 total_fail=0
add() { total_pass=$((total_pass + $1)); total_fail=$((total_fail + $2)); }

# Build all test programs and dist/ge.h at once (parallel under make -j). A failed build
# is reported per suite below rather than aborting, so the summary stays the last line.
build_start=$SECONDS
$MAKE -k -j"${GE_JOBS:-$(nproc)}" --no-print-directory test-build || true
echo "-- build took $((SECONDS - build_start)) s"

run_suite() { # NAME CMD...
    local name=$1 log rc last p f
    shift
    log=$(mktemp)
    echo "== $name"
    local start=$SECONDS
    timeout "$TIMEOUT" "$@" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    echo "-- $name took $((SECONDS - start)) s"
    last=$(tail -n 1 "$log")
    if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]}
        if [[ $rc -ne 0 && $f -eq 0 ]]; then
            echo "FAIL $name: exit status $rc despite 0 failures"; f=1
        fi
    else
        # Crash, timeout (124) or missing summary: count what ran, plus one failure.
        p=$(grep -c '^PASS ' "$log") f=$(grep -c '^FAIL ' "$log")
        echo "FAIL $name: exited with status $rc without a summary line"; f=$((f + 1))
    fi
    rm -f "$log"
    add "$p" "$f"
}

for src in tests/test_*.c; do
    [[ -e $src ]] || continue
    name=$(basename "$src" .c)
    # make -q succeeds only if the program is up to date, i.e. its build just worked.
    if ! $MAKE -q --no-print-directory "$BUILD/$name" 2>/dev/null; then
        echo "== $name"; echo "FAIL $name: build failed (see compiler output above)"
        add 0 1
        continue
    fi
    run_suite "$name" "$BUILD/$name"
done

# The matrix compiles every header seven ways: twice the time of a suite on a busy machine.
TIMEOUT=$((TIMEOUT * 2)) run_suite compile_matrix tests/compile_matrix.sh

for script in tests/test_*.sh; do
    [[ -e $script ]] || continue
    BUILD=$BUILD run_suite "$(basename "$script" .sh)" "$script"
done

echo "$total_pass passed, $total_fail failed"
[[ $total_fail -eq 0 ]]
