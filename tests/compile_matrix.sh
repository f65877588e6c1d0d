#!/usr/bin/env bash
# Compile matrix (DESIGN §7): every top-level ge_*.h, every ge_engines/*.h and dist/ge.h
# (if present) must compile alone, declarations only and with its implementation, as
# C99 (gcc and clang, -pedantic -Wall -Wextra -Werror) and as C++11 (g++), work with
# GE_STATIC, link from two translation units, and keep no writable global data.
#   tests/compile_matrix.sh [HEADER...]     (default: all of the above)
# Headers are checked in parallel (GE_JOBS, default nproc); output stays in header order.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

CC_GCC=${CC_GCC:-gcc} CC_CLANG=${CC_CLANG:-clang} CXX=${CXX:-g++}
C99="-std=c99 -pedantic -Wall -Wextra -Werror -I."
CXX11="-std=c++11 -Wall -Werror -I."
# Writable data that is allowed (a regex of symbol names); none so far.
DATA_ALLOW=${GE_MATRIX_DATA_ALLOW:-'^$'}

# Macro names for a header: the one its implementation guard names next to GE_IMPLEMENTATION
# (ge_graph.h -> GE_GRAPH_IMPLEMENTATION, ge_engines/ge_local.h -> GE_GE_LOCAL_IMPLEMENTATION);
# without such a guard, from the file name (GE_ prefixed when the stem lacks it); dist/ge.h ->
# GE_IMPLEMENTATION.
impl_macro() {
    local stem guard
    stem=$(basename "$1" .h | tr '[:lower:]' '[:upper:]')
    [[ $stem == GE ]] && { echo GE_IMPLEMENTATION; return; }
    guard=$(grep -o -m1 'defined(GE_IMPLEMENTATION) || defined(GE_[A-Z0-9_]*_IMPLEMENTATION)' "$1" |
        sed 's/.*defined(\(GE_[A-Z0-9_]*\))$/\1/')
    [[ -n $guard ]] && { echo "$guard"; return; }
    [[ $stem == GE_* ]] || stem=GE_$stem
    echo "${stem}_IMPLEMENTATION"
}

check_header() { # HEADER: runs every check, prints PASS/FAIL lines
    local h=$1 impl t ok
    impl=$(impl_macro "$h")
    t=$(mktemp -d)
    # TU files: the header alone, with its implementation, included twice.
    printf '#include "%s"\n' "$h" > "$t/decl.c"
    printf '#define %s\n#include "%s"\n' "$impl" "$h" > "$t/impl.c"
    printf '#define %s\n#include "%s"\n#include "%s"\n' "$impl" "$h" "$h" > "$t/twice.c"
    cp "$t/decl.c" "$t/decl.cpp"; cp "$t/impl.c" "$t/impl.cpp"
    # Two TUs for linking: GE_IMPLEMENTATION so the implementations of the headers this one
    # includes (ge_graph.h, ...) are there too; the other TU sees declarations only.
    printf '#define GE_IMPLEMENTATION\n#include "%s"\n' "$h" > "$t/tu1.c"
    printf '#include "%s"\nint main(void) { return 0; }\n' "$h" > "$t/tu2.c"
    # GE_STATIC in both TUs: each gets private copies, so no duplicate symbols.
    printf '#define GE_STATIC\n#define GE_IMPLEMENTATION\n#include "%s"\n' "$h" > "$t/st1.c"
    printf '#define GE_STATIC\n#define GE_IMPLEMENTATION\n#include "%s"\nint main(void) { return 0; }\n' "$h" > "$t/st2.c"

    # run DESC CMD...: one check; compiler output is shown only on failure.
    run() {
        local desc=$1; shift
        if "$@" > "$t/out" 2>&1; then echo "PASS $h: $desc"
        else echo "FAIL $h: $desc"; sed 's/^/    /' "$t/out" | head -n 30; fi
    }
    run "gcc c99 decl-only"   $CC_GCC   $C99 -fsyntax-only "$t/decl.c"
    run "clang c99 decl-only" $CC_CLANG $C99 -fsyntax-only "$t/decl.c"
    run "g++ c++11 decl-only" $CXX    $CXX11 -fsyntax-only "$t/decl.cpp"
    run "gcc c99 -O2 impl"    $CC_GCC   $C99 -O2 -c "$t/impl.c" -o "$t/impl.o"
    run "clang c99 impl"      $CC_CLANG $C99 -c "$t/impl.c" -o "$t/impl_clang.o"
    run "g++ c++11 impl"      $CXX    $CXX11 -c "$t/impl.cpp" -o "$t/impl_cpp.o"
    run "included twice"      $CC_GCC   $C99 -fsyntax-only "$t/twice.c"
    # GE_STATIC makes even the included headers' functions static, so the TU needs all
    # their implementations: GE_IMPLEMENTATION (tu1.c) rather than this header's macro.
    run "gcc GE_STATIC impl"  $CC_GCC   $C99 -DGE_STATIC -c "$t/tu1.c" -o "$t/static.o"

    # GE_STATIC: no global (T/D/B/R/C) symbol named ge_* may be defined.
    if [[ -f $t/static.o ]]; then
        ok=$(nm "$t/static.o" | awk '$2 ~ /^[TDBRCVWG]$/ && $3 ~ /^ge_/ {print $3}')
        run "GE_STATIC leaves no external ge_* symbols" test -z "$ok"
        [[ -z $ok ]] || echo "$ok" | sed 's/^/    external: /'
    fi
    # No mutable globals (DESIGN §6): no object in a writable data or bss section, global or
    # local. Tables of pointers sit in .data.rel.ro (read-only once relocated; nm calls it
    # 'd'), so the check reads each symbol's section with objdump rather than nm's letter.
    if [[ -f $t/impl.o ]]; then
        ok=$(objdump -t "$t/impl.o" | awk 'NF >= 5 && $(NF-2) ~ /^\.(data|bss|sdata|sbss)/ && $(NF-2) !~ /rel\.ro/ \
                                           && $(NF-3) ~ /O/ {print $NF}' | grep -Ev "$DATA_ALLOW")
        run "no writable global data" test -z "$ok"
        [[ -z $ok ]] || echo "$ok" | sed 's/^/    writable: /'
    fi
    run "two TUs link" \
        $CC_GCC $C99 "$t/tu1.c" "$t/tu2.c" -o "$t/two" -lm
    run "two GE_STATIC TUs link" \
        $CC_GCC $C99 -Wno-unused-function "$t/st1.c" "$t/st2.c" -o "$t/two_static" -lm
    rm -rf "$t"
}

if [[ ${1:-} == --one ]]; then check_header "$2"; exit 0; fi

if [[ $# -gt 0 ]]; then headers=("$@")
else
    shopt -s nullglob
    headers=(ge_*.h ge_engines/*.h)
    [[ -f dist/ge.h ]] && headers+=(dist/ge.h)
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# One process per header, GE_JOBS at a time; each writes its own log, printed in order.
for i in "${!headers[@]}"; do printf '%s\0%s\0' "${headers[$i]}" "$out/$i.log"; done |
    xargs -0 -n 2 -P "${GE_JOBS:-$(nproc)}" sh -c '"$0" --one "$1" > "$2" 2>&1' "$0"
for i in "${!headers[@]}"; do cat "$out/$i.log"; done | tee "$out/all"

pass=$(grep -c '^PASS ' "$out/all") fail=$(grep -c '^FAIL ' "$out/all")
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
