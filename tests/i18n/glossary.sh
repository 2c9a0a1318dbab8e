#!/bin/bash
# glossary.sh - every language uses the terms of its glossary (docs/languages.md,
# "Glossary"): each term appears in the language's catalog or lessons, and no
# word of a row's "not" column appears in the catalog's translations (obsolete
# entries left out) or in the lessons' and puzzle skeletons' text (accepted
# answers, `answer:` lines, left out: students may type the other word).
#
# Usage: glossary.sh SOURCE_DIR MSGATTRIB
# It first proves it can fail: copies with a "not" word put into a lesson or
# into a catalog, and one whose glossary names a term nobody uses, must all be
# refused.
set -u
src=$1
msgattrib=$2
export LC_ALL=C.UTF-8
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The rows of one language's table: "term<TAB>not" lines.
rows() { # DOC LANG
    awk -v lang="$2" '
        /^## / { in_g = ($0 ~ /^## Glossary/) ; sec = "" ; next }
        in_g && /^### / { sec = $2 ; next }
        in_g && sec == lang && /^\|/ {
            n = split($0, c, "|")
            if (n < 5) next
            t = c[3]; x = c[4]
            gsub(/^ +| +$/, "", t); gsub(/^ +| +$/, "", x)
            if (t == "term" || t ~ /^-+$/) next
            print t "\t" x
        }' "$1"
}

langs() { awk '/^## /{g=($0 ~ /^## Glossary/)} g && /^### /{print $2}' "$1"; }

# check ROOT: 0 when every language keeps its glossary; messages on stdout.
check() {
    local root=$1 bad=0 lang text
    local doc="$root/docs/languages.md"
    local n
    n=$(langs "$doc" | wc -l)
    if [ "$n" -lt 4 ]; then echo "FAIL: $doc has $n glossary tables (uk, sl, zh, de expected)"; return 1; fi
    for lang in $(langs "$doc"); do
        text="$tmp/text-$lang"
        # the translations (msgstr and its continuation lines), one a line
        "$msgattrib" --no-obsolete --no-wrap "$root/po/$lang.po" 2>/dev/null |
            awk '/^msgstr/ { on = 1; sub(/^msgstr(\[[0-9]+\])? /, ""); }
                 /^(msgid|#)/ || /^$/ { on = 0 }
                 on && /^"/ { s = substr($0, 2, length($0) - 2); gsub(/\\n/, " ", s); print s }' >"$text.po" ||
            { echo "FAIL $lang: cannot read po/$lang.po"; bad=1; continue; }
        [ -s "$text.po" ] || { echo "FAIL $lang: po/$lang.po has no translations"; bad=1; continue; }
        : >"$text.les"
        for f in "$root/lessons/$lang"/*.md "$root/lessons/$lang"/puzzles/*.cu; do
            [ -f "$f" ] || continue
            grep -v '^answer:' "$f" | sed "s|^|${f#"$root"/}: |" >>"$text.les"
        done
        while IFS=$'\t' read -r term nots; do
            # a term may name alternatives ("GPE, CPE", "a / b"): each must occur
            while IFS= read -r t; do
                t=$(printf '%s' "$t" | sed 's/ *(.*)$//; s/^ *//; s/ *$//')
                [ -n "$t" ] || continue
                if ! grep -qF -- "$t" "$text.po" "$text.les"; then
                    echo "FAIL $lang: the glossary's term \"$t\" is used nowhere in po/$lang.po or lessons/$lang"
                    bad=1
                fi
            done < <(printf '%s\n' "$term" | sed 's| / |\n|g; s|, |\n|g')
            while IFS= read -r w; do
                w=$(printf '%s' "$w" | sed 's/^ *//; s/ *$//')
                [ -n "$w" ] || continue
                if grep -qwF -- "$w" "$text.po"; then
                    echo "FAIL $lang: po/$lang.po says \"$w\" where the glossary has \"$term\":"
                    grep -wF -- "$w" "$text.po" | head -3 | sed 's/^/    /'
                    bad=1
                fi
                if grep -qwF -- "$w" "$text.les"; then
                    echo "FAIL $lang: a lesson says \"$w\" where the glossary has \"$term\":"
                    grep -wF -- "$w" "$text.les" | head -3 | sed 's/^/    /'
                    bad=1
                fi
            done < <(printf '%s\n' "$nots" | sed 's|, |\n|g')
        done < <(rows "$doc" "$lang")
    done
    return $bad
}

# The checker must be able to fail: a copy of the tree with a forbidden word
# in a German lesson, and one whose Slovenian glossary names an unused term.
copy() { # DEST
    mkdir -p "$1/docs" "$1/po"
    cp "$src/docs/languages.md" "$1/docs/"
    cp "$src"/po/*.po "$1/po/"
    cp -r "$src/lessons" "$1/lessons"
}
copy "$tmp/forbidden"
printf '\nDer Speedup heißt hier Beschleunigung.\n' >>"$tmp/forbidden/lessons/de/01-threads-blocks-grids.md"
if check "$tmp/forbidden" >"$tmp/out1"; then
    echo "FAIL: the check let \"Beschleunigung\" through in a German lesson"; exit 1
fi
grep -q 'a lesson says "Beschleunigung"' "$tmp/out1" || { echo "FAIL: the forbidden word was not named:"; cat "$tmp/out1"; exit 1; }
copy "$tmp/catalog"
sed -i 's/^msgstr "Speedup"$/msgstr "Beschleunigung"/' "$tmp/catalog/po/de.po"
if check "$tmp/catalog" >"$tmp/out3"; then
    echo "FAIL: the check let \"Beschleunigung\" through in po/de.po"; exit 1
fi
grep -q 'po/de.po says "Beschleunigung"' "$tmp/out3" || { echo "FAIL: the catalog's forbidden word was not named:"; cat "$tmp/out3"; exit 1; }
copy "$tmp/unused"
sed -i 's/^| thread | nit | |$/| thread | nitka-ki-je-ni | |/' "$tmp/unused/docs/languages.md"
if check "$tmp/unused" >"$tmp/out2"; then
    echo "FAIL: the check accepted a glossary term used nowhere"; exit 1
fi
grep -q 'term "nitka-ki-je-ni" is used nowhere' "$tmp/out2" || { echo "FAIL: the unused term was not named:"; cat "$tmp/out2"; exit 1; }

# The real tree.
if check "$src"; then
    echo "ok: every catalog and lesson keeps its glossary"
    exit 0
fi
exit 1
