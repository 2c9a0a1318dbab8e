/* export.h - a canvas as a picture file for slides and reports: SVG, PNG or
 * PDF through cairo. Each cell becomes its glyph in a monospaced font, in its
 * role's colour on a light page, with a filled rectangle where the cell has a
 * background (reverse video, highlighted and wrong cells, a background role).
 * A two-pixel cell (viz_put_halves) becomes two rectangles, the top half in
 * its top role's colour and the bottom half in its bottom role's. */
#ifndef GPULAB_VIZ_EXPORT_H
#define GPULAB_VIZ_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "viz/canvas.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum viz_export_fmt {
    VIZ_EXPORT_NONE = -1,
    VIZ_EXPORT_SVG = 0,
    VIZ_EXPORT_PNG,
    VIZ_EXPORT_PDF
} viz_export_fmt;

/* The format a file name asks for by its extension (case-insensitive). */
viz_export_fmt viz_export_format(const char *path);

/* Every export writes into the stream out, in the format of path's
 * extension; path also names the file in messages. The caller opens and
 * closes the file (gpulab through repl/safefile: a temporary file renamed
 * into place). A failed write gives the system's reason in err. */

/* The rows of c that hold something, from the top: what a picture of c
 * shows when no row count is given. */
int viz_export_rows(const canvas *c);

/* Write rows [0, rows) of c (rows <= 0: the whole canvas, blank rows at the
 * bottom left out) into out. 0 ok, -1 with a message in err. */
int viz_export_canvas(const canvas *c, int rows, const char *path, FILE *out, char *err, size_t errlen);
/* The same, width pixels (PNG) or points (SVG, PDF) across; 0: the natural
 * size (PNG at twice the points). */
int viz_export_canvas_width(const canvas *c, int rows, const char *path, FILE *out, int width, char *err,
                            size_t errlen);

/* A plot (render_plot.h) drawn for slides with vector graphics: axes with
 * ticks and their units, log scales where the swept values grow by a factor
 * (x2, x4) or the values span a factor of 30, a legend, each series in its
 * colour and marker. width: pixels (PNG, default 1600) or points (SVG and
 * PDF, default 800); 16:9. 0 ok, -1 with a message. */
struct viz_plot;
int viz_export_plot(const struct viz_plot *p, const char *path, FILE *out, int width, char *err,
                    size_t errlen);

/* The picture `export FILE.svg` writes is the newest one shown: the sweep's
 * plot or the player's current frame. Whoever shows a picture keeps a copy
 * in a viz_picture that its caller owns (the REPL's session), so the caller
 * may free its canvas; what names it in messages ("plot of the sweep",
 * "frame 3 of 12"). Start from {0}; free with viz_picture_free. */
struct viz_picture_plot;
typedef struct viz_picture {
    canvas *c;                     /* the cells shown, or NULL: no picture yet */
    int rows;                      /* rows of c in use */
    char what[160];
    struct viz_picture_plot *plot; /* a plot's data, drawn as a vector plot; or NULL */
} viz_picture;
void viz_picture_keep(viz_picture *pic, const canvas *c, int rows, const char *what);
/* A plot: its cells (what the terminal showed) and its data. */
void viz_picture_keep_plot(viz_picture *pic, const canvas *c, int rows, const struct viz_plot *p, const char *what);
/* Write the picture into out: the vector plot when it is a plot, else the
 * canvas. width as above (0: natural). 0 ok, -1 with err. */
int viz_picture_write(const viz_picture *pic, const char *path, FILE *out, int width, char *err, size_t errlen);
void viz_picture_free(viz_picture *pic);

#ifdef __cplusplus
}
#endif
#endif
