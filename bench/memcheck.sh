#!/bin/sh
# bench/memcheck.sh [GPULAB] - the cost of the simulator's memory checks on a
# student's programs: bench/programs/reduce100.cu at 2^20 ints (block 256)
# and bench/programs/matmul512.cu (512 x 512 floats, tiles of 16 x 16), run
# on the simulator under each `set check` mode, the modes taken in turn (so
# a change of the machine's load hits them alike), 5 runs each after a
# warm-up. Prints, per program and mode, the median simulator time of the
# kernel (the launches' own time, as `run --json` reports it) and its ratio
# to the run with the checks off, and the load average before and after.
set -eu
cd "$(dirname "$0")/.."
gpulab=${1:-build/gpulab}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
modes="off memcheck leaks initcheck all"
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
load() { uptime | sed 's/.*load average: //'; }
kernel_ms() {
    "$gpulab" --json -c "set backend sim; set time-limit 300; set check $1; open $2; run $3" |
        python3 -c 'import json,sys
for line in sys.stdin:
    r = json.loads(line)
    if "launches" in r:
        print(sum(l["ms"] for l in r["launches"]))
        break'
}
echo "load average before: $(load)"
for prog in "bench/programs/reduce100.cu 1048576 256" "bench/programs/matmul512.cu 512"; do
    set -- $prog
    file=$1
    shift
    for m in $modes; do kernel_ms "$m" "$file" "$*" > /dev/null; done   # build and warm
    for i in 1 2 3 4 5; do
        for m in $modes; do kernel_ms "$m" "$file" "$*" >> "$tmp/$(basename "$file").$m"; done
    done
    off=$(median < "$tmp/$(basename "$file").off")
    for m in $modes; do
        med=$(median < "$tmp/$(basename "$file").$m")
        printf '| %s | %s | %.1f ms | %.2f |\n' "$(basename "$file")" "$m" "$med" "$(echo "$med / $off" | bc -l)"
    done
done
echo "load average after: $(load)"
