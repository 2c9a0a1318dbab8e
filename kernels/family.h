/* family.h - what a family implements, and the helpers it implements it with.
 *
 * kernels/lab.h is what repl/ and viz/ see; this header is the other side:
 * the job an entry point receives (lab_job), the prepared input behind
 * lab.h's opaque lab_input, the calls LAUNCH and CK make into the harness
 * and the device layer, and the helpers of a family's C files (its lab_algo
 * definition, its CPU rows, its input generation). Kernel sources (*.cu)
 * include kernels/kern.h, which includes this. */
#ifndef GPULAB_FAMILY_H
#define GPULAB_FAMILY_H

#include "kernels/lab.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------- jobs */

/* A job: one variant run on one backend over one prepared input. Families'
 * entry points receive it; the harness (lab.c) owns its buffers. */
#define LAB_MAX_ALLOCS 32
typedef struct lab_job {
    const lab_config *cfg;
    const lab_algo *algo;
    const lab_variant *variant;
    lab_backend backend;     /* GPU, SIM or CPU: resolved */
    long long n;             /* resolved n (after padding) */
    long long sim_items;     /* elements the simulator limit applies to (0 = n) */
    int block, block_y;      /* resolved block */
    long long grid, grid_y;  /* resolved grid; families set it when they derive it */
    void *in;                /* host input, n elements of dtype (family-defined) */
    size_t in_bytes;
    void *out;               /* host output buffer, out_bytes */
    size_t out_bytes;
    void *priv;              /* family data (image size, extra inputs, ...) */
    double bytes;            /* bytes one run moves (GB/s) */
    double value;            /* a scalar answer (sums) for check() */
    /* timing: filled by the timed loop */
    double samples[LAB_MAX_REPEATS];
    int nsamples;
    /* device allocations, freed by the harness after the entry returns */
    void *allocs[LAB_MAX_ALLOCS];
    void (*alloc_free[LAB_MAX_ALLOCS])(void *); /* how to free each (GPU or simulator) */
    int nallocs;
    lab_trace *trace;        /* non-NULL: record events */
    void *trace_buf[3];      /* GPU trace buffers, reused by every launch of the run */
    unsigned long long trace_buf_threads; /* threads they have room for */
    char note[LAB_NOTE_MAX];
    char err[LAB_ERR_MAX];
    struct lab_probe *probe; /* non-NULL: LAUNCH records every launch here */
} lab_job;

/* The prepared input (lab.h declares it opaque): the host data in job, and
 * the reference row's job once it has run. Tests of a family may keep one on
 * the stack with lab_input_prepare() and lab_input_free(). */
struct lab_input {
    lab_job job;             /* prepared: in, in_bytes, out_bytes, bytes, priv */
    lab_job ref;             /* the reference (CPU) row's output, for checks */
    int have_ref;
    double omp_ms;           /* the OpenMP row's median, for speedups; < 0 unknown */
};

/* lab_input_new() into caller-owned storage: 0 ok; -1 with msg. */
int lab_input_prepare(lab_input *in, const lab_algo *a, const lab_config *cfg,
                      char *msg, size_t msglen);
void lab_input_free(lab_input *in);

/* Called by LAUNCH before every launch (kern.h): checks the shape against
 * the device (on the simulator: against the model of cfg->model), with the
 * allowed range in job->err when it is refused, and records it when the job
 * is probed. 0 ok, -1 refused. */
int lab_launch_check(lab_job *job, const char *kernel, const void *func, const unsigned grid[3],
                     const unsigned block[3], size_t dynamic_smem);

/* Record a CUDA error from a call; sticky errors disable the GPU. Returns -1
 * and writes a message into err. */
int lab_device_fail(int cuda_err, const char *expr, const char *file, int line,
                    char *err, size_t errlen);
/* Free the job's device allocations (GPU or simulator memory). */
void lab_job_free_allocs(lab_job *job);

/* Streaming multiprocessors of the GPU a job runs on: the device's on the
 * GPU; on the simulator, the modelled GPU's (`set model`, the first model,
 * the H200, when none is set), so that a grid sized by SMs is the same on
 * both backends of the same GPU. (kernels/device/occupancy.c) */
int lab_job_sms(const lab_job *job);

/* Blocks of kernel func, `block` threads each, that stay resident on one SM
 * of that GPU: the CUDA occupancy API on the GPU (which knows the compiled
 * kernel: registers, shared memory, launch bounds); on the simulator the
 * occupancy calculator over the modelled GPU, with what the kernel declares
 * of itself in `declared` (its static and dynamic shared memory, its thread
 * limit; registers 0: not known). At least 1; -1 with job->err when the CUDA
 * call fails. (kernels/device/occupancy.c) */
int lab_job_blocks_per_sm(lab_job *job, const void *func, int block, const occ_kernel *declared);

/* Entry points of one kernel variant, compiled three ways (see kern.h). */
#define LAB_DECLARE_KERNEL(name)      \
    int name##_gpu(lab_job *job);     \
    int name##_gput(lab_job *job);    \
    int name##_sim(lab_job *job)
#define LAB_KERNEL_FNS(name) .gpu = name##_gpu, .gpu_traced = name##_gput, .sim = name##_sim

#define LAB_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The CPU timed loop: `LAB_CPU_TIMED(job) { work }`: one warm-up, then
 * cfg->repeats runs timed with the monotonic clock into job->samples. */
typedef struct lab_cpu_timer {
    lab_job *job;
    int i, total;
    struct timespec t0;
} lab_cpu_timer;
lab_cpu_timer lab_cpu_timer_begin(lab_job *job);
int lab_cpu_timer_running(lab_cpu_timer *t);
void lab_cpu_timer_lap(lab_cpu_timer *t);
#define LAB_CPU_TIMED(job)                                                   \
    for (lab_cpu_timer lab_ct_ = lab_cpu_timer_begin(job); lab_cpu_timer_running(&lab_ct_); \
         lab_cpu_timer_lap(&lab_ct_))

/* Input generators that reproduce the lectures' data exactly: std::mt19937
 * and std::normal_distribution as libstdc++ implements them (kernels/data.cpp). */
void lab_gen_mt_mod_int(int *out, long long n, unsigned seed, unsigned mod); /* gen() % mod */
/* malloc for an input of many MiB, with huge pages (sim.h's
 * sim_huge_pages); freed with free */
void *lab_alloc_big(size_t bytes);
void lab_gen_uniform_float(float *out, long long n, unsigned seed, float lo, float hi);
void lab_gen_uniform_double(double *out, long long n, unsigned seed, double lo, double hi);
/* mt19937(seed) words, for families that need their own mapping. */
void lab_gen_mt_words(unsigned *out, long long n, unsigned seed);
/* The histogram lecture's "photo": 60 + 140 x / w plus N(0, sigma) from mt19937(seed), clamped. */
void lab_gen_photo(unsigned char *out, int w, int h, unsigned seed, float sigma);

#ifdef __cplusplus
}
#endif
#endif
