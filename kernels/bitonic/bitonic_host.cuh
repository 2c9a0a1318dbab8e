/* bitonic_host.cuh - what the launchers of bitonic.cu and bitonic_fast.cu
 * share: the checks every network variant makes of n and the block, the
 * block cut to the work, the upload of the input beside a working copy, the
 * copy for n = 1 and the download. Included by those two files only (the
 * functions are static: each file gets its own copy). */
#ifndef GPULAB_BITONIC_HOST_CUH
#define GPULAB_BITONIC_HOST_CUH

#include "kernels/intl.h"
#include "kernels/kern.h"
#include "kernels/bitonic/bitonic.h"

static long long pow2_below(long long x)
{
    long long p = 1;
    while (p * 2 <= x) p *= 2;
    return p;
}

/* The checks every network variant shares; the limits the registry states
 * are checked before (lab_validate), these are the ones it cannot state. */
static int network_ok(lab_job *job, int need_pow2_block, int max_block)
{
    const lab_variant *v = job->variant;
    const char *name = v ? v->name : "?";
    if (!lab_is_pow2(job->n)) {
        long long lo = pow2_below(job->n);
        snprintf(job->err, sizeof job->err,
                 L_("bitonic/%s needs n to be a power of two; the nearest are %lld and %lld "
                 "(or `set pad on` to pad with the largest value)"),
                 name, lo, lo * 2);
        return -1;
    }
    if (job->n > BITONIC_MAX_N) {
        snprintf(job->err, sizeof job->err, L_("bitonic/%s sorts at most 2^30 keys"), name);
        return -1;
    }
    if (job->block < 1 || job->block > max_block) {
        snprintf(job->err, sizeof job->err,
                 L_("block %d is out of range for bitonic/%s: allowed 1..%d threads"), job->block,
                 name, max_block);
        return -1;
    }
    if (need_pow2_block && !lab_is_pow2(job->block)) {
        long long lo = pow2_below(job->block);
        snprintf(job->err, sizeof job->err,
                 L_("bitonic/%s sorts slices of %s keys in one block, so block must be a power of "
                 "two (%d is not; try %lld or %lld)"),
                 name, strcmp(name, "fast") == 0 ? "8 * block" : "2 * block", job->block, lo,
                 lo * 2 <= max_block ? lo * 2 : lo);
        return -1;
    }
    return 0;
}

/* A block larger than the work is cut down to it, and when the student chose
 * the block the note says so. guarded: the kernel checks its index, so the
 * block stays at the variant's smallest (o, ov: a warp) and the threads past
 * the work do nothing. */
static void clamp_block(lab_job *job, long long threads, int guarded)
{
    if (threads < 1) threads = 1;
    long long least = guarded && job->variant ? job->variant->block_min : 1;
    long long to = threads > least ? threads : least;
    if (job->block > to) {
        if (job->cfg->block > 0) {
            if (to > threads)
                snprintf(job->note, sizeof job->note,
                         L_("block %d cut to %lld, the smallest block; n = %lld needs %lld threads, "
                         "the others do nothing"), job->block, to, job->n, threads);
            else
                snprintf(job->note, sizeof job->note, L_("block %d cut to %lld: n = %lld has no work for more"),
                         job->block, to, job->n);
        }
        job->block = (int)to;
    }
}

/* The traced run records the same events on the GPU and the simulator. */
static void trace_header(lab_job *job)
{
    if (job->trace) job->trace->smem_elem_bytes = 4;
}

/* n = 1: there is nothing to compare, the answer is the input. */
template <class T>
static int copy_through(lab_job *job, const T *d_in, T *d_work)
{
    LAB_TIMED(job) {
        CK(cudaMemcpy(d_work, d_in, sizeof(T) * (size_t)job->n, cudaMemcpyDeviceToDevice));
    }
    return 0;
}

template <class T>
static int upload_pair(lab_job *job, T **d_in, T **d_work)
{
    TRY(lab_upload(job, d_in, job->in, (size_t)job->n));
    TRY(lab_alloc(job, d_work, (size_t)job->n));
    return 0;
}

template <class T>
static int finish_run(lab_job *job, const T *d_work)
{
    return lab_download(job, job->out, d_work, (size_t)job->n);
}

/* bitonic sorts int or float keys */
typedef lab_dtypes<int, float> bitonic_dtypes;

#endif
