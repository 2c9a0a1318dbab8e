/* matmul_algo.c - the matrix multiply family in the registry: its variants,
 * its input (the article's "crazy numbers", or random ones), and the check of
 * every element against the double-precision reference. */
#include "kernels/family.h"
#include "kernels/gpu_fns.h"
#include "kernels/intl.h"
#include "kernels/matmul/matmul.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

LAB_DECLARE_KERNEL(matmul_naive);
LAB_DECLARE_KERNEL(matmul_coalesced);
LAB_DECLARE_KERNEL(matmul_tiled);
LAB_DECLARE_KERNEL(matmul_article);
LAB_DECLARE_KERNEL(matmul_1d);
LAB_DECLARE_KERNEL(matmul_2d);
LAB_DECLARE_KERNEL(matmul_vec);
LAB_DECLARE_KERNEL(matmul_warp);
int matmul_cublas(lab_job *job);
int matmul_cpu_omp(lab_job *job);
int matmul_cpu_naive(lab_job *job);

/* A traced naive thread records one event per element of C; n = 64 keeps
 * every trace small enough to read. */
#define TRACE_MAX 64

static const lab_variant variants[] = {
    {.name = "gpu-naive",
     .summary = N_("one thread per element of C, threadIdx.x on the row as in the article"),
     .idea = N_("a warp's threads own 32 rows: every read of A jumps n floats (not coalesced), and "
                "A and B are read n times each"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_BLOCK_2D,
     .block_min = 1, .block_max = 1024, .block_default = MATMUL_TILE,
     .trace_max_n = TRACE_MAX, LAB_KERNEL_FNS(matmul_naive)},
    {.name = "gpu-coalesced",
     .summary = N_("the same loop with threadIdx.x on the column"),
     .idea = N_("coalescing: the same arithmetic, only the mapping of threads to data changes"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_BLOCK_2D,
     .block_min = 1, .block_max = 1024, .block_default = MATMUL_TILE,
     .trace_max_n = TRACE_MAX, LAB_KERNEL_FNS(matmul_coalesced)},
    {.name = "gpu-tiled",
     .summary = N_("32 x 32 tiles of A and B in shared memory (article)"),
     .idea = N_("tiling: each value loaded into shared memory is used 32 times; barriers keep the "
                "tile whole"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_BLOCK_2D | LAB_FIXED_BLOCK,
     .block_min = 1024, .block_max = 1024, .block_default = MATMUL_TILE,
     .trace_max_n = TRACE_MAX, LAB_KERNEL_FNS(matmul_tiled)},
    {.name = "gpu-article",
     .summary = N_("the article's matmul3 as written: sA[tx, ty], early return, double sum; n a "
                   "multiple of 32"),
     .idea = N_("bank conflicts: a warp's 32 lanes read sA[tx][kk], 32 floats apart, all in one "
                "bank, so each read is served 32 times over"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_BLOCK_2D | LAB_FIXED_BLOCK,
     .block_min = 1024, .block_max = 1024, .block_default = MATMUL_TILE,
     .trace_max_n = TRACE_MAX, LAB_KERNEL_FNS(matmul_article)},
    {.name = "gpu-1d",
     .summary = N_("1D register blocking: 64 x 64 tiles of C, each thread 8 elements of a column"),
     .idea = N_("register reuse: one value of B in a register serves 8 multiply-adds, 9 shared "
                "loads for 8 of them instead of 16"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_FIXED_BLOCK,
     .block_min = MATMUL_1D_THREADS, .block_max = MATMUL_1D_THREADS,
     .block_default = MATMUL_1D_THREADS, .trace_max_n = TRACE_MAX, LAB_KERNEL_FNS(matmul_1d)},
    {.name = "gpu-2d",
     .summary = N_("2D register blocking: 128 x 128 tiles of C, each thread an 8 x 8 patch"),
     .idea = N_("an outer product in registers: 8 values of A and 8 of B give 64 multiply-adds"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_FIXED_BLOCK,
     .block_min = MATMUL_2D_THREADS, .block_max = MATMUL_2D_THREADS,
     .block_default = MATMUL_2D_THREADS, .trace_max_n = TRACE_MAX, LAB_KERNEL_FNS(matmul_2d)},
    {.name = "gpu-vec",
     .summary = N_("gpu-2d with 16-byte loads and stores; A's tile transposed in shared memory"),
     .idea = N_("vector accesses: four floats per load instruction, from global and shared memory"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_FIXED_BLOCK,
     .block_min = MATMUL_2D_THREADS, .block_max = MATMUL_2D_THREADS,
     .block_default = MATMUL_2D_THREADS, .trace_max_n = TRACE_MAX, LAB_KERNEL_FNS(matmul_vec)},
    {.name = "gpu-warp",
     .summary = N_("warp tiling: each warp a 64 x 64 part of the block's 128 x 128, 8 x 16 per thread"),
     .idea = N_("a tile per warp between block and thread: a lane's registers serve four sub-tiles"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_FIXED_BLOCK,
     .block_min = MATMUL_WARP_THREADS, .block_max = MATMUL_WARP_THREADS,
     .block_default = MATMUL_WARP_THREADS, .trace_max_n = TRACE_MAX, LAB_KERNEL_FNS(matmul_warp)},
    {.name = "cublas", .summary = N_("cublasSgemm (library)"),
     .idea = N_("the library row: register tiles, vector loads and tuning per GPU"), .kind = LAB_ROW_LIB,
     .gpu = LAB_GPU_FN(matmul_cublas)},
    {.name = "cpu-omp",
     .summary = N_("OpenMP over bands of rows, sums in double: the reference and the baseline"),
     .idea = N_("the CPU baseline, and the double-precision reference every row is checked against"),
     .kind = LAB_ROW_CPU, .flags = LAB_OMP_BASELINE, .cpu = matmul_cpu_omp},
    {.name = "cpu-naive", .summary = N_("the article's triple loop on one core, sums in float"),
     .idea = N_("the sequential baseline: the column walk through B misses the cache"),
     .kind = LAB_ROW_CPU, .cpu = matmul_cpu_naive},
};

static const char *const patterns[] = {"lecture", "random", NULL};

static int prepare(lab_job *job)
{
    const lab_config *cfg = job->cfg;
    const long long n = job->n;
    const char *pat = cfg->pattern[0] ? cfg->pattern : "lecture";
    const int lecture = strcmp(pat, "lecture") == 0;
    if (!lecture && strcmp(pat, "random") != 0) {
        snprintf(job->err, sizeof job->err,
                 L_("matmul has no pattern \"%s\"; patterns: lecture (the article's A and B), random"),
                 pat);
        return -1;
    }
    if (n > 65536) {
        snprintf(job->err, sizeof job->err, L_("n = %lld is too large for an n x n matrix multiply"), n);
        return -1;
    }
    const long long nn = n * n;
    job->in_bytes = (size_t)(2 * nn) * sizeof(float);
    job->in = malloc(job->in_bytes ? job->in_bytes : 1);
    if (!job->in) {
        snprintf(job->err, sizeof job->err, L_("out of host memory for two %lld x %lld matrices"), n, n);
        return -1;
    }
    float *A = (float *)job->in, *B = A + nn;
    job->out_bytes = (size_t)nn * sizeof(double);
    job->bytes = 0; /* arithmetic-bound: GFLOP/s, not GB/s */
    /* The simulator's limit counts its work: n^3 multiply-adds, MATMUL_SIM_FACTOR
     * of them per unit of sim-limit (run_matmul refuses past that too), so a
     * run past it is moved to matmul's simulator size like every family's. */
    job->sim_items = (n * n * n + MATMUL_SIM_FACTOR - 1) / MATMUL_SIM_FACTOR;
    if (lecture) {
        /* The article, in numpy: A[i, :] = arange(0, 1, 1/n) + 0.01 i and
         * B[:, j] = arange(1, 0, -1/n) + 0.03 j, in double, stored as float.
         * arange fills start + k * delta, delta being its second value minus
         * its first. */
        const double step = 1.0 / (double)n;
        const double down = (1.0 + -step) - 1.0;
        for (long long i = 0; i < n; i++)
            for (long long k = 0; k < n; k++) {
                A[i * n + k] = (float)((double)k * step + (double)i * 0.01);
                B[k * n + i] = (float)((1.0 + (double)k * down) + (double)i * 0.03);
            }
        return 0;
    }
    lab_gen_uniform_float(A, 2 * nn, cfg->seed, -1.0f, 1.0f);
    return 0;
}

static void note_add(lab_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_add(lab_result *r, const char *fmt, ...)
{
    size_t l = strlen(r->note);
    if (l >= sizeof r->note - 1) return;
    if (l) {
        snprintf(r->note + l, sizeof r->note - l, "; ");
        l = strlen(r->note);
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->note + l, sizeof r->note - l, fmt, ap);
    va_end(ap);
}

/* The reference row checks itself with Freivalds' test: C x must equal
 * A (B x) for a vector x, which costs n^2 instead of n^3. */
static int freivalds(const lab_job *job, double *rel)
{
    const long long n = job->n;
    const float *A = (const float *)job->in, *B = A + n * n;
    const double *C = (const double *)job->out;
    double *x = malloc(sizeof(double) * (size_t)(2 * n + 1));
    if (!x) return -1;
    double *y = x + n;
    unsigned s = 12345u;
    for (long long j = 0; j < n; j++) {
        s = s * 1103515245u + 12345u;
        x[j] = 0.5 + (double)(s >> 8) / 16777216.0;
    }
    for (long long k = 0; k < n; k++) {
        double t = 0;
        for (long long j = 0; j < n; j++) t += (double)B[k * n + j] * x[j];
        y[k] = t;
    }
    double err = 0, mag = 0;
    for (long long i = 0; i < n; i++) {
        double abx = 0, cx = 0;
        for (long long k = 0; k < n; k++) abx += (double)A[i * n + k] * y[k];
        for (long long j = 0; j < n; j++) cx += C[i * n + j] * x[j];
        err = fmax(err, fabs(cx - abx));
        mag = fmax(mag, fabs(abx));
    }
    free(x);
    *rel = mag > 0 ? err / mag : err;
    return 0;
}

/* The result column: C[1,2], the first element the article prints. */
static void shown_element(const lab_job *job, lab_result *r)
{
    const long long n = job->n;
    const double *c = (const double *)job->out;
    const long long i = n > 2 ? 1 : 0, j = n > 2 ? 2 : 0;
    r->value = c[i * n + j];
    snprintf(r->result, sizeof r->result, "C[%lld,%lld]=%.7g", i, j, r->value);
}

/* Relative error: max |C - ref| / max |ref| over all elements, so that one
 * wrong element shows and elements near zero do not blow it up. A float sum
 * of n products is within about n float epsilons of the exact one; the
 * tolerance is 2 n epsilon (1e-4 at n = 512). */
static int check(const lab_job *job, const lab_job *ref, lab_result *r)
{
    /* the baseline row that became the reference hands its output over */
    if (!job->out && ref) job = ref;
    const long long n = job->n;
    const double *c = (const double *)job->out;
    const int lecture = strcmp(job->cfg->pattern[0] ? job->cfg->pattern : "lecture", "lecture") == 0;
    r->ops = 2.0 * (double)n * n * n;
    snprintf(r->ops_unit, sizeof r->ops_unit, "flop");
    if (r->backend != LAB_BACKEND_SIM && r->ms > 0) {
        r->gflops = 2.0 * (double)n * n * n / (r->ms * 1e6);
        note_add(r, L_("%.1f GFLOP/s"), r->gflops);
    }
    if (ref == job || !ref->out || (job->variant->flags & LAB_OMP_BASELINE)) {
        /* the reference row, also when it runs again after serving */
        double rel;
        if (freivalds(job, &rel) != 0) {
            r->correct = -1;
            note_add(r, L_("out of memory for the check"));
            return 0;
        }
        r->correct = rel <= 1e-9;
        r->rel_error = rel;
        shown_element(job, r);
        note_add(r, L_("the double-precision reference (Freivalds check: %.1e)"), rel);
        if (lecture && n > 9)
            note_add(r, "C[1,2] = %.7g, C[7,3] = %.7g, C[4,9] = %.7g", c[1 * n + 2], c[7 * n + 3],
                     c[4 * n + 9]);
        return 0;
    }
    const double *rc = (const double *)ref->out;
    double err = 0, mag = 0;
    long long worst = 0, bad = 0;
    const double tol = 2.0 * (double)n * FLT_EPSILON;
    for (long long i = 0; i < n * n; i++) mag = fmax(mag, fabs(rc[i]));
    for (long long i = 0; i < n * n; i++) {
        double e = fabs(c[i] - rc[i]);
        if (!(e <= err)) { /* also catches NaN */
            err = isnan(e) ? INFINITY : e;
            worst = i;
        }
        if (!(e <= tol * (mag > 0 ? mag : 1))) bad++;
    }
    r->rel_error = mag > 0 ? err / mag : err;
    r->correct = bad == 0;
    shown_element(job, r);
    note_add(r, L_("relative error %.1e against the double reference"), r->rel_error);
    if (bad)
        note_add(r, L_("%lld of %lld elements past the tolerance %.1e, the worst at (%lld, %lld): %.7g, "
                    "expected %.7g"), bad, n * n, tol, worst / n, worst % n, c[worst], rc[worst]);
    return 0;
}

static double host_bytes(const lab_config *cfg)
{
    double n = cfg->n > 0 ? (double)cfg->n : 512.0;
    /* A and B, the reference's C and a row's C in double, a float C */
    return n * n * (2 * 4.0 + 8.0 + 8.0 + 4.0);
}

const lab_algo lab_algo_matmul = {
    .name = "matmul",
    .summary = N_("C = A B, n x n floats: naive, coalesced, tiled and register-blocked kernels, "
                  "cuBLAS, CPU"),
    .lesson = "09-matmul-tiling",
    .variants = variants,
    .nvariants = LAB_COUNT(variants),
    .dtypes = LAB_DT(LAB_FLOAT),
    .patterns = patterns,
    .n_default = 512,     /* the article's 512 x 512 */
    .sim_default_n = 64,
    .dtype_default = LAB_FLOAT,
    .prepare = prepare,
    .check = check,
    .host_bytes = host_bytes,
    .release = NULL,
};
