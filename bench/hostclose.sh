#!/bin/sh
# bench/hostclose.sh [GPULAB] - the cost of keeping device memory unreadable
# to host code between launches (kernels/sim/memory.cpp, "device memory the
# host cannot touch"): bench/programs/hostclose.cu (2000 launches of one
# warp and 2000 copies of 4 bytes over four 16 MiB arrays) with the arrays
# from cudaMallocManaged (never closed) and from cudaMalloc (each launch and
# copy opens what it touches, its end closes it), taken in turn, $RUNS runs
# each (5) after a warm-up that builds the program, on one worker. Prints
# the median of the program's wall time as `run --json` reports it, and the
# ratio of device to managed.
set -eu
cd "$(dirname "$0")/.."
gpulab=${1:-build/gpulab}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
runs=${RUNS:-5}
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
one() {
    "$gpulab" --json -c "set backend sim; set sim-threads 1; set time-limit 600; open bench/programs/hostclose.cu; run $1" |
        python3 -c 'import json,sys
for line in sys.stdin:
    r = json.loads(line)
    if "seconds" in r:
        print(r["seconds"] * 1000)
        break'
}
one 0 > /dev/null
: > "$tmp/0"
: > "$tmp/1"
i=0
while [ $i -lt "$runs" ]; do
    one 0 >> "$tmp/0"
    one 1 >> "$tmp/1"
    i=$((i + 1))
done
m=$(median < "$tmp/0")
d=$(median < "$tmp/1")
echo "load average after: $(uptime | sed 's/.*load average: //')"
echo "| arrays | program ms (wall, median of $runs) | ratio |"
echo "|---|---|---|"
awk -v m="$m" -v d="$d" 'BEGIN {
    printf "| cudaMallocManaged (never closed) | %.1f | 1.00 |\n", m
    printf "| cudaMalloc (closed between launches and copies) | %.1f | %.2f |\n", d, d / m
}'
