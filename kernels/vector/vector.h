/* vector.h - what the files of the vector family share.
 *
 * Three algorithms live in kernels/vector/: scale (c = 2a), vecdiff
 * (c = a - b, the lecture's four steps and unified memory) and distance
 * (sqrt(sum (a - b)^2)). They share the layout of their inputs and outputs,
 * the guard zone that catches the lecture's wrong variants, and the checks.
 */
#ifndef GPULAB_VECTOR_H
#define GPULAB_VECTOR_H

#include "kernels/lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ scale */

/* job->in: n elements a; job->out: n elements c = 2 a. */

/* ---------------------------------------------------------- vecdiff */

/* job->in: a (n elements) followed by b (n elements).
 * job->out: a vec_report followed by c (n elements).
 *
 * The lecture's wrong variants (v1, v2, v3) run on arrays with a guard zone
 * of VEC_GUARD(block) elements after the end: a and b hold 0 there, and c
 * starts out holding a poison value everywhere, so after the run an element
 * of c still holding the poison was reached by no thread, and a guard
 * element that lost it was written past the end. */
typedef struct vec_report {
    long long guard;         /* elements in the guard zone after c (0: none) */
    long long stray;         /* guard elements that were written */
    long long stray_threads; /* threads that wrote there */
    long long first_stray;   /* smallest and largest index written past the end */
    long long last_stray;
    long long grid, block;   /* the launch */
} vec_report;

/* The guard zone for a launch of `block` threads per block: v1's index is
 * threadIdx.x, so no thread can reach past block - 1; at least one warp. */
#define VEC_GUARD(block) ((long long)((block) > 32 ? (block) : 32))

/* c starts out with every byte set to the poison byte: ints read
 * 0x80808080 (-2139062144), which a - b of the inputs (|x| < 2^30) never
 * gives; floats and doubles read as a NaN, which finite inputs never give.
 * A byte pattern, so cudaMemset can lay it on device, managed and simulator
 * memory alike. */
static inline int vec_poison_byte(lab_dtype t) { return t == LAB_INT ? 0x80 : 0xFF; }

/* Whether element i of the array p of dtype t still holds the poison. */
static inline int vec_is_poison(const void *p, lab_dtype t, long long i)
{
    size_t es = lab_dtype_size(t);
    const unsigned char *e = (const unsigned char *)p + (size_t)i * es;
    unsigned char want = (unsigned char)vec_poison_byte(t);
    for (size_t k = 0; k < es; k++)
        if (e[k] != want) return 0;
    return 1;
}

/* ---------------------------------------------------------- distance */

/* job->in: a then b as for vecdiff; job->out: a dist_out. */
typedef struct dist_out {
    double dist;    /* sqrt(sum (a - b)^2) as the row computed it */
    double sumsq;   /* the sum of squares before the root */
} dist_out;

/* The prepared input's reference (job->priv): the sum of squares of the
 * differences, taken in long double from the values as stored. */
typedef struct dist_ref {
    double sumsq, dist;
} dist_ref;

/* The distance kernels' trace marks (DIST_MARK_PARTIAL) are public. */
#include "kernels/vector/vector_trace.h"

#ifdef __cplusplus
}
#endif
#endif
