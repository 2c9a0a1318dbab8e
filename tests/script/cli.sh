#!/usr/bin/env bash
# Script tests of the real gpulab binary: -c, script files, pipes, --json,
# --bail, exit codes, and a list of bad inputs that must each give an error
# with a caret while the session goes on. Runs without a GPU (kernel rows on
# the simulator) as well as with one.
#
# usage: cli.sh GPULAB JSONCHECK SRCDIR
set -u
GPULAB=$1
JSONCHECK=$2
SRCDIR=$3

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-cli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export XDG_STATE_HOME="$TMP/state" HOME="$TMP/home" NO_COLOR=1
mkdir -p "$HOME"
cd "$TMP" || exit 1

. "$SRCDIR/../common/checks.sh"

# gin RC INPUT ARGS...: the same with INPUT piped to stdin.
gin() {
    local want=$1 input=$2
    shift 2
    printf '%s' "$input" | "$GPULAB" "$@" >"$OUT" 2>"$ERR"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then bad "exit status $rc, expected $want (stdin)"; else ok; fi
}
err_empty() { if [ -s "$ERR" ]; then bad "stderr is not empty"; else ok; fi; }
# The caret line: spaces then ^ and optional ~.
err_caret() { if grep -qE '^ +\^~*$' "$ERR"; then ok; else bad "no caret line in stderr"; fi; }

# ---------------------------------------------------------------- options
name="version";   g 0 --version; out_has "gpulab "
name="help-opt";  g 0 --help; out_has "usage: gpulab"; out_has "--json"; out_has "--bail"
name="bad-opt";   g 2 --frobnicate; err_has "unknown option"
name="bad-lang";  g 2 --lang 'x!'; err_has "--lang"
name="two-scripts"; g 2 a.gl b.gl; err_has "one script"
name="lang-ok";   g 0 --lang uk -c "echo ok"; out_has "ok"

# ------------------------------------------------------------- -c commands
name="help";      g 0 -c "help"; out_has "Commands"; out_has "compare"; out_has "trace"; err_empty
name="help-cmd";  g 0 -c "help set"; out_has "usage: set KEY VALUE"; out_has "sim-limit"
name="list";      g 0 -c "list"; out_has "reduce"; out_has "sequential"; out_has "cpu-omp"
name="show";      g 0 -c "use reduce/sequential; show"; out_has "limits of reduce/sequential"; out_has "a power of two"; out_has "trace"
name="quit";      g 0 -c "echo a; quit; echo b"; out_has "a"; out_lacks "b"
name="exit-alias"; g 0 -c "exit; echo b"; out_lacks "b"
name="two-c";     g 0 -c "echo one" -c "echo two"; out_has "one"; out_has "two"
name="prefix";    g 0 -c "sh rep"; out_has "repeats = 5"
name="ambiguous"; g 1 -c "r"; err_has "ambiguous"; err_has "could be"; err_has "run"; err_caret
name="device";    g 0 -c "device"
if grep -q "^no GPU" "$OUT"; then HAVE_GPU=0; else HAVE_GPU=1; fi
echo "gpu present: $HAVE_GPU"

# --------------------------------------------- bad inputs: error, caret, go on
while IFS='|' read -r input needle; do
    [ -z "$input" ] && continue
    name="bad: $input"
    g 1 -c "use reduce/sequential; $input; echo still-alive"
    err_has "error: "
    err_has "$needle"
    err_caret
    out_has "still-alive"
done <<'EOF'
frob|unknown command
set n 12x|expected a size
set n -5|negative
set n 0|zero
set n 2^70|too large
set block 0|at least one thread
set block 2000|1024
set block 100|power of two
set grid 0|grid
set dtype xyz|int, float, double
set pattern zebra|lecture
set repeats 0|1..1000
set race-check maybe|on or off
set backend warp-drive|auto
set n|needs a value
set|KEY VALUE
set colour red|unknown setting
use nosuch|unknown algorithm
use reduce/nope|no variant
run nope|no variant
help nope|unknown command
source /no/such/file.gl|cannot open
compare now|no arguments
trace nope|no variant
EOF

# A line that does not split stops there; the next -c still runs.
name="unterminated"; g 1 -c "echo 'open; echo hidden" -c "echo still-alive"
err_has "unterminated"; err_caret; out_lacks "hidden"; out_has "still-alive"

# The failing value keeps the old one.
name="kept";      g 1 -c "set repeats 7; set repeats 0; show repeats"; out_has "repeats = 7"

# --------------------------------------------------------------- scripts
cat >script.gl <<'EOF'
# a comment line
echo first   # a trailing comment
use reduce/sequential; set n 4096; set repeats 1

set block 100
bogus
echo last
EOF
name="script";    g 1 script.gl; out_has "first"; out_has "last"
err_has "error: line 5 of script.gl:"; err_has "error: line 6 of script.gl:"; err_caret
name="script-bail"; g 1 --bail script.gl; out_has "first"; out_lacks "last"; err_lacks "line 6"
name="stdin";     gin 1 "$(cat script.gl)" ; out_has "first"; out_has "last"; err_has "line 5 of stdin"
name="stdin-dash"; gin 0 "echo piped" -; out_has "piped"
name="no-history"; if [ -e "$XDG_STATE_HOME/gpulab/history" ]; then bad "history written without a terminal"; else ok; fi
cat >clean.gl <<'EOF'
use reduce
set n 1000
set repeats 1
echo done
EOF
name="clean";     g 0 clean.gl; out_has "done"; err_empty
name="missing";   g 1 no-such-script.gl; err_has "cannot open"
printf 'echo inner\nfrob\n' >inner.gl
name="source";    g 1 -c "source inner.gl; echo after"; out_has "inner"; out_has "after"; err_has "line 2 of inner.gl"
printf 'source loop.gl\n' >loop.gl
name="source-loop"; g 1 -c "source loop.gl"; err_has "nested"
name="lecture-missing"; g 1 --lecture no-such-lecture.md; err_has "error"

# ------------------------------------------------------------------ runs
name="run";       g 0 -c "use reduce; set n 4096; set repeats 1; run"; out_has "variant"; out_has "interleaved"; out_has "ok"
if [ "$HAVE_GPU" = 0 ]; then
    out_has "sim rows: simulator time"; err_has "no GPU"
fi
name="run-two";   g 0 -c "use reduce; set n 3000; set repeats 1; run sequential warp-shuffle cpu-seq"
out_has "sequential"; out_has "warp-shuffle"; out_has "cpu-seq"
name="run-odd";   g 0 -c "use reduce; set n 1001; set repeats 1; set dtype float; run vector"; out_has "vector"

name="json-run"
g 0 --json -c "use reduce; set n 4096; set repeats 1; run"
if "$JSONCHECK" rows <"$OUT" >"$TMP/rows" 2>>"$ERR"; then ok; else bad "bad JSON rows"; fi
if grep -qE '^interleaved (sim|gpu) ran correct$' "$TMP/rows"; then ok; else bad "interleaved row: $(cat "$TMP/rows")"; fi

name="json-compare"
g 0 --json -c "use reduce; set n 4096; set repeats 1; compare"
if "$JSONCHECK" rows <"$OUT" >"$TMP/rows" 2>>"$ERR"; then ok; else bad "bad JSON rows"; fi
for v in interleaved sequential warp-shuffle vector cpu-omp cpu-seq; do
    if grep -qE "^$v (sim|gpu|cpu) ran correct$" "$TMP/rows"; then ok; else bad "row $v: $(cat "$TMP/rows")"; fi
done
if [ "$HAVE_GPU" = 0 ]; then
    if grep -q '^cub gpu not-run unchecked$' "$TMP/rows"; then ok; else bad "cub must be a not-run row without a GPU"; fi
    if grep -q '"note":"[^"]*GPU' "$OUT"; then ok; else bad "the not-run note must say a GPU is needed"; fi
fi
name="json-lines-only"; if grep -qv '^{' "$OUT"; then bad "stdout has non-JSON lines with --json"; else ok; fi

# Past the simulator's limit every row runs at the family's simulator size, and says so.
name="run-sim-fit"; g 0 --json -c "use reduce; set n 2^24; set repeats 1; set backend sim; run"
err_has "past the simulator's limit"; err_has "every row runs at n = 1Mi"
if grep -q '"n":1048576,.*"ran":true' "$OUT"; then ok; else bad "the row must run at n = 1Mi"; fi
# ... unless even that is past a limit lowered by hand: the row is refused with the reason.
name="run-fails"; g 1 --json -c "use matmul/gpu-naive; set n 100; set sim-limit 1000; set repeats 1; set backend sim; run"
err_has "did not run"; err_has "sim-limit"
if grep -q '"ran":false' "$OUT"; then ok; else bad "a row that could not run must still be printed"; fi

# ------------------------------------------------------------------ trace
name="trace";     g 0 -c "use reduce; set n 16; trace"
out_has "trace of reduce/interleaved"; out_has "launch 0"; out_has "block 0"; out_has "epoch 0"; out_has "result:"
out_has "(kernels/reduce/reduce.cu)"; out_has " reduce.cu:"
name="trace-auto"; g 0 -c "use reduce/sequential; trace"; out_has "n = 256"; out_has "block 128"
name="trace-save"; g 0 -c "use reduce; set n 32; trace sequential save t.json"; out_has "saved"
if "$JSONCHECK" trace t.json >"$TMP/tr" 2>>"$ERR"; then ok; else bad "bad saved trace"; fi
name="trace-json"; g 0 --json -c "use reduce; set n 16; trace warp-shuffle"
if [ "$(wc -l <"$OUT")" -eq 1 ] && head -c 1 "$OUT" | grep -q '{'; then ok; else bad "--json trace is one object"; fi
name="trace-too-big"; g 0 -c "use reduce; set n 1Mi; trace; echo alive"
err_has "showing a small instance, n = 256, with the same block and pattern"; out_has "n = 256 int"; out_has "alive"
name="trace-lib"; g 1 -c "use reduce; trace cub"; err_has "cannot be traced"

echo
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
