/* i18n.h - the language gpulab speaks, and its message catalogs.
 *
 * The marking macros _() and N_() come from viz/intl.h (viz marks its
 * captions too, and viz cannot include repl/). The language is chosen once
 * at start (docs/languages.md):
 *   --lang X  if given (an unknown X is an error that lists the known ones);
 *   else the first entry of LANGUAGE (a colon list) that gpulab knows;
 *   else the language of LC_ALL, LC_MESSAGES or LANG (the first one set)
 *   when gpulab knows it; else English.
 * A language gpulab does not know that comes from the environment means
 * English, silently: the environment describes the whole system. Known
 * languages are en and those that have a catalog or a lessons/LANG folder.
 */
#ifndef GPULAB_I18N_H
#define GPULAB_I18N_H

#include <stddef.h>

#include "viz/intl.h"

/* Take the user's character set and message locale (LC_CTYPE and
 * LC_MESSAGES only: numbers, JSON and CSV keep '.' as the decimal point),
 * choose the language (opt: --lang's value, or NULL) and bind the gpulab
 * text domain. The language lands in lang ("en", "de", ...). 0 when done;
 * -1 when opt names no language gpulab knows, with the message in err
 * ("--lang fr: no such language; there are en, de, sl, uk, zh"). May be
 * called again (after the options are read) with another opt. */
int i18n_init(const char *opt, char *lang, size_t langlen, char *err, size_t errlen);

/* The languages gpulab knows, "en, de, sl, uk, zh": en first, then the
 * others in name order. */
void i18n_languages(char *out, size_t len);

/* Whether gpulab knows language code (en, a catalog, or a lessons folder). */
int i18n_known(const char *code);

/* Where the catalogs are found: $GPULAB_LOCALEDIR, else share/locale beside
 * the program's folder when there is one (a staged bundle: bin/gpulab and
 * share/locale/LANG/LC_MESSAGES/gpulab.mo), else the build tree's locale/. */
const char *i18n_localedir(void);
/* The folder that holds a folder of lessons per language (the lessons are
 * translated as folders): $GPULAB_LESSONS, else the source tree's lessons/. */
const char *i18n_lessondir(void);
/* The gap before the next piece of a sentence that follows text: "" when
 * text ends in full-width punctuation (Chinese "。", "："), which carries its
 * own space, else " ". */
const char *i18n_gap(const char *text);

#endif
