/* intl.h - the words of kernels/ that a person reads, marked for
 * translation (po/, xgettext) without kernels/ knowing anything of
 * languages or of libintl.
 *
 * N_("text") marks a variant's summary and idea in a family's *_algo.c: it
 * does nothing here; the REPL translates the text with _() where it shows
 * it (viz/intl.h defines the same N_).
 *
 * L_("format") is a message kernels/ formats itself (lab_validate's): it
 * goes through the translator the REPL gave lab_set_translate(), and stays
 * English until one is given (the unit tests). */
#ifndef GPULAB_KERNELS_INTL_H
#define GPULAB_KERNELS_INTL_H

#ifndef N_
#define N_(s) (s)
#endif

#ifdef __cplusplus
extern "C" {
#endif
const char *lab_tr(const char *msgid) __attribute__((format_arg(1)));
/* The REPL's translator for L_ (gettext); NULL: English. */
void lab_set_translate(const char *(*fn)(const char *msgid));
#ifdef __cplusplus
}
#endif
#define L_(s) lab_tr(s)

#endif
