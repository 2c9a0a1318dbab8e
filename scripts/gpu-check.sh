#!/bin/sh
# Run on a GPU machine from the repository root, with .devcarry/ staged by
# scripts/stage-device.sh: every GPU test binary (relative paths only), then
# every benchmark script in bench/ as JSON rows. Results go to $OUT (or out/).
set -u
OUT=${OUT:-out}
mkdir -p "$OUT"
[ -f .devcarry/bundle.tar.xz ] && tar -C .devcarry -xJf .devcarry/bundle.tar.xz
bin=.devcarry/bin
export LD_LIBRARY_PATH="$PWD/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export XDG_STATE_HOME=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/device.txt" 2>&1
status=0
: > "$OUT/tests.txt"
for t in "$bin"/gpu_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    start=$(date +%s)
    timeout "${TEST_TIMEOUT:-300}" "$t" > "$OUT/$name.log" 2>&1
    rc=$?
    end=$(date +%s)
    echo "$name rc=$rc $((end - start))s" | tee -a "$OUT/tests.txt"
    [ $rc -eq 0 ] || { status=1; tail -20 "$OUT/$name.log"; }
done
for b in ${BENCH:-bench/*.gpulab}; do
    [ -f "$b" ] || continue
    name=$(basename "$b" .gpulab)
    timeout "${TEST_TIMEOUT:-300}" "$bin/gpulab" --json "$b" > "$OUT/bench-$name.jsonl" 2> "$OUT/bench-$name.err"
    echo "bench $name rc=$?" | tee -a "$OUT/tests.txt"
done
exit $status
