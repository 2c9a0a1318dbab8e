/* bitonic.h - what the bitonic sort family's files share: the prepared input's
 * bookkeeping; the meaning of its trace markers and the plan of steps that
 * every variant follows are public, in bitonic_trace.h. */
#ifndef GPULAB_BITONIC_H
#define GPULAB_BITONIC_H

#include "kernels/lab.h"
#include "kernels/bitonic/bitonic_trace.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The network variants index with int: n is at most 2^30 elements. */
#define BITONIC_MAX_N (1LL << 30)

/* Attached to the prepared input (job->priv). Every row sorts job->n keys
 * (the padded size when `set pad on` padded the input) into job->out; the
 * first n_user of them are the answer, the rest are the padding. */
typedef struct bitonic_priv {
    long long n_user;   /* n as the student set it */
    long long n_pad;    /* padding keys appended (largest value of the type) */
    uint64_t fp_sum;    /* fingerprint of the input's multiset of keys */
    uint64_t fp_mix;
    int lecture_repeats;/* pattern lecture with n != 8: how many copies of the 8 */
} bitonic_priv;

/* A multiset fingerprint of 4-byte keys: order does not change it, a changed,
 * lost or duplicated key does (with overwhelming probability). */
void bitonic_fingerprint(const uint32_t *keys, long long n, uint64_t *sum, uint64_t *mix);

#ifdef __cplusplus
}
#endif
#endif
