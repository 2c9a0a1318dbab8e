/* reduce.cu - sum reduction, from the lecture's first steps to the hardware's limit.
 *
 * Each kernel's comment names the idea it shows. The same source runs on the
 * GPU and on gpulab's simulator; TRACE_* lines record what the animation shows
 * and vanish from the timed build.
 *
 * The sum of ints is taken in 64 bits (the lecture's 64 Mi values sum past
 * 2^31); float and double sum in their own type, which is the point of the
 * precision comparison between two-pass and atomic variants. */
#include "kernels/intl.h"
#include "kernels/kern.h"
#include "kernels/reduce/reduce.h"

/* atomicAdd of a block's sum: 64-bit integer, float or double. */
static __device__ __forceinline__ long long atomic_add(long long *p, long long v)
{
    return (long long)atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
static __device__ __forceinline__ float atomic_add(float *p, float v) { return atomicAdd(p, v); }
static __device__ __forceinline__ double atomic_add(double *p, double v) { return atomicAdd(p, v); }

/* The tree kernels are compiled once per block size they allow (B, a
 * template argument, as in Harris' "Optimizing parallel reduction in CUDA"):
 * the lecture's code has its block size as a constant, so its loops unroll and
 * `tid % (2 * step)` becomes a mask. Looping over the run-time blockDim
 * instead costs the interleaved kernel twice its time (an integer division per
 * step), which is not the lesson. launch_tree() picks the instance. */

/* Interleaved addressing (lecture, example 1): at step s the threads whose
 * index is a multiple of 2s add their neighbour s away. While s < 32 the
 * working threads are spread over every warp: each warp runs the addition with
 * half (s = 1) or more of its lanes masked off (divergence). From s = 32 on,
 * warps holding no working thread skip the addition as a whole, but they still
 * run the loop and wait at every barrier. The `%` is cheap only because B is a
 * constant: the loop unrolls, and each step's 2 * step is a known power of
 * two (a mask). The block sums meet in one atomicAdd each. */
template <class T, int B>
static __global__ void reduce_interleaved_k(const T *in, long long n, typename Acc<T>::type *total)
{
    typedef typename Acc<T>::type A;
    SHARED(A, s, B);
    int tid = threadIdx.x;
    long long i = (long long)blockIdx.x * B + tid;
    A x = 0;
    if (i < n) {
        x = in[i];
        TRACE_READ(LAB_SP_GLOBAL, i, x);
    }
    s[tid] = x;
    TRACE_WRITE(LAB_SP_SHARED, tid, x);
    __syncthreads();
    for (int step = 1; step < B; step *= 2) {
        if (tid % (2 * step) == 0) {
            s[tid] += s[tid + step];
            TRACE_ADD(LAB_SP_SHARED, tid, tid + step, s[tid], s[tid + step]);
        }
        __syncthreads();
    }
    if (tid == 0) {
        A old = atomic_add(total, (A)s[0]);
        TRACE_ATOMIC(LAB_SP_GLOBAL, 0, s[0], old);
        (void)old;
    }
}

/* Sequential addressing (same lecture): the working threads are 0..s-1, side
 * by side. While s >= 32 they fill whole warps, and the other warps skip the
 * addition as a whole, without divergence (they still pass every
 * __syncthreads); only the last five steps (s = 16 .. 1) run inside one
 * partly masked warp. LOADS = 2: every thread also adds two elements while
 * loading, so half as many blocks (the lecture's kernel).
 *
 * LOADS = 1 is `block-atomic`, the kernel of the book the article follows and
 * the source of the article's 123633392: one element per thread and one
 * atomicAdd per block, floats added in float. With 1e8 floats of 1.23 and
 * blocks of 128, every block's tree gives the same float, 157.44, and 781250
 * atomicAdds of one value give the same total in any order: 123633392. Each
 * addition rounds the running sum to a float; past 2^26, where floats lie 8
 * apart, every 157.44 adds 160 (between 2^25 and 2^26, 156). Not the order
 * but the long chain of additions into one accumulator makes the error. */
template <class T, int B, int LOADS>
static __global__ void reduce_sequential_k(const T *in, long long n, typename Acc<T>::type *total)
{
    typedef typename Acc<T>::type A;
    SHARED(A, s, B);
    int tid = threadIdx.x;
    long long i = (long long)blockIdx.x * B * LOADS + tid;
    A sum = 0;
    if (i < n) {
        sum = in[i];
        TRACE_READ(LAB_SP_GLOBAL, i, in[i]);
    }
    if (LOADS == 2 && i + B < n) {
        sum += in[i + B];
        TRACE_READ(LAB_SP_GLOBAL, i + B, in[i + B]);
    }
    s[tid] = sum;
    TRACE_WRITE(LAB_SP_SHARED, tid, sum);
    __syncthreads();
    for (int step = B / 2; step > 0; step /= 2) {
        if (tid < step) {
            s[tid] += s[tid + step];
            TRACE_ADD(LAB_SP_SHARED, tid, tid + step, s[tid], s[tid + step]);
        }
        __syncthreads();
    }
    if (tid == 0) {
        A old = atomic_add(total, (A)s[0]);
        TRACE_ATOMIC(LAB_SP_GLOBAL, 0, s[0], old);
        (void)old;
    }
}

/* Grid-stride loop, shared-memory tree down to one warp, then warp shuffles
 * through a cooperative-groups tile (article, cooperative groups): a fixed
 * grid reads the whole array with coalesced strides, the last five steps need
 * no shared memory and no __syncthreads. Without `total` each block writes its
 * partial sum and a second launch adds them (two passes, no atomics: the order
 * of the float additions is fixed). With `total` the block sums meet in
 * atomicAdd, in whatever order the blocks finish. For the article's floats
 * the 10240 block sums come in two sizes (12122.89 and 11965.45), and the
 * order moves the total's fifth digit but keeps it within about 1e4 of
 * 123000000: 123007472 in block order (the simulator), 122991960 reversed,
 * about 123002500 in random orders, 123008184..123008408 on an H200. */
template <class T>
static __global__ void reduce_shuffle_k(const T *in, long long n, T *partial, T *total)
{
    DYNAMIC_SHARED(T, s);
    const int tid = threadIdx.x;
    T y = 0;
    const long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + tid; i < n; i += stride) {
        y += in[i];
        TRACE_READ(LAB_SP_GLOBAL, i, in[i]);
    }
    s[tid] = y;
    TRACE_WRITE(LAB_SP_SHARED, tid, y);
    __syncthreads();
    for (int offset = blockDim.x >> 1; offset >= 32; offset >>= 1) {
        if (tid < offset) {
            s[tid] += s[tid + offset];
            TRACE_ADD(LAB_SP_SHARED, tid, tid + offset, s[tid], s[tid + offset]);
        }
        __syncthreads();
    }
    y = s[tid];
    if (tid < 32) {
        cg::thread_block_tile<32> g = cg::tiled_partition<32>(cg::this_thread_block());
        for (int i = g.size() >> 1; i > 0; i >>= 1) {
            T other = g.shfl_down(y, i);
            y += other;
            TRACE_SHFL(g.thread_rank(), g.thread_rank() + i, other, y);
        }
    }
    if (tid == 0) {
        if (total) {
            T old = atomic_add(total, y);
            TRACE_ATOMIC(LAB_SP_GLOBAL, 0, y, old);
            (void)old;
        } else {
            partial[blockIdx.x] = y;
            TRACE_WRITE(LAB_SP_GLOBAL, blockIdx.x, y);
        }
    }
}

/* The modern recipe the lecture's steps lead to: 16-byte loads (four ints or
 * floats, two doubles per instruction), a persistent grid sized to the GPU
 * with several loads in flight per thread, sums kept in registers, warp
 * shuffles instead of a shared tree, one shared slot per warp, and one result
 * per block. The last block to finish adds the block results in a fixed order,
 * so there is a single launch and no atomics on the data. */
template <class T> struct Vec;
template <> struct Vec<int> { typedef int4 type; enum { width = 4 }; };
template <> struct Vec<float> { typedef float4 type; enum { width = 4 }; };
template <> struct Vec<double> { typedef double2 type; enum { width = 2 }; };

template <class A> static __device__ __forceinline__ A lanes_sum(int4 v) { return (A)v.x + v.y + v.z + v.w; }
template <class A> static __device__ __forceinline__ A lanes_sum(float4 v) { return v.x + v.y + v.z + v.w; }
template <class A> static __device__ __forceinline__ A lanes_sum(double2 v) { return v.x + v.y; }

template <class A> static __device__ __forceinline__ A warp_sum(A y)
{
    for (int off = 16; off > 0; off >>= 1) {
        A other = __shfl_down_sync(0xffffffffu, y, off);
        y += other;
        TRACE_SHFL(threadIdx.x % 32, threadIdx.x % 32 + off, other, y);
    }
    return y;
}

template <class T>
static __global__ void __launch_bounds__(1024)
reduce_vector_k(const T *in, long long n, typename Acc<T>::type *partial, unsigned *done,
                typename Acc<T>::type *total)
{
    typedef typename Acc<T>::type A;
    typedef typename Vec<T>::type V;
    const int W = Vec<T>::width;
    SHARED(A, warp_sums, 32);
    SHARED(int, last, 1);
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const long long nv = n / W;
    const V *in4 = reinterpret_cast<const V *>(in);
    const long long stride = (long long)blockDim.x * gridDim.x;
    A a0 = 0, a1 = 0;
    long long i = (long long)blockIdx.x * blockDim.x + tid;
    /* two independent loads in flight per iteration */
    for (; i + stride < nv; i += 2 * stride) {
        V u = in4[i], v = in4[i + stride];
        a0 += lanes_sum<A>(u);
        a1 += lanes_sum<A>(v);
        if (LAB_TRACING())
            for (int k = 0; k < W; k++) {
                TRACE_READ(LAB_SP_GLOBAL, i * W + k, in[i * W + k]);
                TRACE_READ(LAB_SP_GLOBAL, (i + stride) * W + k, in[(i + stride) * W + k]);
            }
    }
    for (; i < nv; i += stride) {
        a0 += lanes_sum<A>(in4[i]);
        if (LAB_TRACING())
            for (int k = 0; k < W; k++) TRACE_READ(LAB_SP_GLOBAL, i * W + k, in[i * W + k]);
    }
    /* the tail that does not fill a 16-byte vector */
    long long t = nv * W + (long long)blockIdx.x * blockDim.x + tid;
    if (t < n) {
        a0 += in[t];
        TRACE_READ(LAB_SP_GLOBAL, t, in[t]);
    }
    A y = warp_sum<A>(a0 + a1);
    if (lane == 0) {
        warp_sums[warp] = y;
        TRACE_WRITE(LAB_SP_SHARED, warp, y);
    }
    __syncthreads();
    if (warp == 0) {
        y = lane < (int)(blockDim.x / 32) ? (A)warp_sums[lane] : (A)0;
        y = warp_sum<A>(y);
        if (lane == 0) {
            partial[blockIdx.x] = y;
            TRACE_WRITE(LAB_SP_GLOBAL, blockIdx.x, y);
            __threadfence(); /* the partial is visible before the count says so */
            unsigned ticket = atomicAdd(done, 1u);
            last[0] = ticket == gridDim.x - 1;
        }
    }
    __syncthreads();
    if (last[0]) {
        /* the last block: add the block results in a fixed order */
        A z = 0;
        for (unsigned b = tid; b < gridDim.x; b += blockDim.x) z += ((volatile A *)partial)[b];
        z = warp_sum<A>(z);
        if (lane == 0) warp_sums[warp] = z;
        __syncthreads();
        if (tid == 0) {
            A sum = 0;
            for (int w = 0; w < (int)(blockDim.x / 32); w++) sum += warp_sums[w];
            *total = sum;
            *done = 0; /* ready for the next run */
            TRACE_WRITE(LAB_SP_GLOBAL, 0, sum);
        }
    }
}

/* ------------------------------------------------------------ launchers */


template <class T>
static int store_sum(lab_job *job, typename Acc<T>::type sum)
{
    reduce_out *o = (reduce_out *)job->out;
    o->sum = (double)sum;
    o->isum = (long long)sum;
    return 0;
}

/* The tree kernels for one block size B. */
enum tree_kind { TREE_INTERLEAVED, TREE_SEQUENTIAL, TREE_BLOCK_ATOMIC };

template <class T, int B, class A>
static int launch_tree_b(lab_job *job, int kind, unsigned grid, const T *d_in, long long n, A *d_total)
{
    const size_t smem = 0; /* static: SHARED(A, s, B) */
    if (kind == TREE_SEQUENTIAL)
        LAUNCH((reduce_sequential_k<T, B, 2>), grid, B, smem, d_in, n, d_total);
    else if (kind == TREE_INTERLEAVED)
        LAUNCH((reduce_interleaved_k<T, B>), grid, B, smem, d_in, n, d_total);
    else
        LAUNCH((reduce_sequential_k<T, B, 1>), grid, B, smem, d_in, n, d_total);
    return 0;
}

template <class T, class A>
static int launch_tree(lab_job *job, int kind, unsigned grid, const T *d_in, long long n, A *d_total)
{
    switch (job->block) {
    case 32: return launch_tree_b<T, 32>(job, kind, grid, d_in, n, d_total);
    case 64: return launch_tree_b<T, 64>(job, kind, grid, d_in, n, d_total);
    case 128: return launch_tree_b<T, 128>(job, kind, grid, d_in, n, d_total);
    case 256: return launch_tree_b<T, 256>(job, kind, grid, d_in, n, d_total);
    case 512: return launch_tree_b<T, 512>(job, kind, grid, d_in, n, d_total);
    case 1024: return launch_tree_b<T, 1024>(job, kind, grid, d_in, n, d_total);
    default:
        snprintf(job->err, sizeof job->err,
                 L_("the tree kernels are compiled for blocks of 32, 64, 128, 256, 512 and 1024 threads "
                 "(block is %d)"), job->block);
        return -1;
    }
}

/* Block sums are added in Acc<T>: 64 bits for ints, floats in float. */
template <class T>
static int run_tree(lab_job *job, int kind)
{
    typedef typename Acc<T>::type A;
    const long long n = job->n;
    const int block = job->block;
    const long long per_block = kind == TREE_SEQUENTIAL ? 2LL * block : block;
    job->grid = lab_ceil_div(n, per_block);
    if (job->grid > 2147483647LL) {
        snprintf(job->err, sizeof job->err, L_("n = %lld needs more than 2^31-1 blocks"), n);
        return -1;
    }
    if (job->trace) job->trace->smem_elem_bytes = sizeof(A);
    T *d_in;
    A *d_total;
    TRY(lab_upload(job, &d_in, job->in, n));
    TRY(lab_alloc(job, &d_total, 1));
    LAB_TIMED(job) {
        CK(cudaMemset(d_total, 0, sizeof(A)));
        TRY((launch_tree<T, A>(job, kind, (unsigned)job->grid, d_in, n, d_total)));
    }
    A sum;
    TRY(lab_download(job, &sum, d_total, 1));
    return store_sum<T>(job, sum);
}

/* ints are summed as long long both in the kernel and in the partials */
template <class T>
static int run_shuffle(lab_job *job, int atomic)
{
    typedef typename Acc<T>::type A;
    const long long n = job->n;
    const int block = job->block;
    if (job->grid <= 0) job->grid = lab_ceil_div(n, block) < 10240 ? lab_ceil_div(n, block) : 10240;
    const int grid = (int)job->grid;
    if (job->trace) job->trace->smem_elem_bytes = sizeof(A);
    T *d_in;
    A *d_in_acc = NULL, *d_partial, *d_total;
    if (sizeof(A) != sizeof(T)) {
        /* the int input is widened once, outside the timing, so the kernel
         * reads what the article's kernel reads: one value per element */
        A *wide = (A *)malloc(sizeof(A) * (size_t)n);
        if (!wide) { snprintf(job->err, sizeof job->err, "%s", L_("out of host memory")); return -1; }
        for (long long i = 0; i < n; i++) wide[i] = ((const T *)job->in)[i];
        int rc = lab_upload(job, &d_in_acc, wide, n);
        free(wide);
        TRY(rc);
    } else {
        TRY(lab_upload(job, &d_in, job->in, n));
        d_in_acc = (A *)d_in;
    }
    TRY(lab_alloc(job, &d_partial, grid));
    TRY(lab_alloc(job, &d_total, 1));
    LAB_TIMED(job) {
        if (atomic) {
            CK(cudaMemset(d_total, 0, sizeof(A)));
            LAUNCH(reduce_shuffle_k<A>, grid, block, block * sizeof(A), d_in_acc, n, d_partial, d_total);
        } else {
            LAUNCH(reduce_shuffle_k<A>, grid, block, block * sizeof(A), d_in_acc, n, d_partial, (A *)NULL);
            LAUNCH(reduce_shuffle_k<A>, 1, 1024, 1024 * sizeof(A), d_partial, (long long)grid, d_total, (A *)NULL);
        }
    }
    A sum;
    TRY(lab_download(job, &sum, d_total, 1));
    if (sizeof(A) != sizeof(T))
        snprintf(job->note, sizeof job->note, L_("ints widened to 64 bits before the timing"));
    return store_sum<T>(job, sum);
}

template <class T>
static int run_vector(lab_job *job)
{
    typedef typename Acc<T>::type A;
    const long long n = job->n;
    const int block = job->block;
    if (job->grid <= 0) {
        /* persistent grid: as many blocks as fit on the GPU at once, but no
         * more than there is work for */
        int sms = lab_gpu_available() && job->backend == LAB_BACKEND_GPU ? lab_device()->sms : 4;
        int per_sm = 2048 / block;
        if (per_sm < 1) per_sm = 1;
        long long fit = (long long)sms * per_sm;
        long long need = lab_ceil_div(n, (long long)block * Vec<T>::width);
        job->grid = need < fit ? need : fit;
        if (job->grid < 1) job->grid = 1;
    }
    const int grid = (int)job->grid;
    if (job->trace) job->trace->smem_elem_bytes = sizeof(A);
    T *d_in;
    A *d_partial, *d_total;
    unsigned *d_done;
    TRY(lab_upload(job, &d_in, job->in, n));
    TRY(lab_alloc(job, &d_partial, grid));
    TRY(lab_alloc(job, &d_total, 1));
    TRY(lab_alloc(job, &d_done, 1));
    CK(cudaMemset(d_done, 0, sizeof(unsigned)));
    LAB_TIMED(job) {
        LAUNCH(reduce_vector_k<T>, grid, block, 0, d_in, n, d_partial, d_done, d_total);
    }
    A sum;
    TRY(lab_download(job, &sum, d_total, 1));
    return store_sum<T>(job, sum);
}

typedef lab_dtypes<int, float, double> reduce_dtypes;

LAB_ENTRY(reduce_interleaved)
{
    return lab_by_dtype(job, reduce_dtypes(), [&](auto t) { return run_tree<decltype(t)>(job, TREE_INTERLEAVED); });
}

LAB_ENTRY(reduce_sequential)
{
    return lab_by_dtype(job, reduce_dtypes(), [&](auto t) { return run_tree<decltype(t)>(job, TREE_SEQUENTIAL); });
}

LAB_ENTRY(reduce_block_atomic)
{
    return lab_by_dtype(job, reduce_dtypes(), [&](auto t) { return run_tree<decltype(t)>(job, TREE_BLOCK_ATOMIC); });
}

LAB_ENTRY(reduce_warp_shuffle)
{
    return lab_by_dtype(job, reduce_dtypes(), [&](auto t) { return run_shuffle<decltype(t)>(job, 0); });
}

LAB_ENTRY(reduce_atomic_float)
{
    return lab_by_dtype(job, reduce_dtypes(), [&](auto t) { return run_shuffle<decltype(t)>(job, 1); });
}

LAB_ENTRY(reduce_vector)
{
    return lab_by_dtype(job, reduce_dtypes(), [&](auto t) { return run_vector<decltype(t)>(job); });
}
