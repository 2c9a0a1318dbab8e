/* render_bitonic.c - the bitonic network as a butterfly, step by step.
 *
 * Frames of one trace of n keys (n a power of two, S = log n (log n + 1) / 2):
 *   0          the input on its wires
 *   1 .. S     step s = frame - 1 of the network, (k, j) in order, done
 *   S + 1      the answer, against a sort of the input
 *
 * The picture: one horizontal wire per key (index and input value at the
 * left), time running to the right in one column per (k, j) step, columns
 * grouped by k. A compare-exchange is a vertical link between its two wires:
 * the arrowhead sits where the larger key goes (▼ ascending, ▲ descending,
 * each direction its own colour), the other end is ● when the keys were
 * swapped and ○ when they stayed, and a swapped link is drawn heavy and
 * highlighted. After each step the keys are written on the wires, so they
 * can be followed as they move. Under the columns: the kernel that did the
 * step (L one launch per step, S start, M middle, F finish), the memory the
 * keys were in (g global, s shared, r registers) and the launch number; at
 * the right of each wire the block and thread that did its pair in the
 * current step, and for o whether the wire's own thread sat idle.
 *
 * When the wires do not fit (n > 64, or a short terminal) the picture is a
 * scaled overview: one row per band of wires, one cell per step, its glyph
 * the direction of the band's pairs and its colour the share that swapped,
 * and at the right the range of the keys now in the band.
 *
 * Everything is rebuilt from the trace on each call: the model (which pair,
 * who, the keys after each step) in render_bitonic_model.c, the layout, the
 * drawing and the words here.
 */
#include "viz/intl.h"
#include "viz/render.h"
#include "viz/render_bitonic.h"

#include "kernels/bitonic/bitonic_trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WIRE_MAX_N 64   /* the most wires drawn one per row */
#define BANDS_MAX 32    /* rows of the overview */
#define VAL_MAX_W 6     /* widest key on a wire */

static const uint32_t G_WIRE = 0x2500, G_CROSS = 0x253c, G_CROSS_HEAVY = 0x2542;
static const uint32_t G_UP = 0x25b2, G_DOWN = 0x25bc, G_KEPT = 0x25cb, G_MOVED = 0x25cf;

static int ndigits(long long x)
{
    int d = 1;
    if (x < 0) x = -x, d++;
    while (x >= 10) x /= 10, d++;
    return d;
}

/* ------------------------------------------------------------ layout */

typedef struct geom {
    int bands;                 /* 0: one wire per row; else rows of n/bands wires */
    int wpb;                   /* wires per band */
    int iw, vw, left;          /* index width, key width, columns before the steps */
    int cap;                   /* most sub-columns of a step (links side by side) */
    int inl;                   /* keys written on the wires after every step */
    int s_lo, s_hi;            /* steps shown (inclusive) */
    int x[14 * 15 / 2 + 1];    /* column of each shown step, from area.x */
    int annw;                  /* width of the block/thread note */
    int right;                 /* first column after the steps */
    int header, footer, legend, blank; /* blank: a line between the wires and the footer */
} geom;

static int step_width(const bmodel *m, const geom *g, int s)
{
    if (g->bands) return 1;
    long long j = m->st[s].j;
    int sub = (int)(j < g->cap ? j : g->cap);
    return 2 * sub + 1 + (g->inl ? g->vw + 1 : 0);
}

/* Columns from the first shown step to the end of the last one. */
static int steps_width(const bmodel *m, const geom *g, int lo, int hi)
{
    int w = 0;
    for (int s = lo; s <= hi; s++) {
        if (s > lo && m->st[s].j == m->st[s].k / 2) w++; /* a gap before each k */
        w += step_width(m, g, s);
    }
    return w;
}

static int right_width(const geom *g)
{
    return 1 + (g->inl || g->bands ? 0 : g->vw + 1) + g->annw;
}

static void place(const bmodel *m, geom *g)
{
    int x = g->left + (g->s_lo > 0 ? 1 : 0);
    for (int s = g->s_lo; s <= g->s_hi; s++) {
        if (s > g->s_lo && m->st[s].j == m->st[s].k / 2) x++;
        g->x[s - g->s_lo] = x;
        x += step_width(m, g, s);
    }
    g->right = x + (g->s_hi < m->S - 1 ? 1 : 0);
}

static int key_width(const bmodel *m)
{
    int w = 1;
    char b[32];
    for (long long i = 0; i < m->n; i++) { /* later keys are the same keys, moved */
        viz_fmt_value(m->val[i], m->t->dtype, VAL_MAX_W, b, sizeof b);
        int l = viz_text_width(b);
        if (l > w) w = l;
    }
    return w;
}

static void layout(const bmodel *m, int cur, int W, int H, geom *g)
{
    memset(g, 0, sizeof *g);
    g->header = 2;
    g->footer = 3;
    g->legend = 1;
    g->blank = 1;
    int chrome = g->header + g->footer + g->legend + g->blank;
    /* A small network keeps its wires and keys when the height is short
     * (the 8-key example at 80x24): the legend goes first, then the blank
     * line above the footer, then the footer. */
    if (m->n <= WIRE_MAX_N && H < m->n + chrome) {
        g->legend = 0;
        if (H < m->n + g->header + g->footer + g->blank) g->blank = 0;
        if (H < m->n + g->header + g->footer) g->footer = 0;
        chrome = g->header + g->footer + g->legend + g->blank;
    }
    g->vw = key_width(m);
    if (m->n <= WIRE_MAX_N && H >= m->n + chrome) {
        g->iw = ndigits(m->n - 1);
        g->left = g->iw + 1 + g->vw + 1;
        if (g->left < 7) g->left = 7; /* room for the footer's labels */
        int maxt = 0, maxb = 0;
        for (size_t c = 0; c < (size_t)m->S * (size_t)m->n; c++) {
            if (m->thr[c] > maxt) maxt = m->thr[c];
            if (m->blk[c] > maxb) maxb = m->blk[c];
        }
        g->annw = 1 + ndigits(maxb) + 2 + ndigits(maxt) + (m->is_o ? 5 : 0);
    } else {
        int rows = H - chrome;
        if (rows > BANDS_MAX) rows = BANDS_MAX;
        int R = 1;
        while (R * 2 <= rows && R * 2 <= m->n) R *= 2;
        g->bands = R;
        g->wpb = (int)(m->n / R);
        g->iw = ndigits(m->n - 1);
        g->left = 2 * g->iw + 2;
        if (g->left < 7) g->left = 7;
        g->annw = 2 * g->vw + 6;
    }
    g->s_lo = 0;
    g->s_hi = m->S - 1;
    if (m->S == 0) {
        g->right = g->left;
        return;
    }
    if (!g->bands) {
        /* the most readable picture that fits: every link beside the others
         * (then the keys on the wires too), else fewer sub-columns */
        long long maxj = m->n / 2;
        int found = 0;
        for (long long cap = maxj; cap >= 1 && !found; cap /= 2)
            for (int inl = 1; inl >= 0 && !found; inl--) {
                g->cap = (int)cap;
                g->inl = inl;
                if (g->left + steps_width(m, g, 0, m->S - 1) + right_width(g) <= W) found = 1;
            }
        if (!found) {
            g->cap = maxj < 4 ? (int)maxj : 4;
            g->inl = 0;
        }
    }
    /* steps that do not fit: a window that keeps the current step in view,
     * with room for an ellipsis at each end */
    int avail = W - g->left - right_width(g) - 2;
    if (g->left + steps_width(m, g, 0, m->S - 1) + right_width(g) > W) {
        int c = cur < 0 ? 0 : cur >= m->S ? m->S - 1 : cur;
        int lo = c, hi = c;
        while (1) {
            int grew = 0;
            if (hi + 1 < m->S && steps_width(m, g, lo, hi + 1) <= avail && hi - c < 2) hi++, grew = 1;
            if (lo > 0 && steps_width(m, g, lo - 1, hi) <= avail) lo--, grew = 1;
            else if (hi + 1 < m->S && steps_width(m, g, lo, hi + 1) <= avail) hi++, grew = 1;
            if (!grew) break;
        }
        g->s_lo = lo;
        g->s_hi = hi;
    }
    place(m, g);
}

/* ------------------------------------------------------------ drawing */

/* The link of pair (i1, i2) in step s, in sub-column q of the step. */
/* The link of the pair whose first wire is i1 in step s, at column x.
 * when: 1 a later step (only its place), -1 an earlier one (dimmed), 0 the
 * current one (swapped links in reverse video), -2 the finished network.
 * verticals: draw the line between the wires, else the two ends. */
static void draw_link(canvas *c, const bmodel *m, int s, long long i1, int x, int y0, int when,
                      int verticals)
{
    size_t c1 = (size_t)s * (size_t)m->n + (size_t)i1;
    unsigned char f = m->flag[c1];
    long long i2 = m->partner[c1];
    if (i2 < 0) return;
    int asc = (f & W_ASC) != 0, sw = (f & W_SWAP) != 0;
    int role = asc ? VIZ_ROLE_SOURCE : VIZ_ROLE_ARROW;
    unsigned attr = 0;
    if (when > 0) role = VIZ_ROLE_DIM;
    else if (when == -1) attr = VIZ_DIMMED;
    else if (when == 0 && sw) attr = VIZ_REVERSE | VIZ_BOLD;
    if (verticals) {
        uint32_t g = when <= 0 && sw ? G_CROSS_HEAVY : G_CROSS;
        for (long long r = i1 + 1; r < i2; r++) canvas_put(c, x, y0 + (int)r, g, role, attr);
        return;
    }
    uint32_t top, bot;
    if (when > 0) {
        top = 0x252c; /* ┬ */
        bot = 0x2534; /* ┴ */
    } else if (asc) {
        top = sw ? G_MOVED : G_KEPT;
        bot = G_DOWN;
    } else {
        top = G_UP;
        bot = sw ? G_MOVED : G_KEPT;
    }
    canvas_put(c, x, y0 + (int)i1, top, role, attr);
    canvas_put(c, x, y0 + (int)i2, bot, role, attr);
}

static void draw_step_links(canvas *c, const bmodel *m, const geom *g, int s, int ax, int y0, int when)
{
    long long n = m->n, j = m->st[s].j;
    int sub = (int)(j < g->cap ? j : g->cap);
    int x0 = ax + g->x[s - g->s_lo];
    for (int pass = 1; pass >= 0; pass--)
        for (long long i = 0; i < n; i++) {
            size_t ci = (size_t)s * (size_t)n + (size_t)i;
            if (!(m->flag[ci] & W_TOP)) continue;
            int q = (int)((i % j) % sub);
            draw_link(c, m, s, i, x0 + 1 + 2 * q, y0, when, pass);
        }
}

static void fmt_key(const bmodel *m, double v, int w, char *b, size_t len)
{
    char t[32];
    viz_fmt_value(v, m->t->dtype, w, t, sizeof t);
    int pad = w - viz_text_width(t);
    if (pad < 0) pad = 0;
    snprintf(b, len, "%*s%s", pad, "", t);
}

/* One wire per key. cur: the step of this frame (-1 input, S final). */
static void draw_wires(canvas *c, const bmodel *m, const geom *g, viz_rect area, int cur)
{
    const long long n = m->n;
    const int S = m->S;
    const int ax = area.x, y0 = area.y + g->header;
    const int done = cur >= S ? S : cur + 1; /* steps whose keys are known */
    char b[48];
    /* header: k over each group, j over each step */
    for (int s = g->s_lo; s <= g->s_hi; s++) {
        const bstep *st = &m->st[s];
        int x = ax + g->x[s - g->s_lo];
        int w = step_width(m, g, s);
        int now = s == cur;
        if (st->j == st->k / 2 || s == g->s_lo) {
            int gw = 0;
            for (int t = s; t <= g->s_hi && m->st[t].k == st->k; t++)
                gw += step_width(m, g, t) + (t > s && m->st[t].j == m->st[t].k / 2);
            snprintf(b, sizeof b, "k=%lld", st->k);
            if (viz_text_width(b) > gw) snprintf(b, sizeof b, "%lld", st->k);
            canvas_textn(c, x, area.y, gw, b, cur >= 0 && cur < S && m->st[cur].k == st->k ? VIZ_ROLE_HEADING : VIZ_ROLE_DIM, 0);
        }
        snprintf(b, sizeof b, "j=%lld", st->j);
        if (viz_text_width(b) > w) snprintf(b, sizeof b, "%lld", st->j);
        canvas_textn(c, x, area.y + 1, w, b, now ? VIZ_ROLE_HIGHLIGHT : VIZ_ROLE_DIM, 0);
    }
    if (g->s_lo > 0) canvas_put(c, ax + g->left, y0 - 1, 0x2026, VIZ_ROLE_DIM, 0);
    if (g->s_hi < S - 1) canvas_put(c, ax + g->right - 1, y0 - 1, 0x2026, VIZ_ROLE_DIM, 0);
    /* the wires, the input at their left */
    for (long long i = 0; i < n; i++) {
        int y = y0 + (int)i;
        canvas_printf(c, ax, y, VIZ_ROLE_DIM, 0, "%*lld", g->iw, i);
        fmt_key(m, m->val[i], g->vw, b, sizeof b);
        canvas_text(c, ax + g->left - 1 - g->vw, y, b, cur < 0 ? VIZ_ROLE_HIGHLIGHT : VIZ_ROLE_VALUE, 0);
        int x1 = ax + g->right;
        for (int x = ax + g->left; x < x1; x++) canvas_put(c, x, y, G_WIRE, VIZ_ROLE_DIM, 0);
        for (int s = g->s_lo; s <= g->s_hi && s < done; s++) {
            int x = ax + g->x[s - g->s_lo];
            canvas_hline(c, x, y, step_width(m, g, s), G_WIRE, VIZ_ROLE_TEXT, 0);
        }
    }
    /* links: later steps (their place), earlier ones, then the current one */
    for (int s = g->s_lo; s <= g->s_hi; s++)
        if (s >= done) draw_step_links(c, m, g, s, ax, y0, 1);
    for (int s = g->s_lo; s <= g->s_hi; s++)
        if (s < done && s != cur) draw_step_links(c, m, g, s, ax, y0, cur >= S ? -2 : -1);
    if (cur >= 0 && cur < S && cur >= g->s_lo && cur <= g->s_hi) draw_step_links(c, m, g, cur, ax, y0, 0);
    /* keys on the wires after each step */
    if (g->inl)
        for (int s = g->s_lo; s <= g->s_hi && s < done; s++) {
            int x = ax + g->x[s - g->s_lo] + step_width(m, g, s) - g->vw - 1;
            for (long long i = 0; i < n; i++) {
                size_t ci = (size_t)s * (size_t)n + (size_t)i;
                int moved = (m->flag[ci] & W_SWAP) != 0;
                fmt_key(m, m->val[(size_t)(s + 1) * (size_t)n + (size_t)i], g->vw, b, sizeof b);
                int last = s == cur || (cur >= S && s == S - 1);
                int role = s == cur && moved ? VIZ_ROLE_SWAPPED : VIZ_ROLE_VALUE;
                canvas_text(c, x, y0 + (int)i, b, role, last ? 0 : VIZ_DIMMED);
            }
        }
    /* at the right: the keys now (when not on the wires) and who did the pair */
    for (long long i = 0; i < n; i++) {
        int y = y0 + (int)i, x = ax + g->right + 1;
        const double *now = m->val + (size_t)(cur < 0 ? 0 : done) * (size_t)n;
        if (!g->inl) {
            int moved = cur >= 0 && cur < S && (m->flag[(size_t)cur * (size_t)n + (size_t)i] & W_SWAP);
            fmt_key(m, now[i], g->vw, b, sizeof b);
            x = canvas_text(c, x, y, b, moved ? VIZ_ROLE_SWAPPED : VIZ_ROLE_VALUE, 0) + 1;
        }
        if (cur < 0 || cur >= S) continue;
        size_t ci = (size_t)cur * (size_t)n + (size_t)i;
        unsigned char f = m->flag[ci];
        if (!(f & (W_PAIR | W_IDLE))) continue;
        /* o: the wire's own thread, working or idle; else the pair's thread */
        int idle = (f & W_IDLE) != 0;
        snprintf(b, sizeof b, idle ? _("b%d t%d idle") : "b%d t%d", m->blk[ci], m->thr[ci]);
        canvas_text(c, x, y, b, idle ? VIZ_ROLE_IDLE : viz_block_role(m->blk[ci]), 0);
    }
}

/* One row per band of wires: the overview of a large network. */
static void draw_bands(canvas *c, const bmodel *m, const geom *g, viz_rect area, int cur)
{
    const long long n = m->n;
    const int S = m->S, R = g->bands, wpb = g->wpb;
    const int ax = area.x, y0 = area.y + g->header;
    const int done = cur >= S ? S : cur + 1;
    char b[64];
    canvas_text(c, ax, area.y, _("log2 k"), VIZ_ROLE_DIM, 0);
    for (int s = g->s_lo; s <= g->s_hi; s++) {
        const bstep *st = &m->st[s];
        int x = ax + g->x[s - g->s_lo];
        if (st->j == st->k / 2) {
            int lk = 0;
            while ((1LL << (lk + 1)) <= st->k) lk++;
            canvas_printf(c, x, area.y, cur >= 0 && cur < S && m->st[cur].k == st->k ? VIZ_ROLE_HEADING : VIZ_ROLE_DIM,
                          0, "%d", lk);
        }
        if (s == cur) canvas_put(c, x, area.y + 1, G_DOWN, VIZ_ROLE_HIGHLIGHT, 0);
    }
    if (g->s_lo > 0) canvas_put(c, ax + g->left, area.y + 1, 0x2026, VIZ_ROLE_DIM, 0);
    if (g->s_hi < S - 1) canvas_put(c, ax + g->right - 1, area.y + 1, 0x2026, VIZ_ROLE_DIM, 0);
    const double *now = m->val + (size_t)(cur < 0 ? 0 : done) * (size_t)n;
    for (int r = 0; r < R; r++) {
        int y = y0 + r;
        long long lo = (long long)r * wpb, hi = lo + wpb - 1;
        snprintf(b, sizeof b, "%lld\u2013%lld", lo, hi);
        if (wpb == 1) snprintf(b, sizeof b, "%lld", lo);
        canvas_textn(c, ax, y, g->left - 1, b, VIZ_ROLE_DIM, 0);
        for (int s = g->s_lo; s <= g->s_hi; s++) {
            int x = ax + g->x[s - g->s_lo];
            if (s >= done) {
                canvas_put(c, x, y, 0x00b7, VIZ_ROLE_DIM, 0);
                continue;
            }
            int nasc = 0, ndesc = 0, nsw = 0, np = 0;
            for (long long i = lo; i <= hi; i++) {
                unsigned char f = m->flag[(size_t)s * (size_t)n + (size_t)i];
                if (!(f & W_PAIR)) continue;
                np++;
                if (f & W_ASC) nasc++;
                else ndesc++;
                if (f & W_SWAP) nsw++;
            }
            if (!np) {
                canvas_put(c, x, y, ' ', VIZ_ROLE_DIM, 0);
                continue;
            }
            uint32_t gl = nasc && ndesc ? 0x2573 : nasc ? G_DOWN : G_UP;
            int level = (int)((double)nsw / np * (VIZ_NHEAT_ROLES - 1) + 0.5);
            canvas_put(c, x, y, gl, viz_heat_role(level), s == cur ? VIZ_BOLD | VIZ_UNDERLINE : 0);
        }
        double mn = now[lo], mx = now[lo];
        int up = 1, down = 1;
        for (long long i = lo + 1; i <= hi; i++) {
            if (now[i] < mn) mn = now[i];
            if (now[i] > mx) mx = now[i];
            if (now[i] < now[i - 1]) up = 0;
            if (now[i] > now[i - 1]) down = 0;
        }
        char v1[32], v2[32];
        fmt_key(m, mn, g->vw, v1, sizeof v1);
        fmt_key(m, mx, g->vw, v2, sizeof v2);
        int x = ax + g->right + 1;
        x = canvas_printf(c, x, y, VIZ_ROLE_VALUE, 0, "%s..%s ", v1, v2);
        canvas_put(c, x, y, up && !down ? 0x2191 : down && !up ? 0x2193 : up ? '=' : '~',
                   up || down ? VIZ_ROLE_OK : VIZ_ROLE_DIM, 0);
    }
}

/* Under the columns: kernel, memory and launch of every step. */
static void draw_footer(canvas *c, const bmodel *m, const geom *g, viz_rect area, int cur, int y)
{
    const int ax = area.x;
    int lastx = ax;
    canvas_text(c, ax, y, _("kernel"), VIZ_ROLE_DIM, 0);
    canvas_text(c, ax, y + 1, _("memory"), VIZ_ROLE_DIM, 0);
    canvas_text(c, ax, y + 2, _("launch"), VIZ_ROLE_DIM, 0);
    for (int s = g->s_lo; s <= g->s_hi; s++) {
        const bstep *st = &m->st[s];
        int w = step_width(m, g, s);
        int lw = g->bands ? 1 : w - (g->inl ? g->vw + 1 : 0); /* the links' part */
        int x = ax + g->x[s - g->s_lo] + (lw - 1) / 2;
        int role = s == cur ? VIZ_ROLE_HIGHLIGHT : s < cur || cur >= m->S ? VIZ_ROLE_TEXT : VIZ_ROLE_DIM;
        canvas_put(c, x, y, (uint32_t)bmodel_role_letter(st->role), role, 0);
        canvas_put(c, x, y + 1, (uint32_t)bmodel_space_letter(st->space), role, 0);
        if (st->launch_lo >= 0 && (s == g->s_lo || m->st[s - 1].launch_lo != st->launch_lo)) {
            /* a launch number is written at the first step it does, under the
             * same column as the letters above it, if it fits */
            char b[16];
            snprintf(b, sizeof b, "%d", st->launch_lo);
            int bw = (int)strlen(b);
            int lx = x - (bw - 1) / 2;
            if (lx < ax + g->left) lx = ax + g->left;
            if (lx >= lastx) lastx = canvas_text(c, lx, y + 2, b, role, 0) + 1;
        }
    }
    /* what the letters mean, right of the columns: only the ones used */
    unsigned roles = 0, spaces = 0;
    for (int s = 0; s < m->S; s++) {
        roles |= 1u << (m->st[s].role & 15);
        spaces |= 1u << (m->st[s].space & 15);
    }
    char k1[512] = "", k2[512] = "";
    static const int role_order[] = {BITONIC_ROLE_STEP, BITONIC_ROLE_START, BITONIC_ROLE_MIDDLE, BITONIC_ROLE_FINISH};
    static const char *const role_short[] = {N_("one launch per step"), N_("start"), N_("middle"), N_("finish")};
    for (int i = 0; i < 4; i++)
        if (roles & (1u << role_order[i])) {
            size_t l = strlen(k1);
            snprintf(k1 + l, sizeof k1 - l, "%s%c: %s", l ? ", " : "", bmodel_role_letter(role_order[i]), _(role_short[i]));
        }
    static const int sp_order[] = {LAB_SP_GLOBAL, LAB_SP_SHARED, LAB_SP_REG};
    static const char *const sp_short[] = {N_("global"), N_("shared"), N_("registers")};
    for (int i = 0; i < 3; i++)
        if (spaces & (1u << sp_order[i])) {
            size_t l = strlen(k2);
            snprintf(k2 + l, sizeof k2 - l, "%s%c: %s", l ? ", " : "", bmodel_space_letter(sp_order[i]), _(sp_short[i]));
        }
    int kx = ax + g->right + 3, room = area.x + area.w - kx;
    if (room >= viz_text_width(k1)) canvas_text(c, kx, y, k1, VIZ_ROLE_DIM, 0);
    if (room >= viz_text_width(k2)) canvas_text(c, kx, y + 1, k2, VIZ_ROLE_DIM, 0);
}

static void draw_legend(canvas *c, const bmodel *m, const geom *g, viz_rect area, int y)
{
    int x = area.x, xe = area.x + area.w;
    struct item {
        uint32_t glyph;
        int role;
        const char *text;
    } wires[] = {
        {G_DOWN, VIZ_ROLE_SOURCE, N_(" larger key down  ")},
        {G_UP, VIZ_ROLE_ARROW, N_(" larger key up  ")},
        {G_MOVED, VIZ_ROLE_SWAPPED, N_(" swapped  ")},
        {G_KEPT, VIZ_ROLE_TEXT, N_(" kept  ")},
    },
      bands[] = {
        {G_DOWN, VIZ_ROLE_TEXT, N_(" up  ")},
        {G_UP, VIZ_ROLE_TEXT, N_(" down  ")},
        {0x2573, VIZ_ROLE_TEXT, N_(" both  ")},
        {0x2588, VIZ_ROLE_HEAT7, N_(" all swapped  ")},
        {0x2588, VIZ_ROLE_HEAT0, N_(" none  ")},
    };
    const struct item *it = g->bands ? bands : wires;
    int nit = g->bands ? 5 : 4;
    for (int i = 0; i < nit; i++) {
        const char *text = _(it[i].text);
        int need = 1 + viz_text_width(text);
        if (x + need > xe) return;
        canvas_put(c, x, y, it[i].glyph, it[i].role, 0);
        x = canvas_text(c, x + 1, y, text, VIZ_ROLE_DIM, 0);
    }
    (void)m; /* the kernel and memory letters are explained beside the footer */
}

/* ------------------------------------------------------------ words */

static void describe(const bmodel *m, int frame, viz_frame_info *info)
{
    const lab_trace *t = m->t;
    const int S = m->S;
    const char *v = t->variant;
    if (frame == 0) {
        viz_info_title(info, _("input"));
        const char *how = strcmp(v, "o") == 0 ? _("variant o launches one kernel per step with one thread per key")
                        : strcmp(v, "ov") == 0 ? _("variant ov launches one kernel per step with one thread per pair")
                        : strcmp(v, "n") == 0 ? _("variant n sorts block-sized slices with block barriers and launches only the long-distance steps")
                        : strcmp(v, "nl") == 0 ? _("variant nl does as n, with the block-sized slices in shared memory")
                        : strcmp(v, "fast") == 0 ? _("variant fast does several steps per trip to memory, in registers")
                        : _("each step is n/2 compare-exchanges");
        viz_info_caption(info,
                         _("%lld keys, one per wire: the network sorts them in %d steps, grouped by the "
                           "length k of the slices being sorted (2, 4, ..., %lld); %s."),
                         m->n, S, m->n, how);
        viz_info_counter(info, "steps", S, NULL);
        viz_info_counter(info, "launches", t->nlaunches, NULL);
        return;
    }
    if (frame > S) {
        const double *fin = m->val + (size_t)S * (size_t)m->n;
        long long wrong = 0;
        for (long long i = 0; i < m->n; i++)
            if (fin[i] != m->sorted[i]) wrong++;
        viz_info_title(info, "%s", wrong ? _("not sorted") : _("sorted"));
        if (wrong)
            viz_info_caption(info,
                             _("The keys on the wires are not the sorted input: %lld of %lld differ from "
                               "a sort of the same input on the CPU."),
                             wrong, m->n);
        else
            viz_info_caption(info,
                             _("Sorted: after the last step (k = %lld, j = 1) the whole array is one "
                               "ascending run, the same as a sort of the input on the CPU."),
                             m->n);
        long long cs = 0, sw = 0;
        for (int s = 0; s < S; s++) cs += m->st[s].ncs, sw += m->st[s].nswap;
        viz_info_counter(info, "compare-exchanges", cs, NULL);
        viz_info_counter(info, "swapped", sw, NULL);
        viz_info_counter(info, "launches", t->nlaunches, NULL);
        viz_info_counter(info, "keys out of place", wrong, NULL);
        return;
    }
    const bstep *st = &m->st[frame - 1];
    const long long k = st->k, j = st->j;
    viz_info_title(info, "k=%lld j=%lld", k, j);
    char what[512], why[512], who[512];
    if (k == m->n)
        snprintf(what, sizeof what,
                 _("k = %lld, j = %lld: each key i1 with i1 & %lld = 0 is compared with "
                   "i1 + %lld and the larger goes down: the whole array goes up."),
                 k, j, j, j);
    else
        snprintf(what, sizeof what,
                 _("k = %lld, j = %lld: each key i1 with i1 & %lld = 0 is compared with "
                   "i1 + %lld; in even slices of %lld (i1 & %lld = 0) the larger goes down, in odd ones up."),
                 k, j, j, j, k, k);
    if (k == 2)
        snprintf(why, sizeof why, "%s",
                 _("Any two keys are bitonic, so each neighbour pair is now sorted, alternately up and down."));
    else if (j == k / 2)
        snprintf(why, sizeof why,
                 _("Bitonic here: the slices of %lld are sorted alternately up and down, so each "
                   "slice of %lld rises then falls; comparing its halves leaves two bitonic halves, the "
                   "smaller keys on one side."),
                 k / 2, k);
    else if (j == 1)
        snprintf(why, sizeof why,
                 _("Each piece of %lld keys from the previous step is still bitonic, so the same "
                   "split at half the distance goes on merging; after j = 1 every slice is sorted."),
                 2 * j);
    else
        snprintf(why, sizeof why,
                 _("Each piece of %lld keys from the previous step is still bitonic, so the same "
                   "split at half the distance goes on merging."),
                 2 * j);
    who[0] = 0;
    /* TRANSLATORS: the third sentence of a caption, after a space */
    if (st->ncs == 0) {
        snprintf(who, sizeof who, "%s", _(" The trace holds no compare-exchange of this step."));
    } else if (m->is_o) {
        snprintf(who, sizeof who,
                 _(" %d threads, one per key: %d compare, %d sit idle because their partner "
                   "has the smaller index and its thread does the pair."),
                 st->ncs + st->nidle, st->ncs, st->nidle);
    } else {
        char blocks[48];
        if (st->blk_lo == st->blk_hi) snprintf(blocks, sizeof blocks, _("block %lld"), st->blk_lo);
        else snprintf(blocks, sizeof blocks, _("blocks %lld-%lld"), st->blk_lo, st->blk_hi);
        /* TRANSLATORS: " Done by the start kernel, blocks 0-3, in registers: 4 steps per trip to shared memory." */
        if (st->round_c > 0)
            snprintf(who, sizeof who,
                     ngettext(" Done by %s, %s, in registers: %d step per trip to %s.",
                              " Done by %s, %s, in registers: %d steps per trip to %s.", (unsigned long)st->round_c),
                     bmodel_role_word(st->role), blocks, st->round_c, bmodel_space_word(st->round_space));
        else
            snprintf(who, sizeof who, _(" Done by %s (launch %d), %s, keys in %s."), bmodel_role_word(st->role),
                     st->launch_lo, blocks, bmodel_space_word(st->space));
    }
    viz_info_caption(info, "%s %s%s", what, why, who);
    viz_info_counter(info, "compare-exchanges", st->ncs, NULL);
    viz_info_counter(info, "swapped", st->nswap, NULL);
    viz_info_counter(info, "idle threads", m->is_o ? st->nidle : VIZ_COUNTER_NONE, NULL);
    viz_info_counter(info, "launch", st->launch_lo >= 0 ? st->launch_lo : VIZ_COUNTER_NONE, NULL);
    viz_info_counter(info, "blocks", st->blk_lo >= 0 ? st->blk_hi - st->blk_lo + 1 : VIZ_COUNTER_NONE, NULL);
}

/* ------------------------------------------------------------ interface */

static int bitonic_frames(const lab_trace *t)
{
    if (t->n < 1 || !lab_is_pow2(t->n)) return 1;
    return bitonic_nsteps(t->n) + 2;
}

static void bitonic_draw(const lab_trace *t, int frame, canvas *c, viz_rect area, viz_frame_info *info)
{
    area = viz_rect_intersect(area, canvas_bounds(c));
    if (area.w <= 0 || area.h <= 0) return;
    viz_rect old = canvas_set_clip(c, area);
    bmodel m;
    if (bmodel_build(&m, t) != 0) {
        canvas_text(c, area.x, area.y, _("out of memory while reading the trace"), VIZ_ROLE_WRONG, 0);
        canvas_set_clip(c, old);
        return;
    }
    if (!m.ok) {
        viz_info_title(info, _("no network"));
        viz_info_caption(info, _("A bitonic network needs a power-of-two number of keys; this trace has %lld."), t->n);
        canvas_printf(c, area.x, area.y, VIZ_ROLE_WRONG, 0, _("n = %lld is not a power of two"), t->n);
        canvas_set_clip(c, old);
        bmodel_free(&m);
        return;
    }
    if (frame < 0) frame = 0;
    if (frame > m.S + 1) frame = m.S + 1;
    describe(&m, frame, info);
    if (t->truncated || m.stray) {
        size_t l = strlen(info->caption);
        snprintf(info->caption + l, sizeof info->caption - l, "%s",
                 t->truncated ? _(" (The trace is incomplete: events were dropped at the recording cap.)")
                              : _(" (The trace is incomplete: some events fit no step.)"));
    }
    int cur = frame - 1; /* -1 input, S final */
    geom g;
    layout(&m, cur, area.w, area.h, &g);
    int rows = g.bands ? g.bands : (int)m.n;
    if (g.bands) draw_bands(c, &m, &g, area, cur);
    else draw_wires(c, &m, &g, area, cur);
    int y = area.y + g.header + rows + (g.bands ? 1 : g.blank);
    if (m.S > 0 && g.footer) draw_footer(c, &m, &g, area, cur, y);
    if (g.legend) draw_legend(c, &m, &g, area, y + g.footer);
    canvas_set_clip(c, old);
    bmodel_free(&m);
}

static int bitonic_height(const lab_trace *t, int width)
{
    (void)width;
    long long n = t->n;
    int rows = n <= WIRE_MAX_N ? (int)n : BANDS_MAX;
    return rows + 2 + 1 + 3 + 1;
}

const viz_renderer viz_render_bitonic = {
    .algos = "bitonic",
    .name = "butterfly network",
    .frames = bitonic_frames,
    .draw = bitonic_draw,
    .height = bitonic_height,
    .min_w = 40,
    .min_h = 12,
};
