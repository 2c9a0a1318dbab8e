/* simtest_kernels.cu - small kernels that exercise the simulator: indices,
 * shared memory, barriers, warp collectives, atomics, cooperative groups,
 * traces, and one kernel per mistake the simulator must explain.
 *
 * Compiled like any family (GPU, traced GPU, simulator), so the same kernels
 * can be compared with a real GPU. The test reads the "@name" markers in the
 * comments to learn the line numbers the diagnostics must name. */
#include "kernels/kern.h"
#include "tests/sim/simtest.h"

static dim3 dim_of(const unsigned v[3]) { return dim3(v[0], v[1], v[2]); }

/* ------------------------------------------------------------- indices */

static __global__ void index_k(int *out)
{
    unsigned nthr = blockDim.x * blockDim.y * blockDim.z;
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int *o = out + ((size_t)b * nthr + t) * 13;
    o[0] = threadIdx.x;
    o[1] = threadIdx.y;
    o[2] = threadIdx.z;
    o[3] = blockIdx.x;
    o[4] = blockIdx.y;
    o[5] = blockIdx.z;
    o[6] = blockDim.x;
    o[7] = blockDim.y;
    o[8] = blockDim.z;
    o[9] = gridDim.x;
    o[10] = gridDim.y;
    o[11] = gridDim.z;
    o[12] = warpSize;
}

LAB_ENTRY(simtest_index)
{
    const simtest_params *p = (const simtest_params *)job->priv;
    dim3 g = dim_of(p->grid), b = dim_of(p->block);
    size_t total = (size_t)g.x * g.y * g.z * b.x * b.y * b.z * 13;
    int *d;
    TRY(lab_alloc(job, &d, total));
    LAUNCH(index_k, g, b, 0, d);
    TRY(lab_download(job, job->out, d, total));
    return 0;
}

/* ------------------------------------------------------- shared memory */

/* Thread 0 reads before anyone writes: the simulator's poison shows. Each
 * block then fills the arrays; the next block must not see those values. */
static __global__ void poison_k(unsigned *out)
{
    SHARED(unsigned, s, 64);
    SHARED(float, f, 8);
    DYNAMIC_SHARED(int, d);
    unsigned t = threadIdx.x;
    unsigned *o = out + blockIdx.x * 5;
    if (t == 0) {
        o[0] = s[5];
        o[1] = __float_as_uint(f[3]);
        o[2] = (unsigned)d[7];
    }
    __syncthreads();
    s[t] = blockIdx.x * 1000 + t;
    d[t] = (int)blockIdx.x + 1;
    if (t < 8) f[t] = 1.0f;
    __syncthreads();
    if (t == 0) {
        o[3] = s[63];
        o[4] = (unsigned)d[63];
    }
}

LAB_ENTRY(simtest_poison)
{
    unsigned *d;
    TRY(lab_alloc(job, &d, 15));
    LAUNCH(poison_k, 3, 64, 64 * sizeof(int), d);
    TRY(lab_download(job, job->out, d, 15));
    return 0;
}

/* ------------------------------------------------------------- barriers */

/* Each thread reads its neighbour's value after the barrier: right only if
 * the barrier waited for every thread. */
static __global__ void barrier_k(int *out, int n)
{
    SHARED(int, s, 1024);
    int t = threadIdx.x + blockDim.x * threadIdx.y;
    s[t] = 2 * t;
    __syncthreads();
    out[t] = s[(t + 1) % n];
    int c = __syncthreads_count(t % 3 == 0);
    int a = __syncthreads_and(t < n);
    int o = __syncthreads_or(t == 5);
    int z = __syncthreads_and(t != 7);
    out[n + t] = c;
    out[2 * n + t] = a;
    out[3 * n + t] = o;
    out[4 * n + t] = z;
}

LAB_ENTRY(simtest_barrier)
{
    const int n = 16 * 12;
    int *d;
    TRY(lab_alloc(job, &d, 5 * n));
    LAUNCH(barrier_k, 1, dim3(16, 12), 0, d, n);
    TRY(lab_download(job, job->out, d, 5 * n));
    return 0;
}

/* ------------------------------------------------ mistakes to explain */

static __global__ void two_barriers_k(int *out)
{
    if (threadIdx.x < 128) {
        out[threadIdx.x] = 1;
        __syncthreads(); // @bar_a
    } else {
        __syncthreads(); // @bar_b
    }
}

static __global__ void early_exit_k(int *out, int n)
{
    if ((int)threadIdx.x >= n) return;
    out[threadIdx.x] = 1;
    __syncthreads(); // @bar_exit
}

static __global__ void warp_exit_k(int *out)
{
    int lane = threadIdx.x % 32, v = lane;
    if (lane >= 16) return;
    v += __shfl_down_sync(0xffffffffu, v, 1); // @shfl_exit
    out[threadIdx.x] = v;
}

static __global__ void warp_split_k(int *out)
{
    int lane = threadIdx.x % 32, v = lane;
    if (lane < 16)
        v = __shfl_xor_sync(0xffffffffu, v, 1); // @shfl_a
    else
        v = __shfl_xor_sync(0xffffffffu, v, 2); // @shfl_b
    out[threadIdx.x] = v;
}

static __global__ void warp_barrier_k(int *out)
{
    int lane = threadIdx.x % 32, v = lane;
    if (lane < 16)
        v = __shfl_sync(0xffffffffu, v, 0); // @shfl_c
    else
        __syncthreads(); // @bar_c
    out[threadIdx.x] = v;
}

static __global__ void mask_self_k(int *out)
{
    int lane = threadIdx.x % 32, v = lane;
    if (lane == 3) v = __shfl_sync(0x0000fff0u, v, 4); // @mask_self
    out[threadIdx.x] = v;
}

static __global__ void width_k(int *out)
{
    int v = threadIdx.x;
    v = __shfl_down_sync(0xffffffffu, v, 1, 12); // @width
    out[threadIdx.x] = v;
}

static __global__ void oob_k(int *out)
{
    SHARED(int, buf, 256); // @decl_oob
    buf[threadIdx.x + 1] = 1;
    __syncthreads();
    out[threadIdx.x] = buf[threadIdx.x];
}

static __global__ void oob2_k(int *out)
{
    SHARED2(float, tile, 8, 8); // @decl_oob2
    tile[threadIdx.y][threadIdx.x + (threadIdx.y == 2 ? 1 : 0)] = 1.0f;
    __syncthreads();
    out[threadIdx.x + 8 * threadIdx.y] = (int)tile[threadIdx.y][threadIdx.x];
}

static __global__ void oob_dyn_k(int *out)
{
    DYNAMIC_SHARED(int, dyn); // @decl_dyn
    dyn[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] = dyn[0];
}

/* arg 0: a thread reads its neighbour's cell in the epoch the neighbour
 * writes it; arg 1: a barrier between the write and the read. */
static __global__ void race_k(int *out, int mode)
{
    SHARED(int, cells, 256); // @decl_race
    int t = threadIdx.x, n = blockDim.x;
    cells[t] = 0;
    __syncthreads(); // @race_open
    cells[t] = t; // @race_write
    if (mode == 1) __syncthreads();
    out[t] = cells[(t + 1) % n]; // @race_read
    __syncthreads(); // @race_close
}

static __global__ void warp_race_k(int *out, int mode)
{
    SHARED(int, w, 32); // @decl_warp_race
    int lane = threadIdx.x;
    w[lane] = lane; // @warp_race_write
    if (mode == 1) __syncwarp();
    out[lane] = w[lane ^ 1]; // @warp_race_read
}

/* The warp-level tree the CUDA guide recommends: read, __syncwarp, write,
 * __syncwarp; race-free. */
static __global__ void warp_tree_k(int *out)
{
    SHARED(int, s, 64);
    int t = threadIdx.x;
    s[t] = t;
    s[t + 32] = 0;
    __syncwarp();
    int v = s[t];
    for (int off = 16; off > 0; off >>= 1) {
        v += s[t + off];
        __syncwarp();
        s[t] = v;
        __syncwarp();
    }
    out[t] = v;
}

static __global__ void shared_atomic_k(int *out, int mode)
{
    SHARED(int, bins, 8); // @decl_bins
    int t = threadIdx.x;
    if (t < 8) bins[t] = 0;
    __syncthreads();
    atomicAdd(&bins[t % 8], 1); // @bins_atomic
    if (mode == 1) out[t] = bins[t % 8]; // @bins_read
    __syncthreads();
    if (t < 8) out[t] = bins[t];
}

static __global__ void trap_k(int *out)
{
    if (threadIdx.x == 5) __trap(); // @trap
    out[threadIdx.x] = 1;
}

static __device__ int deep(int d)
{
    volatile char pad[4096];
    pad[d & 4095] = (char)d;
    if (d <= 0) return pad[0];
    return deep(d - 1) + pad[(d * 7) & 4095];
}

static __global__ void overflow_k(int *out, int depth)
{
    out[threadIdx.x] = deep(depth);
}

/* 64 KiB of static shared memory: nvcc refuses that when it compiles, the
 * simulator when the kernel runs (the GPU builds get a small one). */
#if defined(GPULAB_SIM)
#  define SIMTEST_BIG 8192
#else
#  define SIMTEST_BIG 16
#endif
static __global__ void smem_big_k(int *out)
{
    SHARED(int, first, SIMTEST_BIG);  // 32 KiB
    SHARED(int, second, SIMTEST_BIG); // @decl_second
    first[threadIdx.x] = 1;
    second[threadIdx.x] = 2;
    __syncthreads();
    out[threadIdx.x] = first[threadIdx.x] + second[threadIdx.x];
}

static __global__ void cg_split_k(int *out)
{
    cg::thread_block block = cg::this_thread_block();
    if (threadIdx.x < 32)
        block.sync(); // @cg_sync
    else
        __syncthreads(); // @cg_bar
    out[threadIdx.x] = 1;
}

/* The idiom __activemask() exists for: the lanes that took this branch
 * together, then a collective among exactly them. */
static __global__ void activemask_k(int *out)
{
    int lane = threadIdx.x % 32, v = lane;
    unsigned m;
    if (lane < 12 || lane > 25) {
        m = __activemask();
        v += __shfl_xor_sync(m, v, 1);
    } else {
        m = __activemask();
    }
    out[threadIdx.x] = (int)m;
    out[64 + threadIdx.x] = v;
}

LAB_ENTRY(simtest_diag)
{
    const simtest_params *p = (const simtest_params *)job->priv;
    int *d;
    TRY(lab_alloc(job, &d, 1024));
    CK(cudaMemset(d, 0, 1024 * sizeof(int)));
    switch (p->which) {
    case SIMTEST_TWO_BARRIERS: LAUNCH(two_barriers_k, 1, 256, 0, d); break;
    case SIMTEST_EARLY_EXIT: LAUNCH(early_exit_k, 1, 256, 0, d, p->arg); break;
    case SIMTEST_WARP_EXIT: LAUNCH(warp_exit_k, 1, 64, 0, d); break;
    case SIMTEST_WARP_SPLIT: LAUNCH(warp_split_k, 1, 32, 0, d); break;
    case SIMTEST_WARP_BARRIER: LAUNCH(warp_barrier_k, 1, 64, 0, d); break;
    case SIMTEST_MASK_SELF: LAUNCH(mask_self_k, 1, 32, 0, d); break;
    case SIMTEST_WIDTH: LAUNCH(width_k, 1, 32, 0, d); break;
    case SIMTEST_OOB: LAUNCH(oob_k, 2, 256, 0, d); break;
    case SIMTEST_OOB2: LAUNCH(oob2_k, 1, dim3(8, 8), 0, d); break;
    case SIMTEST_OOB_DYN: LAUNCH(oob_dyn_k, 1, 64, 60 * sizeof(int), d); break;
    case SIMTEST_RACE: LAUNCH(race_k, 1, 64, 0, d, p->arg); break;
    case SIMTEST_WARP_RACE: LAUNCH(warp_race_k, 1, 32, 0, d, p->arg); break;
    case SIMTEST_WARP_TREE: LAUNCH(warp_tree_k, 1, 32, 0, d); break;
    case SIMTEST_SHARED_ATOMIC: LAUNCH(shared_atomic_k, 1, 64, 0, d, p->arg); break;
    case SIMTEST_TRAP: LAUNCH(trap_k, 1, 32, 0, d); break;
    case SIMTEST_OVERFLOW: LAUNCH(overflow_k, 1, 4, 0, d, p->arg); break;
    case SIMTEST_SMEM_TOO_BIG: LAUNCH(smem_big_k, 1, 32, 0, d); break;
    case SIMTEST_CG_SPLIT: LAUNCH(cg_split_k, 1, 64, 0, d); break;
    case SIMTEST_ACTIVEMASK_SPLIT: LAUNCH(activemask_k, 1, 60, 0, d); break;
    default: snprintf(job->err, sizeof job->err, "no such test kernel"); return -1;
    }
    TRY(lab_download(job, job->out, d, 1024));
    return 0;
}

static __global__ void empty_k(int *out)
{
    if (out && threadIdx.x == 0 && blockIdx.x == 0) out[0] = 7;
}

LAB_ENTRY(simtest_launch)
{
    const simtest_params *p = (const simtest_params *)job->priv;
    int *d;
    TRY(lab_alloc(job, &d, 1));
    LAUNCH(empty_k, dim_of(p->grid), dim_of(p->block), p->smem, d);
    TRY(lab_download(job, job->out, d, 1));
    return 0;
}

/* ---------------------------------------------------- warp collectives */

static __global__ void warp_op_k(const simtest_params *p, unsigned *out)
{
    unsigned t = threadIdx.x, lane = t % 32;
    int v = p->in[t];
    unsigned r = SIMTEST_UNSET;
    int pred = -1;
    if ((p->active >> lane) & 1) {
        switch (p->op) {
        case SIMTEST_SHFL: r = __shfl_sync(p->mask, v, p->lane_arg, p->width); break;
        case SIMTEST_SHFL_UP: r = __shfl_up_sync(p->mask, v, (unsigned)p->lane_arg, p->width); break;
        case SIMTEST_SHFL_DOWN: r = __shfl_down_sync(p->mask, v, (unsigned)p->lane_arg, p->width); break;
        case SIMTEST_SHFL_XOR: r = __shfl_xor_sync(p->mask, v, p->lane_arg, p->width); break;
        case SIMTEST_BALLOT: r = __ballot_sync(p->mask, v); break;
        case SIMTEST_ANY: r = __any_sync(p->mask, v); break;
        case SIMTEST_ALL: r = __all_sync(p->mask, v); break;
        case SIMTEST_MATCH_ANY: r = __match_any_sync(p->mask, v); break;
        case SIMTEST_MATCH_ALL: r = __match_all_sync(p->mask, v, &pred); break;
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
        case SIMTEST_REDUCE_ADD: r = __reduce_add_sync(p->mask, (unsigned)v); break;
        case SIMTEST_REDUCE_MIN: r = (unsigned)__reduce_min_sync(p->mask, v); break;
        case SIMTEST_REDUCE_MAX: r = (unsigned)__reduce_max_sync(p->mask, v); break;
#endif
        case SIMTEST_ACTIVEMASK: r = __activemask(); break;
        case SIMTEST_SHFL_FLOAT: {
            float f = __shfl_down_sync(p->mask, 0.5f * (float)v, (unsigned)p->lane_arg, p->width);
            r = (unsigned)(int)(f * 2.0f);
            break;
        }
        case SIMTEST_SHFL_DOUBLE: {
            double x = __shfl_xor_sync(p->mask, (double)v * 1e10, p->lane_arg, p->width);
            r = (unsigned)(long long)(x / 1e10);
            break;
        }
        default: break;
        }
    }
    out[t] = r;
    out[64 + t] = (unsigned)pred;
}

LAB_ENTRY(simtest_warp_op)
{
    const simtest_params *p = (const simtest_params *)job->priv;
    simtest_params *dp;
    unsigned *d;
    TRY(lab_upload(job, &dp, p, 1));
    TRY(lab_alloc(job, &d, 128));
    LAUNCH(warp_op_k, 1, p->block[0], 0, dp, d);
    TRY(lab_download(job, job->out, d, 128));
    return 0;
}

/* -------------------------------------------------------------- atomics */

static __global__ void atomics_k(simtest_atomics_out *o)
{
    SHARED(int, si, 2);
    SHARED(unsigned, su, 3);
    SHARED(float, sf, 1);
    SHARED(double, sd, 1);
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ut = (unsigned)t;
    if (threadIdx.x == 0) {
        si[0] = 0;
        si[1] = 100;
        su[0] = 0;
        su[1] = 0xffffffffu;
        su[2] = 0;
        sf[0] = 0.0f;
        sd[0] = 0.0;
    }
    __syncthreads();
    atomicAdd(&o->i_add, t);
    atomicSub(&o->i_sub, 1);
    atomicMin(&o->i_min, 1000 - t);
    atomicMax(&o->i_max, t - 100);
    int old = atomicExch(&o->i_exch, t);
    atomicAdd((unsigned long long *)&o->exch_old_sum, (unsigned long long)(long long)old);
    int seen = o->i_cas, assumed;
    do {
        assumed = seen;
        seen = atomicCAS(&o->i_cas, assumed, assumed + t);
    } while (seen != assumed);
    atomicAnd(&o->i_and, ~(1 << (t % 31)));
    atomicOr(&o->i_or, 1 << (t % 31));
    atomicXor(&o->i_xor, t);
    atomicAdd(&o->u_add, ut);
    atomicSub(&o->u_sub, 2u);
    atomicMin(&o->u_min, 5000u - ut);
    atomicMax(&o->u_max, ut * 3u);
    atomicExch(&o->u_exch, 42u);
    atomicInc(&o->u_inc, 99u);
    atomicDec(&o->u_dec, 99u);
    unsigned us = o->u_cas, ua;
    do {
        ua = us;
        us = atomicCAS(&o->u_cas, ua, ua + 2u);
    } while (us != ua);
    atomicAnd(&o->u_and, ~(1u << (ut % 32)));
    atomicOr(&o->u_or, 1u << (ut % 32));
    atomicXor(&o->u_xor, ut);
    atomicAdd(&o->ull_add, (1ull << 33) + ut);
    atomicMin(&o->ull_min, 1000000000000ull - ut);
    atomicMax(&o->ull_max, (unsigned long long)ut << 40);
    atomicExch(&o->ull_exch, 0x123456789ull);
    unsigned long long ls = o->ull_cas, la;
    do {
        la = ls;
        ls = atomicCAS(&o->ull_cas, la, la + (1ull << 32));
    } while (ls != la);
    atomicAnd(&o->ull_and, ~(1ull << (ut % 64)));
    atomicOr(&o->ull_or, 1ull << (ut % 64));
    atomicXor(&o->ull_xor, (unsigned long long)ut << 32);
    atomicMin(&o->ll_min, -(long long)t * 1000000000ll);
    atomicMax(&o->ll_max, (long long)t * 1000000000ll);
    atomicAdd(&o->f_add, 0.5f);
    atomicExch(&o->f_exch, 2.5f);
    atomicAdd(&o->d_add, 0.25);
    unsigned short hs = o->us_cas, ha;
    do {
        ha = hs;
        hs = atomicCAS(&o->us_cas, ha, (unsigned short)(ha + 1));
    } while (hs != ha);
    /* on shared memory, through the element's address */
    atomicAdd(&si[0], 2);
    atomicSub(&si[1], 1);
    atomicMax(&su[0], ut);
    atomicMin(&su[1], ut);
    atomicOr(&su[2], 1u << (threadIdx.x % 32));
    atomicAdd(&sf[0], 1.0f);
    atomicAdd(&sd[0], 0.5);
    __syncthreads();
    if (threadIdx.x == 0) {
        atomicAdd(&o->sh_add, (int)si[0]);
        atomicAdd(&o->sh_sub, (int)si[1]);
        atomicMax(&o->sh_max, (unsigned)su[0]);
        atomicMin(&o->sh_min, (unsigned)su[1]);
        atomicOr(&o->sh_or, (unsigned)su[2]);
        atomicAdd(&o->sh_fadd, (float)sf[0]);
        atomicAdd(&o->sh_dadd, (double)sd[0]);
    }
}

LAB_ENTRY(simtest_atomics)
{
    simtest_atomics_out init;
    memset(&init, 0, sizeof init);
    init.i_min = 0x7fffffff;
    init.i_max = -0x7fffffff - 1;
    init.i_and = -1;
    init.u_min = 0xffffffffu;
    init.u_and = 0xffffffffu;
    init.ull_min = ~0ull;
    init.ull_and = ~0ull;
    init.ll_min = 0x7fffffffffffffffll;
    init.ll_max = -0x7fffffffffffffffll - 1;
    init.sh_min = 0xffffffffu;
    simtest_atomics_out *d;
    TRY(lab_upload(job, &d, &init, 1));
    LAUNCH(atomics_k, 4, 64, 0, d);
    TRY(lab_download(job, job->out, d, 1));
    return 0;
}

/* ---------------------------------------------------------- float sums */

/* A float sum with a shared tree and warp shuffles, traced; the block sums
 * are added with atomicAdd too, whose order the simulator fixes. */
static __global__ void fsum_k(const float *in, int n, float *partial, float *total)
{
    DYNAMIC_SHARED(float, s);
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    float x = i < n ? in[i] : 0.0f;
    TRACE_READ(LAB_SP_GLOBAL, i, x);
    s[t] = x;
    TRACE_WRITE(LAB_SP_SHARED, t, x);
    __syncthreads();
    for (int st = blockDim.x / 2; st >= 32; st >>= 1) {
        if (t < st) {
            s[t] += s[t + st];
            TRACE_ADD(LAB_SP_SHARED, t, t + st, s[t], s[t + st]);
        }
        __syncthreads();
    }
    if (t < 32) {
        float v = s[t];
        for (int off = 16; off > 0; off >>= 1) {
            float o = __shfl_down_sync(0xffffffffu, v, off);
            v += o;
            TRACE_SHFL(t, t + off, o, v);
        }
        if (t == 0) {
            partial[blockIdx.x] = v;
            TRACE_WRITE(LAB_SP_GLOBAL, blockIdx.x, v);
            float old = atomicAdd(total, v);
            TRACE_ATOMIC(LAB_SP_GLOBAL, 0, v, old);
        }
    }
}

LAB_ENTRY(simtest_fsum)
{
    int n = (int)job->n, block = 256, grid = (n + block - 1) / block;
    float *in, *partial, *total;
    TRY(lab_upload(job, &in, (const float *)job->in, (size_t)n));
    TRY(lab_alloc(job, &partial, (size_t)grid));
    TRY(lab_alloc(job, &total, 1));
    CK(cudaMemset(total, 0, sizeof(float)));
    LAUNCH(fsum_k, grid, block, block * sizeof(float), in, n, partial, total);
    float *o = (float *)job->out;
    TRY(lab_download(job, o, total, 1));
    TRY(lab_download(job, o + 1, partial, (size_t)grid));
    return 0;
}

/* -------------------------------------------------- cooperative groups */

static __global__ void cg_k(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    int t = (int)block.thread_rank();
    int v = in[t];
    for (int off = (int)warp.size() / 2; off > 0; off /= 2) v += warp.shfl_down(v, off);
    int u = in[t];
    for (int off = (int)t8.size() / 2; off > 0; off /= 2) u += t8.shfl_down(u, off);
    int w = in[t];
    for (int m = 1; m < (int)t16.size(); m *= 2) w += t16.shfl_xor(w, m);
    block.sync();
    int *o = out + t * 8;
    o[0] = v;
    o[1] = u;
    o[2] = w;
    o[3] = (int)warp.thread_rank();
    o[4] = (int)t8.meta_group_rank();
    o[5] = (int)t8.ballot(in[t] % 2);
    o[6] = warp.shfl(in[t], 3);
    o[7] = warp.any(t == 40) + 2 * warp.all(in[t] >= 0) + 4 * (int)block.size();
}

LAB_ENTRY(simtest_cg)
{
    int host[64];
    for (int i = 0; i < 64; i++) host[i] = (i * 37) % 101;
    int *in, *out;
    TRY(lab_upload(job, &in, host, 64));
    TRY(lab_alloc(job, &out, 64 * 8));
    LAUNCH(cg_k, 1, 64, 0, in, out);
    TRY(lab_download(job, job->out, out, 64 * 8));
    return 0;
}

/* ---------------------------------------------------------------- traces */

static __global__ void trace_k(int *out)
{
    SHARED(int, s, 64);
    int t = threadIdx.x;
    s[t] = t;
    TRACE_WRITE(LAB_SP_SHARED, t, t);
    __syncthreads(); // @trace_bar1
    int j = (t + 1) % (int)blockDim.x;
    int v = s[j];
    TRACE_READ(LAB_SP_SHARED, j, v);
    __syncthreads(); // @trace_bar2
    cg::this_thread_block().sync();
    out[blockIdx.x * blockDim.x + t] = v;
    TRACE_WRITE(LAB_SP_GLOBAL, blockIdx.x * blockDim.x + t, v);
}

LAB_ENTRY(simtest_trace)
{
    int *d;
    TRY(lab_alloc(job, &d, 128));
    LAUNCH(trace_k, 2, 64, 0, d);
    LAUNCH(trace_k, 2, 64, 0, d);
    TRY(lab_download(job, job->out, d, 128));
    return 0;
}

/* ----------------------------------------------------------- benchmark */

/* The lecture's first reduction: one element per thread, interleaved tree in
 * shared memory, one atomicAdd per block. */
static __global__ void reduce_k(const int *in, long long n, unsigned long long *total)
{
    DYNAMIC_SHARED(long long, s);
    int t = threadIdx.x;
    long long i = (long long)blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int step = 1; step < (int)blockDim.x; step *= 2) {
        if (t % (2 * step) == 0) s[t] += s[t + step];
        __syncthreads();
    }
    if (t == 0) atomicAdd(total, (unsigned long long)(long long)s[0]);
}

LAB_ENTRY(simtest_reduce)
{
    long long n = job->n;
    int block = job->block > 0 ? job->block : 256;
    long long grid = (n + block - 1) / block;
    int *in;
    unsigned long long *total;
    TRY(lab_upload(job, &in, (const int *)job->in, (size_t)n));
    TRY(lab_alloc(job, &total, 1));
    CK(cudaMemset(total, 0, sizeof *total));
    LAB_TIMED(job) {
        CK(cudaMemset(total, 0, sizeof *total));
        LAUNCH(reduce_k, grid, block, block * sizeof(long long), in, n, total);
    }
    TRY(lab_download(job, job->out, total, 1));
    return 0;
}
