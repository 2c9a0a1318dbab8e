/* render_image.c - the image view: a 2D result as a picture, and the work
 * each block did as a heat map beside it.
 *
 * The picture of the Mandelbrot lesson (and of any result with a width and a
 * height, such as a matrix product). Every element is a pixel; a character
 * cell holds two of them, one above the other, as a terminal cell is about
 * twice as tall as it is wide: viz_put_halves() draws ▀ in the top pixel's
 * colour on the bottom pixel's, so the picture has twice the screen's rows
 * in colour. Pixels inside the Mandelbrot set (all 1000 iterations) are
 * solid; outside it a pixel's heat colour grows with the iterations (a log
 * scale: most pixels escape within a few), and those that escape at once
 * are left blank. Without colour the backends show each cell's stand-in
 * (viz_cell_mono): a half block where one pixel is inside the set and the
 * other is not, else a shade of the two pixels' mean level.
 *
 * Beside it, the grid of blocks as a heat map of the iterations each block
 * ran, drawn the same way: a block is two columns by one row while the grid
 * fits, else one column by half a row (two block rows per text row): blocks
 * wholly inside the set work longest (every pixel runs to the iteration
 * limit). The last frame of a
 * Mandelbrot trace shows how much of each block's warp time did useful work:
 * a warp runs as long as its slowest pixel (up to the iteration limit for
 * pixels in the set), and its other lanes wait.
 *
 * Frames of one trace:
 *   0 .. S-1   the blocks computing their pixels, in block order (the
 *              simulator runs them one after another; a GPU, many at once)
 *   S          the whole picture and the work per block
 *   S+1        (Mandelbrot) the share of busy lanes per block
 *
 * What it reads: every TRACE_WRITE(LAB_SP_GLOBAL, y * width + x, value) of
 * the trace (the last one of a pixel wins), lab_trace.width and height (0:
 * one row of n), launch 0's grid and block, and each event's block and
 * thread. Every frame is rebuilt from the trace alone.
 *
 * For a picture larger than a trace can hold, record the trace at the size
 * of the screen: `set width 160`, `set height 90` (two pixels per cell) and
 * `animate` draws the same window of the plane at that resolution.
 */
#include "viz/intl.h"
#include "viz/render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WARP 32
#define MAX_STEPS 8          /* fill frames at most */
#define MAX_TEXT_ROWS 40     /* picture rows when printed as text */
#define MANDEL_ITER 1000     /* the Mandelbrot family's most iterations */

/* What one pixel is. */
enum { P_EMPTY = -2, P_INSIDE = -1 }; /* else a level 0 .. VIZ_NHEAT_ROLES-1 */

typedef struct imodel {
    const lab_trace *t;
    int mandel;                  /* values are iteration counts */
    long long w, h, n;           /* the picture */
    double *val;                 /* per pixel: the value written */
    int32_t *blk;                /* per pixel: the block that wrote it, -1 none */
    double vmin, vmax;           /* over written pixels (outside the set) */
    long long gx, gy, nblocks;   /* launch 0's grid */
    long long bthreads;          /* threads per block */
    double *work;                /* per block: sum of the values written (Mandelbrot:
                                    its iterations), else their mean */
    double *busy;                /* per block: useful lane steps */
    double *spent;               /* per block: lane steps its warps took */
    long long written;
    int steps;                   /* fill frames */
} imodel;

static void model_free(imodel *m)
{
    free(m->val);
    free(m->blk);
    free(m->work);
    free(m->busy);
    free(m->spent);
    memset(m, 0, sizeof *m);
}

/* Per-warp bookkeeping while the events are read (they come sorted by
 * launch, block and thread). */
typedef struct wacc {
    long long block, warp;
    double sum, max;
    int lanes;
} wacc;

static void warp_close(imodel *m, wacc *a)
{
    if (a->block < 0 || a->block >= m->nblocks) return;
    /* the warp's lanes, idle or not, run as long as its slowest one */
    long long lanes = m->bthreads - a->warp * WARP;
    if (lanes > WARP) lanes = WARP;
    if (lanes < 1) lanes = 1;
    m->busy[a->block] += a->sum;
    m->spent[a->block] += a->max * (double)lanes;
}

static int model_build(imodel *m, const lab_trace *t)
{
    memset(m, 0, sizeof *m);
    m->t = t;
    m->mandel = strcmp(t->algo, "mandelbrot") == 0;
    m->w = t->width > 0 ? t->width : (t->n > 0 ? t->n : 1);
    m->h = t->width > 0 && t->height > 0 ? t->height : 1;
    m->n = m->w * m->h;
    m->gx = m->gy = 1;
    m->bthreads = 1;
    if (t->nlaunches > 0) {
        const lab_launch_info *l = &t->launches[0];
        m->gx = l->grid[0] ? l->grid[0] : 1;
        m->gy = (long long)(l->grid[1] ? l->grid[1] : 1) * (l->grid[2] ? l->grid[2] : 1);
        m->bthreads = (long long)(l->block[0] ? l->block[0] : 1) * (l->block[1] ? l->block[1] : 1) *
                      (l->block[2] ? l->block[2] : 1);
    }
    m->nblocks = m->gx * m->gy;
    m->val = malloc(sizeof *m->val * (size_t)m->n);
    m->blk = malloc(sizeof *m->blk * (size_t)m->n);
    m->work = calloc((size_t)m->nblocks, sizeof *m->work);
    m->busy = calloc((size_t)m->nblocks, sizeof *m->busy);
    m->spent = calloc((size_t)m->nblocks, sizeof *m->spent);
    if (!m->val || !m->blk || !m->work || !m->busy || !m->spent) {
        model_free(m);
        return -1;
    }
    for (long long i = 0; i < m->n; i++) m->blk[i] = -1;
    wacc a = {-1, -1, 0, 0, 0};
    for (size_t i = 0; i < t->count; i++) {
        const lab_event *e = &t->ev[i];
        if (e->kind != LAB_EV_WRITE || e->space != LAB_SP_GLOBAL) continue;
        if (e->a < 0 || e->a >= m->n) continue;
        if (m->blk[e->a] < 0) m->written++;
        m->val[e->a] = e->v;
        m->blk[e->a] = (int32_t)e->block;
        if (e->launch != 0 || e->block >= m->nblocks) continue;
        m->work[e->block] += e->v;
        long long warp = e->thread / WARP;
        if ((long long)e->block != a.block || warp != a.warp) {
            warp_close(m, &a);
            a.block = e->block;
            a.warp = warp;
            a.sum = a.max = 0;
            a.lanes = 0;
        }
        a.sum += e->v;
        if (e->v > a.max) a.max = e->v;
        a.lanes++;
    }
    warp_close(m, &a);
    if (!m->mandel) {
        /* other results: the mean value per block, as blocks at the edge
         * of the data hold fewer elements */
        long long *cnt = calloc((size_t)m->nblocks, sizeof *cnt);
        if (!cnt) {
            model_free(m);
            return -1;
        }
        for (long long i = 0; i < m->n; i++)
            if (m->blk[i] >= 0 && m->blk[i] < m->nblocks) cnt[m->blk[i]]++;
        for (long long b = 0; b < m->nblocks; b++)
            if (cnt[b]) m->work[b] /= (double)cnt[b];
        free(cnt);
    }
    int first = 1;
    for (long long i = 0; i < m->n; i++) {
        if (m->blk[i] < 0 || (m->mandel && m->val[i] >= MANDEL_ITER)) continue;
        if (first || m->val[i] < m->vmin) m->vmin = m->val[i];
        if (first || m->val[i] > m->vmax) m->vmax = m->val[i];
        first = 0;
    }
    m->steps = m->nblocks < MAX_STEPS ? (int)m->nblocks : MAX_STEPS;
    if (m->steps < 1) m->steps = 1;
    return 0;
}

/* Blocks done after fill frame f (0-based): the last fill frame has all. */
static long long blocks_after(const imodel *m, int f)
{
    if (f >= m->steps - 1) return m->nblocks;
    return lab_ceil_div(m->nblocks * (f + 1), m->steps);
}

/* The level of a value outside the set: a log scale of iterations for the
 * Mandelbrot set, a linear one between the smallest and largest otherwise. */
static int level_of(const imodel *m, double v)
{
    double x;
    if (m->mandel) {
        x = v <= 1 ? 0 : log(v) / log((double)MANDEL_ITER);
    } else {
        x = m->vmax > m->vmin ? (v - m->vmin) / (m->vmax - m->vmin) : 0.5;
    }
    int l = (int)(x * VIZ_NHEAT_ROLES);
    if (l < 0) l = 0;
    if (l >= VIZ_NHEAT_ROLES) l = VIZ_NHEAT_ROLES - 1;
    return l;
}

/* The role of one pixel (a half cell): the heat of its level; blank for the
 * lowest level and for pixels not computed; solid inside the set. */
static int pixel_role(int half)
{
    if (half == P_INSIDE) return VIZ_ROLE_VALUE;
    if (half == P_EMPTY || half <= 0) return VIZ_BG_NONE;
    return viz_heat_role(half);
}

/* A half cell: k x k pixels from (x0, y0), of blocks below `done`. Inside
 * when most of its computed pixels are; else the level of their mean. */
static int half_of(const imodel *m, long long x0, long long y0, long long k, long long done)
{
    long long in = 0, out = 0;
    double sum = 0;
    for (long long y = y0; y < y0 + k && y < m->h; y++)
        for (long long x = x0; x < x0 + k && x < m->w; x++) {
            long long i = y * m->w + x;
            if (m->blk[i] < 0 || m->blk[i] >= done) continue;
            if (m->mandel && m->val[i] >= MANDEL_ITER) in++;
            else {
                out++;
                sum += m->val[i];
            }
        }
    if (in + out == 0) return P_EMPTY;
    if (in >= out) return P_INSIDE;
    return level_of(m, sum / (double)out);
}

typedef struct geom {
    long long k;        /* pixels per half cell, each way */
    int pw, ph;         /* picture cells */
    int px, py;         /* picture origin */
    long long hk;       /* blocks per heat pixel, each way */
    int hz;             /* heat pixels per block each way: 2 (2 columns x 1 row) or 1 */
    int hw, hh;         /* heat map cells; a cell holds two heat pixels, one above the other */
    int hx, hy;         /* heat map origin */
    int beside;         /* heat map to the right of the picture */
    int legend_y;       /* the legend line */
    int rows;           /* rows used */
} geom;

/* Lay out the picture and the heat map in w x h cells (h <= 0: as tall as
 * needed, for text). The header is row 0. */
static void layout(const imodel *m, int x, int y, int w, int h, geom *g)
{
    memset(g, 0, sizeof *g);
    /* heat map: at most a third of the width beside; a heat pixel is one
     * column by half a row, a block 2 x 2 of them while they fit, else one,
     * else one for hk x hk blocks */
    int limit = w >= 60 ? w / 3 : w;
    int hz = m->gx * 2 <= limit ? 2 : 1;
    long long hk = 1;
    while (lab_ceil_div(m->gx, hk) * hz > limit && hk < m->nblocks) hk++;
    int hw = (int)(lab_ceil_div(m->gx, hk)) * hz;
    int hh = (int)((lab_ceil_div(m->gy, hk) * hz + 1) / 2);
    int beside = w >= 60 && hw + 3 <= w / 3 + 3;
    int maxw = beside ? w - hw - 3 : w;
    /* rows besides the picture: header, gap, legend, scale line; stacked,
     * also a gap, the heat map's title, the heat map and a gap */
    int avail = h > 0 ? (beside ? h - 4 : h - hh - 6) : MAX_TEXT_ROWS;
    if (avail < 1) avail = 1;
    if (maxw < 1) maxw = 1;
    long long k = 1;
    while ((lab_ceil_div(m->w, k) > maxw || lab_ceil_div(m->h, 2 * k) > avail) && k < m->w + m->h) k++;
    g->k = k;
    g->pw = (int)(lab_ceil_div(m->w, k));
    g->ph = (int)(lab_ceil_div(m->h, 2 * k));
    g->px = x;
    g->py = y + 1;
    g->hk = hk;
    g->hz = hz;
    g->hw = hw;
    g->hh = hh;
    g->beside = beside;
    if (beside) {
        g->hx = x + g->pw + 3;
        g->hy = y + 2;
        int bottom = g->ph > hh + 1 ? g->ph : hh + 1;
        g->legend_y = y + 1 + bottom + 1;
    } else {
        g->hx = x;
        g->hy = y + 1 + g->ph + 2;
        g->legend_y = g->hy + hh + 1;
    }
    g->rows = g->legend_y - y + 2;
}

static void draw_picture(canvas *c, const imodel *m, const geom *g, long long done)
{
    const long long k = g->k;
    for (int cy = 0; cy < g->ph; cy++)
        for (int cx = 0; cx < g->pw; cx++) {
            long long x0 = cx * k, y0 = (long long)cy * 2 * k;
            int top = half_of(m, x0, y0, k, done);
            int bot = y0 + k < m->h ? half_of(m, x0, y0 + k, k, done) : P_EMPTY;
            if (top == P_EMPTY && bot == P_EMPTY)
                canvas_put(c, g->px + cx, g->py + cy, 0x00b7, VIZ_ROLE_DIM, 0); /* not computed yet */
            else
                viz_put_halves(c, g->px + cx, g->py + cy, pixel_role(top), pixel_role(bot));
        }
}

/* One heat pixel: the largest per[b] of its blocks below `done` as a level
 * (at least 1, so a computed block never looks blank); -1 when none of its
 * blocks is computed yet. *marked is set when it holds block `mark`. */
static int heat_pixel(const imodel *m, const geom *g, const double *per, double top, long long done,
                      long long mark, int px, int py, int *marked)
{
    long long bx0 = px / g->hz * g->hk, by0 = py / g->hz * g->hk;
    double v = 0;
    int any = 0;
    for (long long by = by0; by < by0 + g->hk && by < m->gy; by++)
        for (long long bx = bx0; bx < bx0 + g->hk && bx < m->gx; bx++) {
            long long b = by * m->gx + bx;
            if (b >= done) continue;
            any = 1;
            if (per[b] > v) v = per[b];
            if (b == mark) *marked = 1;
        }
    if (!any) return -1;
    int l = top > 0 ? (int)(v / top * VIZ_NHEAT_ROLES) : 0;
    if (l >= VIZ_NHEAT_ROLES) l = VIZ_NHEAT_ROLES - 1;
    return l < 1 ? 1 : l;
}

/* The block heat map: per[b] for b < done, scaled to its largest value;
 * two heat pixels a cell, one above the other. The busiest block is marked
 * with ◆ in the cell of its top-left pixel. */
static void draw_heat(canvas *c, const imodel *m, const geom *g, const double *per, long long done,
                      long long mark)
{
    double top = 0;
    for (long long b = 0; b < m->nblocks; b++)
        if (per[b] > top) top = per[b];
    int rows = (int)(lab_ceil_div(m->gy, g->hk)) * g->hz; /* heat pixel rows */
    for (int cy = 0; cy < g->hh; cy++)
        for (int cx = 0; cx < g->hw; cx++) {
            int mt = 0, mb = 0;
            int lt = heat_pixel(m, g, per, top, done, mark, cx, 2 * cy, &mt);
            int lb = 2 * cy + 1 < rows ? heat_pixel(m, g, per, top, done, mark, cx, 2 * cy + 1, &mb) : -1;
            int x = g->hx + cx, y = g->hy + cy;
            int corner = cx % g->hz == 0;
            if (corner && (mt || mb)) {
                canvas_put(c, x, y, 0x25c6 /* ◆ */, VIZ_ROLE_HIGHLIGHT, VIZ_BOLD);
            } else if (lt < 0 && lb < 0) {
                canvas_put(c, x, y, corner ? 0x00b7 : ' ', VIZ_ROLE_DIM, 0); /* not computed yet */
            } else {
                viz_put_halves(c, x, y, lt < 0 ? VIZ_BG_NONE : viz_heat_role(lt),
                               lb < 0 ? VIZ_BG_NONE : viz_heat_role(lb));
            }
        }
}

/* ------------------------------------------------------------ words */

static long long busiest(const imodel *m, const double *per)
{
    long long best = -1;
    for (long long b = 0; b < m->nblocks; b++)
        if (best < 0 || per[b] > per[best]) best = b;
    return best;
}

static double busy_share(const imodel *m, long long b)
{
    return m->spent[b] > 0 ? m->busy[b] / m->spent[b] : 1.0;
}

static void describe(const imodel *m, int frame, long long done, viz_frame_info *info)
{
    const lab_launch_info *l = m->t->nlaunches > 0 ? &m->t->launches[0] : NULL;
    char launch[256] = "";
    if (l)
        snprintf(launch, sizeof launch, _("grid %ux%u of %ux%u-thread blocks"), l->grid[0], l->grid[1],
                 l->block[0], l->block[1]);
    double total = 0, useful = 0, spent = 0;
    for (long long b = 0; b < m->nblocks; b++) {
        total += m->work[b];
        useful += m->busy[b];
        spent += m->spent[b];
    }
    /* TRANSLATORS: "Each block's iterations, as heat." */
    const char *unit = m->mandel ? _("iterations") : _("mean value");
    if (frame < m->steps) {
        long long b0 = frame == 0 ? 0 : blocks_after(m, frame - 1), b1 = done;
        if (b1 - b0 <= 1) viz_info_title(info, _("block %lld"), b0);
        else viz_info_title(info, _("blocks %lld-%lld"), b0, b1 - 1);
        if (m->mandel)
            viz_info_caption(info, _("Blocks %lld to %lld of the %s compute their pixels, one thread "
                               "each: a pixel inside the set (solid) runs all %d iterations, one far "
                               "outside (blank) escapes after a few."),
                             b0, b1 - 1, launch, MANDEL_ITER);
        else
            viz_info_caption(info, _("Blocks %lld to %lld of the %s write their elements, one thread "
                               "each; the shade is the value."),
                             b0, b1 - 1, launch);
    } else if (frame == m->steps) {
        long long b = busiest(m, m->work);
        double avg = m->nblocks > 0 ? total / (double)m->nblocks : 0;
        viz_info_title(info, "%s", m->mandel ? _("work per block") : _("values per block"));
        if (b < 0 || avg <= 0)
            viz_info_caption(info, _("Each block's %s, as heat."), unit);
        else if (m->mandel)
            viz_info_caption(info, _("Each block's iterations, as heat: block (%lld, %lld) (marked) ran "
                               "%.0f, %.1f times the average block; blocks wholly inside the set do the "
                               "most work, and the kernel ends when its slowest block does."),
                             b % m->gx, b / m->gx, m->work[b], m->work[b] / avg);
        else
            viz_info_caption(info, _("The mean of the values each block wrote, as heat: block (%lld, %lld) "
                               "(marked) has the largest, %.1f times the average. Here every thread did "
                               "the same amount of work, unlike the Mandelbrot set's."),
                             b % m->gx, b / m->gx, m->work[b] / avg);
    } else {
        long long worst = -1;
        for (long long b = 0; b < m->nblocks; b++)
            if (m->spent[b] > 0 && (worst < 0 || busy_share(m, b) < busy_share(m, worst))) worst = b;
        viz_info_title(info, _("busy lanes per block"));
        if (worst >= 0)
            viz_info_caption(info, _("A warp runs as long as its slowest pixel; its other lanes "
                               "wait (divergence). Over the grid %.0f%% of the lanes' steps did work; "
                               "in block (%lld, %lld) (marked) only %.0f%%."),
                             spent > 0 ? 100.0 * useful / spent : 100.0, worst % m->gx, worst / m->gx,
                             100.0 * busy_share(m, worst));
        else
            viz_info_caption(info, "%s", _("A warp runs as long as its slowest pixel; its other lanes wait."));
    }
    viz_info_counter(info, m->mandel ? N_("pixels") : N_("elements"), m->n, NULL);
    long long shown = 0;
    for (long long i = 0; i < m->n; i++)
        if (m->blk[i] >= 0 && m->blk[i] < done) shown++;
    viz_info_counter(info, "computed", shown, NULL);
    viz_info_counter(info, "blocks", done, NULL);
    if (m->mandel) {
        double sofar = 0;
        for (long long b = 0; b < done && b < m->nblocks; b++) sofar += m->work[b];
        viz_info_counter(info, "iterations", (long long)sofar, NULL);
        viz_info_counter(info, "busy lanes", frame > m->steps && spent > 0
                                                 ? (long long)(100.0 * useful / spent + 0.5)
                                                 : VIZ_COUNTER_NONE, "%");
    }
}

/* ------------------------------------------------------------ interface */

static int nframes_of(const imodel *m)
{
    return m->steps + 1 + (m->mandel ? 1 : 0);
}

static int image_frames(const lab_trace *t)
{
    imodel m;
    if (model_build(&m, t) != 0) return 1;
    int n = nframes_of(&m);
    model_free(&m);
    return n;
}

static void image_draw(const lab_trace *t, int frame, canvas *c, viz_rect area, viz_frame_info *info)
{
    area = viz_rect_intersect(area, canvas_bounds(c));
    if (area.w <= 0 || area.h <= 0) return;
    viz_rect old = canvas_set_clip(c, area);
    imodel m;
    if (model_build(&m, t) != 0) {
        canvas_text(c, area.x, area.y, _("out of memory while reading the trace"), VIZ_ROLE_WRONG, 0);
        canvas_set_clip(c, old);
        return;
    }
    int last = nframes_of(&m) - 1;
    if (frame < 0) frame = 0;
    if (frame > last) frame = last;
    long long done = frame < m.steps ? blocks_after(&m, frame) : m.nblocks;
    describe(&m, frame, done, info);

    geom g;
    layout(&m, area.x, area.y, area.w, area.h, &g);
    char head[160];
    if (g.k > 1)
        snprintf(head, sizeof head,
                 m.mandel ? _("%lld x %lld pixels \u00b7 a cell = %lld x %lld of them")
                          : _("%lld x %lld elements \u00b7 a cell = %lld x %lld of them"),
                 m.w, m.h, g.k, 2 * g.k);
    else
        snprintf(head, sizeof head,
                 m.mandel ? _("%lld x %lld pixels \u00b7 a cell = 1 x 2 of them")
                          : _("%lld x %lld elements \u00b7 a cell = 1 x 2 of them"),
                 m.w, m.h);
    canvas_textn(c, area.x, area.y, area.w, head, VIZ_ROLE_HEADING, 0);
    draw_picture(c, &m, &g, done);

    const int lanes = frame > m.steps;
    double *per = m.work;
    double *share = NULL;
    long long mark = -1;
    if (lanes) {
        /* idle share per block: the heat is the waiting, not the work */
        share = calloc((size_t)m.nblocks, sizeof *share);
        if (share) {
            for (long long b = 0; b < m.nblocks; b++) share[b] = 1.0 - busy_share(&m, b);
            per = share;
        }
    }
    if (frame >= m.steps) mark = busiest(&m, per);
    const char *title = lanes ? _("idle lanes") : m.mandel ? _("work per block") : _("mean per block");
    int ty = g.hy - 1;
    canvas_textn(c, g.hx, ty, area.x + area.w - g.hx, title, VIZ_ROLE_HEADING, 0);
    draw_heat(c, &m, &g, per, done, mark);

    /* legend */
    int x = area.x;
    if (m.mandel) {
        x = canvas_text(c, x, g.legend_y, "\u2588", VIZ_ROLE_VALUE, 0);
        x = canvas_text(c, x, g.legend_y, _(" inside the set  "), VIZ_ROLE_DIM, 0);
    }
    for (int l = 1; l < VIZ_NHEAT_ROLES; l++) {
        int r = viz_heat_role(l);
        viz_put_halves(c, x++, g.legend_y, r, r);
    }
    char range[512];
    if (m.mandel)
        snprintf(range, sizeof range, _(" 1 .. %d iterations (log scale)"), MANDEL_ITER - 1);
    else
        snprintf(range, sizeof range, " %.4g .. %.4g", m.vmin, m.vmax);
    canvas_textn(c, x, g.legend_y, area.x + area.w - x, range, VIZ_ROLE_DIM, 0);
    if (g.k > 1 || g.hk > 1) {
        char scale[512];
        if (g.hk > 1)
            snprintf(scale, sizeof scale, _("heat: a half cell = %lld x %lld blocks, the busiest of them"),
                     g.hk, g.hk);
        else
            snprintf(scale, sizeof scale,
                     m.mandel ? _("half cells of %lld x %lld pixels: solid when most are inside")
                              : _("half cells of %lld x %lld elements: their mean"),
                     g.k, g.k);
        canvas_textn(c, area.x, g.legend_y + 1, area.w, scale, VIZ_ROLE_DIM, 0);
    }
    free(share);
    model_free(&m);
    canvas_set_clip(c, old);
}

static int image_height(const lab_trace *t, int width)
{
    imodel m;
    if (model_build(&m, t) != 0) return 24;
    geom g;
    layout(&m, 0, 0, width, 0, &g);
    model_free(&m);
    return g.rows;
}

const viz_renderer viz_render_image = {
    .algos = "mandelbrot matmul",
    .variants = NULL,
    .name = "image and work per block",
    .frames = image_frames,
    .draw = image_draw,
    .height = image_height,
    .min_w = 30,
    .min_h = 8,
};
