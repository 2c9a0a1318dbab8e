#!/bin/bash
# run.sh BUILD SECONDS - run every libFuzzer target of BUILD (the fuzz
# preset's build-fuzz) for SECONDS each, at the lowest CPU priority, one
# after the other. Each starts from the seed corpus in the tree
# (tests/fuzz/corpus/NAME) plus what earlier runs found (BUILD/corpus/NAME,
# kept out of the tree); a crash, leak or timeout leaves its input in
# BUILD/crashes/. Prints one line per target: executions, speed, coverage,
# corpus size and findings, the figures docs/reliability.md records.
set -u
BUILD=${1:-build-fuzz}
SECONDS_EACH=${2:-60}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$BUILD/crashes"
found=0
printf '%-8s %10s %9s %6s %6s %8s %s\n' target runs execs/s cov ft corpus findings
for t in parse lesson image script; do
    bin="$BUILD/tests/fuzz/fuzz_$t"
    [ -x "$bin" ] || { echo "fuzz_$t is not built in $BUILD"; exit 1; }
    mkdir -p "$BUILD/corpus/$t"
    dict=()
    [ -f "$HERE/$t.dict" ] && dict=(-dict="$HERE/$t.dict")
    log="$BUILD/fuzz_$t.log"
    before=$(ls "$BUILD/crashes" | grep -c "^$t-")
    # -rss_limit_mb: an image or lesson that makes the reader allocate past
    # this is a finding; -timeout: one input may take 10 s at most.
    nice -n 19 "$bin" "${dict[@]}" -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=10 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="$BUILD/crashes/$t-" \
        "$BUILD/corpus/$t" "$HERE/corpus/$t" >"$log" 2>&1
    after=$(ls "$BUILD/crashes" | grep -c "^$t-")
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$')
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*')
    ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*')
    corp=$(grep -o 'corp: [0-9]*' <<<"$last" | grep -o '[0-9]*')
    new=$((after - before))
    [ $new -gt 0 ] && found=1
    printf '%-8s %10s %9s %6s %6s %8s %s\n' "$t" "${runs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" \
        "${corp:-?}" "$([ $new -gt 0 ] && echo "$new new, see $BUILD/crashes and $log" || echo none)"
done
exit $found
