/* cmd_profile.c - profile: the memory counters of a variant's kernels, from
 * the simulator's execution (kernels/profile) or, on a GPU, from Nsight
 * Compute run on gpulab itself (profile_ncu.c); plain words and one sentence
 * per count on screen (profile_words.c), Nsight Compute's metric names in
 * --json and export. This file: the command, the simulator's counts, and the
 * last profile that export writes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kernels/profile/profile.h"
#include "repl/cmd.h"
#include "repl/cmd_profile.h"
#include "repl/cmd_program.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/profile_words.h"
#include "repl/session.h"
#include "repl/explore/sweep.h"
#include "repl/profile_ncu.h"

/* -------------------------------------------------------- the simulator */

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
        for (int g = 0; g < ses.ngroups; g++) profile_print_group(&ses, g, &ses.groups[g], &cfg);
        if (ses.ngroups > 1) {
            out_printf(_("%sall launches%s\n"), out_color(OUT_ACCENT), out_color(OUT_RESET));
            profile_print_counts(&ses.total);
        }
        profile_print_estimate(&est, m->name, &w, &ses.total);
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
        if (profile_rows_add(rows, nrows, cap, &pr) != 0) break;
        if (s->json) out_json(profile_row_json(&pr));
    }
    prof_free(&ses);
    return 0;
}

/* -------------------------------------------------------------- command */

static enum cmd_status do_profile(struct session *s, int argc, char **argv)
{
    char err[1024];
    int n = argc > 1 ? argc - 1 : 1;
    const lab_variant *vs[64];
    if (n > 64) return sess_error(s, 65, _("profile takes at most 64 variants at a time"));
    if (argc == 1 && s->prog) return program_refuse(s, "profile");
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
    sess_output_profile(s, rows, nrows, res, nres);
    free(res);
    return st;
}

/* ----------------------------------------------------------------- export */

int profile_export(const struct session *s, FILE *f, int csv, char *err, size_t errlen)
{
    const struct sess_output *o = &s->last;
    if (o->kind != SESS_OUTPUT_PROFILE) {
        snprintf(err, errlen, "%s", _("no profile yet"));
        return -1;
    }
    if (csv) {
        fprintf(f, "algo,variant,source,kernel,grid_x,grid_y,grid_z,block_x,block_y,block_z,launches");
        for (int i = 0; i < prof_metric_count(); i++) fprintf(f, ",%s", prof_metric_at(i)->ncu);
        fprintf(f, ",est_ms,est_model\n");
        for (int r = 0; r < o->nprof; r++) {
            const prof_row *p = &o->prof[r];
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
    for (int r = 0; r < o->nprof; r++) json_array_append_new(a, profile_row_json(&o->prof[r]));
    json_t *root = json_object();
    json_object_set_new(root, "profile", a);
    int rc = json_dumpf(root, f, JSON_INDENT(2));
    json_decref(root);
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
