/* results.c - the timing table of rows that ran (run, compare, animate, a
 * run across GPUs), or their JSON lines; and the n a run takes on the
 * simulator past its limit, with the note that says so. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "repl/results.h"

#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/session.h"

/* The result cell: at most 24 columns, cut between characters (a translated
 * word is not ASCII) with "..." when it is longer. */
static void fmt_result(const lab_result *r, char *buf, size_t len)
{
    snprintf(buf, len, "%s", r->result[0] ? r->result : "-");
    if (out_text_width(buf, strlen(buf)) > 24) {
        size_t cut = out_fit_len(buf, 21);
        if (cut + 4 <= len) snprintf(buf + cut, len - cut, "...");
    }
}

int results_omp_flag(const lab_result *rows, int n, int omp, long cores, double load1, char *flag, size_t len)
{
    flag[0] = 0;
    const lab_result *o = &rows[omp], *seq = NULL;
    for (int i = 0; i < n; i++)
        if (i != omp && rows[i].ran && rows[i].backend == LAB_BACKEND_CPU && rows[i].ms > 0) seq = &rows[i];
    if (seq && o->ms > seq->ms)
        snprintf(flag, len,
                 _("! %s took %.1fx as long as %s: its threads wait for cores on this machine (small or busy), "
                   "so the speedups measured against it say little here"),
                 o->variant, o->ms / seq->ms, seq->variant);
    else if (cores > 0 && cores <= 2)
        snprintf(flag, len,
                 _("! %s: this machine has %ld cores, too few for OpenMP to show what it does, so the speedups "
                   "measured against it say little here"),
                 o->variant, cores);
    else if (cores > 0 && load1 > (double)cores)
        snprintf(flag, len,
                 _("! %s: this machine is busy (load %.1f on %ld cores), so OpenMP's threads wait for cores and "
                   "the speedups measured against it say little here"),
                 o->variant, load1, cores);
    return flag[0] != 0;
}

/* The table, then footnotes: notes of rows, and what sim times mean. */
void results_print(struct session *s, const lab_result *rows, int n)
{
    if (s->json) {
        for (int i = 0; i < n; i++) out_json_result(&rows[i]);
        return;
    }
    char omp_flag[512] = "";
    const lab_variant *omp = s->algo ? lab_algo_baseline(s->algo) : NULL;
    int omp_row = -1;
    for (int i = 0; omp && i < n; i++)
        if (rows[i].ran && strcmp(rows[i].variant, omp->name) == 0) omp_row = i;
    if (omp_row >= 0) {
        double load = 0;
        if (getloadavg(&load, 1) != 1) load = 0;
        results_omp_flag(rows, n, omp_row, sysconf(_SC_NPROCESSORS_ONLN), load, omp_flag, sizeof omp_flag);
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
            if (i == omp_row && omp_flag[0]) strcat(c[C_MS], "!");
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
    /* A grid or block the user set is what the step is about: it goes last. */
    const int grid_set = s->cfg.grid > 0, block_set = s->cfg.block > 0;
    const char *drop[12];
    int nd = 0;
    drop[nd++] = _("min");
    drop[nd++] = _("max");
    drop[nd++] = /* xgettext:no-c-format */ _("% peak");
    if (!grid_set) drop[nd++] = _("grid");
    if (!block_set) drop[nd++] = _("block");
    drop[nd++] = "GFLOP/s";
    drop[nd++] = _("backend");
    drop[nd++] = _("speedup");
    drop[nd++] = "GB/s";
    if (grid_set) drop[nd++] = _("grid");
    if (block_set) drop[nd++] = _("block");
    drop[nd] = NULL;
    out_table_drop_order(t, drop);
    out_table_shrink(t, C_RESULT - !flops - !est, 6);
    out_table_shrink(t, C_VAR, 8);
    out_table_print(t);
    out_table_free(t);
    for (int i = 0; i < nnotes; i++) out_wrapf(0, 4, "[%d] %s: %s", i + 1, notes[i].who, notes[i].text);
    free(notes);
    if (omp_flag[0]) out_wrapf(0, 2, "%s", omp_flag);
    /* What * and ~ mean, in full under the session's first table that has
     * them; under later ones a one-line key, so the table keeps the screen. */
    const char *model = s->cfg.model[0] ? s->cfg.model : "h200";
    if ((sim_rows || est) && s->said.table_keys) {
        if (sim_rows && est)
            out_wrapf(0, 2, _("* simulator time on this CPU   ~ estimated GPU time (%s)"), model);
        else if (sim_rows)
            out_wrapf(0, 2, "%s", _("* simulator time on this CPU, not GPU time"));
        else
            out_wrapf(0, 2, _("~ estimated GPU time (%s)"), model);
        return;
    }
    if (sim_rows)
        out_wrapf(0, 2, _("* sim rows: simulator time on this CPU, not GPU time (no GB/s, %% of peak or speedup)"));
    if (est)
        out_wrapf(0, 2, _("~ est ms: an estimate of the GPU time on model %s from the simulator's memory counts, not a "
                          "measurement (see profile)"), model);
    if (sim_rows || est) s->said.table_keys = 1;
}

/* The n to run at when kernel rows would run on the simulator past its
 * limit: the family's simulator size (or its default size), so that every row
 * still shares one input. 0 when n can stay as it is. */
long long results_sim_n(const struct session *s, const lab_config *cfg, long long items)
{
    if (items <= cfg->sim_limit) return 0;
    long long n = s->algo->sim_default_n > 0 ? s->algo->sim_default_n : s->algo->n_default;
    if (items == cfg->n && n > cfg->sim_limit) { /* a lowered sim-limit: a power of two below it */
        n = 1;
        while (n * 2 <= cfg->sim_limit) n *= 2;
    }
    return n > 0 && n < cfg->n ? n : 0;
}

void results_note_sim_n(struct session *s, const lab_config *cfg, long long asked, long long items, long long n)
{
    char a[32], b[32], l[32], why[512], el[128] = "";
    /* an image or a matrix counts its elements; matmul counts its work */
    if (items != asked && items == asked * asked) snprintf(el, sizeof el, _(" (%lld elements)"), items);
    else if (items != asked) snprintf(el, sizeof el, _(" (%lld units of simulator work)"), items);
    parse_fmt_size(asked, a, sizeof a);
    parse_fmt_size(n, b, sizeof b);
    parse_fmt_size(cfg->sim_limit, l, sizeof l);
    if (s->said.sim_n_asked == asked && s->said.sim_n_limit == cfg->sim_limit) { /* said in full before */
        out_note(_("n = %s runs at n = %s on the simulator (sim-limit %s)"), a, b, l);
        return;
    }
    s->said.sim_n_asked = asked;
    s->said.sim_n_limit = cfg->sim_limit;
    long long fam = s->algo->sim_default_n > 0 ? s->algo->sim_default_n : s->algo->n_default;
    if (n == fam) snprintf(why, sizeof why, _("%s's size for the simulator"), s->algo->name);
    else snprintf(why, sizeof why, "%s", _("the largest power of two within the limit"));
    out_note(_("n = %s%s is past the simulator's limit (%s elements, `set sim-limit`): every row runs at "
               "n = %s, %s, so that all of them share one input; on a GPU they run at n = %s"),
             a, el, l, b, why, a);
}

void results_fit_sim_n(struct session *s, lab_config *cfg)
{
    long long fit = cfg->n > 0 ? results_sim_n(s, cfg, cfg->n) : 0;
    if (fit) {
        results_note_sim_n(s, cfg, s->cfg.n, cfg->n, fit);
        cfg->n = fit;
    }
}
