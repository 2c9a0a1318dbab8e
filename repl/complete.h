/* complete.h - completion candidates for the prompt (complete.c). */
#ifndef GPULAB_COMPLETE_H
#define GPULAB_COMPLETE_H

#include "repl/cmd.h"

struct session;

/* Helpers for custom completers: every ALGO/ and ALGO/VARIANT; the variants
 * of the current algorithm. */
void cmp_algos(struct cmp_list *out);
void cmp_variants(struct session *s, struct cmp_list *out);

/* All candidates for the word that starts at byte `start` of line (text is
 * that partial word). The caller filters by prefix. *files is set when file
 * names are the right completion. Returns the number of candidates. */
int cmp_candidates(struct session *s, const char *line, int start, const char *text,
                   struct cmp_list *out, int *files);

#endif
