/* puzzle_def.c - puzzles written as a folder: puzzle.txt parsed strictly,
 * its sizes as small expressions of the cases' variables, the cases, and
 * the folder's files read as untrusted input. docs/puzzles.md has the
 * format. */
#define _GNU_SOURCE
#include "repl/lessons/puzzle_def.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repl/i18n.h"
#include "repl/lessons/lesson.h"

/* ------------------------------------------------------------- the files */

/* A regular file (never a link, a FIFO or a device) of at most max bytes,
 * NUL-terminated. NULL with err. */
static char *read_regular(const char *path, long max, size_t *len, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        if (errno == ELOOP)
            snprintf(err, errlen, _("%s: a link; a puzzle folder holds regular files only"), path);
        else
            snprintf(err, errlen, _("cannot read %s: %s"), path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, _("%s: not a regular file; a puzzle folder holds regular files only"), path);
        close(fd);
        errno = EINVAL;
        return NULL;
    }
    if (st.st_size > max) {
        snprintf(err, errlen, _("%s: %lld bytes; a puzzle's files hold at most %ld"), path, (long long)st.st_size, max);
        close(fd);
        errno = EFBIG;
        return NULL;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (buf && got < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    if (!buf || got != (size_t)st.st_size) {
        free(buf);
        snprintf(err, errlen, _("cannot read %s: %s"), path, strerror(errno ? errno : EIO));
        return NULL;
    }
    buf[got] = 0;
    if (memchr(buf, 0, got)) {
        free(buf);
        snprintf(err, errlen, _("%s: holds a NUL byte; a puzzle's files are text"), path);
        errno = EINVAL;
        return NULL;
    }
    *len = got;
    return buf;
}

int puzzle_def_is_dir(const char *dir)
{
    char p[PATH_MAX];
    struct stat st;
    if (snprintf(p, sizeof p, "%s/puzzle.txt", dir) >= (int)sizeof p) return 0;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && lstat(p, &st) == 0;
}

/* ---------------------------------------------------------- expressions */

struct ev {
    const struct puzzle_def *d;
    const int *vals;  /* the case's values of d->vars; NULL: names are only looked up */
    const char *err;  /* the first problem, untranslated */
};

static long ev_sum(const char **s, struct ev *e);

static void skip_sp(const char **s)
{
    while (**s == ' ' || **s == '\t') (*s)++;
}

static long ev_atom(const char **s, struct ev *e)
{
    skip_sp(s);
    if (**s == '(') {
        (*s)++;
        long v = ev_sum(s, e);
        skip_sp(s);
        if (**s != ')') {
            if (!e->err) e->err = N_("a ( without its )");
            return 1;
        }
        (*s)++;
        return v;
    }
    if (isdigit((unsigned char)**s)) {
        long v = 0;
        while (isdigit((unsigned char)**s)) {
            v = v * 10 + (**s - '0');
            if (v > 100000000) {
                if (!e->err) e->err = N_("a number above 100000000");
                v = 1;
            }
            (*s)++;
        }
        return v;
    }
    if (isalpha((unsigned char)**s) || **s == '_') {
        char name[32];
        size_t n = 0;
        while (isalnum((unsigned char)**s) || **s == '_') {
            if (n + 1 < sizeof name) name[n++] = **s;
            (*s)++;
        }
        name[n] = 0;
        for (int k = 0; k < e->d->nvars; k++)
            if (strcmp(e->d->vars[k], name) == 0) return e->vals ? e->vals[k] : 1;
        if (!e->err) e->err = N_("a name that no case gives a value");
        return 1;
    }
    if (!e->err) e->err = N_("a number, a case's name or ( expected");
    return 1;
}

static long ev_prod(const char **s, struct ev *e)
{
    long v = ev_atom(s, e);
    for (;;) {
        skip_sp(s);
        char op = **s;
        if (op != '*' && op != '/' && op != '%') return v;
        (*s)++;
        long w = ev_atom(s, e);
        if (op == '*') {
            v = v * w;
        } else if (w == 0) {
            if (!e->err) e->err = N_("a division by 0");
            v = 1;
        } else {
            v = op == '/' ? v / w : v % w;
        }
        if (v > 100000000 || v < -100000000) {
            if (!e->err) e->err = N_("a value beyond 100000000");
            v = 1;
        }
    }
}

static long ev_sum(const char **s, struct ev *e)
{
    long v = ev_prod(s, e);
    for (;;) {
        skip_sp(s);
        char op = **s;
        if (op != '+' && op != '-') return v;
        (*s)++;
        long w = ev_prod(s, e);
        v = op == '+' ? v + w : v - w;
        if (v > 100000000 || v < -100000000) {
            if (!e->err) e->err = N_("a value beyond 100000000");
            v = 1;
        }
    }
}

/* The value of expression text with the case's values; NULL *err when fine. */
static long eval(const struct puzzle_def *d, const int *vals, const char *text, const char **err)
{
    struct ev e = {d, vals, NULL};
    const char *s = text;
    long v = ev_sum(&s, &e);
    skip_sp(&s);
    if (!e.err && *s)
        /* xgettext:no-c-format */
        e.err = N_("something after the expression (it takes numbers, the cases' names, + - * / % and parentheses)");
    *err = e.err;
    return v;
}

/* ---------------------------------------------------------------- parse */

struct parser {
    const char *file;
    int line;
    char *err;
    size_t errlen;
    int failed;
};

static int perr(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(struct parser *ps, const char *fmt, ...)
{
    if (ps->failed) return -1;
    ps->failed = 1;
    int o = snprintf(ps->err, ps->errlen, "%s:%d: ", ps->file, ps->line);
    if (o < 0 || (size_t)o >= ps->errlen) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err + o, ps->errlen - (size_t)o, fmt, ap);
    va_end(ap);
    return -1;
}

static int is_ident(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_')) return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
    return 1;
}

/* Names the harness's main() uses, and words of C and CUDA. */
static int reserved(const char *s)
{
    static const char *const words[] = {"e", "f", "argc", "argv", "main", "int", "float", "double", "char", "void",
                                        "unsigned", "signed", "long", "short", "const", "static", "if", "else",
                                        "for", "while", "do", "return", "break", "continue", "struct", "sizeof",
                                        "dim3", "auto", "bool", "true", "false", "new", "delete", "class",
                                        "template", "typename", "threadIdx", "blockIdx", "blockDim", "gridDim",
                                        "warpSize", "stdin", "stdout", "stderr", "printf", "fprintf", "fopen"};
    if (strncmp(s, "gpulab", 6) == 0 || strncmp(s, "cuda", 4) == 0 || strncmp(s, "__", 2) == 0) return 1;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(s, words[i]) == 0) return 1;
    return 0;
}

/* Strings of the puzzle: one block, appended to as the file is read. */
struct strs {
    char *buf;
    size_t len, cap;
};

/* Offsets into the block until it stops moving; made pointers at the end. */
static size_t str_add(struct strs *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = (t->len + n + 1) * 2 + 256;
        char *b = realloc(t->buf, cap);
        if (!b) return (size_t)-1;
        t->buf = b;
        t->cap = cap;
    }
    size_t at = t->len;
    memcpy(t->buf + at, s, n);
    t->buf[at + n] = 0;
    t->len += n + 1;
    return at;
}

/* Where each text lives while parsing: offsets into strs (+1; 0 = none),
 * and the line that gave it. */
enum { T_NUMBER, T_NAME, T_TITLE, T_KERNEL, T_IDEA, T_SPEC, T_HINT, T_WATCH, T_TOLERANCE, T_GRID, T_BLOCK,
       T_READS, T_WRITES, T_SHARED, T_BARRIERS, T_NEED_SHARED, T_COUNT };
static const char *const k_names[T_COUNT] = {"number", "name", "title", "kernel", "idea", "spec", "hint", "watch",
                                             "tolerance", "grid", "block", "reads", "writes", "shared", "barriers",
                                             "need-shared"};
struct texts {
    size_t off[T_COUNT];
    int line[T_COUNT];
};

struct argtext {
    int kind;
    size_t name, dim[2];
    int line;
    float base, step;
    int lo, hi;
};

static const char *const k_keys =
    "number, name, title, kernel, idea, spec, hint, grid, block, arg, case, reads, writes, shared, barriers, "
    "need-shared, tolerance, watch";
static const char *const k_tr_keys = "title, idea, spec, hint";

/* "[E]" or "[E][E]" at *s: the expressions' offsets in t. */
static int parse_dims(struct parser *ps, char **s, struct strs *t, size_t dim[2])
{
    size_t got[2];
    int nd = 0;
    while (**s == '[' && nd < 3) {
        char *close = strchr(*s, ']');
        if (!close) return perr(ps, _("a [ without its ]"));
        if (nd == 2) return perr(ps, _("an array has one or two sizes: [LEN] or [ROWS][COLS]"));
        size_t at = str_add(t, *s + 1, (size_t)(close - *s - 1));
        if (at == (size_t)-1) return perr(ps, _("out of memory"));
        got[nd++] = at + 1;
        *s = close + 1;
    }
    if (nd == 0) return perr(ps, _("an array's size in brackets expected: [LEN] or [ROWS][COLS]"));
    dim[0] = nd == 2 ? got[0] : 0;
    dim[1] = got[nd - 1];
    return 0;
}

static int parse_float(const char *w, float *v)
{
    char *end;
    errno = 0;
    double d = strtod(w, &end);
    if (end == w || *end || errno || d != d || d > 1e6 || d < -1e6) return -1;
    *v = (float)d;
    return 0;
}

static int parse_int(const char *w, long lo, long hi, int *v)
{
    char *end;
    errno = 0;
    long d = strtol(w, &end, 10);
    if (end == w || *end || errno || d < lo || d > hi) return -1;
    *v = (int)d;
    return 0;
}

/* arg: out NAME [E]([E]) | in NAME [E]([E]) [values BASE STEP] [random LO HI] | int NAME = E */
static int parse_arg(struct parser *ps, char *v, struct strs *t, struct argtext *a)
{
    char *s = v;
    char word[16], name[64];
    int n = 0;
    if (sscanf(s, "%15s %63[A-Za-z0-9_]%n", word, name, &n) != 2)
        return perr(ps, _("arg: takes out NAME [LEN], in NAME [LEN] or int NAME = VALUE"));
    s += n;
    memset(a, 0, sizeof *a);
    a->line = ps->line;
    a->step = 1;
    a->lo = -5;
    a->hi = 5;
    if (strcmp(word, "out") == 0) a->kind = PZ_OUT;
    else if (strcmp(word, "in") == 0) a->kind = PZ_IN;
    else if (strcmp(word, "int") == 0) a->kind = PZ_INT;
    else return perr(ps, _("arg: \"%s\" is not a kind of argument; there are out, in and int"), word);
    if (!is_ident(name) || strlen(name) > 31)
        return perr(ps, _("arg: \"%s\" is not a name (letters, digits and _, at most 31)"), name);
    if (reserved(name)) return perr(ps, _("arg: \"%s\" is a name C, CUDA or the harness uses; choose another"), name);
    size_t at = str_add(t, name, strlen(name));
    if (at == (size_t)-1) return perr(ps, _("out of memory"));
    a->name = at + 1;
    skip_sp((const char **)&s);
    if (a->kind == PZ_INT) {
        if (*s != '=') return perr(ps, _("arg: int %s takes = VALUE (an expression of the cases' names)"), name);
        s++;
        at = str_add(t, s, strlen(s));
        if (at == (size_t)-1) return perr(ps, _("out of memory"));
        a->dim[1] = at + 1;
        return 0;
    }
    if (parse_dims(ps, &s, t, a->dim) != 0) return -1;
    char *save;
    for (char *w = strtok_r(s, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (a->kind == PZ_IN && strcmp(w, "values") == 0) {
            char *b = strtok_r(NULL, " \t", &save), *st = b ? strtok_r(NULL, " \t", &save) : NULL;
            if (!st || parse_float(b, &a->base) || parse_float(st, &a->step))
                return perr(ps, _("arg: values takes BASE STEP (the stated inputs are BASE + STEP * i, numbers "
                                  "within 1000000)"));
        } else if (a->kind == PZ_IN && strcmp(w, "random") == 0) {
            char *l = strtok_r(NULL, " \t", &save), *h = l ? strtok_r(NULL, " \t", &save) : NULL;
            if (!h || parse_int(l, -1000, 1000, &a->lo) || parse_int(h, -1000, 1000, &a->hi) || a->lo > a->hi)
                return perr(ps, _("arg: random takes LO HI, whole numbers from -1000 to 1000, LO <= HI"));
        } else {
            return perr(ps, a->kind == PZ_IN ? _("arg: after an input's size come values BASE STEP and random LO HI "
                                                  "(not \"%s\")")
                                              : _("arg: nothing comes after the output's size (not \"%s\")"),
                        w);
        }
    }
    return 0;
}

/* case: NAME = N, NAME = N */
static int parse_case(struct parser *ps, char *v, struct puzzle_def *d)
{
    if (d->ncases >= PUZZLE_MAX_CASES) return perr(ps, _("case: at most %d cases"), PUZZLE_MAX_CASES);
    int ci = d->ncases, seen = 0;
    int have[PUZZLE_DEF_MAX_VARS] = {0};
    char *save;
    for (char *item = strtok_r(v, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char name[64];
        int val, n = 0;
        char rest[8];
        if (sscanf(item, " %63[A-Za-z0-9_] = %d%n", name, &val, &n) != 2 || sscanf(item + n, " %7s", rest) == 1)
            return perr(ps, _("case: takes NAME = N, NAME = N (whole numbers from 1 to 100000)"));
        if (!is_ident(name) || strlen(name) > 31 || reserved(name))
            return perr(ps, _("case: \"%s\" is not a name for a size (letters, digits and _, not a word of C)"), name);
        if (val < 1 || val > 100000) return perr(ps, _("case: %s = %d; a size is from 1 to 100000"), name, val);
        int k = 0;
        while (k < d->nvars && strcmp(d->vars[k], name) != 0) k++;
        if (k == d->nvars) {
            if (ci > 0) return perr(ps, _("case: %s is not named by the first case; every case names the same sizes"), name);
            if (d->nvars >= PUZZLE_DEF_MAX_VARS) return perr(ps, _("case: at most %d names"), PUZZLE_DEF_MAX_VARS);
            snprintf(d->vars[d->nvars++], sizeof d->vars[0], "%s", name);
        }
        if (have[k]++) return perr(ps, _("case: %s given twice"), name);
        d->vals[ci][k] = val;
        seen++;
    }
    if (seen == 0) return perr(ps, _("case: takes NAME = N, NAME = N (whole numbers from 1 to 100000)"));
    for (int k = 0; k < d->nvars; k++)
        if (!have[k]) return perr(ps, _("case: %s missing; every case names the same sizes"), d->vars[k]);
    d->ncases++;
    return 0;
}

static int text_key(const char *key)
{
    for (int i = 0; i < T_COUNT; i++)
        if (strcmp(key, k_names[i]) == 0) return i;
    return -1;
}

static int is_text_key(const char *k)
{
    return !strcmp(k, "title") || !strcmp(k, "idea") || !strcmp(k, "spec") || !strcmp(k, "hint");
}

/* Read puzzle.txt's lines into x (texts), args and d (cases). tr: a
 * translation's file, which holds the text keys only. */
static int parse_file(struct parser *ps, char *text, int tr, struct strs *t, struct texts *x, struct argtext *args,
                      int *nargs, struct puzzle_def *d)
{
    char *line = text;
    size_t *last = NULL; /* the text a continuation line extends */
    ps->line = 0;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        ps->line++;
        size_t ll = strlen(line);
        if (ll && line[ll - 1] == '\r') line[--ll] = 0;
        if (ll > 2000) return perr(ps, _("a line of %zu bytes; at most 2000"), ll);
        for (char *c = line; *c; c++)
            if ((unsigned char)*c < 0x20 && *c != '\t') return perr(ps, _("a control character; the file is text"));
        char *p = line;
        if (*p == ' ' || *p == '\t') {
            skip_sp((const char **)&p);
            if (!*p) { /* a blank line ends a text */
                last = NULL;
            } else {
                if (!last)
                    return perr(ps, _("an indented line continues the text of title, idea, spec or hint above it; "
                                      "there is none"));
                size_t prev = *last - 1, pl = strlen(t->buf + prev);
                char *joined = malloc(pl + strlen(p) + 2);
                if (!joined) return perr(ps, _("out of memory"));
                sprintf(joined, "%s %s", t->buf + prev, p);
                size_t at = str_add(t, joined, strlen(joined));
                free(joined);
                if (at == (size_t)-1) return perr(ps, _("out of memory"));
                *last = at + 1;
            }
            line = nl ? nl + 1 : NULL;
            continue;
        }
        last = NULL;
        if (*p == 0 || *p == '#') {
            line = nl ? nl + 1 : NULL;
            continue;
        }
        char *colon = strchr(p, ':');
        if (!colon) return perr(ps, _("a line \"key: value\" expected; the keys are %s"), tr ? k_tr_keys : k_keys);
        *colon = 0;
        char *v = colon + 1;
        skip_sp((const char **)&v);
        for (char *e = v + strlen(v); e > v && (e[-1] == ' ' || e[-1] == '\t');) *--e = 0;
        if (tr && !is_text_key(p))
            return perr(ps, _("\"%s\" is not a key of a translation; its keys are %s"), p, k_tr_keys);
        if (!*v) return perr(ps, _("%s: has no value"), p);
        if (strcmp(p, "arg") == 0) {
            if (*nargs >= PUZZLE_MAX_ARGS) return perr(ps, _("arg: at most %d arguments"), PUZZLE_MAX_ARGS);
            if (parse_arg(ps, v, t, &args[*nargs]) != 0) return -1;
            for (int k = 0; k < *nargs; k++)
                if (strcmp(t->buf + args[k].name - 1, t->buf + args[*nargs].name - 1) == 0)
                    return perr(ps, _("arg: %s declared twice"), t->buf + args[k].name - 1);
            (*nargs)++;
        } else if (strcmp(p, "case") == 0) {
            if (parse_case(ps, v, d) != 0) return -1;
        } else {
            int key = text_key(p);
            if (key < 0) return perr(ps, _("\"%s\" is not a key; the keys are %s"), p, k_keys);
            if (x->off[key]) return perr(ps, _("%s: given twice"), p);
            size_t at = str_add(t, v, strlen(v));
            if (at == (size_t)-1) return perr(ps, _("out of memory"));
            x->off[key] = at + 1;
            x->line[key] = ps->line;
            if (is_text_key(p)) last = &x->off[key];
        }
        line = nl ? nl + 1 : NULL;
    }
    return 0;
}

/* A text of t, or NULL. */
#define TXT(t, off) ((off) ? (t).buf + (off) - 1 : NULL)

/* "E" or "E, E" into two expressions (the second "1" when absent). */
static int split_shape(struct parser *ps, struct strs *t, size_t off, size_t out[2], const char *key)
{
    const char *s = t->buf + off - 1;
    const char *comma = strchr(s, ',');
    size_t a = str_add(t, s, comma ? (size_t)(comma - s) : strlen(s));
    if (a == (size_t)-1) return perr(ps, _("out of memory"));
    s = t->buf + off - 1; /* the block may have moved */
    comma = strchr(s, ',');
    if (comma && strchr(comma + 1, ','))
        return perr(ps, _("%s: one or two sizes (x, or x, y); a third is not supported"), key);
    size_t b = comma ? str_add(t, comma + 1, strlen(comma + 1)) : str_add(t, "1", 1);
    if (b == (size_t)-1) return perr(ps, _("out of memory"));
    out[0] = a + 1;
    out[1] = b + 1;
    return 0;
}

/* Evaluate everything at case ci into q; errors name the line. */
static int instantiate(struct parser *ps, const struct puzzle_def *d, int ci, struct puzzle *q, const int lines[6])
{
    const char *why;
    const int *vals = d->vals[ci];
    long threads = 1;
    for (int k = 0; k < 2; k++) {
        ps->line = lines[0];
        long g = eval(d, vals, d->grid[k], &why);
        if (why) return perr(ps, _("grid: %s in \"%s\""), _(why), d->grid[k]);
        if (g < 1 || g > 65535) return perr(ps, _("grid: %ld blocks in case %d; from 1 to 65535"), g, ci + 1);
        ps->line = lines[1];
        long b = eval(d, vals, d->block[k], &why);
        if (why) return perr(ps, _("block: %s in \"%s\""), _(why), d->block[k]);
        if (b < 1 || b > 1024) return perr(ps, _("block: %ld threads in case %d; from 1 to 1024"), b, ci + 1);
        q->grid[k] = (unsigned)g;
        q->block[k] = (unsigned)b;
        threads *= g * b;
    }
    ps->line = lines[1];
    if (q->block[0] * q->block[1] > 1024) return perr(ps, _("block: more than 1024 threads in a block"));
    if (threads > PUZZLE_DEF_MAX_THREADS)
        return perr(ps, _("grid and block: %ld threads in case %d; at most %d"), threads, ci + 1, PUZZLE_DEF_MAX_THREADS);
    for (int k = 0; k < q->nargs; k++) {
        const struct puzzle_def_arg *a = &d->args[k];
        struct puzzle_arg *qa = &q->args[k];
        ps->line = a->line;
        if (qa->kind == PZ_INT) {
            long v = eval(d, vals, a->dim[1], &why);
            if (why) return perr(ps, _("arg %s: %s in \"%s\""), qa->name, _(why), a->dim[1]);
            qa->value = (int)v;
            continue;
        }
        long r = 1, c;
        if (a->dim[0]) {
            r = eval(d, vals, a->dim[0], &why);
            if (why) return perr(ps, _("arg %s: %s in \"%s\""), qa->name, _(why), a->dim[0]);
        }
        c = eval(d, vals, a->dim[1], &why);
        if (why) return perr(ps, _("arg %s: %s in \"%s\""), qa->name, _(why), a->dim[1]);
        if (r < 1 || c < 1 || r * c > PUZZLE_DEF_MAX_FLOATS)
            return perr(ps, _("arg %s: %ld x %ld floats in case %d; from 1 to %d"), qa->name, r, c, ci + 1,
                        PUZZLE_DEF_MAX_FLOATS);
        qa->rows = (int)r;
        qa->cols = (int)c;
    }
    const char *lim[4] = {d->reads, d->writes, d->shared, d->barriers};
    int *to[4] = {&q->max_global_reads, &q->max_global_writes, &q->max_shared_bytes, &q->max_barriers};
    static const char *const keys[4] = {"reads", "writes", "shared", "barriers"};
    for (int k = 0; k < 4; k++) {
        if (!lim[k]) {
            *to[k] = -1;
            continue;
        }
        ps->line = lines[2 + k];
        long v = eval(d, vals, lim[k], &why);
        if (why) return perr(ps, _("%s: %s in \"%s\""), keys[k], _(why), lim[k]);
        if (v < 0 || v > 100000000) return perr(ps, _("%s: %ld in case %d; from 0 up"), keys[k], v, ci + 1);
        *to[k] = (int)v;
    }
    return 0;
}

/* The whole file: texts, arguments, cases, then every case evaluated. */
static int build(struct parser *ps, char *text, int shipped, struct puzzle *p, struct puzzle_def *d)
{
    struct strs t = {0};
    struct texts x;
    struct argtext args[PUZZLE_MAX_ARGS];
    int nargs = 0;
    memset(&x, 0, sizeof x);
    str_add(&t, "", 0);
    if (parse_file(ps, text, 0, &t, &x, args, &nargs, d) != 0) goto fail;
    static const int required[] = {T_NUMBER, T_NAME, T_TITLE, T_KERNEL, T_SPEC, T_GRID, T_BLOCK};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!x.off[required[i]]) {
            perr(ps, _("no %s: (every puzzle.txt has %s)"), k_names[required[i]],
                 "number, name, title, kernel, spec, grid, block, arg, case");
            goto fail;
        }
    if (d->ncases == 0) {
        perr(ps, _("no case: (at least one, like case: n = 100; the first has the stated inputs)"));
        goto fail;
    }
    int nout = 0;
    for (int k = 0; k < nargs; k++) nout += args[k].kind == PZ_OUT;
    if (nout != 1) {
        perr(ps, _("%d outputs; a puzzle has exactly one arg: out NAME [LEN]"), nout);
        goto fail;
    }
    size_t grid[2], block[2];
    ps->line = x.line[T_GRID];
    if (split_shape(ps, &t, x.off[T_GRID], grid, "grid") != 0) goto fail;
    ps->line = x.line[T_BLOCK];
    if (split_shape(ps, &t, x.off[T_BLOCK], block, "block") != 0) goto fail;
    /* the block of strings stops moving: pointers from here on */
    const char *num = TXT(t, x.off[T_NUMBER]), *name = TXT(t, x.off[T_NAME]), *kernel = TXT(t, x.off[T_KERNEL]);
    int number;
    ps->line = x.line[T_NUMBER];
    if (parse_int(num, shipped ? 1 : 100, shipped ? 99 : 999, &number)) {
        perr(ps, shipped ? _("number: \"%s\"; gpulab's own puzzles have numbers from 1 to 99")
                         : _("number: \"%s\"; a puzzle of your own takes a number from 100 to 999 (1 to 99 are "
                             "gpulab's)"),
             num);
        goto fail;
    }
    ps->line = x.line[T_NAME];
    int ok = strlen(name) <= 32 && islower((unsigned char)name[0]);
    for (const char *c = name; *c; c++) ok &= islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '-';
    if (!ok) {
        perr(ps, _("name: \"%s\"; a name is lower-case letters, digits and -, starting with a letter, at most 32"), name);
        goto fail;
    }
    ps->line = x.line[T_KERNEL];
    if (!is_ident(kernel) || strlen(kernel) > 63 || reserved(kernel)) {
        perr(ps, _("kernel: \"%s\" is not a name for a kernel (letters, digits and _, not a word of C)"), kernel);
        goto fail;
    }
    float tol = 0;
    if (x.off[T_TOLERANCE]) {
        ps->line = x.line[T_TOLERANCE];
        if (parse_float(TXT(t, x.off[T_TOLERANCE]), &tol) || tol < 0 || tol > 0.1f) {
            perr(ps, _("tolerance: \"%s\"; a relative tolerance from 0 to 0.1 (1e-4 allows 0.01 %%)"),
                 TXT(t, x.off[T_TOLERANCE]));
            goto fail;
        }
    }
    int need_shared = 0;
    if (x.off[T_NEED_SHARED]) {
        const char *v = TXT(t, x.off[T_NEED_SHARED]);
        ps->line = x.line[T_NEED_SHARED];
        if (strcmp(v, "yes") && strcmp(v, "no")) {
            perr(ps, _("need-shared: \"%s\"; yes (every thread that writes the output reads shared memory) or no"), v);
            goto fail;
        }
        need_shared = strcmp(v, "yes") == 0;
    }
    if (x.off[T_WATCH]) {
        const char *w = TXT(t, x.off[T_WATCH]);
        ps->line = x.line[T_WATCH];
        for (const char *c = w; *c; c++)
            if (!(isalnum((unsigned char)*c) || *c == '/' || *c == '-' || *c == '_')) {
                perr(ps, _("watch: \"%s\" is not a variant's name (like reduce/warp-shuffle)"), w);
                goto fail;
            }
    }
    d->strings = t.buf;
    d->grid[0] = TXT(t, grid[0]);
    d->grid[1] = TXT(t, grid[1]);
    d->block[0] = TXT(t, block[0]);
    d->block[1] = TXT(t, block[1]);
    d->reads = TXT(t, x.off[T_READS]);
    d->writes = TXT(t, x.off[T_WRITES]);
    d->shared = TXT(t, x.off[T_SHARED]);
    d->barriers = TXT(t, x.off[T_BARRIERS]);
    d->hint = TXT(t, x.off[T_HINT]);
    memset(p, 0, sizeof *p);
    p->tolerance = tol;
    p->number = number;
    p->name = name;
    p->title = TXT(t, x.off[T_TITLE]);
    p->kernel = kernel;
    p->spec = TXT(t, x.off[T_SPEC]);
    p->detail = TXT(t, x.off[T_IDEA]);
    p->watch = TXT(t, x.off[T_WATCH]);
    p->nargs = nargs;
    p->def = d;
    p->need_shared = need_shared;
    for (int k = 0; k < nargs; k++) {
        p->args[k].kind = args[k].kind;
        p->args[k].name = TXT(t, args[k].name);
        p->args[k].base = args[k].base;
        p->args[k].step = args[k].step;
        d->args[k].dim[0] = TXT(t, args[k].dim[0]);
        d->args[k].dim[1] = TXT(t, args[k].dim[1]);
        d->args[k].line = args[k].line;
        d->args[k].base = args[k].base;
        d->args[k].step = args[k].step;
        d->args[k].lo = args[k].lo;
        d->args[k].hi = args[k].hi;
    }
    int lines[6] = {x.line[T_GRID], x.line[T_BLOCK], x.line[T_READS], x.line[T_WRITES], x.line[T_SHARED],
                    x.line[T_BARRIERS]};
    for (int ci = d->ncases - 1; ci >= 0; ci--) /* ends with case 1: the puzzle as stated */
        if (instantiate(ps, d, ci, p, lines) != 0) return -1;
    return 0;
fail:
    free(t.buf);
    return -1;
}

int puzzle_def_load(const char *dir, int shipped, const char *tr_dir, struct puzzle *p, char *err, size_t errlen)
{
    struct puzzle_def *d = calloc(1, sizeof *d);
    char path[PATH_MAX + 16];
    size_t len;
    struct stat st;
    if (!d) {
        snprintf(err, errlen, _("out of memory"));
        return -1;
    }
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, _("%s: not a folder (a puzzle of your own is a folder with puzzle.txt)"), dir);
        free(d);
        return -1;
    }
    if (!realpath(dir, d->dir)) snprintf(d->dir, sizeof d->dir, "%s", dir);
    d->shipped = shipped;
    snprintf(path, sizeof path, "%s/puzzle.txt", dir);
    char *text = read_regular(path, PUZZLE_DEF_TEXT_MAX, &len, err, errlen);
    if (!text) {
        free(d);
        return -1;
    }
    struct parser ps = {path, 0, err, errlen, 0};
    struct puzzle q;
    if (build(&ps, text, shipped, &q, d) != 0) {
        free(text);
        free(d);
        return -1;
    }
    free(text);
    /* the translated texts of a shipped puzzle */
    if (tr_dir && snprintf(path, sizeof path, "%s/puzzle.txt", tr_dir) < (int)sizeof path &&
        lstat(path, &st) == 0) {
        text = read_regular(path, PUZZLE_DEF_TEXT_MAX, &len, err, errlen);
        if (!text) return -1;
        struct strs t = {0};
        struct texts x;
        struct argtext args[PUZZLE_MAX_ARGS];
        int nargs = 0;
        struct puzzle_def dummy;
        memset(&x, 0, sizeof x);
        memset(&dummy, 0, sizeof dummy);
        str_add(&t, "", 0);
        struct parser pt = {path, 0, err, errlen, 0};
        int rc = parse_file(&pt, text, 1, &t, &x, args, &nargs, &dummy);
        free(text);
        if (rc != 0) {
            free(t.buf);
            return -1;
        }
        if (x.off[T_TITLE]) q.title = TXT(t, x.off[T_TITLE]);
        if (x.off[T_IDEA]) q.detail = TXT(t, x.off[T_IDEA]);
        if (x.off[T_SPEC]) q.spec = TXT(t, x.off[T_SPEC]);
        if (x.off[T_HINT]) d->hint = TXT(t, x.off[T_HINT]);
        /* t.buf lives as long as the puzzle */
    }
    *p = q;
    return 0;
}

/* ---------------------------------------------------------------- cases */

static unsigned next_rand(unsigned *x)
{
    unsigned v = *x;
    v ^= v << 13;
    v ^= v >> 17;
    v ^= v << 5;
    return *x = v;
}

int puzzle_def_cases(const struct puzzle *p, unsigned seed, struct puzzle_case *c)
{
    const struct puzzle_def *d = p->def;
    char err[256];
    int lines[6] = {0};
    for (int ci = 0; ci < d->ncases; ci++) {
        struct puzzle_case *cs = &c[ci];
        memset(cs, 0, sizeof *cs);
        cs->inst = *p;
        cs->index = ci;
        cs->count = d->ncases;
        cs->n = d->vals[ci][0];
        cs->seed = ci == 0 ? 0 : (seed * 2654435761u + (unsigned)ci * 40503u) | 1u;
        struct parser ps = {"puzzle.txt", 0, err, sizeof err, 0};
        if (instantiate(&ps, d, ci, &cs->inst, lines) != 0) { /* checked at load */
            puzzle_cases_free(c, ci);
            return -1;
        }
        struct puzzle *q = &cs->inst;
        unsigned r = cs->seed;
        int nin = 0;
        for (int k = 0; k < q->nargs; k++) {
            struct puzzle_arg *a = &q->args[k];
            if (a->kind == PZ_INT) continue;
            int len = puzzle_arg_len(a);
            /* a multiple of 256 bytes, with at least 256 bytes to spare */
            cs->alloc[k] = (len + 63) / 64 * 64 + 64;
            cs->front[k] = ci % 2 == 0 ? cs->alloc[k] - len : 64;
            if (a->kind != PZ_IN) continue;
            float *v = malloc((size_t)len * sizeof *v);
            if (!v) {
                puzzle_cases_free(c, ci + 1);
                return -1;
            }
            const struct puzzle_def_arg *da = &d->args[k];
            unsigned span = (unsigned)(da->hi - da->lo + 1);
            for (int i = 0; i < len; i++)
                v[i] = ci == 0 ? da->base + da->step * (float)i : (float)(da->lo + (int)(next_rand(&r) % span));
            cs->in[nin++] = v;
        }
    }
    return d->ncases;
}

void puzzle_def_case_sizes(const struct puzzle *p, int ci, char *buf, size_t len)
{
    const struct puzzle_def *d = p->def;
    size_t o = 0;
    buf[0] = 0;
    for (int k = 0; k < d->nvars && o < len; k++)
        o += (size_t)snprintf(buf + o, len - o, "%s = %d, ", d->vars[k], d->vals[ci][k]);
}

/* ---------------------------------------------------------------- files */

char *puzzle_def_read(const struct puzzle *p, const char *lang, const char *name, size_t *len, char *path,
                      size_t pathlen, char *err, size_t errlen)
{
    const struct puzzle_def *d = p->def;
    if (d->shipped && lang && strcmp(lang, "en") != 0 && strcmp(name, "skeleton.cu") == 0) {
        char ld[PATH_MAX], stem[64];
        struct stat st;
        lesson_dir(lang, ld, sizeof ld);
        puzzle_stem(p, stem, sizeof stem);
        snprintf(path, pathlen, "%s/puzzles/%s/skeleton.cu", ld, stem);
        if (lstat(path, &st) == 0) return read_regular(path, PUZZLE_DEF_CU_MAX, len, err, errlen);
    }
    snprintf(path, pathlen, "%s/%s", d->dir, name);
    return read_regular(path, PUZZLE_DEF_CU_MAX, len, err, errlen);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void puzzle_def_load_shipped(const char *lang, struct puzzle *all, int *n, int cap)
{
    char en[PATH_MAX], pd[PATH_MAX + 16];
    lesson_dir("en", en, sizeof en);
    snprintf(pd, sizeof pd, "%s/puzzles", en);
    DIR *dir = opendir(pd);
    if (!dir) return;
    char *names[128];
    int nn = 0;
    struct dirent *e;
    while ((e = readdir(dir)) && nn < 128)
        if (isdigit((unsigned char)e->d_name[0]) && isdigit((unsigned char)e->d_name[1]) && e->d_name[2] == '-')
            names[nn++] = strdup(e->d_name);
    closedir(dir);
    qsort(names, (size_t)nn, sizeof *names, cmp_str);
    for (int i = 0; i < nn; i++) {
        char d[PATH_MAX * 2], tr[PATH_MAX * 2], ld[PATH_MAX], err[1024];
        snprintf(d, sizeof d, "%s/%s", pd, names[i]);
        lesson_dir(lang, ld, sizeof ld);
        snprintf(tr, sizeof tr, "%s/puzzles/%s", ld, names[i]);
        struct stat st;
        if (names[i] && lstat(d, &st) == 0 && S_ISDIR(st.st_mode) && *n < cap) {
            if (puzzle_def_load(d, 1, strcmp(lang, "en") ? tr : NULL, &all[*n], err, sizeof err) == 0)
                (*n)++;
            else
                fprintf(stderr, "gpulab: %s\n", err); /* a broken shipped puzzle: the tests catch it */
        }
        free(names[i]);
    }
}

const struct puzzle *puzzle_def_open(const char *dir, char *err, size_t errlen)
{
    struct puzzle p;
    char real[PATH_MAX];
    int n;
    const struct puzzle *all = puzzle_all(&n);
    if (realpath(dir, real)) /* one of gpulab's own folders: that puzzle */
        for (int i = 0; i < n; i++)
            if (all[i].def && all[i].def->shipped && strcmp(all[i].def->dir, real) == 0) return &all[i];
    if (puzzle_def_load(dir, 0, NULL, &p, err, errlen) != 0) return NULL;
    const struct puzzle *r = puzzle_register(&p);
    if (!r) snprintf(err, errlen, _("%s: cannot add puzzle %d beside the others (too many opened)"), dir, p.number);
    return r;
}
