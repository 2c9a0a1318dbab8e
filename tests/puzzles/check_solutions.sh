#!/bin/bash
# Every reference solution passes `check` on the simulator; with --gpu, on a
# machine with a GPU, every solution (and every folder puzzle's reference.cu)
# also passes there and the GPU's output
# equals the simulator's element for element, within the puzzle's stated
# tolerance (exit 77 without a GPU).
# With --sample (the quick tier) only the solutions of puzzles 1 (1-D), 4
# (2-D), 8 (shared memory and a barrier), 16 (warp shuffles) and 20 (a
# stated tolerance) run; without it (make test-all, and --gpu) every one.
# Usage: check_solutions.sh GPULAB SOLUTIONS_DIR [--gpu|--sample]
GPULAB=$1 DIR=$2 MODE=${3:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache HOME=$tmp NO_COLOR=1
if [ "$MODE" = --gpu ]; then
  "$GPULAB" -c device 2>&1 | grep -qi "no gpu" && { echo "no GPU: skipped"; exit 77; }
  "$GPULAB" -c "check $DIR/01-map.cu" 2>&1 | grep "checked on the simulator only" && { echo "skipped"; exit 77; }
  backend=auto
else
  backend=sim
fi
fails=0 n=0 ran=0
# the table's solutions; on the GPU also the folder puzzles' references
# (on the simulator puzzles_format verifies those)
targets=("$DIR"/[0-9]*.cu)
if [ "$MODE" = --gpu ]; then
  for d in "$DIR"/../[0-9]*/; do [ -f "$d/reference.cu" ] && targets+=("$d"); done
fi
for f in "${targets[@]}"; do
  n=$((n + 1)); name=$(basename "$f")
  if [ "$MODE" = --sample ]; then
    case $name in 01-*|04-*|08-*|16-*|20-*) ;; *) continue ;; esac
  fi
  ran=$((ran + 1))
  what=$f
  [ -d "$f" ] && what="${name%%-*} $f/reference.cu"
  "$GPULAB" --json -c "set backend $backend" -c "check $what" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL $name: rc $rc"; cat "$tmp/out" "$tmp/err" | head -20; fails=$((fails + 1)); continue
  fi
  python3 - "$tmp/out" "$MODE" "$name" <<'PY' || fails=$((fails + 1))
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
mode, name = sys.argv[2], sys.argv[3]
by = {}
for r in rows:
    if 'pass' in r:
        by.setdefault(r['backend'], []).append(r)
bad = sorted({f"{b} case {r.get('case')} ({r.get('rule')})" for b, rs in by.items() for r in rs if not r['pass']})
need = ['sim', 'gpu'] if mode == '--gpu' else ['sim']
missing = [b for b in need if b not in by]
few = [b for b, rs in by.items() if len(rs) < 3]
if missing or bad or few:
    print(f"FAIL {name}: missing {missing}, wrong on {bad}, fewer than 3 cases on {few}: {rows}")
    sys.exit(1)
def same(x, y, tol):  # element for element; within the puzzle's tolerance (softmax, layer norm)
    if isinstance(x, (int, float)) and isinstance(y, (int, float)):
        return abs(x - y) <= tol * max(1.0, abs(y))
    return x == y
if mode == '--gpu':
    for s, g in zip(by['sim'], by['gpu']):
        tol = s.get('tolerance', 1e-5)
        if len(s['out']) != len(g['out']) or not all(same(x, y, tol) for x, y in zip(g['out'], s['out'])):
            print(f"FAIL {name}: case {s.get('case')}: the GPU's output differs from the simulator's beyond {tol}")
            sys.exit(1)
print(f"ok   {name} ({', '.join(sorted(by))}, {len(by['sim'])} cases)")
PY
done
[ $n -ge 14 ] || { echo "FAIL: only $n solutions"; fails=$((fails + 1)); }
[ "$MODE" != --sample ] || [ $ran -eq 5 ] || { echo "FAIL: the sample ran $ran solutions, want 5"; fails=$((fails + 1)); }
exit $((fails > 0))
