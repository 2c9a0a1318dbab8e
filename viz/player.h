/* player.h - playing a renderer's frames: full screen, or as text.
 *
 * The player shows one trace (or two side by side, in step) with a caption,
 * the frame's counters, and the timing table. Its logic is split so tests
 * can reach it without a terminal: viz_player_key() is the key handling and
 * viz_player_compose() draws a whole screen into a canvas; viz_player_run()
 * only adds the terminal, the clock and the signals around them.
 */
#ifndef GPULAB_VIZ_PLAYER_H
#define GPULAB_VIZ_PLAYER_H

#include <stdio.h>

#include "viz/canvas.h"
#include "kernels/lab.h"
#include "viz/render.h"
#include "viz/render_access.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VIZ_MAX_SIDES 2

/* One animation: a trace and what draws it; or, with acc set (r and trace
 * may then be NULL), the generic animation of an automatic access trace,
 * with its code pane. */
typedef struct viz_side {
    const viz_renderer *r;
    const lab_trace *trace;
    const char *label;      /* "reduce/interleaved" */
    const viz_access *acc;
} viz_side;

typedef struct viz_player_opts {
    int no_color;           /* --no-color (NO_COLOR and TERM=dumb are honoured anyway) */
    const lab_result *rows; /* the timing table beside the animation; may be NULL */
    int nrows;
    const char *heading;    /* first line of the screen: "reduce  n = 256 int  sim" */
    struct viz_picture *keep; /* the frame on screen is kept here for export (export.h), or NULL */
} viz_player_opts;

/* ------------------------------------------------------------- state */

/* Seconds per step at each speed. */
#define VIZ_NSPEEDS 7

typedef struct viz_play_state {
    int frame, nframes;     /* nframes: the longest side */
    int playing;
    int speed;              /* 0 (slowest) .. VIZ_NSPEEDS-1 */
    int help;               /* the help overlay is up */
    int caption;            /* w: the step's whole caption is up, over the picture */
    int hide_keys;          /* k: the key line is hidden (a clean screen for a projector) */
    int hide_table;         /* t: the timing table is hidden */
    int quit;
    /* the generic animation (a side with acc) */
    int zoom;               /* z: a step is one warp instruction */
    int code;               /* s: the code pane (beside the picture when wide, instead of it when not) */
    viz_access_sel sel;     /* the cell cursor (arrows move it while on) and the chosen thread */
} viz_play_state;

void viz_play_init(viz_play_state *st, int nframes);
/* Milliseconds a frame stays up at the current speed. */
int viz_play_delay_ms(const viz_play_state *st);
/* One key (term.h's VIZ_KEY_* or a character). Returns 1 when the screen
 * must be drawn again. */
int viz_player_key(viz_play_state *st, int key);
/* The same with the sides, for the keys of the generic animation (cell
 * cursor, thread, zoom, code pane). */
int viz_player_key_sides(viz_play_state *st, int key, const viz_side *sides, int nsides);
/* A mouse click at (x, y) of a screen of w x h: selects the cell there.
 * Returns 1 when the screen must be drawn again. */
int viz_player_click(viz_play_state *st, const viz_side *sides, int nsides, const viz_player_opts *o, int w, int h,
                     int x, int y);
/* The clock ran out while playing: the next frame (stops at the last). */
void viz_player_tick(viz_play_state *st);

/* ------------------------------------------------------------ drawing */

/* The smallest terminal the sides fit in. */
void viz_player_min_size(const viz_side *sides, int nsides, const viz_player_opts *o, int *w, int *h);
/* A whole screen into c (its size is the terminal's): status line,
 * animations, captions, counters, the table, the key line; or the help
 * overlay; or, when c is too small, a message saying how large it must be. */
void viz_player_compose(canvas *c, const viz_side *sides, int nsides, const viz_play_state *st,
                        const viz_player_opts *o);
/* The frame as `export FILE.svg` draws it: w columns wide and as tall as it
 * needs, with every line of the captions, the table (unless hidden) and no
 * key line, help or key hints. NULL when out of memory. */
canvas *viz_player_compose_export(const viz_side *sides, int nsides, const viz_play_state *st,
                                  const viz_player_opts *o, int w);

/* ------------------------------------------------------------ running */

/* Full screen until q or Esc. 0: the user left; 1: Ctrl-C or a signal
 * ended it; -1: the terminal could not be used (err says why). The terminal
 * is restored in every case. */
int viz_player_run(const viz_side *sides, int nsides, const viz_player_opts *o, char *err,
                   size_t errlen);

/* Every frame as text, one after another, then the table: for pipes and
 * scripts. width: columns (0: $COLUMNS, else 100). 0 ok, -1 write error. */
int viz_player_print(FILE *f, const viz_side *sides, int nsides, const viz_player_opts *o, int width);

#ifdef __cplusplus
}
#endif
#endif
