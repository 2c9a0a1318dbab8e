/* bitonic.cu - bitonic sort, from the lecture's four steps to a fused network.
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
#include "kern.h"
#include "bitonic.h"

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

/* ---------------------------------------------------------- o and ov */

/* o (lecture, urejanje-o): the host runs the k and j loops, one launch per
 * step is the global barrier, and one thread per key. A thread compares only
 * when its partner i1 ^ j lies above it, so half the threads of every launch
 * do nothing: idle threads, and in every warp half the lanes wait. */
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
            int i1 = pair_first(p, j);
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
    int i1 = pair_first(p, j);
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
        int i1 = pair_first(p, j);
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
            int l1 = pair_first(t, j);
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
        int l1 = pair_first(t, j);
        exchange_shared<T>(s, l1, l1 + j, ((base + l1) & k) == 0);
        __syncthreads();
    }
    slice_store<T>(s, a, base);
}

/* ------------------------------------------------------------ fast */

/* fast: the lecture's network with fewer trips to memory. Two ideas:
 *
 * 1. Several steps per trip, in registers. Take the 2^C keys whose indices
 *    differ only in bits lj .. lj+C-1 (a "group"). The C steps
 *    j = 2^(lj+C-1) .. 2^lj compare keys of the same group only, so a thread
 *    that loads the group into registers does all C steps without a barrier
 *    and writes it back once. All keys of a group go the same direction: the
 *    group's steps belong to one k, and k is above every bit they vary.
 * 2. Tiles in shared memory. A block keeps a tile of FAST_PER * blockDim keys
 *    in shared memory and runs every step whose j stays inside the tile there,
 *    FAST_PER keys per thread in registers between barriers: the start kernel
 *    sorts whole tiles, the finish kernel of each larger k does all its steps
 *    with j below the tile, and only the steps with larger j go through global
 *    memory, up to FAST_GC of them fused per launch.
 * At 2^24 keys and tiles of 8192 that is 30 passes over the array instead of
 * the lecture's 300 launches. */
#define FAST_PER 8        /* keys per thread in the tile kernels (3 steps per round) */
#define FAST_MAX_BLOCK 1024
#define FAST_TILE_MAX (FAST_PER * FAST_MAX_BLOCK)
#define FAST_GC 5         /* steps fused per pass over global memory (32 keys per thread) */
#define FAST_GBLOCK 256   /* threads per block of the global passes */

/* One padding word after every 32 keys: the strided reads of a round then
 * fall into different banks (no bank conflicts for groups of consecutive
 * keys, at most two-way for the others). */
static __device__ __forceinline__ int fast_pad(int i) { return i + (i >> 5); }

/* The first key of group g when the round's smallest distance is 2^lj. */
static __device__ __forceinline__ int group_base(int g, int lj, int c)
{
    return ((g >> lj) << (lj + c)) | (g & ((1 << lj) - 1));
}

/* C steps of the network on the group x[0 .. 2^C) in registers: x[m] is the
 * key at base + (m << lj); the steps are j = 2^(lj+C-1) .. 2^lj of k. */
template <class T, int C>
static __device__ __forceinline__ void group_steps(T (&x)[1 << C], int base, int lj, int k)
{
    const bool asc = (base & k) == 0;
#pragma unroll
    for (int s = C - 1; s >= 0; s--) {
#pragma unroll
        for (int m = 0; m < (1 << C); m++) {
            if (m & (1 << s)) continue;
            const int m2 = m | (1 << s);
            T a = x[m], b = x[m2];
            T lo = a < b ? a : b, hi = a < b ? b : a;
            x[m] = asc ? lo : hi;
            x[m2] = asc ? hi : lo;
            TRACE_CSWAP(LAB_SP_REG, base + (m << lj), base + (m2 << lj), asc ? a > b : a < b, asc);
        }
    }
}

/* One round in the tile: every thread takes FAST_PER keys as groups of 2^C
 * from shared memory, runs C steps in registers, puts them back, and the
 * block waits for the round to end. tile is the tile's first key in the
 * array (for the direction), lj the round's smallest distance. */
template <class T, int C, class S>
static __device__ void tile_round(S &s, int tile, int per, int k, int lj)
{
    TRACE_MARK(BITONIC_MK_ROUND, LAB_SP_SHARED, 1 << lj, C);
    for (int r = 0; r < (per >> C); r++) {
        const int g = threadIdx.x + r * blockDim.x;
        const int lb = group_base(g, lj, C);
        T x[1 << C];
#pragma unroll
        for (int m = 0; m < (1 << C); m++) x[m] = s[fast_pad(lb + (m << lj))];
        group_steps<T, C>(x, tile + lb, lj, k);
#pragma unroll
        for (int m = 0; m < (1 << C); m++) s[fast_pad(lb + (m << lj))] = x[m];
    }
    __syncthreads();
}

template <class T, class S>
static __device__ void tile_round_c(S &s, int tile, int per, int k, int lj, int c)
{
    switch (c) {
    case 1: tile_round<T, 1>(s, tile, per, k, lj); break;
    case 2: tile_round<T, 2>(s, tile, per, k, lj); break;
    default: tile_round<T, 3>(s, tile, per, k, lj); break;
    }
}

static __device__ __forceinline__ int log2i(int x)
{
    int l = 0;
    while ((1 << (l + 1)) <= x) l++;
    return l;
}

/* The tile kernel of fast. start = 1: sort each tile completely (k = 2 ..
 * tile), first all k up to FAST_PER inside each thread's consecutive keys,
 * then rounds in shared memory. start = 0: the steps j = tile/2 .. 1 of one
 * k (the finish of a k whose first steps were global). Keys move between
 * global and shared memory once each way, coalesced. */
template <class T>
static __global__ void __launch_bounds__(FAST_MAX_BLOCK)
bitonic_fast_tile(const T *src, T *dst, int per, int kfirst, int klast, int start)
{
    SHARED(T, s, FAST_TILE_MAX + FAST_TILE_MAX / 32);
    const int t = threadIdx.x;
    const int T_ = per * blockDim.x;              /* keys in the tile */
    const int tile = blockIdx.x * T_;
    const int role = start ? BITONIC_ROLE_START : BITONIC_ROLE_FINISH;
    (void)role; /* only the traces use it */
    for (int l = t; l < T_; l += blockDim.x) {
        T v = src[tile + l];
        s[fast_pad(l)] = v;
        TRACE_READ(LAB_SP_GLOBAL, tile + l, v);
    }
    __syncthreads();
    int k = kfirst;
    if (start) {
        /* k = 2 .. per: each thread sorts its own per consecutive keys
         * (up or down by their place), no barrier needed */
        const int lb = t * per;
        T x[FAST_PER];
        TRACE_MARK(BITONIC_MK_ROUND, LAB_SP_SHARED, 1, log2i(per) * (log2i(per) + 1) / 2);
#pragma unroll
        for (int m = 0; m < FAST_PER; m++)
            if (m < per) x[m] = s[fast_pad(lb + m)];
        /* fully unrolled, so x stays in registers */
#pragma unroll
        for (int kk = 2; kk <= FAST_PER; kk <<= 1) {
            if (kk > per) break;
            TRACE_MARK(BITONIC_MK_STEP, role, kk, kk >> 1);
#pragma unroll
            for (int j = kk >> 1; j > 0; j >>= 1) {
#pragma unroll
                for (int m = 0; m < FAST_PER; m++) {
                    if (m >= per || (m & j)) continue;
                    const bool asc = ((tile + lb + m) & kk) == 0;
                    T a = x[m], b = x[m | j];
                    T lo = a < b ? a : b, hi = a < b ? b : a;
                    x[m] = asc ? lo : hi;
                    x[m | j] = asc ? hi : lo;
                    TRACE_CSWAP(LAB_SP_REG, tile + lb + m, tile + lb + (m | j), asc ? a > b : a < b, asc);
                }
            }
        }
        k = 2 * per;
#pragma unroll
        for (int m = 0; m < FAST_PER; m++)
            if (m < per) s[fast_pad(lb + m)] = x[m];
        __syncthreads();
    }
    const int cmax = log2i(per);
    for (; k <= klast; k <<= 1) {
        TRACE_MARK(BITONIC_MK_STEP, role, k, k / 2 < T_ / 2 ? k / 2 : T_ / 2);
        /* steps j = 2^top .. 1 of this k, in rounds of up to cmax steps; the
         * first round takes the remainder */
        int top = log2i(k / 2 < T_ / 2 ? k / 2 : T_ / 2);
        int steps = top + 1;
        int c = steps % cmax ? steps % cmax : cmax;
        while (top >= 0) {
            tile_round_c<T>(s, tile, per, k, top - c + 1, c);
            top -= c;
            c = cmax;
        }
    }
    for (int l = t; l < T_; l += blockDim.x) {
        T v = s[fast_pad(l)];
        dst[tile + l] = v;
        TRACE_WRITE(LAB_SP_GLOBAL, tile + l, v);
    }
}

/* The global pass of fast: C steps j = 2^(lj+C-1) .. 2^lj of k for the group
 * of each thread, straight from global memory into registers and back. The
 * distances are at least a tile, so consecutive threads read consecutive
 * keys: every load and store is coalesced. */
template <class T, int C>
static __device__ __forceinline__ void global_group(T *a, int g, int k, int lj)
{
    const int base = group_base(g, lj, C);
    T x[1 << C];
#pragma unroll
    for (int m = 0; m < (1 << C); m++) {
        x[m] = a[base + (m << lj)];
        TRACE_READ(LAB_SP_GLOBAL, base + (m << lj), x[m]);
    }
    group_steps<T, C>(x, base, lj, k);
#pragma unroll
    for (int m = 0; m < (1 << C); m++) {
        a[base + (m << lj)] = x[m];
        TRACE_WRITE(LAB_SP_GLOBAL, base + (m << lj), x[m]);
    }
}

/* One kernel per group size C, so each gets the registers it needs: the
 * passes of one or two steps keep many threads (and loads) in flight, those of
 * five hold 32 keys per thread. */
#define FAST_GLOBAL_KERNEL(C)                                                          \
    template <class T>                                                                 \
    static __global__ void __launch_bounds__(FAST_GBLOCK)                              \
    bitonic_fast_global##C(T *a, int n, int k, int lj)                                 \
    {                                                                                  \
        const int g = blockIdx.x * blockDim.x + threadIdx.x;                           \
        if (g >= (n >> C)) return;                                                     \
        TRACE_MARK(BITONIC_MK_STEP, BITONIC_ROLE_MIDDLE, k, 1 << (lj + C - 1));        \
        TRACE_MARK(BITONIC_MK_ROUND, LAB_SP_GLOBAL, 1 << lj, C);                       \
        global_group<T, C>(a, g, k, lj);                                               \
    }
FAST_GLOBAL_KERNEL(1)
FAST_GLOBAL_KERNEL(2)
FAST_GLOBAL_KERNEL(3)
FAST_GLOBAL_KERNEL(4)
FAST_GLOBAL_KERNEL(5)

/* ------------------------------------------------------------ launchers */

static int is_pow2(long long x) { return x > 0 && (x & (x - 1)) == 0; }

static long long pow2_below(long long x)
{
    long long p = 1;
    while (p * 2 <= x) p *= 2;
    return p;
}

static int ilog2(long long x)
{
    int l = 0;
    while ((1LL << (l + 1)) <= x) l++;
    return l;
}

/* The checks every network variant shares; the limits the registry states
 * are checked before (lab_validate), these are the ones it cannot state. */
static int network_ok(lab_job *job, int need_pow2_block, int max_block)
{
    const lab_variant *v = job->variant;
    const char *name = v ? v->name : "?";
    if (!is_pow2(job->n)) {
        long long lo = pow2_below(job->n);
        snprintf(job->err, sizeof job->err,
                 "bitonic/%s needs n to be a power of two; the nearest are %lld and %lld "
                 "(or `set pad on` to pad with the largest value)",
                 name, lo, lo * 2);
        return -1;
    }
    if (job->n > BITONIC_MAX_N) {
        snprintf(job->err, sizeof job->err, "bitonic/%s sorts at most 2^30 keys", name);
        return -1;
    }
    if (job->block < 1 || job->block > max_block) {
        snprintf(job->err, sizeof job->err,
                 "block %d is out of range for bitonic/%s: allowed 1..%d threads", job->block,
                 name, max_block);
        return -1;
    }
    if (need_pow2_block && !is_pow2(job->block)) {
        long long lo = pow2_below(job->block);
        snprintf(job->err, sizeof job->err,
                 "bitonic/%s sorts slices of %s keys in one block, so block must be a power of "
                 "two (%d is not; try %lld or %lld)",
                 name, strcmp(name, "fast") == 0 ? "8 * block" : "2 * block", job->block, lo,
                 lo * 2 <= max_block ? lo * 2 : lo);
        return -1;
    }
    return 0;
}

/* A block larger than the work is cut down to it, and when the student chose
 * the block the note says so. guarded: the kernel checks its index, so the
 * block stays at the variant's smallest (o, ov: a warp) and the threads past
 * the work do nothing. */
static void clamp_block(lab_job *job, long long threads, int guarded)
{
    if (threads < 1) threads = 1;
    long long least = guarded && job->variant ? job->variant->block_min : 1;
    long long to = threads > least ? threads : least;
    if (job->block > to) {
        if (job->cfg->block > 0) {
            if (to > threads)
                snprintf(job->note, sizeof job->note,
                         "block %d cut to %lld, the smallest block; n = %lld needs %lld threads, "
                         "the others do nothing", job->block, to, job->n, threads);
            else
                snprintf(job->note, sizeof job->note, "block %d cut to %lld: n = %lld has no work for more",
                         job->block, to, job->n);
        }
        job->block = (int)to;
    }
}

/* The traced run records the same events on the GPU and the simulator. */
static void trace_header(lab_job *job)
{
    if (job->trace) job->trace->smem_elem_bytes = 4;
}

/* n = 1: there is nothing to compare, the answer is the input. */
template <class T>
static int copy_through(lab_job *job, const T *d_in, T *d_work)
{
    LAB_TIMED(job) {
        CK(cudaMemcpy(d_work, d_in, sizeof(T) * (size_t)job->n, cudaMemcpyDeviceToDevice));
    }
    return 0;
}

template <class T>
static int upload_pair(lab_job *job, T **d_in, T **d_work)
{
    TRY(lab_upload(job, d_in, job->in, (size_t)job->n));
    TRY(lab_alloc(job, d_work, (size_t)job->n));
    return 0;
}

template <class T>
static int finish_run(lab_job *job, const T *d_work)
{
    return lab_download(job, job->out, d_work, (size_t)job->n);
}

template <class T>
static int run_o(lab_job *job, int busy)
{
    TRY(network_ok(job, 0, 1024));
    const int n = (int)job->n;
    const long long threads = busy ? n / 2 : n;
    clamp_block(job, threads, 1);
    const int block = job->block;
    job->grid = (threads + block - 1) / block;
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

template <class T>
static int run_fast(lab_job *job)
{
    TRY(network_ok(job, 1, FAST_MAX_BLOCK));
    const int n = (int)job->n;
    const int per = n < FAST_PER ? n : FAST_PER;  /* keys per thread in a tile */
    clamp_block(job, n / per, 0);
    const int block = job->block;
    const int tile = per * block;
    job->grid = n / tile;
    trace_header(job);
    T *d_in, *d_work;
    TRY(upload_pair(job, &d_in, &d_work));
    if (n < 2) {
        TRY(copy_through(job, d_in, d_work));
        return finish_run(job, d_work);
    }
    const unsigned grid = (unsigned)job->grid;
    LAB_TIMED(job) {
        LAUNCH(bitonic_fast_tile<T>, grid, block, 0, d_in, d_work, per, 2, tile, 1);
        for (int k = 2 * tile; k <= n; k <<= 1) {
            /* the steps j = k/2 .. tile cross tiles: global passes of up to
             * FAST_GC steps each, as evenly split as they go */
            int top = ilog2(k / 2), bottom = ilog2(tile);
            int steps = top - bottom + 1;
            int passes = (steps + FAST_GC - 1) / FAST_GC;
            for (int q = 0; q < passes; q++) {
                int c = steps / passes + (q < steps % passes ? 1 : 0);
                int lj = top - c + 1;
                long long groups = (long long)n >> c;
                unsigned g = (unsigned)((groups + FAST_GBLOCK - 1) / FAST_GBLOCK);
                switch (c) {
                case 1: LAUNCH(bitonic_fast_global1<T>, g, FAST_GBLOCK, 0, d_work, n, k, lj); break;
                case 2: LAUNCH(bitonic_fast_global2<T>, g, FAST_GBLOCK, 0, d_work, n, k, lj); break;
                case 3: LAUNCH(bitonic_fast_global3<T>, g, FAST_GBLOCK, 0, d_work, n, k, lj); break;
                case 4: LAUNCH(bitonic_fast_global4<T>, g, FAST_GBLOCK, 0, d_work, n, k, lj); break;
                default: LAUNCH(bitonic_fast_global5<T>, g, FAST_GBLOCK, 0, d_work, n, k, lj); break;
                }
                top -= c;
            }
            LAUNCH(bitonic_fast_tile<T>, grid, block, 0, d_work, d_work, per, k, k, 0);
        }
    }
    return finish_run(job, d_work);
}

#define BY_DTYPE(call_int, call_float)                                        \
    switch (job->cfg->dtype) {                                                \
    case LAB_INT: return call_int;                                            \
    case LAB_FLOAT: return call_float;                                        \
    default:                                                                  \
        snprintf(job->err, sizeof job->err, "bitonic sorts int or float keys, not %s", \
                 lab_dtype_name(job->cfg->dtype));                            \
        return -1;                                                            \
    }

LAB_ENTRY(bitonic_o) { BY_DTYPE(run_o<int>(job, 0), run_o<float>(job, 0)); }
LAB_ENTRY(bitonic_ov) { BY_DTYPE(run_o<int>(job, 1), run_o<float>(job, 1)); }
LAB_ENTRY(bitonic_n) { BY_DTYPE(run_n<int>(job, 0), run_n<float>(job, 0)); }
LAB_ENTRY(bitonic_nl) { BY_DTYPE(run_n<int>(job, 1), run_n<float>(job, 1)); }
LAB_ENTRY(bitonic_fast) { BY_DTYPE(run_fast<int>(job), run_fast<float>(job)); }
