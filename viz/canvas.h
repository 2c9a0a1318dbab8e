/* canvas.h - a grid of character cells that every picture is drawn into.
 *
 * Renderers draw into a canvas and never talk to a terminal: a backend
 * (term_text.c for pipes, tests and golden files, term_curses.c for the
 * full-screen player) shows the finished grid. That keeps every picture a
 * pure function of its data, testable byte for byte.
 *
 * A cell holds one Unicode code point (given to the canvas as UTF-8), a
 * colour role and attribute bits. Roles name what a cell means (an active
 * thread, a bank conflict, a heading), not a colour: the backend picks the
 * colour, or, in monochrome (NO_COLOR, TERM=dumb, --no-color), bold, dim,
 * reverse and underline. Renderers keep pictures readable without any of
 * that by choosing distinct glyphs, so plain text still tells the story.
 *
 * A cell may also name a background role: the colour its role's ink would
 * have fills the rest of the cell. That is what makes a half-block cell a
 * picture of two pixels, one above the other: viz_put_halves() writes ▀ with
 * the top pixel's role as the ink and the bottom pixel's role as the
 * background. Without colour (monochrome, plain text, ASCII) such a cell
 * cannot show two colours; backends show viz_cell_mono() instead, a shade or
 * a half block chosen from how much ink the two roles stand for.
 *
 * Drawing is clipped to the canvas and to a clip rectangle; wide characters
 * (CJK) take two cells, the second one marked as a continuation.
 */
#ifndef GPULAB_VIZ_CANVAS_H
#define GPULAB_VIZ_CANVAS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct viz_rect {
    int x, y, w, h;
} viz_rect;

static inline viz_rect viz_rect_make(int x, int y, int w, int h)
{
    viz_rect r = {x, y, w < 0 ? 0 : w, h < 0 ? 0 : h};
    return r;
}

/* The intersection of two rectangles (empty: w or h is 0). */
viz_rect viz_rect_intersect(viz_rect a, viz_rect b);

/* What a cell means. The order is part of the golden files' meaning only
 * through the style tables in canvas.c; add new roles before VIZ_ROLE_COUNT. */
typedef enum viz_role {
    VIZ_ROLE_TEXT = 0,   /* ordinary text */
    VIZ_ROLE_ACTIVE,     /* a thread doing work in this step; a value being written */
    VIZ_ROLE_IDLE,       /* a thread that waits (divergence) */
    VIZ_ROLE_SOURCE,     /* a value being read to be combined into another */
    VIZ_ROLE_SWAPPED,    /* compare-exchange that swapped */
    VIZ_ROLE_CONFLICT,   /* a bank conflict, a collision, contention */
    VIZ_ROLE_WRONG,      /* a wrong result, an error */
    VIZ_ROLE_OK,         /* a checked, correct result */
    VIZ_ROLE_HEADING,    /* titles, table headers */
    VIZ_ROLE_DIM,        /* secondary text, unused cells */
    VIZ_ROLE_VALUE,      /* a live data value */
    VIZ_ROLE_ARROW,      /* arrows and connectors: data moving */
    VIZ_ROLE_WARP,       /* warp boundaries */
    VIZ_ROLE_HIGHLIGHT,  /* the selected row, the current item */
    VIZ_ROLE_KEY,        /* key names in help and status lines */
    VIZ_ROLE_WARN,       /* a caution that is not an error */
    VIZ_ROLE_BLOCK0,     /* block palette: block b uses VIZ_ROLE_BLOCK0 + b % VIZ_NBLOCK_ROLES */
    VIZ_ROLE_BLOCK1,
    VIZ_ROLE_BLOCK2,
    VIZ_ROLE_BLOCK3,
    VIZ_ROLE_BLOCK4,
    VIZ_ROLE_BLOCK5,
    VIZ_ROLE_BLOCK6,
    VIZ_ROLE_BLOCK7,
    VIZ_ROLE_HEAT0,      /* heat scale, cold to hot: VIZ_ROLE_HEAT0 + level */
    VIZ_ROLE_HEAT1,
    VIZ_ROLE_HEAT2,
    VIZ_ROLE_HEAT3,
    VIZ_ROLE_HEAT4,
    VIZ_ROLE_HEAT5,
    VIZ_ROLE_HEAT6,
    VIZ_ROLE_HEAT7,
    VIZ_ROLE_COUNT
} viz_role;

#define VIZ_NBLOCK_ROLES 8
#define VIZ_NHEAT_ROLES 8

/* Attribute bits, added to whatever the role's style gives. */
#define VIZ_BOLD      0x01u
#define VIZ_REVERSE   0x02u
#define VIZ_DIMMED    0x04u
#define VIZ_UNDERLINE 0x08u
/* Set by viz_put_halves() only: the cell is two pixels (top: role, bottom:
 * bg), and its glyph is ▀, ▄, █ or a blank. Not a terminal attribute. */
#define VIZ_HALVES    0x10u

/* The background of an ordinary cell: the terminal's own (or the one the
 * role's style gives, as for highlighted cells). VIZ_ROLE_TEXT has no colour
 * of its own, so as a background it means "none". */
#define VIZ_BG_NONE VIZ_ROLE_TEXT

/* The second cell of a wide character. */
#define VIZ_CONT 0xFFFFFFFFu

typedef struct viz_cell {
    uint32_t cp;     /* code point; ' ' when blank; VIZ_CONT after a wide one */
    uint8_t role;    /* viz_role: the glyph's ink */
    uint8_t attr;    /* VIZ_BOLD | ... */
    uint8_t bg;      /* viz_role whose colour fills the rest of the cell;
                        VIZ_BG_NONE (0, the default): the terminal's background */
} viz_cell;

typedef struct canvas {
    int w, h;
    viz_cell *cells; /* h rows of w cells */
    viz_rect clip;   /* drawing outside it is dropped */
} canvas;

/* ------------------------------------------------------------ lifetime */

canvas *canvas_new(int w, int h);               /* NULL when out of memory */
void canvas_free(canvas *c);
/* New size, contents cleared, clip reset. 0 ok, -1 out of memory. */
int canvas_resize(canvas *c, int w, int h);
/* Every cell blank with role TEXT; clip reset. */
void canvas_clear(canvas *c);

/* --------------------------------------------------------------- clip */

viz_rect canvas_bounds(const canvas *c);
/* Set the clip (intersected with the canvas); returns the previous one. */
viz_rect canvas_set_clip(canvas *c, viz_rect r);

/* ---------------------------------------------------------- reading */

/* The cell at (x, y), or NULL outside the canvas. */
const viz_cell *canvas_at(const canvas *c, int x, int y);
/* The row as UTF-8 text without styles, trailing blanks dropped (tests). */
size_t canvas_row_text(const canvas *c, int y, char *buf, size_t len);

/* ---------------------------------------------------------- drawing */

/* One code point at (x, y). Wide characters take two cells. */
void canvas_put(canvas *c, int x, int y, uint32_t cp, int role, unsigned attr);
/* UTF-8 text from (x, y) on one line; returns the column after the last
 * cell written (x + width when nothing was clipped). Control characters
 * are shown as U+FFFD. */
int canvas_text(canvas *c, int x, int y, const char *s, int role, unsigned attr);
/* At most maxw columns; text that does not fit ends in an ellipsis. */
int canvas_textn(canvas *c, int x, int y, int maxw, const char *s, int role, unsigned attr);
int canvas_printf(canvas *c, int x, int y, int role, unsigned attr, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Two pixels in one cell: the top half in role `top`, the bottom half in
 * role `bottom` (VIZ_BG_NONE: the terminal's background). Writes ▀ with ink
 * top on background bottom; equal halves become █ (or a blank when both are
 * none), a half that is none becomes the background of ▄ or ▀. Terminals
 * brighten only the ink (bold), so when just the bottom role is bold in the
 * colour scheme the cell is written as ▄ with the halves swapped. */
void viz_put_halves(canvas *c, int x, int y, int top, int bottom);
/* Fill a rectangle with one glyph. */
void canvas_fill(canvas *c, viz_rect r, uint32_t cp, int role, unsigned attr);
/* Change the style of the cells in r, keeping their glyphs. */
void canvas_restyle(canvas *c, viz_rect r, int role, unsigned attr);
void canvas_hline(canvas *c, int x, int y, int len, uint32_t cp, int role, unsigned attr);
void canvas_vline(canvas *c, int x, int y, int len, uint32_t cp, int role, unsigned attr);
/* A light box around r, with an optional title in its top edge. */
void canvas_box(canvas *c, viz_rect r, const char *title, int role, unsigned attr);
/* Word-wrapped text inside r; returns the lines the whole text needs at
 * r.w columns (also those that did not fit below r). With a NULL canvas
 * it only measures. */
int canvas_wrap(canvas *c, viz_rect r, const char *s, int role, unsigned attr);

/* ------------------------------------------------------------- UTF-8 */

/* Decode one code point from *s (advancing it); invalid bytes give U+FFFD.
 * Returns 0 at the end of the string. */
uint32_t viz_utf8_next(const char **s);
/* Encode cp into out (at least 4 bytes); returns the byte count. */
int viz_utf8_encode(uint32_t cp, char *out);
/* Columns a code point takes in a terminal: 0, 1 or 2. */
int viz_cp_width(uint32_t cp);
/* Columns a UTF-8 string takes. */
int viz_text_width(const char *s);
/* An ASCII stand-in for a glyph, for terminals without UTF-8. */
char viz_ascii_glyph(uint32_t cp);

/* ------------------------------------------------------------ styles */

/* How a role looks. Colours are the eight ANSI colours (0 black .. 7 white)
 * or -1 for the terminal's default. */
typedef struct viz_style {
    short fg, bg;
    unsigned attr;
} viz_style;

/* The style of a role in the colour or the monochrome scheme. */
viz_style viz_role_style(int role, int colour);
/* The role's style with the cell's own attribute bits added; in colour, a
 * background role other than VIZ_BG_NONE gives the background colour. */
viz_style viz_cell_style(const viz_cell *cell, int colour);
/* The colour a role's ink shows in the colour scheme (what █ in that role
 * looks like): 0..7, or -1 for the terminal's default. */
short viz_role_ink_colour(int role);
/* How much of a cell a role's pixel covers when there is no colour, in
 * eighths: 0 for none (VIZ_ROLE_TEXT), the level for heat roles, 8 (solid)
 * for every other role. */
int viz_role_ink(int role);
/* What a cell shows where colours cannot: a two-pixel cell (VIZ_HALVES)
 * becomes one glyph in one role. When exactly one half is solid it is ▀ or
 * ▄ in that half's role; else the shade of the two halves' mean ink (blank,
 * '.', ░, ▒, ▓, █ by eighths) in the role of the inkier half. Any other
 * cell comes back as it is, without its background. */
viz_cell viz_cell_mono(const viz_cell *cell);
/* The roles of a two-pixel cell's top and bottom halves (VIZ_BG_NONE for a
 * half that shows the background). 0 when the cell is not one. */
int viz_cell_halves(const viz_cell *cell, int *top, int *bottom);
/* Whether to use colour: not when no_color_flag (--no-color), NO_COLOR is set
 * to anything non-empty, or TERM is unset or "dumb". */
int viz_colour_wanted(int no_color_flag);
/* Whether the current locale writes UTF-8 (else backends use ASCII glyphs). */
int viz_locale_utf8(void);

/* A role for block b's palette entry and a glyph that tells blocks apart
 * without colour. */
int viz_block_role(long long b);
uint32_t viz_block_glyph(long long b);
/* A role and a glyph for a heat level in [0, VIZ_NHEAT_ROLES). */
int viz_heat_role(int level);
uint32_t viz_heat_glyph(int level);

#ifdef __cplusplus
}
#endif
#endif
