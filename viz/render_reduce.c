/* render_reduce.c - the reduction tree, step by step: the drawing. The
 * frames, their statistics and the values and marks each frame leaves come
 * from reduce_model.c, the captions from reduce_words.c.
 *
 * Two pictures: the tree view (a block's whole array fits on one line: every
 * step below the previous one, the classic folding tree) and the grid view
 * (larger blocks: one line per warp, the current step only). Pairs being
 * added are arrows from source to destination ("◄──┘") when they do not
 * cross, "▲" when the source sits in the same column of the next line,
 * else "+d" under the destination (its source is d elements on). */
#include "viz/intl.h"
#include "viz/reduce_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- drawing */

typedef struct geom {
    int tree;        /* tree view */
    int vw, cw, epr; /* value width, cell width, elements per row */
    int lw;          /* label column */
    int lanes;       /* a lane line under each row (grid view) */
    int rows;        /* rows per block (grid view) */
    int nshow;       /* blocks drawn */
    int rows_shown;  /* rows of the (single) block drawn when it does not fit */
    int per_row;     /* tree view: blocks side by side */
    int margin;      /* columns for the per-row notes (grid view) */
    int legend, strip;
} geom;

/* Lines the picture needs below the blocks. */
enum { STRIP_LINES = 2 };

static int hist_rows(const rmodel *m, int launch)
{
    const rlaunch *L = &m->L[launch];
    int r = 0;
    for (int i = L->first; i < L->first + L->nframes; i++)
        if (m->fr[i].kind == F_LOAD || m->fr[i].kind == F_STEP) r++;
    return r;
}

/* Pick a view and its sizes for launch l in w x h. */
static void layout(const rmodel *m, int l, int w, int h, geom *g)
{
    const rlaunch *L = &m->L[l];
    memset(g, 0, sizeof *g);
    g->strip = h >= 12 ? STRIP_LINES : 0;
    g->legend = h >= 16 ? 1 : 0;
    int avail = h - g->strip - g->legend;
    int vw0 = m->vw < 2 ? 2 : m->vw;
    int vmin = vw0 < 3 ? vw0 : 3;

    /* Tree view: a block's whole array on one line, every step kept. */
    int hist = hist_rows(m, l);
    if (L->slots <= 64 && hist > 0) {
        for (int vw = vw0; vw >= vmin; vw--) {
            int cw = vw + 1, lw = 7;
            int bw = lw + L->slots * cw + 1;
            if (bw > w) continue;
            int per_row = (w + 2) / (bw + 2);
            if (per_row > L->nblocks) per_row = L->nblocks;
            int need1 = 1 + 2 * hist - 1; /* one block: header, rows and lanes */
            if (need1 > avail && avail < 1 + 2 * 4) break;
            int bands = avail / (need1 + 1);
            if (bands < 1) bands = 1;
            int nshow = per_row * bands;
            if (nshow > L->nblocks) nshow = L->nblocks;
            if (nshow > MAX_SHOWN_BLOCKS) nshow = MAX_SHOWN_BLOCKS;
            g->tree = 1;
            g->vw = vw;
            g->cw = cw;
            g->lw = lw;
            g->epr = L->slots;
            g->per_row = per_row;
            g->nshow = nshow;
            g->rows = 1;
            return;
        }
    }

    /* Grid view: a line per warp (or half, or quarter of one). */
    static const int eprs[] = {32, 16, 8};
    g->lw = 4;
    g->epr = 0;
    /* Fewer cells per line rather than values cut below four characters
     * (a sum of 1647 is worth more than seeing its whole warp on one line). */
    int vkeep = vw0 < 4 ? vw0 : 4;
    for (int i = 0; i < 3 && !g->epr; i++)
        for (int vw = vw0; vw >= vkeep; vw--)
            if (g->lw + eprs[i] * (vw + 1) <= w) {
                g->epr = eprs[i];
                g->vw = vw;
                break;
            }
    for (int i = 0; i < 3 && !g->epr; i++)
        for (int vw = vw0; vw >= vmin; vw--)
            if (g->lw + eprs[i] * (vw + 1) <= w) { /* the right border may fall off */
                g->epr = eprs[i];
                g->vw = vw;
                break;
            }
    if (!g->epr) {
        g->epr = 8;
        g->vw = vmin;
    }
    g->cw = g->vw + 1;
    g->margin = w - (g->lw + g->epr * g->cw + 1) - 1;
    if (g->margin < 5) g->margin = 0;
    g->rows = lab_ceil_div(L->slots, g->epr);
    /* Always a lane under each line: the arrows are the point of a step.
     * Fewer blocks when they do not all fit; when one does not, its first
     * lines (the pattern repeats from warp to warp). */
    int more = L->nblocks > 1 ? 1 : 0;
    int per_block = 1 + 2 * g->rows;
    g->lanes = 1;
    int n = (avail - more) / per_block;
    if (n >= 1) {
        g->nshow = n < L->nblocks ? n : L->nblocks;
        if (g->nshow > MAX_SHOWN_BLOCKS) g->nshow = MAX_SHOWN_BLOCKS;
        g->rows_shown = g->rows;
        return;
    }
    g->nshow = 1;
    g->rows_shown = (avail - 1 - 1) / 2;
    if (g->rows_shown < 1) g->rows_shown = 1;
}

/* A value in a cell: right-aligned in the cell's last vw columns. */
static void draw_value(canvas *c, const rmodel *m, int x, int y, const geom *g, int set, double v,
                       int role, unsigned attr)
{
    char b[32];
    if (!set) {
        canvas_put(c, x + g->cw - 1, y, 0x00b7, VIZ_ROLE_DIM, 0);
        return;
    }
    viz_fmt_value(v, m->t->dtype, g->vw, b, sizeof b);
    int tw = viz_text_width(b);
    canvas_text(c, x + g->cw - tw, y, b, role, attr);
}

/* What a lane used, for the legend. */
enum { LANE_ARROWS = 1, LANE_BELOW = 2, LANE_OFFSET = 4 };

/* The pairs whose destination is in [r0, r0 + n) of a line starting at x0,
 * drawn in lane line y: arrows when every source is on the same line and no
 * two arrows overlap; "▲" when every source sits in the same column of the
 * next line down; else "+d" under each destination (its source is d cells
 * on). *from_row gets the source line of "▲" (or -1). Returns LANE_* bits. */
static int draw_lane(canvas *c, const rmarks *k, int r0, int n, int x0, int y, const geom *g,
                     int role, int *from_row)
{
    int anchor0 = x0 + g->cw - 1;
    int local_ok = 1, any_local = 0, below = 1, any_remote = 0;
    int last_end = -1000;
    for (int j = 0; j < n; j++) {
        int d = r0 + j;
        if (d >= k->slots || !k->dst[d] || k->from[d] < 0) continue;
        int s = k->from[d];
        if (s >= r0 && s < r0 + n) {
            any_local = 1;
            int lo = d < s ? d : s, hi = d < s ? s : d;
            if (lo <= last_end) local_ok = 0;
            if (hi > last_end) last_end = hi;
        } else {
            any_remote = 1;
            if (s - d != n) below = 0;
        }
    }
    int mode = 0;
    if (any_local && local_ok && !any_remote) mode = LANE_ARROWS;
    else if (any_remote && below && !any_local) mode = LANE_BELOW;
    else if (any_local || any_remote) mode = LANE_OFFSET;
    if (from_row) *from_row = mode == LANE_BELOW ? r0 / n + 1 : -1;
    for (int j = 0; j < n; j++) {
        int d = r0 + j;
        if (d >= k->slots || !k->dst[d] || k->from[d] < 0) continue;
        int s = k->from[d];
        int xd = anchor0 + j * g->cw;
        if (mode == LANE_ARROWS) {
            int xs = anchor0 + (s - r0) * g->cw;
            if (xs > xd) {
                canvas_put(c, xd, y, 0x25c4, role, 0); /* ◄ */
                canvas_hline(c, xd + 1, y, xs - xd - 1, 0x2500, role, 0);
                canvas_put(c, xs, y, 0x2518, role, 0); /* ┘ */
            } else {
                canvas_put(c, xs, y, 0x2514, role, 0); /* └ */
                canvas_hline(c, xs + 1, y, xd - xs - 1, 0x2500, role, 0);
                canvas_put(c, xd, y, 0x25ba, role, 0); /* ► */
            }
        } else if (mode == LANE_BELOW) {
            canvas_put(c, xd, y, 0x25b2, role, 0); /* ▲ */
        } else {
            char lab[16];
            snprintf(lab, sizeof lab, "%+d", s - d);
            int tw = (int)strlen(lab);
            if (tw > g->cw - 1) canvas_put(c, xd, y, s > d ? 0x2192 : 0x2190, role, 0);
            else canvas_text(c, xd - tw + 1, y, lab, role, 0);
        }
    }
    return mode;
}

/* The style of a cell in the current step. */
static int cell_role(const rmarks *k, int slot, int warp_busy, int used)
{
    if (k && k->dst[slot]) return VIZ_ROLE_ACTIVE;
    if (k && k->src[slot]) return VIZ_ROLE_SOURCE;
    if (k && warp_busy && slot < k->slots && !k->busy[slot]) return VIZ_ROLE_IDLE;
    return used ? VIZ_ROLE_DIM : VIZ_ROLE_VALUE;
}

static int draw_grid_block(canvas *c, const rmodel *m, int fi, int blk, const rstate *st,
                           const rmarks *k, const wstat *ws, int wpb, viz_rect area, int y,
                           const geom *g, int step_frame)
{
    int used_modes = 0;
    int min_pass = rmodel_min_passes(m->t);
    const rlaunch *L = &m->L[m->fr[fi].launch];
    int x0 = area.x + g->lw;
    int wps = lab_ceil_div(st->slots, WARP);
    for (int r = 0; r < g->rows_shown && r < g->rows; r++) {
        int r0 = r * g->epr;
        int warp = r0 / WARP;
        int regrow = warp < wps && st->regmode[(size_t)blk * wps + warp];
        const wstat *w = ws && warp < wpb ? &ws[blk * wpb + warp] : NULL;
        int warp_busy = w && w->active > 0;
        if (r0 % WARP == 0 && r0 < L->bd) {
            canvas_printf(c, area.x, y, VIZ_ROLE_WARP, 0, "w%d", warp);
        } else if (r0 % WARP == 0) {
            canvas_printf(c, area.x, y, VIZ_ROLE_DIM, 0, "s%d", r0);
        }
        canvas_put(c, x0 - 1, y, 0x2502, VIZ_ROLE_WARP, 0);
        for (int j = 0; j < g->epr && r0 + j < st->slots; j++) {
            int s = r0 + j;
            int set, used = 0;
            double v;
            if (regrow && s < st->bd) {
                set = st->rset[(size_t)blk * st->bd + s];
                v = st->reg[(size_t)blk * st->bd + s];
            } else {
                set = st->sset[(size_t)blk * st->slots + s];
                v = st->sh[(size_t)blk * st->slots + s];
                used = st->used[(size_t)blk * st->slots + s];
            }
            int role = cell_role(step_frame ? k : NULL, s, warp_busy, used);
            draw_value(c, m, x0 + j * g->cw, y, g, set, v, role, 0);
        }
        int xe = x0 + g->epr * g->cw;
        canvas_put(c, xe, y, 0x2502, VIZ_ROLE_WARP, 0);
        int from_row = -1;
        if (g->lanes && step_frame) {
            canvas_put(c, x0 - 1, y + 1, 0x2502, VIZ_ROLE_WARP, 0);
            canvas_put(c, xe, y + 1, 0x2502, VIZ_ROLE_WARP, 0);
            used_modes |= draw_lane(c, k, r0, g->epr, x0, y + 1, g, VIZ_ROLE_ARROW, &from_row);
        } else if (g->lanes) {
            canvas_put(c, x0 - 1, y + 1, 0x2502, VIZ_ROLE_WARP, 0);
            canvas_put(c, xe, y + 1, 0x2502, VIZ_ROLE_WARP, 0);
        }
        /* The margin: how busy the warp is, its bank conflicts, where its
         * values come from. */
        if (g->margin > 0 && (r0 % WARP == 0) && w && w->lanes > 0 && step_frame) {
            int x = xe + 2;
            int end = xe + 2 + g->margin;
            char b[48];
            snprintf(b, sizeof b, "%d/%d", w->active, w->lanes);
            int role = w->active == 0 ? VIZ_ROLE_DIM : (w->active < w->lanes ? VIZ_ROLE_IDLE : VIZ_ROLE_ACTIVE);
            x = canvas_textn(c, x, y, end - x, b, role, 0);
            if (w->ways > min_pass && end - x > 6) {
                snprintf(b, sizeof b, " %d-way", w->ways);
                x = canvas_textn(c, x, y, end - x, b, VIZ_ROLE_CONFLICT, 0);
            }
            if (regrow && end - x > 5) x = canvas_textn(c, x, y, end - x, _(" regs"), VIZ_ROLE_DIM, 0);
        } else if (g->margin > 0 && r0 % WARP == 0 && regrow) {
            canvas_textn(c, xe + 2, y, g->margin, _("regs"), VIZ_ROLE_DIM, 0);
        }
        if (from_row >= 0 && g->margin > 0 && g->lanes) {
            char b[64];
            snprintf(b, sizeof b, "\u25b2 +%d", g->epr);
            if (g->epr == WARP) snprintf(b, sizeof b, _("\u25b2 from w%d"), from_row);
            canvas_textn(c, xe + 2, y + 1, g->margin, b, VIZ_ROLE_ARROW, 0);
        }
        y += 1 + g->lanes;
    }
    if (g->rows_shown < g->rows)
        canvas_printf(c, area.x, y, VIZ_ROLE_DIM, 0, _("\u2026 %d more rows"), g->rows - g->rows_shown);
    return used_modes;
}

/* A short label for a history row of the tree view. */
static void step_label(const rmodel *m, int fi, char *b, size_t len)
{
    const rframe *f = &m->fr[fi];
    if (f->kind == F_LOAD) {
        snprintf(b, len, "load");
        return;
    }
    fstats s;
    rmodel_frame_stats(m, fi, &s, NULL, 0);
    if (s.nshfl > 0) snprintf(b, len, "%s%d", s.xor_pattern ? "xor" : "shf", abs(s.offset));
    else if (s.nadd > 0 && s.uniform) snprintf(b, len, "+%d", abs(s.offset));
    else if (s.nadd > 0) snprintf(b, len, "add");
    else if (s.nread_s > 0) snprintf(b, len, "read");
    else if (s.nwrite_s > 0) snprintf(b, len, "store");
    else snprintf(b, len, "step");
}

/* The tree view: for each shown block, the array after the load and after
 * every step up to frame fi, with the pairs of each step between the lines. */
static void draw_tree(canvas *c, const rmodel *m, int fi, viz_rect area, const geom *g, int *y_end,
                      int *modes)
{
    const rframe *f = &m->fr[fi];
    const rlaunch *L = &m->L[f->launch];
    int last = f->kind == F_FINAL ? L->first + L->nframes - 1 : fi;
    /* The history rows up to this frame. */
    int hist[512], nh = 0;
    for (int i = L->first; i <= last && i < L->first + L->nframes && nh < 512; i++)
        if (m->fr[i].kind == F_LOAD || m->fr[i].kind == F_STEP) hist[nh++] = i;
    int nb = g->nshow;
    int bw = g->lw + L->slots * g->cw + 1;
    rstate st = {0};
    rmarks k = {0};
    /* has[b * nh + h]: block b works in history row h. A block gets a line
     * only for the steps it takes part in (the vector variant's last block
     * works alone at the end). */
    unsigned char *has = calloc((size_t)nb * (size_t)(nh ? nh : 1), 1);
    int *count = calloc((size_t)nb, sizeof *count), *row = calloc((size_t)nb, sizeof *row);
    if (!has || !count || !row || rstate_init(&st, L, nb) != 0 || rmarks_init(&k, L->slots) != 0) {
        canvas_text(c, area.x, area.y, _("out of memory"), VIZ_ROLE_WRONG, 0);
        goto out;
    }
    for (int h = 0; h < nh; h++) {
        const rframe *hf = &m->fr[hist[h]];
        for (size_t i = 0; i < hf->count; i++) {
            int b = (int)m->fev[hf->first + i]->block;
            if (b < nb && !has[(size_t)b * nh + h]) {
                has[(size_t)b * nh + h] = 1;
                count[b]++;
            }
        }
    }
    /* Rows that fit in a band: a value line each, a lane line between. */
    int bands = lab_ceil_div(nb, g->per_row);
    int space = (area.h - g->strip - g->legend - (nb < L->nblocks ? 1 : 0)) / (bands > 0 ? bands : 1);
    int fit = space / 2;
    if (fit < 1) fit = 1;
    int maxrows = 1;
    for (int b = 0; b < nb; b++)
        if ((count[b] < fit ? count[b] : fit) > maxrows) maxrows = count[b] < fit ? count[b] : fit;
    int band_h = 2 * maxrows; /* the header and the rows with their lanes */
    int ymax = area.y;
    for (int b = 0; b < nb; b++) {
        int bx = area.x + (b % g->per_row) * (bw + 2), by = area.y + (b / g->per_row) * (band_h + 1);
        int skip = count[b] > fit ? count[b] - fit : 0;
        if (skip > 0)
            canvas_printf(c, bx, by, VIZ_ROLE_HEADING, 0,
                          ngettext("block %d  \u22ee %d earlier step", "block %d  \u22ee %d earlier steps",
                                   (unsigned long)skip),
                          b, skip);
        else
            canvas_printf(c, bx, by, VIZ_ROLE_HEADING, 0, _("block %d"), b);
        row[b] = -skip;
    }
    /* Replay the launch, drawing each block's line as its step is reached. */
    int wps = lab_ceil_div(L->slots, WARP);
    for (int h = 0; h < nh; h++) {
        int fr = hist[h];
        for (int i = (h == 0 ? L->first : hist[h - 1] + 1); i <= fr; i++) rstate_apply(&st, m, i);
        int is_cur = fr == fi;
        for (int b = 0; b < nb; b++) {
            if (!has[(size_t)b * nh + h]) continue;
            int r = row[b]++;
            if (r < 0) continue;
            int bx = area.x + (b % g->per_row) * (bw + 2), by = area.y + (b / g->per_row) * (band_h + 1);
            int y = by + 1 + 2 * r;
            if (y >= area.y + area.h - g->strip - g->legend) continue;
            memset(k.dst, 0, (size_t)k.slots);
            memset(k.src, 0, (size_t)k.slots);
            memset(k.busy, 0, (size_t)k.slots);
            for (int s = 0; s < k.slots; s++) k.from[s] = -1;
            rmarks_fill(&k, m, fr, b);
            char lab[16];
            step_label(m, fr, lab, sizeof lab);
            canvas_textn(c, bx, y, g->lw - 1, lab, is_cur ? VIZ_ROLE_HEADING : VIZ_ROLE_DIM, 0);
            int x0 = bx + g->lw;
            for (int s = 0; s < L->slots; s++) {
                int regrow = st.regmode[(size_t)b * wps + s / WARP] && s < st.bd;
                int set = regrow ? st.rset[(size_t)b * st.bd + s] : st.sset[(size_t)b * st.slots + s];
                double v = regrow ? st.reg[(size_t)b * st.bd + s] : st.sh[(size_t)b * st.slots + s];
                int role = VIZ_ROLE_VALUE;
                if (is_cur && k.dst[s]) role = VIZ_ROLE_ACTIVE;
                else if (!is_cur && k.dst[s]) role = VIZ_ROLE_TEXT;
                else if (!is_cur) role = VIZ_ROLE_DIM;
                if (!regrow && st.used[(size_t)b * st.slots + s] && !k.dst[s] && is_cur) role = VIZ_ROLE_DIM;
                if (s > 0 && s % WARP == 0) canvas_put(c, x0 + s * g->cw, y, 0x2506, VIZ_ROLE_WARP, 0);
                draw_value(c, m, x0 + s * g->cw, y, g, set, v, role, 0);
            }
            /* The lane above this line: the pairs of this step. */
            if (r > 0 && fr != L->load) {
                *modes |= draw_lane(c, &k, 0, L->slots, x0, y - 1, g, is_cur ? VIZ_ROLE_ARROW : VIZ_ROLE_DIM, NULL);
                if (is_cur) {
                    /* Sources light up in the line above: the values they had. */
                    for (int s = 0; s < L->slots; s++)
                        if (k.src[s])
                            canvas_restyle(c, viz_rect_make(x0 + s * g->cw + 1, y - 2, g->cw - 1, 1),
                                           VIZ_ROLE_SOURCE, 0);
                }
            }
            if (y + 1 > ymax) ymax = y + 1;
        }
    }
    if (nb < L->nblocks) {
        int y = area.y + bands * (band_h + 1) - 1;
        if (y < area.y + area.h - g->strip - g->legend) {
            if (nb == L->nblocks - 1)
                canvas_printf(c, area.x, y, VIZ_ROLE_DIM, 0, _("\u2026 block %d does the same with its own elements"), nb);
            else
                canvas_printf(c, area.x, y, VIZ_ROLE_DIM, 0,
                              _("\u2026 blocks %d\u2013%d do the same with their own elements"), nb, L->nblocks - 1);
            if (y + 1 > ymax) ymax = y + 1;
        }
    }
    *y_end = ymax;
out:
    free(has);
    free(count);
    free(row);
    rstate_free(&st);
    rmarks_free(&k);
}

static void draw_grid(canvas *c, const rmodel *m, int fi, viz_rect area, const geom *g, int *y_end,
                      int *modes)
{
    const rframe *f = &m->fr[fi];
    const rlaunch *L = &m->L[f->launch];
    int nb = g->nshow;
    int wpb = lab_ceil_div(L->bd, WARP);
    rstate st = {0};
    rmarks k = {0};
    wstat *ws = calloc((size_t)nb * wpb + 1, sizeof *ws);
    if (!ws || rstate_init(&st, L, nb) != 0 || rmarks_init(&k, L->slots) != 0) {
        canvas_text(c, area.x, area.y, _("out of memory"), VIZ_ROLE_WRONG, 0);
        free(ws);
        rstate_free(&st);
        rmarks_free(&k);
        return;
    }
    int upto = fi;
    if (f->kind == F_FINAL) upto = L->first + L->nframes - 1;
    for (int i = L->first; i <= upto; i++) rstate_apply(&st, m, i);
    int step_frame = f->kind != F_FINAL;
    fstats s;
    if (step_frame) rmodel_frame_stats(m, fi, &s, ws, nb);
    int y = area.y;
    int per_block = 1 + g->rows_shown * (1 + g->lanes);
    for (int b = 0; b < nb; b++) {
        if (y + per_block > area.y + area.h - g->strip - g->legend) break;
        canvas_printf(c, area.x, y, VIZ_ROLE_HEADING, 0, _("block %d"), b);
        int bdiv = 0, bways = 0;
        for (int w = 0; w < wpb; w++) {
            if (ws[b * wpb + w].active > 0 && ws[b * wpb + w].active < ws[b * wpb + w].lanes) bdiv++;
            if (ws[b * wpb + w].ways > bways) bways = ws[b * wpb + w].ways;
        }
        char hb[160];
        int off;
        char threads[48];
        snprintf(threads, sizeof threads, ngettext("%d thread", "%d threads", (unsigned long)L->bd), L->bd);
        if (step_frame && f->kind == F_STEP)
            /* TRANSLATORS: "  128 threads · 4 warps diverge" */
            off = snprintf(hb, sizeof hb,
                           ngettext("  %s \u00b7 %d warp diverges", "  %s \u00b7 %d warps diverge", (unsigned long)bdiv),
                           threads, bdiv);
        else
            off = snprintf(hb, sizeof hb, "  %s", threads);
        if (off < 0 || off >= (int)sizeof hb) off = (int)strlen(hb);
        /* Which warps show registers rather than shared memory. */
        int wps = lab_ceil_div(L->slots, WARP), nreg = 0, first_reg = -1;
        for (int w = 0; w < wps; w++)
            if (st.regmode[(size_t)b * wps + w]) {
                if (first_reg < 0) first_reg = w;
                nreg++;
            }
        if (nreg == 1)
            snprintf(hb + off, sizeof hb - (size_t)off, _(" \u00b7 w%d shows registers"), first_reg);
        else if (nreg > 1 && nreg == wps)
            snprintf(hb + off, sizeof hb - (size_t)off, "%s", _(" \u00b7 registers, not shared memory"));
        else if (nreg > 1)
            snprintf(hb + off, sizeof hb - (size_t)off, _(" \u00b7 %d warps show registers"), nreg);
        int x = canvas_textn(c, area.x + 8 + (b >= 10) + (b >= 100), y, area.w - 10, hb, VIZ_ROLE_DIM, 0);
        int min_pass = rmodel_min_passes(m->t);
        if (step_frame && f->kind == F_STEP && bways > min_pass)
            canvas_textn(c, x, y, area.x + area.w - x, _(" \u00b7 bank conflicts"), VIZ_ROLE_CONFLICT, 0);
        memset(k.dst, 0, (size_t)k.slots);
        memset(k.src, 0, (size_t)k.slots);
        memset(k.busy, 0, (size_t)k.slots);
        for (int i = 0; i < k.slots; i++) k.from[i] = -1;
        if (step_frame) rmarks_fill(&k, m, fi, b);
        *modes |= draw_grid_block(c, m, fi, b, &st, &k, ws, wpb, area, y + 1, g, step_frame);
        y += per_block;
    }
    if (nb < L->nblocks && y < area.y + area.h - g->strip - g->legend) {
        if (nb == L->nblocks - 1)
            canvas_printf(c, area.x, y, VIZ_ROLE_DIM, 0, _("\u2026 block %d does the same with its own elements"), nb);
        else
            canvas_printf(c, area.x, y, VIZ_ROLE_DIM, 0,
                          _("\u2026 blocks %d\u2013%d do the same with their own elements"), nb, L->nblocks - 1);
        y++;
    }
    *y_end = y;
    free(ws);
    rstate_free(&st);
    rmarks_free(&k);
}

/* The input array, each element in the style of the block that reads it. */
static void draw_input(canvas *c, const rmodel *m, viz_rect area, const geom *g0, int *y_end)
{
    const lab_trace *t = m->t;
    int y = area.y;
    if (!t->input || t->n <= 0) {
        canvas_text(c, area.x, y, _("(the trace carries no input values)"), VIZ_ROLE_DIM, 0);
        *y_end = y + 1;
        return;
    }
    geom g = *g0;
    int lw = rmodel_digits((double)(t->n - 1)) + 2;
    /* Elements per line: what the layout chose for the blocks, or as many
     * as fit when the tree view put a whole block on a line. */
    int epr = g.epr;
    while (lw + epr * g.cw + 1 > area.w && epr > 8) epr /= 2;
    if (epr < 1) epr = 1;
    int rows = (int)(lab_ceil_div(t->n, epr));
    int avail = area.h - g.legend - g.strip;
    int shown = rows <= avail ? rows : avail - 1;
    if (shown < 1) shown = 1;
    int x0 = area.x + lw;
    for (int r = 0; r < shown; r++, y++) {
        long long i0 = (long long)r * epr;
        canvas_printf(c, area.x, y, VIZ_ROLE_DIM, 0, "%lld", i0);
        canvas_put(c, x0 - 1, y, 0x2502, VIZ_ROLE_WARP, 0);
        int blo = -2, bhi = -2;
        for (int j = 0; j < epr && i0 + j < t->n; j++) {
            long long i = i0 + j;
            int b = m->reader ? m->reader[i] : -1;
            int role = b >= 0 ? viz_block_role(b) : VIZ_ROLE_DIM;
            draw_value(c, m, x0 + j * g.cw, y, &g, 1, t->input[i], role, 0);
            if (b >= 0) {
                if (blo == -2 || b < blo) blo = b;
                if (b > bhi) bhi = b;
            }
        }
        int xe = x0 + epr * g.cw + 2;
        if (xe < area.x + area.w) {
            char b[48];
            if (blo < 0) snprintf(b, sizeof b, "%s", _("not read"));
            else if (blo == bhi) snprintf(b, sizeof b, _("\u2192 block %d"), blo);
            else snprintf(b, sizeof b, _("\u2192 blocks %d\u2013%d"), blo, bhi);
            canvas_textn(c, xe, y, area.x + area.w - xe, b, blo >= 0 ? viz_block_role(blo) : VIZ_ROLE_DIM, 0);
        }
    }
    if (shown < rows) {
        canvas_printf(c, area.x, y, VIZ_ROLE_DIM, 0, _("\u2026 %d more rows (%lld elements in all)"),
                      rows - shown, t->n);
        y++;
    }
    *y_end = y;
}

/* The latest result frame at or before fi (this launch or an earlier one). */
static int last_result(const rmodel *m, int fi)
{
    for (int i = fi; i >= 0; i--)
        if (m->fr[i].kind == F_RESULT) return i;
    return -1;
}

/* Two lines: the block sums, and how they combine into the answer. */
static void draw_strip(canvas *c, const rmodel *m, int fi, viz_rect area, int y)
{
    const rframe *f = &m->fr[fi];
    int xend = area.x + area.w;
    int rf = last_result(m, fi);
    /* The block sums are launch 0's first results, one per block. */
    int sums = m->nl > 0 ? m->L[0].result : -1;
    int x = canvas_text(c, area.x, y, _("block sums "), VIZ_ROLE_HEADING, 0);
    if (rf < 0 || sums < 0) {
        canvas_textn(c, x, y, xend - x,
                     m->L[0].nblocks > 1 ? _("\u2013 each block first reduces its own elements")
                                         : _("\u2013 the block first reduces its elements"),
                     VIZ_ROLE_DIM, 0);
        return;
    }
    const rframe *sf = &m->fr[sums];
    for (size_t i = 0; i < sf->count && x < xend; i++) {
        const lab_event *e = m->fev[sf->first + i];
        char v[24], b[48];
        viz_fmt_value(e->v, m->t->dtype, 12, v, sizeof v);
        snprintf(b, sizeof b, "b%u:%s ", e->block, v);
        if (x + viz_text_width(b) > xend - 2 && i + 1 < sf->count) {
            canvas_text(c, x, y, "\u2026", VIZ_ROLE_DIM, 0);
            break;
        }
        x = canvas_text(c, x, y, b, fi == sums ? VIZ_ROLE_ACTIVE : VIZ_ROLE_VALUE, 0);
    }
    /* The second line: how they become the answer. */
    const rframe *r = &m->fr[rf];
    int role = fi == rf ? VIZ_ROLE_ARROW : VIZ_ROLE_DIM;
    int atomic = 0;
    double total = 0;
    for (size_t i = 0; i < r->count; i++) {
        const lab_event *e = m->fev[r->first + i];
        if (e->kind == LAB_EV_ATOMIC) atomic = 1;
        total += e->v;
    }
    int later = 0; /* work left after these results (another launch or step) */
    for (int i = rf + 1; i < m->nfr; i++)
        if (m->fr[i].kind == F_STEP || m->fr[i].kind == F_LOAD || m->fr[i].kind == F_RESULT) later = 1;
    char v[32];
    if (f->kind == F_FINAL) {
        rmodel_fmt(m, rmodel_answer(m), v, sizeof v);
        x = canvas_printf(c, area.x, y + 1, VIZ_ROLE_HEADING, 0, _("sum = %s"), v);
        if (m->have_ref) {
            char rv[32];
            rmodel_fmt(m, m->ref, rv, sizeof rv);
            double rel = m->ref != 0 ? fabs(rmodel_answer(m) - m->ref) / fabs(m->ref) : fabs(rmodel_answer(m));
            int close = (m->t->dtype == LAB_FLOAT || m->t->dtype == LAB_DOUBLE) && rel < 1e-3;
            x = canvas_printf(c, x, y + 1, VIZ_ROLE_TEXT, 0, _("   CPU %s   "), rv);
            if (rmodel_answer(m) == m->ref) canvas_text(c, x, y + 1, _("\u2713 equal"), VIZ_ROLE_OK, 0);
            else if (close) canvas_printf(c, x, y + 1, VIZ_ROLE_WARN, 0, _("\u2248 relative error %.1e"), rel);
            else canvas_text(c, x, y + 1, _("\u2717 wrong"), VIZ_ROLE_WRONG, 0);
        }
    } else if (atomic) {
        viz_fmt_value(total, m->t->dtype, 16, v, sizeof v);
        canvas_printf(c, area.x, y + 1, role, 0,
                      ngettext("atomicAdd \u2192 total %s (%zu atomic on one address)",
                               "atomicAdd \u2192 total %s (%zu atomics on one address)", (unsigned long)r->count),
                      v, r->count);
    } else if (later && r->count > 1) {
        canvas_printf(c, area.x, y + 1, role, 0, _("written to partial[0..%zu] \u2192 %s"), r->count - 1,
                      r->launch + 1 < m->nl ? _("the next launch adds them") : _("the last block adds them"));
    } else {
        viz_fmt_value(total, m->t->dtype, 16, v, sizeof v);
        canvas_printf(c, area.x, y + 1, role, 0, _("written to global memory: the result, %s"), v);
    }
}

/* What the glyphs of this frame mean (plain text has no colours to lean on). */
static void draw_legend(canvas *c, viz_rect area, int y, int modes, int grid)
{
    int x = area.x, xend = area.x + area.w;
    struct {
        int when;
        const char *glyph, *text;
        int role;
    } items[] = {
        {LANE_ARROWS, "\u25c4\u2500\u2518", N_(" source \u2192 destination"), VIZ_ROLE_ARROW},
        {LANE_OFFSET, "+d", N_(" source d cells on"), VIZ_ROLE_ARROW},
        {LANE_BELOW, "\u25b2", N_(" source in the row below"), VIZ_ROLE_ARROW},
        {-1, "\u00b7", N_(" not written yet"), VIZ_ROLE_DIM},
        {-2, "n/32", N_(" busy lanes of the warp"), VIZ_ROLE_IDLE},
    };
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        if (items[i].when > 0 && !(modes & items[i].when)) continue;
        if (items[i].when == -2 && !grid) continue;
        const char *text = _(items[i].text);
        int need = viz_text_width(items[i].glyph) + viz_text_width(text) + 3;
        if (x + need > xend) break;
        x = canvas_text(c, x, y, items[i].glyph, items[i].role, 0);
        x = canvas_text(c, x, y, text, VIZ_ROLE_DIM, 0);
        x += 3;
    }
}

/* ------------------------------------------------------------ interface */

static int reduce_frames(const lab_trace *t)
{
    rmodel m;
    if (rmodel_build(&m, t) != 0) return 1;
    int n = m.nfr;
    rmodel_free(&m);
    return n > 0 ? n : 1;
}

static void reduce_draw(const lab_trace *t, int frame, canvas *c, viz_rect area, viz_frame_info *info)
{
    rmodel m;
    area = viz_rect_intersect(area, canvas_bounds(c));
    if (area.w <= 0 || area.h <= 0) return;
    viz_rect old = canvas_set_clip(c, area);
    if (rmodel_build(&m, t) != 0) {
        canvas_text(c, area.x, area.y, _("out of memory while reading the trace"), VIZ_ROLE_WRONG, 0);
        canvas_set_clip(c, old);
        return;
    }
    if (frame < 0) frame = 0;
    if (frame >= m.nfr) frame = m.nfr - 1;
    const rframe *f = &m.fr[frame];
    fstats s;
    rmodel_frame_stats(&m, frame, &s, NULL, 0);
    reduce_describe(&m, frame, &s, info);

    int l = f->kind == F_INPUT ? 0 : f->launch;
    geom g;
    if (m.nl == 0) {
        canvas_text(c, area.x, area.y, _("the trace has no events"), VIZ_ROLE_DIM, 0);
        goto out;
    }
    layout(&m, l, area.w, area.h, &g);
    int y_end = area.y, modes = 0;
    if (f->kind == F_INPUT) draw_input(c, &m, area, &g, &y_end);
    else if (g.tree) draw_tree(c, &m, frame, area, &g, &y_end, &modes);
    else draw_grid(c, &m, frame, area, &g, &y_end, &modes);
    /* The block sums and the legend follow the picture, one line apart. */
    int ys = y_end + 1, ymax = area.y + area.h - g.strip - g.legend;
    if (ys > ymax) ys = ymax;
    if (g.strip) draw_strip(c, &m, frame, area, ys);
    if (g.legend && f->kind != F_INPUT) draw_legend(c, area, ys + g.strip, modes, !g.tree && g.margin > 0);
out:
    canvas_set_clip(c, old);
    rmodel_free(&m);
}

/* Rows for printing every frame as text at this width: the tallest frame
 * when nothing has to be left out. */
static int reduce_height(const lab_trace *t, int width)
{
    rmodel m;
    if (rmodel_build(&m, t) != 0) return 24;
    int h = 0;
    for (int l = 0; l < m.nl; l++) {
        const rlaunch *L = &m.L[l];
        geom g;
        layout(&m, l, width, 1000, &g);
        int need;
        if (g.tree) {
            int bands = lab_ceil_div(L->nblocks, g.per_row);
            if (bands * g.per_row > MAX_SHOWN_BLOCKS) bands = lab_ceil_div(MAX_SHOWN_BLOCKS, g.per_row);
            need = bands * (1 + 2 * hist_rows(&m, l)) + 1;
        } else {
            int nb = L->nblocks < MAX_SHOWN_BLOCKS ? L->nblocks : MAX_SHOWN_BLOCKS;
            need = nb * (1 + g.rows * 2) + 1;
        }
        if (need > h) h = need;
    }
    if (t->input && t->n > 0 && m.nl > 0) {
        /* the input frame: rows of the first launch's line length */
        geom g;
        layout(&m, 0, width, 1000, &g);
        int epr = g.epr;
        int lw = rmodel_digits((double)(t->n - 1)) + 2;
        while (lw + epr * g.cw + 1 > width && epr > 8) epr /= 2;
        int in = (int)(lab_ceil_div(t->n, epr));
        if (in > h) h = in;
    }
    rmodel_free(&m);
    h += STRIP_LINES + 1;
    if (h < 16) h = 16;
    return h;
}

const viz_renderer viz_render_reduce = {
    .algos = "reduce",
    .variants = NULL,
    .name = "reduction tree",
    .frames = reduce_frames,
    .draw = reduce_draw,
    .height = reduce_height,
    .min_w = 38, /* two side by side in 80 columns: eight values of three digits a line */
    .min_h = 12,
};
