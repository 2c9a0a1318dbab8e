/* answer.c - comparing a student's reply with an accepted answer (answer.h).
 *
 * Every string is built through struct sbuf, whose only writer checks the
 * room first: the buffers stay terminated and nothing is written past them,
 * however long the reply. */
#include "repl/lessons/answer.h"

#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#define ANSWER_MAX 256 /* the part of a reply that is compared */
#define UNIT_MAX 64

struct sbuf {
    char *p;
    size_t len, n; /* n + 1 <= len: room for the terminator, always */
};

static void sb_init(struct sbuf *b, char *p, size_t len)
{
    b->p = p;
    b->len = len;
    b->n = 0;
    if (len) p[0] = 0;
}

static void sb_put(struct sbuf *b, char c)
{
    if (b->len == 0 || b->n + 1 >= b->len) return;
    b->p[b->n++] = c;
    b->p[b->n] = 0;
}

static void sb_drop_last(struct sbuf *b)
{
    if (b->n > 0) b->p[--b->n] = 0;
}

static int is_quote(unsigned c)
{
    return c == '"' || c == '`' || c == 0xAB || c == 0xBB /* << >> */ || c == 0x201C || c == 0x201D ||
           c == 0x201E;
}

/* The code point of the UTF-8 character at s in *cp and its length; a byte
 * that does not start a well-formed character is taken as it is (length 1). */
static int utf8_decode(const unsigned char *s, unsigned *cp)
{
    int n = s[0] < 0x80 ? 1 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
          : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    unsigned v = n == 1 ? s[0] : n == 2 ? s[0] & 0x1Fu : n == 3 ? s[0] & 0x0Fu : s[0] & 0x07u;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) n = 0;
        else v = v << 6 | (s[i] & 0x3Fu);
        if (!n) break;
    }
    if (n == 0) {
        *cp = s[0];
        return 1;
    }
    *cp = v;
    return n;
}

static int utf8_encode(unsigned cp, char *out)
{
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) { out[0] = (char)(0xC0 | cp >> 6); out[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12); out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F)); return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18); out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3F)); out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Lower case in every script a lesson is written in (Cyrillic, Latin with
 * diacritics: "Однотонне" is "однотонне", "Übung" is "übung"): towlower of
 * the C.UTF-8 locale, whatever locale the program runs in; ASCII only on a
 * system without that locale. */
static unsigned lower_cp(unsigned c)
{
    static locale_t utf8;
    static int tried;
    if (c < 0x80) return (unsigned)tolower((int)c);
    if (!tried) {
        tried = 1;
        utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    }
    return utf8 ? (unsigned)towlower_l((wint_t)c, utf8) : c;
}

void answer_normalize(const char *in, char *out, size_t len)
{
    struct sbuf b;
    sb_init(&b, out, len);
    if (len == 0) return;
    int space = 0;
    while (*in) {
        unsigned c;
        int len = utf8_decode((const unsigned char *)in, &c);
        in += len;
        if (len == 1 && c >= 0x80) { /* not UTF-8: the byte as it is */
            space = 0;
            sb_put(&b, (char)c);
            continue;
        }
        if (is_quote(c)) continue;
        if (c < 0x80 && isspace((int)c)) {
            space = b.n > 0;
            continue;
        }
        if (space) sb_put(&b, ' ');
        space = 0;
        char u[4];
        int k = utf8_encode(lower_cp(c), u);
        if (b.n + (size_t)k + 1 > b.len) break; /* whole characters only */
        for (int i = 0; i < k; i++) sb_put(&b, u[i]);
    }
    while (b.n > 0 && strchr(".!? ", b.p[b.n - 1])) sb_drop_last(&b);
    static const char *const articles[] = {"the ", "a ", "an "};
    for (int i = 0; i < 3; i++) {
        size_t l = strlen(articles[i]);
        if (b.n > l && strncmp(b.p, articles[i], l) == 0) {
            memmove(b.p, b.p + l, b.n - l + 1);
            b.n -= l;
            break;
        }
    }
}

/* ------------------------------------------------------------ numbers */

static const char *const small_words[] = {
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen"};
static const char *const tens_words[] = {"twenty", "thirty", "forty", "fifty",
                                         "sixty", "seventy", "eighty", "ninety"};

/* The length of the word at s (letters only). */
static size_t word_len(const char *s)
{
    size_t n = 0;
    while (isalpha((unsigned char)s[n])) n++;
    return n;
}

static int word_is(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && strncmp(s, w, n) == 0;
}

/* Number words at *s ("six", "thirty-two", "two hundred", "half"): 1 and the
 * value, *s past them; 0 when there are none. */
static int parse_words(const char **s, double *v)
{
    const char *p = *s, *end = *s;
    double total = 0, cur = 0;
    int any = 0;
    for (;;) {
        size_t n = word_len(p);
        if (n == 0) break;
        int known = 0;
        for (int i = 0; i < 20 && !known; i++)
            if (word_is(p, n, small_words[i])) cur += i, known = 1;
        for (int i = 0; i < 8 && !known; i++)
            if (word_is(p, n, tens_words[i])) cur += 20 + 10 * i, known = 1;
        if (!known && any && word_is(p, n, "hundred")) cur *= 100, known = 1;
        if (!known && any && word_is(p, n, "thousand")) total += cur * 1e3, cur = 0, known = 1;
        if (!known && any && word_is(p, n, "million")) total += cur * 1e6, cur = 0, known = 1;
        if (!known && word_is(p, n, "half")) cur = (any ? cur : 1) * 0.5, known = 1;
        if (!known && any && word_is(p, n, "and")) known = 2; /* "one hundred and five" */
        if (!known) break;
        if (known == 1) {
            any = 1;
            end = p + n;
        }
        p += n;
        if (*p == '-' || *p == ' ') p++;
    }
    if (!any) return 0;
    *v = total + cur;
    *s = end;
    return 1;
}

/* Digits at *s: "3,321,858,913", "1e8", "0.5", "1/2", "64mi". */
static int parse_digits(const char **s, double *v)
{
    const char *p = *s;
    char num[ANSWER_MAX];
    struct sbuf b;
    sb_init(&b, num, sizeof num);
    if (*p == '-' || *p == '+') sb_put(&b, *p++);
    if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1]))) return 0;
    for (; *p; p++) {
        if (isdigit((unsigned char)*p) || *p == '.') sb_put(&b, *p);
        else if ((*p == ',' || *p == '_') && isdigit((unsigned char)p[1]) && b.n > 0) continue;
        else if ((*p == 'e') && (isdigit((unsigned char)p[1]) || ((p[1] == '-' || p[1] == '+') &&
                                                                  isdigit((unsigned char)p[2])))) {
            sb_put(&b, *p++);
            sb_put(&b, *p);
        } else break;
    }
    char *end;
    errno = 0;
    double x = strtod(num, &end);
    if (*end || errno) return 0;
    if (*p == '/' && isdigit((unsigned char)p[1])) { /* a fraction */
        char *e2;
        double d = strtod(p + 1, &e2);
        if (d == 0) return 0;
        x /= d;
        p = e2;
    }
    static const struct { const char *s; double m; } suffix[] = {
        {"ki", 1024.0}, {"mi", 1048576.0}, {"gi", 1073741824.0}};
    for (int i = 0; i < 3; i++)
        if (strncmp(p, suffix[i].s, 2) == 0 && !isalpha((unsigned char)p[2])) {
            x *= suffix[i].m;
            p += 2;
            break;
        }
    *v = x;
    *s = p;
    return 1;
}

typedef struct qty {
    double v;
    int pct;
    char unit[UNIT_MAX];
} qty;

/* A unit's one spelling: plural s gone, a few names for the same thing. */
static void unit_canon(const char *in, char *out, size_t len)
{
    struct sbuf b;
    sb_init(&b, out, len);
    for (; *in; in++) sb_put(&b, *in);
    if (b.n > 3 && b.p[b.n - 1] == 's') sb_drop_last(&b);
    static const struct { const char *from, *to; } same[] = {
        {"millisecond", "ms"}, {"msec", "ms"}, {"second", "s"}, {"sec", "s"},
        {"time", "x"}, {"microsecond", "us"}, {"µs", "us"}};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        if (strcmp(b.p, same[i].from) == 0) {
            sb_init(&b, out, len);
            for (const char *t = same[i].to; *t; t++) sb_put(&b, *t);
            break;
        }
}

/* A normalised text as a number with an optional % and unit: 1, else 0. */
static int parse_qty(const char *s, qty *q)
{
    memset(q, 0, sizeof *q);
    if (!parse_digits(&s, &q->v) && !parse_words(&s, &q->v)) return 0;
    while (*s == ' ') s++;
    if (*s == '%') {
        q->pct = 1;
        s++;
    } else if (strncmp(s, "percent", 7) == 0 && !isalpha((unsigned char)s[7])) {
        q->pct = 1;
        s += 7;
    } else if (strncmp(s, "per cent", 8) == 0 && !isalpha((unsigned char)s[8])) {
        q->pct = 1;
        s += 8;
    }
    while (*s == ' ') s++;
    for (const char *t = s; *t; t++)
        if (isdigit((unsigned char)*t)) return 0; /* "2 of 32": not one quantity */
    unit_canon(s, q->unit, sizeof q->unit);
    return 1;
}

/* Whole numbers must be equal (a sum one off is wrong); others may differ
 * in their last digits (1/3 against 0.333333333333). */
static int same_value(double a, double b)
{
    if (a == floor(a) && b == floor(b)) return a == b;
    return fabs(a - b) <= fmax(fabs(a), fabs(b)) * 1e-9 + 1e-12;
}

static int qty_match(const qty *g, const qty *a)
{
    if (g->unit[0] && a->unit[0] && strcmp(g->unit, a->unit) != 0) return 0;
    /* a percentage may be given as the fraction or as the bare number */
    double gv[2] = {g->v, g->pct ? g->v / 100 : g->v};
    double av[2] = {a->v, a->pct ? a->v / 100 : a->v};
    if (g->pct && a->pct) return same_value(g->v, a->v);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            if (same_value(gv[i], av[j])) return 1;
    return 0;
}

int answer_match(const char *given, const char *accepted)
{
    char g[ANSWER_MAX], a[ANSWER_MAX];
    answer_normalize(given ? given : "", g, sizeof g);
    answer_normalize(accepted ? accepted : "", a, sizeof a);
    if (!g[0]) return 0;
    if (strcmp(g, a) == 0) return 1;
    qty qg, qa;
    if (parse_qty(g, &qg) && parse_qty(a, &qa)) return qty_match(&qg, &qa);
    return 0;
}

int answer_choice(const char *given, const char *const *choices, int n)
{
    char g[ANSWER_MAX];
    answer_normalize(given ? given : "", g, sizeof g);
    const char *p = g;
    if (*p == '(') p++;
    if (isalpha((unsigned char)p[0]) && (p[1] == 0 || (p[1] == ')' && p[2] == 0))) {
        int i = p[0] - 'a';
        return i < n ? i : -1;
    }
    for (int i = 0; i < n; i++)
        if (answer_match(g, choices[i])) return i;
    return -1;
}
