#!/bin/sh
# check.sh GPULAB PROGRAM.cu|FOLDER sim|gpu
# Runs a corpus program the way a student does (gpulab -c "open F; run") on
# one backend and checks what the program's comments ask for (a folder: the
# comments of the files in it, which open reads as one program):
#   // RUN: CMDS       gpulab commands before open (set race-check on, ...)
#   // ARGS: A B       arguments for the program's main (ARGS-SIM / ARGS-GPU: there)
#   // OPEN-SIM: -DX=1 definitions for open on that backend (OPEN-GPU too)
#   // REJECT: TEXT    TEXT must not appear
#   // EXPECT: TEXT    TEXT appears in the output (both backends)
#   // EXPECT-SIM: / EXPECT-GPU:  only on that backend
#   // FAILS           the run itself fails (crash, time limit, compile error):
#                      gpulab's exit status is not 0; FAILS-SIM / FAILS-GPU: only there
#   // SIM-ONLY        not run on the GPU
#   // EXPECT-SCHEDULE: TEXT  with CHECK_SCHEDULE=KIND[,SEED] in the environment
#                      the run is on the simulator under that schedule, and
#                      these lines replace EXPECT-SIM's
#   // MEMCHECK        the simulator's memory checks must say it: skipped in a
#                      build without them (GPULAB_RECORD=OFF: the sanitizer
#                      build, where AddressSanitizer checks instead); so is a
#                      program whose RUN: line turns the race check or
#                      schedules on
#   // THRUST          uses thrust: skipped on the simulator where gpulab finds
#                      no CUDA toolkit's thrust headers (open refuses it)
#   // WITHOUT-THRUST  on the simulator as without the toolkit's thrust headers
# The builds are cached in the build tree, not in the user's cache.
# GPULAB_TIMEOUT_SCALE (the sanitizer build: 4) multiplies the time limit.
# Exit 77 (skipped) for gpu where there is no GPU.
set -u
gpulab=$1 prog=$2 backend=$3
up=$(echo "$backend" | tr a-z A-Z)
notes=$prog
[ -d "$prog" ] && notes=$(find "$prog" -maxdepth 1 -type f | sort)
: "${XDG_CACHE_HOME:=$(dirname "$gpulab")/test-cache}"
export XDG_CACHE_HOME
if [ "$backend" = gpu ]; then
    "$gpulab" -c "device" 2>&1 | grep -q "^no GPU" && exit 77
    grep -q "^// SIM-ONLY" $notes && exit 77
fi
# the race check and the schedules' runs ride on the recording too
if [ "$backend" = sim ] && [ "${GPULAB_RECORD:-ON}" = OFF ] && { [ -n "${CHECK_SCHEDULE:-}" ] ||
    grep -q "^// RUN:.*\(race-check on\|schedule\)" $notes; }; then
    echo "skipped: this build has no race check (GPULAB_RECORD=OFF)"
    exit 77
fi
if [ "$backend" = sim ] && [ "${GPULAB_RECORD:-ON}" = OFF ] && grep -q "^// MEMCHECK" $notes; then
    echo "skipped: this build has no memory checks (GPULAB_RECORD=OFF)"
    exit 77
fi
if [ "$backend" = sim ] && grep -q "^// WITHOUT-THRUST" $notes; then
    GPULAB_THRUST_DIR=
    export GPULAB_THRUST_DIR
fi
if [ "$backend" = sim ] && grep -q "^// THRUST" $notes &&
    "$gpulab" --no-color -c "open $prog" 2>&1 | grep -q "no toolkit.s thrust headers were found"; then
    echo "skipped: no CUDA toolkit's thrust headers here"
    exit 77
fi
pre=$(sed -n 's|^// RUN: ||p' $notes | tr '\n' ';')
sched=${CHECK_SCHEDULE:-}
[ -n "$sched" ] && pre="$pre set schedule $sched;"
# The sanitizer build runs the simulator 3-4 times slower: the default time
# limit of a student's program grows with it (a program's own RUN: line wins).
scale=${GPULAB_TIMEOUT_SCALE:-1}
[ "$scale" -gt 1 ] && pre="set time-limit $((30 * scale)); $pre"
args=$(sed -n -e 's|^// ARGS: ||p' -e "s|^// ARGS-$up: ||p" $notes | head -1)
defs=$(sed -n -e 's|^// OPEN: ||p' -e "s|^// OPEN-$up: ||p" $notes | head -1)
out=$("$gpulab" --no-color -c "set backend $backend; ${pre} open $prog $defs; run $args" 2>&1)
status=$?
fail=0
expect_fail=0
grep -q "^// FAILS\$" $notes && expect_fail=1
grep -q "^// FAILS-$up\$" $notes && expect_fail=1
if [ $expect_fail = 1 ] && [ $status = 0 ]; then
    echo "FAIL: expected the run to fail, gpulab exited 0"; fail=1
fi
if [ $expect_fail = 0 ] && [ $status != 0 ]; then
    echo "FAIL: gpulab exited $status"; fail=1
fi
tmp=$(mktemp)
if [ -n "$sched" ]; then
    sed -n -e 's|^// EXPECT: ||p' -e "s|^// EXPECT-SCHEDULE: ||p" $notes > "$tmp"
else
    sed -n -e 's|^// EXPECT: ||p' -e "s|^// EXPECT-$up: ||p" $notes > "$tmp"
fi
while IFS= read -r want; do
    case $out in
        *"$want"*) ;;
        *) echo "FAIL: missing: $want"; fail=1 ;;
    esac
done < "$tmp"
sed -n 's|^// REJECT: ||p' $notes > "$tmp"
while IFS= read -r bad; do
    case $out in
        *"$bad"*) echo "FAIL: present: $bad"; fail=1 ;;
    esac
done < "$tmp"
rm -f "$tmp"
if [ $fail != 0 ]; then
    echo "---- output of gpulab (exit $status):"
    echo "$out"
    exit 1
fi
echo "$out" | tail -n 15
exit 0
