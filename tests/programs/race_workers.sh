#!/bin/sh
# race_workers.sh GPULAB DIR - the race check gives one report whatever the
# workers: each race program of DIR (p17, p55-p79, p85) and its fixed twin
# runs with the race check on under `set sim-threads 1`, 2 and 8, and the
# three outputs (the program's own, the race reports in their order with
# their counts, the exit status) must be equal byte for byte but the times
# the simulator took. The twins' must hold no race report. Blocks run on
# several workers write logs that are replayed in block order (race.cpp);
# a difference here is a report that depends on which worker ran a block.
set -u
if [ "${GPULAB_RECORD:-ON}" = OFF ]; then
    echo "skipped: this build has no race check (GPULAB_RECORD=OFF)"
    exit 77
fi
gpulab=$1 dir=$2
: "${XDG_CACHE_HOME:=$(dirname "$gpulab")/test-cache}"
export XDG_CACHE_HOME
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# the race check's report lines (race.cpp)
reports='nothing orders the two\|before any thread of the block wrote it\|races were not kept'
# a program's run without its times
prog() { # $1: workers, $2: file
    "$gpulab" --no-color -c "set backend sim; set race-check on; set sim-threads $1; open $2; run" 2>&1 |
        awk '/^exit status / { sub(/ +[0-9.]+ s.*$/, "") } / ms \(sim\)$/ { t = 1; next }
             t && /^schedule / { t = 0 } t { sub(/ +[0-9.]+$/, "") } { print }'
}
for f in "$dir"/p17_*.cu "$dir"/p5[5-9]_*.cu "$dir"/p6[0-9]_*.cu "$dir"/p7[0-9]_*.cu "$dir"/p85_*.cu; do
    [ -f "$f" ] || continue
    p=$(basename "$f")
    prog 1 "$f" > "$tmp/1"
    for w in 2 8; do
        prog $w "$f" > "$tmp/$w"
        cmp -s "$tmp/1" "$tmp/$w" && continue
        # once more, both: a loaded machine can cost a run its lines
        # (the program's addr2line), which is no difference of workers
        echo "note: $p: sim-threads 1 and $w differ once, again:"
        diff "$tmp/1" "$tmp/$w" | head -6
        prog 1 "$f" > "$tmp/1"
        prog $w "$f" > "$tmp/$w"
        if ! cmp -s "$tmp/1" "$tmp/$w"; then
            echo "FAIL: $p: sim-threads 1 and $w differ:"
            diff "$tmp/1" "$tmp/$w" | head -20
            fail=1
        fi
    done
    races=$(grep -c "$reports" "$tmp/1")
    case $p in
    *_fixed.cu)
        if [ "$races" != 0 ]; then
            echo "FAIL: $p (a correct twin) reports a race:"
            grep "$reports" "$tmp/1" | head -5
            fail=1
        fi ;;
    esac
    echo "ok: $p: $(wc -c < "$tmp/1") bytes, $races race lines, the same with 1, 2 and 8 workers"
done
exit $fail
