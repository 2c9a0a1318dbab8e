#!/bin/sh
# determinism.sh GPULAB DIR - one schedule and one seed give one run, byte
# for byte: students' programs (DIR's p63, p61, p57) and built-in kernels run
# twice under the same random and adversarial schedules with the race check
# on, and the two outputs must be equal in everything but the times the
# simulator took (the "exit status ... s" line, the kernel table's ms column,
# JSON's ms fields). Then a second seed must give another output where the
# order shows (p63's lost updates), so the first comparison cannot pass by
# the schedule being ignored.
set -u
# the race check and the schedules' interleaving ride on the recording
if [ "${GPULAB_RECORD:-ON}" = OFF ]; then
    echo "skipped: this build has no race check (GPULAB_RECORD=OFF)"
    exit 77
fi
gpulab=$1 dir=$2
: "${XDG_CACHE_HOME:=$(dirname "$gpulab")/test-cache}"
export XDG_CACHE_HOME
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# a program's run without its times
prog() { # $1: schedule, $2: file
    "$gpulab" --no-color -c "set backend sim; set race-check on; set schedule $1; open $dir/$2; run" 2>&1 |
        awk '/^exit status / { next } / ms \(sim\)$/ { t = 1; next }
             t && /^schedule / { t = 0 } t { sub(/ +[0-9.]+$/, "") } { print }'
}
# built-in rows as JSON without their times
builtin() { # $1: schedule, $2: algorithm, then the variants
    s=$1 a=$2
    shift 2
    "$gpulab" --no-color --json -c "set backend sim; set race-check on; set schedule $s; use $a; set n 4096; run $*" 2>&1 |
        sed -e 's/"ms[a-z_]*":[0-9.e+-]*,//g'
}
same() { # $1: what, $2 $3: the two files
    if ! cmp -s "$2" "$3"; then
        echo "FAIL: $1: two runs with the same seed differ:"
        diff "$2" "$3" | head -20
        fail=1
    elif [ ! -s "$2" ]; then
        echo "FAIL: $1: no output"
        fail=1
    else
        echo "ok: $1: $(wc -c < "$2") bytes, the same twice"
    fi
}
for sched in random,0x2a adversarial,0x7 random,0x5eed; do
    for p in p63_order_dependent.cu p61_histogram.cu p57_last_block.cu; do
        prog "$sched" "$p" > "$tmp/a"
        prog "$sched" "$p" > "$tmp/b"
        same "$p under $sched" "$tmp/a" "$tmp/b"
    done
    builtin "$sched" reduce interleaved warp-shuffle atomic-float > "$tmp/a"
    builtin "$sched" reduce interleaved warp-shuffle atomic-float > "$tmp/b"
    same "reduce's rows under $sched" "$tmp/a" "$tmp/b"
    builtin "$sched" histogram > "$tmp/a"
    builtin "$sched" histogram > "$tmp/b"
    same "histogram under $sched" "$tmp/a" "$tmp/b"
done
# another seed, another order: p63's total (lost updates) changes
prog random,0x2a p63_order_dependent.cu | grep '^total' > "$tmp/a"
prog random,0x2b p63_order_dependent.cu | grep '^total' > "$tmp/b"
if cmp -s "$tmp/a" "$tmp/b"; then
    echo "FAIL: seeds 0x2a and 0x2b gave the same output of p63: $(cat "$tmp/a")"
    fail=1
else
    echo "ok: seeds 0x2a and 0x2b differ: $(cat "$tmp/a") and $(cat "$tmp/b")"
fi
exit $fail
