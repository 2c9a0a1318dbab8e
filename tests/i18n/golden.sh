#!/bin/bash
# The first animation frames and the lessons table per language, printed by the real
# binary on the simulator (with the real catalogs of build/locale), against
# golden files: Chinese at 80 and 120 columns (wide characters measured in
# display columns), the others at 80. Every line must also fit its width.
# GPULAB_UPDATE_GOLDEN=1 rewrites the files.
# Usage: golden.sh GPULAB GOLDEN_DIR
GPULAB=$1 DIR=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME=$tmp/state HOME=$tmp NO_COLOR=1
unset LANGUAGE LC_ALL LC_MESSAGES
export LANG=C.UTF-8  # the frames' box drawing and the languages' letters
fails=0
one() { # LANG COLUMNS LINES
  local lang=$1 cols=$2 rows=$3 name=$1-$2x$3.txt
  # the first frames of the reduction (the device note left out) and the
  # lessons table (titles, times and progress in columns)
  { COLUMNS=$cols LINES=$rows "$GPULAB" --no-color --lang "$lang" \
        -c "set backend sim; use reduce/interleaved; set n 256; animate" 2>&1 | sed '1d' | head -n 40
    COLUMNS=$cols LINES=$rows "$GPULAB" --no-color --lang "$lang" -c lessons 2>&1
  } > "$tmp/out"
  local wide
  wide=$(while IFS= read -r l; do printf '%s\n' "$l" | wc -L; done < "$tmp/out" | sort -n | tail -1)
  if [ "${wide:-0}" -gt "$cols" ]; then
    echo "FAIL $name: a line of $wide columns"; fails=$((fails+1))
  fi
  if [ -n "${GPULAB_UPDATE_GOLDEN:-}" ]; then
    cp "$tmp/out" "$DIR/$name"
  elif ! diff -u "$DIR/$name" "$tmp/out"; then
    echo "FAIL $name differs"; fails=$((fails+1))
  else
    echo "ok   $name"
  fi
}
for l in uk sl de; do one $l 80 24; done
one zh 80 24
one zh 120 40
exit $((fails > 0))
