/* session.c - the session's state and how errors are reported. */
#include "repl/session.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/program/program.h"
#include "repl/i18n.h"
#include "repl/lessons/lesson.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/safefile.h"
#include "repl/settings.h"
#include "repl/explore/sweep.h"

/* The first variant that runs on the GPU and the simulator, else the first. */
static const lab_variant *first_kernel_variant(const lab_algo *a)
{
    if (!a || a->nvariants <= 0) return NULL;
    for (int i = 0; i < a->nvariants; i++)
        if (a->variants[i].kind == LAB_ROW_KERNEL) return &a->variants[i];
    return &a->variants[0];
}

void sess_init(struct session *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->lang, sizeof s->lang, "en");
    settings_reset(s);
    if (lab_algo_count() > 0) sess_use(s, lab_algo_at(0), NULL);
}

void sess_close_program(struct session *s)
{
    if (s->prog) {
        prog_result_free(&s->prog->last);
        free(s->prog);
        s->prog = NULL;
    }
    for (int i = 0; s->prog_defines[i]; i++) {
        free(s->prog_defines[i]);
        s->prog_defines[i] = NULL;
    }
}

/* Free what o holds; its generation stays. */
static void output_clear(struct sess_output *o)
{
    free(o->rows);
    if (o->sweep) sweep_free(o->sweep);
    free(o->sweep);
    free(o->prof);
    unsigned long gen = o->generation;
    memset(o, 0, sizeof *o);
    o->generation = gen;
}

void sess_free(struct session *s)
{
    sess_close_program(s);
    for (int i = 0; s->prog_args[i]; i++) free(s->prog_args[i]); /* set args outlives the program */
    viz_picture_free(&s->picture);
    output_clear(&s->last);
    lesson_free(s->lesson.cur);
    free(s->lesson.right);
    free(s->lesson.tries);
    memset(&s->lesson, 0, sizeof s->lesson);
}

void sess_use(struct session *s, const lab_algo *a, const lab_variant *v)
{
    if (!a) return;
    if (a != s->algo) settings_use_algo(s, a);
    s->algo = a;
    s->variant = v ? v : first_kernel_variant(a);
}

static enum cmd_status sess_verror(struct session *s, int pos, int len, const char *fmt, va_list ap)
{
    struct out_loc loc = {0};
    loc.script = s->script;
    loc.line = s->line;
    loc.text = pos >= 0 ? s->cur_text : NULL;
    loc.pos = pos;
    loc.len = len;
    if (loc.text && s->cur && s->cur->argc > 0) {
        /* Show only the command at fault, not the whole line of commands. */
        int first = s->cur->pos[0];
        int last = s->cur->argc - 1;
        int end = s->cur->pos[last] + s->cur->len[last];
        loc.text = s->cur_text + first;
        loc.text_len = end - first;
        loc.pos = pos - first;
    }
    out_verror(&loc, fmt, ap);
    s->errors++;
    return CMD_ERROR;
}

enum cmd_status sess_error(struct session *s, int argi, const char *fmt, ...)
{
    int pos = -1, len = 0;
    if (s->cur && argi >= 0 && argi < s->cur->argc) {
        pos = s->cur->pos[argi];
        len = s->cur->len[argi];
    } else if (s->cur && argi >= s->cur->argc && s->cur->argc > 0) {
        /* a missing word: point just past the last one */
        int last = s->cur->argc - 1;
        pos = s->cur->pos[last] + s->cur->len[last] + 1;
        len = 1;
    }
    va_list ap;
    va_start(ap, fmt);
    enum cmd_status st = sess_verror(s, pos, len, fmt, ap);
    va_end(ap);
    return st;
}

enum cmd_status sess_error_at(struct session *s, int pos, int len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    enum cmd_status st = sess_verror(s, pos, len, fmt, ap);
    va_end(ap);
    return st;
}

/* A new last output of kind k with a copy of rows[0..n) (none when out
 * of memory: export then says there is nothing to write). */
static void output_begin(struct session *s, enum sess_output_kind k, const lab_result *rows, int n)
{
    struct sess_output *o = &s->last;
    output_clear(o);
    o->kind = k;
    o->generation++;
    o->cfg = s->cfg;
    o->algo = s->algo;
    if (n > 0 && (o->rows = malloc((size_t)n * sizeof *rows))) {
        memcpy(o->rows, rows, (size_t)n * sizeof *rows);
        o->nrows = n;
    }
}

void sess_output_table(struct session *s, const lab_result *rows, int n)
{
    output_begin(s, SESS_OUTPUT_TABLE, rows, n);
}

void sess_output_sweep(struct session *s, struct sweep_data *d)
{
    lab_result *rows = malloc(sizeof *rows * (size_t)(d->npoints > 0 ? d->npoints : 1));
    for (int i = 0; rows && i < d->npoints; i++) rows[i] = d->points[i].r;
    output_begin(s, SESS_OUTPUT_SWEEP, rows, rows ? d->npoints : 0);
    free(rows);
    struct sess_output *o = &s->last;
    if (!(o->sweep = malloc(sizeof *o->sweep))) {
        sweep_free(d);
        o->kind = SESS_OUTPUT_NONE;
        return;
    }
    *o->sweep = *d;
    memset(d, 0, sizeof *d);
}

void sess_output_profile(struct session *s, struct prof_row *prof, int nprof, const lab_result *runs, int nruns)
{
    output_begin(s, SESS_OUTPUT_PROFILE, runs, nruns);
    s->last.prof = prof;
    s->last.nprof = nprof;
}

int sess_open_output(struct session *s, struct safefile *w, const char *path, char *err, size_t errlen)
{
    if (s->confined && !safefile_confined_ok(path, err, errlen)) return -1;
    return safefile_open(w, path, 0, err, errlen);
}

void sess_note_no_gpu(struct session *s)
{
    if (s->said.no_gpu) return;
    const lab_device_info *d = lab_device();
    const char *off = lab_device_disabled();
    if (d->present && !off) return;
    s->said.no_gpu = 1;
    if (off)
        out_note(_("the GPU is disabled for this session: %s; GPU variants run on the simulator"), off);
    else
        out_note(_("no GPU: %s; GPU variants run on the simulator"),
                 d->why_not[0] ? d->why_not : _("none found"));
}

/* Find a variant of a by exact name or unique prefix. */
const lab_variant *sess_find_variant(const lab_algo *a, const char *name, char *err, size_t errlen)
{
    const char *names[128];
    int n = a->nvariants > 128 ? 128 : a->nvariants;
    for (int i = 0; i < n; i++) names[i] = a->variants[i].name;
    int amb[128], namb = 0;
    int k = parse_lookup(name, names, n, amb, 128, &namb);
    if (k >= 0) return &a->variants[k];
    size_t off;
    if (k == -2) {
        off = (size_t)snprintf(err, errlen, _("ambiguous variant \"%s\" of %s: could be "), name, a->name);
        for (int i = 0; i < namb && off < errlen; i++)
            off += (size_t)snprintf(err + off, errlen - off, "%s%s", i ? ", " : "", names[amb[i]]);
        return NULL;
    }
    off = (size_t)snprintf(err, errlen, _("%s has no variant \"%s\"; variants: "), a->name, name);
    for (int i = 0; i < n && off < errlen; i++)
        off += (size_t)snprintf(err + off, errlen - off, "%s%s", i ? ", " : "", names[i]);
    return NULL;
}

const lab_variant *sess_variant_arg(struct session *s, int argi, const char *word)
{
    const char *name = word;
    const char *slash = strchr(name, '/');
    if (slash) {
        size_t l = (size_t)(slash - name);
        if (l != strlen(s->algo->name) || strncmp(name, s->algo->name, l) != 0) {
            sess_error(s, argi, _("%s looks at variants of %s; `use ALGO` first for another algorithm"),
                       s->cur_entry ? s->cur_entry->name : "gpulab", s->algo->name);
            return NULL;
        }
        name = slash + 1;
    }
    char err[LAB_ERR_MAX];
    const lab_variant *v = sess_find_variant(s->algo, name, err, sizeof err);
    if (!v) sess_error(s, argi, "%s", err);
    return v;
}

