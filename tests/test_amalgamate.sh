#!/usr/bin/env bash
# Tests amalgamate.py: deterministic output, correct #line markers, loud failures on an
# include cycle and on a missing project file, and examples/hello_dist.c built against
# dist/ge.h with one cc call. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
PY=${PYTHON:-python3}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
pass=0 fail=0
ok()  { echo "PASS $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); [[ -s $t/err ]] && sed 's/^/    /' "$t/err" | head -n 20; }

# Determinism: two runs, plain and with every option, must be byte-identical.
for opts in "" "--line --inline-system xxhash.h"; do
    if $PY amalgamate.py $opts -o "$t/a.h" 2> "$t/err" && $PY amalgamate.py $opts -o "$t/b.h" 2>> "$t/err" \
        && cmp -s "$t/a.h" "$t/b.h"; then ok "deterministic output (${opts:-no options})"
    else bad "deterministic output (${opts:-no options})"; fi
done

# --line: after each #line N "file" marker, the lines must be that file's lines N, N+1, ...
$PY amalgamate.py --line --inline-system xxhash.h -o "$t/line.h" 2> "$t/err"
if $PY - "$t/line.h" > "$t/err" 2>&1 <<'EOF'
import os, re, sys
src = None
for k, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    line = line.rstrip("\n")
    m = re.fullmatch(r'#line (\d+) "(.+)"', line)
    if m:
        n, name = int(m.group(1)), m.group(2)
        path = name if os.path.exists(name) else os.path.join("/usr/include", name)
        src = open(path, encoding="utf-8").read().splitlines()
        continue
    if src is None or n > len(src):
        continue  # between files: separators
    if not (line.startswith("/* amalgamate: ") and "#" in src[n - 1] and "include" in src[n - 1]) \
            and line != src[n - 1]:  # (a replaced #include becomes a comment)
        sys.exit("output line %d should be %s:%d" % (k, name, n))
    n += 1
EOF
then ok "--line markers point at the right source lines"; else bad "--line markers point at the right source lines"; fi

# Error fixtures in a scratch project: a cycle, and an include of a file that does not exist.
mkdir -p "$t/cycle" "$t/missing"
printf '#include "ge_b.h"\n' > "$t/cycle/ge_a.h"
printf '#include "ge_c.h"\n' > "$t/cycle/ge_b.h"
printf '#include "ge_a.h"\n' > "$t/cycle/ge_c.h"
printf '/* ok */\n' > "$t/cycle/ge_d.h"
printf '#include <stdio.h>\n#include "ge_nowhere.h"\n' > "$t/missing/ge_a.h"
if ! $PY amalgamate.py --root "$t/cycle" -o "$t/cycle/out.h" 2> "$t/err" \
    && grep -q 'cycle: ge_a.h -> ge_b.h -> ge_c.h -> ge_a.h' "$t/err" && [[ ! -e $t/cycle/out.h ]]
then ok "include cycle fails, naming the cycle"; else bad "include cycle fails, naming the cycle"; fi
if ! $PY amalgamate.py --root "$t/missing" -o "$t/missing/out.h" 2> "$t/err" \
    && grep -q 'ge_a.h:2: included file "ge_nowhere.h" not found' "$t/err"
then ok "missing project file fails, naming it"; else bad "missing project file fails, naming it"; fi

# Parts (headers in a subfolder, like ge_engines/host_cpu/*.h) are inlined where their one
# includer includes them, their own includes placed before that includer; two includers fail.
mkdir -p "$t/parts/ge_a"
printf '#define BEFORE 1\n#include "ge_a/part.h"\n#define AFTER 1\n' > "$t/parts/ge_a.h"
printf '#include "ge_b.h"\n#define PART 1\n' > "$t/parts/ge_a/part.h"
printf '#define B 1\n' > "$t/parts/ge_b.h"
if $PY amalgamate.py --root "$t/parts" -o "$t/parts/out.h" 2> "$t/err" \
    && [[ $(grep -E '^#define [A-Z]+ 1$' "$t/parts/out.h" | tr '\n' ' ') == \
          "#define B 1 #define BEFORE 1 #define PART 1 #define AFTER 1 " ]] \
    && ! grep -q 'file ge_a/part.h' "$t/parts/out.h"
then ok "a part is inlined where it is included, after what it includes"
else bad "a part is inlined where it is included, after what it includes"; fi
printf '#include "ge_a/part.h"\n' > "$t/parts/ge_c.h"
if ! $PY amalgamate.py --root "$t/parts" -o "$t/parts/out2.h" 2> "$t/err" \
    && grep -q 'ge_c.h:1: part ge_a/part.h is already included at ge_a.h:2' "$t/err"
then ok "a part included from two headers fails, naming both"
else bad "a part included from two headers fails, naming both"; fi

# The example builds against dist/ge.h (made by `make dist`, so its flags apply) with one cc call.
: > "$t/err"
if ${MAKE:-make} -s --no-print-directory dist > "$t/err" 2>&1 \
    && cc -std=c99 -I dist examples/hello_dist.c -lm -o "$t/hello_dist" > "$t/err" 2>&1 \
    && "$t/hello_dist" > "$t/err" 2>&1
then ok "examples/hello_dist.c builds against dist/ge.h with one cc call and runs"
else bad "examples/hello_dist.c builds against dist/ge.h with one cc call and runs"; fi

# Self-contained variant: xxhash.h inlined from the system packages.
mkdir -p "$t/inl"
if $PY amalgamate.py --inline-system xxhash.h -o "$t/inl/ge.h" 2> "$t/err" \
    && cc -std=c99 -I "$t/inl" examples/hello_dist.c -lm -o "$t/hello_inl" 2> "$t/err" \
    && "$t/hello_inl" > "$t/err" 2>&1
then ok "hello_dist.c builds against ge.h with system headers inlined"
else bad "hello_dist.c builds against ge.h with system headers inlined"; fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
