#!/bin/sh
# bench/simspeed.sh [BUILD_DIR] - how fast the simulator plays kernels, with
# the default memory checks on. Prints a markdown table per measure, the
# load average (uptime) before and after each. $RUNS runs of each (3) after
# a warm-up; medians ($LECTURE_RUNS runs of the lectures' sizes, default
# $RUNS). What it measures:
#  1. GPU threads per CPU second on the shared-memory tree reduction (blocks
#     of 256, a barrier per step): tests/sim/bench_sim at 2^20 ints;
#  2. the wall time of the same reduction at 2^22 ints (bench_sim: its
#     configuration keeps the default sim-limit of 4 Mi threads);
#  3. the lectures' sizes through gpulab (the wall time of the whole
#     command, the simulator's kernel time, wall, and the CPU time of the
#     whole run), each on $LECTURE_WORKERS worker threads (`set sim-threads`,
#     default "1 2", taken in turn run by run), after a warm-up at a small n:
#     the reduction of 64 Mi ints ($REDUCE_VARIANTS, default "sequential"),
#     the 7680 x 4320 histogram ($HIST_VARIANTS, default "shared") and the
#     1e8-float reduction (warp-shuffle, atomic-float) with sim-limit raised
#     to fit; skipped with LECTURE=0; the rows are recorded (the estimated
#     GPU time), as a student's `run` is;
#  4. a student's matrixMul-like program (tests/programs/p100_matrix_mul_tiled.cu,
#     A 320 x 320, B 640 x 320, one warm-up and one timed launch), the whole
#     open + run with the build cached;
#  5. (WORKERS=0 skips; printed after 2) the 2^22 and 2^24 reductions of
#     bench_sim on 1 and 2 worker threads, alternately.
# BEFORE=path/to/another/bench_sim and BEFORE_GPULAB=path/to/another/gpulab
# run those too, alternately with this build's, each run for run (rows
# "..., before").
# On a shared machine the wall times mostly measure the other jobs: the CPU
# time beside them is the fairer number.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
gpulab=$build/gpulab
bench=$build/tests/sim/bench_sim
runs=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
load() { uptime | sed 's/.*load average: //'; }

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average before: $(load)"

# 1 and 2: bench_sim prints "... X s wall, Y s CPU; ... Z M threads per CPU
# second". BEFORE=path/to/another/bench_sim runs that one too, alternately.
bench_row() { # label, file
    wall=$(sed -E 's/.*: ([0-9.]+) s wall.*/\1/' "$2" | median)
    cpu=$(sed -E 's/.* ([0-9.]+) s CPU.*/\1/' "$2" | median)
    rate=$(sed -E 's/.* ([0-9.]+) M threads per CPU second.*/\1/' "$2" | median)
    echo "| $1 | $wall | $cpu | $rate |"
}
echo "| reduction (bench_sim N 256) | wall s (median) | CPU s (median) | M GPU threads per CPU second |"
echo "|---|---|---|---|"
for n in 1048576 4194304; do
    "$bench" 65536 256 > /dev/null
    [ -n "${BEFORE:-}" ] && "$BEFORE" 65536 256 > /dev/null
    for i in $(seq "$runs"); do
        [ -n "${BEFORE:-}" ] && "$BEFORE" "$n" 256 | grep '^reduce' >> "$tmp/before.$n"
        "$bench" "$n" 256 | grep '^reduce' >> "$tmp/bench.$n"
    done
    [ -n "${BEFORE:-}" ] && bench_row "$n ints, before" "$tmp/before.$n"
    bench_row "$n ints" "$tmp/bench.$n"
done
echo "load average: $(load)"

# 5. the blocks on 1 and on 2 worker threads (`set sim-threads`; bench_sim
# takes GPULAB_SIM_THREADS and raises its sim-limit to n): 2^22 and 2^24 ints
if [ "${WORKERS:-1}" != 0 ]; then
    echo "| reduction (bench_sim N 256) | workers | wall s (median) | CPU s (median) |"
    echo "|---|---|---|---|"
    for n in 4194304 16777216; do
        for w in 1 2; do rm -f "$tmp/w.$n.$w"; done
        for i in $(seq "$runs"); do
            for w in 1 2; do
                GPULAB_SIM_THREADS=$w "$bench" "$n" 256 | grep '^reduce' >> "$tmp/w.$n.$w"
            done
        done
        for w in 1 2; do
            echo "| $n ints | $w | $(sed -E 's/.*: ([0-9.]+) s wall.*/\1/' "$tmp/w.$n.$w" | median) |" \
                "$(sed -E 's/.* ([0-9.]+) s CPU.*/\1/' "$tmp/w.$n.$w" | median) |"
        done
    done
    echo "load average: $(load)"
fi

# one gpulab run: "cpu_seconds kernel_ms wall_seconds" ($g: the gpulab to run)
one() {
    /usr/bin/time -f "%U %S %e" -o "$tmp/time" "${g:-$gpulab}" --json -c "set backend sim; set time-limit 600; $1" > "$tmp/json"
    ms=$(python3 -c 'import json,sys
t = 0
for line in open(sys.argv[1]):
    line = line.strip()
    if not line.startswith("{"):
        continue
    r = json.loads(line)
    if "launches" in r:
        t += sum(l["ms"] for l in r["launches"])
    elif r.get("ms") is not None and r.get("backend") == "sim":
        t += r["ms"]
print("%.0f" % t)' "$tmp/json")
    echo "$(awk '{print $1 + $2}' "$tmp/time") $ms $(awk '{print $3}' "$tmp/time")"
}
measure() { # name, commands, warm-up commands (the same rows at a small size)
    one "$3" > /dev/null
    if [ -n "${BEFORE_GPULAB:-}" ]; then g=$BEFORE_GPULAB; one "$3" > /dev/null; g=; fi
    for w in $workers; do rm -f "$tmp/m.$w" "$tmp/b.$w"; done
    for i in $(seq "${LECTURE_RUNS:-$runs}"); do
        for w in $workers; do
            if [ -n "${BEFORE_GPULAB:-}" ]; then
                g=$BEFORE_GPULAB
                one "set sim-threads $w; $2" >> "$tmp/b.$w"
                g=
            fi
            one "set sim-threads $w; $2" >> "$tmp/m.$w"
        done
    done
    for w in $workers; do
        for f in b m; do
            [ -s "$tmp/$f.$w" ] || continue
            label=$1
            [ "$f" = b ] && label="$1, before"
            printf '| %s | %s | %s | %s | %s |\n' "$label" "$w" "$(cut -d' ' -f3 "$tmp/$f.$w" | median)" \
                "$(cut -d' ' -f2 "$tmp/$f.$w" | median)" "$(cut -d' ' -f1 "$tmp/$f.$w" | median)"
        done
    done
}
workers=${LECTURE_WORKERS:-1 2}

if [ "${LECTURE:-1}" != 0 ]; then
    echo "| lecture size | workers | wall s (whole command, median) | kernel ms (wall, median) | CPU s (median) |"
    echo "|---|---|---|---|---|"
    for v in ${REDUCE_VARIANTS:-sequential}; do
        measure "reduce/$v, 64 Mi ints" "use reduce; set sim-limit 64Mi; set n 64Mi; set dtype int; set pattern lecture; run $v" \
            "use reduce; set n 64Ki; run $v"
    done
    for v in ${HIST_VARIANTS:-shared}; do
        measure "histogram/$v, 7680 x 4320" "use histogram; set sim-limit 64Mi; set width 7680; set height 4320; set pattern photo; run $v" \
            "use histogram; set width 320; set height 200; set pattern photo; run $v"
    done
    measure "reduce/warp-shuffle atomic-float, 1e8 floats" "use reduce/warp-shuffle; set sim-limit 128Mi; set n 1e8; set dtype float; set pattern const; set value 1.23; set block 128; set grid 10240; run warp-shuffle atomic-float" \
        "use reduce; set n 64Ki; set dtype float; run warp-shuffle atomic-float"
    echo "load average: $(load)"
fi

# 4: the build cached by a warm-up run
prog=tests/programs/p100_matrix_mul_tiled.cu
"$gpulab" -c "set backend sim; open $prog; run 1" > /dev/null
rm -f "$tmp/p"
for i in $(seq "$runs"); do
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$gpulab" -c "set backend sim; open $prog; run 1" > /dev/null
    cat "$tmp/time" >> "$tmp/p"
done
echo "| $prog (open + run, cached) | wall $(cut -d' ' -f1 "$tmp/p" | median) s | CPU $(awk '{print $2 + $3}' "$tmp/p" | median) s |"
echo "load average after: $(load)"
