/* lanes.cpp - a block run as loops over its threads ("lanes") between its
 * barriers, without a fiber switch per thread and barrier.
 *
 * The source pass (kernels/program/lanes.c) gives a kernel whose barriers
 * split it into regions (__syncthreads() as a statement of the kernel's body
 * or of a loop whose bounds are the same for every thread) a second form:
 * each region becomes a loop that runs it for thread 0, 1, ... n-1 in turn,
 * with the variables that live across a barrier kept per thread. That is
 * exactly the fixed schedule's order (a thread runs until it waits, then the
 * next one in order runs), so results, messages and counters are the same;
 * only the n fiber switches of each barrier are gone.
 *
 * Used where nothing needs the threads' own interleaving: no trace, no
 * checker (race check), no other schedule, no cooperative launch. The
 * access recording (profile, the estimate) takes the loops' accesses as the
 * fibers': in the same order, each thread the running one. The memory checks of each access stay: each lane is the running
 * thread while its region runs. */
#include "kernels/sim/internal.h"
#include "kernels/sim/record.h"

#include <stdlib.h>
#include <string.h>

namespace gpulab_sim {

/* 0 turns the lane loops off (GPULAB_SIM_LANES=0: benchmarks compare) */
static int lanes_allowed(void)
{
    static int v = -1;
    if (v < 0) {
        const char *e = getenv("GPULAB_SIM_LANES");
        v = !(e && strcmp(e, "0") == 0);
    }
    return v;
}

int sim_lanes_here(void)
{
    if (!sim_in_fiber() || !lanes_allowed()) return 0;
    const sim_fiber *self = sim_self();
    if (self->info.linear != 0 || sim_g.ndone != 0 || sim_g.coop || sim_sched_kind || sim_g.trace) return 0;
    /* a checker needs each thread's own accesses between the others'; the
     * recording gets the same accesses in the same order as the fibers'
     * (per thread, each region to its end), so it runs in the loops too */
    if (sim_acc_on && sim_checkers_attached()) return 0;
    return 1;
}

/* the per-thread copies of the variables that live across a barrier: one
 * worker's chunks, taken again from the first by the next block. A chunk
 * never moves (the block holds pointers into it); a request that does not
 * fit goes to the next chunk, made as large as it needs. */
struct lane_chunk {
    char *p;
    size_t cap;
};
static __thread lane_chunk lane_chunks[32];
static __thread unsigned lane_cur, lane_nchunks;
static __thread size_t lane_used;

sim_lanes::sim_lanes() : n(sim_g.nthreads)
{
    sim_g.lanes = 1;
    lane_cur = 0;
    lane_used = 0;
    sim_g.stats.lane_blocks++;
}

void *sim_lanes::slot(size_t size, size_t align)
{
    const size_t bytes = size * n;
    for (;;) {
        if (lane_cur < lane_nchunks) {
            lane_chunk &c = lane_chunks[lane_cur];
            size_t at = (lane_used + align - 1) & ~(align - 1);
            if (at + bytes <= c.cap) {
                lane_used = at + bytes;
                return c.p + at;
            }
            if (lane_used == 0 && lane_cur + 1 == lane_nchunks) {
                /* the last chunk, empty and too small: a larger one */
                free(c.p);
                lane_nchunks--;
            } else {
                lane_cur++;
                lane_used = 0;
                continue;
            }
        }
        if (lane_nchunks == sizeof lane_chunks / sizeof lane_chunks[0])
            sim_fail("%s: too many variables live across its barriers", sim_g.kernel);
        size_t cap = 64 * 1024;
        while (cap < bytes + align) cap *= 2;
        char *p = static_cast<char *>(aligned_alloc(64, cap));
        if (!p) sim_fail("%s: out of host memory for the threads' variables", sim_g.kernel);
        lane_chunks[lane_nchunks++] = {p, cap};
        lane_cur = lane_nchunks - 1;
        lane_used = 0;
    }
}

#if !(defined(__x86_64__) && (!defined(__PIC__) || defined(__PIE__)) && !defined(__SANITIZE_ADDRESS__))
uint3 sim_lane_tid(void) { return sim_cur->tid; }
#endif

void sim_lane_enter(unsigned i)
{
    if (lab_interrupted) sim_stop_interrupted();
    sim_set_cur(&sim_g.fibers[i].info);
}

/* __syncthreads() between two regions: every thread has arrived (each ran
 * its region to the end); what the last arrival's release does */
void sim_lanes::barrier(int line, const char *file)
{
    if (lab_interrupted) sim_stop_interrupted();
    sim_set_cur(&sim_g.fibers[0].info);
    sim_barrier_passed(SIM_BAR_SYNC, line, file, nullptr);
    for (unsigned k = 0; k < n; k++) sim_g.fibers[k].epoch++;
}

/* the block's threads but the first end here; the first ends as every
 * thread does (fiber.cpp), and nothing is left to run */
void sim_lanes::end()
{
    /* (sim_g.lanes stays set: the first thread ends without a switch, and
     * the next block starts from its reset) */
    sim_set_cur(&sim_g.fibers[0].info);
    for (unsigned k = 1; k < n; k++) {
        sim_fiber *f = &sim_g.fibers[k];
        f->state = SIM_F_DONE;
        sim_g.warps[f->info.warp].done |= 1u << f->info.lane;
    }
    sim_g.nrun -= n - 1;
    sim_g.ndone += n - 1;
}

/* A wait inside the lane loops (the pass let through a barrier or a
 * collective it could not see): no thread can run until the others
 * arrive, so the launch stops here rather than run them out of order. */
void sim_lanes_wait(int line, const char *file)
{
    char where[96];
    sim_where(where, sizeof where, line, file);
    sim_fail("%s: internal error: a thread waits (%s) in the kernel's lane-loop form, which cannot wait; "
             "run it again with the environment's GPULAB_SIM_LANES=0 and report the kernel",
             sim_g.kernel, where);
}

} /* namespace gpulab_sim */
