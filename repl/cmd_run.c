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
#include "repl/cmd_multi.h"
#include "repl/results.h"
#include "kernels/lab_output.h"
#include "kernels/program/program.h"

/* The line above a table: what ran on what. Simulator rows run once, so
 * repeats is said of the rows that repeat. */
static void print_header(struct session *s, const lab_input *in, const lab_variant **vs, int n)
{
    if (s->json) return;
    char nb[32], rep[512];
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

/* An element of a row's output as text: the dtype's when the output is
 * made of them, else 4-byte integers (counts, indices). */
static void element_text(const void *out, size_t bytes, lab_dtype dt, size_t i, char *buf, size_t len)
{
    size_t es = lab_dtype_size(dt);
    if (!es || dt == LAB_U8 || bytes % es) dt = LAB_INT, es = 4;
    const unsigned char *p = (const unsigned char *)out + i * es;
    if (dt == LAB_FLOAT) {
        float f;
        memcpy(&f, p, sizeof f);
        snprintf(buf, len, "%.9g", f);
    } else if (dt == LAB_DOUBLE) {
        double d;
        memcpy(&d, p, sizeof d);
        snprintf(buf, len, "%.17g", d);
    } else {
        int v;
        memcpy(&v, p, sizeof v);
        snprintf(buf, len, "%d", v);
    }
}

/* set schedules N: a simulator kernel row that ran runs again under N-1
 * random orders of its threads and blocks, with the race check on, and its
 * output is compared with the first run's element by element; what
 * differs goes to note, said under the table. 1: an order gave another
 * output or failed (races: the row's note names them). */
static int schedule_row(struct session *s, lab_config *cfg, lab_input *in, const lab_variant *v, FILE *note)
{
    size_t nb = 0;
    const void *o = lab_input_output(in, &nb);
    if (!o || !nb) return 0;
    void *first = malloc(nb);
    if (!first) return 0;
    memcpy(first, o, nb);
    unsigned long long base = s->schedule_seed ? s->schedule_seed : 0x5eedull;
    int keep_race = cfg->race_check, differ = 0;
    size_t es = lab_dtype_size(cfg->dtype);
    if (!es || cfg->dtype == LAB_U8 || nb % es) es = 4;
    for (int k = 1; k < s->schedules && !differ && !lab_interrupted; k++) {
        unsigned long long seed = program_schedule_seed_at(base, k);
        lab_result r;
        prog_schedule(PROG_SCHED_RANDOM, seed);
        cfg->race_check = 1;
        int rc = lab_run(in, v, &r, NULL);
        cfg->race_check = keep_race;
        prog_schedule(s->schedule, s->schedule_seed);
        if (rc != 0) {
            if (lab_interrupted) break;
            fprintf(note, _("%s: schedule %d (random, seed 0x%llx) failed: %s\n"), v->name, k + 1, seed, r.note);
            fprintf(note, _("  set schedule random,0x%llx runs that order again\n"), seed);
            differ = 1;
            break;
        }
        size_t nb2 = 0;
        const void *o2 = lab_input_output(in, &nb2);
        if (!o2 || nb2 != nb || memcmp(first, o2, nb) == 0) continue;
        size_t n = nb / es, at = n, ndiff = 0;
        for (size_t i = 0; i < n; i++)
            if (memcmp((const char *)first + i * es, (const char *)o2 + i * es, es) != 0) {
                if (at == n) at = i;
                ndiff++;
            }
        char a[64], b[64];
        element_text(o2, nb, cfg->dtype, at, a, sizeof a);
        element_text(first, nb, cfg->dtype, at, b, sizeof b);
        fprintf(note,
                _("%s: your result depends on the order threads run: schedule %d (random, seed 0x%llx) gives "
                  "out[%zu] = %s, %s %s (%zu of %zu elements differ)\n"),
                v->name, k + 1, seed, at, a, s->schedule == PROG_SCHED_FIXED ? _("the fixed order") : prog_schedule_name(s->schedule),
                b, ndiff, n);
        if (cfg->dtype == LAB_FLOAT || cfg->dtype == LAB_DOUBLE)
            fprintf(note, _("  the race check found no race in that run: floating-point sums in another order round "
                            "differently\n"));
        else
            fprintf(note, _("  the race check found no race in that run: look for reads of memory nothing wrote\n"));
        fprintf(note, _("  set schedule random,0x%llx runs that order again\n"), seed);
        differ = cfg->dtype == LAB_FLOAT || cfg->dtype == LAB_DOUBLE ? 0 : 1;
        break;
    }
    free(first);
    return differ;
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
    long long fit = on_sim && cfg.n > 0 ? results_sim_n(s, &cfg, cfg.n) : 0, items = cfg.n;
    if (fit) cfg.n = fit;
    lab_input *in = lab_input_new(s->algo, &cfg, msg, sizeof msg);
    if (!in) {
        sess_error(s, -1, "%s", msg);
        return -1;
    }
    if (on_sim && !fit && cfg.n > 0 && lab_input_sim_items(in) > 0 &&
        (fit = results_sim_n(s, &cfg, lab_input_sim_items(in))) > 0) {
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
    if (fit) results_note_sim_n(s, &cfg, s->cfg.n, items, fit);
    print_header(s, in, vs, n);
    int notrun = 0;
    /* set schedules N: each simulator kernel row under N orders */
    int sched = on_sim && s->schedules > 1 && !s->json, differ = 0, nsched = 0;
    char *notes = NULL;
    size_t notes_len = 0;
    FILE *note = sched ? open_memstream(&notes, &notes_len) : NULL;
    if (sched && !note) sched = 0;
    if (sched) lab_input_keep_output(in, 1);
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
        if (lab_run(in, vs[i], &rows[i], NULL) != 0) {
            notrun++;
        } else if (sched && vs[i]->kind == LAB_ROW_KERNEL && lab_row_backend(vs[i], &cfg) == LAB_BACKEND_SIM) {
            differ += schedule_row(s, &cfg, in, vs[i], note);
            nsched++;
        }
        out_progress_clear();
    }
    lab_input_delete(in);
    lab_rebase_speedups(s->algo, rows, n); /* the table's own OpenMP row is 1.00x */
    sess_output_table(s, rows, n);
    results_print(s, rows, n);
    if (note) {
        fclose(note);
        if (notes_len) out_printf("%s%s%s", differ ? out_color(OUT_WARN) : "", notes, differ ? out_color(OUT_RESET) : "");
        else if (nsched && !lab_interrupted)
            out_printf(_("every simulator row gave the same output under %d schedules (the first run, then random "
                         "orders drawn from seed 0x%llx)\n"),
                       s->schedules, s->schedule_seed ? s->schedule_seed : 0x5eedull);
        free(notes);
        s->errors += differ;
    }
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
        for (int i = 0; i < n && st == CMD_OK; i++) st = multi_run(s, vs[i]);
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
                /* the table's footnote gave the reason; JSON rows carry it */
                if (rows[i].note[0] && !s->json)
                    st = sess_error(s, argc > 1 ? i + 1 : -1, _("%s did not run (its note under the table says why)"),
                                    rows[i].variant);
                else
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
