#!/bin/sh
# Refresh the message catalogs from the sources: po/gpulab.pot by xgettext
# (the strings marked _("..."), N_("..."), ngettext, kernels/' L_("...") in
# their .c, .h, .cu and .cuh files
# and viz_info_counter's names; viz/intl.h, kernels/intl.h), then every language
# of po/LINGUAS merged with it (msgmerge keeps what is translated, marks what
# changed as fuzzy, adds what is new untranslated; msginit starts a missing
# one). Run from anywhere: po/update.sh, or `make -C build pot`.
# A catalog is checked with: msgfmt --check --statistics -o /dev/null po/LANG.po
# With --pot FILE: only the template, written to FILE (the tests compare
# the catalogs with the sources this way; an absolute path).
set -eu
pot=po/gpulab.pot
if [ "${1:-}" = --pot ]; then pot=$2; fi
cd "$(dirname "$0")/.."
version=$(sed -n 's/^project(gpulab VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
# The printf-like functions: a string marked inside their format argument
# is a C format, which msgfmt --check then holds the translation to. A
# counter's name (viz_info_counter's second argument) is a message too.
xgettext --language=C --from-code=UTF-8 --add-comments=TRANSLATORS: \
    --keyword=_ --keyword=N_ --keyword=ngettext:1,2 --keyword=viz_info_counter:2 --keyword=L_ \
    --flag=out_printf:1:c-format --flag=out_note:1:c-format --flag=out_warn:1:c-format \
    --flag=out_progress:1:c-format --flag=out_error:2:c-format --flag=out_wrapf:3:c-format \
    --flag=sess_error:3:c-format --flag=sess_error_at:4:c-format \
    --flag=viz_info_title:2:c-format --flag=viz_info_caption:2:c-format \
    --flag=canvas_printf:6:c-format --flag=fail:5:c-format --flag=seterr:3:c-format \
    --flag=sp_fail:2:c-format \
    --package-name=gpulab --package-version="$version" --msgid-bugs-address="gpulab's issues" \
    --output="$pot" \
    repl/*.c repl/*.h repl/*/*.c repl/*/*.h viz/*.c viz/*.h kernels/lab.c kernels/*.h kernels/*/*.c kernels/*/*.h \
    kernels/*/*.cu kernels/*/*.cuh
[ "$pot" = po/gpulab.pot ] || exit 0
for lang in $(grep -v '^#' po/LINGUAS); do
    if [ -f "po/$lang.po" ]; then
        msgmerge --quiet --update --backup=none "po/$lang.po" po/gpulab.pot
    else
        msginit --no-translator --locale="$lang" --input=po/gpulab.pot --output-file="po/$lang.po"
        # msginit takes the character set from an installed locale (often
        # none: ASCII) and knows no plural rule for some languages (zh).
        sed -i 's/charset=ASCII/charset=UTF-8/; s/charset=CHARSET/charset=UTF-8/' "po/$lang.po"
        if grep -q 'nplurals=INTEGER' "po/$lang.po"; then
            case $lang in
            zh|ja|ko|vi|th) rule='nplurals=1; plural=0;' ;;
            *) rule=''; echo "po/$lang.po: write its Plural-Forms line by hand" >&2 ;;
            esac
            [ -n "$rule" ] && sed -i "s/nplurals=INTEGER; plural=EXPRESSION;/$rule/" "po/$lang.po"
        fi
    fi
done
echo "po/gpulab.pot: $(grep -c '^msgid ' po/gpulab.pot) messages (the first is the header)"
