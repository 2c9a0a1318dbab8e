# tmux.sh - what the tmux tests share, sourced by them: a private tmux
# server, a temporary folder, checks that count, and waiting for text on
# the screen. Set before sourcing:
#   NAME     names the server and the temporary folder
#   PANE     the session the screen is read from
#   HISTORY  lines of history screen() includes, joined (0: the visible screen)
# Exits 77 (skipped) when tmux is not installed.
command -v tmux >/dev/null 2>&1 || { echo "tmux not installed: skipped"; exit 77; }

# Long output would go to a pager at these terminals; the tests read the
# screen instead (the pager test sets its own PAGER).
export PAGER=cat
# A wait that succeeds returns at once; the limits are generous (3 times the
# seconds each test names) so that a loaded machine does not fail them.
WAIT_SCALE=${WAIT_SCALE:-3}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/$NAME.XXXXXX")
SOCK="$NAME-$$"
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() {
    T kill-server >/dev/null 2>&1
    rm -rf "$TMP"
}
trap cleanup EXIT

pass=0
fail=0
screen() {
    if [ "${HISTORY:-0}" -gt 0 ]; then
        T capture-pane -p -J -S "-$HISTORY" -t "$PANE" 2>/dev/null
    else
        T capture-pane -p -t "$PANE" 2>/dev/null
    fi
}
# check NAME STATUS: count it; a failure shows the screen
check() {
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "FAIL: $1"
        echo "---- screen"
        screen | tail -40
        echo "----"
    fi
}
# wait_for TEXT [SECONDS]: until TEXT is on the screen
wait_for() {
    local i=0 limit=$(( ${2:-10} * 10 * WAIT_SCALE ))
    while [ $i -lt $limit ]; do
        screen | grep -qF -- "$1" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
# wait_gone TEXT [SECONDS]: until TEXT is no longer on the screen
wait_gone() {
    local i=0 limit=$(( ${2:-10} * 10 * WAIT_SCALE ))
    while [ $i -lt $limit ]; do
        screen | grep -qF -- "$1" || return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
# wait_line TEXT [SECONDS]: until a whole screen line is TEXT (output, not
# the typed command line that contains it)
wait_line() {
    local i=0 limit=$(( ${2:-10} * 10 * WAIT_SCALE ))
    while [ $i -lt $limit ]; do
        screen | grep -qxF -- "$1" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
# wait_prompt [SECONDS]: until gpulab reads a line again (the last line on
# the screen is its prompt, with whatever it offers). Keys sent while a
# command still runs reach a terminal in cooked mode, where Ctrl-U is the
# terminal's own line kill: wait before a C-u.
wait_prompt() {
    local i=0 limit=$(( ${1:-10} * 10 * WAIT_SCALE ))
    while [ $i -lt $limit ]; do
        T capture-pane -p -t "$PANE" 2>/dev/null | grep -v '^ *$' | tail -1 |
            grep -qE '^gpulab[^>]*>( |$)' && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
