/* fake_reduce.h - reduction traces built by hand, event by event, the way the
 * kernels in kernels/reduce record them (the contract in lab.h/kern.h).
 *
 * They let the pictures be tested without the simulator, and pin the
 * renderer's reading of the contract: if a real trace and a fake one of the
 * same variant differ, one of the two is wrong. */
#ifndef GPULAB_TESTS_FAKE_REDUCE_H
#define GPULAB_TESTS_FAKE_REDUCE_H

#include "kernels/lab.h"

typedef enum fake_variant {
    FAKE_INTERLEAVED,  /* s[tid] += s[tid + s] when tid % 2s == 0; atomicAdd */
    FAKE_SEQUENTIAL,   /* two loads per thread; tid < s; atomicAdd */
    FAKE_WARP_SHUFFLE, /* grid-stride, tree to 32, shfl_down; two launches */
    FAKE_ATOMIC_FLOAT, /* the same tree and shuffles; atomicAdd of block sums */
    FAKE_VECTOR,       /* 4 elements per load, shuffles, warp sums via shared */
    FAKE_NVARIANTS
} fake_variant;

const char *fake_variant_name(fake_variant v);

/* Fill t (zeroed by the caller or not) with the trace of v over n values
 * (values: (i * 37 + 11) % 100, or 1.23 for floats when ones123). grid 0:
 * derived from n. Events come in execution order, not key order, as a
 * simulator may record them. 0 ok, -1 out of memory. */
int fake_reduce_trace(lab_trace *t, fake_variant v, long long n, int block, int grid,
                      lab_dtype dt);
void fake_trace_free(lab_trace *t);

#endif
