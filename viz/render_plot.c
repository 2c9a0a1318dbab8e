/* render_plot.c - measurements against a swept value, drawn in cells.
 *
 * One marker glyph per series (so the lines stay apart without colour),
 * dotted segments between the points of a series, a y axis with round tick
 * values, x ticks at the measured values, a legend and an optional caption.
 * Axes go logarithmic where the data spans enough: doubling block sizes and
 * sizes from 2^10 to 2^28 read best that way; a linear step does not. */
#include "viz/render_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viz/intl.h"
#include "viz/render.h"

static const uint32_t markers[VIZ_PLOT_MAX_SERIES] = {
    0x25cf, /* ● */ 0x25b2, /* ▲ */ 0x00d7, /* × */ 0x25bc, /* ▼ */
    0x25b6, /* ▶ */ 0x25c0, /* ◀ */ 0x25a0, /* ■ */ 0x25cb, /* ○ */
};
#define DOT 0x00b7 /* · */

uint32_t viz_plot_marker(int i)
{
    return markers[((i % VIZ_PLOT_MAX_SERIES) + VIZ_PLOT_MAX_SERIES) % VIZ_PLOT_MAX_SERIES];
}

int viz_plot_role(int i)
{
    return viz_block_role(i);
}

static int valid(double y)
{
    return isfinite(y) && y > 0;
}

static int nseries(const viz_plot *p)
{
    return p->nseries < VIZ_PLOT_MAX_SERIES ? p->nseries : VIZ_PLOT_MAX_SERIES;
}

char *viz_plot_fmt(double v, int binary, char *buf, size_t len)
{
    static const char *const bin[] = {"Ki", "Mi", "Gi", "Ti"};
    if (v == floor(v) && fabs(v) < 9e15) {
        long long n = (long long)v;
        if (binary && n >= 1024) {
            int k = -1;
            long long m = n;
            while (m >= 1024 && m % 1024 == 0 && k < 3) {
                m /= 1024;
                k++;
            }
            if (k >= 0) {
                snprintf(buf, len, "%lld%s", m, bin[k]);
                return buf;
            }
        }
        if (llabs(n) < 100000) {
            snprintf(buf, len, "%lld", n);
            return buf;
        }
    }
    return viz_fmt_value(v, LAB_DOUBLE, 6, buf, len);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The distinct x values of every series, sorted; returns their count. */
static int distinct_x(const viz_plot *p, double *out, int max)
{
    int n = 0;
    for (int s = 0; s < nseries(p); s++)
        for (int i = 0; i < p->series[s].n && n < max; i++) {
            double x = p->series[s].x[i];
            if (!isfinite(x)) continue;
            int seen = 0;
            for (int k = 0; k < n && !seen; k++) seen = out[k] == x;
            if (!seen) out[n++] = x;
        }
    qsort(out, (size_t)n, sizeof out[0], cmp_double);
    return n;
}

int viz_plot_log_x(const viz_plot *p)
{
    if (p->logx != VIZ_PLOT_AUTO) return p->logx != 0;
    double xs[512];
    int n = distinct_x(p, xs, 512);
    if (n < 2 || xs[0] <= 0 || xs[n - 1] / xs[0] < 16) return 0;
    /* log where the points grow by a factor, not by a step */
    for (int i = 1; i < n; i++)
        if (xs[i] / xs[i - 1] < 1.5) return 0;
    return 1;
}

static int y_range(const viz_plot *p, double *lo, double *hi)
{
    int n = 0;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int s = 0; s < nseries(p); s++)
        for (int i = 0; i < p->series[s].n; i++) {
            double y = p->series[s].y[i];
            if (!valid(y)) continue;
            if (y < *lo) *lo = y;
            if (y > *hi) *hi = y;
            n++;
        }
    return n;
}

int viz_plot_log_y(const viz_plot *p)
{
    if (p->logy != VIZ_PLOT_AUTO) return p->logy != 0;
    double lo, hi;
    if (y_range(p, &lo, &hi) < 2) return 0;
    return hi / lo >= 30;
}

/* The smallest of 1, 2, 5 x 10^k that is at least x. */
static double nice_step(double x)
{
    double e = pow(10.0, floor(log10(x)));
    double m = x / e;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * e;
}

/* The largest 1, 2 or 5 x 10^k at most x, and the smallest at least x. */
static double nice_down(double x)
{
    double e = pow(10.0, floor(log10(x)));
    double m = x / e;
    return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * e;
}

static double nice_up(double x)
{
    double e = pow(10.0, floor(log10(x)));
    double m = x / e;
    return (m <= 1.000001 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * e;
}

typedef struct axis {
    int log;
    double lo, hi;           /* the axis ends */
    double ticks[16];
    int nticks;
} axis;

static double axis_t(const axis *a, double v)
{
    if (a->hi == a->lo) return 0.5;
    if (a->log) return (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo));
    return (v - a->lo) / (a->hi - a->lo);
}

static void y_axis(axis *a, double ymin, double ymax, int rows)
{
    a->nticks = 0;
    if (a->log) {
        /* ends at 1, 2 or 5 x 10^k around the data; ticks at those values,
         * or at the decades only when they would crowd */
        a->lo = nice_down(ymin);
        a->hi = nice_up(ymax);
        if (a->hi <= a->lo) a->hi = nice_up(a->lo * 1.5);
        int max_ticks = (rows + 1) / 2;
        if (max_ticks < 2) max_ticks = 2;
        static const double mant[3] = {1, 2, 5};
        for (int pass = 0; pass < 2 && a->nticks == 0; pass++) {
            int n = 0;
            double t[16];
            for (double e = pow(10, floor(log10(a->lo))); e <= a->hi * 1.000001 && n < 16; e *= 10)
                for (int k = 0; k < 3 && n < 16; k++) {
                    double v = mant[k] * e;
                    if (pass == 1 && k > 0 && v != a->lo && v != a->hi) continue;
                    if (v >= a->lo * 0.999999 && v <= a->hi * 1.000001) t[n++] = v;
                }
            if (n <= max_ticks || pass == 1) {
                memcpy(a->ticks, t, sizeof(double) * (size_t)n);
                a->nticks = n;
            }
        }
        return;
    }
    /* round steps (1, 2, 5 x 10^k), ticks at least two rows apart, and the
     * top as close above the largest value as those allow */
    int max_ticks = (rows + 1) / 2;
    if (max_ticks < 2) max_ticks = 2;
    if (max_ticks > 11) max_ticks = 11;
    double best_hi = INFINITY, best_step = 0;
    for (int k = 1; k < max_ticks; k++) {
        double step = nice_step(ymax / k);
        double hi = step * ceil(ymax / step - 1e-9);
        if (hi <= 0) hi = step;
        if (hi / step + 1 > max_ticks + 1e-9) continue;
        if (hi < best_hi - 1e-12 * hi) {
            best_hi = hi;
            best_step = step;
        }
    }
    if (best_step <= 0) {
        best_step = nice_step(ymax);
        best_hi = best_step * ceil(ymax / best_step - 1e-9);
    }
    a->lo = 0;
    a->hi = best_hi;
    for (int i = 0; a->nticks < 16; i++) {
        double v = i * best_step;
        if (v > a->hi * (1 + 1e-9)) break;
        a->ticks[a->nticks++] = v;
    }
}

static int col_of(const axis *a, double v, int x0, int w)
{
    return x0 + (int)lround(axis_t(a, v) * (w - 1));
}

static int row_of(const axis *a, double v, int top, int h)
{
    return top + (h - 1) - (int)lround(axis_t(a, v) * (h - 1));
}

static int blank_at(const canvas *c, int x, int y)
{
    const viz_cell *cell = canvas_at(c, x, y);
    return cell && cell->cp == ' ';
}

int viz_plot_draw(canvas *c, viz_rect area, const viz_plot *p)
{
    if (area.w < VIZ_PLOT_MIN_W || area.h < VIZ_PLOT_MIN_H) {
        canvas_textn(c, area.x, area.y, area.w, _("(the plot needs at least 30 x 10 cells)"), VIZ_ROLE_DIM, 0);
        return 1;
    }
    viz_rect old = canvas_set_clip(c, area);
    int y = area.y;
    if (p->title) canvas_textn(c, area.x, y++, area.w, p->title, VIZ_ROLE_HEADING, VIZ_BOLD);

    const int logx = viz_plot_log_x(p), logy = viz_plot_log_y(p);
    char buf[160];
    snprintf(buf, sizeof buf, logy ? _("%s (log scale)") : "%s", p->ylabel ? p->ylabel : "");
    canvas_textn(c, area.x, y++, area.w, buf, VIZ_ROLE_TEXT, VIZ_BOLD);

    int caption_rows = p->caption ? canvas_wrap(NULL, viz_rect_make(0, 0, area.w, 100), p->caption, 0, 0) : 0;
    /* rows under the plot: axis, tick labels, x label, legend, caption */
    int below = 4 + caption_rows;
    int ph = area.y + area.h - y - below;
    if (ph < 4) {
        caption_rows = 0;
        below = 4;
        ph = area.y + area.h - y - below;
    }
    const int top = y;

    double ymin, ymax;
    int npts = y_range(p, &ymin, &ymax);
    axis ya = {logy, 0, 1, {0}, 0};
    if (npts > 0) y_axis(&ya, ymin, ymax, ph);
    int lw = 1;
    char labels[16][24];
    for (int i = 0; i < ya.nticks; i++) {
        viz_fmt_value(ya.ticks[i], LAB_DOUBLE, 7, labels[i], sizeof labels[i]);
        int w = viz_text_width(labels[i]);
        if (w > lw) lw = w;
    }
    const int ax = area.x + lw + 1;          /* the y axis column */
    const int px = ax + 2;                   /* first plot column */
    const int pw = area.x + area.w - 3 - px; /* room for half a label on the right */
    for (int r = top; r < top + ph; r++) canvas_put(c, ax, r, 0x2502, VIZ_ROLE_DIM, 0); /* │ */
    int last_row = -100;
    for (int i = 0; i < ya.nticks; i++) {
        int r = row_of(&ya, ya.ticks[i], top, ph);
        if (last_row - r < 2 && i > 0) continue; /* too close to the one below */
        canvas_put(c, ax, r, 0x2524, VIZ_ROLE_DIM, 0); /* ┤ */
        canvas_text(c, ax - viz_text_width(labels[i]), r, labels[i], VIZ_ROLE_TEXT, 0);
        last_row = r;
    }

    /* the x axis: ticks at the measured values */
    double xs[512];
    int nx = distinct_x(p, xs, 512);
    axis xa = {logx, nx ? xs[0] : 0, nx ? xs[nx - 1] : 1, {0}, 0};
    const int axis_row = top + ph;
    canvas_put(c, ax, axis_row, 0x2514, VIZ_ROLE_DIM, 0); /* └ */
    canvas_hline(c, ax + 1, axis_row, area.x + area.w - 1 - ax, 0x2500, VIZ_ROLE_DIM, 0);
    int binary = 1;
    for (int i = 0; i < nx; i++) binary &= xs[i] == floor(xs[i]);
    int next_free = area.x;
    for (int i = 0; i < nx; i++) {
        int col = col_of(&xa, xs[i], px, pw);
        canvas_put(c, col, axis_row, 0x252c, VIZ_ROLE_DIM, 0); /* ┬ */
        char l[24];
        viz_plot_fmt(xs[i], binary, l, sizeof l);
        int w = viz_text_width(l);
        int at = col - (w - 1) / 2;
        if (at < next_free || at + w > area.x + area.w) continue;
        canvas_text(c, at, axis_row + 1, l, VIZ_ROLE_TEXT, 0);
        next_free = at + w + 1;
    }
    snprintf(buf, sizeof buf, logx ? _("%s (log scale)") : "%s", p->xlabel ? p->xlabel : "");
    int xw = viz_text_width(buf);
    int xat = px + (pw - xw) / 2;
    if (xat < area.x) xat = area.x;
    canvas_textn(c, xat, axis_row + 2, area.x + area.w - xat, buf, VIZ_ROLE_TEXT, VIZ_BOLD);

    if (npts == 0)
        canvas_textn(c, px, top + ph / 2, pw, _("no point has a value to plot"), VIZ_ROLE_DIM, 0);

    /* dotted segments first, markers on top */
    for (int pass = 0; pass < 2; pass++)
        for (int s = 0; s < nseries(p); s++) {
            const viz_plot_series *se = &p->series[s];
            int role = viz_plot_role(s);
            int pc = 0, pr = 0, have_prev = 0;
            /* in order of x; a missing y breaks the line */
            int order[512], n = se->n < 512 ? se->n : 512;
            for (int i = 0; i < n; i++) order[i] = i;
            for (int i = 1; i < n; i++)
                for (int k = i; k > 0 && se->x[order[k]] < se->x[order[k - 1]]; k--) {
                    int t = order[k];
                    order[k] = order[k - 1];
                    order[k - 1] = t;
                }
            for (int i = 0; i < n; i++) {
                double xv = se->x[order[i]], yv = se->y[order[i]];
                if (!valid(yv) || !isfinite(xv) || (logx && xv <= 0)) {
                    have_prev = 0;
                    continue;
                }
                int col = col_of(&xa, xv, px, pw), row = row_of(&ya, yv, top, ph);
                if (pass == 1) {
                    canvas_put(c, col, row, viz_plot_marker(s), role, VIZ_BOLD);
                } else if (have_prev) {
                    int dc = col - pc, dr = row - pr;
                    int steps = abs(dc) > abs(dr) ? abs(dc) : abs(dr);
                    for (int k = 1; k < steps; k++) {
                        int cc = pc + (int)lround((double)dc * k / steps);
                        int rr = pr + (int)lround((double)dr * k / steps);
                        if (blank_at(c, cc, rr)) canvas_put(c, cc, rr, DOT, role, 0);
                    }
                }
                pc = col;
                pr = row;
                have_prev = 1;
            }
        }

    /* legend */
    int lx = area.x, ly = axis_row + 3;
    for (int s = 0; s < nseries(p); s++) {
        const char *name = p->series[s].name ? p->series[s].name : "?";
        int need = 2 + viz_text_width(name) + 3;
        if (lx > area.x && lx + need > area.x + area.w) break;
        canvas_put(c, lx, ly, viz_plot_marker(s), viz_plot_role(s), VIZ_BOLD);
        lx = canvas_textn(c, lx + 2, ly, area.x + area.w - lx - 2, name, VIZ_ROLE_TEXT, 0) + 3;
    }
    int used = ly + 1 - area.y;
    if (caption_rows > 0) {
        canvas_wrap(c, viz_rect_make(area.x, ly + 1, area.w, caption_rows), p->caption, VIZ_ROLE_DIM, 0);
        used += caption_rows;
    }
    canvas_set_clip(c, old);
    return used;
}
