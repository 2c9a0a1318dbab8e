/* cmd_code.c - code: a kernel's source at the prompt, with a line
 * highlighted (viz/render_code.c draws it).
 *
 *   code                   the puzzle being worked on, else the current variant
 *   code VARIANT [LINE]    the kernels a built-in variant launches, from kernels/
 *   code KERNEL [LINE]     a kernel function of kernels/ by name
 *   code FILE.cu [LINE]    any file (a puzzle, a program)
 *
 * A variant's kernels are the ones its trace launches (recorded at a small
 * n), found by name in the family's source; so the list cannot drift from
 * what runs. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernels/paths.h"
#include "viz/canvas.h"
#include "repl/cmd.h"
#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/safefile.h"
#include "repl/lessons/puzzle.h"
#include "viz/render_code.h"
#include "repl/session.h"
#include "viz/term.h"
#include "repl/cmd_code.h"
#include "repl/record.h"
#include "repl/lessons/cmd_puzzle.h"

/* The built-in kernels' sources: the source tree's kernels/, or the
 * installed copy (kernels/paths.c). */
static void kernels_dir(char *buf, size_t len) { snprintf(buf, len, "%s", lab_path(LAB_PLACE_KERNELS)); }

/* Draw lines [from, to] of text (the whole text when from is 0) with line
 * hl highlighted, as wide as the terminal (at most 120 columns). */
static void show(struct session *s, const char *title, const char *text, size_t len, int from, int to, int hl)
{
    const char *start = text;
    size_t n = len;
    int first = 1;
    if (from > 0) {
        int line = 1;
        size_t i = 0;
        while (i < len && line < from) line += text[i++] == '\n';
        start = text + i;
        size_t e = i;
        while (e < len && line <= to) line += text[e++] == '\n';
        n = e - i;
        first = from;
    }
    int lines = 0;
    for (size_t i = 0; i < n; i++) lines += start[i] == '\n';
    if (n && start[n - 1] != '\n') lines++;
    int w = out_width();
    if (w <= 0 || w > 120) w = w <= 0 ? 100 : 120;
    canvas *c = canvas_new(w, lines + 2);
    if (!c) return;
    viz_code code = {.text = start, .len = n, .first_line = first, .highlight = hl, .title = title};
    viz_render_code(c, canvas_bounds(c), &code);
    viz_text_opts o = viz_text_opts_for(out_stream(), !s->color);
    if (o.mode == VIZ_TEXT_COLOUR && !out_color_enabled()) o.mode = VIZ_TEXT_MONO;
    viz_text_write(out_stream(), c, &o);
    canvas_free(c);
}

/* Draw text (nlines lines) whose lines carry the file numbers numbers[],
 * with line hl highlighted: a kernel with its recording lines folded. */
static void show_lines(struct session *s, const char *title, const char *text, size_t len, const int *numbers,
                       int nlines, int hl)
{
    int w = out_width();
    if (w <= 0 || w > 120) w = w <= 0 ? 100 : 120;
    canvas *c = canvas_new(w, nlines + 2);
    if (!c) return;
    viz_code code = {.text = text, .len = len, .first_line = numbers[0], .highlight = hl, .title = title,
                     .line_numbers = numbers, .nlines = nlines};
    viz_render_code(c, canvas_bounds(c), &code);
    viz_text_opts o = viz_text_opts_for(out_stream(), !s->color);
    if (o.mode == VIZ_TEXT_COLOUR && !out_color_enabled()) o.mode = VIZ_TEXT_MONO;
    viz_text_write(out_stream(), c, &o);
    canvas_free(c);
}

/* Find kernel name (template arguments left out) in kernels/ * / *.cu.
 * 0 with the file's text, its path and the lines; -1 when not found. */
int code_find_kernel(const char *name, char **text, size_t *len, char *path, size_t pathlen, int *from, int *to)
{
    char base[PATH_MAX], fn[128];
    /* the function's own name: "(transpose_tiled_k<T, 1>)" is transpose_tiled_k */
    while (*name && !(isalpha((unsigned char)*name) || *name == '_')) name++;
    size_t k = 0;
    while (k + 1 < sizeof fn && (isalnum((unsigned char)name[k]) || name[k] == '_')) {
        fn[k] = name[k];
        k++;
    }
    fn[k] = 0;
    kernels_dir(base, sizeof base);
    DIR *d = opendir(base);
    if (!d) return -1;
    struct dirent *e;
    int found = -1;
    while (found != 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char sub[PATH_MAX + 256];
        snprintf(sub, sizeof sub, "%s/%s", base, e->d_name);
        DIR *sd = opendir(sub);
        if (!sd) continue;
        struct dirent *f;
        while ((f = readdir(sd))) {
            size_t l = strlen(f->d_name);
            if (l < 4 || strcmp(f->d_name + l - 3, ".cu") != 0) continue;
            char p[PATH_MAX * 2];
            snprintf(p, sizeof p, "%s/%s", sub, f->d_name);
            size_t n;
            char *t = puzzle_read_file(p, &n);
            if (!t) continue;
            if (viz_code_find_function(t, n, fn, from, to) == 0) {
                *text = t;
                *len = n;
                snprintf(path, pathlen, "kernels/%s/%s", e->d_name, f->d_name);
                found = 0;
                break;
            }
            free(t);
        }
        closedir(sd);
    }
    closedir(d);
    return found;
}

/* Line k (1-based) of text: its start and length, or NULL past the end. */
static const char *line_at(const char *text, size_t len, int k, size_t *n)
{
    size_t i = 0;
    for (int line = 1; line < k; line++) {
        const char *nl = memchr(text + i, '\n', len - i);
        if (!nl) return NULL;
        i = (size_t)(nl - text) + 1;
    }
    if (i >= len) return NULL;
    const char *nl = memchr(text + i, '\n', len - i);
    *n = nl ? (size_t)(nl - (text + i)) : len - i;
    return text + i;
}

/* The recording lines of gpulab's kernels: TRACE_* calls, and the
 * (void)x; that keeps a value only they use. */
static int is_recording(const char *l, size_t n)
{
    while (n && (*l == ' ' || *l == '\t')) l++, n--;
    if (n >= 6 && strncmp(l, "TRACE_", 6) == 0) return 1;
    if (n >= 7 && strncmp(l, "(void)", 6) == 0) {
        size_t k = 6;
        while (k < n && (isalnum((unsigned char)l[k]) || l[k] == '_')) k++;
        return k > 6 && k < n && l[k] == ';';
    }
    return 0;
}

int code_statement_line(const char *text, size_t len, int line)
{
    size_t n;
    const char *l = line_at(text, len, line, &n);
    if (!l || !is_recording(l, n)) return line;
    for (int k = line - 1; k >= 1; k--) {
        l = line_at(text, len, k, &n);
        if (!l) break;
        while (n && (*l == ' ' || *l == '\t')) l++, n--;
        if (n == 0 || (n >= 2 && l[0] == '/' && (l[1] == '/' || l[1] == '*')) || is_recording(l, n)) continue;
        return k;
    }
    return line;
}

/* "SHARED(A, s, B);" as a student writes it: "__shared__ A s[B];"
 * (SHARED2: [R][C]; DYNAMIC_SHARED: extern __shared__ T s[];), with the
 * line's indent; 0 when the line is not one of them. */
static int shared_as_written(const char *l, size_t n, char *out, size_t outlen)
{
    size_t ind = 0;
    while (ind < n && (l[ind] == ' ' || l[ind] == '\t')) ind++;
    const char *p = l + ind;
    size_t rest = n - ind;
    int kind = rest > 7 && !strncmp(p, "SHARED(", 7) ? 1 : rest > 8 && !strncmp(p, "SHARED2(", 8) ? 2
             : rest > 15 && !strncmp(p, "DYNAMIC_SHARED(", 15) ? 3 : 0;
    if (!kind) return 0;
    const char *open = memchr(p, '(', rest), *close = NULL;
    int depth = 0;
    for (const char *q = open; q < p + rest; q++) {
        if (*q == '(') depth++;
        else if (*q == ')' && --depth == 0) {
            close = q;
            break;
        }
    }
    if (!open || !close) return 0;
    /* the arguments, split at the commas outside <> and () */
    char args[4][128];
    int na = 0, d = 0;
    size_t k = 0;
    for (const char *q = open + 1; q <= close && na < 4; q++) {
        if ((*q == ',' && d == 0) || q == close) {
            while (k && args[na][k - 1] == ' ') k--;
            args[na][k] = 0;
            na++;
            k = 0;
            continue;
        }
        if (*q == '<' || *q == '(') d++;
        if (*q == '>' || *q == ')') d--;
        if (k == 0 && *q == ' ') continue;
        if (k + 1 < sizeof args[0]) args[na][k++] = *q;
    }
    if ((kind == 1 && na != 3) || (kind == 2 && na != 4) || (kind == 3 && na != 2)) return 0;
    if (kind == 1) snprintf(out, outlen, "%.*s__shared__ %s %s[%s];", (int)ind, l, args[0], args[1], args[2]);
    else if (kind == 2)
        snprintf(out, outlen, "%.*s__shared__ %s %s[%s][%s];", (int)ind, l, args[0], args[1], args[2], args[3]);
    else snprintf(out, outlen, "%.*sextern __shared__ %s %s[];", (int)ind, l, args[0], args[1]);
    return 1;
}

/* Lines [from, to] of text as a student would write them: the recording
 * lines left out, the shared-memory macros written as declarations. A
 * malloc'd text, *numbers its lines' file numbers (malloc'd), *nlines their
 * count, *folded the lines left out. */
static char *fold_recording(const char *text, size_t len, int from, int to, int **numbers, int *nlines, int *folded,
                            size_t *outlen)
{
    size_t cap = len + 1024;
    char *out = malloc(cap);
    int *num = malloc(sizeof *num * (size_t)(to - from + 2));
    if (!out || !num) {
        free(out);
        free(num);
        return NULL;
    }
    size_t o = 0;
    int nl = 0, skipped = 0, in_stmt = 0;
    for (int k = from; k <= to; k++) {
        size_t n;
        const char *l = line_at(text, len, k, &n);
        if (!l) break;
        /* a TRACE_ call may go on over lines until its ';' */
        if (in_stmt || is_recording(l, n)) {
            in_stmt = !memchr(l, ';', n);
            skipped++;
            continue;
        }
        char buf[512];
        const char *w = l;
        size_t wn = n;
        if (shared_as_written(l, n, buf, sizeof buf)) {
            w = buf;
            wn = strlen(buf);
        }
        if (o + wn + 2 > cap) {
            char *more = realloc(out, cap = (o + wn + 2) * 2);
            if (!more) break;
            out = more;
        }
        memcpy(out + o, w, wn);
        o += wn;
        out[o++] = '\n';
        num[nl++] = k;
    }
    out[o] = 0;
    *numbers = num;
    *nlines = nl;
    *folded = skipped;
    *outlen = o;
    return out;
}

static enum cmd_status show_kernel(struct session *s, const char *name, int hl, int argi, int all, const char *again)
{
    char *text, path[PATH_MAX];
    size_t len;
    int from, to;
    if (code_find_kernel(name, &text, &len, path, sizeof path, &from, &to) != 0)
        return sess_error(s, argi, _("no kernel %s in gpulab's kernels/ source"), name);
    char title[PATH_MAX + 160];
    snprintf(title, sizeof title, _("%s · %s, lines %d-%d"), name, path, from, to);
    int *numbers = NULL, nlines = 0, folded = 0;
    size_t flen = 0;
    char *ftext = all ? NULL : fold_recording(text, len, from, to, &numbers, &nlines, &folded, &flen);
    if (ftext && folded > 0) {
        show_lines(s, title, ftext, flen, numbers, nlines, hl);
        out_wrapf(0, 2,
                  ngettext("(%d recording line folded away: gpulab's TRACE_ call for the animations; `code %s all` "
                           "shows the file as it is)",
                           "(%d recording lines folded away: gpulab's TRACE_ calls for the animations; `code %s "
                           "all` shows the file as it is)",
                           (unsigned long)folded),
                  folded, again && *again ? again : name);
    } else {
        show(s, title, text, len, from, to, hl);
    }
    free(ftext);
    free(numbers);
    free(text);
    return CMD_OK;
}

static enum cmd_status show_file(struct session *s, const char *file, int hl, int argi)
{
    size_t len;
    char err[PATH_MAX + 256];
    if (s->confined && !safefile_lesson_read_ok(file, s->confined_from, 1, err, sizeof err))
        return sess_error(s, argi, "%s", err);
    char *text = safefile_read(file, SAFEFILE_SOURCE_MAX, &len, err, sizeof err);
    if (!text) return sess_error(s, argi, "%s", err);
    char title[PATH_MAX + 8];
    snprintf(title, sizeof title, "%s", file);
    show(s, title, text, len, 0, 0, hl);
    free(text);
    return CMD_OK;
}

/* The kernels variant v launches, in launch order, each once. */
static enum cmd_status show_variant(struct session *s, const lab_variant *v, int hl, int argi, int all,
                                    const char *again)
{
    if (v->kind != LAB_ROW_KERNEL)
        return sess_error(s, argi, _("%s is not a kernel of gpulab's (a CPU or library row): it has no source here"),
                          v->name);
    lab_trace t;
    lab_result r;
    char err[LAB_ERR_MAX];
    if (record_trace(s, v, &t, &r, err, sizeof err) != 0)
        return sess_error(s, argi, _("cannot tell which kernels %s launches: %s"), v->name, err);
    enum cmd_status st = CMD_OK;
    int shown = 0;
    for (int i = 0; i < t.nlaunches && st == CMD_OK; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++) seen |= strcmp(t.launches[j].kernel, t.launches[i].kernel) == 0;
        if (seen) continue;
        st = show_kernel(s, t.launches[i].kernel, hl, argi, all, again);
        shown++;
    }
    lab_trace_free(&t);
    if (st == CMD_OK && !shown) return sess_error(s, argi, _("%s launched no kernel"), v->name);
    return st;
}

/* A file: a name ending in .cu/.cuh, or anything that is there (show_file says what is wrong with it; nothing is opened
 * here, so a FIFO cannot hold the prompt). */
static int is_file_arg(const char *a)
{
    size_t l = strlen(a);
    if ((l > 3 && strcmp(a + l - 3, ".cu") == 0) || (l > 4 && strcmp(a + l - 4, ".cuh") == 0)) return 1;
    struct stat sb;
    return stat(a, &sb) == 0;
}

static enum cmd_status do_code(struct session *s, int argc, char **argv)
{
    int hl = 0, all = 0;
    /* `all` (last): a built-in kernel with its recording lines */
    if (argc >= 3 && strcmp(argv[argc - 1], "all") == 0) {
        all = 1;
        argc--;
    }
    if (argc == 3) {
        char *end;
        long l = strtol(argv[2], &end, 10);
        if (*end || l < 1 || l > 1000000) return sess_error(s, 2, _("a line number, 1 or more"));
        hl = (int)l;
    }
    if (argc == 1) {
        char file[PATH_MAX];
        if (puzzle_current_file(s, file, sizeof file) == 0) return show_file(s, file, s->puzzle.line, -1);
        if (!s->variant) return sess_error(s, -1, _("nothing chosen: code VARIANT, code KERNEL or code FILE.cu"));
        return show_variant(s, s->variant, 0, -1, all, s->variant->name);
    }
    const char *what = argv[1];
    if (is_file_arg(what)) return show_file(s, what, hl, 1);
    char err[LAB_ERR_MAX];
    const char *slash = strchr(what, '/');
    if (slash) { /* ALGO/VARIANT */
        char algo[LAB_NAME_MAX];
        snprintf(algo, sizeof algo, "%.*s", (int)(slash - what), what);
        const lab_algo *a = lab_algo_find(algo);
        if (!a) return sess_error(s, 1, _("no algorithm %s (list shows them)"), algo);
        const lab_variant *v = sess_find_variant(a, slash + 1, err, sizeof err);
        if (!v) return sess_error(s, 1, "%s", err);
        const lab_algo *old_a = s->algo;
        const lab_variant *old_v = s->variant;
        lab_config old_cfg = s->cfg;
        sess_use(s, a, v);
        enum cmd_status st = show_variant(s, v, hl, 1, all, what);
        s->algo = old_a;
        s->variant = old_v;
        s->cfg = old_cfg;
        return st;
    }
    const lab_variant *v = s->algo ? sess_find_variant(s->algo, what, err, sizeof err) : NULL;
    if (v) return show_variant(s, v, hl, 1, all, what);
    return show_kernel(s, what, hl, 1, all, what);
}

static void complete_code(struct session *s, int argc, char **argv, const char *text, struct cmp_list *out)
{
    (void)argv;
    (void)text;
    if (argc != 1 || !s->algo) return;
    for (int i = 0; i < s->algo->nvariants; i++)
        if (s->algo->variants[i].kind == LAB_ROW_KERNEL) cmp_add(out, s->algo->variants[i].name);
}

const struct cmd cmd_code_group[] = {
    {
        .name = "code",
        .usage = N_("code [VARIANT|KERNEL|FILE.cu] [LINE] [all]"),
        .help = N_("show a kernel's source with line numbers, LINE highlighted"),
        .long_help =
            N_("code VARIANT shows the kernels a built-in variant launches, from gpulab's\n"
               "kernels/ source (ALGO/VARIANT for another algorithm); code KERNEL one kernel\n"
               "function by name; code FILE.cu a file. LINE is highlighted (and kept in\n"
               "view). code alone shows the puzzle you are working on (with the line the\n"
               "last check's first diagnostic named), else the current variant. Keywords,\n"
               "CUDA's thread and block indices, barriers, shuffles and atomics, comments,\n"
               "strings and numbers have their own styles; without colour the highlighted\n"
               "line is reversed and marked with a triangle. A built-in kernel is shown as a\n"
               "student would write it: the lines that record the animations (TRACE_*)\n"
               "folded away and the shared arrays declared with __shared__; the line numbers\n"
               "stay the file's. all (last) shows the file as it is.\n"),
        .run = do_code, .args = CMD_ARGS(0, 3),
        .complete = CMP_CUSTOM,
        .complete_fn = complete_code,
    },
    {0},
};
