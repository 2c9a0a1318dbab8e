#!/usr/bin/env python3
"""End to end: the real gpulab sweeps on the simulator and exports; the files
are read back with Python's csv and json modules, and the SVG pictures are
parsed as XML.

    check_export.py GPULAB OUT_DIR [EXTRA.svg ...]
"""
import csv
import json
import os
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check_svg(path):
    root = ET.parse(path).getroot()
    if not root.tag.endswith("svg"):
        fail("%s: the root element is %s, not svg" % (path, root.tag))
    for attr in ("width", "height"):
        if not root.get(attr):
            fail("%s: no %s" % (path, attr))
    if len(list(root.iter())) < 10:
        fail("%s: almost empty" % path)


def svg_words(path):
    """The text layer of a gpulab SVG: every <text> element's string."""
    root = ET.parse(path).getroot()
    return [t.text or "" for t in root.iter() if t.tag.endswith("}text") or t.tag == "text"]


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        fail("%s is not a PNG" % path)
    return struct.unpack(">II", head[16:24])


def check_plot(out):
    """The sweep's plot as slides want it: axis titles with units, the swept
    block sizes as ticks of a log axis, numbers on the y axis, a legend."""
    words = svg_words(os.path.join(out, "s.svg"))
    if "block (threads per block), log scale" not in words:
        fail("s.svg: no x axis title (log scale) among %s" % words)
    if not any(w.startswith("ms, median") or w.startswith("ms, estimated GPU time") for w in words):
        fail("s.svg: no y axis title with its unit among %s" % words)
    for tick in ("32", "64", "128", "256"):
        if tick not in words:
            fail("s.svg: no x tick %s among %s" % (tick, words))
    numbers = []
    for w in words:
        try:
            numbers.append(float(w))
        except ValueError:
            pass
    if len([x for x in numbers if x not in (32, 64, 128, 256)]) < 2:
        fail("s.svg: fewer than two y tick values among %s" % words)
    for name in ("interleaved", "sequential"):
        if name not in words:
            fail("s.svg: the legend lacks %s" % name)
    root = ET.parse(os.path.join(out, "s.svg")).getroot()
    if not any(e.tag.endswith("path") for e in root.iter()):
        fail("s.svg: no vector paths (lines, markers)")
    if png_size(os.path.join(out, "s.png")) != (1600, 900):
        fail("s.png is %dx%d, want 1600x900 (the default)" % png_size(os.path.join(out, "s.png")))
    if png_size(os.path.join(out, "w.png")) != (1200, 675):
        fail("w.png is %dx%d, want 1200x675 (--width 1200)" % png_size(os.path.join(out, "w.png")))


def check_frame(out):
    """A frame for slides: the whole caption, no key line."""
    words = " ".join(svg_words(os.path.join(out, "f.svg")))
    if "reduce/sequential" not in words or "step " not in words:
        fail("f.svg: not the frame: %s" % words[:300])
    if "play/pause" in words or "q back" in words or "? help" in words:
        fail("f.svg: the key line or key hints are in the exported frame")
    if "\u2026" in words.replace("\u2026 block", ""):
        fail("f.svg: a caption is cut: %s" % words)
    w, h = png_size(os.path.join(out, "f.png"))
    if w < 800 or h < 200:
        fail("f.png is only %dx%d" % (w, h))
    if w <= h:
        fail("f.png is %dx%d: a frame for a slide is landscape" % (w, h))


def check_bank_summary(out):
    """The banks' last frame lists 32 accesses in columns: every one there,
    and the picture landscape without being a strip (before: one column of
    32 lines composed 240 columns wide, 4060x1254, three quarters empty)."""
    words = " ".join(svg_words(os.path.join(out, "b.svg")))
    if "summary" not in words:
        fail("b.svg: not the banks' summary: %s" % words[:300])
    n = len(re.findall(r"warp +\d+ (?:store|load) +\d+ banks? +\d+ pass(?:es)?", words))
    if n != 32:
        fail("b.svg: %d accesses with their banks and passes, want 32: %s" % (n, words))
    # rows of one background overlap a little, so a vector viewer's smoothed
    # edges leave no pale line between them (abutting rectangles did)
    runs = {}
    for fill, d in re.findall(r'<path style="[^"]*fill:(rgb\([^)]*\))[^"]*" d="M ([^"]*)"', open(os.path.join(out, "b.svg")).read()):
        v = [float(t) for t in d.replace("L", " ").replace("Z", " ").replace("M", " ").split()]
        if len(v) >= 8:
            runs.setdefault((fill, v[0], v[2]), []).append((v[1], v[5]))
    stacked = 0
    for key, rs in runs.items():
        rs.sort()
        for (a0, a1), (b0, b1) in zip(rs, rs[1:]):
            if b0 - a0 < 1.5 * (a1 - a0):
                stacked += 1
                if not b0 < a1:
                    fail("b.svg: two rows of %s meet edge to edge at y %.2f: a seam in a viewer" % (key[0], b0))
    if stacked < 15:
        fail("b.svg: only %d rows of a background stacked, want the 15 of the conflicted loads" % stacked)
    w, h = png_size(os.path.join(out, "b.png"))
    if not (h < w < 2.5 * h):
        fail("b.png is %dx%d: want landscape and at most 2.5 times as wide as tall" % (w, h))


def check_text_is_text(path):
    """The words of an SVG are <text> elements a slide tool can edit, drawn
    in a colour (no invisible layer over glyph outlines)."""
    root = ET.parse(path).getroot()
    if any((e.get("id") or "").startswith("glyph") for e in root.iter()):
        fail("%s: text drawn as glyph outlines" % path)
    texts = [e for e in root.iter() if e.tag.endswith("}text") or e.tag == "text"]
    if not texts:
        fail("%s: no <text> element" % path)
    for e in root.iter():
        if e.get("fill-opacity") == "0":
            fail("%s: an invisible layer (fill-opacity 0)" % path)
    if not all(e.get("fill", "").startswith("#") for e in texts):
        fail("%s: a <text> without its colour" % path)


def main():
    gpulab, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    script = os.path.join(out, "explore.gpulab")
    with open(script, "w") as f:
        f.write(
            "set backend sim\n"
            "use reduce/sequential\n"
            "set n 2049\n"
            "set repeats 1\n"
            "sweep block 32..256 for interleaved,sequential\n"
            "export %(o)s/s.csv\nexport %(o)s/s.json\nexport %(o)s/s.svg\n"
            "export %(o)s/s.png\nexport %(o)s/s.pdf\nexport %(o)s/w.png --width 1200\n"
            "compare\n"
            "export %(o)s/r.json\nexport %(o)s/r.csv\n"
            "set n 64\nset block 32\nanimate sequential\n"
            "export %(o)s/f.svg\nexport %(o)s/f.png\n"
            "use transpose\nset n 100\nset dtype double\nset block auto\nanimate tiled-nopad\n"
            "export %(o)s/b.svg\nexport %(o)s/b.png\n" % {"o": out})
    env = dict(os.environ, GPULAB_NO_GPU="1", NO_COLOR="1")
    p = subprocess.run([gpulab, script], capture_output=True, text=True, env=env, timeout=300)
    if p.returncode != 0:
        fail("gpulab exited %d:\n%s\n%s" % (p.returncode, p.stdout, p.stderr))

    with open(os.path.join(out, "s.csv"), newline="") as f:
        comments = [l for l in f if l.startswith("#")]
    with open(os.path.join(out, "s.csv"), newline="") as f:
        rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
    if len(rows) != 8:
        fail("s.csv has %d rows, want 8 (4 blocks x 2 variants)" % len(rows))
    if [r["block"] for r in rows[:2]] != ["32", "32"] or rows[1]["variant"] != "sequential":
        fail("s.csv rows out of order: %s" % rows[:2])
    if any(r["correct"] != "yes" or not r["blocks_per_sm"] for r in rows):
        fail("s.csv: a point is wrong or has no occupancy")
    if not any(c.startswith("# device: the simulator") for c in comments) or \
       not any(c.startswith("# settings:") and "n=2049" in c for c in comments):
        fail("s.csv: no device or settings lines: %s" % comments)

    with open(os.path.join(out, "s.json")) as f:
        js = json.load(f)
    if js["kind"] != "sweep" or js["axis"] != "block" or len(js["points"]) != 8:
        fail("s.json: %s %s %d points" % (js["kind"], js["axis"], len(js["points"])))
    if js["points"][0]["occupancy"]["limited_by"] == "":
        fail("s.json: no limiter")

    with open(os.path.join(out, "r.json")) as f:
        rj = json.load(f)
    if rj["kind"] != "results" or not any(r["variant"] == "cpu-omp" for r in rj["rows"]):
        fail("r.json is not the compare table")
    with open(os.path.join(out, "r.csv"), newline="") as f:
        rr = list(csv.DictReader(l for l in f if not l.startswith("#")))
    if len(rr) != len(rj["rows"]):
        fail("r.csv and r.json disagree: %d and %d rows" % (len(rr), len(rj["rows"])))

    if "swept_block" not in rows[0] or "block_y" not in rows[0]:
        fail("s.csv: the swept value and the block are not one column per field: %s" % list(rows[0]))
    check_svg(os.path.join(out, "s.svg"))
    check_plot(out)
    check_frame(out)
    check_bank_summary(out)
    check_text_is_text(os.path.join(out, "f.svg"))
    check_text_is_text(os.path.join(out, "s.svg"))
    for extra in sys.argv[3:]:
        check_svg(extra)
    with open(os.path.join(out, "s.png"), "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            fail("s.png is not a PNG")
    with open(os.path.join(out, "s.pdf"), "rb") as f:
        if f.read(4) != b"%PDF":
            fail("s.pdf is not a PDF")
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
