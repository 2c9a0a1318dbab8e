/* term_curses.c - the full-screen backend, on ncursesw.
 *
 * One screen per player session: newterm() on the way in, endwin() and
 * delscreen() on the way out, so the REPL's terminal (and readline's view of
 * it) is exactly as before. Frames are copied cell by cell into stdscr and
 * shown with a single doupdate(): ncurses sends only the cells that changed,
 * which is what keeps playing free of flicker.
 */
#include "viz/term.h"

#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>

#include "viz/intl.h"

struct viz_term {
    SCREEN *scr;
    FILE *in;            /* the keyboard: stdin, or /dev/tty when stdin is a pipe */
    int own_in;
    int colour, utf8;
    char *old_locale;    /* LC_CTYPE before we set it from the environment */
    int default_colours; /* use_default_colors() worked: -1 is a colour */
    viz_pairs pairs;
    struct sigaction old_winch, old_tstp;
};

/* For the crash path: the screen that is up, if any. */
static viz_term *active_term;

/* SIGWINCH only sets this; viz_term_key() resizes. Our own handler (rather
 * than ncurses' one) also works when another library already had one. */
static volatile sig_atomic_t winch_pending;

static void on_winch(int sig)
{
    (void)sig;
    winch_pending = 1;
}

viz_term *viz_term_open(int colour, char *err, size_t errlen)
{
    viz_term *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "%s", _("out of memory"));
        return NULL;
    }
    if (!isatty(STDOUT_FILENO)) {
        snprintf(err, errlen, "%s", _("standard output is not a terminal"));
        free(t);
        return NULL;
    }
    t->in = stdin;
    if (!isatty(STDIN_FILENO)) {
        /* Commands come from a pipe; keys can still come from the terminal. */
        t->in = fopen("/dev/tty", "r");
        if (!t->in) {
            snprintf(err, errlen, "%s", _("no terminal to read keys from"));
            free(t);
            return NULL;
        }
        t->own_in = 1;
    }
    /* ncursesw writes UTF-8 only under a UTF-8 LC_CTYPE; the REPL may still
     * run in the "C" locale, so take the user's for the time we draw. */
    const char *cur = setlocale(LC_CTYPE, NULL);
    t->old_locale = cur ? strdup(cur) : NULL;
    if (cur && (strcmp(cur, "C") == 0 || strcmp(cur, "POSIX") == 0)) setlocale(LC_CTYPE, "");
    t->utf8 = viz_locale_utf8();

    const char *term = getenv("TERM");
    if (!term || !*term) term = "dumb";
    /* Installed before newterm(), which then leaves SIGWINCH to us. No
     * SA_RESTART: a resize wakes a blocked read at once. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_winch;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGWINCH, &sa, &t->old_winch);
    /* ncurses takes Ctrl-Z over while it runs; the REPL gets it back. */
    sigaction(SIGTSTP, NULL, &t->old_tstp);
    winch_pending = 0;
    t->scr = newterm(term, stdout, t->in);
    if (!t->scr) {
        sigaction(SIGWINCH, &t->old_winch, NULL);
        sigaction(SIGTSTP, &t->old_tstp, NULL);
        snprintf(err, errlen, _("this terminal (TERM=%s) cannot be driven full-screen"), term);
        if (t->own_in) fclose(t->in);
        if (t->old_locale) setlocale(LC_CTYPE, t->old_locale);
        free(t->old_locale);
        free(t);
        return NULL;
    }
    set_term(t->scr);
    cbreak();               /* keys at once; Ctrl-C still raises SIGINT */
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    intrflush(stdscr, FALSE);
    leaveok(stdscr, TRUE);
    set_escdelay(25);       /* Esc alone leaves at once */
    curs_set(0);
    /* clicks select cells in the generic animation; ncurses turns the
     * terminal's mouse reporting off again in endwin */
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
    mouseinterval(0);
    t->colour = colour && has_colors();
    if (t->colour) {
        start_color();
        t->default_colours = use_default_colors() == OK;
        viz_pairs_init(&t->pairs, COLOR_PAIRS);
    }
    active_term = t;
    return t;
}

void viz_term_close(viz_term *t)
{
    if (!t) return;
    if (t->scr) {
        curs_set(1);
        endwin();
        delscreen(t->scr);
    }
    if (active_term == t) active_term = NULL;
    sigaction(SIGWINCH, &t->old_winch, NULL);
    sigaction(SIGTSTP, &t->old_tstp, NULL);
    if (t->own_in) fclose(t->in);
    if (t->old_locale) setlocale(LC_CTYPE, t->old_locale);
    free(t->old_locale);
    free(t);
}

void viz_term_emergency_restore(void)
{
    if (active_term && active_term->scr) endwin();
}

void viz_term_size(viz_term *t, int *w, int *h)
{
    (void)t;
    int y, x;
    getmaxyx(stdscr, y, x);
    *w = x;
    *h = y;
}

void viz_pairs_init(viz_pairs *p, int color_pairs)
{
    memset(p, 0, sizeof *p);
    int most = VIZ_NPAIR_COLOURS * VIZ_NPAIR_COLOURS;
    p->limit = color_pairs - 1 < most ? color_pairs - 1 : most;
    if (p->limit < 0) p->limit = 0;
}

int viz_pairs_get(viz_pairs *p, short fg, short bg, int *fresh)
{
    *fresh = 0;
    if (fg < -1 || fg > 7 || bg < -1 || bg > 7) return -1;
    if (fg < 0 && bg < 0) return 0;
    short *n = &p->num[fg + 1][bg + 1];
    if (*n == 0) {
        if (p->made >= p->limit) {
            *n = -1;
        } else {
            *n = (short)++p->made;
            *fresh = 1;
        }
    }
    return *n;
}

void viz_pairs_failed(viz_pairs *p, short fg, short bg)
{
    if (fg >= -1 && fg <= 7 && bg >= -1 && bg <= 7) p->num[fg + 1][bg + 1] = -1;
}

/* The pair for a colour combination, made on first use; -1 when none is
 * left. Without the terminal's default colours, -1 becomes white on black. */
static int pair_for(viz_term *t, short fg, short bg)
{
    if (!t->default_colours && (fg >= 0 || bg >= 0)) {
        if (fg < 0) fg = COLOR_WHITE;
        if (bg < 0) bg = COLOR_BLACK;
    }
    int fresh;
    int pair = viz_pairs_get(&t->pairs, fg, bg, &fresh);
    if (fresh && init_pair((short)pair, fg, bg) == ERR) {
        viz_pairs_failed(&t->pairs, fg, bg);
        return -1;
    }
    return pair;
}

/* What a cell looks like on this screen: its glyph, attributes and pair. */
static void cell_look(viz_term *t, const viz_cell *in, uint32_t *cp, attr_t *a, short *pair)
{
    viz_cell cell = *in;
    if ((cell.attr & VIZ_HALVES) && (!t->colour || !t->utf8)) cell = viz_cell_mono(&cell);
    viz_style st = viz_cell_style(&cell, t->colour);
    int p = 0;
    if (t->colour) {
        p = pair_for(t, st.fg, st.bg);
        if (p < 0 && (cell.attr & VIZ_HALVES)) {
            /* no pair for both colours: one glyph in the ink colour */
            cell = viz_cell_mono(&cell);
            st = viz_cell_style(&cell, 1);
            p = pair_for(t, st.fg, st.bg);
        }
        if (p < 0) {
            st = viz_cell_style(&cell, 0);
            p = 0;
        }
    }
    *a = A_NORMAL;
    if (st.attr & VIZ_BOLD) *a |= A_BOLD;
    if (st.attr & VIZ_DIMMED) *a |= A_DIM;
    if (st.attr & VIZ_REVERSE) *a |= A_REVERSE;
    if (st.attr & VIZ_UNDERLINE) *a |= A_UNDERLINE;
    *pair = (short)p;
    *cp = cell.cp;
}

void viz_term_present(viz_term *t, const canvas *c)
{
    int sw, sh;
    viz_term_size(t, &sw, &sh);
    int w = c->w < sw ? c->w : sw, h = c->h < sh ? c->h : sh;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            const viz_cell *cell = canvas_at(c, x, y);
            if (cell->cp == VIZ_CONT) continue;
            uint32_t cp;
            attr_t a;
            short pair;
            cell_look(t, cell, &cp, &a, &pair);
            if (!t->utf8 && cp >= 0x80) cp = (unsigned char)viz_ascii_glyph(cp);
            /* A wide glyph that would hang over the right edge becomes a blank. */
            if (viz_cp_width(cp) == 2 && x + 1 >= w) cp = ' ';
            wchar_t wc[2] = {(wchar_t)cp, 0};
            cchar_t cc;
            setcchar(&cc, wc, a, pair, NULL);
            mvwadd_wch(stdscr, y, x, &cc); /* the bottom-right cell reports ERR: harmless */
        }
        /* What the canvas does not cover (a smaller canvas after a resize). */
        if (w < sw) {
            wmove(stdscr, y, w);
            wclrtoeol(stdscr);
        }
    }
    if (h < sh) {
        wmove(stdscr, h, 0);
        wclrtobot(stdscr);
    }
    wnoutrefresh(stdscr);
    doupdate();
}

static int map_key(int k)
{
    switch (k) {
    case KEY_LEFT: return VIZ_KEY_LEFT;
    case KEY_RIGHT: return VIZ_KEY_RIGHT;
    case KEY_UP: return VIZ_KEY_UP;
    case KEY_DOWN: return VIZ_KEY_DOWN;
    case KEY_HOME: return VIZ_KEY_HOME;
    case KEY_END: return VIZ_KEY_END;
    case KEY_PPAGE: return VIZ_KEY_PGUP;
    case KEY_NPAGE: return VIZ_KEY_PGDN;
    case KEY_RESIZE: return VIZ_KEY_RESIZE;
#ifdef KEY_FIND
    case KEY_FIND: return VIZ_KEY_HOME;   /* Home on some terminals */
#endif
#ifdef KEY_SELECT
    case KEY_SELECT: return VIZ_KEY_END;  /* End on some terminals */
#endif
    default: return VIZ_KEY_OTHER;
    }
}

/* ncurses hands over a lone Esc both for the Esc key and for the start of a
 * sequence its terminfo entry does not know (Home and End differ between
 * terminals). The rest of such a sequence is already waiting: read it, and
 * read the common ones; only an Esc with nothing behind it means Esc. */
static int escape_sequence(void)
{
    char seq[16];
    int n = 0;
    wint_t ch;
    nodelay(stdscr, TRUE);
    while (n < (int)sizeof seq - 1 && wget_wch(stdscr, &ch) == OK) {
        seq[n++] = (char)ch;
        /* a CSI or SS3 sequence ends with a letter or '~' */
        if (n > 1 && ((ch >= '@' && ch <= '~' && ch != '[') || ch == '~')) break;
        if (n == 1 && ch != '[' && ch != 'O') break; /* Alt+key: not ours */
    }
    nodelay(stdscr, FALSE);
    seq[n] = '\0';
    if (n == 0) return VIZ_KEY_ESC;
    static const struct {
        const char *seq;
        int key;
    } known[] = {
        {"[H", VIZ_KEY_HOME}, {"OH", VIZ_KEY_HOME}, {"[1~", VIZ_KEY_HOME}, {"[7~", VIZ_KEY_HOME},
        {"[F", VIZ_KEY_END},  {"OF", VIZ_KEY_END},  {"[4~", VIZ_KEY_END},  {"[8~", VIZ_KEY_END},
        {"[A", VIZ_KEY_UP},   {"OA", VIZ_KEY_UP},   {"[B", VIZ_KEY_DOWN},  {"OB", VIZ_KEY_DOWN},
        {"[C", VIZ_KEY_RIGHT}, {"OC", VIZ_KEY_RIGHT}, {"[D", VIZ_KEY_LEFT}, {"OD", VIZ_KEY_LEFT},
        {"[5~", VIZ_KEY_PGUP}, {"[6~", VIZ_KEY_PGDN},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(seq, known[i].seq) == 0) return known[i].key;
    return VIZ_KEY_OTHER;
}

/* Take the terminal's new size into ncurses. */
static int resized(void)
{
    if (!winch_pending) return 0;
    winch_pending = 0;
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
        resizeterm(ws.ws_row, ws.ws_col);
    return 1;
}

static int mouse_x, mouse_y;

void viz_term_mouse(viz_term *t, int *x, int *y)
{
    (void)t;
    *x = mouse_x;
    *y = mouse_y;
}

int viz_term_key(viz_term *t, int timeout_ms, volatile const sig_atomic_t *interrupted)
{
    (void)t;
    if (interrupted && *interrupted) return VIZ_KEY_INTERRUPT;
    if (resized()) return VIZ_KEY_RESIZE;
    wtimeout(stdscr, timeout_ms < 0 ? -1 : timeout_ms);
    wint_t ch = 0;
    int r = wget_wch(stdscr, &ch);
    if (interrupted && *interrupted) return VIZ_KEY_INTERRUPT;
    if (resized()) return VIZ_KEY_RESIZE;
    if (r == ERR) return VIZ_KEY_NONE; /* timeout, or a signal woke the read */
    if (r == KEY_CODE_YES && ch == KEY_MOUSE) {
        MEVENT ev;
        if (getmouse(&ev) != OK || !(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))) return VIZ_KEY_OTHER;
        mouse_x = ev.x;
        mouse_y = ev.y;
        return VIZ_KEY_MOUSE;
    }
    if (r == KEY_CODE_YES) return map_key((int)ch);
    if (ch == 27) return escape_sequence();
    return (int)ch;
}
