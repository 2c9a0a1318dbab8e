#!/bin/sh
# builtin_schedules.sh GPULAB - `set schedules N` with the built-in rows:
# every simulator kernel row runs again under N-1 random orders with the
# race check on and its output is compared with the first run's. vecdiff's
# v2 (i = threadIdx.x) on 4 blocks has every block write the same elements:
# the first run passes, the schedule's run names the race and its seed, and
# the command fails; reduce's rows give the same output under 3 schedules.
set -u
# the race check and the schedules' interleaving ride on the recording
if [ "${GPULAB_RECORD:-ON}" = OFF ]; then
    echo "skipped: this build has no race check (GPULAB_RECORD=OFF)"
    exit 77
fi
gpulab=$1
: "${XDG_CACHE_HOME:=$(dirname "$gpulab")/test-cache}"
export XDG_CACHE_HOME
fail=0
want() { # $1: what, $2: the output, then the texts
    what=$1 out=$2
    shift 2
    for w in "$@"; do
        case $out in
            *"$w"*) ;;
            *) echo "FAIL: $what: missing: $w"; fail=1 ;;
        esac
    done
}
out=$("$gpulab" --no-color -c "set backend sim; use vecdiff; set n 512; set grid 4; set schedules 2; run v2" 2>&1)
st=$?
want "vecdiff v2 under 2 schedules" "$out" "v2: schedule 2 (random, seed 0x" ") failed: vecdiff_v2_k<T>: blocks " \
    "data race on an allocation of 2560 bytes from cudaMalloc" "two blocks write one element" \
    "runs that order again"
[ $st != 0 ] || { echo "FAIL: vecdiff v2 under 2 schedules: gpulab exited 0"; fail=1; }
out=$("$gpulab" --no-color -c "set backend sim; use reduce; set n 4096; set schedules 3; compare" 2>&1)
st=$?
want "reduce under 3 schedules" "$out" \
    "every simulator row gave the same output under 3 schedules (the first run, then random orders drawn from seed 0x5eed)"
case $out in *"depends on the order"*|*"failed:"*) echo "FAIL: reduce: a row differs: $out"; fail=1 ;; esac
[ $st = 0 ] || { echo "FAIL: reduce under 3 schedules: gpulab exited $st"; fail=1; }
[ $fail = 0 ] && echo "ok: the schedules' verdicts on built-in rows"
exit $fail
