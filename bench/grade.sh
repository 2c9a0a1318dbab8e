#!/bin/bash
# Benchmark of `check` and `grade` (docs/performance.md).
# Usage: bench/grade.sh GPULAB [SUBMISSIONS]
# check: puzzle 6 and puzzle 15 (every case, the fixed order and the 3
# random schedules) cold (an empty cache: the harness is compiled), edited
# (the student's file changed since the last check: compiled again) and
# warm (the build cached), and the folder puzzle 24 the same (its cold check
# also builds and runs its reference), 5 runs each after one warm-up,
# median; the reference row is gpulab starting and setting the backend.
# grade: SUBMISSIONS (default 100) copies of puzzle 6's solution, each
# compiled in its own cache as grade does, on every core. The load average
# is printed before and after.
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
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
ref=$(row start warm "$GPULAB" -c "set backend sim")
printf '%-34s %8s %8s\n' "row" "median s" "x ref"
printf '%-34s %8.3f %8.1f\n' "gpulab start (reference)" "$ref" 1
# cold: nothing cached (a folder puzzle: its reference built and run too,
# beside the student's file); edited: the student's file changed since the
# last check (its build is new; a folder puzzle's reference outputs are in
# the cache); warm: nothing changed.
for p in 06-blocks 15-matmul-tiled 24-transpose; do
  n=${p%%-*} n=${n#0}
  if [ -d "$SRC/lessons/en/puzzles/$p" ]; then file=$SRC/lessons/en/puzzles/$p/reference.cu
  else file=$SRC/lessons/en/puzzles/solutions/$p.cu; fi
  for mode in cold edited warm; do
    if [ $mode = edited ]; then
      export XDG_CACHE_HOME=$tmp/cache-warm
      "$GPULAB" -c "set backend sim" -c "check $n $file" >/dev/null 2>&1
      v=()
      for i in 1 2 3 4 5; do
        { cat "$file"; echo "// edit $i $$"; } >"$tmp/$p.cu"
        v+=("$(t "$GPULAB" -c "set backend sim" -c "check $n $tmp/$p.cu")")
      done
      m=$(printf '%s\n' "${v[@]}" | median)
    else
      m=$(row "$p-$mode" $mode "$GPULAB" -c "set backend sim" -c "check $n $file")
    fi
    printf '%-34s %8.3f %8.1f\n' "check $p ($mode)" "$m" "$(echo "$m / $ref" | bc -l)"
  done
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
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
