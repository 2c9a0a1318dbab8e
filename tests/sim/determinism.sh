#!/bin/sh
# determinism.sh GPULAB SOURCE_DIR
# The same output with 1, 2 and 8 worker threads (`set sim-threads`):
# built-in variants' results (float sums and atomics included), their
# memory counters (profile, and the estimated GPU time each simulator row
# computes from them) and traces, and students' programs whose blocks
# print, take tickets from atomics, hit memory errors or fail an assert,
# run and traced access by access (`trace` with a program open). The
# access recording runs on every worker and its readers get each block's
# records in block order: a difference there shows in the counters, the
# estimates and the access traces. Only the times may differ: they are
# taken out before comparing.
set -u
gpulab=$1 src=$2
: "${XDG_CACHE_HOME:=$(dirname "$gpulab")/test-cache}"
export XDG_CACHE_HOME
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# times out: JSON's ms fields (not est_ms: the estimate is computed from
# the counters), a program's "· 0.12 s ·" and the kernel table's last
# column (ms on the simulator)
untimed() {
    sed -e 's/"\(ms\|ms_min\|ms_max\)":[-0-9.e+]*,//g' \
        -e '/^exit status/s/ · [0-9.]* s · / · /' -e '/^exit status/s/ · \(cached build\|built in .*\)$//' |
        awk '/^kernel +line +launches/ { table = 1; next } table && NF > 1 { $NF = ""; print; next } { table = 0; print }'
}

same() { # NAME: compare $tmp/NAME.1 with .2 and .8
    for t in 2 8; do
        if ! cmp -s "$tmp/$1.1" "$tmp/$1.$t"; then
            echo "FAIL: $1: the output with $t worker threads differs from one worker's:"
            diff "$tmp/$1.1" "$tmp/$1.$t" | head -20
            fail=1
        fi
    done
}

# the simulator's rows only (the CPU rows' times are not taken out)
builtin="set backend sim; set repeats 1; set pattern random; set seed 7"
# profile counts through the access recording, which the sanitizer build
# (GPULAB_RECORD=OFF) leaves out
profile="profile interleaved; use histogram; set n 300000; profile; use reduce; set n 1000;"
[ "${GPULAB_RECORD:-ON}" = OFF ] && profile=
for t in 1 2 8; do
    "$gpulab" --json --no-color -c "$builtin; set sim-threads $t; use reduce; set dtype float; set n 100003; \
        compare; use histogram; set n 50000; compare; use distance; set dtype float; set n 100003; compare" 2>&1 |
        grep '"backend":"sim"' | untimed > "$tmp/builtin.$t"
    "$gpulab" --no-color -c "set backend sim; set sim-threads $t; use reduce; set n 1000; $profile \
        trace interleaved" 2>&1 | untimed > "$tmp/trace.$t"
done
grep -q '"result"' "$tmp/builtin.1" || { echo "FAIL: no results from the built-in variants:"; head "$tmp/builtin.1"; fail=1; }
[ "${GPULAB_RECORD:-ON}" = OFF ] || grep -q '"est_ms":[0-9]' "$tmp/builtin.1" ||
    { echo "FAIL: no estimates (the recording's counters):"; head "$tmp/builtin.1"; fail=1; }
[ -z "$profile" ] || grep -q 'global atomics' "$tmp/trace.1" || { echo "FAIL: no profile:"; head "$tmp/trace.1"; fail=1; }
same builtin
same trace

# the built-in kernels' lane-loop forms (the build's source pass: reduce,
# matmul, transpose, bitonic and distance have some) against the fibers
# alone, GPULAB_SIM_LANES=0: the same results, counters and estimates
forms="$builtin; use reduce; set n 100003; compare; use matmul; set n 96; compare; use transpose; set n 200; compare; \
    use bitonic; compare; use distance; set dtype float; set n 100003; compare"
"$gpulab" --json --no-color -c "$forms" 2>&1 | grep '"backend":"sim"' | untimed > "$tmp/forms.lanes"
GPULAB_SIM_LANES=0 "$gpulab" --json --no-color -c "$forms" 2>&1 | grep '"backend":"sim"' | untimed > "$tmp/forms.fibers"
grep -q '"variant":"gpu-tiled".*"correct":true' "$tmp/forms.lanes" ||
    { echo "FAIL: no tiled matrix product:"; head "$tmp/forms.lanes"; fail=1; }
if ! cmp -s "$tmp/forms.lanes" "$tmp/forms.fibers"; then
    echo "FAIL: the built-in kernels' output with their lane-loop forms differs from the fibers':"
    diff "$tmp/forms.lanes" "$tmp/forms.fibers" | head -20
    fail=1
fi
# the access recording takes the loops' accesses as the fibers': profiles
# of built-in kernels and access traces of programs with forms
if [ "${GPULAB_RECORD:-ON}" != OFF ]; then
    rec="set backend sim; use matmul; set n 64; profile gpu-tiled gpu-2d; use transpose; set n 256; profile tiled; \
        use reduce; set n 100000; profile interleaved sequential"
    "$gpulab" --no-color -c "$rec" > "$tmp/rec.lanes" 2>&1
    GPULAB_SIM_LANES=0 "$gpulab" --no-color -c "$rec" > "$tmp/rec.fibers" 2>&1
    for p in p100_matrix_mul_tiled p163_values_across_barriers p165_types_made_once p166_tiles_declared_in_loop; do
        for l in lanes fibers; do
            v=1; [ $l = fibers ] && v=0
            GPULAB_SIM_LANES=$v "$gpulab" --no-color -c "set backend sim; set trace-blocks 3; open $src/tests/programs/$p.cu; trace" \
                2>&1 | untimed >> "$tmp/rec.$l"
        done
    done
    grep -q 'shared loads' "$tmp/rec.lanes" || { echo "FAIL: no profile:"; head "$tmp/rec.lanes"; fail=1; }
    if ! cmp -s "$tmp/rec.lanes" "$tmp/rec.fibers"; then
        echo "FAIL: profiles and access traces with the lane-loop forms differ from the fibers':"
        diff "$tmp/rec.lanes" "$tmp/rec.fibers" | head -20
        fail=1
    fi
fi

# (p105, p106, p14, p18 and p163 have kernels in lane-loop form: also the
# same as with the fibers alone, GPULAB_SIM_LANES=0)
for p in p105_blocks_in_order p106_failing_block p13_device_assert p14_printf_half p18_shared_out_of_bounds \
    p19_global_out_of_bounds p39_uninitialised p57_last_block p61_histogram p163_values_across_barriers; do
    f=$src/tests/programs/$p.cu
    pre=$(sed -n 's|^// RUN: ||p' "$f" | tr '\n' ';')
    for t in 1 2 8; do
        "$gpulab" --no-color -c "set backend sim; set sim-threads $t; $pre open $f; run" 2>&1 | untimed > "$tmp/$p.$t"
    done
    GPULAB_SIM_LANES=0 "$gpulab" --no-color -c "set backend sim; set sim-threads 1; $pre open $f; run" 2>&1 |
        untimed > "$tmp/$p.fibers"
    grep -q '^exit status' "$tmp/$p.1" || { echo "FAIL: $p did not run:"; head "$tmp/$p.1"; fail=1; }
    same "$p"
    if ! cmp -s "$tmp/$p.1" "$tmp/$p.fibers"; then
        echo "FAIL: $p: the output with the lane-loop forms differs from the fibers':"
        diff "$tmp/$p.1" "$tmp/$p.fibers" | head -20
        fail=1
    fi
done

# programs traced access by access, a window of their blocks (the rest run
# unrecorded and are counted): blocks of unequal length, atomics, a memory
# error, blocks that print
if [ "${GPULAB_RECORD:-ON}" != OFF ]; then
    for p in p107_uneven_blocks p57_last_block p19_global_out_of_bounds p105_blocks_in_order; do
        f=$src/tests/programs/$p.cu
        # without the race check its RUN line may ask for: that keeps one worker
        for t in 1 2 8; do
            "$gpulab" --no-color -c "set backend sim; set sim-threads $t; set trace-blocks 4; open $f; trace" 2>&1 |
                untimed > "$tmp/trace-$p.$t"
        done
        grep -q '^launch 0: ' "$tmp/trace-$p.1" ||
            { echo "FAIL: $p: no access trace:"; head "$tmp/trace-$p.1"; fail=1; }
        same "trace-$p"
    done
fi
[ "$fail" = 0 ] && echo "the same output with 1, 2 and 8 worker threads"
exit "$fail"
