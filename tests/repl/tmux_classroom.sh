#!/usr/bin/env bash
# A first classroom session at 80x24 without a GPU (tmux, the real binary):
# a lesson's offered command that typing replaces and that moves on only when
# it ran; the pager that leaves its text on the screen; errors, the puzzle
# list, show and profile wrapped at 80 columns; puzzle hints, the solution
# after a try, reset; lesson 4b; a file named like a shipped lesson keeping
# its own progress. Each screen is held against a golden file in
# golden/classroom/ (GPULAB_UPDATE_GOLDEN=1 rewrites them); no line of any
# screen is wider than 80 columns. Exit 77 without tmux.
#
# usage: tmux_classroom.sh GPULAB GOLDEN_DIR LESSONS_DIR
set -u
GPULAB=$(realpath "$1")
GOLDEN=$(realpath "$2")
LESSONS=$(realpath "$3")
SRC=$(dirname "$LESSONS")
NAME=gpulab-classroom PANE=gl HISTORY=0
. "$(dirname "$0")/../common/tmux.sh"
mkdir -p "$TMP/work" "$TMP/state"
cd "$TMP/work" || exit 1
STARTS=0
start() { # start [ENV OPTIONS]: gpulab at 80x24 in a fresh tmux server
    T kill-server >/dev/null 2>&1
    STARTS=$((STARTS + 1))
    SOCK="gpulab-classroom-$$-$STARTS"
    T new-session -d -s gl -x 80 -y 24 -c "$TMP/work" \
        "env -u LESS ${1:-} XDG_STATE_HOME='$TMP/state' XDG_CACHE_HOME='$TMP/cache' HOME='$TMP' NO_COLOR=1 TERM=xterm GPULAB_NO_GPU=1 GPULAB_LESSONS='$LESSONS' EDITOR=true VISUAL= '$GPULAB'; sleep 60"
    wait_prompt 20
}
pane_is_sleep() { T list-panes -t gl -F '#{pane_current_command}' 2>/dev/null | grep -q sleep; }
until_ok() { # until_ok SECONDS COMMAND...
    local t=$1; shift
    for _ in $(seq $((t * 10 * WAIT_SCALE))); do "$@" && return 0; sleep 0.1; done
    return 1
}
last_line() { screen | grep -v '^ *$' | tail -1; }
offered() { last_line | grep -q "> $1\$"; }
# golden NAME: the screen (trailing blank lines dropped) against golden/classroom/NAME.txt
golden() {
    screen | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' | sed "s|$TMP|TMP|g" >"$TMP/screen"
    [ "$(LC_ALL=C.UTF-8 wc -L <"$TMP/screen")" -le 80 ]; check "$1: no line wider than 80" $?
    if [ -n "${GPULAB_UPDATE_GOLDEN:-}" ]; then
        cp "$TMP/screen" "$GOLDEN/$1.txt"
    else
        diff -u "$GOLDEN/$1.txt" "$TMP/screen" >"$TMP/diff"; local rc=$?
        [ $rc -eq 0 ] || cat "$TMP/diff"
        check "$1: the screen is the golden one" $rc
    fi
}
# run_clear CMD: clear the screen (readline's Ctrl-L), type CMD over
# whatever the line holds, wait for the prompt
run_clear() {
    T send-keys -t gl C-l
    sleep 0.3
    T send-keys -t gl C-u "$1" Enter
    sleep 0.3
    wait_prompt 30
}

# A lesson whose step offers two commands.
mkdir -p "$TMP/my"
cat >"$TMP/my/01-offer.md" <<'MD'
---
title: Offers
---
## Two commands
Run these.

```gpulab
echo offered-one
echo offered-two
```

## The end
Done.
MD

# 1. The offer: typing replaces it, and it moves on only when it ran.
start
T send-keys -t gl "lesson $TMP/my/01-offer.md" Enter
until_ok 5 offered "echo offered-one"; check "the first command is offered" $?
T send-keys -t gl "echo typed-instead" Enter
wait_line "typed-instead" 5; check "typing replaces the offer (no echo offered-oneecho ...)" $?
! screen | grep -q "offered-oneecho"; check "the typed text was not appended" $?
until_ok 5 offered "echo offered-one"; check "the offer did not move on: the same command again" $?
T send-keys -t gl Enter
wait_line "offered-one" 5; check "Enter runs the offer" $?
until_ok 5 offered "echo offered-two"; check "then the next one" $?
T send-keys -t gl BSpace "three" Enter
wait_line "offered-twthree" 5; check "Backspace edits the offer" $?
until_ok 5 offered "next"; check "an edited offer ran: next is offered" $?
T send-keys -t gl "quit" Enter
until_ok 5 pane_is_sleep; check "quit typed over the offered next quits (not nextquit)" $?

# 2. The pager: less with -F -X leaves the text on the screen after q.
start "-u PAGER"
T send-keys -t gl "help" Enter
i=0; while [ $i -lt 100 ] && ! last_line | grep -q '^:'; do sleep 0.1; i=$((i + 1)); done
last_line | grep -q '^:'; check "help goes through less" $?
T send-keys -t gl q
wait_prompt 5
screen | grep -q "Commands (any unique prefix works"; check "the help stays on the screen after q" $?

# 3. Screens at 80 columns, each a golden one.
T send-keys -t gl "quit" Enter
start
run_clear "lesson 4b"
screen | grep -q "Beyond one GPU"; check "lesson 4b opens lesson 4b, not 4" $?
run_clear "puzzle"
golden puzzle-list
run_clear "puzzle 8 hint"
golden puzzle-hint
run_clear "puzzle solution"
golden puzzle-solution-before-a-try
run_clear "use reduce/sequential"
run_clear "set block 100"
golden error-wrapped
run_clear "show"
# the settings' values in one column, trace-blocks too (its value varies by
# machine for some settings, so this is checked, not held against a file)
screen | sed -n '/^  [a-z-]* *[^ ]/p' | grep -E '^  (repeats|trace-blocks|model|pager) ' |
    awk '{ n = index($0, $2); if (col && n != col) bad = 1; col = n } END { exit bad || !col }'
check "show: the settings' values line up (trace-blocks too)" $?
run_clear "help sweep"
golden help-sweep
T send-keys -t gl C-u "quit" Enter

# 4. edit opens the current puzzle; the solution after a try; reset keeps the old file.
start
T send-keys -t gl "puzzle 1" Enter
wait_for "wrote puzzles/01-map.cu" 10; check "puzzle 1 writes the skeleton" $?
wait_prompt 5
run_clear "edit"
golden edit-puzzle
T send-keys -t gl C-u "check" Enter
wait_for "not yet" 60; check "check tries it" $?
wait_prompt 30
run_clear "puzzle solution"
screen | grep -q "One solution of puzzle 1 (Map)"; check "the solution after a try" $?
screen | grep -q "out\[i\] = a\[i\] + 10"; check "the solution's kernel is shown" $?
echo "// my work" >puzzles/01-map.cu
run_clear "puzzle reset"
golden puzzle-reset
[ "$(cat puzzles/01-map.cu.old)" = "// my work" ]; check "reset keeps the student's file as .old" $?
grep -q "__global__ void map" puzzles/01-map.cu; check "reset writes the skeleton again" $?

# 5. A program open: profile and occupancy say they work on the built-in variants.
cat >"$TMP/work/k.cu" <<'CU'
__global__ void k(int *a) { __shared__ int s[32]; s[threadIdx.x] = threadIdx.x; __syncthreads(); a[threadIdx.x] = s[31 - threadIdx.x]; }
int main() { int *d; cudaMalloc(&d, 128); k<<<1, 32>>>(d); cudaDeviceSynchronize(); return 0; }
CU
T send-keys -t gl C-u "use reduce/sequential; open k.cu" Enter
wait_for "1 kernel" 30; wait_prompt 10
run_clear "profile"
golden profile-with-program
run_clear "occupancy"
screen | grep -q "occupancy works on the built-in variants, not on the open program"; check "occupancy says so too" $?
run_clear "show"
golden show-program
run_clear "run"
HISTORY=0 screen | grep -qE '^k +[0-9]+ +1 +1 +32 +128 '; check "run: the shared column counts the static __shared__ array (128 bytes)" $?
T send-keys -t gl C-u "quit" Enter

# 6. beside on the simulator puts the estimate of GPU time beside the lecture's.
cat >"$TMP/my/02-beside.md" <<'MD'
---
title: Beside
---
## Times
```gpulab
use reduce
set n 4096
run interleaved
```

```lecture
source: a lecture
interleaved: 1.17 ms
```
MD
start
T send-keys -t gl "lesson $TMP/my/02-beside.md" Enter
wait_for "Times (step 1 of 1)" 10; wait_prompt 10
T send-keys -t gl C-u "use reduce; set n 4096; run interleaved" Enter
wait_for "interleaved  sim" 60; wait_prompt 60
run_clear "beside"
screen | grep -qE 'interleaved +1\.17 ms +[0-9.e-]+ ms \(estimated\)'; check "beside: the estimate beside the lecture's time" $?
screen | grep -q "estimated from the counted accesses"; check "beside: says the simulator's column is the estimate" $?
[ "$(screen | LC_ALL=C.UTF-8 wc -L)" -le 80 ]; check "beside: no line wider than 80" $?
T send-keys -t gl C-u "quit" Enter

# 7. code shows a built-in kernel as a student writes it; trace cites the
# kernel's statements, not the recording lines.
start
run_clear "use reduce/interleaved"
run_clear "code"
HISTORY=200 screen >"$TMP/code"
grep -q '__shared__ A s\[B\];' "$TMP/code"; check "code: the shared array declared as a student writes it" $?
! grep -q '│.*TRACE_' "$TMP/code"; check "code: the recording lines folded away" $?
grep -q 'recording lines folded away' "$TMP/code"; check "code: says what it folded" $?
[ "$(LC_ALL=C.UTF-8 wc -L <"$TMP/code")" -le 80 ]; check "code: no line wider than 80" $?
run_clear "code interleaved all"
HISTORY=200 screen | grep -q 'TRACE_WRITE'; check "code ... all: the file as it is" $?
run_clear "set n 64"
run_clear "set block 64"
run_clear "trace"
HISTORY=400 screen | grep -oE 't0: reduce\.cu:[0-9]+ read g\[0\]=[0-9]+; reduce\.cu:[0-9]+ write s\[0\]' | head -1 >"$TMP/t0"
[ -s "$TMP/t0" ]; check "trace: thread 0's read and write with their lines" $?
for l in $(grep -oE 'reduce\.cu:[0-9]+' "$TMP/t0" | cut -d: -f2); do
    sed -n "${l}p" "$SRC/kernels/reduce/reduce.cu" | grep -q 'TRACE_'; [ $? -ne 0 ]
    check "trace: line $l is the kernel's statement, not a TRACE_ line" $?
done
T send-keys -t gl C-u "quit" Enter

# 8. The animation at 80x24: a caption cut short says "… w", and w shows it whole.
start
T send-keys -t gl "use reduce/interleaved; set n 64; set block 32; animate interleaved vs sequential" Enter
HISTORY=0 wait_for "step 1/" 30; check "animate: the player is up" $?
T send-keys -t gl End
sleep 0.5
for k in 1 2 3 4 5 6 7 8; do
    HISTORY=0 screen | grep -q '… w' && break
    T send-keys -t gl Left; sleep 0.3
done
HISTORY=0 screen | grep -q '… w'; check "animate: a cut caption ends in '… w'" $?
T send-keys -t gl w
HISTORY=0 wait_for "any key closes this" 5; check "animate: w shows the whole caption" $?
HISTORY=0 screen | grep -q "caption"; check "animate: in a box named caption" $?
[ "$(HISTORY=0 screen | LC_ALL=C.UTF-8 wc -L)" -le 80 ]; check "animate: the caption box fits 80 columns" $?
T send-keys -t gl x
HISTORY=0 wait_gone "any key closes this" 5; check "animate: any key closes it" $?
T send-keys -t gl q
wait_prompt 10; check "animate: q gives the prompt back" $?
T send-keys -t gl C-u "quit" Enter

# 8b. The Mandelbrot animation's row is the run of the picture it shows;
# a grid the user set stays in the table at 80 columns.
start
T send-keys -t gl "use mandelbrot/gpu; animate" Enter
HISTORY=0 wait_for "step 1/" 60; check "animate mandelbrot: the player is up" $?
HISTORY=0 screen | grep -qE '^gpu +sim'; check "animate mandelbrot: its row is in the table" $?
! HISTORY=0 screen | grep -q 'not run'; check "animate mandelbrot: the row under the picture ran" $?
T send-keys -t gl q
wait_prompt 10
run_clear "use scale/grid-stride; set grid 8; run grid-stride cpu-omp cpu-seq"
HISTORY=0 screen | grep -qE '^variant +grid '; check "run: a grid that was set keeps its column at 80" $?
T send-keys -t gl C-u "quit" Enter

# 9. Lecture mode at 80x24: a step longer than the screen scrolls, and no
# line (key line, key list) is wider than the screen.
{ printf -- '---\ntitle: Long\n---\n## A long step\n'
  for i in $(seq 1 40); do printf 'Paragraph line %d of the long step.\n\n' "$i"; done
  printf '## Short\nThe end.\n'; } >"$TMP/my/03-long.md"
start
T send-keys -t gl "lecture $TMP/my/03-long.md" Enter
HISTORY=0 wait_for "[down/up] lines 1-" 10; check "lecture: a long step shows its first lines and says so" $?
HISTORY=0 screen | grep -q "Paragraph line 1 of"; check "lecture: the first line is on the screen" $?
T send-keys -t gl Down
HISTORY=0 wait_gone "[down/up] lines 1-" 5; check "lecture: down scrolls" $?
HISTORY=0 screen | grep -qE '\[down/up\] lines [0-9]+-[0-9]+'; check "lecture: the key line says which lines show" $?
[ "$(HISTORY=0 screen | LC_ALL=C.UTF-8 wc -L)" -le 80 ]; check "lecture: no line wider than 80" $?
T send-keys -t gl '?'
HISTORY=0 wait_for "Keys of lecture mode" 5; check "lecture: ? lists the keys" $?
HISTORY=0 screen | grep -q "scroll a step longer than the screen"; check "lecture: the list names scrolling" $?
[ "$(HISTORY=0 screen | LC_ALL=C.UTF-8 wc -L)" -le 80 ]; check "lecture: the key list fits 80 columns" $?
T send-keys -t gl x
sleep 0.5
T send-keys -t gl q
wait_prompt 10; check "lecture: q gives the prompt back" $?
T send-keys -t gl C-u "quit" Enter

# 10. A file named like a shipped lesson keeps its own progress.
cp "$TMP/my/01-offer.md" "$TMP/my/04-reduction.md"
start
T send-keys -t gl "lesson $TMP/my/04-reduction.md 2" Enter
wait_for "The end (step 2 of 2)" 10; check "the copy opens" $?
wait_prompt 5
grep -q '^04-reduction ' "$TMP/state/gpulab/progress"; [ $? -ne 0 ]
check "the shipped lesson 4's progress is untouched" $?
grep -qE '^04-reduction@[0-9a-f]{16} 2 2 2 0$' "$TMP/state/gpulab/progress"; check "the copy's progress is its own" $?
T send-keys -t gl C-u "quit" Enter

echo
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
