#!/bin/sh
# The lane-loop forms of a student's kernels (kernels/program/lanes.c)
# against the fibers alone, on the lecture's reduction as a student has it
# (tests/programs/seeds/uk_reduce.cu: interleaved and sequential, blocks of
# 256, a barrier per step; the program times each kernel itself, median of
# its runs). Each size is run with the forms (GPULAB_SIM_LANES=1) and
# without (0), in turn, RUNS times; the table gives the medians of the
# program's own per-launch times, of gpulab's kernel time per launch, and
# the millions of GPU threads per second of kernel time.
# Usage: sh bench/lanes.sh [BUILD_DIR]   (RUNS=5 SIZES="4194304 67108864" WORKERS="1 2")
set -eu
build=${1:-build}
gpulab=$(cd "$build" && pwd)/gpulab
prog=$(cd "$(dirname "$0")/.." && pwd)/tests/programs/seeds/uk_reduce.cu
RUNS=${RUNS:-5}
SIZES=${SIZES:-4194304 67108864}
WORKERS=${WORKERS:-1 2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"
"$gpulab" -c "set backend sim; open $prog; run 1024" > /dev/null 2>&1 # the build, once
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
echo "| n | workers | lane forms | interleaved ms a launch | sequential ms a launch | kernel ms (sim) a launch, interleaved | M GPU threads per second, interleaved |"
echo "|---|---|---|---|---|---|---|"
for n in $SIZES; do
    for w in $WORKERS; do
        for i in $(seq "$RUNS"); do
            for l in 1 0; do
                GPULAB_SIM_LANES=$l "$gpulab" -c "set backend sim; set sim-threads $w; set time-limit 600; open $prog; run $n" \
                    > "$tmp/out" 2>&1
                awk '$5 == "interleaved" {print $1}' "$tmp/out" >> "$tmp/i.$l"
                awk '$5 == "sequential" {print $1}' "$tmp/out" >> "$tmp/s.$l"
                awk '$1 == "reduce_interleaved" {print $NF / $3}' "$tmp/out" >> "$tmp/k.$l"
            done
        done
        for l in 1 0; do
            mi=$(median < "$tmp/i.$l")
            ms=$(median < "$tmp/s.$l")
            mk=$(median < "$tmp/k.$l")
            rate=$(awk -v n="$n" -v ms="$mk" 'BEGIN {printf "%.1f", n / (ms / 1000) / 1e6}')
            echo "| $n | $w | $([ "$l" = 1 ] && echo on || echo off) | $mi | $ms | $mk | $rate |"
            rm -f "$tmp/i.$l" "$tmp/s.$l" "$tmp/k.$l"
        done
    done
done
