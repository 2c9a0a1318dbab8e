/* proftest.h - hand-made kernels whose memory counts are known in advance
 * (proftest_kernels.cu), for the profile counters' tests. */
#ifndef GPULAB_PROFTEST_H
#define GPULAB_PROFTEST_H

#include "kernels/family.h"

#ifdef __cplusplus
extern "C" {
#endif

enum proftest_kind {
    PROFTEST_COALESCED = 0, /* out[i] = in[i], 4-byte floats */
    PROFTEST_STRIDE2,       /* out[i] = in[2 i] */
    PROFTEST_COLUMN,        /* out[i] = in[32 i]: one float per 128-byte row */
    PROFTEST_BROADCAST,     /* out[i] = in[0] */
    PROFTEST_VEC4,          /* float4 copy: one 16-byte load and store per thread */
    PROFTEST_SHARED_STRIDE, /* s[t * arg] = t; out[t] = s[t * arg]: arg-way conflicts */
    PROFTEST_TILE,          /* a 32 x 32 (arg 0) or 32 x 33 (arg 1) tile read down a column */
    PROFTEST_ATOMIC,        /* atomicAdd(&out[t % arg], 1) */
    PROFTEST_DOUBLE,        /* out[i] = in[i], 8-byte doubles */
    PROFTEST_HALF_WARP      /* threads t < 16 of each warp copy: half the lanes active */
};

typedef struct proftest_params {
    int kind;        /* enum proftest_kind */
    int arg;
    unsigned blocks, threads;
} proftest_params;

/* Runs the kernel of p (job->priv) once on the simulator. */
int proftest_run_sim(lab_job *job);

#ifdef __cplusplus
}
#endif
#endif
