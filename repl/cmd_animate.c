/* cmd_animate.c - animate (watch): play what the threads did, step by step.
 *
 * Records a trace of the variant at the session's n (GPU, or the simulator
 * when there is none), runs the variant once more with timing for the table
 * beside the picture, and hands both to the player (viz/player.c). Two
 * variants (`animate A vs B`) are recorded over the same input and play in
 * step. When standard output is not a terminal the frames are printed as
 * text, one after another, so scripts and pipes get them too. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/readline.h>

#include "kernels/program/program.h"
#include "kernels/sim/acctrace.h"
#include "repl/cmd.h"
#include "repl/cmd_program.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/lessons/puzzle.h"
#include "viz/player.h"
#include "viz/render.h"
#include "viz/render_multi.h"
#include "repl/session.h"
#include "repl/cmd_code.h"
#include "repl/cmd_multi.h"
#include "repl/results.h"
#include "repl/record.h"

typedef struct anim {
    const lab_variant *v;
    int argi;         /* the word that named it, for carets (-1: none) */
    lab_trace trace;
    lab_result traced, row;
    char label[2 * LAB_NAME_MAX + 2];
} anim;

/* The timed row of the table: the same settings, at the traced n and with
 * the traced block size (with block auto, tracing picks a small one). */
static void timed_row(struct session *s, anim *a)
{
    char msg[LAB_ERR_MAX];
    lab_config cfg = s->cfg;
    cfg.n = a->trace.n;
    /* an image (Mandelbrot, histogram) at the traced shape too: the row
     * under the picture is the picture's run, not the default image's */
    if (cfg.width <= 0 && cfg.height <= 0 && a->trace.width > 0 && a->trace.height > 0 &&
        (long long)a->trace.width * a->trace.height == a->trace.n) {
        cfg.width = a->trace.width;
        cfg.height = a->trace.height;
    }
    if (a->trace.nlaunches > 0 && cfg.block == 0) {
        cfg.block = (int)a->trace.launches[0].block[0];
        cfg.block_y = a->trace.launches[0].block[1] > 1 ? (int)a->trace.launches[0].block[1] : 0;
    }
    lab_input *in = lab_input_new(s->algo, &cfg, msg, sizeof msg);
    if (!in) {
        memset(&a->row, 0, sizeof a->row);
        snprintf(a->row.algo, sizeof a->row.algo, "%s", s->algo->name);
        snprintf(a->row.variant, sizeof a->row.variant, "%s", a->v->name);
        a->row.correct = -1;
        snprintf(a->row.note, sizeof a->row.note, "%s", msg);
        return;
    }
    lab_run(in, a->v, &a->row, NULL);
    lab_input_delete(in);
}

/* Parse [VARIANT] [vs VARIANT]. Returns the number of variants (1 or 2),
 * or -1 after reporting the error. */
static int parse_args(struct session *s, int argc, char **argv, anim *an)
{
    int n = 0;
    int i = 1;
    an[0].v = s->variant;
    an[0].argi = -1;
    for (; i < argc; i++) {
        const char *name = argv[i];
        if (strcmp(name, "vs") == 0) {
            if (n == 0) {
                n = 1; /* `animate vs B`: the current variant against B */
            }
            if (n >= 2 || i + 1 >= argc) {
                sess_error(s, i, _("usage: animate [VARIANT] [vs VARIANT]"));
                return -1;
            }
            continue;
        }
        if (n >= 2 || (n == 1 && strcmp(argv[i - 1], "vs") != 0)) {
            sess_error(s, i, _("two variants need vs between them: animate [VARIANT] [vs VARIANT]"));
            return -1;
        }
        const lab_variant *v = sess_variant_arg(s, i, name);
        if (!v) return -1;
        an[n].v = v;
        an[n].argi = i;
        n++;
    }
    return n == 0 ? 1 : n;
}

/* Can v be animated at the session's n? Reports why not. */
static int check_variant(struct session *s, const anim *a)
{
    const lab_variant *v = a->v;
    if (v->trace_max_n <= 0) {
        sess_error(s, a->argi,
                   v->kind == LAB_ROW_LIB   ? _("%s/%s cannot be animated: library code records nothing")
                   : v->kind == LAB_ROW_CPU ? _("%s/%s cannot be animated: it is a CPU row")
                                            : _("%s/%s cannot be animated: it records no trace"),
                   s->algo->name, v->name);
        return -1;
    }
    /* n past what can be traced: record_trace plays a small instance */
    char err[LAB_ERR_MAX];
    lab_config cfg = s->cfg;
    if (cfg.n > v->trace_max_n) cfg.n = 0; /* validated at the small n it will play */
    if (lab_validate(s->algo, v, &cfg, err, sizeof err) != 0 && cfg.n > 0) {
        sess_error(s, a->argi, "%s", err);
        return -1;
    }
    return 0;
}

/* Full screen when both ends are a terminal; text otherwise. */
static int wants_screen(void)
{
    const char *term = getenv("TERM");
    return out_stream() == stdout && isatty(STDOUT_FILENO) && term && *term &&
           strcmp(term, "dumb") != 0;
}

/* ------------------------------------------------ the generic animation */

/* What the window of the trace left out, said once before playing. */
static void note_bounds(const acc_trace *t)
{
    if (t->blocks_skipped)
        out_note(_("every access of the first %u blocks of each launch was recorded; %llu more blocks ran "
                   "unrecorded (set trace-blocks N records more)"),
                 t->max_blocks, t->blocks_skipped);
    if (t->dropped)
        out_warn(_("%llu accesses past the trace's bound were not recorded; the last steps are incomplete"),
                 t->dropped);
}

static enum cmd_status play_accesses(struct session *s, const viz_access *a, const char *label, const char *heading,
                                     const lab_result *rows, int nrows)
{
    viz_side side = {.r = NULL, .trace = NULL, .label = label, .acc = a};
    viz_player_opts o = {.no_color = !s->color, .rows = rows, .nrows = nrows, .heading = heading,
                         .keep = &s->picture};
    char err[LAB_ERR_MAX];
    if (wants_screen()) {
        out_flush();
        int rc = viz_player_run(&side, 1, &o, err, sizeof err);
        if (s->interactive) rl_reset_screen_size();
        if (rc >= 0) return CMD_OK;
        out_note(_("cannot play full screen (%s); printing the frames instead"), err);
    }
    viz_player_opts text = o;
    text.rows = NULL;
    text.nrows = 0;
    if (viz_player_print(out_stream(), &side, 1, &text, 0) != 0) return sess_error(s, -1, _("could not write the frames"));
    out_printf("\n");
    return CMD_OK;
}

static const char *base_name(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

/* `animate [ARGS]` with a program open: run it on the simulator with every
 * access recorded, and play the generic animation beside its source. */
static enum cmd_status animate_program(struct session *s, int argc, char **argv)
{
    prog_result r;
    if (program_record(s, argc - 1, argv + 1, &r) != 0) return CMD_ERROR;
    enum cmd_status st = CMD_OK;
    if (r.timed_out || r.interrupted || r.signal || r.fault[0] || r.exit_code != 0) {
        if (r.fault[0]) out_warn(_("the program failed: %s; the animation shows what it did until then"), r.fault);
        else if (r.timed_out || r.interrupted || r.signal)
            out_warn("%s", _("the program did not run to its end; the animation shows what it did until then"));
        else out_warn(_("the program exited with status %d"), r.exit_code);
    }
    if (!r.acc || r.acc->nlaunches == 0) {
        st = sess_error(s, -1, _("nothing to animate: %s"),
                        r.acc ? _("the program launched no kernel") : r.acc_why[0] ? r.acc_why
                                                                                    : _("no access was recorded"));
        prog_result_free(&r);
        return st;
    }
    note_bounds(r.acc);
    size_t len = 0;
    char *text = puzzle_read_file(s->prog->path, &len);
    viz_access a = {.t = r.acc, .zoom = 0, .source = text, .source_len = len, .source_name = base_name(s->prog->path)};
    char heading[400];
    /* TRANSLATORS: "reduce.cu on the simulator: every access of the first 4 blocks of each launch" */
    snprintf(heading, sizeof heading, _("%s on the simulator: every access of the first %u blocks of each launch"),
             s->prog->shown, r.acc->max_blocks);
    st = play_accesses(s, &a, s->prog->shown, heading, NULL, 0);
    free(text);
    prog_result_free(&r);
    return st;
}

/* `animate VARIANT as generic`: a built-in variant's automatic access trace
 * on the simulator, the generic animation instead of the family's picture. */
static enum cmd_status animate_generic(struct session *s, const anim *an)
{
    acc_trace acc;
    lab_trace t;
    char err[LAB_ERR_MAX];
    if (record_accesses(s, an->v, &acc, &t, err, sizeof err) != 0) return sess_error(s, an->argi, "%s", err);
    if (s->trace_note[0]) out_note("%s", s->trace_note);
    note_bounds(&acc);
    char *text = NULL, path[PATH_MAX] = "";
    size_t len = 0;
    int from, to;
    if (acc.nlaunches > 0) code_find_kernel(acc.launches[0].kernel, &text, &len, path, sizeof path, &from, &to);
    char label[2 * LAB_NAME_MAX + 2], heading[300];
    snprintf(label, sizeof label, "%s/%s", s->algo->name, an->v->name);
    snprintf(heading, sizeof heading, _("%s  n = %lld %s  every access, on the simulator"), label, t.n,
             lab_dtype_name(t.dtype));
    viz_access a = {.t = &acc, .zoom = 0, .source = text, .source_len = len, .source_name = base_name(path)};
    enum cmd_status st = play_accesses(s, &a, label, heading, NULL, 0);
    free(text);
    acc_trace_free(&acc);
    lab_trace_free(&t);
    return st;
}

/* Frames to the terminal when it is one, else as text. 0 ok, -1 after an error. */
static int play_sides(struct session *s, const viz_side *sides, int n, const viz_player_opts *o)
{
    char err[LAB_ERR_MAX];
    if (wants_screen()) {
        out_flush();
        int rc = viz_player_run(sides, n, o, err, sizeof err);
        /* The window may have been resized while the player had it. */
        if (s->interactive) rl_reset_screen_size();
        if (rc >= 0) return 0;
        out_note(_("cannot play full screen (%s); printing the frames instead"), err);
    }
    viz_player_opts text = *o;
    text.rows = NULL; /* the table follows, as run prints it */
    text.nrows = 0;
    if (viz_player_print(out_stream(), sides, n, &text, 0) != 0) {
        sess_error(s, -1, _("could not write the frames"));
        return -1;
    }
    out_printf("\n");
    return 0;
}

/* `animate` with gpus > 1: the slices, each GPU's tree, the combines. */
static enum cmd_status animate_multi(struct session *s, anim *a)
{
    char err[LAB_ERR_MAX];
    if (s->cfg.backend == LAB_BACKEND_AUTO) sess_note_no_gpu(s);
    if (record_trace_multi(s, a->v, &a->trace, &a->traced, err, sizeof err) != 0)
        return sess_error(s, a->argi, "%s", err);
    if (s->trace_note[0]) out_note("%s", s->trace_note);
    const lab_multi *m = a->trace.multi;
    snprintf(a->label, sizeof a->label, "%s/%s", s->algo->name, a->v->name);
    lab_result rows[LAB_MAX_GPUS];
    for (int d = 0; d < m->gpus; d++) {
        rows[d] = m->part[d];
        snprintf(rows[d].variant, sizeof rows[d].variant, "GPU %d", d);
    }
    viz_side side = {.r = &viz_render_multi, .trace = &a->trace, .label = a->label};
    char heading[256];
    snprintf(heading, sizeof heading,
             a->trace.backend == LAB_BACKEND_GPU ? _("%s  n = %lld %s  across %d GPUs")
                                                 : _("%s  n = %lld %s  across %d modelled GPUs (simulator)"),
             a->label, a->trace.n, lab_dtype_name(a->trace.dtype), m->gpus);
    viz_player_opts o = {.no_color = !s->color, .rows = rows, .nrows = m->gpus, .heading = heading,
                         .keep = &s->picture};
    enum cmd_status st = CMD_OK;
    if (play_sides(s, &side, 1, &o) != 0) st = CMD_ERROR;
    else multi_print(s, m);
    lab_trace_free(&a->trace);
    return st;
}

static enum cmd_status do_animate(struct session *s, int argc, char **argv)
{
    if (s->prog) return animate_program(s, argc, argv);
    int generic = argc >= 3 && strcmp(argv[argc - 2], "as") == 0;
    if (generic) {
        if (strcmp(argv[argc - 1], "generic") != 0)
            return sess_error(s, argc - 1, _("animate ... as generic is the one other view"));
        argc -= 2;
    }
    anim an[VIZ_MAX_SIDES];
    memset(an, 0, sizeof an);
    int n = parse_args(s, argc, argv, an);
    if (n < 0) return CMD_ERROR;
    if (generic) {
        if (n > 1) return sess_error(s, -1, "%s", _("as generic animates one variant: leave out vs"));
        if (check_variant(s, &an[0]) != 0) return CMD_ERROR;
        return animate_generic(s, &an[0]);
    }
    if (s->cfg.gpus > 1 && s->algo->multi) {
        if (n > 1) return sess_error(s, -1, "%s", _("across GPUs animate plays one variant: leave out vs"));
        if (check_variant(s, &an[0]) != 0) return CMD_ERROR;
        return animate_multi(s, &an[0]);
    }
    for (int i = 0; i < n; i++) {
        if (!viz_renderer_find(s->algo->name, an[i].v->name))
            return sess_error(s, an[i].argi, _("there is no animation for %s/%s yet; `trace` prints its steps as text"),
                              s->algo->name, an[i].v->name);
        if (check_variant(s, &an[i]) != 0) return CMD_ERROR;
    }
    if (s->cfg.backend == LAB_BACKEND_AUTO) sess_note_no_gpu(s);

    enum cmd_status st = CMD_OK;
    char err[LAB_ERR_MAX];
    int recorded = 0;
    char small[512] = "";
    for (int i = 0; i < n; i++, recorded++) {
        if (record_trace(s, an[i].v, &an[i].trace, &an[i].traced, err, sizeof err) != 0) {
            st = sess_error(s, an[i].argi, "%s", err);
            goto done;
        }
        if (s->trace_note[0] && i == 0) {
            out_note("%s", s->trace_note);
            char nb[32];
            parse_fmt_size(s->cfg.n, nb, sizeof nb);
            snprintf(small, sizeof small, _(" (a small instance of n = %s)"), nb);
        }
        if (an[i].trace.truncated)
            out_warn(_("the trace of %s was cut short at its size bound; the last steps are missing"),
                     an[i].v->name);
        timed_row(s, &an[i]);
        snprintf(an[i].label, sizeof an[i].label, "%s/%s", s->algo->name, an[i].v->name);
        if (lab_interrupted) {
            st = sess_error(s, -1, _("animate interrupted (Ctrl-C)"));
            recorded++;
            goto done;
        }
    }

    viz_side sides[VIZ_MAX_SIDES];
    memset(sides, 0, sizeof sides);
    lab_result rows[VIZ_MAX_SIDES];
    for (int i = 0; i < n; i++) {
        sides[i].r = viz_renderer_find(s->algo->name, an[i].v->name);
        sides[i].trace = &an[i].trace;
        sides[i].label = n > 1 ? an[i].v->name : an[i].label;
        rows[i] = an[i].row;
    }
    const lab_trace *t0 = &an[0].trace;
    char heading[256], who[160];
    if (n > 1) snprintf(who, sizeof who, _("%s vs %s"), an[0].label, an[1].v->name);
    else snprintf(who, sizeof who, "%s", an[0].label);
    /* TRANSLATORS: "reduce/sequential  n = 256 int (a small instance of n = 64Mi)  on the GPU" */
    snprintf(heading, sizeof heading,
             t0->backend == LAB_BACKEND_GPU ? _("%s  n = %lld %s%s  on the GPU") : _("%s  n = %lld %s%s  on the simulator"),
             who, t0->n, lab_dtype_name(t0->dtype), small);
    /* s->color is off for --no-color, NO_COLOR, TERM=dumb and pipes alike. */
    viz_player_opts o = {.no_color = !s->color, .rows = rows, .nrows = n, .heading = heading,
                         .keep = &s->picture};

    if (play_sides(s, sides, n, &o) != 0) {
        st = CMD_ERROR;
        goto done;
    }
    sess_output_table(s, rows, n);
    results_print(s, rows, n);
done:
    for (int i = 0; i < recorded && i < n; i++) lab_trace_free(&an[i].trace);
    return st;
}

static void complete_animate(struct session *s, int argc, char **argv, const char *text,
                             struct cmp_list *out)
{
    (void)text;
    int after_vs = argc >= 2 && strcmp(argv[argc - 1], "vs") == 0;
    int nvariants = 0;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "vs") != 0) nvariants++;
    if ((argc == 1 || after_vs) && s->algo) {
        for (int i = 0; i < s->algo->nvariants; i++)
            if (s->algo->variants[i].trace_max_n > 0) cmp_add(out, s->algo->variants[i].name);
    }
    if (!after_vs && nvariants <= 1 && argc >= 1 && !(argc >= 2 && strcmp(argv[1], "vs") == 0)) cmp_add(out, "vs");
}

const struct cmd cmd_animate[] = {
    {
        .name = "animate",
        .aliases = "watch",
        .usage = N_("animate [VARIANT] [vs VARIANT | as generic]"),
        .help = N_("watch the threads work, step by step, beside the timing table"),
        .long_help =
            N_("Records what every thread of the chosen variant (or VARIANT) does at the\n"
               "current n, on the GPU or the simulator, and plays it full screen: the data\n"
               "at each step, the pairs being combined, busy and idle threads, warps that\n"
               "diverge, shared-memory bank conflicts, and one sentence on what happens and\n"
               "why it matters; below, the timing table of the same variant at the same n.\n"
               "`animate A vs B` plays two variants side by side on the same input, in step.\n"
               "Keys: space play/pause, right or n next, left or p back, + and - speed,\n"
               "Home or r restart, End last step, ? help, q or Esc back to the prompt.\n"
               "Animations are for small inputs: with n above the variant's trace limit\n"
               "(show lists it) a small instance of the same configuration plays instead,\n"
               "two blocks of the same block size with the same pattern, and animate says\n"
               "so; with n auto each algorithm animates a small input of its own (reduce:\n"
               "256 elements). When the output is not a terminal, the frames are printed\n"
               "as text one after another.\n"
               "`animate VARIANT as generic`, and `animate [ARGS]` with a program open\n"
               "(open FILE.cu), show the generic animation instead: every global and\n"
               "shared memory access of the first trace-blocks blocks of each launch,\n"
               "recorded on the simulator, step by step (a barrier epoch; z: one warp\n"
               "instruction), each array a strip of cells (written reversed, read\n"
               "underlined, races marked !), the warps' active and idle lanes, and the\n"
               "source beside it. c puts a cursor on the cells (arrows move it, Enter\n"
               "follows the thread that touched the cell); a mouse click picks a cell.\n"),
        .run = do_animate, .args = CMD_ARGS(0, 3), .needs = CMD_NEEDS_VARIANT, .program = 1, .screen = 1,
        .complete = CMP_CUSTOM,
        .complete_fn = complete_animate,
    },
    {0},
};
