#!/usr/bin/env python3
"""The simulator's memory counters against Nsight Compute's, variant by variant.

  ncu_compare.py collect GPULAB sim|gpu OUT.jsonl   profile every built-in kernel variant
                                                     at a small size on one backend
  ncu_compare.py table SIM.jsonl NCU.jsonl           the markdown table of docs/profile.md
  ncu_compare.py check GPULAB                        the GPU test: collect both, compare;
                                                     exit 77 without a GPU or ncu

Counts compared per launch: global load/store requests and sectors, global
atomic requests, shared load/store requests and wavefronts, per kernel shape
(kernel name without template arguments, grid and block). Differences the compilers explain (an access g++
keeps that nvcc merges or splits, or the reverse) are listed in KNOWN with the
SASS instruction that shows them; anything else fails the check.
"""
import json
import os
import re
import shutil
import subprocess
import sys

# Small sizes: the simulator plays every thread, and ncu replays every launch.
SIZES = {
    "scale": "set n 65536",
    "vecdiff": "set n 65536",
    "distance": "set n 65536",
    "reduce": "set n 65536",
    "bitonic": "set n 4096",
    "histogram": "set width 256; set height 128",
    "transpose": "set n 256",
    "mandelbrot": "set width 128; set height 72",
    "matmul": "set n 64",
}

METRICS = [
    ("gld req", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("gld sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("gst req", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    ("gst sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("atom req", "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"),
    ("sld req", "smsp__inst_executed_op_shared_ld.sum"),
    ("sld wave", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("sst req", "smsp__inst_executed_op_shared_st.sum"),
    ("sst wave", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
]

# (algo/variant, metric short name): why the two differ, as docs/profile.md
# explains from the H200 run of 2026-12-01.
PRED = "predicated: Nsight Compute counts every warp's shared instruction, also with all its lanes off"
GRID = "the grid is sized from the GPU's SMs on the GPU, from the model on the simulator"
KNOWN = {}
for v in ("reduce/interleaved", "reduce/sequential", "reduce/warp-shuffle", "reduce/atomic-float"):
    KNOWN[(v, "sld req")] = KNOWN[(v, "sst req")] = PRED
for v in ("bitonic/nl", "bitonic/fast"):
    KNOWN[(v, "sst req")] = PRED
for m in ("sld req", "sld wave"):
    KNOWN[("distance/ls", m)] = "four consecutive 4-byte shared loads of thread 0's loop merged into one 16-byte load"
    KNOWN[("matmul/gpu-tiled", m)] = "consecutive As[ty][k] loads merged into 16-byte loads"
for m, _ in METRICS:
    KNOWN[("distance/tree", m)] = KNOWN[("reduce/vector", m)] = GRID


def variants(gpulab):
    out = subprocess.run([gpulab, "-c", "list"], capture_output=True, text=True, check=True).stdout
    algo, res = None, []
    for line in out.splitlines():
        if line and not line.startswith(" "):
            algo = line.split()[0]
        elif line.startswith("  ") and algo and "[library" not in line and "[CPU]" not in line:
            res.append((algo, line.replace("*", " ").split()[0]))
    return res


def collect(gpulab, backend, path):
    env = dict(os.environ, XDG_STATE_HOME=os.environ.get("XDG_STATE_HOME", "/tmp"))
    with open(path, "w") as f:
        for algo, v in variants(gpulab):
            cmd = "use %s/%s; %s; set backend %s; profile" % (algo, v, SIZES.get(algo, ""), backend)
            p = subprocess.run([gpulab, "--json", "-c", cmd], capture_output=True, text=True, env=env)
            rows = [l for l in p.stdout.splitlines() if l.startswith("{")]
            if p.returncode != 0 or not rows:
                f.write(json.dumps({"algo": algo, "variant": v, "source": backend, "error":
                                    (p.stderr.strip() or "no rows")[-400:]}) + "\n")
            for l in rows:
                f.write(l + "\n")
            f.flush()


def key_of(row):
    # "(transpose_tiled_k<T, 1>)" on the simulator, "transpose_tiled_k" from ncu
    name = row["kernel"].strip().strip("()")
    base = re.sub(r"<.*", "", name).split("(")[0].split()
    base = base[-1] if base else name
    return (row["algo"], row["variant"], base, tuple(row["grid"]), tuple(row["block"]))


def load(path):
    rows = {}
    errors = {}
    for line in open(path):
        r = json.loads(line)
        if "error" in r:
            errors[(r["algo"], r["variant"])] = r["error"]
            continue
        if r["kernel"] == "total":
            continue
        rows[key_of(r)] = r
    return rows, errors


def pair_up(sim, ncu):
    """Launch groups of one variant matched by kernel name and shape; a kernel
    that has one shape on each side but not the same one (a grid sized from
    the GPU's SMs on one side, from the model on the other) is matched by name."""
    keys = sorted(set(sim) | set(ncu))
    pairs = []
    for k in keys:
        if k in sim and k in ncu:
            pairs.append((k, sim[k], ncu[k], ""))
    lone_s = [k for k in keys if k in sim and k not in ncu]
    lone_g = [k for k in keys if k in ncu and k not in sim]
    for k in lone_s:
        same = [g for g in lone_g if g[:3] == k[:3]]
        ones = [x for x in lone_s if x[:3] == k[:3]]
        if len(same) == 1 and len(ones) == 1:
            g = same[0]
            lone_g.remove(g)
            pairs.append((k, sim[k], ncu[g], "grid %s on the simulator, %s on the GPU" %
                          ("x".join(map(str, k[3])), "x".join(map(str, g[3])))))
        else:
            pairs.append((k, sim[k], None, ""))
    for g in lone_g:
        pairs.append((g, None, ncu[g], ""))
    return sorted(pairs, key=lambda p: p[0])


def compare(sim_path, ncu_path):
    """Counts per launch (a group's counts over its launches), so that a GPU
    run that launched a kernel more often than the simulator still compares."""
    sim, sim_err = load(sim_path)
    ncu, ncu_err = load(ncu_path)
    lines, bad = [], []
    head = "| variant | kernel | launches sim/GPU | " + " | ".join(m for m, _ in METRICS) + " |"
    lines.append(head)
    lines.append("|" + "---|" * (3 + len(METRICS)))
    notes = []
    for k, s, g, note in pair_up(sim, ncu):
        algo, var, kern = k[0], k[1], k[2]
        name = "%s/%s" % (algo, var)
        if not s or not g:
            lines.append("| %s | %s | | only %s saw this launch shape |" % (name, kern, "ncu" if not s else "sim"))
            bad.append("%s %s: %s has no such launch" % (name, kern, "the simulator" if not s else "Nsight Compute"))
            continue
        cells = []
        for short, m in METRICS:
            a = s.get(m, 0) / max(1, s["launches"])
            b = g.get(m, 0) / max(1, g["launches"])
            if round(a) == round(b):
                cells.append("%d" % round(a))
            else:
                cells.append("%d / **%d**" % (round(a), round(b)))
                if (name, short) not in KNOWN:
                    bad.append("%s %s %s: simulator %d, ncu %d per launch" % (name, kern, short, round(a), round(b)))
        if note:
            notes.append("%s %s: %s" % (name, kern, note))
        lines.append("| %s | %s | %d/%d | %s |" % (name, kern, s["launches"], g["launches"], " | ".join(cells)))
    for (a, v), e in sorted(list(sim_err.items()) + list(ncu_err.items())):
        lines.append("| %s/%s | (not profiled: %s) |" % (a, v, e.replace("|", "/")[:120]))
        bad.append("%s/%s: %s" % (a, v, e))
    if notes:
        lines.append("")
        lines.extend("- " + n for n in notes)
    return "\n".join(lines), bad


def have_gpu():
    if not shutil.which("nvidia-smi"):
        return False
    return subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "collect":
        collect(argv[2], argv[3], argv[4])
        return 0
    if len(argv) == 4 and argv[1] == "table":
        table, bad = compare(argv[2], argv[3])
        print(table)
        for b in bad:
            print("differs: " + b, file=sys.stderr)
        return 0
    if len(argv) == 3 and argv[1] == "check":
        ncu = os.environ.get("GPULAB_NCU") or shutil.which("ncu") or "/usr/local/cuda/bin/ncu"
        if not have_gpu() or not os.access(ncu, os.X_OK):
            print("skipped: needs a GPU and Nsight Compute (ncu)")
            return 77
        tmp = os.environ.get("TMPDIR", "/tmp")
        sp, gp = os.path.join(tmp, "gpulab-prof-sim.jsonl"), os.path.join(tmp, "gpulab-prof-ncu.jsonl")
        collect(argv[2], "sim", sp)
        collect(argv[2], "gpu", gp)
        table, bad = compare(sp, gp)
        print(table)
        for b in bad:
            print("differs: " + b)
        return 1 if bad else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
