/* transpose.cu - transposing an n x n matrix: 2D grids, coalescing, and
 * shared-memory tiles with and without the padding column; and a plain copy
 * of the matrix, the ceiling every transpose is measured against.
 *
 * Each kernel's comment names the idea it shows. The same source runs on the
 * GPU and on gpulab's simulator. Every element a thread writes is recorded
 * with TRACE_WRITE(LAB_SP_GLOBAL, row * n + col, value), which is what the
 * coverage map colours by block; the recording vanishes from the timed build.
 *
 * The matrix is row-major: element (row, col) is at row * n + col. */
#include "kernels/intl.h"
#include "kernels/kern.h"
#include "kernels/transpose/transpose.h"

/* In place, below the diagonal (article): numba's cuda.grid(2) gives x from
 * threadIdx.x and y from threadIdx.y, and the article indexes arr[x, y], so
 * x is the ROW. A thread with y < x swaps (x, y) with its mirror (y, x); the
 * others, on and above the diagonal, have nothing to do - half of every
 * square grid idles. Neighbouring threads of a warp hold neighbouring rows,
 * so the read of a[x][y] touches one row per lane of a block row, n elements
 * apart (with the default 16 x 16 block a warp's 32 lanes fall in 16 rows:
 * not coalesced), while its mirror a[y][x] is read along rows (coalesced). */
template <class T>
static __global__ void transpose_naive2d_k(T *a, long long n)
{
    const long long x = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long y = (long long)blockIdx.y * blockDim.y + threadIdx.y;
    if (x < n && y < n && y < x) {
        const T below = a[x * n + y], above = a[y * n + x];
        TRACE_READ(LAB_SP_GLOBAL, x * n + y, below);
        TRACE_READ(LAB_SP_GLOBAL, y * n + x, above);
        a[x * n + y] = above;
        a[y * n + x] = below;
        TRACE_WRITE(LAB_SP_GLOBAL, x * n + y, above);
        TRACE_WRITE(LAB_SP_GLOBAL, y * n + x, below);
    }
}

/* naive: out of place, one element per thread. threadIdx.x walks along a
 * row, so a warp reads 32 neighbours together (coalesced: 4 sectors of
 * floats, 8 of doubles) - and writes them down a column of the output, 32
 * elements n apart, a sector each. The write side decides the speed. */
template <class T>
static __global__ void transpose_naive_k(const T *in, T *out, long long n)
{
    const long long col = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long row = (long long)blockIdx.y * blockDim.y + threadIdx.y;
    if (row < n && col < n) {
        const T v = in[row * n + col];
        TRACE_READ(LAB_SP_GLOBAL, row * n + col, v);
        out[col * n + row] = v;
        TRACE_WRITE(LAB_SP_GLOBAL, col * n + row, v);
    }
}

/* copy: no transpose at all, the ceiling. The matrix is copied as it lies,
 * one 16-byte vector per thread (a uint4: 4 floats or ints, 2 doubles),
 * neighbouring threads on neighbouring vectors. It moves the same bytes as
 * a transpose, read once and written once, with every access coalesced: no
 * transpose can be faster. The elements that do not fill a last vector are
 * copied one by one by the first threads. */
template <class T>
static __global__ void transpose_copy_k(const T *in, T *out, long long count)
{
    constexpr int PER = (int)(sizeof(uint4) / sizeof(T));
    const long long vecs = count / PER;
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < vecs) {
        reinterpret_cast<uint4 *>(out)[i] = reinterpret_cast<const uint4 *>(in)[i];
        for (int e = 0; e < PER; e++) {
            TRACE_READ(LAB_SP_GLOBAL, i * PER + e, in[i * PER + e]);
            TRACE_WRITE(LAB_SP_GLOBAL, i * PER + e, in[i * PER + e]);
        }
    }
    const long long t = vecs * PER + i;
    if (i < PER && t < count) {
        out[t] = in[t];
        TRACE_READ(LAB_SP_GLOBAL, t, in[t]);
        TRACE_WRITE(LAB_SP_GLOBAL, t, in[t]);
    }
}

/* Through shared memory: a block reads 32 x 32 tiles along their rows
 * (coalesced), waits, and writes the mirrored tiles along THEIR rows
 * (coalesced again), reading each tile by columns. Shared memory has 32
 * banks of 4 bytes. With 4-byte elements a column of a 32-wide tile lies in
 * one bank, so the 32 lanes of a warp reading it queue up (a 32-way bank
 * conflict). An 8-byte element takes two banks and a warp's 8-byte access
 * goes in two phases of 16 lanes: a column of doubles lies in one pair of
 * banks, and each phase queues 16 deep (a 16-way conflict, 32 passes where
 * 2 would do). One padding column (33 wide, PAD = 1) shifts each row by one
 * element, and a column spreads over all the banks: no conflict for either
 * size. PAD = 0 keeps the conflict, to be measured.
 *
 * A block moves TRANSPOSE_TILES tiles, one above the other (64 rows of 32
 * columns in, 32 rows of 64 out): each thread has twice the loads in flight
 * before its first store, which a 4-byte element needs to keep the memory
 * busy, and each row of the output gets 64 neighbours (256 bytes of float)
 * at once. With the default 32 x 8 block the rows per thread are known when
 * compiling (BY = 8): both loops have constant trip counts, all eight loads
 * are issued before the first store, and every address is the thread's base
 * pointer plus a constant times n. Other heights (BY = 0) loop at run time,
 * four loads at a time. Offsets inside a block are 32-bit (r * n with r < 64:
 * any matrix that fits in memory has n far below 2^25); only the block's
 * corner is computed in 64 bits. */
template <class T, int PAD, int BY>
static __global__ void transpose_tiled_k(const T *in, T *out, long long n)
{
    constexpr int COLS = TRANSPOSE_TILE + PAD;
    constexpr int ROWS = TRANSPOSE_TILE * TRANSPOSE_TILES;
    constexpr int FLIGHT = BY > 0 ? ROWS / (BY > 0 ? BY : 1) : 4;
    SHARED2(T, tile, ROWS, COLS);
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int by = BY > 0 ? BY : (int)blockDim.y;
    const int ni = (int)n;
    /* read: tile row r is input row row0 + r, column col0 + tx */
    const long long col0 = (long long)blockIdx.x * TRANSPOSE_TILE;
    const long long row0 = (long long)blockIdx.y * ROWS;
    const int rows = n - row0 < ROWS ? (int)(n - row0) : ROWS;  /* input rows of this block */
    const int cols = n - col0 < TRANSPOSE_TILE ? (int)(n - col0) : TRANSPOSE_TILE;
    const T *src = in + row0 * n + col0 + tx;
    /* one pass of FLIGHT loads when BY is known, as many as it takes otherwise */
    for (int r0 = ty; BY > 0 ? r0 == ty : r0 < ROWS; r0 += FLIGHT * by) {
        T v[FLIGHT];
#pragma unroll
        for (int i = 0; i < FLIGHT; i++) {
            const int r = r0 + i * by;
            if (r < rows && tx < cols) v[i] = src[r * ni];
        }
#pragma unroll
        for (int i = 0; i < FLIGHT; i++) {
            const int r = r0 + i * by;
            if (r < rows && tx < cols) {
                tile[r][tx] = v[i];
                TRACE_READ(LAB_SP_GLOBAL, (row0 + r) * n + col0 + tx, v[i]);
                TRACE_WRITE(LAB_SP_SHARED, r * COLS + tx, v[i]);
            }
        }
    }
    __syncthreads();
    /* write: output row col0 + r is input column col0 + r; its 64 elements,
     * output columns row0 + q * 32 + tx, come from column r of the tiles */
    T *dst = out + col0 * n + row0 + tx;
#pragma unroll
    for (int q = 0; q < TRANSPOSE_TILES; q++) {
        const int c = q * TRANSPOSE_TILE + tx;  /* output column - row0 */
#pragma unroll
        for (int i = 0, r = ty; BY > 0 ? i < TRANSPOSE_TILE / (BY > 0 ? BY : 1) : r < TRANSPOSE_TILE; i++, r += by) {
            if (r < cols && c < rows) {
                const T v = tile[c][r];
                TRACE_READ(LAB_SP_SHARED, c * COLS + r, v);
                dst[r * ni + q * TRANSPOSE_TILE] = v;
                TRACE_WRITE(LAB_SP_GLOBAL, (col0 + r) * n + row0 + c, v);
            }
        }
    }
}

/* ------------------------------------------------------------ launchers */

enum transpose_kind { T_NAIVE2D, T_NAIVE, T_COPY, T_TILED, T_TILED_NOPAD };


/* The trace shows the whole matrix: its shape and all n * n input values. */
template <class T>
static int trace_matrix(lab_job *job)
{
    lab_trace *t = job->trace;
    const long long n = job->n;
    t->width = t->height = (int)n;
    t->smem_elem_bytes = (int)sizeof(T);
    double *v = (double *)malloc(sizeof(double) * (size_t)(n * n));
    if (!v) {
        snprintf(job->err, sizeof job->err, "%s", L_("out of host memory for the trace"));
        return -1;
    }
    const T *in = (const T *)job->in;
    for (long long i = 0; i < n * n; i++) v[i] = (double)in[i];
    free(t->input);
    t->input = v;
    return 0;
}

template <class T>
static int run_transpose(lab_job *job, transpose_kind kind)
{
    const long long n = job->n;
    const long long nn = n * n;
    const int tiled = kind == T_TILED || kind == T_TILED_NOPAD;
    const int default_by = kind == T_NAIVE2D ? TRANSPOSE_NAIVE2D_BY
                         : kind == T_NAIVE   ? TRANSPOSE_NAIVE_BY
                                             : TRANSPOSE_TILED_BY;
    /* block: "auto" is the variant's shape */
    const int bx = job->block;
    const int by = lab_block_y(job, default_by);
    if (tiled && (bx != TRANSPOSE_TILE || TRANSPOSE_TILE % by != 0)) {
        snprintf(job->err, sizeof job->err,
                 L_("transpose/%s moves 32 x 32 tiles: its block is 32 wide and 1, 2, 4, 8, 16 or 32 "
                 "high (each thread copies 32 / height rows of the tile), not %dx%d"),
                 job->variant->name, bx, by);
        return -1;
    }
    char what[48];
    snprintf(what, sizeof what, "n = %lld", n);
    if (kind == T_COPY) {
        /* one row of blocks over the matrix as one array of 16-byte vectors */
        const long long per = (long long)(16 / sizeof(T));
        const long long vecs = nn / per > 0 ? nn / per : 1;
        job->block_y = 1;
        if (job->grid <= 0) job->grid = lab_ceil_div(vecs, job->block);
        job->grid_y = 1;
    } else if (tiled) {
        TRY(lab_shape_2d(job, default_by, n, n, TRANSPOSE_TILE, TRANSPOSE_TILE * TRANSPOSE_TILES, what));
    } else {
        TRY(lab_shape_2d(job, default_by, n, n, 0, 0, what));
    }
    /* bytes one run reads plus writes: naive2d leaves the diagonal alone */
    job->bytes = 2.0 * (double)(kind == T_NAIVE2D ? nn - n : nn) * sizeof(T);
    if (job->trace) TRY(trace_matrix<T>(job));

    const dim3 grid((unsigned)job->grid, (unsigned)job->grid_y), block(job->block, job->block_y);
    T *d_a = NULL, *d_out = NULL;
    TRY(lab_upload(job, &d_a, job->in, nn));
    if (kind != T_NAIVE2D) {
        TRY(lab_alloc(job, &d_out, nn));
        /* all bits set: an element no thread wrote stands out */
        CK(cudaMemset(d_out, 0xFF, nn * sizeof(T)));
    }
    long long runs = 0;
    LAB_TIMED(job) {
        switch (kind) {
        case T_NAIVE2D: LAUNCH(transpose_naive2d_k<T>, grid, block, 0, d_a, n); break;
        case T_NAIVE: LAUNCH(transpose_naive_k<T>, grid, block, 0, d_a, d_out, n); break;
        case T_COPY: LAUNCH(transpose_copy_k<T>, grid, block, 0, d_a, d_out, nn); break;
        case T_TILED:
            if (job->block_y == TRANSPOSE_TILED_BY) LAUNCH((transpose_tiled_k<T, 1, TRANSPOSE_TILED_BY>), grid, block, 0, d_a, d_out, n);
            else LAUNCH((transpose_tiled_k<T, 1, 0>), grid, block, 0, d_a, d_out, n);
            break;
        case T_TILED_NOPAD:
            if (job->block_y == TRANSPOSE_TILED_BY) LAUNCH((transpose_tiled_k<T, 0, TRANSPOSE_TILED_BY>), grid, block, 0, d_a, d_out, n);
            else LAUNCH((transpose_tiled_k<T, 0, 0>), grid, block, 0, d_a, d_out, n);
            break;
        }
        runs++;
    }
    if (kind == T_NAIVE2D && runs % 2 == 0) {
        /* in place: each run transposes the matrix again, and an even number
         * of runs gives it back as it was; one more, untimed, leaves it
         * transposed */
        LAUNCH(transpose_naive2d_k<T>, grid, block, 0, d_a, n);
    }
    return lab_download(job, job->out, kind == T_NAIVE2D ? d_a : d_out, nn);
}

static int by_dtype(lab_job *job, transpose_kind kind)
{
    return lab_by_dtype(job, lab_dtypes<int, float, double>(),
                        [&](auto t) { return run_transpose<decltype(t)>(job, kind); });
}

LAB_ENTRY(transpose_naive2d) { return by_dtype(job, T_NAIVE2D); }
LAB_ENTRY(transpose_naive) { return by_dtype(job, T_NAIVE); }
LAB_ENTRY(transpose_copy) { return by_dtype(job, T_COPY); }
LAB_ENTRY(transpose_tiled) { return by_dtype(job, T_TILED); }
LAB_ENTRY(transpose_tiled_nopad) { return by_dtype(job, T_TILED_NOPAD); }
