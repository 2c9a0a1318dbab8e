/* family.h - helpers for the C side of a family: its lab_algo definition
 * (registry entry), its CPU rows and its input generation.
 * Kernel sources (*.cu) include kern.h instead. */
#ifndef GPULAB_FAMILY_H
#define GPULAB_FAMILY_H

#include "lab.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

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
void lab_gen_uniform_float(float *out, long long n, unsigned seed, float lo, float hi);
void lab_gen_uniform_double(double *out, long long n, unsigned seed, double lo, double hi);
/* mt19937(seed) words, for families that need their own mapping. */
void lab_gen_mt_words(unsigned *out, long long n, unsigned seed);
/* The histogram lecture's "photo": 60 + 140 x / w plus N(0, sigma) from mt19937(seed), clamped. */
void lab_gen_photo(unsigned char *out, int w, int h, unsigned seed, float sigma);

/* Sizes: host memory of this machine, to refuse what cannot fit. */
double lab_host_memory_bytes(void);

/* Small formatting helpers for notes. */
void lab_fmt_bytes(double bytes, char *buf, size_t len);   /* "256 MiB" */

#ifdef __cplusplus
}
#endif
#endif
