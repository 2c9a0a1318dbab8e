/* cmd_info.c - list, use, show, device: what there is and what is chosen.
 * Everything about algorithms and variants comes from the registry. */
#include <stdio.h>
#include <string.h>

#include "repl/cmd.h"
#include "repl/cmd_program.h"
#include "repl/complete.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/session.h"
#include "repl/settings.h"

static const char *kind_tag(const lab_variant *v)
{
    switch (v->kind) {
    case LAB_ROW_LIB: return _("library, GPU only");
    case LAB_ROW_CPU: return _("CPU");
    default: return NULL;
    }
}

/* Find an algorithm by exact name or unique prefix. */
static const lab_algo *find_algo(const char *name, char *err, size_t errlen)
{
    const char *names[64];
    int n = lab_algo_count();
    if (n > 64) n = 64;
    for (int i = 0; i < n; i++) names[i] = lab_algo_at(i)->name;
    int amb[64], namb = 0;
    int k = parse_lookup(name, names, n, amb, 64, &namb);
    if (k >= 0) return lab_algo_at(k);
    size_t off = (size_t)snprintf(err, errlen,
                                  k == -2 ? _("ambiguous algorithm \"%s\"; algorithms: ")
                                          : _("unknown algorithm \"%s\"; algorithms: "),
                                  name);
    for (int i = 0; i < n && off < errlen; i++)
        off += (size_t)snprintf(err + off, errlen - off, "%s%s", i ? ", " : "", names[i]);
    return NULL;
}

/* ----------------------------------------------------------------- list */

/* Which lecture or article a variant marked "(lecture)" or "(article)"
 * follows: the documents the lessons read, by algorithm. */
static const struct {
    const char *algo, *from;
} g_sources[] = {
    {"scale", N_("(article): the German article")},
    {"vecdiff", N_("(lecture): the Slovenian lecture")},
    {"distance", N_("(lecture): the Slovenian lecture")},
    {"reduce", N_("(lecture): the Ukrainian lecture; (article): the Chinese article")},
    {"bitonic", N_("(lecture): the Slovenian lecture")},
    {"histogram", N_("(lecture): the Ukrainian lecture")},
    {"transpose", N_("(article): the German article")},
    {"mandelbrot", N_("(lecture): the Ukrainian lecture")},
    {"matmul", N_("(article): the German article")},
};

static void list_algo(struct session *s, const lab_algo *a)
{
    char line[1024];
    size_t off = (size_t)snprintf(line, sizeof line, "%s%s%s  %s", out_color(OUT_BOLD), a->name,
                                  out_color(OUT_RESET), intl_tr(a->summary));
    if (a->lesson && *a->lesson) snprintf(line + off, sizeof line - off, _("  (lesson %s)"), a->lesson);
    out_wrapped(line, 0, 2);
    int w = 0;
    for (int i = 0; i < a->nvariants; i++) {
        int l = (int)strlen(a->variants[i].name);
        if (l > w) w = l;
    }
    for (int i = 0; i < a->nvariants; i++) {
        const lab_variant *v = &a->variants[i];
        const char *tag = kind_tag(v);
        int cur = s->algo == a && s->variant == v;
        off = (size_t)snprintf(line, sizeof line, "%s %s%-*s%s  %s", cur ? "*" : " ", out_color(OUT_ACCENT), w,
                               v->name, out_color(OUT_RESET), v->summary ? _(v->summary) : "");
        if (tag && off < sizeof line) off += (size_t)snprintf(line + off, sizeof line - off, " [%s]", tag);
        if ((v->flags & LAB_WRONG_ON_PURPOSE) && off < sizeof line)
            snprintf(line + off, sizeof line - off, _(" [wrong on purpose]"));
        out_wrapped(line, 2, w + 6); /* continuation lines under the summary */
    }
    for (size_t i = 0; i < sizeof g_sources / sizeof g_sources[0]; i++)
        if (strcmp(g_sources[i].algo, a->name) == 0) out_wrapf(4, 6, "%s", _(g_sources[i].from));
}

static enum cmd_status do_list(struct session *s, int argc, char **argv)
{
    char err[512];
    if (argc == 2) {
        const lab_algo *a = find_algo(argv[1], err, sizeof err);
        if (!a) return sess_error(s, 1, "%s", err);
        list_algo(s, a);
        return CMD_OK;
    }
    if (lab_algo_count() == 0) {
        out_printf(_("no algorithms are built in\n"));
        return CMD_OK;
    }
    for (int i = 0; i < lab_algo_count(); i++) {
        if (i) out_printf("\n");
        list_algo(s, lab_algo_at(i));
    }
    out_printf(_("\n* = chosen; `use ALGO/VARIANT` chooses, `help use` says more\n"));
    return CMD_OK;
}

/* ------------------------------------------------------------------ use */

static enum cmd_status do_use(struct session *s, int argc, char **argv)
{
    char err[1024];
    if (argc != 2)
        return sess_error(s, argc < 2 ? 1 : 2, _("usage: use ALGO[/VARIANT] or use VARIANT"));
    if (s->prog) {
        sess_close_program(s);
        if (s->interactive) out_printf(_("closed the program: run and show act on the built-in algorithms again\n"));
    }
    const char *arg = argv[1];
    const char *slash = strchr(arg, '/');
    const lab_algo *a = NULL;
    const lab_variant *v = NULL;
    if (slash) {
        char an[LAB_NAME_MAX];
        size_t l = (size_t)(slash - arg);
        if (l >= sizeof an) l = sizeof an - 1;
        memcpy(an, arg, l);
        an[l] = 0;
        a = find_algo(an, err, sizeof err);
        if (!a) return sess_error(s, 1, "%s", err);
        if (slash[1]) {
            v = sess_find_variant(a, slash + 1, err, sizeof err);
            if (!v) return sess_error(s, 1, "%s", err);
        }
    } else {
        a = find_algo(arg, err, sizeof err);
        if (!a && s->algo) {
            /* a variant of the current algorithm */
            char err2[1024];
            v = sess_find_variant(s->algo, arg, err2, sizeof err2);
            if (v) a = s->algo;
        }
        if (!a) return sess_error(s, 1, _("%s (nor a variant of %s)"), err, s->algo ? s->algo->name : "-");
    }
    int same_algo = a == s->algo;
    sess_use(s, a, v);
    /* Settings that the new variant cannot take go back to its defaults. */
    if (lab_validate(s->algo, s->variant, &s->cfg, err, sizeof err) != 0) {
        lab_config c = s->cfg;
        c.block = c.block_y = 0;
        c.grid = c.grid_y = 0;
        if (lab_validate(s->algo, s->variant, &c, err, sizeof err) == 0) {
            s->cfg = c;
            out_note(_("block and grid are back to auto: %s/%s cannot take the ones set"), a->name,
                     s->variant->name);
        } else {
            c.dtype = a->dtype_default;
            c.pad = 0;
            if (lab_validate(s->algo, s->variant, &c, err, sizeof err) == 0) {
                s->cfg = c;
                out_note(_("block, grid and dtype are back to %s/%s's defaults"), a->name, s->variant->name);
            } else {
                out_warn("%s", err);
            }
        }
    }
    if (s->interactive && !s->json) {
        out_printf("%s/%s: %s\n", a->name, s->variant->name,
                   s->variant->summary ? _(s->variant->summary) : "");
        if (!same_algo) out_printf(_("n, dtype and pattern are the defaults of %s (show lists them)\n"), a->name);
    }
    return CMD_OK;
}

static void complete_use(struct session *s, int argc, char **argv, const char *text,
                         struct cmp_list *out)
{
    if (argc != 1) return;
    cmp_algos(out);
    cmp_variants(s, out);
}

/* ----------------------------------------------------------------- show */

static void masks(unsigned m, char *buf, size_t len)
{
    buf[0] = 0;
    for (int i = 0; i < LAB_NDTYPES; i++)
        if (m & LAB_DT(i)) {
            size_t l = strlen(buf);
            snprintf(buf + l, len - l, "%s%s", l ? ", " : "", lab_dtype_name((lab_dtype)i));
        }
}

static void show_limits(struct session *s)
{
    const lab_algo *a = s->algo;
    const lab_variant *v = s->variant;
    char buf[512];
    out_printf(_("\n%slimits of %s/%s%s\n"), out_color(OUT_BOLD), a->name, v->name, out_color(OUT_RESET));
    /* The labels that name a setting or a command stay as they are. */
    const char *runs_on = out_pad(_("runs on"), 10);
    if (v->kind == LAB_ROW_CPU) {
        out_printf("  %s %s\n", runs_on, _("the CPU (block and grid do not apply)"));
    } else if (v->kind == LAB_ROW_LIB) {
        out_printf("  %s %s\n", runs_on, _("a GPU only: vendor library code (the library chooses block and grid)"));
    } else {
        out_printf("  %s %s\n", runs_on, _("the GPU and the simulator"));
        const int pow2 = (v->flags & LAB_POW2_BLOCK) != 0, two_d = (v->flags & LAB_BLOCK_2D) != 0;
        if (v->flags & LAB_FIXED_BLOCK)
            snprintf(buf, sizeof buf, _("fixed by the variant: %d"), v->block_default);
        else
            snprintf(buf, sizeof buf,
                     pow2 && two_d ? _("%d..%d, a power of two threads (BXxBY), default %d")
                     : pow2        ? _("%d..%d, a power of two, default %d")
                     : two_d       ? _("%d..%d threads (BXxBY), default %d")
                                   : _("%d..%d, default %d"),
                     v->block_min > 0 ? v->block_min : 1, v->block_max > 0 ? v->block_max : 1024,
                     v->block_default);
        out_printf("  %-10s %s\n", "block", buf);
        if (v->flags & LAB_FIXED_GRID)
            snprintf(buf, sizeof buf, _("derived from n by the variant"));
        else if (v->grid_default > 0)
            snprintf(buf, sizeof buf, _("any, default %lld"), v->grid_default);
        else
            snprintf(buf, sizeof buf, _("any, default derived from n"));
        if (v->flags & LAB_GRID_COVERS_N) {
            size_t l = strlen(buf);
            snprintf(buf + l, sizeof buf - l, "%s",
                     v->items_per_thread > 1 ? _("; a grid you set must cover n (grid x block x items per thread >= n)")
                                             : _("; a grid you set must cover n (grid x block >= n)"));
        }
        out_printf("  %-10s %s\n", "grid", buf);
    }
    out_printf("  %-10s %s\n", "n",
               (v->flags & LAB_POW2_N) ? _("a power of two (set pad on to pad other sizes)") : _("any size >= 1"));
    masks(v->dtypes ? v->dtypes : a->dtypes, buf, sizeof buf);
    out_printf("  %-10s %s\n", "dtypes", buf);
    buf[0] = 0;
    for (int i = 0; a->patterns && a->patterns[i]; i++) {
        size_t l = strlen(buf);
        snprintf(buf + l, sizeof buf - l, "%s%s", i ? ", " : "", a->patterns[i]);
    }
    out_printf("  %-10s %s\n", "patterns", buf[0] ? buf : "-");
    if (v->trace_max_n > 0)
        out_printf(_("  %-10s up to n = %lld\n"), "trace", v->trace_max_n);
    else
        out_printf("  %-10s %s\n", "trace", _("not traceable"));
    if (v->flags & LAB_WRONG_ON_PURPOSE)
        out_printf("  %s %s\n", out_pad(_("note"), 10),
                   _("this variant keeps a lecture's bug on purpose: expect wrong results"));
}

static enum cmd_status do_show(struct session *s, int argc, char **argv)
{
    char err[1024], buf[512];
    if (s->prog && argc == 1) return program_show(s, argc, argv);
    if (argc == 2) {
        const struct setting *st = setting_find(argv[1], err, sizeof err);
        if (!st) return sess_error(s, 1, "%s", err);
        st->show(s, buf, sizeof buf);
        out_printf("%s = %s\n", st->name, buf);
        return CMD_OK;
    }
    if (s->algo && s->variant) {
        out_printf("%s%s/%s%s: %s\n", out_color(OUT_BOLD), s->algo->name, s->variant->name,
                   out_color(OUT_RESET), s->variant->summary ? _(s->variant->summary) : "");
        if (s->variant->idea && *s->variant->idea) out_printf(_("idea: %s\n"), _(s->variant->idea));
    }
    out_printf(_("\n%ssettings%s\n"), out_color(OUT_BOLD), out_color(OUT_RESET));
    for (int i = 0; setting_at(i); i++) {
        const struct setting *st = setting_at(i);
        st->show(s, buf, sizeof buf);
        out_printf("  %-*s %s\n", setting_name_width(), st->name, buf);
    }
    if (s->algo && s->variant) show_limits(s);
    return CMD_OK;
}

static void complete_show(struct session *s, int argc, char **argv, const char *text,
                          struct cmp_list *out)
{
    if (argc != 1) return;
    for (int i = 0; setting_at(i); i++) cmp_add(out, setting_at(i)->name);
}

/* --------------------------------------------------------------- device */

static enum cmd_status do_device(struct session *s, int argc, char **argv)
{
    const lab_device_info *d = lab_device();
    const char *off = lab_device_disabled();
    char a[64], b[64];
    if (!d->present) {
        out_printf(_("no GPU: %s\n"), d->why_not[0] ? d->why_not : _("none found"));
        parse_fmt_size(s->cfg.sim_limit, a, sizeof a);
        out_printf(_("kernel variants run on gpulab's CPU simulator (n up to %s: set sim-limit);\n"
                     "library rows (thrust, CUB) need a GPU\n"), a);
        out_printf(_("set gpus 2..%d models that many GPUs, one after another, for reduce\n"), LAB_MAX_GPUS);
        return CMD_OK;
    }
    int ngpus = lab_device_count();
    if (ngpus > 1) {
        /* every GPU, one line each; the details below are GPU 0's */
        for (int i = 0; i < ngpus; i++) {
            char name[256];
            size_t mem = 0;
            if (lab_device_describe(i, name, sizeof name, &mem) != 0) continue;
            lab_fmt_bytes((double)mem, a, sizeof a);
            out_printf(_("GPU %d: %s, %s\n"), i, name, a);
        }
        out_printf(_("%d GPUs (set gpus 1..%d); below: GPU 0\n"), ngpus, ngpus);
    }
    out_printf(_("%s%s%s  (compute capability %d.%d)\n"), out_color(OUT_BOLD), d->name,
               out_color(OUT_RESET), d->cc_major, d->cc_minor);
    if (off) out_printf(_("%sdisabled for this session:%s %s\n"), out_color(OUT_ERROR), out_color(OUT_RESET), off);
    lab_fmt_bytes((double)d->mem_total, a, sizeof a);
    lab_fmt_bytes((double)d->mem_free, b, sizeof b);
    out_printf("  %s %d\n", out_pad(_("SMs"), 24), d->sms);
    out_printf(_("  %s %s (%s free)\n"), out_pad(_("memory"), 24), a, b);
    if (d->mem_clock_khz > 0 && d->mem_bus_bits > 0)
        out_printf(_("  %s %.0f GB/s (%d-bit bus at %.0f MHz)\n"), out_pad(_("theoretical bandwidth"), 24),
                   2.0 * d->mem_clock_khz * 1e3 * (d->mem_bus_bits / 8.0) / 1e9, d->mem_bus_bits,
                   d->mem_clock_khz / 1e3);
    if (!off) {
        out_flush();
        double gbps = lab_device_copy_gbps();
        if (gbps > 0)
            out_printf(_("  %s %.0f GB/s (device-to-device copy, read + write: \"%% of peak\" uses it)\n"),
                       out_pad(_("measured copy bandwidth"), 24), gbps);
    }
    out_printf("  %s %d\n", out_pad(_("warp size"), 24), d->warp_size);
    out_printf(_("  %s %d per block, %d per SM\n"), out_pad(_("threads"), 24), d->max_threads_per_block,
               d->max_threads_per_sm);
    out_printf(_("  %s %d per SM\n"), out_pad(_("blocks"), 24), d->max_blocks_per_sm);
    lab_fmt_bytes((double)d->smem_per_block, a, sizeof a);
    lab_fmt_bytes((double)d->smem_per_block_optin, b, sizeof b);
    out_printf(_("  %s %s per block (%s opt-in)"), out_pad(_("shared memory"), 24), a, b);
    lab_fmt_bytes((double)d->smem_per_sm, a, sizeof a);
    out_printf(_(", %s per SM\n"), a);
    out_printf(_("  %s %d per block, %d per SM\n"), out_pad(_("registers"), 24), d->regs_per_block, d->regs_per_sm);
    out_printf("  %s %d x %d x %d\n", out_pad(_("max block"), 24), d->max_block[0], d->max_block[1], d->max_block[2]);
    out_printf("  %s %d x %d x %d\n", out_pad(_("max grid"), 24), d->max_grid[0], d->max_grid[1], d->max_grid[2]);
    if (d->clock_khz > 0) out_printf(_("  %s %.0f MHz\n"), out_pad(_("SM clock"), 24), d->clock_khz / 1e3);
    return CMD_OK;
}

const struct cmd cmd_info[] = {
    {
        .name = "list",
        .aliases = "ls",
        .usage = N_("list [ALGO]"),
        .help = N_("the algorithms and their variants, one line each"),
        .long_help = N_("Lists every algorithm gpulab knows and its variants: its own kernels (they\n"
                        "run on the GPU and on the simulator), the vendor library rows (GPU only)\n"
                        "and the CPU baselines. The chosen variant is marked with *.\n"),
        .run = do_list, .args = CMD_ARGS(0, 1),
        .complete = CMP_ALGO,
    },
    {
        .name = "use",
        .usage = N_("use ALGO[/VARIANT] | use VARIANT"),
        .help = N_("choose the algorithm and variant that run, trace and show act on"),
        .long_help = N_("use reduce              the reduce algorithm, its first kernel variant\n"
                        "use reduce/sequential   that variant\n"
                        "use sequential          a variant of the current algorithm\n"
                        "Names may be shortened to a unique prefix. Changing the algorithm sets n,\n"
                        "dtype and pattern to its defaults; block and grid go back to auto when\n"
                        "the new variant cannot take them.\n"),
        .run = do_use,
        .complete = CMP_CUSTOM,
        .complete_fn = complete_use,
    },
    {
        .name = "show",
        .usage = N_("show [KEY]"),
        .help = N_("the settings, and the limits of the chosen variant"),
        .long_help = N_("Shows every setting and what the chosen variant accepts: its block range,\n"
                        "whether block or n must be a power of two, its data types and input\n"
                        "patterns, and the largest n it can be traced at. show KEY shows one setting.\n"),
        .run = do_show, .args = CMD_ARGS(0, 1),
        .complete = CMP_CUSTOM,
        .complete_fn = complete_show,
    },
    {
        .name = "device",
        .aliases = "gpu",
        .usage = "device",
        .help = N_("the GPU: name, SMs, memory, measured copy bandwidth, limits"),
        /* xgettext:no-c-format */
        .long_help = N_("Describes the GPU and measures (once) its device-to-device copy bandwidth,\n"
                        "the peak that \"% of peak\" in run and compare refers to. Without a GPU it\n"
                        "says why, and that kernel variants run on the simulator.\n"),
        .run = do_device, .args = CMD_ARGS(0, 0),
    },
    {0},
};
