/* access_model.c - the generic animation's steps and model (access_model.h):
 * a frame is a barrier epoch of a launch, or zoomed in one warp instruction
 * (a request or a warp collective, in the order the simulator ran them). */
#include "viz/access_model.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- steps */

int vam_launch_steps(const acc_trace *t, int l, int zoom)
{
    const acc_launch *L = &t->launches[l];
    int n = zoom ? (int)(L->nreq + L->nwop) : (int)L->epochs;
    return n > 0 ? n : 1;
}

int viz_access_frames(const viz_access *a)
{
    if (!a || !a->t || a->t->nlaunches == 0) return 1;
    int n = 0;
    for (int l = 0; l < a->t->nlaunches; l++) n += vam_launch_steps(a->t, l, a->zoom);
    return n > 0 ? n : 1;
}

/* The item with place seq in launch L: a request or a warp operation. */
static void find_item(const acc_trace *t, const acc_launch *L, unsigned seq, step *st)
{
    st->req = st->wop = NO_ITEM;
    size_t lo = L->req0, hi = L->req0 + L->nreq;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->reqs[mid].seq < seq) lo = mid + 1;
        else hi = mid;
    }
    if (lo < L->req0 + L->nreq && t->reqs[lo].seq == seq) {
        st->req = lo;
        st->epoch = t->reqs[lo].epoch;
        return;
    }
    lo = L->wop0, hi = L->wop0 + L->nwop;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->wops[mid].seq < seq) lo = mid + 1;
        else hi = mid;
    }
    if (lo < L->wop0 + L->nwop && t->wops[lo].seq == seq) {
        st->wop = lo;
        st->epoch = t->wops[lo].epoch;
    }
}

int vam_frame_step(const viz_access *a, int frame, step *st)
{
    memset(st, 0, sizeof *st);
    st->launch = -1;
    st->req = st->wop = NO_ITEM;
    if (!a || !a->t || a->t->nlaunches == 0) return -1;
    int base = 0;
    for (int l = 0; l < a->t->nlaunches; l++) {
        int n = vam_launch_steps(a->t, l, a->zoom);
        if (frame < base + n || l == a->t->nlaunches - 1) {
            int k = frame - base;
            if (k >= n) k = n - 1;
            if (k < 0) k = 0;
            st->launch = l;
            st->base = base;
            st->epoch = (unsigned)k;
            st->seq = (unsigned)k;
            if (a->zoom) {
                st->epoch = 0;
                find_item(a->t, &a->t->launches[l], (unsigned)k, st);
            }
            return 0;
        }
        base += n;
    }
    return -1;
}

int vam_in_step(const viz_access *a, const step *st, size_t i)
{
    const acc_launch *l = &a->t->launches[st->launch];
    if (l->nreq == 0) return 0;
    return a->zoom ? i == st->req : a->t->reqs[i].epoch == st->epoch;
}

int vam_up_to_step(const viz_access *a, const step *st, size_t i)
{
    return a->zoom ? a->t->reqs[i].seq <= st->seq : a->t->reqs[i].epoch <= st->epoch;
}

/* The frame of request i (its launch's step). */
int vam_frame_of(const viz_access *a, const step *st, size_t i)
{
    return st->base + (a->zoom ? (int)a->t->reqs[i].seq : (int)a->t->reqs[i].epoch);
}

int vam_wop_in_step(const viz_access *a, const step *st, size_t i)
{
    return a->zoom ? i == st->wop : a->t->wops[i].epoch == st->epoch;
}

int vam_bar_ends_step(const viz_access *a, const step *st, size_t i)
{
    const acc_trace *t = a->t;
    const acc_bar *b = &t->bars[i];
    if (b->epoch != st->epoch) return 0;
    if (!a->zoom) return 1;
    /* zoomed in: the epoch's last item of the barrier's block */
    const acc_launch *l = &t->launches[st->launch];
    unsigned block = st->req != NO_ITEM ? t->reqs[st->req].block : st->wop != NO_ITEM ? t->wops[st->wop].block : ~0u;
    if (block != b->block) return 0;
    for (size_t k = l->req0; k < l->req0 + l->nreq; k++)
        if (t->reqs[k].block == block && t->reqs[k].epoch == st->epoch && t->reqs[k].seq > st->seq) return 0;
    for (size_t k = l->wop0; k < l->wop0 + l->nwop; k++)
        if (t->wops[k].block == block && t->wops[k].epoch == st->epoch && t->wops[k].seq > st->seq) return 0;
    return 1;
}

/* ------------------------------------------------------------- model */

int vam_strip_of(const model *m, const acc_trace *t, unsigned array, unsigned block)
{
    long long b = t->arrays[array].space == ACC_SHARED ? (long long)block : -1;
    for (int i = 0; i < m->ns; i++)
        if (m->s[i].array == array && m->s[i].block == b) return i;
    return -1;
}

void vam_model_free(model *m)
{
    free(m->cells);
    m->cells = NULL;
    free(m->is_float);
    m->is_float = NULL;
}

static int ordinary(double x)
{
    double a = fabs(x);
    return x == 0 || (isfinite(x) && a >= 1e-12 && a <= 1e12);
}

/* Which arrays hold floats, from every value the trace recorded. */
static unsigned char *array_kinds(const acc_trace *t)
{
    unsigned char *big = calloc((size_t)(t->narrays > 0 ? t->narrays : 1), 2);
    if (!big) return NULL;
    unsigned char *odd = big + (t->narrays > 0 ? t->narrays : 1);
    for (size_t k = 0; k < t->nlanes; k++) {
        const acc_lane *ln = &t->lanes[k];
        if ((int)ln->array >= t->narrays) continue;
        unsigned w = t->arrays[ln->array].elem;
        if (w == 4) {
            int32_t i = (int32_t)(uint32_t)ln->value;
            if (i > -(1 << 24) && i < (1 << 24)) continue;
            uint32_t u = (uint32_t)ln->value;
            float f;
            memcpy(&f, &u, 4);
            big[ln->array] = 1;
            if (!ordinary(f)) odd[ln->array] = 1;
        } else if (w == 8) {
            long long i = (long long)ln->value;
            if (i > -(1ll << 40) && i < (1ll << 40)) continue;
            unsigned long long u = ln->value;
            double d;
            memcpy(&d, &u, 8);
            big[ln->array] = 1;
            if (!ordinary(d)) odd[ln->array] = 1;
        }
    }
    for (int i = 0; i < t->narrays; i++) big[i] = big[i] && !odd[i];
    return big;
}

void vam_value_text(const model *m, const acc_trace *t, unsigned array, unsigned long long v, char *buf, size_t len)
{
    unsigned w = (int)array < t->narrays ? t->arrays[array].elem : 0;
    int fl = m->is_float && (int)array < t->narrays && m->is_float[array];
    if (w == 4) {
        uint32_t u = (uint32_t)v;
        if (fl) {
            float f;
            memcpy(&f, &u, 4);
            snprintf(buf, len, "%g", (double)f);
        } else {
            snprintf(buf, len, "%d", (int)(int32_t)u);
        }
    } else if (w == 8) {
        if (fl) {
            double d;
            memcpy(&d, &v, 8);
            snprintf(buf, len, "%g", d);
        } else {
            snprintf(buf, len, "%lld", (long long)v);
        }
    } else {
        acc_value_text(v, w, buf, len);
    }
}

/* Strips and cells of the frame's launch, the cells' state at its step. */
int vam_model_build(const viz_access *a, int frame, model *m)
{
    memset(m, 0, sizeof *m);
    if (vam_frame_step(a, frame, &m->st) != 0) return -1;
    const acc_trace *t = a->t;
    m->is_float = array_kinds(t);
    const acc_launch *l = m->l = &t->launches[m->st.launch];
    /* the strips: arrays in the order the launch first touches them */
    for (size_t i = l->req0; i < l->req0 + l->nreq; i++) {
        const acc_req *r = &t->reqs[i];
        for (size_t k = r->lane0; k < r->lane0 + r->nlanes; k++) {
            const acc_lane *ln = &t->lanes[k];
            int s = vam_strip_of(m, t, ln->array, r->block);
            if (s < 0) {
                if (m->ns == MAX_STRIPS) {
                    m->more = 1;
                    continue;
                }
                s = m->ns++;
                m->s[s].array = ln->array;
                m->s[s].block = t->arrays[ln->array].space == ACC_SHARED ? (long long)r->block : -1;
                m->s[s].min = m->s[s].max = (long long)ln->index;
            }
            if ((long long)ln->index < m->s[s].min) m->s[s].min = (long long)ln->index;
            if ((long long)ln->index > m->s[s].max) m->s[s].max = (long long)ln->index;
        }
    }
    /* shared strips after the global ones, each array's blocks together */
    for (int i = 1; i < m->ns; i++) {
        strip x = m->s[i];
        int j = i;
        int xs = t->arrays[x.array].space == ACC_SHARED;
        while (j > 0) {
            const strip *p = &m->s[j - 1];
            int ps = t->arrays[p->array].space == ACC_SHARED;
            if (ps > xs || (ps == xs && xs && p->array == x.array && p->block > x.block)) {
                m->s[j] = m->s[j - 1];
                j--;
            } else {
                break;
            }
        }
        m->s[j] = x;
    }
    /* a global array whole (its untouched cells are what a wrong grid
     * leaves), a shared array from its lowest to its highest cell the
     * launch touches in that block: a statically sized part[1024] of
     * which a block of 64 uses 64 takes one line, not sixteen */
    for (int i = 0; i < m->ns; i++) {
        strip *s = &m->s[i];
        long long cells = (long long)t->arrays[s->array].cells;
        int shared = t->arrays[s->array].space == ACC_SHARED;
        if (!shared && cells <= MAX_CELLS && s->max < cells) {
            s->lo = 0;
            s->n = cells;
        } else {
            s->lo = s->min;
            s->n = s->max - s->min + 1;
            if (s->n > MAX_CELLS) s->n = MAX_CELLS;
        }
        s->cell0 = m->ncells;
        m->ncells += (size_t)s->n;
    }
    m->cells = calloc(m->ncells ? m->ncells : 1, sizeof *m->cells);
    if (!m->cells) {
        vam_model_free(m);
        return -1;
    }
    for (size_t i = l->req0; i < l->req0 + l->nreq; i++) {
        if (!vam_up_to_step(a, &m->st, i)) continue;
        const acc_req *r = &t->reqs[i];
        int now = vam_in_step(a, &m->st, i);
        for (size_t k = r->lane0; k < r->lane0 + r->nlanes; k++) {
            const acc_lane *ln = &t->lanes[k];
            int si = vam_strip_of(m, t, ln->array, r->block);
            if (si < 0) continue;
            long long off = (long long)ln->index - m->s[si].lo;
            if (off < 0 || off >= m->s[si].n) continue;
            cellst *c = &m->cells[m->s[si].cell0 + (size_t)off];
            if (r->width <= 8) {
                c->value = ln->value;
                c->known = 1;
            }
            if (!now) continue;
            unsigned th = r->warp * 32 + ln->lane;
            int first = !(c->rd || c->wr || c->at);
            if (!first && (c->thread != th || c->block != r->block)) c->multi = 1;
            c->thread = th;
            c->block = r->block;
            if (r->kind == ACC_READ) c->rd = 1;
            else if (r->kind == ACC_WRITE) c->wr = 1;
            else c->at = 1;
            /* two threads in one step, one of them writing: nothing orders
             * them (atomics only race with plain accesses) */
            if (c->multi && (c->wr || (c->at && c->rd))) c->race = 1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ helpers */

int vam_block_role(unsigned b)
{
    return VIZ_ROLE_BLOCK0 + (int)(b % VIZ_NBLOCK_ROLES);
}

int vam_site_line(const acc_trace *t, unsigned site)
{
    return site < (unsigned)t->nsites ? t->sites[site].line : 0;
}

uint32_t vam_warp_lanes(const acc_launch *l, unsigned warp)
{
    unsigned long long nt = (unsigned long long)l->block[0] * l->block[1] * l->block[2];
    unsigned long long first = (unsigned long long)warp * 32;
    if (nt <= first) return 0;
    unsigned long long k = nt - first;
    return k >= 32 ? 0xffffffffu : (1u << k) - 1;
}

