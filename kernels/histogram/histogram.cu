/* histogram.cu - a 256-bin brightness histogram of an 8-bit image, from the
 * lecture's two kernels to one that no image can slow down.
 *
 * The lesson is contention. A global atomicAdd on an address other threads
 * are adding to waits for them in L2: a flat image sends every pixel of the
 * GPU to one counter. In shared memory sm_90 combines the lanes of a warp
 * that increment one counter by 1 into one operation (ATOMS.POPC.INC in the
 * SASS), so there a flat image costs no more than a photo; a general
 * same-address shared atomicAdd (ATOMS.ADD) is served lane after lane. Each
 * kernel's comment names the idea it shows. The same source runs on the GPU and on
 * gpulab's simulator; TRACE_* lines record what the animation shows and
 * vanish from the timed build.
 *
 * What a trace records for every pixel a thread handles:
 *   read    global[i] = the pixel value (its bin)
 *   mark    HIST_MARK_MATCH: b = bin, v = lanes of the warp whose pixel is in
 *           the same bin in this step, v2 = lanes that add to the very same
 *           counter (both counted with __match_any_sync, on the GPU and on
 *           the simulator alike)
 *   atomic  on the counter it adds to (global or shared), operand, old value
 * and the merges of private histograms as atomics on the global counters. */
#include "kernels/intl.h"
#include "kernels/kern.h"
#include "kernels/histogram/histogram.h"

/* The lanes of this thread's warp that exist: all 32, except in the last warp
 * of a block whose size is not a multiple of 32. */
static __device__ __forceinline__ unsigned warp_lanes()
{
    const int left = (int)blockDim.x - (int)(threadIdx.x & ~31u);
    return left >= 32 ? 0xffffffffu : (1u << left) - 1u;
}

/* Traced builds only: how many lanes of the warp hit the same bin, and how
 * many the same counter. `live` is the set of lanes that have a pixel in this
 * step; every one of them calls this, so the match is the same on the GPU and
 * on the simulator. */
static __device__ void trace_contention(unsigned live, unsigned bin, unsigned counter)
{
    const unsigned same_bin = __match_any_sync(live, bin);
    const unsigned same_counter = __match_any_sync(live, counter);
    TRACE_MARK(HIST_MARK_MATCH, bin, __popc(same_bin), __popc(same_counter));
    (void)same_bin;
    (void)same_counter;
}

/* global (lecture): every pixel is one atomicAdd on the global histogram,
 * grid-stride loop. Atomics on the same address are done one after another
 * by the memory system, and a warp's request costs per 128-byte line of
 * counters it touches (the 256 counters fill eight): a photo's warp touches a
 * few lines (its pixels are close in brightness), random pixels touch all
 * eight (on the H200 random took 8.5 ms against the photo's 4.6), and on a
 * flat image all 33 million additions queue on one counter (24.3 ms). The
 * loop walks warp by warp (i0 is the pixel of the warp's first lane), which
 * is the lecture's loop with the same pixels per thread, written so that a
 * whole warp always takes the same turns. */
static __global__ void hist_global_k(const unsigned char *pixels, long long n, unsigned *hist)
{
    const int lane = threadIdx.x % 32;
    const unsigned lanes = warp_lanes();
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i0 = (long long)blockIdx.x * blockDim.x + (threadIdx.x - lane); i0 < n; i0 += stride) {
        const long long i = i0 + lane;
        const unsigned live = LAB_TRACING() ? __ballot_sync(lanes, i < n) : 0u;
        if (i < n) {
            const unsigned v = pixels[i];
            TRACE_READ(LAB_SP_GLOBAL, i, v);
            if (LAB_TRACING()) trace_contention(live, v, v);
            const unsigned old = atomicAdd(&hist[v], 1u);
            TRACE_ATOMIC(LAB_SP_GLOBAL, v, 1, old);
            (void)old;
        }
    }
}

/* shared (lecture): privatisation. Each block first counts its pixels in its
 * own 256 counters in shared memory, where an atomic costs a few cycles
 * instead of a trip to L2, and where only the block's own threads contend
 * (for sm_90 nvcc compiles atomicAdd(&local[v], 1u) to ATOMS.POPC.INC, which
 * adds the number of the warp's lanes on one counter in one operation);
 * then it adds each non-zero counter to the global histogram with one atomic.
 * With the lecture's grid (8 blocks per SM) that is at most 256 global
 * atomics per block, whatever the image. */
static __global__ void hist_shared_k(const unsigned char *pixels, long long n, unsigned *hist)
{
    SHARED(unsigned, local, HIST_BINS);
    for (int b = threadIdx.x; b < HIST_BINS; b += blockDim.x) {
        local[b] = 0;
        TRACE_WRITE(LAB_SP_SHARED, b, 0);
    }
    __syncthreads();
    const int lane = threadIdx.x % 32;
    const unsigned lanes = warp_lanes();
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i0 = (long long)blockIdx.x * blockDim.x + (threadIdx.x - lane); i0 < n; i0 += stride) {
        const long long i = i0 + lane;
        const unsigned live = LAB_TRACING() ? __ballot_sync(lanes, i < n) : 0u;
        if (i < n) {
            const unsigned v = pixels[i];
            TRACE_READ(LAB_SP_GLOBAL, i, v);
            if (LAB_TRACING()) trace_contention(live, v, v);
            const unsigned old = atomicAdd(&local[v], 1u);
            TRACE_ATOMIC(LAB_SP_SHARED, v, 1, old);
            (void)old;
        }
    }
    __syncthreads();
    for (int b = threadIdx.x; b < HIST_BINS; b += blockDim.x) {
        const unsigned c = local[b];
        TRACE_READ(LAB_SP_SHARED, b, c);
        if (c > 0) {
            const unsigned old = atomicAdd(&hist[b], c);
            TRACE_ATOMIC(LAB_SP_GLOBAL, b, c, old);
            (void)old;
        }
    }
}

/* fast: lane-private columns. The block's histogram is 256 rows of 32
 * counters, and lane L of every warp only ever adds into column L. Column L
 * lies in shared-memory bank L, so in one atomic instruction the 32 lanes of
 * a warp touch 32 different counters in 32 different banks, whether the image
 * is a photo or flat: no two lanes of a warp share a counter on any GPU,
 * whatever the compiler makes of atomicAdd. (On sm_90 that buys little: the
 * hardware already combines shared's same-counter increments, and on the H200
 * fast is as flat-insensitive as shared; its 2.2-2.5x lead over shared comes
 * from the loads and the grid.) Pixels arrive 16 at a time through 16-byte
 * loads, two loads in
 * flight per thread, over a persistent grid (as many blocks as fit on the
 * GPU). At the end a thread adds up one bin's 32 columns, reading them on a
 * diagonal so that again each lane reads its own bank, and adds the total to
 * the global histogram when it is not zero: a flat image costs one global
 * atomic per block. */
template <class Cols>
static __device__ __forceinline__ void count_word(Cols &cols, unsigned word, long long first, int lane,
                                                  unsigned live)
{
    for (int k = 0; k < 4; k++) {
        const unsigned v = (word >> (8 * k)) & 0xFFu;
        TRACE_READ(LAB_SP_GLOBAL, first + k, v);
        if (LAB_TRACING()) trace_contention(live, v, v * 32u + (unsigned)lane);
        const unsigned old = atomicAdd(&cols[v][lane], 1u);
        TRACE_ATOMIC(LAB_SP_SHARED, v * 32 + lane, 1, old);
        (void)old;
    }
    (void)first;
    (void)live;
}

template <class Cols>
static __device__ __forceinline__ void count_vec(Cols &cols, uint4 q, long long first, int lane,
                                                 unsigned live)
{
    count_word(cols, q.x, first, lane, live);
    count_word(cols, q.y, first + 4, lane, live);
    count_word(cols, q.z, first + 8, lane, live);
    count_word(cols, q.w, first + 12, lane, live);
}

static __global__ void __launch_bounds__(1024)
hist_fast_k(const unsigned char *pixels, long long n, unsigned *hist)
{
    SHARED2(unsigned, cols, HIST_BINS, 32);
    for (int k = threadIdx.x; k < HIST_BINS * 32; k += blockDim.x) cols[k / 32][k % 32] = 0;
    __syncthreads();
    const int lane = threadIdx.x % 32;
    const unsigned lanes = warp_lanes();
    const uint4 *vec = reinterpret_cast<const uint4 *>(pixels);
    const long long nv = n / 16; /* whole 16-byte vectors */
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long j0 = (long long)blockIdx.x * blockDim.x + (threadIdx.x - lane); j0 < nv; j0 += 2 * stride) {
        const long long j = j0 + lane, j2 = j + stride;
        /* both loads are issued before the first atomic */
        uint4 a = make_uint4(0, 0, 0, 0), b = make_uint4(0, 0, 0, 0);
        if (j < nv) a = vec[j];
        if (j2 < nv) b = vec[j2];
        unsigned live = LAB_TRACING() ? __ballot_sync(lanes, j < nv) : 0u;
        if (j < nv) count_vec(cols, a, j * 16, lane, live);
        if (LAB_TRACING()) live = __ballot_sync(lanes, j2 < nv);
        if (j2 < nv) count_vec(cols, b, j2 * 16, lane, live);
    }
    /* the last n % 16 pixels, one per thread of the first block */
    const long long t = nv * 16 + (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned live = LAB_TRACING() ? __ballot_sync(lanes, t < n) : 0u;
    if (t < n) {
        const unsigned v = pixels[t];
        TRACE_READ(LAB_SP_GLOBAL, t, v);
        if (LAB_TRACING()) trace_contention(live, v, v * 32u + (unsigned)lane);
        const unsigned old = atomicAdd(&cols[v][lane], 1u);
        TRACE_ATOMIC(LAB_SP_SHARED, v * 32 + lane, 1, old);
        (void)old;
    }
    __syncthreads();
    for (int bin = threadIdx.x; bin < HIST_BINS; bin += blockDim.x) {
        unsigned sum = 0;
        for (int c = 0; c < 32; c++) sum += cols[bin][(c + bin) % 32];
        if (sum > 0) {
            const unsigned old = atomicAdd(&hist[bin], sum);
            TRACE_ATOMIC(LAB_SP_GLOBAL, bin, sum, old);
            (void)old;
        }
    }
}

/* ------------------------------------------------------------ launchers */


typedef enum { HIST_GLOBAL, HIST_SHARED, HIST_FAST } hist_kind;

/* Blocks of the fast kernel that stay resident per SM (its persistent grid),
 * asked of the device layer: on the simulator what limits it is what the
 * kernel declares here, its 32 KiB table and a block's threads. */
static int resident_per_sm(lab_job *job, int block)
{
    occ_kernel k;
    memset(&k, 0, sizeof k);
    k.static_smem = (long)(HIST_BINS * 32 * sizeof(unsigned));
    k.max_threads = 1024;
    return lab_job_blocks_per_sm(job, LAB_KERNEL_ADDR(hist_fast_k), block, &k);
}

static int run(lab_job *job, hist_kind kind)
{
    const long long n = job->n;
    const int block = job->block;
    const hist_image *im = (const hist_image *)job->priv;
    /* pixels one block takes per turn of its loop */
    const long long per_block = kind == HIST_FAST ? 16LL * block : block;
    if (job->grid <= 0) {
        /* the lecture's grid, 8 blocks per SM; the fast variant's persistent
         * grid, as many as stay resident; never more than there is work for */
        long long per_sm = HIST_BLOCKS_PER_SM;
        if (kind == HIST_FAST) {
            int r = resident_per_sm(job, block);
            if (r < 0) return -1;
            per_sm = r;
        }
        long long g = per_sm * lab_job_sms(job), need = lab_ceil_div(n, per_block);
        job->grid = need < 1 ? 1 : (need < g ? need : g);
    }
    if (job->grid > 2147483647LL) {
        snprintf(job->err, sizeof job->err, L_("grid %lld is more than 2^31-1 blocks"), job->grid);
        return -1;
    }
    const unsigned grid = (unsigned)job->grid;
    if (job->trace) {
        job->trace->smem_elem_bytes = sizeof(unsigned);
        job->trace->width = im->width;
        job->trace->height = im->height;
    }
    unsigned char *d_pixels = NULL;
    unsigned *d_hist = NULL;
    TRY(lab_upload(job, &d_pixels, job->in, (size_t)n));
    TRY(lab_alloc(job, &d_hist, HIST_BINS));
    LAB_TIMED(job) {
        CK(cudaMemset(d_hist, 0, HIST_BINS * sizeof(unsigned)));
        switch (kind) {
        case HIST_GLOBAL: LAUNCH(hist_global_k, grid, block, 0, d_pixels, n, d_hist); break;
        case HIST_SHARED: LAUNCH(hist_shared_k, grid, block, 0, d_pixels, n, d_hist); break;
        case HIST_FAST: LAUNCH(hist_fast_k, grid, block, 0, d_pixels, n, d_hist); break;
        }
    }
    hist_out *o = (hist_out *)job->out;
    TRY(lab_download(job, o->bins, d_hist, HIST_BINS));
    return 0;
}

/* The histogram counts 8-bit pixels (u8) only. */
typedef lab_dtypes<unsigned char> hist_dtypes;

LAB_ENTRY(hist_global) { return lab_by_dtype(job, hist_dtypes(), [&](auto) { return run(job, HIST_GLOBAL); }); }
LAB_ENTRY(hist_shared) { return lab_by_dtype(job, hist_dtypes(), [&](auto) { return run(job, HIST_SHARED); }); }
LAB_ENTRY(hist_fast) { return lab_by_dtype(job, hist_dtypes(), [&](auto) { return run(job, HIST_FAST); }); }
