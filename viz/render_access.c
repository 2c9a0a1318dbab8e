/* render_access.c - the generic animation (render_access.h): the arrays a
 * kernel touches as strips of cells, step by step, from the automatic
 * access trace. Nothing of a kernel's source is assumed: reads, writes,
 * races, lanes and counters all come from the recorded requests. */
#include "viz/render_access.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viz/intl.h"

#include "viz/access_model.h"

/* ------------------------------------------------------------ layout */

typedef struct layout {
    int two_rows;     /* values above, threads below */
    int values;       /* a cell shows its value; else one glyph a cell */
    int cw;           /* columns a cell takes */
    int per_row;
    int strips;       /* strips that fit */
    int rows;         /* rows the strips take */
    unsigned char show[MAX_STRIPS]; /* which: when not all fit, the selected
                                       one, those this step touches, shared
                                       arrays, then the others in order */
} layout;

static int strip_rows(const strip *s, const layout *L)
{
    long long lines = lab_ceil_div(s->n, L->per_row);
    return 1 + (int)lines * (L->two_rows ? 2 : 1);
}

static int value_width(const model *m, const acc_trace *t)
{
    int w = 1;
    for (int i = 0; i < m->ns; i++) {
        const strip *s = &m->s[i];
        for (long long k = 0; k < s->n; k++) {
            const cellst *c = &m->cells[s->cell0 + (size_t)k];
            if (!c->known) continue;
            char b[40];
            vam_value_text(m, t, s->array, c->value, b, sizeof b);
            int l = (int)strlen(b);
            if (l > w) w = l;
        }
    }
    return w > 7 ? 7 : w;
}

/* How much a strip matters when not every strip fits: 4 the selected one
 * (cell mode), then those this step touches before the others, and in each
 * group shared arrays (what a block shares, which the lessons are about)
 * before global ones. */
static int strip_rank(const model *m, const acc_trace *t, int i, int selected)
{
    if (i == selected) return 4;
    const strip *s = &m->s[i];
    int touched = 0;
    for (long long k = 0; k < s->n && !touched; k++) {
        const cellst *c = &m->cells[s->cell0 + (size_t)k];
        touched = c->rd || c->wr || c->at || c->race;
    }
    return 2 * touched + (t->arrays[s->array].space == ACC_SHARED);
}

static void layout_make(const model *m, const acc_trace *t, int w, int h, int selected, layout *L)
{
    memset(L, 0, sizeof *L);
    int vw = value_width(m, t);
    unsigned maxth = 0;
    if (m->l) maxth = m->l->block[0] * m->l->block[1] * m->l->block[2];
    int tw = maxth > 1000 ? 4 : maxth > 100 ? 3 : maxth > 10 ? 2 : 1;
    int rank[MAX_STRIPS];
    for (int i = 0; i < m->ns && i < MAX_STRIPS; i++) rank[i] = strip_rank(m, t, i, selected);
    /* values and threads, values alone, glyphs: the first that fits */
    for (int pass = 0; pass < 3; pass++) {
        L->two_rows = pass == 0;
        L->values = pass < 2;
        L->cw = pass == 0 ? (vw > tw + 1 ? vw : tw + 1) + 1 : pass == 1 ? vw + 1 : 1;
        L->per_row = w / L->cw;
        if (L->per_row < 1) L->per_row = 1;
        L->rows = L->values ? 0 : 1; /* glyphs: a line that says what they mean */
        L->strips = 0;
        memset(L->show, 0, sizeof L->show);
        for (int r = 4; r >= 0; r--)
            for (int i = 0; i < m->ns && i < MAX_STRIPS; i++) {
                if (rank[i] != r) continue;
                int need = strip_rows(&m->s[i], L);
                if (L->rows + need > h) continue;
                L->rows += need;
                L->show[i] = 1;
                L->strips++;
            }
        if (L->strips == m->ns) return;
    }
    if ((L->strips == 0 && m->ns > 0) || (selected >= 0 && selected < m->ns && !L->show[selected])) {
        /* not even one strip fits, or not the selected one: the one that
         * matters most alone, cut at the bottom, rather than no array at
         * all or one the cursor is not on */
        int best = 0;
        for (int i = 1; i < m->ns && i < MAX_STRIPS; i++)
            if (rank[i] > rank[best]) best = i;
        memset(L->show, 0, sizeof L->show);
        L->show[best] = 1;
        L->strips = 1;
        L->rows = h;
    }
}

/* ------------------------------------------------------------- words */

static void strip_label(const model *m, const acc_trace *t, int i, char *buf, size_t len)
{
    const strip *s = &m->s[i];
    const acc_array *ar = &t->arrays[s->array];
    char where[48];
    if (ar->space == ACC_SHARED) snprintf(where, sizeof where, _("shared, block %lld"), s->block);
    else snprintf(where, sizeof where, "%s", _("global"));
    if (s->lo == 0 && (unsigned long long)s->n == ar->cells)
        snprintf(buf, len, _("%s  %s, %u-byte cells, %llu of them"), ar->name, where, ar->elem, ar->cells);
    else
        snprintf(buf, len, _("%s  %s, %u-byte cells %lld\u2013%lld of %llu"), ar->name, where, ar->elem, s->lo,
                 s->lo + s->n - 1, ar->cells);
}

static void cell_style(const cellst *c, int selected, int *role, unsigned *attr)
{
    *attr = 0;
    if (c->race) {
        *role = VIZ_ROLE_CONFLICT;
        *attr = VIZ_BOLD;
    } else if (c->rd || c->wr || c->at) {
        *role = vam_block_role(c->block);
        if (c->wr || c->at) *attr |= VIZ_REVERSE | VIZ_BOLD;
        if (c->rd || c->at) *attr |= VIZ_UNDERLINE;
    } else {
        *role = VIZ_ROLE_DIM;
    }
    if (selected) {
        *role = VIZ_ROLE_HIGHLIGHT;
        *attr = VIZ_BOLD;
    }
}

static uint32_t cell_glyph(const cellst *c)
{
    if (c->race) return '!';
    if (c->at) return 'a';
    if (c->rd && c->wr) return 'b';
    if (c->wr) return 'w';
    if (c->rd) return 'r';
    return 0x00b7;
}

static const char *kind_word(int kind)
{
    return kind == ACC_READ ? _("read") : kind == ACC_WRITE ? _("wrote") : _("updated (atomic)");
}

/* ------------------------------------------------------------- drawing */

static int draw_strips(canvas *c, viz_rect area, const model *m, const acc_trace *t, const layout *L,
                       const viz_access_sel *sel)
{
    int y = area.y;
    for (int i = 0; i < m->ns && i < MAX_STRIPS; i++) {
        if (!L->show[i]) continue;
        const strip *s = &m->s[i];
        char label[160];
        strip_label(m, t, i, label, sizeof label);
        canvas_textn(c, area.x, y++, area.w, label, VIZ_ROLE_HEADING, 0);
        for (long long k0 = 0; k0 < s->n && y < area.y + area.h; k0 += L->per_row) {
            for (long long k = k0; k < s->n && k < k0 + L->per_row; k++) {
                const cellst *cs = &m->cells[s->cell0 + (size_t)k];
                int x = area.x + (int)(k - k0) * L->cw;
                int role;
                unsigned attr;
                int selected = sel && sel->on && sel->strip == i && sel->cell == k;
                cell_style(cs, selected, &role, &attr);
                if (!L->values) {
                    canvas_put(c, x, y, cell_glyph(cs), role, attr);
                    continue;
                }
                char v[40];
                if (cs->known) vam_value_text(m, t, s->array, cs->value, v, sizeof v);
                else snprintf(v, sizeof v, "\u00b7");
                int vw = viz_text_width(v);
                if (vw > L->cw - 1) {
                    v[0] = '#';
                    v[1] = 0;
                    vw = 1;
                }
                canvas_fill(c, viz_rect_make(x, y, L->cw - 1, 1), ' ', role, attr);
                canvas_text(c, x + L->cw - 1 - vw, y, v, role, attr);
                if (L->two_rows && (cs->rd || cs->wr || cs->at)) {
                    char th[16];
                    snprintf(th, sizeof th, "%u%s", cs->thread, cs->multi ? "+" : "");
                    int tw = viz_text_width(th);
                    if (tw > L->cw - 1) snprintf(th, sizeof th, "+"), tw = 1;
                    canvas_text(c, x + L->cw - 1 - tw, y + 1, th, cs->race ? VIZ_ROLE_CONFLICT : vam_block_role(cs->block),
                                0);
                }
            }
            y += L->two_rows ? 2 : 1;
        }
    }
    if (!L->values && y < area.y + area.h)
        canvas_textn(c, area.x, y++, area.w, _("r read \u00b7 w written \u00b7 b both \u00b7 a atomic \u00b7 ! race \u00b7 \u00b7 untouched"),
                     VIZ_ROLE_DIM, 0);
    if (L->strips < m->ns || m->more) {
        char b[512];
        snprintf(b, sizeof b, _("\u2026 %d more arrays do not fit"), m->ns - L->strips + m->more);
        if (y < area.y + area.h) canvas_textn(c, area.x, y++, area.w, b, VIZ_ROLE_DIM, 0);
    }
    return y - area.y;
}

typedef struct warpline {
    unsigned block, warp;
    uint32_t mask;
    unsigned reqs;
} warpline;

/* The warps of the step, their lanes' union, in order. */
static int step_warps(const viz_access *a, const model *m, warpline *w, int max, int *more)
{
    const acc_trace *t = a->t;
    const acc_launch *l = m->l;
    int n = 0;
    *more = 0;
    for (size_t i = l->req0; i < l->req0 + l->nreq; i++) {
        if (!vam_in_step(a, &m->st, i)) continue;
        const acc_req *r = &t->reqs[i];
        int k;
        for (k = 0; k < n; k++)
            if (w[k].block == r->block && w[k].warp == r->warp) break;
        if (k == n) {
            if (n == max) {
                (*more)++;
                continue;
            }
            w[n].block = r->block;
            w[n].warp = r->warp;
            w[n].mask = 0;
            w[n].reqs = 0;
            n++;
        }
        w[k].mask |= r->mask;
        w[k].reqs++;
    }
    /* and the warps of the step's collectives (a tile barrier is no instruction of a warp) */
    for (size_t i = l->wop0; i < l->wop0 + l->nwop; i++) {
        if (!vam_wop_in_step(a, &m->st, i) || t->wops[i].op == ACC_TILE_SYNC) continue;
        const acc_wop *o = &t->wops[i];
        int k;
        for (k = 0; k < n; k++)
            if (w[k].block == o->block && w[k].warp == o->warp) break;
        if (k == n) {
            if (n == max) {
                (*more)++;
                continue;
            }
            w[n].block = o->block;
            w[n].warp = o->warp;
            w[n].mask = 0;
            w[n].reqs = 0;
            n++;
        }
        w[k].mask |= o->mask;
    }
    return n;
}

static int draw_warps(canvas *c, viz_rect area, const viz_access *a, const model *m)
{
    if (area.h <= 0) return 0;
    warpline w[MAX_WARP_LINES];
    int more;
    int n = step_warps(a, m, w, MAX_WARP_LINES, &more);
    int y = area.y;
    for (int i = 0; i < n && y < area.y + area.h; i++) {
        if (y == area.y + area.h - 1 && i < n - 1) {
            char b[64];
            snprintf(b, sizeof b, _("\u2026 %d more warps"), n - i + more);
            canvas_textn(c, area.x, y++, area.w, b, VIZ_ROLE_DIM, 0);
            break;
        }
        char head[32];
        snprintf(head, sizeof head, "b%u w%u ", w[i].block, w[i].warp);
        int x = canvas_textn(c, area.x, y, area.w, head, VIZ_ROLE_DIM, 0);
        uint32_t exist = vam_warp_lanes(m->l, w[i].warp);
        for (int lane = 0; lane < 32 && x < area.x + area.w; lane++, x++) {
            if (!(exist >> lane & 1)) continue;
            if (w[i].mask >> lane & 1) canvas_put(c, x, y, 0x2588, vam_block_role(w[i].block), 0);
            else canvas_put(c, x, y, 0x00b7, VIZ_ROLE_IDLE, 0);
        }
        int act = __builtin_popcount(w[i].mask), all = __builtin_popcount(exist);
        char tail[64];
        snprintf(tail, sizeof tail, " %d/%d", act, all);
        x = canvas_textn(c, x, y, area.x + area.w - x, tail, VIZ_ROLE_TEXT, 0);
        if (act < all) canvas_textn(c, x, y, area.x + area.w - x, _(" divergent"), VIZ_ROLE_WARN, 0);
        y++;
    }
    if (y < area.y + area.h) y += viz_sync_draw(c, viz_rect_make(area.x, y, area.w, area.y + area.h - y), a, m);
    return y - area.y;
}

/* Who touched the selected cell in the launch (or the selected thread's
 * path), as wrapped text. */
static int draw_selection(canvas *c, viz_rect area, const viz_access *a, const model *m, const viz_access_sel *sel)
{
    if (!sel || area.h <= 0) return 0;
    const acc_trace *t = a->t;
    const acc_launch *l = m->l;
    char text[1024];
    size_t used = 0;
    text[0] = 0;
#define ADD(...)                                                                   \
    do {                                                                           \
        if (used < sizeof text) used += (size_t)snprintf(text + used, sizeof text - used, __VA_ARGS__); \
    } while (0)
    int lines = 0;
    if (sel->on && sel->strip >= 0 && sel->strip < m->ns) {
        const strip *s = &m->s[sel->strip];
        long long idx = s->lo + sel->cell;
        const cellst *cs = &m->cells[s->cell0 + (size_t)sel->cell];
        char v[40] = "\u00b7";
        if (cs->known) vam_value_text(m, t, s->array, cs->value, v, sizeof v);
        ADD("%s[%lld] = %s:", t->arrays[s->array].name, idx, v);
        int shown = 0, total = 0;
        for (size_t i = l->req0; i < l->req0 + l->nreq; i++) {
            const acc_req *r = &t->reqs[i];
            if (s->block >= 0 && (long long)r->block != s->block) continue;
            for (size_t k = r->lane0; k < r->lane0 + r->nlanes; k++) {
                const acc_lane *ln = &t->lanes[k];
                if (ln->array != s->array || (long long)ln->index != idx) continue;
                total++;
                if (shown >= 4) continue;
                shown++;
                /* TRANSLATORS: "step 3: thread 5 of block 0 (warp 0) wrote it at line 12" */
                ADD(_("%s step %d: thread %u of block %u (warp %u) %s it at line %d"), shown > 1 ? ";" : "",
                    vam_frame_of(a, &m->st, i) + 1,
                    r->warp * 32 + ln->lane, r->block, r->warp, kind_word(r->kind), vam_site_line(t, r->site));
            }
        }
        if (total == 0) ADD("%s", _(" no thread touched it in this launch"));
        else if (total > shown) ADD(_("; and %d more"), total - shown);
        ADD(".");
        int n = canvas_wrap(c, area, text, VIZ_ROLE_VALUE, 0);
        lines += n < area.h ? n : area.h;
        used = 0;
        text[0] = 0;
    }
    if (sel->thread_on && lines < area.h) {
        ADD(_("thread %u of block %u:"), sel->thread, sel->block);
        int shown = 0;
        for (size_t i = l->req0; i < l->req0 + l->nreq && used < sizeof text - 80; i++) {
            const acc_req *r = &t->reqs[i];
            if (r->block != sel->block || r->warp != sel->thread / 32 || !(r->mask >> (sel->thread % 32) & 1))
                continue;
            for (size_t k = r->lane0; k < r->lane0 + r->nlanes; k++) {
                const acc_lane *ln = &t->lanes[k];
                if (ln->lane != sel->thread % 32) continue;
                /* TRANSLATORS: one step of a thread's path: "▶2: wrote out[2] at 12" (12: a line) */
                ADD(_("%s %s%d: %s %s[%llu] at %d"), shown ? " \u00b7" : "", vam_in_step(a, &m->st, i) ? "\u25b6" : "",
                    vam_frame_of(a, &m->st, i) + 1, kind_word(r->kind), t->arrays[ln->array].name, ln->index,
                    vam_site_line(t, r->site));
                shown++;
            }
        }
        if (!shown) ADD("%s", _(" no access in this launch"));
        viz_rect r = viz_rect_make(area.x, area.y + lines, area.w, area.h - lines);
        int n = canvas_wrap(c, r, text, VIZ_ROLE_TEXT, 0);
        lines += n < r.h ? n : r.h;
    }
#undef ADD
    return lines;
}

/* ----------------------------------------------------------- captions */

static void step_words(const viz_access *a, const model *m, viz_frame_info *info)
{
    const acc_trace *t = a->t;
    const acc_launch *l = m->l;
    unsigned long long threads = 0, reqs = 0, sectors = 0, ideal_sec = 0, conflicts = 0;
    unsigned char read_arr[MAX_STRIPS] = {0}, wrote_arr[MAX_STRIPS] = {0};
    unsigned blocks_seen = 0, lastb = (unsigned)-1;
    int first_line = 0;
    /* distinct threads: (block, thread) marked in a small bit table per block */
    for (size_t i = l->req0; i < l->req0 + l->nreq; i++) {
        if (!vam_in_step(a, &m->st, i)) continue;
        const acc_req *r = &t->reqs[i];
        reqs++;
        if (!first_line) first_line = vam_site_line(t, r->site);
        if (r->block != lastb) {
            blocks_seen++;
            lastb = r->block;
        }
        unsigned bytes = r->nlanes * r->width;
        if (r->space == ACC_GLOBAL) {
            sectors += r->sectors;
            ideal_sec += (bytes + 31) / 32;
        } else {
            unsigned ideal = (bytes + 127) / 128;
            if (r->wavefronts > ideal) conflicts += r->wavefronts - ideal;
        }
        for (size_t k = r->lane0; k < r->lane0 + r->nlanes; k++) {
            int s = vam_strip_of(m, t, t->lanes[k].array, r->block);
            if (s < 0 || s >= MAX_STRIPS) continue;
            if (r->kind == ACC_READ) read_arr[s] = 1;
            else wrote_arr[s] = 1;
        }
    }
    warpline w[MAX_WARP_LINES];
    int more;
    int nw = step_warps(a, m, w, MAX_WARP_LINES, &more);
    int divergent = 0;
    for (int i = 0; i < nw; i++) {
        threads += (unsigned)__builtin_popcount(w[i].mask);
        if (w[i].mask != vam_warp_lanes(l, w[i].warp)) divergent++;
    }
    long long races = 0;
    for (size_t k = 0; k < m->ncells; k++) races += m->cells[k].race;

    /* the arrays read and written, by name, each once */
    char rd[160] = "", wr[160] = "";
    for (int pass = 0; pass < 2; pass++) {
        char *out = pass ? wr : rd;
        const unsigned char *set = pass ? wrote_arr : read_arr;
        size_t len = 0;
        for (int s = 0; s < m->ns; s++) {
            if (!set[s]) continue;
            const char *name = t->arrays[m->s[s].array].name;
            int dup = 0;
            for (int p = 0; p < s; p++)
                if (set[p] && m->s[p].array == m->s[s].array) dup = 1;
            if (dup) continue;
            if (len < sizeof rd) len += (size_t)snprintf(out + len, sizeof rd - len, "%s%s", len ? ", " : "", name);
        }
    }
    char launch_name[256];
    snprintf(launch_name, sizeof launch_name, "%s<<<%u, %u>>>", l->kernel, l->grid[0] * l->grid[1] * l->grid[2],
             l->block[0] * l->block[1] * l->block[2]);
    /* where in the launch: before its first barrier, after k of them */
    unsigned ep = m->st.epoch;
    char where[512], blocks[256];
    if (l->epochs <= 1) snprintf(where, sizeof where, "%s", _("(it has no barrier)"));
    else if (ep == 0) snprintf(where, sizeof where, "%s", _("before its first barrier"));
    else snprintf(where, sizeof where, ngettext("after %u barrier", "after %u barriers", ep), ep);
    snprintf(blocks, sizeof blocks, ngettext("%u block", "%u blocks", blocks_seen), blocks_seen);
    if (a->zoom && m->st.wop != NO_ITEM) {
        viz_sync_words(a, m, where, info);
    } else if (a->zoom) {
        const acc_req *r = m->st.req != NO_ITEM ? &t->reqs[m->st.req] : NULL;
        viz_info_title(info, _("block %u warp %u, line %d"), r ? r->block : 0, r ? r->warp : 0,
                       r ? vam_site_line(t, r->site) : 0);
        if (!r) viz_info_caption(info, _("%s recorded no memory access."), launch_name);
        else
            /* TRANSLATORS: "Warp 1 of block 0 runs line 12 after 1 barrier: 32 lanes read in, in one instruction." */
            viz_info_caption(info, _("Warp %u of block %u runs line %d %s: %d lanes %s %s in one instruction."),
                             r->warp, r->block, vam_site_line(t, r->site), where, r->nlanes, kind_word(r->kind),
                             r->kind == ACC_READ ? rd : wr);
    } else {
        viz_info_title(info, _("%s, barrier epoch %u"), l->kernel, m->st.epoch);
        if (reqs == 0)
            viz_info_caption(info, _("%s %s: no memory access."), launch_name, where);
        else
            /* TRANSLATORS: "shift<<<1, 8>>> after 1 barrier: 8 threads of 1 block read s and wrote out (from line 9)." */
            viz_info_caption(info, _("%s %s: %llu threads of %s read %s and wrote %s (from line %d)."), launch_name,
                             where, threads, blocks, rd[0] ? rd : "\u2013", wr[0] ? wr : "\u2013", first_line);
    }
    viz_sync_caption(a, m, info);
    size_t cl = strlen(info->caption);
    if (races && cl < sizeof info->caption)
        cl += (size_t)snprintf(info->caption + cl, sizeof info->caption - cl,
                               ngettext(" %lld cell is a race (in the conflict colour, or !): two threads touch it in "
                                        "this step, one of them writing, and nothing orders them.",
                                        " %lld cells are a race (in the conflict colour, or !): two threads touch each "
                                        "in this step, one of them writing, and nothing orders them.",
                                        (unsigned long)races),
                               races);
    if (l->blocks_skipped && cl < sizeof info->caption)
        cl += (size_t)snprintf(info->caption + cl, sizeof info->caption - cl,
                               _(" Only the first %llu of %llu blocks were recorded (set trace-blocks)."),
                               l->blocks_recorded, l->blocks_recorded + l->blocks_skipped);
    if (l->dropped && cl < sizeof info->caption)
        snprintf(info->caption + cl, sizeof info->caption - cl,
                 _(" %llu accesses past the trace's bound were not recorded."), l->dropped);
    viz_info_counter(info, "threads", (long long)threads, NULL);
    viz_info_counter(info, "requests", (long long)reqs, NULL);
    viz_info_counter(info, "sectors", (long long)sectors, NULL);
    viz_info_counter(info, "ideal sectors", (long long)ideal_sec, NULL);
    viz_info_counter(info, "bank conflicts", (long long)conflicts, NULL);
    viz_info_counter(info, "divergent warps", divergent, NULL);
    viz_info_counter(info, "races", races, NULL);
}

/* ---------------------------------------------------------- the frame */

/* Split area: strips on top, then the selection, then the warps. */
typedef struct parts {
    viz_rect strips, sel, warps;
    layout L;
} parts;

static void parts_make(const viz_access *a, const model *m, const viz_access_sel *sel, viz_rect area, parts *p)
{
    int sel_h = 0;
    if (sel && sel->on) sel_h += 2;
    if (sel && sel->thread_on) sel_h += 2;
    if (sel_h > area.h / 3) sel_h = area.h / 3;
    int strips_h = area.h - sel_h;
    layout_make(m, a->t, area.w, strips_h, sel && sel->on ? sel->strip : -1, &p->L);
    int used = p->L.rows + (p->L.strips < m->ns || m->more ? 1 : 0);
    if (used > strips_h) used = strips_h;
    p->strips = viz_rect_make(area.x, area.y, area.w, used);
    p->sel = viz_rect_make(area.x, area.y + used, area.w, sel_h);
    int wy = area.y + used + sel_h + 1;
    p->warps = viz_rect_make(area.x, wy, area.w, area.y + area.h - wy);
}

void viz_access_draw(const viz_access *a, const viz_access_sel *sel, int frame, canvas *c, viz_rect area,
                     viz_frame_info *info)
{
    viz_rect old = canvas_set_clip(c, area);
    model m;
    if (vam_model_build(a, frame, &m) != 0) {
        viz_info_caption(info, "%s", _("The trace holds no kernel launch."));
        canvas_textn(c, area.x, area.y, area.w, _("nothing was recorded"), VIZ_ROLE_DIM, 0);
        vam_model_free(&m);
        canvas_set_clip(c, old);
        return;
    }
    viz_access_sel s = sel ? *sel : (viz_access_sel){0};
    if (s.on) viz_access_clamp(a, frame, &s);
    parts p;
    parts_make(a, &m, &s, area, &p);
    step_words(a, &m, info);
    draw_strips(c, p.strips, &m, a->t, &p.L, &s);
    draw_selection(c, p.sel, a, &m, &s);
    draw_warps(c, p.warps, a, &m);
    vam_model_free(&m);
    canvas_set_clip(c, old);
}

int viz_access_height(const viz_access *a, int width)
{
    int most = 0, n = viz_access_frames(a);
    for (int f = 0; f < n && f < 512; f++) {
        model m;
        if (vam_model_build(a, f, &m) != 0) {
            vam_model_free(&m);
            continue;
        }
        layout L;
        layout_make(&m, a->t, width, 1 << 20, -1, &L);
        warpline w[MAX_WARP_LINES];
        int more;
        int nw = step_warps(a, &m, w, MAX_WARP_LINES, &more);
        int h = L.rows + 1 + (nw > 16 ? 17 : nw) + viz_sync_rows(a, &m, width);
        if (h > most) most = h;
        vam_model_free(&m);
    }
    return most < 4 ? 4 : most;
}

void viz_access_clamp(const viz_access *a, int frame, viz_access_sel *sel)
{
    model m;
    if (vam_model_build(a, frame, &m) != 0 || m.ns == 0) {
        sel->strip = 0;
        sel->cell = 0;
        vam_model_free(&m);
        return;
    }
    if (sel->strip < 0) sel->strip = 0;
    if (sel->strip >= m.ns) sel->strip = m.ns - 1;
    if (sel->cell < 0) sel->cell = 0;
    if (sel->cell >= m.s[sel->strip].n) sel->cell = m.s[sel->strip].n - 1;
    vam_model_free(&m);
}

int viz_access_hit(const viz_access *a, int frame, viz_rect area, int x, int y, viz_access_sel *sel)
{
    model m;
    if (vam_model_build(a, frame, &m) != 0) {
        vam_model_free(&m);
        return -1;
    }
    parts p;
    parts_make(a, &m, sel, area, &p);
    int row = p.strips.y, rc = -1;
    for (int i = 0; i < m.ns && i < MAX_STRIPS && rc < 0; i++) {
        if (!p.L.show[i]) continue;
        row++; /* the label */
        const strip *s = &m.s[i];
        for (long long k0 = 0; k0 < s->n; k0 += p.L.per_row) {
            int h = p.L.two_rows ? 2 : 1;
            if (y >= row && y < row + h && x >= area.x) {
                long long k = k0 + (x - area.x) / p.L.cw;
                if (k < s->n && k < k0 + p.L.per_row) {
                    sel->on = 1;
                    sel->strip = i;
                    sel->cell = k;
                    rc = 0;
                }
                break;
            }
            row += h;
        }
    }
    vam_model_free(&m);
    return rc;
}

int viz_access_pick_thread(const viz_access *a, int frame, viz_access_sel *sel)
{
    model m;
    if (!sel->on || vam_model_build(a, frame, &m) != 0) return -1;
    int rc = -1;
    if (sel->strip >= 0 && sel->strip < m.ns && sel->cell >= 0 && sel->cell < m.s[sel->strip].n) {
        const cellst *c = &m.cells[m.s[sel->strip].cell0 + (size_t)sel->cell];
        if (c->rd || c->wr || c->at) {
            sel->thread_on = 1;
            sel->thread = c->thread;
            sel->block = c->block;
            rc = 0;
        }
    }
    vam_model_free(&m);
    return rc;
}

int viz_access_lines(const viz_access *a, const viz_access_sel *sel, int frame, int *highlight, int *marks, int max)
{
    *highlight = 0;
    model m;
    if (vam_model_build(a, frame, &m) != 0) {
        vam_model_free(&m);
        return 0;
    }
    const acc_trace *t = a->t;
    const acc_launch *l = m.l;
    int n = 0;
    const strip *s = sel && sel->on && sel->strip >= 0 && sel->strip < m.ns ? &m.s[sel->strip] : NULL;
    long long idx = s ? s->lo + sel->cell : -1;
    for (size_t i = l->req0; i < l->req0 + l->nreq; i++) {
        const acc_req *r = &t->reqs[i];
        int line = vam_site_line(t, r->site);
        if (line <= 0) continue;
        int now = vam_in_step(a, &m.st, i);
        int touches = 0;
        if (s) {
            for (size_t k = r->lane0; k < r->lane0 + r->nlanes && !touches; k++)
                touches = t->lanes[k].array == s->array && (long long)t->lanes[k].index == idx &&
                          (s->block < 0 || (long long)r->block == s->block);
        }
        if (now && (!*highlight || (touches && s))) {
            if (!*highlight || touches) *highlight = line;
        }
        int mark = s ? touches : now;
        if (!mark) continue;
        int dup = 0;
        for (int k = 0; k < n; k++)
            if (marks[k] == line) dup = 1;
        if (!dup && n < max) marks[n++] = line;
    }
    /* the step's collectives: their lines, and the line of a step that is one */
    for (size_t i = l->wop0; i < l->wop0 + l->nwop; i++) {
        if (!vam_wop_in_step(a, &m.st, i)) continue;
        int line = vam_site_line(t, t->wops[i].site);
        if (line <= 0) continue;
        if (!*highlight) *highlight = line;
        if (s) continue;
        int dup = 0;
        for (int k = 0; k < n; k++)
            if (marks[k] == line) dup = 1;
        if (!dup && n < max) marks[n++] = line;
    }
    vam_model_free(&m);
    return n;
}

int viz_access_frame_map(const viz_access *from, int frame, const viz_access *to)
{
    step st;
    if (vam_frame_step(from, frame, &st) != 0 || from->zoom == to->zoom) return frame;
    const acc_trace *t = from->t;
    const acc_launch *l = &t->launches[st.launch];
    int base = 0;
    for (int i = 0; i < st.launch; i++) base += vam_launch_steps(t, i, to->zoom);
    if (l->nreq + l->nwop == 0) return base;
    if (to->zoom) {
        /* the first warp instruction of the epoch: a request or a collective */
        unsigned first = ~0u;
        for (size_t i = l->req0; i < l->req0 + l->nreq; i++)
            if (t->reqs[i].epoch == st.epoch && t->reqs[i].seq < first) first = t->reqs[i].seq;
        for (size_t i = l->wop0; i < l->wop0 + l->nwop; i++)
            if (t->wops[i].epoch == st.epoch && t->wops[i].seq < first) first = t->wops[i].seq;
        return base + (first == ~0u ? 0 : (int)first);
    }
    return base + (int)st.epoch;
}
