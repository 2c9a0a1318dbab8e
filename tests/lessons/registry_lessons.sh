#!/usr/bin/env bash
# Every algorithm in the registry names its lesson; that lesson must exist.
# Usage: registry_lessons.sh GPULAB LESSONS_DIR
set -u
gpulab=$1 dir=$2
export XDG_STATE_HOME=$(mktemp -d)
trap 'rm -rf "$XDG_STATE_HOME"' EXIT
lessons=$("$gpulab" -c list | sed -n 's/.*(lesson \([^)]*\)).*/\1/p' | sort -u)
[ -n "$lessons" ] || { echo "FAIL: list names no lessons"; exit 1; }
fail=0
for l in $lessons; do
    if [ -f "$dir/$l.md" ]; then echo "ok: $l"; else echo "FAIL: no lesson file $dir/$l.md"; fail=1; fi
done
exit $fail
