#!/bin/sh
# bench/programs.sh [GPULAB] - a student's program on the simulator:
#   1. open + run of bench/programs/reduce100.cu with an empty cache (the
#      compile included), median of 5, at n = 65536 so that the run itself
#      takes little of it;
#   2. the same with the build cached, median of 5;
#   3. its kernel (2^20 ints, block 256) against the built-in
#      reduce/sequential at the same n and block, median of 5 each.
# Prints the rows of the table in docs/performance.md, and the load average
# (uptime) before and after: on the shared 2-core machine the times are only
# comparable at a similar load.
set -eu
cd "$(dirname "$0")/.."
gpulab=${1:-build/gpulab}
prog=bench/programs/reduce100.cu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
now() { date +%s.%N; }
run_once() {
    t0=$(now)
    XDG_CACHE_HOME=$1 "$gpulab" -c "set backend sim; open $prog; run 65536" > "$tmp/out" 2>&1
    t1=$(now)
    grep -q " ok" "$tmp/out" || { cat "$tmp/out"; exit 1; }
    echo "$t1 - $t0" | bc -l
}
load() { uptime | sed 's/.*load average: //'; }
echo "load average before: $(load)"
# warm the page cache and the runtime library once
run_once "$tmp/warm" > /dev/null
for i in 1 2 3 4 5; do rm -rf "$tmp/cold"; run_once "$tmp/cold"; done | median > "$tmp/cold.txt"
for i in 1 2 3 4 5; do run_once "$tmp/warm"; done | median > "$tmp/cached.txt"
for i in 1 2 3 4 5; do
    XDG_CACHE_HOME=$tmp/warm "$gpulab" --json -c "set backend sim; open $prog; run" |
        python3 -c 'import json,sys; r=json.loads(sys.stdin.readline()); print(sum(l["ms"] for l in r["launches"]))'
done | median > "$tmp/student.txt"
for i in 1 2 3 4 5; do
    "$gpulab" --json -c "use reduce/sequential; set backend sim; set dtype int; set n 2^20; set block 256; run" |
        python3 -c 'import json,sys; r=json.loads(sys.stdin.readline()); print(r["ms"])'
done | median > "$tmp/builtin.txt"
printf '| first open + run at n = 65536 (compile included) | %.2f s |\n' "$(cat "$tmp/cold.txt")"
printf '| open + run at n = 65536, build cached | %.3f s |\n' "$(cat "$tmp/cached.txt")"
printf '| student kernel, 2^20 ints, block 256 | %.2f ms |\n' "$(cat "$tmp/student.txt")"
printf '| built-in reduce/sequential, same n and block | %.2f ms |\n' "$(cat "$tmp/builtin.txt")"
printf '| ratio student / built-in | %.2f |\n' "$(echo "$(cat "$tmp/student.txt") / $(cat "$tmp/builtin.txt")" | bc -l)"
echo "load average after: $(load)"
