/* puzzle.c - the puzzles: their table, CPU references, the driver the
 * harness compiles around a student's kernel, and the comparison.
 *
 * Inputs are small whole numbers stored as floats, so every reference sum
 * is exact and a right kernel gives the reference bit for bit whatever
 * order it adds in. See docs/puzzles.md. */
#define _GNU_SOURCE
#include "repl/lessons/puzzle.h"
#include "repl/lessons/puzzle_def.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "repl/i18n.h"
#include "repl/out.h"
#include "repl/safefile.h"

/* ------------------------------------------------------------ references */

static const struct puzzle_arg *arg_named(const struct puzzle *p, const char *name)
{
    for (int k = 0; k < p->nargs; k++)
        if (strcmp(p->args[k].name, name) == 0) return &p->args[k];
    return NULL;
}

static int int_arg(const struct puzzle *p, const char *name)
{
    const struct puzzle_arg *a = arg_named(p, name);
    return a ? a->value : 0;
}

static void ref_add10(const struct puzzle *p, const float *const *in, float *out)
{
    int n = puzzle_arg_len(puzzle_out(p));
    for (int i = 0; i < n; i++) out[i] = in[0][i] + 10;
}

static void ref_zip(const struct puzzle *p, const float *const *in, float *out)
{
    int n = puzzle_arg_len(puzzle_out(p));
    for (int i = 0; i < n; i++) out[i] = in[0][i] + in[1][i];
}

static void ref_broadcast(const struct puzzle *p, const float *const *in, float *out)
{
    int n = int_arg(p, "size");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) out[i * n + j] = in[0][i] + in[1][j];
}

static void ref_pool(const struct puzzle *p, const float *const *in, float *out)
{
    int n = puzzle_arg_len(puzzle_out(p));
    for (int i = 0; i < n; i++) {
        float s = in[0][i];
        if (i >= 1) s += in[0][i - 1];
        if (i >= 2) s += in[0][i - 2];
        out[i] = s;
    }
}

static void ref_dot(const struct puzzle *p, const float *const *in, float *out)
{
    int n = puzzle_arg_len(arg_named(p, "a"));
    float s = 0;
    for (int i = 0; i < n; i++) s += in[0][i] * in[1][i];
    out[0] = s;
}

static void ref_conv(const struct puzzle *p, const float *const *in, float *out)
{
    int n = int_arg(p, "size"), k = puzzle_arg_len(arg_named(p, "b"));
    for (int i = 0; i < n; i++) {
        float s = 0;
        for (int j = 0; j < k && i + j < n; j++) s += in[0][i + j] * in[1][j];
        out[i] = s;
    }
}

static void ref_scan(const struct puzzle *p, const float *const *in, float *out)
{
    int n = puzzle_arg_len(puzzle_out(p));
    float s = 0;
    for (int i = 0; i < n; i++) out[i] = s += in[0][i];
}

static void ref_scan_exclusive(const struct puzzle *p, const float *const *in, float *out)
{
    int n = puzzle_arg_len(puzzle_out(p));
    float s = 0;
    for (int i = 0; i < n; i++) {
        out[i] = s;
        s += in[0][i];
    }
}

static void ref_rowsum(const struct puzzle *p, const float *const *in, float *out)
{
    const struct puzzle_arg *a = arg_named(p, "a");
    for (int i = 0; i < a->rows; i++) {
        float s = 0;
        for (int j = 0; j < a->cols; j++) s += in[0][i * a->cols + j];
        out[i] = s;
    }
}

static void ref_matmul(const struct puzzle *p, const float *const *in, float *out)
{
    int n = int_arg(p, "size");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0;
            for (int k = 0; k < n; k++) s += in[0][i * n + k] * in[1][k * n + j];
            out[i * n + j] = s;
        }
}

static void ref_warpsum(const struct puzzle *p, const float *const *in, float *out)
{
    int n = puzzle_arg_len(puzzle_out(p));
    for (int w = 0; w < n; w++) {
        float s = 0;
        for (int l = 0; l < 32; l++) s += in[0][w * 32 + l];
        out[w] = s;
    }
}

static void ref_compact(const struct puzzle *p, const float *const *in, float *out)
{
    int n = puzzle_arg_len(puzzle_out(p)), k = 0;
    for (int i = 0; i < n; i++)
        if (in[0][i] > 0) out[k++] = in[0][i];
    while (k < n) out[k++] = 0;
}

/* softmax and layer norm in double, rounded once: within the stated tolerance of any right kernel */
static void ref_softmax(const struct puzzle *p, const float *const *in, float *out)
{
    const struct puzzle_arg *a = arg_named(p, "a");
    for (int i = 0; i < a->rows; i++) {
        const float *r = in[0] + i * a->cols;
        double m = r[0], s = 0;
        for (int j = 1; j < a->cols; j++) m = r[j] > m ? r[j] : m;
        for (int j = 0; j < a->cols; j++) s += exp(r[j] - m);
        for (int j = 0; j < a->cols; j++) out[i * a->cols + j] = (float)(exp(r[j] - m) / s);
    }
}

static void ref_layernorm(const struct puzzle *p, const float *const *in, float *out)
{
    const struct puzzle_arg *a = arg_named(p, "a");
    for (int i = 0; i < a->rows; i++) {
        const float *r = in[0] + i * a->cols;
        double mean = 0, var = 0;
        for (int j = 0; j < a->cols; j++) mean += r[j];
        mean /= a->cols;
        for (int j = 0; j < a->cols; j++) var += (r[j] - mean) * (r[j] - mean);
        var /= a->cols;
        for (int j = 0; j < a->cols; j++) out[i * a->cols + j] = (float)((r[j] - mean) / sqrt(var + 1e-5));
    }
}

static void ref_conv2d(const struct puzzle *p, const float *const *in, float *out)
{
    int n = int_arg(p, "size");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0;
            for (int di = 0; di < 3; di++)
                for (int dj = 0; dj < 3; dj++) {
                    int y = i + di - 1, x = j + dj - 1;
                    if (y >= 0 && y < n && x >= 0 && x < n) s += in[0][y * n + x] * in[1][di * 3 + dj];
                }
            out[i * n + j] = s;
        }
}

static void ref_histogram(const struct puzzle *p, const float *const *in, float *out)
{
    int bins = puzzle_arg_len(puzzle_out(p)), n = int_arg(p, "size");
    for (int k = 0; k < bins; k++) out[k] = 0;
    for (int i = 0; i < n; i++) {
        int k = (int)in[0][i];
        if (k >= 0 && k < bins) out[k] += 1;
    }
}

/* ----------------------------------------------------------------- table */

#define VEC(kind_, name_, n_, base_, step_) {.kind = kind_, .name = name_, .rows = 1, .cols = n_, .base = base_, .step = step_}
#define MAT(kind_, name_, r_, c_, base_, step_) {.kind = kind_, .name = name_, .rows = r_, .cols = c_, .base = base_, .step = step_}
#define INT(name_, v_) {.kind = PZ_INT, .name = name_, .value = v_}

/* The fields after reads_per_tile belong to folder puzzles and stay 0 here. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct puzzle g_puzzles[] = {
    {1, "map", N_("Map"), "map", N_("out[i] = a[i] + 10"),
     N_("one thread per element: i = threadIdx.x"),
     {1, 1}, {4, 1}, {VEC(PZ_OUT, "out", 4, 0, 0), VEC(PZ_IN, "a", 4, 0, 1)}, 2,
     1, 0, "scale/index", ref_add10, 0, 0, 0, 0, 0, 0, 0},
    {2, "zip", N_("Zip"), "zip", N_("out[i] = a[i] + b[i]"),
     N_("one thread per element: i = threadIdx.x"),
     {1, 1}, {4, 1}, {VEC(PZ_OUT, "out", 4, 0, 0), VEC(PZ_IN, "a", 4, 0, 1), VEC(PZ_IN, "b", 4, 100, 1)}, 3,
     2, 0, "vecdiff/v4", ref_zip, 0, 0, 0, 0, 0, 0, 0},
    {3, "guard", N_("Guards"), "guard", N_("out[i] = a[i] + 10 for i < size"),
     N_("8 threads for 4 elements: the threads past the end must not touch memory"),
     {1, 1}, {8, 1}, {VEC(PZ_OUT, "out", 4, 0, 0), VEC(PZ_IN, "a", 4, 0, 1), INT("size", 4)}, 3,
     1, 0, "vecdiff/v2", ref_add10, 0, 0, 0, 0, 0, 0, 0},
    {4, "map2d", N_("Map in 2D"), "map2d", N_("out[i][j] = a[i][j] + 10 for i, j < size"),
     N_("row i = threadIdx.y, column j = threadIdx.x; element [i][j] is at i * size + j"),
     {1, 1}, {4, 4}, {MAT(PZ_OUT, "out", 3, 3, 0, 0), MAT(PZ_IN, "a", 3, 3, 0, 1), INT("size", 3)}, 3,
     1, 0, "transpose/naive", ref_add10, 0, 0, 0, 0, 0, 0, 0},
    {5, "broadcast", N_("Broadcast"), "broadcast", N_("out[i][j] = a[i] + b[j] for i, j < size"),
     N_("a is a column (one value per row i), b a row (one value per column j); row i = threadIdx.y"),
     {1, 1}, {4, 4},
     {MAT(PZ_OUT, "out", 3, 3, 0, 0), VEC(PZ_IN, "a", 3, 0, 10), VEC(PZ_IN, "b", 3, 0, 1), INT("size", 3)}, 4,
     2, 0, NULL, ref_broadcast, 0, 0, 0, 0, 0, 0, 0},
    {6, "blocks", N_("Blocks"), "blocks", N_("out[i] = a[i] + 10 for i < size"),
     N_("3 blocks of 4 threads for 9 elements: i = blockIdx.x * blockDim.x + threadIdx.x"),
     {3, 1}, {4, 1}, {VEC(PZ_OUT, "out", 9, 0, 0), VEC(PZ_IN, "a", 9, 0, 1), INT("size", 9)}, 3,
     1, 0, "vecdiff/v4", ref_add10, 0, 0, 0, 0, 0, 0, 0},
    {7, "blocks2d", N_("Blocks in 2D"), "blocks2d", N_("out[i][j] = a[i][j] + 10 for i, j < size"),
     N_("2 x 2 blocks of 3 x 3 threads for a 5 x 5 array; row i counts in y, column j in x"),
     {2, 2}, {3, 3}, {MAT(PZ_OUT, "out", 5, 5, 0, 0), MAT(PZ_IN, "a", 5, 5, 0, 1), INT("size", 5)}, 3,
     1, 0, "transpose/naive2d", ref_add10, 0, 0, 0, 0, 0, 0, 0},
    {8, "shared", N_("Shared memory"), "shared", N_("out[i] = a[i] + 10, through shared memory"),
     N_("each thread copies a[i] into the block's shared array; after a barrier, thread t of a block "
        "writes the element its neighbour loaded, (t + 1) % 4, taking the value from shared memory"),
     {2, 1}, {4, 1}, {VEC(PZ_OUT, "out", 8, 0, 0), VEC(PZ_IN, "a", 8, 0, 1), INT("size", 8)}, 3,
     1, 16, "distance/ls", ref_add10, 1, 0, 0, 0, 0, 0, 0},
    {9, "pool", N_("Pooling"), "pool", N_("out[i] = a[i - 2] + a[i - 1] + a[i] (terms before a[0] count as 0)"),
     N_("one block of 8 threads for 8 elements; each thread may read global memory once, so neighbours "
        "come from shared memory"),
     {1, 1}, {8, 1}, {VEC(PZ_OUT, "out", 8, 0, 0), VEC(PZ_IN, "a", 8, 0, 1)}, 2,
     1, 32, NULL, ref_pool, 0, 0, 0, 0, 0, 0, 0},
    {10, "dot", N_("Dot product"), "dot", N_("out[0] = a[0] * b[0] + a[1] * b[1] + ... + a[7] * b[7]"),
     N_("one block of 8 threads; each multiplies one pair, the block adds the 8 products in shared memory"),
     {1, 1}, {8, 1}, {VEC(PZ_OUT, "out", 1, 0, 0), VEC(PZ_IN, "a", 8, 0, 1), VEC(PZ_IN, "b", 8, 1, 1)}, 3,
     2, 32, "reduce/sequential", ref_dot, 0, 0, 0, 0, 0, 0, 0},
    {11, "conv1d", N_("1D convolution"), "conv1d",
     N_("out[i] = a[i] * b[0] + a[i + 1] * b[1] + a[i + 2] * b[2] + a[i + 3] * b[3] (terms past a[size - 1] count as 0)"),
     N_("2 blocks of 8 threads for 15 elements, a kernel b of 4 weights; a block needs its 8 elements of a "
        "and the 3 after them"),
     {2, 1}, {8, 1},
     {VEC(PZ_OUT, "out", 15, 0, 0), VEC(PZ_IN, "a", 15, 0, 1), VEC(PZ_IN, "b", 4, 1, 1), INT("size", 15)}, 4,
     2, 60, NULL, ref_conv, 0, 0, 0, 0, 0, 0, 0},
    {12, "scan", N_("Prefix sum"), "scan", N_("out[i] = a[0] + a[1] + ... + a[i]"),
     N_("one block of 16 threads for 16 elements; an inclusive scan in log2(16) = 4 rounds"),
     {1, 1}, {16, 1}, {VEC(PZ_OUT, "out", 16, 0, 0), VEC(PZ_IN, "a", 16, 0, 1)}, 2,
     1, 64, NULL, ref_scan, 0, 0, 0, 0, 0, 0, 0},
    {13, "rowsum", N_("Sum along an axis"), "rowsum", N_("out[i] = a[i][0] + a[i][1] + ... + a[i][cols - 1]"),
     N_("a has 4 rows of cols = 6 values; one block of 8 threads per row: row i = blockIdx.y"),
     {1, 4}, {8, 1}, {VEC(PZ_OUT, "out", 4, 0, 0), MAT(PZ_IN, "a", 4, 6, 0, 1), INT("cols", 6)}, 3,
     1, 32, "reduce/sequential", ref_rowsum, 0, 0, 0, 0, 0, 0, 0},
    {14, "matmul", N_("Matrix multiply"), "matmul", N_("out[i][j] = a[i][0] * b[0][j] + ... + a[i][size - 1] * b[size - 1][j]"),
     N_("one thread per element of the 3 x 3 result: row i = threadIdx.y, column j = threadIdx.x"),
     {1, 1}, {3, 3},
     {MAT(PZ_OUT, "out", 3, 3, 0, 0), MAT(PZ_IN, "a", 3, 3, 0, 1), MAT(PZ_IN, "b", 3, 3, 1, 1), INT("size", 3)}, 4,
     6, 0, "matmul/gpu-naive", ref_matmul, 0, 0, 0, 0, 0, 0, 0},
    {15, "matmul-tiled", N_("Tiled matrix multiply"), "matmul_tiled",
     N_("out[i][j] = a[i][0] * b[0][j] + ... + a[i][size - 1] * b[size - 1][j]"),
     N_("a 6 x 6 product in 2 x 2 blocks of 4 x 4 threads; tiles of 4 x 4 go through shared memory, so each "
        "thread reads 2 values per tile (and the tiles past the edge need guards)"),
     {2, 2}, {4, 4},
     {MAT(PZ_OUT, "out", 6, 6, 0, 0), MAT(PZ_IN, "a", 6, 6, 0, 1), MAT(PZ_IN, "b", 6, 6, 1, 1), INT("size", 6)}, 4,
     4, 128, "matmul/gpu-tiled", ref_matmul, 0, 2, 0, 0, 0, 0, 0},
    {16, "warp-sum", N_("Warp-shuffle reduction"), "warp_sum", N_("out[w] = a[32 * w] + a[32 * w + 1] + ... + a[32 * w + 31]"),
     N_("one block of 64 threads, two warps; each warp adds its 32 values with __shfl_down_sync, "
        "without shared memory"),
     {1, 1}, {64, 1}, {VEC(PZ_OUT, "out", 2, 0, 0), VEC(PZ_IN, "a", 64, 0, 1)}, 2,
     1, 0, "reduce/warp-shuffle", ref_warpsum, 0, 0, 0, 0, 0, 0, 0},
    {17, "scan-exclusive", N_("Work-efficient scan"), "scan_exclusive",
     N_("out[i] = a[0] + a[1] + ... + a[i - 1] for i < size (out[0] = 0)"),
     N_("one block of 8 threads for up to 16 elements, 2 per thread (elements past size count as 0): an "
        "up-sweep adds pairs in a tree, the last slot is cleared, a down-sweep hands the sums back"),
     {1, 1}, {8, 1}, {VEC(PZ_OUT, "out", 13, 0, 0), VEC(PZ_IN, "a", 13, 1, 1), INT("size", 13)}, 3,
     2, 64, NULL, ref_scan_exclusive, 0, 0, 0, 0, 0, 0, 0},
    {18, "scan-long", N_("Scan with a carried total"), "scan_long",
     N_("out[i] = a[0] + a[1] + ... + a[i] for i < size"),
     N_("one block of 8 threads for 29 elements: the block scans a tile of 8 at a time and carries the "
        "total so far into the next tile; one global read per thread and tile"),
     {1, 1}, {8, 1}, {VEC(PZ_OUT, "out", 29, 0, 0), VEC(PZ_IN, "a", 29, 0, 1), INT("size", 29)}, 3,
     4, 32, NULL, ref_scan, 0, 1, 0, 0, 0, 0, 0},
    {19, "compact", N_("Stream compaction"), "compact",
     N_("out[k] = the k-th a[i] > 0 in order, for k < count (how many there are); out[k] = 0 for count <= k < size"),
     N_("one block of 16 threads for up to 16 elements: each thread flags a[i] > 0, a scan of the flags "
        "gives each kept element its place, and the scan's last value is the count"),
     {1, 1}, {16, 1},
     {VEC(PZ_OUT, "out", 13, 0, 0), {.kind = PZ_IN, .name = "a", .rows = 1, .cols = 13, .base = -3, .step = 1, .mod = 7},
      INT("size", 13)}, 3,
     1, 64, NULL, ref_compact, 0, 0, 0, 0, 0, 0, 0},
    {20, "softmax", N_("Softmax"), "softmax",
     N_("out[i][j] = exp(a[i][j] - m) / (exp(a[i][0] - m) + ... + exp(a[i][cols - 1] - m)), m the largest value of row i"),
     N_("a has 3 rows of cols = 6 values from 100 up: exp(100) overflows a float, so the row's maximum comes "
        "first; one block of 8 threads per row: row i = blockIdx.y"),
     {1, 3}, {8, 1}, {MAT(PZ_OUT, "out", 3, 6, 0, 0), MAT(PZ_IN, "a", 3, 6, 100, 1), INT("cols", 6)}, 3,
     1, 32, NULL, ref_softmax, 0, 0, 1e-5f, -100, 100, 0, 0},
    {21, "layernorm", N_("Layer norm"), "layernorm",
     N_("out[i][j] = (a[i][j] - mean) / sqrt(var + 0.00001), mean and var (the mean of (a[i][j] - mean)^2) of row i"),
     N_("a has 4 rows of cols = 6 values near 1000; one block of 8 threads per row: row i = blockIdx.y. The "
        "mean first, then the squared deviations from it: the mean of the squares minus the square of the mean "
        "loses in float the digits that matter"),
     {1, 4}, {8, 1}, {MAT(PZ_OUT, "out", 4, 6, 0, 0), MAT(PZ_IN, "a", 4, 6, 1000, 1), INT("cols", 6)}, 3,
     1, 32, NULL, ref_layernorm, 0, 0, 1e-3f, 995, 1005, 0, 0},
    {22, "conv2d", N_("2D convolution"), "conv2d",
     N_("out[i][j] = a[i - 1][j - 1] * b[0][0] + a[i - 1][j] * b[0][1] + ... + a[i + 1][j + 1] * b[2][2] (terms "
        "outside a count as 0)"),
     N_("a 6 x 6 array in 2 x 2 blocks of 4 x 4 threads, a 3 x 3 kernel b centred on [i][j]; a block needs its "
        "4 x 4 tile of a and a halo of one element around it, 6 x 6 in shared memory, and b there too"),
     {2, 2}, {4, 4},
     {MAT(PZ_OUT, "out", 6, 6, 0, 0), MAT(PZ_IN, "a", 6, 6, 0, 1), MAT(PZ_IN, "b", 3, 3, 0, 1), INT("size", 6)}, 4,
     5, 180, NULL, ref_conv2d, 0, 0, 0, 0, 0, 0, 0},
    {23, "histogram", N_("Histogram"), "histogram",
     N_("out[k] = how many a[i] equal k, for k < 8 (a holds whole numbers from 0 to 7)"),
     N_("45 elements in 3 blocks of 16 threads; each block counts its elements in a histogram of its own in "
        "shared memory, then adds each bin to out with one atomicAdd; out holds 0 before the launch"),
     {3, 1}, {16, 1},
     {VEC(PZ_OUT, "out", 8, 0, 0), {.kind = PZ_IN, .name = "a", .rows = 1, .cols = 45, .base = 0, .step = 1, .mod = 7},
      INT("size", 45)}, 3,
     2, 32, "histogram/shared", ref_histogram, 0, 0, 0, 0, 7, 1, 8},
};
#pragma GCC diagnostic pop

/* What `puzzle N hint` says: the step beyond the skeleton's comments,
 * usually the mistake the puzzle is there to catch. By puzzle number. */
static const char *const g_hints[] = {
    N_("One thread, one element: i = threadIdx.x, then out[i] = a[i] + 10. There is no loop; the launch "
       "makes as many threads as there are elements."),
    N_("Like Map with two inputs: the thread at i reads a[i] and b[i] and writes their sum to out[i]."),
    N_("Compute i, then put both the read and the write inside if (i < size): the threads past the end "
       "must touch neither a nor out."),
    N_("i = threadIdx.y is the row, j = threadIdx.x the column; guard both against size and use the flat "
       "index i * size + j for a and for out."),
    N_("Element [i][j] adds a[i] (the row's value) and b[j] (the column's); guard i and j, then write "
       "out[i * size + j]."),
    N_("With several blocks, threadIdx.x repeats in every block: the element is blockIdx.x * blockDim.x + "
       "threadIdx.x, and the last block's extra threads need the guard."),
    N_("Build the row from the y parts (blockIdx.y * blockDim.y + threadIdx.y) and the column from the x "
       "parts; guard both, then index i * size + j."),
    N_("Without __syncthreads() between the write of cache[t] and the read of cache[(t + 1) % TPB], a "
       "thread may read its neighbour's slot before the neighbour wrote it."),
    N_("Every thread loads its a[i] into cache[i], then waits at __syncthreads(); after it, read cache[i - 2], "
       "cache[i - 1] and cache[i] from shared memory, leaving out the indices below 0."),
    N_("Halve the stride each round (4, 2, 1): threads i < stride add cache[i + stride] into cache[i], "
       "with a __syncthreads() after every round, outside the if."),
    N_("The halo: tile[TPB + t] for t < K - 1 is a[blockIdx.x * TPB + TPB + t] (0 past the end); load w "
       "too, and only after one barrier read tile and w."),
    N_("In each round read cache[i - offset] into a register, __syncthreads(), then add it to cache[i], "
       "__syncthreads() again: reading and writing in one step races."),
    N_("Threads t >= cols load 0, so the tree can add all TPB slots; row = blockIdx.y picks both the row "
       "of a and the element of out."),
    N_("Thread (i, j) loops k from 0 to size - 1 and adds a[i * size + k] * b[k * size + j] in a register, "
       "then writes out[i * size + j] once."),
    N_("Two barriers per tile: one after loading ta and tb (before anyone reads them), one after the "
       "products (before the next tile overwrites them)."),
    N_("__shfl_down_sync(0xffffffff, v, d) gives lane L the v of lane L + d; after d = 16, 8, 4, 2, 1 "
       "lane 0 holds the warp's sum, the other lanes partial ones."),
    N_("Thread t owns slots 2t and 2t + 1. Up-sweep, d = 1, 2, 4, 8: slot k = (t + 1) * 2d - 1 (when "
       "k < 16) adds slot k - d. Clear slot 15. Down-sweep, d = 8, 4, 2, 1: slot k - d takes s[k], and s[k] "
       "adds the old s[k - d]. A barrier before every round."),
    N_("Keep the carried total in a register: after the tile's scan every thread adds cache[TPB - 1] to "
       "it. Then a barrier, so that no thread loads the next tile over a slot another still reads."),
    N_("flag = a[i] > 0 (0 past size); scan the flags as in puzzle 12; a kept element goes to "
       "out[cache[t] - flag], and a thread t >= count = cache[TPB - 1] writes out[t] = 0 when t < size."),
    N_("Three steps in one cache of 8: the row's maximum by a tree (threads past cols load -INFINITY); after "
       "a barrier every thread has read it, then e = expf(a - max) (0 past cols) and a sum tree; out = e / sum."),
    N_("A sum tree in cache gives the mean (threads past cols load 0); a barrier after everyone has read it, "
       "then a second tree adds (a - mean)^2; var is that sum / cols, out = (a - mean) / sqrtf(var + 0.00001f)."),
    N_("The tile starts at row blockIdx.y * 4 - 1 and column blockIdx.x * 4 - 1: load its 36 values in a loop "
       "k = t; k < 36; k += 16 (0 outside a), b's 9 with threads t < 9, one barrier, then thread (ty, tx) adds "
       "tile[ty + di][tx + dj] * w[di][dj]."),
    N_("Threads t < 8 clear h[t]; a barrier; each thread with i < size does atomicAdd(&h[(int)a[i]], 1); a "
       "barrier; threads t < 8 do atomicAdd(&out[t], h[t]): one global atomic per bin and block."),
};

float puzzle_tolerance(const struct puzzle *p)
{
    return p->tolerance > 0 ? p->tolerance : 1e-5f;
}

const char *puzzle_hint(const struct puzzle *p)
{
    int n = (int)(sizeof g_hints / sizeof g_hints[0]);
    if (p->def) return p->def->hint;
    return p->number >= 1 && p->number <= n ? g_hints[p->number - 1] : NULL;
}

/* The table's puzzles, then gpulab's folder puzzles (lessons/en/puzzles/
 * NN-name/), then those opened from a folder: loaded once, in one array
 * whose entries never move. */
#define PUZZLE_ALL_MAX 256
static struct puzzle g_all[PUZZLE_ALL_MAX];
static int g_nall, g_nshipped;

static void load_all(void)
{
    if (g_nall) return;
    int nt = (int)(sizeof g_puzzles / sizeof g_puzzles[0]);
    memcpy(g_all, g_puzzles, sizeof g_puzzles);
    g_nall = nt;
    char lang[16] = "en";
    const char *l = getenv("LANGUAGE"); /* i18n_init sets it to the language chosen */
    if (l && *l) snprintf(lang, sizeof lang, "%.*s", (int)strcspn(l, ":"), l);
    int from = g_nall;
    puzzle_def_load_shipped(lang, g_all, &g_nall, PUZZLE_ALL_MAX / 2);
    /* a folder whose number the table has, or two folders of one number: the first stays */
    int w = from;
    for (int i = from; i < g_nall; i++) {
        int dup = 0;
        for (int j = 0; j < w; j++) dup |= g_all[j].number == g_all[i].number;
        if (!dup) g_all[w++] = g_all[i];
    }
    g_nall = w;
    g_nshipped = g_nall;
}

const struct puzzle *puzzle_all(int *n)
{
    load_all();
    *n = g_nall;
    return g_all;
}

const struct puzzle *puzzle_register(const struct puzzle *p)
{
    load_all();
    for (int i = 0; i < g_nshipped; i++)
        if (g_all[i].number == p->number) return NULL;
    for (int i = g_nshipped; i < g_nall; i++)
        if (g_all[i].number == p->number) {
            g_all[i] = *p;
            return &g_all[i];
        }
    if (g_nall >= PUZZLE_ALL_MAX) return NULL;
    /* in number order among the opened ones: entries after it move, so
     * only appending keeps pointers; the list sorts for display */
    g_all[g_nall] = *p;
    return &g_all[g_nall++];
}

const struct puzzle_arg *puzzle_out(const struct puzzle *p)
{
    for (int k = 0; k < p->nargs; k++)
        if (p->args[k].kind == PZ_OUT) return &p->args[k];
    return NULL;
}

int puzzle_arg_len(const struct puzzle_arg *a)
{
    return a && a->kind != PZ_INT ? a->rows * a->cols : 0;
}

void puzzle_stem(const struct puzzle *p, char *buf, size_t len)
{
    snprintf(buf, len, "%02d-%s", p->number, p->name);
}

const struct puzzle *puzzle_find(const char *what)
{
    int n;
    const struct puzzle *all = puzzle_all(&n);
    if (!what || !*what) return NULL;
    char *end;
    long k = strtol(what, &end, 10);
    if (*end == 0) {
        for (int i = 0; i < n; i++)
            if (all[i].number == k) return &all[i];
        return NULL;
    }
    /* a path: its file name without .cu */
    const char *base = strrchr(what, '/');
    base = base ? base + 1 : what;
    char stem[128];
    snprintf(stem, sizeof stem, "%s", base);
    size_t sl = strlen(stem);
    if (sl > 3 && strcmp(stem + sl - 3, ".cu") == 0) stem[sl - 3] = 0;
    for (int i = 0; i < n; i++) {
        char s[64];
        puzzle_stem(&all[i], s, sizeof s);
        if (strcmp(stem, s) == 0 || strcmp(stem, all[i].name) == 0) return &all[i];
    }
    return NULL;
}

void puzzle_student_path(const struct puzzle *p, char *buf, size_t len)
{
    char stem[64];
    puzzle_stem(p, stem, sizeof stem);
    snprintf(buf, len, "puzzles/%s.cu", stem);
}

char *puzzle_read_file(const char *path, size_t *len)
{
    char err[64]; /* callers say why from errno */
    return safefile_read(path, SAFEFILE_SOURCE_MAX, len, err, sizeof err);
}

void puzzle_fill(const struct puzzle_arg *a, float *v)
{
    int n = puzzle_arg_len(a);
    for (int i = 0; i < n; i++) v[i] = a->base + a->step * (float)(a->mod ? i % a->mod : i);
}

static void shape_text(const unsigned d[2], char *buf, size_t len)
{
    if (d[1] > 1)
        snprintf(buf, len, "dim3(%u, %u)", d[0], d[1]);
    else
        snprintf(buf, len, "%u", d[0]);
}

void puzzle_launch_text(const struct puzzle *p, char *buf, size_t len)
{
    char g[32], b[32];
    shape_text(p->grid, g, sizeof g);
    shape_text(p->block, b, sizeof b);
    size_t o = (size_t)snprintf(buf, len, "%s<<<%s, %s>>>(", p->kernel, g, b);
    for (int k = 0; k < p->nargs && o < len; k++) {
        if (p->args[k].kind == PZ_INT)
            o += (size_t)snprintf(buf + o, len - o, "%s%d", k ? ", " : "", p->args[k].value);
        else
            o += (size_t)snprintf(buf + o, len - o, "%s%s", k ? ", " : "", p->args[k].name);
    }
    if (o < len) snprintf(buf + o, len - o, ")");
}

/* ------------------------------------------------------------ text build */

struct sb {
    char *s;
    size_t len, cap;
    int oom;
};

static void sb_add(struct sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(struct sb *b, const char *fmt, ...)
{
    if (b->oom) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) { b->oom = 1; return; }
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = (b->len + (size_t)n + 1) * 2;
        char *s = realloc(b->s, cap);
        if (!s) { b->oom = 1; return; }
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static char *sb_done(struct sb *b)
{
    if (b->oom) { free(b->s); return NULL; }
    if (!b->s) sb_add(b, "%s", "");
    return b->s;
}

/* Values as the header shows them: "0 1 2 3", rows separated by " | ". */
static void values_text(struct sb *b, const struct puzzle_arg *a)
{
    int n = puzzle_arg_len(a);
    float *v = malloc((size_t)n * sizeof *v);
    if (!v) { b->oom = 1; return; }
    puzzle_fill(a, v);
    for (int i = 0; i < n; i++)
        sb_add(b, "%s%g", i == 0 ? "" : (a->rows > 1 && i % a->cols == 0) ? " | " : " ", v[i]);
    free(v);
}

/* Wrap text at about 76 columns behind the prefix "// " (continuations
 * indented by indent spaces), counting display columns (a Chinese character
 * takes two) and cutting only between characters. */
static void comment_wrapped(struct sb *b, const char *text, int indent)
{
    const char *p = text;
    int first = 1;
    while (*p) {
        int room = 76 - (first ? 0 : indent);
        size_t n = strlen(p);
        size_t cut = n;
        if (out_text_width(p, n) > room) {
            size_t fit = out_fit_len(p, room);
            cut = fit;
            while (cut > 0 && p[cut] != ' ') cut--;
            if (cut == 0) cut = fit > 0 ? fit : out_unit_len(p, n);
        }
        sb_add(b, "// %*s%.*s\n", first ? 0 : indent, "", (int)cut, p);
        p += cut;
        while (*p == ' ') p++;
        first = 0;
    }
}

char *puzzle_header(const struct puzzle *p)
{
    struct sb b = {0};
    char launch[256], stem[64];
    puzzle_launch_text(p, launch, sizeof launch);
    puzzle_stem(p, stem, sizeof stem);
    /* the header speaks the language of the skeleton under it */
    sb_add(&b, "// ");
    sb_add(&b, _("Puzzle %d: %s"), p->number, _(p->title));
    sb_add(&b, "\n//\n");
    comment_wrapped(&b, _(p->spec), 4);
    sb_add(&b, "//\n");
    if (p->detail) {
        comment_wrapped(&b, _(p->detail), 0);
        sb_add(&b, "//\n");
    }
    {
        char line[512];
        snprintf(line, sizeof line, _("check runs %s"), launch);
        comment_wrapped(&b, line, 4);
    }
    for (int k = 0; k < p->nargs; k++) {
        const struct puzzle_arg *a = &p->args[k];
        if (a->kind == PZ_IN && p->def && puzzle_arg_len(a) > 24) {
            char line[512];
            if (a->rows > 1)
                snprintf(line, sizeof line, _("%s: %d x %d floats, row-major, the k-th = %g + %g * k"), a->name,
                         a->rows, a->cols, a->base, a->step);
            else
                snprintf(line, sizeof line, _("%s: %d floats, %s[i] = %g + %g * i"), a->name, a->cols, a->name,
                         a->base, a->step);
            comment_wrapped(&b, line, 4);
        } else if (a->kind == PZ_IN) {
            struct sb v = {0};
            values_text(&v, a);
            char line[1024];
            snprintf(line, sizeof line, "%s%s = %s", a->name, a->rows > 1 ? _(" (rows split by |)") : "",
                     v.s ? v.s : "");
            free(v.s);
            comment_wrapped(&b, line, 4);
        } else if (a->kind == PZ_OUT) {
            sb_add(&b, "//   ");
            if (a->rows > 1)
                sb_add(&b, _("%s: %d x %d floats, row-major"), a->name, a->rows, a->cols);
            else
                sb_add(&b, ngettext("%s: %d float", "%s: %d floats", (unsigned long)a->cols), a->name, a->cols);
            if (p->out_zero) sb_add(&b, "%s", _(", 0 before the launch"));
            sb_add(&b, "\n");
        }
    }
    sb_add(&b, "//\n// %s\n", _("Limits:"));
    if (p->max_global_reads >= 0) {
        sb_add(&b, "//   ");
        sb_add(&b,
               ngettext("each thread reads global memory at most %d time", "each thread reads global memory at most %d times",
                        (unsigned long)p->max_global_reads),
               p->max_global_reads);
        sb_add(&b, "\n");
    }
    if (p->max_shared_bytes == 0)
        sb_add(&b, "//   %s\n", _("no shared memory"));
    else if (p->max_shared_bytes > 0) {
        sb_add(&b, "//   ");
        sb_add(&b, _("at most %d bytes (%d floats) of shared memory per block"), p->max_shared_bytes,
               p->max_shared_bytes / 4);
        sb_add(&b, "\n");
    }
    if (p->max_block_writes > 0) {
        sb_add(&b, "//   ");
        sb_add(&b,
               ngettext("each block writes global memory at most %d time (stores and atomics)",
                        "each block writes global memory at most %d times (stores and atomics)",
                        (unsigned long)p->max_block_writes),
               p->max_block_writes);
        sb_add(&b, "\n");
    }
    if (p->tolerance > 0) {
        char line[320];
        snprintf(line, sizeof line, "  ");
        snprintf(line + 2, sizeof line - 2, _("a value is right within %g times its magnitude of the exact one (%g "
                                              "below 1): float math is not exact"),
                 (double)p->tolerance, (double)p->tolerance);
        comment_wrapped(&b, line, 4);
    }
    if (p->def && p->max_global_writes >= 0) {
        sb_add(&b, "//   ");
        sb_add(&b,
               ngettext("each thread writes global memory at most %d time",
                        "each thread writes global memory at most %d times", (unsigned long)p->max_global_writes),
               p->max_global_writes);
        sb_add(&b, "\n");
    }
    if (p->def && p->max_barriers >= 0) {
        sb_add(&b, "//   ");
        sb_add(&b,
               ngettext("each block waits at __syncthreads() at most %d time",
                        "each block waits at __syncthreads() at most %d times", (unsigned long)p->max_barriers),
               p->max_barriers);
        sb_add(&b, "\n");
    }
    sb_add(&b, "//\n");
    comment_wrapped(&b, _("Edit the kernel, keep its name and parameters, then type `check` in gpulab."), 0);
    comment_wrapped(&b, _("This file holds only the kernel: gpulab supplies inputs, launch and main()."), 0);
    sb_add(&b, "\n");
    return sb_done(&b);
}

/* ----------------------------------------------------------------- cases */

/* The sizes each puzzle is checked at, case 0 first (the table's own).
 * {n, m}: n the size (cols for puzzle 13), m the rows of puzzle 13. A
 * puzzle whose launch covers a fixed count repeats its size with other
 * inputs. Sizes stay within what the puzzle's text promises (one block of
 * 8 threads handles at most 8 elements, ...). */
struct case_size { int n, m; };
static const struct case_size g_sizes[][PUZZLE_MAX_CASES] = {
    {{4, 0}, {4, 0}, {4, 0}},                                  /* 1 map */
    {{4, 0}, {4, 0}, {4, 0}},                                  /* 2 zip */
    {{4, 0}, {5, 0}, {1, 0}, {8, 0}, {7, 0}},                  /* 3 guard: block 8 */
    {{3, 0}, {1, 0}, {4, 0}, {2, 0}},                          /* 4 map2d: block 4 x 4 */
    {{3, 0}, {4, 0}, {1, 0}, {2, 0}},                          /* 5 broadcast */
    {{9, 0}, {5, 0}, {13, 0}, {1, 0}, {16, 0}, {7, 0}},        /* 6 blocks: block 4 */
    {{5, 0}, {7, 0}, {3, 0}, {1, 0}, {8, 0}},                  /* 7 blocks2d: block 3 x 3 */
    {{8, 0}, {7, 0}, {13, 0}, {1, 0}, {4, 0}},                 /* 8 shared: block 4 */
    {{8, 0}, {8, 0}, {8, 0}},                                  /* 9 pool */
    {{8, 0}, {8, 0}, {8, 0}},                                  /* 10 dot */
    {{15, 0}, {16, 0}, {9, 0}, {3, 0}, {17, 0}, {1, 0}},       /* 11 conv1d: block 8 */
    {{16, 0}, {16, 0}, {16, 0}},                               /* 12 scan */
    {{6, 4}, {8, 3}, {1, 2}, {5, 1}, {7, 5}},                  /* 13 rowsum: block 8 */
    {{3, 0}, {1, 0}, {2, 0}, {3, 0}},                          /* 14 matmul: block 3 x 3 */
    {{6, 0}, {4, 0}, {5, 0}, {9, 0}, {1, 0}, {8, 0}},          /* 15 matmul-tiled: tile 4 */
    {{64, 0}, {64, 0}, {64, 0}},                               /* 16 warp-sum */
    {{13, 0}, {16, 0}, {1, 0}, {9, 0}, {5, 0}, {14, 0}},       /* 17 scan-exclusive: 16 slots */
    {{29, 0}, {8, 0}, {1, 0}, {17, 0}, {40, 0}, {15, 0}},      /* 18 scan-long: tile 8 */
    {{13, 0}, {16, 0}, {1, 0}, {9, 0}, {5, 0}, {14, 0}},       /* 19 compact: block 16 */
    {{6, 3}, {8, 2}, {1, 2}, {5, 1}, {7, 4}},                  /* 20 softmax: block 8 */
    {{6, 4}, {8, 3}, {1, 2}, {5, 1}, {7, 5}},                  /* 21 layernorm: block 8 */
    {{6, 0}, {5, 0}, {9, 0}, {1, 0}, {8, 0}, {3, 0}},          /* 22 conv2d: block 4 x 4 */
    {{45, 0}, {16, 0}, {1, 0}, {33, 0}, {100, 0}, {7, 0}},     /* 23 histogram: block 16 */
};

/* A small generator (xorshift32): the same seed gives the same inputs on
 * every machine. */
static unsigned next_rand(unsigned *x)
{
    unsigned v = *x;
    v ^= v << 13;
    v ^= v >> 17;
    v ^= v << 5;
    return *x = v;
}

/* A dimension of the stated case at the size of another: what equals the
 * stated n (m) follows the case's n (m); anything else is fixed. */
static int scaled(int v, const struct case_size *base, const struct case_size *cs)
{
    if (base->m > 0 && v == base->m) return cs->m;
    if (v == base->n) return cs->n;
    return v;
}

static void free_inputs(struct puzzle_case *c)
{
    for (int k = 0; k < PUZZLE_MAX_ARGS; k++) {
        free(c->in[k]);
        c->in[k] = NULL;
    }
}

int puzzle_cases(const struct puzzle *p, unsigned seed, struct puzzle_case *c)
{
    if (p->def) return puzzle_def_cases(p, seed, c);
    int nsz = (int)(sizeof g_sizes / sizeof g_sizes[0]);
    const struct case_size *sz = p->number >= 1 && p->number <= nsz ? g_sizes[p->number - 1] : NULL;
    struct case_size one = {puzzle_arg_len(puzzle_out(p)), 0};
    int count = 0;
    while (sz && count < PUZZLE_MAX_CASES && sz[count].n > 0) count++;
    if (count == 0) {
        sz = &one;
        count = 1;
    }
    for (int ci = 0; ci < count; ci++) {
        struct puzzle_case *cs = &c[ci];
        memset(cs, 0, sizeof *cs);
        cs->inst = *p;
        cs->index = ci;
        cs->count = count;
        cs->n = sz[ci].n;
        cs->m = sz[ci].m;
        /* never 0: a seed of 0 stands for the stated inputs */
        cs->seed = ci == 0 ? 0 : (seed * 2654435761u + (unsigned)ci * 40503u) | 1u;
        struct puzzle *q = &cs->inst;
        for (int d = 0; d < 2; d++) {
            unsigned bl = p->block[d];
            if (sz[0].m > 0 && bl == 1 && p->grid[d] == (unsigned)sz[0].m)
                q->grid[d] = (unsigned)cs->m;
            else if (bl > 1 && p->grid[d] == ((unsigned)sz[0].n + bl - 1) / bl)
                q->grid[d] = ((unsigned)cs->n + bl - 1) / bl;
        }
        if (p->reads_per_tile > 0)
            q->max_global_reads = p->reads_per_tile * ((cs->n + (int)p->block[0] - 1) / (int)p->block[0]);
        int nin = 0;
        unsigned r = cs->seed;
        for (int k = 0; k < p->nargs; k++) {
            struct puzzle_arg *a = &q->args[k];
            if (a->kind == PZ_INT) {
                a->value = scaled(a->value, &sz[0], &sz[ci]);
                continue;
            }
            a->rows = a->rows > 1 ? scaled(a->rows, &sz[0], &sz[ci]) : 1;
            a->cols = scaled(a->cols, &sz[0], &sz[ci]);
            int len = puzzle_arg_len(a);
            /* a multiple of 256 bytes, with at least 256 bytes to spare */
            cs->alloc[k] = (len + 63) / 64 * 64 + 64;
            cs->front[k] = ci % 2 == 0 ? cs->alloc[k] - len : 64;
            if (a->kind != PZ_IN) continue;
            float *v = malloc((size_t)(len ? len : 1) * sizeof *v);
            if (!v) {
                for (int j = 0; j <= ci; j++) free_inputs(&c[j]);
                return -1;
            }
            if (ci == 0) {
                puzzle_fill(a, v);
            } else {
                /* whole numbers in [-5, 5] (or the puzzle's range): every sum stays exact */
                int lo = p->rand_lo, hi = p->rand_hi;
                if (lo == 0 && hi == 0) lo = -5, hi = 5;
                for (int i = 0; i < len; i++) v[i] = (float)(lo + (int)(next_rand(&r) % (unsigned)(hi - lo + 1)));
            }
            cs->in[nin++] = v;
        }
    }
    return count;
}

void puzzle_cases_free(struct puzzle_case *c, int n)
{
    for (int i = 0; i < n; i++) {
        free_inputs(&c[i]);
        free(c[i].want);
        c[i].want = NULL;
    }
}

void puzzle_case_text(const struct puzzle_case *c, char *buf, size_t len)
{
    const struct puzzle *q = &c->inst;
    char g[32], b[32], size[96] = "";
    shape_text(q->grid, g, sizeof g);
    shape_text(q->block, b, sizeof b);
    if (q->def)
        puzzle_def_case_sizes(q, c->index, size, sizeof size);
    else if (c->m > 0)
        snprintf(size, sizeof size, _("%d rows of %d, "), c->m, c->n);
    else if (arg_named(q, "size"))
        snprintf(size, sizeof size, _("size %d, "), c->n);
    if (c->seed)
        snprintf(buf, len, _("%s<<<%s, %s>>>, %srandom inputs (seed %u)"), q->kernel, g, b, size, c->seed);
    else
        snprintf(buf, len, _("%s<<<%s, %s>>>, %sthe stated inputs"), q->kernel, g, b, size);
}

int puzzle_case_out_floats(const struct puzzle_case *c)
{
    for (int k = 0; k < c->inst.nargs; k++)
        if (c->inst.args[k].kind == PZ_OUT) return c->alloc[k];
    return 0;
}

/* The bit patterns of an array's whole allocation: fill around the values. */
static void alloc_literal(struct sb *b, const char *name, int alloc, int front, const float *v, int len,
                          unsigned fill)
{
    sb_add(b, "    static const unsigned %s[%d] = {", name, alloc);
    for (int i = 0; i < alloc; i++) {
        unsigned u = fill;
        if (v && i >= front && i < front + len) memcpy(&u, &v[i - front], sizeof u);
        sb_add(b, "%s0x%xu", i ? (i % 8 ? ", " : ",\n        ") : "", u);
    }
    sb_add(b, "};\n");
}

char *puzzle_driver(const struct puzzle_case *cases, int ncases, const char *student_path, const char *student_text,
                    size_t student_len, const char *harness_name, const char *mark)
{
    struct sb b = {0};
    sb_add(&b, "#line 1 \"%s\"\n", student_path);
    sb_add(&b, "%.*s", (int)student_len, student_text);
    if (student_len && student_text[student_len - 1] != '\n') sb_add(&b, "\n");
    sb_add(&b, "#line 1 \"%s\"\n", harness_name);
    sb_add(&b, "#include <stdio.h>\n#include <string.h>\n");
    sb_add(&b, "static int gpulab_fail(const char *c, const char *what, cudaError_t e)\n{\n"
               "    fprintf(stderr, \"%%s: %%s failed: %%s (%%s)\\n\", c, what, cudaGetErrorName(e), cudaGetErrorString(e));\n"
               "    return 3;\n}\n");
    sb_add(&b, "int main(int argc, char **argv)\n{\n    if (argc < 2) return 2;\n    cudaError_t e;\n"
               "    FILE *f = fopen(argv[1], \"wb\");\n"
               "    if (!f) { fprintf(stderr, \"cannot write %%s\\n\", argv[1]); return 2; }\n");
    for (int ci = 0; ci < ncases; ci++) {
        const struct puzzle_case *c = &cases[ci];
        const struct puzzle *q = &c->inst;
        char text[256], what[320];
        puzzle_case_text(c, text, sizeof text);
        snprintf(what, sizeof what, "case %d of %d (%s)", ci + 1, ncases, text);
        sb_add(&b, "    {\n    const char *gpulab_case = \"");
        for (const char *t = what; *t; t++) sb_add(&b, *t == '"' || *t == '\\' ? "\\%c" : "%c", *t);
        sb_add(&b, "\";\n");
        int nin = 0;
        for (int k = 0; k < q->nargs; k++) {
            const struct puzzle_arg *a = &q->args[k];
            if (a->kind == PZ_INT) continue;
            char lit[64];
            snprintf(lit, sizeof lit, "gpulab_v_%s", a->name);
            /* an output that starts at 0 (out_zero): zeros where its values go */
            float *zeros = a->kind == PZ_OUT && q->out_zero ? calloc((size_t)puzzle_arg_len(a) + 1, sizeof *zeros) : NULL;
            if (a->kind == PZ_OUT && q->out_zero && !zeros) b.oom = 1;
            alloc_literal(&b, lit, c->alloc[k], c->front[k], a->kind == PZ_IN ? c->in[nin] : zeros,
                          puzzle_arg_len(a), a->kind == PZ_IN ? PUZZLE_POISON : PUZZLE_UNWRITTEN);
            free(zeros);
            if (a->kind == PZ_IN) nin++;
            /* the allocation has the parameter's name: the simulator's messages use it */
            sb_add(&b, "    float *%s = 0;\n", a->name);
            sb_add(&b, "    if ((e = cudaMalloc((void **)&%s, sizeof gpulab_v_%s)) != cudaSuccess) "
                       "return gpulab_fail(gpulab_case, \"cudaMalloc\", e);\n", a->name, a->name);
            sb_add(&b, "    cudaMemcpy(%s, gpulab_v_%s, sizeof gpulab_v_%s, cudaMemcpyHostToDevice);\n",
                   a->name, a->name, a->name);
        }
        sb_add(&b, "    fprintf(stderr, \"%s%d\\n\"); fflush(stderr);\n", mark, ci);
        sb_add(&b, "    %s<<<dim3(%u, %u), dim3(%u, %u)>>>(", q->kernel, q->grid[0], q->grid[1], q->block[0],
               q->block[1]);
        for (int k = 0; k < q->nargs; k++) {
            if (q->args[k].kind == PZ_INT)
                sb_add(&b, "%s%d", k ? ", " : "", q->args[k].value);
            else
                sb_add(&b, "%s%s + %d", k ? ", " : "", q->args[k].name, c->front[k]);
        }
        sb_add(&b, ");\n");
        sb_add(&b, "    if ((e = cudaGetLastError()) != cudaSuccess) return gpulab_fail(gpulab_case, \"the launch\", e);\n"
                   "    if ((e = cudaDeviceSynchronize()) != cudaSuccess) return gpulab_fail(gpulab_case, \"the kernel\", e);\n");
        const struct puzzle_arg *o = puzzle_out(q);
        int on = puzzle_case_out_floats(c);
        sb_add(&b, "    static float gpulab_back[%d];\n", on);
        sb_add(&b, "    if ((e = cudaMemcpy(gpulab_back, %s, sizeof gpulab_back, cudaMemcpyDeviceToHost)) != cudaSuccess)\n"
                   "        return gpulab_fail(gpulab_case, \"copying the output back\", e);\n", o->name);
        sb_add(&b, "    if (fwrite(gpulab_back, sizeof(float), %d, f) != %d) { fprintf(stderr, \"cannot write %%s\\n\", argv[1]); return 2; }\n",
               on, on);
        for (int k = 0; k < q->nargs; k++)
            if (q->args[k].kind != PZ_INT) sb_add(&b, "    cudaFree(%s);\n", q->args[k].name);
        sb_add(&b, "    }\n");
    }
    sb_add(&b, "    if (fclose(f) != 0) { fprintf(stderr, \"cannot write %%s\\n\", argv[1]); return 2; }\n"
               "    return 0;\n}\n");
    return sb_done(&b);
}

/* ------------------------------------------------------------ comparison */

int puzzle_is_unwritten(float f)
{
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u == PUZZLE_UNWRITTEN;
}

void puzzle_expected(const struct puzzle *p, float *out)
{
    float *in[PUZZLE_MAX_ARGS] = {0};
    int nin = 0;
    for (int k = 0; k < p->nargs; k++) {
        const struct puzzle_arg *a = &p->args[k];
        if (a->kind != PZ_IN) continue;
        in[nin] = malloc((size_t)puzzle_arg_len(a) * sizeof(float));
        if (in[nin]) puzzle_fill(a, in[nin]);
        nin++;
    }
    int ok = p->expect != NULL;
    for (int k = 0; k < nin; k++) ok &= in[k] != NULL;
    if (ok) p->expect(p, (const float *const *)in, out);
    for (int k = 0; k < nin; k++) free(in[k]);
}

void puzzle_compare(const struct puzzle *p, const float *got, struct puzzle_verdict *v)
{
    int n = puzzle_arg_len(puzzle_out(p));
    float *want = malloc((size_t)n * sizeof *want);
    memset(v, 0, sizeof *v);
    v->first = -1;
    if (!want) return;
    puzzle_expected(p, want);
    for (int i = 0; i < n; i++) {
        int unw = puzzle_is_unwritten(got[i]);
        /* whole numbers: a right kernel is exact in any order; else the stated tolerance */
        int right = !unw && fabsf(got[i] - want[i]) <= puzzle_tolerance(p) * fmaxf(1.0f, fabsf(want[i]));
        if (right) continue;
        v->nwrong++;
        v->nunwritten += unw;
        if (v->first < 0) {
            v->first = i;
            v->expected = want[i];
            v->got = got[i];
            v->unwritten = unw;
        }
    }
    v->pass = v->nwrong == 0;
    free(want);
}

void puzzle_case_compare(const struct puzzle_case *c, const float *alloc, float *want, struct puzzle_verdict *v)
{
    const struct puzzle *q = &c->inst;
    int n = puzzle_arg_len(puzzle_out(q)), front = 0, total = puzzle_case_out_floats(c);
    for (int k = 0; k < q->nargs; k++)
        if (q->args[k].kind == PZ_OUT) front = c->front[k];
    memset(v, 0, sizeof *v);
    v->first = -1;
    if (c->want)
        memcpy(want, c->want, (size_t)n * sizeof *want);
    else
        q->expect(q, (const float *const *)c->in, want);
    for (int i = 0; i < total; i++) {
        int at = i - front;
        int unw = puzzle_is_unwritten(alloc[i]);
        if (at < 0 || at >= n) {
            if (!unw && v->outside++ == 0) v->first_outside = at;
            continue;
        }
        /* whole numbers: a right kernel is exact in any order; else the stated tolerance */
        int right = !unw && fabsf(alloc[i] - want[at]) <= puzzle_tolerance(q) * fmaxf(1.0f, fabsf(want[at]));
        if (right) continue;
        v->nwrong++;
        v->nunwritten += unw;
        if (v->first < 0) {
            v->first = at;
            v->expected = want[at];
            v->got = alloc[i];
            v->unwritten = unw;
        }
    }
    v->pass = v->nwrong == 0 && v->outside == 0;
}

void puzzle_index_text(const struct puzzle *p, int i, char *buf, size_t len)
{
    const struct puzzle_arg *o = puzzle_out(p);
    if (o->rows > 1)
        snprintf(buf, len, "%s[%d][%d]", o->name, i / o->cols, i % o->cols);
    else
        snprintf(buf, len, "%s[%d]", o->name, i);
}
