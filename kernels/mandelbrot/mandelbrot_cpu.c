/* mandelbrot_cpu.c - the CPU rows: rows of pixels one after another, and
 * the rows shared out by OpenMP (the lecture's Parallel.For; the speedup
 * baseline). Compiled with -ffp-contract=off: each * and + rounds on its own,
 * as in the lecture, so the totals equal its 237691869 and 2138019184. */
#include "kernels/intl.h"
#include "kernels/family.h"
#include "kernels/mandelbrot/mandelbrot.h"

static void mandel_row(int *counts, int y, int w, int h)
{
    const float ci = mandel_ci(y, h);
    for (int x = 0; x < w; x++) counts[(long long)y * w + x] = mandel_iterations(mandel_cr(x, w), ci);
}

static int cpu_mandelbrot(lab_job *job, int parallel)
{
    const mandel_info *m = (const mandel_info *)job->priv;
    const int w = m->w, h = m->h;
    int *counts = (int *)job->out;
    LAB_CPU_TIMED(job) {
        if (parallel) {
            /* rows inside the set cost 1000 iterations a pixel, rows outside
             * a few: dynamic scheduling hands out rows as threads get free */
#pragma omp parallel for schedule(dynamic, 1)
            for (int y = 0; y < h; y++)
                if (!lab_interrupted) mandel_row(counts, y, w, h);
        } else {
            for (int y = 0; y < h && !lab_interrupted; y++) mandel_row(counts, y, w, h);
        }
    }
    if (lab_interrupted) {
        snprintf(job->err, sizeof job->err, "%s", L_("interrupted"));
        return -1;
    }
    return 0;
}

int mandelbrot_cpu_omp(lab_job *job) { return cpu_mandelbrot(job, 1); }
int mandelbrot_cpu_seq(lab_job *job) { return cpu_mandelbrot(job, 0); }
