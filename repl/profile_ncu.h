/* profile_ncu.h - profile on a GPU: the counts of Nsight Compute run on
 * gpulab itself (profile_ncu.c). */
#ifndef GPULAB_PROFILE_NCU_H
#define GPULAB_PROFILE_NCU_H

#include "kernels/lab.h"
#include "repl/profile_words.h"

struct session;

/* The counts of variant v's kernels on the GPU, by Nsight Compute, appended
 * to *rows and printed: 0 ok, -1 after reporting. */
int profile_gpu(struct session *s, const lab_variant *v, prof_row **rows, int *nrows, int *cap);

#endif
