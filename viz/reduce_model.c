/* reduce_model.c - a reduction trace as frames, and what each frame's warps
 * did (reduce_model.h). No drawing here: the tests read the model directly. */
#include "viz/reduce_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the model */

static int ev_cmp(const void *a, const void *b)
{
    const lab_event *x = *(const lab_event *const *)a, *y = *(const lab_event *const *)b;
    if (x->launch != y->launch) return x->launch < y->launch ? -1 : 1;
    if (x->block != y->block) return x->block < y->block ? -1 : 1;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    if (x->epoch != y->epoch) return x->epoch < y->epoch ? -1 : 1;
    if (x->seq != y->seq) return x->seq < y->seq ? -1 : 1;
    return 0;
}

static int is_op(const lab_event *e)
{
    switch (e->kind) {
    case LAB_EV_ADD:
    case LAB_EV_SHFL: return 1;
    case LAB_EV_READ:
    case LAB_EV_WRITE: return e->space != LAB_SP_GLOBAL;
    default: return 0;
    }
}

static int is_result(const lab_event *e)
{
    return (e->kind == LAB_EV_ATOMIC) || (e->kind == LAB_EV_WRITE && e->space == LAB_SP_GLOBAL);
}

/* A step: the ord-th operation of class cls that a thread does in barrier
 * epoch `epoch`. Classes are counted apart so that a conditional shared
 * access before a shuffle (only some lanes do it) does not shift the
 * shuffle rounds against each other. rank: how many operations the thread
 * did before it in the epoch; steps of one epoch play in order of their
 * largest rank. */
enum { K_SHARED = 0, K_REG, K_RESULT };
typedef struct key {
    uint32_t epoch, ord, cls, rank;
} key;

static int key_cmp(const void *a, const void *b)
{
    const key *x = a, *y = b;
    if (x->epoch != y->epoch) return x->epoch < y->epoch ? -1 : 1;
    if (x->cls != y->cls) return x->cls < y->cls ? -1 : 1;
    if (x->ord != y->ord) return x->ord < y->ord ? -1 : 1;
    return 0;
}

/* The order steps play in. */
static int play_cmp(const void *a, const void *b)
{
    const key *x = a, *y = b;
    if (x->epoch != y->epoch) return x->epoch < y->epoch ? -1 : 1;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    return key_cmp(a, b);
}

static uint32_t op_class(const lab_event *e)
{
    if (is_result(e)) return K_RESULT;
    if (e->kind == LAB_EV_SHFL || e->space == LAB_SP_REG) return K_REG;
    return K_SHARED;
}

void rmodel_free(rmodel *m)
{
    free(m->ev);
    free(m->fev);
    free(m->fr);
    free(m->reader);
    for (int l = 0; l < m->nl; l++) free(m->L[l].bar);
    memset(m, 0, sizeof *m);
}

int rmodel_digits(double a)
{
    int d = 1;
    while (a >= 10 && d < 20) {
        a /= 10;
        d++;
    }
    return d;
}

int rmodel_build(rmodel *m, const lab_trace *t)
{
    memset(m, 0, sizeof *m);
    m->t = t;
    size_t n = t->count;
    m->ev = malloc((n ? n : 1) * sizeof *m->ev);
    unsigned char *cls = calloc(n ? n : 1, 1);
    key *k = malloc((n ? n : 1) * sizeof *k);
    int *fidx = malloc((n ? n : 1) * sizeof *fidx);
    key *keys = malloc((n ? 2 * n : 1) * sizeof *keys);
    if (!m->ev || !cls || !k || !fidx || !keys) goto fail;
    m->nev = n;

    /* Key order. GPU traces arrive sorted; the simulator's may not. */
    int sorted = 1;
    for (size_t i = 0; i < n; i++) {
        m->ev[i] = &t->ev[i];
        if (i && sorted && ev_cmp(&m->ev[i - 1], &m->ev[i]) > 0) sorted = 0;
    }
    if (!sorted) qsort(m->ev, n, sizeof *m->ev, ev_cmp);

    /* Launches: from the header, else from the events. */
    int nl = t->nlaunches;
    for (size_t i = 0; i < n; i++)
        if ((int)m->ev[i]->launch + 1 > nl) nl = (int)m->ev[i]->launch + 1;
    if (nl > LAB_TRACE_MAX_LAUNCHES) nl = LAB_TRACE_MAX_LAUNCHES;
    m->nl = nl;
    for (int l = 0; l < nl; l++) {
        rlaunch *L = &m->L[l];
        L->load = L->result = -1;
        if (l < t->nlaunches) {
            const lab_launch_info *li = &t->launches[l];
            L->bd = (int)(li->block[0] * (li->block[1] ? li->block[1] : 1) * (li->block[2] ? li->block[2] : 1));
            L->nblocks = (int)(li->grid[0] * (li->grid[1] ? li->grid[1] : 1) * (li->grid[2] ? li->grid[2] : 1));
        }
    }

    /* Classify each event; number each thread's operations within an epoch. */
    double maxabs = 0;
    int frac = 0;
    uint32_t cur_l = ~0u, cur_b = ~0u, cur_t = ~0u, cur_e = 0, ord[3] = {0, 0, 0}, rank = 0;
    int started = 0, reads = 0;
    for (size_t i = 0; i < n; i++) {
        const lab_event *e = m->ev[i];
        if ((int)e->launch >= nl) continue;
        rlaunch *L = &m->L[e->launch];
        if (e->launch != cur_l || e->block != cur_b || e->thread != cur_t) {
            cur_l = e->launch;
            cur_b = e->block;
            cur_t = e->thread;
            cur_e = e->epoch;
            ord[0] = ord[1] = ord[2] = rank = 0;
            started = 0;
            reads = 0;
        }
        if (e->epoch != cur_e) {
            cur_e = e->epoch;
            ord[0] = ord[1] = ord[2] = rank = 0;
        }
        if ((int)e->thread + 1 > L->bd && (int)e->launch >= t->nlaunches) L->bd = (int)e->thread + 1;
        if ((int)e->block + 1 > L->nblocks) L->nblocks = (int)e->block + 1;
        if (e->space == LAB_SP_SHARED && e->kind != LAB_EV_BARRIER) {
            int ext = e->a + 1;
            if (e->kind == LAB_EV_ADD && e->b + 1 > ext) ext = e->b + 1;
            if (ext > L->shared_n && ext < (1 << 24)) L->shared_n = ext;
        }
        if (e->kind == LAB_EV_BARRIER) {
            if (e->epoch + 1 > L->nbar_epochs) {
                unsigned char *b = realloc(L->bar, e->epoch + 1);
                if (!b) goto fail;
                memset(b + L->nbar_epochs, 0, e->epoch + 1 - L->nbar_epochs);
                L->bar = b;
                L->nbar_epochs = e->epoch + 1;
            }
            L->bar[e->epoch] = 1;
            continue;
        }
        if (e->kind == LAB_EV_READ && e->space == LAB_SP_GLOBAL) {
            cls[i] = C_LOAD;
            if (++reads > L->max_reads) L->max_reads = reads;
        } else if (e->kind == LAB_EV_WRITE && e->space == LAB_SP_SHARED && !started) {
            cls[i] = C_LOAD; /* the thread stores its partial: part of the load */
            started = 1;
            L->load_shared = 1;
        } else if (is_op(e) || is_result(e)) {
            /* Block results are steps too: in the vector variant the last
             * block still works after every block has written its sum. */
            cls[i] = is_result(e) ? C_RESULT : C_STEP;
            k[i].epoch = e->epoch;
            k[i].cls = op_class(e);
            k[i].ord = ord[k[i].cls]++;
            k[i].rank = rank++;
            started = 1;
        } else {
            continue;
        }
        double vals[2] = {e->v, e->kind == LAB_EV_SHFL ? e->v2 : 0};
        for (int j = 0; j < 2; j++) {
            double a = fabs(vals[j]);
            if (isfinite(a) && a > maxabs) maxabs = a;
            if (isfinite(vals[j]) && vals[j] != floor(vals[j])) frac = 1;
        }
    }

    /* Frames: input, then per launch its load, steps and results, then final. */
    int cap = 2;
    for (int l = 0; l < nl; l++) cap += 2;
    for (size_t i = 0; i < n; i++)
        if (cls[i] == C_STEP || cls[i] == C_RESULT) cap++;
    m->fr = calloc((size_t)cap, sizeof *m->fr);
    if (!m->fr) goto fail;
    m->fr[m->nfr++].kind = F_INPUT;
    for (int l = 0; l < nl; l++) {
        rlaunch *L = &m->L[l];
        int has_load = 0;
        size_t nk = 0;
        for (size_t i = 0; i < n; i++) {
            if ((int)m->ev[i]->launch != l) continue;
            if (cls[i] == C_LOAD) has_load = 1;
            if (cls[i] == C_STEP || cls[i] == C_RESULT) keys[nk++] = k[i];
        }
        qsort(keys, nk, sizeof *keys, key_cmp);
        size_t nu = 0;
        for (size_t i = 0; i < nk; i++) {
            if (nu == 0 || key_cmp(&keys[nu - 1], &keys[i]) != 0) keys[nu++] = keys[i];
            else if (keys[i].rank > keys[nu - 1].rank) keys[nu - 1].rank = keys[i].rank;
        }
        /* keys stays in lookup order; order[] says where each step plays. */
        key *play = keys + nu;
        memcpy(play, keys, nu * sizeof *keys);
        qsort(play, nu, sizeof *play, play_cmp);
        L->first = m->nfr;
        if (has_load) {
            L->load = m->nfr;
            m->fr[m->nfr].kind = F_LOAD;
            m->fr[m->nfr++].launch = l;
        }
        int step0 = m->nfr;
        for (size_t i = 0; i < nu; i++) {
            rframe *f = &m->fr[m->nfr++];
            f->kind = F_STEP;
            f->launch = l;
            f->epoch = play[i].epoch;
            f->ord = play[i].ord;
            /* where each lookup key plays: keep it in the key's rank field */
            key *q = bsearch(&play[i], keys, nu, sizeof *keys, key_cmp);
            q->rank = (uint32_t)i;
        }
        L->nframes = m->nfr - L->first;
        /* Which frame each event of this launch belongs to. */
        for (size_t i = 0; i < n; i++) {
            if ((int)m->ev[i]->launch != l) continue;
            fidx[i] = -1;
            if (cls[i] == C_LOAD) fidx[i] = L->load;
            else if (cls[i] == C_STEP || cls[i] == C_RESULT) {
                key *p = bsearch(&k[i], keys, nu, sizeof *keys, key_cmp);
                fidx[i] = step0 + (int)p->rank;
            }
        }
    }
    m->fr[m->nfr++].kind = F_FINAL;
    if (m->nl > 0) m->fr[m->nfr - 1].launch = m->nl - 1;

    /* Group the events by frame, keeping key order (a counting sort). */
    m->fev = malloc((n ? n : 1) * sizeof *m->fev);
    if (!m->fev) goto fail;
    int *nonres = calloc((size_t)m->nfr, sizeof *nonres);
    if (!nonres) goto fail;
    for (int f = 0; f < m->nfr; f++) m->fr[f].min_epoch = ~0u;
    for (size_t i = 0; i < n; i++) {
        if ((int)m->ev[i]->launch >= nl || cls[i] == C_NONE || fidx[i] < 0) continue;
        rframe *f = &m->fr[fidx[i]];
        f->count++;
        if (cls[i] != C_RESULT) nonres[fidx[i]]++;
        if (m->ev[i]->epoch < f->min_epoch) f->min_epoch = m->ev[i]->epoch;
    }
    /* A step made of block results only is a result frame. */
    for (int f = 0; f < m->nfr; f++)
        if (m->fr[f].kind == F_STEP && m->fr[f].count > 0 && nonres[f] == 0) {
            m->fr[f].kind = F_RESULT;
            if (m->L[m->fr[f].launch].result < 0) m->L[m->fr[f].launch].result = f;
        }
    free(nonres);
    size_t off = 0;
    for (int f = 0; f < m->nfr; f++) {
        m->fr[f].first = off;
        off += m->fr[f].count;
        m->fr[f].count = 0;
    }
    for (size_t i = 0; i < n; i++) {
        if ((int)m->ev[i]->launch >= nl || cls[i] == C_NONE || fidx[i] < 0) continue;
        rframe *f = &m->fr[fidx[i]];
        m->fev[f->first + f->count++] = m->ev[i];
    }
    for (int l = 0; l < nl; l++) {
        rlaunch *L = &m->L[l];
        if (L->bd < 1) L->bd = 1;
        if (L->nblocks < 1) L->nblocks = 1;
        L->slots = L->shared_n > L->bd ? L->shared_n : L->bd;
    }

    /* The input, who reads it, and the CPU's answer (compensated sum). */
    if (t->input && t->n > 0) {
        double s = 0, comp = 0;
        for (long long i = 0; i < t->n; i++) {
            double v = t->input[i];
            double y = v - comp, u = s + y;
            comp = (u - s) - y;
            s = u;
            if (fabs(v) > maxabs) maxabs = fabs(v);
            if (v != floor(v)) frac = 1;
        }
        m->ref = s;
        m->have_ref = 1;
        if (fabs(s) > maxabs) maxabs = fabs(s);
        m->reader = malloc((size_t)t->n * sizeof *m->reader);
        if (!m->reader) goto fail;
        for (long long i = 0; i < t->n; i++) m->reader[i] = -1;
        for (size_t i = 0; i < n; i++) {
            const lab_event *e = m->ev[i];
            if (e->launch == 0 && e->kind == LAB_EV_READ && e->space == LAB_SP_GLOBAL && e->a >= 0 &&
                e->a < t->n && m->reader[e->a] < 0)
                m->reader[e->a] = (int)e->block;
        }
    }
    if (t->dtype == LAB_INT || t->dtype == LAB_U8) frac = 0;
    m->vw = rmodel_digits(maxabs) + (frac ? 3 : 0);
    if (m->vw > 9) m->vw = 9;

    free(cls);
    free(k);
    free(fidx);
    free(keys);
    return 0;
fail:
    free(cls);
    free(k);
    free(fidx);
    free(keys);
    rmodel_free(m);
    return -1;
}

/* ------------------------------------------------------- frame statistics */

/* Passes a full warp access needs however the indices lie: 8-byte values
 * fill 256 bytes, two rounds of the 32 banks. Conflicts mean more than this. */
int rmodel_min_passes(const lab_trace *t)
{
    return t->smem_elem_bytes > 4 ? t->smem_elem_bytes / 4 : 1;
}

/* Distinct words per bank among the indices one warp instruction touches. */
static int bank_ways(const int *idx, int n, int elem_bytes)
{
    long long words[WARP];
    int nw = 0, count[NBANKS] = {0}, ways = 0;
    if (elem_bytes <= 0) elem_bytes = 4;
    for (int i = 0; i < n; i++) {
        long long w = (long long)idx[i] * elem_bytes / 4;
        int seen = 0;
        for (int j = 0; j < nw && !seen; j++) seen = words[j] == w;
        if (seen) continue;
        words[nw++] = w;
        int b = (int)(((w % NBANKS) + NBANKS) % NBANKS);
        if (++count[b] > ways) ways = count[b];
    }
    return ways;
}

/* Walk one frame's events warp by warp. When ws is not NULL it receives the
 * statistics of warps (block b < nshow, warp w) at ws[b * wpb + w]. */
void rmodel_frame_stats(const rmodel *m, int fi, fstats *s, wstat *ws, int nshow)
{
    const rframe *f = &m->fr[fi];
    memset(s, 0, sizeof *s);
    s->uniform = 1;
    s->xor_pattern = 1;
    if (f->kind == F_INPUT || f->kind == F_FINAL) return;
    const rlaunch *L = &m->L[f->launch];
    int wpb = lab_ceil_div(L->bd, WARP);
    int first_pair = 1, interleaved = 1, sequential = 1;
    size_t i = 0;
    uint32_t last_block = ~0u;
    while (i < f->count) {
        const lab_event *e0 = m->fev[f->first + i];
        uint32_t blk = e0->block, warp = e0->thread / WARP;
        if (blk != last_block) {
            s->nblocks_active++;
            s->only_block = (int)blk;
            last_block = blk;
        }
        int idx[4][WARP], nidx[4] = {0, 0, 0, 0};
        int active = 0;
        uint32_t last_thread = ~0u;
        for (; i < f->count; i++) {
            const lab_event *e = m->fev[f->first + i];
            if (e->block != blk || e->thread / WARP != warp) break;
            if (e->thread != last_thread) {
                active++;
                last_thread = e->thread;
            }
            int cl = -1, a = e->a;
            switch (e->kind) {
            case LAB_EV_ADD:
                if (e->space == LAB_SP_SHARED) {
                    s->nadd++;
                    if (nidx[0] < WARP) idx[0][nidx[0]++] = e->a;
                    cl = 1;
                    a = e->b;
                }
                break;
            case LAB_EV_SHFL: s->nshfl++; break;
            case LAB_EV_READ:
                if (e->space == LAB_SP_SHARED) { s->nread_s++; cl = 2; }
                else if (e->space == LAB_SP_GLOBAL) s->nread_g++;
                break;
            case LAB_EV_WRITE:
                if (e->space == LAB_SP_SHARED) {
                    if (f->kind == F_LOAD) s->nload_write++;
                    else s->nwrite_s++;
                    cl = 3;
                } else if (e->space == LAB_SP_GLOBAL) {
                    s->nwrite_g++;
                }
                break;
            case LAB_EV_ATOMIC: s->natomic++; break;
            default: break;
            }
            if (cl >= 0 && nidx[cl] < WARP) idx[cl][nidx[cl]++] = a;
            /* The pattern of the pairs: src - dst, and which threads work. */
            int pair = (e->kind == LAB_EV_ADD && e->space == LAB_SP_SHARED) ||
                       (e->kind == LAB_EV_SHFL && e->b != e->a && e->b >= 0 && e->b < WARP);
            if (pair) {
                int d = e->b - e->a;
                if (first_pair) {
                    s->offset = d;
                    first_pair = 0;
                } else if (d != s->offset) {
                    s->uniform = 0;
                }
                if (e->kind == LAB_EV_SHFL) {
                    if ((e->a ^ abs(d)) != e->b || abs(d) != abs(s->offset))
                        s->xor_pattern = 0;
                    if (d < 0) s->downward = 1;
                }
                if (e->kind == LAB_EV_ADD) {
                    int dd = abs(d);
                    if (dd == 0 || (int)e->thread % (2 * dd) != 0) interleaved = 0;
                    if ((int)e->thread >= dd) sequential = 0;
                }
            }
        }
        int lanes = L->bd - (int)warp * WARP;
        if (lanes > WARP) lanes = WARP;
        if (lanes < active) lanes = active;
        int ways = 0;
        for (int c = 0; c < 4; c++) {
            int w = bank_ways(idx[c], nidx[c], m->t->smem_elem_bytes);
            if (w > ways) ways = w;
        }
        s->active += active;
        s->warps_active++;
        s->idle_in_active += lanes - active;
        if (active < lanes) s->divergent++;
        if (ways > s->ways) s->ways = ways;
        if (ws && (int)blk < nshow && (int)warp < wpb) {
            wstat *w = &ws[blk * wpb + warp];
            w->active = active;
            w->lanes = lanes;
            w->ways = ways;
        }
    }
    if (first_pair) s->uniform = 0;
    /* shfl_down and shfl_xor agree on the lower lanes; only xor sends down. */
    if (s->nshfl == 0 || !s->downward) s->xor_pattern = 0;
    if (s->nadd > 0 && s->uniform && s->offset > 0) {
        if (interleaved && sequential) s->pattern = 3; /* thread 0 alone: both read alike */
        else if (interleaved) s->pattern = 1;
        else if (sequential) s->pattern = 2;
    }
    /* Barriers passed once this frame is over: those before the next frame
     * of the launch begins (the __syncthreads that ends this step). */
    uint32_t limit = ~0u;
    if (fi + 1 < m->nfr && m->fr[fi + 1].launch == f->launch && m->fr[fi + 1].kind != F_FINAL &&
        m->fr[fi + 1].count > 0)
        limit = m->fr[fi + 1].min_epoch;
    for (uint32_t e = 0; e < L->nbar_epochs; e++)
        if (L->bar[e] && e < limit) s->barriers++;
}

/* ------------------------------------------- values and marks of a frame */


int rstate_init(rstate *st, const rlaunch *L, int nshow)
{
    memset(st, 0, sizeof *st);
    st->nshow = nshow;
    st->slots = L->slots;
    st->bd = L->bd;
    size_t ns = (size_t)nshow * (size_t)L->slots, nr = (size_t)nshow * (size_t)L->bd;
    size_t nw = (size_t)nshow * (size_t)(lab_ceil_div(L->slots, WARP));
    st->sh = calloc(ns ? ns : 1, sizeof *st->sh);
    st->reg = calloc(nr ? nr : 1, sizeof *st->reg);
    st->sset = calloc(ns ? ns : 1, 1);
    st->used = calloc(ns ? ns : 1, 1);
    st->rset = calloc(nr ? nr : 1, 1);
    st->regmode = calloc(nw ? nw : 1, 1);
    return st->sh && st->reg && st->sset && st->used && st->rset && st->regmode ? 0 : -1;
}

void rstate_free(rstate *st)
{
    free(st->sh);
    free(st->reg);
    free(st->sset);
    free(st->used);
    free(st->rset);
    free(st->regmode);
}

/* Event e wrote shared slot e->a: its value is set and not yet used, and the
 * last work of the warp whose slot it is was no longer in registers. */
static void shared_written(rstate *st, const lab_event *e, int wps)
{
    size_t sb = (size_t)e->block * st->slots;
    st->sh[sb + e->a] = e->v;
    st->sset[sb + e->a] = 1;
    st->used[sb + e->a] = 0;
    int ws = e->a / WARP;
    if (ws < wps) st->regmode[(size_t)e->block * wps + ws] = 0;
}

void rstate_apply(rstate *st, const rmodel *m, int fi)
{
    const rframe *f = &m->fr[fi];
    int wps = lab_ceil_div(st->slots, WARP);
    for (size_t i = 0; i < f->count; i++) {
        const lab_event *e = m->fev[f->first + i];
        if ((int)e->block >= st->nshow) continue;
        size_t sb = (size_t)e->block * st->slots, rb = (size_t)e->block * st->bd;
        int th = (int)e->thread;
        int w = th / WARP;
        unsigned char *rm = w < wps ? &st->regmode[(size_t)e->block * wps + w] : NULL;
        int sh_a = e->space == LAB_SP_SHARED && e->a >= 0 && e->a < st->slots;
        switch (e->kind) {
        case LAB_EV_READ:
            if (e->space == LAB_SP_GLOBAL && th < st->bd) {
                st->reg[rb + th] = (st->rset[rb + th] ? st->reg[rb + th] : 0) + e->v;
                st->rset[rb + th] = 1;
                if (rm && f->kind == F_LOAD) *rm = 1;
            } else if (sh_a && th < st->bd) {
                st->reg[rb + th] = e->v;
                st->rset[rb + th] = 1;
                if (rm) *rm = 1;
            }
            break;
        case LAB_EV_WRITE:
            if (sh_a) {
                shared_written(st, e, wps);
                if (rm && f->kind == F_LOAD) *rm = 0;
            }
            break;
        case LAB_EV_ADD:
            if (e->space == LAB_SP_SHARED) {
                if (sh_a) {
                    shared_written(st, e, wps);
                }
                if (e->b >= 0 && e->b < st->slots) st->used[sb + e->b] = 1;
            } else if (th < st->bd) {
                st->reg[rb + th] = e->v;
                st->rset[rb + th] = 1;
                if (rm) *rm = 1;
            }
            break;
        case LAB_EV_SHFL:
            if (th < st->bd) {
                st->reg[rb + th] = e->v2;
                st->rset[rb + th] = 1;
                if (rm) *rm = 1;
            }
            break;
        default: break;
        }
    }
}

int rmarks_init(rmarks *k, int slots)
{
    k->slots = slots;
    k->dst = calloc((size_t)slots, 1);
    k->src = calloc((size_t)slots, 1);
    k->busy = calloc((size_t)slots, 1);
    k->from = malloc((size_t)slots * sizeof *k->from);
    if (!k->dst || !k->src || !k->busy || !k->from) return -1;
    for (int i = 0; i < slots; i++) k->from[i] = -1;
    return 0;
}

void rmarks_free(rmarks *k)
{
    free(k->dst);
    free(k->src);
    free(k->busy);
    free(k->from);
}

void rmarks_fill(rmarks *k, const rmodel *m, int fi, int blk)
{
    const rframe *f = &m->fr[fi];
    for (size_t i = 0; i < f->count; i++) {
        const lab_event *e = m->fev[f->first + i];
        if ((int)e->block > blk) break; /* events come block by block */
        if ((int)e->block != blk) continue;
        int th = (int)e->thread;
        if (th < k->slots) k->busy[th] = 1;
        int d = -1, s = -1;
        switch (e->kind) {
        case LAB_EV_ADD:
            if (e->space == LAB_SP_SHARED) {
                d = e->a;
                s = e->b;
            } else {
                d = th;
            }
            break;
        case LAB_EV_SHFL:
            d = th;
            if (e->b != e->a && e->b >= 0 && e->b < WARP) s = th - e->a + e->b;
            break;
        case LAB_EV_WRITE:
            d = e->space == LAB_SP_SHARED ? e->a : (e->space == LAB_SP_GLOBAL ? th : -1);
            break;
        case LAB_EV_READ:
            d = th; /* the register it fills */
            if (e->space == LAB_SP_SHARED && e->a >= 0 && e->a < k->slots && e->a != th) s = e->a;
            break;
        case LAB_EV_ATOMIC: d = th; break;
        default: break;
        }
        if (d >= 0 && d < k->slots) {
            k->dst[d] = 1;
            if (s >= 0 && s < k->slots) {
                k->src[s] = 1;
                k->from[d] = s;
            }
        }
    }
}
