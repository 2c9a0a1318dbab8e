#!/bin/sh
# The message catalogs of po/.
#   catalogs.sh check SRCDIR MSGFMT            each po/LANG.po of po/LINGUAS
#       exists, compiles, and its translations keep their C formats
#       (msgfmt --check); the header names the language and UTF-8.
#   catalogs.sh complete SRCDIR MSGFMT MSGCMP  each is complete: no message
#       untranslated or fuzzy (msgfmt --statistics), and none of the
#       sources' messages missing (msgcmp against a fresh po/update.sh --pot).
set -u
mode=$1 src=$2 msgfmt=$3 msgcmp=${4:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-po.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
langs=$(grep -v '^#' "$src/po/LINGUAS")
[ -n "$langs" ] || { echo "FAIL: po/LINGUAS names no language"; exit 1; }
if [ "$mode" = complete ]; then
    sh "$src/po/update.sh" --pot "$tmp/fresh.pot" 2>/dev/null || { echo "FAIL: po/update.sh --pot"; exit 1; }
fi
for lang in $langs; do
    po="$src/po/$lang.po"
    if [ ! -f "$po" ]; then
        echo "FAIL $lang: po/LINGUAS names it, but there is no po/$lang.po (po/update.sh makes one)"
        fails=$((fails + 1))
        continue
    fi
    stats=$(LC_ALL=C "$msgfmt" --check --statistics -o "$tmp/$lang.mo" "$po" 2>&1)
    if [ $? -ne 0 ]; then
        echo "FAIL $lang: msgfmt --check po/$lang.po:"
        echo "$stats"
        fails=$((fails + 1))
        continue
    fi
    if [ "$mode" = check ]; then
        grep -q '^"Language: '"$lang"'\\n"' "$po" || { echo "FAIL $lang: its header lacks Language: $lang"; fails=$((fails + 1)); }
        grep -q 'charset=UTF-8' "$po" || { echo "FAIL $lang: its header lacks charset=UTF-8"; fails=$((fails + 1)); }
        grep -q '^"Plural-Forms: nplurals=[0-9]' "$po" || { echo "FAIL $lang: its header lacks Plural-Forms"; fails=$((fails + 1)); }
        echo "ok   $lang: $stats"
        continue
    fi
    case $stats in
    *untranslated*|*fuzzy*)
        echo "FAIL $lang: po/$lang.po is not complete: $stats"
        echo "     translate the empty and fuzzy messages (docs/languages.md says how)"
        fails=$((fails + 1))
        continue ;;
    esac
    if [ -n "$msgcmp" ] && ! "$msgcmp" "$po" "$tmp/fresh.pot" >"$tmp/cmp" 2>&1; then
        echo "FAIL $lang: po/$lang.po lacks messages the sources have (run po/update.sh, then translate them):"
        head -20 "$tmp/cmp"
        fails=$((fails + 1))
        continue
    fi
    echo "ok   $lang: complete ($stats)"
done
exit $((fails > 0))
