#!/usr/bin/env bash
# The generic animation in a real terminal: tmux drives the gpulab binary:
# open a student's program, animate it, step, put the cell cursor on a cell
# and move it, follow its thread, step back, zoom, the code pane, the help
# overlay, a mouse click, and quit; the prompt comes back.
# Exit 77 (skipped) when tmux is not installed or the build records nothing.
#
# usage: tmux_access.sh GPULAB
set -u
GPULAB=$1
SRC=$(cd "$(dirname "$0")" && pwd)/race.cu
NAME=gpulab-access PANE=v HISTORY=0
. "$(dirname "$0")/../common/tmux.sh"
step() { screen | sed -n 's/.* step \([0-9]*\/[0-9]*\) .*/\1/p' | head -n 1; }
export LC_ALL=C.UTF-8

T new-session -d -s v -x 130 -y 40 \
    "env XDG_STATE_HOME='$TMP/state' XDG_CACHE_HOME='$TMP/cache' HOME='$TMP' LANG=C.UTF-8 TERM=screen-256color '$GPULAB'; sleep 30"
wait_for "gpulab " 20; check "the prompt appears" $?
T send-keys -t v "open $SRC" Enter
wait_for "kernel" 20; check "the program opens" $?
T send-keys -t v 'animate' Enter
if wait_for "records no accesses" 3; then echo "no recording in this build: skipped"; exit 77; fi
wait_for "q back" 120; check "animate opens the player" $?
wait_for "step 1/2" 5; check "two steps: the barrier epochs" $?
screen | grep -qF "s  shared, block 0"; check "the shared array is a strip" $?
screen | grep -qF "d_in  global"; check "the input is named after its variable" $?
screen | grep -qF "race.cu"; check "the code pane shows the file" $?
screen | grep -qF "__syncthreads"; check "the code pane shows the source" $?

T send-keys -t v Right
wait_for "step 2/2" 5; check "Right steps on" $?
screen | grep -qF "a race"; check "the race on sum is said" $?
screen | grep -qF "races 32"; check "and counted" $?

# the cell cursor: on the first strip, then to the next one (out), two cells on
T send-keys -t v c
sleep 0.3
T send-keys -t v Down Right Right
wait_for "d_out[2] =" 5; check "the cursor selects d_out[2]" $?
screen | grep -qF "thread 2 of block 0 (warp 0) wrote it at line 12"; check "who wrote it, and from which line" $?
T send-keys -t v Enter
wait_for "thread 2 of block 0:" 5; check "Enter follows its thread" $?
T send-keys -t v p
wait_for "step 1/2" 5; check "p steps back with the cursor on" $?
screen | grep -qF "thread 2 of block 0:"; check "the thread stays selected" $?
T send-keys -t v z
wait_for "warp 0, line" 5; check "z zooms in to warp instructions" $?
n=$(step | cut -d/ -f2)
[ -n "$n" ] && [ "$n" -gt 2 ]; check "more steps zoomed in ($n)" $?
T send-keys -t v z
wait_for "barrier epoch" 5; check "z again zooms out" $?
T send-keys -t v '?'
wait_for "follow the cell's thread" 5; check "the help lists the keys of the generic animation" $?
T send-keys -t v x
wait_gone "follow the cell's thread" 5; check "any key closes it" $?
T send-keys -t v Escape
sleep 0.3
screen | grep -qF "q back"; check "Esc puts the cursor away, the player stays" $?

# a mouse click (the terminal's X10 report, as TERM=screen sends it: ESC [ M,
# then button, column and row, each plus 32, 1-based) on the cell of d_out
# that holds 60 puts the cursor there: d_out[3], written by thread 3
T send-keys -t v Right
wait_for "step 2/2" 5
row=$(screen | grep -n "^d_out  global" | head -n 1 | cut -d: -f1)
col=-1
if [ -n "$row" ]; then
    cells=$(screen | sed -n "$((row + 1))p")
    pre=${cells%%" 60 "*}
    [ "$pre" != "$cells" ] && col=$(( ${#pre} + 2 ))
fi
[ "$col" -ge 0 ]; check "d_out's value 60 is on the screen (row ${row:-?})" $?
mouse() { # mouse BUTTON X Y: a press (button 0) or a release (3) at 0-based X, Y
    T send-keys -t v -l "$(printf '\033[M%b%b%b' "\\$(printf %03o $(( $1 + 32 )))" \
        "\\$(printf %03o $(( $2 + 33 )))" "\\$(printf %03o $(( $3 + 33 )))")"
}
if [ "$col" -ge 0 ]; then
    mouse 0 "$col" "$row"
    mouse 3 "$col" "$row"
fi
wait_for "d_out[3] = 60" 5; check "a click on a cell selects it" $?
screen | grep -qF "thread 3 of block 0 (warp 0) wrote it at line 12"; check "and says who wrote it" $?
T send-keys -t v Escape
sleep 0.3
T send-keys -t v q
wait_for "gpulab " 10; check "q goes back to the prompt" $?
T send-keys -t v 'echo still here' Enter
wait_for "still here" 5; check "the REPL goes on" $?
T send-keys -t v 'quit' Enter

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
