/* vector_cpu.c - the CPU rows of the vector family: one thread with a plain
 * loop, and OpenMP over every core (the baseline speedups are measured
 * against, and the reference row). */
#include "kernels/intl.h"
#include "kernels/family.h"
#include "kernels/vector/vector.h"

#include <math.h>
#include <string.h>

#define OMP_FOR _Pragma("omp parallel for schedule(static)")
#define OMP_SUM _Pragma("omp parallel for schedule(static) reduction(+:acc)")
#define SEQ

/* ------------------------------------------------------------ scale */

#define SCALE_LOOP(T, PRAGMA)                                          \
    do {                                                               \
        const T *a = (const T *)job->in;                               \
        T *c = (T *)job->out;                                          \
        LAB_CPU_TIMED(job) {                                           \
            PRAGMA                                                     \
            for (long long i = 0; i < n; i++) c[i] = a[i] * (T)2;     \
        }                                                              \
    } while (0)

static int cpu_scale(lab_job *job, int parallel)
{
    const long long n = job->n;
    switch (job->cfg->dtype) {
    case LAB_INT: if (parallel) SCALE_LOOP(int, OMP_FOR); else SCALE_LOOP(int, SEQ); return 0;
    case LAB_FLOAT: if (parallel) SCALE_LOOP(float, OMP_FOR); else SCALE_LOOP(float, SEQ); return 0;
    case LAB_DOUBLE: if (parallel) SCALE_LOOP(double, OMP_FOR); else SCALE_LOOP(double, SEQ); return 0;
    default: snprintf(job->err, sizeof job->err, "%s", L_("scale: unsupported dtype")); return -1;
    }
}

int scale_cpu_omp(lab_job *job) { return cpu_scale(job, 1); }
int scale_cpu_seq(lab_job *job) { return cpu_scale(job, 0); }

/* ---------------------------------------------------------- vecdiff */

#define DIFF_LOOP(T, PRAGMA)                                           \
    do {                                                               \
        const T *a = (const T *)job->in, *b = a + n;                   \
        T *c = (T *)(rep + 1);                                         \
        LAB_CPU_TIMED(job) {                                           \
            PRAGMA                                                     \
            for (long long i = 0; i < n; i++) c[i] = a[i] - b[i];     \
        }                                                              \
    } while (0)

static int cpu_vecdiff(lab_job *job, int parallel)
{
    const long long n = job->n;
    vec_report *rep = (vec_report *)job->out;
    memset(rep, 0, sizeof *rep);
    switch (job->cfg->dtype) {
    case LAB_INT: if (parallel) DIFF_LOOP(int, OMP_FOR); else DIFF_LOOP(int, SEQ); return 0;
    case LAB_FLOAT: if (parallel) DIFF_LOOP(float, OMP_FOR); else DIFF_LOOP(float, SEQ); return 0;
    case LAB_DOUBLE: if (parallel) DIFF_LOOP(double, OMP_FOR); else DIFF_LOOP(double, SEQ); return 0;
    default: snprintf(job->err, sizeof job->err, "%s", L_("vecdiff: unsupported dtype")); return -1;
    }
}

int vecdiff_cpu_omp(lab_job *job) { return cpu_vecdiff(job, 1); }
int vecdiff_cpu_seq(lab_job *job) { return cpu_vecdiff(job, 0); }

/* ---------------------------------------------------------- distance */

/* The difference and its square in the vectors' type, the sum in double,
 * as the lecture's host code does. */
#define DIST_LOOP(T, PRAGMA)                                           \
    do {                                                               \
        const T *a = (const T *)job->in, *b = a + n;                   \
        LAB_CPU_TIMED(job) {                                           \
            double acc = 0;                                            \
            PRAGMA                                                     \
            for (long long i = 0; i < n; i++) {                        \
                T d = a[i] - b[i];                                     \
                acc += (double)(d * d);                                \
            }                                                          \
            sum = acc;                                                 \
        }                                                              \
    } while (0)

static int cpu_distance(lab_job *job, int parallel)
{
    const long long n = job->n;
    double sum = 0;
    switch (job->cfg->dtype) {
    case LAB_FLOAT: if (parallel) DIST_LOOP(float, OMP_SUM); else DIST_LOOP(float, SEQ); break;
    case LAB_DOUBLE: if (parallel) DIST_LOOP(double, OMP_SUM); else DIST_LOOP(double, SEQ); break;
    default: snprintf(job->err, sizeof job->err, "%s", L_("distance: unsupported dtype")); return -1;
    }
    dist_out *o = (dist_out *)job->out;
    o->sumsq = sum;
    o->dist = sqrt(sum);
    return 0;
}

int distance_cpu_omp(lab_job *job) { return cpu_distance(job, 1); }
int distance_cpu_seq(lab_job *job) { return cpu_distance(job, 0); }
