#!/usr/bin/env bash
# The ONNX conformance cases under AddressSanitizer + UndefinedBehaviorSanitizer:
# every kernel, engine, executor and prepare-at-load path those cases reach,
# checked for out-of-bounds access, use after free, leaks and undefined
# behaviour (any of them fails its case or the run). The runner is built
# apart, in build/san (SAN=1); two configurations of tests/test_conformance.sh run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
MAKE=${MAKE:-make}
if [[ -d /usr/share/libonnx-testdata/data/node ]] && ! $MAKE -s --no-print-directory SAN=1 build/san/conformance; then
    echo "FAIL sanitized conformance runner: build failed"
    echo "0 passed, 1 failed"
    exit 1
fi
export UBSAN_OPTIONS=print_stacktrace=1
BUILD=build/san QUICK=1 exec tests/test_conformance.sh
