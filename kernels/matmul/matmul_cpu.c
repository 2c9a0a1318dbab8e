/* matmul_cpu.c - the CPU rows: the article's triple loop on one core, and
 * the double-precision reference on every core with OpenMP (the speedup
 * baseline, and what every row is checked against). */
#include "kernels/intl.h"
#include "kernels/family.h"
#include "kernels/matmul/matmul.h"

#include <stdlib.h>

/* The article's matmul1: for each C[i][j], walk row i of A and column j of
 * B. The column walk jumps n floats at a time, so nearly every B read misses
 * the cache once n * 4 bytes rows outgrow it. Sums in float, as C code of
 * these loops does. */
int matmul_cpu_naive(lab_job *job)
{
    const long long n = job->n;
    if (n > MATMUL_CPU_NAIVE_MAX) {
        snprintf(job->err, sizeof job->err,
                 L_("cpu-naive is the article's triple loop on one core: at n = %lld that is %.3g "
                 "multiply-adds, minutes per run; it runs up to n = %d (cpu-omp runs any n)"),
                 n, (double)n * n * n, MATMUL_CPU_NAIVE_MAX);
        return -1;
    }
    const float *A = (const float *)job->in, *B = A + n * n;
    double *C = (double *)job->out;
    LAB_CPU_TIMED(job) {
        for (long long i = 0; i < n && !lab_interrupted; i++)
            for (long long j = 0; j < n; j++) {
                float tmp = 0.0f;
                for (long long k = 0; k < n; k++) tmp += A[i * n + k] * B[k * n + j];
                C[i * n + j] = tmp;
            }
    }
    if (lab_interrupted) {
        snprintf(job->err, sizeof job->err, "%s", L_("interrupted"));
        return -1;
    }
    return 0;
}

/* Rows of C in bands of ROWS: for each k, row k of B is added, scaled by
 * A[i][k], into ROWS rows of C at once, so B is streamed once per band
 * instead of once per row, and the inner loop runs along rows (vectorised).
 * Products of floats are exact in double, and the sums are in double: the
 * reference. */
#define ROWS 8

int matmul_cpu_omp(lab_job *job)
{
    const long long n = job->n;
    const float *A = (const float *)job->in, *B = A + n * n;
    double *C = (double *)job->out;
    const long long bands = lab_ceil_div(n, ROWS);
    LAB_CPU_TIMED(job) {
#pragma omp parallel for schedule(dynamic, 1)
        for (long long band = 0; band < bands; band++) {
            if (lab_interrupted) continue;
            const long long i0 = band * ROWS, i1 = i0 + ROWS < n ? i0 + ROWS : n;
            for (long long i = i0; i < i1; i++)
                for (long long j = 0; j < n; j++) C[i * n + j] = 0.0;
            for (long long k = 0; k < n; k++) {
                const float *b = B + k * n;
                for (long long i = i0; i < i1; i++) {
                    const double a = A[i * n + k];
                    double *c = C + i * n;
#pragma omp simd
                    for (long long j = 0; j < n; j++) c[j] += a * (double)b[j];
                }
            }
        }
    }
    if (lab_interrupted) {
        snprintf(job->err, sizeof job->err, "%s", L_("interrupted"));
        return -1;
    }
    return 0;
}
