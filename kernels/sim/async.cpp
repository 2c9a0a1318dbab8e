/* async.cpp - the simulator's side of libcu++'s asynchronous barriers
 * (shim_async.h): arrivals, phases, and the wait of a thread for a phase,
 * on the fibers of the running block.
 *
 * A fiber that waits for a phase stays runnable and hands the CPU to the
 * next runnable fiber until the phase completes: an arrival is an ordinary
 * step of another thread, so nothing but the running threads can complete
 * it. When every runnable fiber is such a waiter and a whole round of them
 * saw no arrival, no phase can ever complete (on a GPU the kernel hangs):
 * the launch stops and says which thread waits where, and how many arrivals
 * are missing. The barrier's state is read and written here, outside the
 * kernel's instrumented code, as the GPU keeps it in the barrier unit: its
 * own bookkeeping is no access of the kernel's. */
#include "kernels/sim/internal.h"
#include "kernels/sim/shim_async.h"
#include "kernels/sim/race.h"

namespace gpulab_sim {

enum : uint32_t { SIM_ABAR_MAGIC = 0x61626172u };

/* waiters of the running block (reset when a new block starts) */
static __thread unsigned long long spin_block;
static __thread unsigned spinning;
static __thread unsigned long long arrivals;

static void spin_sync_block(void)
{
    if (spin_block != sim_block_gen) {
        spin_block = sim_block_gen;
        spinning = 0;
    }
}

static const char *what_of(const sim_abar_state *b) { return b->what ? b->what : "cuda::barrier"; }

static void check_init(const sim_abar_state *b, int line, const char *file)
{
    if (b->magic == SIM_ABAR_MAGIC) return;
    char where[96];
    sim_where(where, sizeof where, line, file);
    if (!sim_in_fiber()) {
        fprintf(stderr, "simulator: a cuda::barrier used before init(&bar, count) (%s)\n", where);
        abort();
    }
    char blk[64], thr[96];
    sim_block_name(blk, sizeof blk);
    sim_thread_name(thr, sizeof thr, sim_cur->linear);
    sim_fail_code(cudaErrorLaunchFailure,
                  "%s: %s, %s uses a cuda::barrier (%s) that init(&bar, count) never set up: a barrier in shared "
                  "memory holds nothing until one thread initialises it, followed by __syncthreads() before any "
                  "other thread uses it",
                  sim_g.kernel, blk, thr, where);
}

void sim_abar_init(sim_abar_state *b, long long expected, const char *what, int line, const char *file)
{
    if (expected < 0 || expected > SIM_ABAR_MAX) {
        char where[96];
        sim_where(where, sizeof where, line, file);
        if (!sim_in_fiber()) {
            fprintf(stderr, "simulator: init(&bar, %lld): the count is 0 to %lld (%s)\n", expected,
                    (long long)SIM_ABAR_MAX, where);
            abort();
        }
        sim_fail_code(cudaErrorLaunchFailure, "%s: init(&bar, %lld) (%s): the expected count is 0 to %lld", sim_g.kernel,
                      expected, where, (long long)SIM_ABAR_MAX);
    }
    b->magic = SIM_ABAR_MAGIC;
    b->phase = 0;
    b->expected = expected;
    b->pending = expected;
    b->dropped = 0;
    b->what = what;
}

/* A phase completed: a barrier that every thread of the block takes part in
 * orders the block as __syncthreads does, for the checkers too. */
static void phase_done(sim_abar_state *b, int line, const char *file)
{
    long long took = b->expected;
    b->expected -= b->dropped;
    b->dropped = 0;
    b->pending = b->expected;
    b->phase++;
    if (sim_acc_on) sim_race_phase(b);
    if (!sim_in_fiber()) return;
    if (took == (long long)sim_g.nthreads) {
        sim_g.stats.barriers++;
        if (sim_acc_on) {
            sim_sync_event e = {SIM_SYNC_BARRIER, sim_g.block_linear, 0, sim_g.nthreads, 0, 0, line, file, b};
            sim_check_sync(&e);
        }
    }
    /* a phase of some of the threads (a pipeline's producers or consumers)
     * orders only them: each arrival is a release, each wait that returns
     * an acquire (race.cpp) */
}

unsigned long long sim_abar_arrive(sim_abar_state *b, long long n, int drop, int *last, int line, const char *file)
{
    check_init(b, line, file);
    if (lab_interrupted) sim_stop_interrupted();
    *last = 0;
    if (n <= 0 || n > b->pending) {
        char where[96];
        sim_where(where, sizeof where, line, file);
        if (!sim_in_fiber()) {
            fprintf(stderr, "simulator: %s: %lld arrivals where %lld are missing (%s)\n", what_of(b), n,
                    (long long)b->pending, where);
            abort();
        }
        char blk[64], thr[96];
        sim_block_name(blk, sizeof blk);
        sim_thread_name(thr, sizeof thr, sim_cur->linear);
        sim_fail_code(cudaErrorLaunchFailure,
                      "%s: %s, %s arrives at %s (%s) with %lld where the phase has %lld arrivals left of %lld: more "
                      "threads arrive than init(&bar, count) expects (undefined in CUDA)",
                      sim_g.kernel, blk, thr, what_of(b), where, n, (long long)b->pending, (long long)b->expected);
    }
    unsigned long long token = b->phase;
    if (drop) b->dropped++;
    b->pending -= n;
    if (sim_acc_on) sim_race_arrive(b, b->pending == 0);
    arrivals++;
    if (b->pending == 0) *last = 1;
    return token;
}

void sim_abar_complete(sim_abar_state *b, int line, const char *file) { phase_done(b, line, file); }

static int ready(const sim_abar_state *b, unsigned long long phase, int parity)
{
    if (parity >= 0) return (int)(b->phase & 1u) != parity;
    return b->phase != phase;
}

static void stuck(const sim_abar_state *b, int line, const char *file)
{
    char blk[64], thr[96], where[96];
    sim_block_name(blk, sizeof blk);
    sim_thread_name(thr, sizeof thr, sim_cur->linear);
    sim_where(where, sizeof where, line, file);
    spinning = 0;
    sim_fail("%s: %s, %s waits at %s (%s) for a phase that can never complete: %lld of its %lld arrivals are "
             "missing, and no thread that could arrive can run (they have ended, or wait at a barrier or for a "
             "phase themselves); on a GPU the kernel would hang",
             sim_g.kernel, blk, thr, what_of(b), where, (long long)b->pending, (long long)b->expected);
}

void sim_abar_wait(const sim_abar_state *b, unsigned long long phase, int parity, int line, const char *file)
{
    check_init(b, line, file);
    if (ready(b, phase, parity)) {
        if (sim_acc_on) sim_race_phase_wait(b);
        return;
    }
    if (!sim_in_fiber()) {
        char where[96];
        sim_where(where, sizeof where, line, file);
        fprintf(stderr, "simulator: %s: host code waits for a phase that no thread can complete (%s)\n", what_of(b),
                where);
        abort();
    }
    spin_sync_block();
    spinning++;
    unsigned long long seen = arrivals;
    unsigned idle = 0;
    do {
        if (lab_interrupted) {
            spinning--;
            sim_stop_interrupted();
        }
        sim_fiber *self = sim_self();
        sim_fiber *next = sim_next_runnable(self->info.linear);
        if (!next || next == self) stuck(b, line, file);
        if (spinning >= sim_g.nrun) {
            /* every runnable thread waits: only an arrival could help */
            if (arrivals != seen) {
                seen = arrivals;
                idle = 0;
            } else if (++idle > sim_g.nrun) {
                stuck(b, line, file);
            }
        } else {
            idle = 0;
        }
        sim_switch(self, next);
        spin_sync_block();
    } while (!ready(b, phase, parity));
    if (spinning) spinning--;
    if (sim_acc_on) sim_race_phase_wait(b);
}

int sim_abar_test(const sim_abar_state *b, unsigned long long phase, int parity, int line, const char *file)
{
    check_init(b, line, file);
    int r = ready(b, phase, parity);
    if (r && sim_acc_on) sim_race_phase_wait(b);
    return r;
}

void sim_async_misaligned(const void *dst, const void *src, size_t bytes, size_t align, int line, const char *file)
{
    char where[96];
    sim_where(where, sizeof where, line, file);
    if (!sim_in_fiber()) {
        fprintf(stderr, "simulator: memcpy_async of %zu bytes with aligned_size_t<%zu> from %p to %p (%s)\n", bytes,
                align, src, dst, where);
        abort();
    }
    char blk[64], thr[96];
    sim_block_name(blk, sizeof blk);
    sim_thread_name(thr, sizeof thr, sim_cur->linear);
    sim_fail_code(cudaErrorMisalignedAddress,
                  "%s: %s, %s: memcpy_async (%s) of %zu bytes with aligned_size_t<%zu>, from %p to %p: the "
                  "pointers and the size must be multiples of %zu, as aligned_size_t promises (the GPU's copy "
                  "faults with a misaligned address)",
                  sim_g.kernel, blk, thr, where, bytes, align, src, dst, align);
}

} /* namespace gpulab_sim */
