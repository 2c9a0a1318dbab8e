#!/bin/sh
# The layers of docs/architecture.md, read from the include lines:
#   layers.sh SRCDIR
# - every quoted include names its folder from the root (repl/, viz/,
#   kernels/), so a line shows the direction of its dependency;
# - viz/ and kernels/ include nothing of repl/, kernels/ nothing of viz/;
# - repl/ and viz/ include of kernels/ only its public headers: lab.h,
#   intl.h, a family's <family>_trace.h, and the declared public parts
#   (device/occupancy.h, sim/acctrace.h, program/program.h,
#   profile/profile.h, paths.h, lab_output.h), never family.h, kern.h or a family's own header;
# - no two modules of repl/ or viz/ depend on each other in a circle (a
#   module: X.c with X.h; X depends on Y when X.c includes Y.h, which is
#   where it calls Y; a header that includes another for its types, as a
#   renderer's model includes the renderer's public header, is no call).
set -u
src=$1
cd "$src" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# file:line:path of every quoted include in the three layers
incs=$(find repl viz kernels -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cpp' -o -name '*.cuh' \) |
    LC_ALL=C sort | xargs grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' |
    sed 's/^\([^:]*:[0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/')
[ -n "$incs" ] || { echo "FAIL: no include line found under $src"; exit 1; }

bad=$(printf '%s\n' "$incs" | awk -F: '$3 !~ /^(repl|viz|kernels)\//')
[ -z "$bad" ] || fail "includes that do not name their folder (write \"kernels/lab.h\", not \"lab.h\"):
$bad"

bad=$(printf '%s\n' "$incs" | awk -F: '($1 ~ /^(viz|kernels)\// && $3 ~ /^repl\//) || ($1 ~ /^kernels\// && $3 ~ /^viz\//)')
[ -z "$bad" ] || fail "includes against the direction of the layers (repl -> viz -> kernels):
$bad"

bad=$(printf '%s\n' "$incs" | awk -F: '$1 ~ /^(repl|viz)\// && $3 ~ /^kernels\// {
        p = $3
        if (p == "kernels/lab.h" || p == "kernels/intl.h") next
        if (p ~ /^kernels\/[a-z0-9]+\/[a-z0-9]+_trace\.h$/) next
        if (p == "kernels/device/occupancy.h" || p == "kernels/sim/acctrace.h" ||
            p == "kernels/program/program.h" || p == "kernels/profile/profile.h" ||
            p == "kernels/paths.h" || p == "kernels/lab_output.h") next
        print }')
[ -z "$bad" ] || fail "repl/ or viz/ include a header private to kernels/ (use kernels/lab.h, or move what is needed into a public <family>_trace.h):
$bad"

# module -> module edges within repl/ and viz/, from the .c files; tsort names a loop.
# repl/session.h is also the header of the state every module reads (struct
# session, as tmux.h is tmux's): a file depends on the module session only
# where it calls one of session.c's functions.
sess_fns=$(grep -o '^[a-z][a-z_ ]*[ *]sess_[a-z_]*(' repl/session.c | sed 's/.*\(sess_[a-z_]*\)(/\1/' | LC_ALL=C sort -u | paste -sd'|')
[ -n "$sess_fns" ] || fail "no function of repl/session.c found"
edges=$(printf '%s\n' "$incs" | awk -F: '$1 ~ /^(repl|viz)\/.*\.c$/ && $3 ~ /^(repl|viz)\// {
        a = $1; sub(/\.[a-z]+$/, "", a); b = $3; sub(/\.[a-z]+$/, "", b)
        if (a != b) print $1, a, b }' | while read -r file a b; do
            if [ "$b" = repl/session ] && ! grep -Eq "(^|[^a-z_])($sess_fns)\(" "$file"; then continue; fi
            echo "$a $b"
        done | LC_ALL=C sort -u)
loop=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null)
[ -z "$loop" ] || fail "modules that include each other in a circle:
$loop"

[ "$fails" -eq 0 ] && echo "ok: the include lines keep the layers"
exit $((fails > 0))
