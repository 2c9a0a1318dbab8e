#!/usr/bin/env bash
# The player in a real terminal: tmux drives the gpulab binary through
# `animate` on the simulator: step forward and back, resize (larger,
# smaller, too small, back), play, the help overlay, Ctrl-C, side by side,
# and quit; each time the prompt must come back with the screen as it was,
# and the history must hold exactly what was typed.
# Exit 77 (skipped) when tmux is not installed.
#
# usage: tmux_animate.sh GPULAB
set -u
GPULAB=$1
NAME=gpulab-viz PANE=v HISTORY=0
. "$(dirname "$0")/../common/tmux.sh"
# the player's step counter, as "K/N"
step() { screen | sed -n 's/.* step \([0-9]*\/[0-9]*\) .*/\1/p' | head -n 1; }
# the widest line of the screen, in characters (not bytes)
widest() {
    local w=0 line
    while IFS= read -r line; do
        line=${line%"${line##*[! ]}"}
        [ ${#line} -gt $w ] && w=${#line}
    done < <(screen)
    echo $w
}
export LC_ALL=C.UTF-8

T new-session -d -s v -x 120 -y 40 \
    "env XDG_STATE_HOME='$TMP/state' HOME='$TMP' LANG=C.UTF-8 TERM=screen-256color '$GPULAB'; sleep 30"
wait_for "gpulab " 20; check "the prompt appears" $?
T send-keys -t v 'use reduce/interleaved' Enter
T send-keys -t v 'set n 64' Enter
T send-keys -t v 'set block 32' Enter
wait_for "gpulab reduce/interleaved" 5; check "the variant is chosen" $?

# ---- animate: the player takes the screen
T send-keys -t v 'animate' Enter
wait_for "q back" 30; check "animate opens the player" $?
wait_for "step 1/" 5; check "it starts at step 1" $?
screen | grep -qF "on the simulator"; check "it says where the trace came from" $?
screen | grep -qF "variant"; check "the timing table is on the screen" $?
total=$(step | cut -d/ -f2)
[ -n "$total" ] && [ "$total" -gt 5 ]; check "the animation has its steps ($total)" $?

T send-keys -t v Right
wait_for "step 2/" 5; check "Right goes one step on" $?
T send-keys -t v n n
wait_for "step 4/" 5; check "n goes on" $?
screen | grep -qF "stride"; check "a tree step shows its stride" $?
screen | grep -qF "active threads"; check "the counters show" $?
T send-keys -t v Left
wait_for "step 3/" 5; check "Left goes back" $?
T send-keys -t v p
wait_for "step 2/" 5; check "p goes back" $?
T send-keys -t v End
wait_for "step $total/$total" 5; check "End shows the last step" $?
wait_for "equal" 5; check "the last step compares with the CPU" $?
T send-keys -t v Home
wait_for "step 1/" 5; check "Home restarts" $?

# ---- resizing re-lays out at once
T resize-window -t v -x 80 -y 24
sleep 0.5
wait_for "step 1/" 5; check "the player redraws at 80x24" $?
[ "$(widest)" -le 80 ]; check "nothing is wider than 80 columns" $?
T resize-window -t v -x 50 -y 15
wait_for "The terminal is 50" 5; check "a tiny terminal says how large it must be" $?
screen | grep -qF "press q"; check "and how to leave" $?
T resize-window -t v -x 200 -y 60
wait_for "step 1/" 5; check "the player comes back at 200x60" $?
T resize-window -t v -x 120 -y 40
wait_for "step 1/" 5; check "and at 120x40" $?

# ---- help overlay
T send-keys -t v '?'
wait_for "back to the prompt" 5; check "? shows the keys" $?
T send-keys -t v x
wait_gone "back to the prompt" 5; check "a key closes the help" $?

# ---- play: the steps advance on their own (fastest speed)
T send-keys -t v + + + + + + +
T send-keys -t v Space
wait_for "playing" 5; check "space plays" $?
sleep 1.5
k=$(step | cut -d/ -f1)
[ -n "$k" ] && [ "$k" -gt 3 ]; check "playing advances the steps (at $k)" $?
T send-keys -t v Space
wait_for "paused" 5; check "space pauses" $?

# ---- q: back to the prompt, the screen as it was, the table printed
T send-keys -t v q
wait_for "gpulab reduce/interleaved>" 10; check "q returns to the prompt" $?
wait_gone "q back" 5; check "the player is gone" $?
screen | grep -qF "set block 32"; check "the screen before animate is back" $?
screen | grep -qE "^interleaved +sim"; check "the timed row is printed after the player" $?
T send-keys -t v 'show' Enter
wait_for "block" 5; check "the REPL works after the player" $?

# ---- Esc and Ctrl-C also end the player
T send-keys -t v 'watch' Enter
wait_for "q back" 30; check "watch is animate" $?
T send-keys -t v Escape
wait_gone "q back" 5; check "Esc leaves the player" $?
T send-keys -t v 'animate' Enter
wait_for "q back" 30; check "animate again" $?
T send-keys -t v C-c
wait_gone "q back" 5; check "Ctrl-C leaves the player" $?
wait_for "gpulab reduce/interleaved>" 10; check "Ctrl-C returns to the prompt" $?

# ---- two variants side by side, in step
T send-keys -t v 'animate interleaved vs sequential' Enter
wait_for "q back" 30; check "animate A vs B opens the player" $?
screen | grep -qF "sequential  step 1/"; check "both sides show their step" $?
T send-keys -t v Right Right
wait_for "sequential  step 3/" 5; check "both sides move in step" $?
T send-keys -t v q
wait_for "gpulab reduce/interleaved>" 10; check "back from the side-by-side view" $?

# ---- lesson 3's distance/ls at 80x24: the block's shared array fills warp
# by warp, its threads wait at the barrier, thread 0 adds
T send-keys -t v 'use distance/ls' Enter 'set n 256' Enter 'set block 64' Enter
wait_for "gpulab distance/ls" 5; check "distance/ls is chosen" $?
T resize-window -t v -x 80 -y 24
T send-keys -t v 'animate' Enter
wait_for "q back" 30; check "animate opens distance/ls" $?
wait_for "__shared__ part[64] of block 0" 5; check "the block's shared array is on the screen" $?
T send-keys -t v Right
wait_for "block 0, warp 0" 5; check "warp 0 writes its slots" $?
screen | tr '\n' ' ' | tr -s ' ' | grep -qF "32 of the block's 64 threads have arrived"; check "half the block waits at the barrier" $?
screen | grep -qE "^  0│(‖){32}(·){32}$"; check "warp 0's threads wait, warp 1's have not arrived" $?
T send-keys -t v Right Right
wait_for "block 0, the barrier" 5; check "the barrier has its own step" $?
screen | grep -qE "^  0│(‖){64}$"; check "every thread of the block waits at it" $?
T send-keys -t v Right
wait_for "block 0, thread 0 adds" 5; check "then thread 0 adds the slots" $?
screen | grep -qE "^  0│Σ(-){63}$"; check "thread 0 alone adds" $?
[ "$(widest)" -le 80 ]; check "distance/ls fits 80 columns" $?
T resize-window -t v -x 120 -y 40
wait_for "0.66" 5; check "at 120x40 the slots show their values" $?
T send-keys -t v q
wait_for "gpulab distance/ls>" 10; check "back from distance/ls" $?
T send-keys -t v 'use reduce/interleaved' Enter

# ---- lesson 3's step as the generic animation at 80x24: the block's shared
# array is among the arrays shown; in cell mode, down keeps an array in view
T resize-window -t v -x 80 -y 24
T send-keys -t v 'use distance/ls' Enter 'set n 256' Enter 'set block 64' Enter
T send-keys -t v 'animate ls as generic' Enter
wait_for "q back" 30; check "animate ls as generic opens" $?
wait_for "shared, block 0" 5; check "the shared array shows at 80x24" $?
[ "$(widest)" -le 80 ]; check "the generic animation fits 80 columns" $?
T send-keys -t v c
for k in 1 2 3 4 5 6 7 8; do T send-keys -t v Down; done
sleep 0.5
sel=$(screen | sed -n 's/^\([a-z0-9_]*\)\[[0-9]*\] = .* of block \([0-9]*\) .*/\1 \2/p' | head -n 1)
[ -n "$sel" ]; check "down in cell mode selects a cell ($sel)" $?
set -- $sel
screen | grep -qE "^${1:-none}  shared, block ${2:-x},"; check "and its array is on the screen" $?
T send-keys -t v Escape
sleep 0.3
T send-keys -t v q
wait_for "gpulab distance/ls>" 10; check "back from the generic animation" $?

# ---- transpose at 80x24: two variants side by side fit, and the tile
# shows the row the warp touches
T send-keys -t v 'use transpose/tiled' Enter 'set n 100' Enter
T send-keys -t v 'animate tiled-nopad vs tiled' Enter
wait_for "q back" 30; check "animate tiled-nopad vs tiled opens at 80x24" $?
! screen | grep -qF "needs at least"; check "two transpose panels fit 80x24" $?
screen | grep -qF "bank"; check "both show their banks" $?
[ "$(widest)" -le 80 ]; check "side by side within 80 columns" $?
T send-keys -t v q
wait_for "gpulab transpose/tiled>" 10
T send-keys -t v 'animate tiled' Enter
wait_for "q back" 30
T send-keys -t v Right Right Right
wait_for "step 4/" 5
row=$(screen | sed -n 's/.*writes row \([0-9]*\) of the tile.*/\1/p' | head -n 1)
[ -n "$row" ] && screen | grep -qE "^ *$row  .*█"; check "the tile shows the row the warp writes (row $row)" $?
T send-keys -t v q
wait_for "gpulab transpose/tiled>" 10
T resize-window -t v -x 120 -y 40
T send-keys -t v 'use reduce/interleaved' Enter

# ---- a large n plays a small instance of it, and says so
T send-keys -t v 'set n 1000000' Enter
T send-keys -t v 'animate' Enter
wait_for "(a small instance of n = 1000000)" 10; check "a large n plays a small instance, the heading says so" $?
T send-keys -t v q
wait_for "showing a small instance" 10; check "and the note says how small" $?
T send-keys -t v 'quit' Enter
sleep 1
hist="$TMP/state/gpulab/history"
[ -f "$hist" ]; check "the history file is written" $?
grep -qx "animate interleaved vs sequential" "$hist"; check "the history holds the commands" $?
! grep -q "step [0-9]" "$hist"; check "nothing from the player leaked into the history" $?

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
