/* transpose_algo.c - the transpose family in the registry: its variants and
 * limits, its input (the article's 100 x 100 matrix of 0, 1, 2, ...), and a
 * check of every element against the input itself. */
#include "kernels/family.h"
#include "kernels/gpu_fns.h"
#include "kernels/intl.h"
#include "kernels/transpose/transpose.h"

#include <stdint.h>
#include <stdlib.h>

LAB_DECLARE_KERNEL(transpose_naive2d);
LAB_DECLARE_KERNEL(transpose_naive);
LAB_DECLARE_KERNEL(transpose_copy);
LAB_DECLARE_KERNEL(transpose_tiled);
LAB_DECLARE_KERNEL(transpose_tiled_nopad);
int transpose_cpu_omp(lab_job *job);
int transpose_cpu_seq(lab_job *job);

#define DTS (LAB_DT(LAB_INT) | LAB_DT(LAB_FLOAT) | LAB_DT(LAB_DOUBLE))

/* Tracing records a few events per element; 128 x 128 keeps a GPU trace
 * of the busiest variant well inside its buffer. */
#define TRACE_MAX 128

static const lab_variant variants[] = {
    {.name = "naive2d",
     .summary = N_("in place: threads below the diagonal swap with their mirror, 2D grid (article)"),
     .idea = N_("a 2D grid maps threads onto a matrix; the y < x test leaves half of them idle"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_BLOCK_2D,
     .block_min = 1, .block_max = 1024, .block_default = TRANSPOSE_NAIVE2D_BX,
     .trace_max_n = TRACE_MAX, LAB_KERNEL_FNS(transpose_naive2d)},
    {.name = "naive",
     .summary = N_("out of place, one element per thread: rows read, columns written"),
     .idea = N_("coalescing: a warp reads 32 neighbours at once but writes 32 elements n apart"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_BLOCK_2D,
     .block_min = 1, .block_max = 1024, .block_default = TRANSPOSE_NAIVE_BX,
     .trace_max_n = TRACE_MAX, LAB_KERNEL_FNS(transpose_naive)},
    {.name = "tiled",
     .summary = N_("32 x 32 tiles through shared memory, padded to 33 columns"),
     .idea = N_("read a tile along rows, write it along rows; the padding column spreads a tile "
                "column over all 32 banks"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_BLOCK_2D,
     .block_min = 32, .block_max = 1024, .block_default = TRANSPOSE_TILE,
     .trace_max_n = TRACE_MAX, LAB_KERNEL_FNS(transpose_tiled)},
    {.name = "tiled-nopad",
     .summary = N_("the same tiles without the padding column"),
     .idea = N_("bank conflicts: a column of a 32-wide tile sits in one bank (floats: 32-way) or one pair of "
                "banks (doubles: 16-way per 16-lane phase), and the lanes queue for it"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_BLOCK_2D,
     .block_min = 32, .block_max = 1024, .block_default = TRANSPOSE_TILE,
     .trace_max_n = TRACE_MAX, LAB_KERNEL_FNS(transpose_tiled_nopad)},
    {.name = "copy",
     .summary = N_("no transpose: the matrix copied as it lies, 16 bytes an access (the ceiling)"),
     .idea = N_("the bandwidth ceiling: the same bytes as a transpose, every access coalesced"),
     .kind = LAB_ROW_KERNEL, .flags = 0,
     .block_min = 32, .block_max = 1024, .block_default = TRANSPOSE_COPY_BLOCK,
     .trace_max_n = TRACE_MAX, LAB_KERNEL_FNS(transpose_copy)},
    {.name = "cpu-omp", .summary = N_("OpenMP over 32 x 32 tiles on every CPU core (the speedup baseline)"),
     .idea = N_("the CPU baseline"), .kind = LAB_ROW_CPU, .flags = LAB_OMP_BASELINE,
     .cpu = transpose_cpu_omp},
    {.name = "cpu-seq", .summary = N_("one CPU thread, two plain loops"),
     .idea = N_("the sequential baseline"), .kind = LAB_ROW_CPU, .cpu = transpose_cpu_seq},
};

static const char *const patterns[] = {"lecture", "random", NULL};

static int prepare(lab_job *job)
{
    const lab_config *cfg = job->cfg;
    const long long n = job->n;
    const char *pat = cfg->pattern[0] ? cfg->pattern : "lecture";
    int lecture = strcmp(pat, "lecture") == 0;
    if (!lecture && strcmp(pat, "random") != 0) {
        snprintf(job->err, sizeof job->err,
                 L_("transpose has no pattern \"%s\"; patterns: lecture (0, 1, 2, ... row by row), "
                 "random"), pat);
        return -1;
    }
    if (n > 3037000499LL / 2) { /* n * n must not overflow, with room */
        snprintf(job->err, sizeof job->err, L_("n = %lld is too large for an n x n matrix"), n);
        return -1;
    }
    const long long nn = n * n;
    const size_t es = lab_dtype_size(cfg->dtype);
    job->in_bytes = (size_t)nn * es;
    job->in = malloc(job->in_bytes ? job->in_bytes : 1);
    if (!job->in) {
        snprintf(job->err, sizeof job->err, L_("out of host memory for a %lld x %lld matrix"), n, n);
        return -1;
    }
    job->out_bytes = job->in_bytes;
    job->bytes = 2.0 * (double)job->in_bytes; /* read plus write */
    job->sim_items = nn;

    /* The article fills the matrix with 0, 1, 2, ... row by row. */
    if (lecture) {
        for (long long i = 0; i < nn; i++) {
            switch (cfg->dtype) {
            case LAB_INT: ((int *)job->in)[i] = (int)i; break;
            case LAB_FLOAT: ((float *)job->in)[i] = (float)i; break;
            default: ((double *)job->in)[i] = (double)i; break;
            }
        }
        return 0;
    }
    switch (cfg->dtype) {
    case LAB_INT: lab_gen_mt_mod_int((int *)job->in, nn, cfg->seed, 1000u); break;
    case LAB_FLOAT: lab_gen_uniform_float((float *)job->in, nn, cfg->seed, -1.0f, 1.0f); break;
    default: lab_gen_uniform_double((double *)job->in, nn, cfg->seed, -1.0, 1.0); break;
    }
    return 0;
}

static double element(const void *p, lab_dtype t, long long i)
{
    switch (t) {
    case LAB_INT: return ((const int *)p)[i];
    case LAB_FLOAT: return ((const float *)p)[i];
    default: return ((const double *)p)[i];
    }
}

/* copy is the ceiling row: its output is the input as it was. */
static int is_copy(const lab_variant *v) { return v && strcmp(v->name, "copy") == 0; }

/* Every element against the input itself: out[c][r] must be in[r][c], bit
 * for bit (copy: out[r][c] = in[r][c]). Wrong elements are counted by kind: never written (still all
 * bits set, as the kernels left the output), left as they were (in place),
 * or holding something else. */
static int check(const lab_job *job, const lab_job *refjob, lab_result *r)
{
    /* the baseline row that became the reference hands its output over */
    if (!job->out && refjob) job = refjob;
    const long long n = job->n;
    const size_t es = lab_dtype_size(job->cfg->dtype);
    const unsigned char *in = job->in, *out = job->out;
    static const unsigned char ones[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    const int copy = is_copy(job->variant);
    long long wrong = 0, unwritten = 0, unchanged = 0, first = -1;
    for (long long row = 0; row < n; row++)
        for (long long col = 0; col < n; col++) {
            const unsigned char *got = out + (size_t)(row * n + col) * es;
            const unsigned char *want = in + (size_t)(copy ? row * n + col : col * n + row) * es;
            if (memcmp(got, want, es) == 0) continue;
            if (first < 0) first = row * n + col;
            wrong++;
            if (memcmp(got, ones, es) == 0 && memcmp(want, ones, es) != 0) unwritten++;
            else if (!copy && memcmp(got, in + (size_t)(row * n + col) * es, es) == 0) unchanged++;
        }
    r->value = (double)wrong;
    r->correct = wrong == 0;
    if (wrong == 0) {
        snprintf(r->result, sizeof r->result, copy ? L_("copied") : L_("transposed"));
        if (copy) return 0;
        if (n >= 11 && strcmp(job->cfg->pattern, "lecture") == 0 && job->cfg->dtype != LAB_INT)
            /* the article's spot check, printed after the transpose */
            snprintf(r->note, sizeof r->note, "a[0,2] a[3,0] a[2,1] a[3,10] a[7,5] = %g %g %g %g %g",
                     element(out, job->cfg->dtype, 0 * n + 2), element(out, job->cfg->dtype, 3 * n + 0),
                     element(out, job->cfg->dtype, 2 * n + 1), element(out, job->cfg->dtype, 3 * n + 10),
                     element(out, job->cfg->dtype, 7 * n + 5));
        return 0;
    }
    snprintf(r->result, sizeof r->result, L_("%lld wrong"), wrong);
    long long fr = first / n, fc = first % n;
    char parts[160] = "";
    if (unwritten)
        snprintf(parts + strlen(parts), sizeof parts - strlen(parts), "; %lld never written", unwritten);
    if (unchanged)
        snprintf(parts + strlen(parts), sizeof parts - strlen(parts), "; %lld left as they were",
                 unchanged);
    snprintf(r->note, sizeof r->note,
             L_("%lld of %lld elements wrong%s; the first at row %lld, column %lld: %g, expected %g "
             "(is the grid large enough for the block?)"),
             wrong, n * n, parts, fr, fc, element(out, job->cfg->dtype, first),
             element(in, job->cfg->dtype, copy ? first : fc * n + fr));
    return 0;
}

static double host_bytes(const lab_config *cfg)
{
    double n = cfg->n > 0 ? (double)cfg->n : 100.0;
    /* the input, the prepared copy of the output per row, and the reference */
    return n * n * (double)lab_dtype_size(cfg->dtype) * 3.0;
}

const lab_algo lab_algo_transpose = {
    .name = "transpose",
    .summary = N_("n x n matrix transpose: in place below the diagonal, out of place, shared tiles, "
                  "and the plain copy it is measured against"),
    .lesson = "07-transpose-coalescing",
    .variants = variants,
    .nvariants = LAB_COUNT(variants),
    .dtypes = DTS,
    .patterns = patterns,
    .n_default = 100,  /* the article's 100 x 100 */
    .sim_default_n = 100,
    .dtype_default = LAB_DOUBLE, /* numpy's default, as in the article */
    .prepare = prepare,
    .check = check,
    .host_bytes = host_bytes,
    .release = NULL,
};
