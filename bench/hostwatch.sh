#!/bin/sh
# bench/hostwatch.sh [GPULAB] - the cost of watching the host's own memory
# (kernels/program/progrt_host.cpp): bench/programs/hostwatch.cu's kernel
# (3 launches of 256 x 256 threads, each thread reading a local array
# through a pointer 400 times) with the program's malloc'd arrays freed
# before the launches and alive during them, taken in turn, $RUNS runs each
# (5) after a warm-up that builds the program, on one worker. Prints the
# median of the launches' simulator time (wall) as `run --json` reports it,
# and the ratio of alive to freed.
set -eu
cd "$(dirname "$0")/.."
gpulab=${1:-build/gpulab}
runs=${RUNS:-5}
set -- $(bench/pair.sh "$gpulab" bench/programs/hostwatch.cu launches "$runs")
f=$1 a=$2
echo "load average after: $(uptime | sed 's/.*load average: //')"
echo "| host allocations | launches ms (wall, median of $runs) | ratio |"
echo "|---|---|---|"
awk -v a="$a" -v f="$f" 'BEGIN {
    printf "| freed before the launches | %.1f | 1.00 |\n", f
    printf "| alive during them (64 B and 64 MiB) | %.1f | %.2f |\n", a, a / f
}'
