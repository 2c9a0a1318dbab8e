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
#   and no text names a ticket ("issue 20") for what it is about;
# - one CUDA surface: CUDA's device-side names are defined only in the
#   simulator's shim, kernels/sim/shim*.h;
# - the simulator's state is held by lifetime (kernels/sim/internal.h):
#   sim_state only joins the parts, and a field of the block's or the
#   epoch's part is set back to zero by that part's one reset, nowhere else
#   (but a pending report, *_pending, is cleared where it is taken).
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
bad=$(grep -rnE '\bissues? [0-9]+\b|#[a-z-]*-issue-[0-9]+' README.md docs lessons repl viz kernels bench scripts \
    tests 2>/dev/null | grep -v '^tests/structure/rules.sh:')
[ -z "$bad" ] || fail "text that names a ticket instead of its subject:
$bad"

# one CUDA surface on the simulator: a device-side name of CUDA (intrinsics,
# atomics, warp collectives, cooperative groups, half types, textures,
# libcu++ and wmma) is defined in the shim (kernels/sim/shim*.h) and nowhere
# else, so built-in kernels and students' programs see the same one
cuda_fns='__syncthreads|__syncthreads_count|__syncthreads_and|__syncthreads_or|__syncwarp|__shfl_sync|__shfl_up_sync|__shfl_down_sync|__shfl_xor_sync|__ballot_sync|__any_sync|__all_sync|__activemask|__match_any_sync|__match_all_sync|__reduce_add_sync|__threadfence|__threadfence_block|__threadfence_system|atomicAdd|atomicSub|atomicExch|atomicMin|atomicMax|atomicCAS|atomicAnd|atomicOr|atomicXor|atomicInc|atomicDec|__popc|__popcll|__clz|__ffs|__brev|__ldg|__float2half|__half2float|__float2bfloat16|__hadd|__hmul|__fadd_rn|__fmul_rn|tex1D|tex1Dfetch|tex2D|tex3D|surf2Dwrite|surf2Dread|this_grid|this_thread_block|tiled_partition|coalesced_threads|memcpy_async|mma_sync|load_matrix_sync|store_matrix_sync|fill_fragment'
cuda_types='dim3|__half|__half2|__nv_bfloat16|__nv_bfloat162|thread_block|thread_group|grid_group|coalesced_group|thread_block_tile'
bad=$(grep -rnE --include='*.h' --include='*.hpp' --include='*.cpp' --include='*.cu' --include='*.cuh' \
        -e "^[[:space:]]*(template[[:space:]]*<[^>]*>[[:space:]]*)?([A-Za-z_][A-Za-z0-9_:<>,*& ]*[ *&])?($cuda_fns)[[:space:]]*\(([^;]*|.*\{.*)$" \
        -e "^[[:space:]]*(template[[:space:]]*<[^>]*>[[:space:]]*)?(struct|class|union)[[:space:]]+($cuda_types)([[:space:]]*(:[^;]*)?\{.*|[[:space:]]*(:[^;]*)?)$" \
        kernels |
    grep -vE '^kernels/sim/shim[a-z_]*\.h:' | grep -vE ':[0-9]+:[[:space:]]*(//|/\*|\*|#)' |
    grep -vE ':[0-9]+:[[:space:]]*(if|while|for|return|else|case)\b')
[ -z "$bad" ] || fail "a CUDA device name defined outside the simulator's shim (kernels/sim/shim*.h is the one CUDA surface of built-in kernels and students' programs; define it there):
$bad"

# the simulator's state by lifetime
body=$(sed -n '/^struct sim_state : /,/^};/p' kernels/sim/internal.h | sed '1d;$d' | grep -v '^[[:space:]]*sim_[a-z_]*_state[,{ ]*$')
[ -n "$(sed -n '/^struct sim_state : /p' kernels/sim/internal.h)" ] || fail "kernels/sim/internal.h: no struct sim_state joining the parts of the state"
[ -z "$body" ] || fail "kernels/sim/internal.h: sim_state holds fields of its own (put each in the part of its lifetime):
$body"
for part in sim_block_state sim_epoch_state; do
    fields=$(sed -n "/^struct $part {/,/^};/p" kernels/sim/internal.h | sed '1d;$d' | grep -v '^[[:space:]]*/\*\|^[[:space:]]*\*' |
        sed -E 's@/\*.*@@; s/\[[^]]*\]//g; s/^[[:space:]]*([a-z_0-9]+[[:space:]]+)+//; s/[*;]//g; s/,/ /g')
    [ -n "$fields" ] || fail "kernels/sim/internal.h: no fields found in struct $part"
    for f in $(printf '%s\n' $fields | grep -v '_pending$'); do
        bad=$(grep -nE "sim_g\.$f(\.[a-z_]+)?[[:space:]]*=[[:space:]]*(0|nullptr|-1)[[:space:]]*;|memset\(sim_g\.$f\b" kernels/sim/*.cpp kernels/program/*.cpp)
        [ -z "$bad" ] || fail "$part's field $f set back by hand (its part's reset in kernels/sim/launch.cpp does that):
$bad"
    done
done

[ "$fails" -eq 0 ] && echo "ok: sess_ names, own headers, one builder of run options, said-once state, names, one CUDA surface, the simulator's state by lifetime"
exit $((fails > 0))
