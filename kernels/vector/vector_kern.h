/* vector_kern.h - launch helpers the vector family's kernel files share
 * (C++, after kern.h). */
#ifndef GPULAB_VECTOR_KERN_H
#define GPULAB_VECTOR_KERN_H

#include "kernels/intl.h"
#include "kernels/kern.h"

/* A launch the backend can play: CUDA's 2^31 - 1 blocks; on the simulator
 * (one CPU thread plays every GPU thread) no more threads than its limit
 * allows, so that a huge `set grid` is refused instead of running for hours;
 * and when tracing, no more threads than a trace can hold. */
static int vec_check_launch(lab_job *job, long long grid, int block)
{
    if (grid < 1 || grid > 2147483647LL) {
        snprintf(job->err, sizeof job->err, L_("a grid of %lld blocks is past CUDA's 1..2147483647"),
                 grid);
        return -1;
    }
    long long threads = grid * block;
    if (job->backend == LAB_BACKEND_SIM && threads > job->cfg->sim_limit + block) {
        snprintf(job->err, sizeof job->err,
                 L_("grid %lld x block %d = %lld threads is past the simulator's limit of %lld "
                 "(one CPU thread plays every GPU thread); choose a smaller grid or raise "
                 "`set sim-limit`"),
                 grid, block, threads, job->cfg->sim_limit);
        return -1;
    }
    if (job->trace && threads > (1LL << 16)) {
        snprintf(job->err, sizeof job->err,
                 L_("tracing records every thread: grid %lld x block %d = %lld threads is past "
                 "65536; choose a smaller grid or n"),
                 grid, block, threads);
        return -1;
    }
    return 0;
}

/* A grid that keeps the GPU full without more blocks than there is work for:
 * the blocks that fit on all SMs at once (four SMs on the simulator, so the
 * simulator's default does not depend on the machine). */
static long long vec_resident_grid(lab_job *job, long long n, int block)
{
    int sms = job->backend == LAB_BACKEND_GPU && lab_gpu_available() ? lab_device()->sms : 4;
    int per_sm = 2048 / block; /* threads an SM holds, and at most 32 blocks */
    if (per_sm > 32) per_sm = 32;
    if (per_sm < 1) per_sm = 1;
    long long fit = (long long)sms * per_sm, need = lab_ceil_div(n, block);
    long long g = need < fit ? need : fit;
    return g < 1 ? 1 : g;
}

#endif
