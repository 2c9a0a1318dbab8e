/* par.cpp - a launch's blocks on several worker threads (`set sim-threads`),
 * with every result, output, diagnostic and counter the one-worker run has.
 *
 * Each worker thread has its own fibers, block, epoch, shared arena and
 * access-hook cache (thread-local: internal.h's sim_g, shared.cpp,
 * record.cpp). Workers take blocks in block order and finish them in any
 * order; a finished block's output (its printf text), counters and failure
 * wait until every earlier block is finished, and are then committed in
 * block order. Blocks of a launch meet only through global memory: a block
 * that runs beside earlier ones waits, at its first global atomic, global
 * fence, or memory error, until all earlier blocks have finished; from there
 * on it is the oldest block running and sees what the one-worker run would
 * see (sim_par_order). The first failure in block order is the launch's;
 * blocks after it that had started are discarded. Launches that cannot keep
 * the one-worker order this way run on one worker (sim_par_workers).
 *
 * The access recording's readers (the profile's counters, the access trace)
 * get a block's records when the block is committed: a worker keeps its
 * block's records in a log (record.cpp) and the commit hands the log over;
 * a block that becomes the oldest hands over its log so far and then
 * delivers as it goes. So the readers see one worker's calls in one
 * worker's order. Logs waiting for their commit are bounded
 * (PAR_LOG_PENDING_MAX): past it a worker waits before its next block.
 *
 * The race check (race.cpp) keeps a log of each block the same way, replayed
 * at the commit with the lock released. A race-checked block must also read
 * what it reads in the one-worker run: it writes global memory only once
 * every block before it has ended (par_become_first; it keeps its log, so
 * it need not wait for their logs' replay), and a block that may have read
 * what an earlier block wrote after runs again as the oldest (sim_par_doom:
 * at its commit, or when it would write; nothing it did before reached
 * global memory). */
/* the C++ library's headers first: shim.h defines CUDA's __noinline__ */
#include <condition_variable>
#include <map>
#include <set>
#include <mutex>
#include <string>

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "kernels/sim/internal.h"
#include "kernels/sim/race.h"

namespace gpulab_sim {

__thread unsigned sim_worker;
__thread int sim_par_unordered;

unsigned sim_worker_index(void) { return sim_worker; }
int sim_par_unordered_get(void) { return sim_par_unordered; }

/* `set sim-threads` (sim_set_threads): 0 = one per core; -1: not set, then
 * GPULAB_SIM_THREADS (how a student's program is told) */
static int sim_par_want = -1;

static int sim_par_setting(void)
{
    if (sim_par_want < 0) {
        const char *e = getenv("GPULAB_SIM_THREADS");
        int n = e && *e ? atoi(e) : 0;
        sim_par_want = n >= 0 && n <= SIM_WORKERS_MAX ? n : 0;
    }
    return sim_par_want;
}

static unsigned sim_par_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    return n > SIM_WORKERS_MAX ? (unsigned)SIM_WORKERS_MAX : (unsigned)n;
}

/* A block's log, owned: freed with the block, moved, never copied. */
template <class T, void (*release)(T *)> struct par_owned {
    T *p = nullptr;
    par_owned() = default;
    par_owned(const par_owned &) = delete;
    par_owned &operator=(const par_owned &) = delete;
    par_owned(par_owned &&o) noexcept : p(o.p) { o.p = nullptr; }
    par_owned &operator=(par_owned &&o) noexcept
    {
        std::swap(p, o.p);
        return *this;
    }
    ~par_owned() { release(p); }
};
/* its records for the readers (record.cpp), and for the race check (race.cpp) */
typedef par_owned<sim_rec_log, sim_rec_log_free> par_log;
typedef par_owned<sim_race_log, sim_race_log_free> par_race_log;

/* Bytes of logs of finished blocks that wait for earlier ones, past which a
 * worker waits before it takes another block. */
static const size_t PAR_LOG_PENDING_DEFAULT = (size_t)256 << 20;
static size_t PAR_LOG_PENDING_MAX = PAR_LOG_PENDING_DEFAULT;

/* A finished block waiting for the blocks before it. */
struct par_block {
    int rc;
    par_log log;
    par_race_log race;
    size_t log_bytes = 0;
    std::string out;
    sim_stats d;
    std::string diag;
    int diag_pending;
    cudaError_t fail_code;
    void *fault_pc;
};

struct par_launch {
    std::mutex m;
    std::condition_variable cv;
    unsigned long long nblocks;
    unsigned long long next;           /* the next block to take (atomic) */
    unsigned long long committed;      /* blocks [0, committed) are committed */
    unsigned long long stop;           /* no block at or past it starts (atomic) */
    std::map<unsigned long long, par_block> done;
    sim_stats stats;                   /* the committed blocks' counters */
    size_t log_bytes;                  /* of the logs in done */
    int failed;                        /* a committed block failed: the rest are discarded */
    int committing;                    /* a worker commits blocks now (par_commit_ready) */
    std::set<unsigned long long> doomed; /* blocks to run again as the oldest (sim_par_doom) */
    par_block fail;
    sim_launch_state launch;
    size_t stack_req;
    dim3 grid;
    const char *at;
};
static par_launch *P;

/* the running block's printf text, per worker */
static __thread std::string *par_out;
static __thread unsigned long long par_block_no;
/* the running block stopped to run again as the oldest (par_become_oldest) */
static __thread int par_restart;
/* the running block may write global memory though it is not the oldest:
 * every block before it has ended (par_become_first) */
static __thread int par_first;

static void par_run_block(unsigned long long b, int ordered, par_block &pb);

static void stats_add(sim_stats *to, const sim_stats &d, int sign)
{
    to->blocks += sign * d.blocks;
    to->threads += sign * d.threads;
    to->switches += sign * d.switches;
    to->barriers += sign * d.barriers;
    to->collectives += sign * d.collectives;
    to->lane_blocks += sign * d.lane_blocks;
}

/* Blocks [committed, ...) that have finished go out in order, by one
 * worker at a time: the others go on with their blocks meanwhile (a race
 * check's log is replayed with the lock released). Locked. */
static void par_commit_ready(std::unique_lock<std::mutex> &lk)
{
    if (P->committing) return; /* that worker commits this block too */
    P->committing = 1;
    for (;;) {
        auto it = P->done.find(P->committed);
        if (it == P->done.end()) break;
        if (!P->failed && P->doomed.erase(P->committed)) {
            /* it may have read what an earlier block wrote after: it runs
             * again here, as the oldest, and only that run counts */
            const unsigned long long b = P->committed;
            __atomic_sub_fetch(&P->log_bytes, it->second.log_bytes, __ATOMIC_RELAXED);
            P->done.erase(it);
            lk.unlock();
            par_block nb;
            par_run_block(b, 1, nb);
            lk.lock();
            __atomic_add_fetch(&P->log_bytes, nb.log_bytes, __ATOMIC_RELAXED);
            it = P->done.emplace(b, std::move(nb)).first;
        }
        if (it->second.race.p && !P->failed) {
            /* the race check is given the block as one worker gives it */
            par_race_log rl(std::move(it->second.race));
            lk.unlock();
            sim_race_log_replay(rl.p);
            lk.lock();
        }
        par_block &b = it->second;
        __atomic_sub_fetch(&P->log_bytes, b.log_bytes, __ATOMIC_RELAXED);
        if (!P->failed) {
            /* the readers get the block's records as one worker gives them */
            sim_rec_log_replay(b.log.p);
            if (!b.out.empty()) fwrite(b.out.data(), 1, b.out.size(), stdout);
            stats_add(&P->stats, b.d, 1);
            if (b.rc != 0) {
                P->failed = 1;
                P->fail = std::move(b);
                __atomic_store_n(&P->stop, P->committed + 1, __ATOMIC_RELAXED);
            } else if (lab_interrupted) {
                /* as the one-worker loop says it, after the block that ended */
                P->failed = 1;
                char msg[LAB_ERR_MAX];
                snprintf(msg, sizeof msg, "%s: interrupted after %llu of %llu blocks", P->at,
                         P->committed + 1, P->nblocks);
                P->fail = par_block();
                P->fail.rc = -1;
                P->fail.diag = msg;
                P->fail.diag_pending = 1;
                P->fail.fail_code = cudaSuccess;
                __atomic_store_n(&P->stop, P->committed + 1, __ATOMIC_RELAXED);
            }
        }
        P->done.erase(it);
        P->committed++;
        P->cv.notify_all();
    }
    P->committing = 0;
    P->cv.notify_all();
}

/* The running block waits until every block before it has finished and
 * gone out; then it is the oldest, and runs as the one-worker run would. */
static void par_become_oldest(void)
{
    std::unique_lock<std::mutex> lk(P->m);
    while (P->committed < par_block_no && !P->failed) P->cv.wait(lk);
    if (P->failed && P->committed <= par_block_no) {
        /* an earlier block failed: this one would not have run */
        lk.unlock();
        sim_abort();
    }
    if (P->doomed.erase(par_block_no)) {
        /* it may have read what an earlier block wrote after: it starts
         * again, as the oldest (par_run_block) */
        par_restart = 1;
        lk.unlock();
        sim_abort();
    }
    if (!par_out->empty()) {
        fwrite(par_out->data(), 1, par_out->size(), stdout);
        par_out->clear();
    }
    sim_par_unordered = 0;
    sim_rec_log_deliver(); /* the block's records so far; the rest as they come */
    /* the race check's log too, with the lock released: the oldest block
     * is the only one the checker hears from until it is committed */
    lk.unlock();
    sim_race_log_deliver();
}

/* Every block before b has ended without failing, and none of them nor b
 * is to run again. Locked. */
static bool par_before_ended(unsigned long long b)
{
    if (P->failed || (!P->doomed.empty() && *P->doomed.begin() <= b)) return false;
    for (unsigned long long j = P->committed; j < b; j++) {
        auto it = P->done.find(j);
        if (it == P->done.end() || it->second.rc != 0) return false;
    }
    return true;
}

/* A race-checked block's global writes and atomics need only that every
 * block before it has ended, not that it is committed: the commit replays
 * the block's log into the check, and the block goes on with its log
 * meanwhile, to be replayed at its own commit in block order. So the
 * replays are no longer a chain that each block's first write waits on
 * (a reduction's one atomic per block waited for the block before's
 * replay). What it writes is what the one-worker run writes: everything
 * before it has ended, and nothing after it writes before it ends. A block
 * to run again, or after a failure, takes the oldest's way. */
static void par_become_first(void)
{
    if (par_first) return;
    {
        std::unique_lock<std::mutex> lk(P->m);
        while (P->committed < par_block_no && !P->failed && !P->doomed.count(par_block_no) &&
               !par_before_ended(par_block_no))
            P->cv.wait(lk);
        if (par_before_ended(par_block_no)) {
            par_first = 1;
            return;
        }
    }
    par_become_oldest();
}

int sim_par_first(void)
{
    if (!sim_par_unordered || !sim_in_fiber()) return 0;
    par_become_first();
    return sim_par_unordered && sim_race_logging();
}

void sim_par_order(const void *p)
{
    if (!sim_par_unordered || !sim_in_fiber()) return;
    if (p && sim_is_shared(p)) return; /* the block's own shared memory */
    /* an atomic whose check goes into the block's log */
    if (p && sim_race_logging()) return par_become_first();
    par_become_oldest();
}

int sim_par_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n;
    if (sim_par_unordered && par_out && sim_in_fiber()) {
        char small[512];
        va_list aq;
        va_copy(aq, ap);
        n = vsnprintf(small, sizeof small, fmt, ap);
        if (n >= 0 && (size_t)n < sizeof small) {
            par_out->append(small, (size_t)n);
        } else if (n >= 0) {
            std::string big((size_t)n + 1, '\0');
            vsnprintf(&big[0], big.size(), fmt, aq);
            par_out->append(big.data(), (size_t)n);
        }
        va_end(aq);
    } else {
        n = vprintf(fmt, ap);
    }
    va_end(ap);
    return n;
}

/* Block b on this worker, beside earlier blocks or (ordered) as the oldest
 * (every block before it committed); its results in pb. A block that has
 * to start again (par_restart) runs again as the oldest. */
static void par_run_block(unsigned long long b, int ordered, par_block &pb)
{
    const dim3 g = P->grid;
    std::string &out = *par_out;
    for (;;) {
        sim_block_idx.x = (unsigned)(b % g.x);
        sim_block_idx.y = (unsigned)(b / g.x % g.y);
        sim_block_idx.z = (unsigned)(b / g.x / g.y);
        sim_g.block_linear = b;
        par_block_no = b;
        out.clear();
        sim_par_unordered = !ordered;
        par_restart = 0;
        par_first = 0;
        const sim_stats before = sim_g.stats;
        sim_rec_block_begin(b);
        sim_block_start();
        int rc = sim_block_play();
        sim_rec_block_end();
        pb.log.p = sim_rec_log_take(); /* NULL when the block delivered as it went */
        pb.race.p = sim_race_log_take();
        pb.log_bytes = sim_rec_log_bytes(pb.log.p) + sim_race_log_bytes(pb.race.p);
        sim_par_unordered = 0;
        pb.rc = rc;
        pb.d = sim_g.stats;
        stats_add(&pb.d, before, -1);
        sim_g.stats = before;
        pb.out.swap(out);
        pb.diag_pending = 0;
        pb.fail_code = cudaSuccess;
        pb.fault_pc = nullptr;
        if (rc != 0) {
            pb.diag = sim_g.diag;
            pb.diag_pending = sim_g.diag_pending;
            pb.fail_code = sim_g.fail_code;
            pb.fault_pc = sim_g.fault_pc;
            sim_g.diag_pending = 0;
            sim_g.fail_code = cudaSuccess;
            sim_g.fault_pc = nullptr;
#if defined(SIM_ASAN)
            for (unsigned i = 0; i < sim_g.nthreads; i++)
                ASAN_UNPOISON_MEMORY_REGION(sim_g.fibers[i].stack, sim_g.fibers[i].stack_size);
#endif
        }
        if (!par_restart) return;
        /* nothing of the stopped run counts */
        pb.log = par_log();
        pb.race = par_race_log();
        pb.log_bytes = 0;
        pb.out.clear();
        pb.diag.clear();
        par_restart = 0;
        ordered = 1;
    }
}

/* One worker's share of the launch: blocks in order until none is left. */
static void par_work(void)
{
    std::string out;
    par_out = &out;
    if (sim_worker != 0) {
        static_cast<sim_launch_state &>(sim_g) = P->launch;
        sim_g.stack_req = P->stack_req;
        sim_g.sim_trace_state::reset(nullptr, 0, 0);
        if (sim_pool_grow(sim_g.nthreads) != 0) {
            par_out = nullptr;
            return; /* the other workers play the blocks */
        }
        sim_number_threads(sim_g.block);
        sim_rec_worker_begin();
    }
    for (;;) {
        if (__atomic_load_n(&P->log_bytes, __ATOMIC_RELAXED) > PAR_LOG_PENDING_MAX) {
            /* the blocks before wait for an earlier one still running: not
             * ahead of it by more than this */
            std::unique_lock<std::mutex> lk(P->m);
            while (P->log_bytes > PAR_LOG_PENDING_MAX / 2 && !P->failed) P->cv.wait(lk);
        }
        unsigned long long b = __atomic_fetch_add(&P->next, 1, __ATOMIC_RELAXED);
        if (b >= P->nblocks || b >= __atomic_load_n(&P->stop, __ATOMIC_RELAXED) || lab_interrupted) break;
        par_block pb;
        par_run_block(b, 0, pb);
        std::unique_lock<std::mutex> lk(P->m);
        __atomic_add_fetch(&P->log_bytes, pb.log_bytes, __ATOMIC_RELAXED);
        P->done.emplace(b, std::move(pb));
        P->cv.notify_all(); /* a later block may wait for it to end (par_become_first) */
        par_commit_ready(lk);
    }
    par_out = nullptr;
    if (sim_worker != 0) {
        sim_g.in_launch = 0;
        sim_set_cur(&sim_host_thread);
    }
}

/* ------------------------------------------------------------ the pool */

struct par_pool {
    std::mutex m;
    std::condition_variable go, idle;
    unsigned long long gen;
    unsigned made;     /* worker threads 1..made exist */
    unsigned active;   /* workers 1..active-1 take part in this launch */
    unsigned running;  /* of them, still at work */
};
static par_pool *pool;

static void *par_thread(void *arg)
{
    sim_worker = (unsigned)(uintptr_t)arg;
    /* signals are the launching thread's (Ctrl-C sets a flag); a fault in a
     * kernel is caught where it happens */
    sigset_t all;
    sigfillset(&all);
    sigdelset(&all, SIGSEGV);
    sigdelset(&all, SIGBUS);
    sigdelset(&all, SIGFPE);
    sigdelset(&all, SIGILL);
    pthread_sigmask(SIG_SETMASK, &all, nullptr);
    sim_altstack_here();
    par_pool *pl = pool;
    unsigned long long seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lk(pl->m);
            while (pl->gen == seen) pl->go.wait(lk);
            seen = pl->gen;
            if (sim_worker >= pl->active) continue;
        }
        par_work();
        std::lock_guard<std::mutex> lk(pl->m);
        if (--pl->running == 0) pl->idle.notify_all();
    }
    return nullptr;
}

/* a child of fork() has none of the parent's worker threads */
static void par_forget_pool(void) { pool = nullptr; }

static unsigned par_pool_ready(unsigned want)
{
    if (!pool) {
        static int once;
        if (!once) {
            pthread_atfork(nullptr, nullptr, par_forget_pool);
            once = 1;
        }
        pool = new par_pool();
        pool->gen = 0;
        pool->made = 0;
    }
    while (pool->made + 1 < want) {
        pthread_t t;
        pthread_attr_t a;
        pthread_attr_init(&a);
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&a, 16u << 20);
        int e = pthread_create(&t, &a, par_thread, (void *)(uintptr_t)(pool->made + 1));
        pthread_attr_destroy(&a);
        if (e != 0) break;
        pool->made++;
    }
    return pool->made + 1;
}

/* ---------------------------------------------------------- the launch */

unsigned sim_par_workers(const lab_job *job, unsigned long long nblocks)
{
    unsigned want = sim_par_setting() > 0 ? (unsigned)sim_par_want : sim_par_cores();
    if (want > SIM_WORKERS_MAX) want = SIM_WORKERS_MAX;
    if (want <= 1 || nblocks < 2) return 1;
    /* what keeps its own order, one worker: a cooperative launch, a
     * schedule other than the fixed one, a checker other than the race
     * check, and the trace (the access recording's readers and the race
     * check do not: their records go to them in block order, see above) */
    if (sim_g.coop || sim_sched_kind || sim_g.trace || !sim_rec_parallel_ok()) return 1;
    (void)job;
    if (sim_worker != 0) return 1;
    return want < nblocks ? want : (unsigned)nblocks;
}

int sim_par_run(unsigned nw, const char *at)
{
    par_launch L;
    L.at = at;
    L.nblocks = (unsigned long long)sim_g.grid.x * sim_g.grid.y * sim_g.grid.z;
    L.next = 0;
    L.committed = 0;
    L.stop = ~0ull;
    memset(&L.stats, 0, sizeof L.stats);
    L.log_bytes = 0;
    L.failed = 0;
    L.committing = 0;
    L.launch = static_cast<const sim_launch_state &>(sim_g);
    L.stack_req = sim_g.stack_req;
    L.grid = sim_g.grid;
    nw = par_pool_ready(nw);
    P = &L;
    sim_race_par_launch(1);
    fflush(stdout); /* what the host printed before the launch comes first */
    {
        std::lock_guard<std::mutex> lk(pool->m);
        pool->active = nw;
        pool->running = nw - 1;
        pool->gen++;
    }
    pool->go.notify_all();
    par_work();
    {
        std::unique_lock<std::mutex> lk(pool->m);
        while (pool->running) pool->idle.wait(lk);
    }
    P = nullptr;
    sim_race_par_launch(0);
    stats_add(&sim_g.stats, L.stats, 1);
    if (L.failed) {
        snprintf(sim_g.diag, sizeof sim_g.diag, "%s", L.fail.diag.c_str());
        sim_g.diag_pending = L.fail.diag_pending;
        sim_g.fail_code = L.fail.fail_code;
        sim_g.fault_pc = L.fail.fault_pc;
        return -1;
    }
    if (L.committed < L.nblocks) { /* interrupted before a block began */
        sim_diag("%s: interrupted after %llu of %llu blocks", at, L.committed, L.nblocks);
        return -1;
    }
    return 0;
}

void sim_par_doom(unsigned long long first, unsigned long long last)
{
    if (!P) return;
    std::lock_guard<std::mutex> lk(P->m);
    /* blocks that have not begun read nothing yet */
    const unsigned long long next = __atomic_load_n(&P->next, __ATOMIC_RELAXED);
    if (last >= next) last = next - 1;
    if (last >= P->nblocks) last = P->nblocks - 1;
    if (first <= P->committed) first = P->committed + 1;
    for (unsigned long long b = first; b <= last && next > 0; b++) P->doomed.insert(b);
}

} /* namespace gpulab_sim */

using namespace gpulab_sim;

extern "C" int sim_set_threads(int n)
{
    if (n < 0 || n > SIM_WORKERS_MAX || sim_g.in_launch) return -1;
    sim_par_want = n;
    return 0;
}

/* tests/sim/test_sim_par.cpp: small log bounds, to see the waits (0: the defaults) */
extern "C" void sim_par_log_limits(size_t per_block, size_t pending)
{
    sim_rec_log_max = per_block ? per_block : (size_t)SIM_REC_LOG_MAX;
    PAR_LOG_PENDING_MAX = pending ? pending : PAR_LOG_PENDING_DEFAULT;
}

extern "C" int sim_threads(void) { return sim_par_setting() > 0 ? sim_par_want : (int)sim_par_cores(); }
