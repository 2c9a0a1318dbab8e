#!/usr/bin/env bash
# The lesson runner and lecture mode at a real terminal (tmux): a lesson's
# commands offered as a pre-filled line that Enter runs, next/back, the
# progress file written after each step and kept when gpulab is killed, the
# lesson resumed where it was left; lecture mode's keys (space runs the
# shown command, left goes back, q leaves). Exit 77 without tmux.
#
# usage: tmux_lessons.sh GPULAB LESSONS_DIR
set -u
GPULAB=$1
NAME=gpulab-lessons PANE=gl HISTORY=300
. "$(dirname "$0")/../common/tmux.sh"
PROG=$TMP/state/gpulab/progress
STARTS=0
start() { # start ARGS...: gpulab in a fresh tmux server (a new socket each time:
          # a new session on a server still shutting down can fail)
    T kill-server >/dev/null 2>&1
    STARTS=$((STARTS + 1))
    SOCK="gpulab-lessons-$$-$STARTS"
    T new-session -d -s gl -x 100 -y 50 \
        "env XDG_STATE_HOME=$TMP/state HOME=$TMP NO_COLOR=1 GPULAB_LESSONS=$2 $GPULAB $1; sleep 30"
}
mkdir -p "$TMP/lessons/en"
cat >"$TMP/lessons/en/01-tiny.md" <<'MD'
---
title: Tiny lesson
time: 2 min
---
## First step
Run this.

```gpulab
echo hello-from-step-one
echo second-command
```

## Second step
Now the question.

```question
What is six times seven?
answer: 42
```

## Exercise
Predict, then run.

```gpulab
echo exercise-done
```
MD

start "" "$TMP/lessons"
wait_for "gpulab" 10; check "prompt" $?
T send-keys -t gl "lesson 1" Enter
wait_for "First step (step 1 of 3)" 5; check "the first step shows" $?
# Poll a condition (a command) for up to $1 seconds: fixed sleeps fail on a
# loaded machine.
until_ok() {
  local t=$1; shift
  for _ in $(seq $((t * 10 * WAIT_SCALE))); do "$@" && return 0; sleep 0.1; done
  return 1
}
# An offer is on the prompt line, the last one on the screen: the step's
# text above shows the same commands ("gpulab> echo ..."), and a key sent
# when only those are drawn would come before the prompt.
last_line() { screen | grep -v '^ *$' | tail -1; }
offered() { last_line | grep -q "> $1\$"; }
until_ok 5 offered "echo hello-from-step-one"; check "the first command is offered" $?
T send-keys -t gl Enter
wait_line "hello-from-step-one" 5; check "Enter runs it" $?
until_ok 5 offered "echo second-command"; check "the next command is offered" $?
T send-keys -t gl C-e " edited" Enter
wait_line "second-command edited" 5; check "an offered command can be edited" $?
offered_next() { screen | grep -q "> next$"; }
until_ok 5 offered_next; check "then next is offered" $?
# Enter runs the offered next, and the answer typed straight after it (before
# step 2's prompt offers next again) is read as typed, not behind the offer.
T send-keys -t gl Enter "answer 41" Enter
wait_for "Second step (step 2 of 3)" 5; check "next shows step 2" $?
until_ok 5 grep -q '^01-tiny 2 3 2 0$' "$PROG"; check "progress written after the step" $?
wait_for "not quite" 5; check "a wrong answer typed ahead" $?
! screen | grep -q "unknown command"; check "typed-ahead keys come before the offer" $?
wait_prompt; T send-keys -t gl C-u "answer 42" Enter
wait_for "right." 5; check "the right answer" $?
until_ok 5 grep -q '^01-tiny 2 3 2 1$' "$PROG"; check "a right answer counted" $?
wait_prompt; T send-keys -t gl C-u "back" Enter
wait_for "First step (step 1 of 3)" 5; check "back" $?
# Wait until the step's first command is offered again: keys typed before
# the prompt pre-fills its line would land in front of the offered text.
until_ok 5 offered "echo hello-from-step-one"; check "back offers the step's command again" $?
wait_prompt; T send-keys -t gl C-u "next" Enter
at_step2() { screen | grep "(step . of 3)" | tail -1 | grep -q "step 2 of 3"; }
until_ok 5 at_step2; check "next again" $?
# Killed hard: the progress must still be there and whole.
pid=$(T list-panes -t gl -F '#{pane_pid}')
pkill -KILL -P "$pid" >/dev/null 2>&1
sleep 0.3
grep -q '^01-tiny 2 3 2 1$' "$PROG"; check "progress survives a kill" $?
start "" "$TMP/lessons"
wait_for "gpulab" 10
T send-keys -t gl "lessons" Enter
wait_for "step 2 of 3" 5; check "lessons shows progress" $?
wait_prompt; T send-keys -t gl C-u "lesson tiny" Enter
wait_for "Resuming at step 2" 5; check "the lesson resumes" $?
wait_prompt; T send-keys -t gl C-u "quit" Enter

# Lecture mode: keys. `--lecture N` takes what `lesson` takes (here: 1).
start "--lecture 1" "$TMP/lessons"
wait_for "First step (step 1 of 3)" 10; check "lecture: --lecture 1 opens the first lesson" $?
wait_for "[space] runs: echo hello-from-step-one" 5; check "lecture: the next command is announced" $?
T send-keys -t gl Space
wait_for ">>> echo hello-from-step-one" 5; check "lecture: the command is shown" $?
wait_line "    hello-from-step-one" 5; check "lecture: and run, its output indented under the step" $?
T send-keys -t gl Space Space
wait_for "Second step (step 2 of 3)" 5; check "lecture: space goes on" $?
T send-keys -t gl a
HISTORY=0 wait_for "answer: 42" 5; check "lecture: a shows the answer" $?
T send-keys -t gl a
HISTORY=0 wait_gone "answer: 42" 5; check "lecture: a again hides it" $?
T send-keys -t gl '?'
wait_for "Keys of lecture mode" 5; check "lecture: ? lists the keys" $?
screen | grep -q "go to step N"; check "lecture: the key list names go to" $?
T send-keys -t gl x
wait_for "Second step (step 2 of 3)" 5; check "lecture: any key leaves the key list" $?
T send-keys -t gl k
HISTORY=0 wait_gone "[left] back" 5; check "lecture: k hides the key line" $?
T send-keys -t gl k
HISTORY=0 wait_for "[left] back" 5; check "lecture: k shows it again" $?
T send-keys -t gl g 3
wait_for "go to step 3_" 5; check "lecture: g and a digit start a go-to" $?
T send-keys -t gl Enter
wait_for "Exercise (step 3 of 3)" 5; check "lecture: Enter goes to step 3" $?
T send-keys -t gl 1 Enter
wait_for "First step (step 1 of 3)" 5; check "lecture: a number and Enter go to step 1" $?
T send-keys -t gl Space
wait_line "    hello-from-step-one" 5; check "lecture: the step's command runs again" $?
T send-keys -t gl t
HISTORY=0 wait_gone "    hello-from-step-one" 5; check "lecture: t hides the commands' output" $?
T send-keys -t gl t
HISTORY=0 wait_line "    hello-from-step-one" 5; check "lecture: t shows it again" $?
T send-keys -t gl z
wait_line "  Tiny lesson" 5; check "lecture: z, the large layout (a narrow margin)" $?
T send-keys -t gl Left
wait_for "First step" 5
T send-keys -t gl Right Right Right Right
wait_for "Second step" 5; check "lecture: right goes on" $?
T send-keys -t gl q
sleep 1
pid=$(T list-panes -t gl -F '#{pane_pid}')
! ps -o comm= --ppid "$pid" | grep -q gpulab; check "lecture: q leaves" $?

# The key line at 80 columns wraps between its parts: "[q] quit" stays whole
# and in view.
start "--lecture 1" "$TMP/lessons"
wait_for "First step (step 1 of 3)" 10
T resize-window -t gl -x 80 -y 24
T send-keys -t gl r
sleep 1
HISTORY=0 wait_for "[q] quit" 5; check "lecture at 80 columns: [q] quit is on the screen" $?
! HISTORY=0 screen | grep -qE '\[q\] *$'; check "lecture at 80 columns: [q] is not parted from quit" $?
! HISTORY=0 screen | grep -qE '^ *quit *$'; check "lecture at 80 columns: no line of quit alone" $?
T send-keys -t gl q

# Rehearsal: every step runs, and the time of each is printed at the end.
start "--lecture tiny --rehearse" "$TMP/lessons"
wait_for "rehearsal: the time each step took" 20; check "rehearse: a table of the steps' times" $?
screen | grep -qE '^ *3 +Exercise +1 +[0-9]+\.[0-9]$'; check "rehearse: the exercise step's row" $?
echo "$pass passed, $fail failed"
exit $((fail > 0))
