#!/bin/bash
# Benchmark of `check` and `grade` (docs/performance.md).
# Usage: bench/grade.sh GPULAB [SUBMISSIONS]
# check: puzzle 6 and puzzle 15 (every case) cold (an empty cache: the
# harness is compiled) and warm (the build cached), and the folder puzzle 24
# cold, edited and warm, 5 runs each after one
# warm-up, median; the reference row is gpulab starting and setting the
# backend. grade: SUBMISSIONS (default 100) copies of puzzle 6's solution,
# each compiled in its own cache as grade does, on every core.
GPULAB=$(realpath "$1") N=${2:-100} SRC=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME=$tmp/state NO_COLOR=1
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
t() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
row() { # name, then the command; cold runs use a fresh cache each time
  local name=$1 mode=$2; shift 2
  export XDG_CACHE_HOME=$tmp/cache-warm
  t "$@" >/dev/null
  local v=()
  for i in 1 2 3 4 5; do
    [ "$mode" = cold ] && export XDG_CACHE_HOME=$tmp/cache-$name-$i
    v+=("$(t "$@")")
  done
  printf '%s\n' "${v[@]}" | median
}
ref=$(row start warm "$GPULAB" -c "set backend sim")
printf '%-34s %8s %8s\n' "row" "median s" "x ref"
printf '%-34s %8.3f %8.1f\n' "gpulab start (reference)" "$ref" 1
for p in 06-blocks 15-matmul-tiled; do
  for mode in cold warm; do
    m=$(row "$p-$mode" $mode "$GPULAB" -c "set backend sim" -c "check ${p%%-*} $SRC/lessons/en/puzzles/solutions/$p.cu")
    printf '%-34s %8.3f %8.1f\n' "check $p ($mode)" "$m" "$(echo "$m / $ref" | bc -l)"
  done
done
# A folder puzzle (24): its expected outputs come from running its reference.
# cold: both the reference and the student's file compiled; edited: the
# student's file changed since the last check (its build is new, the
# reference's outputs are in the cache); warm: nothing changed.
p=24-transpose
for mode in cold edited warm; do
  if [ $mode = edited ]; then
    export XDG_CACHE_HOME=$tmp/cache-warm
    "$GPULAB" -c "set backend sim" -c "check 24 $SRC/lessons/en/puzzles/$p/reference.cu" >/dev/null 2>&1
    v=()
    for i in 1 2 3 4 5; do
      { cat "$SRC/lessons/en/puzzles/$p/reference.cu"; echo "// edit $i $$"; } >"$tmp/24-transpose.cu"
      v+=("$(t "$GPULAB" -c "set backend sim" -c "check 24 $tmp/24-transpose.cu")")
    done
    m=$(printf '%s\n' "${v[@]}" | median)
  else
    m=$(row "$p-$mode" $mode "$GPULAB" -c "set backend sim" -c "check 24 $SRC/lessons/en/puzzles/$p/reference.cu")
  fi
  printf '%-34s %8.3f %8.1f\n' "check $p ($mode)" "$m" "$(echo "$m / $ref" | bc -l)"
done
mkdir "$tmp/class"
for i in $(seq -w 1 "$N"); do
  mkdir "$tmp/class/s$i" && cp "$SRC/lessons/en/puzzles/solutions/06-blocks.cu" "$tmp/class/s$i/"
done
cd "$tmp" && s=$(date +%s.%N)
"$GPULAB" -c "grade $tmp/class --csv $tmp/g.csv --junit $tmp/g.xml" | tail -1
e=$(date +%s.%N)
w=$(echo "$e - $s" | bc)
printf 'grade %d submissions of puzzle 6: %.1f s, %.2f s per submission (%d cores)\n' "$N" "$w" \
  "$(echo "$w / $N" | bc -l)" "$(nproc)"
