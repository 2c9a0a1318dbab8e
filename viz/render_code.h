/* render_code.h - kernel source in a canvas: line numbers, one highlighted
 * line (the current step's), marked lines (those that touched a selected
 * cell), and CUDA syntax in roles: keywords, CUDA's built-in variables and
 * barriers, comments, strings and numbers. Readable without colour: the
 * highlighted line is reversed and marked with ▶ in the gutter, marked
 * lines carry •, keywords are bold and comments dim. */
#ifndef GPULAB_RENDER_CODE_H
#define GPULAB_RENDER_CODE_H

#include <stddef.h>

#include "viz/canvas.h"

typedef struct viz_code {
    const char *text;     /* the source (need not end in a newline) */
    size_t len;
    int first_line;       /* number of text's first line (1 for a whole file) */
    int highlight;        /* line to highlight (a file line number), 0: none */
    const int *marks;     /* lines to mark, may be NULL */
    int nmarks;
    const char *title;    /* drawn in the top border, or NULL for no border */
    const int *line_numbers; /* the file number of each line of text (lines left
                                out between them), or NULL: first_line on */
    int nlines;           /* how many line_numbers there are */
} viz_code;

/* Draw code into r. The lines shown are chosen so that the highlighted line
 * is in view (a third from the top when the source is longer than r);
 * lines longer than r are cut with …. Returns the number of source lines
 * drawn. */
int viz_render_code(canvas *c, viz_rect r, const viz_code *code);

/* The lines of text [from, to] (file line numbers, 1-based, inclusive)
 * of the function whose definition contains `name(`: from its template or
 * attribute line to its closing brace. 0 found, -1 not found. */
int viz_code_find_function(const char *text, size_t len, const char *name, int *from, int *to);

#endif
