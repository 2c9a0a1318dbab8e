#!/bin/bash
# Every kernel in tests/puzzles/right passes `check` on the simulator (exit
# 0, every case right) in the fixed order and in the random schedules check
# tries after it: the twins of known-wrong kernels (wrong/) that must fail,
# such as a kernel right only in the fixed order of the threads.
# Usage: check_right.sh GPULAB RIGHT_DIR
GPULAB=$1 DIR=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache HOME=$tmp NO_COLOR=1
fails=0 n=0
for f in "$DIR"/[0-9]*.cu; do
  n=$((n + 1)); name=$(basename "$f"); stem=${name%%.*}
  "$GPULAB" --json -c "set backend sim" -c "set seed 7" -c "check ${stem%%-*} $f" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ $rc -ne 0 ] || grep -q '"pass": *false' "$tmp/out" || ! grep -q '"pass": *true' "$tmp/out"; then
    echo "FAIL $name: exit status $rc"; head -c 2000 "$tmp/out" "$tmp/err"; fails=$((fails + 1)); continue
  fi
  echo "ok   $name"
done
[ $n -ge 1 ] || { echo "FAIL: no kernels in $DIR"; fails=$((fails + 1)); }
echo "$n right versions, $fails failures"
exit $((fails > 0))
