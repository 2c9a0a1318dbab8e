/* results.h - the timing table of rows that ran, and the n a run takes on
 * the simulator past its limit (results.c). */
#ifndef GPULAB_RESULTS_H
#define GPULAB_RESULTS_H

#include "kernels/lab.h"

struct session;

/* Print rows as run and compare do: the timing table with its footnotes, or
 * one JSON line per row with --json. */
void results_print(struct session *s, const lab_result *rows, int n);

/* The n to run at when kernel rows would run on the simulator past its
 * limit, items being the elements the input holds: the family's simulator
 * size (or its default size), so that every row still shares one input.
 * 0 when n can stay as it is. */
long long results_sim_n(const struct session *s, const lab_config *cfg, long long items);
/* Say that n (asked, items elements) runs at n on the simulator, and why;
 * for the same n and limit again, in one short line. */
void results_note_sim_n(struct session *s, const lab_config *cfg, long long asked, long long items, long long n);
/* The OpenMP baseline (rows[omp], the row speedups are measured against) on
 * a machine where it cannot show what OpenMP does: slower than the
 * sequential row, 2 cores or fewer, or a load average (load1) above the
 * cores. Then 1 and flag holds the footnote (the table marks the row "!"),
 * else 0 and "". */
int results_omp_flag(const lab_result *rows, int n, int omp, long cores, double load1, char *flag, size_t len);
/* Both for cfg: lower cfg->n as run does, with its note. */
void results_fit_sim_n(struct session *s, lab_config *cfg);

#endif
