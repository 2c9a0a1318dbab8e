/* matmul.cu - C = A B for n x n floats: one thread per element of C, first
 * straight from global memory, then through 32 x 32 tiles in shared memory.
 *
 * Each kernel's comment names the idea it shows. The same source runs on the
 * GPU and on gpulab's simulator. Every element of C a thread writes is
 * recorded with TRACE_WRITE(LAB_SP_GLOBAL, row * n + col, value); the tiled
 * kernel also records its loads into shared memory (sA at 0..1023, sB at
 * 1024..2047). Matrices are row-major: (row, col) is at row * n + col. */
#include "kernels/intl.h"
#include <algorithm>
#include <cmath>
#include <memory>

#include "kernels/kern.h"
#include "kernels/matmul/matmul.h"
#include "kernels/matmul/matmul_time.h"

/* The article's first GPU version: numba's cuda.grid(2) gives i from
 * threadIdx.x, and the article computes C[i, j], so neighbouring threads of a
 * warp own neighbouring ROWS. At every step k they read A[i][k] from 32
 * different rows, n floats apart: 32 memory transactions where one would do
 * (not coalesced), and they all write C down a column. Every element of A
 * and B is read n times from global memory. */
static __global__ void matmul_naive_k(const float *A, const float *B, float *C, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x; /* row */
    const int j = blockIdx.y * blockDim.y + threadIdx.y; /* column */
    if (i < n && j < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; k++) acc += A[(long long)i * n + k] * B[(long long)k * n + j];
        C[(long long)i * n + j] = acc;
        TRACE_WRITE(LAB_SP_GLOBAL, (long long)i * n + j, acc);
    }
}

/* The same loop with threadIdx.x on the COLUMN: a warp now reads one
 * element of A that all 32 threads share (a broadcast) and 32 neighbouring
 * elements of B in one transaction (coalesced), and writes 32 neighbours of
 * C. Only the mapping of threads to data changed. */
static __global__ void matmul_coalesced_k(const float *A, const float *B, float *C, int n)
{
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; k++) acc += A[(long long)row * n + k] * B[(long long)k * n + col];
        C[(long long)row * n + col] = acc;
        TRACE_WRITE(LAB_SP_GLOBAL, (long long)row * n + col, acc);
    }
}

/* Tiling (article, shared memory): the block loads a 32 x 32 tile of A and
 * one of B into shared memory - each thread one element of each, coalesced -
 * waits for all of them (__syncthreads), and then every thread reads 32
 * values of each tile from shared memory instead of global memory. Each
 * element loaded is used 32 times, so global traffic drops 32-fold. The
 * second barrier keeps the next tile from overwriting values still being
 * read. Past the edge of the matrix the tiles are filled with zeros, so n
 * need not be a multiple of 32 and every thread reaches every barrier. */
static __global__ void matmul_tiled_k(const float *A, const float *B, float *C, int n)
{
    SHARED2(float, sA, MATMUL_TILE, MATMUL_TILE);
    SHARED2(float, sB, MATMUL_TILE, MATMUL_TILE);
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * MATMUL_TILE + ty;
    const int col = blockIdx.x * MATMUL_TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n; t += MATMUL_TILE) {
        const int ak = t + tx, bk = t + ty;
        const float a = row < n && ak < n ? A[(long long)row * n + ak] : 0.0f;
        const float b = bk < n && col < n ? B[(long long)bk * n + col] : 0.0f;
        sA[ty][tx] = a;
        sB[ty][tx] = b;
        TRACE_WRITE(LAB_SP_SHARED, ty * MATMUL_TILE + tx, a);
        TRACE_WRITE(LAB_SP_SHARED, MATMUL_TILE * MATMUL_TILE + ty * MATMUL_TILE + tx, b);
        __syncthreads();
        /* sA[ty][k]: one value for the whole warp (broadcast); sB[k][tx]: 32
         * consecutive words in 32 banks - no bank conflict either way */
        for (int k = 0; k < MATMUL_TILE; k++) acc += sA[ty][k] * sB[k][tx];
        __syncthreads();
    }
    if (row < n && col < n) {
        C[(long long)row * n + col] = acc;
        TRACE_WRITE(LAB_SP_GLOBAL, (long long)row * n + col, acc);
    }
}

/* The article's matmul3, as it is written (numba, Listing 8), in CUDA C++.
 * numba's cuda.grid(2) puts threadIdx.x on i, the ROW of C, and the tiles
 * are indexed sA[tx, ty]: a warp (tx = 0..31, one ty) stores and reads
 * sA[tx][...], 32 words 32 floats apart, all in ONE bank: every access of
 * sA is a 32-way bank conflict, served one lane after another (sB[kk][ty]
 * is one word for the whole warp, a broadcast). Its global loads are not
 * coalesced either: lanes read A[i][...] and B[tx + ...][j] n floats apart.
 * tmp = 0.0 is a float64 in numba, so the sum runs in double.
 * Two hazards of the original are fenced off by the launcher, not fixed:
 * threads past the edge return BEFORE the barriers, and on the GPU a barrier
 * that some threads of the block never reach is undefined behaviour; and the
 * loads past the edge are not checked. Both happen only when n is not a
 * multiple of 32 (or the grid is not n / 32, since the loop counts gridDim.x
 * tiles), so the variant runs only at those sizes and with its own grid. */
static __global__ void matmul_article_k(const float *A, const float *B, float *C, int n)
{
    SHARED2(float, sA, MATMUL_TILE, MATMUL_TILE);
    SHARED2(float, sB, MATMUL_TILE, MATMUL_TILE);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int blocksPerGrid = gridDim.x;
    if (i >= n || j >= n) return; /* the article's early return (see above) */
    double tmp = 0.0;
    for (int k = 0; k < blocksPerGrid; k++) {
        sA[tx][ty] = A[(long long)i * n + ty + k * MATMUL_TILE];
        sB[tx][ty] = B[(long long)(tx + k * MATMUL_TILE) * n + j];
        TRACE_WRITE(LAB_SP_SHARED, tx * MATMUL_TILE + ty, sA[tx][ty]);
        TRACE_WRITE(LAB_SP_SHARED, MATMUL_TILE * MATMUL_TILE + tx * MATMUL_TILE + ty, sB[tx][ty]);
        __syncthreads();
        for (int kk = 0; kk < MATMUL_TILE; kk++) tmp += sA[tx][kk] * sB[kk][ty];
        __syncthreads();
    }
    C[(long long)i * n + j] = (float)tmp;
    TRACE_WRITE(LAB_SP_GLOBAL, (long long)i * n + j, (float)tmp);
}

/* ---------------------------------------------- the SGEMM progression
 *
 * gpu-tiled does two shared-memory loads for every multiply-add, and shared
 * memory cannot feed the FP32 units at that rate. Each kernel below makes a
 * thread compute more of C from values it already holds in registers, so
 * fewer loads (shared and global) serve the same multiply-adds. The block
 * computes a BM x BN tile of C, walking K in steps of BK: it loads a BM x BK
 * tile of A and a BK x BN tile of B into shared memory, waits, multiplies,
 * waits. Past the edge of the matrix the tiles are filled with zeros and the
 * stores are skipped, so any n works; with n a multiple of 4 the global
 * loads and stores move 16 bytes (a float4) at a time where the kernel says
 * so. Register arrays are indexed only with constants (every loop over them
 * is unrolled), or they would move to local memory. */

/* A[row][col] of an n x n matrix, 0 past its edge. */
static __device__ __forceinline__ float at_or_zero(const float *M, int n, int row, int col)
{
    return row < n && col < n ? M[(long long)row * n + col] : 0.0f;
}

/* Four floats M[row][col .. col+3] as one 16-byte load (VEC: n % 4 == 0,
 * col % 4 == 0, so the four lie in the matrix together or not at all), or
 * four checked loads. */
template <bool VEC>
static __device__ __forceinline__ float4 load4(const float *M, int n, int row, int col)
{
    if (VEC) {
        if (row < n && col < n) return *reinterpret_cast<const float4 *>(M + (long long)row * n + col);
        return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
    return make_float4(at_or_zero(M, n, row, col), at_or_zero(M, n, row, col + 1),
                       at_or_zero(M, n, row, col + 2), at_or_zero(M, n, row, col + 3));
}

/* Four floats of a row of C: one 16-byte store when VEC, else those inside. */
template <bool VEC>
static __device__ __forceinline__ void store4(float *C, int n, int row, int col, float4 v)
{
    if (row >= n) return;
    float *p = C + (long long)row * n + col;
    if (VEC) {
        if (col < n) *reinterpret_cast<float4 *>(p) = v;
    } else {
        if (col < n) p[0] = v.x;
        if (col + 1 < n) p[1] = v.y;
        if (col + 2 < n) p[2] = v.z;
        if (col + 3 < n) p[3] = v.w;
    }
    if (col < n) TRACE_WRITE(LAB_SP_GLOBAL, (long long)row * n + col, v.x);
    if (col + 1 < n) TRACE_WRITE(LAB_SP_GLOBAL, (long long)row * n + col + 1, v.y);
    if (col + 2 < n) TRACE_WRITE(LAB_SP_GLOBAL, (long long)row * n + col + 2, v.z);
    if (col + 3 < n) TRACE_WRITE(LAB_SP_GLOBAL, (long long)row * n + col + 3, v.w);
}

/* A shared array of floats that 16-byte vector reads may use: the
 * simulator places every shared array on a 16-byte boundary already. */
#if defined(GPULAB_SIM)
#  define SHARED_ALIGNED16(T, name, N) SHARED(T, name, N)
#else
#  define SHARED_ALIGNED16(T, name, N) __shared__ __align__(16) T name[N]
#endif

/* A 16-byte read of shared memory (LDS.128): p must be 16-byte aligned. */
static __device__ __forceinline__ float4 lds4(const float *p)
{
    return *reinterpret_cast<const float4 *>(p);
}

/* 1D register blocking (gpu-1d): 64 x 64 tiles of C, BK = 8, 512 threads,
 * each computing TM = 8 elements of one column of C. For every k a thread
 * reads one value of B from shared memory, keeps it in a register and uses
 * it for its 8 rows: 9 shared loads for 8 multiply-adds instead of 16. */
#define M1_BM 64
#define M1_BN 64
#define M1_BK 8
#define M1_TM 8
static __global__ void __launch_bounds__(MATMUL_1D_THREADS)
matmul_1d_k(const float *A, const float *B, float *C, int n)
{
    SHARED(float, As, M1_BM * M1_BK);
    SHARED(float, Bs, M1_BK * M1_BN);
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * M1_BM, col0 = blockIdx.x * M1_BN;
    const int tcol = tid % M1_BN, trow = tid / M1_BN; /* trow: 0 .. 7, 8 rows each */
    const int ar = tid / M1_BK, ac = tid % M1_BK;     /* one element of A's tile */
    const int br = tid / M1_BN, bc = tid % M1_BN;     /* one element of B's tile */
    float acc[M1_TM] = {0.0f};
    for (int k0 = 0; k0 < n; k0 += M1_BK) {
        As[ar * M1_BK + ac] = at_or_zero(A, n, row0 + ar, k0 + ac);
        Bs[br * M1_BN + bc] = at_or_zero(B, n, k0 + br, col0 + bc);
        TRACE_WRITE(LAB_SP_SHARED, ar * M1_BK + ac, As[ar * M1_BK + ac]);
        TRACE_WRITE(LAB_SP_SHARED, M1_BM * M1_BK + br * M1_BN + bc, Bs[br * M1_BN + bc]);
        __syncthreads();
        for (int k = 0; k < M1_BK; k++) {
            const float b = Bs[k * M1_BN + tcol];
#pragma unroll
            for (int r = 0; r < M1_TM; r++) acc[r] += As[(trow * M1_TM + r) * M1_BK + k] * b;
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < M1_TM; r++) {
        const int row = row0 + trow * M1_TM + r, col = col0 + tcol;
        if (row < n && col < n) {
            C[(long long)row * n + col] = acc[r];
            TRACE_WRITE(LAB_SP_GLOBAL, (long long)row * n + col, acc[r]);
        }
    }
}

/* 2D register blocking (gpu-2d): 128 x 128 tiles of C, BK = 8, 256
 * threads, each computing an 8 x 8 patch of C. For every k a thread loads 8
 * values of A's column and 8 of B's row into registers and does their 64
 * products (an outer product): 16 shared loads for 64 multiply-adds. Each
 * value of A and B loaded from global memory now serves 128 multiply-adds. */
#define M2_BM 128
#define M2_BN 128
#define M2_BK 8
#define M2_TM 8
#define M2_TN 8
static __global__ void __launch_bounds__(MATMUL_2D_THREADS)
matmul_2d_k(const float *A, const float *B, float *C, int n)
{
    SHARED(float, As, M2_BM * M2_BK);
    SHARED(float, Bs, M2_BK * M2_BN);
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * M2_BM, col0 = blockIdx.x * M2_BN;
    const int tcol = tid % (M2_BN / M2_TN), trow = tid / (M2_BN / M2_TN); /* 16 x 16 threads */
    float acc[M2_TM][M2_TN] = {{0.0f}};
    float ra[M2_TM], rb[M2_TN];
    for (int k0 = 0; k0 < n; k0 += M2_BK) {
        /* 1024 elements of each tile, 4 per thread; consecutive threads on
         * consecutive elements of a row */
        for (int e = tid; e < M2_BM * M2_BK; e += MATMUL_2D_THREADS) {
            const int r = e / M2_BK, c = e % M2_BK;
            As[e] = at_or_zero(A, n, row0 + r, k0 + c);
            TRACE_WRITE(LAB_SP_SHARED, e, As[e]);
        }
        for (int e = tid; e < M2_BK * M2_BN; e += MATMUL_2D_THREADS) {
            const int r = e / M2_BN, c = e % M2_BN;
            Bs[e] = at_or_zero(B, n, k0 + r, col0 + c);
            TRACE_WRITE(LAB_SP_SHARED, M2_BM * M2_BK + e, Bs[e]);
        }
        __syncthreads();
        for (int k = 0; k < M2_BK; k++) {
#pragma unroll
            for (int i = 0; i < M2_TM; i++) ra[i] = As[(trow * M2_TM + i) * M2_BK + k];
#pragma unroll
            for (int j = 0; j < M2_TN; j++) rb[j] = Bs[k * M2_BN + tcol * M2_TN + j];
#pragma unroll
            for (int i = 0; i < M2_TM; i++)
#pragma unroll
                for (int j = 0; j < M2_TN; j++) acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < M2_TM; i++)
#pragma unroll
        for (int j = 0; j < M2_TN; j++) {
            const int row = row0 + trow * M2_TM + i, col = col0 + tcol * M2_TN + j;
            if (row < n && col < n) {
                C[(long long)row * n + col] = acc[i][j];
                TRACE_WRITE(LAB_SP_GLOBAL, (long long)row * n + col, acc[i][j]);
            }
        }
}

/* Vectorised loads (gpu-vec): gpu-2d's tiles and 8 x 8 patches, with
 * 16-byte accesses everywhere they fit. A's tile is stored TRANSPOSED in
 * shared memory (As[k][m]), so the 8 values of A a thread needs for one k
 * lie side by side and come in two 16-byte loads, as B's 8 do: 4 shared
 * load instructions per k instead of 16. From global memory each thread
 * loads float4s of A's rows and B's rows (when n % 4 == 0), and it stores C
 * in float4s. */
template <bool VEC>
static __global__ void __launch_bounds__(MATMUL_2D_THREADS)
matmul_vec_k(const float *A, const float *B, float *C, int n)
{
    SHARED_ALIGNED16(float, As, M2_BK * M2_BM); /* transposed: As[k * BM + m] */
    SHARED_ALIGNED16(float, Bs, M2_BK * M2_BN);
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * M2_BM, col0 = blockIdx.x * M2_BN;
    const int tcol = tid % (M2_BN / M2_TN), trow = tid / (M2_BN / M2_TN);
    /* A's tile: 128 rows of two float4s; B's: 8 rows of 32 float4s */
    const int ar = tid / (M2_BK / 4), ac = 4 * (tid % (M2_BK / 4));
    const int br = tid / (M2_BN / 4), bc = 4 * (tid % (M2_BN / 4));
    float acc[M2_TM][M2_TN] = {{0.0f}};
    float ra[M2_TM], rb[M2_TN];
    for (int k0 = 0; k0 < n; k0 += M2_BK) {
        const float4 a = load4<VEC>(A, n, row0 + ar, k0 + ac);
        As[(ac + 0) * M2_BM + ar] = a.x;
        As[(ac + 1) * M2_BM + ar] = a.y;
        As[(ac + 2) * M2_BM + ar] = a.z;
        As[(ac + 3) * M2_BM + ar] = a.w;
        const float4 b = load4<VEC>(B, n, k0 + br, col0 + bc);
        Bs[br * M2_BN + bc + 0] = b.x;
        Bs[br * M2_BN + bc + 1] = b.y;
        Bs[br * M2_BN + bc + 2] = b.z;
        Bs[br * M2_BN + bc + 3] = b.w;
        TRACE_WRITE(LAB_SP_SHARED, ac * M2_BM + ar, a.x);
        TRACE_WRITE(LAB_SP_SHARED, M2_BK * M2_BM + br * M2_BN + bc, b.x);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < M2_BK; k++) {
#pragma unroll
            for (int i = 0; i < M2_TM; i += 4) {
                const float4 v = lds4(&As[k * M2_BM + trow * M2_TM + i]);
                ra[i] = v.x; ra[i + 1] = v.y; ra[i + 2] = v.z; ra[i + 3] = v.w;
            }
#pragma unroll
            for (int j = 0; j < M2_TN; j += 4) {
                const float4 v = lds4(&Bs[k * M2_BN + tcol * M2_TN + j]);
                rb[j] = v.x; rb[j + 1] = v.y; rb[j + 2] = v.z; rb[j + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < M2_TM; i++)
#pragma unroll
                for (int j = 0; j < M2_TN; j++) acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < M2_TM; i++)
#pragma unroll
        for (int j = 0; j < M2_TN; j += 4)
            store4<VEC>(C, n, row0 + trow * M2_TM + i, col0 + tcol * M2_TN + j,
                        make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
}

/* Warp tiling (gpu-warp): a level between the block and the thread. The
 * block's 128 x 128 tile of C (BK = 16, 128 threads) is split into four
 * 64 x 64 warp tiles; a warp walks its tile in 4 sub-tiles of 64 x 16, and
 * in each sub-tile its 32 lanes hold 8 x 4 patches side by side. A lane
 * reads A's 8 values once and uses them for all 4 sub-tiles (8 x 16 results
 * per lane, 128 accumulators), and the lanes of a warp read neighbouring
 * 16-byte words of B: within one warp the shared loads are conflict-free or
 * broadcasts, whatever the other warps do. Fewer threads, more work each:
 * more independent multiply-adds between the loads for the scheduler. */
#define MW_BM 128
#define MW_BN 128
#define MW_BK 16
#define MW_WM 64
#define MW_WN 64
#define MW_WNITER 4
#define MW_TM 8
#define MW_TN 4
#define MW_WSUBN (MW_WN / MW_WNITER)                   /* 16 columns a sub-tile */
template <bool VEC>
static __global__ void __launch_bounds__(MATMUL_WARP_THREADS)
matmul_warp_k(const float *A, const float *B, float *C, int n)
{
    SHARED_ALIGNED16(float, As, MW_BK * MW_BM); /* transposed: As[k * BM + m] */
    SHARED_ALIGNED16(float, Bs, MW_BK * MW_BN);
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * MW_BM, col0 = blockIdx.x * MW_BN;
    const int warp = tid / 32, lane = tid % 32;
    const int wrow = warp / (MW_BN / MW_WN), wcol = warp % (MW_BN / MW_WN);
    const int lrow = lane / (MW_WSUBN / MW_TN), lcol = lane % (MW_WSUBN / MW_TN); /* 8 x 4 lanes */
    float acc[MW_TM][MW_WNITER * MW_TN] = {{0.0f}};
    float ra[MW_TM], rb[MW_WNITER * MW_TN];
    for (int k0 = 0; k0 < n; k0 += MW_BK) {
        /* A's tile: 128 rows of 4 float4s, 4 per thread; B's: 16 rows of
         * 32 float4s, 4 per thread */
#pragma unroll
        for (int e = 0; e < 4; e++) {
            const int q = tid + e * MATMUL_WARP_THREADS;
            const int ar = q / (MW_BK / 4), ac = 4 * (q % (MW_BK / 4));
            const float4 a = load4<VEC>(A, n, row0 + ar, k0 + ac);
            As[(ac + 0) * MW_BM + ar] = a.x;
            As[(ac + 1) * MW_BM + ar] = a.y;
            As[(ac + 2) * MW_BM + ar] = a.z;
            As[(ac + 3) * MW_BM + ar] = a.w;
            TRACE_WRITE(LAB_SP_SHARED, ac * MW_BM + ar, a.x);
            const int br = q / (MW_BN / 4), bc = 4 * (q % (MW_BN / 4));
            const float4 b = load4<VEC>(B, n, k0 + br, col0 + bc);
            Bs[br * MW_BN + bc + 0] = b.x;
            Bs[br * MW_BN + bc + 1] = b.y;
            Bs[br * MW_BN + bc + 2] = b.z;
            Bs[br * MW_BN + bc + 3] = b.w;
            TRACE_WRITE(LAB_SP_SHARED, MW_BK * MW_BM + br * MW_BN + bc, b.x);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < MW_BK; k++) {
            const int am = k * MW_BM + wrow * MW_WM + lrow * MW_TM;
            const float4 a0 = lds4(&As[am]), a1 = lds4(&As[am + 4]);
            ra[0] = a0.x; ra[1] = a0.y; ra[2] = a0.z; ra[3] = a0.w;
            ra[4] = a1.x; ra[5] = a1.y; ra[6] = a1.z; ra[7] = a1.w;
#pragma unroll
            for (int s = 0; s < MW_WNITER; s++) {
                const float4 b = lds4(&Bs[k * MW_BN + wcol * MW_WN + s * MW_WSUBN + lcol * MW_TN]);
                rb[s * MW_TN + 0] = b.x; rb[s * MW_TN + 1] = b.y;
                rb[s * MW_TN + 2] = b.z; rb[s * MW_TN + 3] = b.w;
            }
#pragma unroll
            for (int i = 0; i < MW_TM; i++)
#pragma unroll
                for (int j = 0; j < MW_WNITER * MW_TN; j++) acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < MW_TM; i++)
#pragma unroll
        for (int s = 0; s < MW_WNITER; s++)
            store4<VEC>(C, n, row0 + wrow * MW_WM + lrow * MW_TM + i,
                        col0 + wcol * MW_WN + s * MW_WSUBN + lcol * MW_TN,
                        make_float4(acc[i][s * MW_TN], acc[i][s * MW_TN + 1], acc[i][s * MW_TN + 2],
                                    acc[i][s * MW_TN + 3]));
}

/* ------------------------------------------------------------ launchers */

enum matmul_kind { M_NAIVE, M_COALESCED, M_TILED, M_ARTICLE, M_1D, M_2D, M_VEC, M_WARP };

/* The register-blocked kernels: threads per block and the tile of C a block
 * computes. */
struct matmul_shape {
    int threads, bm, bn;
};
static matmul_shape blocked_shape(matmul_kind kind)
{
    switch (kind) {
    case M_1D: return {MATMUL_1D_THREADS, M1_BM, M1_BN};
    case M_2D:
    case M_VEC: return {MATMUL_2D_THREADS, M2_BM, M2_BN};
    case M_WARP: return {MATMUL_WARP_THREADS, MW_BM, MW_BN};
    default: return {0, 0, 0};
    }
}

/* The article's kernel is safe only where every thread reaches every
 * barrier and every load lies inside the matrices (see matmul_article_k). */
static int article_ok(lab_job *job, long long n)
{
    if (n % MATMUL_TILE != 0) {
        const long long lo = n / MATMUL_TILE * MATMUL_TILE;
        snprintf(job->err, sizeof job->err,
                 L_("matmul/gpu-article is the article's kernel as written: threads past the edge "
                 "return before its barriers (undefined behaviour on a GPU) and its loads past "
                 "the edge are unchecked, so it runs only when n is a multiple of 32 (n = %lld "
                 "is not; try %lld or %lld; gpu-tiled handles any n)"),
                 n, lo > 0 ? lo : MATMUL_TILE, lo + MATMUL_TILE);
        return -1;
    }
    const long long tiles = n / MATMUL_TILE;
    if ((job->grid > 0 && job->grid != tiles) || (job->grid_y > 0 && job->grid_y != tiles)) {
        snprintf(job->err, sizeof job->err,
                 L_("matmul/gpu-article loops over gridDim.x tiles, so its grid must be n / 32 = "
                 "%lld in both directions (`set grid auto`)"), tiles);
        return -1;
    }
    return 0;
}

static int run_matmul(lab_job *job, matmul_kind kind)
{
    const long long n = job->n;
    if (n > 46340) { /* int indices of the kernels: n * n < 2^31 per row start */
        snprintf(job->err, sizeof job->err, L_("n = %lld is past the kernels' limit of 46340"), n);
        return -1;
    }
#if defined(GPULAB_SIM)
    {
        const double work = (double)n * n * n, allowed = (double)MATMUL_SIM_FACTOR * job->cfg->sim_limit;
        if (work > allowed) {
            snprintf(job->err, sizeof job->err,
                     L_("n = %lld is %.3g multiply-adds, and the simulator plays each of them on one "
                     "CPU thread: it takes up to %d x sim-limit = %.3g (n = %.0f); choose a smaller "
                     "n or raise `set sim-limit`"),
                     n, work, MATMUL_SIM_FACTOR, allowed, floor(cbrt(allowed)));
            return -1;
        }
    }
#endif
    if (kind == M_TILED || kind == M_ARTICLE) {
        const int bx = job->block, by = job->block_y > 0 ? job->block_y : MATMUL_TILE;
        if (bx != MATMUL_TILE || by != MATMUL_TILE) {
            snprintf(job->err, sizeof job->err,
                     L_("matmul/%s uses one thread per element of a 32 x 32 tile: its block "
                     "is 32x32, not %dx%d"), job->variant ? job->variant->name : "gpu-tiled", bx, by);
            return -1;
        }
        job->block_y = by;
    }
    if (kind == M_ARTICLE) TRY(article_ok(job, n));
    char what[48];
    snprintf(what, sizeof what, "n = %lld", n);
    const matmul_shape shape = blocked_shape(kind);
    if (shape.threads > 0) {
        /* one block of the variant's threads per BM x BN tile of C */
        job->block = shape.threads;
        job->block_y = 1;
        TRY(lab_shape_2d(job, 1, n, n, shape.bn, shape.bm, what));
    } else {
        /* "auto" is the article's 32 x 32, one thread per element of C */
        TRY(lab_shape_2d(job, MATMUL_TILE, n, n, 0, 0, what));
    }
    if (job->trace) {
        job->trace->width = job->trace->height = (int)n;
        job->trace->smem_elem_bytes = (int)sizeof(float);
    }

    const size_t nn = (size_t)n * (size_t)n;
    const float *A = (const float *)job->in, *B = A + nn;
    float *dA = NULL, *dB = NULL, *dC = NULL;
    TRY(lab_upload(job, &dA, A, nn));
    TRY(lab_upload(job, &dB, B, nn));
    TRY(lab_alloc(job, &dC, nn));
    /* all bits set (NaN): an element no thread wrote fails the check */
    CK(cudaMemset(dC, 0xFF, nn * sizeof(float)));
    const dim3 grid((unsigned)job->grid, (unsigned)job->grid_y), block(job->block, job->block_y);
    const int in = (int)n;
    const bool vec = n % 4 == 0; /* rows start on 16-byte boundaries */
    return matmul_time(job, dA, dB, dC, [&]() -> int {
        switch (kind) {
        case M_NAIVE: LAUNCH(matmul_naive_k, grid, block, 0, dA, dB, dC, in); break;
        case M_COALESCED: LAUNCH(matmul_coalesced_k, grid, block, 0, dA, dB, dC, in); break;
        case M_TILED: LAUNCH(matmul_tiled_k, grid, block, 0, dA, dB, dC, in); break;
        case M_ARTICLE: LAUNCH(matmul_article_k, grid, block, 0, dA, dB, dC, in); break;
        case M_1D: LAUNCH(matmul_1d_k, grid, block, 0, dA, dB, dC, in); break;
        case M_2D: LAUNCH(matmul_2d_k, grid, block, 0, dA, dB, dC, in); break;
        case M_VEC:
            if (vec) LAUNCH(matmul_vec_k<true>, grid, block, 0, dA, dB, dC, in);
            else LAUNCH(matmul_vec_k<false>, grid, block, 0, dA, dB, dC, in);
            break;
        case M_WARP:
            if (vec) LAUNCH(matmul_warp_k<true>, grid, block, 0, dA, dB, dC, in);
            else LAUNCH(matmul_warp_k<false>, grid, block, 0, dA, dB, dC, in);
            break;
        }
        return 0;
    });
}

LAB_ENTRY(matmul_naive) { return run_matmul(job, M_NAIVE); }
LAB_ENTRY(matmul_coalesced) { return run_matmul(job, M_COALESCED); }
LAB_ENTRY(matmul_tiled) { return run_matmul(job, M_TILED); }
LAB_ENTRY(matmul_article) { return run_matmul(job, M_ARTICLE); }
LAB_ENTRY(matmul_1d) { return run_matmul(job, M_1D); }
LAB_ENTRY(matmul_2d) { return run_matmul(job, M_2D); }
LAB_ENTRY(matmul_vec) { return run_matmul(job, M_VEC); }
LAB_ENTRY(matmul_warp) { return run_matmul(job, M_WARP); }
