#!/bin/bash
# Puzzles written as folders (docs/puzzles.md, "A puzzle of your own"):
# - every shipped folder (lessons/en/puzzles/NN-name/) and the example
#   (tests/puzzles/format/reverse) passes `puzzle verify`: the reference
#   passes, the skeleton fails, each wrong/NAME.cu fails for its stated rule;
# - the docs show the example's puzzle.txt exactly;
# - a lecturer's puzzle through puzzle open, check, hint, solution, reset,
#   check DIR FILE and grade --puzzle;
# - broken folders are refused with the file, the line and what is allowed.
# With --shipped (make test-all) only the first part runs, over every shipped
# folder; without it (the quick tier) the first part proves the example
# folder only, the format's path, and the rest runs.
# Usage: check_format.sh GPULAB SOURCE_DIR [--shipped]
GPULAB=$(realpath "$1") SRC=$(realpath "$2") MODE=${3:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache HOME=$tmp NO_COLOR=1
cd "$tmp" || exit 1
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
G() { "$GPULAB" --no-color -c "set backend sim" -c "set seed 7" "$@"; }

# ---- every folder puzzle proves its checker
n=0 folders=("$SRC"/tests/puzzles/format/reverse/)
[ "$MODE" = --shipped ] && folders=("$SRC"/lessons/en/puzzles/[0-9]*/)
for d in "${folders[@]}"; do
  n=$((n + 1))
  G -c "puzzle verify $d" >out 2>&1; rc=$?
  if [ $rc -ne 0 ] || grep -q '^FAIL' out; then fail "verify $d: rc $rc"; cat out; else
    echo "ok   verify $(basename "$d"): $(tail -1 out)"; fi
done
if [ "$MODE" = --shipped ]; then
  [ $n -ge 7 ] || fail "only $n shipped folder puzzles"
  echo "$fails failures"
  exit $((fails > 0))
fi

# ---- the docs' example is the tested one
python3 - "$SRC/docs/puzzles.md" "$SRC/tests/puzzles/format/reverse" <<'PY' || fails=$((fails + 1))
import sys
doc = open(sys.argv[1]).read()
for f in ("puzzle.txt", "reference.cu", "wrong/offbyone.cu"):
    if open(f"{sys.argv[2]}/{f}").read() not in doc:
        print(f"FAIL docs/puzzles.md does not show tests/puzzles/format/reverse/{f} as it is")
        sys.exit(1)
print("ok   docs/puzzles.md shows the example as tested")
PY

# ---- a lecturer's puzzle, used as a student would
cp -r "$SRC/tests/puzzles/format/reverse" own
G -c "puzzle open own" -c check >out 2>&1; rc=$?
[ $rc -eq 1 ] && [ -f puzzles/101-reverse.cu ] && grep -q '^wrote puzzles/101-reverse.cu' out &&
  grep -q '^  rule unwritten: out\[0\]: expected 45, got nothing (never written)' out &&
  grep -q '^  launch: reverse<<<2, 32>>>(out, a, 45)' out || { fail "puzzle open + check: rc $rc"; cat out; }
G -c "puzzle own hint" >out 2>&1
grep -q 'not a\[size\]' out || { fail "puzzle DIR hint"; cat out; }
G -c "puzzle own solution" >out 2>&1
grep -q 'if (i < size) out\[i\] = a\[size - 1 - i\];' out || { fail "solution after a try"; cat out; }
cp own/reference.cu puzzles/101-reverse.cu
G -c "check own" >out 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^pass on the simulator: all 4 cases right' out && grep -q '^solved\.$' out ||
  { fail "check DIR: rc $rc"; cat out; }
G -c "puzzle open own reset" >out 2>&1
[ -f puzzles/101-reverse.cu.old ] && grep -q "wrote the skeleton" out ||
  { fail "reset"; cat out; }
"$GPULAB" --json -c "set backend sim" -c "check own own/wrong/copy.cu" >out 2>&1; rc=$?
python3 - out <<'PY' || fails=$((fails + 1))
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
ok = len(rows) == 4 and all(r['puzzle'] == 101 for r in rows) and rows[0]['rule'] == 'value' \
    and rows[0]['case_text'].startswith('reverse<<<2, 32>>>, n = 45, ') and rows[1]['size'] == 32
print("ok   check DIR FILE --json" if ok else f"FAIL check DIR FILE --json: {rows}")
sys.exit(0 if ok else 1)
PY
[ $rc -eq 1 ] || fail "check DIR of a wrong kernel: exit $rc, want 1"

# ---- grading a class against it
mkdir -p class/ann class/bob class/cy/puzzles
cp own/reference.cu class/ann/101-reverse.cu
cp own/wrong/copy.cu class/bob/101-reverse.cu
cp "$SRC/lessons/en/puzzles/24-transpose/reference.cu" class/cy/puzzles/24-transpose.cu
G -c "grade class --puzzle own --csv g.csv --junit g.xml" >out 2>&1; rc=$?
exp='"ann","101-reverse","pass","","",
"bob","101-reverse","fail","value","case 1: element 0: expected 45, got 1",
"cy","24-transpose","pass","","",'
got=$(tail -n +2 g.csv | sed 's/,[0-9.]*$/,/')
[ $rc -eq 0 ] && [ "$got" = "$exp" ] || { fail "grade --puzzle: rc $rc"; cat out g.csv; }

# ---- broken folders: refused with the file, the line and what is allowed
bad() { # NAME EXPECTED-TEXT: the folder bad/NAME is refused with the text
  G -c "puzzle open bad/$1" >out 2>&1; rc=$?
  if [ $rc -eq 0 ] || ! grep -qF -- "$2" out; then fail "bad/$1: rc $rc, want: $2"; cat out; else echo "ok   bad/$1"; fi
}
mk() { mkdir -p "bad/$1"; sed "$2" own/puzzle.txt >"bad/$1/puzzle.txt"; cp own/*.cu "bad/$1/"; }
mk key 's/^reads: 1$/colour: red/'
bad key "bad/key/puzzle.txt:19: \"colour\" is not a key; the keys are number, name, title"
mk noout '/^arg: out/d'
bad noout "0 outputs; a puzzle has exactly one arg: out NAME [LEN]"
mk expr 's|^grid: .*|grid: (m + 31) / 32|'
bad expr "bad/expr/puzzle.txt:10: grid: a name that no case gives a value in \"(m + 31) / 32\""
mk number 's/^number: 101/number: 5/'
bad number "puzzle.txt:2: number: \"5\"; a puzzle of your own takes a number from 100 to 999"
mk zero 's/^case: n = 1$/case: n = 0/'
bad zero "puzzle.txt:17: case: n = 0; a size is from 1 to 100000"
mk name 's/^arg: in a /arg: in e /'
bad name "puzzle.txt:13: arg: \"e\" is a name C, CUDA or the harness uses; choose another"
mk kind 's/^arg: int size = n/arg: double size = n/'
bad kind "puzzle.txt:14: arg: \"double\" is not a kind of argument; there are out, in and int"
mk big 's/^block: 32/block: 2048/'
bad big "puzzle.txt:11: block: 2048 threads in case 4; from 1 to 1024"
mk link 's/x/x/'; rm bad/link/puzzle.txt; ln -s ../../own/puzzle.txt bad/link/puzzle.txt
bad link "bad/link/puzzle.txt: a link; a puzzle folder holds regular files only"
mk huge 's/x/x/'; head -c 70000 /dev/zero | tr '\0' '#' >>bad/huge/puzzle.txt
bad huge "bytes; a puzzle's files hold at most 65536"
mkdir -p bad/empty; : >bad/empty/puzzle.txt
bad empty "no number: (every puzzle.txt has number, name, title, kernel, spec, grid, block, arg, case)"
mk refl 's/x/x/'; rm bad/refl/reference.cu; ln -s /etc/passwd bad/refl/reference.cu
G -c "puzzle open bad/refl" -c "check" >out 2>&1; rc=$?
[ $rc -ne 0 ] && grep -qF "reference.cu: a link; a puzzle folder holds regular files only" out ||
  { fail "a reference that is a link: rc $rc"; cat out; }
mk wrongref 's/x/x/'; cp own/wrong/copy.cu bad/wrongref/reference.cu; sed -i 's/out\[i\] = a\[i\]/out[i + 1] = a[i]/' bad/wrongref/reference.cu
G -c "check bad/wrongref own/reference.cu" >out 2>&1; rc=$?
[ $rc -ne 0 ] && grep -qF "is wrong in case 1: it did not finish (the simulator's message above says why); the puzzle cannot be checked" out ||
  { fail "a wrong reference: rc $rc"; cat out; }
mk badwrong 's/x/x/'; mkdir -p bad/badwrong/wrong; echo '// wrong somehow' >bad/badwrong/wrong/a.cu
G -c "puzzle verify bad/badwrong" >out 2>&1; rc=$?
[ $rc -ne 0 ] && grep -qF 'the first line says "// must fail: RULE. why", RULE one of bounds' out ||
  { fail "a wrong version without its rule: rc $rc"; cat out; }

echo "$fails failures"
exit $((fails > 0))
