#!/bin/bash
# `gpulab grade` on tests/grade/class: the report's student, task, result and
# rule columns equal expected.csv; the JUnit XML parses with one testsuite
# per student and the same counts; a forged verdict on the program's stdout
# and its attempts to write outside its folder change nothing; gpulab exits 0
# (grading ran) and the files named by --csv and --junit are the only ones
# written. Usage: grade_class.sh GPULAB TEST_DIR
GPULAB=$(realpath "$1") DIR=$(realpath "$2")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache HOME=$tmp NO_COLOR=1
rm -f /tmp/gpulab-grade-probe /var/tmp/gpulab-grade-probe
fails=0
# a copy: the symlinked file stays a symlink, and the class is never written to
cp -a "$DIR/class" "$tmp/class"
mkdir "$tmp/work" && cd "$tmp/work" || exit 1
"$GPULAB" -c "set time-limit 5" -c "grade $tmp/class --csv $tmp/report.csv --junit $tmp/report.xml" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: grade exited $rc"; cat "$tmp/out"; fails=$((fails + 1)); }
[ -z "$(ls -A "$tmp/work")" ] || { echo "FAIL: grade wrote into the current folder: $(ls -A "$tmp/work")"; fails=$((fails + 1)); }
diff -r "$DIR/class" "$tmp/class" >/dev/null || { echo "FAIL: grade changed the submissions"; fails=$((fails + 1)); }
for p in /tmp/gpulab-grade-probe /var/tmp/gpulab-grade-probe; do
  [ ! -e "$p" ] || { echo "FAIL: a submission wrote $p outside its sandbox"; rm -f "$p"; fails=$((fails + 1)); }
done
python3 - "$tmp/report.csv" "$tmp/report.xml" "$DIR/expected.csv" <<'PY' || fails=$((fails + 1))
import csv, sys
import xml.etree.ElementTree as ET
got = list(csv.DictReader(open(sys.argv[1])))
want = list(csv.DictReader(open(sys.argv[3])))
key = lambda r: (r['student'], r['task'], r['result'], r['rule'])
bad = 0
g = [key(r) for r in got]
w = [key(r) for r in want]
if g != w:
    print("FAIL: the report differs from expected.csv:")
    for a, b in zip(g + [None] * len(w), w + [None] * len(g)):
        if a != b: print(f"  got {a}\n  want {b}")
    bad = 1
for r in got:
    if r['result'] != 'pass' and not r['detail']:
        print(f"FAIL: {r['student']} {r['task']}: {r['result']} without a detail"); bad = 1
    float(r['seconds'])
root = ET.parse(sys.argv[2]).getroot()
suites = root.findall('testsuite')
students = sorted({r['student'] for r in got})
if sorted(s.get('name') for s in suites) != students:
    print("FAIL: JUnit testsuites are not one per student"); bad = 1
cases = [c for s in suites for c in s.findall('testcase')]
nf = sum(1 for c in cases if c.find('failure') is not None)
ne = sum(1 for c in cases if c.find('error') is not None)
if len(cases) != len(got) or nf != sum(r['result'] == 'fail' for r in got) or ne != sum(r['result'] == 'error' for r in got):
    print(f"FAIL: JUnit counts {len(cases)} cases, {nf} failures, {ne} errors differ from the CSV"); bad = 1
if int(root.get('tests')) != len(got):
    print("FAIL: testsuites tests= is wrong"); bad = 1
print(f"{len(got)} tasks of {len(students)} students: " + ", ".join(f"{k} {sum(r['result'] == k for r in got)}" for k in ('pass', 'fail', 'error')))
sys.exit(bad)
PY
exit $((fails > 0))
