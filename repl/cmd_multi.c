/* cmd_multi.c - run across several GPUs (`set gpus N`, then run): one table
 * of the GPUs and their slices, one of the three combines. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/cmd.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/session.h"
#include "repl/cmd_multi.h"
#include "repl/results.h"

static void fmt_ok(char *buf, size_t len, int correct, double rel_error, const char *mark)
{
    if (correct > 0 && rel_error > 0) snprintf(buf, len, _("ok (%.0e)%s"), rel_error, mark);
    else if (correct > 0) snprintf(buf, len, _("ok%s"), mark);
    else if (correct == 0) snprintf(buf, len, _("WRONG%s"), mark);
    else snprintf(buf, len, "-%s", mark);
}

static json_t *num_or_null(double x, int ok)
{
    return ok ? json_real(x) : json_null();
}

/* --json: a line per GPU (the run's row keys and "gpu", "lo") and a line per
 * combine (its own keys, docs/commands.md). */
static void print_multi_json(const lab_multi *m)
{
    for (int d = 0; d < m->gpus; d++) {
        json_t *o = out_result_json(&m->part[d]);
        json_object_set_new(o, "gpu", json_integer(d));
        json_object_set_new(o, "gpus", json_integer(m->gpus));
        json_object_set_new(o, "lo", json_integer(m->lo[d]));
        out_json(o);
    }
    for (int k = 0; k < LAB_NCOMBINES; k++) {
        const lab_multi_combine *c = &m->comb[k];
        json_t *o = json_object();
        json_object_set_new(o, "algo", json_string(m->part[0].algo));
        json_object_set_new(o, "variant", json_string(m->part[0].variant));
        json_object_set_new(o, "backend", json_string(lab_backend_name(m->backend)));
        json_object_set_new(o, "gpus", json_integer(m->gpus));
        json_object_set_new(o, "n", json_integer(m->n));
        json_object_set_new(o, "combine", json_string(lab_combine_name(c->way)));
        json_object_set_new(o, "ran", json_boolean(c->ran));
        json_object_set_new(o, "timed", json_boolean(c->timed));
        json_object_set_new(o, "combine_ms", num_or_null(c->ms, c->timed));
        json_object_set_new(o, "total_ms", num_or_null(c->total_ms, c->total_ms > 0));
        json_object_set_new(o, "one_gpu_ms", num_or_null(m->one.ms, m->one.ran));
        json_object_set_new(o, "speedup", num_or_null(c->speedup, c->speedup > 0));
        json_object_set_new(o, "bytes", json_real(m->bytes));
        json_object_set_new(o, "algbw", num_or_null(c->algbw, c->algbw >= 0));
        json_object_set_new(o, "busbw", num_or_null(c->busbw, c->busbw >= 0));
        json_object_set_new(o, "result", c->ran ? out_json_text(c->result) : json_null());
        json_object_set_new(o, "correct", c->ran && c->correct >= 0 ? json_boolean(c->correct) : json_null());
        json_object_set_new(o, "rel_error", num_or_null(c->rel_error, c->ran && c->rel_error >= 0));
        json_object_set_new(o, "note", out_json_text(c->note));
        out_json(o);
    }
}

static void print_slices(const lab_multi *m)
{
    enum { C_GPU, C_SLICE, C_N, C_MS, C_EST, C_GBPS, C_RESULT, C_OK, NC };
    const char *const head[NC] = {"GPU", _("slice"), "n", "ms", _("est ms"), "GB/s", _("partial"), _("ok")};
    struct out_table *t = out_table_new(NC, head, "rlrrrrrl");
    for (int d = 0; d < m->gpus; d++) {
        const lab_result *r = &m->part[d];
        char c[NC][64];
        const char *cells[NC];
        for (int k = 0; k < NC; k++) {
            strcpy(c[k], "-");
            cells[k] = c[k];
        }
        snprintf(c[C_GPU], sizeof c[0], "%d", d);
        snprintf(c[C_SLICE], sizeof c[0], "%lld..%lld", m->lo[d], m->lo[d] + m->len[d] - 1);
        snprintf(c[C_N], sizeof c[0], "%lld", m->len[d]);
        parse_fmt_ms(r->ms, c[C_MS], sizeof c[0]);
        if (m->backend == LAB_BACKEND_SIM) strcat(c[C_MS], "*");
        if (r->est_ms > 0) {
            parse_fmt_ms(r->est_ms, c[C_EST], sizeof c[0]);
            strcat(c[C_EST], "~");
        }
        if (r->gbps > 0) snprintf(c[C_GBPS], sizeof c[0], "%.1f", r->gbps);
        snprintf(c[C_RESULT], sizeof c[0], "%s", r->result);
        fmt_ok(c[C_OK], sizeof c[0], r->correct, r->rel_error, "");
        out_table_row(t, cells);
        out_table_color(t, C_OK, r->correct > 0 ? OUT_GOOD : OUT_ERROR);
    }
    const char *const drop[] = {"GB/s", _("est ms"), _("slice"), NULL};
    out_table_drop_order(t, drop);
    out_table_print(t);
    out_table_free(t);
}

/* Combines with the same note share its footnote: num[k] is combine k's
 * footnote (1, 2, ... in order), 0 for none. */
static void note_numbers(const lab_multi *m, int num[LAB_NCOMBINES])
{
    int next = 0;
    for (int i = 0; i < LAB_NCOMBINES; i++) {
        num[i] = 0;
        if (!m->comb[i].note[0]) continue;
        for (int j = 0; j < i && !num[i]; j++)
            if (num[j] && strcmp(m->comb[j].note, m->comb[i].note) == 0) num[i] = num[j];
        if (!num[i]) num[i] = ++next;
    }
}

static void print_combines(const lab_multi *m)
{
    enum { C_WAY, C_MS, C_TOTAL, C_SPEED, C_ALG, C_BUS, C_RESULT, C_OK, NC };
    const char *const head[NC] = {_("combine"), "ms", _("total"), _("speedup"), "algbw", "busbw", _("result"),
                                  _("ok")};
    struct out_table *t = out_table_new(NC, head, "lrrrrrrl");
    int num[LAB_NCOMBINES];
    note_numbers(m, num);
    for (int k = 0; k < LAB_NCOMBINES; k++) {
        const lab_multi_combine *c = &m->comb[k];
        char cl[NC][64], mark[16] = "";
        const char *cells[NC];
        for (int i = 0; i < NC; i++) {
            strcpy(cl[i], "-");
            cells[i] = cl[i];
        }
        if (num[k]) snprintf(mark, sizeof mark, " [%d]", num[k]);
        snprintf(cl[C_WAY], sizeof cl[0], "%s", lab_combine_name(c->way));
        if (c->timed) parse_fmt_ms(c->ms, cl[C_MS], sizeof cl[0]);
        else if (c->ran) snprintf(cl[C_MS], sizeof cl[0], "%s", _("not timed"));
        if (c->total_ms > 0) parse_fmt_ms(c->total_ms, cl[C_TOTAL], sizeof cl[0]);
        if (c->speedup > 0) snprintf(cl[C_SPEED], sizeof cl[0], c->speedup < 10 ? "%.2fx" : "%.1fx", c->speedup);
        if (c->algbw >= 0) snprintf(cl[C_ALG], sizeof cl[0], "%.3g", c->algbw);
        if (c->busbw >= 0) snprintf(cl[C_BUS], sizeof cl[0], "%.3g", c->busbw);
        if (c->ran) snprintf(cl[C_RESULT], sizeof cl[0], "%s", c->result);
        else snprintf(cl[C_RESULT], sizeof cl[0], "%s", _("not run"));
        fmt_ok(cl[C_OK], sizeof cl[0], c->ran ? c->correct : -1, c->rel_error, mark);
        out_table_row(t, cells);
        if (c->ran) out_table_color(t, C_OK, c->correct > 0 ? OUT_GOOD : OUT_ERROR);
        else out_table_color(t, C_RESULT, OUT_DIM);
    }
    const char *const drop[] = {"algbw", _("speedup"), NULL};
    out_table_drop_order(t, drop);
    out_table_print(t);
    out_table_free(t);
}

void multi_print(struct session *s, const lab_multi *m)
{
    if (s->json) {
        print_multi_json(m);
        return;
    }
    char nb[32];
    parse_fmt_size(m->n, nb, sizeof nb);
    out_printf(ngettext("%s%s/%s%s across %d GPU  n = %s  dtype %s  pattern %s  %s\n",
                        "%s%s/%s%s across %d GPUs  n = %s  dtype %s  pattern %s  %s\n", (unsigned long)m->gpus),
               out_color(OUT_BOLD), s->algo->name, m->part[0].variant, out_color(OUT_RESET), m->gpus, nb,
               lab_dtype_name(s->cfg.dtype), s->cfg.pattern[0] ? s->cfg.pattern : "-",
               m->backend == LAB_BACKEND_SIM ? _("modelled GPUs, one after another")
                                             : _("one GPU after another, each on its slice"));
    print_slices(m);
    print_combines(m);
    int num[LAB_NCOMBINES], said = 0;
    note_numbers(m, num);
    for (int k = 0; k < LAB_NCOMBINES; k++) {
        if (num[k] <= said) continue; /* none, or said with an earlier combine */
        said = num[k];
        char who[64] = "";
        for (int j = k; j < LAB_NCOMBINES; j++)
            if (num[j] == num[k]) {
                size_t l = strlen(who);
                snprintf(who + l, sizeof who - l, "%s%s", l ? ", " : "", lab_combine_name(m->comb[j].way));
            }
        out_wrapf(0, 4, "[%d] %s: %s", num[k], who, m->comb[k].note);
    }
    if (m->one.ran) {
        char ms[32];
        parse_fmt_ms(m->one.ms, ms, sizeof ms);
        out_wrapf(0, 2, _("one GPU over all of n: %s ms; total = the slowest GPU + the combine, speedup = one GPU / "
                          "total"),
                  ms);
    }
    if (m->backend == LAB_BACKEND_SIM)
        out_wrapf(0, 2, _("* simulator time on this CPU, not GPU time; ~ est ms: the modelled GPU's estimated "
                          "time (see profile). The combines are not timed here: no total or speedup"));
    out_wrapf(0, 2, _("algbw = S / t and busbw = algbw * 2(n-1)/n for an all-reduce of S = %.0f bytes (one "
                      "partial) over n GPUs, in GB/s, as NCCL's tests report them"),
              m->bytes);
}

/* run VARIANT with gpus > 1: the slices on their GPUs, then the combines. */
enum cmd_status multi_run(struct session *s, const lab_variant *v)
{
    char msg[LAB_ERR_MAX];
    if (v->kind == LAB_ROW_KERNEL && s->cfg.backend == LAB_BACKEND_AUTO) sess_note_no_gpu(s);
    lab_config cfg = s->cfg;
    if (lab_kernel_backend(&cfg) == LAB_BACKEND_SIM) results_fit_sim_n(s, &cfg);
    lab_input *in = lab_input_new(s->algo, &cfg, msg, sizeof msg);
    if (!in) return sess_error(s, -1, "%s", msg);
    lab_multi *m = calloc(1, sizeof *m);
    if (!m) {
        lab_input_delete(in);
        return sess_error(s, -1, _("out of memory"));
    }
    if (s->interactive && !s->json)
        out_progress(_("  running %s on %d GPUs..."), v->name, cfg.gpus);
    int rc = lab_multi_run(in, v, m, NULL, msg, sizeof msg);
    out_progress_clear();
    lab_input_delete(in);
    enum cmd_status st = CMD_OK;
    if (rc != 0) {
        st = sess_error(s, -1, "%s", msg);
    } else {
        multi_print(s, m);
        sess_output_table(s, m->part, m->gpus);
        for (int k = 0; k < LAB_NCOMBINES; k++)
            if (!m->comb[k].ran || m->comb[k].correct == 0) {
                /* a combine that could not run (no NCCL) says so in its note; a wrong one fails the command */
                if (m->comb[k].ran) st = sess_error(s, -1, _("the %s combine gave a wrong result"),
                                                    lab_combine_name(m->comb[k].way));
            }
    }
    free(m);
    return st;
}
