/* render_table.c - the timing table: lab_result rows as columns.
 *
 * The same table that `run` and `compare` print, drawn into a canvas so it
 * can stand beside an animation (the student sees the idle threads and the
 * milliseconds they cost at once). When the area is narrow, the columns that
 * matter least go first: the variant, its time and whether it was right stay
 * to the end. */
#include "viz/intl.h"
#include "viz/render.h"
#include "viz/term.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum col_id {
    COL_VARIANT,
    COL_BACKEND,
    COL_N,
    COL_BLOCK,
    COL_GRID,
    COL_MS,
    COL_MIN,
    COL_MAX,
    COL_GBPS,
    COL_PEAK,
    COL_SPEEDUP,
    COL_RESULT,
    COL_CHECK,
    COL_NOTE,
    NCOLS
};

typedef struct col {
    const char *head;
    int right;    /* right-aligned (numbers) */
    int drop;     /* order of leaving out: higher goes first; 0 never */
} col;

static const col cols[NCOLS] = {
    [COL_VARIANT] = {N_("variant"), 0, 0},
    /* TRANSLATORS: the column of the backend a row ran on (gpu, sim, cpu) */
    [COL_BACKEND] = {N_("on"), 0, 6},
    [COL_N] = {"n", 1, 9},
    [COL_BLOCK] = {N_("block"), 1, 8},
    [COL_GRID] = {N_("grid"), 1, 10},
    [COL_MS] = {"ms", 1, 0},
    [COL_MIN] = {N_("min"), 1, 11},
    [COL_MAX] = {N_("max"), 1, 11},
    [COL_GBPS] = {"GB/s", 1, 5},
    /* xgettext:no-c-format */
    [COL_PEAK] = {N_("%peak"), 1, 7},
    [COL_SPEEDUP] = {N_("speedup"), 1, 4},
    [COL_RESULT] = {N_("result"), 1, 3},
    [COL_CHECK] = {N_("check"), 0, 0},
    [COL_NOTE] = {N_("note"), 0, 12},
};

#define DASH "\u2013"

static void fmt_ms(double ms, char *b, size_t n)
{
    if (ms < 0 || isnan(ms)) snprintf(b, n, DASH);
    else if (ms >= 100) snprintf(b, n, "%.0f", ms);
    else if (ms >= 10) snprintf(b, n, "%.2f", ms);
    else if (ms >= 1) snprintf(b, n, "%.3f", ms);
    else snprintf(b, n, "%.4f", ms);
}

/* Sizes as people write them: 256, 1000000, 64Mi. */
static void fmt_n(long long n, char *b, size_t len)
{
    static const char *const bin[] = {"Ki", "Mi", "Gi", "Ti"};
    if (n >= 1024 && (n & (n - 1)) == 0) {
        int k = 0;
        while (n >= 1024 && k < 4 && (n % 1024) == 0 && n / 1024 >= 1) {
            n /= 1024;
            k++;
        }
        snprintf(b, len, "%lld%s", n, bin[k - 1]);
    } else {
        snprintf(b, len, "%lld", n);
    }
}

/* The text of one cell, and its role. */
static int cell_text(const lab_result *r, int c, char *b, size_t len)
{
    int role = VIZ_ROLE_TEXT;
    b[0] = '\0';
    int ran = r->ran;
    switch (c) {
    case COL_VARIANT: snprintf(b, len, "%s", r->variant); break;
    case COL_BACKEND: snprintf(b, len, "%s", lab_backend_name(r->backend)); break;
    case COL_N: fmt_n(r->n, b, len); break;
    case COL_BLOCK:
        if (r->block <= 0) snprintf(b, len, DASH);
        else if (r->block_y > 1) snprintf(b, len, "%d\u00d7%d", r->block, r->block_y);
        else snprintf(b, len, "%d", r->block);
        break;
    case COL_GRID:
        if (r->grid <= 0) snprintf(b, len, DASH);
        else if (r->grid_y > 1) snprintf(b, len, "%lld\u00d7%lld", r->grid, r->grid_y);
        else snprintf(b, len, "%lld", r->grid);
        break;
    case COL_MS: fmt_ms(ran ? r->ms : -1, b, len); break;
    case COL_MIN: fmt_ms(ran && r->repeats > 1 ? r->ms_min : -1, b, len); break;
    case COL_MAX: fmt_ms(ran && r->repeats > 1 ? r->ms_max : -1, b, len); break;
    case COL_GBPS:
        if (!ran || r->gbps <= 0) snprintf(b, len, DASH);
        else snprintf(b, len, r->gbps >= 100 ? "%.0f" : "%.1f", r->gbps);
        break;
    case COL_PEAK:
        if (!ran || r->pct_peak < 0) snprintf(b, len, DASH);
        else snprintf(b, len, "%.0f%%", r->pct_peak);
        break;
    case COL_SPEEDUP:
        if (!ran || r->speedup < 0) snprintf(b, len, DASH);
        else snprintf(b, len, r->speedup >= 100 ? "%.0f\u00d7" : "%.1f\u00d7", r->speedup);
        break;
    case COL_RESULT: snprintf(b, len, "%s", ran && r->result[0] ? r->result : DASH); break;
    case COL_CHECK:
        if (!ran) {
            snprintf(b, len, "%s", _("not run"));
            role = VIZ_ROLE_DIM;
        } else if (r->correct == 1) {
            snprintf(b, len, "%s", _("\u2713 ok"));
            role = VIZ_ROLE_OK;
        } else if (r->correct == 0) {
            snprintf(b, len, "%s", _("\u2717 wrong"));
            role = VIZ_ROLE_WRONG;
        } else {
            snprintf(b, len, DASH);
        }
        break;
    case COL_NOTE: snprintf(b, len, "%s", r->note); break;
    default: break;
    }
    return role;
}

/* Natural width of each column. */
static void widths(const lab_result *rows, int nrows, int w[NCOLS])
{
    char b[LAB_NOTE_MAX + 8];
    for (int c = 0; c < NCOLS; c++) {
        w[c] = viz_text_width(_(cols[c].head));
        for (int i = 0; i < nrows; i++) {
            cell_text(&rows[i], c, b, sizeof b);
            int tw = viz_text_width(b);
            if (tw > w[c]) w[c] = tw;
        }
    }
    if (w[COL_NOTE] > 60) w[COL_NOTE] = 60;
}

static int any_note(const lab_result *rows, int nrows)
{
    for (int i = 0; i < nrows; i++)
        if (rows[i].note[0]) return 1;
    return 0;
}

static int total(const int w[NCOLS], const int on[NCOLS])
{
    int t = 0, k = 0;
    for (int c = 0; c < NCOLS; c++)
        if (on[c]) {
            t += w[c];
            k++;
        }
    return t + (k > 0 ? 2 * (k - 1) : 0);
}

/* Which columns to show in width: drop the least important until it fits;
 * the note column takes whatever is left (at least 12 columns). */
static void choose(const lab_result *rows, int nrows, int width, int w[NCOLS], int on[NCOLS])
{
    widths(rows, nrows, w);
    for (int c = 0; c < NCOLS; c++) on[c] = 1;
    if (!any_note(rows, nrows)) on[COL_NOTE] = 0;
    for (;;) {
        if (total(w, on) <= width) break;
        if (on[COL_NOTE]) {
            int rest = width - (total(w, on) - w[COL_NOTE]);
            if (rest >= 12) {
                w[COL_NOTE] = rest;
                break;
            }
        }
        int worst = -1;
        for (int c = 0; c < NCOLS; c++)
            if (on[c] && cols[c].drop > 0 && (worst < 0 || cols[c].drop > cols[worst].drop)) worst = c;
        if (worst < 0) break; /* the essentials stay, clipped by the area */
        on[worst] = 0;
    }
}

int viz_table_width(const lab_result *rows, int nrows)
{
    int w[NCOLS], on[NCOLS];
    choose(rows, nrows, 1 << 20, w, on);
    return total(w, on);
}

int viz_table_height(int nrows)
{
    return nrows + 2;
}

int viz_table_draw(canvas *c, viz_rect area, const lab_result *rows, int nrows, int highlight)
{
    int w[NCOLS], on[NCOLS];
    char b[LAB_NOTE_MAX + 8];
    if (area.w <= 0 || area.h <= 0) return 0;
    viz_rect old = canvas_set_clip(c, viz_rect_intersect(area, c->clip));
    choose(rows, nrows, area.w, w, on);
    int y = area.y;
    int x = area.x;
    for (int k = 0; k < NCOLS; k++) {
        if (!on[k]) continue;
        const char *head = _(cols[k].head);
        int tw = viz_text_width(head);
        int cx = cols[k].right ? x + w[k] - tw : x;
        canvas_text(c, cx, y, head, VIZ_ROLE_HEADING, 0);
        x += w[k] + 2;
    }
    int used = 1;
    if (area.h > 1) {
        int tw = total(w, on);
        canvas_hline(c, area.x, y + 1, tw < area.w ? tw : area.w, 0x2500, VIZ_ROLE_DIM, 0);
        used = 2;
    }
    for (int i = 0; i < nrows && used < area.h; i++, used++) {
        const lab_result *r = &rows[i];
        int ry = area.y + used;
        int base = i == highlight ? VIZ_ROLE_HIGHLIGHT : (r->ran ? VIZ_ROLE_TEXT : VIZ_ROLE_DIM);
        if (i == highlight) canvas_fill(c, viz_rect_make(area.x, ry, total(w, on), 1), ' ', base, 0);
        x = area.x;
        for (int k = 0; k < NCOLS; k++) {
            if (!on[k]) continue;
            int role = cell_text(r, k, b, sizeof b);
            if (role == VIZ_ROLE_TEXT || i == highlight) role = base;
            unsigned attr = (i == highlight && k == COL_VARIANT) ? VIZ_BOLD : 0;
            int tw = viz_text_width(b);
            if (tw > w[k]) {
                canvas_textn(c, x, ry, w[k], b, role, attr);
            } else {
                int cx = cols[k].right ? x + w[k] - tw : x;
                canvas_text(c, cx, ry, b, role, attr);
            }
            x += w[k] + 2;
        }
    }
    canvas_set_clip(c, old);
    return used;
}

int viz_table_print(FILE *f, const lab_result *rows, int nrows, int width, int highlight,
                    int no_color_flag)
{
    canvas *c = canvas_new(width, viz_table_height(nrows));
    if (!c) return -1;
    viz_table_draw(c, canvas_bounds(c), rows, nrows, highlight);
    viz_text_opts o = viz_text_opts_for(f, no_color_flag);
    int rc = viz_text_write(f, c, &o);
    canvas_free(c);
    return rc;
}
