/* compile_log.c - the compiler's messages about a student's program, in the
 * student's terms.
 *
 * The simulator's build compiles the source pass's copies of the files with
 * gpulab's runtime included first. Each copy starts with #line naming the
 * student's file and keeps every line where it was, so the compiler already
 * names the right file and line; what it cannot know is the column on a
 * line the pass rewrote (a launch, a __shared__ declaration), nor that its
 * notes about gpulab's own headers and macros mean nothing to the student.
 * Here the columns go back to the student's text and those notes go. */
#define _GNU_SOURCE
#include "kernels/program/program.h"
#include "kernels/program/program_build.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Line n (1-based) of text: its start, its length in *len; NULL past the end. */
static const char *nth_line(const char *text, int n, size_t *len)
{
    const char *p = text;
    for (int i = 1; i < n && p; i++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p || !*p) return NULL;
    *len = strcspn(p, "\n");
    return p;
}

/* The first line of a translated text that its #line directives number n
 * (a __host__ __device__ function's device twin repeats its lines after
 * it): its start, its length in *len; NULL when none is. */
static const char *source_line(const char *text, int n, size_t *len)
{
    int ln = 0; /* the number of the line p starts; 0 before the first #line */
    for (const char *p = text; p && *p;) {
        size_t l = strcspn(p, "\n");
        const char *q = p;
        while (q < p + l && (*q == ' ' || *q == '\t')) q++;
        if (q < p + l && *q == '#') {
            q++;
            while (q < p + l && (*q == ' ' || *q == '\t')) q++;
            if (p + l - q > 5 && strncmp(q, "line", 4) == 0 && (q[4] == ' ' || q[4] == '\t')) {
                ln = atoi(q + 5);
                p = p[l] ? p + l + 1 : NULL;
                continue;
            }
        }
        if (ln == n) {
            *len = l;
            return p;
        }
        if (ln) ln++;
        p = p[l] ? p + l + 1 : NULL;
    }
    return NULL;
}

/* The student's column of column col (1-based) of the translated line t,
 * whose original is o: the two share a prefix and a suffix around what the
 * pass replaced; a column inside the replacement is the replaced text's
 * first. */
static int original_column(const char *o, size_t ol, const char *t, size_t tl, int col)
{
    size_t pre = 0, suf = 0;
    while (pre < ol && pre < tl && o[pre] == t[pre]) pre++;
    while (suf < ol - pre && suf < tl - pre && o[ol - 1 - suf] == t[tl - 1 - suf]) suf++;
    size_t c = (size_t)(col > 0 ? col - 1 : 0);
    if (c < pre) return col;
    if (c >= tl - suf) return (int)(c - (tl - ol)) + 1;
    return (int)pre + 1;
}

/* "path:line:col: kind: ..." : its parts; 0 when the line is not one. */
static int diag_parts(const char *line, size_t len, size_t *plen, int *ln, int *col, const char **rest)
{
    for (size_t i = 0; i + 1 < len; i++) {
        if (line[i] != ':' || !isdigit((unsigned char)line[i + 1])) continue;
        char *e;
        long l = strtol(line + i + 1, &e, 10);
        if (*e != ':') continue;
        long c = 0;
        if (isdigit((unsigned char)e[1])) {
            c = strtol(e + 1, &e, 10);
            if (*e != ':') continue;
        }
        *plen = i;
        *ln = (int)l;
        *col = (int)c;
        *rest = e + 1;
        return 1;
    }
    return 0;
}

int prog_log_snippet(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && line[i] == ' ') i++;
    while (i < len && isdigit((unsigned char)line[i])) i++;
    while (i < len && line[i] == ' ') i++;
    return i < len && line[i] == '|' && i > 0;
}

static void put(char *out, size_t cap, size_t *o, const char *s, size_t n)
{
    if (*o + n + 1 > cap) n = cap > *o + 1 ? cap - *o - 1 : 0;
    memcpy(out + *o, s, n);
    *o += n;
    out[*o] = 0;
}

/* gpulab's own names in a message: the CUDA names the student wrote */
static void put_clean(char *out, size_t cap, size_t *o, const char *s, size_t n)
{
    static const struct { const char *from, *to; } names[] = {
        {"gpulab_sim_cg::", "cooperative_groups::"}, {"::gpulab_sim::", ""}, {"gpulab_sim::", ""},
        {"sim_hd_", ""}, {NULL, NULL}};
    size_t i = 0;
    while (i < n) {
        int hit = 0;
        for (int k = 0; names[k].from; k++) {
            size_t fl = strlen(names[k].from);
            if (i + fl <= n && strncmp(s + i, names[k].from, fl) == 0) {
                put(out, cap, o, names[k].to, strlen(names[k].to));
                i += fl;
                hit = 1;
                break;
            }
        }
        if (!hit) put(out, cap, o, s + i++, 1);
    }
}

/* A CUDA name or header the compiler did not find: what it means, not
 * only "not declared" */
static void cuda_missing(const char *line, size_t len, char *out, size_t cap, size_t *o)
{
    static const char *const forms[] = {"' was not declared", "' is not a member of", "' has not been declared",
                                        "' does not name a type", NULL};
    const char *hit = NULL;
    for (int k = 0; forms[k] && !hit; k++) hit = memmem(line, len, forms[k], strlen(forms[k]));
    const char *q = NULL;
    if (hit) {
        for (const char *c = hit - 1; c >= line; c--)
            if (*c == '\'') { q = c + 1; break; }
    }
    char name[96] = "";
    if (q && hit - q > 0 && hit - q < (long)sizeof name) snprintf(name, sizeof name, "%.*s", (int)(hit - q), q);
    const char *nf = memmem(line, len, ": No such file or directory", 27);
    if (nf) {
        const char *fe = memmem(line, len, "fatal error: ", 13);
        if (fe && nf > fe + 13) snprintf(name, sizeof name, "%.*s", (int)(nf - fe - 13), fe + 13);
    }
    /* the driver API: cuInit, cuMemCreate; CUcontext, CUresult, CU_MEM_... */
    int driver = (name[0] == 'c' && name[1] == 'u' && name[2] >= 'A' && name[2] <= 'Z') ||
                 (name[0] == 'C' && name[1] == 'U' && ((name[2] >= 'a' && name[2] <= 'z') || name[2] == '_'));
    int cuda = !strncmp(name, "cuda", 4) || !strncmp(name, "__", 2) || !strncmp(name, "nv", 2) ||
               !strncmp(name, "make_cuda", 9) || driver;
    if (!name[0] || !cuda) return;
    char note[512];
    int n;
    if (driver)
        n = snprintf(note, sizeof note,
                     "note: %s is a part of the CUDA driver API that gpulab's simulator does not have (of the "
                     "driver API it has cuInit, the device, its primary context, cuMemAlloc and virtual memory "
                     "management); set backend gpu runs the program on a GPU\n",
                     name);
    else
        n = snprintf(note, sizeof note,
                     "note: %s is CUDA that gpulab's simulator does not provide (docs/programs.md lists what it has); "
                     "set backend gpu runs the program on a GPU\n",
                     name);
    put(out, cap, o, note, (size_t)n);
}

/* A line that opens the compiler's messages about one function. */
static int function_header(const char *line, size_t len)
{
    return (memmem(line, len, ": In function '", 15) || memmem(line, len, ": In member function '", 22) ||
            memmem(line, len, ": In static member function '", 29)) &&
           len >= 2 && line[len - 1] == ':';
}

/* An error or a warning, not a note or a line of context. */
static int primary(const char *line, size_t len)
{
    return memmem(line, len, ": error:", 8) || memmem(line, len, ": warning:", 10) ||
           memmem(line, len, ": fatal error:", 14);
}

/* The messages about a __host__ __device__ function's device twin
 * (translate.c) repeat those about the function itself, name and all once
 * put_clean has taken sim_hd_ off: an error or warning said before goes,
 * with its notes and the lines that show it, and so does a function's
 * heading when nothing under it is left. */
static void drop_repeated(char *out)
{
    char *w = out, *head = NULL; /* head: a heading not yet kept (its text) */
    size_t headl = 0;
    int dropping = 0;
    for (char *l = out; *l;) {
        size_t len = strcspn(l, "\n"), full = len + (l[len] ? 1 : 0);
        char *next = l + full;
        if (function_header(l, len)) {
            head = l;
            headl = full;
            dropping = 0;
            l = next;
            continue;
        }
        if (primary(l, len)) {
            dropping = 0;
            for (char *p = out; p + len <= w && !dropping; p = memchr(p, '\n', (size_t)(w - p)) ? (char *)memchr(p, '\n', (size_t)(w - p)) + 1 : w)
                dropping = memcmp(p, l, len) == 0 && (p + len == w || p[len] == '\n');
        }
        if (!dropping) {
            if (head) {
                /* the heading first (it lies before l, so at or after w) */
                memmove(w, head, headl);
                w += headl;
                head = NULL;
            }
            memmove(w, l, full);
            w += full;
        }
        l = next;
    }
    *w = 0;
}

/* A line of the compiler's template backtrace: where an instantiation
 * came from, not an error of its own. */
static int instantiation_step(const char *msg, size_t len)
{
    while (len && *msg == ' ') msg++, len--;
    static const char *const steps[] = {"required from", "required by substitution", "recursively required",
                                        "In instantiation of", "[ skipping", NULL};
    for (int k = 0; steps[k]; k++)
        if (len >= strlen(steps[k]) && strncmp(msg, steps[k], strlen(steps[k])) == 0) return 1;
    return 0;
}

void prog_tidy_log(const char *in, char *out, size_t cap, const struct prog_unit *u, int nu,
                   const char *const *runtime)
{
    size_t o = 0;
    out[0] = 0;
    int dropping = 0;   /* the snippet lines of a dropped note */
    int fixed_col = 0;  /* the caret of the last diagnostic, moved to this column (0: as is) */
    int explained = 0;  /* a static_assert of the runtime said what was wrong */
    for (const char *line = in; *line;) {
        size_t len = strcspn(line, "\n");
        const char *next = line[len] ? line + len + 1 : line + len;
        size_t plen;
        int ln, col;
        const char *rest;
        if (prog_log_snippet(line, len)) {
            if (!dropping) {
                const char *bar = memchr(line, '|', len);
                int caret = 1;
                for (const char *c = bar + 1; c < line + len; c++)
                    if (*c != ' ' && *c != '~' && *c != '^' && *c != '+') caret = 0;
                if (caret && fixed_col > 0) {
                    /* the caret under the student's column */
                    put(out, cap, &o, line, (size_t)(bar - line) + 1);
                    for (int k = 0; k < fixed_col; k++) put(out, cap, &o, " ", 1);
                    put(out, cap, &o, "^\n", 2);
                } else if (fixed_col > 0 && !isdigit((unsigned char)line[strspn(line, " ")])) {
                    /* a fix-it hint placed in the rewritten line: it would
                     * stand in the wrong place */
                } else {
                    put_clean(out, cap, &o, line, len);
                    put(out, cap, &o, "\n", 1);
                }
            }
            line = next;
            continue;
        }
        dropping = 0;
        fixed_col = 0;
        /* gpulab's runtime: the include chain and its notes */
        int ours = memmem(line, len, "<command-line>", 14) != NULL;
        for (int k = 0; runtime[k] && !ours; k++) ours = memmem(line, len, runtime[k], strlen(runtime[k])) != NULL;
        if (ours) {
            if (diag_parts(line, len, &plen, &ln, &col, &rest) &&
                !(rest < line + len && memmem(rest, (size_t)(line + len - rest), " note:", 6))) {
                /* an error in the runtime's own text (a static_assert that
                 * explains a misuse): its message, without the path; the
                 * errors that follow from the same misuse are the runtime's
                 * insides, and so are the runtime's steps of a template's
                 * instantiation ("required from" a function of the shim:
                 * the student's own line says "required from here") */
                if (!explained && rest < line + len && !instantiation_step(rest + 1, (size_t)(line + len - rest - 1))) {
                    put_clean(out, cap, &o, rest + 1, (size_t)(line + len - rest - 1));
                    put(out, cap, &o, "\n", 1);
                }
                explained |= memmem(rest, (size_t)(line + len - rest), "static assertion", 16) != NULL;
                dropping = 1;
            } else {
                dropping = 1;
            }
            line = next;
            continue;
        }
        if (diag_parts(line, len, &plen, &ln, &col, &rest)) {
            const char *r = rest;
            size_t rl = (size_t)(line + len - rest);
            if (memmem(r, rl, " note:", 6) && (memmem(r, rl, "SIM_", 4) || memmem(r, rl, "sim_", 4))) {
                dropping = 1; /* "in expansion of macro 'SIM_SHARED'" */
                line = next;
                continue;
            }
            if (col > 0)
                for (int i = 0; i < nu; i++) {
                    if (strlen(u[i].path) != plen || strncmp(u[i].path, line, plen) != 0 || !u[i].text) continue;
                    size_t len_o, len_t;
                    char *orig = prog_read_file(u[i].path, &len_o);
                    const char *ol = orig ? nth_line(orig, ln, &len_o) : NULL;
                    const char *tl = source_line(u[i].text, ln, &len_t);
                    if (ol && tl && (len_o != len_t || memcmp(ol, tl, len_o) != 0)) {
                        int c = original_column(ol, len_o, tl, len_t, col);
                        /* inside what the pass replaced: the name the message
                         * quotes, where the student wrote it */
                        const char *q1 = memchr(rest, '\'', rl), *q2 = q1 ? memchr(q1 + 1, '\'', (size_t)(line + len - q1 - 1)) : NULL;
                        if (q1 && q2 && q2 - q1 > 1 && (size_t)c <= len_o) {
                            const char *at = memmem(ol, len_o, q1 + 1, (size_t)(q2 - q1 - 1));
                            if (at && original_column(ol, len_o, tl, len_t, col) != col) c = (int)(at - ol) + 1;
                        }
                        char head[PROG_PATH_MAX + 32];
                        int hn = snprintf(head, sizeof head, "%.*s:%d:%d:", (int)plen, line, ln, c);
                        put(out, cap, &o, head, (size_t)hn);
                        put_clean(out, cap, &o, rest, rl);
                        put(out, cap, &o, "\n", 1);
                        fixed_col = c;
                        free(orig);
                        line = NULL;
                        break;
                    }
                    free(orig);
                    break;
                }
            if (!line) {
                line = next;
                continue;
            }
        }
        put_clean(out, cap, &o, line, len);
        put(out, cap, &o, "\n", 1);
        cuda_missing(line, len, out, cap, &o);
        line = next;
    }
    drop_repeated(out);
}
