/* lecture.c - lecture mode: a lesson or a plain script as a presentation.
 *
 * On a terminal the screen is cleared for every step, the text is set with
 * a wide margin and a short line, and nothing moves until a key (? lists
 * them): space, right arrow, Enter or n go on (the step's next command,
 * shown in bold before it runs, its output indented under the step, then
 * the next step); left arrow, p or Backspace go back a step (its output is
 * kept); g and a number go to that step; a shows the answers of the step's
 * questions; k hides or shows the key line, t the commands' output; z
 * switches to the large layout for a projector (a short line, tables with
 * fewer columns, so the terminal's font can be made large); r shows the
 * step again; q, Esc or Ctrl-C leave. Without a terminal, or with
 * --rehearse, every step is shown and every command runs in order, and the
 * time of each step is printed at the end: a rehearsal, and what the tests
 * drive.
 *
 * Long runs only when asked: the lecture runs with repeats 1 unless it sets
 * repeats itself, and on the simulator a command's `# sim:` alternative
 * (a smaller n) runs instead. The session's repeats come back afterwards. */
#include "repl/lessons/lecture.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "repl/i18n.h"
#include "repl/lessons/lesson.h"
#include "repl/out.h"
#include "repl/parse.h"
#include "repl/session.h"
#include "repl/signals.h"
#include "repl/repl.h"

#define LECTURE_MARGIN 4
#define LECTURE_WIDTH 84
#define LECTURE_LARGE_WIDTH 56 /* the large layout: a projector's font at 1.5x still fits */

enum key { K_NONE, K_NEXT, K_BACK, K_QUIT, K_AGAIN, K_ANSWER, K_GOTO, K_KEYS, K_OUTPUT, K_LARGE, K_HELP, K_DOWN, K_UP };

static struct termios g_saved;
static int g_raw;

static void raw_on(void)
{
    struct termios t;
    if (tcgetattr(STDIN_FILENO, &g_saved) != 0) return;
    t = g_saved;
    t.c_lflag &= (tcflag_t) ~(ICANON | ECHO | ISIG);
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    /* TCSANOW, not TCSAFLUSH: keys pressed while a command ran are kept, so
     * a lecturer who presses space twice moves two steps. */
    if (tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0) g_raw = 1;
}

static void raw_off(void)
{
    if (g_raw) tcsetattr(STDIN_FILENO, TCSANOW, &g_saved);
    g_raw = 0;
}

static int read_byte(int timeout_ms)
{
    struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
    int r = poll(&p, 1, timeout_ms);
    if (r <= 0) return -1;
    unsigned char c;
    if (read(STDIN_FILENO, &c, 1) != 1) return -2;
    return c;
}

/* A key; *digit is set when the key was a digit (it starts a `go to`). */
static enum key read_key(int *digit)
{
    *digit = -1;
    for (;;) {
        out_flush();
        int c = read_byte(-1);
        if (c == -2) return K_QUIT; /* end of input */
        if (c < 0) {
            if (sig_int_count) return K_QUIT;
            continue;
        }
        if (c >= '0' && c <= '9') {
            *digit = c - '0';
            return K_GOTO;
        }
        switch (c) {
        case ' ': case '\r': case '\n': case 'n': case 'l': case 'j': return K_NEXT;
        case 'p': case 'h': case 127: case 8: return K_BACK;
        case 'q': case 'Q': case 3: case 4: return K_QUIT;
        case 'r': return K_AGAIN;
        case 'a': return K_ANSWER;
        case 'g': return K_GOTO;
        case 'k': return K_KEYS;
        case 't': return K_OUTPUT;
        case 'z': return K_LARGE;
        case '?': return K_HELP;
        case 27: {
            int c2 = read_byte(60);
            if (c2 < 0) return K_QUIT; /* a bare Esc */
            int c3 = read_byte(60);
            if (c2 == '[' || c2 == 'O') {
                if (c3 == 'C') return K_NEXT;
                if (c3 == 'D') return K_BACK;
                /* down / up and PgDn / PgUp scroll a step longer than the
                 * screen (else they go on and back) */
                if (c3 == 'B') return K_DOWN;
                if (c3 == 'A') return K_UP;
                if (c3 == '5' || c3 == '6') { /* PgUp / PgDn end with '~' */
                    read_byte(60);
                    return c3 == '6' ? K_DOWN : K_UP;
                }
            }
            return K_NONE;
        }
        default: return K_NONE; /* closes the key list, else does nothing */
        }
    }
}

/* ------------------------------------------------------------ the show */

struct show {
    struct session *s;
    const struct lesson *l;
    int step, done;      /* the step shown; its commands run so far */
    char **output;       /* per step: what its commands printed (malloc'd, or NULL) */
    int keys, out, large;/* key line, commands' output, large layout: on or off */
    int *answered;       /* per step: answers shown */
    int going;           /* a `go to` is being typed ... */
    char go[8];          /* ... with these digits so far */
    int help;            /* the key list is showing */
    int scroll;          /* the first line shown of a step longer than the screen */
    int lines, rows;     /* the step's lines, and how many the screen shows (0: all) */
    int tw_fixed;        /* the text width while show() renders off the screen, else 0 */
};

static int margin(const struct show *sh) { return sh->large ? 2 : LECTURE_MARGIN; }

/* The text's width: the layout's, within the terminal less a margin on
 * each side (everything is drawn at margin + width, so an 80-column
 * terminal gets 72 columns of text, never a line that wraps). */
static int text_width(const struct show *sh)
{
    if (sh->tw_fixed) return sh->tw_fixed;
    int w = lesson_width() - 2 * margin(sh);
    int max = sh->large ? LECTURE_LARGE_WIDTH : LECTURE_WIDTH;
    if (w < 20) w = 20;
    return w > max ? max : w;
}

/* Write text with every line indented by m spaces. */
static void indent(FILE *f, const char *text, int m)
{
    const char *p = text;
    while (*p) {
        size_t l = strcspn(p, "\n");
        if (l) fprintf(f, "%*s%.*s\n", m, "", (int)l, p);
        else fputc('\n', f);
        p += l;
        if (*p) p++;
    }
}

static void answers(const struct show *sh)
{
    const struct lesson_step *st = &sh->l->steps[sh->step];
    int m = margin(sh);
    if (st->nquestions == 0) {
        out_printf(_("%*s%sthis step asks no question%s\n"), m, "", out_color(OUT_DIM), out_color(OUT_RESET));
        return;
    }
    for (int q = 0; q < st->nquestions; q++) {
        const struct lesson_question *qq = &st->questions[q];
        if (qq->nanswers == 0) {
            out_printf(_("%*s%sanswer:%s an open question, nothing to check\n"), m, "", out_color(OUT_BOLD),
                       out_color(OUT_RESET));
            continue;
        }
        char line[1024];
        size_t off = (size_t)snprintf(line, sizeof line, _("%sanswer:%s "), out_color(OUT_BOLD), out_color(OUT_RESET));
        for (int a = 0; a < qq->nanswers && off < sizeof line; a++)
            off += (size_t)snprintf(line + off, sizeof line - off, "%s%s", a ? " / " : "", qq->answers[a]);
        out_wrap_to(out_stream(), line, text_width(sh) + m, m, m + 8);
        if (qq->hint && off < sizeof line) {
            snprintf(line, sizeof line, "%s(%s)%s", out_color(OUT_DIM), qq->hint, out_color(OUT_RESET));
            out_wrap_to(out_stream(), line, text_width(sh) + m, m + 8, m + 8);
        }
    }
}

/* The key line wrapped between its parts (separated by three spaces), so
 * that a key stays beside what it does ("[q] quit" is never split); only a
 * part longer than a line (a long command) wraps inside. */
static void key_line_wrap(const char *line, int width, int indent, int hang)
{
    FILE *f = out_stream();
    const char *p = line;
    int col = -1, ind = indent; /* col -1: nothing on this line yet */
    while (*p) {
        const char *sep = strstr(p, "   ");
        size_t len = sep ? (size_t)(sep - p) : strlen(p);
        int w = out_text_width(p, len), room = width - ind > 10 ? width - ind : 10;
        if (col > 0 && col + 3 + w > room) {
            fputc('\n', f);
            ind = hang;
            room = width - ind > 10 ? width - ind : 10;
            col = -1;
        }
        if (col < 0 && w > room) {
            /* a part longer than a line: wrapped at its words */
            char *part = strndup(p, len);
            if (part) out_wrap_to(f, part, width, ind, hang);
            free(part);
            ind = hang;
        } else {
            if (col < 0) {
                fprintf(f, "%*s", ind, "");
                col = 0;
            } else {
                fputs("   ", f);
                col += 3;
            }
            fwrite(p, 1, len, f);
            col += w;
        }
        p += len;
        while (*p == ' ') p++;
    }
    if (col >= 0) fputc('\n', f);
}

static void key_line(const struct show *sh)
{
    const struct lesson *l = sh->l;
    const struct lesson_step *st = &l->steps[sh->step];
    if (sh->going) {
        out_printf(_("\n%*s%sgo to step %s_ (1..%d, Enter goes, Esc cancels)%s\n"), margin(sh), "",
                   out_color(OUT_BOLD), sh->go, l->nsteps, out_color(OUT_RESET));
        return;
    }
    if (!sh->keys) return;
    char what[512];
    if (sh->done < st->ncmds)
        snprintf(what, sizeof what, _("[space] runs: %s"), lesson_cmd_text(sh->s, &st->cmds[sh->done]));
    else if (sh->step + 1 < l->nsteps)
        snprintf(what, sizeof what, _("[space] next step: %s"), l->steps[sh->step + 1].title);
    else snprintf(what, sizeof what, "%s", _("the end: [q] leaves"));
    char line[768], more[128] = "";
    if (sh->rows > 0 && sh->lines > sh->rows)
        /* TRANSLATORS: a step longer than the screen: which of its lines show */
        snprintf(more, sizeof more, _("   [down/up] lines %d-%d of %d"), sh->scroll + 1, sh->scroll + sh->rows,
                 sh->lines);
    /* TRANSLATORS: the names of keys in [] (space, left, ?, q) stay as they are. */
    snprintf(line, sizeof line, _("%s%s   step %d/%d%s   [left] back   [?] keys   [q] quit%s"), out_color(OUT_DIM),
             what, sh->step + 1, l->nsteps, more, out_color(OUT_RESET));
    out_printf("\n");
    key_line_wrap(line, text_width(sh) + margin(sh), margin(sh), margin(sh) + 8);
}

static void help_screen(const struct show *sh)
{
    static const char *const keys[][2] = {
        /* TRANSLATORS: the keys (left column) are the names of keys on the keyboard. */
        {N_("space, right, Enter, n"), N_("run the step's next command, then the next step")},
        {N_("left, p, Backspace"), N_("the step before")},
        {N_("down, up, PgDn, PgUp"), N_("scroll a step longer than the screen")},
        {N_("g N Enter, or N Enter"), N_("go to step N")},
        {"a", N_("show the answers of the step's questions")},
        {"k", N_("hide or show the key line")},
        {"t", N_("hide or show the commands' output (tables)")},
        {"z", N_("the large layout for a projector (short lines, fewer columns)")},
        {"r", N_("show the step again")},
        {"?", N_("this list (any key goes back)")},
        {N_("q, Esc, Ctrl-C"), N_("leave the lecture")},
    };
    int m = margin(sh);
    out_puts("\033[H\033[2J");
    out_printf(_("\n%*s%sKeys of lecture mode%s\n\n"), m, "", out_color(OUT_BOLD), out_color(OUT_RESET));
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char line[256];
        snprintf(line, sizeof line, "%s %s", out_pad(_(keys[i][0]), 24), _(keys[i][1]));
        out_wrap_to(out_stream(), line, text_width(sh) + m, m, m + 25);
    }
    out_printf(_("\n%*s%sstep %d of %d%s\n"), m, "", out_color(OUT_DIM), sh->step + 1, sh->l->nsteps,
               out_color(OUT_RESET));
}

/* The step, its answers and its commands' output, as lines of text. */
static void render(struct show *sh)
{
    const struct lesson *l = sh->l;
    int m = margin(sh);
    out_printf("\n%*s%s%s%s\n", m, "", out_color(OUT_DIM), l->title, out_color(OUT_RESET));
    sh->s->lesson.beside = &l->steps[sh->step];
    lesson_render_step(sh->s, l, sh->step, text_width(sh), m);
    if (sh->answered[sh->step]) answers(sh);
    if (sh->out && sh->output[sh->step]) out_puts(sh->output[sh->step]);
}

/* The step on a clear screen. One longer than the screen shows the lines
 * from sh->scroll on, as many as fit above the key line; down and up (and
 * PgDn, PgUp) move them, and the key line says which lines show. */
static void show(struct show *sh)
{
    int H = out_height();
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = H > 0 ? open_memstream(&buf, &len) : NULL;
    sh->rows = 0;
    if (!mem) { /* no screen height: the whole step, as it comes */
        if (out_color_enabled() || isatty(fileno(out_stream()))) out_puts("\033[H\033[2J");
        render(sh);
        key_line(sh);
        out_flush();
        return;
    }
    FILE *o = out_stream(), *e = out_err_stream();
    out_flush();
    sh->tw_fixed = text_width(sh); /* measured on the terminal, not the buffer */
    out_set_streams(mem, e);
    render(sh);
    out_flush();
    out_set_streams(o, e);
    sh->tw_fixed = 0;
    fclose(mem);
    int total = 0;
    for (size_t i = 0; i < len; i++) total += buf[i] == '\n';
    if (len && buf[len - 1] != '\n') total++;
    int keys = sh->keys ? 3 : 0; /* a blank line, the key line (it may take two) */
    int avail = H - keys - 1;
    sh->lines = total;
    if (avail < 3 || total <= avail) {
        sh->scroll = 0;
    } else {
        sh->rows = avail;
        if (sh->scroll > total - avail) sh->scroll = total - avail;
        if (sh->scroll < 0) sh->scroll = 0;
    }
    if (out_color_enabled() || isatty(fileno(out_stream()))) out_puts("\033[H\033[2J");
    const char *p = buf;
    for (int line = 0; p < buf + len; line++) {
        const char *nl = memchr(p, '\n', (size_t)(buf + len - p));
        size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(buf + len - p);
        if (!sh->rows || (line >= sh->scroll && line < sh->scroll + sh->rows)) fwrite(p, 1, n, out_stream());
        p += n;
    }
    free(buf);
    key_line(sh);
    out_flush();
}

/* Does the line run a command that takes the screen (animate)? Its output
 * is not collected: it draws itself. */
static int takes_screen(const char *text)
{
    struct tok_line t;
    char err[256];
    int pos;
    if (tok_split(text, &t, err, sizeof err, &pos) != 0) return 0;
    int screen = 0;
    for (int i = 0; i < t.ncmds; i++) {
        const struct cmd *c = t.cmds[i].argc > 0 ? cmd_find(t.cmds[i].argv[0], err, sizeof err) : NULL;
        if (c && c->screen) screen = 1;
    }
    tok_line_free(&t);
    return screen;
}

/* Run one command of the lecture, shown first; what it prints (and its
 * errors) is indented under the step, and tables fit the indented width.
 * collect: keep the text (the step's output) and return it in *kept. */
static enum cmd_status run_cmd(struct session *s, const struct lesson *l, const struct lesson_cmd *c,
                               int m, int width, char **kept)
{
    const char *text = lesson_cmd_text(s, c);
    char head[1024];
    snprintf(head, sizeof head, "\n%*s%s>>> %s%s\n\n", m, "", out_color(OUT_BOLD), text, out_color(OUT_RESET));
    out_puts(head);
    out_flush();
    const char *prev_script = s->script;
    int prev_line = s->line;
    s->script = l->path;
    s->line = c->line;
    sig_clear();
    lab_interrupted = 0;
    enum cmd_status st;
    int prev_confined = s->confined;
    const char *prev_from = s->confined_from;
    s->confined = 1; /* the lecture file's commands write only below the current directory */
    s->confined_from = l->path;
    char *buf = NULL, *ind = NULL;
    size_t len = 0, indlen = 0;
    FILE *mem = takes_screen(text) ? NULL : open_memstream(&buf, &len);
    if (mem) {
        FILE *o = out_stream(), *e = out_err_stream();
        out_set_streams(mem, mem);
        if (width > m + 20) out_set_width(width - m);
        st = repl_exec_line(s, text);
        out_set_width(-1);
        fclose(mem);
        out_set_streams(o == stdout ? NULL : o, e == stderr ? NULL : e);
        FILE *im = buf ? open_memstream(&ind, &indlen) : NULL;
        if (im) {
            indent(im, buf, m);
            fclose(im);
            out_puts(ind);
        }
    } else {
        st = repl_exec_line(s, text);
    }
    s->confined = prev_confined;
    s->confined_from = prev_from;
    s->script = prev_script;
    s->line = prev_line;
    out_flush();
    if (kept) {
        /* the head and the indented text, to draw again with the step */
        size_t hl = strlen(head);
        char *k = malloc(hl + indlen + 1);
        if (k) {
            memcpy(k, head, hl);
            if (ind) memcpy(k + hl, ind, indlen);
            k[hl + indlen] = 0;
        }
        *kept = k;
    }
    free(buf);
    free(ind);
    return st;
}

static void keep_output(struct show *sh, char *text)
{
    if (!text) return;
    char **o = &sh->output[sh->step];
    size_t a = *o ? strlen(*o) : 0, b = strlen(text);
    char *n = realloc(*o, a + b + 1);
    if (n) {
        memcpy(n + a, text, b + 1);
        *o = n;
    }
    free(text);
}

static int present(struct session *s, const struct lesson *l, int large)
{
    struct show sh = {.s = s, .l = l, .keys = 1, .out = 1, .large = large};
    sh.output = calloc((size_t)l->nsteps, sizeof *sh.output);
    sh.answered = calloc((size_t)l->nsteps, sizeof *sh.answered);
    if (!sh.output || !sh.answered) {
        free(sh.output);
        free(sh.answered);
        out_error(NULL, _("out of memory"));
        return 0;
    }
    sig_install(1);
    show(&sh);
    raw_on();
    for (;;) {
        int digit;
        enum key k = read_key(&digit);
        if (sh.help) { /* any key leaves the key list */
            sh.help = 0;
            show(&sh);
            if (k != K_QUIT) continue;
        }
        if (k == K_NONE && !sh.going) continue;
        if (sh.going || k == K_GOTO) {
            /* a step number: g or a digit starts it, digits add, Enter goes,
             * any other key cancels */
            size_t gl = strlen(sh.go);
            if (k == K_GOTO) {
                if (!sh.going) sh.go[0] = 0, gl = 0;
                sh.going = 1;
                if (digit >= 0 && gl + 1 < sizeof sh.go) {
                    sh.go[gl] = (char)('0' + digit);
                    sh.go[gl + 1] = 0;
                }
                key_line(&sh);
                continue;
            }
            int n = k == K_NEXT && gl ? atoi(sh.go) : 0;
            sh.going = 0;
            sh.go[0] = 0;
            if (n >= 1 && n <= l->nsteps) {
                sh.step = n - 1;
                sh.scroll = 0;
                sh.done = 0;
            }
            show(&sh); /* Esc or any other key: the `go to` is cancelled */
            continue;
        }
        if (k == K_QUIT) break;
        switch (k) {
        case K_AGAIN: sh.done = 0; break;
        case K_BACK:
            if (sh.step > 0) sh.step--;
            sh.done = 0;
            sh.scroll = 0;
            break;
        case K_DOWN:
        case K_UP:
            if (!sh.rows) { /* it fits: down and up go on and back, as before */
                if (k == K_UP) {
                    if (sh.step > 0) sh.step--;
                    sh.done = 0;
                    sh.scroll = 0;
                    break;
                }
                goto next_step;
            }
            sh.scroll += (k == K_DOWN ? 1 : -1) * (sh.rows > 4 ? sh.rows - 2 : 1);
            break;
        case K_ANSWER: sh.answered[sh.step] = !sh.answered[sh.step]; break;
        case K_KEYS: sh.keys = !sh.keys; break;
        case K_OUTPUT: sh.out = !sh.out; break;
        case K_LARGE: sh.large = !sh.large; break;
        case K_HELP:
            sh.help = 1;
            help_screen(&sh);
            continue;
        case K_NEXT:
        next_step: {
            const struct lesson_step *st = &l->steps[sh.step];
            if (sh.done < st->ncmds) {
                if (sh.done == 0) { /* the step's commands run again: their old output goes */
                    free(sh.output[sh.step]);
                    sh.output[sh.step] = NULL;
                }
                raw_off();
                char *kept = NULL;
                enum cmd_status r = run_cmd(s, l, &st->cmds[sh.done++], margin(&sh),
                                            text_width(&sh) + margin(&sh), &kept);
                keep_output(&sh, kept);
                raw_on();
                sig_clear();
                if (r == CMD_QUIT || s->quit) goto out;
                key_line(&sh);
                continue;
            }
            if (sh.step + 1 >= l->nsteps) continue;
            sh.step++;
            sh.done = 0;
            sh.scroll = 0;
            break;
        }
        default: continue;
        }
        show(&sh);
    }
out:
    raw_off();
    out_printf("\n");
    for (int i = 0; i < l->nsteps; i++) free(sh.output[i]);
    free(sh.output);
    free(sh.answered);
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Every step in order, every command run; then how long each step took, so
 * a lecturer knows what the room will wait for. */
static int rehearse(struct session *s, const struct lesson *l, int large)
{
    int width = (large ? LECTURE_LARGE_WIDTH : LECTURE_WIDTH);
    int w = lesson_width();
    if (w < width) width = w;
    double *took = calloc((size_t)l->nsteps, sizeof *took);
    int ran = 0;
    for (int i = 0; i < l->nsteps; i++, ran++) {
        double t0 = now_s();
        out_printf("\n%s%s%s\n", out_color(OUT_DIM), l->title, out_color(OUT_RESET));
        s->lesson.beside = &l->steps[i];
        lesson_render_step(s, l, i, width, 2);
        int stop = 0;
        for (int c = 0; c < l->steps[i].ncmds && !stop; c++) {
            enum cmd_status r = run_cmd(s, l, &l->steps[i].cmds[c], 2, width + 2, NULL);
            if (r == CMD_QUIT || s->quit || sig_int_count) stop = 1;
            if (s->bail && s->errors) stop = 1;
        }
        if (took) took[i] = now_s() - t0;
        if (stop) {
            ran++;
            break;
        }
    }
    if (took && ran > 0) {
        out_printf(_("\n%srehearsal: the time each step took%s\n"), out_color(OUT_BOLD), out_color(OUT_RESET));
        const char *const head[] = {_("step"), _("title"), _("commands"), _("seconds")};
        struct out_table *t = out_table_new(4, head, "rlrr");
        double total = 0;
        for (int i = 0; i < ran; i++) {
            char n[16], c[16], sec[32];
            snprintf(n, sizeof n, "%d", i + 1);
            snprintf(c, sizeof c, "%d", l->steps[i].ncmds);
            snprintf(sec, sizeof sec, "%.1f", took[i]);
            const char *cells[] = {n, l->steps[i].title, c, sec};
            out_table_row(t, cells);
            total += took[i];
        }
        out_table_shrink(t, 1, 12);
        out_table_print(t);
        out_table_free(t);
        out_printf(ngettext("total %.1f s for %d step (commands and output; the reading is yours)\n",
                            "total %.1f s for %d steps (commands and output; the reading is yours)\n",
                            (unsigned long)ran),
                   total, ran);
    }
    free(took);
    return 0;
}

int lecture_main(struct session *s, const char *path)
{
    char err[1024];
    size_t pl = strlen(path);
    struct lesson *l = pl > 3 && strcmp(path + pl - 3, ".md") == 0 ? lesson_load(path, err, sizeof err)
                                                                   : lesson_load_script(path, err, sizeof err);
    if (!l) {
        out_error(NULL, "%s", err);
        s->errors++;
        return 2;
    }
    if (l->nsteps == 0) {
        out_error(NULL, _("%s has no steps to present"), l->path);
        lesson_free(l);
        s->errors++;
        return 2;
    }
    int errors = s->errors;
    int repeats = s->cfg.repeats;
    if (s->cfg.repeats > 1) s->cfg.repeats = 1;
    sess_note_no_gpu(s);
    if (lesson_on_sim(s))
        out_note(_("the lecture runs on the simulator: results and pictures as on a GPU, times not"));
    if (!s->rehearse && isatty(STDIN_FILENO) && isatty(fileno(out_stream())))
        present(s, l, s->large);
    else
        rehearse(s, l, s->large);
    s->rehearse = s->large = 0; /* a `lecture ... rehearse` is for that lecture */
    s->cfg.repeats = repeats;
    s->lesson.beside = NULL;
    lesson_free(l);
    return s->errors > errors ? 1 : 0;
}
