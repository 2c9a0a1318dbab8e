/* fake_reduce.c - reduction traces by hand, following the trace contract. */
#include "tests/viz/fake_reduce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gen {
    lab_trace *t;
    lab_dtype dt;
    uint32_t launch, block;
    int bd;
    uint32_t *seq, *epoch;
    int fail;
} gen;

const char *fake_variant_name(fake_variant v)
{
    static const char *const names[FAKE_NVARIANTS] = {"interleaved", "sequential", "warp-shuffle",
                                                      "atomic-float", "vector"};
    return (unsigned)v < FAKE_NVARIANTS ? names[v] : "?";
}

static void emit(gen *g, int tid, int kind, int space, int a, int b, double v, double v2)
{
    lab_trace *t = g->t;
    if (g->fail) return;
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        lab_event *ev = realloc(t->ev, cap * sizeof *ev);
        if (!ev) {
            g->fail = 1;
            return;
        }
        t->ev = ev;
        t->cap = cap;
    }
    lab_event *e = &t->ev[t->count++];
    memset(e, 0, sizeof *e);
    e->launch = g->launch;
    e->block = g->block;
    e->thread = (uint32_t)tid;
    e->epoch = g->epoch[tid];
    e->seq = g->seq[tid]++;
    e->kind = (uint16_t)kind;
    e->space = (uint16_t)space;
    e->a = a;
    e->b = b;
    e->v = v;
    e->v2 = v2;
}

static void barrier(gen *g, int line)
{
    for (int tid = 0; tid < g->bd; tid++) {
        emit(g, tid, LAB_EV_BARRIER, LAB_SP_SHARED, line, 0, 0, 0);
        g->epoch[tid]++;
    }
}

/* Arithmetic in the kernel's type: floats round at every addition. */
static double add(const gen *g, double x, double y)
{
    if (g->dt == LAB_FLOAT) return (double)((float)x + (float)y);
    return x + y;
}

static void launch_begin(gen *g, const char *kernel, int grid, int bd)
{
    lab_trace *t = g->t;
    g->launch = (uint32_t)t->nlaunches;
    lab_launch_info *li = &t->launches[t->nlaunches++];
    memset(li, 0, sizeof *li);
    li->grid[0] = (unsigned)grid;
    li->grid[1] = li->grid[2] = 1;
    li->block[0] = (unsigned)bd;
    li->block[1] = li->block[2] = 1;
    strncpy(li->kernel, kernel, sizeof li->kernel - 1);
    g->bd = bd;
}

static void block_begin(gen *g, int b)
{
    g->block = (uint32_t)b;
    memset(g->seq, 0, (size_t)g->bd * sizeof *g->seq);
    memset(g->epoch, 0, (size_t)g->bd * sizeof *g->epoch);
}

/* The shared tree from bd/2 down to `stop` (exclusive), sequential addressing. */
static void tree_sequential(gen *g, double *s, int from, int stop)
{
    for (int st = from; st > stop; st >>= 1) {
        for (int tid = 0; tid < st; tid++) {
            double added = s[tid + st];
            s[tid] = add(g, s[tid], added);
            emit(g, tid, LAB_EV_ADD, LAB_SP_SHARED, tid, tid + st, s[tid], added);
        }
        barrier(g, 40);
    }
}

/* Five rounds of shfl_down in one warp; lanes whose source is past the
 * warp keep their own value (CUDA's rule) and add it. */
static void shuffle_warp(gen *g, int warp, double *reg, int lanes)
{
    for (int off = 16; off > 0; off >>= 1) {
        double got[32];
        for (int l = 0; l < lanes; l++) got[l] = (l + off < lanes) ? reg[l + off] : reg[l];
        for (int l = 0; l < lanes; l++) {
            reg[l] = add(g, reg[l], got[l]);
            emit(g, warp * 32 + l, LAB_EV_SHFL, LAB_SP_REG, l, l + off < lanes ? l + off : l, got[l], reg[l]);
        }
    }
}

int fake_reduce_trace(lab_trace *t, fake_variant v, long long n, int bd, int grid, lab_dtype dt)
{
    memset(t, 0, sizeof *t);
    gen g = {0};
    g.t = t;
    g.dt = dt;
    t->n = n;
    t->dtype = dt;
    t->backend = LAB_BACKEND_SIM;
    t->smem_elem_bytes = dt == LAB_DOUBLE ? 8 : 4;
    snprintf(t->algo, sizeof t->algo, "reduce");
    snprintf(t->variant, sizeof t->variant, "%s", fake_variant_name(v));
    t->input = malloc((size_t)(n > 0 ? n : 1) * sizeof *t->input);
    g.seq = calloc(1024, sizeof *g.seq);
    g.epoch = calloc(1024, sizeof *g.epoch);
    double *s = calloc(2048, sizeof *s), *reg = calloc(1024, sizeof *reg);
    if (!t->input || !g.seq || !g.epoch || !s || !reg) goto fail;
    for (long long i = 0; i < n; i++) {
        if (dt == LAB_FLOAT) t->input[i] = (double)1.23f;
        else if (dt == LAB_DOUBLE) t->input[i] = (double)((i * 37 + 11) % 100) / 8.0;
        else t->input[i] = (double)((i * 37 + 11) % 100);
    }
    const double *in = t->input;
    double total = 0;

    switch (v) {
    case FAKE_INTERLEAVED:
    case FAKE_SEQUENTIAL: {
        int per = v == FAKE_SEQUENTIAL ? 2 : 1;
        if (grid <= 0) grid = (int)((n + (long long)bd * per - 1) / ((long long)bd * per));
        if (grid < 1) grid = 1;
        launch_begin(&g, v == FAKE_SEQUENTIAL ? "reduce_sequential" : "reduce_interleaved", grid, bd);
        for (int b = 0; b < grid; b++) {
            block_begin(&g, b);
            for (int tid = 0; tid < bd; tid++) {
                long long i = (long long)b * bd * per + tid;
                double x = 0;
                for (int k = 0; k < per; k++) {
                    long long j = i + (long long)k * bd;
                    if (j < n) {
                        emit(&g, tid, LAB_EV_READ, LAB_SP_GLOBAL, (int)j, 0, in[j], 0);
                        x = add(&g, x, in[j]);
                    }
                }
                s[tid] = x;
                emit(&g, tid, LAB_EV_WRITE, LAB_SP_SHARED, tid, 0, x, 0);
            }
            barrier(&g, 30);
            if (v == FAKE_SEQUENTIAL) {
                tree_sequential(&g, s, bd / 2, 0);
            } else {
                for (int st = 1; st < bd; st *= 2) {
                    for (int tid = 0; tid < bd; tid++)
                        if (tid % (2 * st) == 0) {
                            double added = s[tid + st];
                            s[tid] = add(&g, s[tid], added);
                            emit(&g, tid, LAB_EV_ADD, LAB_SP_SHARED, tid, tid + st, s[tid], added);
                        }
                    barrier(&g, 35);
                }
            }
            emit(&g, 0, LAB_EV_ATOMIC, LAB_SP_GLOBAL, 0, 0, s[0], total);
            total = add(&g, total, s[0]);
        }
        break;
    }
    case FAKE_WARP_SHUFFLE:
    case FAKE_ATOMIC_FLOAT: {
        if (grid <= 0) grid = (int)((n + bd - 1) / bd);
        if (grid < 1) grid = 1;
        int launches = v == FAKE_WARP_SHUFFLE ? 2 : 1;
        double partial[1024];
        long long count = n;
        const double *src = in;
        for (int l = 0; l < launches; l++) {
            int gl = l == 0 ? grid : 1;
            launch_begin(&g, l == 0 ? "reduce_shuffle" : "reduce_shuffle_final", gl, bd);
            for (int b = 0; b < gl; b++) {
                block_begin(&g, b);
                for (int tid = 0; tid < bd; tid++) {
                    double x = 0;
                    for (long long i = (long long)b * bd + tid; i < count; i += (long long)gl * bd) {
                        emit(&g, tid, LAB_EV_READ, LAB_SP_GLOBAL, (int)i, 0, src[i], 0);
                        x = add(&g, x, src[i]);
                    }
                    s[tid] = x;
                    emit(&g, tid, LAB_EV_WRITE, LAB_SP_SHARED, tid, 0, x, 0);
                }
                barrier(&g, 50);
                tree_sequential(&g, s, bd / 2, 32);
                int lanes = bd < 32 ? bd : 32;
                for (int tid = 0; tid < lanes; tid++) {
                    if (bd >= 64) {
                        double added = s[tid + 32];
                        reg[tid] = add(&g, s[tid], added);
                        emit(&g, tid, LAB_EV_ADD, LAB_SP_SHARED, tid, tid + 32, reg[tid], added);
                    } else {
                        reg[tid] = s[tid];
                        emit(&g, tid, LAB_EV_READ, LAB_SP_SHARED, tid, 0, s[tid], 0);
                    }
                }
                shuffle_warp(&g, 0, reg, lanes);
                if (v == FAKE_ATOMIC_FLOAT) {
                    emit(&g, 0, LAB_EV_ATOMIC, LAB_SP_GLOBAL, 0, 0, reg[0], total);
                    total = add(&g, total, reg[0]);
                } else {
                    emit(&g, 0, LAB_EV_WRITE, LAB_SP_GLOBAL, b, 0, reg[0], 0);
                    partial[b] = reg[0];
                    total = reg[0];
                }
            }
            src = partial;
            count = grid;
        }
        break;
    }
    case FAKE_VECTOR: {
        int per = 4;
        if (grid <= 0) grid = (int)((n + (long long)bd * per - 1) / ((long long)bd * per));
        if (grid < 1) grid = 1;
        launch_begin(&g, "reduce_vector", grid, bd);
        int nwarps = (bd + 31) / 32;
        for (int b = 0; b < grid; b++) {
            block_begin(&g, b);
            for (int tid = 0; tid < bd; tid++) {
                double x = 0;
                for (long long q = (long long)b * bd + tid; q * per < n; q += (long long)grid * bd)
                    for (int k = 0; k < per && q * per + k < n; k++) {
                        long long i = q * per + k;
                        emit(&g, tid, LAB_EV_READ, LAB_SP_GLOBAL, (int)i, 0, in[i], 0);
                        x = add(&g, x, in[i]);
                    }
                reg[tid] = x;
            }
            for (int w = 0; w < nwarps; w++) {
                int lanes = bd - w * 32 < 32 ? bd - w * 32 : 32;
                shuffle_warp(&g, w, reg + w * 32, lanes);
                s[w] = reg[w * 32];
                emit(&g, w * 32, LAB_EV_WRITE, LAB_SP_SHARED, w, 0, s[w], 0);
            }
            barrier(&g, 60);
            int lanes = bd < 32 ? bd : 32;
            for (int l = 0; l < lanes; l++) {
                if (l < nwarps) {
                    reg[l] = s[l];
                    emit(&g, l, LAB_EV_READ, LAB_SP_SHARED, l, 0, s[l], 0);
                } else {
                    reg[l] = 0;
                }
            }
            shuffle_warp(&g, 0, reg, lanes);
            emit(&g, 0, LAB_EV_ATOMIC, LAB_SP_GLOBAL, 0, 0, reg[0], total);
            total = add(&g, total, reg[0]);
        }
        break;
    }
    default: break;
    }
    t->result = total;
    if (g.fail) goto fail;
    lab_trace_sort(t); /* as lab_run() returns a trace: in key order */
    free(g.seq);
    free(g.epoch);
    free(s);
    free(reg);
    return 0;
fail:
    free(g.seq);
    free(g.epoch);
    free(s);
    free(reg);
    fake_trace_free(t);
    return -1;
}

void fake_trace_free(lab_trace *t)
{
    free(t->ev);
    free(t->input);
    memset(t, 0, sizeof *t);
}
