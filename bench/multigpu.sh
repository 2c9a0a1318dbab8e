#!/bin/sh
# bench/multigpu.sh [GPULAB] - the reduction across GPUs: 2^28 ints with
# reduce/vector and reduce/cub on 1 GPU and on 2 GPUs (repeats 10: the median
# of 10 timed runs after one warm-up, for each GPU's slice and for each
# combine), and the measured device-to-device copy bandwidth of GPU 0 beside
# NCCL's busbw. Needs a machine with 2 or more GPUs and libnccl.so.2 (exit 77
# with the reason when it has fewer GPUs). Prints the rows of the table in
# docs/performance.md ("Across GPUs"); the raw JSON lines go to stderr.
set -eu
cd "$(dirname "$0")/.."
gpulab=${1:-build/gpulab}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NCCL_NVLS_ENABLE=0 # gpulab sets it too: NVLink multicast stays off
ngpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
if [ "${ngpus:-0}" -lt 2 ]; then
    echo "bench/multigpu.sh needs 2 or more GPUs (nvidia-smi lists ${ngpus:-0})"
    exit 77
fi
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
nvidia-smi topo -m 2>/dev/null || true
copy=$("$gpulab" -c "device" | sed -n 's/.*measured copy bandwidth *\([0-9.]*\) GB.*/\1/p' | head -1)
for v in vector cub; do
    "$gpulab" --json -c "use reduce/$v; set backend gpu; set dtype int; set pattern lecture; set n 2^28; \
set repeats 10; set gpus 1; run; set gpus 2; run" > "$tmp/$v.jsonl"
    cat "$tmp/$v.jsonl" >&2
done
python3 - "$tmp" "${copy:-0}" <<'PY'
import json, sys, os
tmp, copy = sys.argv[1], float(sys.argv[2])
print("| variant | GPUs | each GPU's ms | combine | combine ms | total ms | speedup | algbw GB/s | busbw GB/s | D2D copy GB/s | ok |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for v in ("vector", "cub"):
    rows = [json.loads(l) for l in open(os.path.join(tmp, v + ".jsonl")) if l.strip()]
    one = [r for r in rows if "gpus" not in r]
    parts = [r for r in rows if "gpu" in r]
    combs = [r for r in rows if "combine" in r]
    for r in one:
        print(f"| {v} | 1 | {r['ms']:.4f} | - | - | {r['ms']:.4f} | 1.00x | - | - | {copy:.0f} | {'yes' if r['correct'] else 'NO'} |")
    each = " / ".join(f"{p['ms']:.4f}" for p in parts)
    for c in combs:
        f = lambda x, d=4: "-" if x is None else f"{x:.{d}f}"
        print(f"| {v} | {c['gpus']} | {each} | {c['combine']} | {f(c['combine_ms'])} | {f(c['total_ms'])} | "
              f"{'-' if c['speedup'] is None else '%.2fx' % c['speedup']} | {f(c['algbw'], 6)} | {f(c['busbw'], 6)} | "
              f"{copy:.0f} | {'yes' if c['correct'] else ('not run: ' + c['note'] if not c['ran'] else 'NO')} |")
PY
