/* reduce.h - what the reduction family's files share. */
#ifndef GPULAB_REDUCE_H
#define GPULAB_REDUCE_H

#include "kernels/lab.h"

/* Every row writes its answer here (job->out). */
typedef struct reduce_out {
    double sum;      /* the sum as a number (floats: as computed) */
    long long isum;  /* ints: the exact 64-bit sum */
} reduce_out;

/* The prepared input's exact answer (job->priv). */
typedef struct reduce_ref {
    long long isum;  /* ints */
    double sum;      /* floats: a compensated double sum of the float values */
} reduce_ref;

#ifdef __cplusplus
/* What a row adds in: ints in 64 bits (the lecture's sums pass 2^31),
 * floats and doubles in their own type. */
template <class T> struct Acc { typedef T type; };
template <> struct Acc<int> { typedef long long type; };
#endif

#endif
