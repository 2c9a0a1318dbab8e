/* term.h - the two backends that show a canvas.
 *
 * term_text.c writes a canvas as lines of text: plain (pipes, scripts),
 * with ANSI attributes only (monochrome), or with ANSI colours. Golden files
 * are this output, byte for byte. A two-pixel cell (viz_put_halves) is ▀ in
 * its top colour on its bottom colour; where there are no colours (plain,
 * monochrome) or no half-block glyphs (ASCII) it is its stand-in,
 * viz_cell_mono().
 *
 * term_curses.c owns the terminal while the player runs: it enters ncursesw's
 * full-screen mode, copies a canvas into the screen with one doupdate() per
 * frame (ncurses sends only what changed, so nothing flickers), reads keys,
 * and gives the terminal back exactly as it was.
 */
#ifndef GPULAB_VIZ_TERM_H
#define GPULAB_VIZ_TERM_H

#include <signal.h>
#include <stdio.h>

#include "viz/canvas.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- text */

typedef enum viz_text_mode {
    VIZ_TEXT_PLAIN = 0, /* glyphs only */
    VIZ_TEXT_MONO,      /* glyphs and SGR attributes (bold, dim, underline, reverse) */
    VIZ_TEXT_COLOUR     /* glyphs, attributes and the eight ANSI colours */
} viz_text_mode;

typedef struct viz_text_opts {
    viz_text_mode mode;
    int ascii;       /* replace non-ASCII glyphs by ASCII stand-ins */
    int trim_bottom; /* leave out blank rows at the bottom */
} viz_text_opts;

/* The canvas as text: one line per row ending in '\n', trailing blanks
 * dropped, every styled run closed with SGR 0 before the line ends.
 * Returns a malloc'd string (NULL when out of memory); *len gets its length
 * when len is not NULL. */
char *viz_text_render(const canvas *c, const viz_text_opts *o, size_t *len);
/* The same written to f; 0 ok, -1 on a write error. */
int viz_text_write(FILE *f, const canvas *c, const viz_text_opts *o);
/* The mode for f under the usual rules: PLAIN when f is not a terminal or
 * TERM is dumb, MONO when colour is not wanted (viz_colour_wanted), else
 * COLOUR; ascii when the locale is not UTF-8. */
viz_text_opts viz_text_opts_for(FILE *f, int no_color_flag);

/* ----------------------------------------------------------- curses */

/* Keys, as the player sees them: printable keys are their character. */
enum {
    VIZ_KEY_NONE = -1,   /* timeout: nothing pressed */
    VIZ_KEY_ESC = 27,
    VIZ_KEY_RESIZE = 0x10000,
    VIZ_KEY_LEFT,
    VIZ_KEY_RIGHT,
    VIZ_KEY_UP,
    VIZ_KEY_DOWN,
    VIZ_KEY_HOME,
    VIZ_KEY_END,
    VIZ_KEY_PGUP,
    VIZ_KEY_PGDN,
    VIZ_KEY_INTERRUPT,   /* a signal asked the player to stop */
    VIZ_KEY_OTHER,       /* a key the player does not use */
    VIZ_KEY_MOUSE        /* a click: viz_term_mouse() says where */
};

typedef struct viz_term viz_term;

/* Colour pairs, made on first use: one per (ink, background) combination of
 * the eight colours and the default (-1), numbered from 1 in the order they
 * are first asked for, while the terminal has pairs (COLOR_PAIRS) left. Kept
 * apart from ncurses so that running out can be tested. */
#define VIZ_NPAIR_COLOURS 9 /* -1 (default) and 0..7 */
typedef struct viz_pairs {
    short num[VIZ_NPAIR_COLOURS][VIZ_NPAIR_COLOURS]; /* 0: not made yet; -1: none was left */
    int made, limit;
} viz_pairs;
/* color_pairs: the terminal's COLOR_PAIRS (pair 0 is fixed, so it can make
 * color_pairs - 1). */
void viz_pairs_init(viz_pairs *p, int color_pairs);
/* The pair for (fg, bg): 0 for the default colours, else a number >= 1, or
 * -1 when no pair is left (also for colours outside -1..7). *fresh is set to
 * 1 when the number is new and must be given its colours (init_pair); when
 * that fails, viz_pairs_failed() marks the combination as having none. */
int viz_pairs_get(viz_pairs *p, short fg, short bg, int *fresh);
void viz_pairs_failed(viz_pairs *p, short fg, short bg);

/* Take the terminal (stdin/stdout must be a terminal). colour: use colours
 * when the terminal has them. NULL with a message when it cannot. */
viz_term *viz_term_open(int colour, char *err, size_t errlen);
/* Give the terminal back as it was (endwin), free everything. */
void viz_term_close(viz_term *t);
/* The screen size now. */
void viz_term_size(viz_term *t, int *w, int *h);
/* Show the canvas: every cell copied, then one doupdate(). Without colours
 * (or UTF-8) two-pixel cells show their stand-in (viz_cell_mono); a cell
 * whose colours find no pair left is drawn as its stand-in in its ink colour,
 * or else in its monochrome style. */
void viz_term_present(viz_term *t, const canvas *c);
/* Wait for a key: timeout_ms < 0 blocks (no CPU used while waiting), 0
 * polls. interrupted is polled too: when it becomes non-zero the call
 * returns VIZ_KEY_INTERRUPT (a signal wakes a blocked read). */
int viz_term_key(viz_term *t, int timeout_ms, volatile const sig_atomic_t *interrupted);
/* Where the last VIZ_KEY_MOUSE clicked (columns and rows from 0). */
void viz_term_mouse(viz_term *t, int *x, int *y);
/* Restore the terminal from a crash path (fatal signal): only endwin(). */
void viz_term_emergency_restore(void);

#ifdef __cplusplus
}
#endif
#endif
