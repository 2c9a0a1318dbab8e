/* render_histogram.c - the 256 bins filling up, and the contention behind it.
 *
 * Frames of one trace:
 *   image        the input picture and the empty bins
 *   per block, in block order (the order the simulator runs them):
 *     one per step  the block's threads each take their next pixel (fast: their
 *                   next 16-byte vector) and add it to a bin: the pixels light
 *                   up in the picture, the bars grow, and the heat strip under
 *                   the bars shows how many lanes of one warp hit the same
 *                   counter in this step
 *     done          the block is finished: global adds nothing more (its
 *                   atomics already went to the global histogram); shared and
 *                   fast add their private histogram into the global one, one
 *                   atomic per non-zero bin
 *   counts       the final histogram as exact numbers, checked against a
 *                count of the input
 *
 * The bars always show the global histogram; for variants with a private
 * histogram (atomics on shared memory), the block's private counts are
 * stacked on top in the block's colour until the block merges them. The scale
 * is the final histogram's, so bars only grow.
 *
 * Everything is rebuilt from the trace on each call (a traced 64x64 image is
 * a few ten thousand events), so a frame is a pure function of its inputs.
 */
#include "viz/intl.h"
#include "viz/render.h"

#include <stdlib.h>
#include <string.h>

#include "viz/histogram_model.h"

/* ------------------------------------------------------------ drawing */

/* Contention glyphs: lanes of one warp on one counter. */
static int heat_level(int lanes)
{
    if (lanes <= 0) return -1;
    if (lanes == 1) return 1;
    if (lanes == 2) return 2;
    if (lanes <= 4) return 3;
    if (lanes <= 8) return 4;
    if (lanes <= 16) return 5;
    if (lanes < 32) return 6;
    return 7;
}

static uint32_t heat_glyph(int level)
{
    static const uint32_t g[8] = {' ', 0x00b7, ':', 0x2591, 0x2592, 0x2593, 0x2588, 0x2588};
    return level < 0 ? ' ' : g[level];
}

/* Brightness ramp for the picture: dark to light. */
static uint32_t shade(double v)
{
    static const uint32_t g[] = {' ', 0x2591, 0x2592, 0x2593, 0x2588};
    int k = (int)(v * 5 / 256.0);
    if (k < 0) k = 0;
    if (k > 4) k = 4;
    return g[k];
}

typedef struct geom {
    int img_w, img_h, sx, sy; /* picture cells and pixels per cell */
    int side_x, side_w;       /* text beside the picture */
    int top;                  /* rows above the bars */
    int bars_x, bars_w, bars_h, bars_y;
    int strips;               /* heat strips under the axis */
} geom;

static void layout(const hmodel *m, viz_rect a, geom *g)
{
    memset(g, 0, sizeof *g);
    g->strips = m->spread ? 2 : 1;
    int reserve = 1 /* axis */ + g->strips + 2 /* legend */ + 1 /* busiest */;
    /* the picture: at most a third of the height and half the width, pixels
     * twice as tall as wide in cells (a cell is about twice as tall) */
    int maxh = (a.h - reserve - 4) / 2, maxw = a.w / 2 - 2;
    if (m->t->input && maxh >= 3 && maxw >= 8) {
        int sx = 1;
        for (;; sx++) {
            int sy = 2 * sx;
            int cw = lab_ceil_div(m->w, sx), ch = lab_ceil_div(m->h, sy);
            if ((cw <= maxw && ch <= maxh) || sx > 4096) {
                g->sx = sx;
                g->sy = sy;
                g->img_w = cw;
                g->img_h = ch;
                break;
            }
        }
    }
    g->top = g->img_h > 0 ? g->img_h + 1 : 0;
    g->side_x = a.x + (g->img_w > 0 ? g->img_w + 3 : 0);
    g->side_w = a.x + a.w - g->side_x;
    g->bars_x = a.x;
    g->bars_w = a.w;
    g->bars_y = a.y + g->top;
    g->bars_h = a.h - g->top - reserve;
    if (g->bars_h < 2) {
        /* no room for the picture: bars first */
        g->img_w = g->img_h = 0;
        g->top = 0;
        g->side_x = a.x;
        g->side_w = a.w;
        g->bars_y = a.y;
        g->bars_h = a.h - reserve;
        if (g->bars_h < 1) g->bars_h = 1;
    }
}

static void draw_picture(canvas *c, const hmodel *m, viz_rect a, const geom *g,
                         const unsigned char *lit, const unsigned char *seen)
{
    const double *in = m->t->input;
    for (int cy = 0; cy < g->img_h; cy++)
        for (int cx = 0; cx < g->img_w; cx++) {
            double sum = 0;
            int cnt = 0, any_lit = 0, nseen = 0;
            for (int y = cy * g->sy; y < (cy + 1) * g->sy && y < m->h; y++)
                for (int x = cx * g->sx; x < (cx + 1) * g->sx && x < m->w; x++) {
                    long long i = (long long)y * m->w + x;
                    if (i >= m->n) continue;
                    sum += in[i];
                    cnt++;
                    if (lit[i]) any_lit = 1;
                    if (seen[i]) nseen++;
                }
            if (!cnt) continue;
            int all_seen = 2 * nseen >= cnt; /* most of the cell is counted */
            /* taken now: a bright dot; already counted: gone into the bins */
            int role = any_lit ? VIZ_ROLE_ACTIVE : all_seen ? VIZ_ROLE_DIM : VIZ_ROLE_VALUE;
            uint32_t glyph = any_lit ? 0x25cf /* ● */ : all_seen ? 0x00b7 /* · */ : shade(sum / cnt);
            canvas_put(c, a.x + cx, a.y + cy, glyph, role, any_lit ? VIZ_BOLD : 0);
        }
}

/* The bars: global (value role) with the block's private counts stacked on
 * top (the block's role); cells that grew in this frame in the active role. */
static void draw_bars(canvas *c, const hmodel *m, const hstate *s, int block, const geom *g)
{
    static const uint32_t eighth[9] = {' ', 0x2581, 0x2582, 0x2583, 0x2584,
                                       0x2585, 0x2586, 0x2587, 0x2588};
    int ncol = lab_ceil_div(NB, m->group);
    for (int col = 0; col < ncol && col < g->bars_w; col++) {
        unsigned gv = 0, pv = 0, nv = 0;
        for (int b = col * m->group; b < (col + 1) * m->group && b < NB; b++) {
            gv += s->global[b];
            pv += s->priv[b];
            nv += s->now[b];
        }
        double scale = m->maxcol ? (double)g->bars_h * 8 / m->maxcol : 0;
        int ht = (int)((gv + pv) * scale + 0.5), hg = (int)(gv * scale + 0.5);
        if (gv + pv > 0 && ht == 0) ht = 1; /* a bin with counts never looks empty */
        if (gv > 0 && hg == 0) hg = 1;
        int x = g->bars_x + col;
        for (int r = 0; r < g->bars_h; r++) {
            int lo = r * 8, fill = ht - lo;
            if (fill <= 0) break;
            int y = g->bars_y + g->bars_h - 1 - r;
            int mine = lo >= hg; /* the block's private counts, not merged yet */
            uint32_t glyph = fill < 8 ? eighth[fill] : mine ? 0x2592 /* ▒ */ : eighth[8];
            int role = mine ? viz_block_role(block) : VIZ_ROLE_VALUE;
            int top = fill <= 8;
            if (top && nv > 0) role = VIZ_ROLE_ACTIVE;
            canvas_put(c, x, y, glyph, role, top && nv > 0 ? VIZ_BOLD : 0);
        }
    }
}

static void draw_axis(canvas *c, const hmodel *m, const geom *g, int y)
{
    int ncol = lab_ceil_div(NB, m->group);
    int w = ncol < g->bars_w ? ncol : g->bars_w;
    canvas_hline(c, g->bars_x, y, w, 0x2500, VIZ_ROLE_DIM, 0);
    static const int ticks[] = {0, 64, 128, 192, 255};
    int next_free = g->bars_x;
    for (int k = 0; k < 5; k++) {
        int x = g->bars_x + ticks[k] / m->group;
        char lab[8];
        snprintf(lab, sizeof lab, "%d", ticks[k]);
        int lw = (int)strlen(lab);
        if (k == 4) x = g->bars_x + w - lw;
        if (x < next_free) continue;
        canvas_text(c, x, y, lab, VIZ_ROLE_DIM, 0);
        next_free = x + lw + 1;
    }
}

static void draw_strip(canvas *c, const hmodel *m, const hstate *s, const geom *g, int y,
                       const int *val)
{
    int ncol = lab_ceil_div(NB, m->group);
    for (int col = 0; col < ncol && col < g->bars_w; col++) {
        int most = 0;
        for (int b = col * m->group; b < (col + 1) * m->group && b < NB; b++)
            if (val[b] > most) most = val[b];
        int lv = heat_level(most);
        if (lv < 0) continue;
        canvas_put(c, g->bars_x + col, y, heat_glyph(lv), viz_heat_role(lv), 0);
    }
    (void)s;
}

/* The busiest bins of the global histogram, with exact counts. */
static void draw_busiest(canvas *c, const hstate *s, int x, int y, int w)
{
    char line[256];
    int off = snprintf(line, sizeof line, "%s", _("busiest bins:"));
    if (off < 0 || off >= (int)sizeof line) off = (int)strlen(line);
    unsigned used[NB] = {0};
    int shown = 0;
    for (int k = 0; k < 6; k++) {
        int best = -1;
        for (int b = 0; b < NB; b++) {
            unsigned v = s->global[b] + s->priv[b];
            if (!used[b] && v > 0 && (best < 0 || v > s->global[best] + s->priv[best])) best = b;
        }
        if (best < 0) break;
        used[best] = 1;
        off += snprintf(line + off, sizeof line - (size_t)off, " %d:%u", best,
                        s->global[best] + s->priv[best]);
        shown++;
        if (off >= (int)sizeof line - 16) break;
    }
    if (!shown) snprintf(line, sizeof line, "%s", _("busiest bins: none yet"));
    canvas_textn(c, x, y, w, line, VIZ_ROLE_TEXT, 0);
}

/* Beside the picture in the first steps: which pixel goes to which bin (for
 * fast: a thread's 16 pixels and their bins). */
static void draw_flow(canvas *c, const hmodel *m, int fi, const geom *g, int y0, int rows)
{
    const lab_trace *t = m->t;
    int row = 0;
    char line[256];
    int off = 0;
    uint32_t cur = ~0u;
    for (size_t i = 0; i < t->count && row < rows; i++) {
        if (m->frame[i] != fi || m->cls[i] != E_PIXEL) continue;
        const lab_event *e = &t->ev[i];
        if (e->thread % (WARP / 4) != 0) continue; /* a few lanes of each warp */
        long long p = e->a;
        if (m->per_step == 1) {
            snprintf(line, sizeof line, _("thread %u: (%lld,%lld)=%d \u2192 bin %d"), e->thread,
                     p % m->w, p / m->w, m->bin[i], m->bin[i]);
            canvas_textn(c, g->side_x, y0 + row++, g->side_w, line, VIZ_ROLE_ARROW, 0);
            continue;
        }
        if (e->thread != cur) {
            if (off > 0) canvas_textn(c, g->side_x, y0 + row++, g->side_w, line, VIZ_ROLE_ARROW, 0);
            if (row >= rows) break;
            cur = e->thread;
            off = snprintf(line, sizeof line, _("thread %u: (%lld,%lld).. \u2192 bins"), e->thread,
                           p % m->w, p / m->w);
            if (off < 0 || off >= (int)sizeof line) off = (int)strlen(line);
        }
        if (off < (int)sizeof line - 8) off += snprintf(line + off, sizeof line - (size_t)off, " %d", m->bin[i]);
    }
    if (off > 0 && row < rows) canvas_textn(c, g->side_x, y0 + row, g->side_w, line, VIZ_ROLE_ARROW, 0);
}

static void draw_counts(canvas *c, const hmodel *m, viz_rect a, viz_frame_info *info)
{
    long long sum = 0;
    int nonzero = 0, wrong = 0;
    for (int b = 0; b < NB; b++) {
        sum += m->final[b];
        if (m->final[b]) nonzero++;
        if (m->have_exact && m->final[b] != m->exact[b]) wrong++;
    }
    int y = a.y;
    canvas_printf(c, a.x, y++, VIZ_ROLE_HEADING, VIZ_BOLD,
                  ngettext("%d non-zero bin of 256, sum %lld", "%d non-zero bins of 256, sum %lld",
                           (unsigned long)nonzero),
                  nonzero, sum);
    int cw = 10; /* "255:4096" and a gap */
    int per = a.w / cw;
    if (per < 1) per = 1;
    int rows_left = a.h - 2;
    int k = 0, shown = 0;
    for (int b = 0; b < NB; b++) {
        if (!m->final[b] && !(m->have_exact && m->exact[b])) continue;
        if (k / per >= rows_left) break;
        char cell[24];
        snprintf(cell, sizeof cell, "%d:%u", b, m->final[b]);
        int bad = m->have_exact && m->final[b] != m->exact[b];
        canvas_text(c, a.x + (k % per) * cw, y + k / per, cell, bad ? VIZ_ROLE_WRONG : VIZ_ROLE_VALUE,
                    0);
        k++;
        shown++;
    }
    int total = 0;
    for (int b = 0; b < NB; b++)
        if (m->final[b] || (m->have_exact && m->exact[b])) total++;
    int yl = y + lab_ceil_div(k, per);
    if (shown < total && yl < a.y + a.h)
        canvas_printf(c, a.x, yl, VIZ_ROLE_DIM, 0,
                      ngettext("\u2026 and %d more bin", "\u2026 and %d more bins", (unsigned long)(total - shown)),
                      total - shown);
    viz_info_title(info, _("counts"));
    if (!m->have_exact)
        viz_info_caption(info, _("The final histogram, exact: bin:count for every non-zero bin; "
                                 "its %lld counts should add up to the %lld pixels."), sum, m->n);
    else if (wrong == 0 && sum == m->n)
        viz_info_caption(info, _("The final histogram, exact: every bin equals a count of the "
                                 "input, and the bins add up to the %lld pixels."), m->n);
    else
        viz_info_caption(info,
                         ngettext("The final histogram is wrong: %d bin differs from a count of the "
                                  "input, and the bins add up to %lld of %lld pixels.",
                                  "The final histogram is wrong: %d bins differ from a count of the "
                                  "input, and the bins add up to %lld of %lld pixels.",
                                  (unsigned long)wrong),
                         wrong, sum, m->n);
    viz_info_counter(info, "pixels", m->n, NULL);
    viz_info_counter(info, "bins used", nonzero, NULL);
    viz_info_counter(info, "wrong bins", m->have_exact ? wrong : VIZ_COUNTER_NONE, NULL);
}

/* One sentence about the contention of a step. */
static void contention_sentence(const hmodel *m, const hstate *s, char *buf, size_t len)
{
    if (m->spread) {
        if (s->maxsame > 1)
            snprintf(buf, len,
                     _("Up to %d lanes of a warp have a pixel in bin %d, yet each adds into its "
                       "own column (lane L in bank L), so no two lanes touch one counter, whatever "
                       "the compiler makes of atomicAdd."),
                     s->maxsame, s->samebin);
        else
            snprintf(buf, len, "%s",
                     _("Each lane adds into its own column (lane L in bank L): no two "
                       "lanes of a warp can touch one counter."));
        return;
    }
    if (s->maxheat >= WARP)
        snprintf(buf, len,
                 m->priv ? _("All 32 lanes of warp %d hit bin %d. For sm_90 atomicAdd(&local[bin], 1u) on shared "
                             "memory compiles to a warp-aggregated increment (ATOMS.POPC.INC): the lanes on one "
                             "counter cost one operation, and on the H200 shared took 0.0345 ms on the flat image "
                             "against 0.0396 ms on the photo. A general same-address shared atomicAdd (ATOMS.ADD) "
                             "is served lane after lane, 30x slower there.")
                         : _("All 32 lanes of warp %d hit bin %d: 32 global atomics on one address, which the L2 "
                             "cache performs one at a time, and every warp of every block "
                             "queues on that same counter: on the H200 global took 24.3 ms on the flat "
                             "image against 4.6 ms on the photo."),
                 s->worst_warp, s->hotbin);
    else if (s->maxheat > 1)
        snprintf(buf, len,
                 m->priv ? _("Up to %d lanes of warp %d hit bin %d. A general shared-memory atomicAdd serves "
                             "them lane after lane; this increment by 1 compiles for sm_90 to ATOMS.POPC.INC, which "
                             "adds them in one operation.")
                         : _("Up to %d lanes of warp %d hit bin %d: their global atomics on that counter wait "
                             "for each other."),
                 s->maxheat, s->worst_warp, s->hotbin);
    else if (s->maxheat == 1)
        snprintf(buf, len, "%s",
                 _("Every lane of a warp hits a different bin: no two of its atomics update one counter."));
    else
        buf[0] = 0;
}

static int hist_frames(const lab_trace *t)
{
    hmodel m;
    if (hist_model_build(&m, t) != 0) return 1;
    int n = m.nfr;
    hist_model_free(&m);
    return n > 0 ? n : 1;
}

static void hist_draw(const lab_trace *t, int frame, canvas *c, viz_rect area, viz_frame_info *info)
{
    viz_rect old = canvas_set_clip(c, area);
    hmodel m;
    unsigned char *lit = NULL, *seen = NULL;
    if (hist_model_build(&m, t) != 0) {
        canvas_text(c, area.x, area.y, _("out of memory drawing the histogram"), VIZ_ROLE_WRONG, 0);
        canvas_set_clip(c, old);
        return;
    }
    if (frame < 0) frame = 0;
    if (frame >= m.nfr) frame = m.nfr - 1;
    const hframe *f = &m.fr[frame];
    if (f->kind == F_COUNTS) {
        draw_counts(c, &m, area, info);
        goto out;
    }
    lit = calloc((size_t)(m.n > 0 ? m.n : 1), 1);
    seen = calloc((size_t)(m.n > 0 ? m.n : 1), 1);
    if (!lit || !seen) goto out;
    geom g;
    layout(&m, area, &g);
    m.group = (NB + g.bars_w - 1) / (g.bars_w > 0 ? g.bars_w : 1);
    if (m.group < 1) m.group = 1;
    for (int col = 0; col * m.group < NB; col++) {
        unsigned v = 0;
        for (int b = col * m.group; b < (col + 1) * m.group && b < NB; b++) v += m.final[b];
        if (v > m.maxcol) m.maxcol = v;
    }
    hstate s;
    hist_state_at(&m, frame, &s, lit, seen);
    if (f->kind == F_IMAGE) memset(seen, 0, (size_t)m.n);

    /* the picture and the text beside it */
    if (g.img_h > 0) {
        draw_picture(c, &m, area, &g, lit, seen);
        int y = area.y;
        canvas_printf(c, g.side_x, y++, VIZ_ROLE_HEADING, VIZ_BOLD, _("image %dx%d"), m.w, m.h);
        if (f->kind == F_STEP) {
            canvas_printf(c, g.side_x, y++, VIZ_ROLE_TEXT, 0,
                          ngettext("block %d, step %d: %lld pixel", "block %d, step %d: %lld pixels",
                                   (unsigned long)s.pixels_now),
                          f->block, f->step + 1, s.pixels_now);
            int first_steps = frame <= 3;
            if (first_steps) draw_flow(c, &m, frame, &g, y, g.img_h - 2);
        } else if (f->kind == F_DONE) {
            canvas_printf(c, g.side_x, y++, VIZ_ROLE_TEXT, 0, _("block %d done"), f->block);
        }
    }
    int yb = g.bars_y + g.bars_h;
    draw_bars(c, &m, &s, f->kind == F_IMAGE ? 0 : f->block, &g);
    draw_axis(c, &m, &g, yb);
    int ys = yb + 1;
    draw_strip(c, &m, &s, &g, ys, m.spread ? s.same : s.heat);
    if (m.spread) draw_strip(c, &m, &s, &g, ys + 1, s.heat);
    int yl = ys + g.strips;
    char legend[256];
    int ncol = lab_ceil_div(NB, m.group);
    int lx = area.x + (ncol + 1 < area.w - 20 ? ncol + 1 : 0);
    if (lx > area.x) {
        /* labels to the right of the strips when there is room */
        canvas_textn(c, lx, ys, area.x + area.w - lx, m.spread ? _("lanes in one bin") : _("lanes on one counter"),
                     VIZ_ROLE_DIM, 0);
        if (m.spread) canvas_textn(c, lx, ys + 1, area.x + area.w - lx, _("lanes on one counter"), VIZ_ROLE_DIM, 0);
    }
    if (m.priv)
        snprintf(legend, sizeof legend,
                 ngettext("%d bin/column, full bar %u, \u2592 block's private counts (not merged)",
                          "%d bins/column, full bar %u, \u2592 block's private counts (not merged)",
                          (unsigned long)m.group),
                 m.group, m.maxcol);
    else
        snprintf(legend, sizeof legend,
                 ngettext("%d bin/column, full bar %u", "%d bins/column, full bar %u", (unsigned long)m.group),
                 m.group, m.maxcol);
    canvas_textn(c, area.x, yl, area.w, legend, VIZ_ROLE_DIM, 0);
    snprintf(legend, sizeof legend, "%s: \u00b71 :2 \u25913-4 \u25925-8 \u25939-16 \u258817-32",
             m.spread ? _("upper: lanes per bin, lower: per counter") : _("lanes per counter"));
    canvas_textn(c, area.x, yl + 1, area.w, legend, VIZ_ROLE_DIM, 0);
    draw_busiest(c, &s, area.x, yl + 2, area.w);

    /* title, caption, counters */
    char why[VIZ_CAPTION_MAX];
    contention_sentence(&m, &s, why, sizeof why);
    /* TRANSLATORS: where a thread adds its pixel: "... each add a pixel to the global histogram." */
    const char *kind = m.spread ? _("the thread's own column of the block's histogram")
                     : m.priv ? _("the block's private histogram in shared memory")
                              : _("the global histogram");
    switch (f->kind) {
    case F_IMAGE:
        viz_info_title(&*info, _("the image"));
        viz_info_caption(info,
                         ngettext("A %dx%d image of 8-bit pixels: every pixel adds 1 to the bin of its "
                                  "value, %d block of %d threads share the work.",
                                  "A %dx%d image of 8-bit pixels: every pixel adds 1 to the bin of its "
                                  "value, %d blocks of %d threads share the work.",
                                  (unsigned long)m.nblocks),
                         m.w, m.h, m.nblocks, m.bd);
        break;
    case F_STEP:
        viz_info_title(info, _("block %d, step %d"), f->block, f->step + 1);
        if (m.per_step > 1)
            viz_info_caption(info,
                             ngettext("%lld thread each load 16 pixels with one 16-byte load and add each to %s. %s",
                                      "%lld threads each load 16 pixels with one 16-byte load and add each to %s. %s",
                                      (unsigned long)((s.pixels_now + 15) / 16)),
                             (s.pixels_now + 15) / 16, kind, why);
        else
            viz_info_caption(info,
                             ngettext("%lld thread each add a pixel to %s. %s", "%lld threads each add a pixel to %s. %s",
                                      (unsigned long)s.pixels_now),
                             s.pixels_now, kind, why);
        break;
    case F_DONE:
        viz_info_title(info, _("block %d done"), f->block);
        if (m.priv)
            viz_info_caption(info,
                             _("Block %d merges: one atomicAdd per non-zero bin (%lld of 256) adds "
                               "its private counts to the global histogram."),
                             f->block, s.merged_bins);
        else
            viz_info_caption(info,
                             _("Block %d is done: its pixels went straight to the global histogram, "
                               "one global atomic each, so there is nothing to merge."), f->block);
        break;
    }
    viz_info_counter(info, "pixels counted", s.counted, NULL);
    viz_info_counter(info, "global atomics", s.gatomics, NULL);
    viz_info_counter(info, "lanes on one counter", f->kind == F_STEP ? s.maxheat : VIZ_COUNTER_NONE,
                     NULL);
    if (m.spread)
        viz_info_counter(info, "lanes in one bin", f->kind == F_STEP ? s.maxsame : VIZ_COUNTER_NONE,
                         NULL);
out:
    free(lit);
    free(seen);
    canvas_set_clip(c, old);
    hist_model_free(&m);
}

/* Rows for printing a frame as text at this width. */
static int hist_height(const lab_trace *t, int width)
{
    (void)t;
    (void)width;
    return 30;
}

const viz_renderer viz_render_histogram = {
    .algos = "histogram",
    .variants = NULL,
    .name = "histogram bins",
    .frames = hist_frames,
    .draw = hist_draw,
    .height = hist_height,
    .min_w = 40,
    .min_h = 14,
};
