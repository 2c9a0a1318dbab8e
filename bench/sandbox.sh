#!/bin/sh
# bench/sandbox.sh [GPULAB] - the sandbox's start-up cost per run: one
# gpulab session runs a tiny student's program (one launch of 32 threads,
# build cached) 11 times with the sandbox on and 11 times with it off,
# alternating, after a warm-up of each; each run's wall time is gpulab's own
# (--json "seconds": from the start of the sandbox to the end of the
# program's output and status). Prints the medians, their difference (the
# cost) and the load average before and after: on the shared 2-core
# machine the times are only comparable at a similar load.
set -eu
cd "$(dirname "$0")/.."
gpulab=${1:-build/gpulab}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/tiny.cu" <<'CU'
#include <cstdio>
__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }
int main() {
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    k<<<1, 32>>>(d);
    cudaDeviceSynchronize();
    cudaFree(d);
    printf("ok\n");
    return 0;
}
CU
line="set backend sim; open $tmp/tiny.cu; run; set sandbox off; run"
for i in 1 2 3 4 5 6 7 8 9 10 11; do line="$line; set sandbox on; run; set sandbox off; run"; done
echo "load average before: $(uptime | sed 's/.*load average: //')"
XDG_CACHE_HOME=$tmp/cache "$gpulab" --json -c "$line" 2>/dev/null | python3 -c '
import json, statistics, sys
s = [json.loads(l)["seconds"] for l in sys.stdin if l.startswith("{") and "seconds" in l]
on, off = s[2::2], s[3::2]   # the first pair is the warm-up (the build, the probe)
m_on, m_off = statistics.median(on), statistics.median(off)
print("runs: %d on, %d off" % (len(on), len(off)))
print("median with the sandbox:    %.1f ms" % (m_on * 1e3))
print("median without the sandbox: %.1f ms" % (m_off * 1e3))
print("start-up cost of the sandbox: %.1f ms (goal <= 50 ms: %s)" % ((m_on - m_off) * 1e3, "met" if m_on - m_off <= 0.05 else "not met"))
'
echo "load average after: $(uptime | sed 's/.*load average: //')"
