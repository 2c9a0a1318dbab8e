#!/usr/bin/env python3
"""The estimated GPU time (`est ms`, from the simulator's counts) against the
time measured on a GPU, for every built-in kernel variant.

  estimate.py sim GPULAB OUT.jsonl [JOBS]   run every variant on the simulator
                                            (one process per variant, JOBS at once)
  estimate.py gpu GPULAB OUT.jsonl          the same rows timed on the GPU
  estimate.py table SIM.jsonl GPU.jsonl     the table of docs/performance.md and the
                                            two goals: within 2x, and the order of
                                            the variants inside each family

bench/estimate-h200.jsonl holds the GPU rows measured on an NVIDIA H200
(driver 580.159.04, 2026-12-01) in the form `gpu` writes: every family from
`gpu`, transpose's two rows from docs/performance.md's transpose table.
bench/estimate_probe.cu measures the model's own constants (docs/profile.md).

Sizes: the simulator plays every GPU thread on one CPU thread, so they are
smaller than bench/*.gpulab's; each is stated in the table.
"""
import concurrent.futures
import itertools
import json
import os
import subprocess
import sys

# family: (settings, variants, memory-bound)
FAMILIES = {
    "scale": ("set n 2^24", ["index", "grid-stride"], True),
    "vecdiff": ("set n 2^22", ["v4", "unified"], True),
    "distance": ("set n 2^22", ["g", "ls", "tree"], True),
    "reduce": ("set n 2^22", ["interleaved", "sequential", "warp-shuffle", "atomic-float", "vector"], True),
    "bitonic": ("set n 2^16", ["o", "ov", "n", "nl", "fast"], True),
    "histogram": ("set width 1920; set height 1080", ["global", "shared", "fast"], True),
    # the two rows timed on the H200 after the last change of these kernels
    # (docs/performance.md, transpose: double, n = 8192, 12:45 UTC)
    "transpose": ("set n 8192", ["copy", "tiled"], True),
    "mandelbrot": ("set width 640; set height 360", None, False),
    "matmul": ("set n 256", None, False),
}


# Rows whose timed region is not kernel time, so the estimate (kernel time
# from the counts) cannot be held against it; they are shown, not counted.
EXCLUDED = {
    ("vecdiff", "unified"): "timed region includes the page migration of managed memory",
}
# distance/g's timed region holds the copy of n squares to the host and the
# host's sum; the estimate counts them too (3.5 ns a value, docs/profile.md),
# so it is held against the GPU like the others.


# Variants that size a grid-stride grid from the SMs: on the GPU from its own
# 132, on the simulator from 4 (vector, reduce), so the simulator's row gets
# the grid the H200 launched (132 x the blocks of that size an SM holds, at
# most 32, never more than there is work for) and both time the same launch.
GPU_GRID = {
    ("scale", "grid-stride"): 4224,   # block 32: 132 x 32
    ("distance", "tree"): 1056,       # block 256: 132 x 8
    ("reduce", "vector"): 1056,       # block 256: 132 x 8 (4096 blocks of work)
}


def kernel_variants(gpulab):
    out = subprocess.run([gpulab, "-c", "list"], capture_output=True, text=True, check=True).stdout
    algo, res = None, {}
    for line in out.splitlines():
        if line and not line.startswith(" "):
            algo = line.split()[0]
        elif line.startswith("  ") and algo and "[library" not in line and "[CPU]" not in line:
            name = line.replace("*", " ").split()[0]
            if not name.startswith("("):  # a footnote: "(article): the German article"
                res.setdefault(algo, []).append(name)
    return res


def jobs(gpulab):
    kv = kernel_variants(gpulab)
    for fam, (sets, vs, _) in FAMILIES.items():
        for v in vs or kv.get(fam, []):
            yield fam, v, sets


def sim_settings(fam, v, sets):
    g = GPU_GRID.get((fam, v))
    return sets + "; set grid %d" % g if g else sets


def one(gpulab, backend, fam, v, sets, repeats):
    cmd = "use %s/%s; %s; set backend %s; set repeats %d; run %s" % (
        fam, v, sim_settings(fam, v, sets) if backend == "sim" else sets, backend, repeats, v)
    env = dict(os.environ, XDG_STATE_HOME=os.environ.get("XDG_STATE_HOME", "/tmp"))
    p = subprocess.run([gpulab, "--json", "-c", "set sim-limit 2^30; " + cmd if backend == "sim" else cmd],
                       capture_output=True, text=True, env=env)
    rows = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    if not rows:
        return {"algo": fam, "variant": v, "ran": False, "note": (p.stderr.strip() or "no output")[-300:],
                "settings": sets}
    r = rows[-1]
    r["settings"] = sets
    return r


def collect(backend, gpulab, path, njobs):
    todo = list(jobs(gpulab))
    with open(path, "w") as f:
        if backend == "sim":
            with concurrent.futures.ThreadPoolExecutor(max_workers=njobs) as ex:
                futs = [ex.submit(one, gpulab, "sim", fam, v, sets, 1) for fam, v, sets in todo]
                for fu in concurrent.futures.as_completed(futs):
                    f.write(json.dumps(fu.result()) + "\n")
                    f.flush()
        else:
            for fam, v, sets in todo:
                f.write(json.dumps(one(gpulab, "gpu", fam, v, sets, 20)) + "\n")
                f.flush()


def table(sim_path, gpu_path):
    sim = {(r["algo"], r["variant"]): r for r in map(json.loads, open(sim_path))}
    gpu = {(r["algo"], r["variant"]): r for r in map(json.loads, open(gpu_path))}
    print("| family | size | variant | est ms | GPU ms | est / GPU | counted |")
    print("|---|---|---|---|---|---|---|")
    within = total = 0
    pairs = agree = 0
    for fam, (sets, _, membound) in FAMILIES.items():
        rows = []
        for (a, v), s in sim.items():
            if a != fam:
                continue
            g = gpu.get((a, v))
            e = s.get("est_ms") if s.get("ran") else None
            m = g.get("ms") if g and g.get("ran") else None
            rows.append((v, e, m))
        rows.sort(key=lambda x: x[0])
        for v, e, m in rows:
            ratio = e / m if e and m else None
            why = EXCLUDED.get((fam, v))
            if membound and ratio is not None and not why:
                total += 1
                within += 0.5 <= ratio <= 2.0
            counted = "no: " + why if why else "yes" if membound else "no: compute-bound"
            size = sets.replace("set ", "").replace(";", ",")
            if (fam, v) in GPU_GRID:
                size += ", grid %d" % GPU_GRID[(fam, v)]
            print("| %s | %s | %s | %s | %s | %s | %s |" % (
                fam, size, v, "%.4f" % e if e else "-",
                "%.4f" % m if m else "-", "%.2f" % ratio if ratio else "-", counted))
        if membound:
            kept = [r for r in rows if r[1] and r[2] and (fam, r[0]) not in EXCLUDED]
            for (v1, e1, m1), (v2, e2, m2) in itertools.combinations(kept, 2):
                pairs += 1
                # equal estimates order nothing: such a pair is not in order
                agree += e1 != e2 and (e1 < e2) == (m1 < m2)
    print()
    print("memory-bound rows within 2x: %d of %d" % (within, total))
    print("pairs of variants in the same order (memory-bound families): %d of %d (%.0f%%)" %
          (agree, pairs, 100.0 * agree / pairs if pairs else 0))


def main(argv):
    if len(argv) >= 4 and argv[1] in ("sim", "gpu"):
        collect(argv[1], argv[2], argv[3], int(argv[4]) if len(argv) > 4 else os.cpu_count() or 2)
        return 0
    if len(argv) == 4 and argv[1] == "table":
        table(argv[2], argv[3])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
