#!/bin/bash
# rehearse_turn.sh GPULAB LESSONS_ROOT LANG:EXERCISE:WHY...
# The rehearsal of one translation, chosen in turn: the day of the year picks
# it from the list, so a daily CI run goes through every language in as many
# days while each run rehearses two (English, lessons_run, and this one).
# GPULAB_REHEARSE=LANG picks one by hand. Each language's rehearsal also
# runs by name (ctest -R lessons_run_LANG).
GPULAB=$1 ROOT=$2
shift 2
langs=("$@")
pick=${GPULAB_REHEARSE:-}
if [ -z "$pick" ]; then
    day=$((10#$(date -u +%j)))
    pick=${langs[$((day % ${#langs[@]}))]%%:*}
fi
for l in "${langs[@]}"; do
    IFS=: read -r lang ex why <<<"$l"
    if [ "$lang" = "$pick" ]; then
        echo "rehearsing the lessons in $lang (chosen in turn; GPULAB_REHEARSE=LANG picks another)"
        exec bash "$(dirname "$0")/run_lessons.sh" "$GPULAB" "$ROOT/$lang" "$ex" "$why"
    fi
done
echo "FAIL: no rehearsal for the language $pick (known: ${langs[*]%%:*})"
exit 1
