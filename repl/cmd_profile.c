/* cmd_profile.c - profile: the memory counters of a variant's kernels, from
 * the simulator's execution (kernels/profile) or, on a GPU, from Nsight
 * Compute run on gpulab itself; plain words and one sentence per count on
 * screen, Nsight Compute's metric names in --json and export. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "repl/cmd.h"
#include "repl/cmd_profile.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "kernels/profile/profile.h"
#include "repl/session.h"
#include "repl/sweep.h"

/* ------------------------------------------------------- the last profile */

/* What export writes after a profile: one row per launch group and source. */
typedef struct prof_row {
    char algo[LAB_NAME_MAX], variant[LAB_NAME_MAX];
    char source[16];             /* "simulator" or "ncu" */
    prof_counts c;
    int have_est;
    prof_estimate est;
    char model[LAB_NAME_MAX];
    long long n;
} prof_row;

static prof_row *last_rows;
static int last_nrows;
static const lab_result *last_results; /* s->results when the profile was the last table */

/* ------------------------------------------------------------ formatting */

static double per(unsigned long long a, unsigned long long b) { return b ? (double)a / (double)b : 0.0; }

static void fmt_count(unsigned long long v, char *buf, size_t len) { snprintf(buf, len, "%llu", v); }

static void fmt_bytes_h(double b, char *buf, size_t len)
{
    if (b >= 1024.0 * 1024 * 1024) snprintf(buf, len, "%.2f GiB", b / (1024.0 * 1024 * 1024));
    else if (b >= 1024.0 * 1024) snprintf(buf, len, "%.2f MiB", b / (1024.0 * 1024));
    else if (b >= 1024.0) snprintf(buf, len, "%.1f KiB", b / 1024.0);
    else snprintf(buf, len, "%.0f B", b);
}

/* TRANSLATORS: a warp's memory access: "each warp's load touches 4.0 sectors" */
static const char *kind_word(int kind) { return kind == PROF_LD ? _("load") : kind == PROF_ST ? _("store") : _("atomic"); }
/* TRANSLATORS: "shared loads need 1.0 wavefront per request" */
static const char *kind_words(int kind) { return kind == PROF_LD ? _("loads") : kind == PROF_ST ? _("stores") : _("atomics"); }

/* The site of group g, kind and space, whose requests cost most over the
 * ideal; NULL when there is none. */
static const prof_site *worst_site(const prof_session *ses, int g, int space, int kind)
{
    const prof_site *w = NULL;
    double worst = -1;
    for (int i = 0; i < ses->nsites; i++) {
        const prof_site *s = &ses->sites[i];
        if (s->group != g || s->space != space || s->kind != kind || !s->m.requests) continue;
        double r = per(s->m.units, s->m.ideal) * (double)s->m.requests;
        if (r > worst) {
            worst = r;
            w = s;
        }
    }
    return w;
}

static void where_of(const prof_site *s, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!s) return;
    char w[160];
    prof_site_where(s, w, sizeof w);
    if (w[0]) snprintf(buf, len, _(", at %s"), w);
}

/* One sentence on a kind of global access. */
static void say_global(const prof_session *ses, int g, const prof_counts *c, int kind)
{
    const prof_mem *m = &c->mem[PROF_GLOBAL][kind];
    if (!m->requests) return;
    if (!m->ideal) { /* the GPU's counters: no lanes or widths */
        out_printf(_("  - each warp's %s touches %.1f sectors on average: a warp of 4-byte values needs at least 4, "
                     "of 8-byte values 8, of 16-byte values 16.\n"), kind_word(kind), per(m->units, m->requests));
        return;
    }
    const double got = per(m->units, m->requests), ideal = per(m->ideal, m->requests);
    const double lanes = per(m->lanes, m->requests);
    char at[200];
    where_of(g >= 0 ? worst_site(ses, g, PROF_GLOBAL, kind) : NULL, at, sizeof at);
    const char *what = kind == PROF_LD ? _("reads") : kind == PROF_ST ? _("writes") : _("atomics");
    if (got < ideal * 0.95)
        out_printf(_("  - each warp's %s touches %.1f sectors, fewer than %.1f: lanes share words (a broadcast)%s.\n"),
                   kind_word(kind), got, ideal, at);
    else if (got <= ideal * 1.05)
        out_printf(_("  - each warp's %s touches %.1f sectors, the fewest %u-byte values allow: the %s are "
                     "coalesced.\n"), kind_word(kind), got, m->width, what);
    else if (got >= lanes * 0.9 && lanes >= 2)
        out_printf(_("  - each warp's %s touches %.1f sectors, one per lane: the %s are scattered 32 bytes or "
                     "more apart, down a column or with a large stride%s.\n"), kind_word(kind), got, what, at);
    else
        out_printf(_("  - each warp's %s touches %.1f sectors where %.1f would do: %.0f%% of the bytes fetched are "
                     "used%s.\n"), kind_word(kind), got, ideal, 100.0 * ideal / got, at);
}

static void say_shared(const prof_session *ses, int g, const prof_counts *c, int kind)
{
    const prof_mem *m = &c->mem[PROF_SHARED][kind];
    if (!m->requests) return;
    if (g < 0) { /* the GPU's counters */
        if (kind != PROF_ATOM)
            out_printf(_("  - shared %s: %.1f wavefronts per instruction, %llu of them bank conflicts (Nsight "
                         "Compute counts instructions whose lanes are all off too).\n"), kind_words(kind),
                       per(m->units, m->requests), m->units > m->ideal ? m->units - m->ideal : 0);
        return;
    }
    const double got = per(m->units, m->requests), ideal = per(m->ideal, m->requests);
    char at[200];
    where_of(g >= 0 ? worst_site(ses, g, PROF_SHARED, kind) : NULL, at, sizeof at);
    if (kind == PROF_ATOM) {
        out_printf(_("  - %llu shared-memory atomic requests, %.1f passes each: lanes on the same word wait for "
                     "each other.\n"), m->requests, got);
        return;
    }
    if (m->units <= m->ideal)
        out_printf(ngettext("  - shared %s need %.1f wavefront per request, the fewest possible: no bank conflicts.\n",
                            "  - shared %s need %.1f wavefronts per request, the fewest possible: no bank conflicts.\n",
                            got == 1.0 ? 1 : 2),
                   kind_words(kind), got);
    else
        out_printf(_("  - shared %s need %.1f wavefronts per request where %.1f would do: %.1f-way bank "
                     "conflicts: lanes on different words of one bank wait in turn%s.\n"),
                   kind_words(kind), got, ideal, got / ideal, at);
}

/* ------------------------------------------------------------- printing */

static void print_counts_table(const prof_counts *c)
{
    const char *const head[] = {_("access"), _("requests"), _("sectors|wavefronts"), _("per request"), _("ideal"),
                                _("lanes/request")};
    struct out_table *t = out_table_new(6, head, "lrrrrr");
    for (int sp = 0; sp < PROF_NSPACES; sp++)
        for (int k = 0; k < PROF_NKINDS; k++) {
            const prof_mem *m = &c->mem[sp][k];
            if (!m->requests) continue;
            char a[6][64];
            const char *cells[6] = {a[0], a[1], a[2], a[3], a[4], a[5]};
            snprintf(a[0], 64, sp == PROF_GLOBAL ? _("global %s (%u B)") : _("shared %s (%u B)"), kind_words(k),
                     m->width);
            fmt_count(m->requests, a[1], 64);
            fmt_count(m->units, a[2], 64);
            snprintf(a[3], 64, "%.2f", per(m->units, m->requests));
            snprintf(a[4], 64, "%.2f", per(m->ideal, m->requests));
            snprintf(a[5], 64, "%.1f", per(m->lanes, m->requests));
            out_table_row(t, cells);
        }
    out_table_print(t);
    out_table_free(t);
    out_printf(_("  (global: 32-byte sectors; shared: wavefronts, one pass of the 32 banks)\n"));
}

static void print_occupancy(const prof_counts *c, const lab_config *cfg)
{
    lab_launch_probe l;
    memset(&l, 0, sizeof l);
    snprintf(l.kernel, sizeof l.kernel, "%s", c->kernel);
    memcpy(l.grid, c->grid, sizeof l.grid);
    memcpy(l.block, c->block, sizeof l.block);
    l.dynamic_smem = c->dynamic_smem;
    l.count = c->launches;
    l.regs = l.max_threads = -1;
    l.static_smem = l.local_bytes = l.max_dynamic_smem = -1;
    sweep_occ o;
    sweep_launch_occupancy(&l, cfg, LAB_BACKEND_SIM, &o);
    if (!o.known || o.r.blocks_per_sm <= 0) {
        if (o.note[0]) out_printf(_("  - occupancy: %s.\n"), o.note);
        return;
    }
    char lim[96];
    occ_limiters_text(o.r.limiters, lim, sizeof lim);
    out_printf(_("  - occupancy at most %.0f%% (%s): %d blocks of %d threads fit on an SM, limited by %s; "
                 "achieved occupancy on a GPU stays at or below this.\n"),
               100.0 * o.r.occupancy, o.source, o.r.blocks_per_sm, o.threads, lim);
}

static void print_group(const prof_session *ses, int g, const prof_counts *c, const lab_config *cfg)
{
    char gb[64], bb[64];
    if (c->grid[1] > 1 || c->grid[2] > 1) snprintf(gb, sizeof gb, "(%u,%u,%u)", c->grid[0], c->grid[1], c->grid[2]);
    else snprintf(gb, sizeof gb, "%u", c->grid[0]);
    if (c->block[1] > 1 || c->block[2] > 1)
        snprintf(bb, sizeof bb, "(%u,%u,%u)", c->block[0], c->block[1], c->block[2]);
    else snprintf(bb, sizeof bb, "%u", c->block[0]);
    out_printf(ngettext("%s%s%s  grid %s  block %s  %d launch\n", "%s%s%s  grid %s  block %s  %d launches\n",
                        (unsigned long)c->launches),
               out_color(OUT_ACCENT), c->kernel, out_color(OUT_RESET), gb, bb, c->launches);
    print_counts_table(c);
    say_global(ses, g, c, PROF_LD);
    say_global(ses, g, c, PROF_ST);
    say_shared(ses, g, c, PROF_LD);
    say_shared(ses, g, c, PROF_ST);
    say_shared(ses, g, c, PROF_ATOM);
    const prof_mem *ga = &c->mem[PROF_GLOBAL][PROF_ATOM];
    if (ga->requests)
        out_printf(_("  - %llu global atomic requests: up to %llu lanes of one request update the same address, and "
                     "the busiest address took %llu atomics in one launch; atomics on one address are done one "
                     "after another.\n"), ga->requests, c->atom_same_max, c->atom_addr_max);
    unsigned long long req = 0, lanes = 0;
    for (int sp = 0; sp < PROF_NSPACES; sp++)
        for (int k = 0; k < PROF_NKINDS; k++) {
            req += c->mem[sp][k].requests;
            lanes += c->mem[sp][k].lanes;
        }
    if (req && per(lanes, req) < 31.5)
        out_printf(_("  - %.1f of 32 lanes take part in a memory request on average: the others are idle (branches "
                     "or a block that is not a multiple of 32 leave them out).\n"), per(lanes, req));
    if (c->barriers)
        out_printf(_("  - %llu barrier instructions (each __syncthreads counted once per warp): every warp of a "
                     "block waits there for the slowest.\n"), c->barriers);
    char rb[32], wb[32];
    fmt_bytes_h((double)c->read_bytes, rb, sizeof rb);
    fmt_bytes_h((double)c->write_bytes, wb, sizeof wb);
    out_printf(_("  - %s read and %s written (distinct sectors): the least traffic to DRAM.\n"), rb, wb);
    print_occupancy(c, cfg);
}

static void print_estimate(const prof_estimate *e, const char *model, const prof_work *w, const prof_counts *total)
{
    out_printf(_("%sestimated GPU time on %s: %.4f ms%s (an estimate from the counts, not a measurement)\n"),
               out_color(OUT_BOLD), model, e->ms, out_color(OUT_RESET));
    out_printf(_("  launches %.4f, DRAM %.4f, sectors beyond the ideal %.4f, latency %.4f, shared %.4f, issue %.4f, "
                 "block starts %.4f, atomics %.4f, arithmetic %.4f ms: bound by %s\n"),
               e->launch_ms, e->dram_ms, e->excess_ms, e->latency_ms, e->shared_ms, e->issue_ms, e->block_ms,
               e->atomic_ms, e->compute_ms, e->bound);
    double bytes = (double)(total->read_bytes + total->write_bytes);
    if (w && w->ops > 0 && bytes > 0)
        out_printf(_("  arithmetic intensity: %.3g %ss per byte moved\n"), w->ops / bytes, w->unit);
}

/* ----------------------------------------------------------------- JSON */

static json_t *counts_json(const prof_row *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "algo", json_string(r->algo));
    json_object_set_new(o, "variant", json_string(r->variant));
    json_object_set_new(o, "source", json_string(r->source));
    json_object_set_new(o, "kernel", json_string(r->c.kernel));
    json_object_set_new(o, "n", json_integer(r->n));
    json_t *g = json_array(), *b = json_array();
    for (int i = 0; i < 3; i++) {
        json_array_append_new(g, json_integer(r->c.grid[i]));
        json_array_append_new(b, json_integer(r->c.block[i]));
    }
    json_object_set_new(o, "grid", g);
    json_object_set_new(o, "block", b);
    json_object_set_new(o, "launches", json_integer(r->c.launches));
    const int sim = strcmp(r->source, "simulator") == 0;
    for (int i = 0; i < prof_metric_count(); i++) {
        const prof_metric *m = prof_metric_at(i);
        if (sim || strstr(m->ncu, "__")) json_object_set_new(o, m->ncu, json_real(prof_metric_value(&r->c, m)));
    }
    if (sim) {
        json_object_set_new(o, "atom_same_address_max", json_integer((json_int_t)r->c.atom_same_max));
        json_object_set_new(o, "atom_address_max", json_integer((json_int_t)r->c.atom_addr_max));
        for (int sp = 0; sp < PROF_NSPACES; sp++)
            for (int k = 0; k < PROF_NKINDS; k++) {
                const prof_mem *m = &r->c.mem[sp][k];
                if (!m->requests) continue;
                char key[64];
                snprintf(key, sizeof key, "%s_%s", sp ? "shared" : "global",
                         k == PROF_LD ? "ld" : k == PROF_ST ? "st" : "atom");
                json_t *x = json_object();
                json_object_set_new(x, "ideal", json_integer((json_int_t)m->ideal));
                json_object_set_new(x, "lanes", json_integer((json_int_t)m->lanes));
                json_object_set_new(x, "width", json_integer(m->width));
                json_object_set_new(o, key, x);
            }
    }
    if (r->have_est) {
        json_object_set_new(o, "est_ms", json_real(r->est.ms));
        json_object_set_new(o, "est_bound", json_string(r->est.bound));
        json_object_set_new(o, "est_model", json_string(r->model));
    }
    return o;
}

/* -------------------------------------------------------- the simulator */

static int rows_add(prof_row **rows, int *n, int *cap, const prof_row *r)
{
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 16;
        prof_row *x = realloc(*rows, sizeof *x * (size_t)nc);
        if (!x) return -1;
        *rows = x;
        *cap = nc;
    }
    (*rows)[(*n)++] = *r;
    return 0;
}

void profile_work_of(const lab_result *r, lab_dtype dt, prof_work *w)
{
    w->dtype = dt;
    w->ops = r->ops;
    w->unit = r->ops_unit[0] ? r->ops_unit : NULL;
}

static int profile_sim(struct session *s, const lab_variant *v, prof_row **rows, int *nrows, int *cap,
                       lab_result *res)
{
    char msg[LAB_ERR_MAX];
    lab_config cfg = s->cfg;
    cfg.repeats = 1;
    cfg.backend = LAB_BACKEND_SIM;
    lab_input *in = lab_input_new(s->algo, &cfg, msg, sizeof msg);
    if (!in) {
        sess_error(s, -1, "%s", msg);
        return -1;
    }
    prof_session ses;
    if (prof_begin(&ses, msg, sizeof msg) != 0) {
        lab_input_delete(in);
        sess_error(s, -1, "%s", msg);
        return -1;
    }
    if (s->interactive && !s->json) out_progress(_("  counting %s on the simulator..."), v->name);
    lab_result r;
    int rc = lab_run(in, v, &r, NULL);
    out_progress_clear();
    prof_end(&ses);
    long long n = lab_input_n(in);
    lab_input_delete(in);
    *res = r;
    if (rc != 0) {
        prof_free(&ses);
        sess_error(s, -1, _("%s did not run: %s"), v->name, r.note[0] ? r.note : _("no reason given"));
        return -1;
    }
    int fb = 0;
    const occ_model *m = sweep_model(&cfg, &fb);
    prof_work w;
    profile_work_of(&r, cfg.dtype, &w);
    prof_estimate est;
    prof_estimate_session(&ses, m, &w, &est);
    if (!s->json) {
        char nb[32];
        parse_fmt_size(n, nb, sizeof nb);
        out_printf(ngettext("%sprofile of %s/%s%s  n = %s  on the simulator: counted from its execution, %d kernel "
                            "shape\n",
                            "%sprofile of %s/%s%s  n = %s  on the simulator: counted from its execution, %d kernel "
                            "shapes\n",
                            (unsigned long)ses.ngroups),
                   out_color(OUT_BOLD), s->algo->name, v->name, out_color(OUT_RESET), nb, ses.ngroups);
        for (int g = 0; g < ses.ngroups; g++) print_group(&ses, g, &ses.groups[g], &cfg);
        if (ses.ngroups > 1) {
            out_printf(_("%sall launches%s\n"), out_color(OUT_ACCENT), out_color(OUT_RESET));
            print_counts_table(&ses.total);
        }
        print_estimate(&est, m->name, &w, &ses.total);
        if (ses.failed) out_warn(_("a launch failed part-way: the counts are partial"));
    }
    for (int g = 0; g <= ses.ngroups; g++) {
        prof_row pr;
        memset(&pr, 0, sizeof pr);
        snprintf(pr.algo, sizeof pr.algo, "%s", s->algo->name);
        snprintf(pr.variant, sizeof pr.variant, "%s", v->name);
        snprintf(pr.source, sizeof pr.source, "simulator");
        snprintf(pr.model, sizeof pr.model, "%s", m->name);
        pr.n = n;
        pr.c = g < ses.ngroups ? ses.groups[g] : ses.total;
        pr.have_est = 1;
        if (g == ses.ngroups) pr.est = est;
        else {
            prof_work gw = {0, NULL, cfg.dtype};
            prof_estimate_counts(&pr.c, m, &gw, &pr.est);
        }
        if (rows_add(rows, nrows, cap, &pr) != 0) break;
        if (s->json) out_json(counts_json(&pr));
    }
    prof_free(&ses);
    return 0;
}

/* ------------------------------------------------------------------ GPU */

/* Nsight Compute's command line tool: on the PATH, in CUDA_HOME, or where
 * the toolkit installs itself. */
static int find_ncu(char *path, size_t len)
{
    const char *env = getenv("GPULAB_NCU");
    if (env && *env) {
        snprintf(path, len, "%s", env);
        return access(path, X_OK) == 0 ? 0 : -1;
    }
    const char *p = getenv("PATH");
    while (p && *p) {
        const char *e = strchr(p, ':');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l) {
            snprintf(path, len, "%.*s/ncu", (int)l, p);
            if (access(path, X_OK) == 0) return 0;
        }
        p = e ? e + 1 : NULL;
    }
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(path, len, "%s/bin/ncu", home);
        if (access(path, X_OK) == 0) return 0;
    }
    snprintf(path, len, "/usr/local/cuda/bin/ncu");
    return access(path, X_OK) == 0 ? 0 : -1;
}

/* A shell word in single quotes. */
static void shell_quote(const char *s, char *out, size_t len)
{
    size_t o = 0;
    if (len < 3) return;
    out[o++] = '\'';
    for (; *s && o + 5 < len; s++) {
        if (*s == '\'') {
            memcpy(out + o, "'\\''", 4);
            o += 4;
        } else {
            out[o++] = *s;
        }
    }
    out[o++] = '\'';
    out[o] = '\0';
}

/* The settings as `set` lines, so that the child runs what this session would. */
static void settings_script(const struct session *s, const lab_variant *v, char *buf, size_t len)
{
    const lab_config *c = &s->cfg;
    char n[32], blk[32], grid[64], w[16], h[16];
    if (c->n > 0) snprintf(n, sizeof n, "%lld", c->n);
    else snprintf(n, sizeof n, "auto");
    if (c->block <= 0) snprintf(blk, sizeof blk, "auto");
    else if (c->block_y > 0) snprintf(blk, sizeof blk, "%dx%d", c->block, c->block_y);
    else snprintf(blk, sizeof blk, "%d", c->block);
    if (c->grid <= 0) snprintf(grid, sizeof grid, "auto");
    else if (c->grid_y > 0) snprintf(grid, sizeof grid, "%lldx%lld", c->grid, c->grid_y);
    else snprintf(grid, sizeof grid, "%lld", c->grid);
    if (c->width > 0) snprintf(w, sizeof w, "%d", c->width);
    else snprintf(w, sizeof w, "auto");
    if (c->height > 0) snprintf(h, sizeof h, "%d", c->height);
    else snprintf(h, sizeof h, "auto");
    size_t o = (size_t)snprintf(buf, len,
                                "use %s/%s; set n %s; set block %s; set grid %s; set dtype %s; set value %.17g; "
                                "set seed %u; set pad %s; set width %s; set height %s; ",
                                s->algo->name, v->name, n, blk, grid, lab_dtype_name(c->dtype), c->value, c->seed,
                                c->pad ? "on" : "off", w, h);
    if (c->pattern[0] && o < len) o += (size_t)snprintf(buf + o, len - o, "set pattern %s; ", c->pattern);
    if (c->model[0] && o < len) o += (size_t)snprintf(buf + o, len - o, "set model %s; ", c->model);
    if (c->image[0] && o < len) o += (size_t)snprintf(buf + o, len - o, "set image \"%s\"; ", c->image);
    if (o < len) snprintf(buf + o, len - o, "set backend gpu; set repeats 1; run %s", v->name);
}

/* Split one CSV line into at most max fields (quotes removed). */
static int csv_split(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    while (*p && n < max) {
        if (*p == '"') {
            p++;
            f[n++] = p;
            char *w = p;
            while (*p && !(*p == '"' && p[1] != '"')) {
                if (*p == '"') p++;
                *w++ = *p++;
            }
            if (*p == '"') p++;
            *w = '\0';
            if (*p == ',') p++;
        } else {
            f[n++] = p;
            while (*p && *p != ',') p++;
            if (*p == ',') *p++ = '\0';
        }
    }
    return n;
}

static double csv_number(const char *s)
{
    char b[64];
    size_t o = 0;
    for (; *s && o + 1 < sizeof b; s++)
        if (*s != ',' && *s != ' ') b[o++] = *s;
    b[o] = '\0';
    return strtod(b, NULL);
}

static void parse_dim(const char *s, unsigned d[3])
{
    d[0] = d[1] = d[2] = 1;
    sscanf(s, " (%u , %u , %u)", &d[0], &d[1], &d[2]);
}

/* Store the GPU's value of metric name into the counts. */
static void gpu_set(prof_counts *c, const char *name, double v)
{
    unsigned long long x = (unsigned long long)llround(v);
    /* RED (an atomic whose result is unused) joins ATOM: the simulator
     * cannot tell them apart */
    if (!strcmp(name, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum")) {
        c->mem[PROF_GLOBAL][PROF_ATOM].requests += x;
        return;
    }
    if (!strcmp(name, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum")) {
        c->mem[PROF_GLOBAL][PROF_ATOM].units += x;
        return;
    }
    for (int i = 0; i < prof_metric_count(); i++) {
        const prof_metric *m = prof_metric_at(i);
        if (strcmp(m->ncu, name) != 0) continue;
        switch (m->field) {
        case PROF_F_REQUESTS: c->mem[m->space][m->kind].requests += x; break;
        case PROF_F_UNITS: c->mem[m->space][m->kind].units += x; break;
        case PROF_F_CONFLICTS: /* kept as ideal = units - conflicts once both are in */
            c->mem[m->space][m->kind].ideal += x;
            break;
        case PROF_F_BARRIERS: c->barriers += x; break;
        case PROF_F_READ_BYTES: c->read_bytes += x; break;
        case PROF_F_WRITE_BYTES: c->write_bytes += x; break;
        }
    }
}

static void gpu_add(prof_counts *t, const prof_counts *c)
{
    t->launches += c->launches;
    for (int sp = 0; sp < PROF_NSPACES; sp++)
        for (int k = 0; k < PROF_NKINDS; k++) {
            t->mem[sp][k].requests += c->mem[sp][k].requests;
            t->mem[sp][k].units += c->mem[sp][k].units;
            t->mem[sp][k].ideal += c->mem[sp][k].ideal;
        }
    t->barriers += c->barriers;
    t->read_bytes += c->read_bytes;
    t->write_bytes += c->write_bytes;
}

static const char *const gpu_extra_metrics[] = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
};

static int profile_gpu(struct session *s, const lab_variant *v, prof_row **rows, int *nrows, int *cap)
{
    char ncu[1024];
    if (find_ncu(ncu, sizeof ncu) != 0)
        return sess_error(s, -1, _("the GPU's counters come from Nsight Compute, and its command `ncu` was not found "
                                   "(on the PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin; GPULAB_NCU names it). It "
                                   "ships with the CUDA toolkit (the nsight-compute package); or `set backend sim` to "
                                   "count on the simulator"));
    char self[1024];
    ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
    if (l <= 0) return sess_error(s, -1, _("cannot find gpulab's own executable to run under ncu: %s"), strerror(errno));
    self[l] = '\0';
    char script[8192], qscript[9000], qself[1100], qncu[1100];
    settings_script(s, v, script, sizeof script);
    shell_quote(script, qscript, sizeof qscript);
    shell_quote(self, qself, sizeof qself);
    shell_quote(ncu, qncu, sizeof qncu);
    /* the metric names; one this ncu does not know is left out and the run
     * made again (ncu refuses the whole list otherwise) */
    const char *names[64];
    int nnames = 0;
    for (int i = 0; i < prof_metric_count() && nnames < 64; i++)
        if (strstr(prof_metric_at(i)->ncu, "__")) names[nnames++] = prof_metric_at(i)->ncu;
    for (size_t i = 0; i < sizeof gpu_extra_metrics / sizeof gpu_extra_metrics[0] && nnames < 64; i++)
        names[nnames++] = gpu_extra_metrics[i];
    char dropped[512] = "";
    int perm = 0, status = 0;
    char err_line[1024] = "", child_err[1024] = "";
    struct launch {
        int id;
        prof_counts c;
    } *ls = NULL;
    int nls = 0, capls = 0;
    for (int attempt = 0; attempt < 4; attempt++) {
        char metrics[4096];
        size_t o = 0;
        for (int i = 0; i < nnames && o < sizeof metrics; i++)
            o += (size_t)snprintf(metrics + o, sizeof metrics - o, "%s%s", o ? "," : "", names[i]);
        char cmd[16384];
        snprintf(cmd, sizeof cmd,
                 "%s --csv --print-units base --print-kernel-base function --metrics %s %s --json "
                 "--no-color -c %s 2>&1",
                 qncu, metrics, qself, qscript);
        if (s->interactive && !s->json) out_progress(_("  profiling %s on the GPU with Nsight Compute..."), v->name);
        FILE *p = popen(cmd, "r");
        if (!p) {
            out_progress_clear();
            return sess_error(s, -1, _("cannot start ncu: %s"), strerror(errno));
        }
        char line[8192];
        int ncols = 0, c_id = -1, c_name = -1, c_block = -1, c_grid = -1, c_metric = -1, c_value = -1;
        nls = 0;
        err_line[0] = child_err[0] = '\0';
        while (fgets(line, sizeof line, p)) {
            line[strcspn(line, "\r\n")] = '\0';
            if (strstr(line, "ERR_NVGPUCTRPERM")) perm = 1;
            if (!strncmp(line, "==ERROR==", 9) && !err_line[0]) snprintf(err_line, sizeof err_line, "%s", line + 9);
            if (line[0] == '{') {
                json_error_t je;
                json_t *j = json_loads(line, 0, &je);
                if (j && json_is_false(json_object_get(j, "ran")) && !child_err[0]) {
                    const char *note = json_string_value(json_object_get(j, "note"));
                    snprintf(child_err, sizeof child_err, "%s", note ? note : "did not run");
                }
                json_decref(j);
                continue;
            }
            if (line[0] != '"') continue;
            char *f[64];
            int nf = csv_split(line, f, 64);
            if (nf > 0 && !strcmp(f[0], "ID")) {
                ncols = nf;
                for (int i = 0; i < nf; i++) {
                    if (!strcmp(f[i], "ID")) c_id = i;
                    else if (!strcmp(f[i], "Kernel Name")) c_name = i;
                    else if (!strcmp(f[i], "Block Size")) c_block = i;
                    else if (!strcmp(f[i], "Grid Size")) c_grid = i;
                    else if (!strcmp(f[i], "Metric Name")) c_metric = i;
                    else if (!strcmp(f[i], "Metric Value")) c_value = i;
                }
                continue;
            }
            if (!ncols || nf < ncols || c_id < 0 || c_metric < 0 || c_value < 0) continue;
            int id = atoi(f[c_id]), k;
            for (k = 0; k < nls && ls[k].id != id; k++) {}
            if (k == nls) {
                if (nls == capls) {
                    capls = capls ? capls * 2 : 32;
                    struct launch *x = realloc(ls, sizeof *x * (size_t)capls);
                    if (!x) break;
                    ls = x;
                }
                memset(&ls[nls], 0, sizeof ls[nls]);
                ls[nls].id = id;
                if (c_name >= 0) snprintf(ls[nls].c.kernel, sizeof ls[nls].c.kernel, "%s", f[c_name]);
                if (c_block >= 0) parse_dim(f[c_block], ls[nls].c.block);
                if (c_grid >= 0) parse_dim(f[c_grid], ls[nls].c.grid);
                ls[nls].c.launches = 1;
                nls++;
            }
            gpu_set(&ls[k].c, f[c_metric], csv_number(f[c_value]));
        }
        status = pclose(p);
        int unknown = -1;
        for (int i = 0; nls == 0 && err_line[0] && i < nnames; i++)
            if (strstr(err_line, names[i])) unknown = i;
        if (unknown < 0) break;
        size_t dl = strlen(dropped);
        snprintf(dropped + dl, sizeof dropped - dl, "%s%s", dl ? ", " : "", names[unknown]);
        names[unknown] = names[--nnames];
    }
    out_progress_clear();
    if (perm) {
        free(ls);
        return sess_error(s, -1, _("Nsight Compute may not read the GPU's performance counters as this user "
                                   "(ERR_NVGPUCTRPERM). Run gpulab as root, or let every user profile: load the "
                                   "nvidia module with NVreg_RestrictProfilingToAdminUsers=0 (see "
                                   "https://developer.nvidia.com/ERR_NVGPUCTRPERM); meanwhile `set backend sim` "
                                   "counts on the simulator"));
    }
    if (nls == 0) {
        free(ls);
        if (child_err[0]) return sess_error(s, -1, _("%s did not run on the GPU: %s"), v->name, child_err);
        return sess_error(s, -1, _("ncu returned no counters for %s (exit status %d)%s%s"), v->name,
                          WIFEXITED(status) ? WEXITSTATUS(status) : -1, err_line[0] ? ":" : "", err_line);
    }
    /* conflicts arrived in .ideal: make it units - conflicts */
    for (int i = 0; i < nls; i++)
        for (int k = 0; k < PROF_NKINDS; k++) {
            prof_mem *m = &ls[i].c.mem[PROF_SHARED][k];
            unsigned long long conf = m->ideal;
            m->ideal = m->units > conf ? m->units - conf : 0;
        }
    /* group launches of one kernel and shape */
    prof_counts *gs = calloc((size_t)nls + 1, sizeof *gs), total;
    int ng = 0;
    memset(&total, 0, sizeof total);
    snprintf(total.kernel, sizeof total.kernel, "total");
    for (int i = 0; gs && i < nls; i++) {
        const prof_counts *c = &ls[i].c;
        int g;
        for (g = 0; g < ng; g++)
            if (!strcmp(gs[g].kernel, c->kernel) && !memcmp(gs[g].grid, c->grid, sizeof c->grid) &&
                !memcmp(gs[g].block, c->block, sizeof c->block))
                break;
        if (g == ng) {
            snprintf(gs[ng].kernel, sizeof gs[ng].kernel, "%s", c->kernel);
            memcpy(gs[ng].grid, c->grid, sizeof c->grid);
            memcpy(gs[ng].block, c->block, sizeof c->block);
            ng++;
        }
        gpu_add(&gs[g], c);
        gpu_add(&total, c);
    }
    free(ls);
    if (!gs) return sess_error(s, -1, _("out of memory"));
    if (dropped[0] && !s->json) out_note(_("this ncu does not know %s: left out"), dropped);
    if (!s->json)
        out_printf(ngettext("%sprofile of %s/%s%s on the GPU: Nsight Compute's counters, %d kernel shape\n",
                            "%sprofile of %s/%s%s on the GPU: Nsight Compute's counters, %d kernel shapes\n",
                            (unsigned long)ng),
                   out_color(OUT_BOLD), s->algo->name, v->name, out_color(OUT_RESET), ng);
    for (int g = 0; g <= ng; g++) {
        prof_row pr;
        memset(&pr, 0, sizeof pr);
        snprintf(pr.algo, sizeof pr.algo, "%s", s->algo->name);
        snprintf(pr.variant, sizeof pr.variant, "%s", v->name);
        snprintf(pr.source, sizeof pr.source, "ncu");
        pr.c = g < ng ? gs[g] : total;
        pr.n = s->cfg.n;
        if (g == ng && ng == 1 && !s->json) continue; /* the total of one shape is that shape */
        rows_add(rows, nrows, cap, &pr);
        if (s->json) {
            out_json(counts_json(&pr));
        } else {
            if (g < ng)
                out_printf(ngettext("%s%s%s  grid (%u,%u,%u)  block (%u,%u,%u)  %d launch\n",
                                    "%s%s%s  grid (%u,%u,%u)  block (%u,%u,%u)  %d launches\n",
                                    (unsigned long)pr.c.launches),
                           out_color(OUT_ACCENT), pr.c.kernel, out_color(OUT_RESET), pr.c.grid[0], pr.c.grid[1],
                           pr.c.grid[2], pr.c.block[0], pr.c.block[1], pr.c.block[2], pr.c.launches);
            else
                out_printf(_("%sall launches%s  %d\n"), out_color(OUT_ACCENT), out_color(OUT_RESET), pr.c.launches);
            const char *const head[] = {_("counter"), _("value"), _("Nsight Compute metric")};
            struct out_table *t = out_table_new(3, head, "lrl");
            for (int i = 0; i < prof_metric_count(); i++) {
                const prof_metric *m = prof_metric_at(i);
                if (!strstr(m->ncu, "__")) continue; /* the simulator's own */
                char val[64];
                snprintf(val, sizeof val, "%.0f", prof_metric_value(&pr.c, m));
                const char *cells[3] = {m->label, val, m->ncu};
                out_table_row(t, cells);
            }
            out_table_print(t);
            out_table_free(t);
            say_global(NULL, -1, &pr.c, PROF_LD);
            say_global(NULL, -1, &pr.c, PROF_ST);
            say_shared(NULL, -1, &pr.c, PROF_LD);
            say_shared(NULL, -1, &pr.c, PROF_ST);
        }
    }
    free(gs);
    return 0;
}

/* -------------------------------------------------------------- command */

static enum cmd_status do_profile(struct session *s, int argc, char **argv)
{
    char err[1024];
    int n = argc > 1 ? argc - 1 : 1;
    const lab_variant *vs[64];
    if (n > 64) return sess_error(s, 65, _("profile takes at most 64 variants at a time"));
    if (argc == 1) vs[0] = s->variant;
    for (int i = 1; i < argc; i++) {
        if (!(vs[i - 1] = sess_variant_arg(s, i, argv[i]))) return CMD_ERROR;
    }
    for (int i = 0; i < n; i++) {
        if (vs[i]->kind != LAB_ROW_KERNEL)
            return sess_error(s, argc > 1 ? i + 1 : -1,
                              vs[i]->kind == LAB_ROW_LIB
                                  ? _("%s is vendor library code: profile counts gpulab's own kernels (the variants "
                                      "that run on the GPU and on the simulator)")
                                  : _("%s is a CPU baseline: profile counts gpulab's own kernels (the variants "
                                      "that run on the GPU and on the simulator)"),
                              vs[i]->name);
        if (lab_validate(s->algo, vs[i], &s->cfg, err, sizeof err) != 0)
            return sess_error(s, argc > 1 ? i + 1 : -1, "%s", err);
    }
    lab_backend be = lab_kernel_backend(&s->cfg);
    if (be == LAB_BACKEND_SIM && s->cfg.backend == LAB_BACKEND_AUTO) sess_note_no_gpu(s);
    prof_row *rows = NULL;
    int nrows = 0, cap = 0;
    lab_result *res = calloc((size_t)n, sizeof *res);
    if (!res) return sess_error(s, -1, _("out of memory"));
    enum cmd_status st = CMD_OK;
    int nres = 0;
    for (int i = 0; i < n && st == CMD_OK; i++) {
        if (lab_interrupted) {
            st = sess_error(s, -1, _("profile interrupted"));
            break;
        }
        if (i > 0 && !s->json) out_printf("\n");
        int rc = be == LAB_BACKEND_SIM ? profile_sim(s, vs[i], &rows, &nrows, &cap, &res[nres])
                                       : profile_gpu(s, vs[i], &rows, &nrows, &cap);
        if (rc != 0) st = CMD_ERROR;
        else if (be == LAB_BACKEND_SIM) nres++;
    }
    free(last_rows);
    last_rows = rows;
    last_nrows = nrows;
    last_results = NULL;
    if (nres) {
        sess_set_results(s, res, nres);
        last_results = s->results;
    }
    free(res);
    return st;
}

/* ----------------------------------------------------------------- export */

int profile_export_owns(const struct session *s)
{
    return last_rows && last_nrows > 0 && (last_results == NULL || last_results == s->results);
}

int profile_export(FILE *f, int csv, char *err, size_t errlen)
{
    if (!last_rows) {
        snprintf(err, errlen, "%s", _("no profile yet"));
        return -1;
    }
    if (csv) {
        fprintf(f, "algo,variant,source,kernel,grid_x,grid_y,grid_z,block_x,block_y,block_z,launches");
        for (int i = 0; i < prof_metric_count(); i++) fprintf(f, ",%s", prof_metric_at(i)->ncu);
        fprintf(f, ",est_ms,est_model\n");
        for (int r = 0; r < last_nrows; r++) {
            const prof_row *p = &last_rows[r];
            fprintf(f, "%s,%s,%s,\"%s\",%u,%u,%u,%u,%u,%u,%d", p->algo, p->variant, p->source, p->c.kernel,
                    p->c.grid[0], p->c.grid[1], p->c.grid[2], p->c.block[0], p->c.block[1], p->c.block[2],
                    p->c.launches);
            for (int i = 0; i < prof_metric_count(); i++)
                fprintf(f, ",%.0f", prof_metric_value(&p->c, prof_metric_at(i)));
            if (p->have_est) fprintf(f, ",%.6f,%s\n", p->est.ms, p->model);
            else fprintf(f, ",,\n");
        }
        return ferror(f) ? -1 : 0;
    }
    json_t *a = json_array();
    for (int r = 0; r < last_nrows; r++) json_array_append_new(a, counts_json(&last_rows[r]));
    json_t *o = json_object();
    json_object_set_new(o, "profile", a);
    int rc = json_dumpf(o, f, JSON_INDENT(2));
    json_decref(o);
    fputc('\n', f);
    if (rc != 0) snprintf(err, errlen, "%s", _("cannot write the JSON"));
    return rc;
}

const struct cmd cmd_profile[] = {
    {
        .name = "profile",
        .usage = N_("profile [VARIANT...]"),
        .help = N_("memory counters of the variant's kernels: sectors, bank conflicts, atomics, an estimated GPU time"),
        .long_help =
            N_("Counts what the chosen variant's kernels (or the ones named) do with memory, per\n"
               "kernel launch and in total: global load and store requests (one per warp and\n"
               "access) and the 32-byte sectors they touch against the fewest their width allows;\n"
               "shared-memory requests, wavefronts and bank conflicts; atomics and how many lanes\n"
               "hit one address; active lanes per request; barriers; the occupancy bound; the\n"
               "bytes moved. Each count comes with a sentence saying what it means.\n"
               "On the simulator the counts come from the execution itself, and an estimated GPU\n"
               "time for the chosen `model` follows (an estimate, not a measurement). On a GPU\n"
               "they come from Nsight Compute (ncu) run on gpulab itself. --json prints one object\n"
               "per kernel shape with Nsight Compute's metric names; export FILE.csv|FILE.json\n"
               "after a profile writes the same. See docs/profile.md.\n"),
        .run = do_profile, .needs = CMD_NEEDS_VARIANT,
        .complete = CMP_VARIANT,
    },
    {0},
};
