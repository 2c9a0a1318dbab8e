/* bitonic_trace.h - the bitonic family's trace vocabulary, public: what its
 * kernels record and the plan of (k, j) steps every variant follows, for the
 * butterfly renderer (viz/render_bitonic.c) and the tests. */
#ifndef GPULAB_BITONIC_TRACE_H
#define GPULAB_BITONIC_TRACE_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- traces
 *
 * Events the bitonic kernels record (docs/bitonic.md shows them in use):
 *   CSWAP  a = i1 < b = i2, indices in the memory of space: GLOBAL (o, ov,
 *          n, nl middle, positions in the array), SHARED (nl start and
 *          finish: indices into the block's slice, which starts at array
 *          position blockIdx * 2 * blockDim; the slice load's READ/WRITE
 *          pairs say the same) or REG (fast: registers have no address, so
 *          a and b are the keys' array positions); v = 1 if swapped;
 *          v2 = 1 ascending, 0 descending.
 *   READ / WRITE  copies between global and shared memory (nl, fast):
 *          a = array position for GLOBAL, shared-memory index for SHARED.
 *   MARK   a = one of the codes below. */
enum bitonic_mark {
    BITONIC_MK_STEP = 1, /* b = kernel role, v = k, v2 = j: this thread takes part in step (k, j) */
    BITONIC_MK_IDLE = 2, /* o only: b = this thread's element i1, v = i2 = i1 ^ j < i1,
                            so the pair belongs to thread i2 and this one waits */
    BITONIC_MK_ROUND = 3 /* fast only: b = lab_space the keys came from, v = lowest j of the
                            round, v2 = steps done in registers in this round */
};

/* Kernel roles (b of BITONIC_MK_STEP). */
enum bitonic_role {
    BITONIC_ROLE_STEP = 0,   /* o, ov: one launch per (k, j) */
    BITONIC_ROLE_START = 1,  /* sorts slices that fit one block */
    BITONIC_ROLE_MIDDLE = 2, /* one (k, j) over the whole array (fast: several j) */
    BITONIC_ROLE_FINISH = 3  /* the steps of k with j inside one block's slice */
};

/* The (k, j) steps of a bitonic network over n = 2^p keys, in order:
 * k = 2, 4, ..., n and for each k, j = k/2, ..., 1. Step s (from 0) has
 * these k and j; bitonic_nsteps(n) = p (p + 1) / 2. */
int bitonic_nsteps(long long n);
void bitonic_step_kj(int s, long long *k, long long *j);
/* The index of step (k, j), or -1 when k, j is not a step. */
int bitonic_step_index(long long k, long long j);

#ifdef __cplusplus
}
#endif
#endif
