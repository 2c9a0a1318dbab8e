/* vector_algo.c - scale, vecdiff and distance in the registry: their
 * variants and limits, their inputs, and their checks (including the
 * reports on the lecture's wrong vecdiff steps). */
#include "kernels/family.h"
#include "kernels/gpu_fns.h"
#include "kernels/intl.h"
#include "kernels/profile/profile.h"
#include "kernels/vector/vector.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

LAB_DECLARE_KERNEL(scale_index);
LAB_DECLARE_KERNEL(scale_grid_stride);
LAB_DECLARE_KERNEL(vecdiff_v1);
LAB_DECLARE_KERNEL(vecdiff_v2);
LAB_DECLARE_KERNEL(vecdiff_v3);
LAB_DECLARE_KERNEL(vecdiff_v4);
LAB_DECLARE_KERNEL(vecdiff_unified);
LAB_DECLARE_KERNEL(distance_g);
LAB_DECLARE_KERNEL(distance_ls);
LAB_DECLARE_KERNEL(distance_tree);
int scale_thrust(lab_job *job);
int vecdiff_thrust(lab_job *job);
int distance_thrust(lab_job *job);
int scale_cpu_omp(lab_job *job);
int scale_cpu_seq(lab_job *job);
int vecdiff_cpu_omp(lab_job *job);
int vecdiff_cpu_seq(lab_job *job);
int distance_cpu_omp(lab_job *job);
int distance_cpu_seq(lab_job *job);

#define DT3 (LAB_DT(LAB_INT) | LAB_DT(LAB_FLOAT) | LAB_DT(LAB_DOUBLE))
#define DT2 (LAB_DT(LAB_FLOAT) | LAB_DT(LAB_DOUBLE))

/* Traces of these kernels hold a few events per element: 16 Ki elements
 * keep a trace small and the coverage map readable. */
#define VEC_TRACE_MAX 16384

/* ------------------------------------------------------------ inputs */

/* n values of dtype t into dst: "random" (ints 0..99 from mt19937, floats
 * uniform in [0, 1) as the lecture's rand), "const" (every value cfg->value),
 * "lecture" (scale: 0, 1, 2, ... as the article's array, wrapping at 2^20),
 * "zero". which tells a from b (a different seed). */
static int fill(lab_job *job, void *dst, long long n, const char *pat, int which)
{
    const lab_config *cfg = job->cfg;
    const lab_dtype t = cfg->dtype;
    const unsigned seed = cfg->seed + (unsigned)which;
    if (strcmp(pat, "random") == 0) {
        switch (t) {
        case LAB_INT: lab_gen_mt_mod_int(dst, n, seed, 100u); return 0;
        case LAB_FLOAT: lab_gen_uniform_float(dst, n, seed, 0.0f, 1.0f); return 0;
        case LAB_DOUBLE: lab_gen_uniform_double(dst, n, seed, 0.0, 1.0); return 0;
        default: break;
        }
    } else if (strcmp(pat, "const") == 0 || strcmp(pat, "zero") == 0 || strcmp(pat, "lecture") == 0) {
        int lecture = strcmp(pat, "lecture") == 0;
        double c = strcmp(pat, "zero") == 0 ? 0.0 : cfg->value;
        if (!lecture && t == LAB_INT && (c != floor(c) || fabs(c) >= 1073741824.0)) {
            snprintf(job->err, sizeof job->err,
                     L_("pattern const with dtype int needs a whole number below 2^30 (value is %g)"), c);
            return -1;
        }
        for (long long i = 0; i < n; i++) {
            double x = lecture ? (double)(i & ((1LL << 20) - 1)) : c;
            switch (t) {
            case LAB_INT: ((int *)dst)[i] = (int)x; break;
            case LAB_FLOAT: ((float *)dst)[i] = (float)x; break;
            default: ((double *)dst)[i] = x; break;
            }
        }
        return 0;
    }
    snprintf(job->err, sizeof job->err, L_("%s has no pattern \"%s\""), job->algo->name, pat);
    return -1;
}

static const char *pattern_or(const lab_config *cfg, const char *def)
{
    return cfg->pattern[0] ? cfg->pattern : def;
}

static int alloc_in(lab_job *job, long long count)
{
    size_t es = lab_dtype_size(job->cfg->dtype);
    job->in_bytes = (size_t)count * es;
    job->in = malloc(job->in_bytes ? job->in_bytes : 1);
    if (!job->in) {
        snprintf(job->err, sizeof job->err, L_("out of host memory for %lld elements"), count);
        return -1;
    }
    return 0;
}

static int prepare_scale(lab_job *job)
{
    const long long n = job->n;
    size_t es = lab_dtype_size(job->cfg->dtype);
    if (alloc_in(job, n) != 0) return -1;
    job->out_bytes = (size_t)n * es;
    job->bytes = 2.0 * (double)n * (double)es;
    return fill(job, job->in, n, pattern_or(job->cfg, "lecture"), 0);
}

/* a then b; for "const", a holds the value and b zeros, so c = a - b is the
 * value and the distance is |value| sqrt(n). */
static int prepare_pair(lab_job *job)
{
    const long long n = job->n;
    const char *pat = pattern_or(job->cfg, "random");
    if (strcmp(pat, "random") != 0 && strcmp(pat, "const") != 0) {
        snprintf(job->err, sizeof job->err, L_("%s has no pattern \"%s\"; patterns: random, const"),
                 job->algo->name, pat);
        return -1;
    }
    if (alloc_in(job, 2 * n) != 0) return -1;
    char *b = (char *)job->in + (size_t)n * lab_dtype_size(job->cfg->dtype);
    if (fill(job, job->in, n, pat, 0) != 0) return -1;
    return fill(job, b, n, strcmp(pat, "const") == 0 ? "zero" : pat, 1);
}

static int prepare_vecdiff(lab_job *job)
{
    if (prepare_pair(job) != 0) return -1;
    size_t es = lab_dtype_size(job->cfg->dtype);
    job->out_bytes = sizeof(vec_report) + (size_t)job->n * es;
    job->bytes = 3.0 * (double)job->n * (double)es;
    return 0;
}

static int prepare_distance(lab_job *job)
{
    if (prepare_pair(job) != 0) return -1;
    const long long n = job->n;
    size_t es = lab_dtype_size(job->cfg->dtype);
    job->out_bytes = sizeof(dist_out);
    job->bytes = 2.0 * (double)n * (double)es;
    dist_ref *ref = calloc(1, sizeof *ref);
    if (!ref) {
        snprintf(job->err, sizeof job->err, "%s", L_("out of host memory"));
        return -1;
    }
    /* the exact answer for the values as stored: differences and squares in
     * double (exact for floats), the sum in long double */
    long double s = 0;
    for (long long i = 0; i < n; i++) {
        double d;
        if (job->cfg->dtype == LAB_FLOAT)
            d = (double)((const float *)job->in)[i] - (double)((const float *)job->in)[n + i];
        else
            d = ((const double *)job->in)[i] - ((const double *)job->in)[n + i];
        s += (long double)d * d;
    }
    ref->sumsq = (double)s;
    ref->dist = (double)sqrtl(s);
    job->priv = ref;
    return 0;
}

/* ------------------------------------------------------------ checks */

/* The row's output; for a reference row whose output the harness has
 * already handed over to the input (what the other rows are checked
 * against), the same buffer through ref. */
static const void *output_of(const lab_job *job, const lab_job *ref)
{
    return job->out ? job->out : ref->out;
}

/* Element i of p (dtype t) as a double. */
static double elem(const void *p, lab_dtype t, long long i)
{
    switch (t) {
    case LAB_INT: return ((const int *)p)[i];
    case LAB_FLOAT: return ((const float *)p)[i];
    default: return ((const double *)p)[i];
    }
}

/* "[0 2 4 6 8 10]": the first elements of an array, as many as fit, "?" for
 * an element no thread reached (when poison is set). */
static void preview(const void *p, lab_dtype t, long long n, int poison, char *buf, size_t len)
{
    size_t off = 0;
    off += (size_t)snprintf(buf, len, "[");
    for (long long i = 0; i < n; i++) {
        char e[40];
        if (poison && vec_is_poison(p, t, i)) snprintf(e, sizeof e, "?");
        else if (t == LAB_INT) snprintf(e, sizeof e, "%d", ((const int *)p)[i]);
        else snprintf(e, sizeof e, "%.4g", elem(p, t, i));
        size_t need = strlen(e) + (i ? 1 : 0);
        /* leave room for " …]" */
        if (off + need + 5 > len - 1) {
            snprintf(buf + off, len - off, " \u2026]");
            return;
        }
        off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", e);
    }
    snprintf(buf + off, len - off, "]");
}

/* Indices where bad() holds, named as ranges: "c[128..199]", "c[3], c[7..9], ...". */
typedef struct index_list {
    long long count;
    char text[200];
    int ranges;
    long long lo, hi; /* the range being built */
    int open;
} index_list;

static void il_flush(index_list *l)
{
    if (!l->open) return;
    size_t off = strlen(l->text);
    if (l->ranges < 4) {
        if (l->lo == l->hi)
            snprintf(l->text + off, sizeof l->text - off, "%sc[%lld]", l->ranges ? ", " : "", l->lo);
        else
            snprintf(l->text + off, sizeof l->text - off, "%sc[%lld..%lld]", l->ranges ? ", " : "",
                     l->lo, l->hi);
    } else if (l->ranges == 4) {
        snprintf(l->text + off, sizeof l->text - off, ", \u2026");
    }
    l->ranges++;
    l->open = 0;
}

static void il_add(index_list *l, long long i)
{
    l->count++;
    if (l->open && i == l->hi + 1) {
        l->hi = i;
        return;
    }
    il_flush(l);
    l->lo = l->hi = i;
    l->open = 1;
}

static void note_add(lab_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_add(lab_result *r, const char *fmt, ...)
{
    size_t off = strlen(r->note);
    if (off + 3 >= sizeof r->note) return;
    if (off) off += (size_t)snprintf(r->note + off, sizeof r->note - off, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->note + off, sizeof r->note - off, fmt, ap);
    va_end(ap);
}

static int check_scale(const lab_job *job, const lab_job *refjob, lab_result *r)
{
    const void *out = output_of(job, refjob);
    const long long n = job->n;
    const lab_dtype t = job->cfg->dtype;
    index_list bad;
    memset(&bad, 0, sizeof bad);
    for (long long i = 0; i < n; i++) {
        int ok;
        switch (t) {
        case LAB_INT:
            ok = ((const int *)out)[i] == (int)(2u * (unsigned)((const int *)job->in)[i]);
            break;
        case LAB_FLOAT:
            ok = ((const float *)out)[i] == 2.0f * ((const float *)job->in)[i];
            break;
        default:
            ok = ((const double *)out)[i] == 2.0 * ((const double *)job->in)[i];
            break;
        }
        if (!ok) il_add(&bad, i);
    }
    il_flush(&bad);
    preview(out, t, n, 0, r->result, sizeof r->result);
    r->value = (double)(n - bad.count);
    r->correct = bad.count == 0;
    if (bad.count) note_add(r, L_("%lld of %lld elements are not 2a: %s"), bad.count, n, bad.text);
    return 0;
}

static int check_vecdiff(const lab_job *job, const lab_job *refjob, lab_result *r)
{
    const long long n = job->n;
    const lab_dtype t = job->cfg->dtype;
    const vec_report *rep = (const vec_report *)output_of(job, refjob);
    const void *c = rep + 1;
    const char *a = job->in, *b = (const char *)job->in + (size_t)n * lab_dtype_size(t);
    index_list unreached, wrong;
    memset(&unreached, 0, sizeof unreached);
    memset(&wrong, 0, sizeof wrong);
    for (long long i = 0; i < n; i++) {
        if (vec_is_poison(c, t, i)) {
            il_add(&unreached, i);
            continue;
        }
        int ok;
        switch (t) {
        case LAB_INT: ok = ((const int *)c)[i] == ((const int *)a)[i] - ((const int *)b)[i]; break;
        case LAB_FLOAT: ok = ((const float *)c)[i] == ((const float *)a)[i] - ((const float *)b)[i]; break;
        default: ok = ((const double *)c)[i] == ((const double *)a)[i] - ((const double *)b)[i]; break;
        }
        if (!ok) il_add(&wrong, i);
    }
    il_flush(&unreached);
    il_flush(&wrong);
    preview(c, t, n, 1, r->result, sizeof r->result);
    r->value = (double)(n - unreached.count - wrong.count);
    r->correct = unreached.count == 0 && wrong.count == 0 && rep->stray == 0;
    if (!r->correct && job->variant && (job->variant->flags & LAB_WRONG_ON_PURPOSE))
        note_add(r, L_("wrong on purpose (%s)"), job->variant->idea);
    if (rep->stray) {
        if (rep->stray_threads != rep->stray)
            note_add(r, L_("%lld threads (%lld in each of %lld blocks) wrote past the end of c: "
                     "c[%lld..%lld], in the guard zone"),
                     rep->stray_threads, rep->stray, rep->grid, rep->first_stray, rep->last_stray);
        else
            note_add(r, L_("%lld threads wrote past the end of c: c[%lld..%lld], in the guard zone"),
                     rep->stray_threads, rep->first_stray, rep->last_stray);
    }
    if (unreached.count)
        note_add(r, L_("%lld elements no thread reached: %s"), unreached.count, unreached.text);
    if (wrong.count)
        note_add(r, L_("%lld elements are not a - b: %s"), wrong.count, wrong.text);
    return 0;
}

static int check_distance(const lab_job *job, const lab_job *refjob, lab_result *r)
{
    const dist_out *o = (const dist_out *)output_of(job, refjob);
    const dist_ref *ref = (const dist_ref *)job->priv;
    snprintf(r->result, sizeof r->result, "%.9g", o->dist);
    r->value = o->dist;
    r->rel_error = ref->dist != 0 ? fabs(o->dist - ref->dist) / ref->dist : fabs(o->dist);
    /* float squares summed in float blocks drift by about 1e-6; a
     * stagnating float sum drifts by much more */
    double tol = job->cfg->dtype == LAB_FLOAT ? 1e-4 : 1e-10;
    r->correct = r->rel_error <= tol;
    note_add(r, L_("reference %.9g, relative error %.2e%s"), ref->dist, r->rel_error,
             r->correct ? "" : L_(" (past the tolerance)"));
    /* the host's part of the timed region, for the simulator's estimate: g
     * copies back and adds n squares, ls and tree one partial per block */
    if (job->backend != LAB_BACKEND_CPU && job->variant)
        r->est_ms = prof_host_ms(strcmp(job->variant->name, "g") == 0 ? (double)job->n : (double)job->grid);
    return 0;
}

/* ------------------------------------------------------------ sizes */

static long long n_or(const lab_config *cfg, long long def)
{
    return cfg->n > 0 ? cfg->n : def;
}

static double host_bytes_scale(const lab_config *cfg)
{
    /* input, two outputs (the row's and the reference row's), trace copy */
    return (double)n_or(cfg, 10000) * (3.0 * lab_dtype_size(cfg->dtype) + 8.0);
}

static double host_bytes_vecdiff(const lab_config *cfg)
{
    return (double)n_or(cfg, 100) * (4.0 * lab_dtype_size(cfg->dtype) + 8.0);
}

static double host_bytes_distance(const lab_config *cfg)
{
    /* a and b, and step g's n squares on the host */
    return (double)n_or(cfg, 1LL << 28) * (3.0 * lab_dtype_size(cfg->dtype) + 8.0);
}

/* ------------------------------------------------------------ scale */

static const lab_variant scale_variants[] = {
    {.name = "index",
     .summary = N_("one thread per element, i = threadIdx.x + blockIdx.x * blockDim.x, "
                   "grid = ceil(n / block) unless set (article)"),
     .idea = N_("the global index of a thread, and the bounds check for the last block's extra threads"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_GRID_COVERS_N,
     .block_min = 1, .block_max = 1024, .block_default = 32, .trace_max_n = VEC_TRACE_MAX,
     LAB_KERNEL_FNS(scale_index)},
    {.name = "grid-stride",
     .summary = N_("grid-stride loop: any grid covers any n; by default the blocks that fit on the GPU"),
     .idea = N_("a thread takes every (grid x block)-th element, so the grid fits the GPU, not the data"),
     .kind = LAB_ROW_KERNEL,
     .block_min = 1, .block_max = 1024, .block_default = 32, .trace_max_n = VEC_TRACE_MAX,
     LAB_KERNEL_FNS(scale_grid_stride)},
    {.name = "thrust", .summary = N_("thrust::transform (library)"),
     .idea = N_("the library row: what a one-line call gets"), .kind = LAB_ROW_LIB,
     .gpu = LAB_GPU_FN(scale_thrust)},
    {.name = "cpu-omp", .summary = N_("OpenMP parallel for on every CPU core (the speedup baseline)"),
     .idea = N_("the CPU baseline"), .kind = LAB_ROW_CPU, .flags = LAB_OMP_BASELINE,
     .cpu = scale_cpu_omp},
    {.name = "cpu-seq", .summary = N_("one CPU thread, a plain loop"),
     .idea = N_("the sequential baseline"), .kind = LAB_ROW_CPU, .cpu = scale_cpu_seq},
};

static const char *const scale_patterns[] = {"lecture", "random", "const", NULL};

const lab_algo lab_algo_scale = {
    .name = "scale",
    .summary = N_("c = 2a: the thread index formula and the grid-stride loop"),
    .lesson = "01-threads-blocks-grids",
    .variants = scale_variants,
    .nvariants = LAB_COUNT(scale_variants),
    .dtypes = DT3,
    .patterns = scale_patterns,
    .n_default = 10000,
    .trace_n = 100, /* a map that fits a screen: four blocks of 32, the last one partly idle */
    .dtype_default = LAB_INT,
    .prepare = prepare_scale,
    .check = check_scale,
    .host_bytes = host_bytes_scale,
};

/* ---------------------------------------------------------- vecdiff */

static const lab_variant vecdiff_variants[] = {
    {.name = "v1",
     .summary = N_("step 1: i = threadIdx.x and no bounds check; grid 1 unless set (lecture)"),
     .idea = N_("no bounds check: threads past the end of the vector write past the end of c"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_WRONG_ON_PURPOSE,
     .block_min = 1, .block_max = 1024, .block_default = 128, .grid_default = 1,
     .trace_max_n = VEC_TRACE_MAX, LAB_KERNEL_FNS(vecdiff_v1)},
    {.name = "v2",
     .summary = N_("step 2: a bounds check, but i = threadIdx.x: one block's worth (lecture)"),
     .idea = N_("the index ignores blockIdx.x: only the first block-size elements are ever computed"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_WRONG_ON_PURPOSE,
     .block_min = 1, .block_max = 1024, .block_default = 128, .grid_default = 1,
     .trace_max_n = VEC_TRACE_MAX, LAB_KERNEL_FNS(vecdiff_v2)},
    {.name = "v3",
     .summary = N_("step 3: global index, one element per thread, the grid as set (lecture)"),
     .idea = N_("one element per thread: past grid x block threads the elements stay untouched"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_WRONG_ON_PURPOSE | LAB_GRID_COVERS_N,
     .block_min = 1, .block_max = 1024, .block_default = 128, .grid_default = 1,
     .trace_max_n = VEC_TRACE_MAX, LAB_KERNEL_FNS(vecdiff_v3)},
    {.name = "v4",
     .summary = N_("step 4: grid-stride loop, grid = ceil(n / block) unless set (lecture)"),
     .idea = N_("a grid-stride loop is right for any grid; the grid follows from n and the block"),
     .kind = LAB_ROW_KERNEL,
     .block_min = 1, .block_max = 1024, .block_default = 128,
     .trace_max_n = VEC_TRACE_MAX, LAB_KERNEL_FNS(vecdiff_v4)},
    {.name = "unified",
     .summary = N_("step 4 on unified memory: cudaMallocManaged, no explicit copies (lecture, e4)"),
     .idea = N_("unified memory: one pointer for host and device, pages move on demand (timed)"),
     .kind = LAB_ROW_KERNEL,
     .block_min = 1, .block_max = 1024, .block_default = 128,
     .trace_max_n = VEC_TRACE_MAX, LAB_KERNEL_FNS(vecdiff_unified)},
    {.name = "thrust", .summary = N_("thrust::transform with thrust::minus (library)"),
     .idea = N_("the library row: what a one-line call gets"), .kind = LAB_ROW_LIB,
     .gpu = LAB_GPU_FN(vecdiff_thrust)},
    {.name = "cpu-omp", .summary = N_("OpenMP parallel for on every CPU core (the speedup baseline)"),
     .idea = N_("the CPU baseline"), .kind = LAB_ROW_CPU, .flags = LAB_OMP_BASELINE,
     .cpu = vecdiff_cpu_omp},
    {.name = "cpu-seq", .summary = N_("one CPU thread, a plain loop"),
     .idea = N_("the sequential baseline"), .kind = LAB_ROW_CPU, .cpu = vecdiff_cpu_seq},
};

static const char *const pair_patterns[] = {"random", "const", NULL};

const lab_algo lab_algo_vecdiff = {
    .name = "vecdiff",
    .summary = N_("c = a - b in the lecture's four steps (three of them wrong) and unified memory"),
    .lesson = "02-bounds-and-grid-size",
    .variants = vecdiff_variants,
    .nvariants = LAB_COUNT(vecdiff_variants),
    .dtypes = DT3,
    .patterns = pair_patterns,
    .n_default = 100,
    .dtype_default = LAB_FLOAT,
    .prepare = prepare_vecdiff,
    .check = check_vecdiff,
    .host_bytes = host_bytes_vecdiff,
};

/* ---------------------------------------------------------- distance */

static const lab_variant distance_variants[] = {
    {.name = "g",
     .summary = N_("squares on the device, the sum of all n squares on the host (lecture)"),
     .idea = N_("a map on the device, a reduction on the host: n squares cross the bus back"),
     .kind = LAB_ROW_KERNEL,
     .block_min = 1, .block_max = 1024, .block_default = 1024,
     .trace_max_n = VEC_TRACE_MAX, LAB_KERNEL_FNS(distance_g)},
    {.name = "ls",
     .summary = N_("block sums in static shared memory, added serially by thread 0 (lecture)"),
     .idea = N_("shared memory lets a block meet, but one thread adding blockDim values is serial"),
     .kind = LAB_ROW_KERNEL,
     .block_min = 1, .block_max = 1024, .block_default = 1024,
     .trace_max_n = VEC_TRACE_MAX, LAB_KERNEL_FNS(distance_ls)},
    {.name = "tree",
     .summary = N_("block tree reduction in shared memory, a grid sized to the GPU"),
     .idea = N_("pairwise adds halve the active threads each step: log2(block) steps, not block"),
     .kind = LAB_ROW_KERNEL, .flags = LAB_POW2_BLOCK,
     .block_min = 32, .block_max = 1024, .block_default = 256,
     .trace_max_n = VEC_TRACE_MAX, LAB_KERNEL_FNS(distance_tree)},
    {.name = "thrust", .summary = N_("thrust::inner_product with a squared difference (library)"),
     .idea = N_("the library row: what a one-line call gets"), .kind = LAB_ROW_LIB,
     .gpu = LAB_GPU_FN(distance_thrust)},
    {.name = "cpu-omp", .summary = N_("OpenMP reduction in double on every CPU core (the speedup baseline)"),
     .idea = N_("the CPU baseline"), .kind = LAB_ROW_CPU, .flags = LAB_OMP_BASELINE,
     .cpu = distance_cpu_omp},
    {.name = "cpu-seq", .summary = N_("one CPU thread, the sum in double (the lecture's host loop)"),
     .idea = N_("the sequential baseline"), .kind = LAB_ROW_CPU, .cpu = distance_cpu_seq},
};

const lab_algo lab_algo_distance = {
    .name = "distance",
    .summary = N_("sqrt(sum (a - b)^2): squares on the device, block sums, a tree"),
    .lesson = "03-shared-memory-block-sums",
    .variants = distance_variants,
    .nvariants = LAB_COUNT(distance_variants),
    .dtypes = DT2,
    .patterns = pair_patterns,
    .n_default = 1LL << 28,
    .sim_default_n = 1LL << 20,
    .dtype_default = LAB_FLOAT,
    .prepare = prepare_distance,
    .check = check_distance,
    .host_bytes = host_bytes_distance,
};
