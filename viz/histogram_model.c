/* histogram_model.c - the histogram renderer's model: which frame each
 * event of a trace belongs to, what it does to a bin (a pixel, a private
 * count, a global atomic, a merge), and the bins and the contention after
 * any frame, rebuilt from the trace (histogram_model.h). No drawing here. */
#include "viz/histogram_model.h"

#include <stdlib.h>
#include <string.h>

void hist_model_free(hmodel *m)
{
    free(m->cls);
    free(m->frame);
    free(m->bin);
    free(m->fr);
    free(m->block_first);
    memset(m, 0, sizeof *m);
}

int hist_model_build(hmodel *m, const lab_trace *t)
{
    memset(m, 0, sizeof *m);
    m->t = t;
    const size_t n = t->count;
    m->n = t->n;
    m->w = t->width > 0 ? t->width : (int)(t->n > 0 ? t->n : 1);
    m->h = t->height > 0 ? t->height : 1;
    m->spread = strcmp(t->variant, "fast") == 0;
    m->per_step = m->spread ? 16 : 1;
    if (t->nlaunches > 0) {
        m->bd = (int)t->launches[0].block[0];
        m->nblocks = (int)t->launches[0].grid[0];
    }
    for (size_t i = 0; i < n; i++) {
        const lab_event *e = &t->ev[i];
        if (e->kind == LAB_EV_ATOMIC && e->space == LAB_SP_SHARED) m->priv = 1;
        if ((int)e->block + 1 > m->nblocks) m->nblocks = (int)e->block + 1;
        if ((int)e->thread + 1 > m->bd) m->bd = (int)e->thread + 1;
    }
    if (m->bd < 1) m->bd = 1;
    if (m->nblocks < 1) m->nblocks = 1;
    m->cls = calloc(n ? n : 1, 1);
    m->frame = malloc((n ? n : 1) * sizeof *m->frame);
    m->bin = calloc(n ? n : 1, sizeof *m->bin);
    int *steps = calloc((size_t)m->nblocks, sizeof *steps); /* steps of each block */
    int *sidx = malloc((n ? n : 1) * sizeof *sidx);         /* step of each event */
    m->block_first = malloc((size_t)m->nblocks * sizeof *m->block_first);
    if (!m->cls || !m->frame || !m->bin || !steps || !sidx || !m->block_first) goto fail;

    /* Classify; a thread's step is the count of its pixel reads so far. The
     * trace is sorted by (launch, block, thread, epoch, seq). */
    uint32_t cl = ~0u, cb = ~0u, ct = ~0u;
    int reads = 0;
    for (size_t i = 0; i < n; i++) {
        const lab_event *e = &t->ev[i];
        m->frame[i] = -1;
        sidx[i] = -1;
        if (e->launch != 0) continue; /* the histogram kernels are one launch */
        if (e->block != cb || e->thread != ct || e->launch != cl) {
            cl = e->launch;
            cb = e->block;
            ct = e->thread;
            reads = 0;
        }
        int step = reads > 0 ? (reads - 1) / m->per_step : -1;
        if (e->kind == LAB_EV_READ && e->space == LAB_SP_GLOBAL) {
            reads++;
            step = (reads - 1) / m->per_step;
            m->cls[i] = E_PIXEL;
            m->bin[i] = (int)e->v;
        } else if (e->kind == LAB_EV_MARK && e->a == HIST_MARK_MATCH && step >= 0) {
            m->cls[i] = E_MATCH;
            m->bin[i] = e->b;
        } else if (e->kind == LAB_EV_ATOMIC && e->space == LAB_SP_SHARED && step >= 0) {
            m->cls[i] = E_PRIV;
            m->bin[i] = m->spread ? e->a / WARP : e->a;
        } else if (e->kind == LAB_EV_ATOMIC && e->space == LAB_SP_GLOBAL) {
            m->cls[i] = m->priv ? E_MERGE : E_GLOBAL_PIXEL;
            m->bin[i] = e->a;
            if (m->cls[i] == E_GLOBAL_PIXEL && step < 0) m->cls[i] = E_MERGE;
        } else {
            continue;
        }
        if (m->bin[i] < 0 || m->bin[i] >= NB) {
            m->cls[i] = E_NONE;
            continue;
        }
        if (m->cls[i] != E_MERGE) {
            sidx[i] = step;
            if (step + 1 > steps[e->block]) steps[e->block] = step + 1;
        }
    }

    /* Frames: the image, each block's steps and its end, the counts. */
    int cap = 2;
    for (int b = 0; b < m->nblocks; b++) cap += steps[b] + 1;
    m->fr = calloc((size_t)cap, sizeof *m->fr);
    if (!m->fr) goto fail;
    m->fr[m->nfr++].kind = F_IMAGE;
    int *done = malloc((size_t)m->nblocks * sizeof *done);
    if (!done) goto fail;
    for (int b = 0; b < m->nblocks; b++) {
        m->block_first[b] = -1;
        done[b] = -1;
        if (steps[b] == 0) {
            /* a block with no pixel can still merge nothing; skip it unless
             * it has events */
            int any = 0;
            for (size_t i = 0; i < n && !any; i++) any = m->cls[i] && (int)t->ev[i].block == b;
            if (!any) continue;
        }
        m->block_first[b] = m->nfr;
        for (int s = 0; s < steps[b]; s++) {
            hframe *f = &m->fr[m->nfr++];
            f->kind = F_STEP;
            f->block = b;
            f->step = s;
        }
        done[b] = m->nfr;
        hframe *f = &m->fr[m->nfr++];
        f->kind = F_DONE;
        f->block = b;
        f->step = steps[b];
    }
    m->fr[m->nfr++].kind = F_COUNTS;
    for (size_t i = 0; i < n; i++) {
        if (!m->cls[i]) continue;
        int b = (int)t->ev[i].block;
        if (m->block_first[b] < 0) continue;
        m->frame[i] = m->cls[i] == E_MERGE ? done[b] : m->block_first[b] + sidx[i];
    }
    free(done);

    /* The final histogram, the exact count, the scale. */
    for (size_t i = 0; i < n; i++) {
        if (m->cls[i] == E_GLOBAL_PIXEL) m->final[m->bin[i]] += 1;
        else if (m->cls[i] == E_MERGE) m->final[m->bin[i]] += (unsigned)t->ev[i].v;
    }
    if (t->input && t->n > 0) {
        m->have_exact = 1;
        for (long long i = 0; i < t->n; i++) {
            int v = (int)t->input[i];
            if (v >= 0 && v < NB) m->exact[v]++;
        }
    }
    free(steps);
    free(sidx);
    return 0;
fail:
    free(steps);
    free(sidx);
    hist_model_free(m);
    return -1;
}

/* ------------------------------------------------------------ frame state */

void hist_state_at(const hmodel *m, int fi, hstate *s, unsigned char *lit, unsigned char *seen)
{
    memset(s, 0, sizeof *s);
    s->hotbin = s->samebin = -1;
    s->worst_warp = -1;
    const hframe *f = &m->fr[fi];
    const lab_trace *t = m->t;
    int cur_block = f->kind == F_STEP || f->kind == F_DONE ? f->block : -1;
    unsigned char warp_seen[WARP] = {0};
    for (size_t i = 0; i < t->count; i++) {
        int fr = m->frame[i];
        if (fr < 0 || fr > fi) continue;
        const lab_event *e = &t->ev[i];
        int b = m->bin[i];
        int here = fr == fi;
        switch (m->cls[i]) {
        case E_PIXEL:
            if (e->a >= 0 && e->a < m->n) {
                if (here && lit) lit[e->a] = 1;
                else if (seen) seen[e->a] = 1;
            }
            if (here) {
                s->pixels_now++;
                int wp = (int)(e->thread / WARP) % WARP;
                if (!warp_seen[wp]) {
                    warp_seen[wp] = 1;
                    s->warps_now++;
                }
            }
            break;
        case E_MATCH:
            if (here) {
                int v2 = (int)e->v2, v = (int)e->v;
                if (v2 > s->heat[b]) s->heat[b] = v2;
                if (v > s->same[b]) s->same[b] = v;
                if (v2 > s->maxheat) {
                    s->maxheat = v2;
                    s->hotbin = b;
                    s->worst_warp = (int)(e->thread / WARP);
                }
                if (v > s->maxsame) {
                    s->maxsame = v;
                    s->samebin = b;
                }
            }
            break;
        case E_PRIV:
            s->counted++;
            if ((int)e->block == cur_block) {
                s->priv[b]++;
                if (here) s->now[b]++;
            }
            break;
        case E_GLOBAL_PIXEL:
            s->counted++;
            s->gatomics++;
            s->global[b]++;
            if (here) s->now[b]++;
            break;
        case E_MERGE:
            s->gatomics++;
            s->global[b] += (unsigned)e->v;
            if ((int)e->block == cur_block) {
                s->priv[b] = 0; /* merged: now part of the global bars */
                if (here) {
                    s->merged_bins++;
                    s->now[b] += (unsigned)e->v;
                }
            }
            break;
        }
    }
    /* private counts of blocks before this one are merged; the done frame
     * moved this block's into global */
    if (f->kind == F_DONE && m->priv)
        for (int b = 0; b < NB; b++) s->priv[b] = 0;
}
