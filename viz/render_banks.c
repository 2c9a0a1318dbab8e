/* render_banks.c - shared-memory banks, one warp access at a time.
 *
 * Shared memory is 32 banks of 4-byte words: word w is in bank w mod 32, and
 * a bank serves one word per pass. A warp's access is served in phases of 128
 * bytes: one phase of 32 lanes for elements of up to 4 bytes, two of 16 lanes
 * for 8-byte elements (each takes two neighbouring banks), four of 8 for
 * 16-byte ones (as docs/profile.md "Wavefronts" and the simulator's counters
 * model it). When the lanes of one phase touch different words of one bank
 * they take turns: a bank conflict. This renderer shows,
 * for the first two warps of block 0 of launch 0 (the others do the same),
 * every warp instruction that touches shared memory (in the order of the
 * kernel: a barrier epoch, then the k-th shared access of each thread in it,
 * then the warp), as
 *   - the tile: the shared array as rows of its width, the words this warp
 *     touches marked (with the width read from the trace: 32, or 33 with a
 *     padding column);
 *   - the banks: 32 columns, one row per pass (the passes of the phases one
 *     after another), the lane served in each.
 * A last frame sums up the worst access of each kind.
 *
 * It draws the transpose family's traces that touch shared memory (the tiled
 * kernels); a trace without shared accesses is drawn by the coverage map. */
#include "viz/intl.h"
#include "viz/render.h"

#include <stdlib.h>
#include <string.h>

#define WARP 32
#define NBANKS 32

extern const viz_renderer viz_render_coverage;

typedef struct bacc {
    uint32_t epoch, ord, warp;
    int write;
    int lane[WARP], idx[WARP], n; /* the lanes and their shared indices */
} bacc;

typedef struct bmodel {
    const lab_trace *t;
    bacc *acc;
    int nacc;
    int cols, rows;  /* the shared array as rows of cols words */
    int es;          /* bytes per element */
} bmodel;

static int ev_cmp(const void *a, const void *b)
{
    const lab_event *x = *(const lab_event *const *)a, *y = *(const lab_event *const *)b;
    if (x->thread / WARP != y->thread / WARP) return x->thread / WARP < y->thread / WARP ? -1 : 1;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    if (x->epoch != y->epoch) return x->epoch < y->epoch ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int acc_cmp(const void *a, const void *b)
{
    const bacc *x = a, *y = b;
    if (x->epoch != y->epoch) return x->epoch < y->epoch ? -1 : 1;
    if (x->ord != y->ord) return x->ord < y->ord ? -1 : 1;
    return x->warp < y->warp ? -1 : x->warp > y->warp;
}

/* The warps shown: every warp of a block does the same, so two are enough. */
#define SHOWN_WARPS 2

static int is_shared(const lab_event *e)
{
    return e->launch == 0 && e->block == 0 && e->space == LAB_SP_SHARED && e->a >= 0 &&
           (e->kind == LAB_EV_READ || e->kind == LAB_EV_WRITE);
}

static void model_free(bmodel *m)
{
    free(m->acc);
    memset(m, 0, sizeof *m);
}

/* 0, or -1 out of memory. A trace without shared accesses gives nacc = 0. */
static int model_build(bmodel *m, const lab_trace *t)
{
    memset(m, 0, sizeof *m);
    m->t = t;
    m->es = t->smem_elem_bytes > 0 ? t->smem_elem_bytes : 4;
    size_t n = 0;
    int maxidx = 0;
    for (size_t i = 0; i < t->count; i++)
        if (is_shared(&t->ev[i])) {
            n++;
            if (t->ev[i].a > maxidx) maxidx = t->ev[i].a;
        }
    if (n == 0) return 0;
    const lab_event **ev = malloc(n * sizeof *ev);
    m->acc = calloc(n, sizeof *m->acc); /* at most one access per event */
    if (!ev || !m->acc) {
        free(ev);
        model_free(m);
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < t->count; i++)
        if (is_shared(&t->ev[i]) && t->ev[i].thread / WARP < SHOWN_WARPS) ev[k++] = &t->ev[i];
    n = k;
    qsort(ev, n, sizeof *ev, ev_cmp);
    /* the k-th shared access of each thread in an epoch, grouped per warp */
    uint32_t cur_t = ~0u, cur_e = ~0u, ord = 0;
    for (size_t i = 0; i < n; i++) {
        const lab_event *e = ev[i];
        if (e->thread != cur_t || e->epoch != cur_e) {
            cur_t = e->thread;
            cur_e = e->epoch;
            ord = 0;
        }
        bacc key = {.epoch = e->epoch, .ord = ord++, .warp = e->thread / WARP};
        bacc *a = NULL;
        for (int j = m->nacc - 1; j >= 0 && !a; j--) /* same warp: recent entries */
            if (m->acc[j].warp != key.warp) break;
            else if (m->acc[j].epoch == key.epoch && m->acc[j].ord == key.ord) a = &m->acc[j];
        if (!a) {
            a = &m->acc[m->nacc++];
            *a = key;
            a->write = e->kind == LAB_EV_WRITE;
        }
        if (a->n < WARP) {
            a->lane[a->n] = (int)(e->thread % WARP);
            a->idx[a->n] = e->a;
            a->n++;
        }
    }
    free(ev);
    qsort(m->acc, (size_t)m->nacc, sizeof *m->acc, acc_cmp);
    /* the width of a row: 32 elements' worth of words, or what the
     * indices show (a padded tile's rows are longer) */
    int words = maxidx + 1;
    /* a padded row holds 33 words of which the 33rd is never touched; a kernel may
     * keep several tiles, so look for an access to a 33rd word, not at the size */
    int padded = words > 32 * 32;
    for (int j = 0; j < m->nacc && padded; j++)
        for (int i = 0; i < m->acc[j].n && padded; i++)
            if (m->acc[j].idx[i] % 33 == 32) padded = 0;
    m->cols = padded ? 33 : 32;
    m->rows = lab_ceil_div(words, m->cols);
    return 0;
}

/* The passes of one access, as the hardware serves it: the warp's lanes go
 * in phases of 128 bytes (all 32 lanes for elements of up to 4 bytes, 16 for
 * 8-byte elements, 8 for 16-byte ones); in a phase each bank serves one word
 * per pass, lanes on one word share it, and an element of 8 bytes takes two
 * words, so two neighbouring banks. The phases follow one another, so pass
 * rows of one phase come after those of the phase before: lane[b][p] is the
 * lane served by bank b in pass p (-1: the bank is idle in that pass). */
typedef struct banks {
    int npass[NBANKS];    /* the last pass row + 1 that bank b serves in */
    int lane[NBANKS][WARP];
    int passes;           /* passes of the whole access: the sum over its phases */
    int phases;           /* phases that have an active lane */
    int phase_lanes;      /* lanes per phase */
    int ways;             /* the most passes one phase takes: its conflict degree */
    int used;             /* distinct banks the access touches */
    int used_phase;       /* the fewest banks one phase touches (of the phases with lanes) */
} banks;

static int phase_lanes(const bmodel *m) { return m->es > 4 ? WARP * 4 / m->es : WARP; }

static void bank_fill(const bmodel *m, const bacc *a, banks *b)
{
    memset(b, 0, sizeof *b);
    for (int k = 0; k < NBANKS; k++)
        for (int p = 0; p < WARP; p++) b->lane[k][p] = -1;
    const int per = phase_lanes(m), nphase = WARP / per;
    const int wpe = m->es > 4 ? m->es / 4 : 1; /* words per element */
    int used[NBANKS] = {0};
    b->phase_lanes = per;
    b->used_phase = NBANKS;
    int row = 0;
    for (int ph = 0; ph < nphase; ph++) {
        long long word[NBANKS][WARP];
        int nw[NBANKS] = {0}, any = 0;
        for (int i = 0; i < a->n; i++) {
            if (a->lane[i] / per != ph) continue;
            any = 1;
            for (int k = 0; k < wpe; k++) {
                long long w = (long long)a->idx[i] * m->es / 4 + k;
                int bk = (int)(w % NBANKS), seen = -1;
                for (int p = 0; p < nw[bk] && seen < 0; p++)
                    if (word[bk][p] == w) seen = p; /* a broadcast */
                if (seen >= 0 || nw[bk] >= WARP) continue;
                word[bk][nw[bk]] = w;
                if (row + nw[bk] < WARP) b->lane[bk][row + nw[bk]] = a->lane[i];
                nw[bk]++;
                used[bk] = 1;
            }
        }
        if (!any) continue;
        int ways = 0, banks_here = 0;
        for (int k = 0; k < NBANKS; k++) {
            if (nw[k] > ways) ways = nw[k];
            banks_here += nw[k] > 0;
            if (nw[k] > 0 && row + nw[k] > b->npass[k]) b->npass[k] = row + nw[k] > WARP ? WARP : row + nw[k];
        }
        if (banks_here < b->used_phase) b->used_phase = banks_here;
        if (ways > b->ways) b->ways = ways;
        b->phases++;
        row += ways;
    }
    b->passes = row;
    for (int k = 0; k < NBANKS; k++) b->used += used[k];
    if (b->phases == 0) b->used_phase = 0;
}

/* A conflict: some phase takes more than one pass. */
static int conflicted(const banks *b) { return b->ways > 1; }

/* "32 banks" and " 1 bank " (padded, so the columns of the list stay), "2 passes". */
static const char *banks_text(int n)
{
    static char b[48];
    snprintf(b, sizeof b, ngettext("%2d bank ", "%2d banks", (unsigned long)n), n);
    return b;
}

static const char *passes_text(int n)
{
    static char b[48];
    snprintf(b, sizeof b, ngettext("%2d pass", "%2d passes", (unsigned long)n), n);
    return b;
}

/* ------------------------------------------------------------ captions */

static void describe(const bmodel *m, int fi, viz_frame_info *info)
{
    if (fi >= m->nacc) {
        int wr = 0, rd = 0, conflicts = 0;
        for (int i = 0; i < m->nacc; i++) {
            banks b;
            bank_fill(m, &m->acc[i], &b);
            if (m->acc[i].write && b.passes > wr) wr = b.passes;
            if (!m->acc[i].write && b.passes > rd) rd = b.passes;
            conflicts |= conflicted(&b);
        }
        viz_info_title(info, "%s", _("summary"));
        /* TRANSLATORS: "a tile 32 elements wide (8-byte elements, 64 words a row)"; the last %s is a second
         * sentence */
        viz_info_caption(info,
                         ngettext("Warps 0 and 1 of block 0: %d accesses to a tile %d elements wide (%d-byte "
                                  "elements, %d words a row); the worst write takes %d pass, the worst read %d. %s",
                                  "Warps 0 and 1 of block 0: %d accesses to a tile %d elements wide (%d-byte "
                                  "elements, %d words a row); the worst write takes %d passes, the worst read %d. %s",
                                  (unsigned long)wr),
                         m->nacc, m->cols, m->es, m->cols * (m->es > 4 ? m->es / 4 : 1), wr, rd,
                         conflicts ? _("Passes beyond one per 128-byte phase are bank conflicts: the lanes of a "
                                       "warp wait for each other.")
                                   : _("Every access takes one pass per 128-byte phase, the fewest its element "
                                       "size allows: no bank conflicts."));
        viz_info_counter(info, "accesses", m->nacc, NULL);
        viz_info_counter(info, "worst write", wr, N_(" passes"));
        viz_info_counter(info, "worst read", rd, N_(" passes"));
        return;
    }
    const bacc *a = &m->acc[fi];
    banks b;
    bank_fill(m, a, &b);
    if (a->write) viz_info_title(info, _("warp %u stores"), a->warp);
    else viz_info_title(info, _("warp %u loads"), a->warp);
    int d = a->n > 1 ? a->idx[1] - a->idx[0] : 1;
    for (int i = 2; i < a->n; i++)
        if (a->idx[i] - a->idx[i - 1] != d) d = 0;
    char along[256];
    if (d == 1)
        snprintf(along, sizeof along, _("row %d of the tile, %d neighbouring elements"), a->idx[0] / m->cols,
                 a->n);
    else if (d == m->cols)
        snprintf(along, sizeof along, _("column %d of the tile, %d elements apart (the row width)"),
                 a->idx[0] % m->cols, d);
    else if (d > 0)
        snprintf(along, sizeof along, _("%d elements, %d apart"), a->n, d);
    else
        snprintf(along, sizeof along, _("%d elements"), a->n);
    const int wpe = m->es > 4 ? m->es / 4 : 1;
    if (wpe == 1) {
        /* TRANSLATORS: "Warp 0 writes row 0 of the tile, 32 neighbouring elements: its 32 lanes ..." */
        if (!conflicted(&b))
            viz_info_caption(info,
                             a->write ? ngettext("Warp %u writes %s: its %d lanes fall in %d different banks, so the "
                                                 "access takes %d pass, no bank conflict.",
                                                 "Warp %u writes %s: its %d lanes fall in %d different banks, so the "
                                                 "access takes %d passes, no bank conflict.",
                                                 (unsigned long)b.passes)
                                      : ngettext("Warp %u reads %s: its %d lanes fall in %d different banks, so the "
                                                 "access takes %d pass, no bank conflict.",
                                                 "Warp %u reads %s: its %d lanes fall in %d different banks, so the "
                                                 "access takes %d passes, no bank conflict.",
                                                 (unsigned long)b.passes),
                             a->warp, along, a->n, b.used, b.passes);
        else
            viz_info_caption(info,
                             a->write ? ngettext("Warp %u writes %s: its %d lanes fall in only %d bank, which serves "
                                                 "one word per pass, so the access takes %d passes: a %d-way bank "
                                                 "conflict.",
                                                 "Warp %u writes %s: its %d lanes fall in only %d banks, which serve "
                                                 "one word per pass, so the access takes %d passes: a %d-way bank "
                                                 "conflict.",
                                                 (unsigned long)b.used)
                                      : ngettext("Warp %u reads %s: its %d lanes fall in only %d bank, which serves "
                                                 "one word per pass, so the access takes %d passes: a %d-way bank "
                                                 "conflict.",
                                                 "Warp %u reads %s: its %d lanes fall in only %d banks, which serve "
                                                 "one word per pass, so the access takes %d passes: a %d-way bank "
                                                 "conflict.",
                                                 (unsigned long)b.used),
                             a->warp, along, a->n, b.used, b.passes, b.ways);
    } else {
        /* elements wider than a bank: a warp goes in phases of 128 bytes */
        char how[256];
        /* TRANSLATORS: "each 8-byte element takes 2 neighbouring banks, so the warp's 32 lanes go in 2 phases of 16
         * lanes" */
        snprintf(how, sizeof how,
                 _("each %d-byte element takes %d neighbouring banks, so the warp's %d lanes go in %d phases of %d "
                   "lanes (128 bytes a phase)"),
                 m->es, wpe, a->n, b.phases, b.phase_lanes);
        /* TRANSLATORS: "Warp 0 reads column 0 of the tile, ...: each 8-byte element takes 2 neighbouring banks,
         * ...; in each phase they fall in 32 different banks, ..." */
        if (!conflicted(&b))
            viz_info_caption(info,
                             a->write ? ngettext("Warp %u writes %s: %s; in each phase they fall in %d different "
                                                 "banks, one word each, so the access takes %d pass, one per "
                                                 "phase: no bank conflict.",
                                                 "Warp %u writes %s: %s; in each phase they fall in %d different "
                                                 "banks, one word each, so the access takes %d passes, one per "
                                                 "phase: no bank conflict.",
                                                 (unsigned long)b.passes)
                                      : ngettext("Warp %u reads %s: %s; in each phase they fall in %d different "
                                                 "banks, one word each, so the access takes %d pass, one per "
                                                 "phase: no bank conflict.",
                                                 "Warp %u reads %s: %s; in each phase they fall in %d different "
                                                 "banks, one word each, so the access takes %d passes, one per "
                                                 "phase: no bank conflict.",
                                                 (unsigned long)b.passes),
                             a->warp, along, how, b.used_phase, b.passes);
        else
            viz_info_caption(info,
                             a->write ? _("Warp %u writes %s: %s; in a phase they fall in only %d banks, which "
                                          "serve one word per pass, so a phase takes up to %d passes and the "
                                          "access %d where %d would do: a %d-way bank conflict.")
                                      : _("Warp %u reads %s: %s; in a phase they fall in only %d banks, which "
                                          "serve one word per pass, so a phase takes up to %d passes and the "
                                          "access %d where %d would do: a %d-way bank conflict."),
                             a->warp, along, how, b.used_phase, b.ways, b.passes, b.phases, b.ways);
    }
    viz_info_counter(info, "lanes", a->n, NULL);
    viz_info_counter(info, "banks used", b.used, NULL);
    viz_info_counter(info, "passes", b.passes, NULL);
    if (wpe > 1) viz_info_counter(info, "phases", b.phases, NULL);
}

/* ------------------------------------------------------------- drawing */

static void draw_tile(canvas *c, const bmodel *m, const bacc *a, viz_rect area, int y, int rows)
{
    int x0 = area.x + 5;
    canvas_text(c, area.x, y, _("tile"), VIZ_ROLE_HEADING, 0);
    /* the rows shown: all of them when they fit, else a window around the
     * rows this access touches, so that the active row is always in view */
    int first = 0;
    if (m->rows > rows && a->n > 0) {
        int lo = a->idx[0] / m->cols, hi = lo;
        for (int i = 1; i < a->n; i++) {
            int r = a->idx[i] / m->cols;
            if (r < lo) lo = r;
            if (r > hi) hi = r;
        }
        first = hi - lo + 1 >= rows ? lo : lo - (rows - (hi - lo + 1)) / 2;
        if (first > m->rows - rows) first = m->rows - rows;
        if (first < 0) first = 0;
    }
    for (int k = 0; k < rows && first + k < m->rows; k++) {
        int r = first + k;
        canvas_printf(c, area.x, y + 1 + k, VIZ_ROLE_DIM, 0, "%3d", r);
        for (int col = 0; col < m->cols && x0 + col < area.x + area.w; col++) {
            int idx = r * m->cols + col, hit = 0;
            for (int i = 0; i < a->n && !hit; i++) hit = a->idx[i] == idx;
            const int pad = col >= 32;
            canvas_put(c, x0 + col, y + 1 + k, hit ? 0x2588 : (pad ? 0x2502 : 0x00b7),
                       hit ? (a->write ? VIZ_ROLE_ACTIVE : VIZ_ROLE_SOURCE) : VIZ_ROLE_DIM, 0);
        }
    }
}

/* Columns the bank table takes with three columns a bank: below this, and
 * at least 6 + NBANKS wide, it shows one column a bank (the lane's last
 * digit), so that two pictures fit side by side at 80 columns. */
#define COMPACT_BELOW (6 + 3 * 16)

static int compact(int w) { return w < COMPACT_BELOW && w >= 6 + NBANKS; }

/* The bank table: header, then one line per pass. Returns lines drawn. */
static int draw_banks(canvas *c, const bmodel *m, const bacc *a, viz_rect area, int y, int maxlines)
{
    banks b;
    bank_fill(m, a, &b);
    int per = (area.w - 6) / 3;
    if (per > NBANKS) per = NBANKS;
    if (per < 8) per = 8;
    int lines = 0;
    if (compact(area.w)) {
        /* one column a bank: a tick every 8 banks, the lane's last digit */
        canvas_text(c, area.x, y, _("bank"), VIZ_ROLE_HEADING, 0);
        for (int k = 0; k < NBANKS; k += 8) canvas_printf(c, area.x + 6 + k, y, VIZ_ROLE_HEADING, 0, "%d", k);
        lines++;
        int passes = 0;
        for (int k = 0; k < NBANKS; k++)
            if (b.npass[k] > passes) passes = b.npass[k];
        for (int p = 0; p < passes && lines < maxlines; p++) {
            if (lines == maxlines - 1 && p < passes - 1) {
                canvas_printf(c, area.x, y + lines, VIZ_ROLE_DIM, 0,
                              ngettext("      \u2026 %d more pass", "      \u2026 %d more passes",
                                       (unsigned long)(passes - p)),
                              passes - p);
                return lines + 1;
            }
            canvas_printf(c, area.x, y + lines, VIZ_ROLE_DIM, 0, "p%-3d", p + 1);
            for (int k = 0; k < NBANKS; k++) {
                if (p < b.npass[k] && b.lane[k][p] >= 0)
                    canvas_put(c, area.x + 6 + k, y + lines, (uint32_t)('0' + b.lane[k][p] % 10),
                               conflicted(&b) ? VIZ_ROLE_CONFLICT : VIZ_ROLE_ACTIVE, 0);
                else
                    canvas_put(c, area.x + 6 + k, y + lines, 0x00b7, VIZ_ROLE_DIM, 0);
            }
            lines++;
        }
        return lines;
    }
    for (int b0 = 0; b0 < NBANKS && lines < maxlines; b0 += per) {
        int x = area.x;
        canvas_text(c, x, y + lines, _("bank"), VIZ_ROLE_HEADING, 0);
        for (int k = b0; k < b0 + per && k < NBANKS; k++)
            canvas_printf(c, x + 6 + 3 * (k - b0), y + lines, VIZ_ROLE_HEADING, 0, "%2d", k);
        lines++;
        int passes = 0;
        for (int k = b0; k < b0 + per && k < NBANKS; k++)
            if (b.npass[k] > passes) passes = b.npass[k];
        for (int p = 0; p < passes && lines < maxlines; p++) {
            if (lines == maxlines - 1 && p < passes - 1) {
                canvas_printf(c, x, y + lines, VIZ_ROLE_DIM, 0,
                              ngettext("      \u2026 %d more pass", "      \u2026 %d more passes",
                                       (unsigned long)(passes - p)),
                              passes - p);
                lines++;
                break;
            }
            canvas_printf(c, x, y + lines, VIZ_ROLE_DIM, 0, "p%-3d", p + 1);
            for (int k = b0; k < b0 + per && k < NBANKS; k++) {
                if (p < b.npass[k] && b.lane[k][p] >= 0)
                    canvas_printf(c, x + 6 + 3 * (k - b0), y + lines,
                                  conflicted(&b) ? VIZ_ROLE_CONFLICT : VIZ_ROLE_ACTIVE, 0, "%2d",
                                  b.lane[k][p]);
                else
                    canvas_text(c, x + 6 + 3 * (k - b0) + 1, y + lines, "\u00b7", VIZ_ROLE_DIM, 0);
            }
            lines++;
        }
    }
    return lines;
}

/* ------------------------------------------------------------ summary */

/* The last frame lists every access: "warp  0 store  32 banks   2 passes". */
static void summary_entry(const bmodel *m, int i, char *buf, size_t len)
{
    banks b;
    bank_fill(m, &m->acc[i], &b);
    snprintf(buf, len, m->acc[i].write ? _("warp %2u store  %s  %s") : _("warp %2u load   %s  %s"), m->acc[i].warp,
             banks_text(b.used), passes_text(b.passes));
}

static int summary_conflicted(const bmodel *m, int i)
{
    banks b;
    bank_fill(m, &m->acc[i], &b);
    return conflicted(&b);
}

/* The list in as many columns as the width holds (three spaces between),
 * filled top to bottom: a 32-access list is two columns of 16 at 80
 * columns, seven of 5 in a wide export, not 32 lines of one. */
static void summary_layout(const bmodel *m, int width, int *colw, int *rows)
{
    int w = 1;
    for (int i = 0; i < m->nacc; i++) {
        char e[128];
        summary_entry(m, i, e, sizeof e);
        int l = viz_text_width(e);
        if (l > w) w = l;
    }
    *colw = w + 3;
    int cols = (width + 3) / *colw;
    if (cols < 1) cols = 1;
    *rows = m->nacc > 0 ? (int)lab_ceil_div(m->nacc, cols) : 1;
}

/* ------------------------------------------------------------ interface */

static int banks_frames(const lab_trace *t)
{
    bmodel m;
    if (model_build(&m, t) != 0) return 1;
    int n = m.nacc;
    model_free(&m);
    return n > 0 ? n + 1 : viz_render_coverage.frames(t);
}

static void banks_draw(const lab_trace *t, int frame, canvas *c, viz_rect area, viz_frame_info *info)
{
    bmodel m;
    if (model_build(&m, t) != 0) {
        canvas_text(c, area.x, area.y, _("out of memory while reading the trace"), VIZ_ROLE_WRONG, 0);
        return;
    }
    if (m.nacc == 0) {
        model_free(&m);
        viz_render_coverage.draw(t, frame, c, area, info);
        return;
    }
    area = viz_rect_intersect(area, canvas_bounds(c));
    if (area.w <= 0 || area.h <= 0) {
        model_free(&m);
        return;
    }
    viz_rect old = canvas_set_clip(c, area);
    if (frame < 0) frame = 0;
    if (frame > m.nacc) frame = m.nacc;
    describe(&m, frame, info);
    const bacc *a = &m.acc[frame < m.nacc ? frame : m.nacc - 1];
    if (frame < m.nacc) {
        int y = area.y;
        int blines = draw_banks(c, &m, a, area, y, area.h);
        y += blines + 1;
        int room = area.y + area.h - y - 1;
        if (room >= 4) draw_tile(c, &m, a, area, y, room);
    } else {
        /* the accesses in the kernel's order, down the columns */
        int colw, rows;
        summary_layout(&m, area.w, &colw, &rows);
        int shown = m.nacc;
        if (rows > area.h) { /* too short: as many as fit, then how many are left out */
            int cols = (area.w + 3) / colw > 0 ? (area.w + 3) / colw : 1;
            rows = area.h;
            shown = cols * rows - 1;
        }
        for (int i = 0; i < shown; i++) {
            int x = area.x + (i / rows) * colw, y = area.y + i % rows;
            char e[128];
            summary_entry(&m, i, e, sizeof e);
            canvas_text(c, x, y, e, summary_conflicted(&m, i) ? VIZ_ROLE_CONFLICT : VIZ_ROLE_TEXT, 0);
        }
        if (shown < m.nacc)
            canvas_printf(c, area.x + (shown / rows) * colw, area.y + shown % rows, VIZ_ROLE_DIM, 0,
                          ngettext("\u2026 %d more access", "\u2026 %d more accesses",
                                   (unsigned long)(m.nacc - shown)),
                          m.nacc - shown);
    }
    canvas_set_clip(c, old);
    model_free(&m);
}

static int banks_height(const lab_trace *t, int width)
{
    bmodel m;
    if (model_build(&m, t) != 0) return 24;
    if (m.nacc == 0) {
        model_free(&m);
        return viz_render_coverage.height ? viz_render_coverage.height(t, width) : 24;
    }
    int per = compact(width) ? NBANKS : (width - 6) / 3;
    if (per > NBANKS) per = NBANKS;
    if (per < 8) per = 8;
    int colw, h;
    summary_layout(&m, width, &colw, &h);
    h++; /* the summary */
    for (int i = 0; i < m.nacc; i++) {
        banks b;
        bank_fill(&m, &m.acc[i], &b);
        int lines = 0;
        for (int b0 = 0; b0 < NBANKS; b0 += per) {
            int passes = 0;
            for (int k = b0; k < b0 + per && k < NBANKS; k++)
                if (b.npass[k] > passes) passes = b.npass[k];
            lines += 1 + passes;
        }
        if (lines + 2 + m.rows + 1 > h) h = lines + 2 + m.rows + 1;
    }
    model_free(&m);
    return h;
}

const viz_renderer viz_render_banks = {
    .algos = "transpose",
    .variants = NULL,
    .name = "shared-memory banks (tiled); coverage map (the others)",
    .frames = banks_frames,
    .draw = banks_draw,
    .height = banks_height,
    .min_w = 38, /* two side by side at 80 columns */
    .min_h = 12,
};
