#!/usr/bin/env bash
# Languages on the real binary (docs/languages.md): --lang and the
# environment choose; an unknown --lang is an error that lists the known
# languages, an unknown language from the environment means English; a
# marked message, a plural, a table header, an animation counter and a
# kernel-side error come from the catalog; a lesson the language lacks
# opens in English with a note; numbers keep their '.' in a German locale;
# a staged bundle finds its catalogs beside bin/.
#
# The catalog is this test's own (GPULAB_LOCALEDIR), so the test does not
# wait for the real translations.
#
# usage: lang.sh GPULAB MSGFMT SRCDIR [LOCALEDEF]
set -u
GPULAB=$1
MSGFMT=$2
LOCALEDEF=${4:-}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-i18n.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export XDG_STATE_HOME="$TMP/state" HOME="$TMP/home" NO_COLOR=1
mkdir -p "$HOME"
cd "$TMP" || exit 1
. "$3/../common/checks.sh"
# Every command below says its language itself.
unset LANGUAGE LC_ALL LC_MESSAGES
export LANG=C.UTF-8

# g RC ARGS...: run gpulab (stdin from /dev/null), expect exit RC.
g() {
    local want=$1
    shift
    "$@" </dev/null >"$OUT" 2>"$ERR"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then bad "exit status $rc, expected $want (args: $*)"; else ok; fi
}

# ------------------------------------------------------- a tiny catalog
mkdir -p "$TMP/locale/de/LC_MESSAGES"
cat > "$TMP/de.po" <<'PO'
msgid ""
msgstr ""
"Language: de\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "usage: gpulab [OPTIONS] [SCRIPT]\n"
msgstr "Aufruf: gpulab [OPTIONEN] [SKRIPT]\n"

msgid "error:"
msgstr "Fehler:"

#, c-format
msgid "unknown command \"%s\" (help lists the commands)"
msgstr "unbekannter Befehl „%s“ (help zeigt die Befehle)"

#, c-format
msgid "%d step; `next`, `back` and `again` move through it."
msgid_plural "%d steps; `next`, `back` and `again` move through them."
msgstr[0] "%d Schritt; `next`, `back` und `again` gehen hindurch."
msgstr[1] "%d Schritte; `next`, `back` und `again` gehen hindurch."

msgid "variant"
msgstr "Variante"

msgid "active threads"
msgstr "aktive Threads"

#, c-format
msgid "%s/%s needs block to be a power of two in %d..%d (%d is not; try %lld or %lld)"
msgstr "%s/%s braucht als Block eine Zweierpotenz in %d..%d (%d ist keine; versuche %lld oder %lld)"
PO
"$MSGFMT" --check -o "$TMP/locale/de/LC_MESSAGES/gpulab.mo" "$TMP/de.po" || { echo "FAIL: msgfmt"; exit 1; }
L="$TMP/locale"

# Lessons: English has two, German only the first.
mkdir -p "$TMP/lessons/en" "$TMP/lessons/de" "$TMP/lessons-en/en"
lesson() { printf -- '---\ntitle: %s\n---\n\n## %s\n\nText.\n\n## %s\n\nMore text.\n' "$2" "$3" "$4" > "$1"; }
lesson "$TMP/lessons/en/01-one.md" "One" "First" "Second"
lesson "$TMP/lessons/en/02-two.md" "Two" "First" "Second"
lesson "$TMP/lessons/de/01-one.md" "Eins" "Erster" "Zweiter"
cp "$TMP/lessons/en/"*.md "$TMP/lessons-en/en/"

# --------------------------------------------------- choosing a language
name="lang-unknown"
g 2 env GPULAB_LOCALEDIR="$L" GPULAB_LESSONS="$TMP/lessons" "$GPULAB" --lang fr -c "echo x"
err_has "--lang fr: no such language; there are en, de"
out_lacks "x"
name="lang-unknown-real"   # the shipped catalogs and lessons
g 2 "$GPULAB" --lang xx -c "echo x"
err_has "--lang xx: no such language; there are en, de, sl, uk, zh"
name="lang-de-flag";   g 0 env GPULAB_LOCALEDIR="$L" "$GPULAB" --lang de --help; out_has "Aufruf: gpulab [OPTIONEN] [SKRIPT]"
name="lang-de-after";  g 0 env GPULAB_LOCALEDIR="$L" "$GPULAB" --help --lang de; out_has "Aufruf: gpulab"
name="lang-en-flag";   g 0 env GPULAB_LOCALEDIR="$L" LANGUAGE=de "$GPULAB" --lang en --help; out_has "usage: gpulab [OPTIONS]"
name="env-LANGUAGE";   g 0 env GPULAB_LOCALEDIR="$L" LANGUAGE=de "$GPULAB" --help; out_has "Aufruf: gpulab"
name="env-LANGUAGE-list"; g 0 env GPULAB_LOCALEDIR="$L" LANGUAGE=fr:de_AT:en "$GPULAB" --help; out_has "Aufruf: gpulab"
name="env-LANG";       g 0 env GPULAB_LOCALEDIR="$L" LANG=de_DE.UTF-8 "$GPULAB" --help; out_has "Aufruf: gpulab"
name="env-LC_ALL";     g 0 env GPULAB_LOCALEDIR="$L" LC_ALL=de_CH.UTF-8 LANG=en_US.UTF-8 "$GPULAB" --help; out_has "Aufruf: gpulab"
name="env-LC_MESSAGES"; g 0 env GPULAB_LOCALEDIR="$L" LC_MESSAGES=de_DE LANG=C "$GPULAB" --help; out_has "Aufruf: gpulab"
name="env-unknown";    g 0 env GPULAB_LOCALEDIR="$L" LANGUAGE=fr LANG=fr_FR.UTF-8 "$GPULAB" --help
out_has "usage: gpulab [OPTIONS]"
if [ -s "$ERR" ]; then bad "an unknown language from the environment said something"; else ok; fi
name="env-C";          g 0 env GPULAB_LOCALEDIR="$L" LANG=C "$GPULAB" --help; out_has "usage: gpulab [OPTIONS]"

# ------------------------------------------------ messages from the catalog
name="error";  g 1 env GPULAB_LOCALEDIR="$L" "$GPULAB" --lang de -c "frob"
err_has "Fehler: unbekannter Befehl „frob“ (help zeigt die Befehle)"
err_has "^"
name="kernel-error"; g 1 env GPULAB_LOCALEDIR="$L" "$GPULAB" --lang de -c "use reduce/sequential; set block 100"
err_has "reduce/sequential braucht als Block eine Zweierpotenz in 32..1024 (100 ist keine; versuche 64 oder 128)"
name="header"; g 0 env GPULAB_LOCALEDIR="$L" "$GPULAB" --lang de -c "use reduce/sequential; set n 1024; run"
out_has "Variante"
name="counter"; g 0 env GPULAB_LOCALEDIR="$L" "$GPULAB" --lang de -c "use reduce/sequential; set n 64; animate"
out_has "aktive Threads"
name="english-again"; g 1 env GPULAB_LOCALEDIR="$L" "$GPULAB" -c "frob"
err_has "error: unknown command \"frob\""

# ------------------------------------------------------------- lessons
name="lessons-de"
g 0 env GPULAB_LOCALEDIR="$L" GPULAB_LESSONS="$TMP/lessons" "$GPULAB" --lang de -c "lessons"
out_has "Eins"; out_has "Two"; out_lacks "One"
err_has "lesson 2 is not written in de yet: it opens in English"
name="lesson-de"; g 0 env GPULAB_LOCALEDIR="$L" GPULAB_LESSONS="$TMP/lessons" "$GPULAB" --lang de -c "lesson 1"
out_has "Eins"; out_has "2 Schritte"
err_lacks "not written in"
name="lesson-missing"; g 0 env GPULAB_LOCALEDIR="$L" GPULAB_LESSONS="$TMP/lessons" "$GPULAB" --lang de -c "lesson two"
out_has "Two"
err_has "lesson 02-two is not written in de yet: it opens in English"
if [ "$(grep -c 'in English' "$ERR")" -eq 1 ] && [ "$(grep -A1 'in English' "$ERR" | grep -c '^  ')" -eq 0 ]; then
    ok
else
    bad "the note is not one line"
fi
name="lessons-no-folder"
g 0 env GPULAB_LOCALEDIR="$L" GPULAB_LESSONS="$TMP/lessons-en" "$GPULAB" --lang de -c "lessons; lessons"
out_has "One"; out_has "Two"
err_has "there are no lessons in de yet: these are the English ones"
if [ "$(grep -c 'no lessons in de' "$ERR")" -eq 1 ]; then ok; else bad "the note is said more than once"; fi
name="lessons-en"; g 0 env GPULAB_LESSONS="$TMP/lessons" "$GPULAB" -c "lessons"
out_has "One"; out_lacks "Eins"
err_lacks "in English"

# ------------------------------------------- a staged bundle's catalogs
mkdir -p "$TMP/bundle/bin" "$TMP/bundle/share/locale"
cp "$GPULAB" "$TMP/bundle/bin/gpulab"
cp -R "$L/." "$TMP/bundle/share/locale/"
name="bundle"; g 0 "$TMP/bundle/bin/gpulab" --lang de --help; out_has "Aufruf: gpulab"

# ------------------------------------------------ numbers keep their '.'
# A German locale of our own (LOCPATH), when localedef can make one: its
# decimal comma must not reach gpulab's numbers, JSON or CSV.
# ------------------------------------------- the shipped catalogs: no English
# words inside a translated screen but names (docs/languages.md)
name="zh-traditional"; g 0 env LANGUAGE= LANG=zh_TW.UTF-8 "$GPULAB" --help; out_has "usage: gpulab [OPTIONS]"
name="zh-simplified";  g 0 env LANGUAGE= LANG=zh_CN.UTF-8 "$GPULAB" --help; out_has "用法：gpulab"
name="zh-tw-flag";     g 2 "$GPULAB" --lang zh_TW -c "echo x"; err_has "--lang zh_TW: no such language"
# a result cell kernels/ writes (transpose: "transposed") is a word of the catalog,
# and stays English in JSON
name="result-cell-uk"; g 0 "$GPULAB" --lang uk -c "use transpose/naive; set n 32; set repeats 1; run naive"
out_has "транспоновано"; out_lacks "transposed"
name="result-cell-json"; g 0 "$GPULAB" --lang uk --json -c "use transpose/naive; set n 32; set repeats 1; run naive"
out_has '"transposed"'
# without a GPU, why not: the device's reason is translated too
name="no-gpu-reason"
both_has() { if cat "$OUT" "$ERR" | grep -qF -- "$1"; then ok; else bad "stdout and stderr lack: $1"; fi; }
both_lacks() { if cat "$OUT" "$ERR" | grep -qF -- "$1"; then bad "stdout or stderr has: $1"; else ok; fi; }
g 0 "$GPULAB" --lang en -c "device"
if cat "$OUT" "$ERR" | grep -q "no NVIDIA driver"; then
    g 0 "$GPULAB" --lang uk -c "device"; both_has "немає драйвера NVIDIA"; both_lacks "no NVIDIA driver"
    g 0 "$GPULAB" --lang de -c "device"; both_has "kein NVIDIA-Treiber"; both_lacks "no NVIDIA driver"
fi
# a puzzle skeleton's header speaks the language of its body
name="puzzle-header-de"; g 0 "$GPULAB" --lang de -c "puzzle 2"
if grep -q "^// Rätsel 2" puzzles/02-zip.cu && grep -q "^// Grenzen:" puzzles/02-zip.cu &&
   ! grep -q "^// Limits:" puzzles/02-zip.cu; then ok; else bad "the German skeleton's header is not German"; fi

name="numeric"
mkdir -p "$TMP/loc"
[ -n "$LOCALEDEF" ] && "$LOCALEDEF" -i de_DE -f UTF-8 "$TMP/loc/de_DE.UTF-8" >/dev/null 2>&1
if [ -d "$TMP/loc/de_DE.UTF-8" ] && [ "$(LOCPATH="$TMP/loc" LC_ALL=de_DE.UTF-8 bash -c "printf '%.1f' 0,5" 2>/dev/null)" = "0,5" ]; then
    export LOCPATH="$TMP/loc"
    g 0 env LANG=de_DE.UTF-8 "$GPULAB" -c "set value 1.5; show value"
    out_has "value = 1.5"
    g 0 env LC_ALL=de_DE.UTF-8 "$GPULAB" --json -c "use reduce/sequential; set n 1024; set repeats 2; run"
    if grep -qE '"ms": ?[0-9]+\.[0-9]' "$OUT" && ! grep -qE '"ms": ?[0-9]+,[0-9]' "$OUT"; then ok; else bad "JSON ms without a '.'"; fi
    g 0 env LANG=de_DE.UTF-8 "$GPULAB" -c "use reduce/sequential; set n 1024; run; export t.csv"
    if grep -qE '[0-9]\.[0-9]' t.csv && ! grep -qE '"[0-9]+,[0-9]+"' t.csv; then ok; else bad "CSV numbers without a '.'"; fi
    if grep -qE ' [0-9]+\.[0-9]+\*? ' "$OUT"; then ok; else bad "the table's times without a '.'"; fi
    unset LOCPATH
else
    echo "note: no de_DE locale could be made (localedef): the decimal point check is left out"
fi

echo
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
