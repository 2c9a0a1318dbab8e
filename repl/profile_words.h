/* profile_words.h - the parts of `profile` shared by its three files:
 * cmd_profile.c (the command, the simulator's counts, the last profile and
 * its export), profile_ncu.c (the counts of Nsight Compute on a GPU) and
 * profile_words.c (the words, the tables and the JSON of both). */
#ifndef GPULAB_PROFILE_WORDS_H
#define GPULAB_PROFILE_WORDS_H

#include <jansson.h>

#include "kernels/lab.h"
#include "kernels/profile/profile.h"

struct session;

/* What export writes after a profile: one row per launch group and source. */
typedef struct prof_row {
    char algo[LAB_NAME_MAX], variant[LAB_NAME_MAX];
    char source[16];             /* "simulator" or "ncu" */
    prof_counts c;
    int have_est;
    prof_estimate est;
    char model[LAB_NAME_MAX];
    long long n;
} prof_row;

/* Append r to the growing array *rows (*n used, *cap allocated): 0 ok, -1
 * out of memory. */
int profile_rows_add(prof_row **rows, int *n, int *cap, const prof_row *r);
/* One row as a JSON object with Nsight Compute's metric names. */
json_t *profile_row_json(const prof_row *r);

/* One sentence on the global (or shared) loads, stores or atomics (kind:
 * PROF_LD, PROF_ST, PROF_ATOM) of launch group g: what they cost against the
 * fewest sectors or wavefronts, and the source line of the worst; g < 0 for
 * the GPU's counters, which know no lanes or sites. */
void profile_say_global(const prof_session *ses, int g, const prof_counts *c, int kind);
void profile_say_shared(const prof_session *ses, int g, const prof_counts *c, int kind);
/* The counts as a table of plain words. */
void profile_print_counts(const prof_counts *c);
/* One launch group: its heading, its table, its sentences, the occupancy
 * bound of its shape. */
void profile_print_group(const prof_session *ses, int g, const prof_counts *c, const lab_config *cfg);
/* The estimated GPU time on model and what bounds it. */
void profile_print_estimate(const prof_estimate *e, const char *model, const prof_work *w,
                            const prof_counts *total);

#endif
