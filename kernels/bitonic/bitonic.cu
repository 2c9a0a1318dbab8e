/* bitonic.cu - bitonic sort, the lecture's four steps (o, ov, n, nl); the
 * fused network (fast) is in bitonic_fast.cu.
 *
 * The network: for k = 2, 4, ..., n (the length of the slices being sorted)
 * and j = k/2, ..., 1 (the distance between compared keys), every key i1
 * whose bit j is clear is compared with i2 = i1 + j, and the two are put in
 * ascending order when bit k of i1 is clear, descending when it is set. After
 * all steps of one k the slices of length k are sorted, alternately up and
 * down, so each pair of neighbouring slices is a bitonic sequence (up, then
 * down) that the steps of the next k merge. Every step is n/2 independent
 * compare-exchanges: the parallelism is easy, the synchronisation between
 * steps is the whole story.
 *
 * Each kernel's comment names the idea it shows. The same source runs on the
 * GPU and on gpulab's simulator; TRACE_* lines record what the butterfly
 * animation shows and vanish from the timed build (bitonic.h lists the
 * events). Every variant reads the input in its first step and writes the
 * working copy, so each timed repeat sorts the unsorted input again without
 * an extra copy. */
#include "kernels/kern.h"
#include "kernels/bitonic/bitonic.h"
#include "kernels/bitonic/bitonic_host.cuh"

/* The compare-exchange of the lecture: put src[i1], src[i2] in order (up or
 * down) into dst. In place (src == dst) only a swap writes; the first step
 * (src is the input) writes both keys. */
template <class T>
static __device__ __forceinline__ void exchange(const T *src, T *dst, int i1, int i2, bool asc)
{
    T a = src[i1], b = src[i2];
    bool swap = asc ? a > b : a < b;
    if (swap || src != dst) {
        dst[i1] = swap ? b : a;
        dst[i2] = swap ? a : b;
    }
    TRACE_CSWAP(LAB_SP_GLOBAL, i1, i2, swap, asc);
}

/* The lecture's mapping from a pair number p (0 .. n/2-1) to the pair's
 * first key: p / j pairs of slices of 2j keys lie before it, p % j is its
 * place in its slice. */
static __device__ __forceinline__ int pair_first(int p, int j)
{
    return 2 * j * (p / j) + p % j;
}

/* The same pair without dividing: j is a power of two, so p / j * j keeps
 * the bits of p above j and p % j the bits below. An integer division by a
 * value the compiler cannot see costs dozens of instructions; the kernels
 * after ov, whose time goes into barriers and shared memory, use this. */
static __device__ __forceinline__ int pair_first_pow2(int p, int j)
{
    return ((p & ~(j - 1)) << 1) | (p & (j - 1));
}

/* ---------------------------------------------------------- o and ov */

/* o (lecture, urejanje-o): the host runs the k and j loops, one launch per
 * step is the global barrier, and one thread per key. A thread compares only
 * when its partner i1 ^ j lies above it, so half the threads of every launch
 * do nothing. For j < 32 working and idle lanes alternate inside every warp
 * (divergence: half the lanes are masked off); for j >= 32 they come in runs
 * of j threads, so whole warps idle and none diverges. */
template <class T>
static __global__ void bitonic_o_step(const T *src, T *dst, int n, int k, int j)
{
    int i1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (i1 >= n) return;
    int i2 = i1 ^ j;
    TRACE_MARK(BITONIC_MK_STEP, BITONIC_ROLE_STEP, k, j);
    if (i2 > i1) {
        exchange(src, dst, i1, i2, (i1 & k) == 0);
    } else {
        TRACE_MARK(BITONIC_MK_IDLE, i1, i2, 0);
    }
}

/* ov (lecture, urejanje-ov): every thread busy. Half as many threads as keys,
 * thread gid takes pair gid, so no thread idles and a launch needs half the
 * blocks; the price is the division and remainder that find the pair. */
template <class T>
static __global__ void bitonic_ov_step(const T *src, T *dst, int pairs, int k, int j)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= pairs) return;
    int i1 = pair_first(gid, j);
    TRACE_MARK(BITONIC_MK_STEP, BITONIC_ROLE_STEP, k, j);
    exchange(src, dst, i1, i1 + j, (i1 & k) == 0);
}

/* ------------------------------------------------------------ n */

/* n (lecture, urejanje-n), the start kernel: while the slices are no longer
 * than the 2 * blockDim keys of one block, every step stays inside the block's
 * slice, so __syncthreads() is barrier enough and one launch does all the
 * steps of k = 2 .. 2 * blockDim. Block b ends sorted up when b is even, down
 * when odd: pairs of blocks are bitonic for the next k. */
template <class T>
static __global__ void bitonic_n_start(const T *src, T *dst, int kmax)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    const T *from = src;
    for (int k = 2; k <= kmax; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            TRACE_MARK(BITONIC_MK_STEP, BITONIC_ROLE_START, k, j);
            int i1 = pair_first_pow2(p, j);
            exchange(from, dst, i1, i1 + j, (i1 & k) == 0);
            from = dst;
            __syncthreads();
        }
}

/* n and nl, the middle kernel: a step whose distance j is larger than a
 * block's slice connects keys of different blocks, so it needs the global
 * barrier of a new launch, one per (k, j), as in ov. Each key is read and
 * written once per launch; shared memory could not save anything here. */
template <class T>
static __global__ void bitonic_middle(T *a, int k, int j)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    int i1 = pair_first_pow2(p, j);
    TRACE_MARK(BITONIC_MK_STEP, BITONIC_ROLE_MIDDLE, k, j);
    exchange(a, a, i1, i1 + j, (i1 & k) == 0);
}

/* n, the finish kernel: once j is down to blockDim, the remaining steps of
 * this k stay inside one block's slice again, so one launch with block
 * barriers finishes them. */
template <class T>
static __global__ void bitonic_n_finish(T *a, int k)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = blockDim.x; j > 0; j >>= 1) {
        TRACE_MARK(BITONIC_MK_STEP, BITONIC_ROLE_FINISH, k, j);
        int i1 = pair_first_pow2(p, j);
        exchange(a, a, i1, i1 + j, (i1 & k) == 0);
        __syncthreads();
    }
}

/* ------------------------------------------------------------ nl */

#define NL_MAX_BLOCK 1024

/* Compare-exchange of two keys of the block's slice in shared memory (l1, l2
 * index the slice; the trace records these shared indices). */
template <class T, class S>
static __device__ __forceinline__ void exchange_shared(S &s, int l1, int l2, bool asc)
{
    T a = s[l1];
    T b = s[l2];
    bool swap = asc ? a > b : a < b;
    if (swap) {
        s[l1] = b;
        s[l2] = a;
    }
    TRACE_CSWAP(LAB_SP_SHARED, l1, l2, swap, asc);
}

/* Copy the block's slice of 2 * blockDim keys between global and shared
 * memory, consecutive threads on consecutive keys (coalesced). */
template <class T, class S>
static __device__ __forceinline__ void slice_load(S &s, const T *src, int base)
{
    for (int l = threadIdx.x; l < 2 * (int)blockDim.x; l += blockDim.x) {
        T v = src[base + l];
        s[l] = v;
        TRACE_READ(LAB_SP_GLOBAL, base + l, v);
        TRACE_WRITE(LAB_SP_SHARED, l, v);
    }
}

template <class T, class S>
static __device__ __forceinline__ void slice_store(S &s, T *dst, int base)
{
    for (int l = threadIdx.x; l < 2 * (int)blockDim.x; l += blockDim.x) {
        T v = s[l];
        dst[base + l] = v;
        TRACE_READ(LAB_SP_SHARED, l, v);
        TRACE_WRITE(LAB_SP_GLOBAL, base + l, v);
    }
}

/* nl (lecture, urejanje-nl), the start kernel: as n's, but the block first
 * copies its slice into shared memory, runs all its steps there (each key is
 * read and written many times, now at shared-memory speed), and writes the
 * slice back once. */
template <class T>
static __global__ void bitonic_nl_start(const T *src, T *dst, int kmax)
{
    SHARED(T, s, 2 * NL_MAX_BLOCK);
    const int t = threadIdx.x;
    const int base = blockIdx.x * 2 * blockDim.x;
    slice_load<T>(s, src, base);
    __syncthreads();
    for (int k = 2; k <= kmax; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            TRACE_MARK(BITONIC_MK_STEP, BITONIC_ROLE_START, k, j);
            int l1 = pair_first_pow2(t, j);
            exchange_shared<T>(s, l1, l1 + j, ((base + l1) & k) == 0);
            __syncthreads();
        }
    slice_store<T>(s, dst, base);
}

/* nl, the finish kernel: the steps j = blockDim .. 1 of one k in shared
 * memory, between one coalesced load and one coalesced store. */
template <class T>
static __global__ void bitonic_nl_finish(T *a, int k)
{
    SHARED(T, s, 2 * NL_MAX_BLOCK);
    const int t = threadIdx.x;
    const int base = blockIdx.x * 2 * blockDim.x;
    slice_load<T>(s, a, base);
    __syncthreads();
    for (int j = blockDim.x; j > 0; j >>= 1) {
        TRACE_MARK(BITONIC_MK_STEP, BITONIC_ROLE_FINISH, k, j);
        int l1 = pair_first_pow2(t, j);
        exchange_shared<T>(s, l1, l1 + j, ((base + l1) & k) == 0);
        __syncthreads();
    }
    slice_store<T>(s, a, base);
}

/* ------------------------------------------------------------ launchers */

template <class T>
static int run_o(lab_job *job, int busy)
{
    TRY(network_ok(job, 0, 1024));
    const int n = (int)job->n;
    const long long threads = busy ? n / 2 : n;
    clamp_block(job, threads, 1);
    const int block = job->block;
    job->grid = lab_ceil_div(threads, block);
    trace_header(job);
    T *d_in, *d_work;
    TRY(upload_pair(job, &d_in, &d_work));
    if (n < 2) {
        TRY(copy_through(job, d_in, d_work));
        return finish_run(job, d_work);
    }
    const unsigned grid = (unsigned)job->grid;
    LAB_TIMED(job) {
        for (int k = 2; k <= n; k <<= 1)
            for (int j = k >> 1; j > 0; j >>= 1) {
                const T *src = (k == 2) ? d_in : d_work;
                if (busy)
                    LAUNCH(bitonic_ov_step<T>, grid, block, 0, src, d_work, n / 2, k, j);
                else
                    LAUNCH(bitonic_o_step<T>, grid, block, 0, src, d_work, n, k, j);
            }
    }
    return finish_run(job, d_work);
}

template <class T>
static int run_n(lab_job *job, int local)
{
    TRY(network_ok(job, 1, NL_MAX_BLOCK));
    const int n = (int)job->n;
    clamp_block(job, n / 2, 0);
    const int block = job->block;
    const int slice = 2 * block;                  /* keys per block */
    job->grid = n >= 2 ? n / slice : 1;
    trace_header(job);
    T *d_in, *d_work;
    TRY(upload_pair(job, &d_in, &d_work));
    if (n < 2) {
        TRY(copy_through(job, d_in, d_work));
        return finish_run(job, d_work);
    }
    const unsigned grid = (unsigned)job->grid;
    LAB_TIMED(job) {
        if (local)
            LAUNCH(bitonic_nl_start<T>, grid, block, 0, d_in, d_work, slice);
        else
            LAUNCH(bitonic_n_start<T>, grid, block, 0, d_in, d_work, slice);
        for (int k = 2 * slice; k <= n; k <<= 1) {
            for (int j = k >> 1; j > block; j >>= 1)
                LAUNCH(bitonic_middle<T>, grid, block, 0, d_work, k, j);
            if (local)
                LAUNCH(bitonic_nl_finish<T>, grid, block, 0, d_work, k);
            else
                LAUNCH(bitonic_n_finish<T>, grid, block, 0, d_work, k);
        }
    }
    return finish_run(job, d_work);
}


LAB_ENTRY(bitonic_o) { return lab_by_dtype(job, bitonic_dtypes(), [&](auto t) { return run_o<decltype(t)>(job, 0); }); }
LAB_ENTRY(bitonic_ov) { return lab_by_dtype(job, bitonic_dtypes(), [&](auto t) { return run_o<decltype(t)>(job, 1); }); }
LAB_ENTRY(bitonic_n) { return lab_by_dtype(job, bitonic_dtypes(), [&](auto t) { return run_n<decltype(t)>(job, 0); }); }
LAB_ENTRY(bitonic_nl) { return lab_by_dtype(job, bitonic_dtypes(), [&](auto t) { return run_n<decltype(t)>(job, 1); }); }
