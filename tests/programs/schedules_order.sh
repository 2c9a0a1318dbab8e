#!/bin/sh
# schedules_order.sh GPULAB - `set schedules N` reports the first schedule
# whose output differs, with that schedule's own seed, whether the schedules
# run one after the other or several at once (docs/decisions.md). The
# program's last line depends on the order: in each of 3 blocks threads 0
# and 1 write their index to one element, and it prints the OR of the three,
# which is 0 only when thread 1 wrote first in every block. The oracle is
# each seed run alone (seed k of base b: repl/cmd_program.c's
# program_schedule_seed_at, computed here): the schedules before the one
# reported must print what the first run printed, the one reported must print
# what the report shows under the seed it names. A schedule skipped, run
# twice, or run under another seed reports another schedule or seed. Then the
# same command with one worker (the schedules one at a time) must print the
# same bytes but the times, and N below the first difference must say "the
# same output" and succeed.
set -u
# the race check and the schedules' interleaving ride on the recording
if [ "${GPULAB_RECORD:-ON}" = OFF ]; then
    echo "skipped: this build has no race check (GPULAB_RECORD=OFF)"
    exit 77
fi
gpulab=$1
: "${XDG_CACHE_HOME:=$(dirname "$gpulab")/test-cache}"
export XDG_CACHE_HOME
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cat > "$tmp/order.cu" <<'EOF'
#include <cstdio>

// thread 0, then thread 1 in the fixed order: each element ends as 1
__global__ void last(int *out)
{
    if (threadIdx.x < 2) out[blockIdx.x] = threadIdx.x;
}

int main()
{
    int h[3], *d;
    cudaMalloc(&d, sizeof h);
    last<<<3, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("blocks 3\n");
    printf("any %d\n", h[0] | h[1] | h[2]);
    cudaFree(d);
    return 0;
}
EOF
base=0x3
# the k-th further schedule's seed from the base seed
seed_at() {
    python3 -c 'import sys
b, k = int(sys.argv[1], 16), int(sys.argv[2])
m = (1 << 64) - 1
x = (b + 0x9e3779b97f4a7c15 * k) & m
x = ((x ^ (x >> 30)) * 0xbf58476d1ce4e5b9) & m
x = ((x ^ (x >> 27)) * 0x94d049bb133111eb) & m
print(hex((x ^ (x >> 31)) & 0xffffffffffff))' "$1" "$2"
}
# a run's output without its times
run() { # $1: the settings
    "$gpulab" --no-color -c "set backend sim; $1; open $tmp/order.cu; run" 2>&1 |
        awk '/^exit status / { next } / ms \(sim\)$/ { t = 1; next }
             t && /^schedule / { t = 0 } t { sub(/ +[0-9.]+$/, "") } { print }'
}
# the program's own line under one seed alone, race check on as in a schedule
alone() { run "set race-check on; set schedule random,$1" | grep '^any '; }

# the report of 16 schedules from base $1 against each seed alone; k: the
# schedule reported
check_base() {
base=$1
run "set schedule random,$base; set schedules 16" > "$tmp/all"
first=$(grep -m1 '^any ' "$tmp/all")
rep=$(sed -n 's/.*depends on the order threads run: schedule \([0-9]*\) (random, seed \(0x[0-9a-f]*\)).*/\1 \2/p' "$tmp/all")
if [ -z "$rep" ] || [ -z "$first" ]; then
    echo "FAIL: no schedule reported under 16 schedules from $base:"
    cat "$tmp/all"
    fail=1
    k=0
    return
fi
k=${rep%% *} seed=${rep#* }
shown=$(sed -n "s/^  schedule $k //p" "$tmp/all")
echo "base $base: schedule $k reported, seed $seed, printing \"$shown\" (the first run \"$first\")"
i=1
while [ "$i" -lt "$k" ]; do
    s=$(seed_at "$base" "$i")
    got=$(alone "$s")
    if [ "$i" -lt $((k - 1)) ]; then
        if [ "$got" != "$first" ]; then
            echo "FAIL: schedule $((i + 1)) (seed $s) alone prints \"$got\", not the first run's \"$first\": it is the first difference, not schedule $k"
            fail=1
        else
            echo "ok: schedule $((i + 1)) (seed $s) alone prints the first run's \"$got\""
        fi
    else
        if [ "$s" != "$seed" ]; then
            echo "FAIL: schedule $k is reported with seed $seed; its seed is $s"
            fail=1
        elif [ "$got" = "$first" ] || [ "$got" != "$shown" ]; then
            echo "FAIL: schedule $k (seed $s) alone prints \"$got\"; the report shows \"$shown\", the first run \"$first\""
            fail=1
        else
            echo "ok: schedule $k (seed $s) alone prints \"$got\", as reported"
        fi
    fi
    i=$((i + 1))
done
}
# the first difference early, late, in between (more than two schedules
# run at once before it in the last two)
check_base 0x7
check_base 0x2
check_base 0x3
if [ "$k" -lt 4 ]; then
    echo "FAIL: schedule $k is reported from 0x3; the test needs a base seed whose first difference comes later"
    fail=1
fi
# one worker: the schedules one at a time, the same report byte for byte
run "set sim-threads 1; set schedule random,$base; set schedules 16" > "$tmp/one"
if ! cmp -s "$tmp/all" "$tmp/one"; then
    echo "FAIL: one worker (schedules one at a time) reports otherwise:"
    diff "$tmp/all" "$tmp/one" | head -20
    fail=1
else
    echo "ok: one at a time, the same $(wc -c < "$tmp/one") bytes"
fi
# fewer schedules than the first difference: the same output, success
n=$((k - 1))
out=$("$gpulab" --no-color -c "set backend sim; set schedule random,$base; set schedules $n; open $tmp/order.cu; run" 2>&1)
st=$?
case $out in
    *"the same output under $n schedules (the first run, then random orders drawn from seed $base)"*)
        if [ "$st" -ne 0 ]; then
            echo "FAIL: $n schedules: the same output, but exit status $st"
            fail=1
        else
            echo "ok: $n schedules: the same output, exit status 0"
        fi ;;
    *) echo "FAIL: $n schedules: no \"the same output under $n schedules\":"
       echo "$out" | tail -5
       fail=1 ;;
esac
exit $fail
