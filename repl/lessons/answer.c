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
#include <stdio.h>
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

/* Digits at *s: "3,321,858,913", "1e8", "0.5", "1/2", "64mi", "4,8". A
 * comma between digits is a thousands separator where every group after it
 * has three digits; one comma in a number without a point, not followed by
 * three digits, is a decimal comma ("4,8" as the German, Slovenian and
 * Ukrainian lessons write 4.8). "1,234" reads both ways: *v2 is the other
 * reading (else *v2 = *v). */
static int parse_digits(const char **s, double *v, double *v2)
{
    const char *p = *s;
    char num[ANSWER_MAX], alt[ANSWER_MAX];
    struct sbuf b, c;
    sb_init(&b, num, sizeof num);
    sb_init(&c, alt, sizeof alt);
    if (*p == '-' || *p == '+') {
        sb_put(&c, *p);
        sb_put(&b, *p++);
    }
    if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1]))) return 0;
    int commas = 0, groups3 = 1, point = 0;
    for (; *p; p++) {
        if (isdigit((unsigned char)*p) || *p == '.') {
            if (*p == '.') point = 1;
            sb_put(&b, *p);
            sb_put(&c, *p);
        } else if ((*p == ',' || *p == '_') && isdigit((unsigned char)p[1]) && b.n > 0) {
            if (*p == ',') {
                commas++;
                size_t k = 1;
                while (isdigit((unsigned char)p[k])) k++;
                if (k - 1 != 3) groups3 = 0;
                sb_put(&c, '.');
            }
            continue;
        } else if ((*p == 'e') && (isdigit((unsigned char)p[1]) || ((p[1] == '-' || p[1] == '+') &&
                                                                  isdigit((unsigned char)p[2])))) {
            sb_put(&b, *p);
            sb_put(&c, *p++);
            sb_put(&b, *p);
            sb_put(&c, *p);
        } else break;
    }
    int decimal = commas == 1 && !point; /* the comma may be a decimal mark */
    if (commas && !groups3 && !decimal) return 0; /* "1,23,4": neither reading */
    char *end;
    errno = 0;
    double x = strtod(commas && !groups3 ? alt : num, &end);
    if (*end || errno) return 0;
    double y = x;
    if (decimal && groups3) {
        y = strtod(alt, &end);
        if (*end || errno) y = x;
    }
    if (*p == '/' && isdigit((unsigned char)p[1])) { /* a fraction */
        char *e2;
        double d = strtod(p + 1, &e2);
        if (d == 0) return 0;
        x /= d;
        y /= d;
        p = e2;
    }
    static const struct { const char *s; double m; } suffix[] = {
        {"ki", 1024.0}, {"mi", 1048576.0}, {"gi", 1073741824.0}};
    for (int i = 0; i < 3; i++)
        if (strncmp(p, suffix[i].s, 2) == 0 && !isalpha((unsigned char)p[2])) {
            x *= suffix[i].m;
            y *= suffix[i].m;
            p += 2;
            break;
        }
    *v = x;
    *v2 = y;
    *s = p;
    return 1;
}

typedef struct qty {
    double v, v2; /* v2: the other reading of a comma ("1,234"), else v */
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
    if (!parse_digits(&s, &q->v, &q->v2)) {
        if (!parse_words(&s, &q->v)) return 0;
        q->v2 = q->v;
    }
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

static int qty_match_one(const qty *g, const qty *a)
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

/* Either reading of the reply's comma against the accepted value. */
static int qty_match(const qty *g, const qty *a)
{
    if (qty_match_one(g, a)) return 1;
    if (g->v2 == g->v) return 0;
    qty other = *g;
    other.v = g->v2;
    return qty_match_one(&other, a);
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

/* The words of a normalised text (split at spaces and punctuation), at
 * most max, each a pointer into buf (which is overwritten). */
static int split_words(char *buf, char **w, int max)
{
    int n = 0;
    char *p = buf;
    while (*p && n < max) {
        while (*p && (unsigned char)*p < 0x80 && !isalnum((unsigned char)*p)) *p++ = 0;
        if (!*p) break;
        w[n++] = p;
        while (*p && ((unsigned char)*p >= 0x80 || isalnum((unsigned char)*p))) p++;
    }
    return n;
}

/* Two words are the same word: equal, or the same stem (a common start of
 * at least 5 bytes and most of the shorter one: "halves" and "halving",
 * "потоків" and "потоки"). */
static int same_word(const char *a, const char *b)
{
    if (strcmp(a, b) == 0) return 1;
    size_t la = strlen(a), lb = strlen(b), k = 0;
    while (a[k] && a[k] == b[k]) k++;
    size_t shorter = la < lb ? la : lb;
    return k >= 5 && k * 10 >= shorter * 7;
}

#define WORDS_MAX 64

/* Does the reply say choice i in other words? Its words of 3 bytes or more
 * that some choice has must, all those naming only one choice, name i,
 * at least one of them must, and most of the reply's long words must be
 * in choice i. A reply that is a part (4 bytes or more) of one choice
 * alone names it too. -1 when it names no single choice. */
static int paraphrase(const char *g, const char *const *choices, int n)
{
    if (strlen(g) >= 4) {
        int hit = -1, hits = 0;
        for (int i = 0; i < n; i++) {
            char c[ANSWER_MAX];
            answer_normalize(choices[i], c, sizeof c);
            if (strstr(c, g)) hit = i, hits++;
        }
        if (hits == 1) return hit;
    }
    char gb[ANSWER_MAX], cb[26][ANSWER_MAX];
    char *gw[WORDS_MAX], *cw[26][WORDS_MAX];
    int gn, cn[26];
    if (n > 26) n = 26;
    snprintf(gb, sizeof gb, "%s", g);
    gn = split_words(gb, gw, WORDS_MAX);
    for (int i = 0; i < n; i++) {
        answer_normalize(choices[i], cb[i], sizeof cb[i]);
        cn[i] = split_words(cb[i], cw[i], WORDS_MAX);
    }
    int pick = -1, longw = 0, in_pick[26] = {0};
    for (int k = 0; k < gn; k++) {
        if (strlen(gw[k]) < 3) continue;
        longw++;
        int where = -1, count = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < cn[i]; j++)
                if (same_word(gw[k], cw[i][j])) {
                    in_pick[i]++;
                    if (where != i) count++;
                    where = i;
                    break;
                }
        if (count == 1) {
            if (pick >= 0 && pick != where) return -1; /* words of two choices */
            pick = where;
        }
    }
    if (pick < 0 || longw == 0) return -1;
    return in_pick[pick] * 3 >= longw * 2 ? pick : -1;
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
    return paraphrase(g, choices, n);
}
