/* sweep.c - the sweep engine, its value ranges, and the occupancy of one
 * launch on the GPU or on a model (see sweep.h). */
#include "repl/explore/sweep.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/i18n.h"
#include "repl/parse.h"

const char *sweep_axis_name(sweep_axis a)
{
    switch (a) {
    case SWEEP_BLOCK: return "block";
    case SWEEP_GRID: return "grid";
    default: return "n";
    }
}

int sweep_axis_parse(const char *s, sweep_axis *out)
{
    static const char *const names[] = {"block", "grid", "n"};
    int k = parse_lookup(s, names, 3, NULL, 0, NULL);
    if (k < 0) return -1;
    *out = (sweep_axis)k;
    return 0;
}

/* ------------------------------------------------------------ values */

static int fail(char *err, size_t len, int *bad, int at, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int fail(char *err, size_t len, int *bad, int at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    if (bad) *bad = at;
    return -1;
}

/* The message is already in err: only say where. */
static int failed_at(int *bad, int at)
{
    if (bad) *bad = at;
    return -1;
}

static int value(const char *s, long long *out, char *err, size_t len)
{
    char e[256];
    if (parse_size(s, 1, LLONG_MAX / 4, out, e, sizeof e) == 0) return 0;
    /* the parser's message names the accepted forms; add the sweep's floor */
    snprintf(err, len, _("\"%s\": %s (sweep values are at least 1)"), s, e);
    return -1;
}

static int too_many(char *err, size_t len, int *bad, int at, long long count, int max)
{
    return fail(err, len, bad, at,
                _("that makes %lld values; a sweep takes at most %d: use a larger step or a shorter "
                  "range"), count, max);
}

int sweep_parse_values(int nw, char **w, long long *vals, int max, int *count, int *used, char *err,
                       size_t len, int *bad)
{
    *count = 0;
    *used = 0;
    if (nw < 1 || !w[0][0])
        return fail(err, len, bad, 0, _("give the values: LO..HI (doubling), LO..HI step S, or A,B,C"));
    const char *r = w[0];
    const char *dots = strstr(r, "..");
    *used = 1;
    if (!dots) {
        if (nw > 1 && strcmp(w[1], "step") == 0)
            return fail(err, len, bad, 1, _("step goes with a range LO..HI, not with a list"));
        /* a list, or one value */
        char *copy = strdup(r);
        if (!copy) return fail(err, len, bad, 0, _("out of memory"));
        int rc = 0;
        char *save = NULL;
        int items = 0;
        for (const char *p = r; *p; p++) items += *p == ',';
        if (items + 1 > max) {
            free(copy);
            return too_many(err, len, bad, 0, items + 1, max);
        }
        if (r[0] == ',' || r[strlen(r) - 1] == ',' || strstr(r, ",,")) {
            free(copy);
            return fail(err, len, bad, 0, _("an empty item in the list \"%s\""), r);
        }
        for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
            long long v;
            if (value(t, &v, err, len) != 0) {
                rc = failed_at(bad, 0);
                break;
            }
            vals[(*count)++] = v;
        }
        free(copy);
        return rc;
    }
    char lo_s[128], hi_s[128];
    size_t ll = (size_t)(dots - r);
    if (ll == 0 || ll >= sizeof lo_s || !dots[2] || strlen(dots + 2) >= sizeof hi_s)
        return fail(err, len, bad, 0, _("write a range as LO..HI, e.g. 32..1024 or 2^10..2^20"));
    memcpy(lo_s, r, ll);
    lo_s[ll] = 0;
    snprintf(hi_s, sizeof hi_s, "%s", dots + 2);
    long long lo, hi;
    if (value(lo_s, &lo, err, len) != 0 || value(hi_s, &hi, err, len) != 0) return failed_at(bad, 0);
    if (hi < lo)
        return fail(err, len, bad, 0, _("the range %s runs downwards; write LO..HI with LO <= HI"), r);
    long long step = 0, factor = 2;
    if (nw > 1 && strcmp(w[1], "step") == 0) {
        if (nw < 3) return fail(err, len, bad, 2, _("step needs a value: step 32, or step x4 to multiply"));
        const char *sv = w[2];
        *used = 3;
        if (sv[0] == 'x' || sv[0] == 'X' || sv[0] == '*') {
            char e[256];
            if (parse_int(sv + 1, 2, 1 << 20, &factor, e, sizeof e) != 0)
                return fail(err, len, bad, 2, _("step %s: the factor must be a whole number 2 or more"), sv);
        } else {
            if (value(sv, &step, err, len) != 0) return failed_at(bad, 2);
        }
    }
    if (step > 0) {
        long long n = (hi - lo) / step + 1;
        if (n > max) return too_many(err, len, bad, step ? 2 : 0, n, max);
        for (long long v = lo; v <= hi; v += step) vals[(*count)++] = v;
    } else {
        for (long long v = lo; v <= hi; v *= factor) {
            if (*count >= max) {
                long long n = *count;
                for (long long u = v; u <= hi; u *= factor) n++;
                return too_many(err, len, bad, *used > 1 ? 2 : 0, n, max);
            }
            vals[(*count)++] = v;
            if (v > LLONG_MAX / factor) break;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ occupancy */

const occ_model *sweep_model(const lab_config *cfg, int *fallback)
{
    const occ_model *m = occ_model_find(cfg->model);
    if (fallback) *fallback = m == NULL;
    return m ? m : occ_model_find("h200");
}

const lab_launch_probe *sweep_main_launch(const lab_launch_probe *l, int n)
{
    const lab_launch_probe *best = NULL;
    double most = -1;
    for (int i = 0; i < n; i++) {
        double t = (double)l[i].grid[0] * l[i].grid[1] * l[i].grid[2] * l[i].block[0] * l[i].block[1] *
                   l[i].block[2];
        if (t > most) {
            most = t;
            best = &l[i];
        }
    }
    return best;
}

long sweep_optin_limit(const lab_launch_probe *l, const occ_model *m, long static_smem)
{
    /* A launch that ran with more dynamic shared memory than a block gets by
     * default had opted in (cudaFuncSetAttribute): the launch check refuses
     * it otherwise, on the simulator as on the GPU. */
    if (l->max_dynamic_smem > m->smem_per_block - static_smem) return (long)l->max_dynamic_smem;
    if (static_smem + (long)l->dynamic_smem > m->smem_per_block) return m->smem_per_block_optin - static_smem;
    return 0;
}

/* Append to the English text (for exports) and to the screen's words the
 * same message: fmt in English, and its translation. */
static void occ_both(char *en, size_t enlen, char *tr, size_t trlen, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void occ_both(char *en, size_t enlen, char *tr, size_t trlen, const char *fmt, ...)
{
    size_t le = strlen(en), lt = strlen(tr);
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    if (le < enlen) vsnprintf(en + le, enlen - le, fmt, ap);
    if (lt < trlen) vsnprintf(tr + lt, trlen - lt, _(fmt), aq);
    va_end(aq);
    va_end(ap);
}
#define OCC_SRC(o, ...) occ_both((o)->source, sizeof (o)->source, (o)->source_words, sizeof (o)->source_words, __VA_ARGS__)
#define OCC_NOTE(o, ...) occ_both((o)->note, sizeof (o)->note, (o)->note_words, sizeof (o)->note_words, __VA_ARGS__)

static void occ_on_model(const lab_launch_probe *l, const lab_config *cfg, sweep_occ *o, int threads)
{
    int fb = 0;
    const occ_model *m = sweep_model(cfg, &fb);
    char rnote[128] = "";
    const occ_resource *res = occ_resource_find_block(lab_resource_table, lab_resource_count, l->kernel,
                                                      cfg->dtype, m->cc_major * 10 + m->cc_minor, threads,
                                                      rnote, sizeof rnote);
    occ_kernel k;
    memset(&k, 0, sizeof k);
    k.regs = res ? res->regs : 0;
    k.static_smem = res ? res->static_smem : 0;
    k.dynamic_smem = (long)l->dynamic_smem;
    k.max_dynamic_smem = sweep_optin_limit(l, m, k.static_smem);
    occ_compute(m, &k, threads, &o->r);
    o->regs = res ? res->regs : -1;
    o->static_smem = res ? res->static_smem : -1;
    OCC_SRC(o, N_("model %s"), m->name);
    if (fb) OCC_NOTE(o, N_("no model \"%s\", so h200's figures; "), cfg->model);
    if (res)
        OCC_NOTE(o, N_("registers as ptxas compiled it for sm_%d%s%s"), res->arch, rnote[0] ? "; " : "", rnote);
    else
        OCC_NOTE(o, N_("registers of %s unknown (%s): the register limit is left out"), l->kernel,
                 lab_resource_count > 0 ? "not in the build's table" : lab_resource_origin);
    o->known = 1;
}

void sweep_launch_occupancy(const lab_launch_probe *l, const lab_config *cfg, lab_backend be,
                            sweep_occ *o)
{
    memset(o, 0, sizeof *o);
    o->regs = -1;
    o->static_smem = -1;
    o->dynamic_smem = (long)l->dynamic_smem;
    o->threads = (int)(l->block[0] * l->block[1] * l->block[2]);
    if (be != LAB_BACKEND_GPU || !l->func) {
        occ_on_model(l, cfg, o, o->threads);
        return;
    }
    char msg[256];
    occ_kernel k;
    if (occ_api_kernel(l->func, &k, msg, sizeof msg) != 0) {
        OCC_NOTE(o, "%s", msg);
        return;
    }
    k.dynamic_smem = (long)l->dynamic_smem;
    static occ_model m;
    static char title[256];
    if (occ_model_from_device(&m, title, sizeof title) != 0) {
        OCC_NOTE(o, N_("the GPU could not be described"));
        return;
    }
    occ_compute(&m, &k, o->threads, &o->r);
    o->regs = k.regs;
    o->static_smem = k.static_smem;
    int api = occ_api_blocks_per_sm(l->func, o->threads, l->dynamic_smem, msg, sizeof msg);
    if (api < 0) {
        OCC_NOTE(o, N_("%s; figures from the calculator"), msg);
        OCC_SRC(o, N_("calculator (%s)"), title);
    } else {
        OCC_SRC(o, N_("CUDA occupancy API (%s)"), title);
    }
    if (api >= 0 && api != o->r.blocks_per_sm) {
        /* the driver knows best; the limiter is the resource that allows
         * exactly that many, if one does */
        OCC_NOTE(o, N_("the calculator says %d blocks per SM, the API %d"), o->r.blocks_per_sm, api);
        occ_result *r = &o->r;
        r->blocks_per_sm = api;
        r->active_warps = api * r->warps_per_block;
        r->occupancy = r->max_warps > 0 ? (double)r->active_warps / r->max_warps : 0;
        r->limiters = (r->by_warps == api ? OCC_LIM_WARPS : 0) | (r->by_regs == api ? OCC_LIM_REGS : 0) |
                      (r->by_smem == api ? OCC_LIM_SMEM : 0) | (r->by_blocks == api ? OCC_LIM_BLOCKS : 0);
    }
    o->known = 1;
}

void sweep_device_text(const lab_config *cfg, char *buf, size_t len)
{
    if (lab_kernel_backend(cfg) == LAB_BACKEND_GPU) {
        const lab_device_info *d = lab_device();
        snprintf(buf, len, "%s (compute capability %d.%d, %d SMs)", d->name, d->cc_major, d->cc_minor,
                 d->sms);
        return;
    }
    const occ_model *m = sweep_model(cfg, NULL);
    snprintf(buf, len, "the simulator; occupancy for model %s (%s)", m->name, m->title);
}

void sweep_device_words(const lab_config *cfg, char *buf, size_t len)
{
    if (lab_kernel_backend(cfg) == LAB_BACKEND_GPU) {
        const lab_device_info *d = lab_device();
        snprintf(buf, len, _("%s (compute capability %d.%d, %d SMs)"), d->name, d->cc_major, d->cc_minor,
                 d->sms);
        return;
    }
    const occ_model *m = sweep_model(cfg, NULL);
    snprintf(buf, len, _("the simulator; occupancy for model %s (%s)"), m->name, m->title);
}

char *sweep_limiters_words(unsigned lim, char *buf, size_t len)
{
    /* the order of occ_limiters_text: registers and shared memory first */
    const char *const names[4] = {_("warps"), _("registers"), _("shared memory"), _("blocks")};
    static const int order[4] = {1, 2, 0, 3};
    int n = 0, total = 0;
    size_t off = 0;
    if (len == 0) return buf;
    buf[0] = 0;
    for (int i = 0; i < 4; i++) total += (lim >> i) & 1;
    for (int j = 0; j < 4 && off < len; j++) {
        int i = order[j];
        if (!(lim & (1u << i))) continue;
        n++;
        /* TRANSLATORS: the separators of a list of limits: "registers, shared memory and warps" */
        off += (size_t)snprintf(buf + off, len - off, "%s%s", n == 1 ? "" : n == total ? _(" and ") : _(", "),
                                names[i]);
    }
    if (!buf[0]) snprintf(buf, len, "-");
    return buf;
}

void sweep_date_text(time_t when, char *buf, size_t len)
{
    struct tm tm;
    localtime_r(&when, &tm);
    if (strftime(buf, len, "%Y-%m-%dT%H:%M:%S%z", &tm) == 0 && len) buf[0] = 0;
}

static void point_base(sweep_point *p, const lab_algo *a, const lab_variant *v, const lab_config *c,
                       long long n)
{
    lab_result *r = &p->r;
    memset(r, 0, sizeof *r);
    snprintf(r->algo, sizeof r->algo, "%s", a->name);
    snprintf(r->variant, sizeof r->variant, "%s", v->name);
    r->backend = lab_row_backend(v, c);
    r->n = n;
    r->dtype = c->dtype;
    r->block = c->block > 0 ? c->block : v->block_default;
    r->block_y = c->block_y;
    r->grid = c->grid;
    r->grid_y = c->grid_y;
    r->gbps = r->pct_peak = r->speedup = r->rel_error = -1;
    r->correct = -1;
}

int sweep_run(const lab_algo *a, const lab_variant *const *vs, int nv, const lab_config *cfg,
              sweep_axis axis, const long long *vals, int nvals, sweep_data *d,
              sweep_progress_fn progress, void *ctx, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    if (nv < 1 || nv > SWEEP_MAX_VARIANTS || nvals < 1 || nvals > SWEEP_MAX_VALUES) {
        snprintf(err, errlen, _("a sweep takes 1..%d variants and 1..%d values"), SWEEP_MAX_VARIANTS,
                 SWEEP_MAX_VALUES);
        return -1;
    }
    d->points = calloc((size_t)nv * nvals, sizeof *d->points);
    if (!d->points) {
        snprintf(err, errlen, "%s", _("out of memory"));
        return -1;
    }
    d->axis = axis;
    d->algo = a;
    d->nvariants = nv;
    for (int j = 0; j < nv; j++) d->variants[j] = vs[j];
    d->nvalues = nvals;
    memcpy(d->values, vals, sizeof(long long) * nvals);
    d->cfg = *cfg;
    d->backend = lab_kernel_backend(cfg);
    sweep_device_text(cfg, d->device, sizeof d->device);
    d->when = time(NULL);

    lab_config c = *cfg;
    lab_input *in = NULL;
    lab_launch_probe launches[16];
    lab_probe probe = {launches, 0, 16, 0};
    char msg[LAB_ERR_MAX];
    for (int i = 0; i < nvals && !d->interrupted; i++) {
        long long x = vals[i];
        if (axis == SWEEP_BLOCK) c.block = (int)(x > INT_MAX ? INT_MAX : x);
        else if (axis == SWEEP_GRID) c.grid = x;
        else c.n = x;
        int in_failed = 0;
        if (!in || axis == SWEEP_N) {
            lab_input_delete(in);
            in = lab_input_new(a, &c, msg, sizeof msg);
            if (!in && axis != SWEEP_N) {
                snprintf(err, errlen, "%s", msg);
                free(d->points);
                d->points = NULL;
                return -1;
            } else if (!in) {
                in_failed = 1;
            }
        }
        for (int j = 0; j < nv; j++) {
            if (lab_interrupted) {
                d->interrupted = 1;
                break;
            }
            if (progress) progress(d, i, j, ctx);
            sweep_point *p = &d->points[i * nv + j];
            const lab_variant *v = vs[j];
            p->x = x;
            p->variant = j;
            point_base(p, a, v, &c, in ? lab_input_n(in) : (c.n > 0 ? c.n : a->n_default));
            if (in_failed) {
                p->refused = 1;
                snprintf(p->r.note, sizeof p->r.note, "%s", msg);
            } else if (lab_validate(a, v, &c, p->r.note, sizeof p->r.note) != 0) {
                p->refused = 1;
            } else {
                probe.count = probe.dropped = 0;
                lab_input_set_probe(in, &probe);
                lab_run(in, v, &p->r, NULL);
                lab_input_set_probe(in, NULL);
                const lab_launch_probe *m = sweep_main_launch(launches, probe.count);
                p->launches = probe.count;
                if (m) {
                    snprintf(p->kernel, sizeof p->kernel, "%s", m->kernel);
                    sweep_launch_occupancy(m, &c, p->r.backend, &p->occ);
                }
                if (!p->r.ran && lab_interrupted) {
                    /* stopped inside the point, before any repeat finished */
                    d->interrupted = 1;
                    break;
                }
            }
            d->npoints = i * nv + j + 1;
        }
        if (lab_interrupted) d->interrupted = 1;
    }
    lab_input_delete(in);
    return 0;
}

void sweep_free(sweep_data *d)
{
    free(d->points);
    memset(d, 0, sizeof *d);
}

/* ------------------------------------------------------------ metrics */

int sweep_metric_parse(const char *s, sweep_metric *out)
{
    static const char *const names[] = {"auto", "time", "gbps", "occupancy", "ms", "GB/s"};
    static const sweep_metric m[] = {SWEEP_METRIC_AUTO, SWEEP_METRIC_TIME, SWEEP_METRIC_GBPS,
                                     SWEEP_METRIC_OCCUPANCY, SWEEP_METRIC_TIME, SWEEP_METRIC_GBPS};
    int k = parse_lookup(s, names, 6, NULL, 0, NULL);
    if (k < 0) return -1;
    *out = m[k];
    return 0;
}

double sweep_point_metric(const sweep_point *p, sweep_metric m)
{
    switch (m) {
    case SWEEP_METRIC_GBPS: return p->r.ran && p->r.gbps > 0 ? p->r.gbps : -1;
    case SWEEP_METRIC_OCCUPANCY:
        return p->occ.known && p->r.ran ? 100.0 * p->occ.r.occupancy : -1;
    default:
        /* the simulator's own time is CPU time: its points compare by the
         * estimate of GPU time from the counted accesses */
        if (p->r.backend == LAB_BACKEND_SIM) return p->r.ran && p->r.est_ms > 0 ? p->r.est_ms : -1;
        return p->r.ran && p->r.ms > 0 ? p->r.ms : -1;
    }
}

sweep_metric sweep_metric_resolve(const sweep_data *d, sweep_metric m)
{
    if (m != SWEEP_METRIC_AUTO) return m;
    for (int i = 0; i < d->npoints; i++)
        if (sweep_point_metric(&d->points[i], SWEEP_METRIC_GBPS) > 0) return SWEEP_METRIC_GBPS;
    return SWEEP_METRIC_TIME;
}
