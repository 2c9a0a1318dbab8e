/* render_blocksum.c - a sum per block in shared memory (distance/ls): the
 * block's shared array filling slot by slot, the barrier holding the block's
 * threads until every slot is written, then thread 0 adding the slots alone
 * and the host adding one partial sum per block.
 *
 * Frames of one trace:
 *   0                 before the launch: the data, an empty shared array
 *   per shown block   one frame per group of warps (they read their
 *                     elements, write their squares into part[], and wait at
 *                     the barrier), the barrier releasing the block, thread 0
 *                     adding the block's slots into its partial sum
 *   then              the blocks not shown one by one, all at once
 *   last              the host adding the partial sums
 *
 * What it reads: launch 0 of the trace; TRACE_READ(LAB_SP_GLOBAL, i) for the
 * elements a thread squared, TRACE_WRITE(LAB_SP_SHARED, tid, value) for its
 * slot, the barrier events (their line) and TRACE_MARK(DIST_MARK_PARTIAL,
 * block, sum, slots) for a block's partial sum. Every frame is rebuilt from
 * the trace alone. */
#include "viz/intl.h"
#include "viz/render.h"

#include <stdlib.h>
#include <string.h>

#include "kernels/vector/vector_trace.h"

#define WARP 32
#define MAX_DETAIL 4  /* blocks shown step by step */
#define MAX_GROUPS 4  /* warp frames per shown block */
#define GLYPH_WAIT 0x2016u /* ‖ a thread waiting at the barrier */
#define GLYPH_SUM 0x03a3u  /* Σ thread 0 adding the slots */

typedef struct bev {
    uint32_t block, thread;
    long long index;
} bev;

typedef struct bmodel {
    const lab_trace *t;
    long long n, grid, block, wpb;
    bev *rd;            /* launch 0's global reads, by (block, thread) */
    size_t nrd;
    double *slot;       /* the shown blocks' slots: slot[b * block + tid] */
    unsigned char *slot_set;
    double *partial;    /* per block, from the marks */
    unsigned char *partial_set;
    int line;           /* the barrier's source line (0: unknown) */
    int detail, groups; /* blocks shown step by step, warp frames per block */
    int frames;
} bmodel;

enum phase { PH_START, PH_FILL, PH_BARRIER, PH_SUM, PH_REST, PH_HOST };

typedef struct bframe {
    int phase;
    long long b;  /* the block in view (PH_FILL .. PH_SUM) */
    int g;        /* PH_FILL: warp groups done, 1..groups */
} bframe;

static int bev_cmp(const void *a, const void *b)
{
    const bev *x = a, *y = b;
    if (x->block != y->block) return x->block < y->block ? -1 : 1;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void model_free(bmodel *m)
{
    free(m->rd);
    free(m->slot);
    free(m->slot_set);
    free(m->partial);
    free(m->partial_set);
    memset(m, 0, sizeof *m);
}

static int model_build(bmodel *m, const lab_trace *t)
{
    memset(m, 0, sizeof *m);
    m->t = t;
    m->n = t->n > 0 ? t->n : 0;
    m->grid = m->block = 1;
    if (t->nlaunches > 0) {
        const lab_launch_info *l = &t->launches[0];
        m->grid = l->grid[0] ? l->grid[0] : 1;
        m->block = l->block[0] ? l->block[0] : 1;
    }
    m->wpb = lab_ceil_div(m->block, WARP);
    m->detail = m->grid < MAX_DETAIL ? (int)m->grid : MAX_DETAIL;
    m->groups = m->wpb < MAX_GROUPS ? (int)m->wpb : MAX_GROUPS;
    size_t nr = 0;
    for (size_t i = 0; i < t->count; i++) {
        const lab_event *e = &t->ev[i];
        nr += e->launch == 0 && e->kind == LAB_EV_READ && e->space == LAB_SP_GLOBAL && e->a >= 0 && e->a < m->n;
    }
    size_t slots = (size_t)(m->detail * m->block);
    m->rd = malloc(sizeof *m->rd * (nr ? nr : 1));
    m->slot = calloc(slots ? slots : 1, sizeof *m->slot);
    m->slot_set = calloc(slots ? slots : 1, 1);
    m->partial = calloc((size_t)m->grid, sizeof *m->partial);
    m->partial_set = calloc((size_t)m->grid, 1);
    if (!m->rd || !m->slot || !m->slot_set || !m->partial || !m->partial_set) return -1;
    for (size_t i = 0; i < t->count; i++) {
        const lab_event *e = &t->ev[i];
        if (e->launch != 0) continue;
        if (e->kind == LAB_EV_READ && e->space == LAB_SP_GLOBAL && e->a >= 0 && e->a < m->n) {
            /* two reads per element (a[i] and b[i]): the map needs one */
            if (m->nrd > 0 && m->rd[m->nrd - 1].block == e->block && m->rd[m->nrd - 1].thread == e->thread &&
                m->rd[m->nrd - 1].index == e->a)
                continue;
            m->rd[m->nrd++] = (bev){e->block, e->thread, e->a};
        } else if (e->kind == LAB_EV_WRITE && e->space == LAB_SP_SHARED && e->block < (uint32_t)m->detail &&
                   e->a >= 0 && e->a < m->block) {
            size_t k = (size_t)(e->block * m->block + e->a);
            m->slot[k] = e->v;
            m->slot_set[k] = 1;
        } else if (e->kind == LAB_EV_BARRIER && !m->line) {
            m->line = e->a;
        } else if (e->kind == LAB_EV_MARK && e->a == DIST_MARK_PARTIAL && e->b >= 0 && e->b < m->grid) {
            m->partial[e->b] = e->v;
            m->partial_set[e->b] = 1;
        }
    }
    qsort(m->rd, m->nrd, sizeof *m->rd, bev_cmp);
    m->frames = 1 + m->detail * (m->groups + 2) + (m->grid > m->detail) + 1;
    return 0;
}

static bframe frame_of(const bmodel *m, int f)
{
    bframe fr = {PH_START, 0, 0};
    if (f <= 0) return fr;
    int per = m->groups + 2;
    if (f <= m->detail * per) {
        fr.b = (f - 1) / per;
        int k = (f - 1) % per;
        if (k < m->groups) {
            fr.phase = PH_FILL;
            fr.g = k + 1;
        } else {
            fr.phase = k == m->groups ? PH_BARRIER : PH_SUM;
        }
        return fr;
    }
    fr.phase = f == m->frames - 1 ? PH_HOST : PH_REST;
    fr.b = m->grid - 1;
    return fr;
}

/* Warps of a block done after g of its groups. */
static long long warps_after(const bmodel *m, int g)
{
    if (g >= m->groups) return m->wpb;
    return lab_ceil_div(m->wpb * g, m->groups);
}

/* Has thread (b, tid) written its slot (arrived at the barrier) in frame fr? */
static int arrived(const bmodel *m, const bframe *fr, long long b, long long tid)
{
    if (fr->phase == PH_START) return 0;
    if (fr->phase >= PH_REST || b < fr->b) return 1;
    if (b > fr->b) return 0;
    if (fr->phase != PH_FILL) return 1;
    return tid / WARP < warps_after(m, fr->g);
}

/* ------------------------------------------------------------ geometry */

typedef struct geom {
    int label, cols, rows; /* the data map */
    long long k;           /* elements per map cell */
    int scols, srows;      /* the shared array and the threads: cells per row, rows */
    long long sk;          /* slots per cell */
    int cw;                /* columns of a slot's cell: 1 (a glyph) or a value's width + 1 */
} geom;

/* The widest value of the shown blocks' slots, at most 6 columns. */
static int slot_value_width(const bmodel *m)
{
    int w = 1;
    for (long long k = 0; k < (long long)m->detail * m->block; k++) {
        if (!m->slot_set[k]) continue;
        char b[32];
        viz_fmt_value(m->slot[k], m->t->dtype, 6, b, sizeof b);
        int l = viz_text_width(b);
        if (l > w) w = l;
    }
    return w;
}

static int digits(long long x)
{
    int d = 1;
    while (x >= 10) {
        x /= 10;
        d++;
    }
    return d;
}

/* cells per row for `count` things at most avail wide: whole warps when a
 * warp fits, so that warps start on the same column in every row */
static int row_cells(long long count, int avail)
{
    if (count <= avail) return (int)count;
    if (avail >= WARP) return WARP * (avail / WARP);
    int c = 1;
    while (c * 2 <= avail) c *= 2;
    return c;
}

static void layout(const bmodel *m, int w, int h, geom *g)
{
    memset(g, 0, sizeof *g);
    /* fixed rows: heading, blank, shared heading, threads heading, partial
     * sums, legend */
    const int fixed = 6;
    int avail = w - digits(m->block > m->n ? m->block : m->n) - 1;
    if (avail < 4) avail = 4;
    g->label = w - avail - 1;
    g->scols = row_cells(m->block, avail);
    long long srows = lab_ceil_div(m->block, g->scols);
    int left = (h > 0 ? h : 40) - fixed;
    /* the shared array and the threads take at most a third of the room each */
    int smax = left / 3 > 0 ? left / 3 : 1;
    if (srows > smax) srows = smax;
    g->srows = (int)srows;
    g->sk = lab_ceil_div(m->block, (long long)g->srows * g->scols);
    if (g->sk < 1) g->sk = 1;
    g->srows = (int)lab_ceil_div(m->block, g->sk * g->scols);
    int maxrows = left - 2 * g->srows;
    if (maxrows < 1) maxrows = 1;
    if (h <= 0 && maxrows > 16) maxrows = 16;
    long long elems = m->n > 0 ? m->n : 1;
    int cols = avail;
    if (m->block <= avail) cols = (int)(m->block * (avail / m->block));
    else cols = row_cells(m->block, avail);
    g->k = lab_ceil_div(elems, (long long)maxrows * cols);
    if (g->k < 1) g->k = 1;
    g->rows = (int)lab_ceil_div(elems, g->k * cols);
    g->cols = elems <= cols * g->k ? (int)lab_ceil_div(elems, g->k) : cols;
    /* with room to spare, every slot shows its value (and its thread below it) */
    g->cw = 1;
    int cw = slot_value_width(m) + 1, per = avail / cw;
    if (per >= 16) per -= per % 8;
    if (h > 0 && per >= 4) {
        int vrows = (int)lab_ceil_div(m->block, per);
        if (fixed + g->rows + 2 * vrows <= h) {
            g->cw = cw;
            g->scols = per;
            g->sk = 1;
            g->srows = vrows;
        }
    }
}

/* ------------------------------------------------------------ drawing */

/* The block whose thread read element x, and whether it has in frame fr. */
static void element_look(const bmodel *m, const bframe *fr, const long long *who, long long e0, long long e1,
                         uint32_t *cp, int *role)
{
    long long shown = -1;
    int fresh = 0;
    for (long long x = e0; x < e1; x++) {
        long long gid = who[x];
        if (gid < 0) continue;
        long long b = gid / m->block, tid = gid % m->block;
        if (!arrived(m, fr, b, tid)) continue;
        shown = b;
        /* the newest warps of the frame */
        if (fr->phase == PH_FILL && b == fr->b && tid / WARP >= warps_after(m, fr->g - 1)) fresh = 1;
    }
    if (shown < 0) {
        *cp = 0x00b7;
        *role = VIZ_ROLE_DIM;
        return;
    }
    *cp = viz_block_glyph(shown);
    *role = fresh ? VIZ_ROLE_ACTIVE : viz_block_role(shown);
}

static void draw_data(canvas *c, const bmodel *m, const bframe *fr, const geom *g, const long long *who,
                      viz_rect area, int y)
{
    int x0 = area.x + g->label + 1;
    for (int r = 0; r < g->rows; r++, y++) {
        long long first = (long long)r * g->cols * g->k;
        canvas_printf(c, area.x, y, VIZ_ROLE_DIM, 0, "%*lld", g->label, first);
        canvas_put(c, area.x + g->label, y, 0x2502, VIZ_ROLE_DIM, 0);
        for (int col = 0; col < g->cols; col++) {
            long long e0 = first + (long long)col * g->k;
            if (e0 >= m->n) break;
            long long e1 = e0 + g->k > m->n ? m->n : e0 + g->k;
            uint32_t cp;
            int role;
            element_look(m, fr, who, e0, e1, &cp, &role);
            canvas_put(c, x0 + col, y, cp, role, 0);
        }
    }
}

/* The block's slots (threads = 0) or its threads (threads = 1) as cells. */
static void draw_slots(canvas *c, const bmodel *m, const bframe *fr, const geom *g, long long b, int threads,
                       viz_rect area, int y)
{
    int x0 = area.x + g->label + 1;
    for (int r = 0; r < g->srows; r++, y++) {
        long long first = (long long)r * g->scols * g->sk;
        canvas_printf(c, area.x, y, VIZ_ROLE_DIM, 0, "%*lld", g->label, first);
        canvas_put(c, area.x + g->label, y, 0x2502, VIZ_ROLE_DIM, 0);
        for (int col = 0; col < g->scols; col++) {
            long long s0 = first + (long long)col * g->sk;
            if (s0 >= m->block) break;
            long long s1 = s0 + g->sk > m->block ? m->block : s0 + g->sk;
            int all = 1, fresh = 0;
            for (long long s = s0; s < s1; s++) {
                if (!arrived(m, fr, b, s)) all = 0;
                else if (fr->phase == PH_FILL && s / WARP >= warps_after(m, fr->g - 1)) fresh = 1;
            }
            uint32_t cp = 0x00b7;
            int role = VIZ_ROLE_DIM;
            int x = x0 + col * g->cw + g->cw - 2; /* a glyph under a value's last digit */
            if (g->cw == 1) x = x0 + col;
            if (threads) {
                if (fr->phase == PH_SUM || fr->phase >= PH_REST) {
                    cp = s0 == 0 && fr->phase == PH_SUM ? GLYPH_SUM : '-';
                    role = s0 == 0 && fr->phase == PH_SUM ? VIZ_ROLE_ACTIVE : VIZ_ROLE_DIM;
                } else if (all) {
                    cp = GLYPH_WAIT;
                    role = fr->phase == PH_BARRIER ? VIZ_ROLE_OK : VIZ_ROLE_IDLE;
                }
            } else if (all) {
                cp = viz_block_glyph(b);
                role = fr->phase == PH_SUM ? VIZ_ROLE_SOURCE : fresh ? VIZ_ROLE_ACTIVE : viz_block_role(b);
                size_t k = (size_t)(b * m->block + s0);
                if (g->cw > 1 && b < m->detail && m->slot_set[k]) {
                    char v[32];
                    viz_fmt_value(m->slot[k], m->t->dtype, g->cw - 1, v, sizeof v);
                    canvas_printf(c, x0 + col * g->cw, y, role, 0, "%*s", g->cw - 1, v);
                    continue;
                }
            }
            canvas_put(c, x, y, cp, role, 0);
        }
    }
}

static void draw_partials(canvas *c, const bmodel *m, const bframe *fr, viz_rect area, int y)
{
    int x = canvas_textn(c, area.x, y, area.w, _("partial sums:"), VIZ_ROLE_HEADING, 0);
    int xend = area.x + area.w;
    for (long long b = 0; b < m->grid; b++) {
        int done = fr->phase >= PH_REST || b < fr->b || (b == fr->b && fr->phase == PH_SUM);
        char v[32], cell[64];
        if (done && m->partial_set[b]) viz_fmt_value(m->partial[b], m->t->dtype, 7, v, sizeof v);
        else snprintf(v, sizeof v, "\u2013");
        snprintf(cell, sizeof cell, " b%lld %s", b, v);
        if (x + viz_text_width(cell) + 2 > xend && b + 1 < m->grid) {
            canvas_text(c, x, y, " \u2026", VIZ_ROLE_DIM, 0);
            return;
        }
        x = canvas_textn(c, x, y, xend - x, cell, done ? viz_block_role(b) : VIZ_ROLE_DIM, 0);
    }
}

static void draw_legend(canvas *c, viz_rect area, int y)
{
    int x = area.x, xend = area.x + area.w;
    struct {
        uint32_t glyph;
        const char *text;
        int role;
    } items[] = {
        {0x00b7, N_(" not yet"), VIZ_ROLE_DIM},
        {GLYPH_WAIT, N_(" waiting at the barrier"), VIZ_ROLE_IDLE},
        {GLYPH_SUM, N_(" adding the slots"), VIZ_ROLE_ACTIVE},
        {'-', N_(" finished"), VIZ_ROLE_DIM},
    };
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        const char *text = _(items[i].text);
        if (x + 1 + viz_text_width(text) > xend) break;
        canvas_put(c, x, y, items[i].glyph, items[i].role, 0);
        x = canvas_text(c, x + 1, y, text, VIZ_ROLE_DIM, 0);
        x += 2;
    }
}

/* ------------------------------------------------------------ captions */

/* What warps [w0, w1) of block b read: the elements (count, lowest,
 * highest), the threads that read any (how many, the highest of them) and
 * whether one of them read more than one (a grid-stride loop). */
typedef struct breads {
    long long cnt, lo, hi, threads, top;
    int several;
} breads;

static breads warp_reads(const bmodel *m, long long b, long long w0, long long w1)
{
    breads r = {0, -1, -1, 0, -1, 0};
    long long last = -1;
    for (size_t i = 0; i < m->nrd; i++) {
        const bev *e = &m->rd[i];
        if (e->block != b || e->thread / WARP < w0 || e->thread / WARP >= w1) continue;
        r.cnt++;
        if (r.lo < 0 || e->index < r.lo) r.lo = e->index;
        if (e->index > r.hi) r.hi = e->index;
        if ((long long)e->thread == last) r.several = 1;
        else r.threads++;
        last = e->thread;
        if ((long long)e->thread > r.top) r.top = e->thread;
    }
    return r;
}

static void describe(const bmodel *m, const bframe *fr, viz_frame_info *info)
{
    char line[48] = "";
    if (m->line > 0) snprintf(line, sizeof line, _(" (line %d)"), m->line);
    long long arrived_n = 0, slots = 0, partials = 0;
    for (long long s = 0; s < m->block; s++) arrived_n += arrived(m, fr, fr->b, s);
    slots = fr->phase == PH_START ? 0 : arrived_n;
    for (long long b = 0; b < m->grid; b++)
        partials += fr->phase >= PH_REST || b < fr->b || (b == fr->b && fr->phase == PH_SUM);
    switch (fr->phase) {
    case PH_START:
        viz_info_title(info, "%s", _("before the launch"));
        viz_info_caption(info,
                         _("grid %lld \u00d7 block %lld for n = %lld: each block gets a shared array part[] of "
                           "%lld slots, one per thread; each thread will square its differences into its slot."),
                         m->grid, m->block, m->n, m->block);
        break;
    case PH_FILL: {
        long long w0 = warps_after(m, fr->g - 1), w1 = warps_after(m, fr->g);
        breads r = warp_reads(m, fr->b, w0, w1);
        long long t0 = w0 * WARP, t1 = (w1 * WARP < m->block ? w1 * WARP : m->block) - 1;
        if (w1 - w0 == 1) viz_info_title(info, _("block %lld, warp %lld"), fr->b, w0);
        else viz_info_title(info, _("block %lld, warps %lld-%lld"), fr->b, w0, w1 - 1);
        /* the threads that read come first (a thread's first element is
         * blockIdx.x * blockDim.x + tid); those past n read nothing and
         * write 0, the sum of no squares */
        long long busy_to = r.threads > 0 && r.threads == r.top - t0 + 1 ? r.top : t0 - 1;
        char what[96], part1[320] = "", part2[256] = "", wait[256];
        if (r.cnt == r.hi - r.lo + 1) snprintf(what, sizeof what, _("elements %lld..%lld"), r.lo, r.hi);
        else snprintf(what, sizeof what, _("%lld elements between %lld and %lld"), r.cnt, r.lo, r.hi);
        if (r.threads > 0 && busy_to < t0) /* not a run of threads from t0: say how many */
            snprintf(part1, sizeof part1,
                     _("%lld of threads %lld..%lld read %s of a and b; each writes the sum of its squares into its "
                       "slot of part[%lld..%lld], 0 if it read nothing."),
                     r.threads, t0, t1, what, t0, t1);
        else if (r.threads > 0 && r.several)
            snprintf(part1, sizeof part1,
                     _("Threads %lld..%lld read %s of a and b, several each, and write the sums of their squares "
                       "into part[%lld..%lld]."),
                     t0, busy_to, what, t0, busy_to);
        else if (r.threads > 0)
            snprintf(part1, sizeof part1,
                     _("Threads %lld..%lld read %s of a and b and write their squares into part[%lld..%lld]."), t0,
                     busy_to, what, t0, busy_to);
        if (busy_to >= t0 - 1 && busy_to < t1 && (r.threads == 0 || busy_to >= t0)) {
            if (busy_to + 1 == t1)
                snprintf(part2, sizeof part2,
                         _("Thread %lld is past n = %lld: it reads nothing and writes 0 into part[%lld]."), t1, m->n,
                         t1);
            else
                snprintf(part2, sizeof part2,
                         _("Threads %lld..%lld are past n = %lld: they read nothing and write 0 into "
                           "part[%lld..%lld]."),
                         busy_to + 1, t1, m->n, busy_to + 1, t1);
        }
        if (arrived_n < m->block)
            snprintf(wait, sizeof wait,
                     _("Then threads %lld..%lld wait at __syncthreads()%s: %lld of the block's %lld threads have "
                       "arrived, the others have not written their slots yet."),
                     t0, t1, line, arrived_n, m->block);
        else
            snprintf(wait, sizeof wait,
                     _("Then threads %lld..%lld wait at __syncthreads()%s: all %lld threads of the block have "
                       "arrived."),
                     t0, t1, line, m->block);
        viz_info_caption(info, "%s%s%s%s%s", part1, part1[0] && part2[0] ? " " : "", part2,
                         part1[0] || part2[0] ? " " : "", wait);
        break;
    }
    case PH_BARRIER:
        viz_info_title(info, _("block %lld, the barrier"), fr->b);
        viz_info_caption(info,
                         _("Every thread of block %lld has written its slot and waits at __syncthreads()%s: the "
                           "barrier releases them together, and from here on every slot of part[] is written and "
                           "visible to the whole block. Without it thread 0 could read a slot not yet written."),
                         fr->b, line);
        break;
    case PH_SUM: {
        char v[32];
        viz_fmt_value(m->partial[fr->b], m->t->dtype, 9, v, sizeof v);
        viz_info_title(info, _("block %lld, thread 0 adds"), fr->b);
        viz_info_caption(info,
                         _("Thread 0 adds part[0] + part[1] + \u2026 + part[%lld] one after another, %lld additions "
                           "while the block's other threads have finished, and writes the block's partial sum "
                           "%s."),
                         m->block - 1, m->block - 1, m->partial_set[fr->b] ? v : "?");
        break;
    }
    case PH_REST:
        viz_info_title(info, _("blocks %lld-%lld"), (long long)m->detail, m->grid - 1);
        viz_info_caption(info,
                         _("Blocks %lld..%lld do the same, each with its own part[]: blocks share no shared memory, "
                           "and a barrier waits only for the threads of its own block."),
                         (long long)m->detail, m->grid - 1);
        break;
    default: {
        char v[32];
        viz_fmt_value(m->t->result, LAB_DOUBLE, 12, v, sizeof v);
        viz_info_title(info, "%s", _("the host adds"));
        viz_info_caption(info,
                         _("The host copies back %lld partial sums, one per block, instead of %lld squares, adds "
                           "them and takes the square root: the distance is %s."),
                         m->grid, m->n, v);
        break;
    }
    }
    viz_info_counter(info, "slots written", fr->phase >= PH_REST ? VIZ_COUNTER_NONE : slots, NULL);
    viz_info_counter(info, "at the barrier",
                     fr->phase == PH_FILL || fr->phase == PH_BARRIER ? arrived_n : VIZ_COUNTER_NONE, NULL);
    viz_info_counter(info, "partial sums", partials, NULL);
}

/* ------------------------------------------------------------ interface */

static int blocksum_frames(const lab_trace *t)
{
    bmodel m;
    int n = model_build(&m, t) == 0 ? m.frames : 1;
    model_free(&m);
    return n;
}

static void blocksum_draw(const lab_trace *t, int frame, canvas *c, viz_rect area, viz_frame_info *info)
{
    area = viz_rect_intersect(area, canvas_bounds(c));
    if (area.w <= 0 || area.h <= 0) return;
    viz_rect old = canvas_set_clip(c, area);
    bmodel m;
    long long *who = NULL;
    if (model_build(&m, t) != 0 || !(who = malloc(sizeof *who * (size_t)(m.n > 0 ? m.n : 1)))) {
        canvas_text(c, area.x, area.y, _("out of memory while reading the trace"), VIZ_ROLE_WRONG, 0);
        goto out;
    }
    if (frame < 0) frame = 0;
    if (frame >= m.frames) frame = m.frames - 1;
    bframe fr = frame_of(&m, frame);
    describe(&m, &fr, info);
    for (long long x = 0; x < m.n; x++) who[x] = -1;
    for (size_t i = 0; i < m.nrd; i++)
        if (who[m.rd[i].index] < 0) who[m.rd[i].index] = (long long)m.rd[i].block * m.block + m.rd[i].thread;
    geom g;
    layout(&m, area.w, area.h, &g);
    char head[192];
    int y = area.y;
    if (g.k > 1)
        snprintf(head, sizeof head, _("a, b: n = %lld \u00b7 grid %lld \u00d7 block %lld \u00b7 cell = %lld elements"),
                 m.n, m.grid, m.block, g.k);
    else
        snprintf(head, sizeof head, _("a, b: n = %lld \u00b7 grid %lld \u00d7 block %lld"), m.n, m.grid, m.block);
    canvas_textn(c, area.x, y++, area.w, head, VIZ_ROLE_HEADING, 0);
    draw_data(c, &m, &fr, &g, who, area, y);
    y += g.rows + 1;
    long long b = fr.phase >= PH_REST ? m.grid - 1 : fr.b;
    if (g.sk > 1)
        snprintf(head, sizeof head, _("__shared__ part[%lld] of block %lld \u00b7 cell = %lld slots"), m.block, b, g.sk);
    else
        snprintf(head, sizeof head, _("__shared__ part[%lld] of block %lld"), m.block, b);
    canvas_textn(c, area.x, y++, area.w, head, VIZ_ROLE_HEADING, 0);
    draw_slots(c, &m, &fr, &g, b, 0, area, y);
    y += g.srows;
    if (m.line > 0)
        snprintf(head, sizeof head, _("threads of block %lld at __syncthreads() (line %d)"), b, m.line);
    else
        snprintf(head, sizeof head, _("threads of block %lld at __syncthreads()"), b);
    canvas_textn(c, area.x, y++, area.w, head, VIZ_ROLE_HEADING, 0);
    draw_slots(c, &m, &fr, &g, b, 1, area, y);
    y += g.srows;
    draw_partials(c, &m, &fr, area, y++);
    if (y > area.y + area.h - 1) y = area.y + area.h - 1;
    draw_legend(c, area, y);
out:
    free(who);
    model_free(&m);
    canvas_set_clip(c, old);
}

static int blocksum_height(const lab_trace *t, int width)
{
    bmodel m;
    if (model_build(&m, t) != 0) return 24;
    geom g;
    layout(&m, width, 0, &g);
    int h = 6 + g.rows + 2 * g.srows;
    model_free(&m);
    return h;
}

const viz_renderer viz_render_blocksum = {
    .algos = "distance",
    .variants = "ls",
    .name = "sum per block in shared memory",
    .frames = blocksum_frames,
    .draw = blocksum_draw,
    .height = blocksum_height,
    .min_w = 40,
    .min_h = 10,
};
