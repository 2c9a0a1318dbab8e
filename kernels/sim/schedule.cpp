/* schedule.cpp - the order the simulator runs threads and blocks in
 * (race.h: `set schedule`). The fixed order is one schedule among several:
 *
 *   fixed        blocks in index order; in a block the lowest runnable
 *                thread after the one that stopped, each thread running to
 *                its next sync point (sync.cpp);
 *   reverse      blocks from the last; threads from the highest;
 *   random       blocks and threads in an order drawn from the seed, and a
 *                thread gives way to the next at one plain global or shared
 *                access in four (drawn too), so lanes interleave between
 *                sync points;
 *   adversarial  blocks from the last; threads lane-major across warps (lane
 *                31 of every warp, then lane 30, ...), so consecutive threads
 *                are in different warps, and a thread gives way at every
 *                plain access.
 *
 * Each block's order is drawn from (seed, launch, block), so one seed gives
 * one run, byte for byte. A cooperative launch keeps its blocks' order (the
 * grid barrier interleaves them already). */
#include "kernels/sim/internal.h"
#include "kernels/sim/race.h"

#include <string.h>

namespace gpulab_sim {

int sim_sched_kind;
static unsigned long long sim_sched_seed;
static unsigned sim_perm[SIM_MAX_THREADS], sim_pos[SIM_MAX_THREADS];
static unsigned long long sim_perm_block = ~0ull, sim_perm_launch = ~0ull;
static unsigned sim_perm_n;
static uint64_t sim_rng;
/* the launch's block order: lin = (a * k + c) mod n */
static unsigned long long sim_blk_a, sim_blk_c, sim_blk_n, sim_blk_launch = ~0ull;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t next_rand(void)
{
    sim_rng = mix(sim_rng);
    return sim_rng;
}

/* the running block's thread order */
static void sim_sched_perm(void)
{
    unsigned long long launch = sim_g.stats.launches;
    if (sim_perm_block == sim_g.block_linear && sim_perm_launch == launch && sim_perm_n == sim_g.nthreads) return;
    sim_perm_block = sim_g.block_linear;
    sim_perm_launch = launch;
    unsigned n = sim_perm_n = sim_g.nthreads;
    sim_rng = mix(sim_sched_seed ^ mix(launch * 0x100000001b3ull ^ sim_g.block_linear));
    switch (sim_sched_kind) {
    case SIM_SCHED_REVERSE:
        for (unsigned i = 0; i < n; i++) sim_perm[i] = n - 1 - i;
        break;
    case SIM_SCHED_ADVERSARIAL: {
        unsigned k = 0, nw = (n + 31) / 32;
        for (int l = 31; l >= 0; l--)
            for (int w = (int)nw - 1; w >= 0; w--) {
                unsigned t = (unsigned)w * 32 + (unsigned)l;
                if (t < n) sim_perm[k++] = t;
            }
        break;
    }
    case SIM_SCHED_RANDOM:
        for (unsigned i = 0; i < n; i++) sim_perm[i] = i;
        for (unsigned i = n; i > 1; i--) {
            unsigned j = (unsigned)(next_rand() % i);
            unsigned x = sim_perm[i - 1];
            sim_perm[i - 1] = sim_perm[j];
            sim_perm[j] = x;
        }
        break;
    default:
        for (unsigned i = 0; i < n; i++) sim_perm[i] = i;
        break;
    }
    for (unsigned i = 0; i < n; i++) sim_pos[sim_perm[i]] = i;
}

/* fiber.cpp: the next runnable thread after `from` in the block's order */
sim_fiber *sim_sched_next(unsigned from)
{
    if (sim_g.nrun == 0) return nullptr;
    sim_sched_perm();
    unsigned n = sim_g.nthreads, p = from < n ? sim_pos[from] : n - 1;
    for (unsigned k = 1; k <= n; k++) {
        unsigned i = p + k;
        if (i >= n) i -= n;
        sim_fiber *f = &sim_g.fibers[sim_perm[i]];
        if (f->state == SIM_F_RUN) return f;
    }
    return nullptr;
}

/* sync.cpp, launch.cpp: of the threads in [lo, hi) whose bit is set in
 * mask (mask 0: all of them), the first in the block's order */
sim_fiber *sim_sched_first(unsigned lo, unsigned hi, uint32_t mask)
{
    sim_sched_perm();
    unsigned n = sim_g.nthreads;
    for (unsigned i = 0; i < n; i++) {
        unsigned t = sim_perm[i];
        if (t < lo || t >= hi) continue;
        if (mask && !(mask >> ((t - lo) & 31) & 1)) continue;
        return &sim_g.fibers[t];
    }
    return &sim_g.fibers[lo];
}

/* launch.cpp: the k-th block to run becomes block *linear of the grid */
void sim_sched_block(const unsigned g[3], unsigned long long k, unsigned idx[3], unsigned long long *linear)
{
    unsigned long long n = (unsigned long long)g[0] * g[1] * g[2], lin = k;
    if (sim_sched_kind == SIM_SCHED_REVERSE || sim_sched_kind == SIM_SCHED_ADVERSARIAL) {
        lin = n - 1 - k;
    } else if (sim_sched_kind == SIM_SCHED_RANDOM) {
        unsigned long long launch = sim_g.stats.launches;
        if (sim_blk_launch != launch || sim_blk_n != n) {
            sim_blk_launch = launch;
            sim_blk_n = n;
            uint64_t r = mix(sim_sched_seed ^ mix(launch ^ 0xb10cull));
            sim_blk_c = n ? r % n : 0;
            unsigned long long a = n > 1 ? 1 + mix(r) % (n - 1) : 1;
            for (;;) { /* a step coprime with n visits every block once */
                unsigned long long x = a, y = n;
                while (y) {
                    unsigned long long t = x % y;
                    x = y;
                    y = t;
                }
                if (x == 1) break;
                a = a + 1 < n ? a + 1 : 1;
            }
            sim_blk_a = a;
        }
        lin = (unsigned long long)(((unsigned __int128)sim_blk_a * k + sim_blk_c) % n);
    }
    *linear = lin;
    idx[0] = (unsigned)(lin % g[0]);
    idx[1] = (unsigned)(lin / g[0] % g[1]);
    idx[2] = (unsigned)(lin / g[0] / g[1]);
}

/* race.cpp: a plain access is about to happen; under random and
 * adversarial schedules the thread may give way to the next one here */
void sim_sched_access(void)
{
    if (sim_sched_kind != SIM_SCHED_RANDOM && sim_sched_kind != SIM_SCHED_ADVERSARIAL) return;
    if (!sim_in_fiber() || sim_g.coop) return;
    if (sim_sched_kind == SIM_SCHED_RANDOM) {
        sim_sched_perm();
        if (next_rand() & 3) return;
    }
    sim_fiber *self = sim_self();
    sim_fiber *to = sim_sched_next(self->info.linear);
    if (to && to != self) sim_switch(self, to);
}

} /* namespace gpulab_sim */

using namespace gpulab_sim;

extern "C" void sim_schedule_set(int kind, unsigned long long seed)
{
    sim_sched_kind = kind >= SIM_SCHED_FIXED && kind <= SIM_SCHED_ADVERSARIAL ? kind : SIM_SCHED_FIXED;
    sim_sched_seed = seed;
    sim_perm_block = sim_blk_launch = ~0ull;
}

extern "C" int sim_schedule_kind(void) { return sim_sched_kind; }
extern "C" unsigned long long sim_schedule_seed(void) { return sim_sched_seed; }

static const char *const sim_sched_names[] = {"fixed", "random", "reverse", "adversarial"};

extern "C" int sim_schedule_parse(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (name && strcmp(name, sim_sched_names[i]) == 0) return i;
    return -1;
}

extern "C" const char *sim_schedule_name(int kind)
{
    return kind >= 0 && kind < 4 ? sim_sched_names[kind] : "fixed";
}
