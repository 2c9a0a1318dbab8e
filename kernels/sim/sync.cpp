/* sync.cpp - synchronisation on the simulator: block barriers
 * (__syncthreads and its forms, this_thread_block().sync()), warp
 * collectives (shuffles, votes, matches, reductions, __syncwarp,
 * __activemask) with CUDA's mask and width rules, and the grid barrier of a
 * cooperative launch (this_grid().sync()).
 *
 * The schedule is fixed unless `set schedule` chose another order
 * (schedule.cpp). A fiber runs until it waits (barrier, warp collective) or
 * ends; then the next runnable fiber in thread order runs,
 * wrapping around. When a barrier or a collective releases its threads, the
 * lowest released thread runs next. So a block runs warp by warp and lane by
 * lane between two sync points, and two runs give the same results, float
 * sums included, and the same trace. */
#include "kernels/sim/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace gpulab_sim {

void sim_activemask_release(unsigned w)
{
    sim_warp_state *ws = &sim_g.warps[w];
    sim_fiber *base = &sim_g.fibers[w * 32];
    unsigned live = ws->exists & ~ws->done;
    for (unsigned l = 0; l < 32; l++)
        if ((live >> l & 1) && base[l].state == SIM_F_RUN) return;
    sim_fiber *f0 = base + __builtin_ctz(ws->am);
    unsigned grp = 0;
    for (unsigned l = 0; l < 32; l++)
        if ((ws->am >> l & 1) && base[l].op_line == f0->op_line && sim_same_file(base[l].op_file, f0->op_file))
            grp |= 1u << l;
    for (unsigned l = 0; l < 32; l++) {
        if (!(grp >> l & 1)) continue;
        base[l].op_res = grp;
        base[l].state = SIM_F_RUN;
    }
    ws->am &= ~grp;
    ws->waiting &= ~grp;
    sim_g.nrun += (unsigned)__builtin_popcount(grp);
    sim_g.stats.collectives++;
}

/* ------------------------------------------------------------- barriers */

void sim_stop_interrupted(void)
{
    if (!sim_in_fiber()) return; /* host code: the harness sees the flag itself */
    char blk[64];
    sim_block_name(blk, sizeof blk);
    sim_fail("%s: interrupted in %s", sim_g.kernel, blk);
}

/* The last thread to arrive at a block barrier releases the block: every
 * thread runnable again, the barrier counted, recorded and told to the
 * checkers, a new epoch; the lowest thread runs next. Out of line, so the
 * frame of a thread that waits at the barrier (sim_barrier's) stays small:
 * every waiting thread's frames are reloaded when it resumes. */
void sim_barrier_passed(int kind, int line, const char *file, const void *site)
{
    sim_g.stats.barriers++;
    sim_rec_barrier(kind, line, file);
    if (sim_acc_on) {
        sim_sync_event e = {SIM_SYNC_BARRIER, sim_g.block_linear, 0, sim_g.nthreads, 0, 0, line, file, site};
        sim_check_sync(&e);
    }
    sim_epoch_reset(line, file, sim_g.bar_acc_count, sim_g.bar_acc_and, sim_g.bar_acc_or);
}

static __attribute__((noinline)) void sim_barrier_release(sim_fiber *self, int kind, int line, const char *file,
                                                          const void *site)
{
    if (sim_g.bar_mismatch) {
        sim_report_barrier();
        sim_abort();
    }
    for (unsigned i = 0; i < sim_g.nthreads; i++) sim_g.fibers[i].state = SIM_F_RUN;
    sim_g.nrun = sim_g.nthreads;
    sim_barrier_passed(kind, line, file, site);
    sim_fiber *first = sim_sched_kind ? sim_sched_first(0, sim_g.nthreads, 0) : &sim_g.fibers[0];
    if (first != self) sim_switch_resumed(self, first);
}

int sim_barrier(int kind, int pred, int line, const char *file, const void *site)
{
    sim_thread_info *cur = sim_cur;
    if (cur == &sim_host_thread) return pred; /* host code: nobody to wait for */
    if (lab_interrupted) sim_stop_interrupted();
    if (__builtin_expect(sim_g.lanes, 0)) sim_lanes_wait(line, file);
    /* the state's address once (a thread-local), kept across the switch */
    sim_state &G = sim_g;
    sim_fiber *self = sim_fiber_of(cur);
    self->state = SIM_F_BAR;
    self->bar_kind = (short)kind;
    self->bar_line = line;
    self->bar_file = file;
    self->bar_site = site;
    unsigned arrived = G.bar_arrived;
    if (arrived == 0) {
        G.bar_kind = kind;
        G.bar_line = line;
        G.bar_file = file;
        G.bar_site = site;
    } else if (site != G.bar_site || !site) {
        /* one call site is one kind, line and file */
        if (kind != G.bar_kind || line != G.bar_line || site != G.bar_site ||
            (file != G.bar_file && !sim_same_file(file, G.bar_file)))
            G.bar_mismatch = 1;
    }
    if (kind != SIM_BAR_SYNC) { /* __syncthreads_count, _and, _or */
        G.bar_acc_count += pred != 0;
        G.bar_acc_and &= pred != 0;
        G.bar_acc_or |= pred != 0;
    }
    G.bar_arrived = ++arrived;
    G.nrun--;
    if (arrived == G.nthreads) {
        sim_barrier_release(self, kind, line, file, site);
    } else {
        sim_activemask_poll(self->info.warp);
        /* the next thread, usually the next in order and one that has run
         * before: switched to here, with no call between this frame and the
         * switch's, so a waiting thread's stack keeps one frame fewer to
         * reload when it resumes */
        sim_switch_resumed(self, sim_next_runnable(self->info.linear));
    }
    int r = kind == SIM_BAR_SYNC  ? pred
          : kind == SIM_BAR_COUNT ? G.bar_res_count
          : kind == SIM_BAR_AND   ? G.bar_res_and
          : kind == SIM_BAR_OR    ? G.bar_res_or
                                  : pred;
    /* the GPU recorder (kern.h) wraps __syncthreads() only */
    if (kind == SIM_BAR_SYNC) {
        if (__builtin_expect(G.trace != nullptr, 0)) sim_emit(self, LAB_EV_BARRIER, LAB_SP_SHARED, line, 0, 0, 0, line);
        self->epoch++;
    }
    return r;
}

/* A tile of n threads (64 to 512: several whole warps) meets at a barrier
 * of its own. The other tiles go on; what the tile's threads did before it
 * is ordered before what they do after it (the race check is told), and
 * nothing else is, so it opens no epoch of the block. */
void sim_tile_barrier(unsigned n, int line, const char *file)
{
    if (!sim_in_fiber()) return;
    if (lab_interrupted) sim_stop_interrupted();
    sim_fiber *self = sim_self();
    unsigned lvl = (unsigned)__builtin_ctz(n) - 6, base = self->info.linear & ~(n - 1);
    unsigned end = base + n < sim_g.nthreads ? base + n : sim_g.nthreads;
    self->state = SIM_F_BAR;
    self->bar_kind = SIM_BAR_TILE;
    self->bar_arg = n;
    self->bar_line = line;
    self->bar_file = file;
    self->bar_site = nullptr;
    sim_g.nrun--;
    /* a tile cut short by the end of the block waits for the threads it has */
    if (++sim_g.tile_arrived[lvl][base / n] < end - base) {
        sim_activemask_poll(self->info.warp);
        sim_wait(self);
        return;
    }
    sim_g.tile_arrived[lvl][base / n] = 0;
    for (unsigned i = base; i < end; i++) {
        const sim_fiber *g = &sim_g.fibers[i];
        if (g->bar_kind != SIM_BAR_TILE || g->bar_arg != n || g->bar_line != line || !sim_same_file(g->bar_file, file)) {
            sim_report_barrier();
            sim_abort();
        }
    }
    for (unsigned i = base; i < end; i++) sim_g.fibers[i].state = SIM_F_RUN;
    if (sim_rec_on) sim_rec_tile_sync(base, end, n, line, file);
    if (sim_acc_on) {
        sim_sync_event e = {SIM_SYNC_TILE, sim_g.block_linear, base, end, 0, 0, line, file, nullptr};
        sim_check_sync(&e);
    }
    sim_g.nrun += end - base;
    sim_g.stats.barriers++;
    sim_fiber *first = sim_sched_kind ? sim_sched_first(base, end, 0) : &sim_g.fibers[base];
    if (first != self) sim_switch(self, first);
}

int sim_grid_valid(void) { return sim_g.in_launch && sim_g.coop; }

/* A grid barrier: the block's threads wait here; when all of them do, the
 * block parks (grid.cpp saves it) and the next block runs. When every block
 * of the grid waits here, they all go on, block by block. */
void sim_grid_sync(int line, const char *file)
{
    if (!sim_in_fiber()) return;
    if (lab_interrupted) sim_stop_interrupted();
    sim_fiber *self = sim_self();
    if (!sim_g.coop) {
        char blk[64], thr[96], where[96];
        sim_block_name(blk, sizeof blk);
        sim_thread_name(thr, sizeof thr, self->info.linear);
        sim_where(where, sizeof where, line, file);
        sim_fail_code(cudaErrorLaunchFailure,
                      "%s: %s, %s calls this_grid().sync() (%s) in a launch that is not cooperative: a grid "
                      "barrier exists only in a kernel launched with cudaLaunchCooperativeKernel "
                      "(this_grid().is_valid() is false otherwise), and the GPU stops the kernel there (__trap)",
                      sim_g.kernel, blk, thr, where);
    }
    self->state = SIM_F_BAR;
    self->bar_kind = SIM_BAR_GRID;
    self->bar_line = line;
    self->bar_file = file;
    self->bar_site = nullptr;
    sim_g.nrun--;
    sim_g.grid_arrived++;
    if (sim_g.grid_arrived == sim_g.nthreads) {
        sim_rec_grid_sync(line, file); /* record.h */
        if (sim_acc_on) {
            sim_sync_event e = {SIM_SYNC_GRID, sim_g.block_linear, 0, sim_g.nthreads, 0, 0, line, file, nullptr};
            sim_check_sync(&e);
        }
    }
    sim_activemask_poll(self->info.warp);
    sim_park_switch(self);
}

/* ----------------------------------------------------- warp collectives */

static bool sim_op_is_shfl(int op) { return op <= SIM_W_SHFL_XOR; }

/* Every lane in need has arrived (with the same call site and mask): give
 * each its result and make them runnable. */
static void sim_warp_complete(unsigned w, unsigned need)
{
    sim_warp_state *ws = &sim_g.warps[w];
    sim_fiber *base = &sim_g.fibers[w * 32];
    int op = base[__builtin_ctz(need)].op;
    unsigned vote = 0;
    for (unsigned l = 0; l < 32; l++)
        if ((need >> l & 1) && base[l].op_val) vote |= 1u << l;
    unsigned long long acc = 0;
    if (op >= SIM_W_RED_ADD) {
        bool first = true;
        for (unsigned l = 0; l < 32; l++) {
            if (!(need >> l & 1)) continue;
            unsigned v = (unsigned)base[l].op_val;
            unsigned a = (unsigned)acc;
            switch (op) {
            case SIM_W_RED_ADD: a = first ? v : a + v; break;
            case SIM_W_RED_MIN_S: a = first || (int)v < (int)a ? v : a; break;
            case SIM_W_RED_MAX_S: a = first || (int)v > (int)a ? v : a; break;
            case SIM_W_RED_MIN_U: a = first || v < a ? v : a; break;
            case SIM_W_RED_MAX_U: a = first || v > a ? v : a; break;
            case SIM_W_RED_AND: a = first ? v : a & v; break;
            case SIM_W_RED_OR: a = first ? v : a | v; break;
            default: a = first ? v : a ^ v; break;
            }
            acc = a;
            first = false;
        }
    }
    bool all_equal = true;
    for (unsigned l = 0; l < 32; l++)
        if ((need >> l & 1) && base[l].op_val != base[__builtin_ctz(need)].op_val) all_equal = false;
    ws->stamp++;
    unsigned char srcs[32]; /* the lane each lane read (shuffles), for the recording */
    for (unsigned l = 0; l < 32; l++) {
        srcs[l] = (unsigned char)l;
        if (!(need >> l & 1)) continue;
        sim_fiber *f = base + l;
        f->op_pred = 0;
        switch (op) {
        case SIM_W_SHFL_IDX:
        case SIM_W_SHFL_UP:
        case SIM_W_SHFL_DOWN:
        case SIM_W_SHFL_XOR: {
            /* PTX shfl.sync: the width splits the warp into segments; a
             * source outside the caller's segment (or its valid range)
             * returns the caller's own value */
            long long seg = (32 - f->op_width) & 31;
            long long lo = l & seg, hi = lo | (31 & ~seg), src;
            bool ok;
            if (op == SIM_W_SHFL_IDX) {
                src = lo | ((long long)f->op_arg & 31 & ~seg);
                ok = true;
            } else if (op == SIM_W_SHFL_UP) {
                src = (long long)l - (long long)f->op_arg;
                ok = src >= lo;
            } else if (op == SIM_W_SHFL_DOWN) {
                src = (long long)l + (long long)f->op_arg;
                ok = src <= hi;
            } else {
                src = (long long)(l ^ f->op_arg);
                ok = src <= hi;
            }
            /* a source lane of the warp that the mask leaves out: undefined
             * on the GPU, so it stops the launch (a lane that does not exist,
             * past the end of the block, gives the caller's own value) */
            if (ok && src >= 0 && src <= 31 && !(need >> src & 1) && (ws->exists >> src & 1)) {
                char blk[64], where[96];
                sim_block_name(blk, sizeof blk);
                sim_where(where, sizeof where, f->op_line, f->op_file);
                sim_fail("%s: %s, warp %u: lane %u reads lane %lld with %s (%s), but the mask 0x%08x leaves lane "
                         "%lld out: what it gets is undefined in CUDA; the mask must name every lane that is read",
                         sim_g.kernel, blk, w, l, src, f->op_name, where, f->op_mask, src);
            }
            if (!ok || src < 0 || src > 31 || !(need >> src & 1)) src = l;
            f->op_res = base[src].op_val;
            srcs[l] = (unsigned char)src;
            break;
        }
        case SIM_W_BALLOT: f->op_res = vote; break;
        case SIM_W_ANY: f->op_res = vote != 0; break;
        case SIM_W_ALL: f->op_res = vote == need; break;
        case SIM_W_MATCH_ANY: {
            unsigned m = 0;
            for (unsigned k = 0; k < 32; k++)
                if ((need >> k & 1) && base[k].op_val == f->op_val) m |= 1u << k;
            f->op_res = m;
            break;
        }
        case SIM_W_MATCH_ALL:
            f->op_res = all_equal ? need : 0;
            f->op_pred = all_equal;
            break;
        case SIM_W_SYNC: f->op_res = 0; break;
        default: f->op_res = acc; break;
        }
        f->state = SIM_F_RUN;
    }
    ws->waiting &= ~need;
    sim_g.nrun += (unsigned)__builtin_popcount(need);
    sim_g.stats.collectives++;
    if (sim_rec_on) sim_rec_collective(w, need, srcs);
    if (sim_acc_on) {
        const sim_fiber *f0 = &base[__builtin_ctz(need)];
        sim_sync_event e = {SIM_SYNC_WARP, sim_g.block_linear, 0, 0, w, need, f0->op_line, f0->op_file, nullptr};
        sim_check_sync(&e);
    }
}

unsigned long long sim_warp(int op, unsigned mask, unsigned long long value, int arg, int width, int line,
                            const char *file, const char *name, int *pred)
{
    if (!sim_in_fiber()) {
        /* host code: a warp of one */
        if (pred) *pred = 1;
        if (op == SIM_W_ACTIVEMASK) return 1;
        return op <= SIM_W_SHFL_XOR || op == SIM_W_MATCH_ALL || op >= SIM_W_RED_ADD ? value : value != 0;
    }
    sim_fiber *self = sim_self();
    unsigned lane = self->info.lane, bit = 1u << lane, w = self->info.warp;
    sim_warp_state *ws = &sim_g.warps[w];
    if (!(mask & bit)) {
        char blk[64], thr[96], where[96];
        sim_block_name(blk, sizeof blk);
        sim_thread_name(thr, sizeof thr, self->info.linear);
        sim_where(where, sizeof where, line, file);
        sim_fail("%s: %s, %s (warp %u, lane %u) calls %s (%s) with mask 0x%08x, which leaves out its own lane: "
                 "the mask names the lanes that take part, the caller among them",
                 sim_g.kernel, blk, thr, w, lane, name, where, mask);
    }
    if (sim_op_is_shfl(op) && (width < 1 || width > 32 || (width & (width - 1)))) {
        char blk[64], thr[96], where[96];
        sim_block_name(blk, sizeof blk);
        sim_thread_name(thr, sizeof thr, self->info.linear);
        sim_where(where, sizeof where, line, file);
        sim_fail("%s: %s, %s calls %s (%s) with width %d: the width must be a power of two from 1 to 32",
                 sim_g.kernel, blk, thr, name, where, width);
    }
    if (op == SIM_W_ACTIVEMASK) {
        self->op = op;
        self->op_line = line;
        self->op_file = file;
        self->op_name = name;
        self->op_mask = mask;
        self->state = SIM_F_WARP;
        sim_g.nrun--;
        ws->waiting |= bit;
        ws->am |= bit;
        sim_activemask_poll(w);
        if (self->state != SIM_F_RUN) sim_wait(self);
        return self->op_res;
    }
    self->op = op;
    self->op_line = line;
    self->op_file = file;
    self->op_name = name;
    self->op_mask = mask;
    self->op_arg = (unsigned)arg;
    self->op_width = width;
    self->op_val = value;
    self->state = SIM_F_WARP;
    sim_g.nrun--;
    ws->waiting |= bit;
    unsigned need = mask & ws->exists;
    bool ready = (need & ~ws->waiting) == 0;
    if (ready) {
        sim_fiber *base = &sim_g.fibers[w * 32];
        for (unsigned k = 0; k < 32 && ready; k++) {
            if (!(need >> k & 1)) continue;
            sim_fiber *g = base + k;
            ready = g->op == op && g->op_line == line && sim_same_file(g->op_file, file) && g->op_mask == mask;
        }
    }
    if (ready) {
        sim_warp_complete(w, need);
        sim_fiber *first = sim_sched_kind ? sim_sched_first(w * 32, w * 32 + 32, need)
                                          : &sim_g.fibers[w * 32 + (unsigned)__builtin_ctz(need)];
        if (first != self) sim_switch(self, first);
    } else {
        sim_activemask_poll(w);
        sim_wait(self);
    }
    if (pred) *pred = self->op_pred;
    return self->op_res;
}

long long sim_clock64(void) { return ++sim_g.clock; }

void sim_trap(int line, const char *file)
{
    char blk[64], thr[96], where[96];
    if (!sim_in_fiber()) {
        fprintf(stderr, "gpulab simulator: __trap() outside a kernel\n");
        abort();
    }
    sim_block_name(blk, sizeof blk);
    sim_thread_name(thr, sizeof thr, sim_cur->linear);
    sim_where(where, sizeof where, line, file);
    sim_fail("%s: %s, %s called __trap() at %s: the kernel stopped itself", sim_g.kernel, blk, thr, where);
}
} /* namespace gpulab_sim */
