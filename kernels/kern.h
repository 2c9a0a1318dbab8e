/* kern.h - what a kernel source file (*.cu) includes, and nothing else.
 *
 * Every family's .cu file is compiled three times from the same text:
 *   nvcc                -> GPU, timed        (entry points end in _gpu)
 *   nvcc -DLAB_TRACE    -> GPU, recording    (entry points end in _gput)
 *   g++  -DGPULAB_SIM   -> the CPU simulator (entry points end in _sim)
 * so a kernel is written once, in plain CUDA C++, with four conventions:
 *
 *   LAB_ENTRY(reduce_sequential) { ... }    an entry point: int f(lab_job *job)
 *   LAUNCH(kernel, grid, block, smem, args...)  instead of <<< >>>, checked
 *   SHARED(T, name, N) / SHARED2(T, name, R, C) / DYNAMIC_SHARED(T, name)
 *                                           instead of __shared__ declarations
 *   TRACE_*(...)                            the steps the animations show;
 *                                           nothing at all in the timed build
 *   lab_by_dtype(job, lab_dtypes<int, float>(), fn)
 *                                           the one dtype dispatch of an entry
 *
 * Host code inside entries uses the CUDA runtime as usual (cudaMemcpy,
 * cudaMemset...), every call wrapped in CK(); on the simulator the same calls
 * go to host memory. Device memory comes from lab_alloc()/lab_upload() and is
 * freed by the harness after the entry returns, also on errors. Timed work
 * goes inside LAB_TIMED(job) { ... }: warm-up, then job->cfg->repeats runs.
 *
 * Everything else in the file should be `static`.
 */
#ifndef GPULAB_KERN_H
#define GPULAB_KERN_H

#include "kernels/intl.h"
#include "kernels/family.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(GPULAB_SIM)
#  include "kernels/sim/shim.h"       /* threadIdx, __syncthreads, atomics, shuffles, cg:: ... */
#  define LAB_SYM(name) name##_sim
#else
#  include <cuda_runtime.h>
#  include <cooperative_groups.h>
#  if defined(LAB_TRACE)
#    define LAB_SYM(name) name##_gput
#  else
#    define LAB_SYM(name) name##_gpu
#  endif
#endif

namespace cg = cooperative_groups;

#define LAB_ENTRY(name) extern "C" int LAB_SYM(name)(lab_job *job)

/* ------------------------------------------------------------ errors */

#if defined(GPULAB_SIM)
#  define LAB_CUDA_FAIL(e, expr) sim_job_fail(job, (e), (expr), __FILE__, __LINE__)
#else
#  define LAB_CUDA_FAIL(e, expr) \
      lab_device_fail((int)(e), (expr), __FILE__, __LINE__, job->err, sizeof job->err)
#endif

/* Check a CUDA runtime call; on failure fill job->err and return -1. */
#define CK(expr)                                                          \
    do {                                                                  \
        cudaError_t ck_e_ = (expr);                                       \
        if (ck_e_ != cudaSuccess) return LAB_CUDA_FAIL(ck_e_, #expr);     \
    } while (0)

/* Propagate a 0 / -1 status. */
#define TRY(expr) do { if ((expr) != 0) return -1; } while (0)

/* ------------------------------------------------------------ memory */

static void lab_free_device(void *p) { cudaFree(p); }

/* Device memory for count elements of T, freed by the harness. On the GPU the
 * request is refused before allocating when it exceeds free memory. With
 * managed set it is unified memory (cudaMallocManaged), which host code can
 * read and write in place. */
template <class T>
static inline int lab_alloc_as(lab_job *job, T **p, size_t count, int managed)
{
    size_t bytes = count * sizeof(T);
    if (bytes == 0) bytes = sizeof(T);
    if (job->nallocs >= LAB_MAX_ALLOCS) {
        snprintf(job->err, sizeof job->err, "%s", L_("too many device allocations in one run"));
        return -1;
    }
#if !defined(GPULAB_SIM)
    if (lab_device_reserve(bytes, job->err, sizeof job->err) != 0) return -1;
#endif
    void *v = NULL;
    if (managed) CK(cudaMallocManaged(&v, bytes));
    else CK(cudaMalloc(&v, bytes));
    job->alloc_free[job->nallocs] = lab_free_device;
    job->allocs[job->nallocs++] = v;
    *p = (T *)v;
    return 0;
}

template <class T>
static inline int lab_alloc(lab_job *job, T **p, size_t count)
{
    return lab_alloc_as(job, p, count, 0);
}

template <class T>
static inline int lab_alloc_managed(lab_job *job, T **p, size_t count)
{
    return lab_alloc_as(job, p, count, 1);
}

template <class T>
static inline int lab_upload(lab_job *job, T **p, const void *host, size_t count)
{
    TRY(lab_alloc(job, p, count));
    CK(cudaMemcpy(*p, host, count * sizeof(T), cudaMemcpyHostToDevice));
    return 0;
}

template <class T>
static inline int lab_download(lab_job *job, void *host, const T *dev, size_t count)
{
    CK(cudaMemcpy(host, dev, count * sizeof(T), cudaMemcpyDeviceToHost));
    return 0;
}

/* ------------------------------------------------------------ timing */

/* The timed loop: `LAB_TIMED(job) { work }` runs the work for warm-up and then
 * repeats times, recording each repeat's milliseconds in job->samples. On the
 * GPU with events; on the simulator with the host clock, once (simulator time
 * is not GPU time, and repeating it teaches nothing). Tracing runs once. */
struct lab_timer {
    lab_job *job;
    int i, warmup, total;
#if defined(GPULAB_SIM)
    struct timespec t0;
#else
    cudaEvent_t start, stop;
    int failed;
#endif
};

#if !defined(GPULAB_SIM)
extern "C" int lab_device_events(cudaEvent_t *start, cudaEvent_t *stop);
#endif

static inline lab_timer lab_timer_begin(lab_job *job)
{
    lab_timer t;
    memset(&t, 0, sizeof t);
    t.job = job;
    job->nsamples = 0;
    int reps = job->cfg->repeats < 1 ? 1 : job->cfg->repeats;
    if (reps > LAB_MAX_REPEATS) reps = LAB_MAX_REPEATS;
#if defined(GPULAB_SIM)
    t.warmup = 0;
    t.total = 1;
    clock_gettime(CLOCK_MONOTONIC, &t.t0);
#else
    t.warmup = job->trace ? 0 : 1;
    t.total = job->trace ? 1 : t.warmup + reps;
    if (lab_device_events(&t.start, &t.stop) != 0) { t.failed = 1; t.total = 0; }
    else cudaEventRecord(t.start);
#endif
    return t;
}

static inline int lab_timer_running(lab_timer *t)
{
    return t->i < t->total;
}

static inline void lab_timer_lap(lab_timer *t)
{
    double ms = 0;
#if defined(GPULAB_SIM)
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ms = (t1.tv_sec - t->t0.tv_sec) * 1e3 + (t1.tv_nsec - t->t0.tv_nsec) / 1e6;
#else
    float f = 0;
    cudaEventRecord(t->stop);
    if (cudaEventSynchronize(t->stop) != cudaSuccess ||
        cudaEventElapsedTime(&f, t->start, t->stop) != cudaSuccess) {
        t->i = t->total;           /* the next CK() reports the error */
        return;
    }
    ms = f;
#endif
    if (t->i >= t->warmup && t->job->nsamples < LAB_MAX_REPEATS)
        t->job->samples[t->job->nsamples++] = ms;
    t->i++;
    if (lab_interrupted && t->job->nsamples > 0) t->i = t->total;
#if defined(GPULAB_SIM)
    clock_gettime(CLOCK_MONOTONIC, &t->t0);
#else
    if (t->i < t->total) cudaEventRecord(t->start);
#endif
}

#define LAB_TIMED(job) \
    for (lab_timer lab_t_ = lab_timer_begin(job); lab_timer_running(&lab_t_); lab_timer_lap(&lab_t_))

/* ------------------------------------------------------- launch shapes */

/* The height of a 2D block: job->block_y when set; else 1 when the student
 * set one number (as dim3(b) means in CUDA), auto_by when the block is auto. */
static inline int lab_block_y(const lab_job *job, int auto_by)
{
    return job->block_y > 0 ? job->block_y : (job->cfg->block > 0 ? 1 : auto_by);
}

/* The shape of a 2D launch over w x h items, one block per tile_w x tile_h
 * of them (0: the block itself, one thread per item). The block is
 * job->block x lab_block_y(); a grid left auto covers the items. Fills
 * job->block_y, grid and grid_y; -1 with job->err past CUDA's limits (what
 * names the height in that message: "n = 8192", "height 2160"). */
static inline int lab_shape_2d(lab_job *job, int auto_by, long long w, long long h, int tile_w, int tile_h,
                               const char *what)
{
    const int bx = job->block;
    const int by = lab_block_y(job, auto_by);
    if ((long long)bx * by > 1024) {
        snprintf(job->err, sizeof job->err, L_("block %dx%d is %d threads; CUDA allows 1024"), bx, by, bx * by);
        return -1;
    }
    const long long gx = job->grid > 0 ? job->grid : lab_ceil_div(w, tile_w > 0 ? tile_w : bx);
    const long long gy = job->grid_y > 0 ? job->grid_y : lab_ceil_div(h, tile_h > 0 ? tile_h : by);
    if (gy > 65535) {
        snprintf(job->err, sizeof job->err,
                 L_("%s needs %lld blocks in y and CUDA allows 65535; use a taller block"), what, gy);
        return -1;
    }
    job->block_y = by;
    job->grid = gx;
    job->grid_y = gy;
    return 0;
}

/* ------------------------------------------------ shared memory, launches */

/* Before every launch its shape is checked against the device (on the
 * simulator: against the GPU model of `set model`), so a block that is too
 * large or asks for too much shared memory is refused with the allowed range
 * instead of failing inside CUDA; and a probed run (lab_probe_launches)
 * records it, which is how `occupancy` finds every kernel of a variant. The
 * grid, block and smem arguments are evaluated once. */
#if defined(GPULAB_SIM)
#  define LAB_KERNEL_ADDR(kernel) ((const void *)0)
#else
#  define LAB_KERNEL_ADDR(kernel) ((const void *)(kernel))
#endif
static inline int lab_launch_pre(lab_job *job, const char *kernel, const void *func, const dim3 &g,
                                 const dim3 &b, size_t smem)
{
    const unsigned gg[3] = {g.x, g.y, g.z}, bb[3] = {b.x, b.y, b.z};
    return lab_launch_check(job, kernel, func, gg, bb, smem);
}
#define LAB_LAUNCH_SHAPE(kernel, grid, block, smem)                                  \
    const dim3 lab_lg_(grid), lab_lb_(block);                                        \
    const size_t lab_ls_ = (size_t)(smem);                                           \
    TRY(lab_launch_pre(job, #kernel, LAB_KERNEL_ADDR(kernel), lab_lg_, lab_lb_, lab_ls_))

#if defined(GPULAB_SIM)
/* The simulator gives shared memory block lifetime, poisons it at each block
 * start, checks every index, and (race-check mode) watches every access. */
#  define SHARED(T, name, N)        SIM_SHARED(T, name, N)
#  define SHARED2(T, name, R, C)    SIM_SHARED2(T, name, R, C)
#  define DYNAMIC_SHARED(T, name)   SIM_DYNAMIC_SHARED(T, name)
/* Every GPU thread calls the lambda, which reads the arguments it captured
 * from the launcher's frame: host memory, not to be given to the access hook
 * (a call per argument and thread). The kernel keeps its instrumentation: g++
 * does not inline it into a function without it. */
#  define LAUNCH(kernel, grid, block, smem, ...)                                    \
      do {                                                                          \
          LAB_LAUNCH_SHAPE(kernel, grid, block, smem);                              \
          if (sim_launch(job, #kernel, __FILE__, __LINE__, lab_lg_, lab_lb_, lab_ls_, \
                         [=]() __attribute__((no_sanitize_thread)) { kernel(__VA_ARGS__); }, \
                         (const void *)(kernel)) != 0)                              \
              return -1;                                                            \
      } while (0)
/* A kernel that also has a lane-loop form (the build's source pass,
 * kernels/program/lanes_gen.c, writes this for LAUNCH): each block runs the
 * form where nothing needs its threads' own interleaving (sim_lanes_here),
 * the kernel itself otherwise. */
#  define LAUNCH_LANES(kernel, lanes, grid, block, smem, ...)                       \
      do {                                                                          \
          LAB_LAUNCH_SHAPE(kernel, grid, block, smem);                              \
          if (sim_launch(job, #kernel, __FILE__, __LINE__, lab_lg_, lab_lb_, lab_ls_, \
                         [=]() __attribute__((no_sanitize_thread)) {                \
                             if (sim_lanes_here()) lanes(__VA_ARGS__);              \
                             else kernel(__VA_ARGS__);                              \
                         },                                                         \
                         (const void *)(kernel)) != 0)                              \
              return -1;                                                            \
      } while (0)
#else
#  define SHARED(T, name, N)        __shared__ T name[N]
#  define SHARED2(T, name, R, C)    __shared__ T name[R][C]
#  define DYNAMIC_SHARED(T, name)                                \
      extern __shared__ __align__(16) unsigned char lab_dsmem_[]; \
      T *name = reinterpret_cast<T *>(lab_dsmem_)
#  if defined(LAB_TRACE)
#    define LAUNCH(kernel, grid, block, smem, ...)                                  \
        do {                                                                        \
            LAB_LAUNCH_SHAPE(kernel, grid, block, smem);                            \
            TRY(lab_gtrace_begin(job, #kernel, lab_lg_, lab_lb_));                  \
            kernel<<<lab_lg_, lab_lb_, lab_ls_>>>(__VA_ARGS__);                     \
            CK(cudaGetLastError());                                                 \
            TRY(lab_gtrace_end(job));                                               \
        } while (0)
#  else
#    define LAUNCH(kernel, grid, block, smem, ...)                                  \
        do {                                                                        \
            LAB_LAUNCH_SHAPE(kernel, grid, block, smem);                            \
            kernel<<<lab_lg_, lab_lb_, lab_ls_>>>(__VA_ARGS__);                     \
            CK(cudaGetLastError());                                                 \
        } while (0)
#  endif
#endif

/* x, which the compiler must take as unknown from here on: what it computed
 * from x before is not reused after (and so not kept in registers). For
 * register-hungry kernels; it costs no instruction. */
static __device__ __forceinline__ int lab_opaque(int x)
{
    asm volatile("" : "+r"(x));
    return x;
}

/* ------------------------------------------------------------ tracing */

#if defined(GPULAB_SIM)
#  define LAB_EMIT(kind, space, a, b, v, v2) \
      sim_trace_emit((kind), (space), (int)(a), (int)(b), (double)(v), (double)(v2), __LINE__)
#elif defined(LAB_TRACE)
/* On the GPU each thread appends to its own slice of a buffer: recording
 * imposes no order between threads, so it does not change what it records. */
static __device__ lab_event *lab_g_ev;
static __device__ uint32_t *lab_g_cnt, *lab_g_epoch;
static __device__ uint32_t lab_g_cap, lab_g_launch;

static __device__ __forceinline__ unsigned long long lab_g_tid(uint32_t *blk, uint32_t *thr)
{
    *blk = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    *thr = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    return (unsigned long long)*blk * (blockDim.x * blockDim.y * blockDim.z) + *thr;
}

/* Not inlined: a traced kernel calls it at every TRACE_* line, and the
 * inlined copies in the bitonic network's unrolled rounds made that one file
 * take 3 minutes to compile. */
static __device__ __noinline__ void lab_gtrace_emit(int kind, int space, int a, int b, double v, double v2, int line)
{
    uint32_t blk, thr;
    unsigned long long g = lab_g_tid(&blk, &thr);
    uint32_t s = lab_g_cnt[g]++;
    if (s >= lab_g_cap) return;
    lab_event e;
    e.launch = lab_g_launch; e.block = blk; e.thread = thr; e.epoch = lab_g_epoch[g];
    e.seq = s; e.kind = (uint16_t)kind; e.space = (uint16_t)space;
    e.a = a; e.b = b; e.v = v; e.v2 = v2; e.line = line;
    lab_g_ev[g * lab_g_cap + s] = e;
}

/* A barrier is an event too, and it starts the next epoch. */
static __device__ void lab_gtrace_sync(int line)
{
    __syncthreads();
    lab_gtrace_emit(LAB_EV_BARRIER, LAB_SP_SHARED, line, 0, 0, 0, line);
    uint32_t blk, thr;
    lab_g_epoch[lab_g_tid(&blk, &thr)]++;
}
#  define __syncthreads() lab_gtrace_sync(__LINE__)
#  define LAB_EMIT(kind, space, a, b, v, v2) \
      lab_gtrace_emit((kind), (space), (int)(a), (int)(b), (double)(v), (double)(v2), __LINE__)

/* Host side of a traced launch: a slice per thread, then gather. */
struct lab_gtrace_state {
    lab_event *ev;
    uint32_t *cnt, *epoch;
    unsigned long long threads;
    uint32_t cap;
    lab_launch_info info;
};
static lab_gtrace_state lab_gts;

extern "C" int lab_trace_append(lab_trace *t, const lab_event *ev, size_t n, char *err, size_t errlen);
extern "C" int lab_trace_add_launch(lab_trace *t, const char *kernel, const unsigned grid[3],
                                    const unsigned block[3], char *err, size_t errlen);

static int lab_gtrace_begin(lab_job *job, const char *kernel, dim3 grid, dim3 block)
{
    if (!job->trace) return 0;
    unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    int launch = job->trace->nlaunches;
    TRY(lab_trace_add_launch(job->trace, kernel, g, b, job->err, sizeof job->err));
    unsigned long long threads = (unsigned long long)grid.x * grid.y * grid.z * block.x * block.y * block.z;
    uint32_t cap = lab_trace_cap(threads);
    if (threads * cap * sizeof(lab_event) > (256ull << 20)) {
        snprintf(job->err, sizeof job->err,
                 L_("tracing %llu threads needs too much memory; trace at a smaller n"), threads);
        return -1;
    }
    lab_gts.threads = threads;
    lab_gts.cap = cap;
    /* One set of buffers per run, grown when a launch needs more: a run may
     * launch hundreds of times (one launch per bitonic step). */
    if (threads > job->trace_buf_threads) {
        TRY(lab_alloc(job, &lab_gts.ev, lab_trace_room(threads)));
        TRY(lab_alloc(job, &lab_gts.cnt, threads));
        TRY(lab_alloc(job, &lab_gts.epoch, threads));
        job->trace_buf[0] = lab_gts.ev;
        job->trace_buf[1] = lab_gts.cnt;
        job->trace_buf[2] = lab_gts.epoch;
        job->trace_buf_threads = threads;
    }
    lab_gts.ev = (lab_event *)job->trace_buf[0];
    lab_gts.cnt = (uint32_t *)job->trace_buf[1];
    lab_gts.epoch = (uint32_t *)job->trace_buf[2];
    CK(cudaMemset(lab_gts.cnt, 0, threads * sizeof(uint32_t)));
    CK(cudaMemset(lab_gts.epoch, 0, threads * sizeof(uint32_t)));
    uint32_t l = (uint32_t)launch;
    CK(cudaMemcpyToSymbol(lab_g_ev, &lab_gts.ev, sizeof lab_gts.ev));
    CK(cudaMemcpyToSymbol(lab_g_cnt, &lab_gts.cnt, sizeof lab_gts.cnt));
    CK(cudaMemcpyToSymbol(lab_g_epoch, &lab_gts.epoch, sizeof lab_gts.epoch));
    CK(cudaMemcpyToSymbol(lab_g_cap, &cap, sizeof cap));
    CK(cudaMemcpyToSymbol(lab_g_launch, &l, sizeof l));
    return 0;
}

static int lab_gtrace_end(lab_job *job)
{
    if (!job->trace) return 0;
    CK(cudaDeviceSynchronize());
    unsigned long long n = lab_gts.threads;
    uint32_t *cnt = (uint32_t *)malloc(n * sizeof(uint32_t));
    lab_event *ev = (lab_event *)malloc(n * lab_gts.cap * sizeof(lab_event));
    int rc = 0;
    if (!cnt || !ev) {
        snprintf(job->err, sizeof job->err, "%s", L_("out of host memory while gathering a trace"));
        rc = -1;
    } else if (cudaMemcpy(cnt, lab_gts.cnt, n * sizeof(uint32_t), cudaMemcpyDeviceToHost) != cudaSuccess ||
               cudaMemcpy(ev, lab_gts.ev, n * lab_gts.cap * sizeof(lab_event), cudaMemcpyDeviceToHost) != cudaSuccess) {
        snprintf(job->err, sizeof job->err, "%s", L_("could not copy the trace back from the GPU"));
        rc = -1;
    } else {
        for (unsigned long long g = 0; g < n && rc == 0; g++) {
            uint32_t c = cnt[g];
            if (c > lab_gts.cap) { c = lab_gts.cap; job->trace->truncated = 1; }
            rc = lab_trace_append(job->trace, ev + g * lab_gts.cap, c, job->err, sizeof job->err);
        }
    }
    free(cnt);
    free(ev);
    return rc;
}
#else
#  define LAB_EMIT(kind, space, a, b, v, v2) ((void)0)
#endif

/* What the animations show. In the timed GPU build these are nothing at all:
 * the arguments are not even evaluated. */
#define TRACE_READ(space, i, v)            LAB_EMIT(LAB_EV_READ, (space), (i), 0, (v), 0)
#define TRACE_WRITE(space, i, v)           LAB_EMIT(LAB_EV_WRITE, (space), (i), 0, (v), 0)
#define TRACE_ADD(space, dst, src, nv, add) LAB_EMIT(LAB_EV_ADD, (space), (dst), (src), (nv), (add))
#define TRACE_CSWAP(space, i1, i2, swapped, asc) \
    LAB_EMIT(LAB_EV_CSWAP, (space), (i1), (i2), (swapped), (asc))
#define TRACE_ATOMIC(space, i, operand, old) LAB_EMIT(LAB_EV_ATOMIC, (space), (i), 0, (operand), (old))
#define TRACE_SHFL(lane, src, got, after)  LAB_EMIT(LAB_EV_SHFL, LAB_SP_REG, (lane), (src), (got), (after))
#define TRACE_MARK(what, b, v, v2)         LAB_EMIT(LAB_EV_MARK, LAB_SP_GLOBAL, (what), (b), (v), (v2))

/* ------------------------------------------------------ dtype dispatch */

/* The element types an entry point is written for, and the dtype each is. */
template <class... Ts> struct lab_dtypes {};
template <class T> struct lab_dtype_of;
template <> struct lab_dtype_of<int> { static const lab_dtype value = LAB_INT; };
template <> struct lab_dtype_of<float> { static const lab_dtype value = LAB_FLOAT; };
template <> struct lab_dtype_of<double> { static const lab_dtype value = LAB_DOUBLE; };
template <> struct lab_dtype_of<unsigned char> { static const lab_dtype value = LAB_U8; };

/* Call fn with a value of the element type that the job's dtype names, one
 * of the types listed, so that a launcher is one template:
 *     LAB_ENTRY(reduce_vector)
 *     {
 *         return lab_by_dtype(job, lab_dtypes<int, float, double>(),
 *                             [&](auto t) { return run_vector<decltype(t)>(job); });
 *     }
 * A dtype that is not listed is refused with a message in job->err. */
template <class F>
static inline int lab_by_dtype(lab_job *job, lab_dtypes<>, F)
{
    snprintf(job->err, sizeof job->err, L_("%s takes no %s data"), job->algo ? job->algo->name : "this kernel",
             lab_dtype_name(job->cfg->dtype));
    return -1;
}
template <class T, class... Ts, class F>
static inline int lab_by_dtype(lab_job *job, lab_dtypes<T, Ts...>, F fn)
{
    if (job->cfg->dtype == lab_dtype_of<T>::value) return fn(T());
    return lab_by_dtype(job, lab_dtypes<Ts...>(), fn);
}

/* True in the builds that record (traced GPU, simulator with a trace). */
#if defined(GPULAB_SIM)
#  define LAB_TRACING() (sim_tracing())
#elif defined(LAB_TRACE)
#  define LAB_TRACING() 1
#else
#  define LAB_TRACING() 0
#endif

#endif
