#!/bin/sh
# bench/pair.sh GPULAB PROGRAM.cu FIELD RUNS - a program run with argument
# 0 and with argument 1 in turn, RUNS times each, after a warm-up that
# builds it, on one worker of the simulator. Prints the two medians, for 0
# then 1, of FIELD of `run --json`: "launches" (the launches' ms, summed)
# or "seconds" (the program's wall time, in ms). The A/B half of
# bench/hostwatch.sh and bench/hostclose.sh.
set -eu
gpulab=$1 prog=$2 field=$3 runs=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
one() {
    "$gpulab" --json -c "set backend sim; set sim-threads 1; set time-limit 600; open $prog; run $1" |
        FIELD=$field python3 -c 'import json, os, sys
for line in sys.stdin:
    r = json.loads(line)
    if "launches" in r:
        f = os.environ["FIELD"]
        print(sum(l["ms"] for l in r["launches"]) if f == "launches" else r["seconds"] * 1000)
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
echo "$(median < "$tmp/0") $(median < "$tmp/1")"
