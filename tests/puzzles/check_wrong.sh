#!/bin/bash
# Every known-wrong kernel in tests/puzzles/wrong fails `check` on the
# simulator, for the reason its first line names ("// must fail: RULE."):
# gpulab exits 1 and the first case that fails (--json) breaks that rule.
# Every reference solution passes with exit 0 (check_solutions.sh), so the
# checker is proven from both sides.
# With --sample (the quick tier) only the first version of each rule runs:
# the checker's path for every rule; without it (make test-all) all of them,
# so every puzzle's cases are proven to catch its known mistakes. The count
# checks at the end always hold over every file.
# Usage: check_wrong.sh GPULAB WRONG_DIR [--sample]
GPULAB=$1 DIR=$2 MODE=${3:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache HOME=$tmp NO_COLOR=1
fails=0 n=0
declare -A per seen
for f in "$DIR"/[0-9]*.cu; do
  n=$((n + 1)); name=$(basename "$f"); stem=${name%%.*}
  per[$stem]=$((${per[$stem]:-0} + 1))
  want=$(sed -n '1s|^// must fail: \([a-z]*\)\..*|\1|p' "$f")
  if [ -z "$want" ]; then echo "FAIL $name: no '// must fail: RULE.' first line"; fails=$((fails + 1)); continue; fi
  if [ "$MODE" = --sample ]; then [ -n "${seen[$want]:-}" ] && continue; seen[$want]=$name; fi
  "$GPULAB" --json -c "set backend sim" -c "set seed 7" -c "check ${stem%%-*} $f" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -ne 1 ]; then
    echo "FAIL $name: exit status $rc, want 1 (a failed check)"; head -c 2000 "$tmp/out" "$tmp/err"; fails=$((fails + 1)); continue
  fi
  python3 - "$tmp/out" "$name" "$want" <<'PY' || fails=$((fails + 1))
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
name, want = sys.argv[2], sys.argv[3]
failed = [r for r in rows if 'pass' in r and not r['pass']]
if not failed:
    print(f"FAIL {name}: no case failed: {rows}")
    sys.exit(1)
first = failed[0]
if first.get('rule') != want:
    print(f"FAIL {name}: case {first.get('case')} failed for rule {first.get('rule')!r}, want {want!r}: {first}")
    sys.exit(1)
print(f"ok   {name}: case {first.get('case')} of {first.get('cases')}: {want}")
PY
done
for s in "${!per[@]}"; do
  [ "${per[$s]}" -ge 3 ] || { echo "FAIL $s: only ${per[$s]} wrong versions"; fails=$((fails + 1)); }
done
[ ${#per[@]} -ge 16 ] || { echo "FAIL: wrong versions of only ${#per[@]} puzzles"; fails=$((fails + 1)); }
[ "$MODE" != --sample ] || [ ${#seen[@]} -ge 5 ] || { echo "FAIL: the sample holds only ${#seen[@]} rules: ${!seen[*]}"; fails=$((fails + 1)); }
echo "$n wrong versions${MODE:+ (run: ${seen[*]})}, $fails failures"
exit $((fails > 0))
