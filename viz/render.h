/* render.h - renderers: pictures of what the threads did, frame by frame.
 *
 * A renderer turns a recorded trace into a sequence of frames. Each frame is
 * a pure function of (trace, frame number, area): the same inputs draw the
 * same cells, whatever was drawn before, so the player can jump backwards,
 * two variants can play side by side, and golden files can pin any frame.
 *
 * To add a renderer: write viz/render_NAME.c defining
 *
 *     const viz_renderer viz_render_NAME = {
 *         .algos = "bitonic", .name = "butterfly network",
 *         .frames = NAME_frames, .draw = NAME_draw,
 *     };
 *
 * and add one line `X(viz_render_NAME)` to VIZ_RENDERERS in viz/renderers.c.
 *
 * draw() fills viz_frame_info: a title for the step counter, one caption
 * sentence saying what happens in this frame and why it matters, and the
 * frame's counters. It draws only inside area and never calls ncurses.
 */
#ifndef GPULAB_VIZ_RENDER_H
#define GPULAB_VIZ_RENDER_H

#include <stdio.h>

#include "viz/canvas.h"
#include "kernels/lab.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VIZ_CAPTION_MAX 1024
#define VIZ_TITLE_MAX 192
#define VIZ_MAX_COUNTERS 8
#define VIZ_COUNTER_NONE (-1LL) /* a counter that does not apply in this frame: "–" */
#define VIZ_COUNTER_WORD (-2LL) /* the unit is the whole value: "bank conflicts none (...)" */

typedef struct viz_counter {
    const char *name;   /* a string literal: "active threads" */
    long long value;    /* VIZ_COUNTER_NONE when it does not apply */
    const char *unit;   /* shown after the value ("-way"), or NULL */
} viz_counter;

typedef struct viz_frame_info {
    char title[VIZ_TITLE_MAX];     /* short: "stride 4" (the player adds "step 3/12") */
    char caption[VIZ_CAPTION_MAX]; /* one sentence: what happens, and why it matters */
    viz_counter counters[VIZ_MAX_COUNTERS];
    int ncounters;
} viz_frame_info;

void viz_info_clear(viz_frame_info *info);
void viz_info_title(viz_frame_info *info, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void viz_info_caption(viz_frame_info *info, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append a counter (ignored past VIZ_MAX_COUNTERS). The name is a string
 * literal, translated here (xgettext takes viz_info_counter's second
 * argument as a message); a unit is marked with N_() where it is written. */
void viz_info_counter(viz_frame_info *info, const char *name, long long value, const char *unit);
/* "active threads 64 · idle in active warps 0 · ..." within width columns;
 * returns the text's width. */
int viz_info_counters_text(const viz_frame_info *info, char *buf, size_t len);

typedef struct viz_renderer {
    const char *algos;    /* algorithm names it draws, space-separated ("reduce") */
    const char *variants; /* variants it draws, space-separated; NULL = all of them */
    const char *name;     /* what it draws, for help: "reduction tree" */
    /* Number of frames of this trace (at least 1). */
    int (*frames)(const lab_trace *t);
    /* Draw frame (0 .. frames-1) inside area; fill info (cleared by the caller). */
    void (*draw)(const lab_trace *t, int frame, canvas *c, viz_rect area, viz_frame_info *info);
    /* Optional: the rows a frame needs at this width when printed as text
     * (pipes); NULL means it uses whatever height it gets. */
    int (*height)(const lab_trace *t, int width);
    /* Smallest area the pictures stay readable in. */
    int min_w, min_h;
} viz_renderer;

/* The renderer for a trace's algorithm and variant, or NULL when there is none. */
const viz_renderer *viz_renderer_find(const char *algo, const char *variant);
/* Every renderer, i from 0 until NULL. */
const viz_renderer *viz_renderer_at(int i);
/* Is word one of the space-separated names in list (a renderer's algos, a
 * command's aliases)? */
int viz_name_in_list(const char *list, const char *word);

/* --------------------------------------------------- the timing table */

/* The rows of a run or compare as a table: variant, backend, n, block,
 * grid, ms (median, min, max), GB/s, % of peak, speedup, result, check, note.
 * Columns that do not fit in area.w are left out, least important first.
 * highlight: a row index to emphasise (the variant being animated), or -1.
 * Returns the number of canvas rows used (header, rule, one per row). */
int viz_table_draw(canvas *c, viz_rect area, const lab_result *rows, int nrows, int highlight);
/* Columns the table takes with every column shown. */
int viz_table_width(const lab_result *rows, int nrows);
/* Rows the table takes (header, rule and the rows). */
int viz_table_height(int nrows);
/* Print the table as text (term_text rules for f) at width columns. */
int viz_table_print(FILE *f, const lab_result *rows, int nrows, int width, int highlight,
                    int no_color_flag);

/* ------------------------------------------------ number formatting */

/* A value in at most width columns: exact when it fits, else with fewer
 * decimals, a k/M/G suffix, or an exponent. Integer dtypes print no
 * decimals. Returns buf. */
char *viz_fmt_value(double v, lab_dtype dt, int width, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
