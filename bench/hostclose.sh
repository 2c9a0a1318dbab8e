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
runs=${RUNS:-5}
set -- $(bench/pair.sh "$gpulab" bench/programs/hostclose.cu seconds "$runs")
f=$1 a=$2
echo "load average after: $(uptime | sed 's/.*load average: //')"
echo "| arrays | program ms (wall, median of $runs) | ratio |"
echo "|---|---|---|"
awk -v a="$a" -v f="$f" 'BEGIN {
    printf "| cudaMallocManaged (never closed) | %.1f | 1.00 |\n", f
    printf "| cudaMalloc (closed between launches and copies) | %.1f | %.2f |\n", a, a / f
}'
