#!/bin/sh
# Run on a GPU machine in the folder scripts/stage-device.sh staged (it
# holds bundle.tar.xz and this script): unpacks the installed tree, then
# from it, with no build tree anywhere:
#   - every corpus program (programs/*.cu) the way a student runs it
#     (open FILE; run) on the GPU backend, checked by programs/check.sh
#   - every GPU test program (bin/gpu_*)
#   - every benchmark script (bench/*.gpulab) as JSON rows
# Results go to $OUT (or out/). PROGRAMS=, TESTS=, BENCH= (file patterns)
# narrow each part; set one to "none" to leave it out.
set -u
cd "$(dirname "$0")"
OUT=${OUT:-out}
mkdir -p "$OUT"
[ -f bundle.tar.xz ] && tar -xJf bundle.tar.xz
here=$PWD
bin=$here/gpulab/bin
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export XDG_STATE_HOME=$(mktemp -d) XDG_CACHE_HOME=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/device.txt" 2>&1
status=0
: > "$OUT/tests.txt"
note() { echo "$*" | tee -a "$OUT/tests.txt"; }
for p in ${PROGRAMS:-programs/p*.cu programs/seeds/*.cu}; do
    [ -f "$p" ] || continue
    name=$(basename "$p" .cu)
    start=$(date +%s)
    timeout "${TEST_TIMEOUT:-300}" sh programs/check.sh "$bin/gpulab" "$p" gpu > "$OUT/program_$name.log" 2>&1
    rc=$?
    note "program $name rc=$rc $(( $(date +%s) - start ))s"
    [ $rc -eq 0 ] || { status=1; tail -20 "$OUT/program_$name.log"; }
done
for t in ${TESTS:-$bin/gpu_*}; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    start=$(date +%s)
    timeout "${TEST_TIMEOUT:-300}" "$t" > "$OUT/$name.log" 2>&1
    rc=$?
    note "$name rc=$rc $(( $(date +%s) - start ))s"
    [ $rc -eq 0 ] || { status=1; tail -20 "$OUT/$name.log"; }
done
for b in ${BENCH:-bench/*.gpulab}; do
    [ -f "$b" ] || continue
    name=$(basename "$b" .gpulab)
    timeout "${TEST_TIMEOUT:-300}" "$bin/gpulab" --json "$b" > "$OUT/bench-$name.jsonl" 2> "$OUT/bench-$name.err"
    note "bench $name rc=$?"
done
exit $status
