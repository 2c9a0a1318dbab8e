/* cmd_sweep.c - sweep: variants over a range of block sizes, grids or n, as
 * a table and a plot; and the helpers the exploring commands share
 * (cmd_sweep.h). occupancy and suggest are in cmd_occupancy.c, export in
 * cmd_export.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/cmd.h"
#include "repl/explore/cmd_sweep.h"
#include "repl/complete.h"
#include "viz/export.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "viz/render_plot.h"
#include "repl/cmd_program.h"
#include "repl/session.h"
#include "repl/explore/sweep.h"
#include "viz/term.h"

/* ------------------------------------------------------------ helpers */


/* A kernel variant of the current algorithm by name (argv[i]), or the
 * current variant when i >= argc. */
const lab_variant *sweep_kernel_variant(struct session *s, int argc, char **argv, int i, const char *cmd)
{
    if (i >= argc && s->prog) {
        program_refuse(s, cmd);
        return NULL;
    }
    const lab_variant *v = i < argc ? sess_variant_arg(s, i, argv[i]) : s->variant;
    if (!v) return NULL;
    if (v->kind != LAB_ROW_KERNEL) {
        sess_error(s, i < argc ? i : -1,
                   v->kind == LAB_ROW_CPU ? _("%s is a CPU row: %s is about our GPU kernels and their blocks")
                                          : _("%s is a library row: %s is about our GPU kernels and their blocks"),
                   v->name, cmd);
        return NULL;
    }
    return v;
}

/* The resolved n of a prepared input, as "1048576 (1Mi)". */
void sweep_fmt_n(long long n, char *buf, size_t len)
{
    char sz[32];
    parse_fmt_size(n, sz, sizeof sz);
    if (strcmp(sz, "") != 0 && strtoll(sz, NULL, 10) != n) snprintf(buf, len, "%lld (%s)", n, sz);
    else snprintf(buf, len, "%lld", n);
}

const char *sweep_limiter_sentence(unsigned lim)
{
    if (lim & OCC_LIM_REGS)
        return _("registers limit it: each warp gets its registers in whole units, so fewer registers "
                 "per thread (simpler code, __launch_bounds__) would let more warps in");
    if (lim & OCC_LIM_SMEM)
        return _("shared memory limits it: each block keeps its shared arrays for its whole life, so "
                 "less per block would let more blocks in");
    if (lim & OCC_LIM_WARPS)
        return _("warp slots limit it: the SM holds as many threads as it can, so occupancy cannot go "
                 "higher with this kernel");
    if (lim & OCC_LIM_BLOCKS)
        return _("the SM's table of resident blocks limits it: blocks this small leave warp slots "
                 "empty, larger blocks would fill them");
    return "";
}

/* ------------------------------------------------------------ sweep */

void sweep_progress(const sweep_data *d, int i, int j, void *ctx)
{
    struct sweep_progress_ctx *p = ctx;
    if (!p->s->interactive || p->s->json) return;
    fprintf(out_err_stream(), "\r\033[K  %s %lld (%d/%d): %s...", sweep_axis_name(d->axis), d->values[i],
            i * d->nvariants + j + 1, d->nvalues * d->nvariants, d->variants[j]->name);
    fflush(out_err_stream());
}

void sweep_print_table(struct session *s, const sweep_data *d)
{
    const char *const head[] = {"", _("variant"), "ms", _("min"), _("max"), "GB/s", /* xgettext:no-c-format */ _("% peak"), _("regs"),
                                _("smem/block"), _("blocks/SM"), _("occupancy"), _("limited by"), _("ok"),
                                _("est ms")};
    /* the estimate (simulator rows) goes beside ms, only when a point has one */
    int est = 0;
    for (int i = 0; i < d->npoints; i++)
        if (d->points[i].r.ran && d->points[i].r.est_ms > 0) est = 1;
    static const int order[14] = {0, 1, 2, 13, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const char *hd[14];
    char align[15];
    int ncols = 0;
    for (int k = 0; k < 14; k++) {
        if (order[k] == 13 && !est) continue;
        hd[ncols] = head[order[k]];
        align[ncols++] = "rlrrrrrrrrrllr"[order[k]];
    }
    align[ncols] = 0;
    hd[0] = sweep_axis_name(d->axis);
    struct out_table *t = out_table_new(ncols, hd, align);
    char notes[SWEEP_MAX_VALUES * 2][LAB_NOTE_MAX + 96];
    int nnotes = 0, sim = 0, lost_notes = 0;
    for (int i = 0; i < d->npoints; i++) {
        const sweep_point *p = &d->points[i];
        const lab_result *r = &p->r;
        char c[14][256];
        const char *cells[14];
        for (int k = 0; k < 14; k++) snprintf(c[k], sizeof c[k], "-");
        for (int k = 0, m = 0; k < 14; k++)
            if (order[k] != 13 || est) cells[m++] = c[order[k]];
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
                snprintf(notes[nnotes], sizeof notes[nnotes],
                         p->refused ? _("[%d] %s %s, %s: refused: %s") : r->ran ? "[%d] %s %s, %s: %s"
                                                                        : _("[%d] %s %s, %s: not run: %s"),
                         nnotes + 1, sweep_axis_name(d->axis), c[0], r->variant, r->note);
                snprintf(mark, sizeof mark, " [%d]", ++nnotes);
            } else {
                lost_notes++;
            }
        }
        if (r->ran) {
            int star = r->backend == LAB_BACKEND_SIM;
            sim |= star;
            parse_fmt_ms(r->ms, c[2], sizeof c[2]);
            if (star) strcat(c[2], "*");
            parse_fmt_ms(r->ms_min, c[3], sizeof c[3]);
            parse_fmt_ms(r->ms_max, c[4], sizeof c[4]);
            if (r->gbps > 0) snprintf(c[5], sizeof c[5], "%.1f", r->gbps);
            if (r->pct_peak >= 0 && r->gbps > 0) snprintf(c[6], sizeof c[6], "%.0f%%", r->pct_peak);
            if (r->est_ms > 0) {
                parse_fmt_ms(r->est_ms, c[13], sizeof c[13] - 1);
                strcat(c[13], "~");
            }
        }
        if (p->occ.known) {
            if (p->occ.regs >= 0) snprintf(c[7], sizeof c[7], "%d", p->occ.regs);
            long sm = (p->occ.static_smem > 0 ? p->occ.static_smem : 0) + p->occ.dynamic_smem;
            lab_fmt_bytes((double)sm, c[8], sizeof c[8]);
            snprintf(c[9], sizeof c[9], "%d", p->occ.r.blocks_per_sm);
            snprintf(c[10], sizeof c[10], "%.0f%%", 100.0 * p->occ.r.occupancy);
            sweep_limiters_words(p->occ.r.limiters, c[11], sizeof c[11]);
        }
        if (p->refused) snprintf(c[12], sizeof c[12], _("refused%s"), mark);
        else if (!r->ran) snprintf(c[12], sizeof c[12], _("not run%s"), mark);
        else if (r->correct > 0) snprintf(c[12], sizeof c[12], _("ok%s"), mark);
        else if (r->correct == 0) snprintf(c[12], sizeof c[12], _("WRONG%s"), mark);
        else snprintf(c[12], sizeof c[12], "-%s", mark);
        out_table_row(t, cells);
        const int ok_col = est ? 13 : 12;
        if (p->refused || !r->ran) out_table_color(t, ok_col, OUT_DIM);
        else if (r->correct == 0) out_table_color(t, ok_col, OUT_ERROR);
        else if (r->correct > 0) out_table_color(t, ok_col, OUT_GOOD);
    }
    /* too wide: these go first (the swept value, the variant, its time,
     * occupancy and ok stay) */
    const char *const drop[] = {_("min"), _("max"), /* xgettext:no-c-format */ _("% peak"), _("regs"), _("smem/block"), _("limited by"),
                                _("blocks/SM"), "GB/s", NULL};
    out_table_drop_order(t, drop);
    out_table_shrink(t, 1, 8);
    out_table_print(t);
    out_table_free(t);
    for (int i = 0; i < nnotes; i++) out_wrapf(0, 4, "%s", notes[i]);
    if (lost_notes) out_printf(_("(%d more notes: export the sweep to read them)\n"), lost_notes);
    if (sim)
        out_printf(_("* simulator time on this CPU, not GPU time (no GB/s or %% of peak)\n"));
    if (est)
        out_printf(_("~ est ms: an estimate of the GPU time on model %s from the simulator's memory counts, not a "
                     "measurement (see profile)\n"), s->cfg.model[0] ? s->cfg.model : "h200");
    /* where the occupancy columns come from, once */
    for (int i = 0; i < d->npoints; i++)
        if (d->points[i].occ.known) {
            out_printf(_("occupancy: %s%s%s\n"), d->points[i].occ.source_words,
                       d->points[i].occ.note_words[0] ? "; " : "", d->points[i].occ.note_words);
            break;
        }
}

/* The plot of d as a canvas (the caller frees it); *rows gets the rows used.
 * keep: the picture `export` writes, which takes it (its data with it, for
 * the vector plot) under the name offer; or NULL. */
static canvas *plot_sweep(const sweep_data *d, sweep_metric m, int width, int *rows, viz_picture *keep,
                          const char *offer)
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
    char title[512], sz[32];
    parse_fmt_size(d->points[0].r.n, sz, sizeof sz);
    const char *what = m == SWEEP_METRIC_GBPS ? "GB/s" : m == SWEEP_METRIC_OCCUPANCY ? _("occupancy") : _("time");
    /* TRANSLATORS: a plot's title, "reduce: time against block (n = 64Mi, gpu)" */
    if (d->axis == SWEEP_N)
        snprintf(title, sizeof title, _("%s: %s against n (%s)"), d->algo->name, what, lab_backend_name(d->backend));
    else
        snprintf(title, sizeof title, _("%s: %s against %s (n = %s, %s)"), d->algo->name, what,
                 sweep_axis_name(d->axis), sz, lab_backend_name(d->backend));
    viz_plot p;
    memset(&p, 0, sizeof p);
    p.title = title;
    p.xlabel = d->axis == SWEEP_BLOCK ? _("block (threads per block)")
             : d->axis == SWEEP_GRID  ? _("grid (blocks)")
                                      : _("n (elements)");
    p.ylabel = m == SWEEP_METRIC_GBPS ? _("GB/s (higher is better)")
             : m == SWEEP_METRIC_OCCUPANCY ? _("theoretical occupancy, % (higher is not always faster)")
             : d->backend == LAB_BACKEND_SIM ? _("ms, estimated GPU time from the simulator's counts (lower is better)")
                                               : _("ms, median (lower is better)");
    p.nseries = ns;
    p.series = series;
    p.logx = p.logy = VIZ_PLOT_AUTO;
    if (m == SWEEP_METRIC_OCCUPANCY) p.logy = 0;
    if (width < VIZ_PLOT_MIN_W) width = VIZ_PLOT_MIN_W;
    int h = 20;
    canvas *c = canvas_new(width, h);
    if (!c) return NULL;
    *rows = viz_plot_draw(c, canvas_bounds(c), &p);
    if (keep) viz_picture_keep_plot(keep, c, *rows, &p, offer);
    return c;
}

static void show_plot(struct session *s, const sweep_data *d, sweep_metric m)
{
    int w = out_width();
    w = w > 0 ? (w > 110 ? 110 : w) : 78;
    int rows = 0;
    char what[96];
    snprintf(what, sizeof what, _("the plot of the sweep of %s"), sweep_axis_name(d->axis));
    canvas *c = plot_sweep(d, m, w, &rows, &s->picture, what);
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
        return sess_error(s, argc, _("usage: sweep block|grid|n VALUES [step S] [for V1,V2...] "
                                     "[plot time|gbps|occupancy|none]"));
    sweep_axis axis;
    if (sweep_axis_parse(argv[1], &axis) != 0)
        return sess_error(s, 1, _("sweep block, grid or n (not \"%s\")"), argv[1]);
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
            if (i + 1 >= argc) return sess_error(s, i + 1, _("for needs variant names: for interleaved,sequential"));
            /* names separated by commas, or by spaces up to the next keyword */
            for (i = i + 1; i < argc && strcmp(argv[i], "plot") != 0 && strcmp(argv[i], "for") != 0; i++) {
                char *copy = strdup(argv[i]), *save = NULL;
                for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
                    const lab_variant *v = sess_variant_arg(s, i, t);
                    if (!v) {
                        free(copy);
                        return CMD_ERROR;
                    }
                    if (axis != SWEEP_N && v->kind != LAB_ROW_KERNEL) {
                        free(copy);
                        return sess_error(s, i,
                                          v->kind == LAB_ROW_CPU
                                              ? _("%s is a CPU row: it has no %s to sweep (sweep n takes any row)")
                                              : _("%s is a library row: it has no %s to sweep (sweep n takes any row)"),
                                          v->name, sweep_axis_name(axis));
                    }
                    int dup = 0;
                    for (int k = 0; k < nv; k++) dup |= vs[k] == v;
                    if (dup) continue;
                    if (nv >= SWEEP_MAX_VARIANTS) {
                        free(copy);
                        return sess_error(s, i, _("a sweep takes at most %d variants"), SWEEP_MAX_VARIANTS);
                    }
                    vs[nv++] = v;
                }
                free(copy);
            }
            i--;
        } else if (strcmp(argv[i], "plot") == 0) {
            if (i + 1 >= argc) return sess_error(s, i + 1, _("plot takes time, gbps, occupancy or none"));
            i++;
            if (strcmp(argv[i], "none") == 0) plot = 0;
            else if (sweep_metric_parse(argv[i], &metric) != 0)
                return sess_error(s, i, _("plot takes time, gbps, occupancy or none (not \"%s\")"), argv[i]);
        } else if (strcmp(argv[i], "step") == 0) {
            return sess_error(s, i, _("step goes right after the range: sweep %s LO..HI step S"),
                              sweep_axis_name(axis));
        } else {
            return sess_error(s, i, _("unexpected \"%s\": after the values come `for V1,V2` and `plot METRIC`"),
                              argv[i]);
        }
    }
    if (nv == 0) {
        if (s->prog) return program_refuse(s, "sweep");
        if (axis != SWEEP_N && s->variant->kind != LAB_ROW_KERNEL)
            return sess_error(s, -1, _("the current variant %s has no %s; name kernel variants with `for`"),
                              s->variant->name, sweep_axis_name(axis));
        vs[nv++] = s->variant;
    }
    if (axis == SWEEP_BLOCK)
        for (int i = 0; i < nvals; i++)
            if (vals[i] > 1024 * 1024) return sess_error(s, 2, _("block %lld: a block has at most 1024 threads"),
                                                         vals[i]);
    for (int k = 0; k < nv; k++)
        if (vs[k]->kind == LAB_ROW_KERNEL && s->cfg.backend == LAB_BACKEND_AUTO) {
            sess_note_no_gpu(s);
            break;
        }

    sweep_data d;
    struct sweep_progress_ctx pc = {s};
    if (sweep_run(s->algo, vs, nv, &s->cfg, axis, vals, nvals, &d, sweep_progress, &pc, err, sizeof err) != 0)
        return sess_error(s, -1, "%s", err);
    if (s->interactive && !s->json) {
        fprintf(out_err_stream(), "\r\033[K");
        fflush(out_err_stream());
    }
    int ran = 0;
    for (int i = 0; i < d.npoints; i++) ran += d.points[i].r.ran != 0;
    if (s->json) {
        for (int i = 0; i < d.npoints; i++) out_json(sweep_point_json(&d, &d.points[i]));
    } else {
        char nb[64];
        sweep_fmt_n(d.npoints > 0 ? d.points[0].r.n : 0, nb, sizeof nb);
        out_printf(_("%ssweep %s%s over %s:"), out_color(OUT_BOLD), sweep_axis_name(axis), out_color(OUT_RESET),
                   s->algo->name);
        for (int j = 0; j < nv; j++) out_printf("%s%s", j ? ", " : " ", vs[j]->name);
        if (axis != SWEEP_N) out_printf("  n = %s", nb);
        out_printf(_("  dtype %s  repeats %d  on %s\n"), lab_dtype_name(s->cfg.dtype), s->cfg.repeats, d.device);
        if (d.npoints > 0) sweep_print_table(s, &d);
        if (d.interrupted)
            out_printf(_("interrupted: kept the %d of %d points measured before Ctrl-C\n"), d.npoints,
                       nvals * nv);
        if (plot && ran > 0) show_plot(s, &d, sweep_metric_resolve(&d, metric));
    }
    enum cmd_status st = CMD_OK;
    if (d.npoints > 0 && ran == 0 && !d.interrupted)
        st = sess_error(s, -1, _("no point of the sweep ran (the notes above say why)"));
    /* the last output: export writes it, beside reads its rows */
    sess_output_sweep(s, &d);
    return st;
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

void sweep_models_help(struct session *s)
{
    char names[256];
    occ_model_names(names, sizeof names);
    out_printf(_("GPU models for the simulator's occupancy (set model NAME): %s\n"), names);
}


const struct cmd cmd_sweep[] = {
    {
        .name = "sweep",
        .usage = N_("sweep block|grid|n VALUES [step S] [for V1,V2...] [plot time|gbps|occupancy|none]"),
        .help = N_("run variants over a range of block sizes, grids or n; table and plot"),
        .long_help =
            /* xgettext:no-c-format */
            N_("Runs the current variant (or those named after `for`) at every value and prints\n"
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
               "          sweep n 2^10..2^24 step x4 plot time\n"),
        .run = cmd_sweep_run, .needs = CMD_NEEDS_VARIANT,
        .complete = CMP_CUSTOM,
        .complete_fn = complete_sweep,
        .more_help = sweep_models_help,
    },
    {0},
};
