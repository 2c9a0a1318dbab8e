/* sim.cpp - the simulator's runtime: fibers, the fixed schedule, barriers,
 * warp collectives, launches, traces and diagnostics.
 *
 * One OS thread plays a whole grid. Blocks run one after another; inside a
 * block every GPU thread is a fiber with its own stack. A fiber is made once
 * with makecontext and from then on switched with _setjmp/_longjmp, which
 * save and restore a handful of registers and no signal mask, so a switch
 * costs tens of nanoseconds. Fibers and their stacks are reused by every
 * block and launch; a fiber starts a new GPU thread by jumping back to the
 * top of its loop (loop_jb), so a thread stopped half-way (a failed launch)
 * leaves nothing behind.
 *
 * The schedule is fixed. A fiber runs until it waits (barrier, warp
 * collective) or ends; then the next runnable fiber in thread order runs,
 * wrapping around. When a barrier or a collective releases its threads, the
 * lowest released thread runs next. So a block runs warp by warp and lane by
 * lane between two sync points, and two runs give the same results, float
 * sums included, and the same trace. */

/* _longjmp between stacks is the point; the fortified variant refuses jumps
 * to another stack. */
#undef _FORTIFY_SOURCE

#include "kernels/sim/internal.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#  define SIM_ASAN 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define SIM_ASAN 1
#  endif
#endif
#if defined(SIM_ASAN)
#  include <sanitizer/asan_interface.h>
#  include <sanitizer/common_interface_defs.h>
#endif

namespace gpulab_sim {

sim_state sim_g;
sim_thread_info sim_host_thread;
sim_thread_info *sim_cur = &sim_host_thread;
uint3 sim_block_idx;
dim3 sim_block_dim, sim_grid_dim;
unsigned long long sim_block_gen = 1;
int sim_race_on;

/* A guard area below each stack: a frame that overflows lands in it (up to
 * 64 KiB past the end) instead of in the next fiber's stack. */
static const size_t SIM_GUARD = 64 * 1024;

/* ---------------------------------------------------------- ASan fibers */

static inline void asan_start(void **fake_save, const void *bottom, size_t size)
{
#if defined(SIM_ASAN)
    __sanitizer_start_switch_fiber(fake_save, bottom, size);
#else
    (void)fake_save; (void)bottom; (void)size;
#endif
}

static inline void asan_finish(void *fake_save, const void **bottom_old, size_t *size_old)
{
#if defined(SIM_ASAN)
    __sanitizer_finish_switch_fiber(fake_save, bottom_old, size_old);
#else
    (void)fake_save; (void)bottom_old; (void)size_old;
#endif
}

static int sim_same_file(const char *a, const char *b);

/* ------------------------------------------------------------ switching */

/* Leave the running context for fiber `to` (NULL: the launch's main
 * context). The caller has saved where it stands, or does not need to. */
[[noreturn]] static void sim_jump(void **fake_save, sim_fiber *to)
{
    sim_g.stats.switches++;
    if (!to) {
        asan_start(fake_save, sim_g.main_bottom, sim_g.main_size);
        _longjmp(sim_g.main_jb, 1);
    }
    asan_start(fake_save, to->stack, to->stack_size);
    if (to->fresh) {
        to->fresh = 0;
        _longjmp(to->loop_jb, 1);
    }
    _longjmp(to->jb, 1);
}

/* Suspend self and run `to`; returns when something switches back. */
static void sim_switch(sim_fiber *self, sim_fiber *to)
{
    if (_setjmp(self->jb) == 0) sim_jump(&self->fake, to);
    asan_finish(self->fake, nullptr, nullptr);
    sim_cur = &self->info;
}

static sim_fiber *sim_next_runnable(unsigned from)
{
    if (sim_g.nrun == 0) return nullptr;
    unsigned n = sim_g.nthreads;
    for (unsigned k = 1; k <= n; k++) {
        unsigned i = from + k;
        if (i >= n) i -= n;
        if (sim_g.fibers[i].state == SIM_F_RUN) return &sim_g.fibers[i];
    }
    return nullptr;
}

/* self has stopped being runnable: run whoever is next. */
static void sim_wait(sim_fiber *self)
{
    sim_switch(self, sim_next_runnable(self->info.linear));
}

/* __activemask: once no live lane of the warp can run, the lanes waiting at
 * the first such call (in lane order) get the set of lanes waiting there. */
static void sim_activemask_release(unsigned w);
static inline void sim_activemask_poll(unsigned w)
{
    if (sim_g.warps[w].am) sim_activemask_release(w);
}

static void sim_activemask_release(unsigned w)
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

[[noreturn]] static void sim_thread_exit(sim_fiber *f)
{
    f->state = SIM_F_DONE;
    sim_g.nrun--;
    sim_g.ndone++;
    sim_g.warps[f->info.warp].done |= 1u << f->info.lane;
    sim_activemask_poll(f->info.warp);
    sim_jump(&f->fake, sim_next_runnable(f->info.linear));
}

/* Stop the launch from inside a fiber: back to main, never to return. */
[[noreturn]] static void sim_abort(void)
{
    sim_g.aborted = 1;
    sim_fiber *self = sim_self();
    sim_jump(&self->fake, nullptr);
}

/* A fiber's whole life: made once, then it plays one GPU thread each time it
 * is started at loop_jb. */
static void sim_fiber_entry(int idx)
{
    sim_fiber *f = &sim_g.fibers[idx];
    asan_finish(nullptr, &sim_g.main_bottom, &sim_g.main_size);
    if (_setjmp(f->loop_jb) == 0) {
        asan_start(&f->fake, sim_g.main_bottom, sim_g.main_size);
        _longjmp(sim_g.create_jb, 1);
    }
    asan_finish(f->fake, nullptr, nullptr);
    sim_cur = &f->info;
    sim_g.body(sim_g.body_ctx);
    sim_thread_exit(f);
}

static void sim_fiber_create(sim_fiber *f, int idx)
{
    ucontext_t uc;
    getcontext(&uc);
    uc.uc_stack.ss_sp = f->stack;
    /* Cache colouring: page-aligned stacks would all start in the same cache
     * set, and a block's fibers would evict each other on every switch. Each
     * fiber starts a different number of cache lines below its top. */
    uc.uc_stack.ss_size = f->stack_size - (size_t)(idx % 64) * 64;
    uc.uc_link = nullptr;
    makecontext(&uc, (void (*)(void))sim_fiber_entry, 1, idx);
    if (_setjmp(sim_g.create_jb) == 0) {
        asan_start(&sim_g.main_fake, f->stack, f->stack_size);
        setcontext(&uc);
        abort(); /* setcontext returns only on failure */
    }
    asan_finish(sim_g.main_fake, nullptr, nullptr);
}

static size_t sim_page(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

static size_t sim_stack_wanted(void)
{
    size_t s = sim_g.stack_req;
    if (s == 0) {
        s = SIM_STACK_DEFAULT;
#if defined(SIM_ASAN)
        s = 4 * SIM_STACK_DEFAULT; /* instrumented frames are larger */
#endif
        const char *env = getenv("GPULAB_SIM_STACK_KB");
        if (env && atol(env) > 0) s = (size_t)atol(env) * 1024;
        if (s < SIM_STACK_MIN) s = SIM_STACK_MIN;
        if (s > SIM_STACK_MAX) s = SIM_STACK_MAX;
    }
    size_t pg = sim_page();
    return (s + pg - 1) / pg * pg;
}

static void sim_pool_release(void)
{
    for (unsigned c = 0; c < sim_g.nchunks; c++) munmap(sim_g.chunks[c].base, sim_g.chunks[c].bytes);
    sim_g.nchunks = 0;
    sim_g.nfibers = 0;
}

/* Make fibers up to `need`, 32 (a warp) per mapping. */
static int sim_pool_grow(unsigned need)
{
    unsigned long self = (unsigned long)pthread_self();
    size_t stack = sim_stack_wanted();
    if (sim_g.nfibers && (sim_g.pool_stack != stack || sim_g.owner != self)) sim_pool_release();
    sim_g.pool_stack = stack;
    sim_g.owner = self;
    while (sim_g.nfibers < need) {
        unsigned n = 32;
        /* an odd number of pages per slot spreads the stacks over the cache
         * sets that whole pages map to (see sim_fiber_create) */
        size_t slot = SIM_GUARD + stack + sim_page();
        char *mem = (char *)mmap(nullptr, slot * n, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (mem == MAP_FAILED) return -1;
        sim_g.chunks[sim_g.nchunks].base = mem;
        sim_g.chunks[sim_g.nchunks].bytes = slot * n;
        sim_g.nchunks++;
        for (unsigned k = 0; k < n; k++) {
            sim_fiber *f = &sim_g.fibers[sim_g.nfibers];
            f->guard = mem + k * slot;
            f->stack = f->guard + SIM_GUARD;
            f->stack_size = slot - SIM_GUARD;
            f->fake = nullptr;
            mprotect(f->guard, SIM_GUARD, PROT_NONE);
            sim_fiber_create(f, (int)sim_g.nfibers);
            sim_g.nfibers++;
        }
    }
    return 0;
}

/* --------------------------------------------------- stack overflow catch */

static struct sigaction sim_old_segv;
static stack_t sim_old_altstack;
static char *sim_altstack;
static const size_t SIM_ALTSTACK = 64 * 1024;

static void sim_segv(int sig, siginfo_t *si, void *uctx)
{
    (void)sig;
    (void)uctx;
    char *a = (char *)si->si_addr;
    if (sim_g.in_launch) {
        for (unsigned i = 0; i < sim_g.nthreads && i < sim_g.nfibers; i++) {
            sim_fiber *f = &sim_g.fibers[i];
            if (a >= f->guard && a < f->stack) {
                sim_g.overflow = (int)i;
                sim_g.aborted = 1;
                asan_start(nullptr, sim_g.main_bottom, sim_g.main_size);
                _longjmp(sim_g.main_jb, 1);
            }
        }
    }
    if (sim_g.in_launch && sim_in_fiber()) {
        /* a kernel touched memory it may not: the launch fails (as with
         * cudaErrorIllegalAddress on a GPU) and the program goes on */
        int is_write = 0;
        void *pc = nullptr;
#if defined(__x86_64__)
        ucontext_t *uc = (ucontext_t *)uctx;
        pc = (void *)uc->uc_mcontext.gregs[REG_RIP];
        is_write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#elif defined(__aarch64__)
        pc = (void *)((ucontext_t *)uctx)->uc_mcontext.pc;
#endif
        char why[512], blk[64], thr[96];
        if (!sim_mem_explain(a, is_write, why, sizeof why))
            snprintf(why, sizeof why, "%s address %p, which is %s (cudaErrorIllegalAddress on a GPU)",
                     is_write ? "writes" : "reads", (void *)a,
                     (uintptr_t)a < 65536 ? "near NULL: a null pointer" : "not device memory");
        sim_block_name(blk, sizeof blk);
        sim_thread_name(thr, sizeof thr, sim_cur->linear);
        snprintf(sim_g.diag, sizeof sim_g.diag, "%s: %s, %s %s", sim_g.kernel, blk, thr, why);
        sim_g.diag_pending = 1;
        sim_g.fail_code = cudaErrorIllegalAddress;
        sim_g.fault_pc = pc;
        sim_g.aborted = 1;
        asan_start(nullptr, sim_g.main_bottom, sim_g.main_size);
        _longjmp(sim_g.main_jb, 1);
    }
    /* not ours: let the previous handler (or the default) see it again */
    sigaction(SIGSEGV, &sim_old_segv, nullptr);
}

static void sim_segv_install(void)
{
    if (!sim_altstack) {
        sim_altstack = (char *)mmap(nullptr, SIM_ALTSTACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                                    -1, 0);
        if (sim_altstack == MAP_FAILED) sim_altstack = nullptr;
    }
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = sim_altstack;
    ss.ss_size = SIM_ALTSTACK;
    sigaltstack(nullptr, &sim_old_altstack);
    if (sim_altstack) sigaltstack(&ss, nullptr);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = sim_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &sim_old_segv);
}

static void sim_segv_remove(void)
{
    sigaction(SIGSEGV, &sim_old_segv, nullptr);
    if (sim_altstack) {
        /* an altstack that was disabled before stays disabled */
        if (sim_old_altstack.ss_flags & SS_DISABLE) {
            stack_t off;
            memset(&off, 0, sizeof off);
            off.ss_flags = SS_DISABLE;
            sigaltstack(&off, nullptr);
        } else {
            sigaltstack(&sim_old_altstack, nullptr);
        }
    }
}

/* ------------------------------------------------------------ messages */

const char *sim_basename(const char *path)
{
    if (!path) return "?";
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int sim_same_file(const char *a, const char *b)
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

/* A pending race is older than the failure that stops the launch: report it
 * first, then the failure. */
static void sim_diag_with_race(const char *msg)
{
    if (sim_g.race.pending) {
        sim_race_report(0, nullptr, 1);
        char first[LAB_ERR_MAX];
        snprintf(first, sizeof first, "%s", sim_g.diag);
        sim_diag("%s\n%s", first, msg);
    } else {
        sim_diag("%s", msg);
    }
}

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

/* Threads wait at barriers that cannot complete: some wait elsewhere or
 * have exited. */
static void sim_report_barrier(void)
{
    char blk[64], where[96], set[256];
    sim_block_name(blk, sizeof blk);
    char msg[LAB_ERR_MAX];
    sim_msg m = {msg, sizeof msg, 0};
    m.add("%s: %s: ", sim_g.kernel, blk);
    unsigned n = sim_g.nthreads;
    sim_set grouped;
    grouped.clear();
    int groups = 0, first_kind = -1;
    for (unsigned i = 0; i < n; i++) {
        sim_fiber *f = &sim_g.fibers[i];
        if (f->state != SIM_F_BAR || grouped.has(i)) continue;
        sim_set s;
        s.clear();
        for (unsigned k = i; k < n; k++) {
            sim_fiber *g = &sim_g.fibers[k];
            if (g->state == SIM_F_BAR && g->bar_kind == f->bar_kind && g->bar_line == f->bar_line &&
                sim_same_file(g->bar_file, f->bar_file)) {
                s.add(k);
                grouped.add(k);
            }
        }
        sim_set_format(s, 0, set, sizeof set);
        sim_where(where, sizeof where, f->bar_line, f->bar_file);
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
    for (unsigned i = 0; i < n; i++)
        if (sim_g.fibers[i].state == SIM_F_DONE) gone.add(i);
    if (!gone.empty()) {
        sim_set_format(gone, 0, set, sizeof set);
        bool many = gone.count() > 1;
        m.add("%sthread%s %s %s already exited", groups > 1 ? ", and " : " but ", many ? "s" : "", set,
              many ? "have" : "has");
    }
    if (groups > 1)
        m.add(": every thread of a block must reach the same barrier");
    else
        m.add(": every thread of a block must reach each barrier, so no thread may return or skip it");
    sim_diag_with_race(msg);
}

/* Nothing can run and not everything has ended. */
static void sim_report_stuck(void)
{
    if (sim_report_warp()) return;
    sim_report_barrier();
}

/* ------------------------------------------------------------- tracing */

static void sim_emit(sim_fiber *f, int kind, int space, int a, int b, double v, double v2)
{
    uint32_t s = f->seq++;
    if (s >= sim_g.trace_cap) {
        sim_g.trace_truncated = 1;
        return;
    }
    if (sim_g.tlen == sim_g.tcap) {
        size_t cap = sim_g.tcap ? sim_g.tcap * 2 : 4096;
        lab_event *p = (lab_event *)realloc(sim_g.tbuf, cap * sizeof *p);
        if (!p) {
            sim_g.tfail = 1;
            return;
        }
        sim_g.tbuf = p;
        sim_g.tcap = cap;
    }
    lab_event *e = &sim_g.tbuf[sim_g.tlen++];
    memset(e, 0, sizeof *e);
    e->launch = sim_g.trace_launch;
    e->block = (uint32_t)sim_g.block_linear;
    e->thread = f->info.linear;
    e->epoch = f->epoch;
    e->seq = s;
    e->kind = (uint16_t)kind;
    e->space = (uint16_t)space;
    e->a = a;
    e->b = b;
    e->v = v;
    e->v2 = v2;
}

/* ------------------------------------------------------------- barriers */

void sim_stop_interrupted(void)
{
    if (!sim_in_fiber()) return; /* host code: the harness sees the flag itself */
    char blk[64];
    sim_block_name(blk, sizeof blk);
    sim_fail("%s: interrupted in %s", sim_g.kernel, blk);
}

int sim_barrier(int kind, int pred, int line, const char *file)
{
    if (!sim_in_fiber()) return pred; /* host code: nobody to wait for */
    if (lab_interrupted) sim_stop_interrupted();
    sim_fiber *self = sim_self();
    self->state = SIM_F_BAR;
    self->bar_kind = kind;
    self->bar_line = line;
    self->bar_file = file;
    if (sim_g.bar_arrived == 0) {
        sim_g.bar_kind = kind;
        sim_g.bar_line = line;
        sim_g.bar_file = file;
        sim_g.bar_mismatch = 0;
        sim_g.bar_acc_count = 0;
        sim_g.bar_acc_and = 1;
        sim_g.bar_acc_or = 0;
    } else if (kind != sim_g.bar_kind || line != sim_g.bar_line || !sim_same_file(file, sim_g.bar_file)) {
        sim_g.bar_mismatch = 1;
    }
    sim_g.bar_acc_count += pred != 0;
    sim_g.bar_acc_and &= pred != 0;
    sim_g.bar_acc_or |= pred != 0;
    sim_g.bar_arrived++;
    sim_g.nrun--;
    if (sim_g.bar_arrived == sim_g.nthreads) {
        if (sim_g.bar_mismatch) {
            sim_report_barrier();
            sim_abort();
        }
        for (unsigned i = 0; i < sim_g.nthreads; i++) sim_g.fibers[i].state = SIM_F_RUN;
        sim_g.nrun = sim_g.nthreads;
        sim_g.bar_arrived = 0;
        sim_g.bar_res_count = sim_g.bar_acc_count;
        sim_g.bar_res_and = sim_g.bar_acc_and;
        sim_g.bar_res_or = sim_g.bar_acc_or;
        sim_g.stats.barriers++;
        sim_rec_barrier();
        if (sim_g.race.pending) {
            sim_race_report(line, file, 0);
            sim_abort();
        }
        if (sim_g.un_pending) {
            sim_uninit_report();
            sim_abort();
        }
        sim_race_epoch();
        sim_g.epoch_line = line;
        sim_g.epoch_file = file;
        if (self->info.linear != 0) sim_switch(self, &sim_g.fibers[0]);
    } else {
        sim_activemask_poll(self->info.warp);
        sim_wait(self);
    }
    int r = kind == SIM_BAR_COUNT ? sim_g.bar_res_count
          : kind == SIM_BAR_AND   ? sim_g.bar_res_and
          : kind == SIM_BAR_OR    ? sim_g.bar_res_or
                                  : pred;
    /* the GPU recorder (kern.h) wraps __syncthreads() only */
    if (kind == SIM_BAR_SYNC) {
        if (sim_g.trace) sim_emit(self, LAB_EV_BARRIER, LAB_SP_SHARED, line, 0, 0, 0);
        self->epoch++;
    }
    return r;
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
    for (unsigned l = 0; l < 32; l++) {
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
        f->wsync = ws->stamp;
    }
    ws->waiting &= ~need;
    sim_g.nrun += (unsigned)__builtin_popcount(need);
    sim_g.stats.collectives++;
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
        unsigned first = (unsigned)__builtin_ctz(need);
        if (first != lane) sim_switch(self, &sim_g.fibers[w * 32 + first]);
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

/* -------------------------------------------------------------- launches */

static double sim_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A launch refused before it starts, as CUDA refuses it. */
static int sim_refuse(lab_job *job, cudaError_t e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int sim_refuse(lab_job *job, cudaError_t e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sim_g.diag, sizeof sim_g.diag, fmt, ap);
    va_end(ap);
    sim_g.diag_pending = 1;
    sim_set_last_error(e);
    if (job) {
        snprintf(job->err, sizeof job->err, "%s", sim_g.diag);
        sim_g.diag_pending = 0;
    }
    return -1;
}

static int sim_run_block(void)
{
    unsigned n = sim_g.nthreads;
    for (unsigned i = 0; i < n; i++) {
        sim_fiber *f = &sim_g.fibers[i];
        f->state = SIM_F_RUN;
        f->fresh = 1;
        f->epoch = f->seq = f->wsync = 0;
    }
    for (unsigned w = 0; w < sim_g.nwarps; w++) {
        sim_g.warps[w].waiting = sim_g.warps[w].done = sim_g.warps[w].am = 0;
        sim_g.warps[w].stamp = 0;
    }
    sim_g.nrun = n;
    sim_g.ndone = 0;
    sim_g.bar_arrived = 0;
    sim_g.aborted = 0;
    sim_g.overflow = -1;
    sim_shared_block();
    sim_race_epoch();
    sim_g.block_epoch = sim_g.epoch_id;
    sim_g.epoch_line = 0;
    sim_g.epoch_file = nullptr;
    sim_g.race.pending = 0;
    sim_g.un_pending = 0;
    sim_g.stats.blocks++;
    sim_g.stats.threads += n;

    if (_setjmp(sim_g.main_jb) == 0) sim_jump(&sim_g.main_fake, &sim_g.fibers[0]);
    asan_finish(sim_g.main_fake, nullptr, nullptr);
    sim_cur = &sim_host_thread;

    if (sim_g.overflow >= 0) {
        char blk[64], thr[96];
        sim_block_name(blk, sizeof blk);
        sim_thread_name(thr, sizeof thr, (unsigned)sim_g.overflow);
        char msg[LAB_ERR_MAX];
        snprintf(msg, sizeof msg,
                 "%s: %s, %s ran out of stack (%zu KiB per simulated thread): deep recursion or a large local "
                 "array; a GPU thread has even less (1 KiB by default, see cudaLimitStackSize). "
                 "GPULAB_SIM_STACK_KB sets the simulator's stack size",
                 sim_g.kernel, blk, thr, sim_g.pool_stack / 1024);
        sim_diag_with_race(msg);
#if defined(SIM_ASAN)
        ASAN_UNPOISON_MEMORY_REGION(sim_g.fibers[sim_g.overflow].stack, sim_g.fibers[sim_g.overflow].stack_size);
#endif
        return -1;
    }
    if (sim_g.aborted) return -1;
    if (sim_g.ndone != n) {
        sim_report_stuck();
        return -1;
    }
    if (sim_g.race.pending) {
        sim_race_report(0, nullptr, 0);
        return -1;
    }
    if (sim_g.un_pending) {
        sim_uninit_report();
        return -1;
    }
    return 0;
}

static int sim_flush_trace(lab_job *job)
{
    int rc = 0;
    if (sim_g.tfail) {
        snprintf(job->err, sizeof job->err, "out of memory recording the trace");
        rc = -1;
    } else if (sim_g.tlen) {
        rc = lab_trace_append(sim_g.trace, sim_g.tbuf, sim_g.tlen, job->err, sizeof job->err);
    }
    sim_g.tlen = 0;
    sim_g.tfail = 0;
    return rc;
}

/* Kernels that opted in to more dynamic shared memory (cudaFuncSetAttribute),
 * by address; a program has a handful. */
static struct {
    const void *func;
    size_t bytes;
} sim_optin[64];
static unsigned sim_noptin;

cudaError_t sim_func_set_max_dynamic_smem(const void *func, int bytes)
{
    if (!func || bytes < 0 || bytes > SIM_SMEM_OPTIN) return cudaErrorInvalidValue;
    for (unsigned i = 0; i < sim_noptin; i++)
        if (sim_optin[i].func == func) {
            sim_optin[i].bytes = (size_t)bytes;
            return cudaSuccess;
        }
    if (sim_noptin == sizeof sim_optin / sizeof sim_optin[0]) return cudaErrorMemoryAllocation;
    sim_optin[sim_noptin].func = func;
    sim_optin[sim_noptin++].bytes = (size_t)bytes;
    return cudaSuccess;
}

static size_t sim_func_optin(const void *func)
{
    for (unsigned i = 0; func && i < sim_noptin; i++)
        if (sim_optin[i].func == func) return sim_optin[i].bytes;
    return 0;
}

/* One CPU thread plays every GPU thread of a launch, so a launch of more
 * threads than sim-limit allows is refused with the numbers before any
 * block runs: `set grid 2147483647` would otherwise play for hours. A
 * launch may cover more than the data by rounding each dimension up to
 * whole blocks, so what counts is the threads a grid one block smaller in
 * each dimension would hold, plus one: a launch is refused only when even
 * that is past the limit. */
static int sim_check_threads(lab_job *job, const char *at, dim3 grid, dim3 block)
{
    if (!job || !job->cfg || job->cfg->sim_limit <= 0) return 0;
    const double limit = (double)job->cfg->sim_limit;
    const double threads = (double)grid.x * grid.y * grid.z * block.x * block.y * block.z;
    const double least = ((double)(grid.x - 1) * block.x + 1) * ((double)(grid.y - 1) * block.y + 1) *
                         ((double)(grid.z - 1) * block.z + 1);
    if (least <= limit) return 0;
    return sim_refuse(job, cudaErrorInvalidConfiguration,
                      "%s: grid (%u,%u,%u) x block (%u,%u,%u) is %.0f threads, past the simulator's limit "
                      "of %lld (sim-limit: one CPU thread plays every GPU thread); choose a smaller grid or "
                      "n, or raise `set sim-limit`",
                      at, grid.x, grid.y, grid.z, block.x, block.y, block.z, threads, job->cfg->sim_limit);
}

int sim_launch_fn(lab_job *job, const char *kernel, const char *file, int line, dim3 grid, dim3 block,
                  size_t smem, void (*fn)(void *), void *ctx, const void *func)
{
    char at[128];
    snprintf(at, sizeof at, "%s (launched at %s:%d)", kernel, sim_basename(file), line);
    if (sim_g.in_launch)
        return sim_refuse(job, cudaErrorNotSupported,
                          "%s: a launch from inside a kernel (dynamic parallelism) is not simulated", at);
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0)
        return sim_refuse(job, cudaErrorInvalidConfiguration,
                          "%s: grid (%u,%u,%u) with blocks of (%u,%u,%u) threads: every dimension of the grid and "
                          "of the block must be at least 1",
                          at, grid.x, grid.y, grid.z, block.x, block.y, block.z);
    /* as CUDA 13 on an H200 answers (measured): invalid argument, not
     * invalid configuration, for a block dimension past its maximum */
    if (block.x > 1024 || block.y > 1024 || block.z > 64)
        return sim_refuse(job, cudaErrorInvalidValue,
                          "%s: block (%u,%u,%u): a block is at most 1024 threads in x and in y, and 64 in z", at,
                          block.x, block.y, block.z);
    unsigned long long nt = (unsigned long long)block.x * block.y * block.z;
    if (nt > 1024)
        return sim_refuse(job, cudaErrorInvalidConfiguration,
                          "%s: block (%u,%u,%u) has %llu threads; a block holds at most 1024", at, block.x, block.y,
                          block.z, nt);
    if (grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
        return sim_refuse(job, cudaErrorInvalidConfiguration,
                          "%s: grid (%u,%u,%u): a grid is at most 2^31-1 blocks in x and 65535 in y and z", at,
                          grid.x, grid.y, grid.z);
    const size_t optin = sim_func_optin(func);
    if (smem > SIM_SMEM_LIMIT && smem > optin) {
        if (optin > SIM_SMEM_LIMIT)
            return sim_refuse(job, cudaErrorInvalidValue,
                              "%s: asks for %zu bytes of dynamic shared memory; the kernel opted in to %zu", at,
                              smem, optin);
        return sim_refuse(job, cudaErrorInvalidValue,
                          "%s: asks for %zu bytes of dynamic shared memory; a block may use at most %d bytes "
                          "(48 KiB) unless the kernel opts in to more with cudaFuncSetAttribute(kernel, "
                          "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)",
                          at, smem, (int)SIM_SMEM_LIMIT);
    }
    if (sim_check_threads(job, at, grid, block) != 0) return -1;
    if (sim_pool_grow((unsigned)nt) != 0)
        return sim_refuse(job, cudaErrorMemoryAllocation, "%s: could not map stacks for %llu simulated threads",
                          at, nt);
    sim_g.trace = job ? job->trace : nullptr;
    if (sim_g.trace) {
        unsigned g3[3] = {grid.x, grid.y, grid.z}, b3[3] = {block.x, block.y, block.z};
        sim_g.trace_launch = (uint32_t)sim_g.trace->nlaunches;
        if (lab_trace_add_launch(sim_g.trace, kernel, g3, b3, job->err, sizeof job->err) != 0) {
            sim_g.trace = nullptr;
            return -1;
        }
    }

    sim_g.job = job;
    sim_g.kernel = kernel;
    sim_g.file = file;
    sim_g.line = line;
    sim_g.grid = grid;
    sim_g.block = block;
    sim_g.smem = smem;
    sim_g.smem_limit = optin > SIM_SMEM_LIMIT ? optin : (size_t)SIM_SMEM_LIMIT;
    sim_g.nthreads = (unsigned)nt;
    sim_g.nwarps = (unsigned)((nt + 31) / 32);
    sim_g.body = fn;
    sim_g.body_ctx = ctx;
    sim_g.clock = 0;
    sim_g.fail_code = cudaSuccess;
    sim_g.fault_pc = nullptr;
    sim_g.trace_truncated = 0;
    sim_g.trace_cap = lab_trace_cap((unsigned long long)grid.x * grid.y * grid.z * nt);
    sim_g.tlen = 0;
    sim_g.tfail = 0;
    sim_block_dim = block;
    sim_grid_dim = grid;
    for (unsigned i = 0; i < sim_g.nthreads; i++) {
        sim_thread_info *t = &sim_g.fibers[i].info;
        t->tid.x = i % block.x;
        t->tid.y = (i / block.x) % block.y;
        t->tid.z = i / (block.x * block.y);
        t->linear = i;
        t->lane = i & 31;
        t->warp = i >> 5;
    }
    for (unsigned w = 0; w < sim_g.nwarps; w++) {
        unsigned left = sim_g.nthreads - w * 32;
        sim_g.warps[w].exists = left >= 32 ? 0xffffffffu : (1u << left) - 1;
    }
    sim_shared_launch(job && job->cfg && job->cfg->race_check);
    sim_g.stats.launches++;
    sim_g.in_launch = 1;
    {
        unsigned g3[3] = {grid.x, grid.y, grid.z}, b3[3] = {block.x, block.y, block.z};
        sim_rec_launch_begin(kernel, file, line, g3, b3, smem);
    }
    double t0 = sim_now();
    sim_segv_install();

    int rc = 0, err_set = 0;
    for (unsigned bz = 0; bz < grid.z && rc == 0; bz++)
        for (unsigned by = 0; by < grid.y && rc == 0; by++)
            for (unsigned bx = 0; bx < grid.x && rc == 0; bx++) {
                sim_block_idx.x = bx;
                sim_block_idx.y = by;
                sim_block_idx.z = bz;
                sim_g.block_linear = bx + (unsigned long long)grid.x * (by + (unsigned long long)grid.y * bz);
                sim_rec_block_begin(sim_g.block_linear);
                rc = sim_run_block();
                sim_rec_block_end();
                if (sim_g.trace && sim_flush_trace(job) != 0 && rc == 0) {
                    rc = -1;
                    err_set = 1;
                }
                if (rc == 0 && lab_interrupted) {
                    sim_diag("%s: interrupted after %llu of %llu blocks", at, sim_g.block_linear + 1,
                             (unsigned long long)grid.x * grid.y * grid.z);
                    rc = -1;
                }
            }

    sim_segv_remove();
    sim_rec_launch_end(rc);
    sim_g.stats.seconds += sim_now() - t0;
    if (sim_g.trace && sim_g.trace_truncated) sim_g.trace->truncated = 1;
    sim_g.in_launch = 0;
    sim_g.trace = nullptr;
    sim_race_on = 0;
    sim_cur = &sim_host_thread;
    sim_block_dim = dim3();
    sim_grid_dim = dim3();
    sim_block_idx = uint3{0, 0, 0};
    if (rc != 0) {
        sim_set_last_error(sim_g.fail_code != cudaSuccess ? sim_g.fail_code : cudaErrorLaunchFailure);
        if (job && !err_set) {
            snprintf(job->err, sizeof job->err, "%s", sim_g.diag);
            sim_g.diag_pending = 0;
        }
#if defined(SIM_ASAN)
        /* threads stopped half-way left their frames' shadow behind */
        for (unsigned i = 0; i < sim_g.nthreads; i++)
            ASAN_UNPOISON_MEMORY_REGION(sim_g.fibers[i].stack, sim_g.fibers[i].stack_size);
#endif
    }
    return rc;
}

} /* namespace gpulab_sim */

/* ------------------------------------------------------------------ C API */

using namespace gpulab_sim;

extern "C" int sim_tracing(void) { return sim_g.in_launch && sim_g.trace != nullptr; }

extern "C" void (sim_trace_emit)(int kind, int space, int a, int b, double v, double v2)
{
    if (!sim_g.trace || !sim_in_fiber()) return;
    sim_emit(sim_self(), kind, space, a, b, v, v2);
}

extern "C" const char *sim_last_diagnostic(void) { return sim_g.diag; }

extern "C" void sim_stats_get(sim_stats *out) { *out = sim_g.stats; }

extern "C" void sim_stats_reset(void) { memset(&sim_g.stats, 0, sizeof sim_g.stats); }

extern "C" int sim_set_stack_size(size_t bytes)
{
    if (sim_g.in_launch || (bytes != 0 && (bytes < SIM_STACK_MIN || bytes > SIM_STACK_MAX))) return -1;
    sim_g.stack_req = bytes;
    return 0;
}

extern "C" size_t sim_stack_size(void) { return sim_stack_wanted(); }

extern "C" void sim_release(void)
{
    if (sim_g.in_launch) return;
    sim_pool_release();
    free(sim_g.tbuf);
    sim_g.tbuf = nullptr;
    sim_g.tcap = 0;
}
