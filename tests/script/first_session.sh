#!/usr/bin/env bash
# The README's "first session", typed at the real prompt in an 80x24 tmux
# window on the simulator (GPULAB_NO_GPU=1): every command gives output,
# no row says "not run", no line is wider than the window, the animation of
# a large n plays a small instance and says so. Exit 77 without tmux.
#
# usage: first_session.sh GPULAB README
set -u
GPULAB=$1
README=$2
NAME=gpulab-first PANE=gl HISTORY=400
. "$(dirname "$0")/../common/tmux.sh"

# The commands, as the README has them.
sed -n '/^## A first session/,/^## /p' "$README" | sed -n '/^```$/,/^```$/p' | grep '^gpulab [a-z0-9/-]*> ' >"$TMP/lines"
sed 's/^gpulab [a-z0-9/-]*> //' "$TMP/lines" >"$TMP/cmds"
[ "$(wc -l <"$TMP/cmds")" -ge 5 ]; check "the README's first session has its commands" $?
grep -qx 'animate interleaved vs sequential' "$TMP/cmds"; check "the session animates" $?

T new-session -d -s gl -x 80 -y 24 \
    "env XDG_STATE_HOME='$TMP/state' HOME='$TMP' NO_COLOR=1 GPULAB_NO_GPU=1 TERM=xterm '$GPULAB'; sleep 60"
wait_for "gpulab " 20; check "the prompt appears" $?
i=0
while IFS= read -r cmd; do
    i=$((i + 1))
    T send-keys -t gl "echo @@ $i" Enter
    wait_line "@@ $i" 5
    T send-keys -t gl "$cmd" Enter
    case "$cmd" in
    animate*)
        HISTORY=0 wait_for "step 1/" 60; check "$cmd: the player shows the first step" $?
        T send-keys -t gl End
        sleep 0.5
        T send-keys -t gl q
        wait_for "small instance" 10; check "$cmd: plays a small instance of the large n and says so" $?
        ;;
    esac
    T send-keys -t gl "echo @@ done $i" Enter
    wait_line "@@ done $i" 300; check "$cmd: finished" $?
    # the README shows the prompt as it is
    screen | grep -qxF "$(sed -n "${i}p" "$TMP/lines")"; check "$cmd: the prompt is the README's" $?
    # what the command printed: between its echo markers
    screen | sed -n "/^@@ $i\$/,/^@@ done $i\$/p" | sed '1,2d;$d' | grep -v '^gpulab' >"$TMP/out.$i"
    [ -s "$TMP/out.$i" ] || case "$cmd" in use*|set*) true ;; *) false ;; esac
    check "$cmd: gives output" $?
    ! grep -q "not run" "$TMP/out.$i"; check "$cmd: no row is \"not run\"" $?
    ! grep -q "^error" "$TMP/out.$i"; check "$cmd: no error" $?
done <"$TMP/cmds"
# capture-pane -J joins lines the terminal wrapped: none may be wider than 80
screen | awk 'length($0) > 80 { bad = 1; print "too wide: " $0 } END { exit bad }'
check "no line wraps at 80 columns" $?
screen | grep -q "past the simulator.s limit\|past sim-limit"; check "compare says where it ran the large n" $?
screen | grep -qE '^sequential +sim'; check "run sequential gives its row" $?
T send-keys -t gl 'quit' Enter
echo "$pass passed, $fail failed"
exit $((fail > 0))
