/* launch.cpp - launches on the simulator: the checks CUDA makes before a
 * launch starts (and the refusals, with the reason), the blocks run one
 * after another (x fastest), the trace buffer, dynamic shared memory opt-in,
 * and the C API of sim.h. One OS thread plays a whole grid. */

#undef _FORTIFY_SOURCE

#include "kernels/sim/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

namespace gpulab_sim {

/* ------------------------------------------------------------- tracing */

void sim_emit(sim_fiber *f, int kind, int space, int a, int b, double v, double v2, int line)
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
    e->line = line;
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

/* ------------------------------------------------------------ lifetimes */

void sim_launch_state::reset(lab_job *j, const char *k, const char *f, int l, dim3 g, dim3 b, size_t sm,
                             size_t limit, void (*fn)(void *), void *ctx, int co)
{
    *this = sim_launch_state();
    job = j;
    kernel = k;
    file = f;
    line = l;
    grid = g;
    block = b;
    smem = sm;
    smem_limit = limit;
    nthreads = b.x * b.y * b.z;
    nwarps = (nthreads + 31) / 32;
    body = fn;
    body_ctx = ctx;
    coop = co;
    fail_code = cudaSuccess;
}

void sim_trace_state::reset(lab_trace *t, uint32_t launch, uint32_t cap)
{
    trace = t;
    trace_launch = launch;
    trace_truncated = 0;
    trace_cap = cap;
    tlen = 0;
    tfail = 0;
}

/* A block begins: every fiber starts its thread; its warps, tiles and grid
 * barrier are empty. */
void sim_block_reset(unsigned long long linear)
{
    sim_block_state &b = sim_g;
    b = sim_block_state();
    b.block_linear = linear;
    b.overflow = -1;
    const unsigned n = sim_g.nthreads;
    b.nrun = n;
    for (unsigned w = 0; w < sim_g.nwarps; w++) {
        unsigned left = n - w * 32;
        b.warps[w].exists = left >= 32 ? 0xffffffffu : (1u << left) - 1;
    }
    for (unsigned i = 0; i < n; i++) {
        sim_fiber *f = &sim_g.fibers[i];
        f->state = SIM_F_RUN;
        f->fresh = 1;
        f->epoch = f->seq = 0;
    }
}

/* An epoch begins: no barrier assembled, nothing pending, a new number. */
void sim_epoch_reset(int line, const char *file, int res_count, int res_and, int res_or)
{
    sim_epoch_state &e = sim_g;
    e = sim_epoch_state();
    (void)line; /* where the epoch opened: the race check (race.cpp) keeps its own clocks */
    (void)file;
    e.bar_acc_and = 1;
    e.bar_res_count = res_count;
    e.bar_res_and = res_and;
    e.bar_res_or = res_or;
}

/* A block begins: every fiber starts its thread, shared memory is fresh. */
void sim_block_start(void)
{
    sim_block_reset(sim_g.block_linear);
    sim_shared_block();
    sim_epoch_reset(0, nullptr, 0, 0, 0);
    sim_g.stats.blocks++;
    sim_g.stats.threads += sim_g.nthreads;
}

/* Play the block from fiber 0 until nothing can run. 0: every thread ended;
 * 1: every thread waits at one grid barrier (the block parks); -1: failed,
 * with the diagnostic. */
int sim_block_play(void)
{
    unsigned n = sim_g.nthreads;
    sim_fiber *first = sim_sched_kind ? sim_sched_first(0, n, 0) : &sim_g.fibers[0]; /* schedule.cpp */
    sim_main_switch(first);

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
    if (sim_g.grid_arrived == n) {
        /* the grid barrier closes the block's epoch, as __syncthreads does */
        const sim_fiber *f0 = &sim_g.fibers[0];
        for (unsigned i = 1; i < n; i++)
            if (sim_g.fibers[i].bar_line != f0->bar_line || !sim_same_file(sim_g.fibers[i].bar_file, f0->bar_file)) {
                sim_report_barrier();
                return -1;
            }
        return 1;
    }
    if (sim_g.ndone != n) {
        sim_report_stuck();
        return -1;
    }
    return 0;
}

int sim_flush_trace(lab_job *job)
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

/* coop: 0 for a launch whose blocks run one after another; 1 for a
 * cooperative one, of which the GPU holds at most coop_max blocks at once. */
static int sim_launch_any(lab_job *job, const char *kernel, const char *file, int line, dim3 grid, dim3 block,
                          size_t smem, void (*fn)(void *), void *ctx, const void *func, int coop,
                          unsigned long long coop_max)
{
    sim_runtime_used(2);
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
    const unsigned long long nblocks = (unsigned long long)grid.x * grid.y * grid.z;
    if (coop && nblocks > coop_max)
        return sim_refuse(job, cudaErrorCooperativeLaunchTooLarge,
                          "%s: a cooperative launch of %llu blocks, but the GPU holds at most %llu blocks of %llu "
                          "threads (and %zu bytes of dynamic shared memory) at once: all the blocks of a "
                          "cooperative launch must be resident together (cudaOccupancyMaxActiveBlocksPerMultiprocessor "
                          "times the SMs)",
                          at, nblocks, coop_max, nt, smem);
    if (sim_pool_grow((unsigned)nt) != 0)
        return sim_refuse(job, cudaErrorMemoryAllocation, "%s: could not map stacks for %llu simulated threads",
                          at, nt);
    {
        lab_trace *t = job ? job->trace : nullptr;
        uint32_t tl = t ? (uint32_t)t->nlaunches : 0;
        sim_g.sim_trace_state::reset(nullptr, 0, lab_trace_cap((unsigned long long)grid.x * grid.y * grid.z * nt));
        if (t) {
            unsigned g3[3] = {grid.x, grid.y, grid.z}, b3[3] = {block.x, block.y, block.z};
            if (lab_trace_add_launch(t, kernel, g3, b3, job->err, sizeof job->err) != 0) return -1;
            sim_g.trace = t;
            sim_g.trace_launch = tl;
        }
    }
    sim_g.sim_launch_state::reset(job, kernel, file, line, grid, block, smem,
                                  optin > SIM_SMEM_LIMIT ? optin : (size_t)SIM_SMEM_LIMIT, fn, ctx, coop);
    sim_block_dim = block;
    sim_grid_dim = grid;
    sim_number_threads(block);
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
    /* par.cpp: the blocks on several worker threads, where that keeps the
     * one-worker order */
    const unsigned nw = sim_par_workers(job, (unsigned long long)grid.x * grid.y * grid.z);
    if (nw > 1) rc = sim_par_run(nw, at);
    if (sim_g.coop) {
        rc = sim_run_grid(job, at);
        if (rc == -2) {
            rc = -1;
            err_set = 1;
        }
    }
    for (unsigned bz = 0; bz < grid.z && rc == 0 && !sim_g.coop && nw <= 1; bz++)
        for (unsigned by = 0; by < grid.y && rc == 0; by++)
            for (unsigned bx = 0; bx < grid.x && rc == 0; bx++) {
                sim_block_idx.x = bx;
                sim_block_idx.y = by;
                sim_block_idx.z = bz;
                sim_g.block_linear = bx + (unsigned long long)grid.x * (by + (unsigned long long)grid.y * bz);
                if (sim_sched_kind) { /* schedule.cpp: the blocks' order */
                    unsigned g3[3] = {grid.x, grid.y, grid.z}, i3[3];
                    sim_sched_block(g3, sim_g.block_linear, i3, &sim_g.block_linear);
                    sim_block_idx = uint3{i3[0], i3[1], i3[2]};
                }
                sim_rec_block_begin(sim_g.block_linear);
                sim_block_start();
                rc = sim_block_play();
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
    /* the memory errors of the launch, grouped: the launch fails with them */
    if (sim_report_close(rc != 0)) rc = -1;
    sim_rec_launch_end(rc);
    sim_g.stats.seconds += sim_now() - t0;
    if (sim_g.trace && sim_g.trace_truncated) sim_g.trace->truncated = 1;
    /* the launch's fields stay for the reports of a failed launch */
    sim_g.in_launch = 0;
    sim_mem_close(); /* what the launch opened is the device's again */
    sim_g.coop = 0;
    sim_g.trace = nullptr;
    sim_set_cur(&sim_host_thread);
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

int sim_launch_fn(lab_job *job, const char *kernel, const char *file, int line, dim3 grid, dim3 block,
                  size_t smem, void (*fn)(void *), void *ctx, const void *func)
{
    return sim_launch_any(job, kernel, file, line, grid, block, smem, fn, ctx, func, 0, 0);
}

int sim_launch_coop_fn(lab_job *job, const char *kernel, const char *file, int line, dim3 grid, dim3 block,
                       size_t smem, void (*fn)(void *), void *ctx, const void *func, unsigned long long max_blocks)
{
    return sim_launch_any(job, kernel, file, line, grid, block, smem, fn, ctx, func, 1, max_blocks);
}

} /* namespace gpulab_sim */

/* ------------------------------------------------------------------ C API */

using namespace gpulab_sim;

extern "C" int sim_tracing(void) { return sim_g.in_launch && sim_g.trace != nullptr; }

extern "C" void (sim_trace_emit)(int kind, int space, int a, int b, double v, double v2, int line)
{
    if (!sim_g.trace || !sim_in_fiber()) return;
    sim_emit(sim_self(), kind, space, a, b, v, v2, line);
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
