/* bitonic_cpu.c - the CPU rows: the lecture's sequential loops (cpu-seq),
 * the C library's qsort (cpu-qsort), and an OpenMP sort (cpu-omp: the row
 * every speedup is measured against, and whose output the others are checked
 * against). Each repeat copies the unsorted input into the output first; the
 * copy is timed with the sort. */
#include "kernels/intl.h"
#include "kernels/family.h"
#include "kernels/bitonic/bitonic.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#define KEY int
#define SFX int
#include "kernels/bitonic/bitonic_cpu_sort.h"
#undef KEY
#undef SFX
#define KEY float
#define SFX float
#include "kernels/bitonic/bitonic_cpu_sort.h"
#undef KEY
#undef SFX

enum cpu_kind { CPU_NET, CPU_QSORT, CPU_OMP };

static int cpu_sort(lab_job *job, enum cpu_kind kind)
{
    const long long n = job->n;
    const size_t bytes = (size_t)n * 4;
    if (job->cfg->dtype != LAB_INT && job->cfg->dtype != LAB_FLOAT) {
        snprintf(job->err, sizeof job->err, L_("bitonic sorts int or float keys, not %s"),
                 lab_dtype_name(job->cfg->dtype));
        return -1;
    }
    if (kind == CPU_NET && (n & (n - 1)) != 0) {
        snprintf(job->err, sizeof job->err,
                 "%s", L_("the lecture's loops need n to be a power of two (or `set pad on`)"));
        return -1;
    }
    void *tmp = NULL;
    if (kind == CPU_OMP) {
        tmp = malloc(bytes ? bytes : 4);
        if (!tmp) {
            snprintf(job->err, sizeof job->err, "%s", L_("out of host memory for the merge buffer"));
            return -1;
        }
    }
    const int is_int = job->cfg->dtype == LAB_INT;
    LAB_CPU_TIMED(job) {
        memcpy(job->out, job->in, bytes);
        switch (kind) {
        case CPU_NET:
            if (is_int) net_sort_int(job->out, n);
            else net_sort_float(job->out, n);
            break;
        case CPU_QSORT:
            qsort(job->out, (size_t)n, 4, is_int ? cmp_int : cmp_float);
            break;
        case CPU_OMP:
            if (is_int) omp_sort_int(job->out, tmp, n);
            else omp_sort_float(job->out, tmp, n);
            break;
        }
    }
    free(tmp);
    if (kind == CPU_OMP)
        snprintf(job->note, sizeof job->note, L_("%d threads"), omp_get_max_threads());
    return 0;
}

int bitonic_cpu_seq(lab_job *job) { return cpu_sort(job, CPU_NET); }
int bitonic_cpu_qsort(lab_job *job) { return cpu_sort(job, CPU_QSORT); }
int bitonic_cpu_omp(lab_job *job) { return cpu_sort(job, CPU_OMP); }
