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


def main(paths):
    groups = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                r = json.loads(line)
                key = (r.get("algo"), r.get("n"), r.get("dtype"), r.get("pattern", ""),
                       r.get("width", ""), r.get("height", ""))
                groups.setdefault(key, []).append(r)
    for (algo, n, dtype, pattern, w, h), rows in groups.items():
        libs = [r for r in rows if r.get("variant") in ("cub", "cublas", "thrust") and r.get("ran", True)]
        lib = next((r for r in libs if r["variant"] in ("cub", "cublas")), libs[0] if libs else None)
        shape = f"{w}x{h}" if w and h else f"n = {n}"
        print(f"\n#### {algo}, {shape}, {dtype}{', ' + pattern if pattern else ''}\n")
        ref = f" | x {lib['variant']}" if lib else ""
        print(f"| variant | backend | block | grid | ms (median) | min | max | GB/s | % peak | speedup | result | ok{ref} |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|" + ("---|" if lib else ""))
        for r in rows:
            if not r.get("ran", True):
                print(f"| {r['variant']} | {r.get('backend')} | | | not run: {r.get('note', '')} |||||||" + ("|" if lib else ""))
                continue
            ratio = ""
            if lib and r.get("ms"):
                ratio = f" | {lib['ms'] / r['ms']:.2f}"
            ok = {True: "yes", False: "NO", None: "-"}[r.get("correct")]
            print(f"| {r['variant']} | {r['backend']} | {r.get('block') or ''} | {r.get('grid') or ''} | "
                  f"{fmt(r.get('ms'), '.4f')} | {fmt(r.get('ms_min'), '.4f')} | {fmt(r.get('ms_max'), '.4f')} | "
                  f"{fmt(r.get('gbps'), '.1f')} | {fmt(r.get('pct_peak'), '.1f')} | {fmt(r.get('speedup'), '.1f')} | "
                  f"{r.get('result', '')} | {ok}{ratio} |")
    print("\n(x lib: the library row's time divided by this row's; above 1 is faster than the library.)")


if __name__ == "__main__":
    main(sys.argv[1:])
