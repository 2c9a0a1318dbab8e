/* internal.h - the simulator's own state, shared by fiber.cpp (fibers,
 * stacks, switching), sync.cpp (barriers, warp collectives, the grid
 * barrier), diag.cpp (messages and reports), launch.cpp (launches, traces,
 * the C API), shared.cpp (shared memory and race check) and memory.cpp (the
 * runtime's memory calls). Not for kernels. */
#ifndef GPULAB_SIM_INTERNAL_H
#define GPULAB_SIM_INTERNAL_H

#include "kernels/sim/shim.h"
#include "kernels/sim/check.h"

#include <stddef.h>
#include <stdint.h>

#include <mutex>

#include <signal.h>
#if !defined(SIM_CTX_PORTABLE) && (defined(__x86_64__) || defined(__aarch64__))
#  define SIM_CTX_ASM 1
#else
#  include <ucontext.h>
#endif

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

/* The functions that switch fibers. AddressSanitizer puts a call to
 * __asan_handle_no_return before every call of a function that does not
 * return (sim_jump, sim_ctx_load): it clears the shadow of the stack being left
 * and of the signal stack (a sigaltstack system call and two memsets), which
 * made every switch cost microseconds and the sanitizer build's simulator
 * about 100 times slower than the release build. A switch does not abandon
 * frames: the fiber it leaves resumes them later, with their red zones
 * intact (so they stay checked), and the stacks of threads that do stop
 * half-way are cleared where that happens (sim_block_play, the end of a
 * failed launch, sim_stack_save/restore). These few functions touch only
 * the simulator's own state and are not instrumented. */
#if defined(SIM_ASAN)
#  define SIM_SWITCH_FN __attribute__((no_sanitize_address))
#else
#  define SIM_SWITCH_FN
#endif

/* The harness's trace recorder (kernels/lab.c). */
extern "C" int lab_trace_append(lab_trace *t, const lab_event *ev, size_t n, char *err, size_t errlen);
extern "C" int lab_trace_add_launch(lab_trace *t, const char *kernel, const unsigned grid[3],
                                    const unsigned block[3], char *err, size_t errlen);

struct sim_rec_log; /* record.cpp: a block's records, kept for par.cpp */

namespace gpulab_sim {

enum { SIM_MAX_THREADS = 1024, SIM_MAX_WARPS = SIM_MAX_THREADS / 32 };
/* Shared memory a block may use without opting in (static + dynamic). */
enum { SIM_SMEM_LIMIT = 48 * 1024 };
/* The most a kernel may opt in to with cudaFuncSetAttribute (227 KiB, as on
 * the H100 and H200): the size of the simulator's shared-memory arena. The
 * launch check (lab_launch_pre) holds each kernel to the chosen model's
 * limit first. */
enum { SIM_SMEM_OPTIN = 227 * 1024 };
/* The arena holds the block's shared arrays with a red zone of
 * SIM_SMEM_RZ bytes (or the array's alignment, when larger) before each
 * static array: a multiple of 128 bytes, so every array keeps the banks it
 * has on a GPU. */
enum { SIM_SMEM_RZ = 128, SIM_SMEM_ARENA = SIM_SMEM_OPTIN + 256 * SIM_SMEM_RZ + 4096 };
enum { SIM_MAX_SITES = 256 };
/* Tiles wider than a warp: 64, 128, 256, 512 threads (levels 0-3). */
enum { SIM_TILE_LEVELS = 4, SIM_TILE_MIN = 64 };

enum { SIM_F_IDLE = 0, SIM_F_RUN, SIM_F_BAR, SIM_F_WARP, SIM_F_DONE };

/* A stopped context (fiber.cpp). On x86-64 and aarch64 it is the stack
 * pointer of the stack being left, with what the switch saved there;
 * elsewhere (or with SIM_CTX_PORTABLE) it is a ucontext_t, switched with
 * swapcontext. */
#if defined(SIM_CTX_ASM)
struct sim_ctx {
    void *sp;
};
#  if defined(__x86_64__)
/* sim_ctx_swap_sp(save, sp): leave the running context, its stack pointer
 * into *save, and resume the one whose stack pointer is sp. An inline asm
 * that tells the compiler every register but the stack and frame pointers
 * is lost: the code around it keeps in memory only the values it still
 * needs (usually fewer than the six callee-saved registers a called switch
 * must save), and the switch itself stores two words: the frame pointer and
 * where to resume. It steps over the 128-byte red zone below the stack
 * pointer first, where a function that calls nothing may keep values.
 * bench_sim 2^22 on one worker (blocks of 256, a barrier per step), this
 * switch and the called one that pushed six registers, alternated on a
 * quiet machine: 6.84 against 5.61 M GPU threads per CPU second (medians of
 * 3, 2026-12-06). */
#    if defined(__AVX512F__)
#      define SIM_CTX_CLOBBER_HI , "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", \
                                   "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31", \
                                   "k1", "k2", "k3", "k4", "k5", "k6", "k7"
#    else
#      define SIM_CTX_CLOBBER_HI
#    endif
__attribute__((always_inline)) static inline void sim_ctx_swap_sp(void **save, void *sp)
{
    __asm__ volatile("leaq -128(%%rsp), %%rsp\n\t"
                     "leaq 1f(%%rip), %%rax\n\t"
                     "pushq %%rax\n\t"
                     "pushq %%rbp\n\t"
                     "movq %%rsp, (%0)\n\t"
                     "movq %1, %%rsp\n\t"
                     "popq %%rbp\n\t"
                     "popq %%rax\n\t"
                     "jmpq *%%rax\n"
                     "1:\n\t"
                     "leaq 128(%%rsp), %%rsp"
                     : "+D"(save), "+S"(sp)
                     :
                     : "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "memory",
                       "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
                       "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "st", "st(1)", "st(2)", "st(3)",
                       "st(4)", "st(5)", "st(6)", "st(7)" SIM_CTX_CLOBBER_HI);
}
/* resume the context whose stack pointer is sp, leaving nothing behind */
[[noreturn]] __attribute__((always_inline)) static inline void sim_ctx_load_sp(void *sp)
{
    __asm__ volatile("movq %0, %%rsp\n\t"
                     "popq %%rbp\n\t"
                     "popq %%rax\n\t"
                     "jmpq *%%rax"
                     :
                     : "r"(sp)
                     : "memory");
    __builtin_unreachable();
}
#  else /* aarch64: a called switch that saves the callee-saved registers */
extern "C" __attribute__((visibility("hidden"))) void gpulab_sim_ctx_swap(void **save, void *sp);
extern "C" __attribute__((visibility("hidden"))) [[noreturn]] void gpulab_sim_ctx_load(void *sp);
static inline void sim_ctx_swap_sp(void **save, void *sp) { gpulab_sim_ctx_swap(save, sp); }
[[noreturn]] static inline void sim_ctx_load_sp(void *sp) { gpulab_sim_ctx_load(sp); }
#  endif
#else
struct sim_ctx {
    ucontext_t uc;
};
#endif

/* One fiber: a stack, the context it can be resumed at, and the state of
 * the GPU thread it plays in the running block. The first 64 bytes hold
 * what every barrier and switch reads or writes (the thread's indices, its
 * state, the barrier it waits at, its saved stack pointer), so that
 * resuming a thread touches one line of its fiber, not three: a block's
 * fibers are resumed in turn at every barrier, and their lines do not all
 * stay in the first-level cache. */
#if defined(SIM_CTX_ASM)
#  define SIM_FIBER_CTX_HOT sim_ctx ctx; /* where it waits (barrier, collective) */
#  define SIM_FIBER_CTX_COLD
#else
#  define SIM_FIBER_CTX_HOT
#  define SIM_FIBER_CTX_COLD sim_ctx ctx;
#endif
struct alignas(64) sim_fiber {
    sim_thread_info info;
    int state;
    /* waiting at a barrier */
    int bar_line;
    short bar_kind;
    unsigned char fresh;       /* next resume starts its thread afresh (sim_ctx_fresh) */
    /* trace: barriers passed (__syncthreads only, as the GPU recorder counts) */
    uint32_t epoch;
    const char *bar_file;
    const void *bar_site;      /* the barrier's call site (NULL: known by line) */
    SIM_FIBER_CTX_HOT
    /* events emitted (trace) */
    uint32_t seq;
    /* waiting at a warp collective: what this lane brought, and its result */
    int op, op_line, op_width;
    const char *op_file, *op_name;
    unsigned op_mask, op_arg;
    unsigned long long op_val, op_res;
    int op_pred;
    unsigned bar_arg;          /* the tile size of a tile barrier */
    char *park_sp;             /* where its stack was when it parked at a grid barrier */
    /* the stack [stack, stack + stack_size) and its guard area below */
    char *stack, *guard;
    size_t stack_size;
    void *fake;                /* ASan's fake stack while switched out */
    sim_fiber *host;           /* whose stack its thread runs on (fiber.cpp: sim_fiber_main) */
    sim_local_guard *loc_head; /* its thread's local arrays in red zones (shim.h), innermost first */
    SIM_FIBER_CTX_COLD
};
#if defined(SIM_CTX_ASM)
static_assert(offsetof(sim_fiber, ctx) + sizeof(sim_ctx) <= 64, "a fiber's switch state in its first line");
#endif

struct sim_warp_state {
    unsigned exists;   /* lanes that exist in this block */
    unsigned waiting;  /* lanes waiting at a collective */
    unsigned done;     /* lanes that exited */
    unsigned am;       /* lanes waiting at __activemask */
    uint32_t stamp;    /* collectives completed */
    unsigned mma_readers; /* lanes yet to take their part of the last wmma::mma_sync's result */
};

struct sim_chunk {
    char *base;
    size_t bytes;
};

/* The simulator's state, by lifetime. Each part begins its life with one
 * reset, called in one place; sim_state is the union of the parts (a struct
 * deriving from each), so code names a field as sim_g.field whichever part
 * holds it, and the part says how long the value lives.
 *
 *   process  the fibers and their stacks, the launch's main context: made
 *            once, grown by sim_pool_grow, released by sim_release
 *   session  counters (sim_stats_reset) and the last diagnostic
 *   launch   what one launch is: reset at its start (sim_launch_any); stays
 *            readable after it ends, for the reports of a failed launch
 *   trace    the events of the launch being traced: reset at its start,
 *            flushed into the harness's trace after each block
 *   block    the running block: reset when it starts (sim_block_start) or
 *            resumes at a grid barrier (grid.cpp)
 *   epoch    from one barrier to the next: the barrier being assembled, the
 *            result of the one that opened the epoch, the race check's
 *            pending reports; reset when a block starts or resumes and when
 *            a barrier completes
 * A GPU thread's own state (sim_fiber) follows the block's lifetime: it is
 * started by the block's reset. */
struct sim_process_state {
    sim_fiber fibers[SIM_MAX_THREADS];
    unsigned nfibers;
    sim_chunk chunks[SIM_MAX_THREADS / 32];
    unsigned nchunks;
    size_t stack_req;          /* requested stack size, 0 = default */
    size_t pool_stack;         /* stack size of the fibers in the pool */
    unsigned long owner;       /* the OS thread that made the pool */
    /* the launch's main context */
    sim_ctx main_ctx;
    void *main_fake;
    int main_learn;            /* ASan: the next fiber to start notes the main stack's bounds */
    const void *main_bottom;
    size_t main_size;
};

struct sim_session_state {
    sim_stats stats;
    char diag[LAB_ERR_MAX];
    int diag_pending;
};

struct sim_launch_state {
    int in_launch;
    lab_job *job;
    const char *kernel, *file;
    int line;
    dim3 grid, block;
    size_t smem;
    size_t smem_limit;         /* shared memory this launch's blocks may use (48 KiB or the opt-in) */
    unsigned nthreads, nwarps;
    void (*body)(void *);
    void *body_ctx;
    long long clock;
    /* a cooperative launch (grid.cpp): every block is alive at once */
    int coop;
    /* how the failed launch failed (0: cudaErrorLaunchFailure), and where a
     * kernel's memory fault happened (the instruction, for its source line) */
    cudaError_t fail_code;
    void *fault_pc;
    /* a launch begins: everything zero but what it is */
    void reset(lab_job *j, const char *k, const char *f, int l, dim3 g, dim3 b, size_t sm, size_t limit,
               void (*fn)(void *), void *ctx, int co);
};

struct sim_trace_state {
    lab_trace *trace;          /* NULL: this launch is not traced */
    uint32_t trace_launch;
    int trace_truncated;
    uint32_t trace_cap;        /* events kept per thread this launch: lab_trace_cap() */
    /* the running block's events, until sim_flush_trace; the buffer is kept
     * from launch to launch */
    lab_event *tbuf;
    size_t tlen, tcap;
    int tfail;
    void reset(lab_trace *t, uint32_t launch, uint32_t cap);
};

struct sim_block_state {
    unsigned long long block_linear;
    unsigned nrun, ndone;
    int aborted;
    volatile int overflow;     /* fiber whose guard page was hit, or -1 */
    sim_warp_state warps[SIM_MAX_WARPS];
    unsigned tile_arrived[SIM_TILE_LEVELS][SIM_MAX_THREADS / SIM_TILE_MIN];
    unsigned grid_arrived;     /* threads of the running block at this_grid().sync() */
    int lanes;                 /* the block runs as lane loops (lanes.cpp): nothing may wait */
};

struct sim_epoch_state {
    /* the barrier being assembled */
    unsigned bar_arrived;
    int bar_kind, bar_line, bar_mismatch;
    const char *bar_file;
    const void *bar_site;
    int bar_acc_count, bar_acc_and, bar_acc_or;
    /* the result of the barrier that opened the epoch (__syncthreads_count...) */
    int bar_res_count, bar_res_and, bar_res_or;
};

struct sim_state : sim_process_state, sim_session_state, sim_launch_state, sim_trace_state, sim_block_state,
                   sim_epoch_state {
};

extern __thread sim_state sim_g;
/* the launch's shape, which kernel code reads as shim.h's const
 * sim_block_dim_k and sim_grid_dim_k (the same objects); written between
 * launches only */
extern dim3 sim_block_dim __asm__("gpulab_sim_block_dim");
extern dim3 sim_grid_dim __asm__("gpulab_sim_grid_dim");

/* the running GPU thread: sim_cur, and the copy of its index that
 * threadIdx reads (shim.h) */
static inline void sim_set_cur(sim_thread_info *c)
{
    sim_cur = c;
    sim_tid = c->tid;
}
static inline int sim_in_fiber(void) { return sim_cur != &sim_host_thread; }
/* A table that a program's host threads share (OpenMP tasks copying and
 * synchronising at once) is reached under its lock from host code; code on a
 * simulated GPU thread does not take it, as the launch that runs it holds the
 * program's order already and its blocks may run on other workers. */
struct sim_host_lock {
    std::recursive_mutex &m;
    bool on;
    explicit sim_host_lock(std::recursive_mutex &mu) : m(mu), on(!sim_in_fiber()) { if (on) m.lock(); }
    ~sim_host_lock() { if (on) m.unlock(); }
    sim_host_lock(const sim_host_lock &) = delete;
    sim_host_lock &operator=(const sim_host_lock &) = delete;
};
static inline sim_fiber *sim_self(void) { return &sim_g.fibers[sim_cur->linear]; }
/* the fiber whose thread info cur is (in a fiber: sim_cur is &f->info) */
static inline sim_fiber *sim_fiber_of(sim_thread_info *cur)
{
    static_assert(offsetof(sim_fiber, info) == 0, "a fiber begins with its thread's info");
    return reinterpret_cast<sim_fiber *>(cur);
}

/* ASan is told about every switch between stacks. */
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

/* fiber.cpp: switching. sim_jump leaves the running context for `to`
 * (NULL: the launch's main context); sim_main_switch runs `to` from there;
 * sim_switch suspends self and runs `to`,
 * returning when something switches back; sim_wait runs whoever is next
 * after self stopped being runnable; sim_abort stops the launch from inside
 * a fiber. */
[[noreturn]] void sim_jump(void **fake_save, sim_fiber *to);
void sim_main_switch(sim_fiber *to);       /* from the launch's main context */
void sim_switch(sim_fiber *self, sim_fiber *to);
/* sim_switch to a thread that has run before (a barrier's usual case), with
 * no call between the barrier's frame and the switch's: a waiting thread's
 * stack keeps one frame fewer to reload when it resumes */
#if defined(SIM_CTX_ASM) && !defined(SIM_ASAN)
static inline void sim_switch_resumed(sim_fiber *self, sim_fiber *to)
{
    if (__builtin_expect(!to || to->fresh, 0)) {
        sim_switch(self, to);
        return;
    }
    sim_g.stats.switches++;
    {
        /* the thread after `to` is likely the next to resume (a block's
         * threads resume in order at each barrier): its fiber and the top of
         * its stack start on their way to the cache while `to` runs. Without,
         * the resumed thread waits for those lines (perf: the first
         * instructions after a switch); with (the top 8 lines of its stack:
         * the switch's saved registers and the frames of the barrier and the
         * kernel), bench_sim 2^20 8% and the
         * recorded 8 Mi interleaved reduction 10% less CPU (2026-12-03). A
         * prefetch does not fault, whatever the stale stack pointer. */
        const sim_fiber *after = to + 1;
        if (after < sim_g.fibers + sim_g.nthreads && !after->fresh) {
            const char *sp = (const char *)after->ctx.sp;
            __builtin_prefetch(after);
            /* unrolled: -O2 keeps the loop, 4 instructions a line */
            __builtin_prefetch(sp);
            __builtin_prefetch(sp + 64);
            __builtin_prefetch(sp + 128);
            __builtin_prefetch(sp + 192);
            __builtin_prefetch(sp + 256);
            __builtin_prefetch(sp + 320);
            __builtin_prefetch(sp + 384);
            __builtin_prefetch(sp + 448);
        }
    }
    sim_ctx_swap_sp(&self->ctx.sp, to->ctx.sp);
    sim_set_cur(&self->info);
}
#else
static inline void sim_switch_resumed(sim_fiber *self, sim_fiber *to) { sim_switch(self, to); }
#endif
extern int sim_sched_kind; /* schedule.cpp (race.h) */
/* The thread to run after thread `from` stopped (NULL: none can run): the
 * schedule's choice, or the next runnable one in thread order, wrapping
 * around. Under the fixed schedule that is usually thread from + 1 (a
 * barrier's arrivals, a block without barriers), taken here without a call
 * (sim_barrier switches to it with no call between its frame and the
 * switch's); else the search. */
sim_fiber *sim_next_search(unsigned from);
static inline sim_fiber *sim_next_runnable(unsigned from)
{
    const unsigned i = from + 1;
    if (!sim_sched_kind && i < sim_g.nthreads && sim_g.fibers[i].state == SIM_F_RUN) return &sim_g.fibers[i];
    return sim_next_search(from);
}
void sim_wait(sim_fiber *self);
[[noreturn]] void sim_lanes_wait(int line, const char *file); /* lanes.cpp */
/* sync.cpp: a block barrier every thread has reached is counted, recorded,
 * told to the checkers and opens the next epoch (the fibers' release and
 * the lane loops' barrier alike) */
void sim_barrier_passed(int kind, int line, const char *file, const void *site);
[[noreturn]] void sim_abort(void);
/* the pool of fibers and stacks, and the SIGSEGV handler of a launch */
size_t sim_stack_wanted(void);
int sim_pool_grow(unsigned need);
void sim_number_threads(const dim3 &block);
void sim_pool_release(void);
void sim_segv_install(void);
void sim_segv_remove(void);
void sim_altstack_here(void);

/* sync.cpp: __activemask completes once no live lane of warp w can run. */
void sim_activemask_release(unsigned w);
static inline void sim_activemask_poll(unsigned w)
{
    if (sim_g.warps[w].am) sim_activemask_release(w);
}

/* fiber.cpp: a fiber that parks at a grid barrier remembers its stack
 * pointer, so the used part of its stack can be saved while other blocks
 * run on the same fibers (sim_stack_save/restore). */
void sim_park_switch(sim_fiber *self);
struct sim_stack_copy {
    char *lo;                  /* the saved range [lo, the stack's top) */
    size_t len;
    sim_ctx ctx;
    void *fake;
};
size_t sim_stack_used(const sim_fiber *f);
void sim_stack_save(const sim_fiber *f, sim_stack_copy *c, char *buf);
void sim_stack_restore(sim_fiber *f, const sim_stack_copy *c, const char *buf);

/* shared.cpp: the running block's shared memory (its bytes and where its
 * arrays were placed), saved while the block is parked. */
struct sim_shared_copy {
    unsigned char *bytes;
    size_t used, packed, redzones;
    unsigned nsites;
    struct site {
        sim_shared_site *s;
        void *ptr;
        size_t count, rows, cols, elem, packed;
    } *sites;
};
int sim_shared_save(sim_shared_copy *c);       /* 0, or -1 when out of memory */
void sim_shared_restore(const sim_shared_copy *c);
void sim_shared_copy_free(sim_shared_copy *c);

/* grid.cpp: a block of a cooperative launch between two runs. */
struct sim_thread_copy {
    uint32_t epoch, seq;
    sim_local_guard *loc_head;
    size_t off;                /* its stack's bytes in sim_block_copy.bytes */
    sim_stack_copy stack;
};
struct sim_block_copy {
    unsigned char state;       /* 0 not started, 1 parked at a grid barrier, 2 ended */
    int line;                  /* the grid barrier it waits at */
    const char *file;
    sim_thread_copy *threads;
    char *bytes;
    size_t cap;
    sim_shared_copy shared;
    uint32_t stamp[SIM_MAX_WARPS];
};
/* A cooperative launch: every block runs to its first grid barrier, then all
 * of them to the next, and so on. 0; -1 with the diagnostic; -2 with
 * job->err set (the trace could not be kept). */
int sim_run_grid(lab_job *job, const char *at);
/* launch.cpp: a block from its start (or its resumption) until it ends,
 * parks at a grid barrier or fails: 0 ended, 1 parked, -1 failed. */
void sim_block_start(void);
int sim_block_play(void);
/* launch.cpp: the resets of the block's and the epoch's state. A block
 * begins (at its start, or resumed at a grid barrier: then grid.cpp puts
 * back what it saved); an epoch begins, opened at line/file (0: the block's
 * start) with the results of the barrier that opened it. */
void sim_block_reset(unsigned long long linear);
void sim_epoch_reset(int line, const char *file, int res_count, int res_and, int res_or);
int sim_flush_trace(lab_job *job);

/* launch.cpp: record one trace event of fiber f. */
void sim_emit(sim_fiber *f, int kind, int space, int a, int b, double v, double v2, int line);

/* Diagnostics: sim_diag() stores the message (the last one is kept for
 * sim_last_diagnostic and for the next sim_job_fail). sim_fail() also stops
 * the launch from inside the running fiber; it never returns. */
void sim_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] void sim_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *sim_diag_take(void);        /* the pending diagnostic, once, or NULL */
/* sim_fail() that makes the launch fail with e (cudaErrorAssert...) */
[[noreturn]] void sim_fail_code(cudaError_t e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sim_set_last_error(cudaError_t e);

/* A student's own host allocations (kernels/program/progrt_host.cpp, in
 * the program's runtime only), by 4 KiB blocks of the address space:
 * sim_host_pages[a >> 30], when not NULL, counts for each block of that GiB
 * the allocations that touch it. The access hook (record.cpp) gives an
 * access of kernel code to such a block to sim_host_access_fn, which ends
 * the launch when it is inside one of them; sim_host_describe_fn names one
 * for a copy's message. */
enum { SIM_HOST_GIBS = 1 << 17, SIM_HOST_BLOCK_SHIFT = 12, SIM_HOST_BLOCKS = 1 << 18 };
extern unsigned char *sim_host_pages[SIM_HOST_GIBS];
extern void (*sim_host_access_fn)(uintptr_t a, unsigned size, int kind, uintptr_t pc);
extern int (*sim_host_describe_fn)(const void *p, char *buf, size_t len);
/* fiber.cpp: kernel code touched memory it may not (why: "reads address
 * ..."); the launch fails with cudaErrorIllegalAddress, the diagnostic
 * naming the kernel, block and thread and the source line of pc */
[[noreturn]] void sim_illegal_access(const char *why, void *pc);

/* memory.cpp: a student's program makes kernel faults sticky, as a GPU does
 * (every later call fails with the error), and asks for guarded allocations:
 * each ends at an unreadable page, and freed ones stay unreadable, so a
 * kernel that runs past the end, or uses freed memory, faults at once. */
void sim_set_sticky_error(cudaError_t e);
cudaError_t sim_sticky_error(void);
void sim_mem_guarded(int on);
size_t sim_mem_in_use(void);
int sim_mem_explain(const void *addr, int is_write, char *buf, size_t len);
/* Device memory while host code runs (memory.cpp, "device memory the host
 * cannot touch"): is addr in an allocation kept unreadable; open it for a
 * launch's or the runtime's own access (1: opened, retry the access); close
 * again what was opened (at a launch's or a copy's end). */
int sim_mem_closed(const void *addr);
int sim_mem_open(const void *addr);
void sim_mem_close(void);
/* the program's runtime says whether its own fault handler is the one in
 * place (0: the program put its own in, and nothing is closed any more) */
void sim_mem_set_segv_check(int (*fn)(void));
void sim_mem_foreign_check(void);
/* fiber.cpp: the SIGSEGV handler a launch puts in place while it runs */
typedef void (*sim_segv_fn)(int, siginfo_t *, void *);
sim_segv_fn sim_segv_handler(void);
cudaError_t sim_cuda_malloc_named(void **p, size_t bytes, const char *what, const char *name, int line);
cudaError_t sim_cuda_free_at(void *p, const char *what, int line);
/* the driver API's mapped memory (cuMemMap, progrt_drv.cpp) as device
 * memory, and back out of it */
cudaError_t sim_mem_adopt(void *p, size_t bytes, const char *what);
int sim_mem_disown(void *p);
/* what an address in the driver API's reserved address space is (an access
 * past a mapping), for sim_mem_explain */
void sim_mem_set_reserved_explainer(int (*fn)(uintptr_t a, int is_write, char *buf, size_t len));
/* how far the runtime has gone (memory.cpp; sim_runtime_used in shim.h) */
int sim_runtime_state(void);

/* memory.cpp, for memcheck (check.cpp): an allocation as a launch sees it.
 * [o.base, o.base + o.bytes) is what was asked for; up to zone_end its red
 * zone (at least SIM_REDZONE bytes; a guarded allocation's guard page
 * too), where every access is an error. */
enum { SIM_REDZONE = 256 };
struct sim_gobj {
    sim_rec_object o;
    uintptr_t zone_end;
    unsigned char *init;       /* one bit per byte something wrote; NULL: not watched */
    const char *call;          /* "cudaMalloc", ... */
    const char *var;           /* the variable it was stored in ("" unknown) */
    int line;                  /* of the call (0 unknown) */
    int origin;                /* a library's allocation whose line is still to be found (sim_mem_set_origin) */
};
const sim_gobj *sim_mem_lookup(uintptr_t a);
void sim_mem_span(uintptr_t *lo, uintptr_t *hi);
void sim_mem_mark(const sim_gobj *g, uintptr_t p, size_t n);
void sim_mem_written(const void *p, size_t n);
int sim_mem_freed(uintptr_t a, char *what, size_t len, int *free_line, const char **free_call);
cudaError_t sim_mem_keep(void *p);
unsigned long sim_mem_device_syncs(void);
cudaError_t sim_mem_unpark(void *p, const char *what);
void sim_mem_describe(const sim_gobj *g, char *buf, size_t len);
unsigned sim_mem_leaks(char *buf, size_t len);
/* An allocation a library made for the program (thrust's device_vector,
 * progrt.cpp): the return addresses of the calls that made it, outermost
 * last; the resolver (set by a student's program) finds the first frame in
 * the student's own source. The line of allocation id (host code only):
 * "line 23" in buf, or -1. */
enum { SIM_ORIGIN_PCS = 16 };
void sim_mem_set_origin(const void *p, const uintptr_t *pcs, unsigned n);
/* the line in the student's source of the host call running now (a copy) */
void sim_mem_set_caller_resolver(int (*fn)(char *file, size_t flen, int *line));
void sim_mem_set_origin_resolver(int (*fn)(const uintptr_t *pcs, unsigned n, char *file, size_t flen, int *line));
int sim_mem_origin_where(unsigned id, char *buf, size_t len);

/* diag.cpp: reports of what cannot complete; a pending race is reported
 * before msg. */
void sim_diag_with_race(const char *msg);
void sim_report_barrier(void);
void sim_report_stuck(void);      /* nothing can run and not everything has ended */
/* the blocks of a cooperative launch cannot all meet at one grid barrier */
struct sim_block_copy;
void sim_report_grid(const sim_block_copy *blocks, unsigned long long n);
int sim_same_file(const char *a, const char *b);

/* Names for messages. */
const char *sim_basename(const char *path);
void sim_where(char *buf, size_t len, int line, const char *file);   /* "line 41" or "x.cuh:41" */
void sim_block_name(char *buf, size_t len);                           /* "block 3" or "block (1,2,0)" */
void sim_thread_name(char *buf, size_t len, unsigned linear);         /* "thread 5" or "thread 5 (x 1, y 1, z 0)" */

/* shared.cpp */
void sim_shared_launch(int race_check);   /* before the first block */
void sim_shared_block(void);
/* The most shared memory a block of the launches since the last reset used
 * (its static arrays and its dynamic part), in bytes; reset: start again. */
size_t sim_shared_peak(int reset);               /* at each block start */
/* the running block's shared arrays, for the access hook: the index of the
 * one holding a (or -1), its site and object; the layout a GPU would use */
int sim_shared_find(uintptr_t a);
const sim_shared_site *sim_shared_site_at(int k);
const sim_rec_object *sim_shared_object_at(int k);
unsigned sim_shared_count(void);
size_t sim_shared_packed_used(void);
/* the arena's bytes the running block uses so far, red zones included */
size_t sim_shared_used(void);
size_t sim_shared_packed(uintptr_t a);
void sim_shared_span(uintptr_t *lo, uintptr_t *bytes); /* the arena */

/* check.cpp: memcheck of one access (the hook calls it when a mode is on);
 * obj/g/k: what the hook resolved. The report at a launch's end. */
extern int sim_mc_mode;
int sim_mc_access(const sim_access *a, const sim_gobj *g, int shared_k, int aligned); /* 1: an error */
/* an access outside device memory while local arrays are registered
 * (sim_loc_live, per worker thread): one that touches a red zone of the
 * running thread's local arrays is reported; 1 then */
extern __thread unsigned sim_loc_live;
int sim_mc_local(uintptr_t a, unsigned size, int kind, uintptr_t pc);
void sim_mc_launch_begin(void);
/* at the end of a launch: the grouped report of its errors becomes the
 * diagnostic (after the one that stopped it, if any); 1 when there were
 * errors, with fail_code set */
int sim_report_close(int stopped);
/* record.cpp: a sync completed (check.h's checkers) */
void sim_check_sync(const sim_sync_event *e);
/* record.cpp: the hook's state of a worker thread for the running launch;
 * whether nothing that needs the one-worker order watches the accesses */
void sim_rec_worker_begin(void);
int sim_rec_parallel_ok(void);
/* record.cpp, for par.cpp: a block's records held while it runs beside
 * earlier blocks (a log), handed to the readers when the block is committed
 * (replay) or when it becomes the oldest running block (deliver: the
 * worker's own log, at once); take: the finished block's log, or NULL when
 * nothing waits; bytes: a log's size */
void sim_rec_log_deliver(void);
sim_rec_log *sim_rec_log_take(void);
void sim_rec_log_replay(sim_rec_log *L);
void sim_rec_log_free(sim_rec_log *L);
size_t sim_rec_log_bytes(const sim_rec_log *L);
/* a running block's log past sim_rec_log_max bytes makes it the oldest
 * (sim_par_order) at its next barrier */
enum : size_t { SIM_REC_LOG_MAX = (size_t)64 << 20 };
extern size_t sim_rec_log_max;
/* record.cpp, for sim_rec_shared_offset: 1 with *off while a log of a block
 * that ran on another worker is delivered */
int sim_rec_delivered_offset(const void *p, size_t *off);

/* par.cpp: the workers a launch of nblocks may use (1: the one-worker
 * loop of launch.cpp); the launch's blocks on nw workers: 0, or -1 with
 * the diagnostic */
unsigned sim_par_workers(const lab_job *job, unsigned long long nblocks);
int sim_par_run(unsigned nw, const char *at);

} /* namespace gpulab_sim */

#endif
