#!/usr/bin/env bash
# The real prompt, typed at through tmux: Tab completion, Ctrl-C at the
# prompt (the line is dropped, the prompt comes back), Ctrl-C during a run
# (it stops between repeats, gpulab stays), history written, quit.
# Exit 77 (skipped) when tmux is not installed.
#
# usage: tmux.sh GPULAB
set -u
GPULAB=$1
NAME=gpulab-tmux PANE=gl HISTORY=200
. "$(dirname "$0")/../common/tmux.sh"
# the last non-empty line of the screen
last_line() { screen | sed '/^[[:space:]]*$/d' | tail -n 1; }

T new-session -d -s gl -x 120 -y 40 \
    "env XDG_STATE_HOME='$TMP/state' HOME='$TMP' NO_COLOR=1 TERM=xterm '$GPULAB'; sleep 30"
wait_for "gpulab " 20; check "the prompt appears" $?
T send-keys -t gl 'use reduce' Enter
wait_for "gpulab reduce/" 5; check "use changes the prompt" $?
# A student's program open: the prompt names its file, not the last variant.
T send-keys -t gl "open $(dirname "$0")/../programs/p01_vector_add.cu" Enter
wait_for "gpulab p01_vector_add.cu> " 20; check "open names the program in the prompt" $?
T send-keys -t gl 'use reduce' Enter
wait_for "gpulab reduce/" 5; check "use goes back to the algorithm's prompt" $?

# Tab completes a command and a setting name.
T send-keys -t gl 'sh' Tab
wait_for "> show " 5; check "Tab completes sh to show" $?
T send-keys -t gl 'rep' Tab Enter
wait_for "repeats = 5" 5; check "Tab completes the setting and show prints it" $?

# Ctrl-C at the prompt drops the typed line; the prompt comes back.
T send-keys -t gl 'echo abandoned-line'
wait_for "echo abandoned-line" 5; check "typed text shows" $?
T send-keys -t gl C-c
sleep 0.5
last_line | grep -q '^gpulab reduce/[a-z-]*> *$'; check "a fresh prompt after Ctrl-C" $?
T send-keys -t gl 'echo after-ctrl-c' Enter
wait_for "after-ctrl-c" 5
screen | grep -qx 'after-ctrl-c'; check "the next command runs" $?
screen | grep -qx 'abandoned-line'; [ $? -ne 0 ]; check "the abandoned line did not run" $?

# Ctrl-C during a long run stops it between repeats; gpulab stays.
T send-keys -t gl 'set n 4Mi; set repeats 1000; run cpu-seq' Enter
sleep 1.5
# on a loaded machine the run may not have begun yet: a Ctrl-C that came
# before it is the prompt's, so press again until the run says it stopped
for try in 1 2 3 4 5 6; do
    T send-keys -t gl C-c
    wait_for "interrupted" 3 && break
done
wait_for "interrupted" 1; check "Ctrl-C stops a running command" $?
sleep 0.5
last_line | grep -q '^gpulab reduce/[a-z-]*> *$'; check "the prompt is back after the interrupted run" $?
T send-keys -t gl 'echo still-here' Enter
wait_for "still-here" 5; check "gpulab survives Ctrl-C" $?

# An error at the prompt: message and caret, the session goes on.
T send-keys -t gl 'set block 100' Enter
wait_for "power of two" 5; check "an error message at the prompt" $?

# History: written after each command, without the abandoned line.
HIST="$TMP/state/gpulab/history"
[ -f "$HIST" ]; check "history file created under XDG_STATE_HOME" $?
grep -qx 'show repeats' "$HIST"; check "history holds the completed command" $?
grep -q 'abandoned-line' "$HIST"; [ $? -ne 0 ]; check "history lacks the abandoned line" $?

T send-keys -t gl 'quit' Enter
sleep 1
screen | grep -q 'gpulab reduce/[a-z-]*> quit'; check "quit typed" $?
# gpulab has exited: the pane now runs only the trailing sleep.
pgrep -f "^$GPULAB\$" >/dev/null 2>&1
T list-panes -t gl -F '#{pane_current_command}' 2>/dev/null | grep -q sleep; check "gpulab exited on quit" $?

# The pager: output longer than the screen goes through $PAGER at the prompt;
# `set pager off` prints it straight; short output never pages.
if command -v less >/dev/null 2>&1; then
    T new-session -d -s pg -x 80 -y 24 \
        "env XDG_STATE_HOME='$TMP/state2' HOME='$TMP' NO_COLOR=1 TERM=xterm PAGER='less -R' LESS= '$GPULAB'; sleep 30"
    PANE=pg
    wait_for "gpulab " 20
    T send-keys -t pg 'help' Enter
    # less waits at its prompt, a ":" alone on the last line, with the first page above it
    i=0; while [ $i -lt 50 ] && ! T capture-pane -p -t pg | sed '/^$/d' | tail -1 | grep -qx ':'; do sleep 0.1; i=$((i + 1)); done
    T capture-pane -p -t pg | sed '/^$/d' | tail -1 | grep -qx ':'; check "help goes through less at 80x24" $?
    ! T capture-pane -p -t pg | grep -q "Several commands on one line"; check "the pager shows the first page only" $?
    T send-keys -t pg q
    HISTORY=0 wait_for "gpulab " 5; check "q in the pager gives the prompt back" $?
    T send-keys -t pg 'echo short-output' Enter
    HISTORY=0 wait_for "short-output" 5
    sleep 0.3
    T capture-pane -p -t pg | sed '/^$/d' | tail -1 | grep -q '^gpulab '; check "short output is not paged" $?
    T send-keys -t pg 'set pager off' Enter 'help' Enter
    wait_for "Several commands on one line" 5; check "set pager off prints it straight" $?
    sleep 0.3
    T capture-pane -p -t pg | sed '/^$/d' | tail -1 | grep -q '^gpulab '; check "and the prompt follows it" $?
    T send-keys -t pg 'quit' Enter
    PANE=gl
fi

echo
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
