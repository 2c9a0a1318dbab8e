/* translate_lex.c - the source pass's tokens and edits: a student's file
 * cut into tokens (comments skipped, a preprocessor line and a string one
 * token each, `<<<` and `>>>` their own), the edits that replace a range of
 * the source while keeping its line count, and the refusals listed with
 * their line. translate.c finds what to rewrite in the tokens. */
#define _GNU_SOURCE
#include "kernels/program/translate.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- tokens */

static void tok_add(tx *x, int kind, size_t s, size_t e, int line)
{
    if (x->nt == x->capt) {
        int cap = x->capt ? x->capt * 2 : 1024;
        tok *n = realloc(x->t, (size_t)cap * sizeof *n);
        if (!n) { x->oom = 1; return; }
        x->t = n;
        x->capt = cap;
    }
    x->t[x->nt++] = (tok){kind, s, e, line};
}

void tx_tokenize(tx *x)
{
    const char *p = x->src;
    size_t n = x->len, i = 0;
    int line = 1, bol = 1, lopen = 0;
    while (i < n && !x->oom) {
        char c = p[i];
        if (c == '\n') { line++; bol = 1; i++; continue; }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { i++; continue; }
        if (c == '/' && i + 1 < n && p[i + 1] == '/') {
            while (i < n && p[i] != '\n') i++;
            continue;
        }
        if (c == '/' && i + 1 < n && p[i + 1] == '*') {
            i += 2;
            while (i + 1 < n && !(p[i] == '*' && p[i + 1] == '/')) { if (p[i] == '\n') line++; i++; }
            i = i + 2 < n ? i + 2 : n;
            continue;
        }
        if (c == '#' && bol) {
            size_t s = i;
            int l0 = line;
            while (i < n && p[i] != '\n') {
                if (p[i] == '\\' && i + 1 < n && p[i + 1] == '\n') { i += 2; line++; continue; }
                if (p[i] == '/' && i + 1 < n && p[i + 1] == '*') { /* a comment inside a directive */
                    i += 2;
                    while (i + 1 < n && !(p[i] == '*' && p[i + 1] == '/')) { if (p[i] == '\n') line++; i++; }
                    i = i + 2 < n ? i + 2 : n;
                    continue;
                }
                i++;
            }
            tok_add(x, T_PP, s, i, l0);
            if (x->line_directives) {
                /* `#line N "file"`: the next line is N; the first line of a
                 * translated text is its own `#line 1`, so a text's line k
                 * counts as k + 1 here, as before any directive */
                const char *d = p + s + 1;
                while (d < p + i && (*d == ' ' || *d == '\t')) d++;
                if (p + i - d > 5 && strncmp(d, "line", 4) == 0 && (d[4] == ' ' || d[4] == '\t')) {
                    long v = strtol(d + 5, NULL, 10);
                    if (v > 0 && v < 10000000) line = (int)v;
                }
            }
            continue;
        }
        bol = 0;
        size_t s = i;
        if (isalpha((unsigned char)c) || c == '_') {
            while (i < n && (isalnum((unsigned char)p[i]) || p[i] == '_')) i++;
            /* raw string literal R"delim( ... )delim" */
            if (i < n && p[i] == '"' && i - s <= 3 && p[i - 1] == 'R') {
                size_t d0 = i + 1, d1 = d0;
                while (d1 < n && p[d1] != '(') d1++;
                size_t dl = d1 - d0;
                i = d1 + 1;
                while (i < n) {
                    if (p[i] == ')' && i + 1 + dl < n && strncmp(p + i + 1, p + d0, dl) == 0 && p[i + 1 + dl] == '"') {
                        i += dl + 2;
                        break;
                    }
                    if (p[i] == '\n') line++;
                    i++;
                }
                tok_add(x, T_STR, s, i, line);
                continue;
            }
            if (i < n && (p[i] == '"' || p[i] == '\'') && i - s <= 2) {
                /* u8"..", L'x' prefixes: fall through to the literal below */
            } else {
                tok_add(x, T_IDENT, s, i, line);
                continue;
            }
            c = p[i];
        }
        if (isdigit((unsigned char)c) || (c == '.' && i + 1 < n && isdigit((unsigned char)p[i + 1]))) {
            while (i < n && (isalnum((unsigned char)p[i]) || p[i] == '.' || p[i] == '\'' ||
                             ((p[i] == '+' || p[i] == '-') && (p[i - 1] == 'e' || p[i - 1] == 'E' ||
                                                                p[i - 1] == 'p' || p[i - 1] == 'P'))))
                i++;
            tok_add(x, T_NUM, s, i, line);
            continue;
        }
        if (c == '"' || c == '\'') {
            char q = c;
            i++;
            while (i < n && p[i] != q && p[i] != '\n') {
                if (p[i] == '\\' && i + 1 < n) i++;
                i++;
            }
            if (i < n && p[i] == q) i++;
            tok_add(x, q == '"' ? T_STR : T_CHR, s, i, line);
            continue;
        }
        if (c == '<' && i + 2 < n && p[i + 1] == '<' && p[i + 2] == '<') {
            tok_add(x, T_LOPEN, i, i + 3, line);
            lopen++;
            i += 3;
            continue;
        }
        if (lopen > 0 && c == '>' && i + 2 < n && p[i + 1] == '>' && p[i + 2] == '>') {
            tok_add(x, T_LCLOSE, i, i + 3, line);
            lopen--;
            i += 3;
            continue;
        }
        if ((c == ':' && i + 1 < n && p[i + 1] == ':') || (c == '-' && i + 1 < n && p[i + 1] == '>') ||
            (c == '>' && i + 1 < n && p[i + 1] == '>') || (c == '<' && i + 1 < n && p[i + 1] == '<')) {
            tok_add(x, T_PUNCT, i, i + 2, line);
            i += 2;
            continue;
        }
        tok_add(x, T_PUNCT, i, i + 1, line);
        i++;
    }
}

int tx_is(const tx *x, int k, const char *word)
{
    if (k < 0 || k >= x->nt) return 0;
    size_t l = strlen(word);
    return x->t[k].e - x->t[k].s == l && strncmp(x->src + x->t[k].s, word, l) == 0;
}

int tx_is_word_of(const tx *x, int k, const char *const *words)
{
    for (int w = 0; words[w]; w++)
        if (tx_is(x, k, words[w])) return 1;
    return 0;
}

void tx_text_of(const tx *x, int a, int b, char *buf, size_t len)
{
    /* tokens a..b-1, with the source's spacing (newlines become spaces) */
    buf[0] = 0;
    if (a >= b) return;
    size_t s = x->t[a].s, e = x->t[b - 1].e, o = 0;
    for (size_t i = s; i < e && o + 1 < len; i++) buf[o++] = x->src[i] == '\n' ? ' ' : x->src[i];
    buf[o] = 0;
}

/* ------------------------------------------------------------------ edits */

void tx_edit_add(tx *x, size_t s, size_t e, const char *fmt, ...)
{
    if (x->ned == x->caped) {
        int cap = x->caped ? x->caped * 2 : 64;
        edit *n = realloc(x->ed, (size_t)cap * sizeof *n);
        if (!n) { x->oom = 1; return; }
        x->ed = n;
        x->caped = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    char *text = NULL;
    if (vasprintf(&text, fmt, ap) < 0) text = NULL;
    va_end(ap);
    if (!text) { x->oom = 1; return; }
    /* keep the line count: the newlines of what is replaced follow the text */
    size_t nl = 0;
    for (size_t i = s; i < e; i++) nl += x->src[i] == '\n';
    if (nl) {
        size_t l = strlen(text);
        char *t2 = realloc(text, l + nl + 1);
        if (!t2) { free(text); x->oom = 1; return; }
        memset(t2 + l, '\n', nl);
        t2[l + nl] = 0;
        text = t2;
    }
    x->ed[x->ned] = (edit){s, e, text, x->edit_only, x->ned};
    x->ned++;
}

void tx_issue(tx *x, int line, const char *fmt, ...)
{
    prog_source *o = x->out;
    if (o->nissues >= PROG_MAX_ISSUES) return;
    for (int i = 0; i < o->nissues; i++) /* one message per line is enough */
        if (o->issues[i].line == line && strcmp(o->issues[i].file, x->shown) == 0) return;
    prog_issue *is_ = &o->issues[o->nissues++];
    snprintf(is_->file, sizeof is_->file, "%s", x->shown);
    is_->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(is_->msg, sizeof is_->msg, fmt, ap);
    va_end(ap);
}
