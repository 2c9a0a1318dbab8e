#!/bin/sh
# The rules of docs/architecture.md that keep one fact in one place, read
# from the sources:
#   rules.sh SRCDIR
# - sess_ names belong to repl/session.c: every function of that name is
#   defined there, and session.h declares no function defined elsewhere;
# - every function a file of repl/ exports (not static) is declared in the
#   file's own header (X.c -> X.h; a part of a module, M_part.c, in M.h), so
#   that a header names what its file gives and a caller includes the file
#   it calls;
# - a student's kernel runs with options from program_run_options() only:
#   every prog_options in repl/ is filled by it;
# - what is said once a session is remembered in the session (s->said), not
#   in a function's static variable;
# - files and folders are named by their subject: no name ending in a
#   letter after a hyphen (a "-b" is a part of some plan, not a subject),
#   and no text names a ticket ("issue 20") for what it is about.
set -u
src=$1
cd "$src" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# The functions a C file defines and exports: a line at column 0 that is not
# static, not a declaration, and names a function.
exported() {
    grep -E '^[a-z][a-zA-Z0-9_ *]*[ *]\(?[a-z_][a-z0-9_]*\(' "$1" |
        grep -vE '^(static|typedef|extern|return|if|for|while|else)\b' | grep -vE '^(struct|enum|union) [a-z_]+ *(\{.*)?$' |
        grep -v ';[[:space:]]*$' |
        sed -E 's/^[^(]*[ *]\(?([a-z_][a-z0-9_]*)\(.*/\1/' | LC_ALL=C sort -u
}

# sess_ names
bad=$(for f in $(find repl -name '*.c' ! -path repl/session.c | LC_ALL=C sort); do
        exported "$f" | grep '^sess_' | sed "s|^|$f: |"
    done)
[ -z "$bad" ] || fail "functions named sess_ outside repl/session.c (sess_ names are session.c's; give the function its file's prefix and header):
$bad"
decl=$(grep -oE '\bsess_[a-z_]+\(' repl/session.h | tr -d '(' | LC_ALL=C sort -u)
defs=$(exported repl/session.c)
bad=$(for d in $decl; do printf '%s\n' "$defs" | grep -qx "$d" || echo "$d"; done)
[ -z "$bad" ] || fail "repl/session.h declares functions that repl/session.c does not define:
$bad"
others=$(grep -E '^[a-z][^;(]*[ *]\(?[a-z_][a-z0-9_]*\([^;]*(;|,)?$' repl/session.h | grep -vE '^(struct|enum|typedef|#)' |
    sed -E 's/^[^(]*[ *]\(?([a-z_][a-z0-9_]*)\(.*/\1/' | grep -v '^sess_')
[ -z "$others" ] || fail "repl/session.h declares functions that are not session.c's:
$others"

# every exported function of repl/ in its own header: X.c's in X.h, or for a
# part of a module (out_table.c of out, lesson_files.c of lesson) in the
# module's header
own_header() {
    b=${1%.c}
    while :; do
        [ -f "$b.h" ] && { echo "$b.h"; return; }
        case ${b##*/} in *_*) b=${b%_*} ;; *) return ;; esac
    done
}
bad=$(for f in $(find repl -name '*.c' ! -name main.c | LC_ALL=C sort); do
        h=$(own_header "$f")
        for fn in $(exported "$f"); do
            case $fn in cmd_*) continue ;; esac # a command group: commands.c's list names it
            if [ -z "$h" ] || ! grep -qE "(^|[^a-zA-Z0-9_])$fn\(" "$h"; then echo "$f: $fn"; fi
        done
    done)
[ -z "$bad" ] || fail "functions that their file's own header does not declare (X.c's are declared in X.h):
$bad"

# one builder of a program's run options
bad=$(grep -rn --include='*.c' -E '^[[:space:]]*prog_options[[:space:]]+[a-z_]+;' repl | while IFS=: read -r f l text; do
        var=$(printf '%s\n' "$text" | sed -E 's/.*prog_options[[:space:]]+([a-z_]+);.*/\1/')
        sed -n "$((l + 1))p" "$f" | grep -q "program_run_options(.*&$var)" || echo "$f:$l: $var"
    done)
[ -z "$bad" ] || fail "run options of a program not made by program_run_options() on the next line:
$bad"

# said once: in the session
bad=$(grep -rnE --include='*.c' '^[[:space:]]+static[[:space:]]+(int|unsigned|char|bool|_Bool)[[:space:]]+[a-z_]*(said|warn|shown|note|told|once)[a-z_]*[[:space:]]*(=[^;]*)?;' repl viz)
[ -z "$bad" ] || fail "a function keeps what it said in a static variable (keep it in the session's said):
$bad"

# named by subject
# (the golden files of the tests are named after what they show: lecture-n)
bad=$(find repl viz kernels tests docs lessons scripts bench cmake -name golden -prune -o -print 2>/dev/null |
    grep -E '(^|/)[^/]*-[a-z](/|\.[a-z0-9]+$|$)')
[ -z "$bad" ] || fail "paths named like a part of a plan, not by their subject:
$bad"

# and the text speaks of gpulab's subjects, not of the tickets they came from
bad=$(grep -rnE '\bissues? [0-9]+\b|#[a-z-]*-issue-[0-9]+' README.md docs lessons repl viz kernels 2>/dev/null)
[ -z "$bad" ] || fail "text that names a ticket instead of its subject:
$bad"

[ "$fails" -eq 0 ] && echo "ok: sess_ names, own headers, one builder of run options, said-once state, names"
exit $((fails > 0))
