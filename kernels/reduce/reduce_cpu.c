/* reduce_cpu.c - the CPU rows: a plain loop, and OpenMP's reduction clause
 * (the lecture's baseline, the row every speedup is measured against). */
#include "kernels/intl.h"
#include "kernels/family.h"
#include "kernels/reduce/reduce.h"

#define SUM_LOOP(T, A, PRAGMA)                                  \
    do {                                                        \
        const T *x = (const T *)job->in;                        \
        A s = 0;                                                \
        LAB_CPU_TIMED(job) {                                    \
            A acc = 0;                                          \
            PRAGMA                                              \
            for (long long i = 0; i < n; i++) acc += x[i];      \
            s = acc;                                            \
        }                                                       \
        o->sum = (double)s;                                     \
        o->isum = (long long)s;                                 \
    } while (0)

#define OMP_FOR _Pragma("omp parallel for reduction(+:acc)")
#define SEQ_FOR

static int cpu_sum(lab_job *job, int parallel)
{
    const long long n = job->n;
    reduce_out *o = (reduce_out *)job->out;
    switch (job->cfg->dtype) {
    case LAB_INT:
        if (parallel) SUM_LOOP(int, long long, OMP_FOR); else SUM_LOOP(int, long long, SEQ_FOR);
        return 0;
    case LAB_FLOAT:
        if (parallel) SUM_LOOP(float, float, OMP_FOR); else SUM_LOOP(float, float, SEQ_FOR);
        return 0;
    case LAB_DOUBLE:
        if (parallel) SUM_LOOP(double, double, OMP_FOR); else SUM_LOOP(double, double, SEQ_FOR);
        return 0;
    default:
        snprintf(job->err, sizeof job->err, "%s", L_("reduce: unsupported dtype"));
        return -1;
    }
}

int reduce_cpu_omp(lab_job *job) { return cpu_sum(job, 1); }
int reduce_cpu_seq(lab_job *job) { return cpu_sum(job, 0); }
