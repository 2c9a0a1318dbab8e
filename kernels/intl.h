/* intl.h - N_("text") marks a variant's summary and idea for translation
 * (po/, xgettext) in a family's *_algo.c. It does nothing here: kernels/
 * knows nothing of languages. The REPL translates the text with _() where
 * it shows it (viz/intl.h defines the same N_). */
#ifndef GPULAB_KERNELS_INTL_H
#define GPULAB_KERNELS_INTL_H

#ifndef N_
#define N_(s) (s)
#endif

#endif
