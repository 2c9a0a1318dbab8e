/* diag.cpp - the simulator's messages: names of blocks, threads and source
 * lines, the pending diagnostic, failing a launch from inside a fiber, and
 * the reports of what cannot complete (a barrier not every thread reaches, a
 * warp collective whose lanes are elsewhere, a grid barrier not every block
 * reaches). Every message names the kernel, the block, the threads and the
 * lines, because students read them. */
#include "kernels/sim/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace gpulab_sim {

/* ------------------------------------------------------------ messages */

const char *sim_basename(const char *path)
{
    if (!path) return "?";
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int sim_same_file(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

void sim_where(char *buf, size_t len, int line, const char *file)
{
    if (!file || !sim_g.file || sim_same_file(file, sim_g.file) ||
        strcmp(sim_basename(file), sim_basename(sim_g.file)) == 0)
        snprintf(buf, len, "line %d", line);
    else
        snprintf(buf, len, "%s:%d", sim_basename(file), line);
}

void sim_block_name(char *buf, size_t len)
{
    if (sim_g.grid.y == 1 && sim_g.grid.z == 1)
        snprintf(buf, len, "block %u", sim_block_idx.x);
    else
        snprintf(buf, len, "block (%u,%u,%u)", sim_block_idx.x, sim_block_idx.y, sim_block_idx.z);
}

void sim_thread_name(char *buf, size_t len, unsigned linear)
{
    if (sim_g.block.y == 1 && sim_g.block.z == 1) {
        snprintf(buf, len, "thread %u", linear);
    } else {
        const uint3 &t = sim_g.fibers[linear].info.tid;
        snprintf(buf, len, "thread %u (x %u, y %u, z %u)", linear, t.x, t.y, t.z);
    }
}

void sim_diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sim_g.diag, sizeof sim_g.diag, fmt, ap);
    va_end(ap);
    sim_g.diag_pending = 1;
}

const char *sim_diag_take(void)
{
    if (!sim_g.diag_pending) return nullptr;
    sim_g.diag_pending = 0;
    return sim_g.diag;
}

/* The failure that stops a launch (the races found before it come first in
 * the grouped report, race.cpp). */
void sim_diag_with_race(const char *msg) { sim_diag("%s", msg); }

void sim_fail_code(cudaError_t e, const char *fmt, ...)
{
    char msg[LAB_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sim_g.fail_code = e;
    sim_fail("%s", msg);
}

void sim_fail(const char *fmt, ...)
{
    char msg[LAB_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sim_diag_with_race(msg);
    if (!sim_in_fiber()) {
        /* only kernel code fails this way; kernel code runs in fibers */
        fprintf(stderr, "gpulab simulator: %s\n", sim_g.diag);
        abort();
    }
    sim_abort();
}

/* A set of thread (or lane) numbers, printed as ranges: "0-127, 130". */
struct sim_set {
    uint64_t w[SIM_MAX_THREADS / 64];
    void clear() { memset(w, 0, sizeof w); }
    void add(unsigned i) { w[i >> 6] |= 1ull << (i & 63); }
    bool has(unsigned i) const { return (w[i >> 6] >> (i & 63)) & 1; }
    bool empty() const
    {
        for (uint64_t x : w)
            if (x) return false;
        return true;
    }
    unsigned count() const
    {
        unsigned c = 0;
        for (uint64_t x : w) c += (unsigned)__builtin_popcountll(x);
        return c;
    }
};

static void sim_set_format(const sim_set &s, unsigned offset, char *buf, size_t len)
{
    size_t used = 0;
    int ranges = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < SIM_MAX_THREADS; i++) {
        if (!s.has(i)) continue;
        unsigned j = i;
        while (j + 1 < SIM_MAX_THREADS && s.has(j + 1)) j++;
        if (ranges == 6) {
            snprintf(buf + used, len - used, ", ... (%u in all)", s.count());
            return;
        }
        int k = i == j ? snprintf(buf + used, len - used, "%s%u", ranges ? ", " : "", i + offset)
                       : snprintf(buf + used, len - used, "%s%u-%u", ranges ? ", " : "", i + offset, j + offset);
        if (k < 0 || (size_t)k >= len - used) return;
        used += (size_t)k;
        ranges++;
        i = j;
    }
}

static void sim_mask_set(unsigned mask, sim_set *s)
{
    s->clear();
    for (unsigned l = 0; l < 32; l++)
        if (mask >> l & 1) s->add(l);
}

static const char *sim_bar_name(int kind)
{
    switch (kind) {
    case SIM_BAR_COUNT: return "__syncthreads_count";
    case SIM_BAR_AND: return "__syncthreads_and";
    case SIM_BAR_OR: return "__syncthreads_or";
    case SIM_BAR_CG: return "this_thread_block().sync()";
    case SIM_BAR_TILE: return "thread_block_tile::sync()";
    case SIM_BAR_GRID: return "this_grid().sync()";
    default: return "__syncthreads";
    }
}

/* Append to a message buffer. */
struct sim_msg {
    char *buf;
    size_t len, used;
    void add(const char *fmt, ...) __attribute__((format(printf, 2, 3)))
    {
        if (used + 1 >= len) return;
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(buf + used, len - used, fmt, ap);
        va_end(ap);
        if (k > 0) used = used + (size_t)k < len ? used + (size_t)k : len - 1;
    }
};

/* The warp collective some lanes wait at can never complete: say which lanes
 * are missing and where they are. 1 when a report was written. */
static int sim_report_warp(void)
{
    char blk[64], where[96], set1[256], set2[256];
    sim_block_name(blk, sizeof blk);
    for (unsigned w = 0; w < sim_g.nwarps; w++) {
        sim_warp_state *ws = &sim_g.warps[w];
        sim_fiber *base = &sim_g.fibers[w * 32];
        for (unsigned l = 0; l < 32; l++) {
            if (!(ws->waiting >> l & 1)) continue;
            sim_fiber *f = base + l;
            unsigned need = f->op_mask & ws->exists, same = 0;
            for (unsigned k = 0; k < 32; k++) {
                sim_fiber *g = base + k;
                if ((ws->waiting >> k & 1) && g->op == f->op && g->op_line == f->op_line &&
                    sim_same_file(g->op_file, f->op_file) && g->op_mask == f->op_mask)
                    same |= 1u << k;
            }
            unsigned missing = need & ~same;
            if (!missing) continue;
            sim_set s;
            sim_mask_set(same, &s);
            sim_set_format(s, 0, set1, sizeof set1);
            sim_set_format(s, w * 32, set2, sizeof set2);
            sim_where(where, sizeof where, f->op_line, f->op_file);
            char msg[LAB_ERR_MAX];
            sim_msg m = {msg, sizeof msg, 0};
            m.add("%s: %s, warp %u: lane%s %s (thread%s %s) wait%s at %s (%s, mask 0x%08x) but ", sim_g.kernel,
                  blk, w, s.count() > 1 ? "s" : "", set1, s.count() > 1 ? "s" : "", set2,
                  s.count() > 1 ? "" : "s", f->op_name, where, f->op_mask);
            /* where the missing lanes are, grouped */
            unsigned left = missing;
            int parts = 0;
            while (left) {
                unsigned l0 = (unsigned)__builtin_ctz(left);
                sim_fiber *g = base + l0;
                unsigned grp = 0;
                for (unsigned k = 0; k < 32; k++) {
                    if (!(left >> k & 1)) continue;
                    sim_fiber *h = base + k;
                    bool alike = h->state == g->state;
                    if (alike && g->state == SIM_F_BAR)
                        alike = h->bar_kind == g->bar_kind && h->bar_line == g->bar_line &&
                                sim_same_file(h->bar_file, g->bar_file);
                    if (alike && g->state == SIM_F_WARP)
                        alike = h->op == g->op && h->op_line == g->op_line &&
                                sim_same_file(h->op_file, g->op_file) && h->op_mask == g->op_mask;
                    if (alike) grp |= 1u << k;
                }
                left &= ~grp;
                sim_set gs;
                sim_mask_set(grp, &gs);
                sim_set_format(gs, 0, set1, sizeof set1);
                const char *lanes = gs.count() > 1 ? "lanes" : "lane";
                bool many = gs.count() > 1;
                m.add("%s", parts++ ? "; " : "");
                if (g->state == SIM_F_DONE) {
                    m.add("%s %s %s already exited", lanes, set1, many ? "have" : "has");
                } else if (g->state == SIM_F_BAR) {
                    sim_where(where, sizeof where, g->bar_line, g->bar_file);
                    m.add("%s %s wait%s at %s (%s)", lanes, set1, many ? "" : "s", sim_bar_name(g->bar_kind), where);
                } else if (g->state == SIM_F_WARP && g->op == f->op && g->op_line == f->op_line &&
                           sim_same_file(g->op_file, f->op_file)) {
                    m.add("%s %s call%s it with mask 0x%08x", lanes, set1, many ? "" : "s", g->op_mask);
                } else if (g->state == SIM_F_WARP) {
                    sim_where(where, sizeof where, g->op_line, g->op_file);
                    m.add("%s %s wait%s at %s (%s)", lanes, set1, many ? "" : "s", g->op_name, where);
                } else {
                    m.add("%s %s never arrive%s", lanes, set1, many ? "" : "s");
                }
            }
            m.add(": every lane named in the mask must reach the same %s, with the same mask", f->op_name);
            sim_diag_with_race(msg);
            return 1;
        }
    }
    return 0;
}

/* The tile size of the tile barrier the threads of `waiting` wait at. */
static unsigned grouped_tile(const sim_set &waiting, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (waiting.has(i)) return sim_g.fibers[i].bar_arg;
    return 0;
}

/* Thread i is in a tile (of `tile` threads) where some thread waits. */
static bool grouped_in_tile(const sim_set &waiting, unsigned i, unsigned tile, unsigned n)
{
    unsigned base = i & ~(tile - 1);
    for (unsigned k = base; k < base + tile && k < n; k++)
        if (waiting.has(k)) return true;
    return false;
}

/* Threads wait at barriers that cannot complete: some wait elsewhere or
 * have exited. */
void sim_report_barrier(void)
{
    char blk[64], where[96], set[256];
    sim_block_name(blk, sizeof blk);
    char msg[LAB_ERR_MAX];
    sim_msg m = {msg, sizeof msg, 0};
    m.add("%s: %s: ", sim_g.kernel, blk);
    unsigned n = sim_g.nthreads;
    sim_set grouped;
    grouped.clear();
    int groups = 0, first_kind = -1, first_line = 0;
    const char *first_file = nullptr;
    for (unsigned i = 0; i < n; i++) {
        sim_fiber *f = &sim_g.fibers[i];
        if (f->state != SIM_F_BAR || grouped.has(i)) continue;
        sim_set s;
        s.clear();
        for (unsigned k = i; k < n; k++) {
            sim_fiber *g = &sim_g.fibers[k];
            if (g->state == SIM_F_BAR && g->bar_kind == f->bar_kind && g->bar_line == f->bar_line &&
                g->bar_site == f->bar_site && sim_same_file(g->bar_file, f->bar_file)) {
                s.add(k);
                grouped.add(k);
            }
        }
        sim_set_format(s, 0, set, sizeof set);
        sim_where(where, sizeof where, f->bar_line, f->bar_file);
        /* two barriers written on one line are two barriers */
        if (groups > 0 && f->bar_line == first_line && sim_same_file(f->bar_file, first_file)) {
            size_t l = strlen(where);
            snprintf(where + l, sizeof where - l, ", another barrier written on the same line");
        }
        if (groups == 0) {
            first_line = f->bar_line;
            first_file = f->bar_file;
        }
        bool many = s.count() > 1;
        if (groups == 0)
            m.add("thread%s %s wait%s at %s (%s)", many ? "s" : "", set, many ? "" : "s", sim_bar_name(f->bar_kind),
                  where);
        else if (f->bar_kind == first_kind)
            m.add("%sthread%s %s wait%s at %s", groups == 1 ? " while " : ", ", many ? "s" : "", set,
                  many ? "" : "s", where);
        else
            m.add("%sthread%s %s wait%s at %s (%s)", groups == 1 ? " while " : ", ", many ? "s" : "", set,
                  many ? "" : "s", sim_bar_name(f->bar_kind), where);
        if (groups == 0) first_kind = f->bar_kind;
        groups++;
    }
    sim_set gone;
    gone.clear();
    /* for one tile's barrier, the threads of that tile that are gone (the
     * other tiles may well have ended) */
    unsigned tile = groups == 1 && first_kind == SIM_BAR_TILE ? grouped_tile(grouped, n) : 0;
    for (unsigned i = 0; i < n; i++)
        if (sim_g.fibers[i].state == SIM_F_DONE && (!tile || grouped_in_tile(grouped, i, tile, n))) gone.add(i);
    if (!gone.empty()) {
        sim_set_format(gone, 0, set, sizeof set);
        bool many = gone.count() > 1;
        m.add("%sthread%s %s %s already exited", groups > 1 ? ", and " : " but ", many ? "s" : "", set,
              many ? "have" : "has");
    }
    if (groups > 1)
        m.add(": every thread of a block must reach the same barrier");
    else if (first_kind == SIM_BAR_TILE)
        m.add(": every thread of a tile must reach the tile's barrier, so no thread may return or skip it");
    else if (first_kind == SIM_BAR_GRID)
        m.add(": every thread of the grid must reach each grid barrier, so no thread may return or skip it");
    else
        m.add(": every thread of a block must reach each barrier, so no thread may return or skip it");
    sim_diag_with_race(msg);
}

/* Blocks numbered from `from` on with the same state and barrier as block
 * `from`, as ranges: "0-3, 6". */
static void sim_blocks_format(const sim_block_copy *b, unsigned long long n, unsigned long long from, char *buf,
                              size_t len, unsigned long long *count)
{
    size_t used = 0;
    int ranges = 0;
    *count = 0;
    buf[0] = 0;
    auto alike = [&](unsigned long long k) {
        return b[k].state == b[from].state &&
               (b[k].state != 1 || (b[k].line == b[from].line && sim_same_file(b[k].file, b[from].file)));
    };
    for (unsigned long long i = from; i < n; i++) {
        if (!alike(i)) continue;
        unsigned long long j = i;
        while (j + 1 < n && alike(j + 1)) j++;
        *count += j - i + 1;
        if (ranges < 6) {
            int k = i == j ? snprintf(buf + used, len - used, "%s%llu", ranges ? ", " : "", i)
                           : snprintf(buf + used, len - used, "%s%llu-%llu", ranges ? ", " : "", i, j);
            if (k > 0 && (size_t)k < len - used) used += (size_t)k;
        } else if (ranges == 6) {
            snprintf(buf + used, len - used, ", ...");
            used = strlen(buf);
        }
        ranges++;
        i = j;
    }
}

void sim_report_grid(const sim_block_copy *b, unsigned long long n)
{
    char msg[LAB_ERR_MAX], set[256], where[96];
    sim_msg m = {msg, sizeof msg, 0};
    m.add("%s: ", sim_g.kernel);
    int groups = 0, exited = 0;
    /* the waiting blocks by barrier, then the ended ones */
    for (int pass = 1; pass <= 2; pass++)
        for (unsigned long long i = 0; i < n && groups < 4; i++) {
            if (b[i].state != pass) continue;
            bool seen = false;
            for (unsigned long long k = 0; k < i && !seen; k++)
                seen = b[k].state == pass && (pass == 2 || (b[k].line == b[i].line && sim_same_file(b[k].file, b[i].file)));
            if (seen) continue;
            unsigned long long count;
            sim_blocks_format(b, n, i, set, sizeof set, &count);
            const char *blocks = count > 1 ? "blocks" : "block";
            if (pass == 2) {
                exited = 1;
                m.add(" but %s %s %s already ended", blocks, set, count > 1 ? "have" : "has");
            } else {
                sim_where(where, sizeof where, b[i].line, b[i].file);
                if (groups == 0)
                    m.add("%s %s wait%s at this_grid().sync() (%s)", blocks, set, count > 1 ? "" : "s", where);
                else
                    m.add("%s%s %s wait%s at %s", groups == 1 ? " while " : ", ", blocks, set,
                          count > 1 ? "" : "s", where);
            }
            groups++;
        }
    if (sim_g.grid.y > 1 || sim_g.grid.z > 1) m.add(" (blocks numbered x fastest)");
    if (exited)
        m.add(": every thread of the grid must reach each grid barrier, so no block may end before the others "
              "pass it (on the GPU they would wait for ever)");
    else
        m.add(": every thread of the grid must reach the same grid barrier");
    sim_diag_with_race(msg);
}

/* Nothing can run and not everything has ended. */
void sim_report_stuck(void)
{
    if (sim_report_warp()) return;
    sim_report_barrier();
}

} /* namespace gpulab_sim */
