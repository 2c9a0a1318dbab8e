#!/usr/bin/env bash
# The reduction across modelled GPUs through the real binary, on the
# simulator: every kernel variant with gpus 1, 2, 3 and 8, as tables and as
# JSON (every GPU's partial and every combine checked against the exact sum,
# the combines marked not timed); the setting's refusals; device; animate's
# frames as text (slices, a GPU's tree, the combines, the ring's steps).
#
# usage: multigpu.sh GPULAB JSONCHECK SRCDIR
set -u
GPULAB=$1
JSONCHECK=$2
SRCDIR=$3

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-multi.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export XDG_STATE_HOME="$TMP/state" HOME="$TMP/home" NO_COLOR=1 GPULAB_NO_GPU=1
mkdir -p "$HOME"
cd "$TMP" || exit 1

. "$SRCDIR/../common/checks.sh"


variants="interleaved sequential warp-shuffle atomic-float block-atomic vector"
for v in $variants; do
    for n in 2 3 8; do
        name="table-$v-$n"; g 0 -c "use reduce/$v; set backend sim; set n 1001; set pattern random; set gpus $n; run"
        out_has "reduce/$v across $n GPUs"; out_lacks "WRONG"
        if [ "$(grep -cE '^ +[0-9]+ +[0-9]+\.\.[0-9]+ .* ok' "$OUT")" -eq "$n" ]; then ok; else bad "$n GPU rows, each ok"; fi
        for c in host p2p nccl; do
            if grep -qE "^$c +not timed .* ok" "$OUT"; then ok; else bad "combine $c: not timed, ok"; fi
        done
        out_has "modelled: the all-reduce's result is computed, its time is not"
    done
    for n in 1 2 3 8; do
        name="json-$v-$n"; g 0 --json -c "use reduce/$v; set backend sim; set dtype double; set n 999; set gpus $n; run"
        if [ "$n" -eq 1 ]; then
            # one GPU is the ordinary run: one row
            if [ "$(wc -l <"$OUT")" -eq 1 ] && grep -q '"correct":true' "$OUT"; then ok; else bad "gpus 1: one row"; fi
            continue
        fi
        if [ "$(grep -c '"gpu":' "$OUT")" -eq "$n" ]; then ok; else bad "$n GPU rows"; fi
        if [ "$(grep -c '"combine":' "$OUT")" -eq 3 ]; then ok; else bad "3 combine rows"; fi
        if [ "$(grep -c '"correct":true' "$OUT")" -eq $((n + 3)) ]; then ok; else bad "every row correct"; fi
        if grep '"combine":' "$OUT" | grep -qv '"timed":false'; then bad "a combine timed on the simulator"; else ok; fi
        if grep '"gpu":' "$OUT" | "$JSONCHECK" rows >/dev/null 2>>"$ERR"; then ok; else bad "GPU rows are result rows"; fi
        if grep '"combine":' "$OUT" | python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' 2>>"$ERR"; then ok
        else bad "combine rows are JSON"; fi
    done
done

# the setting
name="gpus-range"; g 1 -c "set gpus 9"; err_has "1..8"
name="gpus-zero"; g 1 -c "set gpus 0"
name="gpus-show"; g 0 -c "set gpus 3; show gpus"
if grep -qx 'gpus = 3' "$OUT"; then ok; else bad "show gpus says 3"; fi
name="split-too-small"; g 1 -c "use reduce/vector; set backend sim; set n 5; set gpus 8; run"; err_has "cannot be split over 8 GPUs"
name="cpu-row"; g 1 -c "use reduce; set backend sim; set gpus 2; run cpu-omp"; err_has "CPU row"
name="lib-row"; g 1 -c "use reduce; set backend sim; set gpus 2; run cub"; err_has "needs a GPU"
name="other-family"; g 0 -c "use histogram; set backend sim; set gpus 2; set n 4096; run"; err_has "runs on one GPU"
name="device"; g 0 -c "device"; out_has "set gpus 2..8 models that many GPUs"

# the animation as text: slices, GPU 1's tree, the copies, every ring step
name="animate"; g 0 -c "use reduce/sequential; set backend sim; set gpus 3; animate"
out_has "across 3 modelled GPUs"; out_has "the slices"; out_has "GPU 0: elements 0..85 (86)"
out_has "GPU 1:"; out_has "combine: host"; out_has "combine: p2p"; out_has "all-reduce: ring"
out_has "reduce-scatter 2/2"; out_has "all-gather 2/2"; out_has "all-reduce: done"
out_has "every GPU holds the total"
if grep -q "\[3/3\]" "$OUT"; then ok; else bad "the ring ends with every chunk summed"; fi
name="animate-vs"; g 1 -c "use reduce; set backend sim; set gpus 2; animate sequential vs interleaved"; err_has "leave out vs"

echo
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
