/* lab.c - the harness: settings, validation, inputs, one row's run on its
 * backend, statistics and checks, and the trace container.
 *
 * A row never takes the program down: whatever goes wrong ends up as a note
 * in its lab_result (ran = 0) or as the returned message. */
#include "kernels/family.h"
#include "kernels/lab_output.h"
#include "kernels/intl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/profile/profile.h"

volatile sig_atomic_t lab_interrupted;



/* ------------------------------------------------------------ names */

static const char *const dtype_names[LAB_NDTYPES] = {"int", "float", "double", "u8"};
static const size_t dtype_sizes[LAB_NDTYPES] = {4, 4, 8, 1};

const char *lab_dtype_name(lab_dtype t)
{
    return (unsigned)t < LAB_NDTYPES ? dtype_names[t] : "?";
}

size_t lab_dtype_size(lab_dtype t)
{
    return (unsigned)t < LAB_NDTYPES ? dtype_sizes[t] : 0;
}

int lab_dtype_parse(const char *s, lab_dtype *out)
{
    for (int i = 0; i < LAB_NDTYPES; i++)
        if (strcmp(s, dtype_names[i]) == 0) {
            *out = (lab_dtype)i;
            return 0;
        }
    return -1;
}

const char *lab_backend_name(lab_backend b)
{
    switch (b) {
    case LAB_BACKEND_GPU: return "gpu";
    case LAB_BACKEND_SIM: return "sim";
    case LAB_BACKEND_CPU: return "cpu";
    default: return "auto";
    }
}

void lab_config_defaults(lab_config *c)
{
    memset(c, 0, sizeof *c);
    c->dtype = LAB_INT;
    c->value = 1.23;
    c->seed = 1;
    c->repeats = 5;
    c->backend = LAB_BACKEND_AUTO;
    /* 8 Mi: the reduction's `compare` of its six simulator rows in about
     * 4.4 s on two cores (docs/decisions.md, "The default sim-limit is 8 Mi") */
    c->sim_limit = 1LL << 23;
    snprintf(c->model, sizeof c->model, "h200");
    c->gpus = 1;
}

/* ------------------------------------------------------------ registry */

const lab_variant *lab_variant_find(const lab_algo *a, const char *name)
{
    if (!a || !name) return NULL;
    for (int i = 0; i < a->nvariants; i++)
        if (strcmp(a->variants[i].name, name) == 0) return &a->variants[i];
    return NULL;
}

const lab_variant *lab_algo_baseline(const lab_algo *a)
{
    for (int i = 0; i < a->nvariants; i++)
        if (a->variants[i].flags & LAB_OMP_BASELINE) return &a->variants[i];
    return NULL;
}

void lab_rebase_speedups(const lab_algo *a, lab_result *rows, int n)
{
    const lab_variant *b = a ? lab_algo_baseline(a) : NULL;
    if (!b) return;
    const lab_result *base = NULL;
    for (int i = 0; i < n && !base; i++)
        if (rows[i].ran && rows[i].ms > 0 && strcmp(rows[i].variant, b->name) == 0) base = &rows[i];
    if (!base) return;
    const double ms = base->ms;
    for (int i = 0; i < n; i++)
        if (rows[i].ran && rows[i].ms > 0 && rows[i].backend != LAB_BACKEND_SIM)
            rows[i].speedup = ms / rows[i].ms;
}

/* ------------------------------------------------------------ validation */


static long long pow2_below(long long x)
{
    long long p = 1;
    while (p * 2 <= x) p *= 2;
    return p;
}

/* n as the user set it, or the algorithm's default. The defaults are the
 * lectures' sizes, meant for a GPU; on the simulator a default that is past
 * its limit becomes a quarter of the limit, so `run` works on any machine. */
static long long resolved_n(const lab_algo *a, const lab_config *cfg)
{
    if (cfg->n > 0) return cfg->n;
    long long n = a->n_default;
    if (a->sim_default_n > 0 && lab_kernel_backend(cfg) == LAB_BACKEND_SIM) n = a->sim_default_n;
    return n;
}

/* Elements one block of v covers under cfg (LAB_GRID_COVERS_N variants). */
static long long grid_per_block(const lab_variant *v, const lab_config *cfg)
{
    long long block = cfg->block > 0 ? cfg->block : v->block_default;
    if (cfg->block_y > 0) block *= cfg->block_y;
    return block * (v->items_per_thread > 1 ? v->items_per_thread : 1);
}

/* Does a grid the user set leave elements of n without a thread? */
static int grid_short(const lab_variant *v, const lab_config *cfg, long long n)
{
    if (!v || !(v->flags & LAB_GRID_COVERS_N) || cfg->grid <= 0 || (v->flags & LAB_BLOCK_2D)) return 0;
    long long per = grid_per_block(v, cfg);
    return per > 0 && cfg->grid < lab_ceil_div(n, per);
}

static const char *(*g_translate)(const char *msgid);

void lab_set_translate(const char *(*fn)(const char *msgid)) { g_translate = fn; }

const char *lab_tr(const char *msgid) { return g_translate && msgid && *msgid ? g_translate(msgid) : msgid; }

int lab_validate(const lab_algo *a, const lab_variant *v, const lab_config *cfg, char *msg, size_t len)
{
    long long n = resolved_n(a, cfg);
    if (n <= 0) {
        snprintf(msg, len, "%s", L_("n must be at least 1"));
        return -1;
    }
    unsigned dts = v && v->dtypes ? v->dtypes : a->dtypes;
    if (dts && !(dts & LAB_DT(cfg->dtype))) {
        char allowed[64] = "";
        for (int i = 0; i < LAB_NDTYPES; i++)
            if (dts & LAB_DT(i)) {
                if (allowed[0]) strncat(allowed, ", ", sizeof allowed - strlen(allowed) - 1);
                strncat(allowed, dtype_names[i], sizeof allowed - strlen(allowed) - 1);
            }
        snprintf(msg, len, L_("%s%s%s works on %s, not %s"), a->name, v ? "/" : "", v ? v->name : "",
                 allowed, lab_dtype_name(cfg->dtype));
        return -1;
    }
    if (!v) return 0;
    if ((v->flags & LAB_POW2_N) && !lab_is_pow2(n) && !cfg->pad) {
        long long lo = pow2_below(n);
        snprintf(msg, len,
                 L_("%s/%s needs n to be a power of two; the nearest are %lld and %lld "
                    "(or `set pad on` to pad with the largest value)"),
                 a->name, v->name, lo, lo * 2);
        return -1;
    }
    if (v->kind == LAB_ROW_CPU || v->kind == LAB_ROW_LIB) return 0;
    if (cfg->block != 0) {
        if (v->flags & LAB_FIXED_BLOCK) {
            if (cfg->block != v->block_default) {
                snprintf(msg, len, L_("%s/%s chooses its own block size (%d); use `set block auto`"),
                         a->name, v->name, v->block_default);
                return -1;
            }
        } else {
            int lo = v->block_min > 0 ? v->block_min : 1, hi = v->block_max > 0 ? v->block_max : 1024;
            long long threads = (long long)cfg->block * (cfg->block_y > 0 ? cfg->block_y : 1);
            if (cfg->block < 1 || threads < lo || threads > hi) {
                snprintf(msg, len,
                         (v->flags & LAB_POW2_BLOCK)
                             ? L_("block %lld is out of range for %s/%s: allowed %d..%d threads, a power of two")
                             : L_("block %lld is out of range for %s/%s: allowed %d..%d threads"),
                         threads, a->name, v->name, lo, hi);
                return -1;
            }
            if ((v->flags & LAB_POW2_BLOCK) && !lab_is_pow2(cfg->block)) {
                snprintf(msg, len,
                         L_("%s/%s needs block to be a power of two in %d..%d "
                            "(%d is not; try %lld or %lld)"),
                         a->name, v->name, lo, hi, cfg->block, pow2_below(cfg->block),
                         pow2_below(cfg->block) * 2);
                return -1;
            }
        }
    }
    if (cfg->grid != 0) {
        if (v->flags & LAB_FIXED_GRID) {
            snprintf(msg, len, L_("%s/%s derives its grid from n; use `set grid auto`"), a->name, v->name);
            return -1;
        }
        if (cfg->grid < 1 || cfg->grid > 2147483647LL) {
            snprintf(msg, len, L_("grid must be 1..2147483647 blocks (or auto), not %lld"), cfg->grid);
            return -1;
        }
        if (cfg->grid_y != 0 && (cfg->grid_y < 1 || cfg->grid_y > 65535)) {
            snprintf(msg, len, L_("the grid's y extent must be 1..65535 blocks, not %lld"), cfg->grid_y);
            return -1;
        }
        /* One thread per element and no grid-stride loop: a grid the user
         * sets must reach the last element. The lecture's version that does
         * not is kept on purpose (LAB_WRONG_ON_PURPOSE): lab_run labels it. */
        if (grid_short(v, cfg, n) && !(v->flags & LAB_WRONG_ON_PURPOSE)) {
            long long per = grid_per_block(v, cfg);
            snprintf(msg, len,
                     L_("%s/%s has no grid-stride loop, so its grid must reach every element: grid "
                        "%lld reaches %lld of n = %lld; allowed %lld..2147483647 blocks (or auto)"),
                     a->name, v->name, cfg->grid, cfg->grid * per, n, lab_ceil_div(n, per));
            return -1;
        }
    }
    if (cfg->block_y < 0) {
        snprintf(msg, len, L_("block's y extent must be 1..1024 threads (or auto), not %d"), cfg->block_y);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ inputs */

/* lab_output.h: the input whose rows' outputs are kept, and the last one */
static struct {
    const lab_input *in;
    void *out;
    size_t bytes;
} kept;

int lab_input_prepare(lab_input *in, const lab_algo *a, const lab_config *cfg, char *msg, size_t len)
{
    memset(in, 0, sizeof *in);
    in->omp_ms = -1;
    lab_job *j = &in->job;
    j->cfg = cfg;
    j->algo = a;
    j->n = resolved_n(a, cfg);
    if (j->n <= 0) {
        snprintf(msg, len, "%s", L_("n must be at least 1"));
        return -1;
    }
    double need = a->host_bytes ? a->host_bytes(cfg) : 0;
    double have = lab_host_memory_bytes();
    if (need > 0.6 * have) {
        char nb[32], hb[32];
        lab_fmt_bytes(need, nb, sizeof nb);
        lab_fmt_bytes(have, hb, sizeof hb);
        snprintf(msg, len, L_("this input needs %s of host memory and this machine has %s; choose a smaller n"), nb,
                 hb);
        return -1;
    }
    if (a->prepare(j) != 0) {
        snprintf(msg, len, "%s", j->err[0] ? j->err : L_("could not prepare the input"));
        lab_input_free(in);
        return -1;
    }
    return 0;
}

void lab_input_free(lab_input *in)
{
    const lab_algo *a = in->job.algo;
    if (kept.in == in) {
        free(kept.out);
        memset(&kept, 0, sizeof kept);
    }
    if (in->have_ref) {
        free(in->ref.out);
        in->ref.out = NULL;
    }
    if (a && a->release) a->release(&in->job);
    free(in->job.priv);
    in->job.priv = NULL;
    free(in->job.in);
    in->job.in = NULL;
    in->have_ref = 0;
}

lab_input *lab_input_new(const lab_algo *a, const lab_config *cfg, char *msg, size_t len)
{
    lab_input *in = malloc(sizeof *in);
    if (!in) {
        snprintf(msg, len, "out of host memory for the input");
        return NULL;
    }
    if (lab_input_prepare(in, a, cfg, msg, len) != 0) {
        free(in);
        return NULL;
    }
    return in;
}

void lab_input_delete(lab_input *in)
{
    if (!in) return;
    lab_input_free(in);
    free(in);
}

long long lab_input_n(const lab_input *in) { return in->job.n; }

long long lab_input_sim_items(const lab_input *in) { return in->job.sim_items; }

void lab_input_set_probe(lab_input *in, struct lab_probe *p) { in->job.probe = p; }

void lab_input_keep_output(lab_input *in, int on)
{
    if (kept.in != in) {
        free(kept.out);
        memset(&kept, 0, sizeof kept);
    }
    kept.in = on ? in : NULL;
}

const void *lab_input_output(const lab_input *in, size_t *bytes)
{
    *bytes = kept.in == in && kept.out ? kept.bytes : 0;
    return kept.in == in ? kept.out : NULL;
}

/* ------------------------------------------------------------ running */

lab_backend lab_kernel_backend(const lab_config *cfg)
{
    if (cfg->backend == LAB_BACKEND_SIM) return LAB_BACKEND_SIM;
    if (cfg->backend == LAB_BACKEND_GPU) return LAB_BACKEND_GPU;
    return lab_gpu_available() ? LAB_BACKEND_GPU : LAB_BACKEND_SIM;
}

lab_backend lab_row_backend(const lab_variant *v, const lab_config *cfg)
{
    return v->kind == LAB_ROW_CPU   ? LAB_BACKEND_CPU
         : v->kind == LAB_ROW_LIB   ? LAB_BACKEND_GPU
                                    : lab_kernel_backend(cfg);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double lab_median(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

static void result_init(lab_result *r, const lab_job *j, const lab_variant *v)
{
    memset(r, 0, sizeof *r);
    snprintf(r->algo, sizeof r->algo, "%s", j->algo->name);
    snprintf(r->variant, sizeof r->variant, "%s", v->name);
    r->backend = j->backend;
    r->n = j->n;
    r->dtype = j->cfg->dtype;
    r->block = j->block;
    r->block_y = j->block_y;
    r->grid = j->grid;
    r->grid_y = j->grid_y;
    r->gbps = r->pct_peak = r->speedup = -1;
    r->rel_error = -1;
    r->correct = -1;
}

static void not_run(lab_result *r, const char *fmt, const char *arg)
{
    r->ran = 0;
    snprintf(r->note, sizeof r->note, fmt, arg);
}

/* The job for one row: the prepared input plus the row's own output buffer. */
static int job_init(lab_job *j, lab_input *in, const lab_variant *v, lab_backend be)
{
    *j = in->job;
    j->variant = v;
    j->backend = be;
    j->nsamples = 0;
    j->nallocs = 0;
    j->trace = NULL;
    j->trace_buf_threads = 0;
    j->note[0] = j->err[0] = 0;
    j->block = j->cfg->block > 0 ? j->cfg->block : v->block_default;
    j->block_y = j->cfg->block_y;
    j->grid = j->cfg->grid > 0 ? j->cfg->grid : v->grid_default;
    j->grid_y = j->cfg->grid_y;
    j->out = malloc(j->out_bytes ? j->out_bytes : 1);
    if (!j->out) {
        snprintf(j->err, sizeof j->err, "out of host memory for the output");
        return -1;
    }
    memset(j->out, 0xA5, j->out_bytes); /* poison: unwritten outputs show */
    return 0;
}

static int call_entry(lab_job *j, lab_fn fn)
{
    int rc = fn(j);
    lab_job_free_allocs(j);
    return rc;
}

/* Run the reference row once per input: its output is what the other rows
 * are checked against, and its time is what speedups are measured against. */
static void ensure_reference(lab_input *in)
{
    if (in->have_ref) return;
    const lab_variant *b = lab_algo_baseline(in->job.algo);
    if (!b || !b->cpu) return;
    lab_job *j = &in->ref;
    if (job_init(j, in, b, LAB_BACKEND_CPU) != 0) return;
    if (call_entry(j, b->cpu) != 0 || j->nsamples == 0) {
        free(j->out);
        j->out = NULL;
        return;
    }
    double s[LAB_MAX_REPEATS];
    memcpy(s, j->samples, sizeof(double) * j->nsamples);
    in->omp_ms = lab_median(s, j->nsamples);
    in->have_ref = 1;
}

static void fill_trace_header(lab_trace *t, const lab_job *j)
{
    t->backend = j->backend;
    snprintf(t->algo, sizeof t->algo, "%s", j->algo->name);
    snprintf(t->variant, sizeof t->variant, "%s", j->variant->name);
    t->n = j->n;
    t->dtype = j->cfg->dtype;
    if (!t->smem_elem_bytes) t->smem_elem_bytes = 4;
    free(t->input);
    t->input = malloc(sizeof(double) * (size_t)(j->n > 0 ? j->n : 1));
    if (!t->input || !j->in) return;
    for (long long i = 0; i < j->n; i++) {
        switch (j->cfg->dtype) {
        case LAB_INT: t->input[i] = ((const int *)j->in)[i]; break;
        case LAB_FLOAT: t->input[i] = ((const float *)j->in)[i]; break;
        case LAB_DOUBLE: t->input[i] = ((const double *)j->in)[i]; break;
        case LAB_U8: t->input[i] = ((const unsigned char *)j->in)[i]; break;
        default: t->input[i] = 0;
        }
    }
}

int lab_run(lab_input *in, const lab_variant *v, lab_result *r, lab_trace *trace)
{
    const lab_config *cfg = in->job.cfg;
    const lab_algo *a = in->job.algo;
    lab_backend be = lab_row_backend(v, cfg);
    lab_job j;
    memset(&j, 0, sizeof j);
    j = in->job;
    j.variant = v;
    j.backend = be;
    j.block = cfg->block > 0 ? cfg->block : v->block_default;
    j.grid = cfg->grid > 0 ? cfg->grid : v->grid_default;
    result_init(r, &j, v);

    char msg[LAB_ERR_MAX];
    if (lab_validate(a, v, cfg, msg, sizeof msg) != 0) {
        not_run(r, "%s", msg);
        return -1;
    }
    lab_fn fn = NULL;
    if (be == LAB_BACKEND_CPU) {
        fn = v->cpu;
    } else if (be == LAB_BACKEND_GPU) {
        if (!lab_gpu_available()) {
            const char *why = lab_device_disabled();
            if (v->kind == LAB_ROW_LIB)
                not_run(r, L_("%s is vendor library code: it needs a GPU, and the simulator cannot run it"),
                        v->name);
            else
                not_run(r, L_("no GPU for `set backend gpu`: %s"), why ? why : lab_device()->why_not);
            return -1;
        }
        fn = trace ? v->gpu_traced : v->gpu;
    } else {
        long long items = in->job.sim_items > 0 ? in->job.sim_items : in->job.n;
        /* elements (n, or an image's or a matrix's n x n) are refused here;
         * a count of work beyond them (matmul's n^3 / 4) by the family's own
         * check, which says what it counts */
        int work = (double)items > (double)in->job.n * (double)in->job.n;
        if (items > cfg->sim_limit && !work) {
            char lim[64];
            snprintf(lim, sizeof lim, "%lld", cfg->sim_limit);
            snprintf(r->note, sizeof r->note,
                     L_("%lld elements are past the simulator's limit of %s (one CPU thread "
                     "plays every GPU thread); choose a smaller n or raise `set sim-limit`"),
                     items, lim);
            r->ran = 0;
            return -1;
        }
        fn = v->sim;
    }
    if (!fn) {
        not_run(r, L_("%s has no entry point for this backend"), v->name);
        return -1;
    }
    if (trace) {
        if (v->trace_max_n <= 0) {
            not_run(r, L_("%s cannot be traced"), v->name);
            return -1;
        }
        if (in->job.n > v->trace_max_n) {
            snprintf(r->note, sizeof r->note,
                     L_("tracing records every step of every thread, so it is for small inputs: "
                     "%s/%s can be traced up to n = %lld (n is %lld)"),
                     a->name, v->name, v->trace_max_n, in->job.n);
            return -1;
        }
    }

    if (v->kind != LAB_ROW_CPU || !(v->flags & LAB_OMP_BASELINE)) ensure_reference(in);

    if (job_init(&j, in, v, be) != 0) {
        not_run(r, "%s", j.err);
        return -1;
    }
    if (trace) {
        memset(trace, 0, sizeof *trace);
        j.trace = trace;
        fill_trace_header(trace, &j);
    }
    /* simulator rows count their accesses for the estimated GPU time */
    prof_session counts;
    int counting = be == LAB_BACKEND_SIM && !trace && prof_available() && prof_begin(&counts, NULL, 0) == 0;
    int rc = call_entry(&j, fn);
    if (counting) prof_end(&counts);
    result_init(r, &j, v); /* entries may have derived block and grid */
    if (trace) lab_trace_sort(trace);
    if (rc != 0 || j.nsamples == 0) {
        not_run(r, "%s", j.err[0] ? j.err : (lab_interrupted ? L_("interrupted") : L_("did not run")));
        if (counting) prof_free(&counts);
        free(j.out);
        return -1;
    }

    r->ran = 1;
    r->repeats = j.nsamples;
    double s[LAB_MAX_REPEATS];
    memcpy(s, j.samples, sizeof(double) * j.nsamples);
    r->ms = lab_median(s, j.nsamples);
    r->ms_min = s[0];
    r->ms_max = s[j.nsamples - 1];
    r->bytes = j.bytes;
    /* Simulator time is not GPU time: no GB/s, no % of peak, no speedup. */
    if (be != LAB_BACKEND_SIM && r->ms > 0 && j.bytes > 0) {
        r->gbps = j.bytes / (r->ms * 1e6);
        double peak = be == LAB_BACKEND_GPU ? lab_device_copy_gbps() : 0;
        if (peak > 0) r->pct_peak = 100.0 * r->gbps / peak;
    }
    int becomes_ref = (v->flags & LAB_OMP_BASELINE) && !in->have_ref;
    if (becomes_ref) in->omp_ms = r->ms;
    if (be != LAB_BACKEND_SIM && in->omp_ms > 0 && r->ms > 0) r->speedup = in->omp_ms / r->ms;
    const lab_job *ref = in->have_ref ? &in->ref : &j;
    if (a->check) a->check(&j, ref, r);
    /* what a check left in est_ms is the host's part of the timed region */
    double host_ms = r->est_ms > 0 ? r->est_ms : 0;
    r->est_ms = 0;
    if (counting) {
        const occ_model *m = occ_model_find(cfg->model[0] ? cfg->model : "h200");
        prof_work w = {r->ops, r->ops_unit[0] ? r->ops_unit : NULL, cfg->dtype};
        prof_estimate e;
        prof_estimate_session(&counts, m ? m : occ_model_find("h200"), &w, &e);
        /* and the timed region's copy back and the host's sum of what came back */
        if (!counts.failed) r->est_ms = e.ms + host_ms;
        prof_free(&counts);
    }
    if (becomes_ref) {
        /* This row is the reference: keep its output for the other rows. */
        in->ref = j;
        in->have_ref = 1;
        j.out = NULL;
    }
    if (j.note[0]) {
        size_t l = strlen(r->note);
        snprintf(r->note + l, sizeof r->note - l, "%s%s", l ? "; " : "", j.note);
    }
    if (grid_short(v, cfg, j.n)) {
        size_t l = strlen(r->note);
        snprintf(r->note + l, sizeof r->note - l,
                 L_("%sgrid %lld reaches %lld of %lld elements: the lecture's bug, allowed on purpose"),
                 l ? "; " : "", cfg->grid, cfg->grid * grid_per_block(v, cfg), j.n);
    }
    if (trace) trace->result = r->value;
    if (kept.in == in) {
        free(kept.out);
        kept.out = j.out;
        kept.bytes = j.out_bytes;
        j.out = NULL;
    }
    free(j.out);
    return 0;
}

/* ------------------------------------------------------------ traces */

int lab_trace_append(lab_trace *t, const lab_event *ev, size_t n, char *err, size_t errlen)
{
    if (t->count + n > t->cap) {
        size_t cap = t->cap ? t->cap : 1024;
        while (cap < t->count + n) cap *= 2;
        if (cap > (64u << 20) / sizeof(lab_event) * 8) {
            snprintf(err, errlen, "the trace grew past %zu events; trace at a smaller n", t->cap);
            t->truncated = 1;
            return -1;
        }
        lab_event *p = realloc(t->ev, cap * sizeof *p);
        if (!p) {
            snprintf(err, errlen, "out of memory recording the trace");
            return -1;
        }
        t->ev = p;
        t->cap = cap;
    }
    memcpy(t->ev + t->count, ev, n * sizeof *ev);
    t->count += n;
    return 0;
}

int lab_trace_add_launch(lab_trace *t, const char *kernel, const unsigned grid[3],
                         const unsigned block[3], char *err, size_t errlen)
{
    if (t->nlaunches >= LAB_TRACE_MAX_LAUNCHES) {
        snprintf(err, errlen, "more than %d launches in one traced run; trace at a smaller n",
                 LAB_TRACE_MAX_LAUNCHES);
        return -1;
    }
    lab_launch_info *l = &t->launches[t->nlaunches++];
    snprintf(l->kernel, sizeof l->kernel, "%s", kernel);
    for (int i = 0; i < 3; i++) {
        l->grid[i] = grid[i];
        l->block[i] = block[i];
    }
    return 0;
}

int lab_event_cmp(const lab_event *x, const lab_event *y)
{
#define KEY(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
    KEY(launch); KEY(block); KEY(thread); KEY(epoch); KEY(seq);
#undef KEY
    return 0;
}

static int ev_qcmp(const void *a, const void *b) { return lab_event_cmp(a, b); }

void lab_trace_sort(lab_trace *t)
{
    if (t->count > 1) qsort(t->ev, t->count, sizeof *t->ev, ev_qcmp);
}

const char *lab_event_kind_name(int kind)
{
    static const char *const names[] = {"?", "read", "write", "add", "cswap",
                                        "atomic", "barrier", "shfl", "mark"};
    return kind > 0 && kind <= LAB_EV_MARK ? names[kind] : "?";
}

static int same_value(double a, double b)
{
    if (a == b || (isnan(a) && isnan(b))) return 1;
    return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

int lab_trace_compare(const lab_trace *a, const lab_trace *b, char *msg, size_t len)
{
    if (a->nlaunches != b->nlaunches) {
        snprintf(msg, len, "%d launches against %d", a->nlaunches, b->nlaunches);
        return -1;
    }
    if (a->count != b->count) {
        snprintf(msg, len, "%zu events against %zu", a->count, b->count);
        return -1;
    }
    for (size_t i = 0; i < a->count; i++) {
        const lab_event *x = &a->ev[i], *y = &b->ev[i];
        int diff = lab_event_cmp(x, y) != 0 || x->kind != y->kind || x->space != y->space ||
                   x->a != y->a || x->b != y->b || !same_value(x->v, y->v);
        /* An atomic's old value depends on the order threads arrived in. */
        if (!diff && x->kind != LAB_EV_ATOMIC) diff = !same_value(x->v2, y->v2);
        if (diff) {
            snprintf(msg, len,
                     "event %zu differs: launch %u block %u thread %u epoch %u seq %u: "
                     "%s a=%d b=%d v=%g v2=%g against %s a=%d b=%d v=%g v2=%g",
                     i, x->launch, x->block, x->thread, x->epoch, x->seq,
                     lab_event_kind_name(x->kind), x->a, x->b, x->v, x->v2,
                     lab_event_kind_name(y->kind), y->a, y->b, y->v, y->v2);
            return -1;
        }
    }
    return 0;
}

void lab_trace_free(lab_trace *t)
{
    free(t->ev);
    free(t->input);
    if (t->parts)
        for (int d = 0; d < t->gpus; d++) lab_trace_free(&t->parts[d]);
    free(t->parts);
    free(t->multi);
    memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------ CPU timing */

lab_cpu_timer lab_cpu_timer_begin(lab_job *job)
{
    lab_cpu_timer t;
    memset(&t, 0, sizeof t);
    t.job = job;
    job->nsamples = 0;
    int reps = job->cfg->repeats < 1 ? 1 : job->cfg->repeats;
    if (reps > LAB_MAX_REPEATS) reps = LAB_MAX_REPEATS;
    t.total = 1 + reps; /* one warm-up */
    clock_gettime(CLOCK_MONOTONIC, &t.t0);
    return t;
}

int lab_cpu_timer_running(lab_cpu_timer *t)
{
    return t->i < t->total;
}

void lab_cpu_timer_lap(lab_cpu_timer *t)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (t1.tv_sec - t->t0.tv_sec) * 1e3 + (t1.tv_nsec - t->t0.tv_nsec) / 1e6;
    if (t->i >= 1) t->job->samples[t->job->nsamples++] = ms;
    t->i++;
    if (lab_interrupted && t->job->nsamples > 0) t->i = t->total;
    clock_gettime(CLOCK_MONOTONIC, &t->t0);
}

/* --------------------------------------------------------- several GPUs */

const char *lab_combine_name(lab_combine c)
{
    switch (c) {
    case LAB_COMBINE_HOST: return "host";
    case LAB_COMBINE_P2P: return "p2p";
    case LAB_COMBINE_NCCL: return "nccl";
    default: return "?";
    }
}

/* Contiguous slices that differ by at most one element: the first n % gpus
 * slices take the one left over each. */
void lab_multi_split(long long n, int gpus, int d, long long *lo, long long *len)
{
    if (gpus < 1) gpus = 1;
    long long q = n / gpus, r = n % gpus;
    *len = q + (d < r ? 1 : 0);
    *lo = d * q + (d < r ? d : r);
}

int lab_multi_run(lab_input *in, const lab_variant *v, lab_multi *m, lab_trace *traces, char *msg, size_t len)
{
    const lab_config *cfg = in->job.cfg;
    const lab_algo *a = in->job.algo;
    memset(m, 0, sizeof *m);
    m->gpus = cfg->gpus < 1 ? 1 : cfg->gpus;
    m->n = in->job.n;
    m->backend = lab_row_backend(v, cfg);
    if (!a->multi) {
        snprintf(msg, len, "%s runs on one GPU only; set gpus 1 (several GPUs: reduce)", a->name);
        return -1;
    }
    if (v->kind == LAB_ROW_CPU) {
        snprintf(msg, len, "%s is a CPU row; across GPUs run a kernel variant", v->name);
        return -1;
    }
    if (m->gpus > LAB_MAX_GPUS) {
        snprintf(msg, len, "gpus is %d; gpulab splits over 1 to %d GPUs", m->gpus, LAB_MAX_GPUS);
        return -1;
    }
    if (v->kind == LAB_ROW_LIB && !lab_gpu_available()) {
        snprintf(msg, len, "%s is vendor library code: it needs a GPU, and the simulator cannot run it", v->name);
        return -1;
    }
    if (m->backend == LAB_BACKEND_GPU && m->gpus > lab_device_count()) {
        snprintf(msg, len, "gpus is %d but this machine has %d GPU%s; set gpus 1..%d (or backend sim to "
                 "model up to %d)", m->gpus, lab_device_count(), lab_device_count() == 1 ? "" : "s",
                 lab_device_count(), LAB_MAX_GPUS);
        return -1;
    }
    if ((long long)m->gpus > in->job.n) {
        snprintf(msg, len, "n = %lld cannot be split over %d GPUs (one element each at least)", in->job.n,
                 m->gpus);
        return -1;
    }
    if (a->multi(in, v, m, traces) != 0) {
        const char *why = "did not run";
        for (int d = 0; d < m->gpus; d++)
            if (!m->part[d].ran && m->part[d].note[0]) {
                why = m->part[d].note;
                break;
            }
        snprintf(msg, len, "%s", why);
        return -1;
    }
    return 0;
}
