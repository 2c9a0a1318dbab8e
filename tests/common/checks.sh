# checks.sh - what the script tests of the real binary share, sourced by
# them after TMP is set: counters, a failure that shows both outputs, and
# checks on the last command's stdout ($OUT) and stderr ($ERR). Each test
# sets name before a command, so a failure says which one.
pass=0
fail=0
name=""
OUT="$TMP/out"
ERR="$TMP/err"

ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL [$name]: $*"
    echo "---- stdout"; head -c 3000 "$OUT"
    echo "---- stderr"; head -c 3000 "$ERR"
    echo "----"
}
out_has() { if grep -qF -- "$1" "$OUT"; then ok; else bad "stdout lacks: $1"; fi; }
out_lacks() { if grep -qF -- "$1" "$OUT"; then bad "stdout has: $1"; else ok; fi; }
err_has() { if grep -qF -- "$1" "$ERR"; then ok; else bad "stderr lacks: $1"; fi; }
err_lacks() { if grep -qF -- "$1" "$ERR"; then bad "stderr has: $1"; else ok; fi; }
# g RC ARGS...: run $GPULAB with ARGS (stdin from /dev/null), expect exit RC.
g() {
    local want=$1
    shift
    "$GPULAB" "$@" </dev/null >"$OUT" 2>"$ERR"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then bad "exit status $rc, expected $want (args: $*)"; else ok; fi
}
