/* test_translations.c - every translated lesson (lessons/LANG/) read by the
 * real parser and held against its English original: the same steps, the
 * same commands (byte for byte: a lesson runs the same session in every
 * language), the same questions with as many choices, the English answers
 * still accepted, every answer accepted as a student types it (capital
 * first letter, a full stop), the right choice by its letter and its
 * translated text, the exercise as the last step; the puzzles' code the
 * same outside its comments.
 *
 * Usage: test_translations LESSONS_DIR (the folder holding en/, uk/, ...) */
#include "repl/lessons/lesson.h"

#include <dirent.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

static const struct {
    const char *lang, *exercise, *why;
} langs[] = {
    {"uk", "Вправа", "Чому"},
    {"sl", "Vaja", "Zakaj"},
    {"zh", "练习", "为什么"},
    {"de", "Übung", "Warum"},
};

static int failures;

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    failures++;
}

/* The reply a student types: first letter upper case, a full stop after. */
static void as_typed(const char *answer, char *out, size_t len)
{
    wchar_t w[512];
    size_t n = mbstowcs(w, answer, 511);
    if (n == (size_t)-1) {
        snprintf(out, len, "%s.", answer);
        return;
    }
    w[n] = 0;
    if (n) w[0] = (wchar_t)towupper((wint_t)w[0]);
    size_t k = wcstombs(out, w, len - 2);
    if (k == (size_t)-1) k = 0;
    out[k] = '.';
    out[k + 1] = 0;
}

static int has_answer(const struct lesson_question *q, const char *a)
{
    for (int i = 0; i < q->nanswers; i++)
        if (strcmp(q->answers[i], a) == 0) return 1;
    return 0;
}

static void same_question(const char *id, int s, const struct lesson_question *e,
                          const struct lesson_question *t)
{
    if (e->nchoices != t->nchoices)
        fail("%s step %d: %d choices, English %d", id, s + 1, t->nchoices, e->nchoices);
    if (!t->explain) fail("%s step %d (line %d): no explanation", id, s + 1, t->line);
    if ((e->nanswers == 0) != (t->nanswers == 0))
        fail("%s step %d: open in one language, checked in the other", id, s + 1);
    if (e->nchoices > 0) {
        /* the same right choice, by letter and by its translated text */
        for (int c = 0; c < t->nchoices; c++) {
            char letter[3] = {(char)('a' + c), 0, 0};
            int want = lesson_check_answer(e, letter);
            if (lesson_check_answer(t, letter) != want)
                fail("%s step %d: choice %s is %s in English only", id, s + 1, letter,
                     want ? "right" : "wrong");
            if (want && lesson_check_answer(t, t->choices[c]) != 1)
                fail("%s step %d: the right choice's text \"%s\" is refused", id, s + 1, t->choices[c]);
        }
        return;
    }
    for (int i = 0; i < e->nanswers; i++)
        if (!has_answer(t, e->answers[i]))
            fail("%s step %d: the English answer \"%s\" is gone", id, s + 1, e->answers[i]);
    for (int i = 0; i < t->nanswers; i++) {
        char typed[1100];
        as_typed(t->answers[i], typed, sizeof typed);
        if (lesson_check_answer(t, typed) != 1)
            fail("%s step %d: \"%s\" typed as \"%s\" is refused", id, s + 1, t->answers[i], typed);
    }
}

static void same_lesson(const char *lang, const char *exercise, const char *why, const struct lesson *e,
                        const struct lesson *t)
{
    const char *id = t->path;
    if (strcmp(e->algos, t->algos) != 0) fail("%s: algorithms \"%s\", English \"%s\"", id, t->algos, e->algos);
    if (e->nsteps != t->nsteps) {
        fail("%s: %d steps, English %d", id, t->nsteps, e->nsteps);
        return;
    }
    if (strcmp(t->steps[t->nsteps - 1].title, exercise) != 0)
        fail("%s: the last step is \"%s\", not \"%s\"", id, t->steps[t->nsteps - 1].title, exercise);
    int whys = 0;
    for (int s = 0; s < e->nsteps; s++) {
        const struct lesson_step *a = &e->steps[s], *b = &t->steps[s];
        if (a->ncmds != b->ncmds) fail("%s step %d: %d commands, English %d", id, s + 1, b->ncmds, a->ncmds);
        for (int c = 0; c < a->ncmds && c < b->ncmds; c++) {
            if (strcmp(a->cmds[c].text, b->cmds[c].text) != 0 ||
                (a->cmds[c].sim ? !b->cmds[c].sim || strcmp(a->cmds[c].sim, b->cmds[c].sim) : b->cmds[c].sim != NULL))
                fail("%s line %d: command \"%s\", English \"%s\"", id, b->cmds[c].line, b->cmds[c].text,
                     a->cmds[c].text);
        }
        if (a->nquestions != b->nquestions) {
            fail("%s step %d: %d questions, English %d", id, s + 1, b->nquestions, a->nquestions);
            continue;
        }
        for (int q = 0; q < a->nquestions; q++) {
            same_question(id, s, &a->questions[q], &b->questions[q]);
            if (strstr(b->questions[q].text, why)) whys++;
        }
        if (a->nlectures != b->nlectures) fail("%s step %d: lecture blocks differ in number", id, s + 1);
    }
    if (whys == 0) fail("%s: no question asks \"%s\" (why)", id, why);
    (void)lang;
}

/* The lines of a puzzle with every // comment cut off and blank lines gone. */
static char *code_of(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap), line[4096];
    if (!out) {
        fclose(f);
        return NULL;
    }
    while (fgets(line, sizeof line, f)) {
        char *c = strstr(line, "//");
        if (c) *c = 0;
        size_t l = strlen(line);
        while (l && (line[l - 1] == '\n' || line[l - 1] == ' ')) line[--l] = 0;
        if (!l || n + l + 2 > cap) continue;
        memcpy(out + n, line, l);
        n += l;
        out[n++] = '\n';
    }
    out[n] = 0;
    fclose(f);
    return out;
}

static void same_puzzles(const char *dir, const char *lang)
{
    char en[4096], tr[4096];
    snprintf(en, sizeof en, "%s/en/puzzles", dir);
    DIR *d = opendir(en);
    if (!d) {
        fail("%s: cannot open", en);
        return;
    }
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, ".cu")) continue;
        snprintf(en, sizeof en, "%s/en/puzzles/%s", dir, e->d_name);
        snprintf(tr, sizeof tr, "%s/%s/puzzles/%s", dir, lang, e->d_name);
        char *a = code_of(en), *b = code_of(tr);
        if (!b) fail("%s: missing", tr);
        else if (!a || strcmp(a, b) != 0) fail("%s: its code differs from the English skeleton's", tr);
        free(a);
        free(b);
        n++;
    }
    closedir(d);
    if (n < 14) fail("%s/en/puzzles: only %d puzzles", dir, n);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_translations LESSONS_DIR\n");
        return 2;
    }
    if (!setlocale(LC_CTYPE, "C.UTF-8")) {
        printf("SKIP: no C.UTF-8 locale\n");
        return 77;
    }
    const char *dir = argv[1];
    for (size_t k = 0; k < sizeof langs / sizeof langs[0]; k++) {
        int nl = 0, ne = 0;
        char lang_dir[4096];
        snprintf(lang_dir, sizeof lang_dir, "%s/en", dir);
        char **en = NULL;
        DIR *d = opendir(lang_dir);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            size_t l = strlen(e->d_name);
            if (l < 4 || strcmp(e->d_name + l - 3, ".md") || e->d_name[0] < '0' || e->d_name[0] > '9') continue;
            en = realloc(en, sizeof *en * (size_t)(ne + 1));
            en[ne++] = strdup(e->d_name);
        }
        if (d) closedir(d);
        for (int i = 0; i < ne; i++) {
            char pe[8192], pt[8192], err[512];
            snprintf(pe, sizeof pe, "%s/en/%s", dir, en[i]);
            snprintf(pt, sizeof pt, "%s/%s/%s", dir, langs[k].lang, en[i]);
            struct lesson *le = lesson_load(pe, err, sizeof err);
            if (!le) {
                fail("%s", err);
                continue;
            }
            struct lesson *lt = lesson_load(pt, err, sizeof err);
            if (!lt) fail("%s", err);
            else {
                same_lesson(langs[k].lang, langs[k].exercise, langs[k].why, le, lt);
                if (strcmp(lt->title, le->title) == 0) fail("%s: the title is not translated", pt);
                nl++;
            }
            lesson_free(le);
            lesson_free(lt);
            free(en[i]);
        }
        free(en);
        same_puzzles(dir, langs[k].lang);
        printf("%s: %d of %d lessons read and held against English\n", langs[k].lang, nl, ne);
    }
    if (failures) printf("%d failures\n", failures);
    return failures ? 1 : 0;
}
