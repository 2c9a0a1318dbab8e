/* fiber.cpp - the simulator's fibers and their stacks: the state every part
 * shares, switching between fibers, the pool of fibers (stacks mapped once,
 * reused by every block and launch), their stacks with a guard area below
 * each, and the SIGSEGV handler that turns a hit guard area (a stack
 * overflow) or a bad access of kernel code into a failed launch.
 *
 * A switch saves what it needs to resume on the stack it leaves and loads
 * another stack pointer (sim_ctx_swap: a few instructions, no system call,
 * no signal mask). A fiber starts a new GPU thread on a fresh
 * context at the top of its stack (sim_ctx_fresh), so a thread stopped
 * half-way (a failed launch) leaves nothing behind. */

#include "kernels/sim/internal.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

namespace gpulab_sim {

/* each worker thread plays its blocks with its own state (par.cpp) */
__thread sim_state sim_g{};
sim_thread_info sim_host_thread;
__thread sim_thread_info *sim_cur = &sim_host_thread;
__thread uint3 sim_block_idx;
__thread uint3 sim_tid;
dim3 sim_block_dim __asm__("gpulab_sim_block_dim"), sim_grid_dim __asm__("gpulab_sim_grid_dim");
__thread unsigned long long sim_block_gen = 1;

/* threadIdx and blockIdx where shim.h cannot read them with asm */
unsigned sim_thread_index_x(void) { return sim_cur->tid.x; }
unsigned sim_thread_index_y(void) { return sim_cur->tid.y; }
unsigned sim_thread_index_z(void) { return sim_cur->tid.z; }
unsigned sim_block_index_x(void) { return sim_block_idx.x; }
unsigned sim_block_index_y(void) { return sim_block_idx.y; }
unsigned sim_block_index_z(void) { return sim_block_idx.z; }

/* A guard area below each stack: a frame that overflows lands in it (up to
 * 64 KiB past the end) instead of in the next fiber's stack. */
static const size_t SIM_GUARD = 64 * 1024;


/* ------------------------------------------------------------ switching */

/* sim_ctx_swap_sp(save, sp) (internal.h) saves the running context (its
 * stack pointer into *save, what it needs on its own stack) and resumes the
 * one whose stack pointer is sp; sim_ctx_load_sp(sp) resumes one without
 * saving. A fresh context (sim_ctx_fresh) holds sim_ctx_start as its resume
 * address and the fiber where the start reads it: sim_ctx_start calls
 * sim_fiber_main(fiber) on that stack. Like glibc's _setjmp, a switch keeps
 * neither the signal mask nor the floating-point control registers (every
 * fiber runs with the same ones). */
#if defined(SIM_CTX_ASM)
extern "C" {
void gpulab_sim_ctx_start(void);
__attribute__((visibility("hidden"), used)) [[noreturn]] void gpulab_sim_fiber_main(sim_fiber *f);
}
#  if defined(__x86_64__)
__asm__(".text\n"
        ".globl gpulab_sim_ctx_start\n.hidden gpulab_sim_ctx_start\n"
        ".type gpulab_sim_ctx_start,@function\n"
        "gpulab_sim_ctx_start:\n"
        "  .cfi_startproc\n  .cfi_undefined rip\n"
        "  movq (%rsp), %rdi\n"
        "  call gpulab_sim_fiber_main\n"
        "  ud2\n"
        "  .cfi_endproc\n"
        ".size gpulab_sim_ctx_start, .-gpulab_sim_ctx_start\n");
/* the words a fresh context holds: the frame pointer and the resume address
 * (popped by the switch), then the fiber, which sim_ctx_start reads with the
 * stack 16-byte aligned for its call */
enum { SIM_CTX_WORDS = 4, SIM_CTX_ARG = 2, SIM_CTX_RET = 1, SIM_CTX_FRAME = 32 };
#  else /* aarch64 */
__asm__(".text\n"
        ".globl gpulab_sim_ctx_swap\n.hidden gpulab_sim_ctx_swap\n"
        ".type gpulab_sim_ctx_swap,%function\n"
        "gpulab_sim_ctx_swap:\n"
        "  sub sp, sp, #176\n"
        "  stp x19, x20, [sp, #0]\n  stp x21, x22, [sp, #16]\n  stp x23, x24, [sp, #32]\n"
        "  stp x25, x26, [sp, #48]\n  stp x27, x28, [sp, #64]\n  stp x29, x30, [sp, #80]\n"
        "  stp d8, d9, [sp, #96]\n  stp d10, d11, [sp, #112]\n  stp d12, d13, [sp, #128]\n"
        "  stp d14, d15, [sp, #144]\n"
        "  mov x2, sp\n  str x2, [x0]\n"
        "  mov sp, x1\n"
        "  b 1f\n"
        ".size gpulab_sim_ctx_swap, .-gpulab_sim_ctx_swap\n"
        ".globl gpulab_sim_ctx_load\n.hidden gpulab_sim_ctx_load\n"
        ".type gpulab_sim_ctx_load,%function\n"
        "gpulab_sim_ctx_load:\n"
        "  mov sp, x0\n"
        "1:\n"
        "  ldp x19, x20, [sp, #0]\n  ldp x21, x22, [sp, #16]\n  ldp x23, x24, [sp, #32]\n"
        "  ldp x25, x26, [sp, #48]\n  ldp x27, x28, [sp, #64]\n  ldp x29, x30, [sp, #80]\n"
        "  ldp d8, d9, [sp, #96]\n  ldp d10, d11, [sp, #112]\n  ldp d12, d13, [sp, #128]\n"
        "  ldp d14, d15, [sp, #144]\n"
        "  add sp, sp, #176\n"
        "  ret\n"
        ".size gpulab_sim_ctx_load, .-gpulab_sim_ctx_load\n"
        ".globl gpulab_sim_ctx_start\n.hidden gpulab_sim_ctx_start\n"
        ".type gpulab_sim_ctx_start,%function\n"
        "gpulab_sim_ctx_start:\n"
        "  .cfi_startproc\n  .cfi_undefined x30\n"
        "  mov x0, x19\n"
        "  bl gpulab_sim_fiber_main\n"
        "  brk #1\n"
        "  .cfi_endproc\n"
        ".size gpulab_sim_ctx_start, .-gpulab_sim_ctx_start\n");
/* x19 ... x28, x29 and x30 (the return address), d8 ... d15, 176 bytes */
enum { SIM_CTX_WORDS = 22, SIM_CTX_ARG = 0, SIM_CTX_RET = 11, SIM_CTX_FRAME = 176 };
#  endif

/* A fresh context on f's stack: resuming it starts f's thread. */
static void sim_ctx_fresh(sim_fiber *f, sim_ctx *c)
{
    /* Cache colouring: page-aligned stacks would all start in the same cache
     * set, and a block's fibers would evict each other on every switch. Each
     * fiber starts a different number of cache lines below its top. */
    size_t idx = (size_t)(f - sim_g.fibers);
    uintptr_t top = (uintptr_t)(f->stack + f->stack_size - (idx % 64) * 64) & ~(uintptr_t)15;
    void **w = (void **)(top - SIM_CTX_FRAME);
    for (int k = 0; k < SIM_CTX_WORDS; k++) w[k] = nullptr;
    w[SIM_CTX_ARG] = (void *)f;
    w[SIM_CTX_RET] = (void *)gpulab_sim_ctx_start;
    c->sp = w;
}
#  define sim_ctx_swap(save, to) sim_ctx_swap_sp(&(save)->sp, (to)->sp)
#  define sim_ctx_load(to) sim_ctx_load_sp((to)->sp)
#else /* portable: ucontext */
[[noreturn]] static void sim_fiber_main(sim_fiber *f);
static void sim_ctx_entry(int idx) { sim_fiber_main(&sim_g.fibers[idx]); }
static void sim_ctx_fresh(sim_fiber *f, sim_ctx *c)
{
    getcontext(&c->uc);
    c->uc.uc_stack.ss_sp = f->stack;
    c->uc.uc_stack.ss_size = f->stack_size - (size_t)((f - sim_g.fibers) % 64) * 64;
    c->uc.uc_link = nullptr;
    makecontext(&c->uc, (void (*)(void))sim_ctx_entry, 1, (int)(f - sim_g.fibers));
}
#  define sim_ctx_swap(save, to) swapcontext(&(save)->uc, &(to)->uc)
#  define sim_ctx_load(to) setcontext(&(to)->uc)
#endif

/* Where the switch to `to` (NULL: the launch's main context) resumes; the
 * sanitizer is told first. */
SIM_SWITCH_FN static inline sim_ctx *sim_target(void **fake_save, sim_fiber *to)
{
    sim_g.stats.switches++;
    if (!to) {
        asan_start(fake_save, sim_g.main_bottom, sim_g.main_size);
        return &sim_g.main_ctx;
    }
    if (to->fresh) {
        to->fresh = 0;
        to->host = to;
        sim_ctx_fresh(to, &to->ctx);
    }
    asan_start(fake_save, to->host->stack, to->host->stack_size);
    return &to->ctx;
}

/* Leave the running context for fiber `to` (NULL: the launch's main
 * context). The caller has saved where it stands, or does not need to. */
[[noreturn]] SIM_SWITCH_FN void sim_jump(void **fake_save, sim_fiber *to)
{
    sim_ctx_load(sim_target(fake_save, to));
    abort(); /* a context that loads does not return */
}

/* Suspend self and run `to`; returns when something switches back. */
SIM_SWITCH_FN void sim_switch(sim_fiber *self, sim_fiber *to)
{
    if (__builtin_expect(sim_g.lanes, 0)) sim_lanes_wait(self->op_line, self->op_file);
    sim_ctx_swap(&self->ctx, sim_target(&self->fake, to));
    asan_finish(self->fake, nullptr, nullptr);
    sim_set_cur(&self->info);
}

/* The launch's main context runs `to` until the block ends, parks or
 * fails: then something jumps back to main. */
SIM_SWITCH_FN void sim_main_switch(sim_fiber *to)
{
    sim_g.main_learn = 1;
    sim_ctx_swap(&sim_g.main_ctx, sim_target(&sim_g.main_fake, to));
    asan_finish(sim_g.main_fake, nullptr, nullptr);
    sim_set_cur(&sim_host_thread);
}

sim_fiber *sim_next_search(unsigned from)
{
    if (sim_sched_kind) return sim_sched_next(from); /* schedule.cpp */
    if (sim_g.nrun == 0) return nullptr;
    unsigned n = sim_g.nthreads;
    for (unsigned k = 1; k <= n; k++) {
        unsigned i = from + k;
        if (i >= n) i -= n;
        if (sim_g.fibers[i].state == SIM_F_RUN) return &sim_g.fibers[i];
    }
    return nullptr;
}

/* self parks at a grid barrier: like sim_switch to whoever is next, but the
 * stack pointer is noted first, in the frame that saves its context, so that
 * the stack from there to its top is everything the fiber needs when it
 * resumes (sim_stack_save). noinline: this frame must be the deepest one. */
__attribute__((noinline)) SIM_SWITCH_FN void sim_park_switch(sim_fiber *self)
{
    char *sp;
#if defined(__x86_64__)
    __asm__ volatile("mov %%rsp, %0" : "=r"(sp));
#elif defined(__aarch64__)
    __asm__ volatile("mov %0, sp" : "=r"(sp));
#else
    sp = (char *)__builtin_frame_address(0) - 4096;
#endif
    self->park_sp = sp;
    sim_ctx_swap(&self->ctx, sim_target(&self->fake, sim_next_runnable(self->info.linear)));
    asan_finish(self->fake, nullptr, nullptr);
    sim_set_cur(&self->info);
}

/* The bytes of a parked fiber's stack worth keeping: from a little below its
 * stack pointer (the red zone and the switch's frame) to the top. */
static char *sim_stack_lo(const sim_fiber *f)
{
    char *lo = f->park_sp - 512;
#if defined(SIM_CTX_ASM)
    if ((char *)f->ctx.sp < lo) lo = (char *)f->ctx.sp; /* what the switch saved */
#endif
    if (lo < f->stack) lo = f->stack;
    return (char *)((uintptr_t)lo & ~(uintptr_t)(sizeof(uintptr_t) - 1));
}

size_t sim_stack_used(const sim_fiber *f) { return (size_t)(f->stack + f->stack_size - sim_stack_lo(f)); }

/* Word copies that the sanitizer does not check: a parked stack holds the
 * poisoned red zones of its frames. */
#if defined(SIM_ASAN)
__attribute__((no_sanitize_address))
#endif
static void sim_copy_words(char *dst, const char *src, size_t len)
{
    volatile uintptr_t *d = (volatile uintptr_t *)(void *)dst;
    const volatile uintptr_t *s = (const volatile uintptr_t *)(const void *)src;
    for (size_t k = 0; k < len / sizeof(uintptr_t); k++) d[k] = s[k];
}

void sim_stack_save(const sim_fiber *f, sim_stack_copy *c, char *buf)
{
    c->lo = sim_stack_lo(f);
    c->len = sim_stack_used(f);
    c->ctx = f->ctx;
    c->fake = f->fake;
    sim_copy_words(buf, c->lo, c->len);
#if defined(SIM_ASAN)
    /* the next block's frames start on a clean stack */
    ASAN_UNPOISON_MEMORY_REGION(f->stack, f->stack_size);
#endif
}

void sim_stack_restore(sim_fiber *f, const sim_stack_copy *c, const char *buf)
{
#if defined(SIM_ASAN)
    /* another block's frames left their shadow here; this block's frames are
     * as they were, without red zones until they return */
    ASAN_UNPOISON_MEMORY_REGION(f->stack, f->stack_size);
#endif
    sim_copy_words(c->lo, buf, c->len);
    f->ctx = c->ctx;
    f->fake = c->fake;
    f->fresh = 0;
    f->host = f;
}

/* self has stopped being runnable: run whoever is next. */
void sim_wait(sim_fiber *self)
{
    sim_switch(self, sim_next_runnable(self->info.linear));
}

/* Stop the launch from inside a fiber: back to main, never to return. */
[[noreturn]] void sim_abort(void)
{
    sim_g.aborted = 1;
    sim_fiber *self = sim_self();
    sim_jump(&self->fake, nullptr);
}

/* GPU threads on a fresh context of fiber f's stack. The first fiber a
 * block starts from the main context notes the main stack's bounds for the
 * sanitizer. When a thread ends and the next to run has not started yet,
 * that one starts here on the same stack, without a switch: a stack belongs
 * to no thread until one waits on it, so a kernel without barriers or
 * collectives runs a whole block on one stack. (Not in a cooperative launch,
 * whose parked threads are saved from their own stacks.) */
#if defined(SIM_CTX_ASM)
extern "C" [[noreturn]] SIM_SWITCH_FN void gpulab_sim_fiber_main(sim_fiber *f)
#else
[[noreturn]] SIM_SWITCH_FN static void sim_fiber_main(sim_fiber *f)
#endif
{
    if (sim_g.main_learn) {
        sim_g.main_learn = 0;
        asan_finish(nullptr, &sim_g.main_bottom, &sim_g.main_size);
    } else {
        asan_finish(nullptr, nullptr, nullptr);
    }
    for (;;) {
        sim_set_cur(&f->info);
        f->loc_head = nullptr; /* a thread stopped half-way may have left some */
        sim_g.body(sim_g.body_ctx);
        f->state = SIM_F_DONE;
        sim_g.nrun--;
        sim_g.ndone++;
        sim_g.warps[f->info.warp].done |= 1u << f->info.lane;
        /* __activemask: once no live lane of the warp can run, the lanes
         * waiting at the first such call get the set of lanes waiting there */
        sim_activemask_poll(f->info.warp);
        sim_fiber *next = sim_next_runnable(f->info.linear);
        if (!next || !next->fresh || sim_g.coop) sim_jump(nullptr, next); /* its frames are gone */
        next->fresh = 0;
        next->host = f->host;
        f = next;
    }
}

static size_t sim_page(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

size_t sim_stack_wanted(void)
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

void sim_pool_release(void)
{
    for (unsigned c = 0; c < sim_g.nchunks; c++) munmap(sim_g.chunks[c].base, sim_g.chunks[c].bytes);
    sim_g.nchunks = 0;
    sim_g.nfibers = 0;
}

/* Make fibers up to `need`, 32 (a warp) per mapping. */
/* Each fiber of the block's threads gets its place in a block of this
 * shape: threadIdx, its linear number, its lane and warp. */
void sim_number_threads(const dim3 &block)
{
    for (unsigned i = 0; i < sim_g.nthreads; i++) {
        sim_thread_info *t = &sim_g.fibers[i].info;
        t->tid.x = i % block.x;
        t->tid.y = (i / block.x) % block.y;
        t->tid.z = i / (block.x * block.y);
        t->linear = i;
        t->lane = i & 31;
        t->warp = i >> 5;
    }
}

int sim_pool_grow(unsigned need)
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
            sim_g.nfibers++;
        }
    }
    return 0;
}

/* --------------------------------------------------- stack overflow catch */

static struct sigaction sim_old_segv;
static __thread stack_t sim_old_altstack;
static __thread char *sim_altstack;
static const size_t SIM_ALTSTACK = 64 * 1024;

static void sim_segv(int sig, siginfo_t *si, void *uctx)
{
    (void)sig;
    (void)uctx;
    char *a = (char *)si->si_addr;
    /* device memory closed to host code (memory.cpp): open to the launch */
    if (sim_g.in_launch && sim_mem_open(a)) return;
    if (sim_g.in_launch) {
        for (unsigned i = 0; i < sim_g.nthreads && i < sim_g.nfibers; i++) {
            sim_fiber *f = &sim_g.fibers[i];
            if (a >= f->guard && a < f->stack) {
                /* the thread running on this stack */
                sim_g.overflow = sim_in_fiber() ? (int)sim_cur->linear : (int)i;
                sim_g.aborted = 1;
                asan_start(nullptr, sim_g.main_bottom, sim_g.main_size);
                sim_ctx_load(&sim_g.main_ctx);
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
        char why[512];
        if (!sim_mem_explain(a, is_write, why, sizeof why))
            snprintf(why, sizeof why, "%s address %p, which is %s (cudaErrorIllegalAddress on a GPU)",
                     is_write ? "writes" : "reads", (void *)a,
                     (uintptr_t)a < 65536 ? "near NULL: a null pointer" : "not device memory");
        sim_illegal_access(why, pc);
    }
    /* not ours: let the previous handler (or the default) see it again */
    sigaction(SIGSEGV, &sim_old_segv, nullptr);
}

void sim_illegal_access(const char *why, void *pc)
{
    char blk[64], thr[96];
    sim_block_name(blk, sizeof blk);
    sim_thread_name(thr, sizeof thr, sim_cur->linear);
    snprintf(sim_g.diag, sizeof sim_g.diag, "%s: %s, %s %s", sim_g.kernel, blk, thr, why);
    sim_g.diag_pending = 1;
    sim_g.fail_code = cudaErrorIllegalAddress;
    sim_g.fault_pc = pc;
    sim_g.aborted = 1;
    asan_start(nullptr, sim_g.main_bottom, sim_g.main_size);
    sim_ctx_load(&sim_g.main_ctx);
}

sim_segv_fn sim_segv_handler(void) { return sim_segv; }

void sim_segv_install(void)
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

/* a worker thread (par.cpp) keeps its own signal stack for its life */
void sim_altstack_here(void)
{
    if (sim_altstack) return;
    sim_altstack = (char *)mmap(nullptr, SIM_ALTSTACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (sim_altstack == MAP_FAILED) {
        sim_altstack = nullptr;
        return;
    }
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = sim_altstack;
    ss.ss_size = SIM_ALTSTACK;
    sigaltstack(&ss, nullptr);
}

void sim_segv_remove(void)
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

} /* namespace gpulab_sim */
