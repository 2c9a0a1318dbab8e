/* transpose_cpu.c - the CPU rows: a plain double loop, and OpenMP over
 * 32 x 32 tiles (the speedup baseline). Elements are copied as bit patterns
 * of their size, so one loop serves int, float and double. */
#include "kernels/intl.h"
#include "kernels/family.h"
#include "kernels/transpose/transpose.h"

#include <stdint.h>

/* Reads along rows, writes down columns: every write lands n elements after
 * the previous one, the CPU's version of the uncoalesced store. */
#define SEQ_LOOP(U)                                                    \
    do {                                                               \
        const U *a = (const U *)job->in;                               \
        U *b = (U *)job->out;                                          \
        LAB_CPU_TIMED(job) {                                           \
            for (long long r = 0; r < n && !lab_interrupted; r++)      \
                for (long long c = 0; c < n; c++) b[c * n + r] = a[r * n + c]; \
        }                                                              \
    } while (0)

/* Tile by tile, so both the rows read and the rows written stay in cache. */
#define OMP_LOOP(U)                                                                  \
    do {                                                                             \
        const U *a = (const U *)job->in;                                             \
        U *b = (U *)job->out;                                                        \
        const long long tiles = lab_ceil_div(n, T);                                     \
        LAB_CPU_TIMED(job) {                                                         \
            _Pragma("omp parallel for schedule(static)")                             \
            for (long long tr = 0; tr < tiles; tr++) {                               \
                if (lab_interrupted) continue;                                       \
                const long long r1 = tr * T + T < n ? tr * T + T : n;                \
                for (long long c0 = 0; c0 < n; c0 += T) {                            \
                    const long long c1 = c0 + T < n ? c0 + T : n;                    \
                    for (long long r = tr * T; r < r1; r++)                          \
                        for (long long c = c0; c < c1; c++) b[c * n + r] = a[r * n + c]; \
                }                                                                    \
            }                                                                        \
        }                                                                            \
    } while (0)

static int cpu_transpose(lab_job *job, int parallel)
{
    const long long n = job->n;
    const long long T = TRANSPOSE_TILE;
    (void)T;
    switch (lab_dtype_size(job->cfg->dtype)) {
    case 4:
        if (parallel) OMP_LOOP(uint32_t); else SEQ_LOOP(uint32_t);
        break;
    case 8:
        if (parallel) OMP_LOOP(uint64_t); else SEQ_LOOP(uint64_t);
        break;
    default:
        snprintf(job->err, sizeof job->err, "%s", L_("transpose: unsupported dtype"));
        return -1;
    }
    if (lab_interrupted) {
        snprintf(job->err, sizeof job->err, "%s", L_("interrupted"));
        return -1;
    }
    job->bytes = 2.0 * (double)n * (double)n * (double)lab_dtype_size(job->cfg->dtype);
    return 0;
}

int transpose_cpu_omp(lab_job *job) { return cpu_transpose(job, 1); }
int transpose_cpu_seq(lab_job *job) { return cpu_transpose(job, 0); }
