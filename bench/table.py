#!/usr/bin/env python3
"""Turn `gpulab --json` rows (one JSON object per line) into Markdown tables
for docs/performance.md: one table per (algo, n, dtype, pattern) group, each
row with its time against the library row of the same group (same run).

Usage: bench/table.py out/bench-*.jsonl
"""
import json
import sys


def fmt(x, spec):
    return "-" if x is None or (isinstance(x, (int, float)) and x < 0) else format(x, spec)


def read_groups(paths):
    """Rows in the order they ran, cut into one group per table: a new group
    starts when the algorithm, n or dtype changes, or a variant comes again
    (the next command of the script)."""
    groups = []
    for path in paths:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                r = json.loads(line)
                sweep = r.get("axis")
                if r.get("n") is None and not sweep:
                    continue  # occupancy and suggest print objects of their own
                # a sweep's points stay in one table, whatever they vary
                key = ("sweep " + sweep, r.get("algo"), r.get("dtype")) if sweep else \
                      (r.get("algo"), r.get("n"), r.get("dtype"))
                g = groups[-1] if groups else None
                if g is None or g["key"] != key or (not sweep and any(
                        x["variant"] == r.get("variant") for x in g["rows"])):
                    g = {"key": key, "rows": []}
                    groups.append(g)
                g["rows"].append(r)
    return groups


def print_sweep(g):
    axis, algo, dtype = g["key"][0][6:], g["key"][1], g["key"][2]
    rows = g["rows"]
    print(f"\n#### {algo}, sweep of {axis}, {dtype}\n")
    print(f"| variant | {axis} | n | block | grid | ms (median) | min | max | GB/s | % peak | occupancy | ok |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if not r.get("ran", True):
            print(f"| {r['variant']} | {r.get('x')} | | | | not run: {r.get('note', '')} |||||||")
            continue
        ok = {True: "yes", False: "NO", None: "-"}[r.get("correct")]
        o = r.get("occupancy")
        occ = f"{o['occupancy'] * 100:.0f}% ({o.get('limited_by', '')})" if isinstance(o, dict) and \
            isinstance(o.get("occupancy"), (int, float)) else "-"
        print(f"| {r['variant']} | {r.get('x')} | {r.get('n')} | {r.get('block') or ''} | {r.get('grid') or ''} | "
              f"{fmt(r.get('ms'), '.4f')} | {fmt(r.get('ms_min'), '.4f')} | {fmt(r.get('ms_max'), '.4f')} | "
              f"{fmt(r.get('gbps'), '.1f')} | {fmt(r.get('pct_peak'), '.1f')} | {occ} | {ok} |")


def main(paths):
    for g in read_groups(paths):
        rows = g["rows"]
        if g["key"][0].startswith("sweep "):
            print_sweep(g)
            continue
        algo, n, dtype = g["key"]
        libs = [r for r in rows if r.get("variant") in ("cub", "cublas", "thrust") and r.get("ran", True)]
        lib = next((r for r in libs if r["variant"] in ("cub", "cublas")), libs[0] if libs else None)
        flops = any(r.get("gflops") for r in rows)
        # transpose's copy row is the ceiling of its table
        ceiling = next((r for r in rows if algo == "transpose" and r.get("variant") == "copy"
                        and r.get("ran", True) and r.get("ms")), None)
        print(f"\n#### {algo}, n = {n}, {dtype}\n")
        cols = ["variant", "backend", "block", "grid", "ms (median)", "min", "max", "GB/s", "% peak"]
        if flops:
            cols.append("GFLOP/s")
        cols += ["speedup", "result", "ok"]
        if lib:
            cols.append("x " + lib["variant"])
        if ceiling:
            cols.append("% of copy")
        print("| " + " | ".join(cols) + " |")
        print("|" + "---|" * len(cols))
        for r in rows:
            if not r.get("ran", True):
                cells = [r["variant"], r.get("backend", ""), "", "", "not run: " + r.get("note", "")]
                print("| " + " | ".join(cells + [""] * (len(cols) - len(cells))) + " |")
                continue
            ok = {True: "yes", False: "NO", None: "-"}[r.get("correct")]
            cells = [r["variant"], r["backend"], str(r.get("block") or ""), str(r.get("grid") or ""),
                     fmt(r.get("ms"), ".4f"), fmt(r.get("ms_min"), ".4f"), fmt(r.get("ms_max"), ".4f"),
                     fmt(r.get("gbps"), ".1f"), fmt(r.get("pct_peak"), ".1f")]
            if flops:
                cells.append(fmt(r.get("gflops"), ".0f"))
            cells += [fmt(r.get("speedup"), ".1f"), str(r.get("result", "")), ok]
            if lib:
                cells.append(f"{lib['ms'] / r['ms']:.2f}" if r.get("ms") else "")
            if ceiling:
                cells.append(f"{100 * ceiling['ms'] / r['ms']:.1f}" if r.get("ms") and r.get("backend") == "gpu"
                             else "-")
            print("| " + " | ".join(cells) + " |")
    print("\n(x lib: the library row's time divided by this row's, from the same command; "
          "above 1 is faster than the library. % of copy: the copy row's time divided by this "
          "row's, the same bytes moved.)")


if __name__ == "__main__":
    main(sys.argv[1:])
