/* lecture.c - lecture mode: a lesson or a plain script as a presentation.
 *
 * On a terminal the screen is cleared for every step, the text is set with
 * a wide margin and a short line, and nothing moves until a key: space,
 * right arrow, Enter or n go on (the step's next command, shown in bold
 * before it runs, then the next step); left arrow, p or Backspace go back a
 * step (without running it again); q, Esc or Ctrl-C leave. Without a
 * terminal every step is shown and every command runs in order: a
 * rehearsal, and what the tests drive.
 *
 * Long runs only when asked: the lecture runs with repeats 1 unless it sets
 * repeats itself, and on the simulator a command's `# sim:` alternative
 * (a smaller n) runs instead. The session's repeats come back afterwards. */
#include "lecture.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "lesson.h"
#include "out.h"
#include "session.h"
#include "signals.h"

#define LECTURE_MARGIN 4
#define LECTURE_WIDTH 84

enum key { K_NONE, K_NEXT, K_BACK, K_QUIT, K_AGAIN };

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

static enum key read_key(void)
{
    for (;;) {
        out_flush();
        int c = read_byte(-1);
        if (c == -2) return K_QUIT; /* end of input */
        if (c < 0) {
            if (sig_int_count) return K_QUIT;
            continue;
        }
        switch (c) {
        case ' ': case '\r': case '\n': case 'n': case 'l': case 'j': return K_NEXT;
        case 'p': case 'h': case 'k': case 127: case 8: return K_BACK;
        case 'q': case 'Q': case 3: case 4: return K_QUIT;
        case 'r': return K_AGAIN;
        case 27: {
            int c2 = read_byte(60);
            if (c2 < 0) return K_QUIT; /* a bare Esc */
            int c3 = read_byte(60);
            if (c2 == '[' || c2 == 'O') {
                if (c3 == 'C' || c3 == 'B') return K_NEXT;
                if (c3 == 'D' || c3 == 'A') return K_BACK;
                if (c3 == '5' || c3 == '6') { /* PgUp / PgDn end with '~' */
                    read_byte(60);
                    return c3 == '6' ? K_NEXT : K_BACK;
                }
            }
            continue;
        }
        default: continue;
        }
    }
}

static int lecture_width(void)
{
    int w = lesson_width();
    return w > LECTURE_WIDTH ? LECTURE_WIDTH : w;
}

/* Run one command of the lecture, shown first. Returns what the line returned. */
static enum cmd_status run_cmd(struct session *s, const struct lesson *l, const struct lesson_cmd *c,
                               int margin)
{
    const char *text = lesson_cmd_text(s, c);
    out_printf("\n%*s%s>>> %s%s\n\n", margin, "", out_color(OUT_BOLD), text, out_color(OUT_RESET));
    out_flush();
    const char *prev_script = s->script;
    int prev_line = s->line;
    s->script = l->path;
    s->line = c->line;
    sig_clear();
    lab_interrupted = 0;
    enum cmd_status st = sess_exec_line(s, text);
    s->script = prev_script;
    s->line = prev_line;
    out_flush();
    return st;
}

static void hint(const struct session *s, const struct lesson *l, int step, int done)
{
    const struct lesson_step *st = &l->steps[step];
    out_printf("\n%*s%s", LECTURE_MARGIN, "", out_color(OUT_DIM));
    if (done < st->ncmds)
        out_printf("[space] runs: %s", lesson_cmd_text(s, &st->cmds[done]));
    else if (step + 1 < l->nsteps)
        out_printf("[space] next step: %s", l->steps[step + 1].title);
    else
        out_printf("the end: [q] leaves");
    out_printf("   [left] back   [q] quit%s\n", out_color(OUT_RESET));
    out_flush();
}

static void show(struct session *s, const struct lesson *l, int step)
{
    if (out_color_enabled() || isatty(fileno(out_stream()))) out_puts("\033[H\033[2J");
    out_printf("\n%*s%s%s%s\n", LECTURE_MARGIN, "", out_color(OUT_DIM), l->title, out_color(OUT_RESET));
    lesson_set_beside(&l->steps[step]);
    lesson_render_step(l, step, lecture_width(), LECTURE_MARGIN);
}

static int present(struct session *s, const struct lesson *l)
{
    int step = 0, done = 0;
    sig_install(1);
    show(s, l, step);
    hint(s, l, step, done);
    raw_on();
    for (;;) {
        enum key k = read_key();
        if (k == K_QUIT) break;
        if (k == K_AGAIN) {
            done = 0;
            show(s, l, step);
        } else if (k == K_BACK) {
            if (step > 0) step--;
            done = 0;
            show(s, l, step);
        } else if (k == K_NEXT) {
            const struct lesson_step *st = &l->steps[step];
            if (done < st->ncmds) {
                raw_off();
                enum cmd_status r = run_cmd(s, l, &st->cmds[done++], LECTURE_MARGIN);
                raw_on();
                sig_clear();
                if (r == CMD_QUIT || s->quit) break;
            } else if (step + 1 < l->nsteps) {
                step++;
                done = 0;
                show(s, l, step);
            } else {
                continue;
            }
        }
        hint(s, l, step, done);
    }
    raw_off();
    out_printf("\n");
    return 0;
}

static int rehearse(struct session *s, const struct lesson *l)
{
    for (int i = 0; i < l->nsteps; i++) {
        out_printf("\n%s%s%s\n", out_color(OUT_DIM), l->title, out_color(OUT_RESET));
        lesson_set_beside(&l->steps[i]);
        lesson_render_step(l, i, lecture_width(), 2);
        for (int c = 0; c < l->steps[i].ncmds; c++) {
            enum cmd_status r = run_cmd(s, l, &l->steps[i].cmds[c], 2);
            if (r == CMD_QUIT || s->quit || sig_int_count) return 0;
            if (s->bail && s->errors) return 0;
        }
    }
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
    lesson_set_render_session(s);
    int errors = s->errors;
    int repeats = s->cfg.repeats;
    if (s->cfg.repeats > 1) s->cfg.repeats = 1;
    sess_note_no_gpu(s);
    if (lesson_on_sim(s))
        out_note("the lecture runs on the simulator: results and pictures as on a GPU, times not");
    if (isatty(STDIN_FILENO) && isatty(fileno(out_stream())))
        present(s, l);
    else
        rehearse(s, l);
    s->cfg.repeats = repeats;
    lesson_set_beside(NULL);
    lesson_free(l);
    return s->errors > errors ? 1 : 0;
}
