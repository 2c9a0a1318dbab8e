/* histogram_cpu.c - the CPU rows: one thread counting, and OpenMP with a
 * histogram per thread merged at the end in a critical section (the
 * lecture's baseline, the row every speedup is measured against). On a flat
 * image every thread keeps incrementing the same element of its own array,
 * which is slower too: each increment waits for the previous one. */
#include "kernels/family.h"
#include "kernels/histogram/histogram.h"

int hist_cpu_omp(lab_job *job)
{
    const unsigned char *px = (const unsigned char *)job->in;
    const long long n = job->n;
    unsigned *hist = ((hist_out *)job->out)->bins;
    LAB_CPU_TIMED(job) {
        memset(hist, 0, HIST_BINS * sizeof(unsigned));
#pragma omp parallel
        {
            unsigned local[HIST_BINS] = {0};
#pragma omp for
            for (long long i = 0; i < n; i++) local[px[i]]++;
#pragma omp critical
            for (int b = 0; b < HIST_BINS; b++) hist[b] += local[b];
        }
    }
    return 0;
}

int hist_cpu_seq(lab_job *job)
{
    const unsigned char *px = (const unsigned char *)job->in;
    const long long n = job->n;
    unsigned *hist = ((hist_out *)job->out)->bins;
    LAB_CPU_TIMED(job) {
        memset(hist, 0, HIST_BINS * sizeof(unsigned));
        for (long long i = 0; i < n; i++) hist[px[i]]++;
    }
    return 0;
}
