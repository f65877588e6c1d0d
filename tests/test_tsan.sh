#!/usr/bin/env bash
# The threaded tests again under ThreadSanitizer: the runtime's pool, the
# executor (parallel kernels, streams, executors), the session (forks on two
# threads, async runs, caller streams), shape plans under the threaded
# executors. A data race fails the
# suite (TSan exits nonzero). Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
# The programs (and the library they link, libge.a) build through the Makefile at -O1 with
# -fsanitize=thread, in build/tsan (kept between runs, rebuilt when a source changes).
CC=${CC:-cc}
MAKE=${MAKE:-make}
TSAN_BUILD=build/tsan
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
pass=0 fail=0
for name in test_runtime test_exec test_runtime_exec test_session test_hybrid; do
    if ! $MAKE -s --no-print-directory CC="$CC" BUILD=$TSAN_BUILD SANFLAGS=-fsanitize=thread \
            CFLAGS='-std=c99 -g -O1' "$TSAN_BUILD/$name" > "$t/err" 2>&1; then
        echo "FAIL tsan $name: build"; sed 's/^/    /' "$t/err" | head -n 20; fail=$((fail + 1)); continue
    fi
    if GE_TEST_SKIP_MODELS=1 TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$TSAN_BUILD/$name" > "$t/out" 2>&1; then
        echo "PASS tsan $name"; pass=$((pass + 1))
    else
        echo "FAIL tsan $name"; grep -m 20 -E 'WARNING|FAIL|SUMMARY' "$t/out" | sed 's/^/    /'; fail=$((fail + 1))
    fi
done
echo "$pass passed, $fail failed"
