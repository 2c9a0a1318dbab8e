/* export.c - canvases as SVG, PNG or PDF files through cairo (see export.h). */
#include "export.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

viz_export_fmt viz_export_format(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot || strchr(dot, '/')) return VIZ_EXPORT_NONE;
    if (strcasecmp(dot, ".svg") == 0) return VIZ_EXPORT_SVG;
    if (strcasecmp(dot, ".png") == 0) return VIZ_EXPORT_PNG;
    if (strcasecmp(dot, ".pdf") == 0) return VIZ_EXPORT_PDF;
    return VIZ_EXPORT_NONE;
}

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

/* Rows that hold something, from the top. */
static int used_rows(const canvas *c)
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

static void draw(cairo_t *cr, const canvas *c, int rows, double cw, double ch, double ascent,
                 double pad)
{
    rgb(cr, paper, 1);
    cairo_paint(cr);
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
            viz_style s = viz_cell_style(cell, 1);
            const double *fg = s.fg >= 0 && s.fg < 8 ? palette[s.fg] : ink;
            const double *bg = s.bg >= 0 && s.bg < 8 ? palette[s.bg] : NULL;
            if (s.attr & VIZ_REVERSE) {
                const double *t = bg ? bg : paper;
                bg = fg;
                fg = t;
            }
            int wide = x + 1 < c->w && canvas_at(c, x + 1, y)->cp == VIZ_CONT;
            double px = pad + x * cw, py = pad + y * ch;
            if (bg) {
                rgb(cr, bg, s.attr & VIZ_DIMMED ? 0.5 : 1);
                cairo_rectangle(cr, px, py, cw * (wide ? 2 : 1), ch);
                cairo_fill(cr);
            }
            if (cell->cp == ' ') continue;
            char u[8];
            int n = viz_utf8_encode(cell->cp, u);
            u[n] = 0;
            cairo_select_font_face(cr, "monospace", CAIRO_FONT_SLANT_NORMAL,
                                   s.attr & VIZ_BOLD ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
            rgb(cr, fg, s.attr & VIZ_DIMMED ? 0.55 : 1);
            cairo_move_to(cr, px, py + ascent);
            cairo_show_text(cr, u);
            if (s.attr & VIZ_UNDERLINE) {
                cairo_set_line_width(cr, 1);
                cairo_move_to(cr, px, py + ch - 1.5);
                cairo_line_to(cr, px + cw * (wide ? 2 : 1), py + ch - 1.5);
                cairo_stroke(cr);
            }
        }
}

int viz_export_canvas(const canvas *c, int rows, const char *path, char *err, size_t len)
{
    viz_export_fmt fmt = viz_export_format(path);
    if (fmt == VIZ_EXPORT_NONE) {
        snprintf(err, len, "%s: the picture formats are .svg, .png and .pdf", path);
        return -1;
    }
    if (!c || c->w <= 0 || c->h <= 0) {
        snprintf(err, len, "there is no picture to export");
        return -1;
    }
    if (rows <= 0 || rows > c->h) rows = used_rows(c);

    /* Measure the font once on a scratch surface: a cell is one advance of
     * 'M' wide and one line high. */
    const double size = 14, pad = 12;
    cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 8, 8);
    cairo_t *m = cairo_create(scratch);
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
    cairo_surface_t *surf;
    double scale = 1;
    switch (fmt) {
    case VIZ_EXPORT_SVG: surf = cairo_svg_surface_create(path, W, H); break;
    case VIZ_EXPORT_PDF: surf = cairo_pdf_surface_create(path, W, H); break;
    default:
        scale = 2; /* sharp on slides */
        surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)(W * scale + 0.5), (int)(H * scale + 0.5));
        break;
    }
    if (cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS) {
        snprintf(err, len, "cannot write %s: %s", path, cairo_status_to_string(cairo_surface_status(surf)));
        cairo_surface_destroy(surf);
        return -1;
    }
    cairo_t *cr = cairo_create(surf);
    cairo_scale(cr, scale, scale);
    cairo_set_font_size(cr, size);
    draw(cr, c, rows, cw, ch, ascent, pad);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS && fmt == VIZ_EXPORT_PNG) st = cairo_surface_write_to_png(surf, path);
    cairo_surface_finish(surf);
    if (st == CAIRO_STATUS_SUCCESS) st = cairo_surface_status(surf);
    cairo_surface_destroy(surf);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(err, len, "cannot write %s: %s", path, cairo_status_to_string(st));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------ the newest picture */

static canvas *offered;
static int offered_rows;
static char offered_what[160];

void viz_export_offer(const canvas *c, int rows, const char *what)
{
    if (!c) return;
    if (!offered || offered->w != c->w || offered->h != c->h) {
        canvas_free(offered);
        offered = canvas_new(c->w, c->h);
        if (!offered) return;
    }
    memcpy(offered->cells, c->cells, sizeof(viz_cell) * (size_t)c->w * (size_t)c->h);
    offered->clip = canvas_bounds(offered);
    offered_rows = rows;
    snprintf(offered_what, sizeof offered_what, "%s", what ? what : "picture");
}

const canvas *viz_export_latest(int *rows, const char **what)
{
    if (rows) *rows = offered_rows;
    if (what) *what = offered_what;
    return offered;
}
