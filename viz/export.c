/* export.c - canvases as SVG, PNG or PDF files through cairo (see export.h). */
#include "viz/export.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "viz/intl.h"
#include "viz/render_plot.h"

viz_export_fmt viz_export_format(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot || strchr(dot, '/')) return VIZ_EXPORT_NONE;
    if (strcasecmp(dot, ".svg") == 0) return VIZ_EXPORT_SVG;
    if (strcasecmp(dot, ".png") == 0) return VIZ_EXPORT_PNG;
    if (strcasecmp(dot, ".pdf") == 0) return VIZ_EXPORT_PDF;
    return VIZ_EXPORT_NONE;
}

struct sink;
static cairo_surface_t *surface_for(viz_export_fmt fmt, struct sink *k, double w, double h, double scale);

/* The eight terminal colours, deep enough to read on white paper. */
static const double palette[8][3] = {
    {0.10, 0.10, 0.10}, /* black */
    {0.78, 0.12, 0.12}, /* red */
    {0.10, 0.55, 0.15}, /* green */
    {0.70, 0.50, 0.00}, /* yellow, darkened */
    {0.13, 0.33, 0.80}, /* blue */
    {0.62, 0.18, 0.62}, /* magenta */
    {0.00, 0.52, 0.60}, /* cyan, darkened */
    {0.80, 0.80, 0.80}, /* white: a light grey on paper */
};
static const double ink[3] = {0.08, 0.08, 0.10};
static const double paper[3] = {1.0, 1.0, 1.0};

static void rgb(cairo_t *cr, const double c[3], double alpha)
{
    cairo_set_source_rgba(cr, c[0], c[1], c[2], alpha);
}

/* cairo's SVG draws text as glyph outlines, which a slide tool can neither
 * find, select nor edit: in an SVG, text is not drawn by cairo but kept here
 * and written as <text> elements, in its colour and weight, after the
 * shapes cairo drew (backgrounds, half cells, lines, markers). */
struct svg_word {
    double x, y, size, angle;
    double len;       /* canvas runs: the width the run takes (textLength), 0 none */
    double rgb[3], alpha;
    int bold;
    char *s;
};
static struct {
    int on, n, cap;
    int mono;   /* a canvas: rows of a monospaced font */
    struct svg_word *t;
} words;

static void words_clear(void)
{
    for (int i = 0; i < words.n; i++) free(words.t[i].s);
    free(words.t);
    words.t = NULL;
    words.n = words.cap = 0;
}

/* A new word (NULL when out of memory: that text is left out). */
static struct svg_word *word_add(const char *s, size_t len)
{
    if (words.n == words.cap) {
        int cap = words.cap ? words.cap * 2 : 256;
        struct svg_word *t = realloc(words.t, sizeof *t * (size_t)cap);
        if (!t) return NULL;
        words.t = t;
        words.cap = cap;
    }
    struct svg_word *w = &words.t[words.n];
    memset(w, 0, sizeof *w);
    w->s = strndup(s, len);
    if (!w->s) return NULL;
    w->alpha = 1;
    words.n++;
    return w;
}

static void xml_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else if (*s == '"') fputs("&quot;", f);
        else fputc(*s, f);
    }
}

/* cairo writes a picture through here into the caller's stream, keeping
 * the first failure's errno (cairo itself only says "error while writing to
 * output stream"). An SVG is kept in memory until it is finished, so that
 * its text layer can go before the closing tag. */
struct sink {
    FILE *out;
    int err;                 /* the first write error's errno, 0 none */
    int keep;                /* SVG: collect into svg instead of writing */
    char *svg;
    size_t len, cap;
};

static cairo_status_t sink_write(void *closure, const unsigned char *data, unsigned int n)
{
    struct sink *k = closure;
    if (k->err) return CAIRO_STATUS_WRITE_ERROR;
    if (k->keep) {
        if (k->len + n > k->cap) {
            size_t cap = (k->len + n) * 2;
            char *p = realloc(k->svg, cap);
            if (!p) {
                k->err = ENOMEM;
                return CAIRO_STATUS_NO_MEMORY;
            }
            k->svg = p;
            k->cap = cap;
        }
        memcpy(k->svg + k->len, data, n);
        k->len += n;
        return CAIRO_STATUS_SUCCESS;
    }
    errno = 0;
    if (fwrite(data, 1, n, k->out) != n) {
        k->err = errno ? errno : EIO;
        return CAIRO_STATUS_WRITE_ERROR;
    }
    return CAIRO_STATUS_SUCCESS;
}

/* The kept SVG into the stream, with the text layer before its closing
 * tag. 0 ok, -1 with errno. */
static int svg_add_words(struct sink *k)
{
    FILE *f = k->out;
    size_t back = k->len < 64 ? k->len : 64, at = k->len;
    for (size_t i = k->len - back; i + 6 <= k->len; i++)
        if (memcmp(k->svg + i, "</svg>", 6) == 0) at = i;
    if (at == k->len) {
        errno = EINVAL;
        return -1;
    }
    fwrite(k->svg, 1, at, f);
    fprintf(f, "<g id=\"text\" font-family=\"%s\" xml:space=\"preserve\">\n",
            words.mono ? "monospace" : "sans-serif");
    for (int i = 0; i < words.n; i++) {
        const struct svg_word *w = &words.t[i];
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" fill=\"#%02x%02x%02x\"", w->x, w->y, w->size,
                (int)(w->rgb[0] * 255 + 0.5), (int)(w->rgb[1] * 255 + 0.5), (int)(w->rgb[2] * 255 + 0.5));
        if (w->alpha < 0.999) fprintf(f, " fill-opacity=\"%.2f\"", w->alpha);
        if (w->bold) fputs(" font-weight=\"bold\"", f);
        if (w->len > 0) fprintf(f, " textLength=\"%.2f\" lengthAdjust=\"spacing\"", w->len);
        if (fabs(w->angle) > 0.01)
            fprintf(f, " transform=\"rotate(%.1f %.2f %.2f)\"", w->angle, w->x, w->y);
        fputc('>', f);
        xml_escaped(f, w->s);
        fputs("</text>\n", f);
    }
    fputs("</g>\n</svg>\n", f);
    return fflush(f) == 0 ? 0 : -1;
}

/* The end of every export: a PNG is encoded, the surface finished (PDF and
 * SVG write most of the file then), an SVG gets its text layer, and the
 * stream is flushed; a failure names the file and the system's reason. */
static int finish(cairo_surface_t *surf, viz_export_fmt fmt, struct sink *k, cairo_status_t st,
                  const char *path, char *err, size_t len)
{
    if (st == CAIRO_STATUS_SUCCESS && fmt == VIZ_EXPORT_PNG)
        st = cairo_surface_write_to_png_stream(surf, sink_write, k);
    cairo_surface_finish(surf);
    if (st == CAIRO_STATUS_SUCCESS) st = cairo_surface_status(surf);
    cairo_surface_destroy(surf);
    if (!k->err && st == CAIRO_STATUS_SUCCESS) {
        if (fmt == VIZ_EXPORT_SVG ? svg_add_words(k) != 0 : fflush(k->out) != 0) k->err = errno ? errno : EIO;
    }
    free(k->svg);
    k->svg = NULL;
    words_clear();
    if (k->err) {
        snprintf(err, len, _("cannot write %s: %s"), path, strerror(k->err));
        return -1;
    }
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(err, len, _("cannot write %s: %s"), path, cairo_status_to_string(st));
        return -1;
    }
    return 0;
}

/* Rows that hold something, from the top (export.h). */
int viz_export_rows(const canvas *c)
{
    for (int y = c->h - 1; y >= 0; y--)
        for (int x = 0; x < c->w; x++) {
            const viz_cell *cell = canvas_at(c, x, y);
            if (cell->cp != ' ' && cell->cp != VIZ_CONT) return y + 1;
            viz_style s = viz_cell_style(cell, 1);
            if (s.bg >= 0 || (s.attr & VIZ_REVERSE)) return y + 1;
        }
    return 1;
}

/* One half of a two-pixel cell as a filled rectangle in the colour its role's
 * ink has (bold roles a little lighter, as terminals brighten them); the
 * none role leaves the paper. Rectangles rather than the font's ▀ and ▄,
 * whose height varies from font to font. */
static void fill_half(cairo_t *cr, int role, double px, double py, double w, double h)
{
    if (role == VIZ_BG_NONE) return;
    short k = viz_role_ink_colour(role);
    const double *c = k >= 0 && k < 8 ? palette[k] : ink;
    double mix[3] = {c[0], c[1], c[2]};
    if (viz_role_style(role, 1).attr & VIZ_BOLD)
        for (int i = 0; i < 3; i++) mix[i] += (1 - mix[i]) * 0.3;
    rgb(cr, mix, 1);
    /* no smoothing: halves and neighbours meet without a seam */
    cairo_antialias_t aa = cairo_get_antialias(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    cairo_rectangle(cr, px, py, w, h);
    cairo_fill(cr);
    cairo_set_antialias(cr, aa);
}

/* The colours and weight a cell's text is drawn in. */
static void cell_ink(const viz_cell *cell, const double **fg, const double **bg, double *alpha, int *bold)
{
    viz_style s = viz_cell_style(cell, 1);
    *fg = s.fg >= 0 && s.fg < 8 ? palette[s.fg] : ink;
    *bg = s.bg >= 0 && s.bg < 8 ? palette[s.bg] : NULL;
    if (s.attr & VIZ_REVERSE) {
        const double *t = *bg ? *bg : paper;
        *bg = *fg;
        *fg = t;
    }
    *alpha = s.attr & VIZ_DIMMED ? 0.55 : 1;
    *bold = (s.attr & VIZ_BOLD) != 0;
}

static void draw(cairo_t *cr, const canvas *c, int rows, double cw, double ch, double ascent,
                 double pad, double size)
{
    rgb(cr, paper, 1);
    cairo_paint(cr);
    /* backgrounds first, a run of cells of one colour as one rectangle
     * without smoothing: neighbouring cells meet without a seam */
    cairo_antialias_t aa = cairo_get_antialias(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < c->w;) {
            const viz_cell *cell = canvas_at(c, x, y);
            int top, bottom;
            const double *fg, *bg, *bg2;
            double alpha, a2;
            int bold;
            if (cell->cp == VIZ_CONT || viz_cell_halves(cell, &top, &bottom)) {
                x++;
                continue;
            }
            cell_ink(cell, &fg, &bg, &alpha, &bold);
            if (!bg) {
                x++;
                continue;
            }
            int x1 = x + 1;
            double bga = viz_cell_style(cell, 1).attr & VIZ_DIMMED ? 0.5 : 1;
            for (; x1 < c->w; x1++) {
                const viz_cell *n = canvas_at(c, x1, y);
                if (n->cp == VIZ_CONT) continue;
                if (viz_cell_halves(n, &top, &bottom)) break;
                cell_ink(n, &fg, &bg2, &a2, &bold);
                if (bg2 != bg || (viz_cell_style(n, 1).attr & VIZ_DIMMED ? 0.5 : 1) != bga) break;
            }
            /* a vector viewer smooths a rectangle's edges whatever cairo
             * was told: where the row below has the same background under
             * the whole run, the run reaches a little into it, so two rows
             * of one colour meet without a pale line between them */
            int joins = y + 1 < rows;
            for (int k = x; k < x1 && joins; k++) {
                const viz_cell *d = canvas_at(c, k, y + 1);
                const double *f3, *b3;
                double a3;
                int bo3;
                cell_ink(d, &f3, &b3, &a3, &bo3);
                joins = !viz_cell_halves(d, &top, &bottom) && b3 == bg &&
                        (viz_cell_style(d, 1).attr & VIZ_DIMMED ? 0.5 : 1) == bga;
            }
            rgb(cr, bg, bga);
            cairo_rectangle(cr, pad + x * cw, pad + y * ch, (x1 - x) * cw, ch + (joins && bga == 1 ? ch / 8 : 0));
            cairo_fill(cr);
            x = x1;
        }
    cairo_set_antialias(cr, aa);
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < c->w; x++) {
            const viz_cell *cell = canvas_at(c, x, y);
            if (cell->cp == VIZ_CONT) continue;
            int top, bottom;
            if (viz_cell_halves(cell, &top, &bottom)) {
                double px = pad + x * cw, py = pad + y * ch;
                fill_half(cr, top, px, py, cw, ch / 2);
                fill_half(cr, bottom, px, py + ch / 2, cw, ch / 2);
                continue;
            }
            const double *fg, *bg;
            double alpha;
            int bold;
            cell_ink(cell, &fg, &bg, &alpha, &bold);
            int wide = x + 1 < c->w && canvas_at(c, x + 1, y)->cp == VIZ_CONT;
            double px = pad + x * cw, py = pad + y * ch;
            if (cell->cp == ' ') continue;
            if (viz_cell_style(cell, 1).attr & VIZ_UNDERLINE) {
                rgb(cr, fg, alpha);
                cairo_set_line_width(cr, 1);
                cairo_move_to(cr, px, py + ch - 1.5);
                cairo_line_to(cr, px + cw * (wide ? 2 : 1), py + ch - 1.5);
                cairo_stroke(cr);
            }
            if (words.on) continue; /* an SVG's text is written as text (text_runs) */
            char u[8];
            int n = viz_utf8_encode(cell->cp, u);
            u[n] = 0;
            cairo_select_font_face(cr, "monospace", CAIRO_FONT_SLANT_NORMAL,
                                   bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
            rgb(cr, fg, alpha);
            cairo_move_to(cr, px, py + ascent);
            cairo_show_text(cr, u);
        }
}

/* An SVG's text: each row's runs of cells of one colour and weight as one
 * <text>, placed at its first cell and as wide as its cells (textLength),
 * so that the columns stay where they are in any monospaced font. */
static void text_runs(const canvas *c, int rows, double cw, double ch, double ascent, double pad, double size)
{
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < c->w;) {
            const viz_cell *cell = canvas_at(c, x, y);
            int top, bottom;
            if (cell->cp == VIZ_CONT || cell->cp == ' ' || viz_cell_halves(cell, &top, &bottom)) {
                x++;
                continue;
            }
            const double *fg, *bg;
            double alpha;
            int bold;
            cell_ink(cell, &fg, &bg, &alpha, &bold);
            char b[1024];
            size_t l = 0;
            int x1 = x, last = x; /* last: after the run's last cell that is not a space */
            size_t llast = 0;
            for (; x1 < c->w && l + 8 < sizeof b; x1++) {
                const viz_cell *n = canvas_at(c, x1, y);
                if (n->cp == VIZ_CONT) continue;
                if (viz_cell_halves(n, &top, &bottom)) break;
                const double *f2, *b2;
                double a2;
                int bo2;
                cell_ink(n, &f2, &b2, &a2, &bo2);
                if (n->cp != ' ' && (f2 != fg || a2 != alpha || bo2 != bold)) break;
                l += (size_t)viz_utf8_encode(n->cp, b + l);
                if (n->cp != ' ') {
                    last = x1 + 1 + (x1 + 1 < c->w && canvas_at(c, x1 + 1, y)->cp == VIZ_CONT);
                    llast = l;
                }
            }
            struct svg_word *w = word_add(b, llast);
            if (w) {
                w->x = pad + x * cw;
                w->y = pad + y * ch + ascent;
                w->size = size;
                w->len = (last - x) * cw;
                memcpy(w->rgb, fg, sizeof w->rgb);
                w->alpha = alpha;
                w->bold = bold;
            }
            x = last > x ? last : x + 1;
        }
}

int viz_export_canvas(const canvas *c, int rows, const char *path, FILE *out, char *err, size_t len)
{
    return viz_export_canvas_width(c, rows, path, out, 0, err, len);
}

int viz_export_canvas_width(const canvas *c, int rows, const char *path, FILE *out, int width, char *err,
                            size_t len)
{
    viz_export_fmt fmt = viz_export_format(path);
    if (fmt == VIZ_EXPORT_NONE) {
        snprintf(err, len, _("%s: the picture formats are .svg, .png and .pdf"), path);
        return -1;
    }
    if (!c || c->w <= 0 || c->h <= 0) {
        snprintf(err, len, "%s", _("there is no picture to export"));
        return -1;
    }
    if (rows <= 0 || rows > c->h) rows = viz_export_rows(c);

    /* Measure the font once on a scratch surface: a cell is one advance of
     * 'M' wide and one line high. */
    const double size = 14, pad = 12;
    cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 8, 8);
    cairo_t *m = cairo_create(scratch);
    /* unhinted metrics: the font's own advance (8.43 points for DejaVu Sans
     * Mono at 14), which an SVG viewer's text takes too, not one rounded to
     * whole pixels, so that an SVG's text runs stay on their cells */
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_set_font_options(m, fo);
    cairo_font_options_destroy(fo);
    cairo_select_font_face(m, "monospace", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(m, size);
    cairo_font_extents_t fe;
    cairo_text_extents_t te;
    cairo_font_extents(m, &fe);
    cairo_text_extents(m, "M", &te);
    double cw = te.x_advance > 0 ? te.x_advance : size * 0.6;
    double ch = fe.height > 0 ? fe.height : size * 1.2;
    double ascent = fe.ascent > 0 ? fe.ascent : size * 0.8;
    cairo_destroy(m);
    cairo_surface_destroy(scratch);

    double W = 2 * pad + cw * c->w, H = 2 * pad + ch * rows;
    /* PNG: twice the points, sharp on slides; --width: that many pixels
     * (PNG) or points (SVG, PDF) across */
    double scale = fmt == VIZ_EXPORT_PNG ? 2 : 1;
    if (width > 0) scale = (width < 100 ? 100 : width > 16000 ? 16000 : width) / W;
    double sw = fmt == VIZ_EXPORT_PNG ? W : W * scale, sh = fmt == VIZ_EXPORT_PNG ? H : H * scale;
    struct sink k = {.out = out};
    cairo_surface_t *surf = surface_for(fmt, &k, sw, sh, scale);
    if (cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS) {
        snprintf(err, len, _("cannot write %s: %s"), path, cairo_status_to_string(cairo_surface_status(surf)));
        cairo_surface_destroy(surf);
        return -1;
    }
    cairo_t *cr = cairo_create(surf);
    cairo_scale(cr, scale, scale);
    cairo_set_font_size(cr, size);
    words_clear();
    words.on = fmt == VIZ_EXPORT_SVG;
    words.mono = 1;
    draw(cr, c, rows, cw, ch, ascent, pad, size);
    if (words.on) text_runs(c, rows, cw, ch, ascent, pad, size);
    words.on = 0;
    for (int i = 0; i < words.n; i++) { /* the rows were placed before the scale */
        words.t[i].x *= scale;
        words.t[i].y *= scale;
        words.t[i].size *= scale;
        words.t[i].len *= scale;
    }
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    return finish(surf, fmt, &k, st, path, err, len);
}

static int plot_ns(const viz_plot *p)
{
    return p->nseries < VIZ_PLOT_MAX_SERIES ? p->nseries : VIZ_PLOT_MAX_SERIES;
}

static int plot_valid(double v) { return isfinite(v) && v > 0; }

static int geometric_x(const viz_plot *p, double lo, double hi)
{
    if (p->logx != VIZ_PLOT_AUTO) return p->logx != 0;
    if (lo <= 0) return 0;
    /* every x of every series grows from the one before by at least 1.5 */
    int steps = 0;
    for (int s = 0; s < plot_ns(p); s++)
        for (int i = 1; i < p->series[s].n; i++) {
            double a = p->series[s].x[i - 1], b = p->series[s].x[i];
            if (!(a > 0 && b / a >= 1.5)) return 0;
            steps++;
        }
    return steps >= 2 || hi / lo >= 16;
}

/* Ticks from lo to hi: log axes at powers of two (binary) or ten (with 2
 * and 5 between when there are few decades), linear ones at a 1-2-5 step.
 * Returns how many (at most max). */
static int plot_ticks(double lo, double hi, int logscale, int binary, double *t, int max)
{
    int n = 0;
    if (logscale && binary) {
        int a = (int)floor(log2(lo) + 1e-9), b = (int)ceil(log2(hi) - 1e-9);
        int every = 1;
        while ((b - a) / every + 1 > 10) every *= 2;
        for (int e = a; e <= b && n < max; e++)
            if ((e - a) % every == 0) t[n++] = ldexp(1.0, e);
        return n;
    }
    if (logscale) {
        int a = (int)floor(log10(lo) + 1e-9), b = (int)ceil(log10(hi) - 1e-9);
        static const double sub[] = {1, 2, 5};
        int fine = b - a <= 3;
        for (int e = a; e <= b && n < max; e++)
            for (int k = 0; k < (fine ? 3 : 1) && n < max; k++) {
                double v = sub[k] * pow(10.0, e);
                if (v >= lo * 0.999 && v <= hi * 1.001) t[n++] = v;
            }
        return n;
    }
    double span = hi - lo > 0 ? hi - lo : (hi > 0 ? hi : 1);
    double raw = span / 6, e = pow(10.0, floor(log10(raw))), m = raw / e;
    double step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * e;
    for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9 && n < max; v += step)
        t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
    return n;
}

/* The axis range: log axes to whole powers (of two or ten), linear ones
 * to a tick at or below and above, from 0 when the data is not far from it. */
static void plot_range(double *lo, double *hi, int logscale, int binary, int from_zero)
{
    if (*lo == *hi) {
        *lo = logscale ? *lo / 2 : *lo - (*lo != 0 ? fabs(*lo) / 2 : 1);
        *hi = logscale ? *hi * 2 : *hi + (*hi != 0 ? fabs(*hi) / 2 : 1);
    }
    if (logscale) {
        double b = binary ? 2 : 10;
        double a = floor(log(*lo) / log(b) + 1e-9), z = ceil(log(*hi) / log(b) - 1e-9);
        *lo = pow(b, a);
        *hi = pow(b, z);
        return;
    }
    if (from_zero && *lo > 0 && *lo < *hi * 0.5) *lo = 0;
    double t[64];
    int n = plot_ticks(*lo, *hi, 0, 0, t, 64);
    if (n >= 2) {
        double step = t[1] - t[0];
        *lo = floor(*lo / step + 1e-9) * step;
        *hi = ceil(*hi / step - 1e-9) * step;
    }
}

static void series_rgb(int i, double out[3])
{
    short k = viz_role_ink_colour(viz_plot_role(i));
    const double *c = k >= 0 && k < 8 && k != 7 ? palette[k] : ink;
    memcpy(out, c, sizeof(double) * 3);
}

static void text_at(cairo_t *cr, double x, double y, const char *s, double ax, double ay)
{
    cairo_text_extents_t te;
    cairo_text_extents(cr, s, &te);
    double px = x - te.x_advance * ax, py = y + te.height * ay;
    cairo_move_to(cr, px, py);
    if (!words.on) {
        cairo_show_text(cr, s);
        return;
    }
    /* an SVG: the text as text, where cairo would have drawn it */
    struct svg_word *w = word_add(s, strlen(s));
    if (!w) return;
    double ux = px, uy = py; /* where it lands on the page (the y title is rotated) */
    cairo_user_to_device(cr, &ux, &uy);
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    w->x = ux;
    w->y = uy;
    w->size = fe.ascent + fe.descent > 0 ? (fe.ascent + fe.descent) / 1.2 : 12;
    w->angle = atan2(m.yx, m.xx) * 180 / M_PI;
    double r = 0, g = 0, b = 0, a = 1;
    if (cairo_pattern_get_rgba(cairo_get_source(cr), &r, &g, &b, &a) != CAIRO_STATUS_SUCCESS) r = g = b = 0, a = 1;
    w->rgb[0] = r;
    w->rgb[1] = g;
    w->rgb[2] = b;
    w->alpha = a;
    cairo_font_face_t *ff = cairo_get_font_face(cr);
    w->bold = ff && cairo_font_face_get_type(ff) == CAIRO_FONT_TYPE_TOY &&
              cairo_toy_font_face_get_weight(ff) == CAIRO_FONT_WEIGHT_BOLD;
}


/* The marker of series i: circle, square, triangle, diamond, ... */
static void marker(cairo_t *cr, int i, double x, double y, double r)
{
    switch (i % 4) {
    case 0: cairo_arc(cr, x, y, r, 0, 2 * M_PI); break;
    case 1: cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r); break;
    case 2:
        cairo_move_to(cr, x, y - r * 1.2);
        cairo_line_to(cr, x + r * 1.1, y + r * 0.8);
        cairo_line_to(cr, x - r * 1.1, y + r * 0.8);
        cairo_close_path(cr);
        break;
    default:
        cairo_move_to(cr, x, y - r * 1.3);
        cairo_line_to(cr, x + r * 1.1, y);
        cairo_line_to(cr, x, y + r * 1.3);
        cairo_line_to(cr, x - r * 1.1, y);
        cairo_close_path(cr);
        break;
    }
    if (i / 4 % 2) { /* the second four: hollow */
        cairo_set_line_width(cr, 1.5);
        cairo_stroke(cr);
    } else {
        cairo_fill(cr);
    }
}

static void draw_plot(cairo_t *cr, const viz_plot *p, double W, double H)
{
    rgb(cr, paper, 1);
    cairo_paint(cr);
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (int s = 0; s < plot_ns(p); s++)
        for (int i = 0; i < p->series[s].n; i++) {
            double x = p->series[s].x[i], y = p->series[s].y[i];
            if (!isfinite(x)) continue;
            if (x < xlo) xlo = x;
            if (x > xhi) xhi = x;
            if (!plot_valid(y)) continue;
            if (y < ylo) ylo = y;
            if (y > yhi) yhi = y;
        }
    if (!isfinite(xlo)) xlo = 0, xhi = 1;
    if (!isfinite(ylo)) ylo = 0, yhi = 1;
    int lx = geometric_x(p, xlo, xhi) && xlo > 0;
    int binx = 1; /* swept sizes are powers of two more often than not */
    for (int s = 0; s < plot_ns(p) && binx; s++)
        for (int i = 0; i < p->series[s].n; i++) {
            double x = p->series[s].x[i];
            if (x > 0 && fabs(log2(x) - round(log2(x))) > 1e-9) binx = 0;
        }
    int ly = viz_plot_log_y(p) && ylo > 0;
    plot_range(&xlo, &xhi, lx, binx, 0);
    plot_range(&ylo, &yhi, ly, 0, 1);

    const double fs = W / 60 > 10 ? (W / 60 < 18 ? W / 60 : 18) : 10;
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, fs);
    /* the frame of the plot: room for the title, the y labels, the x labels,
     * the axis titles and the legend on the right */
    double legend_w = 0;
    for (int s = 0; s < plot_ns(p); s++) {
        cairo_text_extents_t te;
        cairo_text_extents(cr, p->series[s].name ? p->series[s].name : "?", &te);
        if (te.x_advance > legend_w) legend_w = te.x_advance;
    }
    legend_w += fs * 3.5;
    double L = fs * 5.5, R = W - legend_w - fs, T = fs * (p->title ? 3.2 : 1.5), B = H - fs * 4.2;
    if (R < L + 100) R = L + 100;
    double tx[64], ty[64];
    int ntx = plot_ticks(xlo, xhi, lx, binx, tx, 64), nty = plot_ticks(ylo, yhi, ly, 0, ty, 64);
#define PX(v) (lx ? L + (log(v) - log(xlo)) / (log(xhi) - log(xlo)) * (R - L) : L + ((v) - xlo) / (xhi - xlo) * (R - L))
#define PY(v) (ly ? B - (log(v) - log(ylo)) / (log(yhi) - log(ylo)) * (B - T) : B - ((v) - ylo) / (yhi - ylo) * (B - T))
    /* grid lines, then the axes */
    cairo_set_line_width(cr, 0.6);
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    for (int i = 0; i < nty; i++) {
        cairo_move_to(cr, L, PY(ty[i]));
        cairo_line_to(cr, R, PY(ty[i]));
    }
    for (int i = 0; i < ntx; i++) {
        cairo_move_to(cr, PX(tx[i]), T);
        cairo_line_to(cr, PX(tx[i]), B);
    }
    cairo_stroke(cr);
    rgb(cr, ink, 1);
    cairo_set_line_width(cr, 1.2);
    cairo_rectangle(cr, L, T, R - L, B - T);
    cairo_stroke(cr);
    char b[64];
    for (int i = 0; i < ntx; i++) {
        double x = PX(tx[i]);
        cairo_move_to(cr, x, B);
        cairo_line_to(cr, x, B + fs * 0.4);
        cairo_stroke(cr);
        text_at(cr, x, B + fs * 1.5, viz_plot_fmt(tx[i], binx, b, sizeof b), 0.5, 0);
    }
    for (int i = 0; i < nty; i++) {
        double y = PY(ty[i]);
        cairo_move_to(cr, L - fs * 0.4, y);
        cairo_line_to(cr, L, y);
        cairo_stroke(cr);
        text_at(cr, L - fs * 0.6, y, viz_plot_fmt(ty[i], 0, b, sizeof b), 1, 0.5);
    }
    /* the axis titles, with their units; the plot's title above */
    char xt[256];
    snprintf(xt, sizeof xt, lx ? _("%s, log scale") : "%s", p->xlabel ? p->xlabel : "");
    text_at(cr, (L + R) / 2, B + fs * 3.1, xt, 0.5, 0);
    char yt[256];
    snprintf(yt, sizeof yt, ly ? _("%s, log scale") : "%s", p->ylabel ? p->ylabel : "");
    cairo_save(cr);
    cairo_translate(cr, fs * 1.3, (T + B) / 2);
    cairo_rotate(cr, -M_PI / 2);
    text_at(cr, 0, 0, yt, 0.5, 0.5);
    cairo_restore(cr);
    if (p->title) {
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
        text_at(cr, (L + R) / 2, fs * 1.6, p->title, 0.5, 0);
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    }
    /* the series: lines between measured points (a gap where one did not run) */
    cairo_save(cr);
    cairo_rectangle(cr, L - fs * 0.6, T - fs * 0.6, R - L + fs * 1.2, B - T + fs * 1.2); /* whole markers */
    cairo_clip(cr);
    for (int s = 0; s < plot_ns(p); s++) {
        const viz_plot_series *se = &p->series[s];
        double c[3];
        series_rgb(s, c);
        rgb(cr, c, 1);
        cairo_set_line_width(cr, 2);
        int pen = 0;
        for (int i = 0; i < se->n; i++) {
            if (!plot_valid(se->y[i]) || !isfinite(se->x[i]) || (lx && se->x[i] <= 0)) {
                pen = 0;
                continue;
            }
            double x = PX(se->x[i]), y = PY(se->y[i]);
            if (pen) cairo_line_to(cr, x, y);
            else cairo_move_to(cr, x, y);
            pen = 1;
        }
        cairo_stroke(cr);
        for (int i = 0; i < se->n; i++)
            if (plot_valid(se->y[i]) && isfinite(se->x[i]) && !(lx && se->x[i] <= 0))
                marker(cr, s, PX(se->x[i]), PY(se->y[i]), fs * 0.32);
    }
    cairo_restore(cr);
    /* the legend */
    double ly0 = T + fs;
    for (int s = 0; s < plot_ns(p); s++) {
        double c[3];
        series_rgb(s, c);
        rgb(cr, c, 1);
        double y = ly0 + s * fs * 1.6, x = R + fs;
        cairo_set_line_width(cr, 2);
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, x + fs * 2, y);
        cairo_stroke(cr);
        marker(cr, s, x + fs, y, fs * 0.32);
        rgb(cr, ink, 1);
        text_at(cr, x + fs * 2.6, y, p->series[s].name ? p->series[s].name : "?", 0, 0.4);
    }
    if (p->caption) {
        rgb(cr, ink, 0.7);
        text_at(cr, L, H - fs * 0.6, p->caption, 0, 0);
    }
#undef PX
#undef PY
}

/* A surface in the format that writes into k, w x h points (PNG: pixels at scale). */
static cairo_surface_t *surface_for(viz_export_fmt fmt, struct sink *k, double w, double h, double scale)
{
    k->keep = fmt == VIZ_EXPORT_SVG;
    switch (fmt) {
    case VIZ_EXPORT_SVG: return cairo_svg_surface_create_for_stream(sink_write, k, w, h);
    case VIZ_EXPORT_PDF: return cairo_pdf_surface_create_for_stream(sink_write, k, w, h);
    default: return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)(w * scale + 0.5), (int)(h * scale + 0.5));
    }
}

int viz_export_plot(const viz_plot *p, const char *path, FILE *out, int width, char *err, size_t len)
{
    viz_export_fmt fmt = viz_export_format(path);
    if (fmt == VIZ_EXPORT_NONE) {
        snprintf(err, len, _("%s: the picture formats are .svg, .png and .pdf"), path);
        return -1;
    }
    if (!p || p->nseries <= 0) {
        snprintf(err, len, "%s", _("there is no plot to export"));
        return -1;
    }
    double W = width > 0 ? width : (fmt == VIZ_EXPORT_PNG ? 1600 : 800);
    if (W < 320) W = 320;
    if (W > 8000) W = 8000;
    double H = W * 0.5625; /* 16:9, a slide */
    struct sink k = {.out = out};
    cairo_surface_t *surf = surface_for(fmt, &k, W, H, 1);
    if (cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS) {
        snprintf(err, len, _("cannot write %s: %s"), path, cairo_status_to_string(cairo_surface_status(surf)));
        cairo_surface_destroy(surf);
        return -1;
    }
    cairo_t *cr = cairo_create(surf);
    words_clear();
    words.on = fmt == VIZ_EXPORT_SVG;
    words.mono = 0;
    draw_plot(cr, p, W, H);
    words.on = 0;
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    return finish(surf, fmt, &k, st, path, err, len);
}

/* ------------------------------------------------------ the newest picture */

/* A kept plot: a deep copy (the caller's arrays and strings go away). */
struct viz_picture_plot {
    viz_plot p;
    viz_plot_series s[VIZ_PLOT_MAX_SERIES];
    char *strs[4 + VIZ_PLOT_MAX_SERIES];
    double *xy[2 * VIZ_PLOT_MAX_SERIES];
};

static void plot_forget(viz_picture *pic)
{
    struct viz_picture_plot *k = pic->plot;
    if (!k) return;
    for (size_t i = 0; i < sizeof k->strs / sizeof k->strs[0]; i++) free(k->strs[i]);
    for (size_t i = 0; i < sizeof k->xy / sizeof k->xy[0]; i++) free(k->xy[i]);
    free(k);
    pic->plot = NULL;
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

void viz_picture_keep(viz_picture *pic, const canvas *c, int rows, const char *what)
{
    if (!c) return;
    plot_forget(pic); /* a picture that is not a plot is the newest now */
    if (!pic->c || pic->c->w != c->w || pic->c->h != c->h) {
        canvas_free(pic->c);
        pic->c = canvas_new(c->w, c->h);
        if (!pic->c) return;
    }
    memcpy(pic->c->cells, c->cells, sizeof(viz_cell) * (size_t)c->w * (size_t)c->h);
    pic->c->clip = canvas_bounds(pic->c);
    pic->rows = rows;
    snprintf(pic->what, sizeof pic->what, "%s", what ? what : _("picture"));
}

void viz_picture_keep_plot(viz_picture *pic, const canvas *c, int rows, const viz_plot *p, const char *what)
{
    viz_picture_keep(pic, c, rows, what);
    if (!p) return;
    struct viz_picture_plot *k = calloc(1, sizeof *k);
    if (!k) return;
    pic->plot = k;
    k->p = *p;
    k->p.title = k->strs[0] = dup_or_null(p->title);
    k->p.xlabel = k->strs[1] = dup_or_null(p->xlabel);
    k->p.ylabel = k->strs[2] = dup_or_null(p->ylabel);
    k->p.caption = k->strs[3] = dup_or_null(p->caption);
    int ns = plot_ns(p);
    for (int i = 0; i < ns; i++) {
        viz_plot_series *d = &k->s[i];
        const viz_plot_series *s = &p->series[i];
        d->name = k->strs[4 + i] = dup_or_null(s->name);
        d->n = s->n;
        double *x = k->xy[2 * i] = malloc(sizeof(double) * (size_t)(s->n > 0 ? s->n : 1));
        double *y = k->xy[2 * i + 1] = malloc(sizeof(double) * (size_t)(s->n > 0 ? s->n : 1));
        if (!x || !y) {
            plot_forget(pic);
            return;
        }
        memcpy(x, s->x, sizeof(double) * (size_t)s->n);
        memcpy(y, s->y, sizeof(double) * (size_t)s->n);
        d->x = x;
        d->y = y;
    }
    k->p.nseries = ns;
    k->p.series = k->s;
}

int viz_picture_write(const viz_picture *pic, const char *path, FILE *out, int width, char *err, size_t len)
{
    if (pic->plot) return viz_export_plot(&pic->plot->p, path, out, width, err, len);
    if (!pic->c) {
        snprintf(err, len, "%s", _("there is no picture yet: a sweep draws a plot, and animate shows frames"));
        return -1;
    }
    return viz_export_canvas_width(pic->c, pic->rows, path, out, width, err, len);
}

void viz_picture_free(viz_picture *pic)
{
    plot_forget(pic);
    canvas_free(pic->c);
    memset(pic, 0, sizeof *pic);
}
