/* readline.c - the interactive prompt: GNU readline in callback mode, so a
 * Ctrl-C at the prompt abandons the line and the prompt comes back, while a
 * Ctrl-C during a command only sets lab_interrupted (signals.c). History is
 * kept in $XDG_STATE_HOME/gpulab/history, written after every command
 * (history_append_file). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "kernels/program/program.h"
#include "repl/complete.h"
#include "repl/i18n.h"
#include "repl/lessons/lesson.h"
#include "repl/out.h"
#include "repl/safefile.h"
#include "repl/session.h"
#include "repl/signals.h"
#include "repl/readline.h"
#include "repl/repl.h"
#include "repl/lessons/cmd_lesson.h"

#define HISTORY_LINES 1000

#ifndef GPULAB_VERSION
#define GPULAB_VERSION "0.0.0"
#endif

static int g_offer_fresh;    /* a lesson's command is on the line, no key pressed yet */
static int g_offer_replaced; /* typing wiped the offered command */
static struct session *g_sess;
static char *g_line;
static int g_have_line;
static struct cmp_list g_cands;
static int g_cand_i;

/* ------------------------------------------------------------- history */

/* $XDG_STATE_HOME/gpulab/history, else ~/.local/state/gpulab/history;
 * NULL when there is no home to put it in. */
static char *history_path(void)
{
    const char *xdg = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    char buf[4096];
    if (xdg && xdg[0] == '/')
        snprintf(buf, sizeof buf, "%s/gpulab/history", xdg);
    else if (home && *home)
        snprintf(buf, sizeof buf, "%s/.local/state/gpulab/history", home);
    else
        return NULL;
    return strdup(buf);
}

static char *history_open(void)
{
    char *path = history_path();
    using_history();
    stifle_history(HISTORY_LINES);
    if (!path) return NULL;
    if (safefile_mkdirs(path) != 0) {
        out_warn(_("cannot create the directory of %s: %s; history is not saved"), path, strerror(errno));
        free(path);
        return NULL;
    }
    struct stat sb;
    if (lstat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        out_warn(_("%s is not a regular file; history is not saved"), path);
        free(path);
        return NULL;
    }
    read_history(path);
    return path;
}

/* The history file's last HISTORY_LINES - 1 lines, then line: read and
 * rewritten whole (safefile: temporary file, rename, mode 0600; no fsync,
 * whose latency would show at every prompt) under the folder's lock, after
 * each command, so a crash loses nothing and two sessions typing at once
 * keep every line of both. */
static void history_append_file(struct session *s, const char *path, const char *line)
{
    int lock = safefile_lock(path);
    char **keep = calloc(HISTORY_LINES, sizeof *keep);
    int n = 0, first = 0;
    FILE *in = keep ? fopen(path, "r") : NULL;
    if (in) {
        char *buf = NULL;
        size_t cap = 0;
        ssize_t got;
        while ((got = getline(&buf, &cap, in)) >= 0) {
            if (got > 0 && buf[got - 1] == '\n') buf[--got] = 0;
            /* a ring of the newest HISTORY_LINES - 1 lines */
            int slot = (first + n) % (HISTORY_LINES - 1);
            if (n == HISTORY_LINES - 1) {
                free(keep[first]);
                first = (first + 1) % (HISTORY_LINES - 1);
            } else {
                n++;
            }
            keep[slot] = strdup(buf);
        }
        free(buf);
        fclose(in);
    }
    char err[512];
    struct safefile w;
    if (keep && safefile_open(&w, path, SAFEFILE_PRIVATE | SAFEFILE_NOSYNC, err, sizeof err) == 0) {
        for (int i = 0; i < n; i++) {
            const char *l = keep[(first + i) % (HISTORY_LINES - 1)];
            if (l) fprintf(w.f, "%s\n", l);
        }
        fprintf(w.f, "%s\n", line);
        if (safefile_commit(&w, err, sizeof err) != 0 && !s->said.history++)
            out_warn(_("history is not saved: %s"), err);
    } else if (keep && !s->said.history++) {
        out_warn(_("history is not saved: %s"), err);
    }
    for (int i = 0; keep && i < HISTORY_LINES; i++) free(keep[i]);
    free(keep);
    safefile_unlock(lock);
}

static void history_save(struct session *s, const char *path, const char *line)
{
    HIST_ENTRY *last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
    if (last && strcmp(last->line, line) == 0) return; /* no immediate repeats */
    add_history(line);
    if (path) history_append_file(s, path, line);
}

/* ---------------------------------------------------------- completion */

static char *cand_gen(const char *text, int state)
{
    size_t l = strlen(text);
    if (state == 0) g_cand_i = 0;
    while (g_cand_i < g_cands.n) {
        const char *w = g_cands.words[g_cand_i++];
        if (strncmp(w, text, l) == 0) return strdup(w);
    }
    return NULL;
}

/* Natural order: digits compare as numbers, so block sizes list as
 * 32 64 128 ... 1024, not 1024 128 256 as text would. */
static int natural_cmp(const void *pa, const void *pb)
{
    const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            char *ea, *eb;
            unsigned long long x = strtoull(a, &ea, 10), y = strtoull(b, &eb, 10);
            if (x != y) return x < y ? -1 : 1;
            a = ea;
            b = eb;
            continue;
        }
        if (*a != *b) return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

static char **on_complete(const char *text, int start, int end)
{
    (void)end;
    int files = 0;
    cmp_free(&g_cands);
    cmp_candidates(g_sess, rl_line_buffer, start, text, &g_cands, &files);
    rl_sort_completion_matches = 1;
    if (files) return NULL; /* readline's file-name completion */
    rl_attempted_completion_over = 1;
    qsort(g_cands.words, (size_t)g_cands.n, sizeof g_cands.words[0], natural_cmp);
    rl_sort_completion_matches = 0; /* ours, in natural order */
    /* "reduce/" is followed by a variant name: no space after it. */
    rl_completion_append_character = ' ';
    size_t tl = strlen(text);
    int matches = 0;
    const char *only = NULL;
    for (int i = 0; i < g_cands.n; i++)
        if (strncmp(g_cands.words[i], text, tl) == 0) {
            matches++;
            only = g_cands.words[i];
        }
    if (matches == 1 && only[strlen(only) - 1] == '/') rl_completion_append_character = '\0';
    return rl_completion_matches(text, cand_gen);
}

/* ---------------------------------------------------------------- loop */

static void on_line(char *line)
{
    rl_callback_handler_remove();
    g_line = line;
    g_have_line = 1;
}

static void prompt_text(struct session *s, char *buf, size_t len)
{
    if (s->prog) { /* a student's program is what run acts on: name it */
        const char *slash = strrchr(s->prog->path, '/');
        snprintf(buf, len, "gpulab %s> ", slash ? slash + 1 : s->prog->path);
    } else if (s->algo && s->variant)
        snprintf(buf, len, "gpulab %s/%s> ", s->algo->name, s->variant->name);
    else if (s->algo)
        snprintf(buf, len, "gpulab %s> ", s->algo->name);
    else
        snprintf(buf, len, "gpulab> ");
}

/* Ctrl-C at the prompt: drop what was typed and show a fresh prompt. */
static void abandon_line(void)
{
    g_offer_fresh = 0;
    g_offer_replaced = 1; /* what is typed next is the user's own line */
    rl_free_line_state();
    rl_callback_sigcleanup();
    rl_replace_line("", 0);
    rl_point = rl_end = 0;
    rl_mark = 0;
    fputs("^C", rl_outstream ? rl_outstream : stdout);
    rl_crlf();
    rl_on_new_line();
    rl_redisplay();
}

/* Whether keys typed ahead (during the last command) wait to be read. */
static int typed_ahead(void)
{
    struct pollfd p = {.fd = fileno(rl_instream ? rl_instream : stdin), .events = POLLIN};
    return poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
}

/* readline calls this before each prompt: a lesson under way offers its
 * step's next command, pre-filled on the line. Keys typed ahead win: the
 * offer waits for the next prompt rather than land in front of them. */
static int offer_hook(void)
{
    g_offer_fresh = g_offer_replaced = 0;
    if (typed_ahead()) return 0;
    const char *cmd = g_sess ? lesson_offer_next(g_sess) : NULL;
    if (cmd) {
        rl_insert_text(cmd);
        g_offer_fresh = 1;
    }
    return 0;
}

/* Every key goes through here. The first key after an offer decides: a
 * printable one (a command typed) replaces the offered text, so `quit`
 * typed over `animate` runs quit, not `animatequit`; Enter runs the offer;
 * any other key (arrows, Ctrl-E, Backspace, Tab) edits it. */
static int offer_getc(FILE *in)
{
    int c = rl_getc(in);
    if (g_offer_fresh && c != EOF) {
        g_offer_fresh = 0;
        if (c >= 32 && c != 127) {
            rl_replace_line("", 0);
            rl_point = rl_end = rl_mark = 0;
            g_offer_replaced = 1;
        }
    }
    return c;
}

void readline_loop(struct session *s)
{
    g_sess = s;
    rl_startup_hook = offer_hook;
    rl_getc_function = offer_getc;
    rl_readline_name = "gpulab";
    rl_change_environment = 0; /* leave LINES/COLUMNS alone: ncurses reads the real size */
    rl_catch_signals = 0;      /* our SIGINT handler only sets flags */
    rl_attempted_completion_function = on_complete;
    rl_completer_quote_characters = "\"'";
    rl_basic_word_break_characters = " \t\n;";
    char *hist = history_open();

    out_printf(_("gpulab %s: a lab for GPU parallel algorithms. Type help to begin;\n"
                 "Tab completes, Ctrl-C abandons a line or stops a run, Ctrl-D quits.\n"),
               GPULAB_VERSION);
    out_flush();

    for (;;) {
        char prompt[256];
        prompt_text(s, prompt, sizeof prompt);
        sig_clear();
        g_have_line = 0;
        g_line = NULL;
        rl_callback_handler_install(prompt, on_line);
        while (!g_have_line) {
            struct pollfd p = {.fd = fileno(rl_instream ? rl_instream : stdin), .events = POLLIN};
            int r = poll(&p, 1, -1);
            if (sig_int_count > 0) {
                sig_clear();
                lab_interrupted = 0;
                abandon_line();
                continue;
            }
            if (r < 0) {
                if (errno == EINTR) continue;
                break;
            }
            if (p.revents & (POLLIN | POLLHUP | POLLERR)) rl_callback_read_char();
        }
        if (!g_have_line) {
            rl_callback_handler_remove();
            break;
        }
        if (!g_line) { /* Ctrl-D */
            out_printf("\n");
            break;
        }
        char *line = g_line;
        size_t ll = strlen(line);
        while (ll > 0 && (line[ll - 1] == ' ' || line[ll - 1] == '\t')) line[--ll] = 0;
        int blank = line[strspn(line, " \t")] == 0;
        if (!blank) history_save(s, hist, line);
        s->script = NULL;
        s->line = 0;
        s->confined = lesson_offered(s, line, g_offer_replaced);
        g_offer_fresh = g_offer_replaced = 0;
        s->confined_from = s->confined && s->lesson.cur ? s->lesson.cur->path : NULL;
        enum cmd_status st = blank ? CMD_OK : repl_exec_line(s, line);
        s->confined = 0;
        s->confined_from = NULL;
        free(line);
        out_flush();
        if (st == CMD_QUIT || s->quit) break;
    }
    cmp_free(&g_cands);
    free(hist);
}
