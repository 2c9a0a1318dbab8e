#!/bin/bash
# Every shipped lesson: the shape a lesson must have (something to run, to
# watch, a question, an exercise), and every command of it run on the
# simulator through `gpulab --lecture` without a terminal (a rehearsal).
# A translation gives its exercise heading and its word for "why":
#   run_lessons.sh GPULAB lessons/de Übung Warum
GPULAB=$1 DIR=$2 EXERCISE=${3:-Exercise} WHY=${4:-Why}
fails=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1  # `puzzle N` writes into the current folder
export XDG_STATE_HOME=$tmp/state HOME=$tmp NO_COLOR=1 COLUMNS=100
n=0
for f in "$DIR"/[0-9]*.md; do
  n=$((n + 1)); name=$(basename "$f")
  grep -q '^```gpulab' "$f" || { echo "FAIL $name: nothing to run"; fails=$((fails+1)); }
  grep -Eq '^(animate|watch)\b' "$f" || { echo "FAIL $name: nothing to watch (animate)"; fails=$((fails+1)); }
  grep -q '^```question' "$f" || { echo "FAIL $name: no question"; fails=$((fails+1)); }
  grep -q "^## $EXERCISE" "$f" || { echo "FAIL $name: no exercise step"; fails=$((fails+1)); }
  # every question explains its answer, and one at least asks why
  q=$(grep -c '^```question' "$f"); x=$(grep -c '^explain:' "$f")
  [ "$q" -eq "$x" ] || { echo "FAIL $name: $q questions, $x explanations"; fails=$((fails+1)); }
  if [ "$WHY" = Why ]; then
    grep -A1 '^```question' "$f" | grep -q '^Why\|[^a-z]why ' || { echo "FAIL $name: no why question"; fails=$((fails+1)); }
  else
    grep -A1 '^```question' "$f" | grep -q "$WHY" || { echo "FAIL $name: no $WHY question"; fails=$((fails+1)); }
  fi
  start=$(date +%s%N)
  timeout $((300 * ${GPULAB_TIMEOUT_SCALE:-1})) "$GPULAB" --no-color -c "set backend sim" --lecture "$f" </dev/null >"$tmp/out" 2>&1
  rc=$?
  t=$(( ($(date +%s%N) - start) / 1000000 ))
  if [ $rc -ne 0 ] || grep -q '^error:' "$tmp/out"; then
    echo "FAIL $name: rc $rc"; grep -B3 -A3 '^error:' "$tmp/out" | head -30; fails=$((fails+1))
  else
    echo "ok   $name (${t} ms)"
  fi
done
[ $n -ge 10 ] || { echo "FAIL: only $n lessons"; fails=$((fails+1)); }
lang=$(basename "$DIR")
COLUMNS=300 "$GPULAB" --no-color --lang "$lang" -c lessons >"$tmp/list" 2>&1 || { echo "FAIL: lessons"; fails=$((fails+1)); }
for f in "$DIR"/[0-9]*.md; do  # `lessons` lists the titles of this language
  title=$(sed -n 's/^title: //p' "$f" | head -1)
  grep -qF "$title" "$tmp/list" || { echo "FAIL: lessons --lang $lang does not list \"$title\""; fails=$((fails+1)); }
done
if [ "$lang" = en ]; then  # the progress words are English there
  grep -q 'not started' "$tmp/list" || { echo "FAIL: lessons shows no progress"; cat "$tmp/list"; fails=$((fails+1)); }
fi
exit $((fails > 0))
