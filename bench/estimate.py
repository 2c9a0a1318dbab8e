#!/usr/bin/env python3
"""The estimated GPU time (`est ms`, from the simulator's counts) against the
time measured on a GPU, for every built-in kernel variant.

  estimate.py sim GPULAB OUT.jsonl [JOBS]   run every variant on the simulator
                                            (one process per variant, JOBS at once)
  estimate.py gpu GPULAB OUT.jsonl          the same rows timed on the GPU
  estimate.py table SIM.jsonl GPU.jsonl     the table of docs/performance.md and the
                                            two goals: within 2x, and the order of
                                            the variants inside each family

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
    "transpose": ("set n 2048", None, True),
    "mandelbrot": ("set width 640; set height 360", None, False),
    "matmul": ("set n 256", None, False),
}


def kernel_variants(gpulab):
    out = subprocess.run([gpulab, "-c", "list"], capture_output=True, text=True, check=True).stdout
    algo, res = None, {}
    for line in out.splitlines():
        if line and not line.startswith(" "):
            algo = line.split()[0]
        elif line.startswith("  ") and algo and "[library" not in line and "[CPU]" not in line:
            res.setdefault(algo, []).append(line.replace("*", " ").split()[0])
    return res


def jobs(gpulab):
    kv = kernel_variants(gpulab)
    for fam, (sets, vs, _) in FAMILIES.items():
        for v in vs or kv.get(fam, []):
            yield fam, v, sets


def one(gpulab, backend, fam, v, sets, repeats):
    cmd = "use %s/%s; %s; set backend %s; set repeats %d; run %s" % (fam, v, sets, backend, repeats, v)
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
    print("| family | size | variant | est ms | GPU ms | est / GPU | memory-bound |")
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
            if membound and ratio is not None:
                total += 1
                within += 0.5 <= ratio <= 2.0
            print("| %s | %s | %s | %s | %s | %s | %s |" % (
                fam, sets.replace("set ", "").replace(";", ","), v, "%.4f" % e if e else "-",
                "%.4f" % m if m else "-", "%.2f" % ratio if ratio else "-", "yes" if membound else "no"))
        if membound:
            for (v1, e1, m1), (v2, e2, m2) in itertools.combinations([r for r in rows if r[1] and r[2]], 2):
                pairs += 1
                agree += (e1 < e2) == (m1 < m2)
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
