#!/bin/sh
# bench/memcheck.sh [GPULAB] - the cost of the simulator's memory checks on a
# student's programs: bench/programs/reduce100.cu at 2^20 ints (block 256)
# and bench/programs/matmul512.cu (512 x 512 floats, tiles of 16 x 16), run
# on the simulator under each `set check` mode, the modes taken in turn (so
# a change of the machine's load hits them alike), $RUNS runs each (5) after a
# warm-up that builds the programs. Per program and mode it prints the
# median CPU time of the whole run (user + system of gpulab and the program,
# build cached: on a shared machine the wall time mostly measures the other
# jobs), its ratio to the run with the checks off, and the median of the
# kernel's simulator time (wall) as `run --json` reports it.
set -eu
cd "$(dirname "$0")/.."
gpulab=${1:-build/gpulab}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
modes="off memcheck leaks initcheck all"
runs=${RUNS:-5}
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
load() { uptime | sed 's/.*load average: //'; }
# one run: "cpu_seconds kernel_ms"
one() {
    /usr/bin/time -f "%U %S" -o "$tmp/time" "$gpulab" --json -c "set backend sim; set time-limit 600; set check $1; open $2; run $3" > "$tmp/json"
    ms=$(python3 -c 'import json,sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "launches" in r:
        print(sum(l["ms"] for l in r["launches"]))
        break' "$tmp/json")
    echo "$(awk '{print $1 + $2}' "$tmp/time") $ms"
}
echo "load average before: $(load)"
echo "| program | check | CPU s (median) | ratio to off | kernel ms (wall, median) |"
echo "|---|---|---|---|---|"
for prog in "bench/programs/reduce100.cu 1048576 256" "bench/programs/matmul512.cu 512"; do
    set -- $prog
    file=$1
    shift
    name=$(basename "$file")
    for m in $modes; do one "$m" "$file" "$*" > /dev/null; done
    for i in $(seq "$runs"); do
        for m in $modes; do one "$m" "$file" "$*" >> "$tmp/$name.$m"; done
    done
    off=$(cut -d' ' -f1 "$tmp/$name.off" | median)
    for m in $modes; do
        cpu=$(cut -d' ' -f1 "$tmp/$name.$m" | median)
        ms=$(cut -d' ' -f2 "$tmp/$name.$m" | median)
        printf '| %s | %s | %.2f | %.2f | %.0f |\n' "$name" "$m" "$cpu" "$(echo "$cpu / $off" | bc -l)" "$ms"
    done
done
echo "load average after: $(load)"
