/* render_plot.h - a line plot of measurements in character cells: time or
 * GB/s against a swept block size, grid or n, one line per variant.
 *
 * Like every renderer it is a pure function of its data and the area: the
 * same plot draws the same cells, so golden files can pin it. */
#ifndef GPULAB_VIZ_RENDER_PLOT_H
#define GPULAB_VIZ_RENDER_PLOT_H

#include "viz/canvas.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VIZ_PLOT_AUTO (-1)
#define VIZ_PLOT_MAX_SERIES 8

typedef struct viz_plot_series {
    const char *name;      /* the legend's word: the variant */
    int n;
    const double *x, *y;   /* points; a y that is not > 0 and finite is a gap (not run) */
} viz_plot_series;

typedef struct viz_plot {
    const char *title;     /* the first row, or NULL */
    const char *xlabel;    /* under the x axis: "block (threads per block)" */
    const char *ylabel;    /* above the y axis: "GB/s" */
    const char *caption;   /* a sentence under the legend, or NULL */
    int nseries;           /* at most VIZ_PLOT_MAX_SERIES are drawn */
    const viz_plot_series *series;
    int logx, logy;        /* 1 log, 0 linear, VIZ_PLOT_AUTO: log where it fits */
} viz_plot;

/* Draw p inside area; returns the rows used. Areas smaller than
 * VIZ_PLOT_MIN_W x VIZ_PLOT_MIN_H get a one-line message instead. */
#define VIZ_PLOT_MIN_W 30
#define VIZ_PLOT_MIN_H 10
int viz_plot_draw(canvas *c, viz_rect area, const viz_plot *p);

/* Whether the axes come out logarithmic for this data (after AUTO). */
int viz_plot_log_x(const viz_plot *p);
int viz_plot_log_y(const viz_plot *p);

/* The marker of series i, and its colour role. */
uint32_t viz_plot_marker(int i);
int viz_plot_role(int i);

/* Axis numbers, compact: 1024 -> "1Ki", 67108864 -> "64Mi", 1000 -> "1000",
 * 0.125 -> "0.125". Returns buf. */
char *viz_plot_fmt(double v, int binary, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
