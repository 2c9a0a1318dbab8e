/* cmd_run.c - run and compare: rows over one prepared input, printed as the
 * lecture's timing table or as JSON lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/cmd.h"
#include "repl/cmd_program.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/session.h"

static void fmt_result(const lab_result *r, char *buf, size_t len)
{
    snprintf(buf, len, "%s", r->result[0] ? r->result : "-");
    if (strlen(buf) > 24) snprintf(buf + 21, len - 21, "...");
}

/* The table, then footnotes: notes of rows, and what sim times mean. */
void sess_print_results(struct session *s, const lab_result *rows, int n)
{
    if (s->json) {
        for (int i = 0; i < n; i++) out_json_result(&rows[i]);
        return;
    }
    /* GFLOP/s only when some row counts arithmetic (matmul). */
    int flops = 0, est = 0;
    for (int i = 0; i < n; i++) {
        if (rows[i].ran && rows[i].gflops > 0) flops = 1;
        if (rows[i].ran && rows[i].est_ms > 0) est = 1;
    }
    enum { C_VAR, C_BE, C_BLOCK, C_GRID, C_MS, C_EST, C_MIN, C_MAX, C_GBPS, C_FLOPS, C_PEAK, C_SPEED,
           C_RESULT, C_OK, NC };
    /* The headers a person reads (--json has its own keys). */
    const char *const head_all[NC] = {_("variant"), _("backend"), _("block"), _("grid"), "ms", _("est ms"),
                                      _("min"), _("max"), "GB/s", "GFLOP/s", /* xgettext:no-c-format */ _("% peak"), _("speedup"),
                                      _("result"), _("ok")};
    static const char align_all[NC + 1] = "llrrrrrrrrrrrl";
    const char *head[NC];
    char align[NC + 1];
    int ncols = 0;
    for (int k = 0; k < NC; k++) {
        if ((k == C_FLOPS && !flops) || (k == C_EST && !est)) continue;
        head[ncols] = head_all[k];
        align[ncols++] = align_all[k];
    }
    align[ncols] = 0;
    struct out_table *t = out_table_new(ncols, head, align);
    /* Footnotes: rows with the same note share one, naming them all. */
    struct footnote {
        char text[LAB_NOTE_MAX + 16];
        char who[512];
    } *notes = calloc(64, sizeof *notes);
    int nnotes = 0, sim_rows = 0;
    for (int i = 0; i < n; i++) {
        const lab_result *r = &rows[i];
        char c[NC][64];
        const char *cells[NC];
        for (int k = 0; k < NC; k++) strcpy(c[k], "-");
        snprintf(c[C_VAR], sizeof c[0], "%s", r->variant);
        snprintf(c[C_BE], sizeof c[0], "%s", lab_backend_name(r->backend));
        int kernel = r->backend != LAB_BACKEND_CPU;
        if (kernel && r->block > 0) {
            if (r->block_y > 0) snprintf(c[C_BLOCK], sizeof c[0], "%dx%d", r->block, r->block_y);
            else snprintf(c[C_BLOCK], sizeof c[0], "%d", r->block);
        }
        if (kernel && r->grid > 0) {
            if (r->grid_y > 0) snprintf(c[C_GRID], sizeof c[0], "%lldx%lld", r->grid, r->grid_y);
            else snprintf(c[C_GRID], sizeof c[0], "%lld", r->grid);
        }
        char mark[16] = "";
        if (r->note[0] && notes) {
            char text[sizeof notes[0].text];
            snprintf(text, sizeof text, r->ran ? "%s" : _("not run: %s"), r->note);
            int k = 0;
            while (k < nnotes && strcmp(notes[k].text, text) != 0) k++;
            if (k == nnotes && nnotes < 64) {
                snprintf(notes[k].text, sizeof notes[k].text, "%s", text);
                nnotes++;
            }
            if (k < nnotes) {
                size_t l = strlen(notes[k].who);
                snprintf(notes[k].who + l, sizeof notes[k].who - l, "%s%s", l ? ", " : "", r->variant);
                snprintf(mark, sizeof mark, " [%d]", k + 1);
            }
        }
        if (r->ran) {
            const char *star = r->backend == LAB_BACKEND_SIM ? "*" : "";
            if (*star) sim_rows++;
            parse_fmt_ms(r->ms, c[C_MS], sizeof c[0]);
            strcat(c[C_MS], star);
            if (r->est_ms > 0) {
                parse_fmt_ms(r->est_ms, c[C_EST], sizeof c[0]);
                strcat(c[C_EST], "~");
            }
            parse_fmt_ms(r->ms_min, c[C_MIN], sizeof c[0]);
            parse_fmt_ms(r->ms_max, c[C_MAX], sizeof c[0]);
            if (r->gbps > 0) snprintf(c[C_GBPS], sizeof c[0], "%.1f", r->gbps);
            if (r->gflops > 0) snprintf(c[C_FLOPS], sizeof c[0], "%.1f", r->gflops);
            if (r->pct_peak >= 0 && r->gbps > 0) snprintf(c[C_PEAK], sizeof c[0], "%.0f%%", r->pct_peak);
            if (r->speedup > 0)
                snprintf(c[C_SPEED], sizeof c[0], r->speedup < 10 ? "%.2fx" : "%.1fx", r->speedup);
            fmt_result(r, c[C_RESULT], sizeof c[0]);
            if (r->correct > 0 && r->rel_error > 0)
                snprintf(c[C_OK], sizeof c[0], _("ok (%.0e)%s"), r->rel_error, mark);
            else if (r->correct > 0)
                snprintf(c[C_OK], sizeof c[0], _("ok%s"), mark);
            else if (r->correct == 0 && r->rel_error > 0)
                snprintf(c[C_OK], sizeof c[0], _("WRONG (%.0e)%s"), r->rel_error, mark);
            else if (r->correct == 0)
                snprintf(c[C_OK], sizeof c[0], _("WRONG%s"), mark);
            else
                snprintf(c[C_OK], sizeof c[0], "-%s", mark);
        } else {
            snprintf(c[C_RESULT], sizeof c[0], "%s", _("not run"));
            snprintf(c[C_OK], sizeof c[0], "-%s", mark);
        }
        int m = 0;
        for (int k = 0; k < NC; k++)
            if ((k != C_FLOPS || flops) && (k != C_EST || est)) cells[m++] = c[k];
        out_table_row(t, cells);
        int res_col = C_RESULT - !flops - !est, ok_col = C_OK - !flops - !est;
        if (!r->ran) out_table_color(t, res_col, OUT_DIM);
        if (r->ran && r->correct == 0) out_table_color(t, ok_col, OUT_ERROR);
        else if (r->ran && r->correct > 0) out_table_color(t, ok_col, OUT_GOOD);
    }
    /* Too wide for the terminal: these go first, in this order (a column
     * not named here stays; the result is cut before the variant). */
    const char *const drop[] = {_("min"), _("max"), /* xgettext:no-c-format */ _("% peak"), _("grid"), _("block"), "GFLOP/s",
                                _("backend"), _("speedup"), "GB/s", NULL};
    out_table_drop_order(t, drop);
    out_table_shrink(t, C_RESULT - !flops - !est, 6);
    out_table_shrink(t, C_VAR, 8);
    out_table_print(t);
    out_table_free(t);
    for (int i = 0; i < nnotes; i++) out_wrapf(0, 4, "[%d] %s: %s", i + 1, notes[i].who, notes[i].text);
    free(notes);
    if (sim_rows)
        out_wrapf(0, 2, _("* sim rows: simulator time on this CPU, not GPU time (no GB/s, %% of peak or speedup)"));
    if (est)
        out_wrapf(0, 2, _("~ est ms: an estimate of the GPU time on model %s from the simulator's memory counts, not a "
                          "measurement (see profile)"), s->cfg.model[0] ? s->cfg.model : "h200");
}

/* The line above a table: what ran on what. Simulator rows run once, so
 * repeats is said of the rows that repeat. */
static void print_header(struct session *s, const lab_input *in, const lab_variant **vs, int n)
{
    if (s->json) return;
    char nb[32], rep[96];
    parse_fmt_size(lab_input_n(in), nb, sizeof nb);
    int sim = 0, other = 0;
    for (int i = 0; i < n; i++) {
        if (vs[i]->kind == LAB_ROW_KERNEL && lab_kernel_backend(&s->cfg) == LAB_BACKEND_SIM) sim++;
        else other++;
    }
    if (!other) snprintf(rep, sizeof rep, "%s", _("sim rows run once"));
    else if (sim) snprintf(rep, sizeof rep, _("repeats %d (sim rows once)"), s->cfg.repeats);
    else snprintf(rep, sizeof rep, _("repeats %d"), s->cfg.repeats);
    out_printf(_("%s%s%s  n = %lld%s%s%s  dtype %s  pattern %s  %s\n"), out_color(OUT_BOLD),
               s->algo->name, out_color(OUT_RESET), lab_input_n(in), strchr(nb, 'i') ? " (" : "",
               strchr(nb, 'i') ? nb : "", strchr(nb, 'i') ? ")" : "", lab_dtype_name(s->cfg.dtype),
               s->cfg.pattern[0] ? s->cfg.pattern : "-", rep);
}

/* The n to run at when kernel rows would run on the simulator past its
 * limit: the family's simulator size (or its default size), so that every row
 * still shares one input. 0 when n can stay as it is. */
static long long sim_fit_n(const struct session *s, const lab_config *cfg, long long items)
{
    if (items <= cfg->sim_limit) return 0;
    long long n = s->algo->sim_default_n > 0 ? s->algo->sim_default_n : s->algo->n_default;
    if (items == cfg->n && n > cfg->sim_limit) { /* a lowered sim-limit: a power of two below it */
        n = 1;
        while (n * 2 <= cfg->sim_limit) n *= 2;
    }
    return n > 0 && n < cfg->n ? n : 0;
}

static void note_sim_fit(const struct session *s, const lab_config *cfg, long long asked, long long items,
                         long long n)
{
    char a[32], b[32], l[32], why[96], el[64] = "";
    if (items != asked) snprintf(el, sizeof el, _(" (%lld elements)"), items);
    parse_fmt_size(asked, a, sizeof a);
    parse_fmt_size(n, b, sizeof b);
    parse_fmt_size(cfg->sim_limit, l, sizeof l);
    long long fam = s->algo->sim_default_n > 0 ? s->algo->sim_default_n : s->algo->n_default;
    if (n == fam) snprintf(why, sizeof why, _("%s's size for the simulator"), s->algo->name);
    else snprintf(why, sizeof why, "%s", _("the largest power of two within the limit"));
    out_note(_("n = %s%s is past the simulator's limit (%s elements, `set sim-limit`): every row runs at "
               "n = %s, %s, so that all of them share one input; on a GPU they run at n = %s"),
             a, el, l, b, why, a);
}

void sess_fit_sim_n(struct session *s, lab_config *cfg)
{
    long long fit = cfg->n > 0 ? sim_fit_n(s, cfg, cfg->n) : 0;
    if (fit) {
        note_sim_fit(s, cfg, s->cfg.n, cfg->n, fit);
        cfg->n = fit;
    }
}

/* Run the variants vs[0..n) over one input prepared once. Returns the
 * number of rows that did not run (-1: the input could not be made). */
static int run_rows(struct session *s, const lab_variant **vs, int n, lab_result *rows)
{
    char msg[LAB_ERR_MAX];
    int kernels = 0;
    for (int i = 0; i < n; i++)
        if (vs[i]->kind == LAB_ROW_KERNEL) kernels++;
    if (kernels && s->cfg.backend == LAB_BACKEND_AUTO) sess_note_no_gpu(s);
    lab_config cfg = s->cfg; /* the input points at it until lab_input_delete */
    int on_sim = kernels && lab_kernel_backend(&cfg) == LAB_BACKEND_SIM;
    /* every family's simulator elements are at least n: no input needed to know */
    long long fit = on_sim && cfg.n > 0 ? sim_fit_n(s, &cfg, cfg.n) : 0, items = cfg.n;
    if (fit) cfg.n = fit;
    lab_input *in = lab_input_new(s->algo, &cfg, msg, sizeof msg);
    if (!in) {
        sess_error(s, -1, "%s", msg);
        return -1;
    }
    if (on_sim && !fit && cfg.n > 0 && lab_input_sim_items(in) > 0 &&
        (fit = sim_fit_n(s, &cfg, lab_input_sim_items(in))) > 0) {
        items = lab_input_sim_items(in);
        /* n itself fits, its elements (n x n, an image) do not */
        lab_input_delete(in);
        cfg.n = fit;
        in = lab_input_new(s->algo, &cfg, msg, sizeof msg);
        if (!in) {
            sess_error(s, -1, "%s", msg);
            return -1;
        }
    }
    if (fit) note_sim_fit(s, &cfg, s->cfg.n, items, fit);
    print_header(s, in, vs, n);
    int notrun = 0;
    for (int i = 0; i < n; i++) {
        if (lab_interrupted) {
            memset(&rows[i], 0, sizeof rows[i]);
            snprintf(rows[i].algo, sizeof rows[i].algo, "%s", s->algo->name);
            snprintf(rows[i].variant, sizeof rows[i].variant, "%s", vs[i]->name);
            rows[i].backend = lab_row_backend(vs[i], &s->cfg);
            rows[i].n = lab_input_n(in);
            rows[i].dtype = s->cfg.dtype;
            rows[i].correct = -1;
            rows[i].pct_peak = rows[i].speedup = rows[i].rel_error = -1;
            snprintf(rows[i].note, sizeof rows[i].note, "interrupted (Ctrl-C)");
            notrun++;
            continue;
        }
        if (s->interactive && !s->json)
            out_progress(_("  running %s on %s..."), vs[i]->name,
                         vs[i]->kind == LAB_ROW_CPU   ? _("the CPU")
                         : vs[i]->kind == LAB_ROW_LIB ? _("the GPU")
                         : lab_backend_name(lab_row_backend(vs[i], &s->cfg)));
        if (lab_run(in, vs[i], &rows[i], NULL) != 0) notrun++;
        out_progress_clear();
    }
    lab_input_delete(in);
    lab_rebase_speedups(s->algo, rows, n); /* the table's own OpenMP row is 1.00x */
    sess_output_table(s, rows, n);
    sess_print_results(s, rows, n);
    return notrun;
}

static enum cmd_status do_run(struct session *s, int argc, char **argv)
{
    char err[1024];
    if (s->prog) return program_run(s, argc, argv);
    int n = argc > 1 ? argc - 1 : 1;
    const lab_variant **vs = calloc((size_t)n, sizeof *vs);
    lab_result *rows = calloc((size_t)n, sizeof *rows);
    if (!vs || !rows) {
        free(vs);
        free(rows);
        return sess_error(s, -1, _("out of memory"));
    }
    enum cmd_status st = CMD_OK;
    if (argc == 1) vs[0] = s->variant;
    for (int i = 1; i < argc; i++) {
        if (!(vs[i - 1] = sess_variant_arg(s, i, argv[i]))) {
            st = CMD_ERROR;
            goto done;
        }
        /* Limits first, with the caret under the variant they concern. */
        if (lab_validate(s->algo, vs[i - 1], &s->cfg, err, sizeof err) != 0) {
            st = sess_error(s, i, "%s", err);
            goto done;
        }
    }
    if (argc == 1 && lab_validate(s->algo, s->variant, &s->cfg, err, sizeof err) != 0) {
        st = sess_error(s, -1, "%s", err);
        goto done;
    }
    if (s->cfg.gpus > 1 && s->algo->multi) {
        /* across GPUs: one variant after another, each with its two tables */
        for (int i = 0; i < n && st == CMD_OK; i++) st = sess_run_multi(s, vs[i]);
        goto done;
    }
    if (s->cfg.gpus > 1 && !s->json)
        out_note(_("gpus is %d, but %s runs on one GPU (several GPUs: reduce)"), s->cfg.gpus, s->algo->name);
    int notrun = run_rows(s, vs, n, rows);
    if (notrun < 0) {
        st = CMD_ERROR;
    } else if (notrun > 0) {
        /* A row asked for by name that could not run is a failed command. */
        for (int i = 0; i < n; i++)
            if (!rows[i].ran) {
                st = sess_error(s, argc > 1 ? i + 1 : -1, _("%s did not run: %s"), rows[i].variant,
                                rows[i].note[0] ? rows[i].note : _("no reason given"));
                break;
            }
    }
done:
    free(vs);
    free(rows);
    return st;
}

static enum cmd_status do_compare(struct session *s, int argc, char **argv)
{
    if (s->prog) return program_compare(s, argc, argv);
    if (argc > 1) return sess_error(s, 1, _("compare takes no arguments: it runs every variant of %s"),
                                    s->algo->name);
    int n = s->algo->nvariants;
    const lab_variant **vs = calloc((size_t)n, sizeof *vs);
    lab_result *rows = calloc((size_t)n, sizeof *rows);
    enum cmd_status st = CMD_OK;
    if (!vs || !rows) {
        st = sess_error(s, -1, _("out of memory"));
    } else {
        /* Without a GPU the table leaves out the library rows, with a line
         * saying so; JSON keeps them as rows that did not run. */
        char lib[256] = "";
        int m = 0, nlib = 0;
        for (int i = 0; i < n; i++) {
            const lab_variant *v = &s->algo->variants[i];
            if (v->kind == LAB_ROW_LIB && !s->json && !lab_gpu_available()) {
                size_t l = strlen(lib);
                snprintf(lib + l, sizeof lib - l, "%s%s", l ? ", " : "", v->name);
                nlib++;
                continue;
            }
            vs[m++] = v;
        }
        if (s->cfg.gpus > 1 && !s->json)
            out_note(_("gpus is %d, but compare runs every row on one GPU; run VARIANT splits one across the GPUs"),
                     s->cfg.gpus);
        int notrun = run_rows(s, vs, m, rows);
        if (lib[0] && notrun >= 0)
            out_wrapf(0, 2,
                      ngettext("%s (vendor library code) runs only on a GPU: not in this table",
                               "%s (vendor library code) run only on a GPU: not in this table",
                               (unsigned long)nlib),
                      lib);
        if (notrun < 0) st = CMD_ERROR;
        if (notrun > 0 && lab_interrupted)
            st = sess_error(s, -1, ngettext("compare interrupted: %d row did not run",
                                            "compare interrupted: %d rows did not run", (unsigned long)notrun),
                            notrun);
    }
    free(vs);
    free(rows);
    return st;
}

const struct cmd cmd_run[] = {
    {
        .name = "run",
        .usage = N_("run [VARIANT...] | run [ARGS...] (a program)"),
        .help = N_("run the chosen variant (or the ones named) and print the timing table"),
        .long_help =
            /* xgettext:no-c-format */
            N_("Runs on the GPU, or on gpulab's CPU simulator when there is none (set backend\n"
               "chooses on a machine with both). The input is made once and shared by all the\n"
               "rows. Columns: ms is the median of `repeats` timed runs after a warm-up, with\n"
               "min and max; GB/s counts the bytes one run reads and writes; % peak compares\n"
               "it with the measured device-to-device copy (see device); speedup is against\n"
               "the OpenMP CPU row; ok says whether the result matches the CPU reference\n"
               "(floats: with the relative error). Simulator rows (backend sim) show\n"
               "simulator time on this CPU, not GPU time. Ctrl-C stops between repeats.\n"
               "With --json, one JSON object per row.\n"
               "With a program open (open FILE.cu), run builds it (cached) and runs it\n"
               "with ARGS as its command line: its output, exit status and launches.\n"),
        .run = do_run, .needs = CMD_NEEDS_VARIANT, .program = 1,
        .complete = CMP_VARIANT,
    },
    {
        .name = "compare",
        .usage = "compare",
        .help = N_("run every variant, library and CPU row of the algorithm: the lecture's table"),
        .long_help =
            N_("Runs all the variants of the current algorithm in the registry's order over\n"
               "one input: the hand-written kernels, the vendor library rows (thrust, CUB:\n"
               "GPU only, so marked not run without a GPU) and the CPU baselines. Rows that\n"
               "cannot run say why in a footnote. With --json, one JSON object per row.\n"),
        .run = do_compare, .needs = CMD_NEEDS_ALGO, .program = 1,
    },
    {0},
};
