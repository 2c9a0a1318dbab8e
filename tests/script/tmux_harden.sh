#!/usr/bin/env bash
# The terminal and the history under signals and a second session, through
# tmux: SIGTERM at the readline prompt and in lecture mode leaves the
# terminal as it was (`stty -a` before and after, read by a plain sh that
# restores nothing itself), and two interactive sessions typing 500
# commands each at the same time keep all 1000 lines of history.
# Exit 77 (skipped) when tmux is not installed.
#
# usage: tmux_harden.sh GPULAB LESSONS
set -u
GPULAB=$1
LESSONS=$2
NAME=gpulab-tmux-harden PANE=sg HISTORY=0
. "$(dirname "$0")/../common/tmux.sh"
ENV="env XDG_STATE_HOME='$TMP/state' HOME='$TMP' NO_COLOR=1 TERM=xterm"

# the process id of the gpulab running in a session's pane
gpulab_pid() {
    local sh
    sh=$(T display -p -t "$1" '#{pane_pid}')
    pgrep -P "$sh" -x gpulab | head -1
}

# SIGTERM at the prompt, then in lecture mode
for mode in prompt lecture; do
    case $mode in
    prompt) args="" ready="Type help" ;;
    lecture) args="--lecture '$LESSONS/01-threads-blocks-grids.md'" ready="[space]" ;;
    esac
    PANE=sg-$mode
    T new-session -d -s "$PANE" -x 100 -y 30 \
        "sh -c \"stty -a >'$TMP/before-$mode'; $ENV '$GPULAB' $args; echo \\\$? >'$TMP/rc-$mode'; stty -a >'$TMP/after-$mode'; sleep 60\""
    wait_for "$ready" 20; check "$mode: gpulab is ready" $?
    pid=$(gpulab_pid "$PANE")
    [ -n "$pid" ]; check "$mode: gpulab's process found" $?
    if [ -n "$pid" ]; then
        # readline (or lecture mode) has the terminal without echo now
        kill -TERM "$pid"
        i=0
        while [ ! -s "$TMP/after-$mode" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
        [ -s "$TMP/after-$mode" ]; check "$mode: gpulab ended on SIGTERM" $?
        [ "$(cat "$TMP/rc-$mode" 2>/dev/null)" = 143 ]; check "$mode: by the signal (status 143)" $?
        cmp -s "$TMP/before-$mode" "$TMP/after-$mode"
        check "$mode: stty -a is as before" $?
        grep -qE '(^| )echo( |$)' "$TMP/after-$mode" && grep -qE '(^| )icanon( |$)' "$TMP/after-$mode"
        check "$mode: echo and canonical mode are on" $?
        if ! cmp -s "$TMP/before-$mode" "$TMP/after-$mode"; then
            diff "$TMP/before-$mode" "$TMP/after-$mode"
        fi
    fi
done

# Two sessions at once, 500 commands each: every line is in the history.
for who in a b; do
    seq 1 500 | sed "s/^/echo $who-/" >"$TMP/typed-$who"
    T new-session -d -s "h$who" -x 100 -y 30 "$ENV '$GPULAB'; echo done-$who; sleep 60"
done
PANE=ha wait_for "Type help" 20; check "session a is ready" $?
PANE=hb wait_for "Type help" 20; check "session b is ready" $?
for who in a b; do
    T load-buffer -b "typed-$who" "$TMP/typed-$who"
done
T paste-buffer -b typed-a -t ha
T paste-buffer -b typed-b -t hb
# the last command's output, a line of its own, then Ctrl-D (which is not history)
for who in a b; do
    i=0
    while ! T capture-pane -p -t "h$who" | grep -qx "$who-500" && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
    T send-keys -t "h$who" C-d
done
PANE=ha wait_for "done-a" 30; check "session a ran all 500 commands" $?
PANE=hb wait_for "done-b" 30; check "session b ran all 500 commands" $?
hist="$TMP/state/gpulab/history"
for who in a b; do
    n=$(grep -c "^echo $who-" "$hist" 2>/dev/null)
    [ "${n:-0}" -eq 500 ]; check "all 500 of session $who's commands are in the history (found ${n:-0})" $?
done
[ "$(stat -c %a "$hist")" = 600 ]; check "the history file is 0600" $?

echo "tmux_harden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
