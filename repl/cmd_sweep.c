/* cmd_sweep.c - exploring block and grid sizes: sweep, occupancy, suggest
 * and export. The measuring is in sweep.c, the pictures in viz/; this file
 * parses, prints and explains. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "complete.h"
#include "export.h"
#include "out.h"
#include "parse.h"
#include "render_plot.h"
#include "session.h"
#include "sweep.h"
#include "term.h"

/* ------------------------------------------------------------ helpers */

static void fmt_ms(double ms, char *buf, size_t len)
{
    if (ms < 0.01) snprintf(buf, len, "%.4f", ms);
    else if (ms < 10) snprintf(buf, len, "%.3f", ms);
    else if (ms < 100) snprintf(buf, len, "%.2f", ms);
    else snprintf(buf, len, "%.1f", ms);
}

static void fmt_bytes(long b, char *buf, size_t len)
{
    if (b < 0) snprintf(buf, len, "?");
    else if (b >= 1024 && b % 1024 == 0) snprintf(buf, len, "%ld KiB", b / 1024);
    else if (b >= 1024) snprintf(buf, len, "%.1f KiB", b / 1024.0);
    else snprintf(buf, len, "%ld B", b);
}


/* A kernel variant of the current algorithm by name (argv[i]), or the
 * current variant when i >= argc. */
static const lab_variant *kernel_variant(struct session *s, int argc, char **argv, int i, const char *cmd)
{
    char err[512];
    const lab_variant *v = s->variant;
    if (i < argc) {
        const char *name = argv[i];
        const char *slash = strchr(name, '/');
        if (slash) {
            if ((size_t)(slash - name) != strlen(s->algo->name) ||
                strncmp(name, s->algo->name, (size_t)(slash - name)) != 0) {
                sess_error(s, i, "%s looks at variants of %s; `use ALGO` first for another algorithm",
                           cmd, s->algo->name);
                return NULL;
            }
            name = slash + 1;
        }
        v = sess_find_variant(s->algo, name, err, sizeof err);
        if (!v) {
            sess_error(s, i, "%s", err);
            return NULL;
        }
    }
    if (v->kind != LAB_ROW_KERNEL) {
        sess_error(s, i < argc ? i : -1, "%s is a %s row: %s is about our GPU kernels and their blocks",
                   v->name, v->kind == LAB_ROW_CPU ? "CPU" : "library", cmd);
        return NULL;
    }
    return v;
}

/* The resolved n of a prepared input, as "1048576 (1Mi)". */
static void fmt_n(long long n, char *buf, size_t len)
{
    char sz[32];
    parse_fmt_size(n, sz, sizeof sz);
    if (strcmp(sz, "") != 0 && strtoll(sz, NULL, 10) != n) snprintf(buf, len, "%lld (%s)", n, sz);
    else snprintf(buf, len, "%lld", n);
}

static const char *limiter_sentence(unsigned lim)
{
    if (lim & OCC_LIM_REGS)
        return "registers limit it: each warp gets its registers in whole units, so fewer registers "
               "per thread (simpler code, __launch_bounds__) would let more warps in";
    if (lim & OCC_LIM_SMEM)
        return "shared memory limits it: each block keeps its shared arrays for its whole life, so "
               "less per block would let more blocks in";
    if (lim & OCC_LIM_WARPS)
        return "warp slots limit it: the SM holds as many threads as it can, so occupancy cannot go "
               "higher with this kernel";
    if (lim & OCC_LIM_BLOCKS)
        return "the SM's table of resident blocks limits it: blocks this small leave warp slots "
               "empty, larger blocks would fill them";
    return "";
}

/* ------------------------------------------------------------ sweep */

struct progress_ctx {
    struct session *s;
};

static void progress(const sweep_data *d, int i, int j, void *ctx)
{
    struct progress_ctx *p = ctx;
    if (!p->s->interactive || p->s->json) return;
    fprintf(out_err_stream(), "\r\033[K  %s %lld (%d/%d): %s...", sweep_axis_name(d->axis), d->values[i],
            i * d->nvariants + j + 1, d->nvalues * d->nvariants, d->variants[j]->name);
    fflush(out_err_stream());
}

static void print_sweep_table(struct session *s, const sweep_data *d)
{
    static const char *const head[] = {"", "variant", "ms", "min", "max", "GB/s", "% peak", "regs",
                                       "smem/block", "blocks/SM", "occupancy", "limited by", "ok"};
    const char *hd[13];
    memcpy(hd, head, sizeof hd);
    hd[0] = sweep_axis_name(d->axis);
    struct out_table *t = out_table_new(13, hd, "rlrrrrrrrrrll");
    char notes[SWEEP_MAX_VALUES * 2][LAB_NOTE_MAX + 96];
    int nnotes = 0, sim = 0, lost_notes = 0;
    for (int i = 0; i < d->npoints; i++) {
        const sweep_point *p = &d->points[i];
        const lab_result *r = &p->r;
        char c[13][64];
        const char *cells[13];
        for (int k = 0; k < 13; k++) {
            snprintf(c[k], sizeof c[k], "-");
            cells[k] = c[k];
        }
        if (d->axis == SWEEP_N) {
            char sz[32];
            parse_fmt_size(p->x, sz, sizeof sz);
            snprintf(c[0], sizeof c[0], "%s", sz);
        } else {
            snprintf(c[0], sizeof c[0], "%lld", p->x);
        }
        snprintf(c[1], sizeof c[1], "%s", r->variant);
        char mark[16] = "";
        if (r->note[0]) {
            if (nnotes < (int)(sizeof notes / sizeof notes[0])) {
                snprintf(notes[nnotes], sizeof notes[nnotes], "[%d] %s %s, %s: %s%s", nnotes + 1,
                         sweep_axis_name(d->axis), c[0], r->variant,
                         p->refused ? "refused: " : r->ran ? "" : "not run: ", r->note);
                snprintf(mark, sizeof mark, " [%d]", ++nnotes);
            } else {
                lost_notes++;
            }
        }
        if (r->ran) {
            int star = r->backend == LAB_BACKEND_SIM;
            sim |= star;
            fmt_ms(r->ms, c[2], sizeof c[2]);
            if (star) strcat(c[2], "*");
            fmt_ms(r->ms_min, c[3], sizeof c[3]);
            fmt_ms(r->ms_max, c[4], sizeof c[4]);
            if (r->gbps > 0) snprintf(c[5], sizeof c[5], "%.1f", r->gbps);
            if (r->pct_peak >= 0 && r->gbps > 0) snprintf(c[6], sizeof c[6], "%.0f%%", r->pct_peak);
        }
        if (p->occ.known) {
            if (p->occ.regs >= 0) snprintf(c[7], sizeof c[7], "%d", p->occ.regs);
            long sm = (p->occ.static_smem > 0 ? p->occ.static_smem : 0) + p->occ.dynamic_smem;
            fmt_bytes(sm, c[8], sizeof c[8]);
            snprintf(c[9], sizeof c[9], "%d", p->occ.r.blocks_per_sm);
            snprintf(c[10], sizeof c[10], "%.0f%%", 100.0 * p->occ.r.occupancy);
            occ_limiters_text(p->occ.r.limiters, c[11], sizeof c[11]);
        }
        if (p->refused) snprintf(c[12], sizeof c[12], "refused%s", mark);
        else if (!r->ran) snprintf(c[12], sizeof c[12], "not run%s", mark);
        else if (r->correct > 0) snprintf(c[12], sizeof c[12], "ok%s", mark);
        else if (r->correct == 0) snprintf(c[12], sizeof c[12], "WRONG%s", mark);
        else snprintf(c[12], sizeof c[12], "-%s", mark);
        out_table_row(t, cells);
        if (p->refused || !r->ran) out_table_color(t, 12, OUT_DIM);
        else if (r->correct == 0) out_table_color(t, 12, OUT_ERROR);
        else if (r->correct > 0) out_table_color(t, 12, OUT_GOOD);
    }
    out_table_print(t);
    out_table_free(t);
    for (int i = 0; i < nnotes; i++) out_printf("%s\n", notes[i]);
    if (lost_notes) out_printf("(%d more notes: export the sweep to read them)\n", lost_notes);
    if (sim)
        out_printf("* simulator time on this CPU, not GPU time (no GB/s or %% of peak)\n");
    /* where the occupancy columns come from, once */
    for (int i = 0; i < d->npoints; i++)
        if (d->points[i].occ.known) {
            out_printf("occupancy: %s%s%s\n", d->points[i].occ.source, d->points[i].occ.note[0] ? "; " : "",
                       d->points[i].occ.note);
            break;
        }
}

/* The plot of d as a canvas (the caller frees it); *rows gets the rows used. */
/* The sweep's plot in cells; offer: what to call it when it is offered to
 * `export` (its data with it, for the vector plot), or NULL. */
static canvas *plot_sweep(const sweep_data *d, sweep_metric m, int width, int *rows, const char *offer)
{
    static double xs[SWEEP_MAX_VARIANTS][SWEEP_MAX_VALUES], ys[SWEEP_MAX_VARIANTS][SWEEP_MAX_VALUES];
    viz_plot_series series[SWEEP_MAX_VARIANTS];
    int ns = d->nvariants < VIZ_PLOT_MAX_SERIES ? d->nvariants : VIZ_PLOT_MAX_SERIES;
    for (int j = 0; j < ns; j++) {
        int n = 0;
        for (int i = 0; i < d->nvalues; i++) {
            int k = i * d->nvariants + j;
            if (k >= d->npoints) break;
            xs[j][n] = (double)d->points[k].x;
            ys[j][n] = sweep_point_metric(&d->points[k], m);
            n++;
        }
        series[j].name = d->variants[j]->name;
        series[j].n = n;
        series[j].x = xs[j];
        series[j].y = ys[j];
    }
    char title[200], sz[32];
    parse_fmt_size(d->points[0].r.n, sz, sizeof sz);
    const char *what = m == SWEEP_METRIC_GBPS ? "GB/s" : m == SWEEP_METRIC_OCCUPANCY ? "occupancy" : "time";
    if (d->axis == SWEEP_N)
        snprintf(title, sizeof title, "%s: %s against n (%s)", d->algo->name, what, lab_backend_name(d->backend));
    else
        snprintf(title, sizeof title, "%s: %s against %s (n = %s, %s)", d->algo->name, what,
                 sweep_axis_name(d->axis), sz, lab_backend_name(d->backend));
    viz_plot p;
    memset(&p, 0, sizeof p);
    p.title = title;
    p.xlabel = d->axis == SWEEP_BLOCK ? "block (threads per block)"
             : d->axis == SWEEP_GRID  ? "grid (blocks)"
                                      : "n (elements)";
    p.ylabel = m == SWEEP_METRIC_GBPS ? "GB/s (higher is better)"
             : m == SWEEP_METRIC_OCCUPANCY ? "theoretical occupancy, % (higher is not always faster)"
             : d->backend == LAB_BACKEND_SIM && d->axis != SWEEP_N
                 ? "ms, median (simulator time: CPU time, not GPU time)"
                 : "ms, median (lower is better)";
    p.nseries = ns;
    p.series = series;
    p.logx = p.logy = VIZ_PLOT_AUTO;
    if (m == SWEEP_METRIC_OCCUPANCY) p.logy = 0;
    if (width < VIZ_PLOT_MIN_W) width = VIZ_PLOT_MIN_W;
    int h = 20;
    canvas *c = canvas_new(width, h);
    if (!c) return NULL;
    *rows = viz_plot_draw(c, canvas_bounds(c), &p);
    if (offer) viz_export_offer_plot(c, *rows, &p, offer);
    return c;
}

static void show_plot(struct session *s, const sweep_data *d, sweep_metric m)
{
    int w = out_width();
    w = w > 0 ? (w > 110 ? 110 : w) : 78;
    int rows = 0;
    char what[96];
    snprintf(what, sizeof what, "the plot of the sweep of %s", sweep_axis_name(d->axis));
    canvas *c = plot_sweep(d, m, w, &rows, what);
    if (!c) return;
    viz_text_opts o = viz_text_opts_for(out_stream(), !s->color);
    o.trim_bottom = 1;
    out_printf("\n");
    out_flush();
    viz_text_write(out_stream(), c, &o);
    canvas_free(c);
}

static enum cmd_status cmd_sweep_run(struct session *s, int argc, char **argv)
{
    if (argc < 3)
        return sess_error(s, argc, "usage: sweep block|grid|n VALUES [step S] [for V1,V2...] "
                                   "[plot time|gbps|occupancy|none]");
    sweep_axis axis;
    if (sweep_axis_parse(argv[1], &axis) != 0)
        return sess_error(s, 1, "sweep block, grid or n (not \"%s\")", argv[1]);
    long long vals[SWEEP_MAX_VALUES];
    int nvals = 0, used = 0, bad = 0;
    char err[1024];
    if (sweep_parse_values(argc - 2, argv + 2, vals, SWEEP_MAX_VALUES, &nvals, &used, err, sizeof err,
                           &bad) != 0)
        return sess_error(s, 2 + bad, "%s", err);
    const lab_variant *vs[SWEEP_MAX_VARIANTS];
    int nv = 0, plot = 1;
    sweep_metric metric = SWEEP_METRIC_AUTO;
    for (int i = 2 + used; i < argc; i++) {
        if (strcmp(argv[i], "for") == 0) {
            if (i + 1 >= argc) return sess_error(s, i + 1, "for needs variant names: for interleaved,sequential");
            /* names separated by commas, or by spaces up to the next keyword */
            for (i = i + 1; i < argc && strcmp(argv[i], "plot") != 0 && strcmp(argv[i], "for") != 0; i++) {
                char *copy = strdup(argv[i]), *save = NULL;
                for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                    const char *name = t;
                    const char *slash = strchr(name, '/');
                    if (slash) name = slash + 1;
                    const lab_variant *v = sess_find_variant(s->algo, name, err, sizeof err);
                    if (!v) {
                        free(copy);
                        return sess_error(s, i, "%s", err);
                    }
                    if (axis != SWEEP_N && v->kind != LAB_ROW_KERNEL) {
                        free(copy);
                        return sess_error(s, i, "%s is a %s row: it has no %s to sweep (sweep n takes any row)",
                                          v->name, v->kind == LAB_ROW_CPU ? "CPU" : "library",
                                          sweep_axis_name(axis));
                    }
                    int dup = 0;
                    for (int k = 0; k < nv; k++) dup |= vs[k] == v;
                    if (dup) continue;
                    if (nv >= SWEEP_MAX_VARIANTS) {
                        free(copy);
                        return sess_error(s, i, "a sweep takes at most %d variants", SWEEP_MAX_VARIANTS);
                    }
                    vs[nv++] = v;
                }
                free(copy);
            }
            i--;
        } else if (strcmp(argv[i], "plot") == 0) {
            if (i + 1 >= argc) return sess_error(s, i + 1, "plot takes time, gbps, occupancy or none");
            i++;
            if (strcmp(argv[i], "none") == 0) plot = 0;
            else if (sweep_metric_parse(argv[i], &metric) != 0)
                return sess_error(s, i, "plot takes time, gbps, occupancy or none (not \"%s\")", argv[i]);
        } else if (strcmp(argv[i], "step") == 0) {
            return sess_error(s, i, "step goes right after the range: sweep %s LO..HI step S",
                              sweep_axis_name(axis));
        } else {
            return sess_error(s, i, "unexpected \"%s\": after the values come `for V1,V2` and `plot METRIC`",
                              argv[i]);
        }
    }
    if (nv == 0) {
        if (axis != SWEEP_N && s->variant->kind != LAB_ROW_KERNEL)
            return sess_error(s, -1, "the current variant %s has no %s; name kernel variants with `for`",
                              s->variant->name, sweep_axis_name(axis));
        vs[nv++] = s->variant;
    }
    if (axis == SWEEP_BLOCK)
        for (int i = 0; i < nvals; i++)
            if (vals[i] > 1024 * 1024) return sess_error(s, 2, "block %lld: a block has at most 1024 threads",
                                                         vals[i]);
    for (int k = 0; k < nv; k++)
        if (vs[k]->kind == LAB_ROW_KERNEL && s->cfg.backend == LAB_BACKEND_AUTO) {
            sess_note_no_gpu(s);
            break;
        }

    sweep_data d;
    struct progress_ctx pc = {s};
    if (sweep_run(s->algo, vs, nv, &s->cfg, axis, vals, nvals, &d, progress, &pc, err, sizeof err) != 0)
        return sess_error(s, -1, "%s", err);
    if (s->interactive && !s->json) {
        fprintf(out_err_stream(), "\r\033[K");
        fflush(out_err_stream());
    }
    /* the rows become the session's last results too (export, others) */
    lab_result *rows = malloc(sizeof *rows * (size_t)(d.npoints > 0 ? d.npoints : 1));
    if (rows) {
        for (int i = 0; i < d.npoints; i++) rows[i] = d.points[i].r;
        sess_set_results(s, rows, d.npoints);
        free(rows);
    }
    int ran = 0;
    for (int i = 0; i < d.npoints; i++) ran += d.points[i].r.ran != 0;
    if (s->json) {
        for (int i = 0; i < d.npoints; i++) out_json(sweep_point_json(&d, &d.points[i]));
    } else {
        char nb[64];
        fmt_n(d.npoints > 0 ? d.points[0].r.n : 0, nb, sizeof nb);
        out_printf("%ssweep %s%s over %s:", out_color(OUT_BOLD), sweep_axis_name(axis), out_color(OUT_RESET),
                   s->algo->name);
        for (int j = 0; j < nv; j++) out_printf("%s%s", j ? ", " : " ", vs[j]->name);
        if (axis != SWEEP_N) out_printf("  n = %s", nb);
        out_printf("  dtype %s  repeats %d  on %s\n", lab_dtype_name(s->cfg.dtype), s->cfg.repeats, d.device);
        if (d.npoints > 0) print_sweep_table(s, &d);
        if (d.interrupted)
            out_printf("interrupted: kept the %d of %d points measured before Ctrl-C\n", d.npoints,
                       nvals * nv);
        if (plot && ran > 0) show_plot(s, &d, sweep_metric_resolve(&d, metric));
    }
    enum cmd_status st = CMD_OK;
    if (d.npoints > 0 && ran == 0 && !d.interrupted)
        st = sess_error(s, -1, "no point of the sweep ran (the notes above say why)");
    sweep_keep(&d);
    return st;
}

/* ------------------------------------------------------------ occupancy */

/* Probe v under the session's settings at a quick size; fills in, the
 * launches and the n they ran at. */
static int probe_variant(struct session *s, const lab_variant *v, lab_config *c, lab_launch_probe *l,
                         int max, int *count, char *err, size_t len)
{
    *c = s->cfg;
    c->repeats = 1;
    /* on the simulator every thread is played by one CPU thread: the
     * figures per SM do not depend on n, so a large n is probed smaller */
    if (lab_kernel_backend(c) == LAB_BACKEND_SIM && s->algo->sim_default_n > 0 &&
        c->n > s->algo->sim_default_n)
        c->n = s->algo->sim_default_n;
    lab_input in;
    if (lab_input_prepare(&in, s->algo, c, err, len) != 0) return -1;
    int n = lab_probe_launches(&in, v, l, max, err, len);
    if (c->n <= 0) c->n = in.job.n; /* n auto: the n it ran at */
    lab_input_free(&in);
    if (n < 0) return -1;
    if (n == 0) {
        snprintf(err, len, "%s made no kernel launch", v->name);
        return -1;
    }
    *count = n;
    return 0;
}

static void explain_main(const lab_launch_probe *l, const sweep_occ *o, lab_backend be, const lab_config *c)
{
    const occ_result *r = &o->r;
    char lim[96];
    occ_limiters_text(r->limiters, lim, sizeof lim);
    if (r->blocks_per_sm == 0) {
        out_printf("\n%s cannot run at all: %s\n", l->kernel, r->why);
        return;
    }
    out_printf("\nWhy %d block%s of %d thread%s per SM (%s):\n", r->blocks_per_sm,
               r->blocks_per_sm == 1 ? "" : "s", o->threads, o->threads == 1 ? "" : "s", l->kernel);
    static const char *const head[] = {"resource", "one block takes", "an SM has", "blocks it allows"};
    struct out_table *t = out_table_new(4, head, "llrr");
    char a[4][96];
    const char *cells[4] = {a[0], a[1], a[2], a[3]};
    int sms = 0;
    const occ_model *m = NULL;
    occ_model gm;
    char title[256];
    if (be == LAB_BACKEND_GPU && occ_model_from_device(&gm, title, sizeof title) == 0) m = &gm;
    else m = sweep_model(c, NULL);
    sms = m->sms;
    snprintf(a[0], 96, "warp slots");
    snprintf(a[1], 96, "%d warp%s", r->warps_per_block, r->warps_per_block == 1 ? "" : "s");
    snprintf(a[2], 96, "%d warps", r->max_warps);
    snprintf(a[3], 96, "%d", r->by_warps);
    out_table_row(t, cells);
    snprintf(a[0], 96, "registers");
    if (o->regs > 0) {
        snprintf(a[1], 96, "%d (%d per thread)", r->regs_per_block, o->regs);
        snprintf(a[2], 96, "%d", m->regs_per_sm);
        snprintf(a[3], 96, "%d", r->by_regs);
    } else {
        snprintf(a[1], 96, o->regs == 0 ? "none" : "unknown");
        snprintf(a[2], 96, "%d", m->regs_per_sm);
        snprintf(a[3], 96, "-");
    }
    out_table_row(t, cells);
    snprintf(a[0], 96, "shared memory");
    char sb[32], sm[32];
    fmt_bytes(r->smem_per_block, sb, sizeof sb);
    fmt_bytes(m->smem_per_sm, sm, sizeof sm);
    snprintf(a[1], 96, "%s", sb);
    snprintf(a[2], 96, "%s", sm);
    if (r->by_smem >= 0) snprintf(a[3], 96, "%d", r->by_smem);
    else snprintf(a[3], 96, "-");
    out_table_row(t, cells);
    snprintf(a[0], 96, "resident blocks");
    snprintf(a[1], 96, "1");
    snprintf(a[2], 96, "%d", m->max_blocks_per_sm);
    snprintf(a[3], 96, "%d", r->by_blocks);
    out_table_row(t, cells);
    out_table_print(t);
    out_table_free(t);
    if (r->smem_per_block > 0 && m->smem_reserved_per_block > 0)
        out_wrapf(0, 1, "(a block's shared memory includes the %ld bytes the driver keeps per block, rounded up "
                  "to %d bytes)", m->smem_reserved_per_block, m->smem_alloc_unit);
    out_wrapf(0, 0, "%d of %d warp slots are filled: %.0f%% theoretical occupancy; %s.", r->active_warps,
              r->max_warps, 100.0 * r->occupancy, limiter_sentence(r->limiters));
    long long grid = (long long)l->grid[0] * l->grid[1] * l->grid[2];
    long long resident = (long long)r->blocks_per_sm * sms;
    if (resident > 0 && grid > 0) {
        double waves = (double)grid / resident;
        char pct[32];
        if (100.0 * waves < 1) snprintf(pct, sizeof pct, "less than 1%%");
        else snprintf(pct, sizeof pct, "%.0f%%", 100.0 * waves);
        if (waves < 1)
            out_wrapf(0, 0, "The grid of %lld block%s fills %s of the %lld blocks the %d SMs hold at once: "
                      "part of the GPU idles.", grid, grid == 1 ? "" : "s", pct, resident, sms);
        else
            out_wrapf(0, 0, "The grid of %lld blocks runs in %.1f waves of %lld blocks (%d SMs x %d)%s.", grid,
                      waves, resident, sms, r->blocks_per_sm,
                      waves - floor(waves) > 0.01 && waves < 4 ? "; the last wave leaves SMs idle" : "");
        if (grid * o->threads < (long long)sms * 32 && c->n > 0)
            out_wrapf(0, 0, "At n = %lld the kernel launches only %lld thread%s: that is what `run` does at "
                      "this n, and too few to fill a GPU; a larger n (set n 2^20) shows the launch of a "
                      "real workload.", c->n, grid * o->threads, grid * o->threads == 1 ? "" : "s");
    }
}

static enum cmd_status cmd_occupancy(struct session *s, int argc, char **argv)
{
    if (argc > 2) return sess_error(s, 2, "usage: occupancy [VARIANT]");
    const lab_variant *v = kernel_variant(s, argc, argv, 1, "occupancy");
    if (!v) return CMD_ERROR;
    char err[LAB_ERR_MAX];
    if (lab_validate(s->algo, v, &s->cfg, err, sizeof err) != 0)
        return sess_error(s, argc > 1 ? 1 : -1, "%s", err);
    lab_config c;
    lab_launch_probe l[16];
    int nl = 0;
    if (v->kind == LAB_ROW_KERNEL && s->cfg.backend == LAB_BACKEND_AUTO) sess_note_no_gpu(s);
    if (probe_variant(s, v, &c, l, 16, &nl, err, sizeof err) != 0)
        return sess_error(s, argc > 1 ? 1 : -1, "%s did not run: %s", v->name, err);
    lab_backend be = lab_kernel_backend(&c);
    sweep_occ occ[16];
    for (int i = 0; i < nl; i++) sweep_launch_occupancy(&l[i], &c, be, &occ[i]);
    const lab_launch_probe *main_l = sweep_main_launch(l, nl);
    int mi = (int)(main_l - l);
    if (s->json) {
        for (int i = 0; i < nl; i++) {
            json_t *o = sweep_occ_json(l[i].kernel, &occ[i]);
            if (!json_is_object(o)) {
                json_decref(o);
                o = json_object();
                json_object_set_new(o, "kernel", json_string(l[i].kernel));
                json_object_set_new(o, "note", json_string(occ[i].note));
            }
            json_object_set_new(o, "algo", json_string(s->algo->name));
            json_object_set_new(o, "variant", json_string(v->name));
            json_object_set_new(o, "backend", json_string(lab_backend_name(be)));
            json_object_set_new(o, "launches", json_integer(l[i].count));
            json_object_set_new(o, "grid", json_integer((long long)l[i].grid[0] * l[i].grid[1] * l[i].grid[2]));
            json_object_set_new(o, "main", json_boolean(i == mi));
            out_json(o);
        }
        return CMD_OK;
    }
    char nb[64], dev[320];
    fmt_n(c.n > 0 ? c.n : 0, nb, sizeof nb);
    sweep_device_text(&c, dev, sizeof dev);
    out_wrapf(0, 2, "%soccupancy of %s/%s%s  on %s", out_color(OUT_BOLD), s->algo->name, v->name,
              out_color(OUT_RESET), dev);
    static const char *const head[] = {"kernel", "launches", "grid", "block", "regs", "static smem",
                                       "dynamic smem", "blocks/SM", "warps/SM", "occupancy", "limited by"};
    struct out_table *t = out_table_new(11, head, "lrrrrrrrrrl");
    for (int i = 0; i < nl; i++) {
        char a[11][96];
        const char *cells[11];
        for (int k = 0; k < 11; k++) {
            snprintf(a[k], sizeof a[k], "-");
            cells[k] = a[k];
        }
        snprintf(a[0], 96, "%s%s", l[i].kernel, i == mi && nl > 1 ? " (main)" : "");
        snprintf(a[1], 96, "%d", l[i].count);
        if (l[i].grid[1] > 1 || l[i].grid[2] > 1) snprintf(a[2], 96, "%ux%ux%u", l[i].grid[0], l[i].grid[1], l[i].grid[2]);
        else snprintf(a[2], 96, "%u", l[i].grid[0]);
        if (l[i].block[1] > 1 || l[i].block[2] > 1)
            snprintf(a[3], 96, "%ux%ux%u", l[i].block[0], l[i].block[1], l[i].block[2]);
        else snprintf(a[3], 96, "%u", l[i].block[0]);
        const sweep_occ *o = &occ[i];
        if (o->known) {
            if (o->regs >= 0) snprintf(a[4], 96, "%d", o->regs);
            else snprintf(a[4], 96, "?");
            fmt_bytes(o->static_smem, a[5], 96);
            fmt_bytes(o->dynamic_smem, a[6], 96);
            snprintf(a[7], 96, "%d", o->r.blocks_per_sm);
            snprintf(a[8], 96, "%d/%d", o->r.active_warps, o->r.max_warps);
            snprintf(a[9], 96, "%.0f%%", 100.0 * o->r.occupancy);
            occ_limiters_text(o->r.limiters, a[10], 96);
        }
        out_table_row(t, cells);
    }
    static const char *const drop[] = {"launches", "warps/SM", "static smem", "regs", "dynamic smem",
                                       "grid", NULL};
    out_table_drop_order(t, drop);
    out_table_shrink(t, 0, 12);
    out_table_shrink(t, 10, 9);
    out_table_print(t);
    out_table_free(t);
    for (int i = 0; i < nl; i++)
        if (!occ[i].known || occ[i].note[0])
            out_wrapf(0, 2, "%s: %s%s%s", l[i].kernel, occ[i].known ? occ[i].source : "",
                      occ[i].known && occ[i].note[0] ? "; " : "", occ[i].note);
    if (c.n != s->cfg.n && s->cfg.n > 0)
        out_wrapf(0, 2, "launches recorded at n = %s (the figures per SM do not depend on n; the grid does)", nb);
    if (occ[mi].known) explain_main(main_l, &occ[mi], be, &c);
    return CMD_OK;
}

/* ------------------------------------------------------------ suggest */

static enum cmd_status cmd_suggest(struct session *s, int argc, char **argv)
{
    if (argc > 2) return sess_error(s, 2, "usage: suggest [VARIANT]");
    const lab_variant *v = kernel_variant(s, argc, argv, 1, "suggest");
    if (!v) return CMD_ERROR;
    if (v->flags & LAB_FIXED_BLOCK)
        return sess_error(s, argc > 1 ? 1 : -1, "%s/%s chooses its own block size (%d): there is nothing to suggest",
                          s->algo->name, v->name, v->block_default);
    char err[LAB_ERR_MAX];
    if (lab_validate(s->algo, v, &s->cfg, err, sizeof err) != 0)
        return sess_error(s, argc > 1 ? 1 : -1, "%s", err);
    if (v->kind == LAB_ROW_KERNEL && s->cfg.backend == LAB_BACKEND_AUTO) sess_note_no_gpu(s);
    /* probe at two block sizes: how the kernel's dynamic shared memory
     * grows with the block is what the search needs */
    lab_config c;
    lab_launch_probe l1[16], l2[16];
    int n1 = 0, n2 = 0;
    if (probe_variant(s, v, &c, l1, 16, &n1, err, sizeof err) != 0)
        return sess_error(s, -1, "%s did not run: %s", v->name, err);
    const lab_launch_probe *m1 = sweep_main_launch(l1, n1);
    int b1 = (int)(m1->block[0] * m1->block[1] * m1->block[2]);
    int lo = v->block_min > 0 ? v->block_min : 1, hi = v->block_max > 0 ? v->block_max : 1024;
    int b2 = b1 / 2 >= lo ? b1 / 2 : b1 * 2 <= hi ? b1 * 2 : 0;
    double per_thread = 0;
    long base = (long)m1->dynamic_smem;
    if (b2 > 0 && !(v->flags & LAB_BLOCK_2D)) {
        struct session tmp = *s;
        tmp.cfg.block = b2;
        if (probe_variant(&tmp, v, &c, l2, 16, &n2, err, sizeof err) == 0) {
            for (int i = 0; i < n2; i++)
                if (strcmp(l2[i].kernel, m1->kernel) == 0) {
                    int bb = (int)(l2[i].block[0] * l2[i].block[1] * l2[i].block[2]);
                    if (bb != b1) {
                        per_thread = ((double)m1->dynamic_smem - (double)l2[i].dynamic_smem) / (b1 - bb);
                        if (per_thread < 0) per_thread = 0;
                        base = (long)m1->dynamic_smem - (long)(per_thread * b1);
                        if (base < 0) base = 0;
                    }
                    break;
                }
        }
    }
    lab_backend be = lab_kernel_backend(&s->cfg);
    int suggested = -1, min_grid = 0;
    char src[320];
    sweep_occ occ_s;
    memset(&occ_s, 0, sizeof occ_s);
    if (be == LAB_BACKEND_GPU && m1->func) {
        suggested = occ_api_suggest_block(m1->func, base, per_thread, hi, &min_grid, err, sizeof err);
        if (suggested < 0) return sess_error(s, -1, "the occupancy API failed: %s", err);
        snprintf(src, sizeof src, "cudaOccupancyMaxPotentialBlockSize's search on %s", lab_device()->name);
        lab_launch_probe at = *m1;
        at.block[0] = (unsigned)suggested;
        at.block[1] = at.block[2] = 1;
        at.dynamic_smem = (size_t)(base + (long)(per_thread * suggested + 0.999999));
        sweep_launch_occupancy(&at, &s->cfg, be, &occ_s);
    } else {
        /* the model's figures, with the compiler's registers */
        lab_launch_probe at = *m1;
        sweep_occ o1;
        sweep_launch_occupancy(m1, &s->cfg, LAB_BACKEND_SIM, &o1);
        const occ_model *m = sweep_model(&s->cfg, NULL);
        occ_kernel k;
        memset(&k, 0, sizeof k);
        k.regs = o1.regs > 0 ? o1.regs : 0;
        k.static_smem = o1.static_smem > 0 ? o1.static_smem : 0;
        k.dynamic_smem = base;
        k.dynamic_per_thread = per_thread;
        k.max_dynamic_smem = sweep_optin_limit(m1, m, k.static_smem);
        if (k.max_dynamic_smem > 0) k.max_dynamic_smem = m->smem_per_block_optin - k.static_smem;
        suggested = occ_suggest_block(m, &k, hi, &min_grid);
        snprintf(src, sizeof src, "the occupancy calculator for model %s (%s)", m->name, m->title);
        at.block[0] = (unsigned)(suggested > 0 ? suggested : 1);
        at.block[1] = at.block[2] = 1;
        at.dynamic_smem = (size_t)(base + (long)(per_thread * suggested + 0.999999));
        sweep_launch_occupancy(&at, &s->cfg, LAB_BACKEND_SIM, &occ_s);
        if (o1.note[0]) snprintf(src + strlen(src), sizeof src - strlen(src), "; %s", o1.note);
    }
    if (suggested <= 0) return sess_error(s, -1, "no block size of %s can run: %s", v->name, occ_s.r.why);

    /* is the suggestion one the variant takes? */
    int allowed = suggested >= lo && suggested <= hi &&
                  (!(v->flags & LAB_POW2_BLOCK) || (suggested & (suggested - 1)) == 0);
    int nearest = suggested;
    if (!allowed) {
        nearest = lo;
        for (int b = lo; b <= hi; b *= 2)
            if (b <= suggested) nearest = b;
    }

    /* the measured side: a quick block sweep, on a GPU only */
    int best = -1;
    double best_ms = 0, best_gbps = -1;
    sweep_data d;
    int have_sweep = 0;
    if (be == LAB_BACKEND_GPU) {
        long long vals[SWEEP_MAX_VALUES];
        int nv = 0;
        for (long long b = lo < 32 ? 32 : lo; b <= hi && nv < SWEEP_MAX_VALUES; b *= 2) vals[nv++] = b;
        if (allowed) {
            int seen = 0;
            for (int i = 0; i < nv; i++) seen |= vals[i] == suggested;
            if (!seen && nv < SWEEP_MAX_VALUES) {
                int k = nv++;
                while (k > 0 && vals[k - 1] > suggested) {
                    vals[k] = vals[k - 1];
                    k--;
                }
                vals[k] = suggested;
            }
        }
        lab_config qc = s->cfg;
        if (qc.repeats > 5) qc.repeats = 5;
        struct progress_ctx pc = {s};
        const lab_variant *vv[1] = {v};
        if (sweep_run(s->algo, vv, 1, &qc, SWEEP_BLOCK, vals, nv, &d, progress, &pc, err, sizeof err) != 0)
            return sess_error(s, -1, "%s", err);
        have_sweep = 1;
        if (s->interactive && !s->json) {
            fprintf(out_err_stream(), "\r\033[K");
            fflush(out_err_stream());
        }
        for (int i = 0; i < d.npoints; i++) {
            const lab_result *r = &d.points[i].r;
            if (r->ran && r->correct != 0 && (best < 0 || r->ms < best_ms)) {
                best = (int)d.points[i].x;
                best_ms = r->ms;
                best_gbps = r->gbps;
            }
        }
    }

    if (s->json) {
        json_t *o = json_object();
        json_object_set_new(o, "algo", json_string(s->algo->name));
        json_object_set_new(o, "variant", json_string(v->name));
        json_object_set_new(o, "backend", json_string(lab_backend_name(be)));
        json_object_set_new(o, "kernel", json_string(m1->kernel));
        json_object_set_new(o, "suggested_block", json_integer(suggested));
        json_object_set_new(o, "suggested_allowed", json_boolean(allowed));
        json_object_set_new(o, "min_grid", json_integer(min_grid));
        json_object_set_new(o, "occupancy", occ_s.known ? json_real(occ_s.r.occupancy) : json_null());
        json_object_set_new(o, "from", json_string(src));
        json_object_set_new(o, "best_measured_block", best > 0 ? json_integer(best) : json_null());
        json_object_set_new(o, "best_measured_ms", best > 0 ? json_real(best_ms) : json_null());
        out_json(o);
        if (have_sweep) {
            for (int i = 0; i < d.npoints; i++) out_json(sweep_point_json(&d, &d.points[i]));
            sweep_keep(&d);
        }
        return CMD_OK;
    }
    out_printf("%ssuggest a block for %s/%s%s (kernel %s)\n", out_color(OUT_BOLD), s->algo->name, v->name,
               out_color(OUT_RESET), m1->kernel);
    if (have_sweep) {
        print_sweep_table(s, &d);
        lab_result *rows = malloc(sizeof *rows * (size_t)(d.npoints > 0 ? d.npoints : 1));
        if (rows) {
            for (int i = 0; i < d.npoints; i++) rows[i] = d.points[i].r;
            sess_set_results(s, rows, d.npoints);
            free(rows);
        }
        sweep_keep(&d);
        out_printf("\n");
    }
    char sugg[320];
    size_t so = (size_t)snprintf(sugg, sizeof sugg, "occupancy suggests: block %d", suggested);
    if (occ_s.known)
        snprintf(sugg + so, sizeof sugg - so, " (%.0f%% theoretical occupancy, %d block%s per SM; a grid of %d block%s fills every SM)",
                 100.0 * occ_s.r.occupancy, occ_s.r.blocks_per_sm, occ_s.r.blocks_per_sm == 1 ? "" : "s",
                 min_grid, min_grid == 1 ? "" : "s");
    out_wrapped(sugg, 0, 2);
    out_wrapf(2, 4, "from %s", src);
    if (!allowed)
        out_printf("  %s/%s takes blocks of %d..%d%s, so the nearest it can run is %d\n", s->algo->name, v->name,
                   lo, hi, (v->flags & LAB_POW2_BLOCK) ? " threads, powers of two" : " threads", nearest);
    if (be != LAB_BACKEND_GPU) {
        out_wrapf(0, 0, "fastest measured: needs a GPU. The simulator's time is the CPU's time to play every "
                   "thread, which says nothing about which block is fastest on a GPU.");
        return CMD_OK;
    }
    if (best < 0) {
        out_printf("fastest measured: no block size ran correctly (the notes above say why)\n");
        return CMD_OK;
    }
    char ms[32];
    fmt_ms(best_ms, ms, sizeof ms);
    out_printf("fastest measured:   block %d: %s ms", best, ms);
    if (best_gbps > 0) out_printf(", %.1f GB/s", best_gbps);
    out_printf("\n");
    if (best == nearest)
        out_wrapf(0, 0, "They agree here: with this kernel, filling the SM with warps is also what makes it "
                   "fastest.");
    else
        out_wrapf(0, 0, "They differ, and that is normal: the occupancy API only counts how many warps fit on "
                   "an SM. Time also depends on what each block does once (its reduction tree, its "
                   "atomicAdd), on how the grid divides into waves over the SMs, and on memory "
                   "bandwidth: once enough warps are resident to hide memory latency, more occupancy "
                   "buys nothing, and another block size wins for those other reasons.");
    return CMD_OK;
}

/* ------------------------------------------------------------ export */

static int results_are_sweep(const struct session *s, const sweep_data *d)
{
    if (!d || s->nresults != d->npoints || d->npoints == 0) return 0;
    for (int i = 0; i < d->npoints; i++)
        if (memcmp(&s->results[i], &d->points[i].r, sizeof(lab_result)) != 0) return 0;
    return 1;
}

static enum cmd_status cmd_export(struct session *s, int argc, char **argv)
{
    if (argc != 2 && argc != 4)
        return sess_error(s, argc < 2 ? 1 : 2, "usage: export FILE.csv|FILE.json|FILE.svg|FILE.png|FILE.pdf [--width N]");
    const char *path = argv[1];
    const char *dot = strrchr(path, '.');
    if (dot && strchr(dot, '/')) dot = NULL;
    char err[1024];
    long long width = 0;
    if (argc == 4) {
        if (strcmp(argv[2], "--width") != 0 && strcmp(argv[2], "width") != 0)
            return sess_error(s, 2, "expected --width N here (usage: export FILE [--width N])");
        if (parse_size(argv[3], 100, 16000, &width, err, sizeof err) != 0)
            return sess_error(s, 3, "--width: %s (pixels across for PNG, points for SVG and PDF)", err);
        if (viz_export_format(path) == VIZ_EXPORT_NONE)
            return sess_error(s, 2, "--width is for pictures (.svg, .png, .pdf); tables have no width");
    }
    if (viz_export_format(path) != VIZ_EXPORT_NONE) {
        int rows = 0;
        const char *what = NULL;
        const canvas *c = viz_export_latest(&rows, &what);
        if (!c)
            return sess_error(s, 1, "there is no picture yet: a sweep draws a plot, and animate shows frames");
        if (viz_export_latest_write(path, (int)width, err, sizeof err) != 0) return sess_error(s, 1, "%s", err);
        if (!s->json) out_printf("wrote %s: %s\n", path, what);
        return CMD_OK;
    }
    int csv = dot && strcasecmp(dot, ".csv") == 0, json = dot && strcasecmp(dot, ".json") == 0;
    if (!csv && !json)
        return sess_error(s, 1, "export writes .csv or .json (the last table or sweep) and .svg, .png or "
                                ".pdf (the last plot or animation frame)");
    const sweep_data *d = sweep_last();
    int sweep = results_are_sweep(s, d);
    if (!sweep && s->nresults == 0)
        return sess_error(s, 1, "nothing to export yet: run, compare or sweep first");
    FILE *f = fopen(path, "w");
    if (!f) return sess_error(s, 1, "cannot write %s: %s", path, strerror(errno));
    int rc;
    time_t now = time(NULL);
    if (sweep)
        rc = csv ? sweep_export_csv(f, d, err, sizeof err) : sweep_export_json(f, d, err, sizeof err);
    else if (csv)
        rc = results_export_csv(f, s->results, s->nresults, &s->results_cfg, s->results_algo, now, err, sizeof err);
    else
        rc = results_export_json(f, s->results, s->nresults, &s->results_cfg, s->results_algo, now, err,
                                 sizeof err);
    if (fclose(f) != 0 && rc == 0) {
        snprintf(err, sizeof err, "cannot write %s: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc != 0) return sess_error(s, 1, "%s", err);
    if (!s->json) {
        if (sweep)
            out_printf("wrote %s: the sweep of %s, %d points\n", path, sweep_axis_name(d->axis), d->npoints);
        else
            out_printf("wrote %s: the last table, %d row%s\n", path, s->nresults, s->nresults == 1 ? "" : "s");
    }
    return CMD_OK;
}

/* ------------------------------------------------------------ the table */

/* sweep AXIS VALUES ... : the axis, a few ranges, then the keywords and
 * their values. */
static void complete_sweep(struct session *s, int argc, char **argv, const char *text,
                           struct cmp_list *out)
{
    (void)text;
    if (argc == 1) {
        cmp_add(out, "block");
        cmp_add(out, "grid");
        cmp_add(out, "n");
        return;
    }
    if (argc == 2) {
        if (strcmp(argv[1], "n") == 0) {
            cmp_add(out, "2^10..2^24");
            cmp_add(out, "2^10..2^28");
        } else if (strcmp(argv[1], "grid") == 0) {
            cmp_add(out, "1..1024");
        } else {
            cmp_add(out, "32..1024");
        }
        return;
    }
    const char *prev = argv[argc - 1];
    if (strcmp(prev, "for") == 0) {
        cmp_variants(s, out);
    } else if (strcmp(prev, "plot") == 0) {
        cmp_add(out, "time");
        cmp_add(out, "gbps");
        cmp_add(out, "occupancy");
        cmp_add(out, "none");
    } else if (strcmp(prev, "step") != 0) {
        cmp_add(out, "for");
        cmp_add(out, "plot");
        if (argc == 3) cmp_add(out, "step");
    }
}

static void sweep_more_help(struct session *s)
{
    char names[256];
    occ_model_names(names, sizeof names);
    out_printf("GPU models for the simulator's occupancy (set model NAME): %s\n", names);
}

const struct cmd cmd_sweep[] = {
    {
        .name = "sweep",
        .usage = "sweep block|grid|n VALUES [step S] [for V1,V2...] [plot time|gbps|occupancy|none]",
        .help = "run variants over a range of block sizes, grids or n; table and plot",
        .long_help =
            "Runs the current variant (or those named after `for`) at every value and prints\n"
            "one row per point: time (median, min, max), GB/s, % of peak and the occupancy\n"
            "of its main kernel (registers, shared memory per block, blocks per SM, theoretical\n"
            "occupancy and what limits it). Then a plot: GB/s (or time) against the value, one\n"
            "line per variant, log axes where the values grow by a factor.\n"
            "\n"
            "VALUES:  32..1024          doubling: 32, 64, ..., 1024\n"
            "         32..1024 step 32  every 32nd\n"
            "         2^10..2^20 step x4  times 4 each time\n"
            "         32,96,160         just these\n"
            "Sizes are written as anywhere else: 64Mi, 2^26, 1e6.\n"
            "\n"
            "Points that cannot run (a block past the variant's or the GPU's limits, a grid\n"
            "that misses elements) stay in the table with the reason. Ctrl-C stops the sweep\n"
            "and keeps the points measured so far. `export FILE.csv` saves the table,\n"
            "`export FILE.svg` the plot.\n"
            "Examples: sweep block 32..1024 for interleaved,sequential\n"
            "          sweep n 2^10..2^24 step x4 plot time\n",
        .run = cmd_sweep_run,
        .complete = CMP_CUSTOM,
        .complete_fn = complete_sweep,
        .more_help = sweep_more_help,
    },
    {
        .name = "occupancy",
        .aliases = "occ",
        .usage = "occupancy [VARIANT]",
        .help = "registers, shared memory and resident blocks per SM of a variant's kernels",
        .long_help =
            "Runs the variant once (at a small n on the simulator) and lists every kernel it\n"
            "launched: registers per thread, static and dynamic shared memory per block, how\n"
            "many blocks fit on one SM, the theoretical occupancy, and which resource limits\n"
            "it (registers, shared memory, warp slots, resident blocks). On a GPU the figures\n"
            "come from the CUDA occupancy API; on the simulator they are computed for the\n"
            "GPU model of `set model`, with the registers the compiler reported for sm_90.\n",
        .run = cmd_occupancy,
        .complete = CMP_VARIANT,
        .more_help = sweep_more_help,
    },
    {
        .name = "suggest",
        .usage = "suggest [VARIANT]",
        .help = "the block size the occupancy API suggests, beside the fastest measured",
        .long_help =
            "Asks the occupancy calculation for the block size with the most resident\n"
            "threads (what cudaOccupancyMaxPotentialBlockSize returns), then on a GPU runs a\n"
            "quick block sweep and shows the fastest block beside it, and why the two may\n"
            "differ. On the simulator only the suggestion for the model of `set model` is\n"
            "given: measuring needs a GPU.\n",
        .run = cmd_suggest,
        .complete = CMP_VARIANT,
    },
    {
        .name = "export",
        .usage = "export FILE.csv|FILE.json|FILE.svg|FILE.png|FILE.pdf [--width N]",
        .help = "save the last table or sweep (CSV, JSON), or the last plot or frame (SVG, PNG, PDF)",
        .long_help =
            "CSV and JSON hold the last sweep, or the last run/compare table when that came\n"
            "later, with the device, every setting and the date, one column per field. CSV\n"
            "files start with '#' comment lines for those, then one header row.\n"
            "SVG, PNG and PDF draw the last picture shown, for slides: a sweep's plot as a\n"
            "vector plot (axes with ticks and units, log scales for x2 and x4 sweeps, a\n"
            "legend, each variant in its colour), or the current animation frame with its\n"
            "whole caption and without the key line. --width N sets the width: pixels for\n"
            "PNG (plots 1600 by default), points for SVG and PDF (plots 800).\n",
        .run = cmd_export,
        .complete = CMP_FILE,
    },
    {0},
};
