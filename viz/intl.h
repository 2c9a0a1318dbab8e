/* intl.h - marking the words a learner reads for translation (GNU gettext).
 *
 * _("text") translates where the text is used. N_("text") only marks a
 * string that sits in a static table (command help, counter names) so that
 * xgettext finds it; the code that shows it translates it with _().
 *
 * repl/i18n.c chooses the language and binds the catalogs once at start.
 * Until then (the unit tests), and in English, gettext gives the text back
 * unchanged, so the English goldens stay what they are. Only text for a
 * person is marked: JSON keys, CSV headers, command, setting and variant
 * names, and file names stay as they are, since scripts read them. */
#ifndef GPULAB_INTL_H
#define GPULAB_INTL_H

#include <libintl.h>

#undef _
#define _(s) gettext(s)
#ifndef N_
#define N_(s) (s)
#endif

/* The translation of s, a string marked with N_ where it is defined. NULL
 * and "" stay as they are: gettext("") is the catalog's header. */
static inline const char *intl_tr(const char *s) { return s && *s ? gettext(s) : s; }

#endif
