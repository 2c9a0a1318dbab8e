#!/bin/sh
# bench/races.sh [GPULAB] - the cost of the race check on a student's
# programs: bench/programs/reduce100.cu at 2^20 ints (block 256) and
# bench/programs/matmul512.cu (512 x 512 floats, tiles of 16 x 16), run on
# the simulator with `set race-check off` and `on` (memcheck's default mode
# in both), taken in turn so a change of the machine's load hits both alike,
# $RUNS runs each (5) after a warm-up that builds the programs. Per program
# it prints the median CPU time of the whole run (user + system of gpulab
# and the program, build cached), the ratio of on to off, and the median of
# the kernels' simulator time (wall) as `run --json` reports it.
# With SCHEDULES=N (and a gpulab that has `set schedules`), also the 2^16
# reduction run once and under N schedules, and their ratio: `set schedules`
# works outside --json only, so those rows time the whole command (wall
# clock, build cached) and the last column is that wall time. ONLY_SCHEDULES=1:
# those rows alone.
# With SIM_THREADS=N every run sets `set sim-threads N` first: the race
# check and the schedules run a launch's blocks on one worker, so with the
# default (auto) the runs without them may use a second core the others
# cannot; SIM_THREADS=1 compares the checker's own cost.
# BEFORE_GPULAB=path/to/another/gpulab runs that one too (its own build
# cache), each of its runs right after this one's, in rows "before, ...";
# its ratios are to its own first row.
set -eu
cd "$(dirname "$0")/.."
gpulab=${1:-build/gpulab}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
runs=${RUNS:-5}
threads=${SIM_THREADS:+set sim-threads $SIM_THREADS;}
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
load() { uptime | sed 's/.*load average: //'; }
# one run: "cpu_seconds kernel_ms"; $1: the settings, $2: the file, $3: its arguments
# $g: the gpulab to run (empty: GPULAB), each with its own build cache
one() {
    XDG_CACHE_HOME=$tmp/cache${g:+-before} /usr/bin/time -f "%U %S" -o "$tmp/time" "${g:-$gpulab}" --json \
        -c "set backend sim; set time-limit 600; $threads $1; open $2; run $3" > "$tmp/json"
    ms=$(python3 -c 'import json,sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "launches" in r:
        print(sum(l["ms"] for l in r["launches"]))
        break' "$tmp/json")
    echo "$(awk '{print $1 + $2}' "$tmp/time") $ms"
}
# one run timed whole, without --json: "cpu_seconds wall_ms" (the wall
# clock from date's nanoseconds: time's %e counts hundredths, a quarter of
# a 40 ms run)
whole() {
    t0=$(date +%s%N)
    XDG_CACHE_HOME=$tmp/cache${g:+-before} /usr/bin/time -f "%U %S" -o "$tmp/time" "${g:-$gpulab}" \
        -c "set backend sim; set time-limit 600; $threads $1; open $2; run $3" > /dev/null 2>&1 || true
    t1=$(date +%s%N)
    awk -v us=$(((t1 - t0) / 1000)) '{print $1 + $2, us / 1000}' "$tmp/time"
}
# each configuration once with GPULAB into $tmp/NAME.LABEL, and with
# BEFORE_GPULAB (if set) into $tmp/NAME.before-LABEL
run_all() { # name, file, arguments, the configuration
    $how "${4#*|}" "$2" "$3" >> "$tmp/$1.${4%%|*}"
    if [ -n "${BEFORE_GPULAB:-}" ]; then
        g=$BEFORE_GPULAB
        $how "${4#*|}" "$2" "$3" >> "$tmp/$1.before-${4%%|*}"
        g=
    fi
}
rows() { # name, file prefix ("" or "before-"), label prefix, then the configurations
    name=$1 pre=$2 lab=$3
    shift 3
    base=$(cut -d' ' -f1 "$tmp/$name.$pre${1%%|*}" | median)
    base_ms=$(cut -d' ' -f2 "$tmp/$name.$pre${1%%|*}" | median)
    for c in "$@"; do
        l=${c%%|*}
        cpu=$(cut -d' ' -f1 "$tmp/$name.$pre$l" | median)
        ms=$(cut -d' ' -f2 "$tmp/$name.$pre$l" | median)
        printf '| %s | %s%s | %.2f | %.2f | %.0f | %.2f |\n' "$name" "$lab" "$l" "$cpu" "$(echo "$cpu / $base" | bc -l)" \
            "$ms" "$(echo "$ms / $base_ms" | bc -l)"
    done
}
table() { # $1: name, $2: file, $3: arguments, then pairs of "label|settings"
    name=$1 file=$2 args=$3
    shift 3
    for c in "$@"; do run_all "$name" "$file" "$args" "$c" > /dev/null; done
    for c in "$@"; do rm -f "$tmp/$name.${c%%|*}" "$tmp/$name.before-${c%%|*}"; done
    for i in $(seq "$runs"); do
        for c in "$@"; do run_all "$name" "$file" "$args" "$c"; done
    done
    [ -n "${BEFORE_GPULAB:-}" ] && rows "$name" before- "before, " "$@"
    rows "$name" "" "" "$@"
}
echo "load average before: $(load)${SIM_THREADS:+; sim-threads $SIM_THREADS}"
echo "| program | run | CPU s (median) | CPU ratio to the first row | kernel ms (wall, median) | ms ratio |"
echo "|---|---|---|---|---|---|"
how=one
if [ -z "${ONLY_SCHEDULES:-}" ]; then
table reduce2^20 bench/programs/reduce100.cu "1048576 256" "race-check off|set race-check off" "race-check on|set race-check on"
table matmul512 bench/programs/matmul512.cu "512" "race-check off|set race-check off" "race-check on|set race-check on"
fi
if [ -n "${SCHEDULES:-}" ]; then
    how=whole
    echo "| (below: the whole command's wall ms in the ms columns) | | | | | |"
    table reduce2^16 bench/programs/reduce100.cu "65536 256" "one run|set schedules 1" \
        "$SCHEDULES schedules|set schedule random; set schedules $SCHEDULES"
fi
echo "load average after: $(load)"
