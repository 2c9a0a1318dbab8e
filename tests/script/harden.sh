#!/usr/bin/env bash
# Script tests of the promises in docs/reliability.md, on the real gpulab
# binary: each promise as a hostile user would try it. Crafted
# files (images, lessons, sizes), launches too large for the simulator, a
# lesson that tries to write outside its directory, a symbolic link at an
# export target, a write that fails half-way, directories and NUL bytes as
# scripts, escape sequences in files and typed words, two sessions storing
# lesson progress at once, and the progress file's mode.
#
# usage: harden.sh GPULAB JSONCHECK
set -u
GPULAB=$1
JSONCHECK=$2

HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-harden.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export XDG_STATE_HOME="$TMP/state" HOME="$TMP/home" NO_COLOR=1 GPULAB_NO_GPU=1
mkdir -p "$HOME" "$TMP/work"
cd "$TMP/work" || exit 1

. "$HERE/../common/checks.sh"

# g RC ARGS...: gpulab with ARGS, stdin from /dev/null, expecting exit RC
g() {
    local want=$1
    shift
    timeout 120 "$GPULAB" --no-color "$@" </dev/null >"$OUT" 2>"$ERR"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then bad "exit status $rc, expected $want (args: $*)"; else ok; fi
}
# lecture mode shows a command's output, errors too, indented on stdout
any_has() { if grep -qF -- "$1" "$OUT" "$ERR"; then ok; else bad "the output lacks: $1"; fi; }
# the same, for a message that may be wrapped to the terminal's width
any_says() { if cat "$OUT" "$ERR" | tr -s ' \n' '  ' | grep -qF -- "$1"; then ok; else bad "the output lacks: $1"; fi; }
no_esc() { if grep -q $'\033' "$OUT" "$ERR"; then bad "an ESC byte reached the output"; else ok; fi; }
is_true() { if eval "$1"; then ok; else bad "$2"; fi; }

# ------------------------------------------------------------ crafted images
python3 - <<'EOF'
import struct, zlib
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
open("huge.png", "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 20000, 8, 0, 0, 0, 0)) + chunk(b"IEND", b""))
open("huge.pgm", "wb").write(b"P5\n4294967296 4294967296\n255\n" + b"\x7f" * 4096)
open("short.pgm", "wb").write(b"P5\n8000 8000\n255\n" + b"\x7f" * 100)
EOF
name="png-20000"; g 1 -c "use histogram; set image huge.png; run global"
err_has "20000x20000 is 400000000 pixels"
name="pgm-2^32"; g 1 -c "use histogram; set image huge.pgm; run global"
err_has "4294967296x4294967296 pixels; gpulab reads images of at most 32768 pixels a side"
name="pgm-short"; g 1 -c "use histogram; set image short.pgm; run global"
err_has "truncated: it ends after 100 of its 64000000 pixels"
name="image-dir"; g 1 -c "set image $TMP"
err_has "is a directory, not an image file"

# ------------------------------------------------------------ crafted lessons
printf -- '---\r' >cr1.md
name="lesson-cr"; g 1 -c "lesson cr1.md"; err_has "cr1.md:1: the front matter opened here is never closed"
printf -- '---\rtitle: Old Mac\r---\r## One\rText of one.\r## Two\r```gpulab\recho two\r```\r' >mac.md
name="lesson-cr-ok"; g 0 -c "lesson mac.md; next"; out_has "Old Mac"; out_has "Text of one."
out_has "gpulab> echo two"
mkdir -p lessons/en
cp mac.md lessons/en/01-mac.md
cp cr1.md lessons/en/02-broken.md
name="lessons-list"; GPULAB_LESSONS=$TMP/work/lessons g 0 -c "lessons"
out_has "Old Mac"
python3 -c "print('# Deep\n## a\n' + '>' * 40000 + ' x')" >deep.md
name="lesson-deep"; g 1 -c "lesson deep.md"; err_has "deep.md:3: quotes, lists and emphasis nest deeper than 32 levels"
python3 -c "print('# Deep\n## a\n' + ''.join('  ' * i + '- item\n' for i in range(2000)))" >list.md
name="lesson-list"; g 1 -c "lesson list.md"; err_has "nest deeper than 32 levels"
python3 -c "print('# Long\n## a\n\`\`\`question\nq?\nanswer: ' + 'a' * 509 + ' b\n\`\`\`')" >long.md
name="answer-512"; g 0 -c "lesson long.md; answer $(python3 -c "print('a' * 300 + ' ' + 'b' * 300)")"
err_lacks_crash() { if grep -qE "AddressSanitizer|Segmentation|core dumped" "$ERR"; then bad "crashed"; else ok; fi; }
err_lacks_crash

# ------------------------------------------------------------ sizes
name="size-126-digits"; g 1 -c "set n $(printf '1%.0s' $(seq 126))e5"; err_has "too long"
name="n-2^40"; g 0 -c "use reduce; set n 2^40"
err_has "warning: n = 1099511627776 needs about"
name="n-sim-limit"; g 0 -c "use reduce; set n 2^25"
err_has "past sim-limit"
name="grid-sim-warn"; g 0 -c "use histogram/global; set grid 2147483647"
err_has "threads is past sim-limit"
# every simulator launch checks grid x block against sim-limit, before any work
start=$(date +%s)
# the refusal is the row's footnote under the table (stdout), the error on stderr
name="grid-hist"; g 1 -c "use histogram/global; set grid 2147483647; run global"
out_has "past the simulator's limit"; err_has "global did not run"
name="grid-transpose"; g 1 -c "use transpose/naive2d; set grid 65535x65535; run naive2d"
out_has "past the simulator's limit"; err_has "naive2d did not run"
is_true "[ \$((\$(date +%s) - start)) -lt 60 ]" "the refused launches took more than a minute"

# ------------------------------------------------------------ writes
name="trace-json-only"; g 1 -c "use reduce; trace save steps.txt"; err_has "must end in .json"
is_true "[ ! -e steps.txt ]" "trace save wrote steps.txt"
name="trace-save"; g 0 -c "use reduce; trace save steps.json"
"$JSONCHECK" trace steps.json >/dev/null 2>&1 && ok || bad "steps.json is not a trace"
name="trace-again"; g 0 -c "use reduce; trace save steps.json"; out_has "it replaces the old file"
echo keep >victim.txt
ln -s victim.txt link.csv
name="export-symlink"; g 1 -c "use reduce; set n 2^10; run sequential; export link.csv"
err_has "link.csv: it is a symbolic link"
is_true "[ \"\$(cat victim.txt)\" = keep ]" "the link's target was written"
name="export-dir"; mkdir -p adir.csv; g 1 -c "use reduce; set n 2^10; run sequential; export adir.csv"
err_has "it is a directory"
# a write that fails half-way (the file size limit stands in for a full
# disk) names the reason and leaves the old file whole
name="export-fails"
g 0 -c "use reduce; set n 2^10; sweep block 32,64; export plot.pdf; export rows.csv"
cp plot.pdf plot.before; cp rows.csv rows.before
(trap '' XFSZ; ulimit -f 1; "$GPULAB" --no-color -c "use reduce; set n 2^10; sweep block 32..1024; export plot.pdf" </dev/null >"$OUT" 2>"$ERR"; exit $?)
rc=$?
is_true "[ $rc -eq 1 ]" "a failed PDF export exited $rc"
err_has "cannot write plot.pdf: File too large"
is_true "cmp -s plot.pdf plot.before" "the old plot.pdf was changed"
(trap '' XFSZ; ulimit -f 1; "$GPULAB" --no-color -c "use reduce; set n 2^10; sweep block 32..1024 for interleaved,sequential; export rows.csv" </dev/null >"$OUT" 2>"$ERR"; exit $?)
err_has "cannot write rows.csv: File too large"
is_true "cmp -s rows.csv rows.before" "the old rows.csv was changed"
is_true "[ -z \"\$(ls -A | grep '^[.]')\" ]" "a temporary file was left behind"

# a lesson or lecture writes only below the current directory
mkdir -p "$TMP/elsewhere" sub
ln -s "$TMP/elsewhere" escape
for target in "$HOME/.bashrc.json" "../evil.json" "~/evil.json" "sub/../../evil.json" "escape/evil.json"; do
    printf -- '---\ntitle: Evil\n---\n## a\n```gpulab\nuse reduce\ntrace save %s\n```\n' "$target" >evil.md
    name="lecture-writes $target"; g 1 --lecture evil.md
    any_says "below the current directory"
done
is_true "[ ! -e \"$HOME/.bashrc.json\" ] && [ ! -e ../evil.json ] && [ -z \"\$(ls \"$TMP/elsewhere\")\" ]" "a lecture wrote outside"
printf -- '---\ntitle: Fine\n---\n## a\n```gpulab\nuse reduce\ntrace save sub/steps.json\n```\n' >fine.md
name="lecture-writes-inside"; g 0 --lecture fine.md
is_true "[ -s sub/steps.json ]" "the lecture could not write sub/steps.json"
printf 'use reduce\nset n 2^10\nrun sequential\nexport /tmp/evil-%s.csv\n' "$$" >evil.gl
name="lecture-script"; g 1 --lecture evil.gl; any_has "not a relative path"

# a path that is not UTF-8 is kept in JSON exports
printf 'P5\n2 2\n255\n\001\002\003\004' >"$(printf 'caf\xe9.pgm')"
name="json-not-utf8"; g 0 -c "use histogram; set image $(printf 'caf\xe9.pgm'); run cpu-seq; export r.json"
python3 -c "import json, sys; json.load(open(sys.argv[1]))" r.json && ok || bad "r.json is not JSON"
is_true "grep -qF 'caf\\\\xe9.pgm' r.json" "the image path is not in r.json"

# ------------------------------------------------------------ input
name="gpulab-dir"; g 1 "$TMP"; err_has "is a directory, not a script"
name="stdin-dir"; timeout 20 "$GPULAB" --no-color <"$TMP" >"$OUT" 2>"$ERR"; rc=$?
is_true "[ $rc -eq 1 ]" "gpulab < DIR exited $rc"; err_has "standard input is a directory"
name="source-dir"; g 1 -c "source $TMP"; err_has "is a directory, not a script"
name="stdin-device"; timeout 20 "$GPULAB" --no-color </dev/zero >"$OUT" 2>"$ERR"; rc=$?
is_true "[ $rc -eq 1 ]" "gpulab < /dev/zero exited $rc"; err_has "a device, not a script"
name="nul"; printf 'echo before\nset n 1\0e9\necho after\n' | timeout 20 "$GPULAB" --no-color >"$OUT" 2>"$ERR"; rc=$?
is_true "[ $rc -eq 1 ]" "a NUL byte exited $rc"
err_has "line 2 of stdin: a NUL byte at column 8"
out_has "before"
is_true "! grep -q after \"$OUT\"" "the script went on after a NUL byte"
printf 'use reduce\r\nset n 2^10\rshow\n' >crlf.gl
name="script-cr"; g 0 crlf.gl; out_has "1Ki (1024)"

# ------------------------------------------------------------ escapes
printf -- '---\ntitle: \033]52;c;ZXZpbA==\007Clip\n---\n## \033[2JStep\n\nText \033[31mred\302\233m.\n' >esc.md
name="lesson-escapes"; g 0 -c "lesson esc.md"; no_esc; out_has "^[]52;c;ZXZpbA==^GClip"; out_has "^[[2JStep"
out_has "^[[31mred^[[m."
name="echo-escapes"; g 1 -c "$(printf 'frob\033[2J')"; no_esc; err_has 'unknown command "frob^[[2J"'
name="echo-word-escapes"; g 0 -c "$(printf 'echo \033[2J')"; no_esc; out_has "^[[2J"

# ------------------------------------------------------------ progress
name="progress-mode"; g 0 -c "lesson 1"
is_true "[ \"\$(stat -c %a \"$XDG_STATE_HOME/gpulab/progress\")\" = 600 ]" "the progress file is not 0600"
# two sessions at once, each opening 300 lessons of its own: each lesson's
# progress line is written once, so a lost update would lose it for good
rm -f "$XDG_STATE_HOME/gpulab/progress"
mkdir -p many
for who in a b; do
    cmds=""
    for i in $(seq -w 1 300); do
        printf -- '# L %s%s\n## s\nx\n' "$who" "$i" >"many/$who$i.md"
        cmds="$cmds lesson many/$who$i.md;"
    done
    "$GPULAB" --no-color -c "$cmds" </dev/null >/dev/null 2>&1 &
done
wait
lines=$(wc -l <"$XDG_STATE_HOME/gpulab/progress")
name="progress-concurrent"; is_true "[ $lines -eq 600 ]" "the progress file has $lines of the 600 lessons' lines"

echo "harden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
