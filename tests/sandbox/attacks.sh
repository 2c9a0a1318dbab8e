#!/usr/bin/env bash
# Script tests of the sandbox (docs/reliability.md): a hostile classmate's
# program, run by the real gpulab on the simulator, tries to write to HOME,
# read outside its folder, open a network socket, fork without end, outlive
# the run with setsid, reach the terminal, signal gpulab, flood or forge
# what it reports; a lecture tries to open itself and files outside its
# folder; gpulab is killed during a run. Each must be stopped and reported,
# leave no process and no temporary file, and the session must go on.
#
# Where the kernel refuses namespaces (some containers) gpulab says so and
# this test says which protections it could not check; it checks the rest.
#
# usage: attacks.sh GPULAB
set -u
GPULAB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
# not under /tmp: with Landlock (no namespaces) a program may write /tmp,
# and this test's HOME and other folders must be out of its reach
TMP=$(mktemp -d "$PWD/gpulab-sbx.XXXXXX")
ID=sbx$$x$RANDOM
cleanup() {
    pkill -KILL -f "$ID" 2>/dev/null
    rm -rf "$TMP" "/tmp/${ID}_t"
}
trap cleanup EXIT
export HOME="$TMP/home" XDG_CACHE_HOME="$TMP/cache" XDG_STATE_HOME="$TMP/state" NO_COLOR=1 GPULAB_NO_GPU=1
mkdir -p "$HOME" "$TMP/prog" "$TMP/outside"
echo "top secret" >"$TMP/outside/secret.txt"
echo "mine" >"$TMP/prog/data.txt"
cd "$TMP/prog" || exit 1
. "$HERE/../common/checks.sh"

# g RC ARGS...: gpulab with ARGS, time-limited, stdin /dev/null
g() {
    local want=$1
    shift
    timeout 120 "$GPULAB" --no-color "$@" </dev/null >"$OUT" 2>"$ERR"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then bad "exit status $rc, expected $want (args: $*)"; else ok; fi
}
# in either output, lines joined (gpulab wraps long messages at a terminal's width)
any_has() {
    if cat "$OUT" "$ERR" | tr -s '[:space:]' ' ' | grep -qF -- "$1"; then ok; else bad "the output lacks: $1"; fi
}
is_true() { if eval "$1"; then ok; else bad "$2"; fi; }
# none of this test's programs runs any more
no_procs() {
    sleep 0.3
    if pgrep -f "$ID" >/dev/null; then bad "processes left: $(pgrep -af "$ID" | head -5)"; else ok; fi
}
# a program FILE.cu of this test whose main is BODY (C++, POSIX headers)
prog() {
    cat >"$1" <<CU
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <netinet/in.h>
__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }
int main(int argc, char **argv) {
$2
    return 0;
}
CU
}
# run FILE.cu: open and run it on the simulator
run() { g "$1" -c "set backend sim; set time-limit ${3:-20}; open $2; run; echo session-goes-on"; }

"$GPULAB" --no-color -c "show" </dev/null >"$OUT" 2>&1
STATE=$(grep '^ *sandbox ' "$OUT")
echo "sandbox: $STATE"
WHOLE=0 LANDLOCK=0
case "$STATE" in *"on (namespaces"*) WHOLE=1 ;; *"with Landlock"*) LANDLOCK=1 ;; esac
if [ $WHOLE = 0 ] && [ $LANDLOCK = 0 ]; then
    echo "NOT CHECKED here (the kernel refuses namespaces and has no Landlock): the program's view of"
    echo "the file system (HOME, files outside its folder) and of the network. Checked: seccomp (sockets,"
    echo "TIOCSTI, signals to gpulab), limits, the terminal, setsid escapes, what comes back, lectures,"
    echo "files read, signals."
elif [ $WHOLE = 0 ]; then
    echo "NOT CHECKED here (the kernel refuses namespaces; Landlock confines files): a private /tmp and"
    echo "working folder, the network namespace."
fi

# ------------------------------------------------------------ files
prog "${ID}_home.cu" "
    FILE *f = fopen(\"$HOME/pwned\", \"w\");
    printf(\"home %s\\n\", f ? \"WRITTEN\" : \"refused\");
    FILE *g = fopen(\"$TMP/outside/pwned\", \"w\");
    printf(\"outside %s\\n\", g ? \"WRITTEN\" : \"refused\");
    FILE *h = fopen(\"mine.txt\", \"w\");
    printf(\"workdir %s\\n\", h && fputs(\"x\", h) >= 0 && fclose(h) == 0 ? \"writable\" : \"REFUSED\");
    FILE *t = fopen(\"/tmp/${ID}_t\", \"w\");
    printf(\"tmp %s\\n\", t ? \"writable\" : \"REFUSED\");"
if [ $WHOLE = 1 ]; then
    name="write-home"; run 0 "${ID}_home.cu"
    out_has "home refused"; out_has "outside refused"
    out_has "workdir writable"; out_has "tmp writable"; out_has "session-goes-on"
    is_true "[ ! -e \"$HOME/pwned\" ] && [ ! -e \"$TMP/outside/pwned\" ] && [ ! -e mine.txt ] && [ ! -e /tmp/${ID}_t ]" \
        "a file was written outside the sandbox"
    no_procs
elif [ $LANDLOCK = 1 ]; then
    # Landlock: reads of the system and its folder, writes to /tmp only
    name="write-home-landlock"; run 0 "${ID}_home.cu"
    out_has "home refused"; out_has "outside refused"; out_has "tmp writable"; out_has "session-goes-on"
    out_has "workdir REFUSED"
    is_true "[ ! -e \"$HOME/pwned\" ] && [ ! -e \"$TMP/outside/pwned\" ]" "a file was written outside /tmp"
    no_procs
fi

prog "${ID}_read.cu" "
    const char *paths[] = {\"/etc/shadow\", \"$TMP/outside/secret.txt\", \"$HOME\", \"/root\", 0};
    for (int i = 0; paths[i]; i++) {
        FILE *f = fopen(paths[i], \"r\");
        char buf[64] = \"\";
        if (f && fgets(buf, sizeof buf, f)) printf(\"READ %s: %s\\n\", paths[i], buf);
        else printf(\"refused %d\\n\", i);
    }
    FILE *m = fopen(\"data.txt\", \"r\");
    char buf[64] = \"\";
    printf(\"own folder: %s\\n\", m && fgets(buf, sizeof buf, m) ? buf : \"REFUSED\");"
if [ $WHOLE = 1 ] || [ $LANDLOCK = 1 ]; then
    name="read-outside"; run 0 "${ID}_read.cu"
    out_has "refused 0"; out_has "refused 1"; out_lacks "READ"; out_lacks "top secret"
    out_has "own folder: mine"
    no_procs
fi

# ------------------------------------------------------------ network
prog "${ID}_sock.cu" "
    int s = socket(AF_INET, SOCK_STREAM, 0);
    printf(\"socket %d\\n\", s);
    struct sockaddr_in a; memset(&a, 0, sizeof a);
    a.sin_family = AF_INET; a.sin_port = htons(80); a.sin_addr.s_addr = htonl(0x01010101);
    printf(\"connect %d\\n\", connect(s, (struct sockaddr *)&a, sizeof a));"
name="socket"; run 1 "${ID}_sock.cu"
any_has "SIGSYS"; out_lacks "connect"; out_has "session-goes-on"
no_procs
prog "${ID}_pair.cu" "
    int sv[2];
    printf(\"socketpair %d\\n\", socketpair(AF_UNIX, SOCK_STREAM, 0, sv));"
name="socketpair-allowed"; run 0 "${ID}_pair.cu"; out_has "socketpair 0"; err_lacks "SIGSYS"

# ------------------------------------------------------------ processes
prog "${ID}_fork.cu" "
    int n = 0;
    for (; n < 5000; n++) {
        pid_t p = fork();
        if (p < 0) break;
        if (p == 0) { sleep(60); _exit(0); }
    }
    printf(\"forks %d\\n\", n);"
name="fork-bomb"; run 0 "${ID}_fork.cu"
case "$STATE" in
*"no process limit"*) echo "NOT CHECKED here: the process limit ($STATE)"; ok ;;
*) is_true "n=\$(sed -n 's/^forks //p' \"$OUT\"); [ -n \"\$n\" ] && [ \"\$n\" -lt 600 ]" "the process limit did not stop the forks" ;;
esac
out_has "session-goes-on"
no_procs

prog "${ID}_setsid.cu" "
    if (fork() == 0) { setsid(); if (fork() == 0) { sleep(120); _exit(0); } _exit(0); }
    printf(\"main returns\\n\");"
name="setsid-outlive"; start=$(date +%s); run 0 "${ID}_setsid.cu"
out_has "main returns"; out_has "exit status 0"; any_has "session-goes-on"
is_true "[ \$(( \$(date +%s) - start )) -lt 15 ]" "gpulab waited for the setsid child"
err_lacks "time limit"
no_procs

prog "${ID}_spin.cu" "
    if (fork() == 0) { setsid(); for (;;) {} }
    for (;;) {}"
name="time-limit"; run 1 "${ID}_spin.cu" 2
any_has "time limit of 2 s"; out_has "session-goes-on"
no_procs

prog "${ID}_sig.cu" "
    pid_t p = getppid();
    printf(\"parent %d\\n\", (int)p); fflush(stdout);
    kill(p, SIGKILL);
    char path[64], buf[512]; snprintf(path, sizeof path, \"/proc/%d/stat\", (int)p);
    FILE *f = fopen(path, \"r\");
    int pp = 0;
    if (f && fgets(buf, sizeof buf, f)) { char *e = strrchr(buf, ')'); if (e) sscanf(e + 2, \"%*c %d\", &pp); }
    if (pp > 1) kill(pp, SIGTERM);
    kill(-1, SIGTERM);
    printf(\"still here\\n\");"
name="signal-parent"; timeout 60 "$GPULAB" --no-color -c "set backend sim; open ${ID}_sig.cu; run; echo session-goes-on" </dev/null >"$OUT" 2>"$ERR"
rc=$?
is_true "[ $rc -le 1 ]" "gpulab ended with status $rc (killed by the program?)"
out_has "session-goes-on"
no_procs

# ------------------------------------------------------------ the terminal
prog "${ID}_tty.cu" "
    int fd = open(\"/dev/tty\", O_RDWR);
    printf(\"tty %s\\n\", fd >= 0 ? \"OPENED\" : \"refused\"); fflush(stdout);
    const char *cmd = \"echo INJECTED > $TMP/injected\\n\";
    for (int i = 0; i < 3; i++) for (const char *c = cmd; *c; c++) ioctl(i, TIOCSTI, c);
    printf(\"typed\\n\");"
name="terminal"
script -qec "$GPULAB --no-color -c 'set backend sim; open ${ID}_tty.cu; run; echo session-goes-on'" /dev/null </dev/null >"$OUT" 2>"$ERR"
sleep 0.5
any_has "tty refused"; any_has "SIGSYS"; any_has "session-goes-on"
is_true "[ ! -e \"$TMP/injected\" ]" "text typed into gpulab's terminal was run"
no_procs

prog "${ID}_esc.cu" "
    printf(\"\\033]0;pwned\\007\\033[2J\\033[31mred\\n\");"
name="escapes"; run 0 "${ID}_esc.cu"
is_true "! grep -q \$'\\033' \"$OUT\" \"$ERR\"" "an escape sequence reached the terminal"
out_has "^[]0;pwned"

# ------------------------------------------------------------ what comes back
prog "${ID}_result.cu" "
    const char *r = getenv(\"GPULAB_RESULT\");
    unlink(r); symlink(\"/dev/zero\", r); mkfifo(r, 0600);
    int z = open(\"/dev/zero\", O_RDONLY); dup2(z, 3);
    int fd = open(r, O_WRONLY | O_APPEND);
    static char junk[1 << 20];
    for (size_t i = 0; i + 1 < sizeof junk; i += 64) snprintf(junk + i, 65, \"launch\\tx\\t1\\t1,1,1\\t1,1,1\\t0\\t1.0\\t0%*s\\n\", 28, \"\");
    int w = 0;
    for (int i = 0; i < 64; i++) w += write(fd, junk, sizeof junk - 1) > 0;
    printf(\"flooded %d\\n\", w);"
name="result-flood"; start=$(date +%s); run 0 "${ID}_result.cu"
out_has "session-goes-on"
is_true "[ \$(( \$(date +%s) - start )) -lt 60 ]" "gpulab took too long over a flooded result"
no_procs

prog "${ID}_trace.cu" "
    k<<<1, 32>>>(0);
    FILE *f = fopen(\"/dev/fd/4\", \"w\");
    if (f) { fprintf(f, \"# gpulab access trace 1, blocks 4294967295\\nL 0 4294967295,65535,65535 1024,1024,64 0 1 evil\\n\"); fclose(f); }"
name="forged-trace"; start=$(date +%s)
timeout 120 "$GPULAB" --no-color -c "set backend sim; open ${ID}_trace.cu; trace; echo session-goes-on" </dev/null >"$OUT" 2>"$ERR"
is_true "[ \$(( \$(date +%s) - start )) -lt 60 ]" "gpulab took too long over a forged trace"
is_true "[ \$(wc -c <\"$OUT\") -lt 200000 ]" "a forged trace printed $(wc -c <"$OUT") bytes"
any_has "session-goes-on"
no_procs

# ------------------------------------------------------------ files gpulab reads
mkfifo fifo.cu fifo.gl fifo.pgm
for c in "code fifo.cu" "open fifo.cu" "source fifo.gl" "set image fifo.pgm" "check 1 fifo.cu" "code /dev/zero"; do
    name="not-regular: $c"; start=$(date +%s)
    g 1 -c "$c"
    any_has "not a regular file"
    is_true "[ \$(( \$(date +%s) - start )) -lt 20 ]" "$c waited"
done
printf '#include "fifo.cuh"\nint main() { return 0; }\n' >"${ID}_hdr.cu"
mkfifo fifo.cuh
name="fifo-header"; start=$(date +%s); g 1 -c "set backend sim; open ${ID}_hdr.cu; run"
any_has "fifo.cuh: it is not a regular file"
is_true "[ \$(( \$(date +%s) - start )) -lt 20 ]" "a FIFO header held the build"
head -c $((9 << 20)) /dev/zero | tr '\0' 'a' >big.cu
name="too-large"; g 1 -c "code big.cu"; any_has "too large"
name="time-limit-max"; g 1 -c "set time-limit 0"; any_has "seconds from 0.1 to 3600"

# ------------------------------------------------------------ lectures
mkdir -p "$TMP/lec"
prog "$TMP/lec/inside.cu" "    printf(\"inside runs\\n\");"
prog "$TMP/outside/other.cu" "    printf(\"OUTSIDE RAN\\n\");"
cat >"$TMP/lec/pwn.md" <<'MD'
---
title: Pwn
---
## a
```gpulab
open pwn.md
code /etc/passwd
open ../outside/other.cu
check 1 ../outside/other.cu
source /etc/passwd
set image /etc/passwd
set sandbox off
set time-limit 3000
open inside.cu
run
```
MD
name="lecture"; (cd "$TMP/lec" && timeout 300 "$GPULAB" --no-color --lecture pwn.md --rehearse </dev/null >"$OUT" 2>"$ERR")
any_has "pwn.md is not a .cu or .cuh file"
any_has "outside the lesson's folder"
any_has "cannot turn the sandbox off"
any_has "a lesson or lecture sets at most that"
any_has "inside runs"
is_true "! grep -q 'OUTSIDE RAN\\|root:' \"$OUT\" \"$ERR\"" "the lecture reached a file outside its folder"
no_procs

# ------------------------------------------------------------ gpulab ends
# gpulab in a mount namespace of its own whose /tmp is an empty folder of
# this test's, so a temporary file it leaves is seen (other sessions on
# this machine leave theirs in the real /tmp)
mkdir -p "$TMP/faketmp/work"
cp "${ID}_spin.cu" "$TMP/faketmp/work/"
PRIV=0
unshare -rm --propagation private true 2>/dev/null && PRIV=1
[ $PRIV = 0 ] && echo "NOT CHECKED here: temporary files left in /tmp (unshare -rm is refused)"
# a build tree under /tmp would be hidden by the empty /tmp
case $(readlink -f "$GPULAB") in /tmp/*)
    [ $PRIV = 1 ] && echo "NOT CHECKED here: temporary files left in /tmp (gpulab itself is under /tmp)"
    PRIV=0 ;;
esac
# (a shell starts background commands with SIGINT and SIGQUIT ignored,
# which gpulab then keeps ignored, as after nohup: env puts them back)
for sig in TERM HUP QUIT KILL; do
    name="gpulab-killed-$sig"
    if [ $WHOLE = 0 ] && [ $sig = KILL ]; then
        echo "NOT CHECKED here: gpulab killed by SIGKILL (without a PID namespace a child the program"
        echo "started in a new session outlives it)"
        continue
    fi
    line="set backend sim; set time-limit 200; open ${ID}_spin.cu; run"
    if [ $PRIV = 1 ]; then
        env --default-signal=QUIT,INT unshare -rm --propagation private sh -c 'mount --bind "$1" /tmp && cd /tmp/work && shift &&
            HOME=/tmp/work XDG_CACHE_HOME=/tmp/work/cache XDG_STATE_HOME=/tmp/work/state exec "$@"' \
            sh "$TMP/faketmp" "$GPULAB" --no-color -c "$line" </dev/null >"$OUT" 2>"$ERR" &
    else
        env --default-signal=QUIT,INT "$GPULAB" --no-color -c "$line" </dev/null >"$OUT" 2>"$ERR" &
    fi
    gp=$!
    # the program's command line starts with its name (argv[0])
    for i in $(seq 300); do pgrep -f "^${ID}_spin" >/dev/null && break; sleep 0.1; done
    is_true "pgrep -f \"^${ID}_spin\" >/dev/null" "the program did not start"
    kill -$sig $gp
    wait $gp 2>/dev/null
    sleep 1
    no_procs
done
# what is there: only the folder of the program (with its HOME and cache),
# and in the cache no half-built program
is_true "[ \"\$(ls -A \"$TMP/faketmp\")\" = work ]" "temporary files were left in /tmp: $(ls -A "$TMP/faketmp" | head -3)"
is_true "[ -z \"\$(find \"$TMP/faketmp\" \"$XDG_CACHE_HOME\" -name 'prog.*' 2>/dev/null)\" ]" \
    "a half-built program was left in the cache"

echo "sandbox attacks: $pass passed, $fail failed"
[ $fail -eq 0 ]
