#!/usr/bin/env bash
# animate without a terminal: the frames come out as text, one after
# another, then the timing table; and the refusals, each with its message.
#
# usage: cli_animate.sh GPULAB
set -u
GPULAB=$1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-viz-cli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export XDG_STATE_HOME="$TMP/state" HOME="$TMP" LANG=C.UTF-8 COLUMNS=120
unset NO_COLOR

pass=0
fail=0
check() { # check NAME STATUS
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "FAIL: $1"
        echo "---- output"
        cat "$TMP/out" "$TMP/err" | head -40
        echo "----"
    fi
}
run() { "$GPULAB" -c "$1" >"$TMP/out" 2>"$TMP/err"; }

run "use reduce/interleaved; set n 32; set block 32; animate"
check "animate through a pipe succeeds" $?
n=$(grep -c "^reduce/interleaved  step [0-9]*/9 " "$TMP/out")
[ "$n" -eq 9 ]; check "every frame is printed ($n of 9)" $?
grep -q "reduce/interleaved  step 9/9 · result" "$TMP/out"; check "the last frame is the result" $?
grep -q "✓ equal" "$TMP/out"; check "the sum is checked against the CPU" $?
grep -q "^interleaved  *sim  *32 " "$TMP/out"; check "the timing table follows" $?
! grep -q $'\x1b' "$TMP/out"; check "no escape sequences in a pipe" $?
grep -q "on the simulator" "$TMP/out"; check "it says where it ran" $?

run "use reduce/sequential; set n 64; set block 32; watch interleaved vs sequential"
check "watch A vs B succeeds" $?
grep -q "interleaved  step 1/" "$TMP/out" && grep -q "sequential  step 1/" "$TMP/out"
check "both variants are printed side by side" $?
[ "$(grep -c '^interleaved \|^sequential ' "$TMP/out")" -ge 2 ]; check "both timed rows follow" $?

run "use reduce/interleaved; set n 1000000; set block 64; animate"
[ $? -eq 0 ]; check "a large n animates a small instance" $?
tr -s ' \n' ' ' <"$TMP/err" |   # notes are wrapped at COLUMNS
    grep -q "n = 1000000 is too large to record every step: showing a small instance, the first 2 blocks, n = 128, with the same block (64)"
check "and says so: two blocks of the block that was set" $?
grep -q "reduce/interleaved  n = 128 int (a small instance of n = 1000000)" "$TMP/out"
check "the heading names the small instance" $?

run "use reduce/interleaved; animate thrust"
[ $? -eq 1 ]; check "a library row fails" $?
grep -q "cannot be animated" "$TMP/err"; check "and says why" $?

run "use reduce/interleaved; animate nosuch"
[ $? -eq 1 ] && grep -q "no variant" "$TMP/err"; check "an unknown variant is refused" $?

run "use reduce/interleaved; animate interleaved sequential"
[ $? -eq 1 ] && grep -q "need vs between them" "$TMP/err"; check "two variants need vs" $?

run "use reduce/interleaved; animate interleaved vs"
[ $? -eq 1 ] && grep -q "usage: animate" "$TMP/err"; check "vs needs a second variant" $?

run "help animate"
grep -qF "animate [VARIANT] [vs VARIANT | as generic]" "$TMP/out"; check "help animate shows the usage" $?

# the generic animation through a pipe: a built-in variant as generic, and a
# student's program (tests/access/race.cu), every frame as text
if run "use reduce/sequential; set n 64; animate sequential as generic" && ! grep -q "records no accesses" "$TMP/err"; then
    grep -q "^reduce/sequential  step 1/" "$TMP/out"; check "as generic prints its frames" $?
    grep -q "global1  global, 4-byte cells" "$TMP/out"; check "the input is a strip of cells" $?
    grep -q "s  shared, block 0" "$TMP/out"; check "the shared array is one" $?
    grep -q "before its first barrier" "$TMP/out"; check "the captions place the step" $?
    run "use reduce/sequential; trace sequential as generic"
    grep -Eq "^    line [0-9]+ +block 0 warp 0  32 lanes  read global1\[0\.\.31\]" "$TMP/out"; check "trace as generic names the line of each access" $?
    race=$(cd "$(dirname "$0")/../access" && pwd)/race.cu
    XDG_CACHE_HOME=$TMP/cache run "open $race; animate"
    check "animate on a program succeeds" $?
    grep -q "races 32" "$TMP/out"; check "the program's race is counted" $?
    grep -q "d_sum  global" "$TMP/out"; check "arrays are named after their variables" $?
    XDG_CACHE_HOME=$TMP/cache run "open $race; set trace-blocks 0"
    grep -q "a number of blocks from 1 to 65536" "$TMP/err"; check "set trace-blocks refuses 0" $?
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
