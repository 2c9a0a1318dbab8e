/* parse.c - the tokenizer, sizes, numbers and name lookup (see parse.h). */
#include "repl/parse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "repl/i18n.h"

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------ tokenizer */

/* A growable string and a growable command, local to tok_split. */
struct sbuf {
    char *p;
    size_t n, cap;
};

static int sbuf_putc(struct sbuf *b, char c)
{
    if (b->n + 2 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 32;
        char *p = realloc(b->p, cap);
        if (!p) return -1;
        b->p = p;
        b->cap = cap;
    }
    b->p[b->n++] = c;
    b->p[b->n] = 0;
    return 0;
}

static int cmd_push(struct tok_cmd *c, int *cap, char *word, int pos, int len)
{
    if (c->argc + 2 > *cap) {
        int ncap = *cap ? *cap * 2 : 8;
        char **argv = realloc(c->argv, ncap * sizeof *argv);
        if (!argv) return -1;
        c->argv = argv;
        int *p = realloc(c->pos, ncap * sizeof *p);
        if (!p) return -1;
        c->pos = p;
        int *l = realloc(c->len, ncap * sizeof *l);
        if (!l) return -1;
        c->len = l;
        *cap = ncap;
    }
    c->argv[c->argc] = word;
    c->pos[c->argc] = pos;
    c->len[c->argc] = len;
    c->argc++;
    c->argv[c->argc] = NULL;
    return 0;
}

static void cmd_free(struct tok_cmd *c)
{
    for (int i = 0; i < c->argc; i++) free(c->argv[i]);
    free(c->argv);
    free(c->pos);
    free(c->len);
    memset(c, 0, sizeof *c);
}

static int line_push(struct tok_line *t, int *cap, struct tok_cmd *c)
{
    if (c->argc == 0) {
        cmd_free(c);
        return 0;
    }
    if (t->ncmds + 1 > *cap) {
        int ncap = *cap ? *cap * 2 : 4;
        struct tok_cmd *p = realloc(t->cmds, ncap * sizeof *p);
        if (!p) return -1;
        t->cmds = p;
        *cap = ncap;
    }
    t->cmds[t->ncmds++] = *c;
    memset(c, 0, sizeof *c);
    return 0;
}

void tok_line_free(struct tok_line *t)
{
    if (!t) return;
    for (int i = 0; i < t->ncmds; i++) cmd_free(&t->cmds[i]);
    free(t->cmds);
    t->cmds = NULL;
    t->ncmds = 0;
}

int tok_split(const char *line, struct tok_line *out, char *err, size_t errlen, int *errpos)
{
    memset(out, 0, sizeof *out);
    struct tok_cmd cur = {0};
    int curcap = 0, linecap = 0;
    struct sbuf w = {0};
    int inword = 0, wstart = 0;
    const char *p = line;
    if (errpos) *errpos = -1;

#define FAIL_OOM() do { seterr(err, errlen, _("out of memory")); goto fail; } while (0)
#define END_WORD()                                                            \
    do {                                                                      \
        if (inword) {                                                         \
            char *s = w.p ? w.p : strdup("");                                 \
            if (!s) FAIL_OOM();                                               \
            w.p = NULL; w.n = w.cap = 0;                                      \
            if (cmd_push(&cur, &curcap, s, wstart, (int)(p - line) - wstart) != 0) { \
                free(s);                                                      \
                FAIL_OOM();                                                   \
            }                                                                 \
            inword = 0;                                                       \
        }                                                                     \
    } while (0)

    while (*p) {
        char c = *p;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            END_WORD();
            p++;
            continue;
        }
        if (c == ';') {
            END_WORD();
            if (line_push(out, &linecap, &cur) != 0) FAIL_OOM();
            curcap = 0;
            p++;
            continue;
        }
        if (c == '#' && !inword) break;
        if (!inword) {
            inword = 1;
            wstart = (int)(p - line);
        }
        if (c == '\'') {
            const char *q = p + 1;
            while (*q && *q != '\'') {
                if (sbuf_putc(&w, *q) != 0) FAIL_OOM();
                q++;
            }
            if (!*q) {
                seterr(err, errlen, _("unterminated 'quote': add the closing '"));
                if (errpos) *errpos = (int)(p - line);
                goto fail;
            }
            if (!w.p && sbuf_putc(&w, 0) == 0) w.n = 0; /* "" is a word */
            p = q + 1;
            continue;
        }
        if (c == '"') {
            const char *q = p + 1;
            while (*q && *q != '"') {
                char d = *q;
                if (d == '\\' && q[1]) {
                    q++;
                    switch (*q) {
                    case 'n': d = '\n'; break;
                    case 't': d = '\t'; break;
                    default: d = *q; break;
                    }
                }
                if (sbuf_putc(&w, d) != 0) FAIL_OOM();
                q++;
            }
            if (!*q) {
                seterr(err, errlen, _("unterminated \"quote\": add the closing \""));
                if (errpos) *errpos = (int)(p - line);
                goto fail;
            }
            if (!w.p && sbuf_putc(&w, 0) == 0) w.n = 0;
            p = q + 1;
            continue;
        }
        if (c == '\\' && p[1]) {
            if (sbuf_putc(&w, p[1]) != 0) FAIL_OOM();
            p += 2;
            continue;
        }
        if (sbuf_putc(&w, c) != 0) FAIL_OOM();
        p++;
    }
    END_WORD();
    if (line_push(out, &linecap, &cur) != 0) FAIL_OOM();
    return 0;
fail:
    free(w.p);
    cmd_free(&cur);
    tok_line_free(out);
    return -1;
#undef END_WORD
#undef FAIL_OOM
}

/* ---------------------------------------------------------------- sizes */

/* A small recursive-descent parser over one word. Values are long double:
 * its 64-bit mantissa holds every integer up to 2^64 exactly, so overflow is
 * a comparison, and 1.5Ki or 2.5e6 come out exact. */
struct sp {
    const char *s, *p;
    char *err;
    size_t errlen;
    int failed;
};

#define SP_LIMIT 18446744073709551616.0L /* 2^64: anything above has overflowed */

static void sp_skip(struct sp *x)
{
    while (*x->p == ' ' || *x->p == '\t') x->p++;
}

static void sp_fail(struct sp *x, const char *fmt, ...)
{
    if (x->failed) return;
    x->failed = 1;
    if (!x->err || x->errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->err, x->errlen, fmt, ap);
    va_end(ap);
}

/* A number with an optional suffix: 12, 1_000, 0x1f, 2.5e6, 64Mi, 4k. */
static long double sp_atom(struct sp *x)
{
    sp_skip(x);
    const char *start = x->p;
    long double v = 0;
    if (*x->p == '-') {
        sp_fail(x, _("sizes cannot be negative"));
        return 0;
    }
    if (*x->p == '+') x->p++;
    if (x->p[0] == '0' && (x->p[1] == 'x' || x->p[1] == 'X') && isxdigit((unsigned char)x->p[2])) {
        x->p += 2;
        while (isxdigit((unsigned char)*x->p) || *x->p == '_') {
            if (*x->p != '_') {
                int d = isdigit((unsigned char)*x->p) ? *x->p - '0'
                                                      : tolower((unsigned char)*x->p) - 'a' + 10;
                v = v * 16 + d;
                if (v >= SP_LIMIT) {
                    sp_fail(x, _("too large"));
                    return 0;
                }
            }
            x->p++;
        }
    } else {
        /* First find where the number ends, then copy it (separators
         * dropped) into buf only when it fits: no path writes past buf. */
        char buf[128];
        size_t n = 0;
        int digits = 0;
        const char *q = x->p;
        for (;;) {
            char c = *q;
            if (isdigit((unsigned char)c)) {
                digits++;
                n++;
            } else if (c == '_' && digits) {
                /* digit separator */
            } else if (c == '.') {
                n++;
            } else if ((c == 'e' || c == 'E') && digits &&
                       (isdigit((unsigned char)q[1]) ||
                        ((q[1] == '+' || q[1] == '-') && isdigit((unsigned char)q[2])))) {
                n += 2;
                q++;
            } else {
                break;
            }
            q++;
        }
        if (!digits) {
            if (*x->p)
                sp_fail(x, _("expected a number at \"%s\""), x->p);
            else
                sp_fail(x, _("expected a number after \"%s\""), x->s);
            return 0;
        }
        if (n >= sizeof buf) {
            sp_fail(x, _("a number of %zu characters is too long (at most %zu)"), n, sizeof buf - 1);
            return 0;
        }
        n = 0;
        for (const char *r = x->p; r < q; r++)
            if (*r != '_') buf[n++] = *r;
        buf[n] = 0;
        x->p = q;
        char *end = NULL;
        errno = 0;
        v = strtold(buf, &end);
        if (*end) {
            sp_fail(x, _("\"%.*s\" is not a number"), (int)(x->p - start), start);
            return 0;
        }
        if (errno == ERANGE || v >= SP_LIMIT) {
            sp_fail(x, _("too large"));
            return 0;
        }
    }
    /* suffix */
    static const struct { const char *s; long double m; } suf[] = {
        {"Ki", 1024.0L}, {"Mi", 1048576.0L}, {"Gi", 1073741824.0L},
        {"Ti", 1099511627776.0L}, {"Pi", 1125899906842624.0L},
        {"k", 1e3L}, {"K", 1e3L}, {"M", 1e6L}, {"G", 1e9L}, {"T", 1e12L}, {"P", 1e15L},
    };
    for (size_t i = 0; i < sizeof suf / sizeof suf[0]; i++) {
        size_t l = strlen(suf[i].s);
        if (strncmp(x->p, suf[i].s, l) == 0 && !isalpha((unsigned char)x->p[l])) {
            x->p += l;
            v *= suf[i].m;
            if (v >= SP_LIMIT) {
                sp_fail(x, _("too large"));
                return 0;
            }
            return v;
        }
    }
    if (*x->p == 'm' || *x->p == 'g' || (*x->p == 'K' && x->p[1] == 'I')) {
        sp_fail(x, _("unknown suffix \"%s\": use k, M, G (powers of 10) or Ki, Mi, Gi (powers of 2)"), x->p);
        return 0;
    }
    return v;
}

static int sp_is_whole(long double v)
{
    return v == floorl(v);
}

/* atom [ ^ atom | ** atom | << atom ] */
static long double sp_factor(struct sp *x)
{
    long double v = sp_atom(x);
    if (x->failed) return 0;
    sp_skip(x);
    int op = 0;
    if (*x->p == '^') { op = '^'; x->p += 1; }
    else if (x->p[0] == '*' && x->p[1] == '*') { op = '^'; x->p += 2; }
    else if (x->p[0] == '<' && x->p[1] == '<') { op = '<'; x->p += 2; }
    if (!op) return v;
    long double e = sp_atom(x);
    if (x->failed) return 0;
    if (!sp_is_whole(v) || !sp_is_whole(e)) {
        sp_fail(x, _("powers and shifts need whole numbers in \"%s\""), x->s);
        return 0;
    }
    if (e > 200) {
        sp_fail(x, _("too large"));
        return 0;
    }
    long double base = op == '^' ? v : 2.0L;
    long double r = op == '^' ? 1.0L : v;
    for (int i = 0; i < (int)e; i++) {
        r *= base;
        if (r >= SP_LIMIT) {
            sp_fail(x, _("too large"));
            return 0;
        }
    }
    return r;
}

/* factor ( * factor )* */
static long double sp_expr(struct sp *x)
{
    long double v = sp_factor(x);
    for (;;) {
        if (x->failed) return 0;
        sp_skip(x);
        if (x->p[0] == '*' && x->p[1] != '*') {
            x->p++;
            long double f = sp_factor(x);
            if (x->failed) return 0;
            v *= f;
            if (v >= SP_LIMIT) {
                sp_fail(x, _("too large"));
                return 0;
            }
            continue;
        }
        return v;
    }
}

static int size_core(const char *s, long long min, long long max, long long *out,
                     char *err, size_t errlen, const char *what)
{
    char tmp[256];
    if (!s || !*s) {
        seterr(err, errlen, _("expected %s like %s"), what, PARSE_SIZE_FORMS);
        return -1;
    }
    int neg = 0;
    const char *body = s;
    while (*body == ' ') body++;
    if (*body == '-' && min < 0) {
        neg = 1;
        body++;
    }
    struct sp x = {body, body, tmp, sizeof tmp, 0};
    tmp[0] = 0;
    long double v = sp_expr(&x);
    if (!x.failed) {
        sp_skip(&x);
        if (*x.p) sp_fail(&x, _("unexpected \"%s\" in \"%s\""), x.p, s);
    }
    if (x.failed) {
        /* which of sp_fail's messages it was (compared translated, as written) */
        if (strcmp(tmp, _("sizes cannot be negative")) == 0)
            seterr(err, errlen, _("%s cannot be negative"), what);
        else if (strcmp(tmp, _("too large")) == 0) {
            char m[32];
            parse_fmt_size(max, m, sizeof m);
            seterr(err, errlen, _("too large: at most %s"), m);
        }
        else
            seterr(err, errlen, _("%s; expected %s like %s"), tmp, what, PARSE_SIZE_FORMS);
        return -1;
    }
    if (!sp_is_whole(v)) {
        seterr(err, errlen, _("not a whole number"));
        return -1;
    }
    if (neg) v = -v;
    if (v > (long double)LLONG_MAX || v < (long double)LLONG_MIN) {
        char m[32];
        parse_fmt_size(max, m, sizeof m);
        seterr(err, errlen, _("too large: at most %s"), m);
        return -1;
    }
    long long r = (long long)v;
    if (r < min || r > max) {
        if (r == 0 && min > 0)
            seterr(err, errlen, _("%s must not be zero (allowed: %lld..%lld)"), what, min, max);
        else
            seterr(err, errlen, _("%s %lld is out of range (allowed: %lld..%lld)"), what, r, min, max);
        return -1;
    }
    *out = r;
    return 0;
}

int parse_size(const char *s, long long min, long long max, long long *out,
               char *err, size_t errlen)
{
    return size_core(s, min, max, out, err, errlen, _("a size"));
}

int parse_int(const char *s, long long min, long long max, long long *out,
              char *err, size_t errlen)
{
    return size_core(s, min, max, out, err, errlen, _("a number"));
}

int parse_double(const char *s, double *out, char *err, size_t errlen)
{
    if (!s || !*s) {
        seterr(err, errlen, _("expected a number like 1.23, -4 or 1e-3"));
        return -1;
    }
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end) {
        seterr(err, errlen, _("\"%s\" is not a number; expected a number like 1.23, -4 or 1e-3"), s);
        return -1;
    }
    if (errno == ERANGE || !isfinite(v)) {
        seterr(err, errlen, _("\"%s\" is out of range; expected a finite number"), s);
        return -1;
    }
    *out = v;
    return 0;
}

int parse_bool(const char *s, int *out, char *err, size_t errlen)
{
    static const char *const yes[] = {"on", "yes", "true", "1"};
    static const char *const no[] = {"off", "no", "false", "0"};
    for (int i = 0; i < 4; i++) {
        if (s && strcasecmp(s, yes[i]) == 0) { *out = 1; return 0; }
        if (s && strcasecmp(s, no[i]) == 0) { *out = 0; return 0; }
    }
    seterr(err, errlen, _("expected on or off, not \"%s\""), s ? s : "");
    return -1;
}

int parse_is_auto(const char *s)
{
    return s && strcasecmp(s, "auto") == 0;
}

int parse_dims(const char *s, long long min, long long max, long long *x, long long *y,
               char *err, size_t errlen)
{
    const char *sep = strchr(s, 'x');
    if (!sep) sep = strchr(s, 'X');
    if (sep && sep != s && !(sep == s + 1 && s[0] == '0')) {
        char a[64];
        size_t l = (size_t)(sep - s);
        if (l >= sizeof a) {
            seterr(err, errlen, _("\"%s\" is too long"), s);
            return -1;
        }
        memcpy(a, s, l);
        a[l] = 0;
        if (parse_int(a, min, max, x, err, errlen) != 0) return -1;
        if (parse_int(sep + 1, min, max, y, err, errlen) != 0) return -1;
        return 0;
    }
    *y = 0;
    return parse_int(s, min, max, x, err, errlen);
}

/* ---------------------------------------------------------- name lookup */

int parse_lookup(const char *word, const char *const *names, int count,
                 int *amb, int namb, int *namb_out)
{
    size_t wl = strlen(word);
    int found = -1, n = 0;
    for (int i = 0; i < count; i++)
        if (names[i] && strcmp(word, names[i]) == 0) return i;
    if (wl == 0) return -1;
    for (int i = 0; i < count; i++) {
        if (names[i] && strncmp(word, names[i], wl) == 0) {
            if (amb && n < namb) amb[n] = i;
            n++;
            found = i;
        }
    }
    if (namb_out) *namb_out = n;
    if (n == 1) return found;
    return n == 0 ? -1 : -2;
}

int parse_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return 100;
    int d[65][65];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int c = d[i - 1][j - 1] + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            if (d[i - 1][j] + 1 < c) c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c) c = d[i][j - 1] + 1;
            d[i][j] = c;
        }
    return d[la][lb];
}

void parse_fmt_ms(double ms, char *buf, size_t len)
{
    if (ms < 0.01) snprintf(buf, len, "%.4f", ms);
    else if (ms < 10) snprintf(buf, len, "%.3f", ms);
    else if (ms < 100) snprintf(buf, len, "%.2f", ms);
    else snprintf(buf, len, "%.1f", ms);
}

void parse_fmt_size(long long n, char *buf, size_t len)
{
    static const char *const suf[] = {"Ki", "Mi", "Gi", "Ti"};
    if (n >= 1024) {
        int u = -1;
        long long m = n;
        while (m % 1024 == 0 && m >= 1024 && u < 3) {
            m /= 1024;
            u++;
        }
        if (u >= 0 && m < 10000) { /* 64Mi, not 32400Ki */
            snprintf(buf, len, "%lld%s", m, suf[u]);
            return;
        }
    }
    snprintf(buf, len, "%lld", n);
}
