/* render_sync.c - the generic animation's warp collectives and barriers
 * (access_model.h): what a shuffle, vote, match, reduction or __syncwarp of
 * the step did, lane by lane when zoomed in to it, and the barrier that ends
 * the step with who waited there. */
#include <stdio.h>
#include <string.h>

#include "viz/access_model.h"
#include "viz/intl.h"

enum { MAX_GROUPS = 8 };

void viz_wop_text(const acc_trace *t, const acc_wop *w, char *buf, size_t len)
{
    const char *name = w->site < (unsigned)t->nsites && t->sites[w->site].name[0] ? t->sites[w->site].name : "?";
    if (w->op == ACC_SHFL_UP || w->op == ACC_SHFL_DOWN || w->op == ACC_SHFL_XOR)
        /* TRANSLATORS: "__shfl_down_sync by 16" */
        snprintf(buf, len, _("%s by %u"), name, w->arg);
    else if (w->op == ACC_SHFL_IDX)
        /* TRANSLATORS: "__shfl_sync from lane 0" */
        snprintf(buf, len, _("%s from lane %u"), name, w->arg);
    else if (w->op == ACC_TILE_SYNC)
        /* TRANSLATORS: "thread_block_tile::sync of 128 threads" */
        snprintf(buf, len, _("%s of %u threads"), name, w->arg);
    else
        snprintf(buf, len, "%s", name);
    if (w->width > 0 && w->width < 32 && w->op <= ACC_SHFL_XOR) {
        size_t n = strlen(buf);
        if (n < len) snprintf(buf + n, len - n, _(" (width %d)"), w->width);
    }
}

/* What the operation does to each lane, in one phrase. */
static void wop_effect(const acc_wop *w, const acc_wlane *ln, char *buf, size_t len)
{
    switch (w->op) {
    case ACC_SHFL_IDX: snprintf(buf, len, _("every lane gets lane %u's value"), w->arg); break;
    case ACC_SHFL_UP:
        snprintf(buf, len, _("lane i gets lane i\u2212%u's value (the lanes below %u keep their own)"), w->arg, w->arg);
        break;
    case ACC_SHFL_DOWN:
        snprintf(buf, len, _("lane i gets lane i+%u's value (a lane with no lane i+%u keeps its own)"), w->arg, w->arg);
        break;
    case ACC_SHFL_XOR: snprintf(buf, len, _("lane i gets lane i xor %u's value: pairs swap"), w->arg); break;
    case ACC_BALLOT:
        snprintf(buf, len, _("each lane gets 0x%08llx: a bit for every lane whose predicate is true"),
                 ln ? ln->result : 0ull);
        break;
    case ACC_ANY: snprintf(buf, len, _("each lane gets %llu: is the predicate true in any lane?"), ln ? ln->result : 0ull); break;
    case ACC_ALL: snprintf(buf, len, _("each lane gets %llu: is the predicate true in all lanes?"), ln ? ln->result : 0ull); break;
    case ACC_MATCH_ANY: snprintf(buf, len, "%s", _("each lane gets the mask of the lanes holding the same value")); break;
    case ACC_MATCH_ALL:
        snprintf(buf, len, _("each lane gets 0x%08llx: the mask when all lanes hold the same value, else 0"),
                 ln ? ln->result : 0ull);
        break;
    case ACC_REDUCE: {
        char v[40];
        acc_wop_value_text(ln ? ln->result : 0, v, sizeof v);
        snprintf(buf, len, _("each lane gets %s, computed from every lane's value"), v);
        break;
    }
    case ACC_SYNCWARP:
        snprintf(buf, len, "%s", _("the lanes wait for each other; their memory accesses before it are ordered before those after it"));
        break;
    default:
        snprintf(buf, len, "%s", _("the tile's threads wait for each other"));
        break;
    }
}

/* Groups of the step's warp operations: one per call (site, operation, argument). */
typedef struct group {
    size_t first;
    unsigned warps;
} group;

static int step_groups(const viz_access *a, const model *m, group *g, int max, int *more)
{
    const acc_trace *t = a->t;
    const acc_launch *l = m->l;
    int n = 0;
    *more = 0;
    for (size_t i = l->wop0; i < l->wop0 + l->nwop; i++) {
        if (!vam_wop_in_step(a, &m->st, i)) continue;
        const acc_wop *w = &t->wops[i];
        int k;
        for (k = 0; k < n; k++) {
            const acc_wop *f = &t->wops[g[k].first];
            if (f->site == w->site && f->op == w->op && f->arg == w->arg && f->width == w->width) break;
        }
        if (k == n) {
            if (n == max) {
                (*more)++;
                continue;
            }
            g[n].first = i;
            g[n].warps = 0;
            n++;
        }
        g[k].warps++;
    }
    return n;
}

/* The barriers that end the step, one per source position. */
static int step_bars(const viz_access *a, const model *m, size_t *first, unsigned *blocks, int max)
{
    const acc_trace *t = a->t;
    const acc_launch *l = m->l;
    int n = 0;
    for (size_t i = l->bar0; i < l->bar0 + l->nbar; i++) {
        if (!vam_bar_ends_step(a, &m->st, i)) continue;
        int k;
        for (k = 0; k < n; k++)
            if (t->bars[first[k]].site == t->bars[i].site) break;
        if (k == n) {
            if (n == max) continue;
            first[n] = i;
            blocks[n] = 0;
            n++;
        }
        blocks[k]++;
    }
    return n;
}

static void bar_text(const acc_trace *t, const acc_bar *b, unsigned blocks, char *buf, size_t len)
{
    const char *name = b->site < (unsigned)t->nsites ? t->sites[b->site].name : "__syncthreads";
    /* TRANSLATORS: "__syncthreads at line 14 ends the step: the 64 threads of each of 4 blocks waited there" */
    snprintf(buf, len, ngettext("%s at line %d ends the step: the %u threads of %u block waited there",
                                "%s at line %d ends the step: the %u threads of each of %u blocks waited there", blocks),
             name, vam_site_line(t, b->site), b->threads, blocks);
}

/* ------------------------------------------------------ lane picture */

typedef struct lanes_layout {
    int lw, cw, per_row, rows, shfl; /* lw: the row labels' columns */
} lanes_layout;

static const char *const lane_heads[4] = {N_("lane"), N_("sent"), N_("from"), N_("got")};

static void lanes_make(const acc_trace *t, const acc_wop *w, int width, lanes_layout *L)
{
    int vw = 2;
    for (size_t k = w->lane0; k < w->lane0 + w->nlanes; k++) {
        char b[40];
        acc_wop_value_text(t->wlanes[k].value, b, sizeof b);
        int n = (int)strlen(b);
        if (n > vw) vw = n;
        acc_wop_value_text(t->wlanes[k].result, b, sizeof b);
        n = (int)strlen(b);
        if (n > vw) vw = n;
    }
    if (vw > 8) vw = 8;
    L->shfl = w->op <= ACC_SHFL_XOR || w->op == ACC_REDUCE;
    L->cw = vw + 1;
    L->lw = 0;
    for (int i = 0; i < 4; i++) {
        int n = viz_text_width(_(lane_heads[i])) + 1;
        if (n > L->lw) L->lw = n;
    }
    L->per_row = (width - L->lw) / L->cw;
    if (L->per_row > 32) L->per_row = 32;
    if (L->per_row < 1) L->per_row = 1;
    int groups = (32 + L->per_row - 1) / L->per_row;
    L->rows = groups * (L->shfl ? (w->op == ACC_REDUCE ? 3 : 4) : 2);
}

static const acc_wlane *wop_lane(const acc_trace *t, const acc_wop *w, unsigned lane)
{
    for (size_t k = w->lane0; k < w->lane0 + w->nlanes; k++)
        if (t->wlanes[k].lane == lane) return &t->wlanes[k];
    return NULL;
}

/* One warp's lanes: what each brought, from which lane its result came,
 * and what it got: the exchange of a shuffle. */
static int draw_lanes(canvas *c, viz_rect area, const acc_trace *t, const acc_wop *w)
{
    lanes_layout L;
    lanes_make(t, w, area.w, &L);
    int y = area.y, role = vam_block_role(w->block);
    for (int l0 = 0; l0 < 32 && y < area.y + area.h; l0 += L.per_row) {
        int nrows = L.shfl ? 4 : 2;
        for (int row = 0; row < nrows && y < area.y + area.h; row++) {
            if (w->op == ACC_REDUCE && row == 2) continue;
            canvas_textn(c, area.x, y, L.lw, _(lane_heads[row]), VIZ_ROLE_DIM, 0);
            for (int lane = l0; lane < l0 + L.per_row && lane < 32; lane++) {
                int x = area.x + L.lw + (lane - l0) * L.cw;
                const acc_wlane *ln = wop_lane(t, w, (unsigned)lane);
                char b[40];
                int r = VIZ_ROLE_IDLE;
                unsigned attr = 0;
                if (row == 0) {
                    snprintf(b, sizeof b, "%d", lane);
                    r = VIZ_ROLE_DIM;
                } else if (!ln) {
                    snprintf(b, sizeof b, "\u00b7");
                } else if (row == 1) {
                    acc_wop_value_text(ln->value, b, sizeof b);
                    r = role;
                } else if (row == 2) {
                    snprintf(b, sizeof b, "%u", ln->src);
                    r = ln->src != ln->lane ? VIZ_ROLE_SOURCE : VIZ_ROLE_DIM;
                } else {
                    acc_wop_value_text(ln->result, b, sizeof b);
                    r = role;
                    if (ln->result != ln->value) attr = VIZ_REVERSE | VIZ_BOLD;
                }
                int bw = viz_text_width(b);
                if (bw > L.cw - 1) {
                    snprintf(b, sizeof b, "#");
                    bw = 1;
                }
                canvas_text(c, x + L.cw - 1 - bw, y, b, r, attr);
            }
            y++;
        }
    }
    return y - area.y;
}

/* ------------------------------------------------------------ public */

int viz_sync_rows(const viz_access *a, const model *m, int width)
{
    group g[MAX_GROUPS];
    int more;
    int n = step_groups(a, m, g, MAX_GROUPS, &more);
    size_t bf[4];
    unsigned bb[4];
    int nb = step_bars(a, m, bf, bb, 4);
    int rows = n + (more ? 1 : 0) + nb;
    if (a->zoom && m->st.wop != NO_ITEM) {
        lanes_layout L;
        lanes_make(a->t, &a->t->wops[m->st.wop], width, &L);
        rows += L.rows;
    }
    return rows;
}

int viz_sync_draw(canvas *c, viz_rect area, const viz_access *a, const model *m)
{
    const acc_trace *t = a->t;
    int y = area.y;
    if (area.h <= 0) return 0;
    if (a->zoom && m->st.wop != NO_ITEM) {
        const acc_wop *w = &t->wops[m->st.wop];
        y += draw_lanes(c, viz_rect_make(area.x, y, area.w, area.y + area.h - y), t, w);
    } else {
        group g[MAX_GROUPS];
        int more;
        int n = step_groups(a, m, g, MAX_GROUPS, &more);
        for (int i = 0; i < n && y < area.y + area.h; i++) {
            const acc_wop *w = &t->wops[g[i].first];
            char what[512], eff[512], b[1024];
            viz_wop_text(t, w, what, sizeof what);
            wop_effect(w, &t->wlanes[w->lane0], eff, sizeof eff);
            /* TRANSLATORS: "line 22 __shfl_down_sync by 16, 8 warps: lane i gets ..." */
            snprintf(b, sizeof b, ngettext("line %d %s, %u warp: %s", "line %d %s, %u warps: %s", g[i].warps),
                     vam_site_line(t, w->site), what, g[i].warps, eff);
            canvas_textn(c, area.x, y++, area.w, b, VIZ_ROLE_SOURCE, 0);
        }
        if (more && y < area.y + area.h) {
            char b[64];
            snprintf(b, sizeof b, _("\u2026 %d more warp collectives"), more);
            canvas_textn(c, area.x, y++, area.w, b, VIZ_ROLE_DIM, 0);
        }
    }
    size_t bf[4];
    unsigned bb[4];
    int nb = step_bars(a, m, bf, bb, 4);
    for (int i = 0; i < nb && y < area.y + area.h; i++) {
        char b[256];
        bar_text(t, &t->bars[bf[i]], bb[i], b, sizeof b);
        canvas_textn(c, area.x, y++, area.w, b, VIZ_ROLE_HEADING, 0);
    }
    return y - area.y;
}

void viz_sync_words(const viz_access *a, const model *m, const char *where, viz_frame_info *info)
{
    const acc_trace *t = a->t;
    const acc_wop *w = &t->wops[m->st.wop];
    char what[512], eff[512];
    viz_wop_text(t, w, what, sizeof what);
    wop_effect(w, &t->wlanes[w->lane0], eff, sizeof eff);
    viz_info_title(info, _("block %u warp %u, line %d"), w->block, w->warp, vam_site_line(t, w->site));
    /* TRANSLATORS: "Warp 0 of block 0 runs __shfl_down_sync by 16 at line 22 before its first barrier: 32 lanes take part; lane i gets ..." */
    viz_info_caption(info, _("Warp %u of block %u runs %s at line %d %s: %d lanes take part; %s. No memory is touched."),
                     w->warp, w->block, what, vam_site_line(t, w->site), where, w->nlanes, eff);
}

void viz_sync_caption(const viz_access *a, const model *m, viz_frame_info *info)
{
    const acc_trace *t = a->t;
    size_t cl = strlen(info->caption);
    if (!a->zoom) {
        group g[MAX_GROUPS];
        int more;
        int n = step_groups(a, m, g, MAX_GROUPS, &more);
        unsigned total = 0;
        for (int i = 0; i < n; i++)
            if (t->wops[g[i].first].op != ACC_TILE_SYNC) total += g[i].warps;
        if (total && cl < sizeof info->caption)
            cl += (size_t)snprintf(info->caption + cl, sizeof info->caption - cl,
                                   ngettext(" %u warp collective works on registers, not memory (z shows it lane by lane).",
                                            " %u warp collectives work on registers, not memory (z shows them lane by lane).",
                                            total),
                                   total);
    }
    size_t bf[1];
    unsigned bb[1];
    if (step_bars(a, m, bf, bb, 1) && cl < sizeof info->caption) {
        const acc_bar *b = &t->bars[bf[0]];
        const char *name = b->site < (unsigned)t->nsites ? t->sites[b->site].name : "__syncthreads";
        /* a grid barrier orders the block's threads too (and the grid's) */
        snprintf(info->caption + cl, sizeof info->caption - cl,
                 _(" Then every thread of the block waits at %s (line %d): what they wrote before it is seen by "
                   "all of them after it."),
                 name, vam_site_line(t, b->site));
    }
}
