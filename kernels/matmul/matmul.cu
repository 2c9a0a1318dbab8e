/* matmul.cu - C = A B for n x n floats: one thread per element of C, first
 * straight from global memory, then through 32 x 32 tiles in shared memory.
 *
 * Each kernel's comment names the idea it shows. The same source runs on the
 * GPU and on gpulab's simulator. Every element of C a thread writes is
 * recorded with TRACE_WRITE(LAB_SP_GLOBAL, row * n + col, value); the tiled
 * kernel also records its loads into shared memory (sA at 0..1023, sB at
 * 1024..2047). Matrices are row-major: (row, col) is at row * n + col. */
#include <algorithm>
#include <cmath>
#include <memory>

#include "kern.h"
#include "matmul.h"
#include "matmul_time.h"

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

/* ------------------------------------------------------------ launchers */

enum matmul_kind { M_NAIVE, M_COALESCED, M_TILED };


static int run_matmul(lab_job *job, matmul_kind kind)
{
    const long long n = job->n;
    if (n > 46340) { /* int indices of the kernels: n * n < 2^31 per row start */
        snprintf(job->err, sizeof job->err, "n = %lld is past the kernels' limit of 46340", n);
        return -1;
    }
#if defined(GPULAB_SIM)
    {
        const double work = (double)n * n * n, allowed = (double)MATMUL_SIM_FACTOR * job->cfg->sim_limit;
        if (work > allowed) {
            snprintf(job->err, sizeof job->err,
                     "n = %lld is %.3g multiply-adds, and the simulator plays each of them on one "
                     "CPU thread: it takes up to %d x sim-limit = %.3g (n = %.0f); choose a smaller "
                     "n or raise `set sim-limit`",
                     n, work, MATMUL_SIM_FACTOR, allowed, floor(cbrt(allowed)));
            return -1;
        }
    }
#endif
    if (kind == M_TILED) {
        const int bx = job->block, by = job->block_y > 0 ? job->block_y : MATMUL_TILE;
        if (bx != MATMUL_TILE || by != MATMUL_TILE) {
            snprintf(job->err, sizeof job->err,
                     "matmul/gpu-tiled uses one thread per element of a 32 x 32 tile: its block "
                     "is 32x32, not %dx%d", bx, by);
            return -1;
        }
        job->block_y = by;
    }
    /* "auto" is the article's 32 x 32, one thread per element of C */
    char what[48];
    snprintf(what, sizeof what, "n = %lld", n);
    TRY(lab_shape_2d(job, MATMUL_TILE, n, n, 0, 0, what));
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
    return matmul_time(job, dA, dB, dC, [&]() -> int {
        switch (kind) {
        case M_NAIVE: LAUNCH(matmul_naive_k, grid, block, 0, dA, dB, dC, in); break;
        case M_COALESCED: LAUNCH(matmul_coalesced_k, grid, block, 0, dA, dB, dC, in); break;
        case M_TILED: LAUNCH(matmul_tiled_k, grid, block, 0, dA, dB, dC, in); break;
        }
        return 0;
    });
}

LAB_ENTRY(matmul_naive) { return run_matmul(job, M_NAIVE); }
LAB_ENTRY(matmul_coalesced) { return run_matmul(job, M_COALESCED); }
LAB_ENTRY(matmul_tiled) { return run_matmul(job, M_TILED); }
