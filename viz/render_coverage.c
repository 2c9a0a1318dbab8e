/* render_coverage.c - the coverage map: which block and thread touched each
 * element of the data.
 *
 * The picture of the first lessons: how threads are mapped to data. Every
 * element is one cell (or, for large data, a cell stands for k elements),
 * painted in the colour and glyph of the block whose thread wrote it. Elements
 * written by two different threads show the count ("2") and elements nobody
 * wrote show "?" once the launch is over; writes past the end of the array
 * (the guard zone behind vecdiff's wrong steps) get their own rows below the
 * map. The caption names the grid and the block, so `set grid` and `set block`
 * followed by `animate` show their effect at once.
 *
 * Frames of one trace:
 *   0            the empty map, and the launch about to cover it
 *   1..S         warps filling it, in the simulator's order (block by block)
 *   S+1          the whole map, with what went wrong
 *   S+2          the same map showing threadIdx.x % 10 instead of the block
 *
 * What it reads (docs/coverage.md is the contract): launch 0 of the trace;
 * an element is covered by a thread that recorded TRACE_WRITE(LAB_SP_GLOBAL,
 * index, value) for it, or, in a launch that writes no global element (a
 * reduction that only reads its data), TRACE_READ(LAB_SP_GLOBAL, index,
 * value). Indices at or past the element count are writes past the end; when
 * lab_trace.width and height are set the data is a width x height matrix
 * indexed row * width + col. Every frame is rebuilt from the trace alone.
 */
#include "viz/intl.h"
#include "viz/render.h"

#include <stdlib.h>
#include <string.h>

#define WARP 32
#define MAX_STEPS 24      /* fill frames at most */
#define MAX_TEXT_ROWS 40  /* map rows when printed as text */
#define GUARD_ROWS_MAX 3  /* rows for the writes past the end */

/* One coverage event, reduced to what the map needs. */
typedef struct cev {
    uint32_t block, thread;
    long long index;
} cev;

typedef struct cmodel {
    const lab_trace *t;
    int kind;               /* LAB_EV_WRITE or LAB_EV_READ */
    cev *ev;                /* launch 0's coverage events, by (block, thread) */
    size_t nev;
    long long elems;        /* elements of the data */
    long long extent;       /* elems plus the guard zone's written extent */
    int w2, h2;             /* 2D data: columns and rows; 0 for 1D */
    long long grid, block;  /* blocks and threads per block of launch 0 */
    long long gx, gy, bx, by;
    long long wpb, units;   /* warps per block, warps in all */
    int steps;              /* fill frames */
} cmodel;

/* Per-element state after a prefix of the launch's warps. */
typedef struct cstate {
    unsigned char *touch;   /* distinct threads that touched it (saturates) */
    int32_t *blk, *thr;     /* the first of them */
    long long *last;        /* the last thread counted (global thread id) */
    long long covered, twice, stray, stray_threads, active_threads;
    long long lo, hi;       /* smallest and largest index touched by the newest warps */
    long long new_stray;    /* threads of the newest warps that wrote past the end */
    long long new_touch;    /* elements the newest warps touched (once per thread) */
    long long new_again;    /* ... of which another thread had touched before */
} cstate;

static int cev_cmp(const void *a, const void *b)
{
    const cev *x = a, *y = b;
    if (x->block != y->block) return x->block < y->block ? -1 : 1;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    return 0;
}

static void model_free(cmodel *m)
{
    free(m->ev);
    memset(m, 0, sizeof *m);
}

static int model_build(cmodel *m, const lab_trace *t)
{
    memset(m, 0, sizeof *m);
    m->t = t;
    m->w2 = t->width > 0 && t->height > 0 ? t->width : 0;
    m->h2 = m->w2 ? t->height : 0;
    m->elems = m->w2 ? (long long)m->w2 * m->h2 : t->n;
    if (m->elems < 0) m->elems = 0;
    m->gx = m->gy = m->bx = m->by = 1;
    if (t->nlaunches > 0) {
        const lab_launch_info *l = &t->launches[0];
        m->gx = l->grid[0] ? l->grid[0] : 1;
        m->gy = (long long)(l->grid[1] ? l->grid[1] : 1) * (l->grid[2] ? l->grid[2] : 1);
        m->bx = l->block[0] ? l->block[0] : 1;
        m->by = (long long)(l->block[1] ? l->block[1] : 1) * (l->block[2] ? l->block[2] : 1);
    }
    m->grid = m->gx * m->gy;
    m->block = m->bx * m->by;
    m->wpb = lab_ceil_div(m->block, WARP);
    /* which kind of event marks coverage: writes, or reads when there are none */
    int writes = 0;
    for (size_t i = 0; i < t->count && !writes; i++) {
        const lab_event *e = &t->ev[i];
        writes = e->launch == 0 && e->kind == LAB_EV_WRITE && e->space == LAB_SP_GLOBAL && e->a >= 0;
    }
    m->kind = writes ? LAB_EV_WRITE : LAB_EV_READ;
    size_t n = 0;
    for (size_t i = 0; i < t->count; i++) {
        const lab_event *e = &t->ev[i];
        n += e->launch == 0 && e->kind == m->kind && e->space == LAB_SP_GLOBAL && e->a >= 0;
    }
    m->ev = malloc(sizeof *m->ev * (n ? n : 1));
    if (!m->ev) return -1;
    m->extent = m->elems;
    uint32_t maxblock = 0;
    /* writes far past the end would only stretch the picture: a guard zone
     * is at most a block (or the data's size) long */
    const long long cap = m->elems + (m->elems > 65536 ? m->elems : 65536);
    for (size_t i = 0; i < t->count; i++) {
        const lab_event *e = &t->ev[i];
        if (e->launch != 0 || e->kind != m->kind || e->space != LAB_SP_GLOBAL || e->a < 0) continue;
        if ((long long)e->a >= cap) continue;
        cev *c = &m->ev[m->nev++];
        c->block = e->block;
        c->thread = e->thread;
        c->index = e->a;
        if (c->index + 1 > m->extent) m->extent = c->index + 1;
        if (e->block > maxblock) maxblock = e->block;
    }
    qsort(m->ev, m->nev, sizeof *m->ev, cev_cmp);
    if (t->nlaunches == 0 && m->nev > 0) m->grid = m->gx = (long long)maxblock + 1;
    m->units = m->grid * m->wpb;
    if (m->units < 1) m->units = 1;
    m->steps = m->units < MAX_STEPS ? (int)m->units : MAX_STEPS;
    return 0;
}

/* Warps [0, units_done) have run: which elements they touched. */
static int state_build(const cmodel *m, long long units_done, long long new_from, cstate *s)
{
    memset(s, 0, sizeof *s);
    size_t n = (size_t)(m->extent > 0 ? m->extent : 1);
    s->touch = calloc(n, 1);
    s->blk = malloc(n * sizeof *s->blk);
    s->thr = malloc(n * sizeof *s->thr);
    s->last = malloc(n * sizeof *s->last);
    if (!s->touch || !s->blk || !s->thr || !s->last) return -1;
    for (size_t i = 0; i < n; i++) s->last[i] = -1;
    s->lo = -1;
    long long prev_thread = -1, prev_stray = -1;
    for (size_t i = 0; i < m->nev; i++) {
        const cev *e = &m->ev[i];
        long long unit = (long long)e->block * m->wpb + e->thread / WARP;
        if (unit >= units_done) break; /* sorted by block, then thread */
        long long gid = (long long)e->block * m->block + e->thread;
        if (gid != prev_thread) s->active_threads++;
        prev_thread = gid;
        long long x = e->index;
        if (unit >= new_from) {
            if (s->lo < 0 || x < s->lo) s->lo = x;
            if (x > s->hi) s->hi = x;
        }
        if (s->last[x] == gid) continue;
        s->last[x] = gid;
        if (unit >= new_from) {
            s->new_touch++;
            if (s->touch[x] > 0 && x < m->elems) s->new_again++;
        }
        if (s->touch[x] == 0) {
            s->blk[x] = (int32_t)e->block;
            s->thr[x] = (int32_t)e->thread;
            if (x < m->elems) s->covered++;
        } else if (s->touch[x] == 1 && x < m->elems) {
            s->twice++;
        }
        if (s->touch[x] < 255) s->touch[x]++;
        if (x >= m->elems) {
            if (s->touch[x] == 1) s->stray++;
            if (gid != prev_stray) {
                s->stray_threads++;
                if (unit >= new_from) s->new_stray++;
            }
            prev_stray = gid;
        }
    }
    return 0;
}

static void state_free(cstate *s)
{
    free(s->touch);
    free(s->blk);
    free(s->thr);
    free(s->last);
}

/* Warps done after fill frame f (1..steps). */
static long long units_after(const cmodel *m, int f)
{
    if (f <= 0) return 0;
    if (f >= m->steps) return m->units;
    return lab_ceil_div(m->units * f, m->steps);
}

/* ------------------------------------------------------------ geometry */

typedef struct geom {
    int label;        /* columns of the row labels */
    int cols, rows;   /* map cells */
    long long k;      /* elements per cell (per side in 2D) */
    int grows;        /* rows for the writes past the end, heading included (0: none) */
    int gcols;        /* their cells per row */
    long long gk;     /* guard elements per cell */
    int legend;       /* legend rows */
} geom;

static int digits(long long x)
{
    int d = 1;
    while (x >= 10) {
        x /= 10;
        d++;
    }
    return d;
}

/* Fit the map into w columns and at most h rows (h <= 0: the text height). */
static void layout(const cmodel *m, int w, int h, geom *g)
{
    memset(g, 0, sizeof *g);
    const long long guard = m->extent - m->elems, elems = m->elems > 0 ? m->elems : 1;
    g->label = digits(m->extent > 0 ? m->extent - 1 : 0);
    int avail = w - g->label - 1;
    if (avail < 4) avail = 4;
    g->legend = 1;
    const int fixed = 1 /* header */ + 1 /* blank */ + g->legend;
    /* 1D: whole blocks per row when a block fits, else a power of two, so
     * that block boundaries fall on the same column in every row */
    int cols = avail;
    if (!m->w2) {
        if (m->block <= avail) cols = (int)(m->block * (avail / m->block));
        else {
            cols = 1;
            while (cols * 2 <= avail) cols *= 2;
        }
    }
    g->gcols = m->w2 ? (avail < 64 ? avail : 64) : cols;
    /* the rows past the end: a heading and up to GUARD_ROWS_MAX rows */
    int gneed = 0;
    if (guard > 0) {
        long long r = lab_ceil_div(guard, g->gcols);
        gneed = 1 + (int)(r < GUARD_ROWS_MAX ? r : GUARD_ROWS_MAX);
    }
    int maxrows = MAX_TEXT_ROWS;
    if (h > 0) {
        maxrows = h - fixed - gneed;
        if (maxrows < 1) { /* too short: the map first, then what fits */
            gneed = h - fixed - 1;
            if (gneed < 2) gneed = 0;
            maxrows = h - fixed - gneed;
            if (maxrows < 1) maxrows = 1;
        }
    }
    if (m->w2) {
        long long kx = lab_ceil_div(m->w2, avail), ky = lab_ceil_div(m->h2, maxrows);
        g->k = kx > ky ? kx : ky;
        if (g->k < 1) g->k = 1;
        g->cols = (int)lab_ceil_div(m->w2, g->k);
        g->rows = (int)lab_ceil_div(m->h2, g->k);
    } else {
        g->k = lab_ceil_div(elems, (long long)maxrows * cols);
        if (g->k < 1) g->k = 1;
        g->rows = (int)lab_ceil_div(elems, g->k * cols);
        g->cols = elems <= cols * g->k ? (int)lab_ceil_div(elems, g->k) : cols;
    }
    if (guard > 0 && gneed >= 2) {
        g->gk = 1;
        while (lab_ceil_div(guard, g->gk * g->gcols) > gneed - 1) g->gk++;
        g->grows = 1 + (int)lab_ceil_div(guard, g->gk * g->gcols);
    }
}

/* ------------------------------------------------------------ drawing */

enum view { V_BLOCK, V_THREAD };

/* The look of the elements [e0, e1) in one cell. */
static void cell_look(const cmodel *m, const cstate *s, long long e0, long long e1, int final, int view,
                      uint32_t *cp, int *role)
{
    int maxt = 0, none = 0;
    long long some = -1;
    for (long long x = e0; x < e1 && x < m->extent; x++) {
        if (s->touch[x] > maxt) maxt = s->touch[x];
        if (s->touch[x] == 0) none++;
        else if (some < 0) some = x;
    }
    int guard = e0 >= m->elems;
    if (maxt >= 2 && !guard) {
        *cp = maxt < 10 ? (uint32_t)('0' + maxt) : '+';
        *role = VIZ_ROLE_CONFLICT;
    } else if (some < 0) {
        *cp = guard ? ' ' : final ? '?' : 0x00b7;
        *role = guard ? VIZ_ROLE_TEXT : final ? VIZ_ROLE_WRONG : VIZ_ROLE_DIM;
    } else if (none && final && !guard) {
        *cp = '?';
        *role = VIZ_ROLE_WRONG;
    } else {
        if (view == V_THREAD) *cp = (uint32_t)('0' + s->thr[some] % 10);
        else *cp = viz_block_glyph(s->blk[some]);
        *role = guard ? VIZ_ROLE_WRONG : viz_block_role(s->blk[some]);
    }
}

static int draw_map(canvas *c, const cmodel *m, const cstate *s, const geom *g, viz_rect area, int y,
                    int final, int view)
{
    int x0 = area.x + g->label + 1;
    for (int r = 0; r < g->rows; r++, y++) {
        long long first = m->w2 ? (long long)r * g->k : (long long)r * g->cols * g->k;
        canvas_printf(c, area.x, y, VIZ_ROLE_DIM, 0, "%*lld", g->label, first);
        canvas_put(c, area.x + g->label, y, 0x2502, VIZ_ROLE_DIM, 0);
        for (int col = 0; col < g->cols; col++) {
            uint32_t cp = ' ';
            int role = VIZ_ROLE_TEXT;
            if (m->w2) {
                /* a k x k square of the matrix: its worst element shows */
                uint32_t best = 0;
                int brole = VIZ_ROLE_TEXT, rank = -1;
                for (long long dy = 0; dy < g->k; dy++) {
                    long long row = (long long)r * g->k + dy;
                    if (row >= m->h2) break;
                    long long c0 = (long long)col * g->k, c1 = c0 + g->k;
                    if (c1 > m->w2) c1 = m->w2;
                    if (c0 >= c1) break;
                    uint32_t p;
                    int pr;
                    cell_look(m, s, row * m->w2 + c0, row * m->w2 + c1, final, view, &p, &pr);
                    int rk = pr == VIZ_ROLE_CONFLICT ? 3 : pr == VIZ_ROLE_WRONG ? 2 : pr == VIZ_ROLE_DIM ? 0 : 1;
                    if (rk > rank) {
                        rank = rk;
                        best = p;
                        brole = pr;
                    }
                }
                if (rank < 0) continue;
                cp = best;
                role = brole;
            } else {
                long long e0 = first + (long long)col * g->k;
                if (e0 >= m->elems) break;
                long long e1 = e0 + g->k;
                if (e1 > m->elems) e1 = m->elems;
                cell_look(m, s, e0, e1, final, view, &cp, &role);
            }
            canvas_put(c, x0 + col, y, cp, role, 0);
        }
    }
    return y;
}

static int draw_guard(canvas *c, const cmodel *m, const cstate *s, const geom *g, viz_rect area, int y,
                      int view)
{
    long long guard = m->extent - m->elems;
    if (guard <= 0 || g->grows <= 0) return y;
    const int gcols = g->gcols;
    char head[160];
    if (s->stray > 0) {
        char threads[48], elems[48];
        snprintf(threads, sizeof threads, ngettext("%lld thread", "%lld threads", (unsigned long)s->stray_threads),
                 s->stray_threads);
        snprintf(elems, sizeof elems, ngettext("%lld element", "%lld elements", (unsigned long)s->stray), s->stray);
        /* TRANSLATORS: "past the end: 3 threads wrote 3 elements after the last one" */
        snprintf(head, sizeof head, _("past the end: %s wrote %s after the last one"), threads, elems);
    } else {
        snprintf(head, sizeof head, "%s", _("past the end: nothing written yet"));
    }
    canvas_textn(c, area.x, y++, area.w, head, s->stray > 0 ? VIZ_ROLE_WRONG : VIZ_ROLE_DIM, 0);
    int x0 = area.x + g->label + 1;
    for (int r = 0; r + 1 < g->grows; r++, y++) {
        long long first = m->elems + (long long)r * gcols * g->gk;
        if (first >= m->extent) break;
        canvas_printf(c, area.x, y, VIZ_ROLE_WRONG, 0, "%*lld", g->label, first);
        canvas_put(c, area.x + g->label, y, 0x2502, VIZ_ROLE_WRONG, 0);
        for (int col = 0; col < gcols; col++) {
            long long e0 = first + (long long)col * g->gk;
            if (e0 >= m->extent) break;
            long long e1 = e0 + g->gk;
            uint32_t cp;
            int role;
            cell_look(m, s, e0, e1, 1, view, &cp, &role);
            canvas_put(c, x0 + col, y, cp, role, 0);
        }
    }
    return y;
}

static void draw_legend(canvas *c, const cmodel *m, viz_rect area, int y, int final, int view)
{
    int x = area.x, xend = area.x + area.w;
    if (view == V_THREAD) {
        x = canvas_text(c, x, y, "0-9", VIZ_ROLE_TEXT, VIZ_BOLD);
        x = canvas_text(c, x, y, _(" threadIdx.x % 10, coloured by block   "), VIZ_ROLE_DIM, 0);
    } else {
        long long nb = m->grid < VIZ_NBLOCK_ROLES ? m->grid : VIZ_NBLOCK_ROLES;
        for (long long b = 0; b < nb && x + 8 < xend; b++) {
            canvas_put(c, x, y, viz_block_glyph(b), viz_block_role(b), 0);
            if (b == 0) x = canvas_text(c, x + 1, y, _(" block 0 "), VIZ_ROLE_DIM, 0);
            else x = canvas_printf(c, x + 1, y, VIZ_ROLE_DIM, 0, " %lld ", b);
        }
        if (m->grid > VIZ_NBLOCK_ROLES && x + 12 < xend)
            x = canvas_printf(c, x, y, VIZ_ROLE_DIM, 0, _("(then again) "));
        x += 2;
    }
    struct {
        const char *glyph, *text;
        int role, when_final;
    } items[] = {
        {"\u00b7", N_(" not yet"), VIZ_ROLE_DIM, 0},
        {"?", N_(" never"), VIZ_ROLE_WRONG, 1},
        {"2", N_(" twice"), VIZ_ROLE_CONFLICT, -1},
    };
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        if (items[i].when_final >= 0 && items[i].when_final != final) continue;
        const char *text = _(items[i].text);
        int need = viz_text_width(items[i].glyph) + viz_text_width(text) + 2;
        if (x + need > xend) break;
        x = canvas_text(c, x, y, items[i].glyph, items[i].role, 0);
        x = canvas_text(c, x, y, text, VIZ_ROLE_DIM, 0);
        x += 2;
    }
}

/* ------------------------------------------------------------ captions */

static void launch_text(const cmodel *m, char *b, size_t len)
{
    if (m->gy > 1 || m->by > 1)
        snprintf(b, len, _("grid %lldx%lld \u00d7 block %lldx%lld = %lld threads"), m->gx, m->gy, m->bx, m->by,
                 m->grid * m->block);
    else
        snprintf(b, len, _("grid %lld \u00d7 block %lld = %lld threads"), m->grid, m->block, m->grid * m->block);
}

/* "n = 200" or "a 64 x 64 matrix" (article: with it, in a sentence). */
static void shape_text(const cmodel *m, char *b, size_t len, int article)
{
    if (m->w2) snprintf(b, len, article ? _("a %d x %d matrix") : _("%d x %d matrix"), m->h2, m->w2);
    else snprintf(b, len, "n = %lld", m->elems);
}

static void describe_final(const cmodel *m, const cstate *s, viz_frame_info *info, const char *launch,
                           const char *shape)
{
    const int wr = m->kind == LAB_EV_WRITE;
    long long never = m->elems - s->covered, idle = m->grid * m->block - s->active_threads;
    char what[320] = "";
    size_t off = 0;
    /* the findings, a list joined by ", " */
    if (s->stray > 0)
        off += (size_t)snprintf(what + off, sizeof what - off, "%s", off ? ", " : "");
    if (s->stray > 0 && off < sizeof what)
        off += (size_t)snprintf(what + off, sizeof what - off,
                                ngettext("%lld thread wrote past the end", "%lld threads wrote past the end",
                                         (unsigned long)s->stray_threads),
                                s->stray_threads);
    if (s->twice > 0 && off < sizeof what) {
        off += (size_t)snprintf(what + off, sizeof what - off, "%s", off ? ", " : "");
        if (off < sizeof what)
            off += (size_t)snprintf(what + off, sizeof what - off,
                                    wr ? ngettext("%lld element written twice or more",
                                                  "%lld elements written twice or more", (unsigned long)s->twice)
                                       : ngettext("%lld element read twice or more", "%lld elements read twice or more",
                                                  (unsigned long)s->twice),
                                    s->twice);
    }
    if (never > 0 && off < sizeof what) {
        off += (size_t)snprintf(what + off, sizeof what - off, "%s", off ? ", " : "");
        if (off < sizeof what)
            off += (size_t)snprintf(what + off, sizeof what - off,
                                    wr ? ngettext("%lld element never written", "%lld elements never written",
                                                  (unsigned long)never)
                                       : ngettext("%lld element never read", "%lld elements never read",
                                                  (unsigned long)never),
                                    never);
    }
    /* TRANSLATORS: "grid 4 × block 64 = 256 threads for n = 200: 56 threads wrote past the end." */
    if (off)
        viz_info_caption(info, _("%s for %s: %s."), launch, shape, what);
    else if (idle > 0)
        viz_info_caption(info,
                         wr ? ngettext("%s for %s: every element written exactly once; %lld thread had nothing to do.",
                                       "%s for %s: every element written exactly once; %lld threads had nothing to do.",
                                       (unsigned long)idle)
                            : ngettext("%s for %s: every element read exactly once; %lld thread had nothing to do.",
                                       "%s for %s: every element read exactly once; %lld threads had nothing to do.",
                                       (unsigned long)idle),
                         launch, shape, idle);
    else
        viz_info_caption(info,
                         wr ? _("%s for %s: every element written exactly once, by exactly one thread.")
                            : _("%s for %s: every element read exactly once, by exactly one thread."),
                         launch, shape);
}

/* Do a warp's threads touch neighbouring elements? For each warp, the first
 * element of each of its threads: the warp is coalesced when those lie side
 * by side in lane order. Memory serves a warp in 32-byte sectors (of 128-byte
 * lines): *sectors: the most distinct sectors one warp's elements fall in,
 * *ideal: the fewest that warp's bytes could take, *stride: the distance
 * between lane 0's and lane 1's elements in that warp. Returns 1 when every
 * warp is coalesced. */
static int warps_coalesce(const cmodel *m, long long *sectors, long long *ideal, long long *stride)
{
    const long long es = m->t && lab_dtype_size(m->t->dtype) > 0 ? (long long)lab_dtype_size(m->t->dtype) : 4;
    int all = 1;
    *sectors = 1;
    *ideal = 1;
    *stride = 1;
    size_t i = 0;
    while (i < m->nev) {
        const uint32_t blk = m->ev[i].block, warp = m->ev[i].thread / WARP;
        long long idx[WARP], nidx = 0;
        uint32_t last = ~0u;
        for (; i < m->nev && m->ev[i].block == blk && m->ev[i].thread / WARP == warp; i++) {
            if (m->ev[i].thread == last) continue; /* a thread's first element only */
            last = m->ev[i].thread;
            if (nidx < WARP) idx[nidx++] = m->ev[i].index;
        }
        int side = 1;
        for (long long k = 1; k < nidx; k++)
            if (idx[k] != idx[k - 1] + 1) side = 0;
        if (side) continue;
        all = 0;
        long long sec = 0;
        for (long long k = 0; k < nidx; k++) {
            int seen = 0;
            for (long long j = 0; j < k && !seen; j++) seen = idx[j] * es / 32 == idx[k] * es / 32;
            sec += !seen;
        }
        if (sec > *sectors) {
            *sectors = sec;
            *ideal = (nidx * es + 31) / 32;
            *stride = nidx > 1 ? idx[1] - idx[0] : 1;
        }
    }
    return all;
}

static void describe(const cmodel *m, const cstate *s, int frame, viz_frame_info *info)
{
    char launch[128], shape[64];
    launch_text(m, launch, sizeof launch);
    shape_text(m, shape, sizeof shape, 1);
    const int wr = m->kind == LAB_EV_WRITE;
    if (frame == 0) {
        viz_info_title(info, "%s", _("before the launch"));
        viz_info_caption(info,
                         wr ? _("%s for %s: each element will take the colour of the block whose thread wrote it.")
                            : _("%s for %s: each element will take the colour of the block whose thread read it."),
                         launch, shape);
    } else if (frame <= m->steps) {
        long long u0 = units_after(m, frame - 1), u1 = units_after(m, frame);
        long long b0 = u0 / m->wpb, b1 = (u1 - 1) / m->wpb;
        if (b0 == b1 && m->wpb > 1 && u1 - u0 == 1) viz_info_title(info, _("block %lld, warp %lld"), b0, u0 % m->wpb);
        else if (b0 == b1 && m->wpb > 1 && u1 - u0 < m->wpb)
            viz_info_title(info, _("block %lld, warps %lld-%lld"), b0, u0 % m->wpb, (u1 - 1) % m->wpb);
        else if (b0 == b1) viz_info_title(info, _("block %lld"), b0);
        else viz_info_title(info, _("blocks %lld-%lld"), b0, b1);
        /* TRANSLATORS: the subject of "... wrote elements 0..31" */
        const char *who = u1 - u0 == 1 ? _("This warp's threads") : _("Their threads");
        char what[160];
        if (s->new_touch == s->hi - s->lo + 1)
            snprintf(what, sizeof what, _("elements %lld..%lld"), s->lo, s->hi);
        else
            snprintf(what, sizeof what, _("%lld elements between %lld and %lld"), s->new_touch, s->lo, s->hi);
        if (s->lo < 0)
            viz_info_caption(info, "%s",
                             wr ? _("These threads wrote nothing: their indices fall outside the data.")
                                : _("These threads read nothing: their indices fall outside the data."));
        else if (s->new_stray > 0)
            viz_info_caption(info,
                             wr ? _("%s wrote %s: %lld of them wrote past the end of the data, into memory "
                                    "the array does not own.")
                                : _("%s read %s: %lld of them read past the end of the data, from memory "
                                    "the array does not own."),
                             who, what, s->new_stray);
        else if (s->new_again > 0)
            viz_info_caption(info,
                             wr ? _("%s wrote %s: %lld of those had been written already by another thread.")
                                : _("%s read %s: %lld of those had been read already by another thread."),
                             who, what, s->new_again);
        else
            viz_info_caption(info,
                             wr ? _("%s wrote %s; the simulator runs the blocks one after another, a GPU "
                                    "runs as many at a time as fit, in any order.")
                                : _("%s read %s; the simulator runs the blocks one after another, a GPU "
                                    "runs as many at a time as fit, in any order."),
                             who, what);
    } else if (frame == m->steps + 1) {
        viz_info_title(info, _("the whole map"));
        describe_final(m, s, info, launch, shape);
    } else {
        viz_info_title(info, _("thread index"));
        long long sec, ideal, stride;
        if (warps_coalesce(m, &sec, &ideal, &stride))
            viz_info_caption(info, "%s",
                             wr ? _("The same map with threadIdx.x % 10 in every cell: neighbouring elements "
                                    "belong to neighbouring threads of a warp, so its writes coalesce into few "
                                    "memory transactions.")
                                : _("The same map with threadIdx.x % 10 in every cell: neighbouring elements "
                                    "belong to neighbouring threads of a warp, so its reads coalesce into few "
                                    "memory transactions."));
        else
            viz_info_caption(info,
                             wr ? _("The same map with threadIdx.x %% 10 in every cell: neighbouring threads "
                                    "of a warp touch elements %lld apart, so one warp's writes fall in up to %lld "
                                    "different 32-byte sectors, where %lld would hold them: they do not coalesce.")
                                : _("The same map with threadIdx.x %% 10 in every cell: neighbouring threads "
                                    "of a warp touch elements %lld apart, so one warp's reads fall in up to %lld "
                                    "different 32-byte sectors, where %lld would hold them: they do not coalesce."),
                             stride, sec, ideal);
    }
    long long never = m->elems - s->covered;
    viz_info_counter(info, "elements", m->elems, NULL);
    viz_info_counter(info, m->kind == LAB_EV_WRITE ? N_("written") : N_("read"), s->covered, NULL);
    viz_info_counter(info, "twice", s->twice, NULL);
    int final = frame > m->steps;
    viz_info_counter(info, "never", final ? never : VIZ_COUNTER_NONE, NULL);
    viz_info_counter(info, "past the end", s->stray_threads, NULL);
    viz_info_counter(info, "idle threads", final ? m->grid * m->block - s->active_threads : VIZ_COUNTER_NONE,
                     NULL);
}

/* ------------------------------------------------------------ interface */

static int coverage_frames(const lab_trace *t)
{
    cmodel m;
    if (model_build(&m, t) != 0) return 1;
    int n = m.steps + 3;
    model_free(&m);
    return n;
}

static void coverage_draw(const lab_trace *t, int frame, canvas *c, viz_rect area, viz_frame_info *info)
{
    area = viz_rect_intersect(area, canvas_bounds(c));
    if (area.w <= 0 || area.h <= 0) return;
    viz_rect old = canvas_set_clip(c, area);
    cmodel m;
    cstate s;
    memset(&s, 0, sizeof s);
    if (model_build(&m, t) != 0) {
        canvas_text(c, area.x, area.y, _("out of memory while reading the trace"), VIZ_ROLE_WRONG, 0);
        goto out;
    }
    if (frame < 0) frame = 0;
    if (frame > m.steps + 2) frame = m.steps + 2;
    int fill = frame <= m.steps ? frame : m.steps;
    if (state_build(&m, units_after(&m, fill), units_after(&m, fill - 1), &s) != 0) {
        canvas_text(c, area.x, area.y, _("out of memory while reading the trace"), VIZ_ROLE_WRONG, 0);
        goto out;
    }
    describe(&m, &s, frame, info);
    if (m.elems <= 0) {
        canvas_text(c, area.x, area.y, _("the trace has no data elements"), VIZ_ROLE_DIM, 0);
        goto out;
    }
    geom g;
    layout(&m, area.w, area.h, &g);
    int final = frame > m.steps, view = frame > m.steps + 1 ? V_THREAD : V_BLOCK;
    char launch[128], shape[64], head[256];
    launch_text(&m, launch, sizeof launch);
    shape_text(&m, shape, sizeof shape, 0);
    if (g.k > 1 && m.w2)
        snprintf(head, sizeof head, _("%s \u00b7 %s \u00b7 cell = %lldx%lld elements"), shape, launch, g.k, g.k);
    else if (g.k > 1)
        snprintf(head, sizeof head, _("%s \u00b7 %s \u00b7 cell = %lld elements"), shape, launch, g.k);
    else
        snprintf(head, sizeof head, "%s \u00b7 %s", shape, launch);
    canvas_textn(c, area.x, area.y, area.w, head, VIZ_ROLE_HEADING, 0);
    int y = draw_map(c, &m, &s, &g, area, area.y + 1, final, view);
    y = draw_guard(c, &m, &s, &g, area, y, view);
    int ly = y + 1;
    if (ly > area.y + area.h - 1) ly = area.y + area.h - 1;
    draw_legend(c, &m, area, ly, final, view);
out:
    state_free(&s);
    model_free(&m);
    canvas_set_clip(c, old);
}

static int coverage_height(const lab_trace *t, int width)
{
    cmodel m;
    if (model_build(&m, t) != 0) return 24;
    geom g;
    layout(&m, width, 0, &g);
    int h = 1 + g.rows + g.grows + 1 + g.legend;
    model_free(&m);
    return h;
}

const viz_renderer viz_render_coverage = {
    .algos = "scale vecdiff distance transpose",
    .variants = NULL,
    .name = "coverage map",
    .frames = coverage_frames,
    .draw = coverage_draw,
    .height = coverage_height,
    .min_w = 40,
    .min_h = 8,
};
