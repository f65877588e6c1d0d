#!/usr/bin/env python3
"""Write dist/ge.h: every ge module and engine header in one file.

    python3 amalgamate.py -o dist/ge.h [--line] [--inline-system xxhash.h]...

Inputs are the top-level ge_*.h and ge_engines/*.h, ordered so that every header
comes after the project headers it includes (topological sort, ties broken by
path, so the output is deterministic). A header that tests another header's
guard (`#ifdef GE_GRAPH_H`, for an optional adapter) is also placed after it.
Each project header is inlined once and its project includes become comments.
A project header that is not an input (one in a subfolder, such as the kernel
families in ge_engines/host_cpu/) is a part of the one header that includes
it: it is inlined right there, where that header includes it (inside its
implementation section), and its includes count as the includer's. System
includes stay, except those named by --inline-system, which are copied
from the system include directory at their first include. Stdlib only.
"""
import argparse
import heapq
import os
import re
import subprocess
import sys

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')
GUARD_RE = re.compile(r'^\s*#\s*(?:if|ifdef|ifndef|elif)\b.*')
ROOT = os.path.dirname(os.path.abspath(__file__))


def fail(msg):
    sys.exit("amalgamate.py: error: " + msg)


def guard_name(rel):
    """ge_graph.h -> GE_GRAPH_H, ge_engines/host_cpu.h -> GE_HOST_CPU_H."""
    stem = os.path.splitext(os.path.basename(rel))[0].upper()
    return (stem if stem.startswith("GE_") else "GE_" + stem) + "_H"


def read_lines(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read().splitlines(keepends=True)


def resolve_quoted(name, includer, system_dir):
    """Repo-relative path of a quoted include, None if it is a system header.
    Like the compiler with -I. : the includer's directory first, then the root."""
    for base in (os.path.dirname(includer), ""):
        rel = os.path.normpath(os.path.join(base, name))
        if not rel.startswith("..") and os.path.isfile(os.path.join(ROOT, rel)):
            return rel
    if os.path.isfile(os.path.join(system_dir, name)):
        return None
    return False  # neither in the repo nor in the system: a missing project file


def scan(inputs, system_dir):
    """Read every project header reachable from inputs; returns {rel: (lines, includes)}
    where includes lists (line index, kind, name, resolved repo path or None)."""
    files, todo = {}, list(inputs)
    while todo:
        rel = todo.pop()
        if rel in files:
            continue
        lines = read_lines(os.path.join(ROOT, rel))
        incs = []
        for i, line in enumerate(lines):
            m = INCLUDE_RE.match(line)
            if not m:
                continue
            kind, name = m.groups()
            target = resolve_quoted(name, rel, system_dir) if kind == '"' else None
            if target is False:
                fail('%s:%d: included file "%s" not found' % (rel, i + 1, name))
            incs.append((i, kind, name, target))
            if target:
                todo.append(target)
        files[rel] = (lines, incs)
    return files


def find_parts(files, inputs):
    """{part: (includer, line)} for the project headers that are not inputs; a part
    included from two places fails (it is inlined once, where it is included)."""
    owner = {}
    for rel in sorted(files):
        for i, _, _, t in files[rel][1]:
            if t and t not in inputs:
                if t in owner:
                    fail("%s:%d: part %s is already included at %s:%d; a part is inlined where"
                         " its one includer includes it" % ((rel, i + 1, t) + owner[t]))
                owner[t] = (rel, i + 1)
    return owner


def with_parts(rel, files, parts, seen=()):
    """rel and the parts it includes, recursively, in include order; names a cycle."""
    if rel in seen:
        fail("include cycle: " + " -> ".join(seen + (rel,)))
    out = [rel]
    for _, _, _, t in files[rel][1]:
        if t in parts:
            out += with_parts(t, files, parts, seen + (rel,))
    return out


def order(files, parts=()):
    """Topological order of the headers that are not parts: includes first, ties
    broken by path; names any cycle. A part's includes count as its includer's."""
    units = {rel: with_parts(rel, files, parts) for rel in files if rel not in parts}
    guards = {guard_name(rel): rel for rel in units}
    deps = {rel: set() for rel in units}
    for rel, unit in units.items():
        incs = [inc for u in unit for inc in files[u][1]]
        lines = [line for u in unit for line in files[u][0]]
        deps[rel].update(t for _, _, _, t in incs if t and t not in parts)
        for line in lines:  # soft edges: `#ifdef GE_GRAPH_H` wants ge_graph.h first
            if GUARD_RE.match(line):
                for word in re.findall(r"\bGE_\w+_H\b", line):
                    if word in guards and guards[word] != rel:
                        deps[rel].add(guards[word])
    users = {rel: [] for rel in units}
    for rel, ds in deps.items():
        for d in ds:
            users[d].append(rel)
    left = {rel: len(ds) for rel, ds in deps.items()}
    ready = [rel for rel, n in left.items() if n == 0]
    heapq.heapify(ready)
    out = []
    while ready:
        rel = heapq.heappop(ready)
        out.append(rel)
        for u in users[rel]:
            left[u] -= 1
            if left[u] == 0:
                heapq.heappush(ready, u)
    if len(out) < len(units):
        # Walk unfinished dependencies from the smallest stuck file until one repeats.
        path, node = [], min(rel for rel in units if left[rel] > 0)
        while node not in path:
            path.append(node)
            node = min(d for d in deps[node] if left[d] > 0)
        cycle = path[path.index(node):] + [node]
        fail("include cycle: " + " -> ".join(cycle))
    return out


def system_package(path):
    """Debian package that owns path (for the banner), or None."""
    try:
        r = subprocess.run(["dpkg-query", "-S", path], capture_output=True, text=True)
    except OSError:
        return None
    if r.returncode != 0:
        return None
    return r.stdout.split(":")[0].strip() or None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default="dist/ge.h", help="output file (- for stdout)")
    ap.add_argument("--line", action="store_true", help='emit #line N "file" markers')
    ap.add_argument("--inline-system", action="append", default=[], metavar="HEADER",
                    help="inline this system header (e.g. xxhash.h) at its first include")
    ap.add_argument("--system-dir", default="/usr/include", help="where system headers are")
    ap.add_argument("--root", help="project directory (default: this script's)")
    args = ap.parse_args()
    global ROOT
    if args.root:
        ROOT = os.path.abspath(args.root)

    inputs = sorted(f for f in os.listdir(ROOT) if f.startswith("ge_") and f.endswith(".h"))
    if os.path.isdir(os.path.join(ROOT, "ge_engines")):
        inputs += sorted("ge_engines/" + f for f in os.listdir(os.path.join(ROOT, "ge_engines"))
                         if f.endswith(".h"))
    if not inputs:
        fail("no ge_*.h headers found")
    files = scan(inputs, args.system_dir)
    parts = find_parts(files, set(inputs))
    seq = order(files, parts)

    def wanted(name):  # --inline-system xxhash.h matches <xxhash.h>; stb_ds.h matches <stb/stb_ds.h>
        return any(name == w or os.path.basename(name) == w for w in args.inline_system)

    inlined, body = {}, []  # inlined: include name -> (file it was inlined into, line)

    def emit(rel):
        """Appends rel's lines to body, with its parts inlined in place."""
        lines, incs = files[rel]
        inc_at = {i: (kind, name, target) for i, kind, name, target in incs}
        for i, line in enumerate(lines):
            if i not in inc_at:
                body.append(line)
                continue
            kind, name, target = inc_at[i]
            if target in parts:
                body.append("/* amalgamate: begin part %s (inlined here) */\n" % target)
                if args.line:
                    body.append('#line 1 "%s"\n' % target)
                emit(target)
                body.append("/* amalgamate: end part %s */\n" % target)
                if args.line:
                    body.append('#line %d "%s"\n' % (i + 2, rel))
            elif target:
                body.append("/* amalgamate: %s is inlined above */\n" % target)
            elif not wanted(name):
                body.append(line)
            elif name in inlined:
                where = "%s:%d" % inlined[name]
                print("amalgamate.py: warning: %s:%d: %s already inlined at %s; this include is"
                      " dropped, so macros set since then (e.g. an *_IMPLEMENTATION) have no"
                      " effect on it" % (rel, i + 1, name, where), file=sys.stderr)
                body.append("/* amalgamate: %s is inlined above (%s) */\n" % (name, where))
            else:
                path = os.path.join(args.system_dir, name)
                if not os.path.isfile(path):
                    fail('%s:%d: system header <%s> not found for --inline-system' % (rel, i + 1, name))
                inlined[name] = (rel, i + 1)
                body.append("/* amalgamate: begin %s (from the system) */\n" % name)
                if args.line:
                    body.append('#line 1 "%s"\n' % name)
                sys_text = "".join(read_lines(path))
                body.append(sys_text if sys_text.endswith("\n") else sys_text + "\n")
                body.append("/* amalgamate: end %s */\n" % name)
                if args.line:
                    body.append('#line %d "%s"\n' % (i + 2, rel))
        if lines and not lines[-1].endswith("\n"):
            body.append("\n")

    for rel in seq:
        body.append("\n/* ==== amalgamate: file %s ==== */\n" % rel)
        if args.line:
            body.append('#line 1 "%s"\n' % rel)
        emit(rel)

    banner = [
        "/* ge.h - the ge graph compiler in one header.",
        " *",
        " * Generated by amalgamate.py from the ge sources; do not edit (edit the",
        " * module headers and run `make dist`).",
        " *",
        " * Use: #include \"ge.h\" wherever you need it, and in exactly one .c file",
        " *          #define GE_IMPLEMENTATION",
        " *          #include \"ge.h\"",
        " *      Define GE_STATIC as well to make every function static (private to",
        " *      that file). Link with -lm.",
        " *",
        " * Contents, in dependency order:",
    ]
    for rel in seq:
        banner.append(" *   " + rel)
        banner += [" *     + %s (inlined inside it)" % u for u in with_parts(rel, files, parts)[1:]]
    if inlined:
        banner.append(" *")
        banner.append(" * Inlined third-party system headers (their licences are kept inline):")
        for name in sorted(inlined):
            pkg = system_package(os.path.join(args.system_dir, name))
            banner.append(" *   %s, from %s" % (
                name, "the Debian package " + pkg if pkg else "the system include directory"))
    banner.append(" */\n")
    text = "\n".join(banner) + "".join(body)

    if args.output == "-":
        sys.stdout.write(text)
        return
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    tmp = args.output + ".tmp"  # write then rename: a failed run leaves no half file
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(tmp, args.output)


if __name__ == "__main__":
    main()
