#!/usr/bin/env bash
# The profile command through the real binary on the simulator: the counts of
# known kernels on screen with their sentences, Nsight Compute's names in
# --json, export after a profile, the est ms column of run, and the errors.
# usage: cli_profile.sh GPULAB
set -u
GPULAB=$1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-prof.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export XDG_STATE_HOME="$TMP/state" HOME="$TMP/home" NO_COLOR=1
mkdir -p "$HOME"
cd "$TMP" || exit 1
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; echo "---- out"; head -c 4000 out; echo "---- err"; head -c 2000 err; }
g() { "$GPULAB" "$@" </dev/null >out 2>err; }
has() { grep -q -- "$1" out || bad "no \"$1\" in the output of: $2"; }

if ! g -c "use transpose/naive; set n 64; set backend sim; profile"; then
    if grep -q "cannot count accesses" err; then echo "skipped: no access recording in this build"; exit 77; fi
    bad "profile failed"
fi
# naive reads rows (coalesced) and writes columns (one sector per lane)
has "global loads (8 B)" "profile transpose/naive"
has "the reads are coalesced" "profile transpose/naive"
has "one per lane: the writes are scattered 32 bytes or more apart" "profile transpose/naive"
has "estimated GPU time on h200" "profile transpose/naive"
has "an estimate from the counts, not a measurement" "profile transpose/naive"

# the tiled transpose: shared memory, padded tile, barriers
g -c "use transpose/tiled; set n 64; set backend sim; profile" || bad "profile tiled failed"
has "no bank conflicts" "profile transpose/tiled"
has "barrier instructions" "profile transpose/tiled"

# at 80 columns the counts table fits (85 whole): lanes/request left out and
# said so; at 120 every column is there
COLUMNS=80 g -c "use reduce/vector; set n 2^14; set backend sim; profile" || bad "profile at 80 columns failed"
python3 - out <<'PY' || bad "profile at 80 columns: a line is wider than 80"
import sys
wide = [l for l in open(sys.argv[1]).read().splitlines() if len(l) > 80]
assert not wide, wide
PY
has "left out to fit 80 columns: lanes/request" "profile at 80 columns"
COLUMNS=120 g -c "use reduce/vector; set n 2^14; set backend sim; profile" || bad "profile at 120 columns failed"
grep -q "ideal  lanes/request" out || bad "profile at 120 columns: not every column"

# --json: Nsight Compute's names, the estimate
g --json -c "use transpose/naive; set n 64; set backend sim; profile" || bad "profile --json failed"
python3 - out <<'PY' || bad "the JSON rows"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
k = [r for r in rows if r["kernel"] != "total"]
assert k, rows
r = k[0]
n = 64 * 64
# every thread loads one double and stores one: n/32 requests each, 8 sectors
# a coalesced load, 32 a column store
assert r["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == n / 32, r
assert r["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"] == n / 32, r
assert r["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == n / 32 * 8, r
assert r["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] == n, r
assert r["est_ms"] > 0 and r["source"] == "simulator"
assert [x for x in rows if x["kernel"] == "total"]
PY

# export after a profile writes the counters
g -c "use transpose/naive; set n 64; set backend sim; profile; export p.csv; export p.json" || bad "export failed"
grep -q "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum" p.csv || bad "p.csv has no metric names"
python3 -c "import json; d = json.load(open('p.json')); assert d['profile'][0]['source'] == 'simulator'" || bad "p.json"

# run shows the estimate beside the simulator's time, labelled
g -c "use reduce/sequential; set n 2^14; set backend sim; run" || bad "run failed"
has "est ms" "run on the simulator"
has "an estimate of the GPU time on model h200" "run on the simulator"

# errors: a library row, an unknown variant
g -c "use reduce/sequential; set backend sim; profile cub"
[ $? -ne 0 ] || bad "profile cub should fail"
grep -q "vendor library code: profile counts gpulab's own kernels" err || bad "no reason for profile cub"
g -c "use reduce/sequential; set backend sim; profile nosuch"
[ $? -ne 0 ] || bad "profile nosuch should fail"
[ $fail -eq 0 ] && echo "profile cli: ok"
exit $((fail > 0))
