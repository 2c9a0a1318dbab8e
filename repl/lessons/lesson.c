/* lesson.c - reading lesson files: front matter, steps and the fenced blocks
 * (gpulab, question, lecture) of each step. Every complaint names the line. */
#include "repl/lessons/lesson.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmark.h>

#include "repl/lessons/answer.h"
#include "repl/cmd.h"
#include "repl/i18n.h"
#include "repl/out.h"

static char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) abort();
    return d;
}

static char *xstrndup(const char *s, size_t n)
{
    char *d = strndup(s, n);
    if (!d) abort();
    return d;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) abort();
    return q;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

/* A lesson file is text of at most this many bytes (the shipped ones are
 * a few KiB): a larger one is refused before it is read. */
#define LESSON_MAX_BYTES (4u << 20)

/* The whole file, NUL-terminated, with CRLF and lone CR line ends turned
 * into LF (so every later step sees one kind of line end) and control
 * characters made visible (out_escape), so no escape sequence of the file
 * reaches the terminal. Directories, devices, NUL bytes and files past
 * LESSON_MAX_BYTES are refused with the reason. */
static char *read_all(const char *path, char *err, size_t errlen)
{
    /* without waiting: a FIFO or a device is refused below, not read */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        if (fd >= 0) close(fd);
        snprintf(err, errlen, _("%s: cannot open: %s"), path, strerror(errno));
        return NULL;
    }
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        snprintf(err, errlen,
                 S_ISDIR(sb.st_mode) ? _("%s: not a lesson file: it is a directory")
                                     : _("%s: not a lesson file: it is not a regular file"),
                 path);
        fclose(f);
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if ((unsigned long long)sb.st_size > LESSON_MAX_BYTES) {
        snprintf(err, errlen, _("%s: %lld bytes is too large for a lesson (at most %u MiB)"), path,
                 (long long)sb.st_size, LESSON_MAX_BYTES >> 20);
        fclose(f);
        return NULL;
    }
    size_t cap = (size_t)sb.st_size + 2, len = 0;
    char *buf = xrealloc(NULL, cap);
    size_t r;
    while (len + 1 < cap && (r = fread(buf + len, 1, cap - len - 1, f)) > 0) len += r;
    int bad = ferror(f), e = errno;
    fclose(f);
    if (bad) {
        snprintf(err, errlen, _("%s: cannot read: %s"), path, strerror(e));
        free(buf);
        return NULL;
    }
    buf[len] = 0;
    char *text = lesson_text_clean(buf, len, path, err, errlen);
    free(buf);
    return text;
}

char *lesson_text_clean(const char *buf, size_t len, const char *path, char *err, size_t errlen)
{
    const char *nul = memchr(buf, 0, len);
    if (nul) {
        int line = 1;
        for (const char *p = buf; p < nul; p++) line += *p == '\n';
        snprintf(err, errlen, _("%s:%d: a NUL byte: this is not a text file"), path, line);
        return NULL;
    }
    char *lf = xrealloc(NULL, len + 1);
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == '\r') {
            lf[o++] = '\n';
            if (i + 1 < len && buf[i + 1] == '\n') i++;
        } else {
            lf[o++] = buf[i];
        }
    }
    lf[o] = 0;
    char *text = out_escape(lf, o, "\n\t");
    free(lf);
    if (!text) abort();
    return text;
}

static char *base_id(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 3 && strcmp(b + n - 3, ".md") == 0) n -= 3;
    return xstrndup(b, n);
}

/* What a lesson's progress is kept under: a shipped lesson (a file of a
 * language folder under i18n_lessondir()) by its id, so a translation
 * continues where the English one stopped; any other file by its id and a
 * hash of its full path, so a copy named like a shipped lesson keeps its
 * own progress and leaves the shipped one's alone. */
static char *progress_key(const char *path, const char *id)
{
    char full[4096], dir[4096], root[4096];
    if (!realpath(path, full)) return xstrdup(id);
    if (!realpath(i18n_lessondir(), root)) root[0] = 0; /* no shipped lessons: every file is "other" */
    snprintf(dir, sizeof dir, "%s", full);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0; /* the language folder */
    slash = strrchr(dir, '/');
    if (root[0] && slash && (size_t)(slash - dir) == strlen(root) && strncmp(dir, root, strlen(root)) == 0)
        return xstrdup(id);
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (const unsigned char *c = (const unsigned char *)full; *c; c++) h = (h ^ *c) * 1099511628211ull;
    char key[128];
    snprintf(key, sizeof key, "%.100s@%016llx", id, (unsigned long long)h);
    for (char *c = key; *c; c++)
        if (isspace((unsigned char)*c)) *c = '_'; /* one word in the progress file */
    return xstrdup(key);
}

static struct lesson *lesson_new(const char *path)
{
    struct lesson *l = calloc(1, sizeof *l);
    if (!l) abort();
    l->path = xstrdup(path);
    l->id = base_id(path);
    l->key = progress_key(path, l->id);
    l->title = xstrdup("");
    l->prereq = xstrdup("");
    l->time = xstrdup("");
    l->algos = xstrdup("");
    return l;
}

static void set_str(char **dst, const char *v)
{
    free(*dst);
    *dst = xstrdup(v);
}

void lesson_free(struct lesson *l)
{
    if (!l) return;
    for (int i = 0; i < l->nsteps; i++) {
        struct lesson_step *st = &l->steps[i];
        free(st->title);
        free(st->text);
        for (int c = 0; c < st->ncmds; c++) {
            free(st->cmds[c].text);
            free(st->cmds[c].sim);
        }
        free(st->cmds);
        for (int q = 0; q < st->nquestions; q++) {
            struct lesson_question *qq = &st->questions[q];
            free(qq->text);
            free(qq->hint);
            for (int a = 0; a < qq->nanswers; a++) free(qq->answers[a]);
            free(qq->answers);
            for (int a = 0; a < qq->nchoices; a++) free(qq->choices[a]);
            free(qq->choices);
            free(qq->explain);
        }
        free(st->questions);
        for (int k = 0; k < st->nlectures; k++) {
            struct lesson_lecture *lc = &st->lectures[k];
            free(lc->source);
            for (int r = 0; r < lc->nrows; r++) {
                free(lc->rows[r].label);
                free(lc->rows[r].value);
            }
            free(lc->rows);
        }
        free(st->lectures);
    }
    free(l->steps);
    if (l->doc) cmark_node_free(l->doc);
    free(l->path);
    free(l->id);
    free(l->key);
    free(l->title);
    free(l->prereq);
    free(l->time);
    free(l->algos);
    free(l);
}

static struct lesson_step *add_step(struct lesson *l, const char *title, int line)
{
    l->steps = xrealloc(l->steps, sizeof *l->steps * (size_t)(l->nsteps + 1));
    struct lesson_step *st = &l->steps[l->nsteps++];
    memset(st, 0, sizeof *st);
    st->title = xstrdup(title);
    st->line = line;
    return st;
}

static void fail(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void fail(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
{
    int off = snprintf(err, errlen, "%s:%d: ", path, line);
    if (off < 0 || (size_t)off >= errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + off, errlen - (size_t)off, fmt, ap);
    va_end(ap);
}

/* The text of a node and its children, inline markup dropped. */
static void plain_text(cmark_node *n, char *buf, size_t len)
{
    size_t off = strlen(buf);
    for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
        const char *lit = cmark_node_get_literal(c);
        cmark_node_type t = cmark_node_get_type(c);
        if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK) lit = " ";
        if (lit) {
            snprintf(buf + off, len - off, "%s", lit);
            off = strlen(buf);
        } else {
            plain_text(c, buf, len);
            off = strlen(buf);
        }
        if (off + 1 >= len) return;
    }
}

/* Front matter: lines 2.. up to the closing ---, blanked in text so cmark
 * sees empty lines and the line numbers stay. */
static int front_matter(struct lesson *l, char *text, char *err, size_t errlen)
{
    if (strncmp(text, "---", 3) != 0 || text[3] != '\n') return 0;
    char *p = text;
    int line = 1;
    memset(p, ' ', 3);
    p += 4; /* the text has LF line ends only (read_all) */
    for (;;) {
        line++;
        if (!*p) {
            fail(err, errlen, l->path, 1, _("the front matter opened here is never closed by a --- line"));
            return -1;
        }
        char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char *ln = xstrndup(p, n);
        char *t = trim(ln);
        memset(p, ' ', n);
        if (strcmp(t, "---") == 0) {
            free(ln);
            break;
        }
        if (*t && *t != '#') {
            char *colon = strchr(t, ':');
            if (!colon) {
                fail(err, errlen, l->path, line, _("front matter lines are KEY: VALUE; got \"%s\""), t);
                free(ln);
                return -1;
            }
            *colon = 0;
            char *key = trim(t), *val = trim(colon + 1);
            for (char *k = key; *k; k++) *k = (char)tolower((unsigned char)*k);
            if (strcmp(key, "title") == 0)
                set_str(&l->title, val);
            else if (strcmp(key, "prerequisites") == 0 || strcmp(key, "requires") == 0)
                set_str(&l->prereq, val);
            else if (strcmp(key, "time") == 0)
                set_str(&l->time, val);
            else if (strcmp(key, "algorithms") == 0) {
                for (char *c = val; *c; c++)
                    if (*c == ',') *c = ' ';
                set_str(&l->algos, val);
            } else {
                fail(err, errlen, l->path, line,
                     _("unknown front matter key \"%s\" (known: title, prerequisites, time, algorithms)"), key);
                free(ln);
                return -1;
            }
        }
        free(ln);
        if (!eol) {
            fail(err, errlen, l->path, 1, _("the front matter opened here is never closed by a --- line"));
            return -1;
        }
        p = eol + 1;
    }
    return 0;
}

/* Split a fenced block's literal into lines; calls fn(line_text, line_no). */
typedef int (*line_fn)(struct lesson *l, struct lesson_step *st, char *text, int line, void *ctx,
                       char *err, size_t errlen);

static int each_line(struct lesson *l, struct lesson_step *st, cmark_node *code, line_fn fn,
                     void *ctx, char *err, size_t errlen)
{
    const char *lit = cmark_node_get_literal(code);
    int line = cmark_node_get_start_line(code) + 1;
    char *copy = xstrdup(lit ? lit : "");
    int rc = 0;
    char *p = copy;
    while (p && *p) {
        char *eol = strchr(p, '\n');
        if (eol) *eol = 0;
        if (fn(l, st, p, line, ctx, err, errlen) != 0) {
            rc = -1;
            break;
        }
        line++;
        p = eol ? eol + 1 : NULL;
    }
    free(copy);
    return rc;
}

static int cmd_line(struct lesson *l, struct lesson_step *st, char *text, int line, void *ctx,
                    char *err, size_t errlen)
{
    (void)ctx;
    char *t = trim(text);
    if (!*t || *t == '#') return 0;
    char *sim = NULL;
    char *mark = strstr(t, "#sim:");
    if (!mark) mark = strstr(t, "# sim:");
    if (mark) {
        sim = trim(strchr(mark, ':') + 1);
        *mark = 0;
        t = trim(t);
        if (!*sim) {
            fail(err, errlen, l->path, line, _("\"# sim:\" needs the command to run on the simulator"));
            return -1;
        }
    }
    if (!*t) {
        fail(err, errlen, l->path, line, _("a simulator alternative needs a command before it"));
        return -1;
    }
    /* Each ';'-separated command must exist (its arguments are checked when it runs). */
    for (int pass = 0; pass < 2; pass++) {
        const char *src = pass == 0 ? t : sim;
        if (!src) continue;
        char *dup = xstrdup(src);
        char *sp = NULL;
        for (char *part = strtok_r(dup, ";", &sp); part; part = strtok_r(NULL, ";", &sp)) {
            char *w = trim(part);
            if (!*w) continue;
            size_t wl = strcspn(w, " \t");
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)(wl < 63 ? wl : 63), w);
            char why[256] = "";
            if (!cmd_find(word, why, sizeof why)) {
                fail(err, errlen, l->path, line, "%s", why);
                free(dup);
                return -1;
            }
        }
        free(dup);
    }
    st->cmds = xrealloc(st->cmds, sizeof *st->cmds * (size_t)(st->ncmds + 1));
    st->cmds[st->ncmds].text = xstrdup(t);
    st->cmds[st->ncmds].sim = sim ? xstrdup(sim) : NULL;
    st->cmds[st->ncmds].line = line;
    st->ncmds++;
    return 0;
}

/* "KEY: value" lines of a question block: the value after key, or NULL when
 * the line is not one; "" (with err filled) when the value is missing. */
static char *question_key(struct lesson *l, int line, char *t, const char *key, const char *what,
                          char *err, size_t errlen)
{
    size_t kl = strlen(key);
    if (strncmp(t, key, kl) != 0) return NULL;
    char *v = trim(t + kl);
    if (!*v) fail(err, errlen, l->path, line, _("\"%s\" needs %s after it"), key, what);
    return v;
}

/* Append a string to a growing list. */
static void list_add(char ***list, int *n, const char *v)
{
    *list = xrealloc(*list, sizeof **list * (size_t)(*n + 1));
    (*list)[(*n)++] = xstrdup(v);
}

static int question_line(struct lesson *l, struct lesson_step *st, char *text, int line, void *ctx,
                         char *err, size_t errlen)
{
    struct lesson_question *q = ctx;
    char *t = trim(text), *v;
    if (!*t) return 0;
    if ((v = question_key(l, line, t, "answer:", _("the answer"), err, errlen))) {
        if (!*v) return -1;
        list_add(&q->answers, &q->nanswers, v);
        return 0;
    }
    if ((v = question_key(l, line, t, "hint:", _("the hint"), err, errlen))) {
        if (!*v) return -1;
        set_str(&q->hint, v);
        return 0;
    }
    if ((v = question_key(l, line, t, "explain:", _("the explanation"), err, errlen))) {
        if (!*v) return -1;
        if (q->explain) { /* several lines make one explanation */
            size_t old = strlen(q->explain);
            q->explain = xrealloc(q->explain, old + strlen(v) + 2);
            q->explain[old] = ' ';
            strcpy(q->explain + old + 1, v);
        } else {
            set_str(&q->explain, v);
        }
        return 0;
    }
    if ((v = question_key(l, line, t, "choice:", _("the choice's text"), err, errlen))) {
        if (!*v) return -1;
        if (q->nchoices >= 26) {
            fail(err, errlen, l->path, line, _("a question has at most 26 choices (a to z)"));
            return -1;
        }
        list_add(&q->choices, &q->nchoices, v);
        return 0;
    }
    if (q->nanswers > 0) {
        fail(err, errlen, l->path, line, _("the question's text goes before its answer: lines"));
        return -1;
    }
    size_t old = strlen(q->text);
    q->text = xrealloc(q->text, old + strlen(t) + 2);
    if (old) strcat(q->text, " ");
    strcat(q->text, t);
    (void)st;
    return 0;
}

static int lecture_line(struct lesson *l, struct lesson_step *st, char *text, int line, void *ctx,
                        char *err, size_t errlen)
{
    struct lesson_lecture *lc = ctx;
    char *t = trim(text);
    if (!*t) return 0;
    char *colon = strchr(t, ':');
    if (!colon) {
        fail(err, errlen, l->path, line, _("lecture lines are LABEL: VALUE (or source: TEXT); got \"%s\""), t);
        return -1;
    }
    *colon = 0;
    char *k = trim(t), *v = trim(colon + 1);
    if (!*k || !*v) {
        fail(err, errlen, l->path, line, _("a lecture line needs a label and a value"));
        return -1;
    }
    if (strcmp(k, "source") == 0) {
        set_str(&lc->source, v);
        return 0;
    }
    lc->rows = xrealloc(lc->rows, sizeof *lc->rows * (size_t)(lc->nrows + 1));
    lc->rows[lc->nrows].label = xstrdup(k);
    lc->rows[lc->nrows].value = xstrdup(v);
    lc->nrows++;
    (void)st;
    return 0;
}

/* Pull the special fenced blocks out of one top-level node. */
static int scan_block(struct lesson *l, struct lesson_step *st, cmark_node *n, char *err, size_t errlen)
{
    if (cmark_node_get_type(n) != CMARK_NODE_CODE_BLOCK) return 0;
    const char *info = cmark_node_get_fence_info(n);
    char lang[32] = "";
    if (info) sscanf(info, "%31s", lang);
    int line = cmark_node_get_start_line(n);
    if (strcmp(lang, "gpulab") == 0) {
        int before = st->ncmds;
        if (each_line(l, st, n, cmd_line, NULL, err, errlen) != 0) return -1;
        if (st->ncmds == before) {
            fail(err, errlen, l->path, line, _("this gpulab block holds no command"));
            return -1;
        }
    } else if (strcmp(lang, "question") == 0) {
        struct lesson_question q = {.text = xstrdup(""), .line = line};
        int rc = each_line(l, st, n, question_line, &q, err, errlen);
        if (rc == 0 && !q.text[0]) {
            fail(err, errlen, l->path, line, _("this question block has no question"));
            rc = -1;
        }
        if (rc == 0 && q.nanswers == 0 && !q.explain) {
            fail(err, errlen, l->path, line,
                 _("an open question (no answer: line) needs explain: with the answer to compare with"));
            rc = -1;
        }
        if (rc == 0 && q.nchoices == 1) {
            fail(err, errlen, l->path, line, _("a multiple-choice question needs two choices or more"));
            rc = -1;
        }
        for (int a = 0; rc == 0 && a < q.nanswers && q.nchoices > 0; a++)
            if (answer_choice(q.answers[a], (const char *const *)q.choices, q.nchoices) < 0) {
                fail(err, errlen, l->path, line,
                     _("answer \"%s\" is none of the choices (give its letter or its text)"), q.answers[a]);
                rc = -1;
            }
        if (rc != 0) {
            free(q.text);
            free(q.hint);
            for (int a = 0; a < q.nanswers; a++) free(q.answers[a]);
            free(q.answers);
            for (int a = 0; a < q.nchoices; a++) free(q.choices[a]);
            free(q.choices);
            free(q.explain);
            return -1;
        }
        st->questions = xrealloc(st->questions, sizeof *st->questions * (size_t)(st->nquestions + 1));
        st->questions[st->nquestions++] = q;
    } else if (strcmp(lang, "lecture") == 0) {
        struct lesson_lecture lc = {.source = xstrdup(_("the lecture")), .line = line};
        int rc = each_line(l, st, n, lecture_line, &lc, err, errlen);
        if (rc == 0 && lc.nrows == 0) {
            fail(err, errlen, l->path, line, _("this lecture block has no numbers (LABEL: VALUE lines)"));
            rc = -1;
        }
        if (rc != 0) {
            free(lc.source);
            for (int r = 0; r < lc.nrows; r++) {
                free(lc.rows[r].label);
                free(lc.rows[r].value);
            }
            free(lc.rows);
            return -1;
        }
        st->lectures = xrealloc(st->lectures, sizeof *st->lectures * (size_t)(st->nlectures + 1));
        st->lectures[st->nlectures++] = lc;
    }
    return 0;
}

/* A fence that was opened and never closed swallows the rest of the file:
 * cmark accepts it, a lesson does not. */
static int unclosed_fence(const char *text, int *open_line)
{
    int line = 1, in = 0, start = 0;
    char fch = 0;
    size_t flen = 0;
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        size_t ind = 0;
        while (ind < n && ind < 4 && p[ind] == ' ') ind++;
        if (ind < 4 && ind < n && (p[ind] == '`' || p[ind] == '~')) {
            char c = p[ind];
            size_t k = ind;
            while (k < n && p[k] == c) k++;
            size_t run = k - ind;
            if (run >= 3) {
                if (!in) {
                    in = 1;
                    fch = c;
                    flen = run;
                    start = line;
                } else if (c == fch && run >= flen) {
                    size_t r = k;
                    while (r < n && (p[r] == ' ' || p[r] == '\t' || p[r] == '\r')) r++;
                    if (r == n) in = 0;
                }
            }
        }
        line++;
        if (!eol) break;
        p = eol + 1;
    }
    *open_line = start;
    return in;
}

/* The renderer recurses into block quotes, lists and inline markup, so a
 * lesson may nest them at most LESSON_MAX_DEPTH deep: the first node deeper
 * than that, or NULL. Counting a node's ancestors stops at the limit, so the
 * walk costs at most LESSON_MAX_DEPTH steps per node. */
static cmark_node *too_deep(cmark_node *doc)
{
    cmark_iter *it = cmark_iter_new(doc);
    cmark_node *deep = NULL;
    cmark_event_type ev;
    while (!deep && (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        if (ev != CMARK_EVENT_ENTER) continue;
        cmark_node *n = cmark_iter_get_node(it);
        int d = 0;
        for (cmark_node *p = n; p && d <= LESSON_MAX_DEPTH; p = cmark_node_parent(p)) d++;
        if (d > LESSON_MAX_DEPTH) deep = n;
    }
    cmark_iter_free(it);
    return deep;
}

/* The line of n, or of its nearest ancestor that has one (inline nodes may not). */
static int node_line(cmark_node *n)
{
    for (; n; n = cmark_node_parent(n))
        if (cmark_node_get_start_line(n) > 0) return cmark_node_get_start_line(n);
    return 1;
}

struct lesson *lesson_load(const char *path, char *err, size_t errlen)
{
    char *text = read_all(path, err, errlen);
    return text ? lesson_parse(path, text, err, errlen) : NULL;
}

struct lesson *lesson_parse(const char *path, char *text, char *err, size_t errlen)
{
    struct lesson *l = lesson_new(path);
    if (front_matter(l, text, err, errlen) != 0) goto bad;
    int open_line;
    if (unclosed_fence(text, &open_line)) {
        fail(err, errlen, path, open_line, _("this fenced block is never closed"));
        goto bad;
    }
    l->doc = cmark_parse_document(text, strlen(text), CMARK_OPT_SOURCEPOS | CMARK_OPT_VALIDATE_UTF8);
    if (!l->doc) {
        fail(err, errlen, path, 1, _("cannot parse"));
        goto bad;
    }
    cmark_node *deep = too_deep(l->doc);
    if (deep) {
        fail(err, errlen, path, node_line(deep),
             _("quotes, lists and emphasis nest deeper than %d levels here; a lesson may nest them at "
               "most %d deep"), LESSON_MAX_DEPTH, LESSON_MAX_DEPTH);
        goto bad;
    }
    struct lesson_step *st = NULL;
    for (cmark_node *n = cmark_node_first_child(l->doc); n; n = cmark_node_next(n)) {
        int line = cmark_node_get_start_line(n);
        if (cmark_node_get_type(n) == CMARK_NODE_HEADING) {
            int lvl = cmark_node_get_heading_level(n);
            char title[512] = "";
            plain_text(n, title, sizeof title);
            if (lvl == 1) {
                if (l->nsteps > 0 || (st && st->first)) {
                    fail(err, errlen, path, line,
                         _("only one level-1 heading (the title), before the first step"));
                    goto bad;
                }
                if (!l->title[0]) set_str(&l->title, title);
                continue;
            }
            if (lvl == 2) {
                if (!title[0]) {
                    fail(err, errlen, path, line, _("a step heading needs a title"));
                    goto bad;
                }
                if (st) st->stop = n;
                st = add_step(l, title, line);
                st->first = cmark_node_next(n);
                if (st->first && cmark_node_get_type(st->first) == CMARK_NODE_HEADING &&
                    cmark_node_get_heading_level(st->first) <= 2)
                    st->first = NULL;
                continue;
            }
        }
        if (!st) { /* text before the first step: an introduction step */
            st = add_step(l, _("Introduction"), line);
            st->first = n;
        }
        if (!st->first) st->first = n;
        if (scan_block(l, st, n, err, errlen) != 0) goto bad;
    }
    if (!l->title[0]) {
        fail(err, errlen, path, 1, _("no title: give one in the front matter (title: ...) or as a # heading"));
        goto bad;
    }
    if (l->nsteps == 0) {
        fail(err, errlen, path, 1, _("no steps: each step starts with a ## heading"));
        goto bad;
    }
    free(text);
    return l;
bad:
    free(text);
    lesson_free(l);
    return NULL;
}

struct lesson *lesson_load_script(const char *path, char *err, size_t errlen)
{
    char *text = read_all(path, err, errlen);
    return text ? lesson_parse_script(path, text, err, errlen) : NULL;
}

struct lesson *lesson_parse_script(const char *path, char *text, char *err, size_t errlen)
{
    struct lesson *l = lesson_new(path);
    set_str(&l->title, l->id);
    struct lesson_step *st = NULL;
    int line = 0;
    for (char *p = text; p && *p;) {
        char *eol = strchr(p, '\n');
        if (eol) *eol = 0;
        line++;
        char *t = trim(p);
        if (!*t) {
            st = NULL;
        } else {
            if (!st) {
                char name[32];
                snprintf(name, sizeof name, _("Step %d"), l->nsteps + 1);
                st = add_step(l, name, line);
            }
            if (*t == '#') {
                char *c = trim(t + 1);
                /* The first comment of a step is its title, later ones its text. */
                if (st->ncmds == 0 && strncmp(st->title, "Step ", 5) == 0 && *c) {
                    set_str(&st->title, c);
                } else {
                    size_t have = st->text ? strlen(st->text) : 0;
                    st->text = xrealloc(st->text, have + strlen(c) + 2);
                    if (!have) st->text[0] = 0;
                    else strcat(st->text, " ");
                    strcat(st->text, c);
                }
            } else if (cmd_line(l, st, t, line, NULL, err, errlen) != 0) {
                free(text);
                lesson_free(l);
                return NULL;
            }
        }
        p = eol ? eol + 1 : NULL;
    }
    free(text);
    if (l->nsteps == 0) {
        fail(err, errlen, path, 1, _("nothing to present: the script has no commands"));
        lesson_free(l);
        return NULL;
    }
    return l;
}

int lesson_check_answer(const struct lesson_question *q, const char *answer)
{
    if (q->nanswers == 0) return -1;
    if (q->nchoices > 0) {
        const char *const *ch = (const char *const *)q->choices;
        int c = answer_choice(answer, ch, q->nchoices);
        if (c < 0) return -2;
        for (int i = 0; i < q->nanswers; i++)
            if (answer_choice(q->answers[i], ch, q->nchoices) == c) return 1;
        return 0;
    }
    for (int i = 0; i < q->nanswers; i++)
        if (answer_match(answer, q->answers[i])) return 1;
    return 0;
}
