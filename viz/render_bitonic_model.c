/* render_bitonic_model.c - a bitonic trace as the network's steps (see
 * render_bitonic.h). The contract of the events is in
 * kernels/bitonic/bitonic_trace.h: the k of a compare-exchange is the one of
 * its thread's latest step marker, its j is i1 ^ i2, and a shared-memory
 * compare-exchange indexes its block's slice of 2 * blockDim keys. */
#include "viz/render_bitonic.h"

#include "kernels/bitonic/bitonic_trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "viz/intl.h"

void bmodel_free(bmodel *m)
{
    free(m->st);
    free(m->val);
    free(m->partner);
    free(m->flag);
    free(m->blk);
    free(m->thr);
    free(m->sorted);
    memset(m, 0, sizeof *m);
}

static int ev_cmp(const void *a, const void *b)
{
    return lab_event_cmp(*(const lab_event *const *)a, *(const lab_event *const *)b);
}

static int dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int bmodel_build(bmodel *m, const lab_trace *t)
{
    memset(m, 0, sizeof *m);
    m->t = t;
    m->n = t->n;
    if (m->n < 1 || !lab_is_pow2(m->n) || m->n > DRAW_MAX_N) return 0; /* ok stays 0: a message */
    long long n = m->n;
    m->S = bitonic_nsteps(n);
    size_t S = (size_t)m->S, cells = S * (size_t)n;
    m->st = calloc(S ? S : 1, sizeof *m->st);
    m->val = calloc((S + 1) * (size_t)n, sizeof *m->val);
    m->partner = malloc((cells ? cells : 1) * sizeof *m->partner);
    m->flag = calloc(cells ? cells : 1, 1);
    m->blk = calloc(cells ? cells : 1, sizeof *m->blk);
    m->thr = calloc(cells ? cells : 1, sizeof *m->thr);
    m->sorted = malloc((size_t)n * sizeof *m->sorted);
    const lab_event **ev = malloc((t->count ? t->count : 1) * sizeof *ev);
    if (!m->st || !m->val || !m->partner || !m->flag || !m->blk || !m->thr || !m->sorted || !ev) {
        free(ev);
        bmodel_free(m);
        return -1;
    }
    for (size_t i = 0; i < cells; i++) m->partner[i] = -1;
    for (size_t s = 0; s < S; s++) {
        bstep *b = &m->st[s];
        bitonic_step_kj((int)s, &b->k, &b->j);
        b->role = b->space = -1;
        b->launch_lo = b->launch_hi = -1;
        b->blk_lo = b->blk_hi = -1;
    }
    for (long long i = 0; i < n; i++) m->val[i] = t->input ? t->input[i] : 0;
    memcpy(m->sorted, m->val, (size_t)n * sizeof *m->sorted);
    qsort(m->sorted, (size_t)n, sizeof *m->sorted, dbl_cmp);

    /* Key order: each thread's events together, in the order it made them. */
    for (size_t i = 0; i < t->count; i++) ev[i] = &t->ev[i];
    qsort(ev, t->count, sizeof *ev, ev_cmp);
    uint32_t cl = ~0u, cb = ~0u, ct = ~0u;
    long long k = 0;
    int role = -1, rc = 0, rsp = -1;
    int *seen = calloc(S ? S : 1, sizeof *seen); /* last thread counted per step */
    long long *seen_key = calloc(S ? S : 1, sizeof *seen_key);
    if (!seen || !seen_key) {
        free(seen);
        free(seen_key);
        free(ev);
        bmodel_free(m);
        return -1;
    }
    for (size_t i = 0; i < t->count; i++) {
        const lab_event *e = ev[i];
        if (e->launch != cl || e->block != cb || e->thread != ct) {
            cl = e->launch, cb = e->block, ct = e->thread;
            k = 0, role = -1, rc = 0, rsp = -1;
        }
        long long i1, i2;
        int s;
        switch (e->kind) {
        case LAB_EV_MARK:
            if (e->a == BITONIC_MK_STEP) {
                k = (long long)e->v;
                role = e->b;
            } else if (e->a == BITONIC_MK_ROUND) {
                rsp = e->b;
                rc = (int)e->v2;
            } else if (e->a == BITONIC_MK_IDLE) {
                i1 = e->b, i2 = (long long)e->v;
                s = bitonic_step_index(k, i1 ^ i2);
                if (s < 0 || s >= m->S || i1 < 0 || i1 >= n) {
                    m->stray++;
                    break;
                }
                size_t c = (size_t)s * (size_t)n + (size_t)i1;
                m->flag[c] |= W_IDLE;
                m->blk[c] = (int)e->block;
                m->thr[c] = (int)e->thread;
                m->st[s].nidle++;
                m->is_o = 1;
            }
            break;
        case LAB_EV_CSWAP:
            i1 = e->a < e->b ? e->a : e->b;
            i2 = e->a < e->b ? e->b : e->a;
            if (e->space == LAB_SP_SHARED) {
                /* indices into the block's slice of 2 * blockDim keys */
                if ((int)e->launch >= t->nlaunches) {
                    m->stray++;
                    break;
                }
                long long base = (long long)e->block * 2 * t->launches[e->launch].block[0];
                i1 += base;
                i2 += base;
            }
            s = bitonic_step_index(k, i1 ^ i2);
            if (s < 0 || s >= m->S || i1 < 0 || i2 >= n || i2 - i1 != m->st[s].j) {
                m->stray++;
                break;
            }
            {
                bstep *b = &m->st[s];
                unsigned char f = W_PAIR | (e->v != 0 ? W_SWAP : 0) | (e->v2 != 0 ? W_ASC : 0);
                size_t c1 = (size_t)s * (size_t)n + (size_t)i1, c2 = (size_t)s * (size_t)n + (size_t)i2;
                m->flag[c1] = (unsigned char)((m->flag[c1] & W_IDLE) | f | W_TOP);
                m->flag[c2] = (unsigned char)((m->flag[c2] & W_IDLE) | f);
                m->partner[c1] = (int)i2;
                m->partner[c2] = (int)i1;
                if (!(m->flag[c1] & W_IDLE)) m->blk[c1] = (int)e->block, m->thr[c1] = (int)e->thread;
                if (!(m->flag[c2] & W_IDLE)) m->blk[c2] = (int)e->block, m->thr[c2] = (int)e->thread;
                b->ncs++;
                if (e->v != 0) b->nswap++;
                if (b->role < 0) b->role = role;
                if (b->space < 0) b->space = e->space;
                if (b->launch_lo < 0 || (int)e->launch < b->launch_lo) b->launch_lo = (int)e->launch;
                if ((int)e->launch > b->launch_hi) b->launch_hi = (int)e->launch;
                if (b->blk_lo < 0 || (long long)e->block < b->blk_lo) b->blk_lo = e->block;
                if ((long long)e->block > b->blk_hi) b->blk_hi = e->block;
                long long key = ((long long)e->launch << 42) ^ ((long long)e->block << 21) ^ e->thread;
                if (!seen[s] || seen_key[s] != key) {
                    b->nthreads++;
                    seen[s] = 1;
                    seen_key[s] = key;
                }
                if (rc > 0) {
                    b->round_c = rc;
                    b->round_space = rsp;
                }
            }
            break;
        default:
            break;
        }
    }
    free(seen);
    free(seen_key);
    free(ev);
    /* Replay the swaps step by step: the keys as the threads left them. */
    for (int s = 0; s < m->S; s++) {
        double *a = m->val + (size_t)s * (size_t)n, *b = a + n;
        memcpy(b, a, (size_t)n * sizeof *b);
        for (long long i = 0; i < n; i++) {
            size_t c = (size_t)s * (size_t)n + (size_t)i;
            if ((m->flag[c] & (W_TOP | W_SWAP)) == (W_TOP | W_SWAP)) {
                int p = m->partner[c];
                double x = b[i];
                b[i] = b[p];
                b[p] = x;
            }
        }
    }
    m->ok = 1;
    return 0;
}

const char *bmodel_role_word(int role)
{
    switch (role) {
    case BITONIC_ROLE_STEP: return _("a launch for this step");
    case BITONIC_ROLE_START: return _("the start kernel");
    case BITONIC_ROLE_MIDDLE: return _("a middle kernel");
    case BITONIC_ROLE_FINISH: return _("the finish kernel");
    default: return _("an unknown kernel");
    }
}

char bmodel_role_letter(int role)
{
    switch (role) {
    case BITONIC_ROLE_STEP: return 'L';
    case BITONIC_ROLE_START: return 'S';
    case BITONIC_ROLE_MIDDLE: return 'M';
    case BITONIC_ROLE_FINISH: return 'F';
    default: return '?';
    }
}

const char *bmodel_space_word(int sp)
{
    switch (sp) {
    case LAB_SP_GLOBAL: return _("global memory");
    case LAB_SP_SHARED: return _("shared memory");
    case LAB_SP_REG: return _("registers");
    default: return "?";
    }
}

char bmodel_space_letter(int sp)
{
    switch (sp) {
    case LAB_SP_GLOBAL: return 'g';
    case LAB_SP_SHARED: return 's';
    case LAB_SP_REG: return 'r';
    default: return '?';
    }
}
